"""Where each province's middle goes: the map file's hints, else a layout of the adjacency.

Provinces whose entry gives ``x`` and ``y`` stay there (scaled so that neighbours are about one
unit apart). The others are placed by *stress majorization*: every pair of provinces is pulled
towards its distance on the board (the shortest path, each link as long as its two provinces'
radii: a sea with many neighbours is drawn bigger). It starts from a classical scaling of a
few far-apart "pivot" provinces, so the result is the same on every run (no random numbers).
Where that layout crosses more than a few links (the standard board's crosses about eighty),
a crossing-free start (:mod:`.planar`) is spread out by stress instead, each province moving
only where its links cross no more links than before. A group of provinces with no link to
the rest is laid out on its own and set beside the others. Units: one step between
neighbours.
"""

from __future__ import annotations

import heapq
import math

from calhamer.render.draw.graph import Board, Point

RADIUS_DEGREE = 5.0
RADIUS_POWER = 0.5
CROSSINGS_KEPT = 25  # plain stress is kept if it crosses 3 links or one in 25 at most
UNEVEN = 5.0  # hints this uneven only start the layout (see _uneven)
SWEEPS = 60  # stress sweeps: enough for boards of a few hundred provinces to settle


def layout(board: Board) -> list[Point]:
    """A point for every province, neighbours about one unit apart."""
    pos: list[Point] = [(0.0, 0.0)] * board.count
    hints = _scaled_hints(board)
    placed: list[list[int]] = []
    loose: list[list[int]] = []
    uneven = _uneven(board, hints)
    for group in board.components():
        fixed = {p: hints[p] for p in group if p in hints}
        local = _component(board, group, fixed if len(fixed) >= 2 else {}, loose=uneven)
        if len(fixed) == 1:
            (p, xy), = fixed.items()
            dx, dy = xy[0] - local[p][0], xy[1] - local[p][1]
            local = {q: (x + dx, y + dy) for q, (x, y) in local.items()}
        for p, xy in local.items():
            pos[p] = xy
        (placed if fixed else loose).append(group)
    _pack(pos, placed, loose)
    return pos


def _scaled_hints(board: Board) -> dict[int, Point]:
    """The hints in layout units: the median distance of hinted neighbours becomes one."""
    hints = board.hints
    if not hints:
        return {}
    lengths = sorted(math.dist(hints[a], hints[b]) for a, b in board.pairs()
                     if a in hints and b in hints and hints[a] != hints[b])
    if lengths:
        unit = lengths[len(lengths) // 2]
    else:  # no hinted neighbours: spread the hints over about one unit per province
        xs, ys = [x for x, _ in hints.values()], [y for _, y in hints.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        unit = span / max(1.0, math.sqrt(len(hints)))
    unit = unit or 1.0
    return {p: (x / unit, y / unit) for p, (x, y) in hints.items()}


def _uneven(board: Board, hints: dict[int, Point]) -> bool:
    """Whether the hints crowd some neighbours far closer than others: the tenth of hinted
    neighbours farthest apart more than ``UNEVEN`` times as far as the tenth nearest (a
    drawing of Europe and Asia at one scale, Europe small: DPjudge's Youngstown)."""
    lengths = sorted(math.dist(hints[a], hints[b]) for a, b in board.pairs()
                     if a in hints and b in hints and hints[a] != hints[b])
    if len(lengths) < 20:
        return False
    low, high = lengths[len(lengths) // 10], lengths[(9 * len(lengths)) // 10]
    return high > UNEVEN * low


def _component(board: Board, group: list[int], fixed: dict[int, Point], *,
               loose: bool = False) -> dict[int, Point]:
    """One connected group laid out by stress, ``fixed`` provinces kept where they are (or,
    ``loose``, only started there: the crowded parts of uneven hints spread out)."""
    n = len(group)
    if n == 1:
        return {group[0]: fixed.get(group[0], (0.0, 0.0))}
    index = {p: i for i, p in enumerate(group)}
    dist = _hops(board, group, index)
    keep = [group[i] in fixed and not loose for i in range(n)]
    if fixed:
        pos = _stress(dist, _around_fixed(board, group, index, fixed), keep)
        return {p: pos[i] for p, i in index.items()}
    from calhamer.render.draw.planar import planar_start

    # Plain stress first: where it crosses few links (small boards, boards that are meshes
    # of like provinces) it spreads the provinces best. Else a crossing-free start.
    pos = _stress(dist, _pivot_scaling(dist), keep)
    pairs = [(index[a], index[b]) for a, b in board.pairs() if a in index and b in index]
    if _crossing_count(pos, pairs) > max(3, len(pairs) // CROSSINGS_KEPT):
        start = planar_start(board, group)
        if start is not None:
            pos = _stress_planar(dist, [start[p] for p in group], pairs)
    return {p: pos[i] for p, i in index.items()}


def _crossing_count(pos: list[Point], pairs: list[tuple[int, int]]) -> int:
    """How many pairs of links cross."""
    xs = [x for x, _ in pos]
    ys = [y for _, y in pos]
    index = _EdgeIndex(xs, ys, pairs)
    total = 0
    for v in range(len(pos)):
        mine = [k for k, (a, b) in enumerate(pairs) if a == v and b > v]
        total += index.crossed(v, xs[v], ys[v], mine)
    return total // 2


def _hops(board: Board, group: list[int], index: dict[int, int]) -> list[list[float]]:
    """Steps between every two provinces of a group (breadth-first from each)."""
    n = len(group)
    size = {p: radius(board, p) for p in group}
    out = []
    for source in group:
        row = [math.inf] * n
        row[index[source]] = 0.0
        heap = [(0.0, source)]
        while heap:
            d, p = heapq.heappop(heap)
            if d > row[index[p]]:
                continue
            for q in sorted(board.adjacent[p]):
                nd = d + size[p] + size[q]
                if nd < row[index[q]] - 1e-12:
                    row[index[q]] = nd
                    heapq.heappush(heap, (nd, q))
        out.append(row)
    return out


def radius(board: Board, p: int) -> float:
    """How big a province is drawn, in steps: half a step, more for one with many neighbours
    (a sea with eight needs room for all eight along its shores)."""
    return 0.5 * max(1.0, len(board.adjacent[p]) / RADIUS_DEGREE) ** RADIUS_POWER


def _pivot_scaling(dist: list[list[float]], pivots: int = 24) -> list[Point]:
    """Classical scaling from a few far-apart pivots (pivot MDS): a first, unfolded layout."""
    n = len(dist)
    chosen = [0]
    nearest = list(dist[0])
    while len(chosen) < min(pivots, n):
        far = max(range(n), key=lambda i: (nearest[i], -i))
        if nearest[far] == 0:
            break
        chosen.append(far)
        nearest = [min(a, b) for a, b in zip(nearest, dist[far], strict=True)]
    k = len(chosen)
    # Squared distances to the pivots, double-centred.
    c = [[dist[i][j] ** 2 for j in chosen] for i in range(n)]
    col = [sum(c[i][j] for i in range(n)) / n for j in range(k)]
    row = [sum(r) / k for r in c]
    total = sum(col) / k
    c = [[-0.5 * (c[i][j] - row[i] - col[j] + total) for j in range(k)] for i in range(n)]
    ctc = [[sum(c[i][a] * c[i][b] for i in range(n)) for b in range(k)] for a in range(k)]
    axes: list[list[float]] = []
    for start in (1.0, -1.0):
        v = [1.0 + 0.1 * start * j for j in range(k)]
        for _ in range(100):
            w = [sum(ctc[a][b] * v[b] for b in range(k)) for a in range(k)]
            for u in axes:  # deflate: keep it at right angles to the first axis
                dot = sum(x * y for x, y in zip(w, u, strict=True))
                w = [x - dot * y for x, y in zip(w, u, strict=True)]
            norm = math.sqrt(sum(x * x for x in w)) or 1.0
            v = [x / norm for x in w]
        axes.append(v)
    xs = [sum(c[i][j] * axes[0][j] for j in range(k)) for i in range(n)]
    ys = [sum(c[i][j] * axes[1][j] for j in range(k)) for i in range(n)]
    pos = list(zip(xs, ys, strict=True))
    # Scale so that neighbours start about one step apart.
    pairs = [(i, j) for i in range(n) for j in range(n) if i < j and dist[i][j] <= 1.0 + 1e-9]
    mean = sum(math.dist(pos[i], pos[j]) for i, j in pairs) / len(pairs) if pairs else 1.0
    mean = mean or 1.0
    # Break exact ties (symmetric boards) by a tiny deterministic turn of each point.
    return [(x / mean + 1e-3 * math.cos(i), y / mean + 1e-3 * math.sin(i))
            for i, (x, y) in enumerate(pos)]


def _around_fixed(board: Board, group: list[int], index: dict[int, int],
                  fixed: dict[int, Point]) -> list[Point]:
    """A start for a group with fixed provinces: each other one at the mean of its placed
    neighbours, placed outward from the fixed ones."""
    pos: dict[int, Point] = dict(fixed)
    cx = sum(x for x, _ in fixed.values()) / len(fixed)
    cy = sum(y for _, y in fixed.values()) / len(fixed)
    frontier = sorted(fixed)
    turn = 0
    while len(pos) < len(group):
        nxt = []
        for p in frontier:
            for q in sorted(board.adjacent[p]):
                if q in pos or q in nxt:
                    continue
                near = [pos[r] for r in sorted(board.adjacent[q]) if r in pos]
                x = sum(a for a, _ in near) / len(near)
                y = sum(b for _, b in near) / len(near)
                dx, dy = x - cx, y - cy
                d = math.hypot(dx, dy) or 1.0
                turn += 1
                pos[q] = (x + 0.6 * dx / d + 0.05 * math.cos(turn),
                          y + 0.6 * dy / d + 0.05 * math.sin(turn))
                nxt.append(q)
        if not nxt:
            break
        frontier = nxt
    return [pos.get(p, (cx, cy)) for p in group]


def _stress(dist: list[list[float]], start: list[Point], keep: list[bool]) -> list[Point]:
    """Stress majorization, one province at a time (Gauss-Seidel), weights ``1/d²``."""
    n = len(dist)
    xs = [x for x, _ in start]
    ys = [y for _, y in start]
    rows = []
    for i in range(n):
        others = [j for j in range(n) if j != i and dist[i][j] > 0]
        ds = [dist[i][j] for j in others]
        ws = [1.0 / (d * d) for d in ds]
        rows.append((others, ds, ws, sum(ws)))
    hypot = math.hypot
    for _ in range(SWEEPS):
        for i in range(n):
            if keep[i]:
                continue
            others, ds, ws, total = rows[i]
            if not others:
                continue
            xi, yi = xs[i], ys[i]
            sx = sy = 0.0
            for j, d, w in zip(others, ds, ws, strict=True):
                dx, dy = xi - xs[j], yi - ys[j]
                r = hypot(dx, dy) or 1e-9
                f = d / r
                sx += w * (xs[j] + dx * f)
                sy += w * (ys[j] + dy * f)
            xs[i], ys[i] = sx / total, sy / total
    return list(zip(xs, ys, strict=True))


def _pack(pos: list[Point], placed: list[list[int]], loose: list[list[int]]) -> None:
    """Set the groups laid out on their own beside the others, in rows, biggest first."""
    gap = 1.6
    if placed:
        members = [p for g in placed for p in g]
        left = min(pos[p][0] for p in members)
        right = max(pos[p][0] for p in members) + gap
        top = min(pos[p][1] for p in members)
        bottom = max(pos[p][1] for p in members)
    else:
        left = right = top = bottom = 0.0
    if not loose:
        return
    total = sum(len(g) for g in loose) + sum(len(g) for g in placed)
    width = max(right - left, math.sqrt(total) * 1.4, 3.0)
    x, y, row_h = (right, top, 0.0) if placed else (0.0, 0.0, 0.0)
    limit = right + width if placed else width
    for group in loose:
        gx0 = min(pos[p][0] for p in group)
        gy0 = min(pos[p][1] for p in group)
        w = max(pos[p][0] for p in group) - gx0
        h = max(pos[p][1] for p in group) - gy0
        if x > (right if placed else 0.0) and x + w > limit:
            x = right if placed else 0.0
            y += row_h + gap
            row_h = 0.0
        for p in group:
            pos[p] = (pos[p][0] - gx0 + x, pos[p][1] - gy0 + y)
        x += w + gap
        row_h = max(row_h, h)
    del bottom


def _stress_planar(dist: list[list[float]], start: list[Point],
                   pairs: list[tuple[int, int]]) -> list[Point]:
    """Stress majorization from a crossing-free start, a province moving only where its
    links cross none they did not cross before (a step halved until it does)."""
    n = len(dist)
    # Start at the size stress wants: neighbours as far apart as their steps say.
    lengths = [math.dist(start[a], start[b]) for a, b in pairs]
    wanted = [dist[a][b] for a, b in pairs]
    scale = (sum(wanted) / sum(lengths)) if lengths and sum(lengths) else 1.0
    xs = [x * scale for x, _ in start]
    ys = [y * scale for _, y in start]
    incident: list[list[int]] = [[] for _ in range(n)]
    for k, (a, b) in enumerate(pairs):
        incident[a].append(k)
        incident[b].append(k)
    rows = []
    for i in range(n):
        others = [j for j in range(n) if j != i and dist[i][j] > 0 and dist[i][j] < math.inf]
        ds = [dist[i][j] for j in others]
        ws = [1.0 / (d * d) for d in ds]
        rows.append((others, ds, ws, sum(ws)))
    hypot = math.hypot
    for _ in range(SWEEPS):
        index = _EdgeIndex(xs, ys, pairs)
        for i in range(n):
            others, ds, ws, total = rows[i]
            if not others:
                continue
            xi, yi = xs[i], ys[i]
            sx = sy = 0.0
            for j, d, w in zip(others, ds, ws, strict=True):
                dx, dy = xi - xs[j], yi - ys[j]
                r = hypot(dx, dy) or 1e-9
                f = d / r
                sx += w * (xs[j] + dx * f)
                sy += w * (ys[j] + dy * f)
            tx, ty = sx / total, sy / total
            before = index.crossed(i, xi, yi, incident[i])
            for share in (1.0, 0.5, 0.25, 0.125):
                nx_, ny_ = xi + (tx - xi) * share, yi + (ty - yi) * share
                if index.crossed(i, nx_, ny_, incident[i]) <= before:
                    xs[i], ys[i] = nx_, ny_
                    index.moved(i, incident[i])
                    break
    return list(zip(xs, ys, strict=True))


class _EdgeIndex:
    """Links bucketed by the unit squares their boxes cover, to test crossings quickly."""

    def __init__(self, xs: list[float], ys: list[float], pairs: list[tuple[int, int]]) -> None:
        self.xs, self.ys, self.pairs = xs, ys, pairs
        self.buckets: dict[tuple[int, int], set[int]] = {}
        for k in range(len(pairs)):
            self._put(k)

    def _cells(self, x1: float, y1: float, x2: float, y2: float) -> list[tuple[int, int]]:
        return [(i, j) for i in range(math.floor(min(x1, x2)), math.floor(max(x1, x2)) + 1)
                for j in range(math.floor(min(y1, y2)), math.floor(max(y1, y2)) + 1)]

    def _put(self, k: int) -> None:
        a, b = self.pairs[k]
        for cell in self._cells(self.xs[a], self.ys[a], self.xs[b], self.ys[b]):
            self.buckets.setdefault(cell, set()).add(k)

    def moved(self, v: int, links: list[int]) -> None:
        for k in links:
            self._put(k)

    def crossed(self, v: int, x: float, y: float, links: list[int]) -> int:
        """How many crossings the links of ``v`` make with ``v`` at (x, y)."""
        xs, ys, pairs = self.xs, self.ys, self.pairs
        count = 0
        for k in links:
            a, b = pairs[k]
            u = b if a == v else a
            x2, y2 = xs[u], ys[u]
            seen: set[int] = set()
            for cell in self._cells(x, y, x2, y2):
                for j in self.buckets.get(cell, ()):
                    if j in seen:
                        continue
                    seen.add(j)
                    c, d = pairs[j]
                    if c in (v, u) or d in (v, u):
                        continue
                    x3, y3, x4, y4 = xs[c], ys[c], xs[d], ys[d]
                    d1 = (x2 - x) * (y3 - y) - (y2 - y) * (x3 - x)
                    d2 = (x2 - x) * (y4 - y) - (y2 - y) * (x4 - x)
                    if d1 * d2 >= 0:
                        continue
                    d3 = (x4 - x3) * (y - y3) - (y4 - y3) * (x - x3)
                    d4 = (x4 - x3) * (y2 - y3) - (y4 - y3) * (x2 - x3)
                    if d3 * d4 < 0:
                        count += 1
        return count
