"""Game files and the command line under stress: concurrent writers, judging a game again,
comments in order files, hostile documents and conflicting positions."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import calhamer
from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json, position_to_json
from calhamer.game import Game, GameError
from calhamer.map import ARMY
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.variants import find_variant, variant_names


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_user_error(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming the problem, no traceback."""
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.startswith("calhamer: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


# -- 8: two commands on one game file never lose an update ---------------------------------------

# Each child imports calhamer first, says it is ready, then waits for the common start signal,
# so that all of them read, change and write the game file at nearly the same moment.
CHILD = """
import os, sys, time
from calhamer.cli import main
ready, go = sys.argv[1], sys.argv[2]
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.0005)
sys.exit(main(sys.argv[3:]))
"""

HOLDS = {
    "AUSTRIA": "A Vie H", "ENGLAND": "F Lon H", "FRANCE": "A Par H", "GERMANY": "A Ber H",
    "ITALY": "A Rom H", "RUSSIA": "A Mos H", "TURKEY": "A Con H",
}


def _start_together(tmp_path: Path, commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    src = str(Path(calhamer.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    go = tmp_path / "go"
    children = []
    for n, argv in enumerate(commands):
        ready = tmp_path / f"ready{n}"
        children.append((ready, subprocess.Popen(
            [sys.executable, "-c", CHILD, str(ready), str(go), *argv], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )))
    deadline = time.monotonic() + 120  # a guard against a hung child, not a measurement
    while not all(ready.exists() for ready, _ in children) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    done = []
    for ready, child in children:
        out, err = child.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(child.args, child.returncode, out, err))
        ready.unlink()
    go.unlink()
    return done


@pytest.mark.parametrize("attempt", range(4))
def test_concurrent_orders_commands_all_land(tmp_path: Path, attempt: int) -> None:
    game = tmp_path / "game.json"
    Game.new().save(game)
    commands = []
    for power, order in HOLDS.items():
        orders = tmp_path / f"{power}.txt"
        orders.write_text(order + "\n")
        commands.append(["game", "orders", str(game), power, str(orders)])
    for done in _start_together(tmp_path, commands):
        assert done.returncode == 0, done.stderr
        assert "Stored 1 order" in done.stdout
    assert Game.load(game).orders == {p: [o] for p, o in HOLDS.items()}


def test_concurrent_orders_and_bids_all_land(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    Game.new("standard-dp").save(game)
    current = Game.load(game).current
    powers = [p for p in current.map.power_codes if not current.map.is_minor(p)]
    commands = []
    for power in powers:
        unit = next(u for u in current.units.values() if u.power == power)
        line = f"{'A' if unit.type is ARMY else 'F'} {current.map.loc_name(unit.loc)} H"
        orders = tmp_path / f"{power}.txt"
        orders.write_text(line + "\n")
        commands.append(["game", "orders", str(game), power, str(orders)])
        commands.append(["game", "bids", str(game), power, os.devnull])
    for done in _start_together(tmp_path, commands):
        assert done.returncode == 0, done.stderr
    assert sorted(Game.load(game).orders) == sorted(powers)


def test_a_game_file_is_locked_beside_it_while_it_changes(tmp_path: Path) -> None:
    from calhamer.game import locked

    game = tmp_path / "game.json"
    Game.new().save(game)
    with Game.update(game) as g:
        g.set_orders("FRANCE", ["A Par - Bur"])
        assert (tmp_path / "game.json.lock").exists()
    assert Game.load(game).orders == {"FRANCE": ["A Par - Bur"]}
    # A failure inside leaves the file as it was.
    with pytest.raises(GameError), Game.update(game) as g:
        g.set_orders("Atlantis", ["A Par H"])
    assert Game.load(game).orders == {"FRANCE": ["A Par - Bur"]}
    with locked(game):
        pass


@pytest.mark.skipif(sys.platform == "win32", reason="the fallback of POSIX-like systems")
def test_without_file_locks_a_marker_file_serialises_changes(monkeypatch, tmp_path) -> None:
    import threading

    import calhamer.files as game_module  # where game files are locked

    monkeypatch.setattr(game_module, "_flock", None)  # as on a system without fcntl
    game = tmp_path / "game.json"
    Game.new().save(game)
    start = threading.Barrier(len(HOLDS))
    failures: list[BaseException] = []

    def send(power: str, order: str) -> None:
        try:
            start.wait()
            for _ in range(3):
                with Game.update(game) as g:
                    g.set_orders(power, [order])
        except BaseException as exc:  # reported below, in the test's thread
            failures.append(exc)

    threads = [threading.Thread(target=send, args=item) for item in HOLDS.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert Game.load(game).orders == {p: [o] for p, o in HOLDS.items()}
    assert not (tmp_path / "game.json.lock.held").exists()


def test_game_commands_on_a_missing_file_leave_no_lock_behind(capsys, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    orders = tmp_path / "o.txt"
    orders.write_text("A Par H\n")
    assert_user_error(*run(capsys, "game", "orders", str(missing), "FRANCE", str(orders)),
                      "missing.json: no such file")
    assert_user_error(*run(capsys, "game", "process", str(missing)), "no such file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.txt"]


# -- 9: a game processed through the library verifies ----------------------------------------------


def test_verify_accepts_a_game_processed_in_memory(capsys, tmp_path: Path) -> None:
    g = Game.new()
    g.set_orders("ENGLAND", ["F Edi - Nwg"])
    g.process()
    g.process()
    g.save(tmp_path / "g.json")
    code, out, _ = run(capsys, "verify", str(tmp_path / "g.json"))
    assert code == 0, out
    assert "MISMATCH" not in out and "All 2 processed phases come out exactly as recorded" in out
    # The units that held for want of an order come in the order the phase document lists
    # them, not in the order the judge happened to hold them.
    england = [e["canonical"] for e in g.record("F1901M").results["ENGLAND"]]
    assert england == ["F LON H", "A LVP H", "F NWG H"]


def _random_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """Moves to neighbouring provinces (some impossible) for a random part of the units."""
    m = position.map
    variant = find_variant(position.variant)
    orders: dict[str, list[str]] = {}
    if not position.phase.is_movement:
        return orders
    for province, unit in position.units.items():
        if m.is_minor(unit.power) or rng.random() < 0.4:
            continue
        near = sorted(m.army_adjacent[province] | m.province_fleet_adjacent[province])
        if not near:
            continue
        target = m.provinces[rng.choice(near)].code
        unit_text = variant.notation.format_unit(m, unit)
        orders.setdefault(unit.power, []).append(f"{unit_text} - {target}")
    return orders


@pytest.mark.parametrize("variant", variant_names())
def test_games_played_in_memory_verify_phase_by_phase(tmp_path: Path, variant: str) -> None:
    rng = random.Random(f"verify-{variant}")
    game = Game.new(variant, new_seed=lambda: f"{rng.random():.17f}")
    for _ in range(7):
        if game.winner:
            break
        for power, lines in _random_orders(game.current, rng).items():
            game.set_orders(power, lines)
        game.process()
    path = tmp_path / "game.json"
    game.save(path)
    again = Game.load(path)
    assert again.to_json() == game.to_json()
    checks = again.verify()
    assert len(checks) == len(game.phases) - 1 >= 5
    assert [(c.phase, c.problems) for c in checks] == [(c.phase, []) for c in checks]
    # The game in memory judges each phase alike too.
    assert all(c.ok for c in game.verify())


def test_verify_accepts_results_recorded_in_another_order_of_held_units(tmp_path: Path) -> None:
    game = Game.new()
    game.set_orders("ENGLAND", ["F Edi - Nwg"])
    game.process()
    doc = game.to_json()
    held = doc["phases"][0]["results"]["ENGLAND"][1:]
    doc["phases"][0]["results"]["ENGLAND"][1:] = held[::-1]  # as an older calhamer wrote it
    assert all(c.ok for c in Game.from_json(doc).verify())
    doc["phases"][0]["results"]["ENGLAND"][0]["result"] = "fails"
    assert not Game.from_json(doc).verify()[0].ok


# -- 10: comments in order files are not orders ---------------------------------------------------


def test_export_reproduces_the_results_of_orders_with_comments(capsys, tmp_path: Path) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "game", "new", game)
    sheet = tmp_path / "eng.txt"
    sheet.write_text("# England, spring 1901\n\nF Lon - Nth   # into the North Sea\n"
                     "F Edi - Nwg\n   # Liverpool holds\n")
    code, out, err = run(capsys, "game", "orders", game, "ENGLAND", str(sheet))
    assert code == 0 and err == ""
    assert out == "ok     F LON - NTH\nok     F EDI - NWG\nStored 2 orders for England in S1901M.\n"
    assert run(capsys, "game", "process", game)[0] == 0
    recorded = json.loads(Path(game).read_text())["phases"][0]["results"]["ENGLAND"]
    assert [e["result"] for e in recorded] == ["succeeds", "succeeds", "succeeds"]
    assert [e["canonical"] for e in recorded] == ["F LON - NTH", "F EDI - NWG", "A LVP H"]
    code, out, _ = run(capsys, "game", "export", game, "--phase", "S1901M")
    exported = json.loads(out)
    assert exported["orders"] == {"ENGLAND": ["F Lon - Nth", "F Edi - Nwg"]}
    phase = tmp_path / "s1901m.json"
    phase.write_text(out)
    code, out, _ = run(capsys, "adjudicate", str(phase), "--json")
    assert code == 0 and json.loads(out)["results"]["ENGLAND"] == recorded
    assert run(capsys, "verify", game)[0] == 0


def test_set_orders_reads_trailing_comments_as_comments() -> None:
    game = Game.new()
    checks = game.set_orders("FRANCE", ["A Par - Bur # to Burgundy", "# Marseilles holds", "",
                                        "F Bre - Mao#west"])
    assert [(c.line, c.ok, c.canonical) for c in checks] == [
        (1, True, "A PAR - BUR"), (4, True, "F BRE - MAO")]
    assert checks[0].text == "A Par - Bur # to Burgundy"  # the line as the player wrote it
    outcome = game.process()
    france = {r.canonical: r.result for r in outcome.results["FRANCE"]}
    assert france == {"A PAR - BUR": "succeeds", "F BRE - MAO": "succeeds", "A MAR H": "succeeds"}
    assert game.phase_document("S1901M")["orders"] == {"FRANCE": ["A Par - Bur", "F Bre - Mao"]}


# -- 11: hostile documents and options are one-line errors ----------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


def _game_file(tmp_path: Path, variant: str = "standard") -> Path:
    path = tmp_path / "game.json"
    game = Game.new(variant)
    game.set_orders("AUSTRIA", ["A Vie - Tyr"])
    game.process()
    game.save(path)
    return path


def _commands_reading(path: str, tmp_path: Path) -> list[list[str]]:
    orders = tmp_path / "orders.txt"
    orders.write_text("A Par H\n")
    return [
        ["adjudicate", path], ["adjudicate", path, "--json"], ["validate", path],
        ["game", "orders", path, "FRANCE", str(orders)],
        ["game", "bids", path, "FRANCE", str(orders)],
        ["game", "tally", path], ["game", "process", path], ["game", "show", path],
        ["game", "show", path, "--as", "FRANCE"], ["game", "export", path], ["verify", path],
        ["render", path], ["render", path, "--orders", "-o", str(tmp_path / "map.png")],
    ]


@pytest.mark.parametrize("depth", [100_000, 5_000])
def test_a_deeply_nested_document_is_one_line_error(capsys, tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "]" * depth)
    for argv in _commands_reading(str(path), tmp_path):
        assert_user_error(*run(capsys, *argv), "deep.json", "nested too deeply")


def test_a_deeply_nested_object_inside_a_document_is_one_line_error(capsys, tmp_path) -> None:
    doc = position_to_json(Position.initial(), "datc")
    doc["extra"] = json.loads("[" * 900 + "]" * 900)  # within what json reads, beyond sense
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(doc))
    for argv in (["adjudicate", str(path)], ["validate", str(path)], ["render", str(path)]):
        assert_user_error(*run(capsys, *argv), "deep.json", "nested too deeply")


def test_deep_lines_in_jsonl_are_error_lines(capsys, tmp_path: Path) -> None:
    good = json.dumps(position_to_json(Position.initial(), "datc"))
    path = tmp_path / "many.jsonl"
    path.write_text(f"{good}\n{DEEP}\n{'1' * 5000}\n{good}\n")
    code, out, err = run(capsys, "adjudicate", "--jsonl", str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and err == ""
    assert "next" in lines[0] and "next" in lines[3]
    assert lines[1] == {"error": "line 2: nested too deeply (more than 100 levels) to be a "
                                 "calhamer document; check that it is the right file"}
    assert lines[2]["error"].startswith("line 3: not valid JSON: ")


def test_a_huge_number_is_one_line_error(capsys, tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"phase": ' + "1" * 5000 + "}")
    for argv in _commands_reading(str(path), tmp_path):
        assert_user_error(*run(capsys, *argv), "big.json", "not valid JSON")


@pytest.mark.parametrize("size", ["-5", "0", "1000000", "nan", "inf", "big"])
def test_render_refuses_sizes_out_of_range(capsys, tmp_path: Path, size: str) -> None:
    path = _game_file(tmp_path)
    for output in ("-", str(tmp_path / "map.png")):
        assert_user_error(*run(capsys, "render", str(path), "--size", size, "-o", output),
                          "--size", "between 16 and 10000")
    assert not (tmp_path / "map.png").exists()


def test_render_accepts_sizes_in_range(capsys, tmp_path: Path) -> None:
    path = _game_file(tmp_path)
    code, out, _ = run(capsys, "render", str(path), "--size", "16")
    assert code == 0 and out.startswith("<")
    code, _, _ = run(capsys, "render", str(path), "--size", "300", "-o", str(tmp_path / "m.png"))
    assert code == 0 and (tmp_path / "m.png").read_bytes().startswith(b"\x89PNG")


def _spoil_results(change) -> dict:
    game = Game.new()
    game.set_orders("ENGLAND", ["F Lon - Nth"])
    game.process()
    game.process()
    doc = game.to_json()
    change(doc["phases"][1]["results"])
    return doc


SPOILT_RESULTS = [
    (lambda r: r.update(ENGLAND="F LON H"), "ENGLAND"),
    (lambda r: r.update(ENGLAND=["F LON H"]), "ENGLAND"),
    (lambda r: r["ENGLAND"][0].update(result=3), "result"),
    (lambda r: r["ENGLAND"][0].update(result="wins"), "'wins'"),
    (lambda r: r["ENGLAND"][0].pop("canonical"), "canonical"),
    (lambda r: r.update(ATLANTIS=[]), "ATLANTIS"),
]


@pytest.mark.parametrize(("change", "fragment"), SPOILT_RESULTS)
def test_malformed_stored_results_are_refused_naming_the_phase(
    capsys, tmp_path: Path, change, fragment: str
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_spoil_results(change)))
    with pytest.raises(GameError, match="F1901M") as caught:
        Game.load(path)
    assert fragment in str(caught.value)
    orders = tmp_path / "o.txt"
    orders.write_text("A Par H\n")
    for argv in (["game", "show", str(path)], ["game", "show", str(path), "--as", "ENGLAND"],
                 ["game", "export", str(path)], ["game", "process", str(path)],
                 ["game", "orders", str(path), "FRANCE", str(orders)], ["verify", str(path)],
                 ["render", str(path), "--orders", "--phase", "F1901M"]):
        assert_user_error(*run(capsys, *argv), "F1901M", fragment)


# -- 13: a centre owned by two powers is refused ---------------------------------------------------


def _two_owners(doc: dict) -> dict:
    doc["centers"]["FRANCE"] = [*doc["centers"]["FRANCE"], "LON"]
    return doc


def test_a_phase_document_giving_a_centre_to_two_powers_is_refused(capsys, tmp_path) -> None:
    doc = _two_owners(position_to_json(Position.initial(), "datc"))
    with pytest.raises(CalhamerError, match=r"London \(LON\).*ENGLAND.*FRANCE"):
        position_from_json(doc)
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(doc))
    for argv in (["adjudicate", str(path)], ["validate", str(path)], ["render", str(path)]):
        assert_user_error(*run(capsys, *argv), "London (LON)", "ENGLAND", "FRANCE")
    # The same centre listed twice for one power is only said twice.
    doc = position_to_json(Position.initial(), "datc")
    doc["centers"]["ENGLAND"].append("lon")
    assert position_from_json(doc)[0].centers == Position.initial().centers


def test_a_game_file_giving_a_centre_to_two_powers_is_refused(capsys, tmp_path) -> None:
    game = Game.new()
    game.process()
    doc = json.loads(json.dumps(game.to_json()))
    _two_owners(doc["phases"][0]["position"])  # a past phase: read when it is needed
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(GameError, match=r"S1901M.*London \(LON\).*ENGLAND.*FRANCE"):
        Game.load(path).outcome("S1901M")
    for argv in (["game", "show", str(path)], ["game", "show", str(path), "--as", "FRANCE"],
                 ["game", "export", str(path), "--phase", "S1901M"],
                 ["render", str(path), "--phase", "S1901M", "--orders"]):
        assert_user_error(*run(capsys, *argv), "S1901M", "London (LON)", "ENGLAND", "FRANCE")
    # verify reports a past phase it cannot read as one that does not come out as recorded.
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and "S1901M  MISMATCH" in out and "London (LON) is listed for both" in out
    doc = json.loads(json.dumps(game.to_json()))
    _two_owners(doc["phases"][1]["position"])  # the current phase: read on loading
    path.write_text(json.dumps(doc))
    with pytest.raises(GameError, match=r"F1901M.*London \(LON\)"):
        Game.load(path)
    for argv in (["game", "show", str(path)], ["game", "export", str(path)],
                 ["game", "process", str(path)], ["render", str(path)], ["verify", str(path)]):
        assert_user_error(*run(capsys, *argv), "F1901M", "London (LON)", "ENGLAND", "FRANCE")


def test_adjudicate_still_reads_an_ordinary_document(capsys, tmp_path) -> None:
    doc = position_to_json(Position.initial(), "datc")
    doc["orders"] = {"FRANCE": ["A Par - Bur"]}
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "adjudicate", str(path), "--json")
    assert code == 0 and json.loads(out)["results"]["FRANCE"][0]["result"] == "succeeds"
    assert adjudicate(*position_from_json(doc)[:2]).next.phase.code == "F1901M"


def test_updating_a_missing_game_makes_no_lock_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError), Game.update(tmp_path / "missing.json"):
        pass
    assert list(tmp_path.iterdir()) == []


def test_verify_reports_a_seed_that_is_not_a_string(capsys, tmp_path: Path) -> None:
    game = Game.new("superdiplomacy", new_seed=lambda: "seed")
    for _ in range(4):
        game.process()
    doc = json.loads(json.dumps(game.to_json()))
    assert len(doc["phases"]) > 3 and doc["phases"][2]["position"]["seed"] == "seed"
    doc["phases"][2]["position"]["seed"] = {"not": "a seed"}  # a past phase's, not current
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "verify", str(path))
    assert code == 1 and f"{doc['phases'][1]['phase']}  MISMATCH" in out
