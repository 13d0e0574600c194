"""Movement, retreats and adjustments, and how one phase leads to the next.

``adjudicate(position, orders)`` is the single entry point: it reads the phase from the
position and returns a :class:`~calhamer.results.PhaseOutcome`. Orders may be text (parsed
here, errors kept as ``invalid`` results, never raised) or :class:`~calhamer.orders.Order`
values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calhamer.adjudicator import MovementResolver
from calhamer.phases.adjustments import adjudicate_adjustments, civil_disorder_removals
from calhamer.phases.flow import adjustments_needed, advance, buildable_centres, update_centers
from calhamer.phases.intake import Intake, OrdersIn, moved_unit
from calhamer.phases.movement import adjudicate_movement, checked_movement_order
from calhamer.phases.retreats import adjudicate_retreats, retreat_options
from calhamer.results import PhaseOutcome
from calhamer.rules import Rules, find_rules

if TYPE_CHECKING:
    from calhamer.position import Position


def adjudicate(
    position: Position,
    orders: OrdersIn,
    rules: Rules | str | None = None,
    *,
    resolver_class: type[MovementResolver] = MovementResolver,
) -> PhaseOutcome:
    """Adjudicate the phase ``position`` is in, with ``orders`` by power."""
    variant = position.variant
    rules = variant.phase_rules(find_rules(rules))
    own = variant.adjudicate(position, orders, rules)  # a variant's own way (Superdiplomacy)
    if own is not None:
        outcome = own
    elif position.phase.is_movement:
        if resolver_class is MovementResolver:
            resolver_class = variant.resolver_class
        outcome = adjudicate_movement(position, orders, rules, resolver_class=resolver_class)
    elif position.phase.is_retreat:
        outcome = adjudicate_retreats(position, orders, rules)
    elif position.phase.is_adjustment:
        outcome = adjudicate_adjustments(position, orders, rules)
    else:
        outcome = variant.adjudicate_phase(position, orders, rules)
    return variant.finish_outcome(outcome, rules)


__all__ = [
    "Intake",
    "OrdersIn",
    "adjudicate",
    "adjudicate_adjustments",
    "adjudicate_movement",
    "adjudicate_retreats",
    "adjustments_needed",
    "advance",
    "buildable_centres",
    "checked_movement_order",
    "civil_disorder_removals",
    "moved_unit",
    "retreat_options",
    "update_centers",
]
