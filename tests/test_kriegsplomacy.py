"""Kriegsplomacy (rd07): the source's sample adjudication, every rule, and leak tests.

The source is ``shared/sources/kriegsplomacy.txt``; the rules as implemented and every reading
of it are in ``docs/rules/kriegsplomacy.md``. Where the expected lines below differ from the
source's text, the comment next to them says how and why (the source's own typos and a place
name its rule 6.1 says a spy cannot see).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import outcome_to_json, position_from_json, position_to_json, view_to_json
from calhamer.game import FORMAT, Game, check_orders, game_view
from calhamer.map import load_map
from calhamer.notation import format_unit
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.report import phase_report
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.variants import find_variant
from calhamer.variants.kriegsplomacy import CounterEspionage, Espionage, spy_range
from calhamer.views import UNKNOWN, gamemaster_view, power_view, power_views

KP = "kriegsplomacy"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


# -- helpers --------------------------------------------------------------------------------------


def doc(
    units: Mapping[str, list[str]],
    orders: Mapping[str, list[str]] | None = None,
    *,
    phase: str = "S1901M",
    centers: Mapping[str, list[str]] | None = None,
    **more: Any,
) -> dict[str, Any]:
    d: dict[str, Any] = {"variant": KP, "phase": phase, "units": dict(units)}
    if centers is not None:
        d["centers"] = dict(centers)
    if orders is not None:
        d["orders"] = dict(orders)
    d.update(more)
    return d


def run(units, orders=None, **kw) -> PhaseOutcome:
    position, given, rules = position_from_json(doc(units, orders, **kw))
    return adjudicate(position, given, rules)


def own(out: PhaseOutcome, power: str) -> list[str]:
    """The lines ``power`` is told about its own orders."""
    return [r.canonical for r in power_view(out, power).results.get(power, [])]


def spied(out: PhaseOutcome, power: str) -> set[str]:
    """Every line ``power``'s espionage notes tell it."""
    return {line for note in power_view(out, power).notes if "Espionage" in note.title
            for line in note.lines}


def spied_orders(out: PhaseOutcome, power: str) -> set[str]:
    """What ``power``'s espionage tells it of orders (centre ownership left out)."""
    return {line for line in spied(out, power) if " = " not in line}


def view_text(out: PhaseOutcome, power: str) -> str:
    """Everything ``power`` is shown: its text report and its JSON view."""
    view = power_view(out, power)
    return phase_report(view) + json.dumps(view_to_json(view, "datc"), sort_keys=True)


def strip_flags(line: str) -> str:
    return re.sub(r" \[[^\]]*\]$", "", line)


# -- the source's sample adjudication ------------------------------------------------------------

BUILDS_1900 = {
    "AUSTRIA": ["Build A Bud", "Build A Tri", "Build A Vie"],
    "ENGLAND": ["Build F Lon", "Build F Edi", "Build F Lvp"],
    "FRANCE": ["Build F Bre", "Build F Mar", "Build A Par"],
    "GERMANY": ["Build A Mun", "Build F Kie", "Build F Ber"],
    "ITALY": ["Build A Ven", "Build F Rom", "Build F Nap"],
    "RUSSIA": ["Build F StP(NC)", "Build F Sev", "Build A War", "Build A Mos"],
    "TURKEY": ["Build F Ank", "Build F Con", "Build F Smy"],
}
# The orders exactly as the source writes them (its "Nor", "lon" and "Tyh" included, except
# "F Lyo Spa(SC)", whose missing dash would make it no order at all).
SPRING_1901 = {
    "AUSTRIA": ["A Bud-Ser", "A Tri-Alb", "A Vie E"],
    "ENGLAND": ["F Lon-Eng", "F Edi-Nth", "F Lvp-Iri"],
    "FRANCE": ["F Bre-Eng", "F Mar-Lyo", "A Par-Pic"],
    "GERMANY": ["A Mun E", "F Kie-Hol", "F Ber-Bal"],
    "ITALY": ["A Ven-Tyo", "F Rom-Tyh", "F Nap-Ion"],
    "RUSSIA": ["F StP(NC)-Nwy", "F Sev-Bla", "A War-Sil", "A Mos-Ukr"],
    "TURKEY": ["F Ank-Bla", "F Con S F Ank-Bla", "F Smy-Aeg"],
}
FALL_1901 = {
    "AUSTRIA": ["A Ser-Bul", "A Alb-Gre", "A Vie-Tri"],
    "ENGLAND": ["F Lon-Eng", "F Nth E", "F Iri-Mid"],
    "FRANCE": ["F Bre-Mid", "F Lyo-Spa(SC)", "A Pic-Bel"],
    "GERMANY": ["A Mun-Ber", "F Hol-Bel", "F Bal-Den"],
    "ITALY": ["A Tyo-Mun", "F Tyh-Tun", "F Ion-Aeg"],
    "RUSSIA": ["F Nor CE", "F Sev-Rum", "A Sil-Mun", "A Ukr S F Sev-Rum"],
    "TURKEY": ["F Bla-Sev", "F Con-Bul(SC)", "F Aeg-Gre"],
}
BUILDS_1901 = {
    "AUSTRIA": ["Build A Vie"],
    "FRANCE": ["Build A Par"],
    "GERMANY": ["Build A Kie", "Build F Mun"],  # a fleet in Munich is refused: see below
    "ITALY": ["Build A Ven"],
    "RUSSIA": ["Build A Mos"],
    "TURKEY": ["Build F Smy"],
}


def _play(game: Game, orders: Mapping[str, list[str]]) -> PhaseOutcome:
    for power, lines in orders.items():
        checks = game.set_orders(power, lines)
        assert all(c.ok for c in checks if "Mun" not in c.text), checks
    return game.process()


@pytest.fixture(scope="module")
def sample() -> dict[str, PhaseOutcome]:
    """The source's game year, played from Winter 1900 with its orders."""
    game = Game.new(KP)
    out = {"W1900A": _play(game, BUILDS_1900)}
    for code, orders in (("S1901M", SPRING_1901), ("S1901R", {}), ("F1901M", FALL_1901),
                         ("F1901R", {})):
        assert game.current.phase.code == code  # a retreat step every season (rule 3.6)
        out[code] = _play(game, orders)
    assert game.current.phase.code == "W1901A"
    out["W1901A"] = _play(game, {**BUILDS_1901, "GERMANY": ["Build A Kie", "Build A Mun"]})
    out["game"] = game  # type: ignore[assignment]
    return out


# "Here is how the moves might look normally" (the gamemaster's lines; the source leaves out
# the [opp]/[att] flags there). Differences from the source's text: "Ion" for its "lon" (a
# lower-case L for the I of Ionian), "Nwy" for its "Nor" (it writes both), "F Lyo-Spa(SC)*"
# for its "F Lyo Spa(SC)*", and "F Nth* E" for its "F Nth E" (in its own results England's
# fleet, which stayed, has no star; every other unit that stayed has one, as "A Vie* E").
SOURCE_SPRING = {
    "AUSTRIA": ["A Bud-Ser*", "A Tri-Alb*", "A Vie* E"],
    "ENGLAND": ["F Lon*-Eng", "F Edi-Nth*", "F Lvp-Iri*"],
    "FRANCE": ["F Bre*-Eng", "F Mar-Lyo*", "A Par-Pic*"],
    "GERMANY": ["A Mun* E", "F Kie-Hol*", "F Ber-Bal*"],
    "ITALY": ["A Ven-Tyo*", "F Rom-Tyh*", "F Nap-Ion*"],
    "RUSSIA": ["F StP(NC)-Nwy*", "F Sev*-Bla", "A War-Sil*", "A Mos-Ukr*"],
    "TURKEY": ["F Ank-Bla*", "F Con* S F Ank-Bla", "F Smy-Aeg*"],
}
SOURCE_FALL = {
    "AUSTRIA": ["A Ser*-Bul", "A Alb*-Gre", "A Vie-Tri*"],
    "ENGLAND": ["F Lon-Eng*", "F Nth* E", "F Iri*-Mid"],
    "FRANCE": ["F Bre*-Mid", "F Lyo-Spa(SC)*", "A Pic*-Bel"],
    "GERMANY": ["A Mun-Ber*", "F Hol*-Bel", "F Bal-Den*"],
    "ITALY": ["A Tyo*-Mun", "F Tyh-Tun*", "F Ion*-Aeg"],
    "RUSSIA": ["F Nwy* CE", "F Sev-Rum*", "A Sil*-Mun", "A Ukr* S F Sev-Rum"],
    "TURKEY": ["F Bla-Sev*", "F Con*-Bul(SC)", "F Aeg*-Gre"],
}


def test_sample_gamemaster_lines_are_the_sources_normal_moves(sample) -> None:
    for code, expected in (("S1901M", SOURCE_SPRING), ("F1901M", SOURCE_FALL)):
        gm = gamemaster_view(sample[code])
        assert gm.power is None and gm.complete
        got = {p: [strip_flags(r.canonical) for r in rs] for p, rs in gm.results.items()}
        assert got == expected, code


def test_sample_spring_1901_each_power_sees_what_the_source_says(sample) -> None:
    out = sample["S1901M"]
    assert own(out, "AUSTRIA") == ["A Bud-Ser*", "A Tri-Alb*", "A Vie* E"]
    assert own(out, "RUSSIA") == ["F StP(NC)-Nwy*", "F Sev*-Bla [opp]", "A War-Sil*", "A Mos-Ukr*"]
    assert own(out, "TURKEY") == ["F Ank-Bla* [opp]", "F Con* S F Ank-Bla", "F Smy-Aeg*"]
    # "(sees: Vie = Aus, Tri = Aus, Bud = Aus, Ita A ???-Tyo*, A Tri-???, A Bud-???)": our
    # lines name every unit's power, Austria's own too (the source leaves it out there only).
    assert spied(out, "AUSTRIA") == {
        "Vie = Aus", "Tri = Aus", "Bud = Aus", "Ita A ???-Tyo*", "Aus A Tri-???", "Aus A Bud-???",
    }
    # "while he knows he was stood off in the Bla, he does NOT know that Turkey made it in"
    assert "Tur" not in view_text(out, "RUSSIA") and "TURKEY" not in view_text(out, "RUSSIA")
    # Turkey is not told whether its support was given (rules 4.2 to 4.4).
    con = power_view(out, "TURKEY").results["TURKEY"][1]
    assert con.result == UNKNOWN
    # Only the spies learn anything beyond their own orders.
    for power in ("ENGLAND", "FRANCE", "ITALY", "RUSSIA", "TURKEY"):
        assert spied(out, power) == set()
    assert spied(out, "GERMANY")  # Germany's A Mun E is not reported by the source


def test_sample_fall_1901_each_power_sees_what_the_source_says(sample) -> None:
    out = sample["F1901M"]
    assert own(out, "ENGLAND") == ["F Lon-Eng*", "F Nth* E", "F Iri*-Mid [opp]"]
    assert own(out, "RUSSIA") == [
        "F Nwy* CE", "F Sev-Rum*", "A Sil*-Mun [opp]", "A Ukr* S F Sev-Rum",
    ]
    assert own(out, "TURKEY") == ["F Bla-Sev*", "F Con*-Bul(SC) [opp]", "F Aeg*-Gre [opp; att]"]
    # "(sees: Edi = Eng, Lon = Eng, Den=unowned, Hol=unowned, Bel=unowned, Ger F ???-Den*,
    # Ger F Hol*-Bel, Fre A Pic*-Bel, Eng F Lon-Eng*)". The source names Picardy, but Picardy
    # is not in the North Sea's range and rule 6.1 says "you are not told of any locations not
    # covered by the Espionage" (as in its "Ger F ???-Den*"), so the French army's origin is ???.
    assert spied(out, "ENGLAND") == {
        "Edi = Eng", "Lon = Eng", "Den = unowned", "Hol = unowned", "Bel = unowned",
        "Ger F ???-Den*", "Ger F Hol*-Bel", "Fre A ???-Bel", "Eng F Lon-Eng*",
    }
    # "England does not see the Russian F Nor or find out the ownership of Nor due to the
    # Russian CE."
    assert not any("Nwy" in line or "Rus" in line for line in spied(out, "ENGLAND"))
    # "Russia learns nothing about the Turkish move to Sev until Winter."
    assert not any("att" in line for line in own(out, "RUSSIA"))  # Sev left: no attack
    assert "Tur" not in view_text(out, "RUSSIA") and "Bla" not in view_text(out, "RUSSIA")


def test_sample_retreat_steps_release_centres_only_after_fall(sample) -> None:
    for code in ("S1901R", "F1901R"):
        views = power_views(sample[code])
        assert list(views) == list(POWERS)  # every power gets the step, with nothing to do
        for power, view in views.items():
            assert view.results == {}
            assert all(power == p for p in view.results)
    assert power_views(sample["S1901R"])["AUSTRIA"].notes == ()
    # "each player is given a list of the supply centers he controls" after the Fall retreats.
    centres = {p: v.notes[0].lines[0] for p, v in power_views(sample["F1901R"]).items()}
    assert centres == {
        "AUSTRIA": "Bud, Ser, Tri, Vie",
        "ENGLAND": "Edi, Lon, Lvp",
        "FRANCE": "Bre, Mar, Par, Spa",
        "GERMANY": "Ber, Den, Hol, Kie, Mun",
        "ITALY": "Nap, Rom, Tun, Ven",
        "RUSSIA": "Mos, Nwy, Rum, StP, War",  # Sevastopol is lost: learnt only now (4.1)
        "TURKEY": "Ank, Con, Sev, Smy",
    }
    # ...and no one is told anything of another power's centres.
    for power, view in power_views(sample["F1901R"]).items():
        assert len(view.notes) == 1 and power.title() in view.notes[0].title


def test_sample_winter_chart(sample) -> None:
    # The source's "England: (3) NG Change;" is written "No Change".
    chart = [
        "Austria: (4) + 1;", "England: (3) No Change;", "France: (4) + 1;", "Germany: (5) + 2;",
        "Italy: (4) + 1;", "Russia: (5) + 1;", "Turkey: (4) + 1;",
    ]
    for power, view in power_views(sample["W1901A"]).items():
        assert list(view.notes[0].lines) == chart
        assert view.counts == {"AUSTRIA": 4, "ENGLAND": 3, "FRANCE": 4, "GERMANY": 5, "ITALY": 4,
                               "RUSSIA": 5, "TURKEY": 4}
        assert set(view.results) <= {power}
    assert list(power_views(sample["W1900A"])["ENGLAND"].notes[0].lines)[:2] == [
        "Austria: (3) + 3;", "England: (3) + 3;"
    ]


# -- rule 2: flexible builds ---------------------------------------------------------------------


def test_rule_2_1_the_game_starts_in_winter_1900_with_home_centres_and_no_units(capsys) -> None:
    game = Game.new(KP)
    start = game.current
    assert start.phase.code == "W1900A" and not start.units
    assert start.center_counts() == {"AUSTRIA": 3, "ENGLAND": 3, "FRANCE": 3, "GERMANY": 3,
                                     "ITALY": 3, "RUSSIA": 4, "TURKEY": 3}
    assert main(["new", "--variant", "kriegsplomacy"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["phase"], printed["units"]) == ("W1900A", {})
    assert find_variant("krieg").name == KP


def _winter(orders, units=None, centers=None, rules=None) -> PhaseOutcome:
    units = units or {"AUSTRIA": ["A VIE"]}
    centers = centers or {"AUSTRIA": ["VIE", "BUD", "TRI", "SER", "GRE"]}
    extra = {"rules": rules} if rules else {}
    return run(units, orders, phase="W1901A", centers=centers, **extra)


@pytest.mark.parametrize("rules", [None, "1971", "1982", "2000"])
def test_rule_2_2_builds_go_in_any_owned_vacant_centre(rules) -> None:
    out = _winter({"AUSTRIA": ["Build A Ser", "Build F Gre", "Build A Vie", "Build A Rum"]},
                  rules=rules)
    got = [(r.canonical, r.result) for r in out.results["AUSTRIA"]]
    assert got[:2] == [("BUILD A SER", SUCCEEDS), ("BUILD F GRE", SUCCEEDS)]
    assert got[2][1] == got[3][1] == INVALID  # occupied; not owned
    assert "occupied" in out.results["AUSTRIA"][2].reason
    assert "does not own" in out.results["AUSTRIA"][3].reason


def test_rule_2_3_civil_disorder_farthest_then_fleets_then_alphabetical() -> None:
    units = {"RUSSIA": ["A WAR", "A UKR", "A GAL", "F SEV"]}
    out = _winter({}, units=units, centers={"RUSSIA": ["MOS", "WAR"]})
    assert sorted(r.canonical for r in out.results["RUSSIA"]) == ["A GAL D", "F SEV D"]
    # The farthest goes first whatever its type: here the fleet in the Barents Sea (two moves
    # from Moscow) before the army in Ukraine (one).
    units = {"RUSSIA": ["A WAR", "A UKR", "F BAR"]}
    out = _winter({}, units=units, centers={"RUSSIA": ["MOS", "WAR"]})
    assert [r.canonical for r in out.results["RUSSIA"]] == ["F BAR D"]
    # Even in an edition whose own civil-disorder rule differs (1971: distance to home centres).
    out = _winter({}, units={"RUSSIA": ["A WAR", "A UKR", "A GAL", "F SEV"]},
                  centers={"RUSSIA": ["MOS", "WAR"]}, rules="1971")
    assert sorted(r.canonical for r in out.results["RUSSIA"]) == ["A GAL D", "F SEV D"]


# -- rules 3 and 4: what a power is told -------------------------------------------------------


def test_rule_3_3_a_successful_move_is_not_attacked_by_a_move_into_its_old_place() -> None:
    out = run({"AUSTRIA": ["A TRI"], "ITALY": ["A VEN"]},
              {"AUSTRIA": ["A Tri - Alb"], "ITALY": ["A Ven - Tri"]})
    assert own(out, "AUSTRIA") == ["A Tri-Alb*"]
    assert own(out, "ITALY") == ["A Ven-Tri*"]


def test_rule_3_3_own_units_neither_attack_nor_stop_opposing() -> None:
    out = run({"AUSTRIA": ["A TRI", "A VIE"]}, {"AUSTRIA": ["A Vie - Tri", "A Tri H"]})
    assert own(out, "AUSTRIA") == ["A Vie*-Tri [opp]", "A Tri* H"]  # 3.4: own units oppose


def test_rule_3_3_and_3_4_a_head_to_head_bounce_is_opposed_and_attacked() -> None:
    out = run({"AUSTRIA": ["A TRI"], "ITALY": ["A VEN"]},
              {"AUSTRIA": ["A Tri - Ven"], "ITALY": ["A Ven - Tri"]})
    assert own(out, "AUSTRIA") == ["A Tri*-Ven [opp; att]"]
    assert own(out, "ITALY") == ["A Ven*-Tri [opp; att]"]


def test_rule_3_3_a_convoy_that_fails_attacks_nobody() -> None:
    units = {"ENGLAND": ["A LON", "F NTH"], "FRANCE": ["A BEL"], "GERMANY": ["F HEL", "F DEN"]}
    convoy = {"ENGLAND": ["A Lon - Bel", "F Nth C A Lon - Bel"], "FRANCE": ["A Bel H"]}
    out = run(units, convoy)
    assert own(out, "FRANCE") == ["A Bel* H [att]"]
    broken = {**convoy, "GERMANY": ["F Hel - Nth", "F Den S F Hel - Nth"]}
    out = run(units, broken)
    assert own(out, "FRANCE") == ["A Bel* H"]
    assert own(out, "ENGLAND") == ["A Lon*-Bel [opp]", "F Nth C A Lon-Bel [att; dislodged]"]


def test_rule_3_4_a_convoyed_swap_is_no_opposition_but_a_failed_leaver_is() -> None:
    units = {"FRANCE": ["A BEL", "F ENG"], "GERMANY": ["A PIC"]}
    swap = {"FRANCE": ["A Bel - Pic via convoy", "F Eng C A Bel - Pic"], "GERMANY": ["A Pic - Bel"]}
    out = run(units, swap)
    assert own(out, "GERMANY") == ["A Pic-Bel*"]
    assert own(out, "FRANCE") == ["A Bel-Pic*", "F Eng* C A Bel-Pic"]
    # The same swap by land: the two armies oppose each other and both stay.
    out = run(units, {"FRANCE": ["A Bel - Pic"], "GERMANY": ["A Pic - Bel"]})
    assert own(out, "GERMANY") == ["A Pic*-Bel [opp; att]"]
    # A unit that tries to leave and fails opposes (Italy's F Ion in the sample's Fall).


def test_rule_3_4_in_the_sample(sample) -> None:
    out = sample["F1901M"]
    assert own(out, "ITALY") == ["A Tyo*-Mun [opp]", "F Tyh-Tun*", "F Ion*-Aeg [opp]"]
    assert own(out, "GERMANY") == ["A Mun-Ber*", "F Hol*-Bel [opp]", "F Bal-Den*"]


def test_rule_3_5_and_3_6_dislodgement_and_retreats() -> None:
    units = {"AUSTRIA": ["A TRI", "A BUD", "A SER", "A GAL"], "ITALY": ["A VEN", "A TYR"],
             "RUSSIA": ["A RUM"]}
    orders = {"ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"], "AUSTRIA": ["A Tri H"]}
    out = run(units, orders)
    assert own(out, "AUSTRIA")[0] == "A Tri H [att; dislodged]"
    assert power_view(out, "AUSTRIA").results["AUSTRIA"][0].result == FAILS
    # Not where it might go, nor whether it may go anywhere: the next position shows no
    # attacker's origin, no standoffs and no foreign unit.
    known = power_view(out, "AUSTRIA").next
    assert [d.attacker_from for d in known.dislodged] == [None]
    assert {u.power for u in known.units.values()} == {"AUSTRIA"}
    retreat = position_to_json(out.next, "datc")
    assert retreat["phase"] == "S1901R"
    for dest in ("Bud", "Ven", "Tyo", "Ser"):  # occupied (own), the attacker's, foreign, own
        retreat["orders"] = {"AUSTRIA": [f"A Tri R {dest}"]}
        position, given, rules = position_from_json(retreat)
        # accepted when given, so that no one learns what stands there...
        assert check_orders(position, given, rules)["AUSTRIA"][0].ok
        step = adjudicate(position, given, rules)
        view = power_view(step, "AUSTRIA").results["AUSTRIA"]
        assert [(r.canonical, r.result) for r in view] == [(f"A Tri [r-{dest}]", FAILS)]
        assert view[0].reason == "the retreat fails, so the unit is disbanded"  # not why
        assert step.next.unit_at(load_map(KP).loc("TRI")).power == "ITALY"
    # Two units retreating to one place are both disbanded.
    units2 = {"AUSTRIA": ["A TRI", "A BUD"], "ITALY": ["A VEN", "A TYR"], "RUSSIA": ["A RUM",
              "A GAL"], "TURKEY": ["A SER", "A BUL"]}
    orders2 = {"ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"],
               "TURKEY": ["A Ser - Bud", "A Bul S A Ser - Bud"], "RUSSIA": ["A Rum S A Ser - Bud"]}
    out2 = run(units2, orders2)
    retreat2 = position_to_json(out2.next, "datc")
    retreat2["orders"] = {"AUSTRIA": ["A Tri R Vie", "A Bud R Vie"]}
    position, given, rules = position_from_json(retreat2)
    step = adjudicate(position, given, rules)
    assert own(step, "AUSTRIA") == ["A Bud [r-Vie]", "A Tri [r-Vie]"]
    # A retreat to an open place succeeds.
    retreat["orders"] = {"AUSTRIA": ["A Tri R Vie"]}
    position, given, rules = position_from_json(retreat)
    assert own(adjudicate(position, given, rules), "AUSTRIA") == ["A Tri [r-Vie*]"]
    # An unordered retreat disbands the unit.
    retreat["orders"] = {}
    position, given, rules = position_from_json(retreat)
    assert own(adjudicate(position, given, rules), "AUSTRIA") == ["A Tri [d]"]


# England convoys A Pic into Belgium and dislodges the German army there (the issue 32 case).
CONVOYED_UNITS = {"ENGLAND": ["A PIC", "F ENG", "F NTH"], "GERMANY": ["A BEL"]}
CONVOYED_ORDERS = {"ENGLAND": ["A Pic - Bel via convoy", "F Eng C A Pic - Bel",
                               "F Nth S A Pic - Bel"]}


def test_krieg_3_6_retreat_to_the_space_a_convoyed_attacker_came_from_is_disbanded() -> None:
    # "If you attempt to retreat to [...] the space your attacker came from [...] your unit is
    # disbanded": no exception for a convoyed attacker, whatever the edition says (DATC 4.A.5).
    m = load_map(KP)
    for edition in ("datc", "2023", "alexander", "1971"):
        out = run(CONVOYED_UNITS, CONVOYED_ORDERS, rules=edition)
        assert [(format_unit(m, d.unit), d.attacker_from) for d in out.next.dislodged] == [
            ("A BEL", m.province_of(m.loc("PIC")))]
        retreat = position_to_json(out.next, edition)
        assert retreat["dislodged"] == {"GERMANY": [{"unit": "A BEL", "attacker_from": "PIC"}]}
        retreat["orders"] = {"GERMANY": ["A Bel R Pic"]}
        position, given, rules = position_from_json(retreat)
        assert check_orders(position, given, rules)["GERMANY"][0].ok  # legal: it fails
        step = adjudicate(position, given, rules)
        assert own(step, "GERMANY") == ["A Bel [r-Pic]"]
        assert power_view(step, "GERMANY").results["GERMANY"][0].result == FAILS
        assert not step.next.units_of("GERMANY")
        assert step.next.unit_at(m.loc("PIC")) is None
        # The open places around Belgium are still open.
        retreat["orders"] = {"GERMANY": ["A Bel R Bur"]}
        position, given, rules = position_from_json(retreat)
        assert own(adjudicate(position, given, rules), "GERMANY") == ["A Bel [r-Bur*]"]


def test_krieg_3_6_retreat_to_the_space_a_convoyed_attacker_came_from_through_the_cli(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spring = tmp_path / "spring.json"
    spring.write_text(json.dumps(doc(CONVOYED_UNITS, CONVOYED_ORDERS)))
    assert main(["adjudicate", str(spring), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    retreat = out["next"]
    assert retreat["dislodged"] == {"GERMANY": [{"unit": "A BEL", "attacker_from": "PIC"}]}
    retreat["orders"] = {"GERMANY": ["A Bel R Pic"]}
    path = tmp_path / "retreat.json"
    path.write_text(json.dumps(retreat))
    assert main(["adjudicate", str(path), "--as", "Germany"]) == 0
    text = capsys.readouterr().out
    assert "A Bel [r-Pic]  " in text and "[r-Pic*]" not in text
    assert "Your units (0): none" in text
    assert main(["adjudicate", str(path), "--json"]) == 0
    judged = json.loads(capsys.readouterr().out)
    assert [(r["canonical"], r["result"]) for r in judged["results"]["GERMANY"]] == [
        ("A BEL R PIC", "fails")]
    assert "GERMANY" not in judged["next"]["units"]


def test_rule_3_6_a_retreat_to_a_place_out_of_reach_is_still_invalid() -> None:
    out = run({"AUSTRIA": ["A TRI"], "ITALY": ["A VEN", "A TYR"]},
              {"ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"]})
    retreat = position_to_json(out.next, "datc")
    retreat["orders"] = {"AUSTRIA": ["A Tri R Mos"]}
    position, given, rules = position_from_json(retreat)
    assert "not next to the unit" in check_orders(position, given, rules)["AUSTRIA"][0].problem


def test_rule_4_2_foreign_support_is_not_told() -> None:
    units = {"AUSTRIA": ["A BUD"], "RUSSIA": ["A RUM"]}
    alone = run(units, {"AUSTRIA": ["A Bud - Ser"]})
    helped = run(units, {"AUSTRIA": ["A Bud - Ser"], "RUSSIA": ["A Rum S A Bud - Ser"]})
    assert view_text(alone, "AUSTRIA") == view_text(helped, "AUSTRIA")


def test_rule_4_3_a_support_for_a_unit_that_does_not_exist_is_accepted_silently() -> None:
    orders = {"AUSTRIA": ["A Vie S A Tyr - Boh"], "ITALY": ["A Tyr - Boh"]}
    there = run({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]}, orders)
    nobody = run({"AUSTRIA": ["A VIE"], "ITALY": ["A VEN"]}, {"AUSTRIA": orders["AUSTRIA"]})
    assert own(there, "AUSTRIA") == ["A Vie* S A Tyo-Boh"]
    assert view_text(there, "AUSTRIA") == view_text(nobody, "AUSTRIA")
    assert there.results["AUSTRIA"][0].result == SUCCEEDS
    assert nobody.results["AUSTRIA"][0].reason.startswith("void")  # the gamemaster knows


def test_rule_4_4_an_attack_is_told_but_not_whether_it_cut_the_support() -> None:
    units = {"AUSTRIA": ["A GAL"], "RUSSIA": ["A UKR"], "TURKEY": ["A RUM"], "GERMANY": ["A SIL"]}
    base = {"AUSTRIA": ["A Gal S A Ukr - Rum"], "RUSSIA": ["A Ukr - Rum"]}
    from_target = run(units, {**base, "TURKEY": ["A Rum - Gal"]})
    from_elsewhere = run(units, {**base, "GERMANY": ["A Sil - Gal"]})
    assert from_target.results["AUSTRIA"][0].result == SUCCEEDS  # not cut (from Rumania)
    assert from_elsewhere.results["AUSTRIA"][0].result == FAILS  # cut
    assert own(from_target, "AUSTRIA") == ["A Gal* S A Ukr-Rum [att]"]
    assert view_text(from_target, "AUSTRIA") == view_text(from_elsewhere, "AUSTRIA")
    assert power_view(from_target, "AUSTRIA").results["AUSTRIA"][0].result == UNKNOWN


def test_rule_4_1_an_occupied_home_centre_is_not_told_until_winter() -> None:
    units = {"AUSTRIA": ["A TRI"], "ITALY": ["A VEN"]}
    centers = {"AUSTRIA": ["TRI", "VIE", "BUD"], "ITALY": ["VEN"]}
    taken = run(units, {"AUSTRIA": ["A Tri - Alb"], "ITALY": ["A Ven - Tri"]}, centers=centers,
                phase="F1901M")
    kept = run(units, {"AUSTRIA": ["A Tri - Alb"], "ITALY": ["A Ven H"]}, centers=centers,
               phase="F1901M")
    assert view_text(taken, "AUSTRIA") == view_text(kept, "AUSTRIA")

    # The Fall retreat step then tells Austria which centres it has.
    def centres(out: PhaseOutcome) -> tuple[str, ...]:
        position, _, rules = position_from_json(position_to_json(out.next, "datc"))
        return power_view(adjudicate(position, {}, rules), "AUSTRIA").notes[0].lines

    assert centres(taken) == ("Bud, Vie",)
    assert centres(kept) == ("Bud, Tri, Vie",)


# -- rules 5 to 7: espionage and counter-espionage -------------------------------------------------


def test_rule_5_notation() -> None:
    m = load_map(KP)
    variant = find_variant(KP)
    position = position_from_json(doc({"RUSSIA": ["F NWY", "A MOS"]}))[0]
    for text, cls in (("F Nwy CE", CounterEspionage), ("Russia: F Nor counter-espionage",
                      CounterEspionage), ("A Mos E", Espionage), ("Mos espionage", Espionage),
                      ("f nwy ce", CounterEspionage), ("A Mos spy", Espionage)):
        parsed = variant.notation.parse_order(m, text, phase_kind="M", position=position,
                                              power="RUSSIA")
        assert type(parsed.order) is cls, text
        assert variant.notation.format_order(position, parsed.order) in ("F NWY CE", "A MOS E")
    with pytest.raises(CalhamerError, match="by itself"):
        variant.notation.parse_order(m, "A Mos - Ukr E", phase_kind="M", position=position,
                                     power="RUSSIA")
    out = run({"RUSSIA": ["F NWY"]}, {"RUSSIA": ["F Nwy - Edi E"]})
    assert out.results["RUSSIA"][0].result == INVALID
    assert '"E" is out of place' in out.results["RUSSIA"][0].reason


def test_rule_5_1_and_5_2_an_attack_cuts_spying_even_a_supported_spy() -> None:
    units = {"AUSTRIA": ["A VIE", "A BUD"], "ITALY": ["A TYR", "A VEN"], "RUSSIA": ["A GAL"]}
    calm = run(units, {"AUSTRIA": ["A Vie E", "A Bud S A Vie"], "ITALY": ["A Ven - Tri"]})
    assert "Ita A ???-Tri*" in spied(calm, "AUSTRIA")
    hit = run(units, {"AUSTRIA": ["A Vie E", "A Bud S A Vie"],
                      "ITALY": ["A Tyr - Vie", "A Ven - Tri"]})
    assert own(hit, "AUSTRIA") == ["A Vie* E [att]", "A Bud* S A Vie"]
    assert power_view(hit, "AUSTRIA").notes == ()
    assert power_view(hit, "AUSTRIA").results["AUSTRIA"][0].result == FAILS
    # An own unit moving in is no attack (rule 3.3): the spying goes on.
    own_move = run(units, {"AUSTRIA": ["A Vie E", "A Bud - Vie"], "ITALY": ["A Ven - Tri"]})
    assert "Ita A ???-Tri*" in spied(own_move, "AUSTRIA")


def test_rule_5_3_range_is_where_the_unit_could_support_into() -> None:
    m = load_map(KP)
    codes = lambda unit: {m.provinces[p].code for p in spy_range(m, unit)}  # noqa: E731
    position = position_from_json(doc({"GERMANY": ["F SPA/SC", "F GAS", "A BUR"]}))[0]
    units = {format_unit(m, u): u for u in position.units.values()}
    assert codes(units["F SPA/SC"]) == {"SPA", "LYO", "MAO", "MAR", "POR", "WES"}
    assert "GAS" not in codes(units["F SPA/SC"])  # F Spa(SC) could not spy on Gas...
    assert "SPA" in codes(units["F GAS"])  # ...but F Gas could spy on Spa(SC)
    assert not any(m.is_sea(p) for p in spy_range(m, units["A BUR"]))  # armies: no seas
    fleet = position_from_json(doc({"FRANCE": ["F PIC"]}))[0].units
    (pic,) = fleet.values()
    assert codes(pic) == {"PIC", "BEL", "BRE", "ENG"}  # fleets: no inland provinces


# The example of rule 6.1: "Ger F Spa(SC) E might learn ...".
EXAMPLE_61_UNITS = {
    "GERMANY": ["F SPA/SC", "A MAR"], "ITALY": ["F TYS", "A TYR"], "ENGLAND": ["F WES", "F NAF"],
    "FRANCE": ["F MAO", "A BRE", "F LYO", "A PIE"],
}
EXAMPLE_61_ORDERS = {
    "GERMANY": ["F Spa(SC) E", "A Mar S A Tyr - Pie"],
    "ITALY": ["F Tys - Wes", "A Tyr - Pie"],
    "ENGLAND": ["F Wes - Mao", "F Naf S F Wes - Mao"],
    "FRANCE": ["F Mao - Bre", "A Bre H", "F Lyo C A Pie - Tus", "A Pie - Tus via convoy"],
}


def test_rule_6_1_the_sources_example() -> None:
    out = run(EXAMPLE_61_UNITS, EXAMPLE_61_ORDERS,
              centers={"GERMANY": ["SPA", "POR"], "FRANCE": ["MAR", "BRE"]})
    # The source's list, with "Fre" for its one "Fra", a star on the German army that stayed
    # in Marseilles (as on "Fre F Lyo*"), and the French fleet's retreat (its "[r-???*]")
    # told only once the retreats are in: until then it is "[dislodged]".
    assert spied(out, "GERMANY") == {
        "Spa = Ger", "Por = Ger", "Mar = Fre",
        "Ita F ???-Wmd*", "Eng F Wmd-Mid*", "Eng F ??? S Eng F Wmd-Mid",
        "Ger A Mar* S Ita A ???-???", "Fre F Mid-??? [dislodged]", "Fre F Lyo* C Fre A ???-???",
    }
    retreat = position_to_json(out.next, "datc")
    retreat["orders"] = {"FRANCE": ["F Mao R Nao"]}
    position, given, rules = position_from_json(retreat)
    step = adjudicate(position, given, rules)
    assert spied(step, "GERMANY") == {"Fre F Mid [r-???*]"}
    assert own(step, "FRANCE") == ["F Mid [r-Nat*]"]
    # A retreat that fails, in range.
    retreat["orders"] = {"FRANCE": ["F Mao R Spa/NC"]}
    position, given, rules = position_from_json(retreat)
    assert spied(adjudicate(position, given, rules), "GERMANY") == {"Fre F Mid [r-Spa(NC)]"}
    # Nobody else spied, so nobody else hears of the retreat.
    assert spied(step, "ITALY") == set() and own(step, "ITALY") == []


def test_rule_6_1_moves_through_the_range_show_as_the_convoy() -> None:
    out = run({"FRANCE": ["A PIE", "F LYO"], "GERMANY": ["F SPA/SC"]},
              {"FRANCE": ["A Pie - Tus via convoy", "F Lyo C A Pie - Tus"],
               "GERMANY": ["F Spa/SC E"]})
    assert spied_orders(out, "GERMANY") == {"Fre F Lyo* C Fre A ???-???"}


def test_rule_6_2_supports_of_orders_not_given_are_marked_nso() -> None:
    units = {"ENGLAND": ["F WES"], "ITALY": ["F TYS"], "GERMANY": ["F SPA/SC"]}
    out = run(units, {"ENGLAND": ["F Wes S F Tys - Lyo"], "ITALY": ["F Tys H"],
                      "GERMANY": ["F Spa/SC E"]})
    assert spied_orders(out, "GERMANY") == {"Eng F Wmd* S Ita F ???-Lyo [nso]"}
    out = run(units, {"ENGLAND": ["F Wes S F Tys - Lyo"], "ITALY": ["F Tys - Lyo"],
                      "GERMANY": ["F Spa/SC E"]})
    assert spied_orders(out, "GERMANY") == {"Eng F Wmd* S Ita F ???-Lyo", "Ita F ???-Lyo*"}
    # A support of a unit that does not exist: its power cannot be told either.
    out = run({"ENGLAND": ["F WES"], "GERMANY": ["F SPA/SC"]},
              {"ENGLAND": ["F Wes S F Tys - Lyo"], "GERMANY": ["F Spa/SC E"]})
    assert spied_orders(out, "GERMANY") == {"Eng F Wmd* S ??? F ???-Lyo [nso]"}


def test_rule_6_3_a_cut_support_from_out_of_range_is_not_revealed() -> None:
    units = {"ENGLAND": ["F WES", "F NAF"], "ITALY": ["F TUN"], "GERMANY": ["F SPA/SC"]}
    base = {"ENGLAND": ["F Wes - Mao", "F Naf S F Wes - Mao"], "GERMANY": ["F Spa/SC E"]}
    uncut = run(units, base)
    assert spied_orders(uncut, "GERMANY") == {"Eng F Wmd-Mid*", "Eng F ??? S Eng F Wmd-Mid"}
    cut = run(units, {**base, "ITALY": ["F Tun - Naf"]})
    assert spied_orders(cut, "GERMANY") == {"Eng F Wmd-Mid*"}
    # ...but a cut support from inside the range is seen (and so is the attack on it).
    units2 = {"FRANCE": ["A GAS", "A BUR"], "ENGLAND": ["A BRE"], "GERMANY": ["A MAR"]}
    out = run(units2, {"FRANCE": ["A Gas S A Bur - Par", "A Bur - Par"],
                       "ENGLAND": ["A Bre - Gas"], "GERMANY": ["A Mar E"]})
    assert out.results["FRANCE"][0].result == FAILS
    assert spied_orders(out, "GERMANY") == {
        "Fre A Gas* S Fre A Bur-???", "Eng A ???-Gas", "Fre A Bur-???",
    }


def test_rule_6_4_ownership_in_range_including_the_spys_own_place() -> None:
    centers = {"GERMANY": ["MUN", "BER"], "FRANCE": ["PAR"], "AUSTRIA": ["VIE"]}
    out = run({"GERMANY": ["A MUN"]}, {"GERMANY": ["A Mun E"]}, centers=centers, phase="F1901M")
    seen = spied(out, "GERMANY")
    assert {"Mun = Ger", "Ber = Ger", "Kie = unowned"} <= seen
    assert not any(line.startswith(("Par", "Vie")) for line in seen)  # out of range
    # In Fall the ownership is last winter's: a unit that just arrived is seen moving there.
    out = run({"GERMANY": ["A MUN"], "RUSSIA": ["A PRU"]},
              {"GERMANY": ["A Mun E"], "RUSSIA": ["A Pru - Ber"]}, centers=centers, phase="F1901M")
    assert {"Ber = Ger", "Rus A ???-Ber*"} <= spied(out, "GERMANY")


def test_rule_7_counter_espionage_examples_of_7_3() -> None:
    units = {"FRANCE": ["A BUR", "A MUN"], "GERMANY": ["A RUH", "A HOL", "A BEL"]}
    centers = {"GERMANY": ["MUN", "HOL", "BEL"], "FRANCE": ["PAR", "MAR"]}
    # 1. "the French piece learns nothing, but he knows a CE is in effect because he does not
    #    find out the ownership of Mun and Bel."
    out = run(units, {"FRANCE": ["A Bur E"], "GERMANY": ["A Ruh CE", "A Hol - Bel", "A Bel - Pic"]},
              centers=centers)
    seen = spied(out, "FRANCE")
    assert not any(line.startswith(("Mun", "Bel")) for line in seen)
    # 2. "France learns 'Ger A ???-Pic'" (the army got there, so it has its star).
    assert "Ger A ???-Pic*" in seen
    assert not any("Hol" in line or "Ruh" in line for line in seen)
    # 3. The CE is cut: France learns the Dutch army's move, the CE and its own attack, and the
    #    ownership of Mun and Bel. (The source writes "Ger A Hol-Bel", but Holland is not in
    #    Burgundy's range: rule 6.1 makes it "???".)
    out = run(units, {"FRANCE": ["A Bur E", "A Mun - Ruh"],
                      "GERMANY": ["A Ruh CE", "A Hol - Bel", "A Bel H"]}, centers=centers)
    seen = spied(out, "FRANCE")
    assert {"Ger A ???-Bel", "Ger A Ruh* CE", "Fre A Mun*-Ruh", "Mun = Ger", "Bel = Ger"} <= seen
    assert own(out, "GERMANY")[0] == "A Ruh* CE [att]"


def test_rule_7_1_a_cut_ce_is_revealed_only_when_every_ce_over_it_is_cut() -> None:
    units = {"FRANCE": ["A BUR", "A PIC"], "GERMANY": ["A RUH", "A KIE"], "ENGLAND": ["A HOL"]}
    orders = {"FRANCE": ["A Bur E", "A Pic - Bel"], "GERMANY": ["A Ruh CE"],
              "ENGLAND": ["A Hol - Ruh"]}
    out = run(units, orders)
    assert "Ger A Ruh* CE" in spied(out, "FRANCE")
    # A second, uncut CE of any other power over Ruhr still hides it (and Belgium, and...).
    out = run({**units, "ITALY": ["A MUN"]}, {**orders, "ITALY": ["A Mun CE"]})
    assert not any("Ruh" in line or "Mun" in line for line in spied(out, "FRANCE"))


def test_rule_7_2_ce_never_hides_from_its_own_power_and_always_from_allies() -> None:
    units = {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A KIE", "A BEL"]}
    out = run(units, {"FRANCE": ["A Bur E", "A Ruh CE"], "GERMANY": ["A Bel - Hol"]})
    assert "Ger A Bel-???" in spied(out, "FRANCE")
    units = {"FRANCE": ["A BUR"], "GERMANY": ["A RUH", "A BEL"]}
    out = run(units, {"FRANCE": ["A Bur E"], "GERMANY": ["A Ruh CE", "A Bel - Hol"]})
    assert spied(out, "FRANCE") <= {"Gas = unowned", "Mar = unowned", "Par = unowned"}


def test_espionage_sees_other_espionage_in_range() -> None:
    out = run({"AUSTRIA": ["A VIE"], "GERMANY": ["A MUN"], "ITALY": ["A TYR"]},
              {"AUSTRIA": ["A Vie E"], "GERMANY": ["A Mun E"], "ITALY": ["A Tyr E"]})
    assert "Ita A Tyo* E" in spied(out, "AUSTRIA")
    assert "Ita A Tyo* E" in spied(out, "GERMANY")
    assert not any("Ger" in line for line in spied(out, "AUSTRIA"))


# -- no leaks ------------------------------------------------------------------------------------
#
# Each case is a pair of worlds that differ only in facts the rules do not grant one power
# (the "viewer"), with the viewer's own orders alike. Every output that power can be shown
# (its view as text and as JSON, the phase document's "views", the command line's --as) must
# be the same in both worlds, or a hidden fact leaks.

START = {
    "AUSTRIA": ["A BUD", "A TRI", "A VIE"], "ENGLAND": ["F EDI", "F LON", "A LVP"],
    "FRANCE": ["F BRE", "A MAR", "A PAR"], "GERMANY": ["F KIE", "A BER", "A MUN"],
    "ITALY": ["F NAP", "A ROM", "A VEN"], "RUSSIA": ["A MOS", "F SEV", "F STP/SC", "A WAR"],
    "TURKEY": ["F ANK", "A CON", "A SMY"],
}
BUSY = {
    "ENGLAND": ["F Edi - Nth", "F Lon - Eng", "A Lvp - Yor"],
    "FRANCE": ["F Bre - Mao", "A Mar - Spa", "A Par - Bur"],
    "GERMANY": ["F Kie - Den", "A Ber - Kie", "A Mun - Ruh"],
    "ITALY": ["F Nap - Ion", "A Rom - Apu", "A Ven H"],
    "RUSSIA": ["A Mos - Ukr", "F Sev - Bla", "F StP/SC - Bot", "A War - Gal"],
    "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}

LEAK_CASES = {
    # Nothing of the other powers' units or orders reaches a power that neither spies nor is
    # attacked nor opposed.
    "foreign units and orders": (
        "AUSTRIA",
        (START, {**BUSY, "AUSTRIA": ["A Bud - Ser", "A Tri H", "A Vie H"]}),
        ({"AUSTRIA": START["AUSTRIA"]}, {"AUSTRIA": ["A Bud - Ser", "A Tri H", "A Vie H"]}),
    ),
    # 4.2: a foreign support it received.
    "foreign support": (
        "AUSTRIA",
        ({"AUSTRIA": ["A BUD"], "RUSSIA": ["A RUM"]},
         {"AUSTRIA": ["A Bud - Ser"], "RUSSIA": ["A Rum S A Bud - Ser"]}),
        ({"AUSTRIA": ["A BUD"], "RUSSIA": ["A RUM"]}, {"AUSTRIA": ["A Bud - Ser"]}),
    ),
    # 4.3: whether the foreign unit it supports exists, or was ordered as supported.
    "supported unit missing": (
        "AUSTRIA",
        ({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]},
         {"AUSTRIA": ["A Vie S A Tyr - Boh"], "ITALY": ["A Tyr - Boh"]}),
        ({"AUSTRIA": ["A VIE"]}, {"AUSTRIA": ["A Vie S A Tyr - Boh"]}),
    ),
    "supported unit ordered otherwise": (
        "AUSTRIA",
        ({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]},
         {"AUSTRIA": ["A Vie S A Tyr - Boh"], "ITALY": ["A Tyr - Boh"]}),
        ({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]},
         {"AUSTRIA": ["A Vie S A Tyr - Boh"], "ITALY": ["A Tyr - Mun"]}),
    ),
    # 4.4: whether the attack on its supporter came from where the support went.
    "which attack": (
        "AUSTRIA",
        ({"AUSTRIA": ["A GAL"], "RUSSIA": ["A UKR"], "TURKEY": ["A RUM"]},
         {"AUSTRIA": ["A Gal S A Ukr - Rum"], "RUSSIA": ["A Ukr - Rum"],
          "TURKEY": ["A Rum - Gal"]}),
        ({"AUSTRIA": ["A GAL"], "RUSSIA": ["A UKR"], "GERMANY": ["A SIL"]},
         {"AUSTRIA": ["A Gal S A Ukr - Rum"], "RUSSIA": ["A Ukr - Rum"],
          "GERMANY": ["A Sil - Gal"]}),
    ),
    # 3.3: by whom, from where, by how many it is attacked.
    "how many attackers": (
        "AUSTRIA",
        ({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"], "RUSSIA": ["A GAL"], "GERMANY": ["A BOH"]},
         {"ITALY": ["A Tyr - Vie"], "RUSSIA": ["A Gal - Vie"], "GERMANY": ["A Boh - Vie"]}),
        ({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]}, {"ITALY": ["A Tyr - Vie"]}),
    ),
    # 3.4: by whom its move was opposed.
    "who opposed": (
        "RUSSIA",
        ({"RUSSIA": ["F SEV"], "TURKEY": ["F ANK"]},
         {"RUSSIA": ["F Sev - Bla"], "TURKEY": ["F Ank - Bla"]}),
        ({"RUSSIA": ["F SEV"], "TURKEY": ["F ANK"], "AUSTRIA": ["F RUM"]},
         {"RUSSIA": ["F Sev - Bla"], "AUSTRIA": ["F Rum - Bla"]}),
    ),
    # 7: what counter-espionage hides; 6.3: a cut support from out of range.
    "behind a ce": (
        "FRANCE",
        ({"FRANCE": ["A BUR"], "GERMANY": ["A RUH", "A HOL", "A KIE"]},
         {"FRANCE": ["A Bur E"], "GERMANY": ["A Ruh CE", "A Hol - Bel", "A Kie - Mun"]}),
        ({"FRANCE": ["A BUR"], "GERMANY": ["A RUH"]},
         {"FRANCE": ["A Bur E"], "GERMANY": ["A Ruh CE"]}),
    ),
    "cut support out of range": (
        "GERMANY",
        ({"ENGLAND": ["F WES", "F NAF"], "ITALY": ["F TUN"], "GERMANY": ["F SPA/SC"]},
         {"ENGLAND": ["F Wes - Mao", "F Naf S F Wes - Mao"], "ITALY": ["F Tun - Naf"],
          "GERMANY": ["F Spa/SC E"]}),
        ({"ENGLAND": ["F WES"], "GERMANY": ["F SPA/SC"]},
         {"ENGLAND": ["F Wes - Mao"], "GERMANY": ["F Spa/SC E"]}),
    ),
    # The staged release: someone else's dislodgement changes nothing for a bystander.
    "someone else dislodged": (
        "ENGLAND",
        ({"ENGLAND": ["F LON"], "ITALY": ["A VEN", "A TYR"], "AUSTRIA": ["A TRI"]},
         {"ENGLAND": ["F Lon - Nth"], "ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"]}),
        ({"ENGLAND": ["F LON"]}, {"ENGLAND": ["F Lon - Nth"]}),
    ),
}


def _outputs(tmp_path: Path, capsys, name: str, units, orders, viewer: str) -> list[str]:
    """Everything ``viewer`` can be shown about a phase, by every route."""
    out = run(units, orders)
    full = outcome_to_json(out, "datc")
    texts = [view_text(out, viewer), json.dumps(full["views"][viewer], sort_keys=True)]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc(units, orders)))
    for extra in ([], ["--json"]):
        assert main(["adjudicate", str(path), "--as", viewer.title(), *extra]) == 0
        texts.append(capsys.readouterr().out)
    # The retreat step that follows, with every dislodged unit retreating where it may.
    step = position_to_json(out.next, "datc")
    position, _, rules = position_from_json(step)
    after = adjudicate(position, {}, rules)
    texts.append(view_text(after, viewer))
    texts.append(after.next.phase.code)
    return texts


@pytest.mark.parametrize("case", list(LEAK_CASES))
def test_no_output_tells_a_power_what_the_rules_hide(case, tmp_path, capsys) -> None:
    viewer, (units_a, orders_a), (units_b, orders_b) = LEAK_CASES[case]
    a = _outputs(tmp_path, capsys, "a", units_a, orders_a, viewer)
    b = _outputs(tmp_path, capsys, "b", units_b, orders_b, viewer)
    assert a == b


def test_the_leak_test_can_fail() -> None:
    """The comparison above notices a difference the rules do grant (an attack)."""
    calm = run({"AUSTRIA": ["A VIE"]}, {})
    hit = run({"AUSTRIA": ["A VIE"], "ITALY": ["A TYR"]}, {"ITALY": ["A Tyr - Vie"]})
    assert view_text(calm, "AUSTRIA") != view_text(hit, "AUSTRIA")


@pytest.mark.parametrize(
    ("line", "worlds"),
    [
        # an order for a unit it does not have: foreign, or none at all
        ("A Mun - Boh", [{"GERMANY": ["A MUN"]}, {"GERMANY": ["F KIE"]}, {}]),
        ("F Tri - Adr", [{"ITALY": ["F TRI"]}, {}]),
        # a support's omitted unit type is never read from a foreign unit
        ("A Vie S Tri H", [{"ITALY": ["F TRI"]}, {"ITALY": ["A TRI"]}, {}]),
        ("A Vie S Tri - Ven", [{"ITALY": ["F TRI"]}, {}]),
        # a convoy needs fleets the army's power cannot see: accepted whatever stands at sea
        ("A Alb - Apu", [{"ITALY": ["F ADR"]}, {}]),
        # orders about foreign units are read as they are written
        ("A Vie S A Boh - Mun", [{"GERMANY": ["A BOH"]}, {"GERMANY": ["F KIE"]}, {}]),
    ],
)
def test_validation_never_reveals_foreign_units(line, worlds, tmp_path, capsys) -> None:
    seen = []
    for world in worlds:
        units = {"AUSTRIA": ["A VIE", "A ALB"], **world}
        position, _, rules = position_from_json(doc(units))
        check = check_orders(position, {"AUSTRIA": [line]}, rules)["AUSTRIA"][0]
        # the same through a game file and the command line
        path = tmp_path / "game.json"
        record = {"phase": position.phase.code, "position": position_to_json(position, "datc"),
                  "orders": {}, "results": None}
        path.write_text(json.dumps({"format": FORMAT, "variant": KP, "rules": "datc",
                                    "phases": [record]}))
        orders = tmp_path / "orders.txt"
        orders.write_text(line + "\n")
        main(["game", "orders", str(path), "Austria", str(orders)])
        printed = capsys.readouterr()
        seen.append((check.canonical, check.problem, printed.out, printed.err))
    assert all(s == seen[0] for s in seen), seen


def test_retreat_orders_for_foreign_dislodged_units_tell_nothing() -> None:
    base = run({"AUSTRIA": ["A TRI"], "ITALY": ["A VEN", "A TYR"], "ENGLAND": ["F LON"]},
               {"ITALY": ["A Ven - Tri", "A Tyr S A Ven - Tri"]})
    retreat = position_to_json(base.next, "datc")
    position, _, rules = position_from_json(retreat)
    problems = {
        line: check_orders(position, {"ENGLAND": [line]}, rules)["ENGLAND"][0].problem
        for line in ("A Tri R Vie", "A Bud R Vie")  # a dislodged Austrian unit; nothing
    }
    assert problems["A Tri R Vie"].replace("Trieste (TRI)", "X") == \
        problems["A Bud R Vie"].replace("Budapest (BUD)", "X")
    assert "not yours" not in problems["A Tri R Vie"]
    assert problems["A Tri R Vie"] == "England has no dislodged unit in Trieste (TRI)"


def test_every_view_holds_only_its_own_power(sample) -> None:
    names = {p: (p, p.title(), p.title()[:3]) for p in POWERS}
    names["FRANCE"] = ("FRANCE", "France", "Fre")
    for code, out in sample.items():
        if code == "game":
            continue
        full = outcome_to_json(out, "datc")
        assert set(full["views"]) == set(POWERS)
        for power, view in full["views"].items():
            assert view["power"] == power and view["complete"] is False
            assert set(view["results"]) <= {power}
            assert set(view["next"]["units"]) <= {power}
            assert set(view["next"]["centers"]) <= {power}
            assert "extra" not in view["next"]
            spies = any("Espionage" in n["title"] for n in view.get("notes", []))
            if code.startswith("W") or spies:
                continue  # the chart names everyone; a spy may see anyone
            text = json.dumps(view) + phase_report(power_view(out, power))
            for other in POWERS:
                if other != power:
                    code_, name, abbreviation = names[other]
                    # "Eng" is also the English Channel: a power's abbreviation leads a unit
                    assert code_ not in text and name not in text, (code, power, other)
                    assert not re.search(rf"\b{abbreviation} [AF?] ", text), (code, power, other)


def test_the_gamemaster_sees_everything(sample) -> None:
    gm = gamemaster_view(sample["F1901M"])
    assert set(gm.results) == set(POWERS)
    assert {n.title for n in gm.notes} == {"Espionage: Eng F Nth* E"}
    text = phase_report(gm)
    assert "Dislodged" not in text and "Russia" in text and "Turkey" in text


def test_views_of_the_standard_game_are_the_whole_truth() -> None:
    out = adjudicate(Position.initial(), {"FRANCE": ["A Par - Bur"], "GERMANY": ["A Mun - Bur"]})
    for view in power_views(out).values():
        assert view.complete and view.results == out.results and view.next == out.next
    assert "views" not in outcome_to_json(out)
    assert "views" in outcome_to_json(out, views=True)


# -- phase documents and the command line ------------------------------------------------------


def test_the_retreat_phase_document_remembers_the_spies() -> None:
    out = run(EXAMPLE_61_UNITS, EXAMPLE_61_ORDERS)
    written = position_to_json(out.next, "datc")
    assert written["extra"] == {"spies": [{"power": "GERMANY", "unit": "F SPA/SC",
                                           "sees": ["LYO", "MAO", "MAR", "POR", "SPA", "WES"]}]}
    position, _, _ = position_from_json(written)
    assert position.extra == out.next.extra
    nxt = adjudicate(position, {}).next
    assert nxt.phase.code == "F1901M" and "extra" not in position_to_json(nxt)
    with pytest.raises(CalhamerError, match=r"extra\.spies"):
        position_from_json({**written, "extra": {"spies": [{"power": "GERMANY"}]}})


def test_cli_adjudicate_as_a_power(tmp_path, capsys) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc(EXAMPLE_61_UNITS, EXAMPLE_61_ORDERS)))
    assert main(["adjudicate", str(path), "--as", "germany"]) == 0
    text = capsys.readouterr().out
    assert "as Germany sees it" in text and "Ita F ???-Wmd*" in text
    assert "England" not in text and "Dislodged" not in text and "MAO" not in text
    assert main(["adjudicate", str(path), "--as", "Ger", "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["power"] == "GERMANY" and list(view["results"]) == ["GERMANY"]
    # the gamemaster's report has everything, and what each player is told
    assert main(["adjudicate", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Dislodged units" in text and "As the players are told it" in text
    assert main(["adjudicate", str(path), "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)["views"]) == {"ENGLAND", "FRANCE", "GERMANY",
                                                                "ITALY"}
    # one line in, one view out
    lines = tmp_path / "s.jsonl"
    lines.write_text(json.dumps(doc(EXAMPLE_61_UNITS, EXAMPLE_61_ORDERS)) + "\n")
    assert main(["adjudicate", str(lines), "--jsonl", "--as", "France"]) == 0
    assert json.loads(capsys.readouterr().out)["power"] == "FRANCE"
    assert main(["adjudicate", str(path), "--as", "Prussia"]) == 2
    assert "not a power" in capsys.readouterr().err


# -- whole games ------------------------------------------------------------------------------


def test_a_whole_game_from_the_command_line(tmp_path, capsys) -> None:
    path = str(tmp_path / "k.json")
    assert main(["game", "new", path, "--variant", "kriegsplomacy"]) == 0
    phases = [BUILDS_1900, SPRING_1901, {}, FALL_1901, {},
              {**BUILDS_1901, "GERMANY": ["Build A Kie", "Build A Mun"]}]
    for orders in phases:
        for power, lines in orders.items():
            file = tmp_path / f"{power}.txt"
            file.write_text("\n".join(lines) + "\n")
            assert main(["game", "orders", path, power, str(file)]) == 0
        assert main(["game", "process", path]) == 0
        capsys.readouterr()
        for power in POWERS:
            assert main(["game", "show", path, "--as", power]) == 0
            text = capsys.readouterr().out
            game = Game.load(path)
            mine = {format_unit(game.current.map, u) for u in game.current.units_of(power)}
            others = {format_unit(game.current.map, u) for u in game.current.units.values()
                      if u.power != power}
            for unit in mine:
                assert unit in text
            for unit in others - mine:
                assert f"{unit}," not in text and f"{unit}\n" not in text, (power, unit)
            assert "Orders received" not in text  # nobody learns how many orders others sent
    assert Game.load(path).current.phase.code == "S1902M"
    assert main(["game", "show", path, "--as", "England", "--phase", "F1901M"]) == 0
    text = capsys.readouterr().out
    assert "F Nth* E" in text and "Fre A ???-Bel" in text
    assert main(["game", "show", path]) == 0
    assert "Orders received" in capsys.readouterr().out  # the gamemaster's view


def _random_orders(position: Position, power: str, rng: random.Random) -> list[str]:
    """Plausible orders: moves, espionage, counter-espionage, holds, and supports of the
    power's own moves (so that units get dislodged and retreat)."""
    m = position.map
    lines = []
    if position.phase.is_movement:
        moves: dict[str, int] = {}
        rest = []
        for unit in position.units_of(power):
            here = m.province_of(unit.loc)
            reach = sorted(spy_range(m, unit) - {here})
            name = format_unit(m, unit)
            if rng.random() < 0.5 and reach:
                moves[name] = rng.choice(reach)
                lines.append(f"{name} - {m.provinces[moves[name]].code}")
            else:
                rest.append((name, reach))
        for name, reach in rest:
            helped = [(u, d) for u, d in moves.items() if d in reach]
            choice = rng.random()
            if helped and choice < 0.6:
                other, dest = rng.choice(helped)
                lines.append(f"{name} S {other} - {m.provinces[dest].code}")
            elif choice < 0.75:
                lines.append(f"{name} E")
            elif choice < 0.85:
                lines.append(f"{name} CE")
            else:
                lines.append(f"{name} H")
    elif position.phase.is_retreat:
        for d in position.dislodged:
            if d.unit.power == power:
                near = sorted(spy_range(m, d.unit) - {m.province_of(d.unit.loc)})
                lines.append(f"{format_unit(m, d.unit)} R {m.provinces[rng.choice(near)].code}")
    else:
        due = position.adjustments().get(power, 0)
        free = [p for p in position.centers_of(power) if p not in position.units]
        for p in free[:max(due, 0)]:
            kind = "F" if m.is_coastal(p) and rng.random() < 0.5 else "A"
            lines.append(f"Build {kind} {m.provinces[p].code}")
    return lines


def test_a_whole_game_through_the_library_each_power_sees_only_its_own() -> None:
    rng = random.Random(1)
    game = Game.new(KP)
    kinds = []
    dislodged = 0
    while game.current.phase.year < 1905:
        position = game.current
        kinds.append(position.phase.kind)
        for power in POWERS:
            game.set_orders(power, _random_orders(position, power, rng))
        out = game.process()
        dislodged += len(out.dislodged)
        views = power_views(out)
        assert list(views) == [p for p in POWERS if p in views]
        for power, view in views.items():
            assert set(view.results) <= {power}
            assert all(u.power == power for u in view.next.units.values())
            assert all(d.unit.power == power for d in view.next.dislodged)
            assert all(o == power for o in view.next.centers.values())
            assert all(d.unit.power == power for d in view.dislodged)
            for r in view.results.get(power, []):
                assert r.result in (SUCCEEDS, FAILS, INVALID, UNKNOWN)
            json.dumps(view_to_json(view))
            phase_report(view)
            # the same view from the game file, adjudicated again
            again = game_view(game, power)
            assert view_to_json(again) == view_to_json(view)
            if position.phase.is_retreat:  # each own dislodged unit's fate, no one else's
                mine = [d for d in position.dislodged if d.unit.power == power]
                assert len(view.results.get(power, [])) >= len(mine)
    assert dislodged  # the game did exercise retreats
    # every movement phase has its retreat phase, every Fall its winter
    assert "".join(kinds).replace("MR", "") .replace("A", "") == ""
    assert "".join(kinds).startswith("AMRMRA")


def test_the_validation_leak_test_can_fail() -> None:
    """In the standard game, where the board is open, the same checks do differ."""
    seen = set()
    for world in ({"ITALY": ["F TRI"]}, {}):
        units = {"AUSTRIA": ["A VIE"], **world}
        position, _, rules = position_from_json({"phase": "S1901M", "units": units})
        check = check_orders(position, {"AUSTRIA": ["A Tri - Ven"]}, rules)["AUSTRIA"][0]
        seen.add(check.problem)
    assert len(seen) == 2
