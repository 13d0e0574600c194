"""Where things are drawn: province shapes and anchor points, from a geometry file or laid out.

A board's geometry lives beside its map file as ``<map>.geometry.json`` (written by
``scripts/make_geometry.py``; the format is in ``docs/render.md``). A map that extends another
uses its parent's geometry, and may name one with ``geometry = "..."`` in its ``[map]`` table.
A board of one's own may also keep it beside its map file as ``<board>.geometry.json`` (what
``calhamer board draw`` writes). A province that no geometry covers becomes a round node: at
``x``/``y`` from its entry in the map file when given, else near its neighbours. A map with no
geometry at all is drawn from the board itself (:mod:`calhamer.render.draw`, which needs the
``draw`` extra), else as a schematic: round nodes placed by a small force layout, joined by
their adjacencies.

Only the standard library is used here; results are cached per map.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

from calhamer.map import Map

Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """One province (or island) as drawn: an SVG path and where its pieces go."""

    d: str
    unit: Point
    label: Point
    sc: Point | None = None
    coasts: dict[str, Point] = field(default_factory=dict)
    name: str = ""
    node: bool = False  # a round node of a schematic, not a drawn shape


@dataclass(frozen=True)
class Connector:
    """A bridge (armies cross) or canal (fleets only) drawn between two provinces that are
    adjacent on the board but whose shapes do not meet."""

    a: str
    b: str
    kind: str  # "bridge" or "canal"
    d: str  # its line, an SVG path


@dataclass(frozen=True)
class Geometry:
    """The drawing of a board: a ``width`` x ``height`` canvas of shapes by province code."""

    width: float
    height: float
    shapes: dict[str, Shape]
    neutral: tuple[tuple[str, str], ...] = ()  # (name, path) of land that is no province
    water: str | None = None  # water that belongs to no sea
    extras: dict[str, Shape] = field(default_factory=dict)  # shapes a variant may claim
    edges: tuple[tuple[str, str, bool], ...] = ()  # schematic links (a, b, fleet only)
    unit_scale: float = 1.0
    coast: str | None = None  # the coastline (where land meets water), drawn over the shapes
    connectors: tuple[Connector, ...] = ()

    @property
    def schematic(self) -> bool:
        return bool(self.edges) or all(s.node for s in self.shapes.values())

    def anchor(self, code: str, coast: str | None = None) -> Point:
        shape = self.shapes[code]
        if coast and coast in shape.coasts:
            return shape.coasts[coast]
        return shape.unit


def read_geometry(path: str | Path) -> Geometry:
    """Read a geometry file (``calhamer-geometry/1``)."""
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    return _from_doc(doc)


def _from_doc(doc: dict) -> Geometry:
    def shape(entry: dict) -> Shape:
        return Shape(
            d=entry["d"],
            unit=tuple(entry["unit"]),
            label=tuple(entry.get("label", entry["unit"])),
            sc=tuple(entry["sc"]) if entry.get("sc") else None,
            coasts={k: tuple(v) for k, v in entry.get("coasts", {}).items()},
            name=entry.get("name", ""),
        )

    return Geometry(
        width=float(doc["width"]),
        height=float(doc["height"]),
        shapes={code: shape(e) for code, e in doc["provinces"].items()},
        neutral=tuple((n.get("name", ""), n["d"]) for n in doc.get("neutral", ())),
        water=doc.get("water"),
        extras={code: shape(e) for code, e in doc.get("extras", {}).items()},
        unit_scale=float(doc.get("unit_scale", 1.0)),
        coast=doc.get("coast"),
        connectors=tuple(Connector(c["between"][0], c["between"][1], c.get("kind", "bridge"),
                                   c["d"]) for c in doc.get("connectors", ())),
    )


@cache
def _packaged(name: str) -> Geometry | None:
    resource = resources.files("calhamer") / "maps" / f"{name}.geometry.json"
    if not resource.is_file():
        return None
    return _from_doc(json.loads(resource.read_text(encoding="utf-8")))


def _find_base(m: Map) -> Geometry | None:
    meta = m.file.map
    if not meta.geometry and m.source.endswith(".toml"):
        # A board of one's own: the file ``calhamer board draw`` writes beside it.
        beside = Path(m.source).with_suffix(".geometry.json")
        if beside.is_file():
            return read_geometry(beside)
    for name in (meta.geometry, m.name, meta.extends):
        if not name:
            continue
        name = str(name)
        if name.endswith(".json"):
            # A relative path is read beside the map file first (a board of one's own).
            near = Path(m.source).parent / name if m.source.endswith(".toml") else None
            for path in (near, Path(name)):
                if path is not None and path.is_file():
                    return read_geometry(path)
        found = _packaged(name)
        if found is not None:
            return found
    return None


_GEOMETRY_CACHE: dict[int, tuple[Map, Geometry]] = {}


def has_drawing(m: Map) -> bool:
    """Whether ``m`` has a drawing of its own or of a map it extends (a geometry file), so
    that a picture of it needs no drawing made at run time."""
    return _find_base(m) is not None


def geometry_for(m: Map) -> Geometry:
    """The geometry to draw ``m`` with: its own file, its parent's, or else one drawn from
    the board itself (:func:`calhamer.render.draw.draw_board`, with the ``draw`` extra; a
    schematic without it)."""
    hit = _GEOMETRY_CACHE.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    base = _find_base(m)
    geo = _drawn(m) if base is None else _fit(m, base)
    _GEOMETRY_CACHE[id(m)] = (m, geo)
    return geo


def _drawn(m: Map) -> Geometry:
    """``m`` drawn from its board alone, or its schematic when the drawer's extra (networkx)
    is not installed."""
    try:
        import networkx  # noqa: F401  (the draw extra)
    except ImportError:
        return schematic(m)
    from calhamer.render.draw import draw_board

    return _from_doc(draw_board(m))


def _fit(m: Map, base: Geometry) -> Geometry:
    """``base`` cut to ``m``'s provinces; provinces it lacks become nodes near their neighbours."""
    shapes: dict[str, Shape] = {}
    missing = []
    for p in m.provinces:
        shape = base.shapes.get(p.code) or base.extras.get(p.code)
        if shape is not None:
            shapes[p.code] = shape
        else:
            missing.append(p)
    for p in missing:
        xy = _given_xy(m, p.code)
        if xy is None:
            near = [
                shapes[m.provinces[q].code].unit
                for q in sorted(m.army_adjacent[p.id] | m.province_fleet_adjacent[p.id])
                if m.provinces[q].code in shapes
            ]
            if near:
                xy = (sum(x for x, _ in near) / len(near), sum(y for _, y in near) / len(near))
            else:
                xy = (base.width - 30.0, 30.0 + 40.0 * len(shapes) % (base.height - 60))
        shapes[p.code] = _node(xy, 14.0, p.coasts)
    for p in m.provinces:
        shape = shapes[p.code]
        if p.is_supply_center and shape.sc is None and not shape.node:
            # A centre the drawing's own map does not have (Superdiplomacy's on the standard
            # board's drawing): its marker beside the unit, inside the province.
            shapes[p.code] = replace(shape, sc=_marker_place(shape))
    extras = {code: s for code, s in base.extras.items() if code not in shapes}
    links = tuple(c for c in base.connectors if c.a in shapes and c.b in shapes)
    claimed = {p.code for p in m.provinces if p.code not in base.shapes and p.code in base.extras}
    if claimed:
        links += _island_links(m, shapes, claimed)
    return Geometry(base.width, base.height, shapes, base.neutral, base.water, extras,
                    unit_scale=base.unit_scale, coast=base.coast, connectors=links)


def _island_links(m: Map, shapes: dict[str, Shape], claimed: set[str]
                  ) -> tuple[Connector, ...]:
    """Connectors for the adjacencies of the shapes a map took from the drawing's extras (the
    islands Superdiplomacy makes provinces) that the drawing does not show as a border: a
    short line between the two shapes' nearest corners, a bridge where armies cross, else a
    canal."""
    from calhamer.render.paths import path_points

    corners = {code: path_points(shapes[code].d) for code in shapes}
    out = []
    for p in m.provinces:
        if p.code not in claimed:
            continue
        for q in sorted(m.army_adjacent[p.id] | m.province_fleet_adjacent[p.id]):
            other = m.provinces[q].code
            if other == p.code or other not in corners or shapes[other].node:
                continue
            if other in claimed and other < p.code:
                continue  # the pair once
            mine = {(round(x, 1), round(y, 1)) for x, y in corners[p.code]}
            theirs = {(round(x, 1), round(y, 1)) for x, y in corners[other]}
            if len(mine & theirs) >= 2:
                continue
            a, b = min(((u, v) for u in corners[p.code] for v in corners[other]),
                       key=lambda uv: (math.dist(*uv), uv))
            kind = "bridge" if q in m.army_adjacent[p.id] else "canal"
            out.append(Connector(p.code, other, kind,
                                 f"M{_n(a[0])},{_n(a[1])} {_n(b[0])},{_n(b[1])}"))
    return tuple(out)


def _marker_place(shape: Shape) -> Point:
    """Where a supply-centre marker fits in ``shape``: the first of some places around its
    unit (below first) that lies inside the shape, clear of the unit and the label."""
    from calhamer.render.paths import path_points

    rings = [path_points("M" + part) for part in shape.d.split("M")[1:]]
    ux, uy = shape.unit
    lx, ly = shape.label
    for reach in (19.0, 15.0, 24.0):
        for turn in (90, 45, 135, 0, 180, 315, 225, 270):
            a = math.radians(turn)
            at = (round(ux + reach * math.cos(a), 1), round(uy + reach * math.sin(a), 1))
            clear_of_label = abs(at[0] - lx) > 16 or abs(at[1] - ly) > 9
            if clear_of_label and _inside(rings, at) and _border_distance(rings, at) >= 5.5:
                return at
    return (round(ux, 1), round(uy + 17.0, 1))


def _inside(rings: list[list[Point]], p: Point) -> bool:
    inside = False
    x, y = p
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
                inside = not inside
    return inside


def _border_distance(rings: list[list[Point]], p: Point) -> float:
    best = math.inf
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            dx, dy = x2 - x1, y2 - y1
            length = dx * dx + dy * dy
            t = 0.0 if not length else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy)
                                                 / length))
            best = min(best, math.hypot(p[0] - x1 - t * dx, p[1] - y1 - t * dy))
    return best


def _given_xy(m: Map, code: str) -> Point | None:
    entry = m.file.provinces.get(code)
    if entry is not None and entry.x is not None and entry.y is not None:
        return entry.x, entry.y
    return None


def circle_path(x: float, y: float, r: float) -> str:
    return (f"M{_n(x - r)},{_n(y)}a{_n(r)},{_n(r)} 0 1,0 {_n(2 * r)},0"
            f"a{_n(r)},{_n(r)} 0 1,0 {_n(-2 * r)},0Z")


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _node(xy: Point, r: float, coasts: tuple[str, ...]) -> Shape:
    x, y = xy
    offsets = {"NC": (0, -r * 0.9), "SC": (0, r * 0.9), "EC": (r * 0.9, 0), "WC": (-r * 0.9, 0)}
    coast_xy = {}
    for i, c in enumerate(coasts):
        dx, dy = offsets.get(c, (r * math.cos(i * 2.1), r * math.sin(i * 2.1)))
        coast_xy[c] = (round(x + dx, 1), round(y + dy, 1))
    return Shape(
        d=circle_path(x, y, r),
        unit=(x, y),
        label=(x, y + r + 8),
        sc=(round(x + r * 0.75, 1), round(y - r * 0.75, 1)),
        coasts=coast_xy,
        node=True,
    )


# -- schematic ------------------------------------------------------------------------------

NODE_R = 17.0


def schematic(m: Map) -> Geometry:
    """Provinces as round nodes joined by their adjacencies.

    Nodes go where the map file says (``x``, ``y`` in a province's entry); the others are
    laid out by a deterministic force layout (linked provinces pull, all push).
    """
    codes = [p.code for p in m.provinces]
    edges: list[tuple[str, str, bool]] = []
    for p in m.provinces:
        for q in sorted(m.army_adjacent[p.id] | m.province_fleet_adjacent[p.id]):
            if q > p.id:
                fleet_only = q not in m.army_adjacent[p.id]
                edges.append((p.code, m.provinces[q].code, fleet_only))
    fixed = {c: xy for c in codes if (xy := _given_xy(m, c)) is not None}
    pos = _layout(codes, [(a, b) for a, b, _ in edges], fixed)
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    pad = NODE_R * 2.5
    minx, miny = min(xs) - pad, min(ys) - pad
    width = max(xs) - minx + pad
    height = max(ys) - miny + pad
    shapes = {}
    for p in m.provinces:
        x, y = pos[p.code]
        shapes[p.code] = _node((round(x - minx, 1), round(y - miny, 1)), NODE_R, p.coasts)
    return Geometry(round(width, 1), round(height, 1), shapes, edges=tuple(edges),
                    unit_scale=0.9)


def _layout(
    codes: list[str], edges: list[tuple[str, str]], fixed: dict[str, Point]
) -> dict[str, Point]:
    """Fruchterman-Reingold, started from a circle; fixed nodes stay put."""
    n = len(codes)
    if n == 0:
        return {}
    index = {c: i for i, c in enumerate(codes)}
    k = 70.0  # ideal edge length
    radius = k * max(1.0, n / (2 * math.pi)) * 0.8
    pos = []
    for i, c in enumerate(codes):
        if c in fixed:
            pos.append(list(fixed[c]))
        else:
            a = 2 * math.pi * i / n
            pos.append([radius * math.cos(a), radius * math.sin(a)])
    if len(fixed) == n:
        return {c: (pos[i][0], pos[i][1]) for c, i in index.items()}
    links = [(index[a], index[b]) for a, b in edges]
    temperature = radius / 4
    gravity = 0.9
    iterations = 120 if n <= 120 else 60
    for _ in range(iterations):
        disp = [[0.0, 0.0] for _ in range(n)]
        for i in range(n):
            xi, yi = pos[i]
            for j in range(i + 1, n):
                dx, dy = xi - pos[j][0], yi - pos[j][1]
                d2 = dx * dx + dy * dy or 0.01
                f = k * k / d2
                disp[i][0] += dx * f
                disp[i][1] += dy * f
                disp[j][0] -= dx * f
                disp[j][1] -= dy * f
        for i, j in links:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = math.hypot(dx, dy) or 0.01
            f = d / k
            disp[i][0] -= dx * f
            disp[i][1] -= dy * f
            disp[j][0] += dx * f
            disp[j][1] += dy * f
        for i, c in enumerate(codes):
            if c in fixed:
                continue
            # Gravity towards the middle keeps unlinked provinces from drifting away.
            disp[i][0] -= pos[i][0] * gravity
            disp[i][1] -= pos[i][1] * gravity
            dx, dy = disp[i]
            d = math.hypot(dx, dy) or 0.01
            step = min(d, temperature)
            pos[i][0] += dx / d * step
            pos[i][1] += dy / d * step
        temperature = max(temperature * 0.95, 1.0)
    return {c: (pos[i][0], pos[i][1]) for c, i in index.items()}
