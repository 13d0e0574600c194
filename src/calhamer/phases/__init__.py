"""Movement, retreats and adjustments, and how one phase leads to the next.

``adjudicate(position, orders)`` is the single entry point: it reads the phase from the
position and returns a :class:`~calhamer.results.PhaseOutcome`. Orders may be text (parsed
here, errors kept as ``invalid`` results, never raised) or :class:`~calhamer.orders.Order`
values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calhamer.errors import PhaseError
from calhamer.phases.adjustments import adjudicate_adjustments, civil_disorder_removals
from calhamer.phases.flow import adjustments_needed, advance, buildable_centres, update_centers
from calhamer.phases.intake import Intake, OrdersIn, moved_unit
from calhamer.phases.movement import adjudicate_movement, checked_movement_order
from calhamer.phases.retreats import adjudicate_retreats, retreat_options
from calhamer.results import PhaseOutcome
from calhamer.rules import Rules, find_rules

if TYPE_CHECKING:
    from calhamer.position import Position


def adjudicate(position: Position, orders: OrdersIn, rules: Rules | str | None = None
               ) -> PhaseOutcome:
    """Adjudicate the phase ``position`` is in, with ``orders`` by power.

    The position's variant says how its phase is played (``Variant.phases``, a handler per
    phase kind) and under which edition (``Variant.phase_rules``).
    """
    variant = position.variant
    rules = variant.phase_rules(find_rules(rules))
    handler = variant.phases.get(position.phase.kind)
    if handler is None:
        raise PhaseError(
            f"the {variant.title} variant has no phase of kind {position.phase.kind!r}")
    return handler.adjudicate(position, orders, rules)


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
