"""Issue 28, item 1: the importer of DPjudge's map files (``calhamer.boards.dpjudge``) and
``calhamer board import``.

Every one of DPjudge's 38 maps and the ``diplomacy`` package's 14 imports, or names on one
line each (file, line, directive) what it cannot carry, and each such directive is a known
limit in docs/boards.md; small map files written here hold each directive's reading.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
from pathlib import Path

import pytest

from calhamer.boards.dpjudge import ImportRefused, import_map
from calhamer.cli import main
from calhamer.errors import CalhamerError

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "boards.md").read_text(encoding="utf-8")


def _script():
    spec = importlib.util.spec_from_file_location("dpjudge_boards",
                                                  ROOT / "scripts" / "dpjudge-boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REFERENCE = _script().find_reference()
DPJUDGE_MAPS = sorted(REFERENCE.glob("*.map")) if REFERENCE else []


def _diplomacy_maps() -> list[Path]:
    import diplomacy

    return sorted((Path(os.path.dirname(diplomacy.__file__)) / "maps").glob("*.map"))


DIPLOMACY_MAPS = _diplomacy_maps()
LINE = re.compile(r"^[\w.-]+:\d+: \S.*: \S.*$")


def test_the_reference_maps_are_there() -> None:
    assert REFERENCE is not None, "shared/reference/dpjudge/maps is not beside the repository"
    assert len(DPJUDGE_MAPS) == 38
    assert len(DIPLOMACY_MAPS) == 14


def _known_limits() -> str:
    start = DOCS.index("### Known limits")
    return DOCS[start:DOCS.index("\n## ", start) if "\n## " in DOCS[start:] else None]


def _check_imports_or_names_limits(path: Path) -> None:
    imported = import_map(path)
    assert imported.board["provinces"] and imported.board["powers"]
    for problem in imported.problems:
        assert LINE.match(str(problem)), str(problem)
        assert "\n" not in str(problem)
    try:
        import_map(path, strict=True)
    except ImportRefused as refused:
        assert refused.problems == imported.lost
        limits = _known_limits()
        for problem in refused.problems:
            assert f"`{problem.limit}`" in limits, f"{problem}: not a known limit"
    else:
        assert not imported.lost


@pytest.mark.parametrize("path", DPJUDGE_MAPS, ids=lambda p: p.name)
def test_item1_every_dpjudge_map_imports_or_names_its_limits(path: Path) -> None:
    _check_imports_or_names_limits(path)


@pytest.mark.parametrize("path", DIPLOMACY_MAPS, ids=lambda p: p.name)
def test_item1_every_diplomacy_package_map_imports_or_names_its_limits(path: Path) -> None:
    _check_imports_or_names_limits(path)


def test_item1_dpjudge_standard_is_calhamers_standard_board() -> None:
    """The case conventions read right: DPjudge's standard board has calhamer's adjacency,
    terrain, centres and start, edge for edge."""
    import tomllib

    imported = import_map(REFERENCE / "standard.map")
    ours = tomllib.loads((ROOT / "src/calhamer/maps/standard.toml").read_text())

    def edges(table: dict[str, str]) -> set[frozenset[str]]:
        return {frozenset((a, b)) for a, v in table.items() for b in v.split()}

    for kind in ("army", "fleet"):
        assert edges(imported.board[kind]) == edges(ours[kind]), kind
    for code, entry in ours["provinces"].items():
        got = imported.board["provinces"][code]
        for key in ("type", "sc", "home", "coasts"):
            assert got.get(key) == entry.get(key), (code, key)
    assert {k: sorted(v) for k, v in imported.board["start"]["units"].items()} == \
        {k: sorted(v) for k, v in ours["start"]["units"].items()}
    assert imported.board["map"]["victory_centers"] == 18


# -- each directive, on a small board ------------------------------------------------------

BASE = """\
Alpha = alp alfa
Bravo Sea = bra
Charlie = cha
Delta = del
Echo (north coast) = ech/nc
Echo (south coast) = ech/sc
Echo = ech
Fox Sea = fox
WATER BRA ABUTS ALP CHA ECH/NC FOX
WATER FOX ABUTS BRA ECH/SC CHA
COAST ALP ABUTS BRA cha DEL ech
COAST CHA ABUTS alp BRA del FOX
LAND DEL ABUTS ALP cha ECH
COAST ECH/NC ABUTS BRA
COAST ECH/SC ABUTS FOX
COAST ech ABUTS ALP BRA DEL FOX
"""
POWERS = """\
NORTH (NORTHERN) ALP
A ALP
SOUTH (SOUTHERN:S) ECH
F ECH/SC
UNOWNED CHA DEL
"""


def _board(tmp_path: Path, text: str, name: str = "test.map", base: str = BASE,
           powers: str = POWERS) -> Path:
    (tmp_path / "base.geography").write_text(base)
    (tmp_path / "base.politics").write_text(powers)
    path = tmp_path / name
    path.write_text("USE base.geography base.politics\n" + text)
    return path


def _edges(board: dict, kind: str) -> set[tuple[str, str]]:
    return {(a, b) for a, v in board[kind].items() for b in v.split()}


def test_item1_abuts_case_conventions_give_each_unit_type_its_edges(tmp_path: Path) -> None:
    board = import_map(_board(tmp_path, "")).board
    army, fleet = _edges(board, "army"), _edges(board, "fleet")
    # "cha" after ALP: armies only; CHA lists "alp" back, so no fleet edge either way.
    assert ("ALP", "CHA") in army and ("ALP", "CHA") not in fleet
    # "ech" (the province of a split coast): an army edge; fleets reach only its coasts.
    assert ("ALP", "ECH") in army
    assert ("BRA", "ECH/NC") in fleet and ("FOX", "ECH/SC") in fleet
    assert all("ECH" not in (a, b) for a, b in fleet)
    # Seas never in army adjacency, land never in fleet adjacency.
    assert not {a for e in army for a in e} & {"BRA", "FOX"}
    assert not {a for e in fleet for a in e} & {"DEL"}
    assert board["provinces"]["ECH"] == {"name": "Echo", "type": "coast", "coasts": ["NC", "SC"],
                                         "sc": True, "home": "SOUTH"}
    assert board["provinces"]["ALP"]["aliases"] == ["alfa"]
    assert board["start"]["units"] == {"NORTH": ["A ALP"], "SOUTH": ["F ECH/SC"]}


def test_item1_title_case_entry_is_fleet_only_and_one_way_edges_go_to_oneway(
        tmp_path: Path) -> None:
    path = _board(tmp_path, "AMEND ALP ABUTS -cha Cha\nAMEND DEL ABUTS -ALP\n")
    board = import_map(path).board
    fleet, army = _edges(board, "fleet"), _edges(board, "army")
    # ALP now lists "Cha" (fleets only) but CHA lists "alp" (armies only): each one way.
    assert ("ALP", "CHA") not in army and ("ALP", "CHA") not in fleet
    # Each one way: CHA -> ALP for armies, ALP -> CHA for fleets; and DEL no longer lists
    # ALP, so ALP -> DEL is one way too.
    assert board["oneway"] == {"army": ["ALP DEL", "CHA ALP"], "fleet": ["ALP CHA"]}


def test_item1_port_convoys_shut_is_impassable(tmp_path: Path) -> None:
    path = _board(tmp_path, "Golf = gol\nPORT CHA ABUTS alp BRA del FOX\nSHUT GOL ABUTS ALP\n")
    board = import_map(path).board
    assert board["provinces"]["CHA"]["convoys"] is True
    assert board["provinces"]["GOL"]["type"] == "impassable"
    assert all("GOL" not in (a, b) for a, b in _edges(board, "army"))


def test_item1_drop_rename_and_unplayed(tmp_path: Path) -> None:
    text = ("DROP FOX\nDEL -> Dover = dov del\nUNPLAYED NORTH\n"
            "WEST (WESTERN) DOV\nA DOV\n")
    board = import_map(_board(tmp_path, text)).board
    assert "FOX" not in board["provinces"] and "DEL" not in board["provinces"]
    assert board["provinces"]["DOV"]["name"] == "Dover"
    assert ("ALP", "DOV") in _edges(board, "army")
    assert "NORTH" not in board["powers"]
    # ALP was only NORTH's home: with NORTH gone it is no centre (as DPjudge reads it).
    assert "sc" not in board["provinces"]["ALP"]
    assert board["start"]["units"] == {"SOUTH": ["F ECH/SC"], "WEST": ["A DOV"]}


def test_item1_homes_owns_unowned_and_dummies(tmp_path: Path) -> None:
    text = "NORTH -ALP\nOWNS ALP CHA\nUNOWNED -DEL\nDUMMY SOUTH\n"
    imported = import_map(_board(tmp_path, text))
    board = imported.board
    assert "home" not in board["provinces"]["ALP"] and board["provinces"]["ALP"]["sc"]
    assert "sc" not in board["provinces"]["DEL"]
    assert board["start"]["centers"] == {"NORTH": ["ALP", "CHA"], "SOUTH": ["ECH"]}
    assert imported.options["unplayed"] == ["SOUTH"]


def test_item1_rules_become_variant_options(tmp_path: Path) -> None:
    imported = import_map(_board(tmp_path, "RULE BUILD_ANY\nRULE NO_DRAW\nVICTORY 2\n"))
    assert imported.options == {"build_sites": "owned", "draw_vote": False,
                                "solo_needs_lead": True}
    assert imported.board["map"]["victory_centers"] == 2
    assert import_map(_board(tmp_path, "RULE HOME_BUILDS\n")).options["build_sites"] == \
        "any-home"
    assert "build_sites" not in import_map(_board(tmp_path, "RULE BUILD_ANY\nRULE !BUILD_ANY\n")
                                           ).options


def test_item1_flow_and_begin_become_the_calendar(tmp_path: Path) -> None:
    text = ("BEGIN A.D. 1425 MOVEMENT\nFLOW NEWYEAR:5\nFLOW A.D.:MOVEMENT,RETREATS\n"
            "FLOW IFYEARDIV:10\nFLOW A.D.:ADJUSTMENTS\n")
    board = import_map(_board(tmp_path, text)).board
    assert board["calendar"] == {"seasons": [{"code": "Y", "name": "Year"}],
                                 "winter": {"code": "W", "name": "Winter"},
                                 "year_step": 5, "adjust_every": 2}
    assert board["map"]["start_phase"] == "Y1425M"
    plain = import_map(_board(tmp_path, "BEGIN WINTER 1900 ADJUSTMENTS\n")).board
    assert "calendar" not in plain and plain["map"]["start_phase"] == "W1900A"
    mobilize = import_map(_board(tmp_path, "RULE MOBILIZE\n")).board
    assert mobilize["map"]["start_phase"] == "W1900A" and mobilize["start"]["units"] == {}


def test_item1_unsupported_directives_are_named_with_file_and_line(tmp_path: Path) -> None:
    text = ("RULE CD_BUILDS\nAMEND FOX ABUTS *ALP\nNORTH *DEL\nIN SPRING: WATER DEL\n"
            "LEAGUE X\nNOTIFY someone@example.org\n")
    path = _board(tmp_path, text)
    imported = import_map(path)
    lines = [str(p) for p in imported.problems]
    assert "test.map:2: RULE CD_BUILDS: dummy powers" in "\n".join(lines)
    assert any(line.startswith("test.map:3: FOX ABUTS *ALP: the Cape of Good Hope")
               for line in lines)
    assert any(line.startswith("test.map:4: NORTH *DEL: a partisan site") for line in lines)
    assert any(line.startswith("test.map:5: IN SPRING: map changes") for line in lines)
    assert any(line.startswith("test.map:6: LEAGUE: leagues") for line in lines)
    notify = next(p for p in imported.problems if p.directive == "NOTIFY")
    assert not notify.lost  # changes nothing in play: a note, which --strict accepts
    with pytest.raises(ImportRefused) as refused:
        import_map(path, strict=True)
    assert len(refused.value.problems) == 5
    fleet = _edges(imported.board, "fleet")
    assert ("FOX", "ALP") not in fleet and "oneway" not in imported.board  # left out whole
    assert ("BRA", "FOX") in fleet


def test_item1_bad_input_is_one_line_never_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(CalhamerError, match="no such map file"):
        import_map(tmp_path / "missing.map")
    junk = tmp_path / "junk.map"
    junk.write_bytes(b"\x00\xff just some text\nand = more\n")
    with pytest.raises(CalhamerError, match="not a DPjudge map file"):
        import_map(junk)
    missing_use = _board(tmp_path, "USE nowhere.map\n")
    lines = [str(p) for p in import_map(missing_use).lost]
    assert any("nowhere.map cannot be read" in line for line in lines)


def test_item1_a_malformed_flow_is_named_not_a_traceback(tmp_path: Path) -> None:
    """FLOW lines that give no season with its phases, or a divisor that is no number: each
    is named on its line, and with no movement season left the standard calendar is used."""
    text = "FLOW Tyrolia = tyr\nFLOW IFYEARDIV:x\nFLOW SPRING:\n"
    imported = import_map(_board(tmp_path, text))
    lines = [str(p) for p in imported.problems]
    assert "test.map:2: FLOW TYROLIA: not a season with its phases" in "\n".join(lines)
    assert any(line.startswith("test.map:3: FLOW IFYEARDIV:X: the divisor") for line in lines)
    assert any(line.startswith("test.map:4: FLOW SPRING:: not a season") for line in lines)
    assert "test.map:2: FLOW: no season has a movement phase" in "\n".join(lines)
    assert "calendar" not in imported.board and imported.board["map"]["start_phase"] == "S1901M"
    with pytest.raises(ImportRefused):
        import_map(_board(tmp_path, text), strict=True)


# -- the command ----------------------------------------------------------------------------

def test_item1_board_import_writes_board_and_variant(tmp_path: Path, capsys) -> None:
    path = _board(tmp_path, "RULE BUILD_ANY\nNOTIFY a@example.org\n")
    out = tmp_path / "out" / "mine.toml"
    out.parent.mkdir()
    assert main(["board", "import", str(path), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "test.map:3: NOTIFY" in captured.err
    assert f"wrote {out}" in captured.out
    variant = (tmp_path / "out" / "mine.variant.toml").read_text()
    assert 'board = "mine.toml"' in variant and 'build_sites = "owned"' in variant
    import tomllib

    board = tomllib.loads(out.read_text())
    assert board["map"]["name"] == "mine" and set(board["powers"]) == {"NORTH", "SOUTH"}


def test_item1_board_import_strict_refuses_and_writes_nothing(tmp_path: Path, capsys) -> None:
    path = _board(tmp_path, "RULE CD_BUILDS\n")
    out = tmp_path / "x.toml"
    assert main(["board", "import", str(path), "-o", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert "test.map:2: RULE CD_BUILDS:" in err and "is refused" in err
    assert not out.exists() and not (tmp_path / "x.variant.toml").exists()
    assert main(["board", "import", str(tmp_path / "none.map")]) == 2
    assert "no such map file" in capsys.readouterr().err


def test_item1_importer_is_outside_the_core() -> None:
    """Only the importer itself and the applications above the core (the command line, the
    web judge's board listing, the pictures of shipped boards) import calhamer.boards; the
    engine never does."""
    package = ROOT / "src" / "calhamer"
    for path in package.rglob("*.py"):
        rel = path.relative_to(package).parts
        if rel[0] in ("boards", "cli", "server", "render"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.startswith("calhamer.boards") for n in names), path
