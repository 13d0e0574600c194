"""Composed variants on the Superdiplomacy board (``docs/rules/composition.md``): DP neutrals
(``superdiplomacy-dp``) and fog of war (``superdiplomacy-fog``).

A test is named after each decision of the sections "Neutrals on the Superdiplomacy board" and
"Fog and stacks"; the hand-worked phases are written out position by position, with every
power's orders and bids, and their results worked out from the rules
(``docs/rules/superdiplomacy.md``, ``dp.md``, ``kriegsplomacy.md``). Dice come from fixed
seeds: a test states the dice it relies on (how many each side throws, and where the sixes
fall), so the rest follows by hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from calhamer import dice
from calhamer.cli import main
from calhamer.game import Game
from calhamer.map import load_map
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position
from calhamer.report import phase_report
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.variants import find_variant
from calhamer.variants.dp import bid_tally, check_bids, resolve_bids, with_bids
from calhamer.variants.superdiplomacy import as_stack
from test_superdiplomacy import board as superdiplomacy_board

M = load_map("superdiplomacy")
DP = find_variant("superdiplomacy-dp")
DP_START = Position.initial(M, variant=DP)


def board(
    variant: Any,
    units: Mapping[str, list[str]],
    phase: str = "S1902M",
    centers: Mapping[str, list[str]] | None = None,
    seed: str | None = "seed",
    extra: Mapping[str, object] | None = None,
) -> Position:
    """A position of ``variant``: the given stacks, the starting owners changed by
    ``centers``, and a committed dice seed."""
    return superdiplomacy_board(units, phase, centers, seed, extra,
                                start=Position.initial(M, variant=variant))


def battles(outcome: PhaseOutcome) -> list[dict[str, Any]]:
    assert outcome.resolution is not None and outcome.resolution.dice is not None
    return outcome.resolution.dice.battles


def kills(outcome: PhaseOutcome) -> list[dict[str, str]]:
    return [k for b in battles(outcome) for t in b["throws"] for k in t["kills"]]


def result(outcome: PhaseOutcome, power: str, canonical: str):
    found = outcome.result_of(power, canonical)
    assert found is not None, (canonical, [r.canonical for r in outcome.results.get(power, [])])
    return found


def stacks(position: Position) -> dict[str, str]:
    """Every stack on the board, by sector: ``{"SER": "NEUTRAL 2A"}``."""
    out = {}
    for p, unit in position.units.items():
        s = as_stack(M, unit)
        parts = [f"{s.armies}A"] * bool(s.armies) + [f"{s.fleets}F"] * bool(s.fleets)
        out[M.provinces[p].code] = f"{s.power} {'+'.join(parts)}"
    return out


def calm_seed(position: Position, orders: Mapping[str, list[str]]) -> PhaseOutcome:
    """The outcome under the first seed of a fixed list whose dice show no six (so no unit
    dies, and the moves are decided on full strengths)."""
    for i in range(200):
        fields = {**position.extra, "seed": f"seed-{i}", "seed_hash": dice.commitment(f"seed-{i}")}
        outcome = adjudicate(position.replace(extra=MappingProxyType(fields)), orders)
        if not any(6 in t["dice"] for b in battles(outcome) for t in b["throws"]):
            return outcome
    raise AssertionError("no seed in the list throws no six")


# =================================================================================================
# Neutrals on the Superdiplomacy board (superdiplomacy-dp)
# =================================================================================================


def test_the_small_powers_are_the_neutral_units() -> None:
    # Bought, a Small Power's armies take the order; unbought, they hold, as always.
    p = board(DP, {"AUSTRIA": ["2A BUD"], "NEUTRAL": ["2A SER", "2A RUM"]})
    p = with_bids(p, {"TURKEY": ["2 DP: 2A Ser S 2A Rum"]})
    outcome = calm_seed(p, {"AUSTRIA": ["2A Bud H"]})
    assert result(outcome, "NEUTRAL", "2A SER S 2A RUM").result == SUCCEEDS
    assert result(outcome, "NEUTRAL", "2A RUM H").reason.startswith("holds")
    tally = resolve_bids(p)
    bought = {M.provinces[q].code: t.bought for q, t in tally.units.items()}
    assert bought == {"SER": True, "RUM": False}
    # A player still cannot order them directly.
    direct = adjudicate(p, {"AUSTRIA": ["2A Bud H"], "NEUTRAL": ["2A Rum - Bud"]})
    assert direct.results["NEUTRAL"][0].result == INVALID


def test_a_bought_move_is_a_sortie_and_always_fails() -> None:
    # The sortie 2A Rum - Gal bounces Austria's single army (1 v 2), leaves Galicia empty by a
    # standoff, and the Rumanians stay at home. The two forces dispute Galicia, so they fight
    # (both attack, and throw at once); the seed throws no six.
    p = board(DP, {"AUSTRIA": ["1A BUD"], "NEUTRAL": ["2A RUM"]})
    p = with_bids(p, {"TURKEY": ["1 DP: 2A Rum - Gal"]})
    outcome = calm_seed(p, {"AUSTRIA": ["1A Bud - Gal"]})
    (fight,) = battles(outcome)
    assert fight["battle"] == "GAL" and {t["role"] for t in fight["throws"]} == {"attacks"}
    sortie = result(outcome, "NEUTRAL", "2A RUM - GAL")
    assert sortie.result == FAILS and sortie.reason.startswith("sortie")
    assert result(outcome, "AUSTRIA", "1A BUD - GAL").result == FAILS
    assert stacks(outcome.after) == {"BUD": "AUSTRIA 1A", "RUM": "NEUTRAL 2A"}
    # Alone, a sortie still never arrives.
    alone = adjudicate(with_bids(board(DP, {"NEUTRAL": ["2A RUM"]}),
                                 {"TURKEY": ["1 DP: 2A Rum - Gal"]}), {})
    assert stacks(alone.after) == {"RUM": "NEUTRAL 2A"}


def test_small_powers_fight_to_the_death_when_dislodged() -> None:
    # Serbia's army, bought a sortie into Budapest, is dislodged by Austria's 4 + 2 (if the dice
    # leave enough): it never retreats, it fights to the death, round after round.
    p = board(DP, {"AUSTRIA": ["4A BUD", "2A TRI"], "NEUTRAL": ["1A SER"]})
    p = with_bids(p, {"RUSSIA": ["3 DP: 1A Ser - Bud"]})
    orders = {"AUSTRIA": ["4A Bud - Ser", "2A Tri S Bud - Ser"]}
    for i in range(200):
        fields = {**p.extra, "seed": f"d{i}", "seed_hash": dice.commitment(f"d{i}")}
        outcome = adjudicate(p.replace(extra=MappingProxyType(fields)), orders)
        deaths = [b for b in battles(outcome) if b["kind"] == "to the death"]
        if deaths and stacks(outcome.after).get("SER", "").startswith("AUSTRIA"):
            break
    else:
        raise AssertionError("no seed in the list lets Austria take Serbia")
    assert deaths and [b["round"] for b in deaths] == list(range(1, len(deaths) + 1))
    assert not outcome.dislodged and outcome.next.phase.kind != "R"  # no retreat
    sortie = result(outcome, "NEUTRAL", "1A SER - BUD")
    assert sortie.result == FAILS and "destroyed fighting to the death" in sortie.reason
    assert stacks(outcome.after)["SER"].startswith("AUSTRIA")


def test_arming_is_unchanged_a_small_powers_sortie_does_not_arm_them() -> None:
    # A sortie into a Great Power's sector is a battle, but only a Great Power's move arms.
    p = board(DP, {"AUSTRIA": ["2A BUD"], "NEUTRAL": ["2A SER"]})
    sortie = adjudicate(with_bids(p, {"TURKEY": ["1 DP: 2A Ser - Bud"]}), {})
    assert [b["battle"] for b in battles(sortie)] == ["BUD"]
    assert "armed" not in sortie.next.extra
    attack = adjudicate(p, {"AUSTRIA": ["2A Bud - Ser"]})
    assert attack.next.extra["armed"] == "S1902M"


def test_their_builds_follow_section_9_not_the_dp_winter_rebuild() -> None:
    # Serbia lost its armies to a sortie's battle: unarmed, the Small Powers build nothing
    # (the DP winter rebuild would put 2A SER back); armed, they build by section 9, also
    # where an army still stands and in minor sectors (Albania), which a rebuild never does.
    winter = board(DP, {"AUSTRIA": ["2A BUD"], "NEUTRAL": ["1A GRE"]}, phase="W1902A",
                   seed=None)
    quiet = adjudicate(winter, {})
    assert "SER" not in stacks(quiet.after) and stacks(quiet.after)["GRE"] == "NEUTRAL 1A"
    armed = winter.replace(extra=MappingProxyType({"armed": "F1902M"}))
    built = stacks(adjudicate(armed, {}).after)
    assert built["SER"] == "NEUTRAL 2A" and built["GRE"] == "NEUTRAL 3A"
    assert built["ALB"] == "NEUTRAL 1A"


def test_bids_name_a_number() -> None:
    # `3 DP: 2A Ser S 3A Bul - Rum` buys the support of both Serbian armies.
    p = board(DP, {"AUSTRIA": ["3A BUL"], "RUSSIA": ["2A RUM"], "NEUTRAL": ["2A SER"]},
              centers={"AUSTRIA": ["BUL"], "RUSSIA": ["RUM"]})
    p = with_bids(p, {"TURKEY": ["3 DP: 2A Ser S 3A Bul - Rum"]})
    assert check_bids(p, "TURKEY", ["3 DP: 2A Ser S 3A Bul - Rum"]) == []
    outcome = calm_seed(p, {"AUSTRIA": ["3A Bul - Rum"]})
    support = result(outcome, "NEUTRAL", "2A SER S 3A BUL - RUM")
    assert support.result == SUCCEEDS
    (fight,) = battles(outcome)
    austria = next(t for t in fight["throws"] if t["power"] == "AUSTRIA")
    assert (austria["direct"], austria["supporting"]) == (3, 2)
    # One army's support is bought by writing 1A; the other army holds.
    one = with_bids(p, {"TURKEY": ["3 DP: 1A Ser S 3A Bul - Rum"]})
    tally = resolve_bids(one)
    (serbia,) = tally.units.values()
    assert serbia.order is not None and getattr(serbia.order, "count", None) == 1
    # The tally keeps the numbers: two bids that differ only in them are different orders.
    two = with_bids(p, {"TURKEY": ["2 DP: 1A Ser S 3A Bul - Rum"],
                        "ENGLAND": ["2 DP: 2A Ser S 3A Bul - Rum"]})
    (units,) = resolve_bids(two).units.values()
    assert len(units.totals) == 2 and not units.bought  # a tie: the default, hold
    # The bids open to a player name every number of armies that stand there, and no move.
    dp, options = Game.new("super-dp").possible_bids("ENGLAND")
    assert dp == 3
    assert {"1A SER H", "2A SER H", "1A SER S A BUD - RUM", "2A SER S A BUD - RUM"} <= \
        set(options["SER"])
    assert not any(" - " in o.split(" S ")[0] for o in options["SER"])


def test_a_bid_for_more_armies_than_stand_there_is_void() -> None:
    p = board(DP, {"AUSTRIA": ["3A BUL"], "RUSSIA": ["2A RUM"], "NEUTRAL": ["2A SER"]},
              centers={"AUSTRIA": ["BUL"], "RUSSIA": ["RUM"]})
    problems = check_bids(p, "TURKEY", ["3 DP: 3A Ser S 3A Bul - Rum"])
    assert problems == ["3 DP: 3A Ser S 3A Bul - Rum: the bid names 3 units, and only 2 stand "
                        "in Serbia (SER)"]
    tally = resolve_bids(with_bids(p, {"TURKEY": ["3 DP: 3A Ser S 3A Bul - Rum"]}))
    assert [j.status for j in tally.bids] == ["void"]
    (serbia,) = tally.units.values()
    assert not serbia.bought


def test_a_bought_support_counts_in_the_dice_as_a_supporting_unit_per_army() -> None:
    # Austria 2A Bud - Rum against Russia's 2A Rum: Austria throws 2 x 2 direct + 2 bought
    # supporting (Serbia's two armies) = 6 dice; Russia 2 x 2 = 4. The Serbian armies are on
    # Austria's side, so a Russian six may kill one of them.
    p = board(DP, {"AUSTRIA": ["2A BUD"], "RUSSIA": ["2A RUM"], "NEUTRAL": ["2A SER"]},
              centers={"RUSSIA": ["RUM"]})
    p = with_bids(p, {"TURKEY": ["2 DP: 2A Ser S 2A Bud - Rum"]})
    orders = {"AUSTRIA": ["2A Bud - Rum"]}
    outcome = calm_seed(p, orders)
    (fight,) = battles(outcome)
    throws = {t["power"]: t for t in fight["throws"]}
    assert (throws["AUSTRIA"]["direct"], throws["AUSTRIA"]["supporting"]) == (2, 2)
    assert len(throws["AUSTRIA"]["dice"]) == 6 and len(throws["RUSSIA"]["dice"]) == 4
    assert "NEUTRAL" not in throws  # the supporters fight on Austria's side
    for i in range(100):  # a Russian six may fall on a Serbian supporter
        fields = {**p.extra, "seed": f"k{i}", "seed_hash": dice.commitment(f"k{i}")}
        o = adjudicate(p.replace(extra=MappingProxyType(fields)), orders)
        hit = [k for k in kills(o) if k["power"] == "NEUTRAL"]
        if hit:
            assert hit[0]["as"] == "supporting"
            assert "killed in battle" in result(o, "NEUTRAL", "2A SER S 2A BUD - RUM").reason
            break
    else:
        raise AssertionError("no seed in the list kills a supporter")


def test_a_bought_support_counts_in_the_moves_as_a_support_from_that_sector() -> None:
    # No six: 2 + 2 (bought) = 4 beats Russia's 2; without the bid 2 v 2 bounces. An attack
    # on Serbia from a Great Power cuts the bought support as any other.
    p = board(DP, {"AUSTRIA": ["2A BUD"], "RUSSIA": ["2A RUM"], "NEUTRAL": ["2A SER"],
                   "ITALY": ["1A ALB"]}, centers={"RUSSIA": ["RUM"], "ITALY": ["ALB"]})
    bought = with_bids(p, {"TURKEY": ["2 DP: 2A Ser S 2A Bud - Rum"]})
    won = calm_seed(bought, {"AUSTRIA": ["2A Bud - Rum"]})
    assert result(won, "AUSTRIA", "2A BUD - RUM").result == SUCCEEDS
    assert "(4v2)" in result(won, "RUSSIA", "2A RUM H").reason
    plain = calm_seed(p, {"AUSTRIA": ["2A Bud - Rum"]})
    assert result(plain, "AUSTRIA", "2A BUD - RUM").result == FAILS
    cut = calm_seed(bought, {"AUSTRIA": ["2A Bud - Rum"], "ITALY": ["1A Alb - Ser"]})
    assert result(cut, "NEUTRAL", "2A SER S 2A BUD - RUM").result == FAILS
    assert result(cut, "AUSTRIA", "2A BUD - RUM").result == FAILS


def test_the_small_powers_are_one_minor_power_to_the_dp_rules() -> None:
    # Austria attacks Rumania: its bid for Serbia's support is ignored (Attacking &
    # Allocating names the minor power, and the Small Powers are one).
    p = board(DP, {"AUSTRIA": ["2A BUD"], "NEUTRAL": ["2A SER", "2A RUM"]})
    mine = with_bids(p, {"AUSTRIA": ["3 DP: 2A Ser S 2A Bud - Rum"]})
    tally = resolve_bids(mine, {M.loc("BUD"): adjudicate(mine, {"AUSTRIA": ["2A Bud - Rum"]})
                                .results["AUSTRIA"][0].order})
    assert [j.status for j in tally.bids] == ["ignored"]
    # Bought by Turkey, Serbia's support helps the attack in the dice, but not to dislodge
    # Rumania (no power's support dislodges its own units): 2 against 2 bounces.
    theirs = with_bids(p, {"TURKEY": ["3 DP: 2A Ser S 2A Bud - Rum"]})
    outcome = calm_seed(theirs, {"AUSTRIA": ["2A Bud - Rum"]})
    assert result(outcome, "NEUTRAL", "2A SER S 2A BUD - RUM").result == SUCCEEDS
    (fight,) = battles(outcome)
    austria = next(t for t in fight["throws"] if t["power"] == "AUSTRIA")
    assert austria["supporting"] == 2
    moved = result(outcome, "AUSTRIA", "2A BUD - RUM")
    assert moved.result == FAILS and "2v2" in moved.reason


def test_hand_worked_phase_with_dp_neutrals() -> None:
    """Spring 1902, worked by hand.

    Austria 3A Bul attacks Russia's 2A Rum, which Russia's 2A Sev supports to hold. Bids:
    Austria 1 DP and Turkey 3 DP for `2A Ser S 3A Bul - Rum` (identical orders add up: 4);
    Russia 2 DP for `2A Ser H` and 1 DP for the sortie `2A Gre - Bul`. Nobody attacks a Small
    Power, so no bid is ignored (Attacking & Allocating); all allotments are 3 DP (1 per
    centre, at most 3), so none overspends.

    Serbia: support 4 DP v hold 2 DP, the support is bought. Greece: the sortie, alone, bought.
    Battle for Rumania: Russia defends with 2 direct + 2 supporting (Sev) = 6 dice, Austria
    attacks with 3 direct + 2 supporting (the Serbians) = 8 dice. The seed throws no six, so
    nobody dies and the moves are decided on full strengths: 3 + 2 = 5 against a hold of
    2 + 2 = 4: Russia's 2A Rum is dislodged. The Greek sortie into Bulgaria fails (as every
    sortie) and, Bulgaria being left by the Austrians, leaves it empty by a standoff: the
    Russians may retreat to Bud, Gal, Sev (their own 2A: 4 of 6) or Ukr, not to Bul (the
    standoff and the attack's origin) nor Ser (held). No Great Power moved against a Small
    Power, so they stay unarmed. Every power is told every result (no fog), but no report
    names a bid or a bidder.
    """
    units = {"AUSTRIA": ["3A BUL"], "RUSSIA": ["2A RUM", "2A SEV"], "TURKEY": ["2A CON"],
             "NEUTRAL": ["2A SER", "2A GRE"]}
    p = board(DP, units, centers={"AUSTRIA": ["BUL"], "RUSSIA": ["RUM"]})
    bids = {"AUSTRIA": ["1 DP: 2A Ser S 3A Bul - Rum"],
            "TURKEY": ["3 DP: 2A Ser S 3A Bul - Rum"],
            "RUSSIA": ["2 DP: 2A Ser H", "1 DP: 2A Gre - Bul"]}
    p = with_bids(p, bids)
    orders = {"AUSTRIA": ["3A Bul - Rum"], "RUSSIA": ["2A Rum H", "2A Sev S Rum"],
              "TURKEY": ["2A Con H"]}
    for power, given in bids.items():
        assert check_bids(p, power, given) == []
    outcome = calm_seed(p, orders)

    tally = bid_tally(p, orders)
    totals = {M.provinces[q].code: t.totals for q, t in tally.units.items()}
    assert totals == {"GRE": {"2A GRE - BUL": 1},
                      "SER": {"2A SER S 3A BUL - RUM": 4, "2A SER H": 2}}
    (fight,) = battles(outcome)
    assert fight["battle"] == "RUM"
    russia, austria = fight["throws"]
    assert (russia["power"], russia["role"], russia["direct"], russia["supporting"]) == \
        ("RUSSIA", "defends", 2, 2)
    assert (austria["power"], austria["role"], austria["direct"], austria["supporting"]) == \
        ("AUSTRIA", "attacks", 3, 2)
    assert len(russia["dice"]) == 6 and len(austria["dice"]) == 8

    assert result(outcome, "AUSTRIA", "3A BUL - RUM").result == SUCCEEDS
    held = result(outcome, "RUSSIA", "2A RUM H")
    assert held.result == FAILS and "dislodged by 3A BUL (5v4)" in held.reason
    assert result(outcome, "RUSSIA", "2A SEV S A RUM").result == SUCCEEDS
    assert result(outcome, "NEUTRAL", "2A SER S 3A BUL - RUM").result == SUCCEEDS
    assert result(outcome, "NEUTRAL", "2A GRE - BUL").reason.startswith("sortie")
    assert result(outcome, "TURKEY", "2A CON H").result == SUCCEEDS
    assert stacks(outcome.after) == {"RUM": "AUSTRIA 3A", "SEV": "RUSSIA 2A",
                                     "CON": "TURKEY 2A", "SER": "NEUTRAL 2A",
                                     "GRE": "NEUTRAL 2A"}
    nxt = outcome.next
    assert nxt.phase.code == "S1902R" and "armed" not in nxt.extra
    (dislodged,) = nxt.dislodged
    choices = sorted(M.loc_names[q] for q in DP.retreat_choices(nxt, dislodged))
    assert choices == ["BUD", "GAL", "SEV", "UKR"]

    report = phase_report(outcome)
    assert "    2A Ser S 3A Bul - Rum   Succeeds" in report
    assert "    2A Gre - Bul            Bounced (sortie)" in report
    assert "Dislodged by 3A BUL (5v4), must retreat" in report
    for power in ("AUSTRIA", "RUSSIA", "TURKEY", "ENGLAND"):
        view = DP.visibility.power_view(outcome, power)
        text = phase_report(view)
        assert "2A SER S 3A BUL - RUM" in text and "Austria attacks: 3 direct + 2" in text
        assert not re.search(r"\d DP|\bbids?\b", text, re.IGNORECASE)


# -- a whole game in the command line -----------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0, argv
    return capsys.readouterr().out


def give(capsys: pytest.CaptureFixture[str], path: Path, action: str, power: str,
         lines: list[str]) -> str:
    source = path.parent / f"{power}-{action}.txt"
    source.write_text("\n".join(lines) + "\n")
    return run(capsys, "game", action, str(path), power, str(source))


def test_a_whole_dp_game_in_the_command_line_keeps_the_bids_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game of superdiplomacy-dp to its year limit, played with the command line: the
    bids are given and echoed to their bidder, the gamemaster's tally shows them, and no
    player's report, view or picture names a bid."""
    path = tmp_path / "super-dp.json"
    Game.new("super-dp", new_seed=lambda: "cli", max_year=1901).save(str(path))
    out = give(capsys, path, "bids", "ENGLAND", ["3 DP: 2A Bel S 2A Par - Bur"])
    assert out.startswith("ok     3 DP: 2A Bel S 2A Par - Bur")
    out = give(capsys, path, "bids", "ITALY", ["2 DP: 3A Swi H"])
    assert "the bid names 3 units, and only 2 stand in Switzerland (SWI)" in out
    give(capsys, path, "orders", "FRANCE", ["2A Par - Bur"])
    tally = run(capsys, "game", "tally", str(path))
    assert "3 DP  2A Bel S 2A Par - Bur" in tally
    run(capsys, "game", "process", str(path))
    game = Game.load(str(path))
    outcome = game.outcome("S1901M")
    assert outcome is not None
    assert result(outcome, "NEUTRAL", "2A BEL S 2A PAR - BUR").result == SUCCEEDS
    assert result(outcome, "FRANCE", "2A PAR - BUR").result == SUCCEEDS
    for power in ("ENGLAND", "FRANCE", "ITALY", "GERMANY"):
        shown = run(capsys, "game", "show", str(path), "--as", power, "--phase", "S1901M")
        assert "2A Bel S 2A Par - Bur" in shown or "2A BEL S 2A PAR - BUR" in shown
        assert not re.search(r"\d DP|\bbids?\b", shown, re.IGNORECASE)
    reports = tmp_path / "reports"
    run(capsys, "game", "reports", str(path), "-o", str(reports), "--phase", "S1901M",
        "--no-pictures")
    for file in reports.iterdir():
        if "gamemaster" not in file.name.lower():
            assert not re.search(r"\d DP|\bbids?\b", file.read_text(), re.I), file.name
    while not Game.load(str(path)).is_done():
        run(capsys, "game", "process", str(path))
    assert Game.load(str(path)).is_done()
    verified = run(capsys, "verify", str(path))
    assert "every dice seed matches its commitment" in verified


# =================================================================================================
# Fog and stacks (superdiplomacy-fog)
# =================================================================================================

FOG = find_variant("superdiplomacy-fog")

# Spring 1902, worked by hand in test_hand_worked_phase_under_fog: Russia's 3A Pru attacks
# Austria's 2A War with the support of Germany's 2A Sil; Turkey spies from Galicia, whose
# range (Gal and its neighbours Boh, Bud, Rum, Sil, Ukr, Vie, War) holds War and Sil but not
# Pru; France holds far away; the Small Powers' 2A Rum holds.
FOG_UNITS = {"RUSSIA": ["3A PRU"], "GERMANY": ["2A SIL"], "AUSTRIA": ["2A WAR"],
             "TURKEY": ["1A GAL"], "FRANCE": ["2A PAR"], "NEUTRAL": ["2A RUM"]}
FOG_OWNERS = {"AUSTRIA": ["WAR"], "TURKEY": ["GAL"], "RUSSIA": ["PRU"]}
FOG_ORDERS = {"RUSSIA": ["3A Pru - War"], "GERMANY": ["2A Sil S 3A Pru - War"],
              "AUSTRIA": ["2A War H"], "TURKEY": ["1A Gal E"], "FRANCE": ["2A Par H"]}


def fog_phase() -> PhaseOutcome:
    return calm_seed(board(FOG, FOG_UNITS, centers=FOG_OWNERS), FOG_ORDERS)


def view_text(outcome: PhaseOutcome, power: str) -> str:
    from calhamer.report import view_report

    return view_report(FOG.visibility.power_view(outcome, power))


def note(outcome: PhaseOutcome, power: str, title: str) -> list[str]:
    view = FOG.visibility.power_view(outcome, power)
    found = [n for n in view.notes if n.title.startswith(title)]
    assert len(found) == 1, [n.title for n in view.notes]
    return list(found[0].lines)


def test_a_spy_reports_a_stack_with_its_number() -> None:
    outcome = fog_phase()
    spied = note(outcome, "TURKEY", "Espionage")
    assert "Rus 3A ???-War*" in spied  # the move, its origin out of range
    assert "Ger 2A Sil* S 3A ???-War" in spied  # the support, as numbered on the order
    assert "Aus 2A War H [dislodged]" in spied  # the units holding in a sector in range
    assert "neu 2A Rum* H" in spied


def test_battles_and_casualties_are_told_whole_to_who_fought_and_by_casualties_to_spies(
) -> None:
    outcome = fog_phase()
    for power in ("RUSSIA", "GERMANY", "AUSTRIA"):  # attacker, supporter, defender
        lines = note(outcome, power, "Your battles and dice")
        assert "Battle for WAR" in lines
        assert any(line.strip().startswith("Austria defends: 2 direct + 0 supporting, 4 dice")
                   for line in lines)
        assert any(line.strip().startswith("Russia attacks: 3 direct + 2 supporting, 8 dice")
                   for line in lines)
    turkey = view_text(outcome, "TURKEY")
    assert "Battle for WAR: no losses" in turkey and "Russia attacks" not in turkey
    assert "WAR" not in view_text(outcome, "FRANCE").split("Next:")[0]
    # Own casualties are always told, in the unit's own line, with the dice of its battle.
    p = board(FOG, {"RUSSIA": ["3A PRU"], "AUSTRIA": ["2A WAR"]}, centers=FOG_OWNERS)
    for i in range(100):
        fields = {"seed": f"c{i}", "seed_hash": dice.commitment(f"c{i}")}
        o = adjudicate(p.replace(extra=MappingProxyType(fields)), {"RUSSIA": ["3A Pru - War"]})
        lost = sum(k["power"] == "RUSSIA" for k in kills(o))
        if 0 < lost < 3:
            own = FOG.visibility.power_view(o, "RUSSIA").results["RUSSIA"]
            assert f"lost {lost}" in own[0].canonical and f"{lost} of 3 killed" in own[0].reason
            break
    else:
        raise AssertionError("no seed in the list kills a Russian")


def test_verifiable_dice_under_fog() -> None:
    from calhamer.variants.superdiplomacy import LABEL

    outcome = fog_phase()
    record = outcome.resolution.dice if outcome.resolution else None
    assert record is not None
    for power in ("RUSSIA", "TURKEY", "FRANCE"):
        lines = note(outcome, power, "Your battles and dice")
        assert lines[0] == f"Seed {record.seed}"
        assert f"orders {record.orders_digest}" in lines[1]
        assert dice.seed_matches(record.seed, record.seed_hash)
    # The throws of the battle for War depend only on the seed, the phase, the digest and the
    # sector: anyone told them throws them again (no six, so no casualty draws between).
    stream = dice.DiceStream(record.seed, f"{LABEL}|S1902M|{record.orders_digest}|WAR|0")
    (fight,) = battles(outcome)
    assert stream.throw(4) == fight["throws"][0]["dice"]
    assert stream.throw(8) == fight["throws"][1]["dice"]


def test_supply_lines_are_traced_on_the_true_board_and_only_the_removal_is_told() -> None:
    # Three German armies in Picardy, cut off by French sectors and a French fleet in the
    # Channel Germany cannot see: two are removed, and Germany is told so, not where.
    cut = board(FOG, {"GERMANY": ["3A PIC", "2A BER"],
                      "FRANCE": ["2F ENG", "2A PAR", "1A BEL", "1A BUR", "1F BRE"]},
                phase="W1901A", seed=None, centers={"GERMANY": ["PIC"], "FRANCE": ["BEL"]})
    outcome = adjudicate(cut, {})
    assert stacks(outcome.after)["PIC"] == "GERMANY 1A"
    view = FOG.visibility.power_view(outcome, "GERMANY")
    (removal,) = view.results["GERMANY"]
    assert removal.canonical == "2A PIC D" and "too few removals ordered" in removal.reason
    told = view_text(outcome, "GERMANY")
    for hidden in ("ENG", "BUR", "BEL", "BRE", "Eng ", "Bur", "Channel", "Burgundy"):
        assert hidden not in told.split("Next:")[0], hidden
    assert "2A PIC D" not in view_text(outcome, "FRANCE")


def test_small_powers_are_neutral_units_to_the_fog_and_their_arming_is_public() -> None:
    outcome = fog_phase()
    for power in ("FRANCE", "TURKEY"):
        known = FOG.visibility.known_position(outcome.before, power)
        assert all(u.power == power for u in known.units.values())  # not seen, not known
    assert "neu 2A Rum* H" in note(outcome, "TURKEY", "Espionage")  # seen by a spy
    # An attack on a Small Power arms them, and every power is told so.
    p = board(FOG, {"AUSTRIA": ["2A BUD"], "FRANCE": ["2A PAR"], "NEUTRAL": ["2A SER"]})
    attack = adjudicate(p, {"AUSTRIA": ["2A Bud - Ser"]})
    assert attack.next.extra["armed"] == "S1902M"
    for power in ("AUSTRIA", "FRANCE", "RUSSIA"):
        assert note(attack, power, "The Small Powers") == [
            "The Small Powers are armed (first attacked in S1902M)."]
    assert not [n for n in FOG.visibility.power_view(fog_phase(), "FRANCE").notes
                if n.title == "The Small Powers"]


def test_orders_under_fog_read_numbers_and_reveal_no_foreign_stack() -> None:
    p = board(FOG, FOG_UNITS, centers=FOG_OWNERS)
    outcome = adjudicate(p, {"FRANCE": ["2A War H", "2A Pic H", "2A Par E"],
                             "GERMANY": ["2A Sil S 3A Pru - War"]})
    war, pic, spy = outcome.results["FRANCE"][:3]
    assert war.result == INVALID and pic.result == INVALID
    assert war.reason.replace("Warsaw (WAR)", "X") == pic.reason.replace("Picardy (PIC)", "X")
    assert spy.result != INVALID
    assert result(outcome, "GERMANY", "2A SIL S 3A PRU - WAR").result != INVALID


def test_hand_worked_phase_under_fog() -> None:
    """Spring 1902, worked by hand (the position and orders above).

    Battle for War: Austria defends with 2 direct = 4 dice; Russia attacks with 3 direct and
    Germany's 2 supporting = 8 dice. The seed throws no six: nobody dies. Russia 3 + 2 = 5
    against Austria's hold of 2: Austria's 2A War is dislodged, and may retreat to Lvn, Mos or
    Ukr (not Pru, whence the attack came, nor Sil or Gal, held by others). A retreat phase
    follows for everyone (as after every movement phase under fog).

    Russia is told its move succeeded, opposed (units stood in War), and the battle whole;
    Germany its support (whether it was given is not told) and the battle whole, as it fought
    in it; Austria that its army was attacked and dislodged, and the battle whole. Turkey's
    uncut spy in Galicia sees War and Silesia but not Prussia: `Rus 3A ???-War*`,
    `Ger 2A Sil* S 3A ???-War`, the dislodged Austrians, the Rumanians holding, the centre
    owners in range and the battle's casualties (none), not its dice. France is told only its
    own hold. Every power gets the seed and the orders digest.
    """
    outcome = fog_phase()
    (fight,) = battles(outcome)
    austria, russia = fight["throws"]
    assert (austria["power"], austria["role"], len(austria["dice"])) == ("AUSTRIA", "defends", 4)
    assert (russia["power"], russia["direct"], russia["supporting"], len(russia["dice"])) == \
        ("RUSSIA", 3, 2, 8)
    assert not any(6 in t["dice"] for t in fight["throws"])
    assert stacks(outcome.after) == {"WAR": "RUSSIA 3A", "SIL": "GERMANY 2A",
                                     "GAL": "TURKEY 1A", "PAR": "FRANCE 2A",
                                     "RUM": "NEUTRAL 2A"}
    nxt = outcome.next
    assert nxt.phase.code == "S1902R"
    (dislodged,) = nxt.dislodged
    assert sorted(M.loc_names[q] for q in FOG.retreat_choices(nxt, dislodged)) == \
        ["LVN", "MOS", "UKR"]

    def own(power: str) -> list[tuple[str, str]]:
        view = FOG.visibility.power_view(outcome, power)
        return [(r.canonical, r.reason) for r in view.results[power]]

    assert own("RUSSIA") == [("3A Pru-War* [opp]", "moves; opposed")]
    assert own("GERMANY") == [("2A Sil* S 3A Pru-War",
                               "whether the support was given is not told")]
    assert own("AUSTRIA") == [("2A War H [att; dislodged]", "dislodged; attacked")]
    assert own("TURKEY") == [("1A Gal* E", "espionage")]
    assert own("FRANCE") == [("2A Par* H", "holds")]
    assert note(outcome, "TURKEY", "Espionage") == [
        "Boh = Aus", "Bud = Aus", "Gal = Tur", "Rum = neu", "Sil = Ger", "Ukr = Rus",
        "Vie = Aus", "War = Aus",
        "Rus 3A ???-War*", "neu 2A Rum* H", "Ger 2A Sil* S 3A ???-War",
        "Aus 2A War H [dislodged]", "Battle for WAR: no losses"]
    for power in ("RUSSIA", "GERMANY", "AUSTRIA"):
        lines = note(outcome, power, "Your battles and dice")
        assert lines[2:] == ["Battle for WAR",
                             f"    Austria defends: 2 direct + 0 supporting, 4 dice: "
                             f"{' '.join(map(str, austria['dice']))}",
                             f"    Russia attacks: 3 direct + 2 supporting, 8 dice: "
                             f"{' '.join(map(str, russia['dice']))}"]
    for power in ("TURKEY", "FRANCE"):
        assert note(outcome, power, "Your battles and dice")[2:] == ["No battles."]
    france = view_text(outcome, "FRANCE")
    for foreign in ("Pru", "War", "Sil", "Gal", "Rum", "Rus", "Ger", "Aus", "Tur"):
        assert foreign not in france.split("Next:")[0], foreign


def test_a_stack_retreating_in_parts_is_told_part_by_part() -> None:
    """Austria's dislodged 2A War (the hand-worked phase) retreats in parts: each part is
    told with its own number and place, and a part no order names is told disbanded. Turkey's
    spy in Galicia sees War (and Ukr) but not Lvn or Mos."""
    retreat = fog_phase().next

    def told(orders: list[str], power: str) -> list[str]:
        outcome = adjudicate(retreat, {"AUSTRIA": orders})
        view = FOG.visibility.power_view(outcome, power)
        if power == "AUSTRIA":
            return [r.canonical for r in view.results["AUSTRIA"]]
        return [line for n in view.notes if n.title.startswith("Espionage") for line in n.lines]

    split = ["1A War - Lvn", "1A War - Mos"]
    assert told(split, "AUSTRIA") == ["1A War [r-Lvn*]", "1A War [r-Mos*]"]
    assert told(split, "TURKEY") == ["Aus 1A War [r-???*]", "Aus 1A War [r-???*]"]
    assert told(["1A War - Ukr"], "AUSTRIA") == ["1A War [r-Ukr*]", "1A War [d]"]
    assert told(["1A War - Ukr"], "TURKEY") == ["Aus 1A War [r-Ukr*]", "Aus 1A War [d]"]
    assert told(["2A War - Lvn"], "AUSTRIA") == ["2A War [r-Lvn*]"]
    assert told([], "AUSTRIA") == ["2A War [d]"]


# -- a whole game under fog in the command line, in two worlds -----------------------------------

# France's orders are the same in both worlds; in world A the others move within their own
# sectors, far from France, in world B they stand still. France may know none of it.
FOG_FRANCE = {"S1901M": ["2A Par - Bur", "2F Bre E"], "F1901M": ["2A Bur H", "2F Bre H"]}
FOG_WORLD_A = {"S1901M": {"GERMANY": ["2A Ber - Pru"], "RUSSIA": ["2A War - Ukr"],
                          "ITALY": ["2A Rom - Tus", "2F Nap E"]},
               "F1901M": {"GERMANY": ["2A Pru - Sil"], "RUSSIA": ["2A Ukr H"]}}
_SEED_LINES = re.compile(r"^.*(Seed |SHA-256|committed seed).*$", re.MULTILINE)


def play_fog(capsys: pytest.CaptureFixture[str], path: Path,
             world: Mapping[str, Mapping[str, list[str]]], until: str) -> Game:
    Game.new("super-fog", new_seed=lambda: "fog-cli", max_year=1901).save(str(path))
    while True:
        game = Game.load(str(path))
        code = game.current.phase.code
        if code == until or game.is_done():
            return game
        orders = dict(world.get(code, {}))
        if code in FOG_FRANCE:
            orders["FRANCE"] = FOG_FRANCE[code]
        for power, lines in orders.items():
            out = give(capsys, path, "orders", power, lines)
            assert "error" not in out, out
        run(capsys, "game", "process", str(path))


def france_sees(capsys: pytest.CaptureFixture[str], path: Path, phases: list[str]) -> str:
    shown = [run(capsys, "game", "show", str(path), "--as", "France")]
    shown += [run(capsys, "game", "show", str(path), "--as", "France", "--phase", code)
              for code in phases]
    shown.append(run(capsys, "render", str(path), "--as", "France"))
    text = "\n".join(shown).replace(str(path), "GAME")
    return _SEED_LINES.sub("(seed)", text)


def test_a_whole_fog_game_in_the_command_line_tells_each_player_only_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = {name: tmp_path / f"{name}.json" for name in "AB"}
    games = {name: play_fog(capsys, paths[name], world, "W1901A")
             for name, world in (("A", FOG_WORLD_A), ("B", {}))}
    played = [code for code in games["A"].phases if code.endswith("M") or code.endswith("R")]
    assert played[:3] == ["S1901M", "S1901R", "F1901M"]  # a retreat phase after each movement
    a_units = stacks(games["A"].current)
    assert a_units.get("SIL") == "GERMANY 2A" and "BER" not in a_units
    # France's outputs are the same in both worlds (the dice seeds drawn apart).
    phases = [c for c in played if c in games["B"].phases]
    assert france_sees(capsys, paths["A"], phases) == france_sees(capsys, paths["B"], phases)
    # And they name no foreign unit; France's spy in Brest sees only its own sectors and seas.
    spring = run(capsys, "game", "show", str(paths["A"]), "--as", "France", "--phase",
                 "S1901M")
    assert "2A Par-Bur*" in spring and "Espionage: 1F Bre* E" in spring
    for foreign in ("Ger ", "Rus ", "Ita ", "Eng ", "BER", "WAR", "ROM"):
        assert foreign not in spring, foreign
    # Each power's report in the folder: its own orders, not another's.
    reports = tmp_path / "reports"
    run(capsys, "game", "reports", str(paths["A"]), "-o", str(reports), "--phase", "S1901M",
        "--no-pictures")
    texts = {f.name: f.read_text() for f in reports.iterdir() if f.suffix == ".txt"}
    germany = next(t for n, t in texts.items() if "GERMANY" in n.upper())
    italy = next(t for n, t in texts.items() if "ITALY" in n.upper())
    assert "2A Ber-Pru*" in germany and "Rom" not in germany
    assert "2A Rom-Tus*" in italy and "Ber" not in italy.split("Next:")[0]
    # The game goes on to its year limit; every seed matches its commitment.
    while not Game.load(str(paths["A"])).is_done():
        run(capsys, "game", "process", str(paths["A"]))
    assert "every dice seed matches its commitment" in run(capsys, "verify", str(paths["A"]))


def test_a_mixed_stack_lists_each_type_by_its_own_number() -> None:
    # The army type is a false value: a listing that wrote "type or the stack's type" took a
    # mixed stack's armies for its fleets (4A NAP H where two armies stand), and so did the
    # number a bid was checked against.
    p = board(DP, {"ITALY": ["2A+4F NAP"], "NEUTRAL": ["2A SWE"]})
    from calhamer.options import possible_orders

    holds = [DP.notation.format_order(p, o) for o in possible_orders(p, "ITALY")[M.loc("NAP")]
             if " H" in DP.notation.format_order(p, o)]
    assert holds == ["1A NAP H", "2A NAP H", "1F NAP H", "2F NAP H", "3F NAP H", "4F NAP H"]
    assert check_bids(p, "ENGLAND", ["1 DP: 2A Swe H"]) == []
    assert check_bids(p, "ENGLAND", ["1 DP: 3A Swe H"]) == [
        "1 DP: 3A Swe H: the bid names 3 units, and only 2 stand in Sweden (SWE)"]


def test_under_fog_every_adjustment_phase_is_played_needed_or_not() -> None:
    """Skipping an adjustment phase would tell every power that nobody had a build or a
    removal due: under fog the spring and winter adjustments are always played, as
    Kriegsplomacy plays every winter; on the open board a phase nobody owes is skipped."""
    from calhamer.variants.superdiplomacy.seasons import adjustments_due, advance

    for name, spring_next, fall_next in (
        ("superdiplomacy", "F1901M", "S1902M"),
        ("superdiplomacy-fog", "S1901A", "W1901A"),
    ):
        variant = find_variant(name)
        start = Position.initial(variant=variant)
        # nobody has a unit or a centre, so nobody owes a build or a removal
        empty = start.replace(units={}, centers={}, phase=Phase(1901, "S", "R"))
        assert not adjustments_due(empty.replace(phase=Phase(1901, "S", "A")))
        assert str(advance(empty, None).phase) == spring_next, name
        fall = empty.replace(phase=Phase(1901, "F", "R"))
        assert str(advance(fall, None).phase) == fall_next, name


def test_krieg_3_6_retreat_to_the_space_a_convoyed_attacker_came_from_under_fog_and_stacks(
) -> None:
    # Kriegsplomacy 3.6 closes a convoyed attacker's origin in every fog variant; the stacks
    # alone keep it open (Superdiplomacy section 6, as the DATC prefers).
    units = {"ENGLAND": ["2A PIC", "2F ENG", "2F NTH"], "GERMANY": ["1A BEL"]}
    orders = {"ENGLAND": ["2A Pic-Bel via convoy", "2F Eng C 2A Pic-Bel", "2F Nth S 2A Pic-Bel"]}
    pic = M.province_of(M.loc("PIC"))
    for variant, origin, after in ((FOG, pic, {}), (find_variant("superdiplomacy"), None,
                                                    {"PIC": "GERMANY 1A"})):
        out = calm_seed(board(variant, units), orders)
        assert [d.attacker_from for d in out.next.dislodged] == [origin]
        step = adjudicate(out.next, {"GERMANY": ["1A Bel R Pic"]})
        assert {k: v for k, v in stacks(step.next).items() if "GERMANY" in v} == after
