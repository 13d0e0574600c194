"""The boards the new-game form offers, each with its thumbnail, description and size.

A thumbnail is a small SVG of the board at the start (:func:`calhamer.render.thumbnail.
render_thumbnail`), made once per process and served from ``/thumbnails/...``. Only a board
with a drawing of its own (a shipped geometry file: every board calhamer ships has one) gets a
thumbnail; for any other the form says plainly that it has no picture, rather than drawing
one while the page waits. Names are looked up among the variants and boards the form offers,
never as paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from urllib.parse import quote

from calhamer.boards import shipped_boards
from calhamer.errors import CalhamerError
from calhamer.map import Terrain, load_map
from calhamer.position import Position
from calhamer.render.geometry import has_drawing
from calhamer.render.thumbnail import render_thumbnail
from calhamer.variants import find_variant

THUMBNAIL_WIDTH = 240.0


@dataclass(frozen=True)
class Preview:
    """What the form shows of a variant or a board beside its name."""

    name: str
    title: str
    description: str
    size: str  # "7 powers, 75 provinces, 34 centres"
    thumbnail: str | None  # the URL of its thumbnail; None: the board has no picture

    @property
    def about(self) -> str:
        """One line for a caption: the size, then the description."""
        return f"{self.size}. {self.description}" if self.description else f"{self.size}."


@cache
def variant_previews() -> tuple[Preview, ...]:
    """Each variant the form offers (the catalogue's, as the form lists them), in order."""
    from calhamer.server.services.games import variant_groups
    from calhamer.variants.catalogue import entry

    out = []
    for _, options in variant_groups():
        for name, _ in options:
            e = entry(name)
            drawn = _variant_drawn(name)
            out.append(Preview(name, e.title, e.description, e.size,
                               f"/thumbnails/variant/{quote(name)}.svg" if drawn else None))
    return tuple(out)


@cache
def board_previews() -> tuple[Preview, ...]:
    """Each shipped board (the form's "board with rule modules of your choice")."""
    out = []
    for name in shipped_boards():
        m = load_map(name)
        provinces = sum(p.terrain is not Terrain.IMPASSABLE for p in m.provinces)
        size = (f"{len(m.powers)} powers, {provinces} provinces, "
                f"{sum(m.centre_weight)} centres")
        drawn = has_drawing(m) and _board_start(name) is not None
        out.append(Preview(name, m.title, "", size,
                           f"/thumbnails/board/{name}.svg" if drawn else None))
    return tuple(out)


def _board_start(name: str) -> Position | None:
    """A shipped board at its start: as the board alone sets it up, or, for a board whose
    start only its rules can read (Superdiplomacy's stacks, ``2A BUD``), as the first
    variant the form offers on it does; None if neither can."""
    try:
        return Position.initial(name)
    except CalhamerError:
        pass
    for preview in variant_previews():
        try:
            variant = find_variant(preview.name)
            if variant.board().name == name:
                return Position.initial(variant=variant)
        except CalhamerError:
            continue
    return None


def _variant_drawn(name: str) -> bool:
    try:
        return has_drawing(find_variant(name).board())
    except CalhamerError:
        return False


@cache
def variant_thumbnail(name: str) -> str | None:
    """The thumbnail of a variant the form offers (None: no such variant, or no picture)."""
    if name not in {p.name for p in variant_previews() if p.thumbnail}:
        return None
    variant = find_variant(name)
    return render_thumbnail(Position.initial(variant=variant), width=THUMBNAIL_WIDTH)


@cache
def board_thumbnail(name: str) -> str | None:
    """The thumbnail of a shipped board, its start units drawn (None: no such board, or no
    picture)."""
    if name not in {p.name for p in board_previews() if p.thumbnail}:
        return None
    start = _board_start(name)
    return None if start is None else render_thumbnail(start, width=THUMBNAIL_WIDTH)
