"""The collaborators a variant carries (notation, visibility, reporter, bids) and the typed
resolution: each shown used by the core through a tiny variant that overrides only that part.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pytest

from calhamer import Position, adjudicate
from calhamer.adjudicator import MovementResolver
from calhamer.bids import BidRule, Bids
from calhamer.dice import DiceRecord
from calhamer.formats import outcome_to_json, position_from_json, position_to_json
from calhamer.game import Game, GameError
from calhamer.map import ARMY, Map, load_map
from calhamer.notation import Notation, ParsedOrder
from calhamer.orders import AnyOrder, Hold, Move
from calhamer.pieces import Unit
from calhamer.render import Mask, render_svg
from calhamer.report import phase_report
from calhamer.reporter import Reporter
from calhamer.results import PhaseOutcome, Resolution
from calhamer.variant import Variant
from calhamer.variants import find_variant, register_variant
from calhamer.views import (
    STANDARD_VISIBILITY,
    PowerView,
    Visibility,
    full_view,
    power_view,
    power_views,
)

M = load_map("standard")
SPRING = {"FRANCE": ["A Par - Bur", "F Bre - Mao"], "GERMANY": ["A Mun - Bur"]}


# -- notation --------------------------------------------------------------------------------


class ShoutingNotation(Notation):
    """Orders end in "!" (read and written) and units are written with a star."""

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        return super().parse_order(m, text.rstrip().removesuffix("!"), phase_kind=phase_kind,
                                   position=position, power=power)

    def format_order(self, position: Position, order: AnyOrder) -> str:
        return super().format_order(position, order) + "!"

    def format_unit(self, m: Map, unit: Unit) -> str:
        return "*" + super().format_unit(m, unit)


class Shouting(Variant):
    name = "test-shouting"
    aliases = ()
    title = "Shouting (a test variant)"
    notation = ShoutingNotation()


def test_the_variant_notation_reads_and_writes_every_order() -> None:
    position = Position.initial(variant=Shouting())
    outcome = adjudicate(position, {"FRANCE": ["A Par - Bur!"], "GERMANY": ["A Mun - Bur"]})
    france = {r.canonical: r.result for r in outcome.results["FRANCE"]}
    # Read with the variant's reader (the "!" is not an error), written with its writer,
    # including the holds of units given no order.
    assert france["A PAR - BUR!"] == "fails"
    assert france["F BRE H!"] == "succeeds"
    assert all(r.canonical.endswith("!") for rs in outcome.results.values() for r in rs)
    # The standard notation does not take the "!".
    plain = adjudicate(Position.initial(), {"FRANCE": ["A Par - Bur!"]})
    assert plain.results["FRANCE"][0].result == "invalid"


def test_the_variant_notation_writes_units_in_documents_and_reports() -> None:
    position = Position.initial(variant=Shouting())
    assert "*A PAR" in position_to_json(position)["units"]["FRANCE"]
    assert "A PAR" in position_to_json(Position.initial())["units"]["FRANCE"]
    register_variant(Shouting)
    attack, _, _ = position_from_json({"variant": "test-shouting", "phase": "S1901M",
                                       "units": {"FRANCE": ["A PAR", "A MAR"],
                                                 "GERMANY": ["A BUR"]}})
    outcome = adjudicate(attack, {"FRANCE": ["A Par - Bur!", "A Mar S A Par - Bur!"]})
    assert "Germany: *A BUR" in phase_report(outcome)  # the dislodged units' block


# -- reporter --------------------------------------------------------------------------------


class LoudReporter(Reporter):
    def results(self, outcome: PhaseOutcome, powers: list[str] | None) -> list[str] | None:
        return ["RESULTS AS THIS VARIANT LAYS THEM OUT", ""]

    def phase_notes(self, outcome: PhaseOutcome) -> list[str]:
        return ["a note after the results", ""]

    def position_notes(self, position: Position) -> list[str]:
        return [f"a note on {position.phase.code}"]


class Loud(Variant):
    name = "test-loud"
    aliases = ()
    title = "Loud reports (a test variant)"
    reporter = LoudReporter()


def test_the_variant_reporter_lays_out_the_report() -> None:
    outcome = adjudicate(Position.initial(variant=Loud()), SPRING)
    text = phase_report(outcome)
    assert "RESULTS AS THIS VARIANT LAYS THEM OUT" in text
    assert "A PAR - BUR" not in text  # the usual blocks are replaced
    assert "a note after the results" in text
    assert "a note on F1901M" in text  # the next position's notes
    standard = phase_report(adjudicate(Position.initial(), SPRING))
    assert "A PAR - BUR" in standard and "a note" not in standard


# -- bids ------------------------------------------------------------------------------------


class HoldsOnly(BidRule):
    """A bid rule that takes only bids for holds."""

    def check(self, position: Position, power: str, bids: Bids) -> list[str]:
        return [f"{b}: only holds are taken" for b in bids
                if isinstance(b, str) and not b.rstrip().upper().endswith("H")]


class Bidding(Variant):
    name = "test-bidding"
    aliases = ()
    title = "Bidding (a test variant)"
    bids = HoldsOnly()


def test_a_game_checks_bids_with_the_variant_bid_rule() -> None:
    register_variant(Bidding)
    game = Game.new("test-bidding")
    assert game.set_bids("FRANCE", ["1 DP: A Par H"]) == []
    assert game.set_bids("FRANCE", ["1 DP: A Par - Bur"]) == [
        "1 DP: A Par - Bur: only holds are taken"]
    assert game.bids == {"FRANCE": ["1 DP: A Par - Bur"]}  # stored as given


def test_a_variant_without_a_bid_rule_takes_no_bids() -> None:
    assert Variant.bids is None and find_variant("standard").bids is None
    assert find_variant("standard-dp").bids is not None
    with pytest.raises(GameError, match="has no bids"):
        Game.new("standard").set_bids("FRANCE", ["1 DP: A Par H"])


# -- visibility ------------------------------------------------------------------------------

NOTE_KEY = "test_moved"


class HalfBlind(Visibility):
    """A power sees its own results only; the next phase remembers how many units moved."""

    hidden_information = True

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        view = full_view(outcome, power)
        if power is None:
            return view
        view.results = {p: r for p, r in view.results.items() if p == power}
        view.complete = False
        return view

    def no_unit_message(self, position: Position, power: str | None, province: int, *,
                        dislodged: bool = False) -> str:
        return "you have nothing to retreat there"

    def carried_extra(self, before: Position, after: Position,
                      resolution: Resolution | None,
                      extra: Mapping[str, object]) -> Mapping[str, object]:
        if resolution is None:
            return extra
        return MappingProxyType({**extra, NOTE_KEY: len(resolution.orders)})


class Blind(Variant):
    name = "test-blind"
    aliases = ()
    title = "Half blind (a test variant)"
    visibility = HalfBlind()


def test_the_visibility_policy_makes_each_power_view() -> None:
    outcome = adjudicate(Position.initial(variant=Blind()), SPRING)
    views = power_views(outcome)
    assert set(views["FRANCE"].results) == {"FRANCE"}
    assert set(views["ITALY"].results) == {"ITALY"}
    assert power_view(outcome, "germany").complete is False
    # Phase documents carry each power's view when the policy hides information.
    doc = outcome_to_json(outcome, "datc")
    assert set(doc["views"]["FRANCE"]["results"]) == {"FRANCE"}
    assert "views" not in outcome_to_json(adjudicate(Position.initial(), SPRING), "datc")


def test_the_visibility_policy_words_a_retreat_for_no_unit() -> None:
    doc = {"variant": "test-blind", "phase": "F1901R",
           "units": {"FRANCE": ["A BUR"]},
           "dislodged": {"GERMANY": [{"unit": "A MUN", "attacker_from": "BUR"}]}}
    register_variant(Blind)
    position, _, _ = position_from_json(doc)
    outcome = adjudicate(position, {"FRANCE": ["A Mun - Ruh"]})
    assert outcome.results["FRANCE"][0].reason == "you have nothing to retreat there"


def test_the_next_phase_remembers_what_the_policy_carries_while_adjudicating() -> None:
    before = Position.initial(variant=Blind())
    outcome = adjudicate(before, SPRING)
    # Three legal orders were resolved (the two French and the German one), and the next
    # phase knows it as soon as the outcome exists: nothing is added to it afterwards.
    assert outcome.next.extra[NOTE_KEY] == 3
    assert NOTE_KEY not in outcome.after.extra  # no dislodgement: the board after is kept
    assert NOTE_KEY not in before.extra
    # A phase with no resolution (the winter here) keeps the extra as the policy found it.
    assert STANDARD_VISIBILITY.carried_extra(before, before, None, before.extra) is before.extra


def test_an_outcome_is_not_changed_by_building_views() -> None:
    kp = find_variant("kriegsplomacy")
    position, orders, rules = position_from_json({
        "variant": "kriegsplomacy", "phase": "S1901M",
        "units": {"RUSSIA": ["F NWY", "A MOS"], "GERMANY": ["A BER"]},
        "orders": {"RUSSIA": ["A Mos E", "F Nwy H"], "GERMANY": ["A Ber H"]},
    })
    assert position.variant is kp
    outcome = adjudicate(position, orders, rules)
    spies = outcome.next.extra["spies"]  # the spy remembered for the retreat phase
    results = outcome.results  # worded on first use, then kept
    fields = dict(vars(outcome))
    views = power_views(outcome)
    assert any("Espionage" in n.title for n in views["RUSSIA"].notes)
    assert dict(vars(outcome)) == fields
    assert all(vars(outcome)[k] is v for k, v in fields.items())
    assert outcome.next.extra["spies"] is spies and outcome.results is results


def test_the_merged_hooks_are_gone_from_the_variant() -> None:
    for old in ("parse_unit", "format_unit", "parse_order", "format_order",
                "hidden_information", "known_position", "power_view", "no_unit_message",
                "finish_outcome", "report_blocks", "report_notes", "position_notes",
                "takes_bids", "check_bids"):
        assert not hasattr(Variant, old), old
    assert not hasattr(PhaseOutcome(Position.initial(), {}, Position.initial(),
                                    Position.initial()), "detail")


# -- the typed resolution --------------------------------------------------------------------


def test_a_movement_outcome_carries_its_typed_resolution() -> None:
    outcome = adjudicate(Position.initial(), SPRING)
    resolution = outcome.resolution
    assert isinstance(resolution, Resolution)
    assert isinstance(resolution.resolver, MovementResolver)
    assert resolution.dice is None
    par, mun = M.province_of(M.loc("PAR")), M.province_of(M.loc("MUN"))
    assert resolution.orders[par] == Move(ARMY, M.loc("PAR"), M.loc("BUR"))
    assert mun in resolution.orders
    assert resolution.resolver.resolution[par] is False  # the bounce, as decided


def test_other_phases_have_no_resolution() -> None:
    winter, _, _ = position_from_json({"phase": "W1901A", "units": {"FRANCE": ["A PAR"]},
                                       "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA"]}})
    assert adjudicate(winter, {"FRANCE": ["Build A Mar"]}).resolution is None


def test_superdiplomacy_records_its_dice_in_the_resolution() -> None:
    position = Position.initial(variant=find_variant("superdiplomacy"))
    position = position.replace(extra=MappingProxyType({**position.extra, "seed": "s"}))
    outcome = adjudicate(position, {})
    dice = outcome.resolution.dice if outcome.resolution else None
    assert isinstance(dice, DiceRecord)
    assert dice.phase == position.phase.code and dice.seed == "s"
    # The record the next phase's document carries is the same one.
    assert outcome.next.extra["dice"] == dice.to_json()


# -- the renderer's mask ---------------------------------------------------------------------


def test_the_renderer_takes_a_mask_and_only_a_power_view_as_view() -> None:
    position = Position.initial()
    svg = render_svg(position, mask=lambda p: p != M.province_of(M.loc("PAR")))
    assert "unit-PAR" not in svg and "unit-MAR" in svg
    with pytest.raises(TypeError, match="mask="):
        render_svg(position, view=Mask())  # type: ignore[arg-type]


def test_hold_is_written_by_the_notation_for_units_without_orders() -> None:
    # A small check that the writer is the variant's for generated holds too.
    position = Position.initial(variant=Shouting())
    assert Shouting.notation.format_order(position, Hold(ARMY, M.loc("PAR"))) == "A PAR H!"
