"""Pictures of positions and phases as SVG: pure functions, every option keyword-only.

:func:`render_svg` draws one position: provinces coloured by who owns them, supply centres,
labels, units, dislodged units with their retreat options and, when given, the orders of a
phase as arrows (failed ones faded and crossed in red), with a legend. Every province is one
element with ``id="prov-XXX"`` and a ``<title>`` for hover.

A *view* limits the picture to what one power may know (Kriegsplomacy). It is the same
function the reports use, so nothing hidden is ever written into the SVG text: not a unit, an
order, an owner's colour or a title.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TypeGuard
from xml.sax.saxutils import escape, quoteattr

from calhamer.errors import CalhamerError
from calhamer.map import Map, Terrain, UnitType
from calhamer.orders import AnyOrder, Build, Convoy, Disband, Hold, Move, Order, Retreat, Support
from calhamer.position import Position, Unit
from calhamer.render.geometry import Geometry, Point, geometry_for
from calhamer.results import FAILS, INVALID, PhaseOutcome
from calhamer.views import centre_totals, is_known_position

if TYPE_CHECKING:
    from calhamer.views import PowerView

__all__ = ["DEFAULT_COLORS", "View", "render_svg"]

DEFAULT_COLORS: dict[str, str] = {
    "sea": "#a9c9e6",
    "sea_border": "#7ea7cc",
    "land": "#ede3c8",
    "neutral": "#d8cdb0",  # land that is no province
    "impassable": "#d9d2c3",
    "fog": "#c9c9c9",
    "border": "#5e5546",
    "label": "#2a2722",
    "sea_label": "#35618c",
    "outline": "#1d1d1d",  # around units and arrows
    "failed": "#d0191b",
    "neutral_unit": "#dadada",
    "edge": "#9a8f7a",  # schematic links
    "legend": "#f7f3e8",
    "unowned_sc": "#ffffff",
}

Orders = Mapping[str, Iterable["str | AnyOrder"]]


class View:
    """What one power may see. Subclass or duck-type; every method defaults to "yes".

    ``render_svg(view=...)`` also takes a plain function ``province -> bool`` (province ids):
    then a unit or order is visible when its province is.
    """

    def sees_province(self, province: int) -> bool:
        return True

    def sees_unit(self, unit: Unit) -> bool:
        return True

    def sees_order(self, power: str, order: AnyOrder) -> bool:
        return True


# -- the picture ----------------------------------------------------------------------------


def render_svg(
    position: Position | None = None,
    *,
    outcome: PhaseOutcome | None = None,
    orders: Orders | None = None,
    view: object | None = None,
    size: float | None = None,
    colors: Mapping[str, str] | None = None,
    show_orders: bool = True,
    legend: bool = True,
    title: str | None = None,
    geometry: Geometry | None = None,
) -> str:
    """Draw ``position`` as an SVG document (a ``str``).

    :param position: the board to draw; defaults to ``outcome.before``.
    :param outcome: an adjudicated phase: its orders are drawn with their results (failed
        ones faded, with a red cross), and the units it dislodged are drawn aside with their
        retreat options.
    :param orders: orders to draw instead, by power (text or order values), not adjudicated.
    :param view: what may be shown. A power's view (:class:`calhamer.views.PowerView`, as the
        reports use) draws that view and nothing else: its positions, results and dislodged
        units, and the centre counts it is told. A :class:`View`, or a function
        ``province id -> bool``, hides provinces instead: they are drawn in grey, and no unit,
        order, owner or name of a unit in them is written at all.
    :param size: the width of the picture in pixels (the height follows); default the
        geometry's own width.
    :param colors: colours to use instead of the defaults, keyed by power code (``FRANCE``) or
        by a key of :data:`DEFAULT_COLORS` (``sea``, ``land``...).
    :param show_orders: draw the orders (default True).
    :param legend: add the legend strip under the map (default True).
    :param title: the heading in the legend; default the phase's name.
    :param geometry: the shapes to draw with; default the map's own (see
        :mod:`calhamer.render.geometry`).
    """
    counts: Mapping[str, int | None] | None = None
    power_view: PowerView | None = None
    if _is_power_view(view):
        # A PowerView (calhamer.views): everything drawn comes from it, nothing from the truth;
        # the centre totals too, as the variant's rules let that power know them.
        power_view, view = view, None
        outcome = _ViewOutcome(power_view)  # type: ignore[assignment]
        counts = power_view.centre_totals()
        if title is None and power_view.power:
            before = power_view.before
            who = _power_name(before.map, power_view.power)
            title = f"{before.phase.name} ({before.phase.code}), as {who} sees it"
    if position is None:
        if outcome is None:
            raise TypeError("render_svg needs a position, an outcome or a power's view")
        position = outcome.before
    if power_view is None and (view is None or is_known_position(position)):
        # A whole board's counts, or a power's known position's totals as its variant lets it
        # know them (never counted from the centres it holds, which are only the power's own).
        # A View hiding provinces of a whole board gets none: they would tell what it hides.
        counts = centre_totals(position)
    m = position.map
    geo = geometry or geometry_for(m)
    palette = _Palette(m, colors)
    seen = _Visibility(view)
    scene = _Scene(position, geo, palette, seen, outcome)
    body = scene.draw(orders=orders if show_orders else None, show_orders=show_orders)
    legend_h = 0.0
    extra: list[str] = []
    if legend:
        legend_svg, legend_h = _legend(scene, title, counts=counts)
        extra.append(legend_svg)
    width, height = geo.width, geo.height + legend_h
    px = size or width
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{_n(px)}" height="{_n(px * height / width)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
    )
    return "\n".join([head, _STYLE, *body, *extra, "</svg>"]) + "\n"


def _is_power_view(view: object) -> TypeGuard[PowerView]:
    return all(hasattr(view, a) for a in ("before", "next", "results", "dislodged", "power"))


class _ViewOutcome:
    """A power's view dressed as an outcome, so that the picture is drawn from it alone."""

    def __init__(self, view) -> None:
        self.before = view.before
        self.after = view.next
        self.next = view.next
        self.results = view.results
        self.dislodged = tuple(view.dislodged)
        self.complete = bool(getattr(view, "complete", True))


_STYLE = """<style>
.pv{stroke-width:.7;stroke-linejoin:round}
.sea{stroke-width:.6}
.lb{font-size:9.5px;text-anchor:middle;pointer-events:none}
.ls{font-size:8.5px;font-style:italic;text-anchor:middle;pointer-events:none}
.u,.o,.dl{pointer-events:none}
.lg{font-size:10px}
</style>"""


# -- colours --------------------------------------------------------------------------------


class _Palette:
    def __init__(self, m: Map, colors: Mapping[str, str] | None) -> None:
        self.base = dict(DEFAULT_COLORS)
        self.power: dict[str, str] = {p.code: p.color for p in m.powers}
        for key, value in (colors or {}).items():
            code = m.find_power(key) or key
            if code in self.power:
                self.power[code] = value
            else:
                self.base[key] = value
        self._cache: dict[tuple[str, float], str] = {}

    def __getitem__(self, key: str) -> str:
        return self.base[key]

    def unit(self, power: str) -> str:
        return self.power.get(power, self.base["neutral_unit"])

    def territory(self, power: str, strength: float = 0.78) -> str:
        """A power's colour mixed into the land colour (``strength`` 1: the colour itself)."""
        key = (power, strength)
        if key not in self._cache:
            colour = self.power.get(power)
            self._cache[key] = (
                _mix(colour, self.base["land"], strength) if colour else self.base["land"]
            )
        return self._cache[key]

    def ink(self, power: str) -> str:
        """The colour of a power's arrows: its own colour (drawn over a dark outline)."""
        return self.unit(power)


def _rgb(colour: str) -> tuple[int, int, int] | None:
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return None
    try:
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return None


def _mix(a: str, b: str, t: float) -> str:
    ra, rb = _rgb(a), _rgb(b)
    if ra is None or rb is None:
        return a
    return "#" + "".join(f"{round(x * t + y * (1 - t)):02x}" for x, y in zip(ra, rb, strict=True))


# -- what may be seen -----------------------------------------------------------------------


class _Visibility:
    def __init__(self, view: object) -> None:
        # A View, anything duck-typed like one, a function of a province id, or None.
        self.all = view is None
        self._province: Callable[[int], bool] = lambda p: True
        self._unit: Callable[[Unit, int], bool] | None = None
        self._order: Callable[[str, AnyOrder], bool] | None = None
        if view is None:
            return
        if hasattr(view, "sees_province"):
            self._province = view.sees_province  # type: ignore[union-attr]
            if hasattr(view, "sees_unit"):
                self._unit = lambda u, p: bool(view.sees_unit(u))  # type: ignore[union-attr]
            if hasattr(view, "sees_order"):
                self._order = view.sees_order  # type: ignore[union-attr]
        elif callable(view):
            self._province = view
        else:
            raise TypeError("view must be a View or a function of a province id")

    def province(self, p: int) -> bool:
        return self.all or bool(self._province(p))

    def unit(self, unit: Unit, province: int) -> bool:
        if self.all:
            return True
        if not self.province(province):
            return False
        return self._unit is None or self._unit(unit, province)

    def order(self, power: str, order: AnyOrder, province: int, unit: Unit | None) -> bool:
        if self.all:
            return True
        if not self.province(province):
            return False
        if unit is not None and not self.unit(unit, province):
            return False
        return self._order is None or bool(self._order(power, order))


# -- drawing --------------------------------------------------------------------------------

# Unit icons, drawn around (0, 0) at unit scale 1 (a board 1000 units wide).
ARMY_ICON = "M-8,8L-8,6Q-8,0-3.2,-1.2A4.8,4.8 0 1,1 3.2,-1.2Q8,0 8,6L8,8Z"
FLEET_ICON = "M-11,1.5H11L7,8H-7ZM-1,0V-11L7.5,0ZM-2.6,0V-8L-8.5,0Z"
UNIT_R = 9.5  # how far arrows stay from a unit's anchor
FADE = 0.5  # how much white a failed order's colours get


@dataclass(slots=True)
class _Drawn:
    power: str
    order: AnyOrder
    status: str | None  # SUCCEEDS, FAILS, INVALID, or None when not adjudicated
    text: str


class _Scene:
    """One picture being drawn: the position, its geometry, colours and visibility."""

    def __init__(self, position: Position, geo: Geometry, palette: _Palette,
                 seen: _Visibility, outcome: PhaseOutcome | None) -> None:
        self.position = position
        self.m = position.map
        self.geo = geo
        self.palette = palette
        self.seen = seen
        self.outcome = outcome
        self.s = geo.unit_scale
        self.variant = position.variant
        self.dislodged = self._dislodged()
        self.orders_drawn = 0
        self.powers_shown: set[str] = set()

    # -- anchors --

    def code(self, province: int) -> str:
        return self.m.provinces[province].code

    def anchor(self, loc: int) -> Point:
        province = self.m.province_of(loc)
        return self.geo.anchor(self.code(province), self.m.loc_coast[loc])

    def unit_anchor(self, loc: int) -> Point:
        """Where the unit that stood at ``loc`` is drawn (aside, if it was dislodged)."""
        province = self.m.province_of(loc)
        if province in self.dislodged:
            return self._aside(self.dislodged[province][0])
        return self.anchor(loc)

    def _aside(self, unit: Unit) -> Point:
        x, y = self.anchor(unit.loc)
        return x + 13 * self.s, y + 11 * self.s

    def _dislodged(self) -> dict[int, tuple[Unit, list[int] | None]]:
        """Dislodged units by province, with their retreat options when known."""
        from calhamer.phases import retreat_options

        found: dict[int, tuple[Unit, list[int] | None]] = {}
        position, outcome = self.position, self.outcome
        if position.dislodged:
            for d in position.dislodged:
                options = _safe(partial(retreat_options, position, d))
                found[self.m.province_of(d.unit.loc)] = (d.unit, options)
        elif outcome is not None and outcome.dislodged and position is outcome.before:
            after = outcome.after
            # Retreat options only from a complete picture: from a partial one they would be
            # guesses (and not every rule shows them).
            complete = getattr(outcome, "complete", True)
            for d in outcome.dislodged:
                options = (
                    _safe(partial(retreat_options, after, d))
                    if complete and after.phase.is_retreat else None
                )
                found[self.m.province_of(d.unit.loc)] = (d.unit, options)
        return found

    # -- layers --

    def draw(self, *, orders: Orders | None, show_orders: bool) -> list[str]:
        pal = self.palette
        out: list[str] = [
            '<defs><pattern id="impassable" patternUnits="userSpaceOnUse" width="6" height="6" '
            f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{pal["impassable"]}"/>'
            f'<rect width="2.2" height="6" fill="{_mix(pal["impassable"], "#000000", 0.75)}"/>'
            "</pattern></defs>",
            f'<rect width="100%" height="100%" '
            f'fill="{pal["legend"] if self.geo.schematic else pal["sea"]}"/>',
        ]
        out += self.board()
        out += self.markers()
        out += self.units()
        if show_orders:
            out += self.orders(orders)
        return out

    def board(self) -> list[str]:
        pal, geo, m = self.palette, self.geo, self.m
        out = ['<g id="board">']
        if geo.water:
            out.append(f'<path d="{geo.water}" fill="{pal["sea"]}"/>')
        for a, b, fleet_only in geo.edges:
            (x1, y1), (x2, y2) = geo.shapes[a].unit, geo.shapes[b].unit
            dash = ' stroke-dasharray="4 3"' if fleet_only else ""
            colour = pal["sea_border"] if fleet_only else pal["edge"]
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                       f'stroke="{colour}" stroke-width="1.6"{dash}/>')
        seas = [p for p in m.provinces if p.terrain is Terrain.SEA]
        lands = [p for p in m.provinces if p.terrain is not Terrain.SEA]
        for p in seas:
            out.append(self._province(p.id))
        for name, d in geo.neutral:
            out.append(f'<path class="pv" d="{d}" fill="{pal["neutral"]}" '
                       f'stroke="{pal["border"]}"><title>{escape(name)}</title></path>')
        for shape in geo.extras.values():
            out.append(f'<path class="pv" d="{shape.d}" fill="{pal["neutral"]}" '
                       f'stroke="{pal["border"]}"><title>{escape(shape.name)}</title></path>')
        for p in lands:
            out.append(self._province(p.id))
        out.append("</g>")
        return out

    def _province(self, pid: int) -> str:
        p = self.m.provinces[pid]
        pal = self.palette
        visible = self.seen.province(pid)
        words = [f"{p.name} ({p.code})"]
        if p.terrain is Terrain.SEA:
            fill, stroke, cls = pal["sea"], pal["sea_border"], "pv sea"
        elif p.terrain is Terrain.IMPASSABLE:
            fill, stroke, cls = "url(#impassable)", pal["border"], "pv"
            words.append("impassable")
        else:
            fill, stroke, cls = pal["land"], pal["border"], "pv"
            if not visible:
                fill = pal["fog"]
            else:
                owner = self.position.centers.get(pid)
                unit = self.position.units.get(pid)
                if owner is not None:
                    fill = pal.territory(owner)
                elif unit is not None and not p.is_supply_center:
                    fill = pal.territory(unit.power, 0.32)
        if p.is_supply_center:
            owner = self.position.centers.get(pid) if visible else None
            if owner:
                words.append(f"supply centre of {_power_name(self.m, owner)}")
            else:
                words.append("supply centre" + ("" if visible else " (not seen)"))
        if self.geo.shapes[p.code].node and p.terrain is Terrain.SEA:
            fill = _mix(pal["sea"], "#ffffff", 0.8)
        return (f'<path id="prov-{p.code}" class="{cls}" d="{self.geo.shapes[p.code].d}" '
                f'fill="{fill}" stroke="{stroke}"><title>{escape(", ".join(words))}</title>'
                "</path>")

    def markers(self) -> list[str]:
        """Supply centres and labels."""
        pal = self.palette
        out = ['<g id="labels">']
        for p in self.m.provinces:
            shape = self.geo.shapes[p.code]
            if p.is_supply_center and shape.sc is not None:
                owner = self.position.centers.get(p.id) if self.seen.province(p.id) else None
                fill = pal.unit(owner) if owner else pal["unowned_sc"]
                x, y = shape.sc
                r = 4.3 * self.s
                out.append(
                    f'<g id="sc-{p.code}"><circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" '
                    f'fill="{fill}" stroke="{pal["outline"]}" stroke-width="1.1"/>'
                    f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r * 0.35)}" '
                    f'fill="{pal["outline"]}"/></g>'
                )
            x, y = shape.label
            sea = p.terrain is Terrain.SEA
            cls, colour = ("ls", pal["sea_label"]) if sea else ("lb", pal["label"])
            text = p.code.title() if len(p.code) == 3 else p.code
            out.append(f'<text class="{cls}" x="{_n(x)}" y="{_n(y + 3.4)}" fill="{colour}">'
                       f"{escape(text)}</text>")
        out.append("</g>")
        return out

    # -- units --

    def units(self) -> list[str]:
        out = ['<g id="units">']
        for province in sorted(self.position.units, key=self.code):
            unit = self.position.units[province]
            if province in self.dislodged and self.dislodged[province][0] == unit:
                continue  # drawn aside below
            if not self.seen.unit(unit, province):
                continue
            x, y = self.anchor(unit.loc)
            out.append(self._unit(unit, x, y, f"unit-{self.code(province)}", self._title(unit)))
        for province in sorted(self.dislodged, key=self.code):
            unit, options = self.dislodged[province]
            if not self.seen.unit(unit, province):
                continue
            out += self._dislodged_unit(unit, options)
        out.append("</g>")
        return out

    def _title(self, unit: Unit, *extra: str) -> str:
        kind = "army" if unit.type is UnitType.ARMY else "fleet"
        adjective = _power_adjective(self.m, unit.power)
        where = self.m.describe(unit.loc)
        words = [f"{adjective} {kind} in {where}"]
        badge = unit_badge(self.variant, unit)
        if badge:
            words.append(f"colour {badge}")
        count = _count(unit)
        if count > 1:
            words.append(f"{count} units")
        return "; ".join([*words, *extra])

    def _unit(self, unit: Unit, x: float, y: float, ident: str, title: str,
              scale: float = 1.0, ring: str | None = None, ghost: bool = False) -> str:
        pal = self.palette
        s = self.s * scale
        self.powers_shown.add(unit.power)
        icon = ARMY_ICON if unit.type is UnitType.ARMY else FLEET_ICON
        known = unit.power in self.palette.power
        dash = "" if known else ' stroke-dasharray="2 1.2"'
        parts = [f'<g id="{ident}" class="u" transform="translate({_n(x)} {_n(y)}) '
                 f'scale({_n(s, 3)})"><title>{escape(title)}</title>']
        if ring:
            parts.append(f'<circle r="12.5" fill="none" stroke="{ring}" stroke-width="2.2"/>')
        fill = pal.unit(unit.power)
        if ghost:  # a unit still to be built: paler, outlined in dashes
            fill, dash = _mix(fill, "#ffffff", 0.55), ' stroke-dasharray="2.4 1.4"'
        parts.append(f'<path d="{icon}" fill="{fill}" '
                     f'stroke="{pal["outline"]}" stroke-width="1.2"{dash}/>')
        badge = unit_badge(self.variant, unit)
        if badge:
            parts.append(f'<circle cx="8.5" cy="-8" r="5" fill={quoteattr(badge)} '
                         f'stroke="{pal["outline"]}" stroke-width="1.2"/>')
            if not badge.startswith("#"):  # a named colour: its initial too, for every eye
                ink = "#1d1d1d" if _light(badge) else "#ffffff"
                parts.append(f'<text x="8.5" y="-5.6" font-size="6.8" font-weight="bold" '
                             f'text-anchor="middle" fill="{ink}">{escape(badge[:1].upper())}'
                             "</text>")
        count = _count(unit)
        if count > 1:
            parts.append(f'<rect x="5" y="2" width="11" height="10" rx="2.5" fill="#ffffff" '
                         f'stroke="{pal["outline"]}" stroke-width=".9"/>'
                         f'<text x="10.5" y="10.2" font-size="8.5" font-weight="bold" '
                         f'text-anchor="middle" fill="{pal["outline"]}">{count}</text>')
        parts.append("</g>")
        return "".join(parts)

    def _dislodged_unit(self, unit: Unit, options: list[int] | None) -> list[str]:
        pal = self.palette
        code = self.code(self.m.province_of(unit.loc))
        x, y = self._aside(unit)
        out = []
        if options is not None:
            names = ", ".join(self.m.loc_name(o) for o in options) or "none: it will be disbanded"
            extra = [f"dislodged; may retreat to {names}"]
            for loc in options:
                ox, oy = self.anchor(loc)
                out.append(_line((x, y), (ox, oy), pal["failed"], 1.1, "1.5 2.5",
                                 start=UNIT_R * self.s, end=5 * self.s, cls="dl"))
                out.append(f'<circle class="dl" cx="{_n(ox)}" cy="{_n(oy)}" r="{_n(2.6 * self.s)}" '
                           f'fill="none" stroke="{pal["failed"]}" stroke-width="1.1"/>')
        else:
            extra = ["dislodged"]
        out.append(self._unit(unit, x, y, f"dislodged-{code}", self._title(unit, *extra),
                              scale=0.85, ring=pal["failed"]))
        return out

    # -- orders --

    def orders(self, orders: Orders | None) -> list[str]:
        drawn = self._collect(orders)
        if not drawn:
            return []
        moves: dict[int, tuple[Point, Point]] = {}
        for item in drawn:
            if isinstance(item.order, Move | Retreat):
                start = self.unit_anchor(item.order.loc)
                end = self.anchor(item.order.dest)
                moves[self.m.province_of(item.order.loc)] = _offset(start, end, 2.5 * self.s)
        out = ['<g id="orders">']
        for item in drawn:
            svg = self._order(item, moves)
            if svg:
                self.orders_drawn += 1
                out.append(svg)
        out.append("</g>")
        return out

    def _collect(self, orders: Orders | None) -> list[_Drawn]:
        base = self.outcome.before if self.outcome is not None else self.position
        kind = base.phase.kind
        items: list[_Drawn] = []
        if orders is not None:
            for power_text, lines in orders.items():
                power = self.m.find_power(power_text) or power_text
                for line in lines:
                    parsed = self._read(line, base, kind, power)
                    if parsed is not None:
                        items.append(_Drawn(parsed[0], parsed[1], None, parsed[2]))
        elif self.outcome is not None:
            for power, results in self.outcome.results.items():
                for r in results:
                    order = r.order
                    text = r.canonical or r.text
                    if order is None:
                        parsed = self._read(text, base, kind, power)
                        if parsed is None:
                            continue
                        order = parsed[1]
                    if isinstance(order, Hold) and not r.text.strip():
                        continue  # the judge's own hold for a unit given no order
                    items.append(_Drawn(power, order, r.result, text))
        visible = []
        for item in items:
            if not isinstance(item.order, Order):
                continue  # a waived build
            province = self.m.province_of(item.order.loc)
            unit = self._ordered_unit(base, province, item.order)
            if unit is None and not isinstance(item.order, Build):
                continue  # an order for a unit that is not there: nothing to draw
            if self.seen.order(item.power, item.order, province, unit):
                visible.append(item)
        return visible

    def _ordered_unit(self, base: Position, province: int, order: AnyOrder) -> Unit | None:
        """The unit an order is for: a dislodged one for retreats, else the one standing."""
        entry = self.dislodged.get(province)
        if isinstance(order, Retreat) or (isinstance(order, Disband) and base.phase.is_retreat):
            return entry[0] if entry else None
        return base.units.get(province)

    def _read(self, line: str | AnyOrder, base: Position, kind: str,
              power: str) -> tuple[str, AnyOrder, str] | None:
        if not isinstance(line, str):
            return power, line, ""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        try:
            parsed = self.variant.parse_order(self.m, text, phase_kind=kind, position=base,
                                              power=power)
        except (CalhamerError, ValueError, KeyError):
            return None
        return parsed.power or power, parsed.order, text

    def _order(self, item: _Drawn, moves: dict[int, tuple[Point, Point]]) -> str:
        order, pal, s = item.order, self.palette, self.s
        if not isinstance(order, Order):
            return ""  # a waived build: _collect leaves these out
        colour, outline = pal.ink(item.power), pal["outline"]
        failed = item.status in (FAILS, INVALID)
        if failed:  # faded: mixed with white (cheaper to rasterise than transparency)
            colour, outline = _mix(colour, "#ffffff", FADE), _mix(outline, "#ffffff", FADE)
        label = item.text or type(order).__name__
        result = f": {item.status}" if item.status else ""
        head = (f'<g class="o {type(order).__name__.lower()}'
                f'{" failed" if failed else ""}" data-unit="{self.m.loc_name(order.loc)}"'
                + (f' data-result="{item.status}"' if item.status else "")
                + f"><title>{escape(label + result)}</title>")
        body: list[str] = []
        mark: Point | None = None
        start = self.unit_anchor(order.loc)
        if isinstance(order, Move | Retreat):
            a, b = moves[self.m.province_of(order.loc)]
            occupied = self.m.province_of(order.dest) in self.position.units
            body.append(_arrow(a, b, colour, outline, s,
                               start=UNIT_R * s, end=(UNIT_R if occupied else 3) * s))
            mark = _along(a, b, -14 * s)
        elif isinstance(order, Support):
            target = self.m.province_of(order.target)
            if order.dest is None:
                end = self.unit_anchor(order.target)
                gap = (UNIT_R + 2) * s
            else:
                a, b = moves.get(target) or _offset(
                    self.unit_anchor(order.target), self.anchor(order.dest), 2.5 * s)
                end = _mid(a, b)
                gap = 0.0
            body.append(_line(start, end, colour, 2.2 * s, "5 3", start=UNIT_R * s, end=gap,
                              outline=outline))
            body.append(_dot(_along(start, end, -gap) if gap else end, colour,
                             outline, 2.8 * s))
            mark = _mid(start, end)
        elif isinstance(order, Convoy):
            a, b = moves.get(self.m.province_of(order.army)) or _offset(
                self.unit_anchor(order.army), self.anchor(order.dest), 2.5 * s)
            end = _mid(a, b)
            body.append(_line(start, end, colour, 2.2 * s, "0.1 4.2", start=UNIT_R * s,
                              outline=outline, cap="round"))
            body.append(_dot(end, colour, outline, 2.8 * s))
            mark = _mid(start, end)
        elif isinstance(order, Hold):
            body.append(_ring(start, 13 * s, colour, outline, s))
            mark = (start[0] + 11 * s, start[1] - 11 * s)
        elif isinstance(order, Build):
            unit = self._built_unit(item.power, order)
            x, y = self.anchor(order.loc)
            body.append(self._unit(unit, x, y, f"build-{self.m.loc_name(order.loc)}",
                                   label, ghost=True).replace('class="u"', 'class="u build"', 1))
            body.append(_plus((x + 9 * s, y - 9 * s), s))
            mark = (x, y)
        elif isinstance(order, Disband):
            body.append(_cross(start, 9 * s, pal["failed"], s, halo=True))
        else:
            return ""
        if failed and mark is not None and not isinstance(order, Disband):
            body.append(_cross(mark, 4.5 * s, pal["failed"], s * 0.8, halo=True))
        return head + "".join(body) + "</g>"

    def _built_unit(self, power: str, order: Build) -> Unit:
        unit_type = order.unit_type or UnitType.ARMY
        return Unit(power, unit_type, order.loc)


# -- shapes ---------------------------------------------------------------------------------


def _n(v: float, digits: int = 1) -> str:
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _offset(a: Point, b: Point, d: float) -> tuple[Point, Point]:
    """The segment ``a``-``b`` moved ``d`` to its right (so that two opposite moves part)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / length * d, dx / length * d
    return (a[0] + ox, a[1] + oy), (b[0] + ox, b[1] + oy)


def _along(a: Point, b: Point, d: float) -> Point:
    """The point ``d`` from ``a`` towards ``b`` (negative: back from ``b``)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    if d < 0:
        return b[0] + dx / length * d, b[1] + dy / length * d
    return a[0] + dx / length * d, a[1] + dy / length * d


def _mid(a: Point, b: Point) -> Point:
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _line(a: Point, b: Point, colour: str, width: float, dash: str | None, *,
          start: float = 0.0, end: float = 0.0, outline: str | None = None,
          cap: str = "butt", cls: str | None = None) -> str:
    length = math.dist(a, b)
    if length <= start + end + 1:
        return ""
    p, q = _along(a, b, start), _along(a, b, -end) if end else b
    coords = f'x1="{_n(p[0])}" y1="{_n(p[1])}" x2="{_n(q[0])}" y2="{_n(q[1])}"'
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    klass = f' class="{cls}"' if cls else ""
    out = ""
    if outline:
        out += (f'<line {coords} stroke="{outline}" stroke-width="{_n(width + 1.8)}" '
                f'stroke-linecap="{cap}"{dash_attr}/>')
    out += (f'<line{klass} {coords} stroke="{colour}" stroke-width="{_n(width)}" '
            f'stroke-linecap="{cap}"{dash_attr}/>')
    return out


def _arrow(a: Point, b: Point, colour: str, outline: str, s: float, *,
           start: float, end: float) -> str:
    length = math.dist(a, b)
    head, half = 9.0 * s, 4.8 * s
    if length < start + end + head:
        start = end = 0.0
    tip = _along(a, b, -end) if end else b
    base = _along(a, tip, -head)
    dx, dy = tip[0] - a[0], tip[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * half, dx / d * half
    body = _line(a, base, colour, 2.4 * s, None, start=start, outline=outline)
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in (
        tip, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)))
    return (body + f'<polygon points="{points}" fill="{colour}" stroke="{outline}" '
            f'stroke-width="{_n(1.0 * s)}" stroke-linejoin="round"/>')


def _dot(p: Point, colour: str, outline: str, r: float) -> str:
    return (f'<circle cx="{_n(p[0])}" cy="{_n(p[1])}" r="{_n(r)}" fill="{colour}" '
            f'stroke="{outline}" stroke-width="1"/>')


def _ring(p: Point, r: float, colour: str, outline: str, s: float) -> str:
    c = f'cx="{_n(p[0])}" cy="{_n(p[1])}" r="{_n(r)}" fill="none"'
    return (f'<circle {c} stroke="{outline}" stroke-width="{_n(4.2 * s)}"/>'
            f'<circle {c} stroke="{colour}" stroke-width="{_n(2.4 * s)}"/>')


def _cross(p: Point, r: float, colour: str, s: float, *, halo: bool = False) -> str:
    x, y = p
    d = (f"M{_n(x - r)},{_n(y - r)}L{_n(x + r)},{_n(y + r)}"
         f"M{_n(x - r)},{_n(y + r)}L{_n(x + r)},{_n(y - r)}")
    out = ""
    if halo:
        out += (f'<path class="x" d="{d}" stroke="#ffffff" stroke-width="{_n(4.4 * s)}" '
                'stroke-linecap="round"/>')
    return out + (f'<path class="x" d="{d}" stroke="{colour}" stroke-width="{_n(2.4 * s)}" '
                  'stroke-linecap="round"/>')


def _plus(p: Point, s: float) -> str:
    x, y = p
    r = 3.4 * s
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(5.2 * s)}" fill="#1f8a3b" '
            f'stroke="#ffffff" stroke-width="{_n(1.1 * s)}"/>'
            f'<path d="M{_n(x - r)},{_n(y)}H{_n(x + r)}M{_n(x)},{_n(y - r)}V{_n(y + r)}" '
            f'stroke="#ffffff" stroke-width="{_n(1.8 * s)}"/>')


# -- legend ---------------------------------------------------------------------------------


def _legend(scene: _Scene, title: str | None, *,
            counts: Mapping[str, int | None] | None) -> tuple[str, float]:
    m, pal, geo = scene.m, scene.palette, scene.geo
    width = geo.width
    position = scene.position
    heading = title if title is not None else f"{position.phase.name} ({position.phase.code})"
    items: list[tuple[int, float, Callable[[float, float], str]]] = []
    row, x, row_h, pad = 0, 10.0, 22.0, 10.0

    def place(item_width: float, svg_at: Callable[[float, float], str]) -> None:
        nonlocal x, row
        if x + item_width > width - pad and x > 10.0:
            row, x = row + 1, 10.0
        items.append((row, x, svg_at))
        x += item_width

    heading_w = 7.6 * len(heading) + 18

    def h(x0: float, y0: float) -> str:
        return (f'<text x="{_n(x0)}" y="{_n(y0 + 4)}" font-size="12" font-weight="bold" '
                f'fill="{pal["label"]}">{escape(heading)}</text>')

    place(heading_w, h)
    for power in m.powers:
        text, hover = power.name, ""
        if counts is not None:
            total = counts.get(power.code)
            # A total the viewer is not told is "?", never a number (0 would be a falsehood).
            text += " ?" if total is None else f" {total}"
            if total is None:
                hover = f"<title>{escape(power.name)}: centre total unknown</title>"
        w = 6.2 * len(text) + 24

        def sw(x0: float, y0: float, power=power, text=text, hover=hover) -> str:
            item = (f'<rect x="{_n(x0)}" y="{_n(y0 - 6)}" width="12" height="12" rx="2" '
                    f'fill="{pal.unit(power.code)}" stroke="{pal["outline"]}" stroke-width="1"/>'
                    f'<text class="lg" x="{_n(x0 + 16)}" y="{_n(y0 + 3.6)}" '
                    f'fill="{pal["label"]}">{escape(text)}</text>')
            return f"<g>{hover}{item}</g>" if hover else item

        place(w, sw)
    row, x = row + 1, 10.0
    s = 0.8
    grey = "#8a8a8a"

    def sym(label: str, draw: Callable[[float, float], str], w: float = 0.0) -> None:
        width_needed = (w or 26.0) + 6.0 * len(label) + 14

        def at(x0: float, y0: float) -> str:
            return draw(x0, y0) + (f'<text class="lg" x="{_n(x0 + (w or 26.0))}" '
                                   f'y="{_n(y0 + 3.6)}" fill="{pal["label"]}">'
                                   f"{escape(label)}</text>")

        place(width_needed, at)

    sym("Army", lambda x0, y0: f'<path d="{ARMY_ICON}" transform="translate({_n(x0 + 9)} '
        f'{_n(y0)}) scale({s})" fill="{grey}" stroke="{pal["outline"]}" stroke-width="1.2"/>')
    sym("Fleet", lambda x0, y0: f'<path d="{FLEET_ICON}" transform="translate({_n(x0 + 10)} '
        f'{_n(y0)}) scale({s})" fill="{grey}" stroke="{pal["outline"]}" stroke-width="1.2"/>')
    sym("Supply centre", lambda x0, y0: (
        f'<circle cx="{_n(x0 + 8)}" cy="{_n(y0)}" r="4.3" fill="#ffffff" '
        f'stroke="{pal["outline"]}" stroke-width="1.1"/><circle cx="{_n(x0 + 8)}" '
        f'cy="{_n(y0)}" r="1.5" fill="{pal["outline"]}"/>'), 18.0)
    sym("Move", lambda x0, y0: _arrow((x0, y0), (x0 + 28, y0), grey, pal["outline"], 1.0,
                                      start=0, end=0), 34.0)
    sym("Support", lambda x0, y0: _line((x0, y0), (x0 + 24, y0), grey, 2.2, "5 3",
                                        outline=pal["outline"])
        + _dot((x0 + 26, y0), grey, pal["outline"], 2.8), 34.0)
    sym("Convoy", lambda x0, y0: _line((x0, y0), (x0 + 24, y0), grey, 2.2, "0.1 4.2",
                                       outline=pal["outline"], cap="round")
        + _dot((x0 + 26, y0), grey, pal["outline"], 2.8), 34.0)
    sym("Hold", lambda x0, y0: _ring((x0 + 9, y0), 7, grey, pal["outline"], 0.8), 22.0)
    sym("Failed", lambda x0, y0: _arrow((x0, y0), (x0 + 28, y0), _mix(grey, "#ffffff", FADE),
                                        _mix(pal["outline"], "#ffffff", FADE), 1.0, start=0,
                                        end=0)
        + _cross((x0 + 14, y0), 4, pal["failed"], 0.8, halo=True), 34.0)
    sym("Build", lambda x0, y0: _plus((x0 + 8, y0), 1.0), 18.0)
    sym("Disband", lambda x0, y0: _cross((x0 + 8, y0), 6, pal["failed"], 1.0, halo=True), 20.0)
    sym("Dislodged", lambda x0, y0: f'<circle cx="{_n(x0 + 9)}" cy="{_n(y0)}" r="7" '
        f'fill="none" stroke="{pal["failed"]}" stroke-width="1.8"/>', 22.0)

    rows_used = row + 1
    height = pad + rows_used * row_h + pad / 2
    top = geo.height
    out = [f'<g id="legend"><rect x="0" y="{_n(top)}" width="{_n(width)}" '
           f'height="{_n(height)}" fill="{pal["legend"]}" stroke="{pal["border"]}" '
           'stroke-width=".8"/>']
    for row, x0, draw in items:
        out.append(draw(x0, top + pad + row_h * row + row_h / 2 - 2))
    out.append("</g>")
    return "".join(out), height


# -- helpers --------------------------------------------------------------------------------


def _safe(fn: Callable[[], list[int]]) -> list[int] | None:
    try:
        return fn()
    except (CalhamerError, KeyError, ValueError, IndexError):
        return None


def unit_badge(variant: object, unit: Unit) -> str | None:
    """The colour of a unit's badge, if its variant gives units a colour of their own
    (``Variant.unit_badge``)."""
    hook = getattr(variant, "unit_badge", None)
    if not callable(hook):
        return None
    value = hook(unit)
    return str(value) if value else None


_LIGHT_NAMES = {"silver", "white", "yellow", "gold", "orange", "pink", "lightgrey",
                "lightgray", "cyan", "lime", "khaki", "beige", "ivory"}


def _light(colour: str) -> bool:
    """Whether dark ink reads better than white on ``colour``."""
    rgb = _rgb(colour)
    if rgb is None:
        return colour.strip().lower() in _LIGHT_NAMES
    r, g, b = rgb
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def _count(unit: Unit) -> int:
    count = getattr(unit, "count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


def _power_name(m: Map, code: str) -> str:
    try:
        return m.power(code).name
    except KeyError:
        return code.title()


def _power_adjective(m: Map, code: str) -> str:
    try:
        power = m.power(code)
    except KeyError:
        return f"{code.title()} (neutral)"
    if m.is_minor(code):
        return f"{power.adjective or power.name} (neutral)"
    return power.adjective or power.name
