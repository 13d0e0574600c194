"""The retreat phase: where a dislodged unit may go, and who gets there."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from calhamer.map import ARMY, FLEET
from calhamer.orders import Disband, Retreat
from calhamer.pieces import Dislodged, Unit
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.rules import Rules
from calhamer.validation import Illegal, fleet_destination
from calhamer.views import carry_forward

if TYPE_CHECKING:
    from calhamer.position import Position

from calhamer.phases.flow import advance, editable
from calhamer.phases.intake import (
    ORDER,
    POWER,
    REASON,
    VERDICT,
    OrdersIn,
    PhaseReading,
    keeps_standard,
    moved_unit,
)


def retreat_options(position: Position, entry: Dislodged) -> list[int]:
    """Every location the dislodged unit may retreat to."""
    m = position.map
    unit = entry.unit
    if unit.type is ARMY:
        return [q for q in sorted(m.army_adjacent[m.loc_province[unit.loc]])
                if _open_to_retreat(position, entry, q)]
    loc_province = m.loc_province
    return [d for d in sorted(m.fleet_adjacent[unit.loc])
            if _open_to_retreat(position, entry, loc_province[d])]


def _may_retreat_to(position: Position, entry: Dislodged, dest: int) -> bool:
    """Whether ``dest`` (a province for an army, a location for a fleet) is among
    :func:`retreat_options`, asked by look-ups instead of listing them all."""
    m = position.map
    unit = entry.unit
    if unit.type is ARMY:
        return (dest in m.army_adjacent[m.loc_province[unit.loc]]
                and _open_to_retreat(position, entry, dest))
    return (dest in m.fleet_adjacent[unit.loc]
            and _open_to_retreat(position, entry, m.loc_province[dest]))


def _open_to_retreat(position: Position, entry: Dislodged, province: int) -> bool:
    """The standard rule: a unit retreats only into a province nobody holds, not left empty
    by a standoff, and not the one its attacker came from."""
    return (province not in position.units and province not in position.contested
            and province != entry.attacker_from)


def _own_choices(variant: object) -> bool:
    """Whether ``variant`` has its own ``retreat_choices`` rather than the standard game's."""
    return not keeps_standard(variant, "retreat_choices")


def _retreat_needed(position: Position) -> bool:
    return bool(position.dislodged)


_RETREAT_ORDERS: Final = (Retreat, Disband)


def adjudicate_retreats(position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
    loc_province = position.map.loc_province
    reading = PhaseReading(position, orders)
    by_unit = {loc_province[d.unit.loc]: d for d in position.dislodged}
    chosen = _chosen_retreats(position, reading, by_unit)
    targets: dict[int, list[int]] = {}
    for province, line in chosen.items():
        order = line[ORDER]
        if line[VERDICT] != FAILS and isinstance(order, Retreat):  # not a blocked retreat
            targets.setdefault(loc_province[order.dest], []).append(province)
    units = editable(position.units)
    removed: list[int] = []
    for province, entry in by_unit.items():
        ordered = chosen.get(province)
        if ordered is None:
            unit = entry.unit
            # The canonical text is written when the results are read.
            reading.add_result(unit.power, Disband(unit.type, unit.loc), SUCCEEDS,
                               "no retreat ordered, so the unit is disbanded")
            removed.append(province)
        elif not _carry_out(position, by_unit, targets, province, ordered, units):
            removed.append(province)
    after = position.replace(units=MappingProxyType(units), dislodged=(), contested=_NONE)
    nxt = advance(after, rules, units)  # units: the table behind after.units
    after, nxt = carry_forward(position, None, after, nxt)
    # The texts are written when the results are first read (a bot may never read them).
    # Given by position, not by keyword: cheaper to call, and this runs every phase.
    return PhaseOutcome(position, reading.results, after, nxt, (), None, removed)


def _chosen_retreats(
    position: Position, reading: PhaseReading, by_unit: dict[int, Dislodged]
) -> dict[int, list[Any]]:
    """The entry of each dislodged unit's retreat or disband order; every other order is
    marked invalid."""
    loc_province = position.map.loc_province
    variant = reading.variant
    # Where the variant keeps the standard retreats, a destination is checked by look-ups
    # (_may_retreat_to) instead of in the list retreat_choices makes.
    listed = _own_choices(variant)
    chosen: dict[int, list[Any]] = {}
    for line in reading.entries:
        order = line[ORDER]
        if order is None:
            continue  # unreadable: invalid already
        kind = type(order)
        if not (kind is Retreat or kind is Disband or isinstance(order, _RETREAT_ORDERS)):
            line[VERDICT] = INVALID
            line[REASON] = "only retreat and disband orders are given in a retreat phase"
            continue
        province = loc_province[order.loc]
        entry = by_unit.get(province)
        power = line[POWER]
        if entry is None or entry.unit.power != power:
            line[VERDICT] = INVALID
            line[REASON] = variant.visibility.no_unit_message(
                position, power, province, dislodged=True)
            continue
        if kind is Retreat or isinstance(order, Retreat):
            order = _checked_retreat(position, entry, order, line, listed)
            if order is None:
                continue
        if province in chosen:
            line[VERDICT], line[REASON] = INVALID, "this unit already has a retreat order"
            continue
        line[ORDER] = order
        chosen[province] = line
    return chosen


def _carry_out(
    position: Position, by_unit: dict[int, Dislodged], targets: dict[int, list[int]],
    province: int, line: list[Any], units: dict[int, Unit],
) -> bool:
    """Carry out the order of the dislodged unit in ``province`` (its entry ``line``), moving
    it in ``units`` if it retreats; False if the unit is removed."""
    order = line[ORDER]
    if isinstance(order, Disband):
        line[VERDICT], line[REASON] = SUCCEEDS, "disbanded"
        return False
    if line[VERDICT] == FAILS:  # a retreat to a place it may not go (the variant allows it)
        return False
    loc_province = position.map.loc_province
    rivals = targets[loc_province[order.dest]]
    if len(rivals) == 1:
        units[loc_province[order.dest]] = moved_unit(by_unit[province].unit, order.dest)
        line[VERDICT], line[REASON] = SUCCEEDS, "retreats"
        return True
    # Several retreats to one place: all fail, unless the variant picks a winner.
    m, variant = position.map, position.variant
    name = variant.notation.format_unit
    others = [name(m, by_unit[r].unit) for r in rivals if r != province]
    winner = variant.retreat_clash_winner([by_unit[r].unit for r in rivals])
    if winner is not None and rivals[winner] == province:
        units[loc_province[order.dest]] = moved_unit(by_unit[province].unit, order.dest)
        line[VERDICT] = SUCCEEDS
        line[REASON] = f"retreats; prevails over {', '.join(others)}"
        return True
    line[VERDICT] = FAILS
    if winner is not None:
        best = name(m, by_unit[rivals[winner]].unit)
        line[REASON] = f"{best} prevails there; the unit is disbanded"
    else:
        line[REASON] = f"bounced with {', '.join(others)}; the unit is disbanded"
    return False


_NONE: Final[frozenset[int]] = frozenset()


def refused_retreat(position: Position, entry: Dislodged, dest: int) -> tuple[str, bool]:
    """Why the unit of ``entry`` may not retreat to ``dest`` (a province, or a fleet's exact
    location), and whether ``dest`` is next to it (a blocked retreat, which a variant may let
    the player order and fail, rather than a place the unit could never reach)."""
    m = position.map
    unit = entry.unit
    target = m.province_of(dest)
    if (unit.type is ARMY and target not in m.army_adjacent[m.province_of(unit.loc)]) or (
        unit.type is FLEET and dest not in m.fleet_adjacent[unit.loc]
    ):
        return f"cannot retreat to {m.describe(target)}: it is not next to the unit", False
    if target in position.units:
        why = "it is occupied"
    elif target == entry.attacker_from:
        why = "the attacker came from there"
    elif target in position.contested:
        why = "it was left empty by a standoff"
    else:
        why = "the unit cannot go there"
    return f"cannot retreat to {m.describe(target)}: {why}", True


def _checked_retreat(
    position: Position, entry: Dislodged, order: Retreat, line: list[Any], listed: bool,
) -> Retreat | None:
    """The retreat as it stands (a fleet's coast settled), or None if it is illegal (the
    reading's ``line`` then says why); a blocked retreat the variant lets fail is settled as
    failed in ``line``."""
    m = position.map
    unit = entry.unit
    dest = order.dest
    if unit.type is FLEET:
        if dest not in m.fleet_adjacent[unit.loc]:  # else an exact, reachable location
            try:
                dest = fleet_destination(m, unit.loc, dest)
            except Illegal as exc:
                line[VERDICT], line[REASON] = INVALID, str(exc)
                return None
    else:
        dest = m.loc_province[dest]
    if listed:
        allowed = dest in position.variant.retreat_choices(position, entry)  # the one source
    else:
        allowed = _may_retreat_to(position, entry, dest)
    if not allowed:
        reason, next_to = refused_retreat(position, entry, dest)
        if next_to and position.variant.blocked_retreat_fails:
            # Players who cannot see the board may order it; it fails and the unit is lost.
            line[VERDICT], line[REASON] = FAILS, f"{reason}; the unit is disbanded"
            return Retreat(unit.type, unit.loc, dest)
        line[VERDICT], line[REASON] = INVALID, reason
        return None
    if (type(order) is Retreat and order.dest == dest and order.loc == unit.loc
            and order.unit_type is unit.type):
        return order  # as given (a new one would be equal)
    return Retreat(unit.type, unit.loc, dest)
