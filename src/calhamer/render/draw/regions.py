"""Provinces grown as regions on a fine grid, with neutral land between those that must not meet.

Every province grows from its middle at the same speed, so the regions come out much like a
Voronoi diagram of the middles (its weight lets one grow faster where it has too little room),
and no further than ``reach`` from its middle. A cell goes to a province only if no province
that is *not* its neighbour on the board holds a cell within ``gap`` cells of it: so two
provinces that are not adjacent never touch (not even at a corner), and the cells none may take
stay neutral. Neutral cells become land or water: land next to an inland province or between
two provinces that must not meet (a strip no unit may cross), else the terrain of the nearest
province (water beyond the seas, land beyond the shores).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from calhamer.render.draw.graph import Board, Point

LAND = -1  # a neutral cell of land
WATER = -2  # a neutral cell of water
SEA_REACH = 1.6  # how much further than land a sea grows


@dataclass
class Grid:
    """``w`` x ``h`` cells of ``size`` pixels, the first one's corner at ``origin``."""

    w: int
    h: int
    size: float
    origin: Point
    owner: list[int]  # a province, LAND or WATER, by cell (y * w + x)

    def centre(self, cell: int) -> Point:
        y, x = divmod(cell, self.w)
        return (self.origin[0] + (x + 0.5) * self.size, self.origin[1] + (y + 0.5) * self.size)

    def cell_at(self, p: Point) -> int:
        x = min(self.w - 1, max(0, int((p[0] - self.origin[0]) / self.size)))
        y = min(self.h - 1, max(0, int((p[1] - self.origin[1]) / self.size)))
        return y * self.w + x

    def cells_of(self) -> dict[int, list[int]]:
        """Each owner's cells, in order."""
        out: dict[int, list[int]] = {}
        for cell, who in enumerate(self.owner):
            out.setdefault(who, []).append(cell)
        return out


def grow(board: Board, sites: list[Point], grid: Grid, *, gap: int, reach: float,
         weight: list[float]) -> None:
    """Fill ``grid.owner`` with the provinces grown from ``sites`` (then the neutral cells)."""
    w, h, size = grid.w, grid.h, grid.size
    ox, oy = grid.origin
    owner = [-3] * (w * h)  # -3: not taken yet
    near: list[tuple[int, ...]] = [()] * (w * h)
    n = board.count
    walls = {q for q in range(n) if board.is_impassable(q)}
    # Whom each province may come near: its neighbours, itself and impassable land.
    ok = [frozenset(range(n)) if p in walls else board.adjacent[p] | {p} | walls
          for p in range(n)]
    heap: list[tuple[float, int, int]] = []
    for p, xy in enumerate(sites):
        heapq.heappush(heap, (0.0, grid.cell_at(xy), p))
    sx = [x for x, _ in sites]
    sy = [y for _, y in sites]
    # Seas grow further (open water round the coasts), land stops at reach.
    limit = [reach * weight[p] * (SEA_REACH if board.is_sea(p) else 1.0) for p in range(n)]
    while heap:
        _, cell, p = heapq.heappop(heap)
        if owner[cell] != -3:
            continue
        okp = ok[p]
        if any(q not in okp for q in near[cell]):
            continue
        owner[cell] = p
        y, x = divmod(cell, w)
        for yy in range(max(0, y - gap), min(h, y + gap + 1)):
            row = yy * w
            for xx in range(max(0, x - gap), min(w, x + gap + 1)):
                k = row + xx
                if p not in near[k]:
                    near[k] = (*near[k], p)
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h:
                k = ny * w + nx
                if owner[k] == -3:
                    cx = ox + (nx + 0.5) * size - sx[p]
                    cy = oy + (ny + 0.5) * size - sy[p]
                    dist = math.sqrt(cx * cx + cy * cy)
                    if dist <= limit[p]:
                        heapq.heappush(heap, (dist / weight[p], k, p))
    grid.owner = owner
    _neutral(board, grid, near)


def _neutral(board: Board, grid: Grid, near: list[tuple[int, ...]]) -> None:
    """Name each cell no province took LAND or WATER (see the module's docstring)."""
    owner, w, h = grid.owner, grid.w, grid.h
    land_only = [not board.is_sea(p) and not _coastal(board, p) for p in range(board.count)]
    # The nearest province of every cell, spread out from the regions breadth first.
    nearest = [p if p >= 0 else -1 for p in owner]
    frontier = [c for c, p in enumerate(owner) if p >= 0]
    while frontier:
        nxt = []
        for cell in frontier:
            y, x = divmod(cell, w)
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < w and 0 <= ny < h:
                    k = ny * w + nx
                    if nearest[k] == -1:
                        nearest[k] = nearest[cell]
                        nxt.append(k)
        frontier = nxt
    for cell, p in enumerate(owner):
        if p != -3:
            continue
        close = near[cell]
        if any(land_only[q] for q in close) or _apart(board, close):
            owner[cell] = LAND
        elif nearest[cell] >= 0 and board.is_sea(nearest[cell]):
            owner[cell] = WATER
        else:
            owner[cell] = LAND


def _coastal(board: Board, p: int) -> bool:
    return any(board.is_sea(q) for q in board.adjacent[p])


def _apart(board: Board, close: tuple[int, ...]) -> bool:
    """Whether two of ``close`` are provinces that must not meet."""
    for i, a in enumerate(close):
        for b in close[i + 1:]:
            if b not in board.adjacent[a] and not board.is_impassable(a) \
                    and not board.is_impassable(b):
                return True
    return False


def distances(grid: Grid) -> list[float]:
    """For every cell, how far (in cells) the nearest cell of another owner is, or the edge of
    the grid (a two-pass chamfer distance)."""
    w, h, owner = grid.w, grid.h, grid.owner
    big = float(w + h)
    dist = [big] * (w * h)
    for cell in range(w * h):
        y, x = divmod(cell, w)
        me = owner[cell]
        if x == 0 or y == 0 or x == w - 1 or y == h - 1:
            dist[cell] = 1.0
            continue
        if (owner[cell - 1] != me or owner[cell + 1] != me or owner[cell - w] != me
                or owner[cell + w] != me):
            dist[cell] = 1.0
    diag = math.sqrt(2.0)
    for y in range(1, h - 1):
        row = y * w
        for x in range(1, w - 1):
            c = row + x
            me = owner[c]
            best = dist[c]
            for k, step in ((c - 1, 1.0), (c - w, 1.0), (c - w - 1, diag), (c - w + 1, diag)):
                if owner[k] == me and dist[k] + step < best:
                    best = dist[k] + step
            dist[c] = best
    for y in range(h - 2, 0, -1):
        row = y * w
        for x in range(w - 2, 0, -1):
            c = row + x
            me = owner[c]
            best = dist[c]
            for k, step in ((c + 1, 1.0), (c + w, 1.0), (c + w + 1, diag), (c + w - 1, diag)):
                if owner[k] == me and dist[k] + step < best:
                    best = dist[k] + step
            dist[c] = best
    return dist


def touching(grid: Grid) -> set[tuple[int, int]]:
    """The pairs of provinces whose regions share a side of a cell, ``(a, b)`` with a < b."""
    owner, w, h = grid.owner, grid.w, grid.h
    out = set()
    for cell, a in enumerate(owner):
        if a < 0:
            continue
        y, x = divmod(cell, w)
        for k in ((cell + 1) if x + 1 < w else -1, (cell + w) if y + 1 < h else -1):
            if k >= 0:
                b = owner[k]
                if b >= 0 and b != a:
                    out.add((min(a, b), max(a, b)))
    return out


def centroids(grid: Grid, count: int) -> list[Point | None]:
    """The middle of each province's cells (None for one with no cell)."""
    sums = [[0.0, 0.0, 0] for _ in range(count)]
    for cell, p in enumerate(grid.owner):
        if p >= 0:
            x, y = grid.centre(cell)
            s = sums[p]
            s[0] += x
            s[1] += y
            s[2] += 1
    return [(s[0] / s[2], s[1] / s[2]) if s[2] else None for s in sums]


def mend(board: Board, grid: Grid, longest: int = 8) -> None:
    """Join adjacent provinces left a few neutral cells apart: the shortest path of neutral
    cells between them goes to the two (its first half to one, the rest to the other), where
    no cell of it would then touch a province that is not its new owner's neighbour."""
    met = touching(grid)
    walls = {q for q in range(board.count) if board.is_impassable(q)}
    for a, b in board.pairs():
        if (a, b) in met or a in walls or b in walls:
            continue
        path = _neutral_path(board, grid, a, b, longest, walls)
        if path is not None:
            half = (len(path) + 1) // 2
            for i, cell in enumerate(path):
                grid.owner[cell] = a if i < half else b


def _fits(board: Board, grid: Grid, cell: int, p: int, walls: set[int]) -> bool:
    """Whether ``p`` may hold ``cell``: no cell around it belongs to a province that must
    not meet ``p``."""
    w, h, owner = grid.w, grid.h, grid.owner
    y, x = divmod(cell, w)
    for yy in range(max(0, y - 1), min(h, y + 2)):
        for xx in range(max(0, x - 1), min(w, x + 2)):
            q = owner[yy * w + xx]
            if q >= 0 and q != p and q not in board.adjacent[p] and q not in walls:
                return False
    return True


def _neutral_path(board: Board, grid: Grid, a: int, b: int, longest: int,
                  walls: set[int]) -> list[int] | None:
    """The shortest run of neutral cells from ``a``'s region to ``b``'s that the two may
    share out (see :func:`mend`), or None."""
    w, h, owner = grid.w, grid.h, grid.owner
    starts = []
    for cell, p in enumerate(owner):
        if p == a:
            y, x = divmod(cell, w)
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < w and 0 <= ny < h and owner[ny * w + nx] < 0:
                    starts.append(ny * w + nx)
    came: dict[int, int] = {}
    frontier = []
    for cell in sorted(set(starts)):
        if _fits(board, grid, cell, a, walls) or _fits(board, grid, cell, b, walls):
            came[cell] = -1
            frontier.append(cell)
    for _ in range(longest):
        nxt = []
        for cell in frontier:
            y, x = divmod(cell, w)
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                k = ny * w + nx
                if owner[k] == b:
                    path = [cell]
                    while came[path[-1]] != -1:
                        path.append(came[path[-1]])
                    path.reverse()
                    if _shareable(board, grid, path, a, b, walls):
                        return path
                    continue
                if owner[k] < 0 and k not in came:
                    came[k] = cell
                    nxt.append(k)
        frontier = nxt
    return None


def _shareable(board: Board, grid: Grid, path: list[int], a: int, b: int,
               walls: set[int]) -> bool:
    half = (len(path) + 1) // 2
    return all(_fits(board, grid, cell, a if i < half else b, walls)
               for i, cell in enumerate(path))
