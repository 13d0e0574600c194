"""Every board calhamer ships has a picture (issue 28, item 3 and "Done when" 2; issue 30,
item 5).

- Every shipped board, godip's and DPjudge's included, has a drawing shipped with it (no
  board is drawn at run time, so no picture needs networkx), and the drawing passes the
  checks the standard board's passes: every province a shape, adjacent provinces touching or
  joined by a bridge or canal, and provinces that touch adjacent.
- Every board draws in every view the renderer has: the board at the start, the orders of
  a phase, their results, and under fog of war (the board composed with the ``fog`` module)
  each power's view of the results and its known position before them, masked.
- The shipped drawings are what ``calhamer board draw`` writes: a few small boards are drawn
  again and compared byte for byte with the shipped file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from calhamer import adjudicate
from calhamer.boards import shipped_boards
from calhamer.map import load_map
from calhamer.options import possible_order_texts
from calhamer.position import Position
from calhamer.render import Mask, geometry_for, render_svg
from calhamer.render.checks import geometry_problems
from calhamer.render.geometry import has_drawing, read_geometry
from calhamer.render.shipped import drawn_boards, geometry_path
from calhamer.variant import Variant
from calhamer.variants import find_variant, variant_names
from calhamer.views import hides_information, known_position, power_view

ROOT = Path(__file__).resolve().parents[1]
BOARDS = shipped_boards()


def test_every_family_board_is_drawn_by_the_script():
    assert len(BOARDS) > 50
    assert {"godip/youngstown-redux", "dpjudge/youngstown", "godip/twenty-twenty",
            "godip/pure", "dpjudge/standard"} <= set(drawn_boards())
    assert set(BOARDS) - set(drawn_boards()) == {
        "standard", "kriegsplomacy", "superdiplomacy", "standard-dp", "sub-saharan-excerpt"}


@pytest.mark.parametrize("name", BOARDS)
def test_every_shipped_board_has_a_true_drawing_of_its_own(name):
    board = load_map(name)
    assert has_drawing(board), f"{name} has no geometry file: run scripts/draw-boards.py"
    if name in drawn_boards():
        assert geometry_path(name).is_file()
    geo = geometry_for(board)
    assert not geo.schematic
    assert geometry_problems(board, geo) == []


def _some_orders(position: Position) -> dict[str, list[str]]:
    """For every power, each unit's (or centre's) first order that is not a hold: a move, a
    retreat, a build."""
    out: dict[str, list[str]] = {}
    for power in position.map.power_codes:
        lines = [choices[1] if len(choices) > 1 else choices[0]
                 for _, choices in possible_order_texts(position, power) if choices]
        if lines:
            out[power] = lines
    return out


def _parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    return root


def _played_on(board: str) -> tuple[Variant, Variant]:
    """A variant played on ``board`` (the standard rules where none is) and one that hides
    information on it (the board composed with the fog module where none does)."""
    plain = fog = None
    for name in variant_names():
        variant = find_variant(name)
        if variant.map_name != board:
            continue
        hidden = hides_information(Position.initial(variant=variant))
        if plain is None and not hidden:
            plain = variant
        if fog is None and hidden:
            fog = variant
    plain = plain or find_variant(f"{board}+standard")
    return plain, fog or find_variant(f"{board}+fog")


@pytest.mark.parametrize("name", BOARDS)
def test_every_shipped_board_draws_in_every_view(name):
    board = load_map(name)
    geo = geometry_for(board)
    plain, fog_variant = _played_on(name)
    start = Position.initial(variant=plain)
    whole = render_svg(start)
    _parsed(whole)
    for p in board.provinces:
        assert f'id="prov-{p.code}"' in whole, (name, p.code)
    orders = _some_orders(start)
    if orders:
        drawn = render_svg(start, orders=orders)
        assert 'class="o ' in drawn, name
    outcome = adjudicate(start, orders)
    results = render_svg(outcome=outcome)
    _parsed(results)
    if orders:
        assert 'class="o ' in results, name
    # Fog of war: each power's view of the results, and its known position before them.
    fog = Position.initial(variant=fog_variant)
    assert hides_information(fog)
    fogged = adjudicate(fog, _some_orders(fog))
    for power in board.power_codes[:3]:
        _parsed(render_svg(view=power_view(fogged, power)))
        _parsed(render_svg(known_position(fog, power), mask=Mask()))
    assert geo is geometry_for(board)  # read once, not drawn again


SMALL = ["godip/pure", "dpjudge/pure", "godip/north-sea-wars"]


@pytest.mark.parametrize("name", SMALL)
def test_a_shipped_drawing_is_what_board_draw_writes(name, tmp_path):
    pytest.importorskip("networkx")
    out = tmp_path / "again.geometry.json"
    # In a fresh interpreter with another hash seed: no set order may change the bytes.
    env_code = ("import sys; from calhamer.cli import main; "
                "sys.exit(main(['board', 'draw', sys.argv[1], '-o', sys.argv[2]]))")
    env = {**os.environ, "PYTHONHASHSEED": "4321", "PYTHONPATH": str(ROOT / "src")}
    subprocess.run([sys.executable, "-c", env_code, name, str(out)], env=env, check=True,
                   capture_output=True, text=True)
    assert out.read_text(encoding="utf-8") == geometry_path(name).read_text(encoding="utf-8")
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["map"] == name
    assert read_geometry(out).shapes.keys() == {p.code for p in load_map(name).provinces}


def test_pictures_need_no_networkx():
    """With networkx unimportable, every shipped board still gets its drawn picture."""
    code = (
        "import sys\n"
        "sys.modules['networkx'] = None\n"
        "from calhamer.boards import shipped_boards\n"
        "from calhamer.map import load_map\n"
        "from calhamer.render import geometry_for\n"
        "bad = [n for n in shipped_boards() if geometry_for(load_map(n)).schematic]\n"
        "print(bad)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == "[]"



@pytest.mark.parametrize("name", BOARDS)
def test_every_board_is_readable_at_1000_pixels(name):
    """Drawn 1000 pixels wide, a unit's icon is at least 5 pixels in radius (its labels
    about 4 pixels high or more): no board is so wide, or so crowded in one part and empty
    elsewhere, that its pieces shrink to dots."""
    from calhamer.render.draw.anchors import UNIT_R

    geo = geometry_for(load_map(name))
    assert UNIT_R * 1000 / geo.width * geo.unit_scale >= 5.0, geo.width


def _pieces(board, entry: dict, p) -> list[tuple[str, tuple]]:
    """A province's pieces in its drawing: ("disc", (centre, r)) or ("box", (x0, y0, x1, y1))."""
    from calhamer.map import Terrain
    from calhamer.render.draw.anchors import SC_R, UNIT_R, label_box

    out: list[tuple[str, tuple]] = []
    if p.terrain is not Terrain.IMPASSABLE:
        out.append(("disc", (tuple(entry["unit"]), UNIT_R)))
        out += [("disc", (tuple(entry["coasts"][c]), UNIT_R)) for c in p.coasts]
    out.append(("box", label_box(p.code, p.terrain is Terrain.SEA, tuple(entry["label"]))))
    if p.is_supply_center:
        out.append(("disc", (tuple(entry["sc"]), SC_R)))
    return out


def _bounds(piece: tuple[str, tuple]) -> tuple[float, float, float, float]:
    if piece[0] == "box":
        return piece[1]
    (x, y), r = piece[1]
    return (x - r, y - r, x + r, y + r)


def _middle(piece: tuple[str, tuple]) -> tuple[float, float]:
    x0, y0, x1, y1 = _bounds(piece)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _apart(a: tuple[str, tuple], b: tuple[str, tuple]) -> bool:
    import math

    if a[0] == "box" and b[0] == "box":
        p, q = a[1], b[1]
        return p[2] <= q[0] or q[2] <= p[0] or p[3] <= q[1] or q[3] <= p[1]
    if a[0] == "box":
        a, b = b, a
    centre, r = a[1]
    if b[0] == "disc":
        return math.dist(centre, b[1][0]) >= r + b[1][1]
    x0, y0, x1, y1 = b[1]
    return math.hypot(max(x0 - centre[0], 0.0, centre[0] - x1),
                      max(y0 - centre[1], 0.0, centre[1] - y1)) >= r


@pytest.mark.parametrize("name", drawn_boards())
def test_every_drawn_board_places_its_pieces_apart_on_their_province(name):
    """Every unit's place (and each split coast's fleet), label and centre of a drawn board
    overlaps no other, of its province or another's, and stands on its province (its middle
    inside it), even in a province the drawer could not give room enough."""
    from calhamer.render.geometry import _inside
    from calhamer.render.paths import path_points

    board = load_map(name)
    doc = json.loads(geometry_path(name).read_text(encoding="utf-8"))
    pieces = []
    for p in board.provinces:
        entry = doc["provinces"][p.code]
        rings = [path_points("M" + part) for part in entry["d"].split("M")[1:]]
        for piece in _pieces(board, entry, p):
            assert _inside(rings, _middle(piece)), f"{p.code}: {piece} is off its province"
            pieces.append((p.code, piece))
    pieces.sort(key=lambda item: _bounds(item[1])[0])
    for i, (code, piece) in enumerate(pieces):
        right = _bounds(piece)[2]
        for other_code, other in pieces[i + 1:]:
            if _bounds(other)[0] >= right:
                break
            assert _apart(piece, other), f"{code}: {piece} overlaps {other_code}: {other}"
