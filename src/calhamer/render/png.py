"""Pictures as PNG: the SVG of :mod:`calhamer.render.svg`, rasterised by cairosvg.

cairosvg (and the system's cairo library, ``libcairo2`` on Debian) is needed only here.
cairo's own PNG writer compresses hard and slowly; when Pillow is there (cairosvg installs it)
the pixels are written by Pillow with light compression instead, several times faster.
"""

from __future__ import annotations

import io
import sys
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
    """Rasterise an SVG document (its own width and height) to PNG bytes."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: cairocffi found no libcairo
        raise CalhamerError(
            "PNG output needs cairosvg and the cairo library "
            f"(pip install 'calhamer[png]'; apt-get install libcairo2): {exc}"
        ) from None
    data = svg.encode("utf-8")
    try:
        return _fast_png(data)
    except Exception:  # any change in cairosvg's internals: use its public function
        return cairosvg.svg2png(bytestring=data)


def _fast_png(data: bytes) -> bytes:
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface
    from PIL import Image

    surface = PNGSurface(Tree(bytestring=data), None, 96)
    image = surface.cairo
    image.flush()
    width, height, stride = image.get_width(), image.get_height(), image.get_stride()
    # cairo's ARGB32 is premultiplied, in native (little-endian: B, G, R, A) byte order; our
    # pictures are opaque, so premultiplication changes nothing.
    order = "BGRA" if sys.byteorder == "little" else "ARGB"
    picture = Image.frombuffer("RGBA", (width, height), bytes(image.get_data()), "raw", order,
                               stride, 1)
    out = io.BytesIO()
    picture.convert("RGB").save(out, format="PNG", compress_level=3)
    return out.getvalue()
