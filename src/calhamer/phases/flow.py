"""How one phase leads to the next: centres change hands after Fall, empty phases are skipped."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar

from calhamer.pieces import phase_of
from calhamer.rules import Rules

if TYPE_CHECKING:
    from calhamer.position import Position

K = TypeVar("K")
V = TypeVar("V")



def editable(mapping: Mapping[K, V]) -> dict[K, V]:
    """A dict copy of one of a position's tables: a read-only view's own dict, copied at once
    (``dict()`` of a view would read it entry by entry, many times slower)."""
    if type(mapping) is MappingProxyType or type(mapping) is dict:
        return mapping.copy()  # type: ignore[attr-defined,no-any-return]
    return dict(mapping)


def update_centers(position: Position) -> dict[int, str]:
    """Supply-centre owners after Fall: a unit standing on a centre takes it."""
    weight = position.map.centre_weight
    centers = editable(position.centers)
    for province, unit in position.units.items():
        if weight[province]:
            centers[province] = unit.power
    return centers


def advance(position: Position, rules: Rules) -> Position:
    """The next phase to play after ``position`` (whose own phase is finished)."""
    variant = position.variant
    state = variant.state
    extra = position.extra if state is None else state.lasting(position.extra)
    if extra is not position.extra:
        position = position.replace(extra=extra)  # one phase's inputs (DP bids) end with it
    special = variant.next_phase(position, rules)
    if special is not None:
        return special  # a variant's own phase (Arpiesse's summer colour exchange)
    phase = position.phase
    if phase.season == "S":
        return position.replace(phase=phase_of(phase.year, "F", "M"), contested=frozenset())
    if phase.season == "F":
        after = position.replace(
            phase=phase_of(phase.year, "W", "A"),
            centers=MappingProxyType(update_centers(position)),
            contested=frozenset(),
        )
        if adjustments_needed(after, rules):
            return after
        return after.replace(phase=phase_of(phase.year + 1, "S", "M"))
    return position.replace(phase=phase_of(phase.year + 1, "S", "M"))


def adjustments_needed(position: Position, rules: Rules) -> bool:
    """Whether any power must remove, or could build, this winter."""
    due = position.adjustments()
    growing = set()
    for power, amount in due.items():
        if amount < 0:
            return True
        if amount > 0:
            growing.add(power)
    if not growing:
        return False
    # A power due builds needs a free centre to build in (buildable_centres, for all at once).
    units = position.units
    home_only = rules.builds_in_home_centres_only
    provinces = position.map.provinces
    for province, owner in position.centers.items():
        if owner in growing and province not in units and (
            not home_only or provinces[province].home == owner
        ):
            return True
    return False


def buildable_centres(position: Position, power: str, rules: Rules) -> list[int]:
    m = position.map
    return [
        p for p in position.centers_of(power)
        if p not in position.units
        and (not rules.builds_in_home_centres_only or m.provinces[p].home == power)
    ]
