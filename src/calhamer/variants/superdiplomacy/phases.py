"""Superdiplomacy's phase handlers: stacks move, retreat and are built in their own way.

Each handler adjudicates with the variant's own rules (dice battles, stacks, production) and
lists possible orders from the standard candidates, keeping those that adjudicated alone are
not refused, since the stacks' rules are more than the standard checks can tell.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from calhamer.options import (
    kept_by_adjudication,
    movement_candidates,
    retreat_candidates,
    stack_adjustment_candidates,
)
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from calhamer.phases import OrdersIn
from calhamer.phases.handlers import PhaseHandler

from .adjustments import adjudicate_adjustments
from .movement import adjudicate_movement
from .notation import CAPACITY, with_count
from .retreats import adjudicate_retreats

if TYPE_CHECKING:
    from calhamer.map import Location
    from calhamer.orders import AnyOrder
    from calhamer.position import Position
    from calhamer.results import PhaseOutcome
    from calhamer.rules import Rules


# The orders that name how many units of a stack act.
_COUNTED = (Hold, Move, Support, Convoy, Retreat, Disband)


def counted(position: Position, power: str,
            listed: dict[Location, list[AnyOrder]]) -> dict[Location, list[AnyOrder]]:
    """``listed`` (one unit per order) with every number of units each order may name: 2 up
    to the units of that type in the (dislodged) stack, or for builds up to the builds due and
    the room left in the sector."""
    m = position.map
    stacks = ({m.province_of(d.unit.loc): d.unit for d in position.dislodged}
              if position.phase.is_retreat else position.units)
    due = position.adjustments().get(power, 0) if position.phase.is_adjustment else 0
    for loc, orders in listed.items():
        stack = stacks.get(m.province_of(loc))
        own = stack is not None and stack.power == power
        more: list[AnyOrder] = []
        for order in orders:
            more.append(order)
            if isinstance(order, Build):
                present = stack.count if own and stack is not None else 0
                more += [with_count(order, k)
                         for k in range(2, min(due, CAPACITY - present) + 1)]
            elif isinstance(order, _COUNTED) and own and stack is not None:
                of_type = getattr(stack, "of_type", None)
                # (not "or": the army type is a false value)
                unit_type = order.unit_type if order.unit_type is not None else stack.type
                n = of_type(unit_type) if of_type is not None else 1
                more += [with_count(order, k) for k in range(2, n + 1)]
        listed[loc] = more
    return listed


class StackMovement(PhaseHandler):
    """Stacks move, support and convoy by numbers; battles are fought with dice."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_movement(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        return counted(position, power, movement_candidates(position, known, power, stacks=True))


class StackRetreats(PhaseHandler):
    """A dislodged stack retreats whole or in parts."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_retreats(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        return counted(position, power, kept_by_adjudication(
            position, power, rules, retreat_candidates(known, power), keep_failed=True))


class StackAdjustments(PhaseHandler):
    """Production and supply lines decide the builds; stacks are removed unit by unit."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_adjustments(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        found = kept_by_adjudication(position, power, rules,
                                     stack_adjustment_candidates(known, power), keep_failed=False)
        found = counted(position, power, found)
        return {loc: [*orders, Waive()] if any(isinstance(o, Build) for o in orders) else orders
                for loc, orders in found.items()}


STACK_PHASES: Mapping[str, PhaseHandler] = MappingProxyType(
    {"M": StackMovement(), "R": StackRetreats(), "A": StackAdjustments()}
)
