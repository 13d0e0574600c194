"""Phase handlers: a variant maps each phase kind it plays to a handler, and the resolver class
it names judges every world of a phase, the Alexander edition's nested ones included."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from calhamer import PhaseError, Position, adjudicate, possible_orders
from calhamer.formats import position_from_json
from calhamer.phases import OrdersIn
from calhamer.phases.handlers import STANDARD_PHASES, Movement, PhaseHandler
from calhamer.pieces import Phase
from calhamer.results import SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.variant import Variant
from calhamer.variants import find_variant


def test_a_purple_fleet_holds_against_red_in_the_alexander_world_too() -> None:
    # ALEX.1's position (DATC 6.F.14) in Arpiesse. Purple beats Red (rule V), so F WAL's
    # supported attack cannot dislodge the Purple F ENG: in reality, and also in the world the
    # Alexander rule IV.5.g judges the convoy in (without A BRE). The convoy stands and the
    # army lands, cutting F LON's support. Judged colour-blind in that world (2 against 1),
    # the convoy would be disrupted although its fleet is never dislodged.
    doc = {"variant": "arpiesse", "rules": "alexander", "phase": "S1901M",
           "units": {"ENGLAND": ["Red F LON", "Red F WAL"],
                     "FRANCE": ["Purple A BRE", "Purple F ENG"]},
           "orders": {"ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"],
                      "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"]}}
    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    results = {r.canonical: r.result for rs in outcome.results.values() for r in rs}
    assert results["Red F WAL - ENG"] == "fails"
    assert results["Purple F ENG C Purple A BRE - LON"] == "succeeds"
    assert results["Purple A BRE - LON"] == "succeeds"
    assert results["Red F LON S Red F WAL - ENG"] == "fails"  # dislodged by the army
    worlds = outcome.resolution.resolver.worlds  # type: ignore[union-attr]
    assert worlds and all(type(w) is position.variant.resolver_class for w in worlds.values())


class Census(PhaseHandler):
    """A made-up phase kind: every power reports, nothing moves."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        results = {p: [OrderResult(p, str(t), "COUNTED", SUCCEEDS, "counted") for t in items]
                   for p, items in orders.items()}
        after = position.replace(phase=Phase(position.phase.year, "F", "M"))
        return PhaseOutcome(position, results, after, after)

    def possible_orders(self, position, known, power, rules):  # type: ignore[no-untyped-def]
        return {known.map.loc("PAR"): []}  # listed keys with no orders are left out


class WithCensus(Variant):
    name = "with-census"
    aliases = ()
    title = "Standard with a census"
    phases = MappingProxyType({**STANDARD_PHASES, "X": Census()})


def test_a_variant_adds_a_phase_kind_through_its_handler() -> None:
    census = Position.initial(variant=WithCensus()).replace(phase=Phase(1901, "U", "X"))
    outcome = adjudicate(census, {"FRANCE": ["we are three"]})
    assert outcome.results["FRANCE"][0].reason == "counted"
    assert outcome.next.phase.code == "F1901M"
    assert possible_orders(census, "FRANCE") == {}


def test_a_phase_kind_the_variant_does_not_play_is_refused() -> None:
    summer = Position.initial().replace(phase=Phase(1901, "U", "X"))
    with pytest.raises(PhaseError, match="the Standard Diplomacy variant has no phase of kind 'X'"):
        adjudicate(summer, {})


def test_superdiplomacy_and_arpiesse_name_their_handlers() -> None:
    sd = find_variant("superdiplomacy")
    assert set(sd.phases) == {"M", "R", "A"} and sd.phases is not STANDARD_PHASES
    assert set(find_variant("arpiesse").phases) == {"M", "R", "A", "X"}
    # Kriegsplomacy plays the standard phases; its movement handler only lists espionage
    # orders besides the standard ones, and the retreat and winter handlers are the standard.
    krieg = find_variant("kriegsplomacy").phases
    assert isinstance(krieg["M"], Movement) and krieg["M"] is not STANDARD_PHASES["M"]
    assert krieg["R"] is STANDARD_PHASES["R"] and krieg["A"] is STANDARD_PHASES["A"]


def test_results_are_an_enum_written_as_words() -> None:
    import json

    from calhamer.formats import outcome_to_json
    from calhamer.results import Result

    outcome = adjudicate(Position.initial(), {"FRANCE": ["A Par - Bur", "A Mar - Nowhere"]})
    results = outcome.results["FRANCE"]
    assert [r.result for r in results[:2]] == [Result.SUCCEEDS, Result.INVALID]
    assert all(isinstance(r.result, Result) for rs in outcome.results.values() for r in rs)
    written = json.loads(json.dumps(outcome_to_json(outcome)))
    assert [r["result"] for r in written["results"]["FRANCE"][:2]] == ["succeeds", "invalid"]


class Cornered(Variant):
    """A made-up rule: a dislodged unit never has anywhere to go."""

    name = "cornered"
    aliases = ()

    def retreat_choices(self, position, entry):  # type: ignore[no-untyped-def]
        return []


def test_retreat_options_have_one_source() -> None:
    # Adjudication and possible orders both ask the variant's retreat_choices.
    fall, orders, _rules = position_from_json({
        "phase": "F1901M", "units": {"AUSTRIA": ["A SER", "A RUM"], "TURKEY": ["A BUL"]},
        "orders": {"AUSTRIA": ["A Ser - Bul", "A Rum S A Ser - Bul"]}})
    retreat = adjudicate(fall, orders).next
    assert retreat.phase.is_retreat and retreat.dislodged
    plain = adjudicate(retreat, {"TURKEY": ["A Bul R Con"]})
    assert plain.results["TURKEY"][0].result == "succeeds"
    cornered = retreat.replace(variant=Cornered())
    refused = adjudicate(cornered, {"TURKEY": ["A Bul R Con"]})
    assert refused.results["TURKEY"][0].result == "invalid"
    listed = possible_orders(cornered, "TURKEY")
    assert [type(o).__name__ for orders in listed.values() for o in orders] == ["Disband"]
