"""The standard retreat and adjustment phases read their orders as plain entries and make the
results only when they are read (``PhaseReading``), build plain units from a shared table,
and keep an order as given when checking it settles nothing. Each is held here to the long
way: the phases as they were written with :class:`~calhamer.phases.Intake`, a result made for
every order as it is read, kept below as they were.

Random boards and orders of the standard map (the strategies of ``test_properties``), in
every edition, and the retreats and winters of random games of the variants that play the
standard phases (Arpiesse's coloured builds and retreat clashes, Kriegsplomacy's blocked
retreats that fail, the DP variants' minor powers).

``carry_forward`` asks the standard visibility policy nothing (it keeps every field as it is).

The board after a movement phase finds the places closed by a standoff among the places moved
to that nobody reached or holds: held to every empty place the resolver calls a standoff.
"""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

from hypothesis import given
from hypothesis import strategies as st

from calhamer.adjudicator import MOVE
from calhamer.map import ARMY, FLEET
from calhamer.options import possible_orders
from calhamer.orders import Build, Disband, Retreat, Waive
from calhamer.phases import Intake, adjudicate, adjudicate_adjustments, adjudicate_retreats
from calhamer.phases.adjustments import _AlreadyBuilt, _checked_build, civil_disorder_removals
from calhamer.phases.flow import advance, editable
from calhamer.phases.intake import keeps_standard, moved_unit, plain_unit
from calhamer.phases.retreats import _may_retreat_to, _own_choices, refused_retreat
from calhamer.pieces import Unit
from calhamer.position import Position
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import EDITIONS, find_rules
from calhamer.validation import Illegal, fleet_destination
from calhamer.variant import STANDARD
from calhamer.variants import find_variant
from calhamer.views import STANDARD_VISIBILITY, carry_forward
from test_properties import (
    SETTINGS,
    Case,
    adjustment_orders,
    adjustment_positions,
    as_dict,
    movement_orders,
    movement_positions,
    retreat_orders,
    retreat_positions,
)

RULES = [find_rules(name) for name in EDITIONS]


# -- the long way: the phases as written with Intake -----------------------------------------


def long_retreats(position, orders, rules) -> PhaseOutcome:
    m = position.map
    loc_province = m.loc_province
    intake = Intake(position, orders)
    listed = _own_choices(intake.variant)
    by_unit = {loc_province[d.unit.loc]: d for d in position.dislodged}
    chosen = {}
    for result, order in intake.accepted:
        if not isinstance(order, (Retreat, Disband)):
            intake.illegal(result, "only retreat and disband orders are given in a retreat phase")
            continue
        province = loc_province[order.loc]
        entry = by_unit.get(province)
        if entry is None or entry.unit.power != result.power:
            why = intake.variant.visibility.no_unit_message(
                position, result.power, province, dislodged=True)
            intake.illegal(result, why)
            continue
        if isinstance(order, Retreat):
            checked = _long_checked_retreat(position, entry, order, intake, result, listed)
            if checked is None:
                continue
            order = checked
        if province in chosen:
            intake.illegal(result, "this unit already has a retreat order")
            continue
        result.order = order
        chosen[province] = (result, order)

    targets = {}
    for province, (result, order) in chosen.items():
        if isinstance(order, Retreat) and result.result != FAILS:
            targets.setdefault(loc_province[order.dest], []).append(province)
    units = editable(position.units)
    removed = []
    for province, entry in by_unit.items():
        if province not in chosen:
            removed.append(province)
            reason = "no retreat ordered, so the unit is disbanded"
            intake.results.setdefault(entry.unit.power, []).append(OrderResult(
                entry.unit.power, "", "", SUCCEEDS, reason,
                Disband(entry.unit.type, entry.unit.loc)))
            continue
        result, order = chosen[province]
        if isinstance(order, Disband):
            removed.append(province)
            result.result, result.reason = SUCCEEDS, "disbanded"
            continue
        if result.result == FAILS:
            removed.append(province)
            continue
        rivals = targets[loc_province[order.dest]]
        if len(rivals) > 1:
            name = intake.variant.notation.format_unit
            others = [name(m, by_unit[r].unit) for r in rivals if r != province]
            winner = intake.variant.retreat_clash_winner([by_unit[r].unit for r in rivals])
            if winner is not None and rivals[winner] == province:
                units[loc_province[order.dest]] = moved_unit(entry.unit, order.dest)
                result.result = SUCCEEDS
                result.reason = f"retreats; prevails over {', '.join(others)}"
                continue
            removed.append(province)
            result.result = FAILS
            if winner is not None:
                best = name(m, by_unit[rivals[winner]].unit)
                result.reason = f"{best} prevails there; the unit is disbanded"
            else:
                result.reason = f"bounced with {', '.join(others)}; the unit is disbanded"
        else:
            units[loc_province[order.dest]] = moved_unit(entry.unit, order.dest)
            result.result, result.reason = SUCCEEDS, "retreats"
    after = position.replace(units=MappingProxyType(units), dislodged=(), contested=frozenset())
    after, nxt = carry_forward(position, None, after, advance(after, rules))
    return PhaseOutcome(position, intake.finish, after, nxt, removed=removed)


def _long_checked_retreat(position, entry, order, intake, result, listed):
    m = position.map
    unit = entry.unit
    dest = order.dest
    if unit.type is FLEET:
        try:
            dest = fleet_destination(m, unit.loc, dest)
        except Illegal as exc:
            intake.illegal(result, str(exc))
            return None
    else:
        dest = m.province_of(dest)
    if listed:
        allowed = dest in position.variant.retreat_choices(position, entry)
    else:
        allowed = _may_retreat_to(position, entry, dest)
    if not allowed:
        # The wording is the phase's own (refused_retreat): what is held here is the reading.
        reason, next_to = refused_retreat(position, entry, dest)
        if next_to and intake.variant.blocked_retreat_fails:
            result.result, result.reason = FAILS, f"{reason}; the unit is disbanded"
            return Retreat(unit.type, unit.loc, dest)
        intake.illegal(result, reason)
        return None
    return Retreat(unit.type, unit.loc, dest)


def long_adjustments(position, orders, rules) -> PhaseOutcome:
    m = position.map
    loc_province = m.loc_province
    intake = Intake(position, orders)
    for power, items in intake.variant.unit_orders(position, {}, rules).items():
        intake.add(power, items)
    due = position.adjustments()
    units = editable(position.units)
    built = {}
    removed_by = {}
    removed = []
    for result, order in intake.accepted:
        power = result.power
        allowance = due.get(power, 0)
        if isinstance(order, (Build, Waive)):
            if allowance <= 0:
                intake.illegal(result, f"{power} has no builds this winter")
                continue
            if built.get(power, 0) >= allowance:
                result.result = FAILS
                result.reason = f"{power} may build only {allowance} this winter"
                continue
            if isinstance(order, Build):
                try:
                    new_unit = _long_checked_build(position, power, order, units, rules)
                except _AlreadyBuilt as taken:
                    result.result, result.reason = FAILS, str(taken)
                    continue
                except Illegal as exc:
                    intake.illegal(result, str(exc))
                    continue
                units[loc_province[new_unit.loc]] = new_unit
                if order.unit_type is not new_unit.type or order.loc != new_unit.loc:
                    result.order = replace(order, unit_type=new_unit.type, loc=new_unit.loc)
                result.reason = "built"
            else:
                result.reason = "build waived"
            built[power] = built.get(power, 0) + 1
        elif isinstance(order, Disband):
            province = loc_province[order.loc]
            unit = position.units.get(province)
            if allowance >= 0:
                intake.illegal(result, f"{power} has no units to remove this winter")
                continue
            if unit is None or unit.power != power:
                intake.illegal(result, f"{power} has no unit in {m.describe(province)}")
                continue
            if province not in units:
                result.result, result.reason = FAILS, "this unit is already removed"
                continue
            if removed_by.get(power, 0) >= -allowance:
                result.result = FAILS
                result.reason = f"{power} must remove only {-allowance} this winter"
                continue
            del units[province]
            removed.append(province)
            removed_by[power] = removed_by.get(power, 0) + 1
            result.order = Disband(unit.type, unit.loc)
            result.reason = "removed"
        else:
            intake.illegal(result, "only builds, removals and waives are given in winter")

    for power, amount in due.items():
        if amount >= 0:
            continue
        missing = -amount - removed_by.get(power, 0)
        if missing > 0:
            for province in civil_disorder_removals(position, power, units, missing, rules):
                unit = units.pop(province)
                removed.append(province)
                intake.results.setdefault(power, []).append(
                    OrderResult(power, "", "", SUCCEEDS,
                                "removed by the civil-disorder rule (too few removals ordered)",
                                Disband(unit.type, unit.loc))
                )
    after = position.replace(units=MappingProxyType(units))
    after, nxt = carry_forward(position, None, after, advance(after, rules))
    return PhaseOutcome(position, intake.finish, after, nxt, removed=removed)


def _long_checked_build(position, power, order, units, rules) -> Unit:
    # The checks are the phase's own (_checked_build); the unit was made by the variant.
    unit_type, loc = _checked_build(position, power, order, units, rules)
    return position.variant.built_unit(power, order, unit_type, loc)


# -- the comparison --------------------------------------------------------------------------


def assert_same(short: PhaseOutcome, long: PhaseOutcome) -> None:
    """Two outcomes alike in everything: results (in order, every field), the board after,
    the next phase (its kept count too), the units removed."""
    assert short.after == long.after
    assert short.next == long.next
    assert short.next.adjustments() == long.next.adjustments()
    assert short.removed == long.removed
    assert short.dislodged == long.dislodged and short.moved == long.moved
    assert list(short.results) == list(long.results)  # the powers, in the same order
    assert short.results == long.results
    for power, results in short.results.items():
        for mine, theirs in zip(results, long.results[power], strict=True):
            assert type(mine.order) is type(theirs.order)


@SETTINGS
@given(case=retreat_positions(), data=st.data())
def test_retreats_read_as_entries_are_the_long_way(case: Case, data: st.DataObject) -> None:
    orders = as_dict(data.draw(retreat_orders(case.position), label="orders"))
    for rules in RULES:
        assert_same(adjudicate_retreats(case.position, orders, rules),
                    long_retreats(case.position, orders, rules))


@SETTINGS
@given(case=adjustment_positions(), data=st.data())
def test_adjustments_read_as_entries_are_the_long_way(case: Case, data: st.DataObject) -> None:
    orders = as_dict(data.draw(adjustment_orders(case.position), label="orders"))
    for rules in RULES:
        assert_same(adjudicate_adjustments(case.position, orders, rules),
                    long_adjustments(case.position, orders, rules))


@SETTINGS
@given(case=retreat_positions(), data=st.data())
def test_blocked_retreats_that_fail_are_the_long_way(case: Case, data: st.DataObject) -> None:
    """Kriegsplomacy's rule (a blocked retreat fails rather than being illegal), on random
    retreat boards of the standard map."""
    position = case.position.replace(variant=find_variant("kriegsplomacy"))
    orders = as_dict(data.draw(retreat_orders(position), label="orders"))
    rules = find_rules("datc")
    assert_same(adjudicate_retreats(position, orders, rules),
                long_retreats(position, orders, rules))


def test_the_retreats_and_winters_of_random_games_are_the_long_way() -> None:
    """Every retreat and adjustment phase of random games of the variants that play the
    standard ones, with random orders (some given as text, some for units not the power's),
    and the same phase with no orders at all (every dislodged unit disbanded, every missing
    removal made by the civil-disorder rule)."""
    phases = {"R": (adjudicate_retreats, long_retreats),
              "A": (adjudicate_adjustments, long_adjustments)}
    seen: dict[tuple[str, str], int] = {}
    for variant_name in ("standard", "arpiesse", "kriegsplomacy", "standard-dp"):
        variant = find_variant(variant_name)
        rules = variant.phase_rules(find_rules(variant.default_rules))
        for seed in range(3):
            rng = random.Random(f"{variant_name}:{seed}")
            position = Position.initial(variant=variant)
            while position.phase.year < 1908 and position.winner() is None:
                orders: dict[str, list[object]] = {}
                for power in position.powers():
                    found = possible_orders(position, power, rules)
                    chosen = [rng.choice(c) for c in found.values() if c and rng.random() < 0.9]
                    notation = variant.notation
                    orders[power] = [notation.format_order(position, o) if rng.random() < 0.2
                                     else o for o in chosen]
                kind = position.phase.kind
                handler = variant.phases.get(kind)
                if kind in phases and type(handler).adjudicate is STANDARD_PLAY[kind]:
                    short, long = phases[kind]
                    for given_orders in (orders, {}):
                        assert_same(short(position, given_orders, rules),
                                    long(position, given_orders, rules))
                    seen[variant_name, kind] = seen.get((variant_name, kind), 0) + 1
                position = adjudicate(position, orders, rules).next
    # Random orders seldom dislodge in the standard game (its retreats are held above).
    for name, kind in (("standard", "A"), ("arpiesse", "A"), ("arpiesse", "R"),
                       ("kriegsplomacy", "R"), ("standard-dp", "A")):
        assert seen.get((name, kind), 0) >= 3, seen


# How the standard retreats and winters are played (a variant's mixin may add to the rest).
STANDARD_PLAY = {kind: type(STANDARD.phases[kind]).adjudicate for kind in "RA"}


def test_builds_share_plain_units_unless_the_variant_makes_its_own() -> None:
    assert keeps_standard(STANDARD, "built_unit")
    assert keeps_standard(find_variant("standard-dp"), "built_unit")
    assert not keeps_standard(find_variant("arpiesse"), "built_unit")
    assert plain_unit("FRANCE", ARMY, 5) is plain_unit("FRANCE", ARMY, 5)
    assert plain_unit("FRANCE", FLEET, 5) == Unit("FRANCE", FLEET, 5)
    assert moved_unit(Unit("FRANCE", ARMY, 7), 5) is plain_unit("FRANCE", ARMY, 5)


# -- the board after a movement phase --------------------------------------------------------


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_places_left_by_a_standoff_are_those_the_resolver_names(
    case: Case, data: st.DataObject
) -> None:
    """The places closed to retreats, found among the places moved to that nobody reached
    or holds, are every empty place of the board the resolver calls a standoff (two or more
    moves tried, under the standard rule); the moves made are each move that succeeded, to
    the location it named."""
    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    for rules in RULES:
        outcome = adjudicate(position, orders, rules)
        resolver = outcome.resolution.resolver
        table = resolver.table
        assert outcome.after.contested == {
            q for q in range(len(table.kind))
            if q not in outcome.after.units and len(table.movers_to[q]) > 1
            and resolver.standoff(q)}
        assert outcome.moved == {
            p: table.exact[p] for p in table.movers
            if table.kind[p] == MOVE and resolver.resolution[p]}


def test_the_standard_policy_carries_the_fields_as_they_are() -> None:
    """carry_forward asks the standard visibility policy nothing: what it would answer, for
    every phase of random games and for a variant with fields of its own (DP bids), is the
    next phase's own fields, unchanged."""
    assert STANDARD.visibility is STANDARD_VISIBILITY
    for variant_name in ("standard", "standard-dp"):
        variant = find_variant(variant_name)
        assert variant.visibility is STANDARD_VISIBILITY
        rules = variant.phase_rules(find_rules(variant.default_rules))
        rng = random.Random(variant_name)
        position = Position.initial(variant=variant)
        while position.phase.year < 1904:
            orders = {power: [rng.choice(c) for c in possible_orders(position, power, rules)
                              .values() if c] for power in position.powers()}
            outcome = adjudicate(position, orders, rules)
            assert STANDARD_VISIBILITY.carried_extra(
                position, outcome.after, outcome.resolution, outcome.next.extra
            ) is outcome.next.extra
            assert carry_forward(position, outcome.resolution, outcome.after, outcome.next) == (
                outcome.after, outcome.next)
            position = outcome.next
