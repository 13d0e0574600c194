"""Outlines of the grown regions: traced along the grid, smoothed, written as SVG paths.

The border between two regions is one *chain* of grid corners from one junction (a corner where
three regions meet, or the grid's edge) to the next. Each chain is smoothed once (every corner
pulled towards its two neighbours, but never more than ``SLACK`` of a cell from where it was)
and thinned once (Douglas-Peucker, a tenth of a cell), and both regions use the same points:
so neighbours share their border exactly, point for point, and the pictures' check of
adjacency ("adjacent provinces share at least two corners") holds by construction. Two
corners of different chains start at least a cell apart and move less than half a cell between
them, so smoothing never makes borders cross.
"""

from __future__ import annotations

import math

from calhamer.render.draw.regions import Grid

OUTSIDE = -9
SLACK = 0.35  # how far (in cells) smoothing may move a corner
THIN = 0.1  # how far (in cells) thinning may move a border


class Outlines:
    """The smoothed borders of a grid's regions."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.vw = grid.w + 1
        self._colour = grid.owner
        self.fixed: set[int] = set()
        self.links: dict[int, list[int]] = {}
        self._boundary()
        self.pos = self._smoothed()
        self.chains = self._chains()
        self.kept: set[int] = set()
        for chain in self.chains:
            self.kept.update(self._thinned(chain))

    # -- the border graph --

    def colour(self, x: int, y: int) -> int:
        g = self.grid
        if 0 <= x < g.w and 0 <= y < g.h:
            return self._colour[y * g.w + x]
        return OUTSIDE

    def _boundary(self) -> None:
        """Each corner's border neighbours, and which corners are junctions (kept fixed)."""
        g, vw = self.grid, self.vw
        for vy in range(g.h + 1):
            for vx in range(g.w + 1):
                nw, ne = self.colour(vx - 1, vy - 1), self.colour(vx, vy - 1)
                sw, se = self.colour(vx - 1, vy), self.colour(vx, vy)
                v = vy * vw + vx
                out = []
                if nw != ne:
                    out.append(v - vw)
                if sw != se:
                    out.append(v + vw)
                if nw != sw:
                    out.append(v - 1)
                if ne != se:
                    out.append(v + 1)
                if not out:
                    continue
                self.links[v] = out
                if (len(out) != 2 or len({nw, ne, sw, se}) > 2 or vx in (0, g.w)
                        or vy in (0, g.h)):
                    self.fixed.add(v)

    def corner(self, v: int) -> tuple[float, float]:
        """A grid corner's place in pixels, unsmoothed."""
        vy, vx = divmod(v, self.vw)
        g = self.grid
        return (g.origin[0] + vx * g.size, g.origin[1] + vy * g.size)

    def _smoothed(self) -> dict[int, tuple[float, float]]:
        pos = {v: self.corner(v) for v in self.links}
        home = dict(pos)
        slack = SLACK * self.grid.size
        moving = [v for v in sorted(self.links) if v not in self.fixed]
        for _ in range(10):
            new = {}
            for v in moving:
                a, b = self.links[v]
                (x, y), (ax, ay), (bx, by) = pos[v], pos[a], pos[b]
                nx, ny = 0.5 * x + 0.25 * (ax + bx), 0.5 * y + 0.25 * (ay + by)
                hx, hy = home[v]
                d = math.hypot(nx - hx, ny - hy)
                if d > slack:
                    nx, ny = hx + (nx - hx) * slack / d, hy + (ny - hy) * slack / d
                new[v] = (nx, ny)
            pos.update(new)
        return pos

    def _chains(self) -> list[list[int]]:
        """Every border from junction to junction (or round a loop with none), once."""
        seen_edges: set[tuple[int, int]] = set()
        chains = []
        starts = sorted(self.fixed) + sorted(v for v in self.links if v not in self.fixed)
        for start in starts:
            for first in self.links[start]:
                if (start, first) in seen_edges:
                    continue
                chain = [start]
                prev, cur = start, first
                seen_edges.add((start, first))
                seen_edges.add((first, start))
                while True:
                    chain.append(cur)
                    if cur in self.fixed or cur == start:
                        break
                    a, b = self.links[cur]
                    nxt = b if a == prev else a
                    seen_edges.add((cur, nxt))
                    seen_edges.add((nxt, cur))
                    prev, cur = cur, nxt
                chains.append(chain)
        return chains

    def _thinned(self, chain: list[int]) -> list[int]:
        """The corners of ``chain`` kept by Douglas-Peucker (its ends always)."""
        tolerance = THIN * self.grid.size
        pos = self.pos
        keep = {0, len(chain) - 1}
        stack = [(0, len(chain) - 1)]
        if chain[0] == chain[-1] and len(chain) > 3:  # a loop: keep its far point too
            far = len(chain) // 2
            keep.add(far)
            stack = [(0, far), (far, len(chain) - 1)]
        while stack:
            i, j = stack.pop()
            if j <= i + 1:
                continue
            (ax, ay), (bx, by) = pos[chain[i]], pos[chain[j]]
            dx, dy = bx - ax, by - ay
            length = math.hypot(dx, dy)
            best, at = -1.0, -1
            for k in range(i + 1, j):
                px, py = pos[chain[k]]
                if length == 0:
                    d = math.hypot(px - ax, py - ay)
                else:
                    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length ** 2))
                    d = math.hypot(px - ax - t * dx, py - ay - t * dy)
                if d > best:
                    best, at = d, k
            if best > tolerance:
                keep.add(at)
                stack += [(i, at), (at, j)]
        return [chain[k] for k in sorted(keep)]

    # -- what is drawn --

    def rings(self) -> dict[int, list[list[int]]]:
        """Each owner's closed outlines (clockwise on screen round a region, the other way
        round a hole), as corner lists."""
        g, vw = self.grid, self.vw
        by_colour: dict[int, dict[int, list[tuple[int, int]]]] = {}
        for cell, me in enumerate(g.owner):
            y, x = divmod(cell, g.w)
            v = y * vw + x
            sides = (
                (self.colour(x, y - 1), v, v + 1),  # top, left to right
                (self.colour(x + 1, y), v + 1, v + vw + 1),  # right, downwards
                (self.colour(x, y + 1), v + vw + 1, v + vw),  # bottom, right to left
                (self.colour(x - 1, y), v + vw, v),  # left, upwards
            )
            for other, a, b in sides:
                if other != me:
                    by_colour.setdefault(me, {}).setdefault(a, []).append((b, cell))
        out: dict[int, list[list[int]]] = {}
        for me in sorted(by_colour):
            edges = by_colour[me]
            rings = []
            for start in sorted(edges):
                while edges.get(start):
                    end, cell = edges[start].pop(0)
                    ring = [start]
                    cur = end
                    while cur != start:
                        ring.append(cur)
                        options = edges.get(cur)
                        if not options:
                            break
                        pick = next((i for i, (_, c) in enumerate(options) if c == cell), 0)
                        cur, cell = options.pop(pick)
                    rings.append(ring)
            out[me] = rings
        return out

    def path(self, rings: list[list[int]]) -> str:
        """An SVG path of ``rings``, with only the corners kept by thinning."""
        parts = []
        for ring in rings:
            points = [self.pos[v] for v in ring if v in self.kept]
            if len(points) < 3:
                continue
            parts.append("M" + " ".join(f"{_n(x)},{_n(y)}" for x, y in points) + "Z")
        return "".join(parts)

    def chain_sides(self, chain: list[int]) -> tuple[int, int]:
        """The owners on the two sides of a chain (of its first step)."""
        a, b = chain[0], chain[1]
        ay, ax = divmod(a, self.vw)
        by, bx = divmod(b, self.vw)
        if ax == bx:  # a vertical step: cells left and right of it
            y = min(ay, by)
            return self.colour(ax - 1, y), self.colour(ax, y)
        x = min(ax, bx)
        return self.colour(x, ay - 1), self.colour(x, ay)

    def polyline(self, chain: list[int]) -> str:
        points = [self.pos[v] for v in chain if v in self.kept]
        return "M" + " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _n(v: float) -> str:
    s = f"{v:.1f}"
    if s == "-0.0":
        return "0"
    return s[:-2] if s.endswith(".0") else s
