"""godip's 22 boards as calhamer files (issue 30, items 2 and 4).

The map and variant files are written by scripts/godip-boards.py from godip's public variant
definitions. These tests check that the script reproduces the committed files, that each
board has what godip's definition and published rules say (counts written down here from
them), that orders written as godip writes them are read, and that each variant plays in the
library, the command line (here) and the web judge (tests/server/test_godip_boards_web.py).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from calhamer import CalhamerError, Game, Position
from calhamer.cli import main
from calhamer.map import ARMY, FLEET, load_map
from calhamer.notation import parse_order
from calhamer.simulate import GameSpec, play_game
from calhamer.variants import all_variants, find_variant, shipped_files

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "godip-boards.py"
MAPS = ROOT / "src" / "calhamer" / "maps" / "godip"
FILES = ROOT / "src" / "calhamer" / "variants" / "files" / "godip"
SNAPSHOT = os.environ.get("GODIP_SNAPSHOT", "/work/.mirror/zond+godip/repo")

# Each board as godip defines it: powers, provinces (coasts not counted), supply centres,
# the players' units at the start, the neutral garrison's units, and the solo target. The
# counts are those of godip's definitions (its nations, its graph's provinces and SC calls,
# the units its start sets, SCCountWinner); where a variant's published rules state a number
# it agrees (checked again in test_the_rules_texts_numbers_hold).
BOARDS: dict[str, tuple[int, int, int, int, int, int]] = {
    "ancient-mediterranean": (5, 79, 34, 15, 0, 18),
    "canton": (7, 81, 36, 23, 0, 19),
    "chaos": (34, 75, 34, 0, 0, 18),
    "classical-crowded": (11, 75, 35, 35, 0, 18),
    "cold-war": (2, 90, 27, 12, 0, 17),
    "empires-and-coalitions": (9, 96, 44, 26, 0, 23),
    "europe-1939": (8, 148, 55, 37, 1, 28),
    "fleet-rome": (7, 75, 34, 22, 0, 18),
    "france-austria": (2, 75, 34, 6, 0, 18),
    "hundred": (3, 41, 17, 14, 0, 9),
    "italy-germany": (2, 75, 34, 6, 0, 18),
    "north-sea-wars": (4, 31, 15, 8, 0, 8),
    "pure": (7, 7, 7, 7, 0, 4),
    "sengoku": (7, 81, 37, 14, 7, 25),
    "twenty-twenty": (20, 215, 98, 63, 0, 49),
    "unconstitutional": (6, 87, 35, 20, 15, 18),
    "vietnam-war": (5, 53, 25, 15, 0, 15),
    "western-world-901": (9, 157, 64, 36, 28, 33),
    "year-1908": (7, 87, 40, 25, 0, 18),
    "youngstown-redux": (10, 183, 81, 44, 0, 28),
    "gateway-west": (7, 71, 35, 21, 0, 18),
    "three-kingdoms": (3, 42, 17, 12, 0, 9),
}
NAMES = list(BOARDS)
# The random games that take longest (the two largest boards).
SLOW = {"twenty-twenty", "youngstown-redux"}


def board_file(name: str) -> dict[str, Any]:
    return tomllib.loads((MAPS / f"{name}.toml").read_text(encoding="utf-8"))


def variant_file(name: str) -> dict[str, Any]:
    return tomllib.loads((FILES / f"{name}.toml").read_text(encoding="utf-8"))


# -- item 2.1: the script and its output ---------------------------------------------------


@pytest.mark.skipif(not Path(SNAPSHOT).is_dir(),
                    reason=f"godip's snapshot is not on this machine ({SNAPSHOT}; set "
                    "GODIP_SNAPSHOT to its path)")
def test_item_2_the_script_reproduces_the_committed_files(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--snapshot", SNAPSHOT, "--out",
                           str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for folder in (MAPS, FILES):
        written = tmp_path / folder.relative_to(ROOT)
        assert sorted(p.name for p in written.glob("*.toml")) == \
            sorted(p.name for p in folder.glob("*.toml"))
        for path in folder.glob("*.toml"):
            assert (written / path.name).read_bytes() == path.read_bytes(), path.name


def test_item_2_the_22_boards_and_their_variant_files_are_shipped() -> None:
    assert sorted(p.stem for p in MAPS.glob("*.toml")) == sorted(NAMES)
    assert sorted(p.stem for p in FILES.glob("*.toml")) == sorted(NAMES)
    assert {n for n, p in shipped_files().items() if p.parent.name == "godip"} == set(NAMES)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"maps/godip/*.toml"' in pyproject and '"variants/files/*/*.toml"' in pyproject


@pytest.mark.parametrize("name", NAMES)
def test_item_2_each_file_names_its_source(name: str) -> None:
    for path in (MAPS / f"{name}.toml", FILES / f"{name}.toml"):
        head = path.read_text(encoding="utf-8").split("\n\n")[0]
        assert "godip" in head and "github.com/zond/godip" in head
        assert "transcribed" in head and "scripts/godip-boards.py" in head
    doc = variant_file(name)
    assert doc["board"] == f"godip/{name}"
    assert doc["source"].startswith("godip (github.com/zond/godip)")
    assert doc["description"] and doc["title"]


def test_item_2_the_designer_is_named_where_godip_names_one() -> None:
    assert "designed by Don Hessong" in variant_file("ancient-mediterranean")["source"]
    assert "designed by Andy Schwarz" in (MAPS / "hundred.toml").read_text(encoding="utf-8")
    assert "designed by" not in variant_file("france-austria")["source"]  # godip names none


# -- item 2.1: the board's facts -----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_item_2_centres_and_start_match_godips_counts(name: str) -> None:
    powers, provinces, centres, units, garrison, solo = BOARDS[name]
    doc = board_file(name)
    assert len(doc["powers"]) == powers
    assert len(doc["provinces"]) == provinces
    assert sum(p.get("sc", False) for p in doc["provinces"].values()) == centres
    assert sum(len(u) for u in doc["start"]["units"].values()) == units
    neutral = doc.get("minor_powers", {}).get("NEUTRAL", {})
    assert len(neutral.get("units", [])) == garrison
    assert doc["map"]["victory_centers"] == solo
    homes = {c for c, p in doc["provinces"].items() if p.get("home") in doc["powers"]}
    owned = doc["start"].get("centers")
    if owned is None:  # each power starts with its home centres
        assert all(doc["provinces"][c].get("sc") for c in homes)
    else:
        assert {c for cs in owned.values() for c in cs} <= set(doc["provinces"])


def test_item_2_the_rules_texts_numbers_hold() -> None:
    # Year 1908: "18 of 40 supply centers are required for victory".
    assert BOARDS["year-1908"][2] == 40 and BOARDS["year-1908"][5] == 18
    # Hundred: "France starts with 5 units and 4 SCs".
    hundred = board_file("hundred")
    assert len(hundred["start"]["units"]["FRANCE"]) == 5
    assert sum(p.get("home") == "FRANCE" for p in hundred["provinces"].values()) == 4
    # Chaos: "34 players. 1 unit each", built in the first winter.
    chaos = board_file("chaos")
    assert chaos["map"]["start_phase"] == "W1900A" and not chaos["start"]["units"]
    homes = [p["home"] for p in chaos["provinces"].values() if "home" in p]
    assert sorted(homes) == sorted(chaos["powers"])
    # Pure: "each nation has only one SC, and each SC is adjacent to all others".
    pure = board_file("pure")
    assert all(len(near.split()) == 6 for near in pure["army"].values())
    # 1800: the four small powers "start with only two units" and a third home centre.
    empires = board_file("empires-and-coalitions")
    for small in ("DENMARK", "SICILY", "SPAIN", "OTTOMANEMPIRE"):
        assert len(empires["start"]["units"][small]) == 2
        assert sum(p.get("home") == small for p in empires["provinces"].values()) == 3
        assert len(empires["start"]["centers"][small]) == 2
    # Europe 1939: Yugoslavia's army in Serbia, not rebuilt.
    neutral = board_file("europe-1939")["minor_powers"]["NEUTRAL"]
    assert (neutral["units"], neutral["rebuild"], neutral["garrison"]) == (["A SER"], False, True)
    # Western World 901: an army in each of the 28 neutral centres, rebuilt while neutral.
    neutral = board_file("western-world-901")["minor_powers"]["NEUTRAL"]
    assert len(neutral["units"]) == len(neutral["centers"]) == 28 and neutral["rebuild"]
    # The provinces with two coasts that the rules texts count ("Thirteen provinces have dual
    # coasts: ...").
    dual = {"canton": 4, "empires-and-coalitions": 4, "hundred": 2, "north-sea-wars": 1,
            "twenty-twenty": 13, "vietnam-war": 2, "western-world-901": 5,
            "youngstown-redux": 6}
    for name, count in dual.items():
        provinces = board_file(name)["provinces"].values()
        assert sum(len(p.get("coasts", [])) == 2 for p in provinces) == count, name
    # Twenty Twenty: "first to 49 SC wins", or the lead that falls by one a year from 20.
    options = variant_file("twenty-twenty")["options"]
    assert (options["lead_margin"], options["lead_margin_year"]) == (20, 2001)
    assert options["victory_phase"] == "A" and options["build_sites"] == "any-home"


def _edges(table: dict[str, str]) -> set[tuple[str, str]]:
    return {(a, b) for a, near in table.items() for b in near.split()}


@pytest.mark.parametrize("name", NAMES)
def test_item_2_adjacency_is_symmetric_where_godips_is(name: str) -> None:
    doc = board_file(name)
    for kind in ("army", "fleet"):
        edges = _edges(doc[kind])
        assert {(b, a) for a, b in edges} == edges, kind
        oneway = {tuple(e.split()) for e in doc.get("oneway", {}).get(kind, [])}
        assert not oneway & edges and not {(b, a) for a, b in oneway} & edges
    # godip's only one-way edges: North Sea Wars' trade provinces, entered from the Central
    # North Sea and never left for it.
    expected = {"fleet": ["CNS GRA", "CNS IRO", "CNS WOO"]} if name == "north-sea-wars" else {}
    assert doc.get("oneway", {}) == expected


def test_item_2_coasts_convoying_coasts_and_garrisons_are_written() -> None:
    assert board_file("ancient-mediterranean")["provinces"]["BAL"]["convoys"] is True
    assert "BAL" not in board_file("ancient-mediterranean")["army"]  # islands: no army edge
    assert board_file("empires-and-coalitions")["provinces"]["GIB"]["convoys"] is True
    assert board_file("western-world-901")["provinces"]["JOR"]["coasts"] == ["EC", "WC"]
    assert board_file("vietnam-war")["provinces"]["MEO"]["coasts"] == ["RIVER", "WC"]
    assert board_file("hundred")["calendar"] == {
        "seasons": [{"code": "Y", "name": "Year"}], "winter": {"code": "W", "name": "Winter"},
        "year_step": 5, "adjust_every": 2}
    assert board_file("hundred")["map"]["start_phase"] == "Y1425M"
    assert board_file("ancient-mediterranean")["map"]["start_phase"] == "S1M"
    assert board_file("north-sea-wars")["map"]["start_phase"] == "S0M"
    for name in ("western-world-901", "sengoku", "unconstitutional", "europe-1939"):
        assert variant_file(name)["modules"] == ["garrisons"], name


def test_item_2_each_variants_rules_are_its_published_ones() -> None:
    owned = {"chaos", "gateway-west", "hundred", "sengoku", "three-kingdoms",
             "unconstitutional", "western-world-901"}
    for name in NAMES:
        options = variant_file(name)["options"]
        expected = "owned" if name in owned else "any-home" if name == "twenty-twenty" else None
        assert options.get("build_sites") == expected, name
        assert options["civil_disorder"] == "home-distance" and options["solo_needs_lead"]
    assert variant_file("chaos")["options"]["missing_builds"] == "army-first-winter"
    # Unconstitutional's published rules rebuild the neutrals; godip's code does not.
    assert board_file("unconstitutional")["minor_powers"]["NEUTRAL"]["rebuild"] is True
    assert board_file("france-austria")["powers"].keys() == {"AUSTRIA", "FRANCE"}
    assert board_file("italy-germany")["powers"].keys() == {"GERMANY", "ITALY"}


# -- item 3: orders and names as godip writes them -----------------------------------------

# Moves godip's rules texts describe, as godip writes them: (board, order, whether legal).
RULE_MOVES = [
    ("hundred", "A cal - lon", True), ("hundred", "F lon - cal", True),
    ("hundred", "F not/ec - nos", True),
    ("ancient-mediterranean", "F bal - lig", True), ("ancient-mediterranean", "A tar - bal", False),
    ("north-sea-wars", "F cns - woo", True), ("north-sea-wars", "F woo - cns", False),
    ("north-sea-wars", "F sea - jut/ec", True), ("north-sea-wars", "F sea - ams", False),
    ("empires-and-coalitions", "A gib - and", True), ("empires-and-coalitions", "A gib - mor",
                                                      False),
    ("western-world-901", "F jor/ec - ngs", True),
    ("vietnam-war", "F meo/river - pak", True),
    ("cold-war", "A den - swe", True), ("cold-war", "F den - swe", True),
    ("twenty-twenty", "A anc - vla", True), ("twenty-twenty", "F kor - nag", True),
    ("sengoku", "A biz H", True),
]


@pytest.mark.parametrize(("name", "text", "legal"), RULE_MOVES)
def test_item_3_orders_in_godips_abbreviations_are_read(name: str, text: str,
                                                         legal: bool) -> None:
    m = load_map(f"godip/{name}")
    order = parse_order(m, text, power=m.power_codes[0])
    kind = ARMY if text.startswith("A") else FLEET
    dest = getattr(order.order, "dest", None)
    if dest is not None:
        assert m.loc_name(dest) == text.split()[-1].upper()
        assert m.can_reach(kind, order.order.loc, dest) is legal


@pytest.mark.parametrize("name", NAMES)
def test_item_3_every_start_unit_and_coast_is_read_in_godips_spelling(name: str) -> None:
    m = load_map(f"godip/{name}")
    position = Position.initial(variant=find_variant(f"godip/{name}+standard"))
    for unit in position.units.values():
        text = f"{'AF'[unit.type]} {m.loc_name(unit.loc).lower()} H"
        assert parse_order(m, text, power=unit.power).order.loc == unit.loc
    for loc, coast in enumerate(m.loc_coast):
        if coast is not None:
            assert m.find_location(m.loc_name(loc).lower()) == loc


@pytest.mark.parametrize("name", ["empires-and-coalitions", "western-world-901",
                                  "unconstitutional", "twenty-twenty", "vietnam-war"])
def test_item_3_power_names_read_with_or_without_spaces(name: str) -> None:
    m = load_map(f"godip/{name}")
    several = [p for p in m.powers if " " in p.name]
    assert several
    for power in several:
        assert m.find_power(power.name) == power.code
        assert m.find_power(power.name.replace(" ", "")) == power.code
        assert " " not in power.code


def test_item_3_phase_documents_in_godips_spelling_are_read() -> None:
    from calhamer.formats import position_from_json

    # Western World 901: a nation named in three words, a fleet on Jorvik's east coast.
    for denmark in ("Kingdom of Denmark", "KingdomofDenmark"):
        position, orders, _ = position_from_json({
            "variant": "western-world-901", "phase": "S901M",
            "units": {denmark: ["F jor/ec", "A vik"], "Eastern Roman Empire": ["F att"]},
            "centers": {denmark: ["jel", "vik"]},
            "orders": {denmark: ["F jor/ec - ngs", "A vik H"]}})
        m = position.map
        assert {m.loc_name(u.loc) for u in position.units.values()
                if u.power == "KINGDOMOFDENMARK"} == {"JOR/EC", "VIK"}
        assert orders == {"KINGDOMOFDENMARK": ["F jor/ec - ngs", "A vik H"]}
    # Hundred's season letter, and the years 0 and 1 of North Sea Wars and Ancient
    # Mediterranean.
    for variant, phase, units in (("hundred", "Y1425M", {"England": ["F lon"]}),
                                  ("hundred", "Y1430R", {"Burgundy": ["A dij"]}),
                                  ("north-sea-wars", "S0M", {"Norse": ["F sor"]}),
                                  ("ancient-mediterranean", "F1M", {"Rome": ["F nea"]})):
        position, _, _ = position_from_json({"variant": variant, "phase": phase,
                                             "units": units, "centers": {}})
        assert position.phase.code == phase and len(position.units) == 1


# -- item 4: every place a variant is chosen ------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_item_4_each_variant_loads_by_its_name_and_godips(name: str) -> None:
    variant = find_variant(name)
    assert variant.name == name and variant.map_name == f"godip/{name}"
    assert variant.family == "godip"  # type: ignore[attr-defined]
    godip_name = board_file(name)["map"]["title"]
    assert find_variant(godip_name) is variant
    assert variant in all_variants()
    assert pickle.loads(pickle.dumps(variant)) is variant


def _years(name: str) -> tuple[int, int]:
    """The board's first year, and how many years a movement phase steps (Hundred's five)."""
    doc = board_file(name)
    return int(doc["map"]["start_phase"][1:-1]), doc.get("calendar", {}).get("year_step", 1)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW
                                  else n for n in NAMES])
def test_item_4_each_variant_plays_a_random_game_to_its_end(name: str) -> None:
    first, step = _years(name)
    last = first + 49 * step  # fifty movement years: to 1950 for a board of 1901
    line = play_game(GameSpec(variant=name, max_year=last, seed="godip"), 0)
    assert line["variant"] == name
    game = Game.from_json(line["game"])
    assert game.is_done() and game.result() is not None
    assert game.current.phase.year <= last + step
    assert all(c.ok for c in game.verify())


def test_item_4_game_new_hundred_works() -> None:
    game = Game.new("hundred")
    assert game.variant == "hundred" and game.phase == "Y1425M"
    assert sorted(game.powers()) == ["BURGUNDY", "ENGLAND", "FRANCE"]


def test_item_4_calhamer_simulate_plays_a_godip_variant(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--games", "1", "--variant", "north-sea-wars", "--no-games", "-q",
                 "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    line = json.loads(out)
    assert line["variant"] == "north-sea-wars" and line["result"]["ending"] in ("solo", "draw")
    assert "1 games in" in err or "1 game in" in err


def test_item_4_calhamer_variants_lists_godips_boards_with_their_sources(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    calhamer, _, rest = out.partition("godip's boards")
    godip, _, _ = rest.partition("Rule modules")
    assert "standard" in calhamer and "kriegsplomacy" in calhamer
    assert "github.com/zond/godip" in godip.splitlines()[0]
    for name, (powers, provinces, centres, *_) in BOARDS.items():
        title = board_file(name)["map"]["title"]
        assert f"  {name} " in godip or f"  {name}\n" in godip
        assert f"{title}: {powers} powers, {provinces} provinces, {centres} centres" in godip
    assert "source: godip (github.com/zond/godip), designed by Don Hessong" in godip
    assert "cannot be loaded" not in out


# -- the registry's lookup of shipped files (item 4), on a family of the test's own --------


@pytest.fixture
def a_family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A family of shipped variant files in a folder of the test's own."""
    import calhamer.variants as registry

    family = tmp_path / "files" / "tests"
    family.mkdir(parents=True)

    def reset() -> None:
        for cached in (registry.shipped_files, registry._file_aliases, registry._file_class):
            cached.cache_clear()
        registry._FOUND.clear()
        for name in [n for n in registry._LOADED if n not in registry.BUILT_IN]:
            del registry._LOADED[name]

    monkeypatch.setattr(registry, "_FILES", tmp_path / "files")
    reset()
    yield family
    monkeypatch.undo()
    reset()


def test_item_4_a_variant_shipped_as_a_file_is_found_named_and_travels(a_family: Path) -> None:
    (a_family / "tiny-pure.toml").write_text(
        'title = "Tiny Pure"\ndescription = "Pure under the standard rules."\n'
        'source = "a test"\naliases = ["Tiny Pure Diplomacy"]\nboard = "godip/pure"\n',
        encoding="utf-8")
    variant = find_variant("tiny-pure")
    assert (variant.name, variant.title, variant.map_name) == ("tiny-pure", "Tiny Pure",
                                                               "godip/pure")
    assert find_variant("TINY PURE DIPLOMACY") is variant
    assert variant.description == "Pure under the standard rules."  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(variant)) is variant
    game = Game.new("tiny-pure")
    assert game.variant == "tiny-pure" and game.phase == "S1901M"
    from calhamer.variants.catalogue import catalogue

    [entry] = [e for e in catalogue() if e.name == "tiny-pure"]
    assert (entry.family, entry.source, entry.size) == (
        "tests", "a test", "7 powers, 7 provinces, 7 centres")


def test_item_4_a_shipped_file_that_cannot_load_says_why_and_is_listed_so(
        a_family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (a_family / "broken.toml").write_text('board = "godip/pure"\n[options]\nno_such = 1\n',
                                          encoding="utf-8")
    with pytest.raises(CalhamerError, match=r"the variant 'broken' \(tests/broken.toml\) could "
                                            r"not be loaded: .*no_such"):
        find_variant("broken")
    assert "broken" not in {v.name for v in all_variants()}
    assert main(["variants"]) == 0
    assert "  broken                  cannot be loaded: the variant 'broken'" in \
        capsys.readouterr().out


# -- a board under the standard rules: what the board alone must allow --------------------


@pytest.mark.parametrize("name", NAMES)
def test_item_2_each_board_plays_two_years_under_the_standard_rules(name: str) -> None:
    first, step = _years(name)
    line = play_game(GameSpec(variant=f"godip/{name}+standard", max_year=first + 2 * step,
                              keep_game=False), 0)
    assert line["phases"] >= 3
