"""Fog of war composed with colours (``arpiesse-fog``) and with DP neutrals (``fog-dp``).

Each test is named after a decision of ``docs/rules/composition.md`` ("Fog and colours",
"Fog and neutrals", "Neutrals and colours"), and each preset plays a whole phase worked out
by hand from the rules (the position, every power's orders and bids, the results and every
power's report, line by line) and a whole game through the command line, in which each player
is shown only what the modules allow and the bids stay secret.

How the hand-worked phases were worked out is written next to each: the adjudication (the
rules of the modules on the whole board) and then what each power is told (Kriegsplomacy's
rules 3 and 6: its own results, and what its uncut spies see).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.game import Game, check_orders
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.report import phase_report
from calhamer.results import FAILS, SUCCEEDS, PhaseOutcome
from calhamer.rules import find_rules
from calhamer.variants import find_variant
from calhamer.variants.arpiesse import PURPLE, RED, SILVER, colour_of
from calhamer.variants.dp import bid_tally, check_bids
from calhamer.views import gamemaster_view, power_view

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


# -- helpers --------------------------------------------------------------------------------------


def board(variant: str, units: Mapping[str, list[str]], centers: Mapping[str, list[str]] | None
          = None, phase: str = "S1901M", **more: Any) -> tuple[Position, dict[str, list[str]]]:
    doc: dict[str, Any] = {"variant": variant, "phase": phase, "units": dict(units), **more}
    if centers is not None:
        doc["centers"] = dict(centers)
    position, orders, _rules = position_from_json(doc)
    return position, orders


def play(variant: str, units: Mapping[str, list[str]], orders: Mapping[str, list[str]],
         centers: Mapping[str, list[str]] | None = None, **more: Any) -> PhaseOutcome:
    position, _ = board(variant, units, centers, **more)
    return adjudicate(position, orders)


def told(outcome: PhaseOutcome, power: str) -> str:
    """The report ``power`` is sent of ``outcome``."""
    return phase_report(power_view(outcome, power))


def lines(outcome: PhaseOutcome, power: str) -> list[str]:
    """``power``'s own lines, as its view gives them."""
    return [r.canonical for r in power_view(outcome, power).results.get(power, [])]


def spy_notes(outcome: PhaseOutcome, power: str) -> list[str]:
    return [line for note in power_view(outcome, power).notes for line in note.lines]


def checks(position: Position, power: str, given: list[str]) -> list[tuple[str, str | None]]:
    return [(c.canonical, c.problem) for c in check_orders(position, {power: given})[power]]


# == Fog and colours ==============================================================================

AF = "arpiesse-fog"

# The hand-worked phase of arpiesse-fog (Spring 1901, the standard board).
AF_UNITS = {"ENGLAND": ["F MAO"], "FRANCE": ["F LYO", "F SPA/SC", "A MAR"],
            "ITALY": ["Purple F TYS", "A PIE"]}
AF_CENTRES = {"ENGLAND": ["LON", "EDI", "LVP"], "FRANCE": ["BRE", "SPA", "MAR"],
              "ITALY": ["VEN", "ROM", "NAP"]}
AF_ORDERS = {"ENGLAND": ["F Mao E"],
             "FRANCE": ["F Lyo - Wes", "F Spa/sc S Red F Lyo - Wes", "A Mar H"],
             "ITALY": ["F Tys - Wes", "A Pie S Silver A Mar"]}


def test_arpiesse_fog_a_whole_phase_worked_by_hand() -> None:
    """Adjudication (Arpiesse on the whole board): France moves into the Western Med with
    strength 2 Red (its fleet in Spain supports), Italy with 1 Purple. Against a rival attack
    each colour must beat or tie each (rule IX): Purple is superior to Red whatever the
    strengths, so Italy's fleet moves and France's bounces. Italy's army supports the French
    army in Marseilles to hold, naming it Silver: it is Red, but under fog a colour written
    for a foreign unit is not checked, so the support stands. Nothing is dislodged.

    What each is told: England's uncut spy in the Mid-Atlantic sees its range (North Africa,
    the North Atlantic, Irish Sea, Channel, Brest, Gascony, Spain, Portugal and the Western
    Med): the centres in it (Brest, Portugal, Spain), the French fleet's move into the Western
    Med from a place it does not see (failed: no star), the French support from Spain of a
    unit it does not see, and the Italian fleet arriving (starred) from a place it does not
    see; each unit it sees with its colour, the supported fleet (not seen) without. France and
    Italy are told only their own lines: France that its move was opposed and failed, not by
    what colour; Italy that its move was opposed and succeeded."""
    outcome = play(AF, AF_UNITS, AF_ORDERS, AF_CENTRES)
    # the truth
    wes = outcome.next.units[outcome.before.map.province_of(outcome.before.map.loc("WES"))]
    assert (wes.power, colour_of(wes)) == ("ITALY", PURPLE)
    assert not outcome.dislodged
    assert [r.result for r in outcome.results["ITALY"]] == [SUCCEEDS, SUCCEEDS]
    assert outcome.results["FRANCE"][0].result == FAILS
    assert told(outcome, "ENGLAND").splitlines() == [
        "Spring 1901 Movement (S1901M), as England sees it",
        "",
        "------",
        "England",
        "",
        "    Red F Mid* E                Espionage",
        "",
        "------",
        "Espionage: Red F Mid* E",
        "",
        "    Bre = Fre",
        "    Por = unowned",
        "    Spa = Fre",
        "    Fre Red F ???-Wmd",
        "    Fre Red F Spa(SC)* S Fre F ???-Wmd",
        "    Ita Purple F ???-Wmd*",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (1): Red F MAO",
        "    Your supply centres (3): EDI, LON, LVP",
    ]
    assert told(outcome, "FRANCE").splitlines() == [
        "Spring 1901 Movement (S1901M), as France sees it",
        "",
        "------",
        "France",
        "",
        "    Red F Lyo*-Wmd [opp]        Fails; opposed",
        "    Red F Spa(SC)* S F Lyo-Wmd  Whether the support was given is not told",
        "    Red A Mar* H                Succeeds",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (3): Red A MAR, Red F LYO, Red F SPA/SC",
        "    Your supply centres (3): BRE, MAR, SPA",
    ]
    assert told(outcome, "ITALY").splitlines() == [
        "Spring 1901 Movement (S1901M), as Italy sees it",
        "",
        "------",
        "Italy",
        "",
        "    Purple F Tyh-Wmd* [opp]     Moves; opposed",
        "    Red A Pie* S A Mar          Whether the support was given is not told",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (2): Purple F WES, Red A PIE",
        "    Your supply centres (3): NAP, ROM, VEN",
    ]


def test_a_units_colour_is_part_of_the_unit() -> None:
    """A power sees its own units' colours; a spy that sees a foreign unit sees its colour
    (``Ita Purple F ???-Wmd*``); no one else learns it."""
    outcome = play(AF, AF_UNITS, AF_ORDERS, AF_CENTRES)
    assert "Ita Purple F ???-Wmd*" in spy_notes(outcome, "ENGLAND")
    assert lines(outcome, "ITALY")[0].startswith("Purple F Tyh")  # its own colour
    for power in ("FRANCE", "ITALY"):
        assert not spy_notes(outcome, power)
    assert "Purple" not in told(outcome, "FRANCE")
    # A unit the spy does not see is written without its colour: the French fleet supported
    # from Spain stands in the Gulf of Lyon, outside the spy's range.
    assert "Fre Red F Spa(SC)* S Fre F ???-Wmd" in spy_notes(outcome, "ENGLAND")
    # A dislodged unit in range is seen with its colour: Italy's Red army drives France's
    # Silver fleet out of Portugal (Red is superior to Silver, whatever the strengths).
    units = {"ENGLAND": ["F MAO"], "FRANCE": ["Silver F POR"], "ITALY": ["A SPA"]}
    out = play(AF, units, {"ENGLAND": ["F Mao E"], "ITALY": ["A Spa - Por"]})
    assert [d.unit.power for d in out.dislodged] == ["FRANCE"]
    assert "Fre Silver F Por [dislodged]" in spy_notes(out, "ENGLAND")
    assert "Ita Red A Spa-Por*" in spy_notes(out, "ENGLAND")


def test_orders_naming_a_foreign_colour_are_not_checked() -> None:
    """A colour written for another power's unit is ignored, with the same answer whatever
    that unit's colour; a colour written for one's own unit is still checked."""
    answers = []
    for colour in ("Red", "Silver"):
        position, _ = board(AF, {"FRANCE": ["A MAR", "F LYO"], "ITALY": [f"{colour} A PIE"]})
        answers.append(checks(position, "FRANCE", ["A Mar S Purple A Pie", "Red F Lyo H",
                                                   "Purple F Lyo H"]))
    assert answers[0] == answers[1]
    assert answers[0][0] == ("Red A MAR S A PIE", None)  # accepted, the colour not repeated
    assert answers[0][1] == ("Red F LYO H", None)
    assert answers[0][2][1] is not None and "is Red, not Purple" in answers[0][2][1]
    # At adjudication the support is judged as if no colour were written: it is given.
    outcome = play(AF, {"FRANCE": ["A MAR", "F LYO"], "ITALY": ["A PIE"], "AUSTRIA": ["A TYR"]},
                   {"FRANCE": ["A Mar S Silver A Pie"], "AUSTRIA": ["A Tyr - Pie"]})
    assert outcome.results["FRANCE"][0].result == SUCCEEDS
    assert not outcome.dislodged  # 2 v 1: the Austrian attack fails


def test_results_stay_fog_results() -> None:
    """A power is told that its move was opposed, never the colours that beat it."""
    outcome = play(AF, AF_UNITS, AF_ORDERS, AF_CENTRES)
    assert outcome.results["FRANCE"][0].reason.startswith("bounced 2 Red v 1 Purple")
    view = power_view(outcome, "FRANCE").results["FRANCE"]
    assert (view[0].canonical, view[0].reason) == ("Red F Lyo*-Wmd [opp]", "fails; opposed")
    for text in (told(outcome, "FRANCE"), told(outcome, "ITALY")):
        assert " v " not in text and "Purple F TYS" not in text


def _retreat_clash() -> tuple[Position, dict[str, list[str]]]:
    """Spring 1901 after the movement: Austria's Purple fleet is driven out of the Aegean and
    Turkey's Red fleet out of the Ionian; both may retreat to Greece."""
    units = {"AUSTRIA": ["Purple F AEG"], "TURKEY": ["F ION"],
             "ITALY": ["Silver F EAS", "F CON", "F TUN", "F TYS"], "ENGLAND": ["F NAF"]}
    orders = {"ITALY": ["F Eas - Aeg", "F Con S F Eas - Aeg", "F Tun - Ion", "F Tys S F Tun - Ion"],
              "ENGLAND": ["F Naf E"]}
    outcome = play(AF, units, orders)
    assert len(outcome.dislodged) == 2
    return outcome.next, {}


def test_retreat_clashes_follow_colours_and_the_owner_is_told_only_the_fog_result() -> None:
    """Purple is superior to Red, so the Austrian fleet gets to Greece and the Turkish one is
    disbanded (Arpiesse rule X, on the whole board); each owner is told only ``[r-Gre*]`` or
    ``[r-Gre]``, never why."""
    position, _ = _retreat_clash()
    outcome = adjudicate(position, {"AUSTRIA": ["F Aeg R Gre"], "TURKEY": ["F Ion R Gre"]})
    m = position.map
    gre = outcome.next.units[m.province_of(m.loc("GRE"))]
    assert (gre.power, colour_of(gre)) == ("AUSTRIA", PURPLE)
    assert lines(outcome, "AUSTRIA") == ["Purple F Aeg [r-Gre*]"]
    assert lines(outcome, "TURKEY") == ["Red F Ion [r-Gre]"]
    assert power_view(outcome, "TURKEY").results["TURKEY"][0].reason == (
        "the retreat fails, so the unit is disbanded")
    for power in ("AUSTRIA", "TURKEY"):
        text = told(outcome, power)
        assert "Purple" not in text or power == "AUSTRIA"
        assert "superior" not in text and "clash" not in text
    # Italy, whose fleets did the dislodging but which has no spy, is told nothing of it.
    assert power_view(outcome, "ITALY").results == {}


def test_builds_name_a_colour() -> None:
    """A build names its colour as in Arpiesse (Red when it names none); the power is told
    its own builds, and the others only the chart."""
    position, _ = board(AF, {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]},
                        {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "KIE", "BER"]},
                        phase="W1901A")
    outcome = adjudicate(position, {"FRANCE": ["Build Silver F Bre", "Build A Mar"],
                                    "GERMANY": ["Build Purple F Kie"]})
    m = position.map
    built = {m.provinces[p].code: colour_of(u) for p, u in outcome.next.units.items()}
    assert built == {"PAR": RED, "BRE": SILVER, "MAR": RED, "MUN": RED, "KIE": PURPLE}
    assert lines(outcome, "FRANCE") == ["BUILD Silver F BRE", "BUILD Red A MAR"]
    assert "Purple" not in told(outcome, "FRANCE") and "KIE" not in told(outcome, "FRANCE")
    # With flexible builds too: any owned, vacant centre, in the colour named.
    flexible = "standard+fog+colours+flexible-builds"
    position, _ = board(flexible, {"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "SPA", "BRE"]},
                        phase="W1901A")
    outcome = adjudicate(position, {"FRANCE": ["Build Purple F Spa/sc"]})
    spa = outcome.next.units[m.province_of(m.loc("SPA"))]
    assert (spa.power, colour_of(spa)) == ("FRANCE", PURPLE)


def _exchange(units: Mapping[str, list[str]], orders: Mapping[str, list[str]]) -> PhaseOutcome:
    return play(AF, units, orders, phase="U1901X", options={"colour_exchange": True})


def test_the_summer_exchange_is_told_only_to_the_two_powers_in_it() -> None:
    """France's and Italy's fleets exchange colours; each is told its exchange, Germany
    (which gave no order) nothing, and no reason names the other unit's colour."""
    units = {"FRANCE": ["F LYO"], "ITALY": ["Purple F TYS"], "GERMANY": ["Silver A MUN"]}
    outcome = _exchange(units, {"FRANCE": ["F Lyo X F Tys"], "ITALY": ["F Tys X F Lyo"]})
    m = outcome.before.map
    colours = {m.provinces[p].code: colour_of(u) for p, u in outcome.next.units.items()}
    assert colours == {"LYO": PURPLE, "TYS": RED, "MUN": SILVER}
    assert [r.reason for r in power_view(outcome, "FRANCE").results["FRANCE"]] == [
        "exchanges colours: now Purple"]
    assert set(power_view(outcome, "FRANCE").results) == {"FRANCE"}
    assert set(power_view(outcome, "ITALY").results) == {"ITALY"}
    germany = power_view(outcome, "GERMANY")
    assert germany.results == {} and germany.notes == ()
    assert "LYO" not in told(outcome, "GERMANY") and "TYS" not in told(outcome, "GERMANY")
    # An exchange the other unit did not order fails alike whether a unit stands there (of
    # whatever colour) or none: the power learns nothing of the other unit.
    said = []
    for other in ({"ITALY": ["Silver F TYS"]}, {"ITALY": ["F TYS"]}, {}):
        out = _exchange({"FRANCE": ["F LYO"], **other}, {"FRANCE": ["F Lyo X F Tys"]})
        said.append(told(out, "FRANCE"))
        assert power_view(out, "FRANCE").results["FRANCE"][0].result == FAILS
    assert said[0] == said[1] == said[2]
    assert "did not order the same exchange" in said[0] and "Silver" not in said[0]


# == Fog and neutrals =============================================================================

FD = "fog-dp"

# The hand-worked phase of fog-dp (Spring 1901 on the standard-dp board, a corner of it).
FD_UNITS = {"FRANCE": ["A PIC", "A BUR"], "GERMANY": ["A RUH"], "ENGLAND": ["F NTH"],
            "BELGIUM": ["A BEL"], "HOLLAND": ["A HOL"]}
FD_CENTRES = {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "KIE", "BER"],
              "ENGLAND": ["LON", "EDI", "LVP"], "BELGIUM": ["BEL"], "HOLLAND": ["HOL"]}
FD_ORDERS = {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel"], "GERMANY": ["A Ruh E"]}
FD_BIDS = {"FRANCE": ["2 DP: A Hol S A Pic - Bel", "1 DP: A Bel H"],
           "GERMANY": ["1 DP: A Hol S A Bel"],
           "ENGLAND": ["1 DP: A Hol H"]}


def test_fog_dp_a_whole_phase_worked_by_hand() -> None:
    """The bids (DP ruleset): each power has 3 DP (3 centres, at most 3). France attacks
    Belgium this turn, so its bid on Belgium's army is ignored (Attacking & Allocating); on
    Holland's army France's 2 DP beat Germany's 1 and England's 1, so Holland supports the
    French attack. Belgium's army holds (its default order).

    Adjudication: A Pic - Bel with A Bur and Holland's support is 3 against Belgium's 1:
    Belgium's stationary army is dislodged and destroyed at once (it may not retreat).

    What each is told: France its own two lines (the move opposed by the unit that held
    there, and succeeded; its support, whether given not told), nothing of the bids. Germany's
    spy in the Ruhr sees Belgium, Holland, Burgundy, Kiel, Munich and the Ruhr: the four
    centres and their owners, Belgium's army dislodged, the support from Burgundy of a unit
    it does not see (Picardy is out of range), Holland's support, and the French army
    arriving in Belgium. England, with no spy, only that its fleet held: its bid tells it
    nothing."""
    outcome = play(FD, FD_UNITS, FD_ORDERS, FD_CENTRES, bids=FD_BIDS)
    m = outcome.before.map
    bel = outcome.next.units[m.province_of(m.loc("BEL"))]
    assert bel.power == "FRANCE"
    assert not outcome.next.dislodged  # the neutral army does not retreat
    assert [r.canonical for r in outcome.results["HOLLAND"]] == ["A HOL S A PIC - BEL"]
    assert told(outcome, "FRANCE").splitlines() == [
        "Spring 1901 Movement (S1901M), as France sees it",
        "",
        "------",
        "France",
        "",
        "    A Pic-Bel* [opp]            Moves; opposed",
        "    A Bur* S A Pic-Bel          Whether the support was given is not told",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (2): A BEL, A BUR",
        "    Your supply centres (3): BRE, MAR, PAR",
    ]
    assert told(outcome, "GERMANY").splitlines() == [
        "Spring 1901 Movement (S1901M), as Germany sees it",
        "",
        "------",
        "Germany",
        "",
        "    A Ruh* E                    Espionage",
        "",
        "------",
        "Espionage: A Ruh* E",
        "",
        "    Bel = Bel",
        "    Hol = Hol",
        "    Kie = Ger",
        "    Mun = Ger",
        "    Bel A Bel [dislodged]",
        "    Fre A Bur* S Fre A ???-Bel",
        "    Hol A Hol* S Fre A ???-Bel",
        "    Fre A ???-Bel*",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (1): A RUH",
        "    Your supply centres (3): BER, KIE, MUN",
    ]
    assert told(outcome, "ENGLAND").splitlines() == [
        "Spring 1901 Movement (S1901M), as England sees it",
        "",
        "------",
        "England",
        "",
        "    F Nth* H                    Succeeds",
        "",
        "------",
        "Next: Spring 1901 Retreats (S1901R)",
        "",
        "    Your units (1): F NTH",
        "    Your supply centres (3): EDI, LON, LVP",
    ]
    # The gamemaster's view has the neutral units' lines too, in the fog's notation.
    gm = gamemaster_view(outcome).results
    assert [r.canonical for r in gm["HOLLAND"]] == ["A Hol* S A Pic-Bel"]
    assert [r.canonical for r in gm["BELGIUM"]] == ["A Bel H [att; dislodged]"]
    # The tally, the gamemaster's: who bid what, and why France's bid on Belgium was ignored.
    position, _ = board(FD, FD_UNITS, FD_CENTRES, bids=FD_BIDS)
    tally = bid_tally(position, FD_ORDERS)
    hol = tally.units[m.province_of(m.loc("HOL"))]
    assert hol.totals == {"A HOL S A PIC - BEL": 2, "A HOL S A BEL": 1, "A HOL H": 1}
    assert [j.status for j in tally.bids if j.bid.power == "FRANCE"] == ["counted", "ignored"]


def test_who_may_bid_every_player_for_any_neutral_unit_seen_or_not() -> None:
    """A bid is checked when given only against what the bidder knows: a place where a
    neutral unit started, and an order that unit could give. The answer is the same whether
    Belgium's army is still there, destroyed, or replaced by a German army; a bid for a unit
    no longer there is void at adjudication."""
    bids = ["1 DP: A Bel S A Pic - Bur", "1 DP: A Bel - Ruh", "1 DP: A Pic H", "1 DP: A Mun H"]
    worlds = [
        {"FRANCE": ["A PIC"], "BELGIUM": ["A BEL"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PIC"], "GERMANY": ["A MUN"]},
        {"FRANCE": ["A PIC"], "GERMANY": ["A BEL", "A MUN"]},
    ]
    said = []
    for units in worlds:
        position, _ = board(FD, units, {"FRANCE": ["PAR", "MAR", "BRE"]})
        said.append([check_bids(position, "FRANCE", [bid]) for bid in bids])
        assert possible_bids(position, "FRANCE") == possible_bids(
            board(FD, worlds[0], {"FRANCE": ["PAR", "MAR", "BRE"]})[0], "FRANCE")
    assert said[0] == said[1] == said[2]
    assert said[0][:2] == [[], []]  # a support of its own unit; a sortie (it fails, but legal)
    assert said[0][2] == ["1 DP: A Pic H: A PIC is FRANCE's, not a neutral unit: DP buy "
                          "orders for neutral units only"]
    assert said[0][3] == ["1 DP: A Mun H: there is no neutral unit in Munich (MUN)"]
    # Bidding for every neutral unit printed on the board, seen or not, is allowed.
    position, _ = board(FD, worlds[1], {"FRANCE": ["PAR", "MAR", "BRE"]})
    allotment, options = possible_bids(position, "FRANCE")
    assert allotment == 3 and len(options) == 12 and "A BEL H" in options["BEL"]
    # At adjudication the bid for Belgium's army, which is gone, is void.
    position, _ = board(FD, worlds[2], {"FRANCE": ["PAR", "MAR", "BRE"]},
                        bids={"FRANCE": ["1 DP: A Bel - Ruh"]})
    tally = bid_tally(position, {})
    assert [(j.status, j.reason) for j in tally.bids] == [
        ("void", "A BEL is GERMANY's, not a neutral unit: DP buy orders for neutral units only")]


def possible_bids(position: Position, power: str) -> tuple[int, dict[str, list[str]]]:
    """What ``power`` may bid for in ``position`` (as :meth:`Game.possible_bids` gives it)."""
    rule = position.variant.bids
    assert rule is not None
    allotment, found = rule.options(position, power, find_rules("datc"))
    names, write = position.map.loc_names, position.variant.notation.format_order
    return allotment, {names[loc]: [write(position, o) for o in orders]
                       for loc, orders in found.items()}


def test_what_a_bidder_learns_nothing_from_bidding() -> None:
    """No report shows a bid or a bidder; a neutral unit's order and result are shown only to
    a power that sees the unit; overspending voids all of a power's bids and is told when the
    bids are given."""
    with_bids = play(FD, FD_UNITS, FD_ORDERS, FD_CENTRES, bids=FD_BIDS)
    # England bid for Holland's army, out of any English spy's sight: its report is the same
    # as with no bid, and so is every other power's but for what changed on the board.
    without = play(FD, FD_UNITS, FD_ORDERS, FD_CENTRES,
                   bids={k: v for k, v in FD_BIDS.items() if k != "ENGLAND"})
    assert told(with_bids, "ENGLAND") == told(without, "ENGLAND")
    for power in ("FRANCE", "GERMANY"):
        assert told(with_bids, power) == told(without, power)
    for power in ("ENGLAND", "FRANCE", "GERMANY"):
        text = told(with_bids, power)
        assert "DP" not in text and "bid" not in text.lower()
    # Holland's order is seen by Germany's spy only.
    assert "Hol A Hol* S Fre A ???-Bel" in spy_notes(with_bids, "GERMANY")
    assert "Hol" not in told(with_bids, "ENGLAND") and "Hol" not in told(with_bids, "FRANCE")
    # France's bought support helped its move: it learns only that the move succeeded.
    assert lines(with_bids, "FRANCE")[0] == "A Pic-Bel* [opp]"
    # Over-spending, told when the bids are given (only the power's own numbers).
    position, _ = board(FD, FD_UNITS, FD_CENTRES)
    assert check_bids(position, "FRANCE", ["2 DP: A Hol H", "2 DP: A Bel H"]) == [
        "France allocated 4 DP but has 3 DP in S1901M, so all its bids are void"]


def test_attacking_and_allocating_is_the_same_under_fog() -> None:
    """The rule depends only on the bidder's own orders: the tally under fog is the tally on
    an open board."""
    fog = bid_tally(board(FD, FD_UNITS, FD_CENTRES, bids=FD_BIDS)[0], FD_ORDERS)
    open_board = bid_tally(board("standard-dp", FD_UNITS, FD_CENTRES, bids=FD_BIDS)[0],
                           FD_ORDERS)
    assert [(j.bid, j.status, j.reason) for j in fog.bids] == [
        (j.bid, j.status, j.reason) for j in open_board.bids]
    assert fog.attacking == open_board.attacking == {"FRANCE": {"BELGIUM"}}


def test_winter_rebuilds_of_minor_powers_are_not_told() -> None:
    """Belgium rebuilds its army in its vacant centre; no power is told, and a spy that later
    sees Belgium sees the army."""
    position, _ = board(FD, {"FRANCE": ["A PIC"], "GERMANY": ["A RUH"]},
                        {"FRANCE": ["PAR", "MAR", "BRE"], "GERMANY": ["MUN", "KIE", "BER"],
                         "BELGIUM": ["BEL"]}, phase="W1901A")
    outcome = adjudicate(position, {})
    m = position.map
    assert outcome.next.units[m.province_of(m.loc("BEL"))].power == "BELGIUM"
    assert [r.canonical for r in outcome.results["BELGIUM"]] == ["BUILD A BEL"]
    for power in ("FRANCE", "GERMANY"):
        view = power_view(outcome, power)
        assert "BELGIUM" not in view.results
        text = told(outcome, power)
        assert "BEL" not in text and "Belgium" not in text and "Minor" not in text, text
        assert {u.power for u in view.next.units.values()} == {power}
    # In the spring, Germany's spy in the Ruhr sees the rebuilt army (it holds: only seen if
    # it does something, so France attacks it and the spy sees the attack).
    spring = adjudicate(outcome.next, {"GERMANY": ["A Ruh E"], "FRANCE": ["A Pic - Bel"]})
    assert "Fre A ???-Bel" in spy_notes(spring, "GERMANY")
    assert lines(spring, "FRANCE") == ["A Pic*-Bel [opp]"]  # it bumps into it


def test_the_dp_allotment_counts_the_bidders_own_centres() -> None:
    """1 DP per owned centre, at most 3: France with 2 centres has 2, whatever the others own."""
    for others in ({"GERMANY": ["MUN"]}, {"GERMANY": ["MUN", "KIE", "BER", "HOL", "DEN"]}):
        position, _ = board(FD, {"FRANCE": ["A PIC"]}, {"FRANCE": ["PAR", "BRE"], **others})
        assert possible_bids(position, "FRANCE")[0] == 2
        assert check_bids(position, "FRANCE", ["3 DP: A Bel H"]) == [
            "France allocated 3 DP but has 2 DP in S1901M, so all its bids are void"]


def test_the_tally_stays_the_gamemasters(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Who bid what is the gamemaster's (``game tally``, the gamemaster's phase document);
    every power's report of the phase, written by ``game reports``, holds no bid. On the web
    judge a gamemaster who also plays a power reads the tally only once the game is over."""
    from calhamer.server.models import GameRow
    from calhamer.server.services.bids import may_read_all_bids
    from calhamer.server.views import Viewer

    path = tmp_path / "t.json"
    cli(capsys, "game", "new", str(path), "--variant", FD)
    for power, items in FD_BIDS.items():
        file = tmp_path / f"{power}.txt"
        file.write_text("\n".join(items) + "\n")
        cli(capsys, "game", "bids", str(path), power, str(file))
    cli(capsys, "game", "process", str(path))
    tally = cli(capsys, "game", "tally", str(path), "--phase", "S1901M")
    assert "for the gamemaster only" in tally and "A Hol S Pic - Bel" in tally
    out = tmp_path / "reports"
    cli(capsys, "game", "reports", str(path), "-o", str(out), "--no-pictures")
    texts = {f.name: f.read_text() for f in sorted(out.iterdir())}
    assert len(texts) == 8  # seven powers and the gamemaster
    for name, text in texts.items():
        assert "DP:" not in text and "bid" not in text.lower(), name
        if "gamemaster" not in name:  # no spy of a player saw Holland's army
            assert "Hol" not in text and "HOL" not in text, name
    exported = json.loads(cli(capsys, "game", "export", str(path), "--phase", "S1901M"))
    assert exported["bids"]["FRANCE"] == FD_BIDS["FRANCE"]  # the gamemaster's file
    # the web judge's rule, for a fog-dp game whose gamemaster plays France
    game = GameRow(id="g", variant=FD, status="active")
    seated = Viewer(user=None, game=game, is_gm=True, power="FRANCE")  # type: ignore[arg-type]
    assert not may_read_all_bids(seated)
    assert may_read_all_bids(Viewer(user=None, game=game, is_gm=True,  # type: ignore[arg-type]
                                    power=None))
    game.status = "finished"
    assert may_read_all_bids(seated)


# == Neutrals and colours =========================================================================


def test_neutral_units_are_red() -> None:
    """A minor power's units start Red and are rebuilt Red; a bought support adds the
    neutral's colour only where Arpiesse says (a superior supporter), here none since Red is
    the attacker's own colour."""
    variant = "standard-dp+neutrals+colours"
    assert find_variant(variant).name == variant
    game = Game.new(variant)
    minors = [u for u in game.current.units.values() if game.current.map.is_minor(u.power)]
    assert len(minors) == 12 and {colour_of(u) for u in minors} == {RED}
    position, _ = board(variant, {"FRANCE": ["A PIC"]}, {"FRANCE": ["PAR", "MAR", "BRE"],
                                                         "BELGIUM": ["BEL"]}, phase="W1901A")
    outcome = adjudicate(position, {})
    bel = outcome.next.units[position.map.province_of(position.map.loc("BEL"))]
    assert (bel.power, colour_of(bel)) == ("BELGIUM", RED)
    # Holland's Red support of a Silver attack adds Red (superior to Silver): 2 Silver+Red
    # beats Belgium's 1 Red (Red beats Silver, but Red ties Red and 2 > 1).
    units = {"FRANCE": ["Silver A PIC"], "BELGIUM": ["A BEL"], "HOLLAND": ["A HOL"]}
    position, _ = board(variant, units, {"FRANCE": ["PAR", "MAR", "BRE"]},
                        bids={"FRANCE": ["1 DP: A Hol S A Pic - Bel"]})
    outcome = adjudicate(position, {"FRANCE": ["A Pic - Bel"]})
    assert outcome.results["FRANCE"][0].result == SUCCEEDS


def test_the_colour_exchange_is_between_players_only() -> None:
    """A minor power never orders an exchange, so an exchange with a neutral unit fails."""
    variant = "standard-dp+neutrals+colours?colour_exchange=true"
    position, _ = board(variant, {"FRANCE": ["Silver A PIC"], "BELGIUM": ["A BEL"]},
                        phase="U1901X")
    outcome = adjudicate(position, {"FRANCE": ["A Pic X A Bel"]})
    assert outcome.results["FRANCE"][0].result == FAILS
    assert "BELGIUM" not in outcome.results
    assert {colour_of(u) for u in outcome.next.units.values()} == {SILVER, RED}


# == whole games through the command line =========================================================


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 0, args
    return capsys.readouterr().out


def cli_game(capsys: pytest.CaptureFixture[str], path: Path, variant: str, last_year: int,
             orders: Mapping[str, Mapping[str, list[str]]],
             bids: Mapping[str, Mapping[str, list[str]]] | None = None) -> list[str]:
    """A game of ``variant`` played through the command line until it ends (the game file's
    ``max_year``, a gamemaster's setting, makes it a draw after ``last_year``): each power's
    orders and bids written to a file and given with ``game orders`` and ``game bids``, each
    phase processed with ``game process``. Returns the phases played."""
    cli(capsys, "game", "new", str(path), "--variant", variant)
    doc = json.loads(path.read_text())
    doc["max_year"] = last_year
    path.write_text(json.dumps(doc))
    played = []
    while not Game.load(str(path)).is_done():
        code = Game.load(str(path)).current.phase.code
        for what, given in (("orders", orders), ("bids", bids or {})):
            for power, items in given.get(code, {}).items():
                file = path.parent / f"{path.stem}-{code}-{power}-{what}.txt"
                file.write_text("\n".join(items) + "\n")
                out = cli(capsys, "game", what, str(path), power, str(file))
                assert "error" not in out, out
        cli(capsys, "game", "process", str(path))
        played.append(code)
    return played


def player_outputs(capsys: pytest.CaptureFixture[str], path: Path, power: str,
                   phases: list[str]) -> list[str]:
    """Everything ``power`` is shown: the current position and every phase's report (the
    game file's name blanked out)."""
    shown = [cli(capsys, "game", "show", str(path), "--as", power)]
    shown += [cli(capsys, "game", "show", str(path), "--as", power, "--phase", code)
              for code in phases]
    return [text.replace(str(path), "GAME") for text in shown]


FD_GAME = {
    "S1901M": {"FRANCE": ["A Par - Pic", "A Mar - Bur", "F Bre E"],
               "GERMANY": ["F Kie E", "A Mun - Ruh", "A Ber H"],
               "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]},
    "F1901M": {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel", "F Bre - Mao"],
               "GERMANY": ["A Ruh S A Bel", "F Kie E"],
               "ENGLAND": ["F Nth H", "F Nwg - Nwy", "A Yor E"]},
    "W1901A": {"FRANCE": ["Build A Par"]},
}


def fd_bids(world: str) -> dict[str, dict[str, list[str]]]:
    """The bids: alike in both worlds but for Germany's bid on Denmark's army in the spring
    (a support of Sweden's army, or a hold), which France sees nothing of."""
    german = "1 DP: A Den S A Swe" if world == "A" else "1 DP: A Den H"
    return {"S1901M": {"FRANCE": ["2 DP: A Bel H"], "GERMANY": [german],
                       "ENGLAND": ["1 DP: A Hol H"]},
            "F1901M": {"FRANCE": ["2 DP: A Hol S A Pic - Bel"], "GERMANY": ["1 DP: A Hol H"]}}


def test_fog_dp_a_whole_game_in_the_command_line(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Two games that differ only in one German bid, which France sees nothing of: France is
    shown the same in both, byte for byte; Germany, whose spy in Kiel sees Denmark's army,
    sees the order its bid bought. No player is shown a bid; the gamemaster's tally has them.
    France's bought support from Holland takes Belgium in the Fall, and France builds."""
    paths = {w: tmp_path / f"{w}.json" for w in "AB"}
    played = {w: cli_game(capsys, paths[w], FD, 1901, FD_GAME, fd_bids(w)) for w in "AB"}
    assert played["A"] == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A"]
    game = Game.load(str(paths["A"]))
    assert game.is_done() and game.result().ending == "draw"
    m = game.current.map
    assert game.current.units[m.province_of(m.loc("BEL"))].power == "FRANCE"
    assert len(game.current.units_of("FRANCE")) == 4  # built in Paris
    seen = {w: {p: player_outputs(capsys, paths[w], p, played[w]) for p in POWERS}
            for w in "AB"}
    assert seen["A"]["FRANCE"] == seen["B"]["FRANCE"]
    assert seen["A"]["GERMANY"] != seen["B"]["GERMANY"]
    assert any("Den A Den* S Swe A ???" in text for text in seen["A"]["GERMANY"])
    for world in "AB":
        for power, texts in seen[world].items():
            for text in texts:
                assert "DP:" not in text and "bid" not in text.lower(), (power, text)
                # only its own units, never a list of another power's
                assert "Minor powers" not in text
        # France is told its Fall move succeeded, not who helped.
        fall = seen[world]["FRANCE"][1 + played[world].index("F1901M")]
        assert "A Pic-Bel* [opp]" in fall and "Hol" not in fall
        # England bid for Holland's army in the spring and learns nothing of it.
        spring = seen[world]["ENGLAND"][1 + played[world].index("S1901M")]
        assert "Hol" not in spring
    tally = cli(capsys, "game", "tally", str(paths["A"]), "--phase", "S1901M")
    assert "for the gamemaster only" in tally
    for line in ("Germany         1 DP  A Den S Swe H           counted",
                 "England         1 DP  A Hol H                 counted"):
        assert line in tally


AF_GAME = {
    "S1901M": {"FRANCE": ["A Par - Bur", "A Mar S Red A Par - Bur", "F Bre - Mao"],
               "GERMANY": ["A Mun - Ruh", "F Kie - Hol", "A Ber E"],
               "ITALY": ["A Ven - Pie", "A Rom - Ven", "F Nap - Tys"]},
    "F1901M": {"FRANCE": ["A Bur - Bel", "F Mao - Spa/sc", "A Mar H"],
               "GERMANY": ["A Ruh E", "F Hol S Silver A Bur - Bel"],
               "ITALY": ["A Pie - Mar", "F Tys - Tun"]},
    "W1901A": {"FRANCE": ["Build Purple F Bre", "Build Silver A Par"],
               "GERMANY": ["Build Silver A Mun"],
               "ITALY": ["Build Purple F Nap"]},
    "S1902M": {"GERMANY": ["A Ruh E"], "FRANCE": ["A Par - Bur"]},
}


def test_arpiesse_fog_a_whole_game_in_the_command_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """Orders naming colours (one's own checked, a foreign one ignored), builds in colours,
    and what spies see of them: in 1902 Germany's spy in the Ruhr sees France's Silver army
    move into Burgundy; no one else learns a French colour; Italy's colours stay Italy's."""
    path = tmp_path / "af.json"
    played = cli_game(capsys, path, AF, 1902, AF_GAME)
    assert played == ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M", "S1902R",
                      "F1902M", "F1902R", "W1902A"]
    game = Game.load(str(path))
    assert game.is_done()
    seen = {p: player_outputs(capsys, path, p, played) for p in POWERS}
    spring = played.index("S1902M") + 1
    assert "Fre Silver A ???-Bur*" in seen["GERMANY"][spring]
    # France's own colours, in its own lines and units.
    assert "Silver A Par-Bur*" in seen["FRANCE"][spring]
    assert any("Purple F BRE" in text for text in seen["FRANCE"])
    for power, texts in seen.items():
        for text in texts:
            if power not in ("FRANCE", "GERMANY"):
                assert "Fre" not in text and "Silver A BUR" not in text, (power, text)
            if power != "ITALY":
                assert "Purple F NAP" not in text and "Ita Purple" not in text, (power, text)


@pytest.mark.parametrize(("variant", "script", "bids"),
                         [(FD, FD_GAME, fd_bids("A")), (AF, AF_GAME, {})], ids=[FD, AF])
def test_every_players_pictures_and_reports_keep_to_what_the_fog_tells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str,
    script: dict[str, dict[str, list[str]]], bids: dict[str, dict[str, list[str]]],
) -> None:
    """The checks of ``tests/test_fog_outputs.py`` on a game of each preset: every player's
    picture of each phase gives the centre totals the rules let it know (those of the game's
    start through 1901, every true total once the winter's chart is told), and no report has
    a heading over nothing."""
    from test_fog_outputs import empty_headings, legend

    path = tmp_path / "g.json"
    played = cli_game(capsys, path, variant, 1901, script, bids)
    game = Game.load(str(path))
    m = game.current.map
    names = {p: m.power(p).name for p in POWERS}
    start = {names[p]: str(n) for p, n in game.phase_input("S1901M")[0].center_counts().items()
             if p in names}
    true = {names[p]: str(n) for p, n in game.current.center_counts().items() if p in names}
    assert start != true  # France took Belgium
    for power in POWERS:
        for code in played:
            svg = cli(capsys, "render", str(path), "--as", power, "--phase", code, "--orders")
            assert legend(svg) == (true if code == "W1901A" else start), (power, code)
        assert legend(cli(capsys, "render", str(path), "--as", power)) == true, power
        for text in player_outputs(capsys, path, power, played):
            assert empty_headings(text) == [], text


def test_bid_options_are_written_as_the_bidder_knows_the_board() -> None:
    """Fog, neutrals and colours together: the bids open to France for the neutral army that
    started in Holland are written from what France knows, so a foreign unit of another
    colour standing there now is not named by its colour."""
    from calhamer.game import Game, PhaseRecord
    from calhamer.map import ARMY
    from calhamer.variants.arpiesse import PURPLE, ColouredUnit

    game = Game.new("standard-dp+fog+neutrals+colours")
    start = game.current
    m = start.map
    hol = m.province_of(m.loc("HOL"))
    units = dict(start.units)
    units[hol] = ColouredUnit("GERMANY", ARMY, m.loc("HOL"), PURPLE)
    moved = start.replace(units=units)
    game = Game(game.variant, game.rules, [PhaseRecord(moved.phase.code, moved,
                                                       rules=game.rules)])
    _, options = game.possible_bids("FRANCE")
    written = [text for texts in options.values() for text in texts]
    assert any(text.startswith("A HOL") for text in written)
    assert not any("Purple" in text for text in written)


# == Kriegsplomacy 3.6 under every fog variant =====================================================

# England convoys A Pic into Belgium and dislodges the German army there.
CONVOYED = {"ENGLAND": ["A PIC", "F ENG", "F NTH"], "GERMANY": ["A BEL"]}
CONVOY_ORDERS = {"ENGLAND": ["A Pic - Bel via convoy", "F Eng C A Pic - Bel",
                             "F Nth S A Pic - Bel"]}


def _retreat_to_picardy(variant: str, rules: str | None = None) -> tuple[PhaseOutcome, str]:
    """The German army's retreat to Picardy after the convoyed attack: the retreat phase's
    outcome, and Germany's line of it."""
    position, _ = board(variant, CONVOYED)
    out = adjudicate(position, CONVOY_ORDERS, rules)
    assert [d.unit.power for d in out.next.dislodged] == ["GERMANY"]
    step = adjudicate(out.next, {"GERMANY": ["A Bel R Pic"]}, rules)
    return step, lines(step, "GERMANY")[0]


def test_krieg_3_6_retreat_to_the_space_a_convoyed_attacker_came_from_in_composed_fog_variants(
        tmp_path: Path) -> None:
    # Rule 3.6 is the fog module's: every variant built with it disbands the army.
    file = tmp_path / "fog-neutrals.toml"
    file.write_text('board = "standard-dp"\nmodules = ["neutrals", "fog"]\n')
    for variant in ("fog-dp", "arpiesse-fog", "standard+fog", str(file)):
        step, told_germany = _retreat_to_picardy(variant)
        assert told_germany.endswith("A Bel [r-Pic]"), variant  # "Red A Bel" under colours
        assert not step.next.units_of("GERMANY"), variant
    # Without fog the DATC's preference (4.A.5) stands: the army may retreat there.
    for variant in ("standard", "standard-dp"):
        step, _ = _retreat_to_picardy(variant)
        assert [u.loc for u in step.next.units_of("GERMANY")] == [step.before.map.loc("PIC")]


def test_krieg_3_6_the_fog_option_convoy_origin_closed_false_lets_the_edition_decide(
        tmp_path: Path) -> None:
    file = tmp_path / "open-origin.toml"
    file.write_text('board = "standard"\nmodules = ["fog"]\n\n[options]\n'
                    "convoy_origin_closed = false\n")
    for variant in (str(file), "standard+fog?convoy_origin_closed=false"):
        assert find_variant(variant).phase_rules(find_rules("datc")) == find_rules("datc")
        step, told_germany = _retreat_to_picardy(variant)  # DATC 4.A.5: allowed
        assert told_germany == "A Bel [r-Pic*]"
        assert [u.loc for u in step.next.units_of("GERMANY")] == [step.before.map.loc("PIC")]
        _, told_germany = _retreat_to_picardy(variant, "1971")  # the 1971 rule closes it
        assert told_germany == "A Bel [r-Pic]"
    # An option of the fog module, refused where no module takes it.
    with pytest.raises(CalhamerError, match="convoy_origin_closed"):
        find_variant("standard+colours?convoy_origin_closed=false")


# Rome convoys its army from Neapolis into Roma on godip's Ancient Mediterranean board, and
# dislodges the Greek army there: rule 3.6 on a board other than the standard one.
ANCMED_UNITS = {"ROME": ["A NEA", "F TYS", "F LIG"], "GREECE": ["A ROM"]}
ANCMED_ORDERS = {"ROME": ["A Nea - Rom via convoy", "F Tys C A Nea - Rom",
                         "F Lig S A Nea - Rom"]}


def _greek_retreat_to_neapolis(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               variant: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Through ``calhamer adjudicate``: the retreat phase after the convoyed attack, the
    output document of ``A Rom R Nea`` and the report Greece is sent of it."""
    spring = tmp_path / "spring.json"
    spring.write_text(json.dumps({"variant": variant, "phase": "S1M", "units": ANCMED_UNITS,
                                  "orders": ANCMED_ORDERS}))
    assert main(["adjudicate", str(spring), "--json"]) == 0
    retreat = json.loads(capsys.readouterr().out)["next"]
    assert retreat["phase"] == "S1R"
    retreat["orders"] = {"GREECE": ["A Rom R Nea"]}
    path = tmp_path / "retreat.json"
    path.write_text(json.dumps(retreat))
    assert main(["adjudicate", str(path), "--json"]) == 0
    judged = json.loads(capsys.readouterr().out)
    assert main(["adjudicate", str(path), "--as", "Greece"]) == 0
    return retreat, judged, capsys.readouterr().out


def test_krieg_3_6_retreat_to_a_convoyed_attackers_origin_is_disbanded_on_another_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Fog composed with godip's Ancient Mediterranean board: the army is disbanded.
    retreat, judged, told = _greek_retreat_to_neapolis(
        tmp_path, capsys, "godip/ancient-mediterranean+fog")
    assert retreat["dislodged"] == {"GREECE": [{"unit": "A ROM", "attacker_from": "NEA"}]}
    assert [(r["canonical"], r["result"]) for r in judged["results"]["GREECE"]] == [
        ("A ROM R NEA", "fails")]
    assert "GREECE" not in judged["next"]["units"]
    assert "A Rom [r-Nea]  " in told and "[r-Nea*]" not in told
    assert "Your units (0): none" in told
    # A variant file over the same board and module that turns the reading off: the
    # edition's answer (DATC 4.A.5) stands, and the army retreats to Neapolis.
    file = tmp_path / "ancmed-fog-open.toml"
    file.write_text('board = "godip/ancient-mediterranean"\nmodules = ["fog"]\n\n'
                    "[options]\nconvoy_origin_closed = false\n")
    retreat, judged, told = _greek_retreat_to_neapolis(tmp_path, capsys, str(file))
    assert retreat["dislodged"] == {"GREECE": [{"unit": "A ROM"}]}
    assert judged["next"]["units"]["GREECE"] == ["A NEA"]
    assert "A Rom [r-Nea*]" in told
    # The board's own variant, without fog, keeps DATC 4.A.5.
    retreat, judged, told = _greek_retreat_to_neapolis(tmp_path, capsys, "ancient-mediterranean")
    assert retreat["dislodged"] == {"GREECE": [{"unit": "A ROM"}]}
    assert [(r["canonical"], r["result"]) for r in judged["results"]["GREECE"]] == [
        ("A ROM R NEA", "succeeds")]
    assert judged["next"]["units"]["GREECE"] == ["A NEA"]
