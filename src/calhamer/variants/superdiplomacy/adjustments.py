"""The adjustment phases, after Spring and after Fall: builds, removals and the Small Powers'
own builds.

Builds go in owned sectors with production left (:mod:`.seasons`) and room, as many as the
supply lines joined to the sector have centres to spare (:mod:`.supply`). After Fall a power
with more units than centres in one component removes the excess; units nobody chose to remove
go farthest from the centres first.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from calhamer.map import ARMY, FLEET, ProvinceId, UnitType
from calhamer.orders import Build, Disband, Waive
from calhamer.phases import Intake
from calhamer.position import Position
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.views import carry_forward

from .notation import (
    CAPACITY,
    StackBuild,
    StackDisband,
    _count,
    _noun,
    as_stack,
    count_of,
    loc_of,
    make_stack,
)
from .seasons import _lasting, _small_power_builds, advance, production
from .supply import Component, sector_distances, supply_components


def adjudicate_adjustments(position: Position, orders: Mapping[str, Any], rules: Rules
                           ) -> PhaseOutcome:
    m = position.map
    intake = Intake(position, orders)
    season = "S" if position.phase.season == "S" else "W"
    stacks: dict[ProvinceId, list[Any]] = {}  # province -> [power, armies, fleets, fleet_loc]
    for p, unit in position.units.items():
        s = as_stack(m, unit)
        stacks[p] = [s.power, s.armies, s.fleets, s.loc if s.fleets else None]
    comps: dict[str, list[Component]] = {p: supply_components(position, p)
                                          for p in m.power_codes}
    comp_of = {(c.power, p): c for cs in comps.values() for c in cs for p in c.sectors}
    to_remove = {id(c): (c.excess if season == "W" else 0) for cs in comps.values() for c in cs}
    spare = {id(c): c.spare for cs in comps.values() for c in cs}
    built: dict[ProvinceId, int] = {}
    removed: list[int] = []

    for result, order in intake.accepted:
        power = result.power
        if m.is_minor(power):
            intake.illegal(result, "the Small Powers take no orders: they build by themselves")
            continue
        if isinstance(order, Waive):
            result.reason = "build waived"
            continue
        if isinstance(order, Build):
            _build(position, intake, result, order, power, stacks, comp_of, spare, built, season)
        elif isinstance(order, Disband):
            _remove(position, intake, result, order, power, stacks, comp_of, to_remove, season,
                    removed)
        else:
            intake.illegal(result, "only builds, removals and waives are given now")

    # Units nobody chose to remove: those farthest from the centres that supply their sector.
    for power in m.power_codes:
        for comp in comps[power]:
            due = to_remove[id(comp)]
            if due <= 0:
                continue
            chosen: dict[tuple[ProvinceId, UnitType], int] = {}
            for key in _removal_order(position, comp, stacks)[:due]:
                chosen[key] = chosen.get(key, 0) + 1
            for (p, unit_type), n in chosen.items():
                entry = stacks[p]
                entry[2 if unit_type is FLEET else 1] -= n
                removed.append(p)
                loc = entry[3] if unit_type is FLEET else p
                canonical = intake.write(StackDisband(unit_type, loc, count=n))
                intake.results.setdefault(power, []).append(OrderResult(
                    power, "", canonical, SUCCEEDS,
                    f"removed: the supply lines there reach {_count(comp.centres, 'centre')} "
                    f"for {_count(comp.units, 'unit')} (too few removals ordered)"))

    for p, n in _small_power_builds(position).items():
        owner = position.centers[p]
        entry = stacks.setdefault(p, [owner, 0, 0, None])
        entry[1] += n
        canonical = intake.write(StackBuild(ARMY, p, count=n))
        intake.results.setdefault(owner, []).append(OrderResult(
            owner, "", canonical, SUCCEEDS, "built: the Small Powers are armed"))

    units = {}
    for p, (power, armies, fleets, fleet_loc) in stacks.items():
        stack = make_stack(m, power, p, armies, fleets, fleet_loc)
        if stack is not None:
            units[p] = stack
    after = position.replace(units=units, extra=MappingProxyType(_lasting(position.extra)))
    after, nxt = carry_forward(position, None, after, advance(after, None))
    return PhaseOutcome(position, intake.finish(), after, nxt, removed=removed)


def _build(position, intake, result, order, power, stacks, comp_of, spare, built, season) -> None:
    m = position.map
    p = m.province_of(order.loc)
    province = m.provinces[p]
    n = count_of(order)
    if position.centers.get(p) != power:
        intake.illegal(result, f"{power} does not own {m.describe(p)}")
        return
    unit = position.units.get(p)
    if unit is not None and unit.power != power:
        intake.illegal(result, f"{m.describe(p)} is held by another power's units")
        return
    rate = production(m, p, season)
    if rate == 0:
        intake.illegal(result, f"{m.describe(p)} is a minor sector: it builds only after Fall")
        return
    unit_type = order.unit_type
    if unit_type is None:
        intake.illegal(result, "say whether to build armies (A) or fleets (F)")
        return
    loc = p
    entry = stacks.get(p)
    if unit_type is FLEET:
        if not m.is_coastal(p):
            intake.illegal(result, f"a fleet cannot be built in {m.describe(p)}")
            return
        if province.coasts:
            if m.loc_coast[order.loc] is None:
                coasts = " or ".join(m.loc_name(c) for c in m.coast_locations(p))
                intake.illegal(result, f"say which coast the fleets are built on: {coasts}")
                return
            loc = order.loc
            if entry is not None and entry[2] and entry[3] != loc:
                intake.illegal(result, "the fleets of one sector all stand on one coast")
                return
    if built.get(p, 0) + n > rate:
        result.result = FAILS
        result.reason = f"{m.describe(p)} can produce only {_count(rate, 'unit')} now"
        return
    have = (entry[1] + entry[2]) if entry is not None else 0
    if have + n > CAPACITY:
        result.result, result.reason = FAILS, f"no room: {m.describe(p)} would hold {have + n}"
        return
    comp = comp_of.get((power, p))
    if comp is None or spare[id(comp)] < n:
        left = 0 if comp is None else spare[id(comp)]
        result.result = FAILS
        result.reason = (f"the centres joined to {province.code} by supply lines can supply "
                         f"only {left} more {'unit' if left == 1 else 'units'}")
        return
    spare[id(comp)] -= n
    built[p] = built.get(p, 0) + n
    if entry is None:
        entry = stacks[p] = [power, 0, 0, None]
    if unit_type is FLEET:
        entry[2] += n
        entry[3] = loc
    else:
        entry[1] += n
    result.order = StackBuild(unit_type, loc, count=n)
    result.reason = "built"


def _remove(position, intake, result, order, power, stacks, comp_of, to_remove, season,
            removed) -> None:
    m = position.map
    p = m.province_of(order.loc)
    if season != "W":
        intake.illegal(result, "units are removed only after Fall")
        return
    entry = stacks.get(p)
    unit = position.units.get(p)
    if unit is None or unit.power != power or entry is None:
        intake.illegal(result, f"{power} has no units in {m.describe(p)}")
        return
    stack = as_stack(m, unit)
    unit_type = stack.meant(order.unit_type)
    if unit_type is None:
        intake.illegal(result, "say whether armies (A) or fleets (F) are removed")
        return
    comp = comp_of[(power, p)]
    due = to_remove[id(comp)]
    if comp.excess == 0:
        intake.illegal(result, f"the units in {m.describe(p)} are all supplied: none has to go")
        return
    n = count_of(order)
    have = entry[2] if unit_type is FLEET else entry[1]
    if n > have:
        result.result, result.reason = FAILS, f"only {have} {_noun(unit_type, have)} are left there"
        return
    if n > due:
        result.result = FAILS
        result.reason = f"only {due} more {'unit has' if due == 1 else 'units have'} to go there"
        return
    to_remove[id(comp)] -= n
    entry[2 if unit_type is FLEET else 1] -= n
    removed.append(p)
    result.order = StackDisband(unit_type, loc_of(m, stack, unit_type), count=n)
    result.reason = "removed"


def _removal_order(
    position: Position, comp: Component, stacks: Mapping[ProvinceId, list[Any]]
) -> list[tuple[ProvinceId, UnitType]]:
    """The power's units left in ``comp``, one entry per unit, the first to go first: farthest
    from the power's centres in the component, fleets before armies, then by sector name."""
    m = position.map
    sources = [p for p in comp.sectors if position.centers.get(p) == comp.power]
    distance = sector_distances(m, sources, comp.sectors.__contains__)
    units: list[tuple[ProvinceId, UnitType]] = []
    for p in comp.sectors:
        entry = stacks.get(p)
        if entry is None or entry[0] != comp.power:
            continue
        units += [(p, FLEET)] * entry[2] + [(p, ARMY)] * entry[1]
    units.sort(key=lambda pu: (-distance.get(pu[0], 10_000), pu[1] is ARMY,
                               m.provinces[pu[0]].name))
    return units
