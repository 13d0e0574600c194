"""``calhamer geometry``: a board's geometry for pictures, made from an SVG drawing of it.

    calhamer geometry island.toml island.svg -o island.geometry.json

The drawing (made in any SVG editor) holds one shape per province: a ``<path>``, ``<polygon>``
or ``<rect>`` whose ``id`` is the province's code (``NTH``, ``SPA``). A shape with
``class="neutral"`` is land that is no province. Where a piece goes may be given by a small
``<circle>`` with the id ``CODE.unit``, ``CODE.label``, ``CODE.sc`` or ``CODE.NC`` (a coast);
otherwise it is found: a unit at the point of the province farthest from its border, its
label above and its supply centre below the unit, a coast's fleet on the side of the seas
that coast touches. The command checks the drawing against the map file and says what is
missing; the result is the ``calhamer-geometry/1`` file of ``docs/render.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from calhamer.cli.io import OK, UserError
from calhamer.map import Map, load_map
from calhamer.render.paths import path_points

Point = tuple[float, float]

HELP = "make a board's geometry for pictures from an SVG drawing of it"
DESCRIPTION = (
    "Read an SVG drawing of a board, with one shape per province whose id is the province's "
    "code, and write the geometry file pictures are drawn with (calhamer-geometry/1): each "
    "province's outline and where its units, coasts, label and supply centre go. See "
    "docs/maps.md.")

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("geometry", help=HELP, description=DESCRIPTION)
    p.add_argument("map", metavar="MAP", help="the map file (.toml) or a shipped map's name")
    p.add_argument("svg", metavar="SVG", help="the drawing: one shape per province, its id the "
                   "province's code")
    p.add_argument("-o", "--output", metavar="OUT", required=True,
                   help="the geometry file to write (.json)")
    p.set_defaults(run=cmd_geometry)


def cmd_geometry(args: argparse.Namespace) -> int:
    board = load_map(args.map)
    try:
        text = Path(args.svg).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{args.svg}: {exc.strerror or exc}") from None
    doc, notes = geometry_from_svg(board, text, args.svg)
    Path(args.output).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    for note in notes:
        print(f"note: {note}")
    print(f"wrote {args.output}: {len(doc['provinces'])} provinces of {len(board.provinces)}")
    return OK


def geometry_from_svg(board: Map, text: str, where: str = "the drawing"
                      ) -> tuple[dict[str, Any], list[str]]:
    """The geometry document of ``board`` drawn by the SVG ``text``, and notes on what the
    drawing lacks (provinces without a shape are drawn as round nodes)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise UserError(f"{where} is not SVG (XML): {exc}") from None
    width, height = _size(root, where)
    codes = {p.code.upper(): p for p in board.provinces}
    shapes: dict[str, list[Point]] = {}
    paths: dict[str, str] = {}
    marks: dict[str, Point] = {}
    neutral: list[dict[str, str]] = []
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag not in ("path", "polygon", "rect", "circle", "ellipse"):
            continue
        if element.get("transform") or any(
                (a.get("transform") or "").strip() for a in _ancestors(root, element)):
            raise UserError(f"{where}: the shape {element.get('id') or tag!r} is moved by a "
                            "transform; apply the transforms to the shapes first (in Inkscape: "
                            "ungroup, then Path > Object to Path)")
        ident = (element.get("id") or "").strip()
        if tag in ("circle", "ellipse") and "." in ident:
            marks[ident.upper()] = (float(element.get("cx", 0)), float(element.get("cy", 0)))
            continue
        d, points = _outline(tag, element, where)
        if d is None:
            continue
        if "neutral" in (element.get("class") or "").split():
            neutral.append({"name": element.get("data-name") or ident, "d": d})
        elif ident.upper() in codes:
            paths[ident.upper()] = d
            shapes[ident.upper()] = points
    notes = [f"{code} has no shape: it is drawn as a round node near its neighbours"
             for code in codes if code not in shapes]
    unknown = sorted({m.split(".")[0] for m in marks} - set(shapes))
    if unknown:
        raise UserError(f"{where}: markers for provinces with no shape: {', '.join(unknown)}")
    provinces: dict[str, Any] = {}
    for code, points in shapes.items():
        unit, room = marks.get(f"{code}.UNIT") or _inside_point(points), _room(points)
        if f"{code}.UNIT" in marks:
            room = max(_edge_distance(marks[f"{code}.UNIT"], points), 4.0)
        entry: dict[str, Any] = {"d": paths[code], "unit": _round(unit)}
        entry["label"] = _round(marks.get(f"{code}.LABEL") or _near(points, unit, 0, -room * 0.6))
        province = codes[code]
        if province.is_supply_center:
            entry["sc"] = _round(marks.get(f"{code}.SC") or _near(points, unit, 0, room * 0.6))
        if province.coasts:
            entry["coasts"] = {
                coast: _round(marks.get(f"{code}.{coast}")
                              or _coast_point(board, province.code, coast, points, shapes))
                for coast in province.coasts}
        provinces[code] = entry
    doc: dict[str, Any] = {"format": "calhamer-geometry/1", "map": board.name,
                           "width": width, "height": height,
                           "source": f"made by 'calhamer geometry' from {Path(where).name}",
                           "provinces": provinces}
    if neutral:
        doc["neutral"] = neutral
    return doc, notes


def _ancestors(root: ET.Element, element: ET.Element) -> list[ET.Element]:
    parents = {child: parent for parent in root.iter() for child in parent}
    out = []
    while element in parents:
        element = parents[element]
        out.append(element)
    return out


def _size(root: ET.Element, where: str) -> tuple[float, float]:
    box = root.get("viewBox")
    if box:
        parts = [float(v) for v in _NUMBER.findall(box)]
        if len(parts) == 4 and parts[0] == 0 and parts[1] == 0:
            return parts[2], parts[3]
        raise UserError(f"{where}: the viewBox must start at 0 0 (it is {box!r})")
    try:
        return float(_NUMBER.findall(root.get("width", ""))[0]), float(
            _NUMBER.findall(root.get("height", ""))[0])
    except IndexError:
        raise UserError(f"{where}: the drawing has neither a viewBox nor a width and height"
                        ) from None


def _outline(tag: str, element: ET.Element, where: str) -> tuple[str | None, list[Point]]:
    """A shape's SVG path and the corners of its outline (curves by their end points)."""
    if tag == "path":
        d = element.get("d") or ""
        return (d, _path_points(d, element.get("id") or "path", where)) if d else (None, [])
    if tag == "polygon":
        values = [float(v) for v in _NUMBER.findall(element.get("points") or "")]
        points = list(zip(values[::2], values[1::2], strict=False))
        if len(points) < 3:
            return None, []
        return "M" + " ".join(f"{_n(x)},{_n(y)}" for x, y in points) + "Z", points
    if tag == "rect":
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        w, h = float(element.get("width", 0)), float(element.get("height", 0))
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        return "M" + " ".join(f"{_n(a)},{_n(b)}" for a, b in points) + "Z", points
    return None, []


def _path_points(d: str, ident: str, where: str) -> list[Point]:
    try:
        points = path_points(d)
    except ValueError as exc:
        raise UserError(f"{where}: the path of {ident!r} {exc}") from None
    if len(points) < 3:
        raise UserError(f"{where}: the path of {ident!r} has fewer than three corners")
    return points


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def _edge_distance(p: Point, poly: list[Point]) -> float:
    best = math.inf
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy)
                                                 / length))
        best = min(best, math.hypot(p[0] - x1 - t * dx, p[1] - y1 - t * dy))
    return best


def _grid(poly: list[Point], steps: int = 40) -> list[Point]:
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    return [(x0 + (x1 - x0) * (i + 0.5) / steps, y0 + (y1 - y0) * (j + 0.5) / steps)
            for i in range(steps) for j in range(steps)
            if _inside((x0 + (x1 - x0) * (i + 0.5) / steps, y0 + (y1 - y0) * (j + 0.5) / steps),
                       poly)]


def _inside_point(poly: list[Point]) -> Point:
    """The point of the outline farthest from its border (found on a grid)."""
    inside = _grid(poly)
    mean = (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
    if not inside:
        return mean
    # The farthest from the border; of points about as far, the nearest to the middle.
    return max(inside, key=lambda p: (round(_edge_distance(p, poly)),
                                      -math.hypot(p[0] - mean[0], p[1] - mean[1])))


def _room(poly: list[Point]) -> float:
    return max(_edge_distance(_inside_point(poly), poly), 4.0)


def _near(poly: list[Point], origin: Point, dx: float, dy: float) -> Point:
    """``origin`` moved by (dx, dy), or less far, staying inside the outline."""
    for share in (1.0, 0.75, 0.5, 0.25):
        p = (origin[0] + dx * share, origin[1] + dy * share)
        if _inside(p, poly):
            return p
    return origin


def _coast_point(board: Map, code: str, coast: str, poly: list[Point],
                 shapes: dict[str, list[Point]]) -> Point:
    """A fleet's place on a split coast: the point of the province nearest the seas that
    coast touches, a little inside its border."""
    loc = board.loc(f"{code}/{coast}")
    seas = [board.provinces[board.loc_province[d]].code for d in board.fleet_adjacent[loc]]
    centres = [_inside_point(shapes[s]) for s in seas if s in shapes]
    if not centres:
        return _inside_point(poly)
    target = (sum(x for x, _ in centres) / len(centres), sum(y for _, y in centres) / len(centres))
    margin = _room(poly) * 0.4
    inside = [p for p in _grid(poly) if _edge_distance(p, poly) >= margin] or _grid(poly)
    if not inside:
        return _inside_point(poly)
    return min(inside, key=lambda p: math.hypot(p[0] - target[0], p[1] - target[1]))


def _round(p: Point) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s

