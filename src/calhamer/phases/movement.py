"""The movement phase: orders checked, resolved by the variant's resolver, and the board after."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from calhamer.adjudicator import (
    EMPTY,
    MOVE,
    MovementResolver,
    OrderTable,
    resolve_movement,
)
from calhamer.map import ProvinceId
from calhamer.orders import AnyOrder, Hold, Order
from calhamer.pieces import Dislodged, Phase, Unit
from calhamer.results import INVALID, OrderResult, PhaseOutcome, Resolution
from calhamer.rules import Rules
from calhamer.validation import Illegal
from calhamer.views import carry_forward

if TYPE_CHECKING:
    from calhamer.position import Position

from calhamer.phases.explain import Explainer
from calhamer.phases.flow import advance, editable
from calhamer.phases.intake import Intake, OrdersIn, moved_unit


def checked_movement_order(intake: Intake, result: OrderResult, order: AnyOrder) -> Order | None:
    """The order as the resolver will see it, or None (and the result marked invalid)."""
    if not isinstance(order, Order):
        intake.illegal(result, "only hold, move, support and convoy orders are given now")
        return None
    try:
        checked = intake.check(intake.position, result.power, order)
    except Illegal as exc:
        intake.illegal(result, str(exc))
        return None
    result.order = checked
    return checked


def adjudicate_movement(
    position: Position,
    orders: OrdersIn,
    rules: Rules,
    *,
    resolver_class: type[MovementResolver] = MovementResolver,
) -> PhaseOutcome:
    intake = Intake(position, orders)
    loc_province = position.map.loc_province
    by_province: dict[int, list[OrderResult]] = {}
    legal: dict[int, Order] = {}
    clashes: set[int] = set()
    check = intake.check
    order_type = Order
    for result, order in intake.accepted:
        # checked_movement_order, written out: this runs for every order of every phase.
        if not isinstance(order, order_type):
            intake.illegal(result, "only hold, move, support and convoy orders are given now")
            continue
        try:
            checked = check(position, result.power, order)
        except Illegal as exc:
            intake.illegal(result, str(exc))
            continue
        result.order = checked
        province = loc_province[checked.loc]
        earlier = legal.get(province)
        if earlier is None:
            legal[province] = checked
            by_province[province] = [result]
        else:
            by_province[province].append(result)
            if earlier != checked:
                clashes.add(province)
    for province in clashes:
        # DATC 4.D.3: a unit given different orders holds (and may be supported to hold).
        del legal[province]
        for result in by_province[province]:
            intake.illegal(result, "the unit was given more than one order, so it holds")

    # Units no player commands (a DP variant's neutrals): the variant says where their orders
    # come from, and those orders replace any given for the same unit.
    for power, items in intake.variant.unit_orders(position, legal, rules).items():
        for result, order in intake.add(power, items):
            neutral = checked_movement_order(intake, result, order)
            if neutral is None:
                continue
            province = loc_province[neutral.loc]
            for prior in by_province.get(province, ()):
                if prior.result != INVALID:
                    intake.illegal(prior, "this unit's order is not given by players")
            legal[province] = neutral
            by_province[province] = [result]

    table = OrderTable(position, legal, rules)
    resolver = resolve_movement(table, resolver_class)
    return _movement_outcome(position, intake, by_province, table, resolver, legal, rules)


def _movement_outcome(
    position: Position,
    intake: Intake,
    by_province: dict[int, list[OrderResult]],
    table: OrderTable,
    resolver: MovementResolver,
    legal: dict[int, Order],
    rules: Rules,
) -> PhaseOutcome:
    m = position.map
    kind, dest = table.kind, table.dest
    success = resolver.resolution
    moved = {p: dest[p] for p in table.movers if kind[p] == MOVE and success[p]}
    dislodger = {dest[p]: p for p in moved}
    dislodged_at = {
        q: a for q, a in dislodger.items() if kind[q] != EMPTY and q not in moved
    }

    def word_results() -> dict[str, list[OrderResult]]:
        explain = Explainer(position, table, resolver, dislodged_at)
        for province, entries in by_province.items():
            for result in entries:
                if result.result != INVALID:
                    result.result, result.reason = explain.result(province)
        for province, unit in position.units.items():
            if province not in by_province:
                verdict, reason = explain.result(province)
                canonical = intake.write(Hold(unit.type, unit.loc))
                reason = f"{reason} (no valid order given)"
                intake.results.setdefault(unit.power, []).append(
                    OrderResult(unit.power, "", canonical, verdict, reason)
                )
        return intake.finish()

    new_units: dict[ProvinceId, Unit]
    dislodged: list[Dislodged] = []
    destroyed: list[int] = []
    if dislodged_at or moved:
        new_units = {}
        loc_province, exact = m.loc_province, table.exact
        for province, unit in position.units.items():
            if province in dislodged_at:
                if not intake.variant.may_retreat(position, unit):
                    destroyed.append(province)  # a unit that cannot retreat is destroyed at once
                    continue
                attacker = dislodged_at[province]
                blocked: int | None = attacker
                if resolver.convoyed[attacker] and rules.retreat_to_convoying_attacker_origin:
                    blocked = None  # DATC 4.A.5: the army never crossed that border
                dislodged.append(Dislodged(unit, blocked))
            elif province in moved:
                new_loc = exact[province]
                new_units[loc_province[new_loc]] = moved_unit(unit, new_loc)
            else:
                new_units[province] = unit
    else:
        new_units = editable(position.units)
    targets = {dest[p] for p in table.movers if kind[p] == MOVE}
    contested = frozenset(
        q for q in targets
        if q not in dislodger and q not in new_units and resolver.standoff(q)
    )
    phase = position.phase
    if dislodged:
        phase = Phase(phase.year, phase.season, "R")
    state = intake.variant.state  # the variant fields that outlive the phase (not DP bids)
    after = position.replace(
        phase=phase, units=MappingProxyType(new_units), dislodged=tuple(dislodged),
        contested=contested,
        extra=position.extra if state is None else state.lasting(position.extra),
    )
    nxt = after if after.dislodged else advance(after, rules)
    resolution = Resolution(resolver, legal)
    after, nxt = carry_forward(position, resolution, after, nxt)
    return PhaseOutcome(
        before=position,
        results=word_results,
        after=after,
        next=nxt,
        dislodged=tuple(dislodged),
        moved={p: table.exact[p] for p in moved},
        removed=destroyed,
        resolution=resolution,
    )
