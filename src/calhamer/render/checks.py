"""Whether a board's drawing tells the truth about the board: adjacency both ways.

Two shapes *touch* when they share at least two corners (to a tenth of a unit): a border,
not a point. The check the standard board's geometry passes, for any board and drawing:

- every province of the board has a shape (not a round node), and every split coast a place
  for its fleet, every supply centre a marker;
- provinces that are adjacent on the board touch, or have a drawn connector (a bridge or a
  canal) between them;
- provinces that touch are adjacent on the board (impassable ones, like Switzerland, may
  touch anything).

Each problem is one line naming the provinces.
"""

from __future__ import annotations

from calhamer.map import Map, Terrain
from calhamer.render.geometry import Geometry
from calhamer.render.paths import path_points


def geometry_problems(m: Map, geo: Geometry) -> list[str]:
    """Every way ``geo`` misdraws ``m``, one line each (empty when it draws it truly)."""
    problems = []
    corners: dict[str, set[tuple[float, float]]] = {}
    for p in m.provinces:
        shape = geo.shapes.get(p.code)
        if shape is None or shape.node:
            problems.append(f"{p.code} has no shape (it would be drawn as a round node)")
            continue
        try:
            corners[p.code] = {(round(x, 1), round(y, 1)) for x, y in path_points(shape.d)}
        except ValueError as exc:
            problems.append(f"{p.code}: its path {exc}")
            continue
        for coast in p.coasts:
            if coast not in shape.coasts:
                problems.append(f"{p.code}/{coast} has no place for a fleet on that coast")
        if p.is_supply_center and shape.sc is None:
            problems.append(f"{p.code} is a supply centre with no marker (sc)")
    linked = {frozenset((c.a, c.b)) for c in geo.connectors}
    touching = _touching(corners)
    walls = {p.code for p in m.provinces if p.terrain is Terrain.IMPASSABLE}
    for a, b in _adjacent(m):
        pair = frozenset((a, b))
        if a in corners and b in corners and pair not in touching and pair not in linked:
            problems.append(f"{a} and {b} are adjacent but their shapes do not touch "
                            "and no bridge or canal joins them")
    adjacent = {frozenset(pair) for pair in _adjacent(m)}
    for pair in sorted(touching, key=sorted):
        if pair not in adjacent and not pair & walls:
            a, b = sorted(pair)
            problems.append(f"{a} and {b} touch but are not adjacent on the board")
    return problems


def _adjacent(m: Map) -> list[tuple[str, str]]:
    """Every adjacent pair of provinces once, by code, whatever the unit or direction."""
    pairs = set()
    for p in m.provinces:
        for q in m.army_adjacent[p.id] | m.province_fleet_adjacent[p.id]:
            if q != p.id:
                a, b = sorted((p.code, m.provinces[q].code))
                pairs.add((a, b))
    return sorted(pairs)


def _touching(corners: dict[str, set[tuple[float, float]]]) -> set[frozenset[str]]:
    """The pairs of shapes sharing two corners or more."""
    owners: dict[tuple[float, float], list[str]] = {}
    for code, points in corners.items():
        for point in points:
            owners.setdefault(point, []).append(code)
    shared: dict[frozenset[str], int] = {}
    for codes in owners.values():
        for i, a in enumerate(codes):
            for b in codes[i + 1:]:
                pair = frozenset((a, b))
                shared[pair] = shared.get(pair, 0) + 1
    return {pair for pair, count in shared.items() if count >= 2}
