"""What the drawer needs of a board: its provinces, their terrain and who touches whom.

A :class:`Board` is read from a :class:`~calhamer.map.Map` alone. Adjacency is taken both ways
and over both unit types (a one-way move still needs the two provinces to meet on the map); a
pair is *army* when an army may cross between them (a land border) and *fleet only* when only
fleets may (a strait or a shared sea). Split coasts keep, for each coast, the provinces its
fleets reach, so that the fleet can be drawn on the side of the sea it touches.
"""

from __future__ import annotations

from dataclasses import dataclass

from calhamer.map import Map, Terrain

Point = tuple[float, float]


@dataclass(frozen=True)
class Board:
    """A board as the drawer sees it; provinces are numbered as in the map."""

    codes: tuple[str, ...]
    terrain: tuple[Terrain, ...]
    centre: tuple[bool, ...]
    adjacent: tuple[frozenset[int], ...]  # every neighbour, whatever the unit or direction
    army_pairs: frozenset[tuple[int, int]]  # (a, b) with a < b: an army crosses
    coasts: tuple[tuple[tuple[str, frozenset[int]], ...], ...]  # (coast, provinces it reaches)
    hints: dict[int, Point]  # x, y from the map file

    @property
    def count(self) -> int:
        return len(self.codes)

    def is_sea(self, p: int) -> bool:
        return self.terrain[p] is Terrain.SEA

    def is_impassable(self, p: int) -> bool:
        return self.terrain[p] is Terrain.IMPASSABLE

    def pairs(self) -> list[tuple[int, int]]:
        """Every adjacent pair once, ``(a, b)`` with ``a < b``, in order."""
        return [(a, b) for a in range(self.count) for b in sorted(self.adjacent[a]) if a < b]

    def components(self) -> list[list[int]]:
        """The connected groups of provinces, each sorted, largest first (ties: first code)."""
        seen = [False] * self.count
        groups = []
        for start in range(self.count):
            if seen[start]:
                continue
            seen[start] = True
            group, stack = [], [start]
            while stack:
                p = stack.pop()
                group.append(p)
                for q in self.adjacent[p]:
                    if not seen[q]:
                        seen[q] = True
                        stack.append(q)
            groups.append(sorted(group))
        groups.sort(key=lambda g: (-len(g), g[0]))
        return groups


def board_of(m: Map) -> Board:
    """The drawer's view of ``m``."""
    n = len(m.provinces)
    near: list[set[int]] = [set() for _ in range(n)]
    army: set[tuple[int, int]] = set()
    for a in range(n):
        for q in m.army_adjacent[a]:
            if q != a:
                near[a].add(q)
                near[q].add(a)
                army.add((min(a, q), max(a, q)))
        for q in m.province_fleet_adjacent[a]:
            if q != a:
                near[a].add(q)
                near[q].add(a)
    coasts = []
    for p in m.provinces:
        entries = []
        for loc in m.coast_locations(p.id):
            reached = frozenset(m.loc_province[d] for d in m.fleet_adjacent[loc])
            entries.append((m.loc_coast[loc] or "", reached))
        coasts.append(tuple(entries))
    hints = {}
    for p in m.provinces:
        entry = m.file.provinces.get(p.code)
        if entry is not None and entry.x is not None and entry.y is not None:
            hints[p.id] = (float(entry.x), float(entry.y))
    return Board(
        codes=tuple(p.code for p in m.provinces),
        terrain=tuple(p.terrain for p in m.provinces),
        centre=tuple(p.is_supply_center for p in m.provinces),
        adjacent=tuple(frozenset(s) for s in near),
        army_pairs=frozenset(army),
        coasts=tuple(coasts),
        hints=hints,
    )
