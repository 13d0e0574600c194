"""The ``diplomacy`` package's saved games, imported, replayed and exported (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calhamer import Game
from calhamer.cli import main
from calhamer.saved_games import SavedGameError, export_saved_game, import_saved_game

# A game of random orders played and saved by diplomacy 1.1.2 (to_saved_game_format).
SAVED = Path(__file__).parent / "data" / "diplomacy-saved-game.json"


def _saved() -> dict:
    return json.loads(SAVED.read_text())


def _board(state: dict) -> dict:
    return {key: {p: sorted(v) for p, v in state[key].items()} for key in ("units", "centers")}


def _orders(phase: dict) -> dict:
    return {p: list(v or []) for p, v in phase["orders"].items() if v}


def test_import_replays_every_phase_and_names_the_differences() -> None:
    doc = _saved()
    report = import_saved_game(doc)
    game = report.game
    assert game.phases == [p["name"] for p in doc["phases"]]
    found = {d.phase: d for d in report.differences}
    # Where the package lets an army written "via" convoy walk to the next province with no
    # fleet to carry it, calhamer (DATC 4.A.3, the datc edition) does not move it.
    assert set(found) == {"F1901M", "F1905M"}
    assert found["F1901M"].orders == ["GERMANY: A BER - KIE VIA"]
    assert "6.G" in (found["F1901M"].datc or "")
    assert "TURKEY: A BUL - RUM VIA" in found["F1905M"].orders
    # Every other phase's board is the package's, and the orders are kept as written.
    for record, phase in zip(game.history, doc["phases"], strict=True):
        position = record.position
        units = {p: sorted(f"{'A' if u.type.name == 'ARMY' else 'F'} "
                           f"{position.map.loc_names[u.loc]}"
                           for u in position.units.values() if u.power == p)
                 for p in position.map.power_codes}
        assert units == {p: sorted(v) for p, v in phase["state"]["units"].items()
                         if not any(x.startswith("*") for x in v)} or position.dislodged
        assert {p: v for p, v in record.orders.items()} == _orders(phase)


def test_export_gives_the_saved_game_back() -> None:
    doc = _saved()
    exported = export_saved_game(import_saved_game(doc).game, doc["id"])
    assert [p["name"] for p in exported["phases"]] == [p["name"] for p in doc["phases"]]
    for ours, theirs in zip(exported["phases"], doc["phases"], strict=True):
        assert _board(ours["state"]) == _board(theirs["state"]), theirs["name"]
        assert ours["state"]["retreats"] == theirs["state"]["retreats"], theirs["name"]
        assert _orders(ours) == _orders(theirs), theirs["name"]
        assert set(ours["results"]) <= set(theirs["results"]) | {"WAIVE"}
    again = export_saved_game(import_saved_game(exported).game, doc["id"])
    assert again == exported  # and again, unchanged


def test_the_diplomacy_package_reads_what_calhamer_writes() -> None:
    from diplomacy.utils import export  # the test extra installs the package

    game = Game.new()
    game.set_orders("ENGLAND", ["F Lon - Nth", "A Lvp - Yor"])
    game.set_orders("FRANCE", ["A Par - Bur", "A Mar S A Par - Bur"])
    game.process()
    game.set_orders("ENGLAND", ["F Nth C A Yor - Nwy", "A Yor - Nwy"])
    game.process()
    game.process()
    saved = export_saved_game(game)
    theirs = export.from_saved_game_format(json.loads(json.dumps(saved)))
    assert theirs.get_current_phase() == game.phase
    assert sorted(theirs.get_units("ENGLAND")) == sorted(saved["phases"][-1]["state"]["units"]
                                                         ["ENGLAND"])
    back = import_saved_game(saved)
    assert back.differences == []
    assert [r.position for r in back.game.history] == [r.position for r in game.history]


def test_bad_saved_games_are_refused_clearly() -> None:
    with pytest.raises(SavedGameError, match="phases"):
        import_saved_game({"id": "x"})
    with pytest.raises(SavedGameError, match="only standard"):
        import_saved_game({"map": "modern", "phases": [{"name": "S1901M"}]})
    with pytest.raises(SavedGameError, match="only standard"):
        export_saved_game(Game.new("kriegsplomacy"))


def test_import_and_export_on_the_command_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "game.json"
    assert main(["import", str(SAVED), "-o", str(out)]) == 1  # the judges differ
    printed = capsys.readouterr()
    assert "F1901M" in printed.out and "GERMANY: A BER - KIE VIA" in printed.out
    assert "2 where the judges differ" in printed.err
    assert main(["export", "--format", "diplomacy", str(out)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert _board(exported["phases"][3]["state"]) == _board(_saved()["phases"][3]["state"])
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["import", str(bad)]) == 2
    assert "phases" in capsys.readouterr().err


def test_messages_are_kept_through_import_a_game_file_and_export(tmp_path) -> None:
    doc = _saved()
    said = {
        "S1901M": [{"sender": "FRANCE", "recipient": "ENGLAND", "time_sent": 1,
                    "phase": "S1901M", "message": "Channel stays empty?"},
                   {"sender": "ENGLAND", "recipient": "GLOBAL", "time_sent": 2,
                    "phase": "S1901M", "message": "Peace in our time."}],
        "F1901M": [{"sender": "GERMANY", "recipient": "RUSSIA", "time_sent": 3,
                    "phase": "F1901M", "message": "Sweden is yours."}],
    }
    for phase in doc["phases"]:
        phase["messages"] = said.get(phase["name"], [])
    game = import_saved_game(doc).game
    path = tmp_path / "game.json"
    game.save(path)
    again = Game.load(path)  # the game file carries them, and only where there are some
    stored = json.loads(path.read_text())
    assert [e["phase"] for e in stored["phases"] if "messages" in e] == ["S1901M", "F1901M"]
    exported = export_saved_game(again, doc["id"])
    assert {p["name"]: p["messages"] for p in exported["phases"] if p["messages"]} == said
    assert all(p["messages"] == said.get(p["name"], []) for p in exported["phases"])


def test_exported_results_are_the_packages_words_where_the_judges_agree() -> None:
    doc = _saved()
    report = import_saved_game(doc)
    exported = export_saved_game(report.game, doc["id"])
    differ = {d.phase for d in report.differences}
    mismatched = []
    for ours, theirs in zip(exported["phases"], doc["phases"], strict=True):
        if theirs["name"] in differ:
            continue
        orders = {o.split(" - ")[0]: o for lines in theirs["orders"].values() for o in lines or ()}
        for unit, words in theirs["results"].items():
            if unit == "WAIVE":  # the package lists waives under one key; calhamer none
                continue
            if orders.get(unit, "").endswith(" VIA"):  # no fleet: "bounce" or "no convoy"
                continue
            if ours["results"].get(unit) != words:
                mismatched.append((theirs["name"], unit, words, ours["results"].get(unit)))
    assert mismatched == []
