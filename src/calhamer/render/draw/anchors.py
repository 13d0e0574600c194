"""Where a province's pieces go: its unit, its coasts' fleets, its label and its centre.

Every piece is a disc (a unit, a fleet on a coast, a supply centre) or a box (the label, sized
from its text) that must lie inside its province, clear of the border by a margin that
outlasts the smoothing of the outline, and clear of the province's other pieces. The unit goes
where the province has the most room, near its middle; each coast's fleet as near as it fits
to the border with the seas that coast reaches; the label above the unit and the centre below
it, or as near there as they fit. A province too small for its pieces is reported, and the
drawer gives it more room.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from calhamer.render.draw.graph import Board, Point
from calhamer.render.draw.outline import SLACK, THIN
from calhamer.render.draw.regions import Grid

UNIT_R = 12.0  # a unit's icon fits in this circle (render/svg/primitives.py)
SC_R = 5.0  # a supply-centre marker (radius 4.3)
MARGIN = 1.5  # between a piece and the border, after smoothing
PAD = 1.5  # between two pieces
LAND_FONT, SEA_FONT = 9.5, 8.5  # the label styles .lb and .ls (render/svg/__init__.py)


def label_text(code: str) -> str:
    """What a province's label says (as render/svg/scene.py writes it)."""
    return code.title() if len(code) == 3 else code


def label_box(code: str, sea: bool, at: Point) -> tuple[float, float, float, float]:
    """The box a label centred at ``at`` takes: x0, y0, x1, y1 (a generous guess of the
    text's width in DejaVu Sans: 0.68 em a character)."""
    font = SEA_FONT if sea else LAND_FONT
    half = 0.34 * font * len(label_text(code)) + 1.0
    x, y = at
    return (x - half, y + 3.4 - 0.78 * font, x + half, y + 3.4 + 0.26 * font)


@dataclass
class Pieces:
    """Where one province's pieces are."""

    unit: Point
    label: Point
    sc: Point | None = None
    coasts: dict[str, Point] = field(default_factory=dict)


class Placer:
    """Finds room for the pieces of every province of a grid."""

    def __init__(self, board: Board, grid: Grid, room: list[float], *,
                 tight: bool = False, loose: bool = False,
                 avoid: list | None = None) -> None:
        self.board, self.grid, self.room = board, grid, room
        self.cells = grid.cells_of()
        # ``tight``: the last resort for a province that stays too small, pieces allowed up
        # to the border itself. ``loose``: the resort after that, each piece's middle in the
        # province and the pieces apart, but a piece may reach over the border (clear of the
        # other provinces' pieces, ``avoid``).
        self.inset = 0.5 * grid.size if tight else (0.5 + SLACK + THIN) * grid.size + MARGIN
        self.loose = loose
        self.avoid = avoid or []

    def place(self, p: int) -> Pieces | None:
        """The pieces of province ``p``, or None if they do not all fit."""
        cells = self.cells.get(p, [])
        if not cells:
            return None
        g = self.grid
        cx = sum(g.centre(c)[0] for c in cells) / len(cells)
        cy = sum(g.centre(c)[1] for c in cells) / len(cells)
        units = [c for c in cells if self._disc_fits(c, UNIT_R)]
        wall = self.board.is_impassable(p)
        if wall:
            pole = max(cells, key=lambda c: (self.room[c], -math.dist(g.centre(c), (cx, cy))))
            label = self._label(p, [], g.centre(pole))
            return None if label is None else Pieces(g.centre(pole), label)
        # Most room first (capped: past enough room, nearer the middle wins).
        enough = (UNIT_R + 14.0) / g.size + 1.0
        units.sort(key=lambda c: (-min(self.room[c], enough), math.dist(g.centre(c), (cx, cy))))
        # Split coasts first, each by the seas it reaches (in both orders, should the first
        # take the room the second needs), then the army's place among what is left.
        coasts = list(self.board.coasts[p])
        for order in (coasts, coasts[::-1]) if len(coasts) > 1 else (coasts,):
            taken: list = []
            spots = {}
            for coast, seas in order:
                spot = self._coast(p, seas, taken)
                if spot is None:
                    break
                spots[coast] = spot
                taken.append(("disc", spot, UNIT_R))
            else:
                for cell in units[:16]:
                    pieces = self._around(p, g.centre(cell), spots, taken)
                    if pieces is not None:
                        return pieces
        return None

    def _around(self, p: int, unit: Point, coasts: dict[str, Point], coast_discs: list
                ) -> Pieces | None:
        if not _clear_disc(unit, UNIT_R, coast_discs):
            return None
        taken = [*coast_discs, ("disc", unit, UNIT_R)]
        label = self._label(p, taken, (unit[0], unit[1] - UNIT_R - 7.0))
        if label is None:
            return None
        taken.append(("box", label_box(self.board.codes[p], self.board.is_sea(p), label)))
        sc = None
        if self.board.centre[p]:
            sc = self._disc(p, SC_R, taken, (unit[0], unit[1] + UNIT_R + SC_R + 2.0))
            if sc is None:
                return None
        return Pieces(unit, label, sc, dict(coasts))

    # -- searches --

    def _nearest_cells(self, p: int, target: Point) -> list[int]:
        g = self.grid
        return sorted(self.cells[p], key=lambda c: math.dist(g.centre(c), target))

    def _disc(self, p: int, r: float, taken: list, target: Point) -> Point | None:
        for cell in self._nearest_cells(p, target):
            at = self.grid.centre(cell)
            if self._disc_fits(cell, r) and _clear_disc(at, r, taken):
                return at
        return None

    def _coast(self, p: int, seas: frozenset[int], taken: list) -> Point | None:
        """A fleet's place on a split coast: as near as fits to the seas that coast reaches."""
        g = self.grid
        w = g.w
        shore = []
        for cell in self.cells[p]:
            x = cell % w
            for k in (cell - 1 if x else -1, cell + 1 if x + 1 < w else -1,
                      cell - w, cell + w):
                if 0 <= k < len(g.owner) and g.owner[k] in seas:
                    shore.append(g.centre(cell))
                    break
        if not shore:  # the seas do not touch it: aim at them
            middles = [pt for s in sorted(seas) for pt in
                       [g.centre(c) for c in self.cells.get(s, [])[::7]]]
            if not middles:
                return self._disc(p, UNIT_R, taken, g.centre(self.cells[p][0]))
            shore = middles
        target = (sum(x for x, _ in shore) / len(shore), sum(y for _, y in shore) / len(shore))
        # Of the fitting places, the nearest to the shore itself (not its mean, which may lie
        # out at sea), then to the shore's middle.
        best, best_key = None, (math.inf, math.inf)
        for cell in self.cells[p]:
            at = g.centre(cell)
            if not self._disc_fits(cell, UNIT_R) or not _clear_disc(at, UNIT_R, taken):
                continue
            key = (round(min(math.dist(at, s) for s in shore[::3]) / g.size),
                   math.dist(at, target))
            if key < best_key:
                best, best_key = at, key
        return best

    def _label(self, p: int, taken: list, target: Point) -> Point | None:
        code, sea = self.board.codes[p], self.board.is_sea(p)
        for cell in self._nearest_cells(p, target):
            at = self.grid.centre(cell)
            box = label_box(code, sea, at)
            if self._box_fits(p, box) and _clear_box(box, taken):
                return at
        return None

    # -- tests --

    def _disc_fits(self, cell: int, r: float) -> bool:
        if self.loose:
            return _clear_disc(self.grid.centre(cell), r, self.avoid)
        return self.room[cell] * self.grid.size >= r + self.inset

    def _box_fits(self, p: int, box: tuple[float, float, float, float]) -> bool:
        g = self.grid
        if self.loose:
            x = int(((box[0] + box[2]) / 2 - g.origin[0]) // g.size)
            y = int(((box[1] + box[3]) / 2 - g.origin[1]) // g.size)
            return (0 <= x < g.w and 0 <= y < g.h and g.owner[y * g.w + x] == p
                    and _clear_box(box, self.avoid))
        m = self.inset - 0.5 * g.size
        x0 = int((box[0] - m - g.origin[0]) // g.size)
        x1 = int((box[2] + m - g.origin[0]) // g.size)
        y0 = int((box[1] - m - g.origin[1]) // g.size)
        y1 = int((box[3] + m - g.origin[1]) // g.size)
        if x0 < 0 or y0 < 0 or x1 >= g.w or y1 >= g.h:
            return False
        owner = g.owner
        for y in range(y0, y1 + 1):
            row = y * g.w
            for x in range(x0, x1 + 1):
                if owner[row + x] != p:
                    return False
        return True


def occupied(board: Board, p: int, pieces: Pieces) -> list:
    """Province ``p``'s pieces as the discs and box other pieces keep clear of."""
    out: list = [("disc", pieces.unit, UNIT_R)]
    out += [("disc", at, UNIT_R) for at in pieces.coasts.values()]
    out.append(("box", label_box(board.codes[p], board.is_sea(p), pieces.label)))
    if pieces.sc is not None:
        out.append(("disc", pieces.sc, SC_R))
    return out


def _clear_disc(at: Point, r: float, taken: list) -> bool:
    for item in taken:
        if item[0] == "disc":
            if math.dist(at, item[1]) < r + item[2] + PAD:
                return False
        elif _box_distance(item[1], at) < r + PAD:
            return False
    return True


def _clear_box(box: tuple[float, float, float, float], taken: list) -> bool:
    for item in taken:
        if item[0] == "disc":
            if _box_distance(box, item[1]) < item[2] + PAD:
                return False
        else:
            other = item[1]
            if not (box[2] + PAD <= other[0] or other[2] + PAD <= box[0]
                    or box[3] + PAD <= other[1] or other[3] + PAD <= box[1]):
                return False
    return True


def _box_distance(box: tuple[float, float, float, float], p: Point) -> float:
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)
