"""The seasons: what each sector may produce after Spring and after Fall, the Small Powers
arming after the first attack on one of them, whether an adjustment phase is due, and which
phase comes next (:func:`advance`).

Majors (sectors counting for five centres) produce one unit after Spring and two after Fall;
minors one after Fall. The orders of an adjustment phase are judged in :mod:`.adjustments`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from calhamer.map import Map, ProvinceId
from calhamer.phases import update_centers
from calhamer.position import Phase, Position

from .notation import CAPACITY
from .supply import Component, supply_components


def is_major_sector(m: Map, province: ProvinceId) -> bool:
    """Majors count for five centres (``[centres]`` in the map), minors for one."""
    return m.provinces[province].centres > 1


def production(m: Map, province: ProvinceId, season: str) -> int:
    """Units a sector may produce: majors one after Spring and two after Fall, minors one after
    Fall (``season`` is that of the adjustment phase: S after Spring, W after Fall)."""
    if season == "S":
        return 1 if is_major_sector(m, province) else 0
    return 2 if is_major_sector(m, province) else 1


def small_power_production(position: Position, province: ProvinceId) -> int:
    """What an armed Small Power's sector builds this adjustment phase (0 if unarmed)."""
    m = position.map
    armed = position.extra.get("armed")
    if not armed:
        return 0
    phase = position.phase
    spring_attack = armed == f"S{phase.year}M"
    if phase.season == "S":
        return 1 if is_major_sector(m, province) or spring_attack else 0
    if is_major_sector(m, province):
        return 2
    return 0 if spring_attack else 1


def _small_power_builds(position: Position) -> dict[ProvinceId, int]:
    m = position.map
    out = {}
    for p, owner in sorted(position.centers.items()):
        if not m.is_minor(owner):
            continue
        unit = position.units.get(p)
        if unit is not None and unit.power != owner:
            continue
        have = unit.count if unit is not None else 0
        n = min(small_power_production(position, p), m.provinces[p].centres - have,
                CAPACITY - have)
        if n > 0 and not m.is_sea(p):
            out[p] = n
    return out


def _can_build(position: Position, power: str, comps: list[Component], season: str) -> bool:
    m = position.map
    for comp in comps:
        if not comp.spare:
            continue
        for p in comp.sectors:
            if position.centers.get(p) != power or not production(m, p, season):
                continue
            unit = position.units.get(p)
            if unit is None or (unit.power == power and unit.count < CAPACITY):
                return True
    return False


def adjustments_due(position: Position) -> bool:
    """Whether anyone builds or removes in this adjustment phase (else it is skipped)."""
    season = position.phase.season
    if _small_power_builds(position):
        return True
    for power in position.map.power_codes:
        comps = supply_components(position, power)
        if season == "W" and any(c.excess for c in comps):
            return True
        if _can_build(position, power, comps, season):
            return True
    return False


def _lasting(extra: Mapping[str, object], **changes: object) -> dict[str, object]:
    """The variant fields that outlive a phase (the Small Powers' state), with ``changes``."""
    kept = {k: v for k, v in extra.items() if k == "armed"}
    for key, value in changes.items():
        if value is None:
            kept.pop(key, None)
        else:
            kept[key] = value
    return kept


def advance(position: Position, record: Mapping[str, object] | None) -> Position:
    """The next phase to play after ``position`` (whose phase is over); ``record`` is the dice
    log of the movement phase just played, which travels with the next phase's document."""
    phase = position.phase
    extra = _lasting(position.extra)
    base = position.replace(dislodged=(), contested=frozenset(), extra=MappingProxyType(extra))
    if phase.kind == "A":
        after = Phase(phase.year, "F", "M") if phase.season == "S" else Phase(phase.year + 1,
                                                                                "S", "M")
        nxt = base.replace(phase=after)
    else:
        if phase.season == "S":
            adj = base.replace(phase=Phase(phase.year, "S", "A"))
        else:
            adj = base.replace(phase=Phase(phase.year, "W", "A"), centers=update_centers(base))
        # Under fog every adjustment phase is played, needed or not: skipping one would tell
        # every power that nobody had a build or a removal due (the staged release).
        hidden = position.variant.visibility.hidden_information
        nxt = adj if hidden or adjustments_due(adj) else advance(adj, None)
    if record is not None:
        nxt = nxt.replace(extra=MappingProxyType({**nxt.extra, "dice": record}))
    return nxt
