#!/usr/bin/env python3
"""Generate ``src/calhamer/maps/standard.geometry.json``: the province shapes of the board.

Method (the long form is in ``docs/render.md``):

1. ``geodata.py`` holds our own hand-made coast outlines and, for every province, a few seed
   points, all as longitude and latitude.
2. Everything is projected (Lambert conformal conic), squeezed radially around Germany so that
   the crowded middle of the board gets room and Russia and the oceans less, swollen locally
   by a few lenses (Italy, Britain, the western Balkans, the Low Countries), and scaled to the
   board. Coasts are smoothed (Chaikin) and lightly simplified.
3. The land is the union of the coast outlines less the enclosed seas. Land seeds are
   tessellated (Voronoi) and clipped to the land; sea seeds likewise to the water. The cells of
   one province's seeds make its shape. A piece of a province cut off from all its seeds joins
   the neighbour it shares the longest border with.
4. For each province: a unit anchor (the pole of inaccessibility, or a hand-set point), one
   unit anchor per split coast near that coast's seas, then a supply-centre point and a label
   point placed, smallest provinces first, where they fit inside the province and keep clear
   of every unit, marker and label already placed.
5. The result is checked against the map's adjacency: provinces that are adjacent must share
   a border, and provinces that share a border must be adjacent (Switzerland aside). Problems
   are printed; ``--strict`` fails on them.

Needs shapely 2 (``pip install shapely``): only this script does, never the judge.
Deterministic: the same input gives byte-identical output.

    python scripts/make_geometry.py [--preview preview.svg] [--strict]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

import shapely
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polylabel, unary_union

sys.path.insert(0, str(Path(__file__).parent))
import geodata

from calhamer.map import Terrain, load_map

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "calhamer" / "maps" / "standard.geometry.json"

# -- projection -----------------------------------------------------------------------------

LAT1, LAT2, LAT0, LON0 = math.radians(40), math.radians(62), math.radians(50), 15.0
_N = math.log(math.cos(LAT1) / math.cos(LAT2)) / math.log(
    math.tan(math.pi / 4 + LAT2 / 2) / math.tan(math.pi / 4 + LAT1 / 2)
)
_F = math.cos(LAT1) * math.tan(math.pi / 4 + LAT1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + LAT0 / 2) ** _N

# Central Europe is crowded and Russia is vast, so the projected plane is squeezed radially
# around a centre in Germany (r' = R0 ln(1 + r/R0)): the middle of the board gets more room and
# the edges less, much as on the printed board. The board is then a rectangle of that plane
# scaled to WIDTH pixels.
R0 = 200.0
# The board must show these places (longitude, latitude), with a margin.
KEEP_IN_VIEW = [(-9.8, 31.5), (-10.0, 29.5), (-24.5, 65.5), (-22.0, 63.5), (25.8, 71.2),
                (35.0, 72.5), (43.3, 68.6), (46.0, 40.0), (47.0, 42.0), (50.0, 56.0),
                (36.0, 31.5), (10.0, 30.5), (-10.5, 52.0), (31.0, 70.4)]
MARGIN = (12.0, 18.0, 10.0, 5.0)  # left, top, right, bottom
WIDTH = 1000.0

def conic(lon: float, lat: float) -> tuple[float, float]:
    """Lambert conformal conic, 1000 units per Earth radius, y down."""
    rho = _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    theta = _N * math.radians(lon - LON0)
    return rho * math.sin(theta) * 1000, -(_RHO0 - rho * math.cos(theta)) * 1000


_CX, _CY = conic(8.0, 50.0)


# Then a few lenses swell crowded places that the squeeze leaves thin (Italy, Britain, the
# western Balkans, the Low Countries):
# (longitude, latitude, strength k, radius); a point at distance v from a lens's centre moves
# out by k v exp(-v²/radius²), which keeps the map one-to-one for any k < 2.
LENSES = [(13.5, 42.0, 0.8, 40.0), (-3.0, 55.0, 0.7, 45.0), (20.0, 41.5, 0.4, 30.0),
          (5.0, 51.5, 0.25, 28.0)]


def _radial(lon: float, lat: float) -> tuple[float, float]:
    x, y = conic(lon, lat)
    dx, dy = x - _CX, y - _CY
    r = math.hypot(dx, dy)
    s = R0 * math.log1p(r / R0) / r if r > 1e-9 else 1.0
    return dx * s, dy * s


_LENS_CENTRES = [(*_radial(lon, lat), k, radius) for lon, lat, k, radius in LENSES]


def _squeeze(lon: float, lat: float) -> tuple[float, float]:
    x, y = _radial(lon, lat)
    dx = dy = 0.0
    for cx, cy, k, radius in _LENS_CENTRES:
        vx, vy = x - cx, y - cy
        f = k * math.exp(-(vx * vx + vy * vy) / (radius * radius))
        dx += vx * f
        dy += vy * f
    return x + dx, y + dy


def _frame() -> tuple[float, float, float, float]:
    pts = [_squeeze(lon, lat) for lon, lat in KEEP_IN_VIEW]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs) - MARGIN[0], min(ys) - MARGIN[1], max(xs) + MARGIN[2], max(ys) + MARGIN[3])


FRAME = _frame()
SCALE = WIDTH / (FRAME[2] - FRAME[0])
HEIGHT = round((FRAME[3] - FRAME[1]) * SCALE, 1)


def project(lon: float, lat: float) -> tuple[float, float]:
    x, y = _squeeze(lon, lat)
    return (x - FRAME[0]) * SCALE, (y - FRAME[1]) * SCALE


def densify(points: list[tuple[float, float]], step: float = 1.0) -> list[tuple[float, float]]:
    """Add points every ``step`` degrees so that long edges follow the projection's curves."""
    out = []
    ring = [*points, points[0]]
    for (a, b), (c, d) in itertools.pairwise(ring):
        n = max(1, math.ceil(max(abs(c - a), abs(d - b)) / step))
        out += [(a + (c - a) * i / n, b + (d - b) * i / n) for i in range(n)]
    return out


def chaikin(points: list[tuple[float, float]], rounds: int = 2) -> list[tuple[float, float]]:
    for _ in range(rounds):
        ring = [*points, points[0]]
        smooth = []
        for (a, b), (c, d) in itertools.pairwise(ring):
            smooth.append((0.75 * a + 0.25 * c, 0.75 * b + 0.25 * d))
            smooth.append((0.25 * a + 0.75 * c, 0.25 * b + 0.75 * d))
        points = smooth
    return points


def outline(ring: list[tuple[float, float]]) -> Polygon:
    """A hand-drawn coast ring as a smoothed, projected, valid polygon."""
    projected = [project(lon, lat) for lon, lat in densify(ring)]
    poly = Polygon(chaikin(projected)).simplify(0.25)
    return shapely.make_valid(poly) if not poly.is_valid else poly


# -- tessellation ---------------------------------------------------------------------------


def tessellate(seeds: dict[str, list[tuple[float, float]]], clip) -> dict[str, object]:
    """Voronoi cells of all seeds, grouped by owner and clipped to ``clip``."""
    owners, points = [], []
    for owner, pts in seeds.items():
        for lon, lat in pts:
            owners.append(owner)
            points.append(project(lon, lat))
    frame = box(-200, -200, WIDTH + 200, HEIGHT + 200)
    cells = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    grouped: dict[str, list] = {}
    for owner, cell in zip(owners, cells.geoms, strict=True):
        grouped.setdefault(owner, []).append(cell)
    shapes = {o: unary_union(c).intersection(clip) for o, c in grouped.items()}
    seed_points = {}
    for owner, pt in zip(owners, points, strict=True):
        seed_points.setdefault(owner, []).append(Point(pt))
    return _reassign_fragments(shapes, seed_points)


def _parts(geom) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, Polygon) and g.area > 0.01]


def _reassign_fragments(shapes, seed_points):
    """Keep the parts of each shape that hold one of its seeds; give the rest to the
    neighbour with the longest shared border (or to nobody, if it touches no one)."""
    kept: dict[str, list[Polygon]] = {}
    orphans: list[Polygon] = []
    for owner, geom in shapes.items():
        for part in _parts(geom):
            if any(part.buffer(0.01).contains(p) for p in seed_points[owner]):
                kept.setdefault(owner, []).append(part)
            else:
                orphans.append(part)
    leftovers = []
    # Largest first, and repeat: an orphan may touch only another orphan at first.
    pending = sorted(orphans, key=lambda p: -p.area)
    for _ in range(5):
        still = []
        for part in pending:
            best, best_len = None, 0.0
            ring = part.boundary.buffer(0.05)
            for owner in sorted(kept):
                shared = ring.intersection(unary_union(kept[owner]).boundary).length
                if shared > best_len + 1e-9:
                    best, best_len = owner, shared
            if best is None or best_len < 0.5:
                still.append(part)
            else:
                kept[best].append(part)
        pending = still
    leftovers = pending
    merged = {o: unary_union(parts) for o, parts in kept.items()}
    return merged | ({"": unary_union(leftovers)} if leftovers else {})


# -- anchors --------------------------------------------------------------------------------

UNIT_R = 13.0  # room a unit needs around its anchor
SC_R = 5.0
LABEL_H = 10.0
CHAR_W = 6.6


def largest(geom) -> Polygon:
    parts = _parts(geom)
    return max(parts, key=lambda p: p.area)


def grid_points(poly: Polygon, step: float = 2.0):
    minx, miny, maxx, maxy = poly.bounds
    xs = [minx + step * i for i in range(int((maxx - minx) / step) + 1)]
    ys = [miny + step * i for i in range(int((maxy - miny) / step) + 1)]
    pts = [Point(x, y) for y in ys for x in xs]
    inside = shapely.contains(poly, pts)
    return [p for p, ok in zip(pts, inside, strict=True) if ok]


class Obstacles:
    """What labels and markers must keep clear of: units' circles and placed boxes."""

    def __init__(self) -> None:
        self.circles: list[tuple[float, float, float, str]] = []  # x, y, r, owner
        self.boxes: list[tuple[float, float, float, float, str]] = []  # x0, y0, x1, y1, owner

    def gap(self, b: tuple[float, float, float, float], owner: str) -> tuple[float, float]:
        """Smallest gap from box ``b`` to others' obstacles, and to ``owner``'s own unit."""
        other, own = 1e9, 1e9
        x0, y0, x1, y1 = b
        for cx, cy, r, who in self.circles:
            dx = max(x0 - cx, 0.0, cx - x1)
            dy = max(y0 - cy, 0.0, cy - y1)
            g = math.hypot(dx, dy) - r
            if who == owner:
                own = min(own, g)
            else:
                other = min(other, g)
        for bx0, by0, bx1, by1, who in self.boxes:
            dx = max(bx0 - x1, 0.0, x0 - bx1)
            dy = max(by0 - y1, 0.0, y0 - by1)
            g = math.hypot(dx, dy)
            if who == owner:
                own = min(own, g + 2)
            else:
                other = min(other, g)
        return other, own


def _clearance(poly: Polygon, b) -> float:
    """How far box ``b`` stays inside ``poly`` (negative when it sticks out)."""
    bb = box(*b)
    if not poly.contains(bb):
        return -1.0
    return min([poly.exterior.distance(bb), *(h.distance(bb) for h in poly.interiors)])


def place_label(code: str, geom, text: str, unit: Point, obstacles: Obstacles,
                fixed: Point | None) -> list[float]:
    w = CHAR_W * len(text) + 2
    if fixed is not None:
        p = fixed
    else:
        poly = largest(geom)
        best, best_score = None, -1e9
        for p in grid_points(poly):
            b = (p.x - w / 2, p.y - LABEL_H / 2, p.x + w / 2, p.y + LABEL_H / 2)
            fit = _clearance(poly, b)
            if fit < 0.5:
                continue
            other, own = obstacles.gap(b, code)
            if own < 3.0 or other < 1.5:
                continue
            score = min(fit, 4.0) + min(other, 6.0) * 0.5 - 0.07 * max(0.0, own - 5.0)
            if score > best_score:
                best, best_score = p, score
        p = best or Point(unit.x, unit.y + UNIT_R + LABEL_H / 2 + 2)
    obstacles.boxes.append((p.x - w / 2, p.y - LABEL_H / 2, p.x + w / 2, p.y + LABEL_H / 2, code))
    return _xy(p)


def place_sc(code: str, geom, unit: Point, obstacles: Obstacles,
             fixed: Point | None) -> list[float]:
    if fixed is not None:
        p = fixed
    else:
        poly = largest(geom)
        best, best_score = None, -1e9
        r = SC_R
        for p in grid_points(poly, 1.5):
            b = (p.x - r, p.y - r, p.x + r, p.y + r)
            fit = _clearance(poly, b)
            if fit < 0.5:
                continue
            other, own = obstacles.gap(b, code)
            if own < 2.0 or other < 2.0:
                continue
            score = min(fit, 4.0) + min(other, 6.0) * 0.4 - 0.12 * max(0.0, own - 4.0)
            if score > best_score:
                best, best_score = p, score
        p = best or Point(unit.x + UNIT_R + SC_R + 2, unit.y)
    obstacles.boxes.append((p.x - SC_R, p.y - SC_R, p.x + SC_R, p.y + SC_R, code))
    return _xy(p)


def coast_anchor(poly, seas: list, avoid: Point, over) -> list[float]:
    """A point inside ``poly`` close to its shore on ``seas``, away from ``avoid``."""
    if over is not None:
        return _xy(Point(project(*over)))
    shore = poly.boundary.intersection(unary_union([s.buffer(1.0) for s in seas]))
    target = shore.centroid if not shore.is_empty else poly.centroid
    # The nearest point of the shore to the shore's centroid, then step inland.
    target = shore.interpolate(shore.project(target)) if not shore.is_empty else target
    best, best_d = None, 1e9
    for p in grid_points(largest(poly), 1.5):
        c = poly.exterior.distance(p)
        if c < UNIT_R * 0.8 or p.distance(avoid) < UNIT_R * 2.0:
            continue
        d = p.distance(target)
        if d < best_d:
            best, best_d = p, d
    return _xy(best or target)


def _xy(p: Point) -> list[float]:
    return [round(p.x, 1), round(p.y, 1)]


# -- SVG paths ------------------------------------------------------------------------------


def path_d(geom) -> str:
    out = []
    for poly in _parts(geom):
        for ring in (poly.exterior, *poly.interiors):
            coords = list(ring.coords)[:-1]
            pts = []
            last = None
            for x, y in coords:
                p = (round(x, 1), round(y, 1))
                if p != last:
                    pts.append(p)
                    last = p
            if len(pts) < 3:
                continue
            out.append("M" + " ".join(f"{_n(x)},{_n(y)}" for x, y in pts) + "Z")
    return "".join(out)


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


# -- checks ---------------------------------------------------------------------------------


def touching(a, b) -> float:
    """Length of the border two shapes share (a little tolerance for rounding)."""
    if a.distance(b) > 0.5:
        return 0.0
    return a.boundary.intersection(b.buffer(0.6)).length


def check(m, shapes) -> list[str]:
    problems = []
    codes = [p.code for p in m.provinces]
    need: set[frozenset[str]] = set()
    for p in m.provinces:
        for q in m.army_adjacent[p.id]:
            need.add(frozenset((p.code, m.provinces[q].code)))
        for q in m.province_fleet_adjacent[p.id]:
            if q != p.id:
                need.add(frozenset((p.code, m.provinces[q].code)))
    bounds = {c: shapes[c].bounds for c in codes}
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            ab, bb = bounds[a], bounds[b]
            if ab[0] > bb[2] + 1 or bb[0] > ab[2] + 1 or ab[1] > bb[3] + 1 or bb[1] > ab[3] + 1:
                length = 0.0
            else:
                length = touching(shapes[a], shapes[b])
            pair = frozenset((a, b))
            if pair in need and length < 6:
                problems.append(f"{a}-{b} are adjacent but share only {length:.1f}px of border")
            elif pair not in need and length > 0.5 and "SWI" not in pair:
                problems.append(f"{a}-{b} touch ({length:.1f}px) but are not adjacent")
    for c in codes:
        if len(_parts(shapes[c])) > 1:
            problems.append(f"{c} is in {len(_parts(shapes[c]))} pieces")
        if shapes[c].area < 150:
            problems.append(f"{c} is tiny ({shapes[c].area:.0f} px²)")
    return problems


# -- overrides ------------------------------------------------------------------------------

# Hand-tuned anchors (longitude, latitude) where the automatic choice looked wrong.
OVERRIDES: dict[str, dict[str, tuple[float, float]]] = {
    # The big oceans' widest points are far out at the edge of the board; play is near the
    # coasts.
    "MAO": {"unit": (-8.5, 45.6)},
    "NAO": {"unit": (-16.0, 56.5)},
    "NWG": {"unit": (1.0, 65.5)},
    "BAR": {"unit": (37.0, 71.3)},
    # St Petersburg reaches from the Gulf of Finland to the Urals: keep its pieces near the city.
    "STP": {"unit": (35.5, 62.5), "sc": (31.8, 60.9)},
}
COAST_OVERRIDES: dict[str, tuple[float, float]] = {
    "STP/NC": (34.0, 68.2),  # the Murmansk coast, not the mouth of the White Sea
}


def build():
    m = load_map("standard")
    frame = box(0, 0, WIDTH, HEIGHT)
    land = unary_union([outline(r) for r in geodata.LAND])
    land = land.difference(unary_union([outline(r) for r in geodata.WATER]))
    land = land.intersection(frame)
    islands = {code: (name, outline(ring).intersection(frame))
               for code, (name, ring) in geodata.ISLANDS.items()}
    water = frame.difference(land).difference(unary_union([g for _, g in islands.values()]))

    sea_codes = {p.code for p in m.provinces if p.terrain is Terrain.SEA}
    land_seeds = {c: s for c, s in geodata.SEEDS.items() if c not in sea_codes}
    land_seeds |= {f"~{name}": pts for name, pts in geodata.NEUTRAL.items()}
    sea_seeds = {c: s for c, s in geodata.SEEDS.items() if c in sea_codes}
    shapes = tessellate(land_seeds, land) | _rename_orphans(tessellate(sea_seeds, water), "water")
    missing = [p.code for p in m.provinces if p.code not in shapes]
    if missing:
        raise SystemExit(f"no seeds for {', '.join(missing)}")
    return m, shapes, islands, land


def _rename_orphans(shapes, kind):
    if "" in shapes:
        shapes[f"~{kind}"] = shapes.pop("")
    return shapes


def write_preview(path: str, doc: dict, m) -> None:
    """A debugging picture: shapes by terrain, codes, seeds and anchors."""
    fills = {Terrain.SEA: "#a8c8e8", Terrain.LAND: "#e8dcb8", Terrain.COAST: "#d8e8b8",
             Terrain.IMPASSABLE: "#999"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH * 1.6:.0f}" '
           f'height="{HEIGHT * 1.6:.0f}" viewBox="0 0 {WIDTH} {HEIGHT}">',
           '<rect width="100%" height="100%" fill="#cde"/>']
    if "water" in doc:
        out.append(f'<path d="{doc["water"]}" fill="#f0f"/>')
    for n in doc["neutral"]:
        out.append(f'<path d="{n["d"]}" fill="#c8b898" stroke="#555" stroke-width=".4"/>')
    for e in doc["extras"].values():
        out.append(f'<path d="{e["d"]}" fill="#b8a888" stroke="#555" stroke-width=".4"/>')
    for p in m.provinces:
        e = doc["provinces"][p.code]
        out.append(f'<path d="{e["d"]}" fill="{fills[p.terrain]}" stroke="#333" '
                   'stroke-width=".5"/>')
    for pts in geodata.SEEDS.values():
        for lon, lat in pts:
            x, y = project(lon, lat)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.2" fill="#c00"/>')
    for code, e in [*doc["provinces"].items(), *doc["extras"].items()]:
        ux, uy = e["unit"]
        out.append(f'<circle cx="{ux}" cy="{uy}" r="{UNIT_R}" fill="none" stroke="#00c" '
                   'stroke-width=".7"/>')
        for cx, cy in e.get("coasts", {}).values():
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{UNIT_R}" fill="none" stroke="#0a0" '
                       'stroke-width=".7"/>')
        if "sc" in e:
            out.append(f'<circle cx="{e["sc"][0]}" cy="{e["sc"][1]}" r="{SC_R}" fill="none" '
                       'stroke="#000" stroke-width=".8"/>')
        lx, ly = e["label"]
        out.append(f'<text x="{lx}" y="{ly + 3.5}" font-size="10" text-anchor="middle" '
                   f'font-family="DejaVu Sans">{code}</text>')
    out.append("</svg>")
    Path(path).write_text("\n".join(out))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strict", action="store_true", help="fail on adjacency problems")
    parser.add_argument("-o", "--output", default=str(OUT))
    parser.add_argument("--preview", metavar="SVG", help="also draw the shapes and seeds")
    args = parser.parse_args()

    m, shapes, islands, _land = build()
    problems = check(m, shapes)
    for p in problems:
        print("check:", p, file=sys.stderr)

    def over(code: str, key: str) -> Point | None:
        value = OVERRIDES.get(code, {}).get(key)
        return Point(project(*value)) if value is not None else None

    # Units first (every province's and coast's), so labels and markers can avoid them all.
    every = [(p.code, shapes[p.code], p) for p in m.provinces]
    every += [(code, geom, None) for code, (_name, geom) in islands.items() if not geom.is_empty]
    units: dict[str, Point] = {
        code: over(code, "unit") or polylabel(largest(geom), tolerance=0.5)
        for code, geom, _p in every
    }
    coasts: dict[str, dict[str, list[float]]] = {}
    for p in m.provinces:
        for coast in p.coasts:
            loc = m.loc(f"{p.code}/{coast}")
            seas = [
                shapes[m.provinces[m.province_of(d)].code]
                for d in sorted(m.fleet_adjacent[loc])
                if m.provinces[m.province_of(d)].terrain is Terrain.SEA
            ]
            coasts.setdefault(p.code, {})[coast] = coast_anchor(
                shapes[p.code], seas, units[p.code], COAST_OVERRIDES.get(f"{p.code}/{coast}")
            )
    obstacles = Obstacles()
    for code, pt in units.items():
        obstacles.circles.append((pt.x, pt.y, UNIT_R, code))
    for code, cs in coasts.items():
        for x, y in cs.values():
            # A coast's unit is another thing to keep clear of, not one to stay close to.
            obstacles.circles.append((x, y, UNIT_R, f"{code}/coast"))
    # Small provinces choose first: big ones have room to spare.
    anchors: dict[str, dict] = {}
    for code, geom, p in sorted(every, key=lambda e: largest(e[1]).area):
        entry = {"unit": _xy(units[code])}
        if p is None or p.is_supply_center:
            entry["sc"] = place_sc(code, geom, units[code], obstacles, over(code, "sc"))
        entry["label"] = place_label(code, geom, code, units[code], obstacles,
                                     over(code, "label"))
        anchors[code] = entry

    provinces = {}
    for p in m.provinces:
        a = anchors[p.code]
        entry = {"d": path_d(shapes[p.code]), "unit": a["unit"], "label": a["label"]}
        if "sc" in a:
            entry["sc"] = a["sc"]
        if p.code in coasts:
            entry["coasts"] = coasts[p.code]
        provinces[p.code] = entry
    extras = {}
    for code, (name, geom) in islands.items():
        if geom.is_empty:
            continue
        a = anchors[code]
        extras[code] = {"name": name, "d": path_d(geom), "unit": a["unit"],
                        "label": a["label"], "sc": a["sc"]}
    neutral = [
        {"name": name[1:], "d": path_d(geom)}
        for name, geom in sorted(shapes.items())
        if name.startswith("~") and name != "~water" and not geom.is_empty
    ]
    doc = {
        "format": "calhamer-geometry/1",
        "map": "standard",
        "width": WIDTH,
        "height": HEIGHT,
        "source": "generated by scripts/make_geometry.py from scripts/geodata.py "
                  "(our own hand-made data; see docs/render.md)",
        "provinces": provinces,
        "extras": extras,
        "neutral": neutral,
    }
    if "~water" in shapes and not shapes["~water"].is_empty:
        doc["water"] = path_d(shapes["~water"])
    Path(args.output).write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    if args.preview:
        write_preview(args.preview, doc, m)
    print(f"wrote {args.output}: {len(provinces)} provinces, {len(problems)} problems")
    return 1 if problems and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
