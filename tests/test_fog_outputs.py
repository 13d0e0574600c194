"""Every per-power output of a fog-of-war game against what the rules let that power know.

Kriegsplomacy tells every power the supply-centre totals of all powers after each winter
(rule 3.2), and ownership only changes as a winter begins (rule 6.4): so through Spring and
Fall each power knows every power's true total, and in a winter, before the chart, only its
own. Each power's outputs are checked against exactly that (a picture's legend, the text of
``game show --as``, the views of the phase documents), and against the reports' shape: no
heading stands over nothing. Paired worlds that differ only in what France may not know give
France byte-identical outputs; one France is told of (the winter's chart) does not.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from calhamer.cli import main
from calhamer.formats import outcome_to_json
from calhamer.game import Game, game_outcome
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.views import gamemaster_view, known_position, power_views

KP = "kriegsplomacy"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
SVG = "{http://www.w3.org/2000/svg}"

BUILDS_1900 = {
    "AUSTRIA": ["Build A Bud", "Build A Tri", "Build A Vie"],
    "ENGLAND": ["Build F Lon", "Build F Edi", "Build F Lvp"],
    "FRANCE": ["Build F Bre", "Build F Mar", "Build A Par"],
    "GERMANY": ["Build A Mun", "Build F Kie", "Build F Ber"],
    "ITALY": ["Build F Ven", "Build A Rom", "Build F Nap"],
    "RUSSIA": ["Build F StP(NC)", "Build F Sev", "Build A War", "Build A Mos"],
    "TURKEY": ["Build F Ank", "Build F Con", "Build F Smy"],
}
# France's orders, the same in both worlds, far from anything the others do.
FRANCE = {"S1901M": ["F Bre - Mao", "A Par H", "F Mar H"],
          "F1901M": ["F Mao - Por", "A Par H", "F Mar H"]}
# World A: Germany takes Holland and Italy Tunis, and Austria is dislodged from Trieste in
# the Fall; world B: the others stand still. France may know none of it until the chart.
WORLD_A = {
    "S1901M": {"GERMANY": ["F Kie - Hol"], "ITALY": ["F Nap - Ion", "F Ven - Adr",
                                                      "A Rom - Ven"]},
    "F1901M": {"GERMANY": ["F Hol H"], "ITALY": ["F Ion - Tun", "A Ven - Tri",
                                                 "F Adr S A Ven - Tri"],
               "AUSTRIA": ["A Tri H", "A Vie H", "A Bud H"]},
    "F1901R": {"AUSTRIA": ["A Tri R Alb"]},
}
WORLD_B: dict[str, dict[str, list[str]]] = {}
PHASES = ("W1900A", "S1901M", "S1901R", "F1901M", "F1901R")


# -- helpers --------------------------------------------------------------------------------------


def play(path: Path, world: Mapping[str, Mapping[str, list[str]]], until: str) -> Game:
    """A Kriegsplomacy game file played through the command line up to phase ``until``."""
    assert main(["game", "new", str(path), "--variant", KP]) == 0
    while True:
        game = Game.load(str(path))
        code = game.current.phase.code
        if code == until:
            return game
        orders = dict(BUILDS_1900) if code == "W1900A" else {}
        if code in FRANCE:
            orders["FRANCE"] = FRANCE[code]
        orders.update(world.get(code, {}))
        for power, lines in orders.items():
            file = path.parent / f"{path.stem}-{power}.txt"
            file.write_text("\n".join(lines) + "\n")
            assert main(["game", "orders", str(path), power, str(file)]) == 0
        assert main(["game", "process", str(path)]) == 0


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 0, args
    return capsys.readouterr().out


def legend(svg: str) -> dict[str, str]:
    """The legend's entry for each power, by name: ``{"Austria": "3", "England": "?"}``."""
    root = ET.fromstring(svg)
    box = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    out = {}
    for text in box.iter(f"{SVG}text"):
        match = re.fullmatch(r"(Austria|England|France|Germany|Italy|Russia|Turkey) (\S+)",
                             text.text or "")
        if match:
            out[match[1]] = match[2]
    return out


def names(game: Game) -> dict[str, str]:
    return {p: game.current.map.power(p).name for p in POWERS}


def truth(game: Game) -> dict[str, str]:
    """Every power's true total, as the legend would write it."""
    counts = game.current.center_counts()
    return {name: str(counts[p]) for p, name in names(game).items()}


def allowed(game: Game, viewer: str) -> dict[str, str]:
    """What the rules let ``viewer`` know of the totals now: all of them in Spring and Fall
    (and at the public start), only its own in a winter before the chart."""
    true = truth(game)
    phase = game.current.phase
    if phase.is_adjustment and phase.code != "W1900A":
        return {name: (true[name] if p == viewer else "?") for p, name in names(game).items()}
    return true


def empty_headings(text: str) -> list[str]:
    """Headings with nothing under them: a line ending in ``:`` not followed by an indented
    line, or a block's title (after ``------``) whose block holds no line."""
    lines = text.rstrip("\n").split("\n")
    found = []
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip().endswith(":") and not following.startswith("    "):
            found.append(line)
        if line == "------" and i + 1 < len(lines):
            rest = lines[i + 2:]
            body = []
            for item in rest[1:] if rest[:1] == [""] else rest:
                if item in ("", "------", "======"):
                    break
                body.append(item)
            if not body and not re.search(r":\s*\S", lines[i + 1]):
                found.append(lines[i + 1])
    return found


@pytest.fixture(scope="module")
def worlds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both worlds played to the winter of 1901, whose chart is not yet told."""
    base = tmp_path_factory.mktemp("worlds")
    paths = {}
    for name, world in (("A", WORLD_A), ("B", WORLD_B)):
        paths[name] = base / f"{name}.json"
        play(paths[name], world, "W1901A")
    return paths


# -- 1: the legend of a fog picture ---------------------------------------------------------------


def test_a_fog_legend_gives_every_power_its_true_total_after_the_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: after Winter 1900's builds France's picture said every other power had 0."""
    path = tmp_path / "k.json"
    game = play(path, WORLD_A, "S1901M")
    true = truth(game)
    assert true["Russia"] == "4" and true["Austria"] == "3"
    for power in POWERS:
        svg = cli(capsys, "render", str(path), "--as", power)
        assert legend(svg) == true, power
        # The phase just played, as that power was told it (the chart of the winter).
        svg = cli(capsys, "render", str(path), "--as", power, "--phase", "W1900A", "--orders")
        assert legend(svg) == true, power
    # The gamemaster's picture is the truth, as before.
    assert legend(cli(capsys, "render", str(path))) == true


def test_a_fog_legend_in_a_winter_shows_only_what_the_chart_has_not_yet_told(
    worlds: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.load(str(worlds["A"]))
    true = truth(game)
    assert (true["Germany"], true["Italy"], true["Austria"]) == ("4", "5", "2")  # changed hands
    counted = game.phase_input("S1901M")[0].center_counts()  # after the winter of 1900
    last_winter = {name: str(counted[p]) for p, name in names(game).items()}
    for power in POWERS:
        shown = legend(cli(capsys, "render", str(worlds["A"]), "--as", power))
        assert shown == allowed(game, power), power
        name = names(game)[power]
        assert shown[name] == true[name]
        assert all(v == "?" for k, v in shown.items() if k != name), shown  # never a 0
        # Each phase of the year as the power was told it: the totals of the last winter,
        # which ownership keeps until the next one (rule 6.4).
        for code in ("S1901M", "F1901M", "F1901R"):
            svg = cli(capsys, "render", str(worlds["A"]), "--as", power, "--phase", code,
                      "--orders")
            assert legend(svg) == last_winter, (power, code)
    assert legend(cli(capsys, "render", str(worlds["A"]))) == true  # the gamemaster's


def test_the_totals_a_power_knows_follow_the_staged_release(worlds: dict[str, Path]) -> None:
    """``centre_totals`` of a power's known position, phase by phase (the variant's rule)."""
    from calhamer.views import centre_totals

    game = Game.load(str(worlds["A"]))
    for code in (*PHASES, "W1901A"):
        position = game.phase_input(code)[0]
        counts = position.center_counts()
        for power in POWERS:
            known = centre_totals(known_position(position, power))
            if code == "W1901A":
                assert known == {p: (counts[p] if p == power else None) for p in POWERS}
            else:
                assert known == counts, (code, power)
    # After the winter everyone is told the chart: the view of the winter carries it.
    outcome = game.process()
    for power, view in power_views(outcome).items():
        assert view.centre_totals() == game.current.center_counts(), power


# -- 2: no heading over nothing ------------------------------------------------------------------


def test_the_gamemasters_reports_have_no_empty_retreats_heading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k.json"
    play(path, WORLD_A, "S1901R")
    shown = cli(capsys, "game", "show", str(path))
    assert "Retreats due:" not in shown, shown
    assert empty_headings(shown) == []
    game = Game.load(str(path))
    outcome = game_outcome(game, "S1901M")
    for text in (phase_report(outcome), phase_report(gamemaster_view(outcome)),
                 position_report(game.current)):
        assert "Retreats due:" not in text
        assert empty_headings(text) == [], text
    # With something due, the heading is there with the unit under it.
    play(tmp_path / "a.json", WORLD_A, "F1901R")
    shown = cli(capsys, "game", "show", str(tmp_path / "a.json"))
    assert re.search(r"Retreats due:\n    A TRI \(Austria\): ", shown), shown
    assert empty_headings(shown) == []


def test_no_report_of_a_whole_fog_game_has_an_empty_heading(
    worlds: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for path in worlds.values():
        game = Game.load(str(path))
        texts = [cli(capsys, "game", "show", str(path))]
        for code in PHASES:
            outcome = game_outcome(game, code)
            texts += [phase_report(outcome), phase_report(gamemaster_view(outcome))]
            texts += [phase_report(v) for v in power_views(outcome).values()]
            for power in POWERS:
                texts.append(cli(capsys, "game", "show", str(path), "--as", power, "--phase",
                                 code))
        for power in POWERS:
            texts.append(cli(capsys, "game", "show", str(path), "--as", power))
            texts.append(power_position_report(game.current, power))
        for text in texts:
            assert empty_headings(text) == [], text


def test_the_heading_check_can_fail() -> None:
    assert empty_headings("Next: S1901R\n\nRetreats due:\n") == ["Retreats due:"]
    assert empty_headings("------\nFrance\n\n------\nNext: X\n\n    France 3") == ["France"]
    assert empty_headings("------\nFrance\n\n    F Bre H\n\nTotals:\n    France 3") == []


# -- 3: the other per-power outputs ---------------------------------------------------------------


def _totals_in(text: str) -> dict[str, str]:
    """The totals a text report states: ``    France        3 centres``."""
    found = re.findall(r"^    (Austria|England|France|Germany|Italy|Russia|Turkey) +(\S+) "
                       r"centres\b", text, re.MULTILINE)
    return dict(found)


def test_game_show_as_a_power_states_every_total_it_may_know(
    worlds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k.json"
    spring = play(path, WORLD_A, "S1901M")
    winter = Game.load(str(worlds["A"]))
    for game, file in ((spring, path), (winter, worlds["A"])):
        for power in POWERS:
            text = cli(capsys, "game", "show", str(file), "--as", power)
            current = text.split("======")[0]
            assert _totals_in(current) == allowed(game, power), (power, current)
            assert not re.search(r"\b0 centres", current)  # nobody here has none
            if game is winter:
                assert current.count("? centres (unknown)") == 6
            # the web judge's board report is the same text
            assert power_position_report(game.current, power) in current


def test_the_views_of_the_phase_documents_tell_only_true_totals(
    worlds: dict[str, Path],
) -> None:
    game = Game.load(str(worlds["A"]))
    game.process()  # the winter: its chart is told
    for code in (*PHASES, "W1901A"):
        outcome = game_outcome(game, code)
        doc = outcome_to_json(outcome, "datc")
        assert set(doc["views"]) == set(POWERS)
        for power, view in doc["views"].items():
            told = view.get("centre_counts")
            if outcome.before.phase.is_adjustment:
                # the chart after the winter: every power's true total
                assert told == outcome.next.center_counts(), (code, power)
            else:
                assert told is None, (code, power)  # told only with the chart (rule 3.2)
            # the next position holds the power's own centres, and nobody else's at all
            assert set(view["next"]["centers"]) <= {power}


def _france_sees(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Everything France can be shown of the game in ``path``, by every route."""
    game = Game.load(str(path))
    out = [cli(capsys, "game", "show", str(path), "--as", "France"),
           cli(capsys, "render", str(path), "--as", "France"),
           cli(capsys, "render", str(path), "--as", "France", "--orders"),
           power_position_report(game.current, "FRANCE")]
    for code in game.phases[:-1]:
        out.append(cli(capsys, "game", "show", str(path), "--as", "France", "--phase", code))
        out.append(cli(capsys, "render", str(path), "--as", "France", "--phase", code,
                       "--orders"))
        out.append(cli(capsys, "render", str(path), "--as", "France", "--phase", code))
        doc = outcome_to_json(game_outcome(game, code), "datc")
        out.append(json.dumps(doc["views"]["FRANCE"], sort_keys=True))
    return [text.replace(str(path), "GAME") for text in out]  # the file's name may differ


def test_paired_worlds_give_france_byte_identical_outputs(
    worlds: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Other powers' units, orders, dislodgements and new centres differ; France's outputs,
    pictures included, do not (its legend in the winter says "?", not 0 or the truth)."""
    a, b = Game.load(str(worlds["A"])), Game.load(str(worlds["B"]))
    assert a.current.center_counts() != b.current.center_counts()
    assert a.current.units != b.current.units
    seen_a, seen_b = _france_sees(worlds["A"], capsys), _france_sees(worlds["B"], capsys)
    assert len(seen_a) == len(seen_b)
    for left, right in zip(seen_a, seen_b, strict=True):
        assert left == right


def test_the_paired_worlds_differ_for_france_once_the_chart_is_told(
    worlds: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The comparison above can fail: after the winter France is told the new totals."""
    seen: dict[str, Any] = {}
    for name in ("A", "B"):
        path = tmp_path / f"{name}.json"
        path.write_text(worlds[name].read_text())
        assert main(["game", "process", str(path)]) == 0
        seen[name] = (legend(cli(capsys, "render", str(path), "--as", "France")),
                      cli(capsys, "game", "show", str(path), "--as", "France")
                      .replace(str(path), "GAME"))
    assert seen["A"][0]["Germany"] == "4" and seen["B"][0]["Germany"] == "3"
    assert seen["A"][1] != seen["B"][1]


def test_superdiplomacy_under_fog_outputs_tell_each_power_only_what_it_may_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The composed preset superdiplomacy-fog, played with the command line: every power's
    show and picture have no empty heading, the legend gives the totals (public through
    Spring and Fall), and a power's report names no other power's stack."""
    path = tmp_path / "sf.json"
    assert main(["game", "new", str(path), "--variant", "superdiplomacy-fog"]) == 0
    orders = {"FRANCE": ["2A Par - Bur", "2F Bre E"], "GERMANY": ["2A Ber - Pru"]}
    for power, lines in orders.items():
        file = tmp_path / f"{power}.txt"
        file.write_text("\n".join(lines) + "\n")
        assert main(["game", "orders", str(path), power, str(file)]) == 0
    assert main(["game", "process", str(path)]) == 0
    game = Game.load(str(path))
    true = truth(game)
    for power in POWERS:
        for args in (["--as", power], ["--as", power, "--phase", "S1901M"]):
            text = cli(capsys, "game", "show", str(path), *args)
            assert empty_headings(text) == [], (power, args, text)
        assert legend(cli(capsys, "render", str(path), "--as", power)) == true, power
    france = cli(capsys, "game", "show", str(path), "--as", "FRANCE", "--phase", "S1901M")
    germany = cli(capsys, "game", "show", str(path), "--as", "GERMANY", "--phase", "S1901M")
    assert "2A Par-Bur*" in france and "Ber" not in france
    assert "2A Ber-Pru*" in germany and "Par-Bur" not in germany
