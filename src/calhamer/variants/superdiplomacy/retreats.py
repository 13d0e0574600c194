"""The retreat phase: a dislodged stack retreats in parts, each part to a sector next to it
that is empty or holds its own units with room (:func:`retreat_choices`); retreats of several
powers into one sector are all disbanded, as is any unit given no retreat.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from calhamer.map import ARMY, FLEET, Location, ProvinceId, UnitType
from calhamer.orders import Disband, Retreat
from calhamer.phases import Intake
from calhamer.position import Dislodged, Position, Unit
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.validation import Illegal, fleet_destination
from calhamer.views import carry_forward

from .board import _retreat_targets
from .notation import (
    CAPACITY,
    StackDisband,
    StackRetreat,
    _noun,
    as_stack,
    count_of,
    loc_of,
    make_stack,
    unordered,
)
from .seasons import _lasting, advance


def _blocked(position: Position, entry: Dislodged) -> frozenset[ProvinceId]:
    m = position.map
    code = m.provinces[m.province_of(entry.unit.loc)].code
    listed = dict(position.extra.get("retreat_blocked", {}) or {}).get(code)  # type: ignore[call-overload]
    if listed is not None:
        return frozenset(m.province_of(m.loc(c)) for c in listed)
    return frozenset() if entry.attacker_from is None else frozenset({entry.attacker_from})


def retreat_choices(position: Position, entry: Dislodged) -> list[Location]:
    """Every location some unit of the dislodged stack may retreat to."""
    m = position.map
    stack = as_stack(m, entry.unit)
    t = m.province_of(stack.loc)
    out: list[Location] = []
    for unit_type in (ARMY, FLEET):
        if stack.of_type(unit_type):
            out += _retreat_targets(m, position.units, position.contested,
                                    _blocked(position, entry), t, unit_type,
                                    loc_of(m, stack, unit_type), stack.power)
    return sorted(set(out))


def adjudicate_retreats(position: Position, orders: Mapping[str, Any], rules: Rules
                        ) -> PhaseOutcome:
    m = position.map
    intake = Intake(position, orders)
    entries = {m.province_of(d.unit.loc): d for d in position.dislodged}
    stacks = {p: as_stack(m, d.unit) for p, d in entries.items()}
    left = unordered(stacks)
    moves: list[tuple[OrderResult, ProvinceId, UnitType, int, Location]] = []
    for result, order in intake.accepted:
        if not isinstance(order, Retreat | Disband):
            intake.illegal(result, "only retreat and disband orders are given in a retreat phase")
            continue
        sector = m.province_of(order.loc)
        stack = stacks.get(sector)
        if stack is None:
            intake.illegal(result, f"no dislodged units in {m.describe(sector)} have to retreat")
            continue
        if stack.power != result.power:
            intake.illegal(result, f"the dislodged units in {m.describe(sector)} are not yours")
            continue
        unit_type = stack.meant(order.unit_type)
        if unit_type is None:
            intake.illegal(result, "say whether the armies (A) or the fleets (F) are meant")
            continue
        n = count_of(order)
        if n > left[(sector, unit_type)]:
            intake.illegal(result, f"only {left[(sector, unit_type)]} "
                           f"{_noun(unit_type, 2)} in {m.describe(sector)} are left to order")
            continue
        loc = loc_of(m, stack, unit_type)
        if isinstance(order, Retreat):
            try:
                dest = (fleet_destination(m, loc, order.dest) if unit_type is FLEET
                        else m.province_of(order.dest))
            except Illegal as exc:
                intake.illegal(result, str(exc))
                continue
            options = _retreat_targets(m, position.units, position.contested,
                                       _blocked(position, entries[sector]), sector, unit_type,
                                       loc, stack.power)
            if dest not in options:
                intake.illegal(result, f"cannot retreat to {m.describe(m.province_of(dest))}: "
                               "it is not next to the units, or occupied, full, left empty by "
                               "a standoff, or where the attack came from")
                continue
            left[(sector, unit_type)] -= n
            result.order = StackRetreat(unit_type, loc, dest, count=n)
            moves.append((result, sector, unit_type, n, dest))
        else:
            left[(sector, unit_type)] -= n
            result.order = StackDisband(unit_type, loc, count=n)
            result.reason = "disbanded"

    units: dict[ProvinceId, Unit] = dict(position.units)
    by_dest: dict[ProvinceId, list[tuple[OrderResult, ProvinceId, UnitType, int, Location]]] = {}
    for item in moves:
        by_dest.setdefault(m.province_of(item[4]), []).append(item)
    removed: list[int] = []
    for q, items in sorted(by_dest.items()):
        powers = {i[0].power for i in items}
        there = as_stack(m, units[q]) if q in units else None
        armies = there.armies if there else 0
        fleets = there.fleets if there else 0
        coasts = {there.loc} if there and there.fleets else set()
        armies += sum(i[3] for i in items if i[2] is ARMY)
        fleets += sum(i[3] for i in items if i[2] is FLEET)
        coasts |= {i[4] for i in items if i[2] is FLEET}
        problem = ""
        if len(powers) > 1:
            problem = "retreats of several powers met there; all are disbanded"
        elif armies + fleets > CAPACITY:
            problem = f"{armies + fleets} units would stand there; six is the most"
        elif len(coasts) > 1:
            problem = "fleets of one sector must stand on one coast"
        if problem:
            for result, sector, *_ in items:
                result.result, result.reason = FAILS, problem
                removed.append(sector)
            continue
        fleet_loc = next(iter(coasts)) if coasts else None
        units[q] = make_stack(m, items[0][0].power, q, armies, fleets, fleet_loc)  # type: ignore[assignment]
        for result, *_ in items:
            result.result, result.reason = SUCCEEDS, "retreats"
    for (sector, unit_type), n in sorted(left.items()):
        if n:
            stack = stacks[sector]
            canonical = intake.write(StackDisband(unit_type, loc_of(m, stack, unit_type), count=n))
            intake.results.setdefault(stack.power, []).append(
                OrderResult(stack.power, "", canonical, SUCCEEDS,
                            "no retreat ordered, so the units are disbanded")
            )
            removed.append(sector)
    after = position.replace(units=units, dislodged=(), contested=frozenset(),
                             extra=MappingProxyType(_lasting(position.extra)))
    after, nxt = carry_forward(position, None, after, advance(after, None))
    return PhaseOutcome(position, intake.finish(), after, nxt, removed=removed)
