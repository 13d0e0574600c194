"""The orders of a picture: arrows, support and convoy lines, holds, builds and disbands.

:func:`draw_orders` reads the orders to draw (given as text or order values, or an
outcome's results), keeps those whose unit is there and seen, and draws each as one
``<g class="o KIND">`` with ``data-unit`` (and ``data-result`` when adjudicated) and a
``<title>``. A failed order is faded, with a red cross. The judge's own holds for units given
no order are not drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from xml.etree.ElementTree import Element, SubElement

from calhamer.errors import CalhamerError
from calhamer.map import UnitType
from calhamer.orders import AnyOrder, Build, Convoy, Disband, Hold, Move, Order, Retreat, Support
from calhamer.position import Position, Unit
from calhamer.render.geometry import Point
from calhamer.render.svg.palette import faded
from calhamer.render.svg.primitives import (
    add,
    along,
    arrow,
    cross,
    dot,
    line,
    mid,
    offset,
    plus,
    ring,
)
from calhamer.render.svg.scene import UNIT_R, Scene
from calhamer.results import FAILS, INVALID

__all__ = ["Orders", "draw_orders"]

Orders = Mapping[str, Iterable["str | AnyOrder"]]

# The kinds of order drawn; anything else (a waived build, a variant's own kind) is not.
_DRAWN_KINDS = (Move, Retreat, Support, Convoy, Hold, Build, Disband)


@dataclass(slots=True)
class _Drawn:
    power: str
    order: Order
    status: str | None  # SUCCEEDS, FAILS, INVALID, or None when not adjudicated
    text: str


def draw_orders(root: Element, scene: Scene, orders: Orders | None) -> None:
    """Draw ``orders`` (by power; None: the scene's outcome's results) as ``<g id="orders">``;
    nothing at all when there is no order to draw."""
    drawn = _collect(scene, orders)
    if not drawn:
        return
    m = scene.m
    moves: dict[int, tuple[Point, Point]] = {}
    for item in drawn:
        if isinstance(item.order, Move | Retreat):
            start = scene.unit_anchor(item.order.loc)
            end = scene.anchor(item.order.dest)
            moves[m.province_of(item.order.loc)] = offset(start, end, 2.5 * scene.s)
    group = add(root, "g", {"id": "orders"})
    for item in drawn:
        if isinstance(item.order, _DRAWN_KINDS):
            _draw(group, scene, item, moves)


def _collect(scene: Scene, orders: Orders | None) -> list[_Drawn]:
    """The orders to draw, in order: read, with their results when adjudicated, and only
    those for a unit that is there (or a build) and that the view lets be seen."""
    outcome, m = scene.outcome, scene.m
    base = outcome.before if outcome is not None else scene.position
    kind = base.phase.kind
    items: list[tuple[str, AnyOrder, str | None, str]] = []
    if orders is not None:
        for power_text, lines in orders.items():
            power = m.find_power(power_text) or power_text
            for text in lines:
                parsed = _read(scene, text, base, kind, power)
                if parsed is not None:
                    items.append((parsed[0], parsed[1], None, parsed[2]))
    elif outcome is not None:
        for power, results in outcome.results.items():
            for r in results:
                order = r.order
                text = r.canonical or r.text
                if order is None:
                    parsed = _read(scene, text, base, kind, power)
                    if parsed is None:
                        continue
                    order = parsed[1]
                if isinstance(order, Hold) and not r.text.strip():
                    continue  # the judge's own hold for a unit given no order
                items.append((power, order, r.result, text))
    visible = []
    for power, order, status, text in items:
        if not isinstance(order, Order):
            continue  # a waived build
        province = m.province_of(order.loc)
        unit = _ordered_unit(scene, base, province, order)
        if unit is None and not isinstance(order, Build):
            continue  # an order for a unit that is not there: nothing to draw
        if scene.seen.order(power, order, province, unit):
            visible.append(_Drawn(power, order, status, text))
    return visible


def _ordered_unit(scene: Scene, base: Position, province: int, order: Order) -> Unit | None:
    """The unit an order is for: a dislodged one for retreats, else the one standing."""
    entry = scene.dislodged.get(province)
    if isinstance(order, Retreat) or (isinstance(order, Disband) and base.phase.is_retreat):
        return entry[0] if entry else None
    return base.units.get(province)


def _read(scene: Scene, line: str | AnyOrder, base: Position, kind: str,
          power: str) -> tuple[str, AnyOrder, str] | None:
    """An order given as text, read for ``power`` (None for a comment or what cannot be
    read: a picture draws what it can); an order value as it is."""
    if not isinstance(line, str):
        return power, line, ""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    try:
        parsed = scene.variant.notation.parse_order(scene.m, text, phase_kind=kind, position=base,
                                           power=power)
    except (CalhamerError, ValueError, KeyError):
        return None
    return parsed.power or power, parsed.order, text


def _draw(parent: Element, scene: Scene, item: _Drawn, moves: dict[int, tuple[Point, Point]],
          ) -> None:
    order, pal, s, m = item.order, scene.palette, scene.s, scene.m
    colour, outline = pal.ink(item.power), pal["outline"]
    failed = item.status in (FAILS, INVALID)
    if failed:
        colour, outline = faded(colour), faded(outline)
    label = item.text or type(order).__name__
    attrib = {"class": f"o {type(order).__name__.lower()}{' failed' if failed else ''}",
              "data-unit": m.loc_name(order.loc)}
    if item.status:
        attrib["data-result"] = item.status
    g = SubElement(parent, "g", attrib)
    SubElement(g, "title").text = label + (f": {item.status}" if item.status else "")
    mark: Point | None = None
    start = scene.unit_anchor(order.loc)
    if isinstance(order, Move | Retreat):
        a, b = moves[m.province_of(order.loc)]
        occupied = m.province_of(order.dest) in scene.position.units
        arrow(g, a, b, colour, outline, s, start=UNIT_R * s, end=(UNIT_R if occupied else 3) * s)
        mark = along(a, b, -14 * s)
    elif isinstance(order, Support):
        if order.dest is None:
            end = scene.unit_anchor(order.target)
            gap = (UNIT_R + 2) * s
        else:
            a, b = moves.get(m.province_of(order.target)) or offset(
                scene.unit_anchor(order.target), scene.anchor(order.dest), 2.5 * s)
            end = mid(a, b)
            gap = 0.0
        line(g, start, end, colour, 2.2 * s, "5 3", start=UNIT_R * s, end=gap, outline=outline)
        dot(g, along(start, end, -gap) if gap else end, colour, outline, 2.8 * s)
        mark = mid(start, end)
    elif isinstance(order, Convoy):
        a, b = moves.get(m.province_of(order.army)) or offset(
            scene.unit_anchor(order.army), scene.anchor(order.dest), 2.5 * s)
        end = mid(a, b)
        line(g, start, end, colour, 2.2 * s, "0.1 4.2", start=UNIT_R * s, outline=outline,
             cap="round")
        dot(g, end, colour, outline, 2.8 * s)
        mark = mid(start, end)
    elif isinstance(order, Hold):
        ring(g, start, 13 * s, colour, outline, s)
        mark = (start[0] + 11 * s, start[1] - 11 * s)
    elif isinstance(order, Build):
        unit = Unit(item.power, order.unit_type or UnitType.ARMY, order.loc)
        x, y = scene.anchor(order.loc)
        scene.unit(g, unit, x, y, f"build-{m.loc_name(order.loc)}", title=label, ghost=True,
                   cls="u build")
        plus(g, (x + 9 * s, y - 9 * s), s)
        mark = (x, y)
    elif isinstance(order, Disband):
        cross(g, start, 9 * s, pal["failed"], s, halo=True)
    if failed and mark is not None:
        cross(g, mark, 4.5 * s, pal["failed"], s * 0.8, halo=True)
