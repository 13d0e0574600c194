"""The minor powers of a board, as the rule modules that give them units read them: their
start units, whether they are garrisons or stationary, and what each winter rebuilds.

Minor powers are map data (``[minor_powers.CODE]``, ``docs/maps.md``): no player commands
them. Two modules play them: ``neutrals`` (the DP module, whose players buy their orders with
Diplomacy Points) and ``garrisons`` (units that only hold and are removed when dislodged).
What the two share is here: the map's minor powers, the units DP may buy (those of minor
powers that are no garrison), removal when dislodged, and the winter's rebuilds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from calhamer import notation
from calhamer.map import ARMY, FLEET, Map, Terrain
from calhamer.orders import AnyOrder, Build
from calhamer.position import Position, Unit

__all__ = ["MinorPower", "garrison_rebuilds", "is_garrison", "is_stationary",
           "minor_powers", "neutral_units", "rebuilds", "removed_when_dislodged"]


@dataclass(frozen=True)
class MinorPower:
    """A minor power of a map: its start units (as written), whether they are stationary and
    the default orders of its units (texts; a unit with none holds); whether it is a garrison
    and, if so, whether it rebuilds."""

    code: str
    name: str
    units: tuple[str, ...]
    stationary: bool = True
    defaults: tuple[str, ...] = ()
    garrison: bool = False
    rebuild: bool = True


@cache
def minor_powers(m: Map) -> dict[str, MinorPower]:
    """The minor powers of ``m``, read from its ``[minor_powers]`` tables."""
    found: dict[str, MinorPower] = {}
    for power in m.minor_powers:
        info = m.file.minor_powers.get(power.code)
        if info is None:  # a map built without a file
            found[power.code] = MinorPower(power.code, power.name, ())
            continue
        default = info.default  # "hold" or a list of orders, as the map file's model says
        if isinstance(default, str):
            default = [] if default.strip().lower() == "hold" else [default]
        found[power.code] = MinorPower(
            power.code, power.name, tuple(info.units), info.stationary, tuple(default),
            info.garrison, info.rebuild,
        )
    return found


def is_stationary(m: Map, unit: Unit) -> bool:
    minor = minor_powers(m).get(unit.power)
    return minor is not None and minor.stationary


def is_garrison(m: Map, unit: Unit) -> bool:
    """Whether ``unit`` belongs to a garrison minor power (it only holds)."""
    minor = minor_powers(m).get(unit.power)
    return minor is not None and minor.garrison


def removed_when_dislodged(m: Map, unit: Unit) -> bool:
    """Whether ``unit`` is destroyed when dislodged, with no retreat: a stationary neutral
    unit's (DP) or a garrison's."""
    minor = minor_powers(m).get(unit.power)
    return minor is not None and (minor.stationary or minor.garrison)


def neutral_units(position: Position) -> dict[int, Unit]:
    """The units of minor powers whose orders DP may buy (every minor power's but a
    garrison's), by province."""
    m = position.map
    found = minor_powers(m)
    return {p: u for p, u in position.units.items()
            if u.power in found and not found[u.power].garrison}


def rebuilds(position: Position) -> dict[str, list[AnyOrder]]:
    """Winter (DP): each minor power rebuilds, in every vacant centre it still owns, the unit
    that stood there at the start of the game."""
    m = position.map
    orders: dict[str, list[AnyOrder]] = {}
    for code, minor in minor_powers(m).items():
        if minor.garrison:
            continue  # a garrison rebuilds by its own rule (garrison_rebuilds)
        for spec in minor.units:
            start = notation.parse_unit(m, spec, code)
            province = m.province_of(start.loc)
            if position.centers.get(province) == code and province not in position.units:
                orders.setdefault(code, []).append(Build(start.type, start.loc))
    return orders


def garrison_rebuilds(position: Position) -> dict[str, list[AnyOrder]]:
    """Winter (garrisons): each garrison that rebuilds builds an army in every empty home
    centre it still owns (a fleet in a sea centre)."""
    m = position.map
    orders: dict[str, list[AnyOrder]] = {}
    for code, minor in minor_powers(m).items():
        if not (minor.garrison and minor.rebuild):
            continue
        for province in m.home_centers(code):
            if position.centers.get(province) == code and province not in position.units:
                kind = FLEET if m.provinces[province].terrain is Terrain.SEA else ARMY
                orders.setdefault(code, []).append(Build(kind, province))
    return orders
