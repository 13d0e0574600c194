"""Supply lines: which of a Great Power's centres can supply which of its units.

:func:`supply_components` splits a power's network into :class:`Component` sets of sectors
(each supplying as many units as it has centres of the power); :func:`sector_distances`
measures along them, for the units removed first.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from calhamer.map import Map, ProvinceId, Terrain
from calhamer.position import Position


@cache
def sector_neighbours(m: Map) -> tuple[frozenset[ProvinceId], ...]:
    """Sectors next to each sector by land or by sea (supply lines use both)."""
    return tuple(
        frozenset(m.army_adjacent[p] | m.province_fleet_adjacent[p])
        for p in range(m.province_count)
    )


def sector_distances(
    m: Map, sources: Iterable[ProvinceId], allowed: Callable[[ProvinceId], bool]
) -> dict[ProvinceId, int]:
    """How many steps between sectors each sector reached from ``sources`` is, going only
    through sectors for which ``allowed`` holds (the sources are always reached, at 0)."""
    near = sector_neighbours(m)
    distance = {p: 0 for p in sources}
    queue = deque(distance)
    while queue:
        p = queue.popleft()
        for q in near[p]:
            if q not in distance and allowed(q):
                distance[q] = distance[p] + 1
                queue.append(q)
    return distance


@dataclass(eq=False)
class Component:
    """Sectors joined by supply lines for one power: its centres there supply its units there."""

    power: str
    sectors: frozenset[ProvinceId]
    centres: int
    units: int

    @property
    def excess(self) -> int:
        return max(0, self.units - self.centres)

    @property
    def spare(self) -> int:
        return max(0, self.centres - self.units)


def supply_components(position: Position, power: str) -> list[Component]:
    """The supply network of a Great Power, split where other Great Powers own or hold sectors.

    A unit is supplied from a centre when a chain of adjacent sectors joins them through no
    sector owned or occupied by another Great Power (Small Powers do not count). Within one
    connected set of such sectors every centre can supply any unit, so each set supplies as many
    units as it has centres of the power.
    """
    m = position.map
    others = {p for p in m.power_codes if p != power}
    mine = {p for p, u in position.units.items() if u.power == power}

    def open_(p: ProvinceId) -> bool:
        if p in mine:
            return True  # a line may end in the unit's own sector, whoever owns it
        if m.provinces[p].terrain is Terrain.IMPASSABLE:
            return False
        if position.centers.get(p) in others:
            return False
        unit = position.units.get(p)
        return unit is None or unit.power not in others

    owned = {p for p, o in position.centers.items() if o == power}
    starts = sorted(mine | {p for p in owned if open_(p)})
    seen: set[ProvinceId] = set()
    out = []
    for s in starts:
        if s in seen:
            continue
        part = set(sector_distances(m, [s], open_))
        seen |= part
        centres = sum(m.provinces[p].centres for p in part if p in owned)
        units = sum(position.units[p].count for p in part if p in mine)
        out.append(Component(power, frozenset(part), centres, units))
    return out
