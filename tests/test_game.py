"""Tests of whole games kept in one file: playing, saving atomically, loading, exporting."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import calhamer.files as game_module  # where game files are written
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.game import FORMAT, Game, GameError, check_orders, dumps_pretty, write_atomically
from calhamer.phases import adjudicate
from calhamer.position import Position

SPRING = {
    "ENGLAND": ["F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
    "FRANCE": ["A Par - Pic", "A Mar H"],
    "GERMANY": ["A Mun - Bur"],
    "ITALY": ["A Ven - Tyr"],
    "AUSTRIA": ["A Vie - Tyr"],
}
FALL = {
    "ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY", "F NWG H"],
    "FRANCE": ["A MAR - BUR", "A PIC S A MAR - BUR"],
}


def played_to_winter() -> Game:
    game = Game.new()
    for power, lines in SPRING.items():
        game.set_orders(power, lines)
    game.process()
    for power, lines in FALL.items():
        game.set_orders(power, lines)
    game.process()
    return game


def results(game: Game, code: str, power: str) -> list[tuple[str, str]]:
    return [(r["result"], r["reason"]) for r in game.record(code).results[power]]


def test_new_game_starts_in_spring_1901() -> None:
    game = Game.new()
    assert (game.variant, game.rules) == ("standard", "datc")
    assert game.current.phase.code == "S1901M"
    assert len(game.current.units) == 22
    assert game.phases == ["S1901M"]
    assert game.outcome() is None
    assert Game.new(rules="1971").rules == "1971"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"variant": "chess"}, "there is no variant 'chess'"),
     ({"rules": "1066"}, "there is no rule edition '1066'")],
)
def test_new_game_refuses_unknown_names(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(CalhamerError, match=message):
        Game.new(**kwargs)


def test_a_game_through_bounce_dislodgement_retreat_and_winter() -> None:
    game = played_to_winter()
    assert game.phases == ["S1901M", "F1901M", "F1901R"]
    assert results(game, "S1901M", "ITALY")[0] == ("fails", "bounced 1v1 with A VIE")
    assert ("fails", "dislodged by A MAR (2v1) (no valid order given)") in results(
        game, "F1901M", "GERMANY"
    )
    # Germany must retreat from Burgundy, but not to Marseilles, where the attack came from.
    position = game.current
    assert [d.unit.power for d in position.dislodged] == ["GERMANY"]
    checks = game.set_orders("Germany", ["A BUR R MAR"])
    assert not checks[0].ok and "the attacker came from there" in checks[0].problem
    checks = game.set_orders("Germany", ["A Bur R Ruh"])
    assert checks[0].ok and checks[0].canonical == "A BUR R RUH"
    game.process()
    assert game.current.phase.code == "W1901A"
    # England took Norway and builds; building in Norway is refused (not a home centre).
    assert game.current.adjustments()["ENGLAND"] == 1
    bad = game.set_orders("ENGLAND", ["Build F Nwy"])
    assert "not one of ENGLAND's home centres" in bad[0].problem
    game.set_orders("ENGLAND", ["Build F Lon"])
    outcome = game.process()
    assert outcome.results["ENGLAND"][0].reason == "built"
    assert game.current.phase.code == "S1902M"
    assert "LON" in {game.current.map.provinces[p].code for p, u in game.current.units.items()
                     if u.power == "ENGLAND"}
    assert [r.phase for r in game.history] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    assert game.history[-1].results is None


def test_set_orders_keeps_every_line_verbatim_and_replaces_earlier_orders(tmp_path: Path) -> None:
    game = Game.new()
    game.set_orders("FRANCE", ["A Par - Bur"])
    lines = ["F Lon - Nth", "", "A Lvp - Yrok  ", "# Edinburgh stays", "Italy: A Ven - Tri"]
    checks = game.set_orders("eng", lines)
    assert [c.line for c in checks] == [1, 3, 5]  # blank lines and comments are not orders
    assert [c.ok for c in checks] == [True, False, False]
    assert "did you mean Yorkshire (YOR)" in checks[1].problem
    assert "marked ITALY" in checks[2].problem
    # Blank lines are dropped; everything else is kept exactly as written.
    assert game.orders["ENGLAND"] == ["F Lon - Nth", "A Lvp - Yrok  ", "# Edinburgh stays",
                                      "Italy: A Ven - Tri"]
    path = tmp_path / "g.json"
    game.save(path)
    stored = json.loads(path.read_text())["phases"][0]["orders"]
    assert stored == {"FRANCE": ["A Par - Bur"], "ENGLAND": game.orders["ENGLAND"]}
    game.set_orders("FRANCE", ["A Par H"])
    assert game.orders["FRANCE"] == ["A Par H"]
    game.set_orders("FRANCE", [])
    assert "FRANCE" not in game.orders


def test_bad_lines_are_judged_invalid_when_processed() -> None:
    game = Game.new()
    game.set_orders("ENGLAND", ["A Lvp - Yrok", "# a comment", "F Lon - Nth"])
    outcome = game.process()
    got = [(r.text, r.result) for r in outcome.results["ENGLAND"]]
    assert ("A Lvp - Yrok", "invalid") in got
    assert ("F Lon - Nth", "succeeds") in got
    assert all(r.text != "# a comment" for r in outcome.results["ENGLAND"])


def test_set_orders_refuses_an_unknown_power() -> None:
    with pytest.raises(GameError, match="'Atlantis' is not a power of this game"):
        Game.new().set_orders("Atlantis", ["A Par H"])


def test_a_finished_game_refuses_orders_and_processing() -> None:
    game = Game.new()
    doc = game.to_json()
    position = doc["phases"][0]["position"]
    centres = [c for codes in position["centers"].values() for c in codes]
    position["centers"] = {"FRANCE": centres[:18], "GERMANY": centres[18:]}
    over = Game.from_json(doc)
    assert over.winner == "FRANCE"
    with pytest.raises(GameError, match="the game is over: France has won"):
        over.process()
    with pytest.raises(GameError, match="the game is over"):
        over.set_orders("GERMANY", ["A Mun H"])


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = played_to_winter()
    path = tmp_path / "game.json"
    game.save(path)
    doc = json.loads(path.read_text())
    assert doc["format"] == FORMAT
    assert [p["phase"] for p in doc["phases"]] == ["S1901M", "F1901M", "F1901R"]
    assert doc["phases"][-1]["results"] is None
    again = Game.load(path)
    assert again.to_json() == game.to_json()
    assert again.current == game.current


def test_phase_document_reproduces_the_stored_results() -> None:
    game = played_to_winter()
    doc = game.phase_document("F1901M")
    assert doc["orders"] == FALL and doc["rules"] == "datc"
    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    stored = game.record("F1901M").results
    again = {p: [r.to_json() for r in rs] for p, rs in outcome.results.items()}
    assert again.keys() == stored.keys()
    for power, entries in stored.items():  # units without orders may come in another order
        assert sorted(map(str, again[power])) == sorted(map(str, entries))
    assert game.phase_document()["phase"] == "F1901R"
    with pytest.raises(GameError, match="phase S1905M is not in this game"):
        game.phase_document("S1905M")


def test_outcome_is_rebuilt_from_the_record() -> None:
    game = played_to_winter()
    last = game.outcome()
    assert last is not None and last.before.phase.code == "F1901M"
    assert [d.unit.power for d in last.dislodged] == ["GERMANY"]
    assert "A VEN H" in [r.canonical for r in last.results["ITALY"]]
    spring = game.outcome("S1901M")
    assert spring.dislodged == () and spring.next.phase.code == "F1901M"
    with pytest.raises(GameError, match="not been processed"):
        game.outcome("F1901R")


# -- atomic saving --------------------------------------------------------------------------------


def _saved(tmp_path: Path) -> tuple[Game, Path, bytes]:
    game = Game.new()
    path = tmp_path / "game.json"
    game.save(path)
    game.set_orders("ENGLAND", ["F Lon - Nth"])
    game.process()
    return game, path, path.read_bytes()


@pytest.mark.parametrize("target", ["replace", "fsync", "dumps"])
def test_a_failed_save_leaves_the_old_file_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    game, path, before = _saved(tmp_path)

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if target == "dumps":
        monkeypatch.setattr(game_module.json, "dumps", boom)
    else:
        monkeypatch.setattr(game_module.os, target, boom)
    with pytest.raises(OSError, match="No space left"):
        game.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert Game.load(path).current.phase.code == "S1901M"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no temporary left


def test_a_crash_mid_write_leaves_the_old_file_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, path, before = _saved(tmp_path)
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def fileno(self):
            return self.f.fileno()

        def write(self, text):
            self.f.write(text[: len(text) // 2])
            raise KeyboardInterrupt  # the process is killed half-way

    monkeypatch.setattr(game_module.os, "fdopen", lambda *a, **k: HalfWriter(real_fdopen(*a, **k)))
    with pytest.raises(KeyboardInterrupt):
        game.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_save_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("{}")
    path.chmod(0o640)
    Game.new().save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert Game.load(path).current.phase.code == "S1901M"


def test_write_atomically_creates_new_files(tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    write_atomically(path, "hello\n")
    assert path.read_text() == "hello\n"
    assert stat.S_IMODE(path.stat().st_mode) & 0o600 == 0o600


# -- loading bad files ---------------------------------------------------------------------------


def _write(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def test_load_reports_bad_json_with_line_and_column(tmp_path: Path) -> None:
    path = _write(tmp_path, '{\n  "format": "calhamer-game/1",\n  "phases": [,]\n}')
    with pytest.raises(GameError, match=r"is not valid JSON: .*\(line 3, column 14\)"):
        Game.load(path)


def _edit(change) -> dict:
    doc = played_to_winter().to_json()
    change(doc)
    return doc


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/1"), "not a calhamer game file"),
        (lambda d: d.update(phases=[]), '"phases" must be a non-empty list'),
        (lambda d: d.update(rules="1066"), "there is no rule edition '1066'"),
        (lambda d: d["phases"][1].update(results=None), "was played but has no results"),
        (lambda d: d["phases"][2].update(results={}), "current phase but already has results"),
        (lambda d: d["phases"][0].pop("position"), "has no 'position' field"),
        (lambda d: d["phases"][0].update(phase="S1901"), "is not a phase code"),
        (lambda d: d["phases"][0].update(phase="F1901M"), "its position is for 'S1901M'"),
        (lambda d: d["phases"][0].update(orders={"FRANCE": "A PAR H"}), '"orders" must map'),
        (lambda d: d["phases"][2]["position"]["units"].update(GERMANY=["A Mnuich"]),
         "did you mean Munich"),
    ],
)
def test_load_rejects_malformed_games(tmp_path: Path, change, message: str) -> None:
    path = _write(tmp_path, _edit(change))
    with pytest.raises(GameError, match=message):
        Game.load(path)


def test_check_orders_judges_each_line_alone() -> None:
    start = Position.initial()
    checks = check_orders(start, {"FRANCE": ["A Par - Bur", "A Par - Pic", "F Bre - Mun"]})
    assert [c.ok for c in checks["FRANCE"]] == [False, False, False]  # two orders for A PAR
    checks = check_orders(start, {"FRANCE": ["a par-bur", "F Bre - Mun", "A Mun - Ruh"]})
    assert checks["FRANCE"][0].canonical == "A PAR - BUR"
    assert checks["FRANCE"][1].problem and checks["FRANCE"][2].problem


def test_dumps_pretty_is_json_and_keeps_short_lists_on_one_line() -> None:
    doc = Game.new().to_json()
    text = dumps_pretty(doc)
    assert json.loads(text) == doc
    assert '"RUSSIA": ["A MOS", "F SEV", "F STP/SC", "A WAR"]' in text
