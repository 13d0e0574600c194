"""Arpiesse Diplomacy: the source's twelve examples, the project's own cases for rules VIII and
IX (each one is a worked example in ``docs/rules/arpiesse.md``), colours in orders, documents
and reports, the summer colour exchange, whole games, and property tests of the resolver."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calhamer.cli import main
from calhamer.errors import PhaseError
from calhamer.formats import outcome_to_json, position_from_json, position_to_json
from calhamer.game import Game
from calhamer.map import ARMY, FLEET, load_map
from calhamer.notation import format_unit
from calhamer.orders import Hold, Move, Support
from calhamer.phases import adjudicate
from calhamer.position import Dislodged, Phase, Position
from calhamer.report import phase_report
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.variants import find_variant
from calhamer.variants.arpiesse import (
    PURPLE,
    RED,
    SILVER,
    Arpiesse,
    ArpiesseResolver,
    ColouredUnit,
    colour_of,
    superior,
)

M = load_map("standard")
ARP = find_variant("arpiesse")


def board(units: dict[str, list[str]], phase: str = "S1901M", **extra) -> Position:
    """A position of the Arpiesse variant from ``{"ITALY": ["Purple A VEN"]}``."""
    doc = {"variant": "arpiesse", "phase": phase, "units": units, **extra}
    position, _orders, _rules = position_from_json(doc)
    return position


def judge(orders: dict[str, list[str]], units: dict[str, list[str]] | None = None) -> PhaseOutcome:
    """Adjudicate orders written with colours; the units are read off the orders themselves
    (``Purple A Ven -> Tri`` places a Purple army in Venice) unless given."""
    if units is None:
        units = {}
        for power, lines in orders.items():
            for line in lines:
                units.setdefault(power, []).append(" ".join(line.split()[:3]))
    return adjudicate(board(units), orders)


def verdict(outcome: PhaseOutcome, text: str) -> str:
    found = [r for rs in outcome.results.values() for r in rs if r.text == text]
    assert len(found) == 1, f"{text!r}: {found}"
    return found[0].result


def reason(outcome: PhaseOutcome, text: str) -> str:
    return next(r.reason for rs in outcome.results.values() for r in rs if r.text == text)


def dislodged(outcome: PhaseOutcome) -> set[str]:
    return {ARP.notation.format_unit(M, d.unit) for d in outcome.dislodged}


def units_after(outcome: PhaseOutcome) -> set[str]:
    return {ARP.notation.format_unit(M, u) for u in outcome.after.units.values()}


def expect(outcome: PhaseOutcome, **wanted: str) -> None:
    """``expect(outcome, **{"Red A Ven -> Tri": SUCCEEDS})``."""
    got = {text: verdict(outcome, text) for text in wanted}
    assert got == wanted, "\n".join(f"{t}: {reason(outcome, t)}" for t in wanted)


def p(code: str) -> int:
    return M.province_of(M.loc(code))


# -- the colours ----------------------------------------------------------------------------------


def test_superiority_is_rock_paper_scissors() -> None:
    assert superior(PURPLE, RED) and superior(RED, SILVER) and superior(SILVER, PURPLE)
    assert not superior(RED, PURPLE) and not superior(SILVER, RED) and not superior(PURPLE, SILVER)
    assert not any(superior(c, c) for c in (RED, PURPLE, SILVER))


def test_initial_units_are_red_and_documents_show_colours() -> None:
    start = Position.initial(M, variant=find_variant("arpiesse"))
    assert len(start.units) == 22
    assert {colour_of(u) for u in start.units.values()} == {RED}
    doc = position_to_json(start, "datc")
    assert doc["variant"] == "arpiesse"
    assert doc["units"]["ITALY"] == ["Red F NAP", "Red A ROM", "Red A VEN"]
    assert "options" not in doc
    again, _, _ = position_from_json(doc)
    assert again.units == start.units


def test_a_unit_written_without_a_colour_is_red() -> None:
    position = board({"ITALY": ["A VEN", "purple f nap", "SILVER A ROM"]})
    assert [colour_of(position.units[p(c)]) for c in ("VEN", "NAP", "ROM")] == [RED, PURPLE, SILVER]
    assert position_to_json(position)["units"]["ITALY"] == ["Purple F NAP", "Silver A ROM",
                                                            "Red A VEN"]


# -- the source's twelve examples -----------------------------------------------------------------


def test_example_1_equivalent_attack() -> None:
    outcome = judge({
        "ITALY": ["Red A Ven -> Tri", "Red F Adr S Red A Ven -> Tri"],
        "AUSTRIA": ["Red A Tri HOLDS"],
    })
    expect(outcome, **{"Red A Ven -> Tri": SUCCEEDS, "Red A Tri HOLDS": FAILS})
    assert dislodged(outcome) == {"Red A TRI"}


def test_example_2_superior_attack_succeeds_regardless_of_strength() -> None:
    # The source has the Austrian army in Bohemia, which does not border Warsaw, so its move is
    # illegal here; Silesia (which does) shows what the example means.
    outcome = judge({
        "GERMANY": ["Red A Pru -> War"],
        "RUSSIA": ["Silver A War HOLDS", "Silver A Mos S A War"],
        "AUSTRIA": ["Silver A Sil -> War", "Silver A Gal S A Sil -> War",
                    "Silver A Ukr S A Sil -> War"],
    })
    expect(outcome, **{"Red A Pru -> War": SUCCEEDS, "Silver A Sil -> War": FAILS,
                       "Silver A War HOLDS": FAILS})
    assert dislodged(outcome) == {"Silver A WAR"}
    assert "1 Red" in reason(outcome, "Silver A War HOLDS")
    # Without the German army it would be an equivalent attack, which Austria wins 3v2.
    outcome = judge({
        "RUSSIA": ["Silver A War HOLDS", "Silver A Mos S A War"],
        "AUSTRIA": ["Silver A Sil -> War", "Silver A Gal S A Sil -> War",
                    "Silver A Ukr S A Sil -> War"],
    })
    expect(outcome, **{"Silver A Sil -> War": SUCCEEDS})


def test_example_2_as_written() -> None:
    outcome = judge({
        "GERMANY": ["Red A Pru -> War"],
        "RUSSIA": ["Silver A War HOLDS", "Silver A Mos S A War"],
        "AUSTRIA": ["Silver A Boh -> War", "Silver A Gal S A Boh -> War",
                    "Silver A Ukr S A Boh -> War"],
    })
    expect(outcome, **{"Red A Pru -> War": SUCCEEDS, "Silver A Boh -> War": INVALID})


def test_example_3_superior_defence_holds_regardless_of_strength() -> None:
    outcome = judge({
        "ENGLAND": ["Purple F Nth HOLDS"],
        "FRANCE": ["Red F Bel -> Nth", "Red F Eng S F Bel -> Nth"],
    })
    expect(outcome, **{"Purple F Nth HOLDS": SUCCEEDS, "Red F Bel -> Nth": FAILS})
    assert reason(outcome, "Red F Bel -> Nth") == "bounced 2 Red v 1 Purple against Purple F NTH"


def test_example_4_superiority_is_decided_before_dislodgement() -> None:
    outcome = judge({
        "AUSTRIA": ["Purple A Rum HOLDS"],
        "RUSSIA": ["Silver A Sev -> Rum"],
        "TURKEY": ["Red F Bla -> Rum"],
    })
    expect(outcome, **{"Silver A Sev -> Rum": SUCCEEDS, "Red F Bla -> Rum": FAILS,
                       "Purple A Rum HOLDS": FAILS})
    assert units_after(outcome) >= {"Silver A RUM", "Red F BLA"}


def test_example_5_no_self_dislodgement_even_by_a_superior_attack() -> None:
    outcome = judge({"TURKEY": ["Red A Bul HOLDS", "Purple A Con -> Bul"]})
    expect(outcome, **{"Red A Bul HOLDS": SUCCEEDS, "Purple A Con -> Bul": FAILS})
    assert reason(outcome, "Purple A Con -> Bul").startswith("cannot dislodge its own")


def test_example_6_beleaguered_garrison() -> None:
    outcome = judge({
        "ENGLAND": ["Silver A Bel HOLDS"],
        "FRANCE": ["Red A Bur -> Bel", "Red A Pic S A Bur -> Bel"],
        "GERMANY": ["Red A Ruh -> Bel", "Red A Hol S A Ruh -> Bel"],
    })
    expect(outcome, **{"Silver A Bel HOLDS": SUCCEEDS, "Red A Bur -> Bel": FAILS,
                       "Red A Ruh -> Bel": FAILS})
    assert not outcome.dislodged


def test_example_7_a_superiority_loop_fails_every_attack() -> None:
    # The source lists "Silver A Bud S A Tyr -> Tri" twice; the second supporter is in Vienna.
    outcome = judge({
        "ITALY": ["Purple A Ven -> Tri"],
        "TURKEY": ["Red A Ser -> Tri", "Red A Alb S Red A Ser -> Tri"],
        "AUSTRIA": ["Silver A Tyr -> Tri", "Silver A Bud S A Tyr -> Tri",
                    "Silver A Vie S A Tyr -> Tri"],
    })
    expect(outcome, **{"Purple A Ven -> Tri": FAILS, "Red A Ser -> Tri": FAILS,
                       "Silver A Tyr -> Tri": FAILS})
    assert p("TRI") not in outcome.after.units
    assert p("TRI") in outcome.after.contested


def test_example_8_support_from_a_superior_unit_adds_its_colour() -> None:
    orders = {"RUSSIA": ["Red A Sil HOLDS", "Purple A War S A Sil", "Silver A Pru S A Sil"]}
    outcome = judge(orders)
    resolver: ArpiesseResolver = outcome.resolution.resolver  # type: ignore[union-attr,assignment]
    assert resolver.hold_strength(p("SIL")).describe() == "3 Red+Purple"
    # Purple defends: a Purple attack of 3 only ties it (a Red unit alone would lose to it)...
    attack = ["Purple A Boh -> Sil", "Purple A Mun S A Boh -> Sil", "Purple A Ber S A Boh -> Sil"]
    outcome = judge({**orders, "GERMANY": attack})
    expect(outcome, **{"Purple A Boh -> Sil": FAILS, "Red A Sil HOLDS": SUCCEEDS})
    # ...and Silver does not (it would beat any Purple attack): a Purple attack of 4 wins.
    outcome = judge({**orders, "GERMANY": [*attack, "Purple A Gal S A Boh -> Sil"]})
    expect(outcome, **{"Purple A Boh -> Sil": SUCCEEDS, "Red A Sil HOLDS": FAILS})


def test_example_9_no_inferior_colour_through_support() -> None:
    orders = {"ENGLAND": ["Purple F Lon S F Nth", "Red F Nth S F Eng", "Silver F Eng HOLDS"]}
    outcome = judge(orders)
    resolver: ArpiesseResolver = outcome.resolution.resolver  # type: ignore[union-attr,assignment]
    assert resolver.hold_strength(p("NTH")).describe() == "2 Red+Purple"
    assert resolver.hold_strength(p("ENG")).describe() == "2 Red+Silver"
    # Eng is Silver and Red, not Purple: a Red attack of 3 dislodges it.
    attack = ["Red F Bre -> Eng", "Red F Mao S F Bre -> Eng", "Red F Pic S F Bre -> Eng"]
    outcome = judge({**orders, "FRANCE": attack})
    expect(outcome, **{"Red F Bre -> Eng": SUCCEEDS, "Silver F Eng HOLDS": FAILS})


def summer(units: dict[str, list[str]]) -> Position:
    return board(units, phase="U1901X", options={"colour_exchange": True})


def test_example_10_exchange_when_one_unit_could_support_the_other() -> None:
    position = summer({"ITALY": ["Purple F ADR"], "AUSTRIA": ["Silver A TRI"]})
    outcome = adjudicate(position, {"ITALY": ["Purple F Adr X A Tri"],
                                    "AUSTRIA": ["Silver A Tri X F Adr"]})
    expect(outcome, **{"Purple F Adr X A Tri": SUCCEEDS, "Silver A Tri X F Adr": SUCCEEDS})
    assert units_after(outcome) == {"Silver F ADR", "Purple A TRI"}
    assert outcome.next.phase.code == "F1901M"


def test_example_11_exchange_with_a_split_coast() -> None:
    position = summer({"RUSSIA": ["Red F STP/SC"], "ENGLAND": ["Purple F NWY"]})
    outcome = adjudicate(position, {"RUSSIA": ["Red F StP(SC) X F Nwy"],
                                    "ENGLAND": ["Purple F Nwy X F StP(SC)"]})
    expect(outcome, **{"Red F StP(SC) X F Nwy": SUCCEEDS, "Purple F Nwy X F StP(SC)": SUCCEEDS})
    assert units_after(outcome) == {"Purple F STP/SC", "Red F NWY"}


def test_example_12_no_exchange_when_neither_could_support_the_other() -> None:
    orders = {"FRANCE": ["Red F Gas X F Mar", "Silver F Mar X F Gas"]}
    outcome = adjudicate(summer({"FRANCE": ["Red F GAS", "Silver F MAR"]}), orders)
    expect(outcome, **{"Red F Gas X F Mar": FAILS, "Silver F Mar X F Gas": FAILS})
    assert reason(outcome, "Red F Gas X F Mar") == "neither unit could support the other to hold"
    assert units_after(outcome) == {"Red F GAS", "Silver F MAR"}
    # "If either unit had been an army, the exchange would succeed."
    orders = {"FRANCE": ["Red F Gas X A Mar", "Silver A Mar X F Gas"]}
    outcome = adjudicate(summer({"FRANCE": ["Red F GAS", "Silver A MAR"]}), orders)
    expect(outcome, **{"Red F Gas X A Mar": SUCCEEDS, "Silver A Mar X F Gas": SUCCEEDS})
    assert units_after(outcome) == {"Silver F GAS", "Red A MAR"}


# -- the project's own cases for rules VIII and IX (docs/rules/arpiesse.md) -----------------------


def test_viii_a_multi_colour_defence_defends_in_each_colour() -> None:
    # Red A Boh with Purple support defends as Red and Purple, 2. A Purple attack beats Red
    # but only ties Purple: it must beat both, so it fails.
    outcome = judge({
        "AUSTRIA": ["Red A Boh HOLDS", "Purple A Tyr S A Boh"],
        "GERMANY": ["Purple A Mun -> Boh", "Purple A Sil S A Mun -> Boh"],
    })
    expect(outcome, **{"Purple A Mun -> Boh": FAILS, "Red A Boh HOLDS": SUCCEEDS})
    assert reason(outcome, "Purple A Mun -> Boh") == (
        "bounced 2 Purple v 2 Red+Purple against Red A BOH")


def test_viii_one_attack_colour_that_beats_every_defence_is_enough() -> None:
    # Red+Purple attacks Silver: the Red attack beats Silver (the Purple one would lose).
    outcome = judge({
        "GERMANY": ["Silver A Mun HOLDS"],
        "AUSTRIA": ["Red A Boh -> Mun", "Purple A Tyr S A Boh -> Mun"],
    })
    expect(outcome, **{"Red A Boh -> Mun": SUCCEEDS})
    assert dislodged(outcome) == {"Silver A MUN"}


def test_viii_3_one_colour_must_beat_all_defences_not_just_one() -> None:
    # Attack Red+Purple 2 against defence Silver+Red 2. Red beats Silver but only ties Red;
    # Purple loses to Silver. No attack colour beats both defence colours: it fails.
    defence = {"GERMANY": ["Silver A Mun HOLDS", "Red A Ber S A Mun"]}
    attack = ["Red A Bur -> Mun", "Purple A Ruh S A Bur -> Mun"]
    outcome = judge({**defence, "FRANCE": attack})
    expect(outcome, **{"Red A Bur -> Mun": FAILS, "Silver A Mun HOLDS": SUCCEEDS})
    # With one more support, Red 3 beats Silver (by colour) and Red 2 (by strength).
    outcome = judge({**defence, "FRANCE": [*attack, "Purple A Tyr S A Bur -> Mun"]})
    expect(outcome, **{"Red A Bur -> Mun": SUCCEEDS, "Silver A Mun HOLDS": FAILS})


def test_ix_every_colour_must_beat_or_tie_every_rival_colour() -> None:
    # Empty Bohemia. Vienna attacks as Red+Purple 2, Munich as Purple 1. Vienna's Red attack
    # loses to Munich's Purple; Munich's Purple loses to Vienna's Purple 2. Standoff.
    outcome = judge({
        "GERMANY": ["Purple A Mun -> Boh"],
        "AUSTRIA": ["Red A Vie -> Boh", "Purple A Gal S A Vie -> Boh"],
    })
    expect(outcome, **{"Purple A Mun -> Boh": FAILS, "Red A Vie -> Boh": FAILS})
    assert p("BOH") in outcome.after.contested


def test_ix_2_beat_or_tie_with_at_least_one_beat_enters() -> None:
    # Munich: Red+Purple 2; Vienna: Red 2. Red ties Red, Purple beats Red: Munich enters.
    outcome = judge({
        "GERMANY": ["Red A Mun -> Boh", "Purple A Tyr S A Mun -> Boh"],
        "AUSTRIA": ["Red A Vie -> Boh", "Red A Gal S A Vie -> Boh"],
    })
    expect(outcome, **{"Red A Mun -> Boh": SUCCEEDS, "Red A Vie -> Boh": FAILS})


def test_ix_2_all_ties_are_a_standoff() -> None:
    outcome = judge({
        "GERMANY": ["Purple A Mun -> Boh", "Red A Tyr S A Mun -> Boh"],
        "AUSTRIA": ["Purple A Vie -> Boh", "Red A Gal S A Vie -> Boh"],
    })
    # Red supports add strength but no colour (Red is inferior to Purple).
    expect(outcome, **{"Purple A Mun -> Boh": FAILS, "Purple A Vie -> Boh": FAILS})


def test_ix_three_way_loop_into_an_empty_province() -> None:
    outcome = judge({
        "GERMANY": ["Red A Mun -> Boh"],
        "AUSTRIA": ["Purple A Vie -> Boh"],
        "RUSSIA": ["Silver A Gal -> Boh", "Silver A Sil S A Gal -> Boh"],
    })
    expect(outcome, **{"Red A Mun -> Boh": FAILS, "Purple A Vie -> Boh": FAILS,
                       "Silver A Gal -> Boh": FAILS})


def test_ix_two_units_three_colours() -> None:
    # Munich Red+Purple 2 beats Silver with Red but loses to it with Purple; Silver loses to
    # Munich's Red: the three colours make a loop between two units.
    outcome = judge({
        "GERMANY": ["Red A Mun -> Boh", "Purple A Tyr S A Mun -> Boh"],
        "RUSSIA": ["Silver A Gal -> Boh"],
    })
    expect(outcome, **{"Red A Mun -> Boh": FAILS, "Silver A Gal -> Boh": FAILS})
    # Without the Purple support Red simply beats Silver: a superior colour gained by support
    # can cost an attack on an empty province, since each of its colours must beat or tie.
    outcome = judge({"GERMANY": ["Red A Mun -> Boh"], "RUSSIA": ["Silver A Gal -> Boh"]})
    expect(outcome, **{"Red A Mun -> Boh": SUCCEEDS, "Silver A Gal -> Boh": FAILS})


def test_ix_a_vacated_province_is_judged_as_empty() -> None:
    orders = {
        "ITALY": ["Silver A Boh -> Tyr"],
        "GERMANY": ["Red A Mun -> Boh"],
        "AUSTRIA": ["Purple A Vie -> Boh"],
    }
    outcome = judge(orders)
    # Bohemia is left: Purple beats Red as if it were empty.
    expect(outcome, **{"Silver A Boh -> Tyr": SUCCEEDS, "Purple A Vie -> Boh": SUCCEEDS,
                       "Red A Mun -> Boh": FAILS})


def test_ix_an_occupied_province_repels_inferior_attacks_first() -> None:
    # The same attacks while the Silver army stays: Silver repels Purple outright (V.3), so
    # Purple keeps nobody out, and Red beats Silver.
    outcome = judge({
        "ITALY": ["Silver A Boh HOLDS"],
        "GERMANY": ["Red A Mun -> Boh"],
        "AUSTRIA": ["Purple A Vie -> Boh"],
    })
    expect(outcome, **{"Red A Mun -> Boh": SUCCEEDS, "Purple A Vie -> Boh": FAILS})
    assert dislodged(outcome) == {"Silver A BOH"}


def test_ix_a_unit_that_fails_to_leave_defends_in_its_own_colour() -> None:
    outcome = judge({
        "ITALY": ["Silver A Boh -> Tyr", "Silver A Tyr HOLDS"],
        "GERMANY": ["Red A Mun -> Boh"],
        "AUSTRIA": ["Purple A Vie -> Boh"],
    })
    expect(outcome, **{"Silver A Boh -> Tyr": FAILS, "Red A Mun -> Boh": SUCCEEDS,
                       "Purple A Vie -> Boh": FAILS})
    assert dislodged(outcome) == {"Silver A BOH"}


def test_ix_occupied_province_with_multi_colour_defence() -> None:
    # Defence Purple+Silver 2. Red is repelled (Purple beats it); Silver 3 beats Purple by
    # colour and Silver 2 by strength. The repelled Red attack would have kept Silver out of
    # an empty province, but it failed before anything was dislodged, so Silver enters.
    outcome = judge({
        "ITALY": ["Purple A Boh HOLDS", "Silver A Tyr S A Boh"],
        "GERMANY": ["Red A Mun -> Boh"],
        "RUSSIA": ["Silver A Vie -> Boh", "Silver A Gal S A Vie -> Boh",
                   "Silver A Sil S A Vie -> Boh"],
    })
    expect(outcome, **{"Silver A Vie -> Boh": SUCCEEDS, "Red A Mun -> Boh": FAILS,
                       "Purple A Boh HOLDS": FAILS})
    assert dislodged(outcome) == {"Purple A BOH"}


def test_ix_occupied_province_winner_must_first_win_as_if_empty() -> None:
    # Defence Red 1. Munich, Purple 1, would dislodge it (Purple beats Red); so would Vienna,
    # Silver+Red 3 (its Red beats Red 1 by strength). But neither wins as if Bohemia were
    # empty: Munich's Purple loses to Vienna's Silver, Vienna's Red loses to Munich's Purple.
    # Nobody enters, and the Red army stays.
    outcome = judge({
        "ITALY": ["Red A Boh HOLDS"],
        "GERMANY": ["Purple A Mun -> Boh"],
        "RUSSIA": ["Silver A Vie -> Boh", "Red A Gal S A Vie -> Boh",
                   "Red A Sil S A Vie -> Boh"],
    })
    expect(outcome, **{"Purple A Mun -> Boh": FAILS, "Silver A Vie -> Boh": FAILS,
                       "Red A Boh HOLDS": SUCCEEDS})


def test_circular_movement_with_colours_moves() -> None:
    outcome = judge({"GERMANY": ["Red A Mun -> Boh"], "AUSTRIA": ["Purple A Boh -> Tyr"],
                     "ITALY": ["Silver A Tyr -> Mun"]})
    expect(outcome, **{"Red A Mun -> Boh": SUCCEEDS, "Purple A Boh -> Tyr": SUCCEEDS,
                       "Silver A Tyr -> Mun": SUCCEEDS})


def test_a_circle_that_colours_make_a_paradox_fails_entirely() -> None:
    # If the circle turns, the Aegean is empty and Purple beats Red into it, so the circle
    # cannot turn. If it does not, the Silver fleet stays, repels Purple (V.3), and Red
    # dislodges it, so the circle turns. No resolution: every move in it fails (V.6, IX.3).
    circle = {"ITALY": ["Silver F Aeg -> Con"], "AUSTRIA": ["Red A Con -> Smy", "Red F Smy -> Aeg"]}
    outcome = judge({**circle, "TURKEY": ["Purple F Eas -> Aeg"]})
    expect(outcome, **{"Silver F Aeg -> Con": FAILS, "Red A Con -> Smy": FAILS,
                       "Red F Smy -> Aeg": FAILS, "Purple F Eas -> Aeg": FAILS})
    assert not outcome.moved and not outcome.dislodged
    # Without the Purple fleet it is plain circular movement.
    outcome = judge(circle)
    assert len(outcome.moved) == 3


def test_head_to_head_by_colour() -> None:
    outcome = judge({"GERMANY": ["Purple A Mun -> Boh"], "AUSTRIA": ["Red A Boh -> Mun"]})
    expect(outcome, **{"Purple A Mun -> Boh": SUCCEEDS, "Red A Boh -> Mun": FAILS})
    assert dislodged(outcome) == {"Red A BOH"}


# -- support and cutting (VI, VII) ----------------------------------------------------------------


def test_vi_4_a_failed_attack_keeps_no_support_colour_for_defence() -> None:
    outcome = judge({
        "GERMANY": ["Red A Mun -> Boh", "Purple A Tyr S A Mun -> Boh"],
        "AUSTRIA": ["Purple A Boh HOLDS", "Purple A Sil S A Boh"],
        "FRANCE": ["Purple A Ruh -> Mun"],
    })
    expect(outcome, **{"Red A Mun -> Boh": FAILS, "Purple A Ruh -> Mun": SUCCEEDS})
    assert dislodged(outcome) == {"Red A MUN"}


def test_vii_an_inferior_unit_cannot_cut_a_superior_units_support() -> None:
    base = {
        "AUSTRIA": ["Red A Boh HOLDS", "Purple A Tyr S A Boh"],
        "GERMANY": ["Purple A Mun -> Boh"],
    }
    outcome = judge({**base, "ITALY": ["Red A Ven -> Tyr"]})
    expect(outcome, **{"Purple A Tyr S A Boh": SUCCEEDS, "Purple A Mun -> Boh": FAILS})
    # A Silver unit is superior to Purple: it cuts, and the cut takes the colour too.
    outcome = judge({**base, "ITALY": ["Silver A Ven -> Tyr"]})
    expect(outcome, **{"Purple A Tyr S A Boh": FAILS, "Purple A Mun -> Boh": SUCCEEDS})
    assert "Silver A VEN" in reason(outcome, "Purple A Tyr S A Boh")
    # An equivalent unit cuts as in the standard game.
    outcome = judge({**base, "ITALY": ["Purple A Ven -> Tyr"]})
    expect(outcome, **{"Purple A Tyr S A Boh": FAILS, "Purple A Mun -> Boh": SUCCEEDS})
    assert reason(outcome, "Purple A Tyr S A Boh") == "support cut by Purple A VEN"


def test_v4_a_powers_support_gives_no_colour_against_its_own_unit() -> None:
    outcome = judge({
        "GERMANY": ["Red A Mun HOLDS", "Purple A Tyr S A Bur -> Mun"],
        "FRANCE": ["Red A Bur -> Mun"],
    })
    expect(outcome, **{"Red A Bur -> Mun": FAILS, "Red A Mun HOLDS": SUCCEEDS})


# -- orders with colours --------------------------------------------------------------------------


def test_a_wrong_colour_is_an_error_naming_the_real_one() -> None:
    outcome = judge({"ITALY": ["Red A Ven -> Tyr", "Red F Nap H"]},
                    units={"ITALY": ["Purple A VEN", "Red F NAP"]})
    assert verdict(outcome, "Red A Ven -> Tyr") == INVALID
    assert reason(outcome, "Red A Ven -> Tyr").startswith(
        "the army in Venice (VEN) is Purple, not Red")
    assert p("VEN") in outcome.after.units  # the unit holds


def test_a_wrong_colour_for_the_supported_unit_is_an_error() -> None:
    outcome = judge({"ITALY": ["Red F Adr S Silver A Ven -> Tri"]},
                    units={"ITALY": ["Red F ADR", "Red A VEN"]})
    assert reason(outcome, "Red F Adr S Silver A Ven -> Tri").startswith(
        "the army in Venice (VEN) is Red, not Silver")


def test_orders_without_colours_and_canonical_text_with_them() -> None:
    outcome = judge({"ITALY": ["A Ven - Tri", "F Adr S A Ven - Tri", "F Ion C A Tun - Gre"],
                     "FRANCE": ["A Tun - Gre"]},
                    units={"ITALY": ["Purple A VEN", "Red F ADR", "Silver F ION"],
                           "FRANCE": ["Red A TUN"]})
    canon = {r.text: r.canonical for rs in outcome.results.values() for r in rs}
    assert canon["A Ven - Tri"] == "Purple A VEN - TRI"
    assert canon["F Adr S A Ven - Tri"] == "Red F ADR S Purple A VEN - TRI"
    assert canon["F Ion C A Tun - Gre"] == "Silver F ION C Red A TUN - GRE"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("A Ven Red - Tri", "a colour goes just before the unit"),
     ("Red Purple A Ven H", "two colours are given for one unit"),
     ("Red A Ven - Silver Tri", "a colour names a unit, not where it goes"),
     ("Red A Ven H Silver", "a colour goes just before the unit"),
     ("Red A Ven S Silver A Tyr Red", "a colour goes just before the unit"),
     ("Red A Ven - Tri Silver", "a colour goes just before the unit"),
     ("Red A Zzz H", "is not a province")],
)
def test_misplaced_colours_are_clear_errors(text: str, fragment: str) -> None:
    outcome = judge({"ITALY": [text]}, units={"ITALY": ["Red A VEN"]})
    assert verdict(outcome, text) == INVALID
    assert fragment in reason(outcome, text)


def test_builds_take_a_colour_and_default_to_red() -> None:
    position = board({"FRANCE": ["Red A PIC"]}, phase="W1901A",
                     centers={"FRANCE": ["PAR", "MAR", "BRE", "SPA"]})
    orders = {"FRANCE": ["Build Silver A Par", "Purple F Bre B", "Build A Mar"]}
    outcome = adjudicate(position, orders)
    expect(outcome, **{"Build Silver A Par": SUCCEEDS, "Purple F Bre B": SUCCEEDS,
                       "Build A Mar": SUCCEEDS})
    assert units_after(outcome) == {"Red A PIC", "Silver A PAR", "Purple F BRE", "Red A MAR"}
    canon = [r.canonical for r in outcome.results["FRANCE"]]
    assert canon == ["BUILD Silver A PAR", "BUILD Purple F BRE", "BUILD Red A MAR"]


# -- retreats (X) ---------------------------------------------------------------------------------


def retreat_phase(first: str, second: str) -> Position:
    return board(
        {"FRANCE": ["Red A MUN"], "ITALY": ["Red A TYR"]},
        phase="S1901R",
        dislodged={"GERMANY": [{"unit": f"{first} A MUN", "attacker_from": "BUR"}],
                   "AUSTRIA": [{"unit": f"{second} A TYR", "attacker_from": "VEN"}]},
    )


def test_x_the_superior_retreat_succeeds() -> None:
    outcome = adjudicate(retreat_phase("Purple", "Red"),
                         {"GERMANY": ["Purple A Mun R Boh"], "AUSTRIA": ["Red A Tyr R Boh"]})
    expect(outcome, **{"Purple A Mun R Boh": SUCCEEDS, "Red A Tyr R Boh": FAILS})
    assert reason(outcome, "Red A Tyr R Boh") == (
        "Purple A MUN prevails there; the unit is disbanded")
    assert "Purple A BOH" in units_after(outcome)
    assert p("TYR") in outcome.removed


@pytest.mark.parametrize(("first", "second"), [("Red", "Red"), ("Silver", "Silver")])
def test_x_equivalent_retreats_both_disband(first: str, second: str) -> None:
    outcome = adjudicate(retreat_phase(first, second),
                         {"GERMANY": ["A Mun R Boh"], "AUSTRIA": ["A Tyr R Boh"]})
    expect(outcome, **{"A Mun R Boh": FAILS, "A Tyr R Boh": FAILS})
    assert p("BOH") not in outcome.after.units


def test_x_three_colours_retreating_to_one_place_all_disband() -> None:
    assert Arpiesse().retreat_clash_winner([
        ColouredUnit("A", ARMY, 0, RED), ColouredUnit("B", ARMY, 1, PURPLE),
        ColouredUnit("C", ARMY, 2, SILVER)]) is None
    assert Arpiesse().retreat_clash_winner([
        ColouredUnit("A", ARMY, 0, SILVER), ColouredUnit("B", ARMY, 1, RED),
        ColouredUnit("C", ARMY, 2, SILVER)]) == 1


# -- the summer colour exchange (XII) -------------------------------------------------------------


def test_exchange_needs_both_orders() -> None:
    position = summer({"ITALY": ["Purple F ADR"], "AUSTRIA": ["Silver A TRI"]})
    outcome = adjudicate(position, {"ITALY": ["F Adr exchange with A Tri"]})
    assert verdict(outcome, "F Adr exchange with A Tri") == FAILS
    assert reason(outcome, "F Adr exchange with A Tri") == (
        "Silver A TRI did not order the same exchange")
    outcome = adjudicate(position, {"ITALY": ["F Adr - Tri"], "AUSTRIA": ["A Tri X Ven"]})
    assert verdict(outcome, "F Adr - Tri") == INVALID
    assert verdict(outcome, "A Tri X Ven") == INVALID
    outcome = adjudicate(position, {"ITALY": ["A Tri X F Adr"], "AUSTRIA": ["A Tri X A Tri"]})
    assert reason(outcome, "A Tri X F Adr") == "the unit in Trieste (TRI) is not yours"
    assert reason(outcome, "A Tri X A Tri") == "a unit cannot exchange colours with itself"
    # Two different exchange orders for one unit: neither stands.
    position = summer({"ITALY": ["Purple F ADR", "Red A VEN"], "AUSTRIA": ["Silver A TRI"]})
    outcome = adjudicate(position, {"ITALY": ["F Adr X A Tri", "F Adr X A Ven", "A Ven X F Adr"],
                                    "AUSTRIA": ["A Tri X F Adr"]})
    assert verdict(outcome, "F Adr X A Tri") == INVALID
    assert verdict(outcome, "A Tri X F Adr") == FAILS
    assert units_after(outcome) == {"Purple F ADR", "Red A VEN", "Silver A TRI"}
    # Two units of one colour may exchange: nothing changes.
    position = summer({"ITALY": ["Red F ADR", "Red A VEN"]})
    outcome = adjudicate(position, {"ITALY": ["F Adr X A Ven", "A Ven X F Adr"]})
    expect(outcome, **{"F Adr X A Ven": SUCCEEDS, "A Ven X F Adr": SUCCEEDS})


def test_summer_comes_between_spring_and_fall_only_with_the_option() -> None:
    plain = adjudicate(board({"ITALY": ["Red A VEN"]}), {})
    assert plain.next.phase.code == "F1901M"
    spring = board({"ITALY": ["Red A VEN"]}, options={"colour_exchange": True})
    outcome = adjudicate(spring, {})
    assert outcome.next.phase.code == "U1901X"
    assert outcome.next.phase.name == "Summer 1901 Exchange"
    assert position_to_json(outcome.next)["options"] == {"colour_exchange": True}
    assert find_variant("arpiesse-exchange").exchange_enabled(  # type: ignore[attr-defined]
        Position.initial(M, variant=find_variant("arpiesse-exchange")))
    with pytest.raises(PhaseError, match="unknown options"):
        board({}, options={"colour": True})
    with pytest.raises(PhaseError, match="true or false"):
        board({}, options={"colour_exchange": "yes"})


# -- documents and reports ------------------------------------------------------------------------


def test_output_document_and_report_show_colours() -> None:
    outcome = judge({
        "AUSTRIA": ["Purple A Rum HOLDS"],
        "RUSSIA": ["Silver A Sev -> Rum"],
        "TURKEY": ["Red F Bla -> Rum"],
    })
    doc = outcome_to_json(outcome, "datc")
    assert doc["dislodged"] == [{"unit": "Purple A RUM", "power": "AUSTRIA",
                                 "retreats": ["BUD", "BUL", "GAL", "SER", "UKR"],
                                 "destroyed": False}]
    assert doc["next"]["dislodged"] == {
        "AUSTRIA": [{"unit": "Purple A RUM", "attacker_from": "SEV"}]}
    assert doc["next"]["units"]["RUSSIA"] == ["Silver A RUM"]
    report = phase_report(outcome)
    assert "Austria: Purple A RUM" in report
    assert "Silver A SEV - RUM" in report
    assert "Purple A RUM (Austria):" in report


# -- whole games ----------------------------------------------------------------------------------


def test_a_short_game_through_the_library() -> None:
    game = Game.new("arpiesse-exchange")
    assert game.variant == "arpiesse-exchange"
    game.set_orders("ITALY", ["Red A Ven - Tyr", "Red F Nap - Ion"])
    game.set_orders("AUSTRIA", ["A Vie - Gal", "Red F Tri - Alb"])
    checks = game.set_orders("GERMANY", ["Purple A Mun - Ruh", "A Mun - Ruh"])
    assert not checks[0].ok and "is Red, not Purple" in checks[0].problem
    game.process()
    assert game.current.phase.code == "U1901X"
    game.set_orders("ITALY", ["Red A Tyr X A Vie"])  # Vienna is empty now: invalid
    checks = game.set_orders("AUSTRIA", ["Red F Alb X A Ser"])
    assert not checks[0].ok
    game.set_orders("ITALY", ["Red F Ion X F Alb"])
    game.set_orders("AUSTRIA", ["F Alb X F Ion"])
    game.process()
    assert game.current.phase.code == "F1901M"
    game.set_orders("ITALY", ["F Ion - Tun", "A Tyr - Mun"])
    game.set_orders("AUSTRIA", ["A Gal - Rum", "F Alb - Gre"])
    game.process()
    assert game.current.phase.code == "W1901A"
    game.set_orders("ITALY", ["Build Purple A Ven"])
    game.set_orders("AUSTRIA", ["Silver A Vie B"])
    game.process()
    assert game.current.phase.code == "S1902M"
    units = position_to_json(game.current)["units"]
    assert "Purple A VEN" in units["ITALY"] and "Silver A VIE" in units["AUSTRIA"]
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.current.units == game.current.units


def _cli(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def test_a_short_game_from_the_command_line(capsys, tmp_path: Path) -> None:
    g = str(tmp_path / "g.json")
    code, out = _cli(capsys, "game", "new", g, "--variant", "arpiesse")
    assert code == 0 and "Arpiesse Diplomacy" in out
    start = json.loads(Path(g).read_text())
    assert start["variant"] == "arpiesse"
    assert start["phases"][0]["position"]["units"]["ITALY"] == ["Red F NAP", "Red A ROM",
                                                                "Red A VEN"]
    orders = tmp_path / "italy.txt"
    orders.write_text("Red A Ven -> Tyr\nRed A Rom - Ven\nPurple F Nap - Ion\n")
    code, out = _cli(capsys, "game", "orders", g, "italy", str(orders))
    assert code == 0
    assert "ok     Red A VEN - TYR" in out
    assert "is Red, not Purple" in out
    code, out = _cli(capsys, "game", "process", g)
    assert code == 0
    assert "Red A VEN - TYR" in out and "Next: Fall 1901 Movement" in out
    orders.write_text("Red A Tyr - Mun\nA Ven - Pie\nF Nap - Ion\n")
    _cli(capsys, "game", "orders", g, "ITALY", str(orders))
    german = tmp_path / "germany.txt"
    german.write_text("A Mun H\n")
    _cli(capsys, "game", "orders", g, "GERMANY", str(german))
    code, out = _cli(capsys, "game", "process", g)
    assert code == 0 and "Bounced 1 Red v 1 Red against Red A MUN" in out
    code, out = _cli(capsys, "game", "show", g)
    assert code == 0 and "Italy: Red A PIE, Red A TYR, Red F ION" in out
    code, out = _cli(capsys, "game", "export", g)
    assert json.loads(out)["variant"] == "arpiesse"
    code, out = _cli(capsys, "new", "--variant", "arpiesse-exchange")
    assert json.loads(out)["variant"] == "arpiesse-exchange"


# -- the standard rules hold between units of one colour ------------------------------------------


def _datc_params() -> list:
    from datc_cases import all_cases

    return [pytest.param(case, id=case.id) for case in all_cases() if "datc" in case.editions]


@pytest.mark.parametrize("case", _datc_params())
def test_datc_with_every_unit_red(case) -> None:
    """Every DATC case gives the same results when all units are Red (rule III)."""
    from test_datc import start_position

    standard = start_position(case)

    def red(unit):
        return ColouredUnit(unit.power, unit.type, unit.loc, RED)

    position = standard.replace(
        variant=find_variant("arpiesse"),
        units={q: red(u) for q, u in standard.units.items()},
        dislodged=tuple(Dislodged(red(d.unit), d.attacker_from) for d in standard.dislodged),
    )
    for spec in case.phases:
        wanted = spec.expectations("datc")
        orders: dict[str, list[str]] = {}
        for power, text, _ in wanted.orders:
            orders.setdefault(power, []).append(text)
        outcome = adjudicate(position, orders, "datc")
        seen: dict[str, int] = {}
        for power, text, result in wanted.orders:
            if result == "?":
                continue
            matches = [r for r in outcome.results.get(power, []) if r.text == text]
            k = seen.get(power + text, 0)
            seen[power + text] = k + 1
            assert matches[k].result == result, f"{power}: {text}: {matches[k].reason}"
        if wanted.dislodged is not None:
            assert {format_unit(M, d.unit) for d in outcome.dislodged} == wanted.dislodged
        position = outcome.next


# -- properties -----------------------------------------------------------------------------------

CENTRAL = ["MUN", "BOH", "TYR", "VIE", "GAL", "SIL", "BER", "PRU", "WAR", "BUD", "TRI", "VEN",
           "PIE", "BUR", "RUH", "KIE", "HOL", "BEL", "PIC", "PAR", "MAR", "GAS", "UKR", "RUM",
           "SER", "ALB", "APU", "ROM", "TUS", "ADR", "ION", "NTH", "HEL", "BAL", "DEN", "SWE",
           "LVN", "MOS", "SEV", "BLA", "BUL", "GRE", "CON", "AEG", "EAS", "SMY", "ANK", "ARM"]
PLACES = {}
for _code in CENTRAL:
    _q = p(_code)
    PLACES[_q] = [(t, loc) for loc in range(M.location_count) if M.province_of(loc) == _q
                  for t in (ARMY, FLEET) if M.unit_can_stand(t, loc)]


@st.composite
def coloured_battles(draw):
    """Units of three powers in every colour packed into central Europe, and their orders."""
    chosen = draw(st.lists(st.sampled_from(sorted(PLACES)), min_size=2, max_size=26, unique=True))
    units = {}
    for q in chosen:
        unit_type, loc = draw(st.sampled_from(PLACES[q]))
        units[q] = ColouredUnit(draw(st.sampled_from(("AUSTRIA", "ITALY", "RUSSIA"))), unit_type,
                                loc, draw(st.sampled_from((RED, PURPLE, SILVER))))
    position = Position(M, Phase(1901, "S", "M"), units, {}, variant=find_variant("arpiesse"))
    moves = {}
    orders: dict[str, list] = {}
    for q, unit in units.items():
        reach = [d for d in M.fleet_adjacent[unit.loc]] if unit.type is FLEET else sorted(
            M.army_adjacent[q])
        kind = draw(st.sampled_from(("hold", "move", "move", "move", "support")))
        if kind == "move" and reach:
            # Mostly into occupied places: head-to-heads, circles and beleaguered garrisons.
            crowded = [d for d in reach if M.province_of(d) in units]
            dest = draw(st.sampled_from(crowded if crowded and draw(st.booleans()) else reach))
            moves[q] = dest
            order = Move(unit.type, unit.loc, dest)
        else:
            order = Hold(unit.type, unit.loc)
        orders.setdefault(unit.power, []).append(order)
    for q, unit in units.items():
        if draw(st.integers(0, 2)):
            continue
        # A support of a move or hold into a province this unit can reach, if any.
        options = [(r, moves.get(r)) for r in units if r != q]
        options = [(r, d, r if d is None else M.province_of(d)) for r, d in options]
        options = [(r, d) for r, d, into in options
                   if into != q and M.can_reach_province(unit.type, unit.loc, into)]
        if options:
            r, d = draw(st.sampled_from(options))
            target = units[r]
            support = Support(unit.type, unit.loc, target.type, target.loc, d)
            orders[unit.power] = [o for o in orders[unit.power] if o.loc != unit.loc] + [support]
    return position, orders


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coloured_battles())
def test_resolver_terminates_and_never_stacks_two_units(battle) -> None:
    position, orders = battle
    outcome = adjudicate(position, orders)
    after = outcome.after
    # Every unit is somewhere: standing (each province once: a dict) or dislodged.
    assert len(after.units) + len(after.dislodged) == len(position.units)
    resolver = outcome.resolution.resolver
    t = resolver.table
    winners: dict[int, int] = {}
    for q in t.movers:
        if resolver.resolution[q]:
            assert t.dest[q] not in winners, "two units moved into one province"
            winners[t.dest[q]] = q
    for d in after.dislodged:
        province = M.province_of(d.unit.loc)
        assert province in after.units, "a dislodged unit's province is left empty"
        assert after.units[province] is not position.units[province]
    for province, unit in after.units.items():
        assert colour_of(unit) in (RED, PURPLE, SILVER)
        assert M.province_of(unit.loc) == province


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coloured_battles())
def test_colour_blind_boards_match_the_standard_game(battle) -> None:
    """With one colour everywhere, Arpiesse decides exactly as the standard game."""
    position, orders = battle
    colour = position.units[next(iter(position.units))].colour
    same = position.replace(units={q: ColouredUnit(u.power, u.type, u.loc, colour)
                                   for q, u in position.units.items()})
    plain = same.replace(variant=find_variant("standard"))
    a, b = adjudicate(same, orders), adjudicate(plain, orders)
    assert a.moved == b.moved
    assert [d.unit.loc for d in a.dislodged] == [d.unit.loc for d in b.dislodged]
