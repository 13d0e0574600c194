"""Issue 28, item 2: DPjudge's boards shipped, played by name, listed and offered; and every
imported board (DPjudge's 38 maps, the ``diplomacy`` package's 14) plays a random game.

Many boards use the rules vocabulary of issue 30 (``build_sites``, ``solo_needs_lead``,
``unplayed``, ``[calendar]``, ``convoys``, ``[oneway]``); every board is played for real, with
no expected failures.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.simulate import GameSpec, play_game
from calhamer.variants import find_variant, shipped_files

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "src" / "calhamer" / "maps" / "dpjudge"


def _script():
    spec = importlib.util.spec_from_file_location("dpjudge_boards",
                                                  ROOT / "scripts" / "dpjudge-boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
REFERENCE = SCRIPT.find_reference()
SHIPPED = sorted(n for n, path in shipped_files().items() if path.parent.name == "dpjudge")

def _play(variant: str, start_phase: str, year_step: int = 1) -> dict:
    """A random game of ``variant`` for 15 game years (1901 to 1915 on the standard board)."""
    year = int(re.sub(r"\D", "", start_phase[1:]) or 0)
    line = play_game(GameSpec(variant=variant, policy="random", seed="dpjudge",
                              max_year=year + 14 * year_step, keep_game=False), 0)
    assert line["phases"] > 2
    last_year = int(re.sub(r"\D", "", line["last_phase"][1:]))
    assert line["result"]["ending"] != "draw" or last_year * year_step > \
        (year + 14 * year_step) * year_step, line
    return line


# -- the shipped files --------------------------------------------------------------------

def test_item2_shipped_files_are_what_the_script_writes() -> None:
    assert REFERENCE is not None, "shared/reference/dpjudge/maps is not beside the repository"
    files, refused = SCRIPT.render_all(REFERENCE)
    for path, text in files.items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, \
            f"{path} differs: run python scripts/dpjudge-boards.py"
    assert SCRIPT.stale_files(files) == []
    assert len(SHIPPED) == 38 - len(refused) == 28


def test_item2_boards_carry_dpjudges_licence_and_attribution() -> None:
    notice = (MAPS / "NOTICE").read_text(encoding="utf-8")
    assert "Copyright 2017 Manus Hand" in notice and "MIT licence" in notice
    assert "Permission is hereby granted, free of charge" in notice
    for path in sorted(MAPS.glob("*.toml")):
        head = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
        assert "MIT licence, (c) 2017 Manus Hand; see NOTICE" in head, path.name
        assert "DPjudge's map files" in head, path.name
    for name in SHIPPED:
        assert "Manus Hand" in find_variant(name).source  # type: ignore[attr-defined]


def test_item2_each_board_is_named_and_its_aliases_clash_with_nothing() -> None:
    from calhamer.variants import BUILT_IN

    taken = set(BUILT_IN) | {a for _, aliases in BUILT_IN.values() for a in aliases}
    for name in SHIPPED:
        variant = find_variant(name)
        assert name.startswith("dpjudge-") and variant.name == name
        for alias in variant.aliases:
            assert find_variant(alias).name == name and alias not in taken
        board = tomllib.loads((ROOT / "src/calhamer/variants/files/dpjudge" /
                               f"{name}.toml").read_text())["board"]
        assert (ROOT / "src/calhamer/maps" / f"{board}.toml").is_file()
    assert find_variant("youngstown").name == "dpjudge-youngstown"
    for godip_has_it in ("hundred", "pure", "chaos", "canton", "ancmed", "crowded"):
        # the bare name is godip's board, or nobody's: never DPjudge's
        with contextlib.suppress(CalhamerError):
            assert find_variant(godip_has_it).name != f"dpjudge-{godip_has_it}"


def test_item2_calhamer_variants_lists_the_dpjudge_family(capsys) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    family = out[out.index("DPjudge's boards ("):]
    for name in SHIPPED:
        assert f"\n  {name} " in family


@pytest.mark.parametrize("name", SHIPPED)
def test_item2_each_shipped_variant_plays_by_name_to_1915(name: str) -> None:
    board = tomllib.loads((MAPS / f"{name.removeprefix('dpjudge-')}.toml").read_text())
    step = board.get("calendar", {}).get("year_step", 1)
    _play(name, board["map"]["start_phase"], step)


@pytest.mark.parametrize("name", SHIPPED)
def test_item2_the_web_judge_offers_each_shipped_variant(name: str) -> None:
    from calhamer.server.services.games import servable_variants

    assert name in {n for n, _ in servable_variants()}


# -- every imported board plays ------------------------------------------------------------

def _all_maps() -> list[Path]:
    import os

    import diplomacy

    ours = sorted(REFERENCE.glob("*.map")) if REFERENCE else []
    theirs = sorted((Path(os.path.dirname(diplomacy.__file__)) / "maps").glob("*.map"))
    return ours + theirs


@pytest.mark.parametrize("path", _all_maps(), ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
@pytest.mark.parametrize("rules", ["standard", "its own"])
def test_item2_every_imported_board_plays_a_random_game_to_1915(
        path: Path, rules: str, tmp_path: Path) -> None:
    """Each map imported (without --strict), written, and played: with the standard rules
    on the board (its facts), and with the variant file of its own rules."""
    from calhamer.boards.dpjudge import import_map

    imported = import_map(path)
    board = tmp_path / "board.toml"
    board.write_text(imported.board_text(), encoding="utf-8")
    variant = tmp_path / "board.variant.toml"
    variant.write_text(imported.variant_text("board.toml"), encoding="utf-8")
    step = imported.board.get("calendar", {}).get("year_step", 1)
    start = imported.board["map"]["start_phase"]
    _play(f"{board}+standard" if rules == "standard" else str(variant), start, step)


# -- DPjudge's boards beside godip's -------------------------------------------------------

def _compare_script():
    spec = importlib.util.spec_from_file_location("compare_boards",
                                                  ROOT / "scripts" / "compare-boards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPARE = _compare_script()


@pytest.mark.parametrize("stem", sorted(COMPARE.PAIRS))
def test_item2_each_difference_from_godips_board_is_listed_in_the_docs(stem: str) -> None:
    other = ROOT / COMPARE.PAIRS[stem]
    assert other.is_file(), f"{other.relative_to(ROOT)} is written by scripts/godip-boards.py"
    from calhamer.boards.dpjudge import import_map

    ours = import_map(REFERENCE / f"{stem}.map").board
    lines = COMPARE.compare(ours, tomllib.loads(other.read_text(encoding="utf-8")))
    docs = (ROOT / "docs" / "boards.md").read_text(encoding="utf-8")
    section = docs[docs.index("### DPjudge's boards beside godip's"):]
    entry = section[section.index(f"**{stem}**"):]
    entry = entry[:entry.index("\n**", 1)] if "\n**" in entry[1:] else entry
    if stem == "youngstown":  # another board: the count of differences is given
        assert f"finds {len(lines)} differences" in entry
        return
    for line in lines:
        assert f"\n- {line}\n" in entry + "\n", f"{stem}: {line!r} is not listed"
    assert entry.count("\n- ") == len(lines)
