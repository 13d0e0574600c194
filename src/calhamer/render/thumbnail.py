"""A board's thumbnail: a small SVG of a position, for lists of boards (the new-game form).

    from calhamer.render.thumbnail import render_thumbnail
    svg = render_thumbnail(Position.initial("youngstown"), width=240)

Only the shapes are drawn: land and sea, every home centre's province in its power's colour,
supply centres as dots and the units at the start as dots of their power's colour. Every
corner is moved to the thumbnail's scale, the outlines thinned to what a third of a pixel
shows and rounded to a tenth of one, so a board of two hundred provinces is a few tens of kilobytes.
A board with no drawing of its own (:func:`calhamer.render.geometry.has_drawing`) has no
thumbnail: the caller says so rather than drawing one at run time.
"""

from __future__ import annotations

import math
from xml.etree.ElementTree import Element, SubElement, tostring

from calhamer.map import Terrain
from calhamer.position import Position
from calhamer.render.geometry import geometry_for
from calhamer.render.paths import path_points
from calhamer.render.svg.palette import DEFAULT_COLORS, Palette

__all__ = ["render_thumbnail"]


def render_thumbnail(position: Position, *, width: float = 240.0) -> str:
    """``position``'s board at ``width`` pixels, as a small SVG document (a ``str``)."""
    m = position.map
    geo = geometry_for(m)
    scale = width / geo.width
    height = geo.height * scale
    palette = Palette(m, None)
    root = Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "width": _n(width), "height": _n(height), "viewBox": f"0 0 {_n(width)} {_n(height)}",
        "role": "img",
    })
    SubElement(root, "title").text = m.title
    SubElement(root, "rect", {"width": "100%", "height": "100%",
                              "fill": DEFAULT_COLORS["sea"] if geo.water else
                              DEFAULT_COLORS["neutral"]})
    if geo.water:
        SubElement(root, "path", {"d": _small(geo.water, scale), "fill": DEFAULT_COLORS["sea"]})
    for _, d in geo.neutral:
        SubElement(root, "path", {"d": _small(d, scale), "fill": DEFAULT_COLORS["neutral"]})
    owners = position.centers
    for p in m.provinces:
        shape = geo.shapes.get(p.code)
        if shape is None:
            continue
        if p.terrain is Terrain.SEA:
            fill = DEFAULT_COLORS["sea"]
        elif p.terrain is Terrain.IMPASSABLE:
            fill = DEFAULT_COLORS["impassable"]
        else:
            owner = owners.get(p.id) or p.home
            fill = palette.territory(owner, 0.6) if owner else DEFAULT_COLORS["land"]
        SubElement(root, "path", {"d": _small(shape.d, scale), "fill": fill,
                                  "stroke": DEFAULT_COLORS["border"], "stroke-width": ".3"})
    for p in m.provinces:
        shape = geo.shapes.get(p.code)
        if shape is not None and p.is_supply_center and shape.sc is not None:
            x, y = shape.sc
            SubElement(root, "circle", {"cx": _n(x * scale), "cy": _n(y * scale), "r": "1.3",
                                        "fill": "#ffffff", "stroke": "#1d1d1d",
                                        "stroke-width": ".4"})
    for province, unit in sorted(position.units.items()):
        code = m.provinces[province].code
        if code not in geo.shapes:
            continue
        x, y = geo.anchor(code, m.loc_coast[unit.loc])
        SubElement(root, "circle", {"cx": _n(x * scale), "cy": _n(y * scale), "r": "2.4",
                                    "fill": palette.unit(unit.power), "stroke": "#1d1d1d",
                                    "stroke-width": ".5"})
    return tostring(root, encoding="unicode") + "\n"


def _small(d: str, scale: float) -> str:
    """The path ``d`` at ``scale``, each subpath a closed polygon of its corners, thinned
    (Douglas-Peucker, a third of a pixel) and rounded to a tenth of a pixel."""
    out = []
    for part in d.split("M")[1:]:
        ring = [(x * scale, y * scale) for x, y in path_points("M" + part)]
        corners: list[tuple[str, str]] = []
        for x, y in _thinned(ring, 0.35):
            corner = (_n(x), _n(y))
            if not corners or corners[-1] != corner:
                corners.append(corner)
        if len(corners) > 2:
            out.append("M" + " ".join(f"{x},{y}" for x, y in corners) + "Z")
    return "".join(out)


def _thinned(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """``points`` without the corners that lie within ``tolerance`` of the line through their
    neighbours kept (Douglas-Peucker, iterative)."""
    if len(points) < 4:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (x1, y1), (x2, y2) = points[first], points[last]
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy)
        best, far = -1.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            if length:
                dist = abs(dy * (px - x1) - dx * (py - y1)) / length
            else:
                dist = math.hypot(px - x1, py - y1)
            if dist > best:
                best, far = dist, i
        if far >= 0 and best > tolerance:
            keep[far] = True
            stack += [(first, far), (far, last)]
    return [p for p, kept in zip(points, keep, strict=True) if kept]


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s
