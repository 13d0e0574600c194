"""Made-up boards for trying the drawer: near-planar, with seas, coasts, split coasts and a
couple of canals. Seeded, so a board is the same on every run.

    from calhamer.render.draw.sample import sample_board
    text = sample_board(200, seed=3)      # a map file (TOML text)

The provinces are the cells of a Voronoi diagram of random points, taken on a coarse raster
(cells that meet are adjacent); a smooth random height makes seas of the low ones. A few
coasts touching seas on opposite sides are split in two, and ``canals`` extra edges join
provinces two steps apart (the non-planar edges a real board has: Kiel, Constantinople).
"""

from __future__ import annotations

import math
import random


def sample_board(count: int, seed: int = 1, *, canals: int = 2, hints: bool = False,
                 powers: int = 5) -> str:
    """A map file of ``count`` provinces (TOML text), drawn from ``seed``."""
    rng = random.Random(seed)
    width = math.sqrt(count) * 1.3
    height = math.sqrt(count) / 1.3
    points = _spread(rng, count, width, height)
    near = _voronoi_neighbours(points, width, height)
    heights = _heights(rng, points)
    order = sorted(range(count), key=lambda i: heights[i])
    seas = set(order[: int(count * 0.32)])
    land = [i for i in range(count) if i not in seas]
    coast = {i for i in land if near[i] & seas}
    codes = _codes(rng, count)
    split = _split_coasts(points, near, seas, coast)
    extra = _canal_edges(rng, near, seas, canals)

    lines = ["# A made-up board (calhamer.render.draw.sample)", "[map]",
             f'name = "sample-{count}-{seed}"', f'title = "Sample board {count}/{seed}"',
             'start_phase = "S1901M"', ""]
    centres = sorted(rng.sample(land, max(3, len(land) // 2)))
    homes = _homes(rng, centres, near, powers)
    victory = len(centres) // 2 + 1
    lines.insert(4, f"victory_centers = {victory}")
    colours = ["#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#7f7f7f"]
    for k in range(len(homes)):
        lines += [f"[powers.P{k}]", f'name = "Power {k}"', f'color = "{colours[k % 7]}"', ""]
    home_of = {p: k for k, ps in enumerate(homes) for p in ps}
    lines.append("[provinces]")
    for i in range(count):
        kind = "sea" if i in seas else "coast" if i in coast else "land"
        fields = [f'name = "Province {codes[i]}"', f'type = "{kind}"']
        if i in centres:
            fields.append("sc = true")
        if i in home_of:
            fields.append(f'home = "P{home_of[i]}"')
        if i in split:
            fields.append('coasts = ["NC", "SC"]')
        if hints:
            x, y = points[i]
            fields += [f"x = {x * 60:.1f}", f"y = {y * 60:.1f}"]
        lines.append(f"{codes[i]} = {{ {', '.join(fields)} }}")
    lines += ["", "[army]"]
    for i in land:
        targets = sorted(codes[j] for j in near[i] if j not in seas)
        targets += sorted(codes[j] for a, j in extra if a == i and j not in seas)
        if targets:
            lines.append(f'{codes[i]} = "{" ".join(targets)}"')
    lines += ["", "[fleet]"]
    for i in range(count):
        if i not in seas and i not in coast:
            continue
        for name, targets in _fleet_targets(i, near, seas, coast, split, codes, extra):
            if targets:
                lines.append(f'"{name}" = "{" ".join(targets)}"')
    lines += ["", "[start.units]"]
    for k, ps in enumerate(homes):
        units = [f'"A {codes[p]}"' for p in ps]
        lines.append(f"P{k} = [{', '.join(units)}]")
    return "\n".join(lines) + "\n"


def _spread(rng: random.Random, count: int, width: float, height: float
            ) -> list[tuple[float, float]]:
    """Points kept apart (best of a few candidates each), so provinces are of like size."""
    points: list[tuple[float, float]] = []
    for _ in range(count):
        best, best_d = (0.0, 0.0), -1.0
        for _ in range(8):
            p = (rng.uniform(0, width), rng.uniform(0, height))
            d = min((math.dist(p, q) for q in points), default=1.0)
            if d > best_d:
                best, best_d = p, d
        points.append(best)
    return points


def _voronoi_neighbours(points: list[tuple[float, float]], width: float, height: float
                        ) -> list[set[int]]:
    """Which cells of the points' Voronoi diagram meet, found on a raster."""
    steps = 14
    nx, ny = int(width * steps), int(height * steps)
    owner = []
    for gy in range(ny):
        y = (gy + 0.5) / steps
        row = []
        for gx in range(nx):
            x = (gx + 0.5) / steps
            row.append(min(range(len(points)),
                           key=lambda i: (points[i][0] - x) ** 2 + (points[i][1] - y) ** 2))
        owner.append(row)
    near: list[set[int]] = [set() for _ in points]
    for gy in range(ny):
        for gx in range(nx):
            a = owner[gy][gx]
            for b in (owner[gy][gx + 1] if gx + 1 < nx else a,
                      owner[gy + 1][gx] if gy + 1 < ny else a):
                if a != b:
                    near[a].add(b)
                    near[b].add(a)
    return near


def _heights(rng: random.Random, points: list[tuple[float, float]]) -> list[float]:
    waves = [(rng.uniform(0.2, 0.7), rng.uniform(0, math.tau), rng.uniform(0, math.tau))
             for _ in range(4)]
    return [sum(math.sin(f * x + a) + math.cos(f * y + b) for f, a, b in waves)
            for x, y in points]


def _codes(rng: random.Random, count: int) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPRSTUVWYZ"
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        code = "".join(rng.choice(letters) for _ in range(3))
        if code not in seen:
            seen.add(code)
            out.append(code)
    return out


def _split_coasts(points, near, seas, coast) -> dict[int, tuple[set[int], set[int]]]:
    """Coasts between seas that do not meet, split north and south (at most three)."""
    out: dict[int, tuple[set[int], set[int]]] = {}
    for i in sorted(coast):
        touching = sorted(near[i] & seas)
        north = {s for s in touching if points[s][1] < points[i][1]}
        south = set(touching) - north
        # Split where some sea to the north and some to the south do not meet (Spain's).
        if north and south and any(b not in near[a] for a in north for b in south):
            out[i] = (north, south)
        if len(out) == 3:
            break
    return out


def _canal_edges(rng: random.Random, near, seas, count: int) -> list[tuple[int, int]]:
    """Edges between provinces two steps apart: army ones over land, fleet ones over seas."""
    out: list[tuple[int, int]] = []
    for i in sorted(range(len(near)), key=lambda _: rng.random()):
        if len(out) >= count:
            break
        kind_sea = i in seas
        two = sorted({k for j in near[i] for k in near[j]} - near[i] - {i})
        two = [k for k in two if (k in seas) == kind_sea]
        if two:
            k = rng.choice(two)
            out += [(i, k), (k, i)]
    return out


def _fleet_targets(i, near, seas, coast, split, codes, extra):
    def name(j: int, towards: int) -> str:
        if j in split:
            north, _ = split[j]
            return f"{codes[j]}/{'NC' if towards in north else 'SC'}"
        return codes[j]

    if i in split:
        north, south = split[i]
        for coast_name, reach in (("NC", north), ("SC", south)):
            yield f"{codes[i]}/{coast_name}", sorted(codes[s] for s in reach)
        return
    targets = []
    for j in sorted(near[i]):
        if j in seas:
            targets.append(name(j, i) if j in split else codes[j])
        elif i in seas and j in coast:
            targets.append(name(j, i))
        elif i in coast and j in coast and j not in split and near[i] & near[j] & seas:
            targets.append(codes[j])
    if i in seas:
        targets += [codes[k] for a, k in extra if a == i and k in seas]
    yield codes[i], sorted(targets)


def _homes(rng: random.Random, centres: list[int], near, powers: int) -> list[list[int]]:
    """Three home centres for each power, close together where the board allows."""
    free = list(centres)
    out: list[list[int]] = []
    for _ in range(powers):
        if len(free) < 3:
            break
        first = free.pop(rng.randrange(len(free)))
        group = [first]
        frontier = sorted(near[first])
        for p in sorted(free, key=lambda c: (c not in frontier, c)):
            if len(group) == 3:
                break
            group.append(p)
        for p in group[1:]:
            free.remove(p)
        out.append(group)
    return out
