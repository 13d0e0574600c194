"""The legend under the map: the heading, each power with its centre total, and the symbols.

Items are laid out left to right and wrap to a new row at the picture's edge. A power's total
is the one the picture may tell (``counts``): ``?`` (with "centre total unknown" on hover)
where the viewer is not told it, and no number at all when ``counts`` is None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from xml.etree.ElementTree import Element, SubElement

from calhamer.render.svg.palette import faded
from calhamer.render.svg.primitives import (
    ARMY_ICON,
    FLEET_ICON,
    add,
    arrow,
    cross,
    dot,
    line,
    num,
    plus,
    ring,
)
from calhamer.render.svg.scene import Scene

__all__ = ["draw_legend"]

Draw = Callable[[Element, float, float], None]  # draws an item at (x, y) into a parent

ROW_HEIGHT = 22.0
PAD = 10.0
GREY = "#8a8a8a"  # the symbols' colour: no power's


def draw_legend(root: Element, scene: Scene, title: str | None, *,
                counts: Mapping[str, int | None] | None) -> float:
    """Add ``<g id="legend">`` under the map; returns its height."""
    pal, geo = scene.palette, scene.geo
    width, top = geo.width, geo.height
    phase = scene.position.phase
    heading = title if title is not None else (
        f"{scene.position.map.phase_name(phase)} ({phase.code})")
    items: list[tuple[int, float, Draw]] = []
    row, x = 0, 10.0

    def place(item_width: float, draw: Draw) -> None:
        nonlocal x, row
        row, x = _next(row, x, item_width, width)
        items.append((row, x, draw))
        x += item_width

    def draw_heading(parent: Element, x0: float, y0: float) -> None:
        add(parent, "text", {"x": num(x0), "y": num(y0 + 4), "font-size": "12",
                             "font-weight": "bold", "fill": pal["label"]}, heading)

    place(7.6 * len(heading) + 18, draw_heading)
    for power in scene.m.powers:
        text, hover = power.name, None
        if counts is not None:
            total = counts.get(power.code)
            # A total the viewer is not told is "?", never a number (0 would be a falsehood).
            text += " ?" if total is None else f" {total}"
            if total is None:
                hover = f"{power.name}: centre total unknown"

        def swatch(parent: Element, x0: float, y0: float, code: str = power.code,
                   text: str = text, hover: str | None = hover) -> None:
            if hover is not None:
                parent = SubElement(parent, "g")
                SubElement(parent, "title").text = hover
            SubElement(parent, "rect", {"x": num(x0), "y": num(y0 - 6), "width": "12",
                                        "height": "12", "rx": "2", "fill": pal.unit(code),
                                        "stroke": pal["outline"], "stroke-width": "1"})
            add(parent, "text", {"class": "lg", "x": num(x0 + 16), "y": num(y0 + 3.6),
                                 "fill": pal["label"]}, text)

        place(6.2 * len(text) + 24, swatch)
    symbols, rows = _symbols(width, _row_y(top, row + 1), pal["outline"], pal["failed"],
                             pal["label"])
    height = PAD + (row + 1 + rows) * ROW_HEIGHT + PAD / 2
    group = add(root, "g", {"id": "legend"})
    add(group, "rect", {"x": "0", "y": num(top), "width": num(width), "height": num(height),
                        "fill": pal["legend"], "stroke": pal["border"], "stroke-width": ".8"})
    for item_row, x0, draw in items:
        draw(group, x0, _row_y(top, item_row))
    group.extend(symbols)
    return height


def _next(row: int, x: float, item_width: float, width: float) -> tuple[int, float]:
    """Where an item ``item_width`` wide goes: at ``x`` on ``row``, else on a new row."""
    if x + item_width > width - PAD and x > 10.0:
        return row + 1, 10.0
    return row, x


def _row_y(top: float, row: int) -> float:
    """The middle line of the legend's ``row``, under a map ``top`` high."""
    return top + PAD + ROW_HEIGHT * row + ROW_HEIGHT / 2 - 2


@lru_cache(maxsize=64)
def _symbols(width: float, y: float, outline: str, failed_ink: str,
             ink: str) -> tuple[tuple[Element, ...], int]:
    """The symbols' key, from a new row at ``y``, and how many rows it takes.

    The same for every picture of a board drawn in the same colours, so made once: the
    elements are shared by the pictures' trees, which only read them.
    """
    holder = Element("g")
    row, x = 0, 10.0

    def symbol(label: str, draw: Draw, w: float = 26.0) -> None:
        nonlocal row, x
        item_width = w + 6.0 * len(label) + 14
        row, x = _next(row, x, item_width, width)
        y0 = y + ROW_HEIGHT * row
        draw(holder, x, y0)
        add(holder, "text", {"class": "lg", "x": num(x + w), "y": num(y0 + 3.6), "fill": ink},
            label)
        x += item_width

    def icon(d: str, dx: float) -> Draw:
        def draw(parent: Element, x0: float, y0: float) -> None:
            SubElement(parent, "path", {"d": d, "transform": f"translate({num(x0 + dx)} "
                                                             f"{num(y0)}) scale(0.8)",
                                        "fill": GREY, "stroke": outline, "stroke-width": "1.2"})
        return draw

    def centre(parent: Element, x0: float, y0: float) -> None:
        SubElement(parent, "circle", {"cx": num(x0 + 8), "cy": num(y0), "r": "4.3",
                                      "fill": "#ffffff", "stroke": outline,
                                      "stroke-width": "1.1"})
        SubElement(parent, "circle", {"cx": num(x0 + 8), "cy": num(y0), "r": "1.5",
                                      "fill": outline})

    def move(parent: Element, x0: float, y0: float) -> None:
        arrow(parent, (x0, y0), (x0 + 28, y0), GREY, outline, 1.0, start=0, end=0)

    def support(parent: Element, x0: float, y0: float) -> None:
        line(parent, (x0, y0), (x0 + 24, y0), GREY, 2.2, "5 3", outline=outline)
        dot(parent, (x0 + 26, y0), GREY, outline, 2.8)

    def convoy(parent: Element, x0: float, y0: float) -> None:
        line(parent, (x0, y0), (x0 + 24, y0), GREY, 2.2, "0.1 4.2", outline=outline,
             cap="round")
        dot(parent, (x0 + 26, y0), GREY, outline, 2.8)

    def hold(parent: Element, x0: float, y0: float) -> None:
        ring(parent, (x0 + 9, y0), 7, GREY, outline, 0.8)

    def failed(parent: Element, x0: float, y0: float) -> None:
        arrow(parent, (x0, y0), (x0 + 28, y0), faded(GREY), faded(outline), 1.0,
              start=0, end=0)
        cross(parent, (x0 + 14, y0), 4, failed_ink, 0.8, halo=True)

    def build(parent: Element, x0: float, y0: float) -> None:
        plus(parent, (x0 + 8, y0), 1.0)

    def disband(parent: Element, x0: float, y0: float) -> None:
        cross(parent, (x0 + 8, y0), 6, failed_ink, 1.0, halo=True)

    def dislodged(parent: Element, x0: float, y0: float) -> None:
        SubElement(parent, "circle", {"cx": num(x0 + 9), "cy": num(y0), "r": "7",
                                      "fill": "none", "stroke": failed_ink,
                                      "stroke-width": "1.8"})

    symbol("Army", icon(ARMY_ICON, 9))
    symbol("Fleet", icon(FLEET_ICON, 10))
    symbol("Supply centre", centre, 18.0)
    symbol("Move", move, 34.0)
    symbol("Support", support, 34.0)
    symbol("Convoy", convoy, 34.0)
    symbol("Hold", hold, 22.0)
    symbol("Failed", failed, 34.0)
    symbol("Build", build, 18.0)
    symbol("Disband", disband, 20.0)
    symbol("Dislodged", dislodged, 22.0)
    return tuple(holder), row + 1
