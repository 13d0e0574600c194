"""Pictures of positions and phases as SVG: pure functions, every option keyword-only.

:func:`render_svg` draws one position: provinces coloured by who owns them, supply centres,
labels, units, dislodged units with their retreat options and, when given, the orders of a
phase as arrows (failed ones faded and crossed in red), with a legend. Every province is one
element with ``id="prov-XXX"`` and a ``<title>`` for hover.

A *view* limits the picture to what one power may know (Kriegsplomacy). It is the same
function the reports use, so nothing hidden is ever written into the SVG text: not a unit, an
order, an owner's colour or a title.

The picture is an :mod:`xml.etree.ElementTree` tree, built by layers that depend one way:
:mod:`~.primitives` (numbers, shapes, the document's text) and :mod:`~.palette` (colours) and
:mod:`~.visibility` (what a mask hides) ← :mod:`~.scene` (provinces, labels, units) ←
:mod:`~.orders` (arrows and order marks) and :mod:`~.legend`; this module puts them together
and writes the document once.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.etree.ElementTree import Element

from calhamer.position import Position
from calhamer.render.geometry import Geometry, geometry_for
from calhamer.render.svg.legend import draw_legend
from calhamer.render.svg.orders import Orders, draw_orders
from calhamer.render.svg.palette import DEFAULT_COLORS, Palette
from calhamer.render.svg.primitives import add, num, serialise
from calhamer.render.svg.scene import Scene, power_name, unit_badge
from calhamer.render.svg.visibility import Mask, Shown, ViewOutcome, is_power_view
from calhamer.results import PhaseOutcome
from calhamer.views import PowerView, centre_totals, is_known_position

__all__ = ["DEFAULT_COLORS", "Mask", "Orders", "render_svg", "unit_badge"]

_STYLE = """
.pv{stroke-width:.7;stroke-linejoin:round}
.sea{stroke-width:.6}
.lb{font-size:9.5px;text-anchor:middle;pointer-events:none}
.ls{font-size:8.5px;font-style:italic;text-anchor:middle;pointer-events:none}
.u,.o,.dl{pointer-events:none}
.lg{font-size:10px}
"""


def render_svg(
    position: Position | None = None,
    *,
    outcome: PhaseOutcome | None = None,
    orders: Orders | None = None,
    view: PowerView | None = None,
    mask: object | None = None,
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
    :param view: a power's view (:class:`calhamer.views.PowerView`, as the reports use): the
        picture draws that view and nothing else: its positions, results and dislodged units,
        and the centre counts it is told.
    :param mask: provinces to hide: a :class:`Mask`, or a function ``province id -> bool``.
        They are drawn in grey, and no unit, order, owner or name of a unit in them is
        written at all.
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
    if view is not None:
        if not is_power_view(view):
            raise TypeError("view must be a power's view (calhamer.views.PowerView); "
                            "hide provinces with mask= (a Mask or a function of a province)")
        # A PowerView (calhamer.views): everything drawn comes from it, nothing from the truth;
        # the centre totals too, as the variant's rules let that power know them.
        power_view = view
        outcome = ViewOutcome(power_view)  # type: ignore[assignment]
        counts = power_view.centre_totals()
        if title is None and power_view.power:
            before = power_view.before
            who = power_name(before.map, power_view.power)
            title = f"{before.map.phase_name(before.phase)} ({before.phase.code}), as {who} sees it"
    if position is None:
        if outcome is None:
            raise TypeError("render_svg needs a position, an outcome or a power's view")
        position = outcome.before
    if power_view is None and (mask is None or is_known_position(position)):
        # A whole board's counts, or a power's known position's totals as its variant lets it
        # know them (never counted from the centres it holds, which are only the power's own).
        # A mask hiding provinces of a whole board gets none: they would tell what it hides.
        counts = centre_totals(position)
    geo = geometry or geometry_for(position.map)
    scene = Scene(position, geo, Palette(position.map, colors), Shown(mask), outcome)

    root = Element("svg")
    add(root, "style", text=_STYLE)
    scene.background(root)
    scene.board(root)
    scene.markers(root)
    scene.units(root)
    if show_orders:
        draw_orders(root, scene, orders)
    legend_h = draw_legend(root, scene, title, counts=counts) if legend else 0.0

    width, height = geo.width, geo.height + legend_h
    px = size or width
    root.attrib.update({
        "xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
        "width": num(px), "height": num(px * height / width),
        "viewBox": f"0 0 {num(width)} {num(height)}",
        "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
    })
    return serialise(root) + "\n"
