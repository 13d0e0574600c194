"""What is due in the phase being played: who owes orders, what a winter asks of each power,
and what happens to an order that is invalid in this kind of phase.

For the gamemaster, who sees everything, and for one power, who is told only what its view
allows: in a variant that hides information (Kriegsplomacy) a power's list is made from what
it knows (the variant's ``known_position``) and names no one else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from calhamer.options import possible_orders
from calhamer.orders import Build

if TYPE_CHECKING:
    from calhamer.position import Position
    from calhamer.rules import Rules


def invalid_consequence(position: Position, power: str | None = None) -> str:
    """What really happens to an invalid order in the phase of ``position`` (for warnings).

    Movement: the unit holds. Retreats: the dislodged unit is disbanded. Adjustments: an
    invalid build is not made, and removals not validly ordered are chosen by the
    civil-disorder rule (when ``power`` is given, only the half that concerns it).
    """
    kind = position.phase.kind
    if kind == "M":
        return "the unit holds"
    if kind == "R":
        return "the unit is disbanded"
    if kind == "A":
        owed = position.adjustments().get(power, 0) if power else None
        builds = "no unit is built for it"
        removals = "units to remove are chosen by the civil-disorder rule"
        if owed is None:
            return f"{builds}; {removals}"
        return removals if owed < 0 else builds
    return "it has no effect"


def without_orders(position: Position, power: str) -> str:
    """What happens to ``power`` in this phase if it sends no orders (for order pages; from
    what it knows of ``position``)."""
    kind = position.phase.kind
    if kind == "R":
        return "your dislodged units are disbanded"
    if kind == "A":
        known = position.variant.visibility.known_position(position, power)
        owed = known.adjustments().get(power, 0)
        if owed > 0:
            return "no unit is built for you"
        if owed < 0:
            return "the units you must remove are chosen by the civil-disorder rule"
        return "you have nothing to build or remove"
    return "your units hold"


@dataclass(frozen=True)
class Adjustment:
    """What one power owes in a winter: ``builds`` (positive) or removals (negative), and
    where it may build (names of the centres, in the map's order of names)."""

    power: str
    amount: int
    build_in: tuple[str, ...] = ()

    def describe(self, name: str) -> str:
        """``France: 2 builds (may build in Brest, Paris)``, ``Italy: 1 removal``."""
        if self.amount > 0:
            count = f"{self.amount} build{'s' if self.amount != 1 else ''}"
            where = ", ".join(self.build_in)
            if not self.build_in:
                return f"{name}: {count}, but no free home centre to build in (waived)"
            usable = min(self.amount, len(self.build_in))
            extra = f"; only {usable} can be used" if usable < self.amount else ""
            return f"{name}: {count} (may build in {where}{extra})"
        owed = -self.amount
        return f"{name}: {owed} removal{'s' if owed != 1 else ''}"


def adjustments_due(
    position: Position, rules: Rules | str | None = None, power: str | None = None
) -> list[Adjustment]:
    """The builds and removals each power owes in the winter phase of ``position`` (only
    ``power``'s when given, from what it knows); empty outside an adjustment phase."""
    if not position.phase.is_adjustment:
        return []
    m = position.map
    powers = [power] if power else [p for p in m.power_codes if not m.is_minor(p)]
    due = []
    for p in powers:
        known = position.variant.visibility.known_position(position, p) if power else position
        amount = known.adjustments().get(p, 0)
        if amount == 0:
            continue
        places: tuple[str, ...] = ()
        if amount > 0:
            options = possible_orders(position, p, rules)
            provinces = {m.province_of(o.loc) for orders in options.values() for o in orders
                         if isinstance(o, Build)}
            places = tuple(sorted(m.provinces[pr].name for pr in provinces))
        due.append(Adjustment(p, amount, places))
    return due


def owing_orders(position: Position, rules: Rules | str | None = None) -> list[str]:
    """The powers (codes, in the map's order) that have orders to give in this phase: every
    power with something to order (a unit to move, a unit to retreat, a build or removal)."""
    m = position.map
    return [p for p in m.power_codes
            if not m.is_minor(p) and possible_orders(position, p, rules)]


def missing_orders(
    position: Position, received: Mapping[str, Iterable[str]], rules: Rules | str | None = None
) -> list[str]:
    """The powers that owe orders in this phase and have sent none (for the gamemaster: who
    has ordered is not something the powers are told of one another)."""
    sent = {p for p, lines in received.items() if any(line.strip() for line in lines)}
    return [p for p in owing_orders(position, rules) if p not in sent]
