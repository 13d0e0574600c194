"""Issue 28, item 3: a picture for any board, drawn from the board itself.

Every board calhamer ships, drawn from its map alone (its own drawing ignored), and made-up
boards of 20 to 250 provinces (seas, coasts, split coasts, canals that no planar drawing can
show as borders) pass the check the standard board's drawing passes: adjacent provinces
touch or are joined by a bridge or canal, provinces that touch are adjacent. The drawing is
the same byte for byte on every run, and every label, unit and centre lies inside its
province, apart from the others.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from calhamer.map import Map, Terrain, load_map
from calhamer.position import Position
from calhamer.render import geometry_for, render_svg
from calhamer.render.checks import geometry_problems
from calhamer.render.draw.anchors import SC_R, UNIT_R, label_box
from calhamer.render.draw.sample import sample_board
from calhamer.render.geometry import _border_distance as _edge_distance
from calhamer.render.geometry import _from_doc, schematic
from calhamer.render.geometry import _inside as _contains
from calhamer.render.paths import path_points

pytest.importorskip("networkx")

SHIPPED = ["standard", "kriegsplomacy", "superdiplomacy", "standard-dp", "sub-saharan-excerpt"]
# (provinces, seed, hints): made-up boards, one with x and y given for every province.
SAMPLES = [(20, 1, False), (60, 5, True), (120, 2, False), (250, 3, False)]

_DRAWN: dict[str, tuple[Map, dict[str, Any]]] = {}


def drawn(key: str, tmp_root: Path) -> tuple[Map, dict[str, Any]]:
    """A board and its drawing, drawn once for the whole module."""
    if key not in _DRAWN:
        if key in SHIPPED:
            board = load_map(key)
        else:
            count, seed, hints = (int(v) if v.isdigit() else v == "True"
                                  for v in key.split("-"))
            path = tmp_root / f"sample-{key}.toml"
            path.write_text(sample_board(count, seed, hints=hints), encoding="utf-8")
            board = load_map(str(path))
        from calhamer.render.draw import draw_board

        _DRAWN[key] = (board, draw_board(board, hints=key not in SHIPPED))
    return _DRAWN[key]


@pytest.fixture(scope="module")
def tmp_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("boards")


BOARDS = SHIPPED + [f"{n}-{s}-{h}" for n, s, h in SAMPLES]


@pytest.mark.parametrize("key", BOARDS)
def test_item3_adjacency_both_ways_on_every_board_drawn_from_its_map(key, tmp_root):
    board, doc = drawn(key, tmp_root)
    assert doc["format"] == "calhamer-geometry/1"
    assert set(doc["provinces"]) == {p.code for p in board.provinces}
    assert geometry_problems(board, _from_doc(doc)) == []


@pytest.mark.parametrize("key", BOARDS)
def test_item3_labels_units_and_centres_lie_inside_their_province_apart(key, tmp_root):
    board, doc = drawn(key, tmp_root)
    for p in board.provinces:
        entry = doc["provinces"][p.code]
        rings = _rings(entry["d"])
        pieces: list[tuple[str, Any]] = []
        if p.terrain is not Terrain.IMPASSABLE:
            pieces.append(("disc", (tuple(entry["unit"]), UNIT_R)))
            for coast in p.coasts:
                pieces.append(("disc", (tuple(entry["coasts"][coast]), UNIT_R)))
        pieces.append(("box", label_box(p.code, p.terrain is Terrain.SEA,
                                        tuple(entry["label"]))))
        if p.is_supply_center:
            pieces.append(("disc", (tuple(entry["sc"]), SC_R)))
        for kind, piece in pieces:
            assert _inside(kind, piece, rings), f"{p.code}: {kind} {piece} leaves the province"
        for i, a in enumerate(pieces):
            for b in pieces[i + 1:]:
                assert not _overlap(a, b), f"{p.code}: {a} overlaps {b}"


@pytest.mark.parametrize("key", ["standard", "60-5-True", "250-3-False"])
def test_item3_split_coasts_stand_on_the_side_of_their_seas(key, tmp_root):
    board, doc = drawn(key, tmp_root)
    split = [p for p in board.provinces if p.coasts]
    assert split, "the board has split coasts"
    for p in split:
        places = doc["provinces"][p.code]["coasts"]
        for coast in p.coasts:
            loc = board.loc(f"{p.code}/{coast}")
            seas = {board.provinces[board.loc_province[d]].code for d in board.fleet_adjacent[loc]}
            corners = [pt for s in seas for pt in path_points(doc["provinces"][s]["d"])]

            def nearness(code: str, corners: list = corners, places: dict = places) -> float:
                return min(math.dist(places[code], c) for c in corners)

            assert all(nearness(coast) <= nearness(other) for other in p.coasts), (p.code, coast)


def test_item3_seas_coasts_and_canals_are_drawn_as_such(tmp_root):
    board, doc = drawn("250-3-False", tmp_root)
    geo = _from_doc(doc)
    assert sum(1 for p in board.provinces if p.terrain is Terrain.SEA) > 40
    assert geo.coast and geo.coast.count("M") > 10  # where land meets the sea
    adjacent = {frozenset((p.code, board.provinces[q].code)) for p in board.provinces
                for q in board.army_adjacent[p.id] | board.province_fleet_adjacent[p.id]}
    for link in geo.connectors:  # a bridge or canal joins adjacent provinces only
        assert frozenset((link.a, link.b)) in adjacent
        assert link.kind in ("bridge", "canal")
    svg = render_svg(Position.initial(board), geometry=geo)
    assert 'class="pv sea"' in svg and 'class="coast"' in svg
    assert svg.count('class="link ') == len(geo.connectors)


def test_item3_the_same_board_gives_the_same_bytes(tmp_root):
    """Drawn again in a fresh interpreter with another hash seed (set orders differ)."""
    board, doc = drawn("60-5-True", tmp_root)
    code = ("import json, sys; from calhamer.map import load_map; "
            "from calhamer.render.draw import draw_board; "
            "print(json.dumps(draw_board(load_map(sys.argv[1]))))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code, board.source], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == json.dumps(doc)


def test_item3_a_board_without_a_drawing_is_drawn_as_a_map(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(sample_board(20, 1), encoding="utf-8")
    board = load_map(str(path))
    geo = geometry_for(board)
    assert not geo.schematic and not any(s.node for s in geo.shapes.values())
    assert geometry_problems(board, geo) == []
    assert schematic(board).schematic  # the schematic is still there to be asked for


def test_item3_board_draw_writes_a_file_that_render_uses(tmp_path, capsys):
    from calhamer.cli import main

    board = tmp_path / "isle.toml"
    board.write_text(sample_board(20, 4), encoding="utf-8")
    assert main(["board", "draw", str(board)]) == 0
    written = tmp_path / "isle.geometry.json"
    assert f"wrote {written}" in capsys.readouterr().out
    doc = json.loads(written.read_text())
    variant = tmp_path / "isle-plain.toml"
    variant.write_text('title = "Isle"\nboard = "isle.toml"\n', encoding="utf-8")
    game = tmp_path / "game.json"
    assert main(["game", "new", str(game), "--variant", str(variant)]) == 0
    out = tmp_path / "start.svg"
    assert main(["render", str(game), "-o", str(out)]) == 0
    svg = out.read_text()
    some = sorted(doc["provinces"])[0]
    assert f'd="{doc["provinces"][some]["d"]}"' in svg
    assert f'viewBox="0 0 {doc["width"]:g}' in svg


def test_item3_board_draw_to_a_named_file_and_its_errors(tmp_path, capsys):
    from calhamer.cli import main

    out = tmp_path / "std.json"
    assert main(["board", "draw", "sub-saharan-excerpt", "-o", str(out), "--no-hints"]) == 0
    assert json.loads(out.read_text())["map"] == "sub-saharan-excerpt"
    broken = tmp_path / "broken.toml"
    broken.write_text('[provinces]\nAAA = { type = "mud" }\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["board", "draw", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "provinces.AAA.type" in err and "calhamer board check" in err
    assert "Traceback" not in err


# -- geometry of the checks ----------------------------------------------------------------------


def _rings(d: str) -> list[list[tuple[float, float]]]:
    return [path_points("M" + part) for part in d.split("M")[1:]]


def _inside(kind: str, piece: Any, rings) -> bool:
    if kind == "disc":
        centre, r = piece
        return _contains(rings, centre) and _edge_distance(rings, centre) >= r
    x0, y0, x1, y1 = piece
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if not all(_contains(rings, c) for c in corners):
        return False
    # No border passes through the box: no corner of the outline lies in it.
    return not any(x0 < x < x1 and y0 < y < y1 for ring in rings for x, y in ring)


def _overlap(a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    if a[0] == "box" and b[0] == "box":
        p, q = a[1], b[1]
        return not (p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1])
    if a[0] == "box":
        a, b = b, a
    (centre, r) = a[1]
    if b[0] == "disc":
        return math.dist(centre, b[1][0]) < r + b[1][1]
    x0, y0, x1, y1 = b[1]
    dx = max(x0 - centre[0], 0.0, centre[0] - x1)
    dy = max(y0 - centre[1], 0.0, centre[1] - y1)
    return math.hypot(dx, dy) < r


def test_item3_every_view_draws_a_drawn_board(tmp_root):
    """Orders with their results, dislodged units, the legend and fog views, on drawn
    geometries."""
    import xml.etree.ElementTree as ET

    from calhamer import adjudicate
    from calhamer.game import Game
    from calhamer.views import known_position, power_view

    _, doc = drawn("standard", tmp_root)
    start = Position.initial("standard")
    outcome = adjudicate(start, {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                                 "GERMANY": ["A MUN - BUR"]})
    whole = render_svg(outcome=outcome, geometry=_from_doc(doc))
    ET.fromstring(whole)
    assert 'data-unit="PAR"' in whole and 'data-unit="MAR"' in whole
    assert 'id="legend"' in whole

    board, doc = drawn("kriegsplomacy", tmp_root)
    geo = _from_doc(doc)
    fog = Game.new("kriegsplomacy").current
    fogged = adjudicate(fog, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
    for power in board.power_codes:
        # The same things are drawn as on the board's own drawing, nothing more.
        view = power_view(fogged, power)
        mine = render_svg(view=view, geometry=geo)
        ET.fromstring(mine)
        assert _drawn_ids(mine) == _drawn_ids(render_svg(view=view)), power
    known = known_position(fog, "ENGLAND")
    assert _drawn_ids(render_svg(known, geometry=geo)) == _drawn_ids(render_svg(known))


def _drawn_ids(svg: str) -> set[str]:
    import re

    return set(re.findall(r'(?:id|data-unit)="([^"]+)"', svg))
