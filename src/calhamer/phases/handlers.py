"""Phase handlers: how each kind of phase is played, as pieces a variant maps kinds to.

A variant says which phase kinds it plays and how (``Variant.phases``, a mapping from the
kind's letter to a :class:`PhaseHandler`). The standard game's handlers below are built from
the public building blocks of :mod:`calhamer.phases` (the intake, the movement resolver,
retreats, adjustments, civil disorder); a variant reuses them, wraps them, or gives its own
for a kind (Superdiplomacy's stacks) or a new kind (Arpiesse's summer exchange, ``X``).

This module is not imported by :mod:`calhamer.phases` itself: the possible orders come from
:mod:`calhamer.options`, which builds on the phases (and is loaded when first asked for, so that
a program that only adjudicates never loads it).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from calhamer._build import mypyc_attr
from calhamer.phases import (
    OrdersIn,
    adjudicate_adjustments,
    adjudicate_movement,
    adjudicate_retreats,
)

if TYPE_CHECKING:
    from calhamer.map import Location
    from calhamer.orders import AnyOrder
    from calhamer.position import Position
    from calhamer.results import PhaseOutcome
    from calhamer.rules import Rules


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class PhaseHandler:
    """How one kind of phase is played. Subclasses override both methods."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        """Adjudicate ``position``'s phase with ``orders`` by power (text or order values);
        ``rules`` is the edition as the variant plays it. Unreadable or illegal orders are
        results, never exceptions."""
        raise NotImplementedError

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        """Every order ``power`` may give in ``position``'s phase, by the location of the unit
        (or centre) it is for, judged on ``known`` (what the power knows of ``position``).
        None by default: a kind whose orders are not listed."""
        return {}


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class Movement(PhaseHandler):
    """The movement phase, resolved by the variant's resolver class."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_movement(position, orders, rules,
                                   resolver_class=position.variant.resolver_class)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        from calhamer.options import movement_candidates

        return movement_candidates(position, known, power)


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class Retreats(PhaseHandler):
    """The retreat phase after a movement phase that dislodged units."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_retreats(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        from calhamer.options import retreat_candidates

        return retreat_candidates(known, power)


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class Adjustments(PhaseHandler):
    """The winter: builds, removals and waives, and civil disorder."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_adjustments(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        from calhamer.options import adjustment_candidates

        return adjustment_candidates(known, power, rules)


STANDARD_PHASES: Mapping[str, PhaseHandler] = MappingProxyType(
    {"M": Movement(), "R": Retreats(), "A": Adjustments()}
)
"""The standard game's phase kinds: movement, retreats and adjustments."""
