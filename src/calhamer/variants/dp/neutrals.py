"""The minor powers of a DP map and their neutral units: what the map says of them, how their
stationary units move (they never do), and what they rebuild in winter.

Minor powers are map data (``[minor_powers.CODE]``, see ``docs/maps.md``): their units, home
centres, default order (Hold unless the map says otherwise) and whether their units are
stationary. No player commands them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from calhamer import notation
from calhamer.adjudicator import MovementResolver, OrderTable
from calhamer.map import Map
from calhamer.orders import AnyOrder, Build
from calhamer.position import Position, Unit

# -- minor powers as map data --------------------------------------------------------------------


@dataclass(frozen=True)
class MinorPower:
    """A minor power of a map: its start units (as written), whether they are stationary and
    the default orders of its units (texts; a unit with none holds)."""

    code: str
    name: str
    units: tuple[str, ...]
    stationary: bool = True
    defaults: tuple[str, ...] = ()


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
            power.code, power.name, tuple(info.units), info.stationary, tuple(default)
        )
    return found


def is_stationary(m: Map, unit: Unit) -> bool:
    minor = minor_powers(m).get(unit.power)
    return minor is not None and minor.stationary


def neutral_units(position: Position) -> dict[int, Unit]:
    """The units of minor powers, by province."""
    m = position.map
    return {p: u for p, u in position.units.items() if m.is_minor(u.power)}


# -- stationary units ------------------------------------------------------------------------------


class DPResolver(MovementResolver):
    """Stationary units: their moves (sorties) always fail but otherwise act as moves.

    A sortie keeps its prevent strength (it bounces others and protects an empty province), its
    defend strength in a head-to-head battle and its power to cut support; only its own MOVE
    decision is forced to fail, so it never dislodges anything.
    """

    def __init__(
        self,
        table: OrderTable,
        neutral: frozenset[int] = frozenset(),
        worlds: dict[frozenset[int], MovementResolver] | None = None,
    ) -> None:
        m = table.map
        self.stationary = [False] * len(table.kind)
        for province, unit in table.position.units.items():
            if is_stationary(m, unit):
                self.stationary[province] = True
        super().__init__(table, neutral, worlds)

    def decide_move(self, p: int) -> bool:
        if self.stationary[p]:
            return False  # a sortie: the unit never leaves its province
        return super().decide_move(p)

    def standoff(self, q: int) -> bool:
        # A sortie that bounces in an otherwise uncontested province leaves it contested.
        if super().standoff(q):
            return True
        return any(self.stationary[p] and self.path(p) for p in self.table.movers_to[q])

    def move_failure_reason(self, p: int) -> str:
        if self.stationary[p]:
            return "sortie: a stationary unit never leaves its province"
        return super().move_failure_reason(p)


# -- winter ----------------------------------------------------------------------------------------


def rebuilds(position: Position) -> dict[str, list[AnyOrder]]:
    """Winter: each minor power rebuilds, in every vacant centre it still owns, the unit that
    stood there at the start of the game."""
    m = position.map
    orders: dict[str, list[AnyOrder]] = {}
    for code, minor in minor_powers(m).items():
        for spec in minor.units:
            start = notation.parse_unit(m, spec, code)
            province = m.province_of(start.loc)
            if position.centers.get(province) == code and province not in position.units:
                orders.setdefault(code, []).append(Build(start.type, start.loc))
    return orders
