"""A board's picture drawn from the board itself: regions, coasts, labels and units.

    from calhamer.render.draw import draw_board
    doc = draw_board(load_map("lagoon.toml"))     # a calhamer-geometry/1 document (a dict)

The steps (``docs/render.md``, "Drawing a board from its map"): a layout of the provinces'
middles (:mod:`.layout`: the map file's ``x``/``y`` hints, else stress majorization of the
adjacency); regions grown from them on a fine grid, with neutral land wherever two provinces
that are not adjacent would meet (:mod:`.regions`); the pieces of each province placed inside
it (:mod:`.anchors`), a province that is too small given more room and the whole grown again;
then the borders smoothed and written as SVG paths (:mod:`.outline`), and a bridge (armies) or
a canal (fleets only) drawn for each adjacent pair whose regions do not meet. The output is
the same, byte for byte, for the same board.
"""

from __future__ import annotations

import math
from typing import Any

from calhamer.map import Map
from calhamer.render.draw.anchors import Pieces, Placer, occupied
from calhamer.render.draw.graph import Board, Point, board_of
from calhamer.render.draw.layout import layout, radius
from calhamer.render.draw.outline import Outlines
from calhamer.render.draw.regions import (
    LAND,
    WATER,
    Grid,
    centroids,
    distances,
    grow,
    mend,
    touching,
)

__all__ = ["draw_board"]

STEP = 66.0  # pixels between the middles of two neighbours
CELL = 4.0  # the grid's cell, in pixels
GAP = 2  # cells of neutral land at least between provinces that must not meet
REACH = 1.2  # how far a province grows from its middle, in steps
TRIES = 8
SETTLE = 3  # tries after those for provinces with no room at all, the map's size kept


def draw_board(m: Map, *, hints: bool = True) -> dict[str, Any]:
    """The geometry document (``calhamer-geometry/1``) of ``m``, drawn from the map alone.

    ``hints=False`` ignores the provinces' ``x`` and ``y``.
    """
    board = board_of(m)
    if not hints:
        board = Board(board.codes, board.terrain, board.centre, board.adjacent,
                      board.army_pairs, board.coasts, {})
    unit_pos = layout(board)
    weight = [2.0 * radius(board, p) for p in range(board.count)]
    step = STEP
    grid = pieces = None
    sites: list[Point] = []
    for attempt in range(TRIES):
        sites = [(x * step, y * step) for x, y in unit_pos]
        grid = _grown(board, sites, step, weight)
        # One Lloyd step: each province regrown from the middle of its region, which evens
        # out their sizes and rounds their shapes.
        middles = centroids(grid, board.count)
        sites = [mid if mid is not None else site for mid, site in zip(middles, sites,
                                                                         strict=True)]
        grid = _grown(board, sites, step, weight, like=grid)
        mend(board, grid)
        placer = Placer(board, grid, distances(grid))
        pieces = {p: placer.place(p) for p in range(board.count)}
        cramped = [p for p, got in pieces.items() if got is None]
        if not cramped:
            break
        if attempt == TRIES - 1:
            break
        _move_the_crowded_out(board, grid, cramped, unit_pos, step)
        for p in cramped:
            weight[p] *= 1.3
        if attempt % 2 == 1:
            step *= 1.12
    assert grid is not None and pieces is not None
    if any(got is None for got in pieces.values()):
        pieces = _last_resort(board, grid, pieces)
        # A province where even that finds no room grows, the map's size and every other
        # province's place kept, while fewer are left without room.
        for _ in range(SETTLE):
            left = [p for p, got in pieces.items() if got is None]
            if not left:
                break
            grown_weight = list(weight)
            for p in left:
                grown_weight[p] *= 1.5
            again = _grown(board, sites, step, grown_weight, like=grid)
            mend(board, again)
            placer = Placer(board, again, distances(again))
            tried = _last_resort(board, again, {p: placer.place(p) for p in range(board.count)})
            if sum(got is None for got in tried.values()) >= len(left):
                break
            grid, pieces, weight = again, tried, grown_weight
    return _document(m, board, grid, pieces)


def _last_resort(board: Board, grid: Grid, pieces: dict[int, Pieces | None]
                 ) -> dict[int, Pieces | None]:
    """The pieces of provinces too small for them placed up to the border, and failing that
    with each piece's middle in the province, clear of every other piece (None: not even
    that)."""
    pieces = dict(pieces)
    cramped = [p for p, got in pieces.items() if got is None]
    room = distances(grid)
    tight = Placer(board, grid, room, tight=True)
    for p in cramped:
        pieces[p] = tight.place(p)
    for p in cramped:
        if pieces[p] is None:
            avoid = [item for q, got in pieces.items() if got is not None and q != p
                     for item in occupied(board, q, got)]
            pieces[p] = Placer(board, grid, room, loose=True, avoid=avoid).place(p)
    return pieces


def _move_the_crowded_out(board: Board, grid: Grid, cramped: list[int],
                          unit_pos: list[Point], step: float) -> None:
    """A province that got no cell at all (the layout set it on top of provinces it must not
    meet) is moved to the middle of its neighbours' regions, where it belongs."""
    middles = centroids(grid, board.count)
    for p in cramped:
        if middles[p] is not None:
            continue
        near = [mid for q in sorted(board.adjacent[p]) if (mid := middles[q]) is not None]
        if near:
            x = sum(pt[0] for pt in near) / len(near)
            y = sum(pt[1] for pt in near) / len(near)
            unit_pos[p] = (x / step, y / step)


def _grown(board: Board, sites: list[Point], step: float, weight: list[float],
           like: Grid | None = None) -> Grid:
    reach = REACH * step
    pad = reach * max(weight) + (GAP + 3) * CELL
    if like is None:
        x0 = min(x for x, _ in sites) - pad
        y0 = min(y for _, y in sites) - pad
        x1 = max(x for x, _ in sites) + pad
        y1 = max(y for _, y in sites) + pad
        w, h = math.ceil((x1 - x0) / CELL), math.ceil((y1 - y0) / CELL)
        origin = (x0, y0)
    else:
        w, h, origin = like.w, like.h, like.origin
    grid = Grid(w, h, CELL, origin, [])
    grow(board, sites, grid, gap=GAP, reach=reach, weight=weight)
    return grid


def _document(m: Map, board: Board, grid: Grid, pieces: dict[int, Pieces | None]
              ) -> dict[str, Any]:
    # Move everything so that the picture starts at 0, 0.
    shift = (-grid.origin[0], -grid.origin[1])
    grid.origin = (0.0, 0.0)
    lines = Outlines(grid)
    rings = lines.rings()
    provinces: dict[str, Any] = {}
    for p in range(board.count):
        got = pieces[p]
        # No room even after every try: the best that can be done (the tests catch it).
        # (the grid starts at 0, 0 now: the fallback needs no shift)
        got = _fallback(board, grid, p) if got is None else _moved(got, shift)
        entry: dict[str, Any] = {"d": lines.path(rings.get(p, [])), "unit": _pt(got.unit),
                                 "label": _pt(got.label)}
        if got.sc is not None:
            entry["sc"] = _pt(got.sc)
        if got.coasts:
            entry["coasts"] = {c: _pt(xy) for c, xy in sorted(got.coasts.items())}
        provinces[board.codes[p]] = entry
    doc: dict[str, Any] = {
        "format": "calhamer-geometry/1", "map": m.name,
        "width": float(grid.w * grid.size), "height": float(grid.h * grid.size),
        "source": "drawn by 'calhamer board draw' from the map alone",
        "provinces": provinces,
    }
    if rings.get(LAND):
        doc["neutral"] = [{"name": "", "d": lines.path(rings[LAND])}]
    if rings.get(WATER):
        doc["water"] = lines.path(rings[WATER])
    coast = _coastline(board, lines)
    if coast:
        doc["coast"] = coast
    links = _connectors(board, grid)
    if links:
        doc["connectors"] = links
    return doc


def _moved(pieces: Pieces, shift: Point) -> Pieces:
    def move(p: Point) -> Point:
        return (p[0] + shift[0], p[1] + shift[1])

    return Pieces(move(pieces.unit), move(pieces.label),
                  move(pieces.sc) if pieces.sc else None,
                  {c: move(xy) for c, xy in pieces.coasts.items()})


def _fallback(board: Board, grid: Grid, p: int) -> Pieces:
    """Where the pieces of a province too small for them go: all on the middle cell of its
    region, but each split coast's fleet on the cell of its shore nearest that coast's seas
    (so that a fleet is never drawn on the wrong side)."""
    cells = [c for c, who in enumerate(grid.owner) if who == p]
    at = grid.centre(cells[len(cells) // 2]) if cells else (0.0, 0.0)
    coasts = {}
    for coast, seas in board.coasts[p]:
        if not coast:
            continue
        shore = [c for c in cells if any(grid.owner[k] in seas for k in _beside(grid, c))]
        coasts[coast] = grid.centre(shore[len(shore) // 2]) if shore else at
    return Pieces(at, at, at if board.centre[p] else None, coasts)


def _beside(grid: Grid, cell: int) -> list[int]:
    y, x = divmod(cell, grid.w)
    return [ny * grid.w + nx for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 0 <= nx < grid.w and 0 <= ny < grid.h]


def _pt(p: Point) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def _coastline(board: Board, lines: Outlines) -> str:
    """Every border between land and water, as one path of open lines."""
    def wet(owner: int) -> bool | None:
        if owner == WATER:
            return True
        if owner == LAND:
            return False
        if owner < 0:
            return None
        return board.is_sea(owner)

    parts = []
    for chain in lines.chains:
        a, b = lines.chain_sides(chain)
        wa, wb = wet(a), wet(b)
        if wa is not None and wb is not None and wa != wb:
            parts.append(lines.polyline(chain))
    return "".join(parts)


def _connectors(board: Board, grid: Grid) -> list[dict[str, Any]]:
    """A bridge or canal for each adjacent pair whose regions do not meet: a line between
    their nearest cells."""
    met = touching(grid)
    edge_cells: dict[int, list[int]] = {}
    w, owner = grid.w, grid.owner
    for cell, p in enumerate(owner):
        if p < 0:
            continue
        x = cell % w
        for k in (cell - 1 if x else -1, cell + 1 if x + 1 < w else -1, cell - w, cell + w):
            if 0 <= k < len(owner) and owner[k] != p:
                edge_cells.setdefault(p, []).append(cell)
                break
    out = []
    for a, b in board.pairs():
        if (a, b) in met or board.is_impassable(a) or board.is_impassable(b):
            continue
        ca, cb = edge_cells.get(a, []), edge_cells.get(b, [])
        if not ca or not cb:
            continue
        pa, pb = min(((grid.centre(i), grid.centre(j)) for i in ca for j in cb),
                     key=lambda pq: (math.dist(pq[0], pq[1]), pq))
        kind = "bridge" if (a, b) in board.army_pairs else "canal"
        out.append({"between": [board.codes[a], board.codes[b]], "kind": kind,
                    "d": f"M{_pt(pa)[0]:g},{_pt(pa)[1]:g} {_pt(pb)[0]:g},{_pt(pb)[1]:g}"})
    return out
