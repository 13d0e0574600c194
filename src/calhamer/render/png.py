"""Pictures as PNG: the SVG of :mod:`calhamer.render.svg`, rasterised by cairosvg.

cairosvg (and the system's cairo library, ``libcairo2`` on Debian) is needed only here.
"""

from __future__ import annotations

from typing import Any

from calhamer.errors import CalhamerError
from calhamer.render.svg import render_svg

DEFAULT_PNG_WIDTH = 1400


def render_png(position: Any = None, *, size: float | None = None, **options: Any) -> bytes:
    """Draw ``position`` as PNG bytes; the options are :func:`render_svg`'s.

    :param size: the width in pixels (default 1400; the height follows).
    :raises CalhamerError: when cairosvg or the cairo library is missing.
    """
    svg = render_svg(position, size=size or DEFAULT_PNG_WIDTH, **options)
    return svg_to_png(svg)


def svg_to_png(svg: str) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: cairocffi found no libcairo
        raise CalhamerError(
            "PNG output needs cairosvg and the cairo library "
            f"(pip install cairosvg; apt-get install libcairo2): {exc}"
        ) from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
