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
from calhamer.orders import Build, Waive
from calhamer.phases import OrdersIn
from calhamer.phases.handlers import PhaseHandler

from .adjustments import adjudicate_adjustments
from .movement import adjudicate_movement
from .retreats import adjudicate_retreats

if TYPE_CHECKING:
    from calhamer.map import Location
    from calhamer.orders import AnyOrder
    from calhamer.position import Position
    from calhamer.results import PhaseOutcome
    from calhamer.rules import Rules


class StackMovement(PhaseHandler):
    """Stacks move, support and convoy by numbers; battles are fought with dice."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_movement(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        return movement_candidates(position, known, power, stacks=True)


class StackRetreats(PhaseHandler):
    """A dislodged stack retreats whole or in parts."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_retreats(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        return kept_by_adjudication(position, power, rules, retreat_candidates(known, power),
                                    keep_failed=True)


class StackAdjustments(PhaseHandler):
    """Production and supply lines decide the builds; stacks are removed unit by unit."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_adjustments(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        found = kept_by_adjudication(position, power, rules,
                                     stack_adjustment_candidates(known, power), keep_failed=False)
        return {loc: [*orders, Waive()] if any(isinstance(o, Build) for o in orders) else orders
                for loc, orders in found.items()}


STACK_PHASES: Mapping[str, PhaseHandler] = MappingProxyType(
    {"M": StackMovement(), "R": StackRetreats(), "A": StackAdjustments()}
)
