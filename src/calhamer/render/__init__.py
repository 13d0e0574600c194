"""Maps as pictures: SVG (standard library only) and PNG (through cairosvg).

    from calhamer.render import render_svg, render_png
    svg = render_svg(position, outcome=outcome)

See ``docs/render.md``.
"""

from calhamer.render.geometry import Geometry, geometry_for, read_geometry, schematic
from calhamer.render.png import render_png
from calhamer.render.svg import DEFAULT_COLORS, Mask, render_svg

__all__ = [
    "DEFAULT_COLORS",
    "Geometry",
    "Mask",
    "geometry_for",
    "read_geometry",
    "render_png",
    "render_svg",
    "schematic",
]
