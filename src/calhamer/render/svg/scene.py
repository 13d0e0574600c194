"""The board of a picture: provinces, supply centres, labels, units and dislodged units.

A :class:`Scene` holds what one picture is drawn from (the position, its geometry, the
palette, what may be seen, the outcome if any) and where things stand (:meth:`Scene.anchor`,
:meth:`Scene.unit_anchor`); the orders and the legend layers draw with it. Every province is
one element with ``id="prov-XXX"`` and a ``<title>``; units are ``unit-XXX``, dislodged units
``dislodged-XXX`` and supply centres ``sc-XXX``. Nothing the :class:`~.visibility.Shown` hides (a
unit, an owner, a unit's title) is added to the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from xml.etree.ElementTree import Element, SubElement

from calhamer.errors import CalhamerError
from calhamer.map import Map, Province, Terrain, UnitType
from calhamer.position import Position, Unit
from calhamer.render.geometry import Geometry, Point
from calhamer.render.svg.palette import Palette, is_light, mix
from calhamer.render.svg.primitives import (
    ARMY_ICON,
    FLEET_ICON,
    HOLE,
    Template,
    add,
    line,
    num,
    raw,
)
from calhamer.render.svg.visibility import Shown
from calhamer.results import PhaseOutcome

__all__ = ["UNIT_R", "Scene", "power_adjective", "power_name", "unit_badge", "unit_count"]

UNIT_R = 9.5  # how far arrows stay from a unit's anchor


class Scene:
    """One picture being drawn: the position, its geometry, colours and what it shows."""

    def __init__(self, position: Position, geo: Geometry, palette: Palette,
                 seen: Shown, outcome: PhaseOutcome | None) -> None:
        self.position = position
        self.m = position.map
        self.geo = geo
        self.palette = palette
        self.seen = seen
        self.outcome = outcome
        self.s = geo.unit_scale
        self.variant = position.variant
        self.dislodged = self._dislodged()
        self._scale = num(self.s, 3)  # a unit's scale, as written
        self._adjectives: dict[str, str] = {}
        self._dark: set[int] = set()  # provinces filled so dark that their label is light

    # -- anchors --

    def code(self, province: int) -> str:
        """A province's code (``PAR``)."""
        return self.m.provinces[province].code

    def anchor(self, loc: int) -> Point:
        """Where a unit at location ``loc`` stands (a fleet on a split coast: on that coast)."""
        province = self.m.province_of(loc)
        return self.geo.anchor(self.code(province), self.m.loc_coast[loc])

    def unit_anchor(self, loc: int) -> Point:
        """Where the unit that stood at ``loc`` is drawn (aside, if it was dislodged)."""
        province = self.m.province_of(loc)
        if province in self.dislodged:
            return self.aside(self.dislodged[province][0])
        return self.anchor(loc)

    def aside(self, unit: Unit) -> Point:
        """Where a dislodged unit is drawn: below and right of its province's anchor."""
        x, y = self.anchor(unit.loc)
        return x + 13 * self.s, y + 11 * self.s

    def _dislodged(self) -> dict[int, tuple[Unit, list[int] | None]]:
        """Dislodged units by province, with their retreat options when known."""
        found: dict[int, tuple[Unit, list[int] | None]] = {}
        position, outcome = self.position, self.outcome
        if position.dislodged:
            for d in position.dislodged:
                options = _safe(partial(position.variant.retreat_choices, position, d))
                found[self.m.province_of(d.unit.loc)] = (d.unit, options)
        elif outcome is not None and outcome.dislodged and position is outcome.before:
            after = outcome.after
            # Retreat options only from a complete picture: from a partial one they would be
            # guesses (and not every rule shows them).
            complete = getattr(outcome, "complete", True)
            for d in outcome.dislodged:
                options = (
                    _safe(partial(after.variant.retreat_choices, after, d))
                    if complete and after.phase.is_retreat else None
                )
                found[self.m.province_of(d.unit.loc)] = (d.unit, options)
        return found

    # -- layers --

    def background(self, root: Element) -> None:
        """The hatching pattern of impassable land, and the sea (a schematic's paper)."""
        pal = self.palette
        pattern = add(add(root, "defs"), "pattern", {
            "id": "impassable", "patternUnits": "userSpaceOnUse", "width": "6", "height": "6",
            "patternTransform": "rotate(45)"})
        add(pattern, "rect", {"width": "6", "height": "6", "fill": pal["impassable"]})
        add(pattern, "rect", {"width": "2.2", "height": "6",
                              "fill": mix(pal["impassable"], "#000000", 0.75)})
        add(root, "rect", {"width": "100%", "height": "100%",
                           "fill": pal["legend"] if self.geo.schematic else pal["sea"]})

    def board(self, root: Element) -> None:
        """The provinces (seas first), land that is no province, and a schematic's links."""
        pal, geo, m = self.palette, self.geo, self.m
        group = add(root, "g", {"id": "board"})
        if geo.water:
            add(group, "path", {"d": geo.water, "fill": pal["sea"]})
        for a, b, fleet_only in geo.edges:
            (x1, y1), (x2, y2) = geo.shapes[a].unit, geo.shapes[b].unit
            attrib = {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2),
                      "stroke": pal["sea_border"] if fleet_only else pal["edge"],
                      "stroke-width": "1.6"}
            if fleet_only:
                attrib["stroke-dasharray"] = "4 3"
            add(group, "line", attrib)
        seas = [p for p in m.provinces if p.terrain is Terrain.SEA]
        self._provinces(group, seas)
        shapes = [*geo.neutral, *((shape.name, shape.d) for shape in geo.extras.values())]
        for name, d in shapes:
            path = SubElement(group, "path", {"class": "pv", "d": d, "fill": pal["neutral"],
                                              "stroke": pal["border"]})
            SubElement(path, "title").text = name
        self._provinces(group, [p for p in m.provinces if p.terrain is not Terrain.SEA])
        if geo.coast:
            add(group, "path", {"class": "coast", "d": geo.coast, "fill": "none",
                                "stroke": pal["coast"], "stroke-width": "1.3",
                                "stroke-linejoin": "round", "stroke-linecap": "round"})
        for link in geo.connectors:
            self._connector(group, link.a, link.b, link.kind, link.d)

    def _connector(self, parent: Element, a: str, b: str, kind: str, d: str) -> None:
        """A bridge (a plank with dark rails: armies cross) or a canal (a dashed blue channel:
        fleets only) between two adjacent provinces whose shapes do not meet."""
        pal = self.palette
        g = add(parent, "g", {"class": f"link {kind}"})
        names = f"{self.m.provinces[self.m.loc(a)].name} and {self.m.provinces[self.m.loc(b)].name}"
        add(g, "title", text=f"{'bridge' if kind == 'bridge' else 'canal'} between {names}")
        if kind == "bridge":
            add(g, "path", {"d": d, "stroke": pal["border"], "stroke-width": "5",
                            "stroke-linecap": "butt", "fill": "none"})
            add(g, "path", {"d": d, "stroke": pal["land"], "stroke-width": "2.6",
                            "stroke-linecap": "butt", "fill": "none"})
        else:
            add(g, "path", {"d": d, "stroke": pal["sea"], "stroke-width": "4.5",
                            "stroke-linecap": "round", "fill": "none"})
            add(g, "path", {"d": d, "stroke": pal["sea_border"], "stroke-width": "1.4",
                            "stroke-dasharray": "3 2", "fill": "none"})

    def _provinces(self, parent: Element, provinces: list[Province]) -> None:
        """Each province as one path with its title: coloured by its owner (a centre), else
        faintly by the unit in it, grey when hidden."""
        pal, colours = self.palette, self.palette.base
        centers, units, shapes = self.position.centers, self.position.units, self.geo.shapes
        sees = self.seen.province
        for p in provinces:
            pid = p.id
            visible = sees(pid)
            words = [f"{p.name} ({p.code})"]
            if p.terrain is Terrain.SEA:
                fill, stroke, cls = colours["sea"], colours["sea_border"], "pv sea"
            elif p.terrain is Terrain.IMPASSABLE:
                fill, stroke, cls = "url(#impassable)", colours["border"], "pv"
                words.append("impassable")
            else:
                fill, stroke, cls = colours["land"], colours["border"], "pv"
                if not visible:
                    fill = colours["fog"]
                else:
                    owner = centers.get(pid)
                    unit = units.get(pid)
                    if owner is not None:
                        fill = pal.territory(owner)
                    elif unit is not None and not p.is_supply_center:
                        fill = pal.territory(unit.power, 0.32)
            if p.is_supply_center:
                owner = centers.get(pid) if visible else None
                if owner:
                    words.append(f"supply centre of {power_name(self.m, owner)}")
                else:
                    words.append("supply centre" + ("" if visible else " (not seen)"))
            shape = shapes[p.code]
            if shape.node and p.terrain is Terrain.SEA:
                fill = mix(colours["sea"], "#ffffff", 0.8)
            if fill.startswith("#") and not is_light(fill):
                self._dark.add(pid)  # a dark power's territory: its label is written light
            # <path id="prov-XXX" class=... d=... fill=... stroke=...><title>...</title></path>
            raw(parent, _province_template(p.code, cls, shape.d).fill(fill, stroke,
                                                                     ", ".join(words)))

    def markers(self, root: Element) -> None:
        """Supply centres (in their owner's colour when seen) and labels."""
        pal, colours = self.palette, self.palette.base
        centers, shapes, sees = self.position.centers, self.geo.shapes, self.seen.province
        outline, unowned = colours["outline"], colours["unowned_sc"]
        labels = {False: ("lb", colours["label"]), True: ("ls", colours["sea_label"])}
        r = 4.3 * self.s
        ring, dot = num(r), num(r * 0.35)
        group = SubElement(root, "g", {"id": "labels"})
        for p in self.m.provinces:
            shape = shapes[p.code]
            cls, colour = labels[p.terrain is Terrain.SEA]
            if p.id in self._dark:
                colour = colours["legend"]
            # the centre's <g id="sc-XXX"> of two circles (when it is one), then the label
            if p.is_supply_center and shape.sc is not None:
                owner = centers.get(p.id) if sees(p.id) else None
                template = _marker_template(p.code, shape.sc, ring, dot, cls, shape.label)
                raw(group, template.fill(pal.unit(owner) if owner else unowned, outline,
                                         outline, colour))
            else:
                raw(group, _marker_template(p.code, None, ring, dot, cls, shape.label)
                    .fill(colour))

    # -- units --

    def units(self, root: Element) -> None:
        """Every unit seen, and the dislodged ones aside with their retreat options."""
        group = add(root, "g", {"id": "units"})
        for province in sorted(self.position.units, key=self.code):
            unit = self.position.units[province]
            if province in self.dislodged and self.dislodged[province][0] == unit:
                continue  # drawn aside below
            if not self.seen.unit(unit, province):
                continue
            x, y = self.anchor(unit.loc)
            self.unit(group, unit, x, y, f"unit-{self.code(province)}")
        for province in sorted(self.dislodged, key=self.code):
            unit, options = self.dislodged[province]
            if not self.seen.unit(unit, province):
                continue
            self._dislodged_unit(group, unit, options)

    def unit(self, parent: Element, unit: Unit, x: float, y: float, ident: str, *extra: str,
             title: str | None = None, scale: float = 1.0, ring: str | None = None,
             ghost: bool = False, cls: str = "u") -> None:
        """A unit's icon at (``x``, ``y``) in its power's colour, with its badge and count;
        ``ring`` circles it (a dislodged unit), ``ghost`` pales it (a unit still to be built).
        Its title is ``title``, else the unit described (``French army in Paris (PAR)``, its
        colour, its count) followed by ``extra``.
        """
        pal = self.palette
        badge = unit_badge(self.variant, unit)
        count = unit_count(unit)
        army = unit.type is UnitType.ARMY
        if title is None:
            words = [f"{self._adjective(unit.power)} {'army' if army else 'fleet'} in "
                     f"{self.m.describe(unit.loc)}"]
            if badge:
                words.append(f"colour {badge}")
            if count > 1:
                words.append(f"{count} units")
            title = "; ".join([*words, *extra])
        scaled = self._scale if scale == 1.0 else num(self.s * scale, 3)
        g = SubElement(parent, "g", {"id": ident, "class": cls,
                                     "transform": f"translate({num(x)} {num(y)}) scale({scaled})"})
        SubElement(g, "title").text = title
        if ring:
            SubElement(g, "circle", {"r": "12.5", "fill": "none", "stroke": ring,
                                     "stroke-width": "2.2"})
        fill = pal.unit(unit.power)
        dash = None if unit.power in pal.power else "2 1.2"  # a neutral or minor power's
        if ghost:
            fill, dash = mix(fill, "#ffffff", 0.55), "2.4 1.4"
        outline = pal["outline"]
        icon = {"d": ARMY_ICON if army else FLEET_ICON, "fill": fill, "stroke": outline,
                "stroke-width": "1.2"}
        if dash:
            icon["stroke-dasharray"] = dash
        SubElement(g, "path", icon)
        if badge:
            SubElement(g, "circle", {"cx": "8.5", "cy": "-8", "r": "5", "fill": badge,
                                     "stroke": outline, "stroke-width": "1.2"})
            if not badge.startswith("#"):  # a named colour: its initial too, for every eye
                add(g, "text", {"x": "8.5", "y": "-5.6", "font-size": "6.8",
                                "font-weight": "bold", "text-anchor": "middle",
                                "fill": "#1d1d1d" if is_light(badge) else "#ffffff"},
                    badge[:1].upper())
        if count > 1:
            SubElement(g, "rect", {"x": "5", "y": "2", "width": "11", "height": "10",
                                   "rx": "2.5", "fill": "#ffffff", "stroke": outline,
                                   "stroke-width": ".9"})
            add(g, "text", {"x": "10.5", "y": "10.2", "font-size": "8.5", "font-weight": "bold",
                            "text-anchor": "middle", "fill": outline}, str(count))

    def _adjective(self, power: str) -> str:
        adjective = self._adjectives.get(power)
        if adjective is None:
            adjective = self._adjectives[power] = power_adjective(self.m, power)
        return adjective

    def _dislodged_unit(self, parent: Element, unit: Unit, options: list[int] | None) -> None:
        pal = self.palette
        code = self.code(self.m.province_of(unit.loc))
        x, y = self.aside(unit)
        if options is not None:
            names = ", ".join(self.m.loc_name(o) for o in options) or "none: it will be disbanded"
            extra = f"dislodged; may retreat to {names}"
            for loc in options:
                ox, oy = self.anchor(loc)
                line(parent, (x, y), (ox, oy), pal["failed"], 1.1, "1.5 2.5",
                     start=UNIT_R * self.s, end=5 * self.s, cls="dl")
                SubElement(parent, "circle", {"class": "dl", "cx": num(ox), "cy": num(oy),
                                              "r": num(2.6 * self.s), "fill": "none",
                                              "stroke": pal["failed"], "stroke-width": "1.1"})
        else:
            extra = "dislodged"
        self.unit(parent, unit, x, y, f"dislodged-{code}", extra, scale=0.85, ring=pal["failed"])


# -- the pre-written pieces of a board ----------------------------------------------------------

# By everything that does not change from one picture of a board to the next. Kept for the few
# boards a judge draws; emptied should some caller draw board after board of its own.
_TEMPLATES: dict[tuple[object, ...], Template] = {}
_TEMPLATES_KEPT = 4096


def _kept(key: tuple[object, ...], make: Callable[[], Template]) -> Template:
    template = _TEMPLATES.get(key)
    if template is None:
        if len(_TEMPLATES) >= _TEMPLATES_KEPT:
            _TEMPLATES.clear()
        template = _TEMPLATES[key] = make()
    return template


def _province_template(code: str, cls: str, d: str) -> Template:
    """A province's path and its title; holes: the fill, the stroke and the title."""
    def make() -> Template:
        path = Element("path", {"id": f"prov-{code}", "class": cls, "d": d, "fill": HOLE,
                                "stroke": HOLE})
        SubElement(path, "title").text = HOLE
        return Template(path)

    return _kept(("province", code, cls, d), make)


def _marker_template(code: str, sc: Point | None, ring: str, dot: str, cls: str,
                     label: Point) -> Template:
    """A province's supply centre (when ``sc`` is where it is drawn) and label; holes: the
    centre's fill, its outline twice (when a centre), and the label's colour."""
    def make() -> Template:
        elements = []
        if sc is not None:
            x, y = num(sc[0]), num(sc[1])
            group = Element("g", {"id": f"sc-{code}"})
            SubElement(group, "circle", {"cx": x, "cy": y, "r": ring, "fill": HOLE,
                                         "stroke": HOLE, "stroke-width": "1.1"})
            SubElement(group, "circle", {"cx": x, "cy": y, "r": dot, "fill": HOLE})
            elements.append(group)
        text = Element("text", {"class": cls, "x": num(label[0]), "y": num(label[1] + 3.4),
                                "fill": HOLE})
        text.text = code.title() if len(code) == 3 else code
        elements.append(text)
        return Template(*elements)

    return _kept(("marker", code, sc, ring, dot, cls, label), make)


# -- what units and powers are called -------------------------------------------------------


def unit_badge(variant: object, unit: Unit) -> str | None:
    """The colour of a unit's badge, if its variant gives units a colour of their own
    (``Variant.unit_badge``)."""
    hook = getattr(variant, "unit_badge", None)
    if not callable(hook):
        return None
    value = hook(unit)
    return str(value) if value else None


def unit_count(unit: Unit) -> int:
    """How many units ``unit`` stands for (a Superdiplomacy stack's ``count``; else 1)."""
    count = getattr(unit, "count", 1)
    return count if isinstance(count, int) and not isinstance(count, bool) else 1


def power_name(m: Map, code: str) -> str:
    """A power's name (``France``); a code the map does not know, in title case."""
    try:
        return m.power(code).name
    except KeyError:
        return code.title()


def power_adjective(m: Map, code: str) -> str:
    """A power's adjective (``French``), marked ``(neutral)`` for a minor or unknown power."""
    try:
        power = m.power(code)
    except KeyError:
        return f"{code.title()} (neutral)"
    if m.is_minor(code):
        return f"{power.adjective or power.name} (neutral)"
    return power.adjective or power.name


def _safe(fn: Callable[[], list[int]]) -> list[int] | None:
    try:
        return fn()
    except (CalhamerError, KeyError, ValueError, IndexError):
        return None
