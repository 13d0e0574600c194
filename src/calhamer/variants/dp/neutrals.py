"""The neutral units of a DP map: how their stationary units move (they never do).

Minor powers are map data (``[minor_powers.CODE]``, see ``docs/maps.md``): their units, home
centres, default order (Hold unless the map says otherwise) and whether their units are
stationary. No player commands them. What the map says of them, and what they rebuild in
winter, is read in :mod:`calhamer.variants.minors`, which the garrisons module shares.
"""

from __future__ import annotations

from calhamer.adjudicator import MovementResolver, OrderTable

# The minor powers as map data, shared with the garrisons module (and importable from here, as
# they were written here first).
from calhamer.variants.minors import (  # noqa: F401
    MinorPower,
    is_stationary,
    minor_powers,
    neutral_units,
    rebuilds,
)

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
