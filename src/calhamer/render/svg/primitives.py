"""The bottom layer of the SVG: numbers, elements, shapes and the document's text.

A picture is an :class:`xml.etree.ElementTree.Element` tree; every layer adds elements to it
with :func:`add` and the shapes here (lines, arrows, dots, rings, crosses, the build mark), and
:func:`serialise` writes the finished tree once. Escaping happens there and nowhere else, so
a name or title with ``<``, ``&`` or ``"`` in it cannot break the document.

Coordinates are written compactly (:func:`num`: one decimal, no trailing zeros), which keeps a
full board at about 80 kB. This module knows nothing of maps, powers or orders.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from xml.etree.ElementTree import Element, SubElement

from calhamer.render.geometry import Point

__all__ = [
    "ARMY_ICON",
    "FLEET_ICON",
    "HOLE",
    "Template",
    "add",
    "along",
    "arrow",
    "cross",
    "dot",
    "line",
    "mid",
    "num",
    "offset",
    "plus",
    "raw",
    "ring",
    "serialise",
]

# Unit icons, drawn around (0, 0) at unit scale 1 (a board 1000 units wide).
ARMY_ICON = "M-8,8L-8,6Q-8,0-3.2,-1.2A4.8,4.8 0 1,1 3.2,-1.2Q8,0 8,6L8,8Z"
FLEET_ICON = "M-11,1.5H11L7,8H-7ZM-1,0V-11L7.5,0ZM-2.6,0V-8L-8.5,0Z"


# -- numbers --------------------------------------------------------------------------------


def num(v: float, digits: int = 1) -> str:
    """``v`` with at most ``digits`` decimals and no trailing zeros (``-0`` is ``0``)."""
    if digits == 1:  # nearly every number of a picture: the quick way to the same text
        s = f"{v:.1f}"
        if s[-1] == "0":
            s = s[:-2]
            if s == "-0":
                return "0"
        return s
    s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# -- elements and the document --------------------------------------------------------------


def add(parent: Element, tag: str, attrib: dict[str, str] | None = None,
        text: str | None = None) -> Element:
    """A new ``tag`` element at the end of ``parent`` (attribute values are plain text)."""
    element = SubElement(parent, tag, attrib or {})
    if text is not None:
        element.text = text
    return element


# The tag of a pre-written piece of the document (:func:`raw`): not a name XML allows, so never
# one of ours.
RAW = "!raw"


def raw(parent: Element, xml: str) -> None:
    """Add ``xml``, text this module wrote (:meth:`Template.fill`), to be written as it is."""
    SubElement(parent, RAW).text = xml


# A hole of a :class:`Template`: NUL, which an XML document cannot hold.
HOLE = "\x00"


class Template:
    """Elements written once with holes (:data:`HOLE` as an attribute value or as text),
    then written again and again with the holes filled in (:meth:`fill`), as :func:`raw`.

    A board's provinces and labels are nearly all the same from one picture to the next (an
    outline, a position, a name); only a colour or a title changes. Writing them from a
    template instead of building and writing their elements makes a picture about twice as
    quick. The values are escaped exactly as :func:`serialise` would have escaped them had
    the element been built with them (escaping changes nothing of a value with nothing to
    escape), so the document is the same, byte for byte.
    """

    __slots__ = ("_format", "_in_attribute", "_pieces")

    def __init__(self, *elements: Element) -> None:
        pieces = "".join(serialise(element) for element in elements).split(HOLE)
        self._pieces = pieces
        # a hole right after '="' is an attribute value; any other is text
        self._in_attribute = tuple(piece.endswith('="') for piece in pieces[:-1])
        self._format = "{}".join(p.replace("{", "{{").replace("}", "}}") for p in pieces)

    @property
    def holes(self) -> int:
        return len(self._in_attribute)

    def fill(self, *values: str) -> str:
        """The elements' text with ``values`` in their holes, in order."""
        if _needs_refs("".join(values)):
            sub = _ATTR_SPECIAL.sub
            values = tuple(sub(_attr_ref, v) if attribute else _text(v)
                           for v, attribute in zip(values, self._in_attribute, strict=True))
        return self._format.format(*values)


# What must be written as a reference: in attribute values (always quoted with ") and in text.
_ATTR_SPECIAL = re.compile(r'[&<>"\r\n\t]')
_ATTR_REFS = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
              "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}


def _attr_ref(match: re.Match[str]) -> str:
    return _ATTR_REFS[match[0]]


def _needs_refs(values: str) -> bool:
    # Plain substring tests: far quicker than a regular expression over long path data.
    return ("&" in values or "<" in values or ">" in values or '"' in values
            or "\n" in values or "\r" in values or "\t" in values)


def serialise(root: Element) -> str:
    """The XML text of ``root`` and everything under it, escaped where needed.

    The same document as ``ElementTree.tostring`` (it reads back to the same tree), without
    its namespace bookkeeping, which a picture has no use for: ``tostring`` takes about three
    times as long on a board, which would make a picture twice as slow to draw. Tags and
    attribute names are written as they are (they are ours); attribute values and text are
    escaped.

    Nearly every value of a picture is a number, a colour or path data, with nothing to
    escape: the tree is written plainly first, and written again escaping value by value only
    when some value or text holds a character that must be a reference.
    """
    holder = Element("root")
    holder.append(root)
    out: list[str] = []
    values: list[str] = []
    texts: list[str] = []
    _write_plain(holder, out.append, values.extend, texts.append)
    joined = "".join(texts)
    if _needs_refs("".join(values)) or "&" in joined or "<" in joined or ">" in joined:
        out = []
        _write_escaped(root, out.append)
    return "".join(out)


def _write_plain(parent: Element, write: Callable[[str], object],
                 values: Callable[[Iterable[str]], object],
                 texts: Callable[[str], object]) -> None:
    """Write the children of ``parent`` with no escaping, handing their values and text to be
    checked. A picture is mostly leaves: they are written here, without a call of their own,
    and their attributes joined without a Python loop (``k="v`` pieces joined by ``" ``)."""
    for element in parent:
        tag = element.tag
        if tag == RAW:  # written by this module: escaped already, never with a tail
            write(element.text or "")
            continue
        attrib = element.attrib
        values(attrib.values())
        attrs = '" '.join(map('="'.join, attrib.items()))
        text = element.text
        if len(element):
            write(f'<{tag} {attrs}">' if attrs else f"<{tag}>")
            if text:
                texts(text)
                write(text)
            _write_plain(element, write, values, texts)
            write(f"</{tag}>")
        elif text:
            texts(text)
            write(f'<{tag} {attrs}">{text}</{tag}>' if attrs else f"<{tag}>{text}</{tag}>")
        else:
            write(f'<{tag} {attrs}"/>' if attrs else f"<{tag}/>")
        tail = element.tail
        if tail:
            texts(tail)
            write(tail)


def _write_escaped(element: Element, write: Callable[[str], object]) -> None:
    """Write ``element`` with every attribute value and text escaped."""
    tag = element.tag
    if tag == RAW:
        write(element.text or "")
        return
    sub = _ATTR_SPECIAL.sub
    attrs = "".join([f' {k}="{sub(_attr_ref, v)}"' for k, v in element.attrib.items()])
    text = element.text
    if text or len(element):
        write(f"<{tag}{attrs}>")
        if text:
            write(_text(text))
        for child in element:
            _write_escaped(child, write)
        write(f"</{tag}>")
    else:
        write(f"<{tag}{attrs}/>")
    if element.tail:
        write(_text(element.tail))


def _text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# -- geometry of segments -------------------------------------------------------------------


def offset(a: Point, b: Point, d: float) -> tuple[Point, Point]:
    """The segment ``a``-``b`` moved ``d`` to its right (so that two opposite moves part)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / length * d, dx / length * d
    return (a[0] + ox, a[1] + oy), (b[0] + ox, b[1] + oy)


def along(a: Point, b: Point, d: float) -> Point:
    """The point ``d`` from ``a`` towards ``b`` (negative: back from ``b``)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    if d < 0:
        return b[0] + dx / length * d, b[1] + dy / length * d
    return a[0] + dx / length * d, a[1] + dy / length * d


def mid(a: Point, b: Point) -> Point:
    """The middle of the segment ``a``-``b``."""
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


# -- shapes ---------------------------------------------------------------------------------


def line(parent: Element, a: Point, b: Point, colour: str, width: float, dash: str | None, *,
         start: float = 0.0, end: float = 0.0, outline: str | None = None,
         cap: str = "butt", cls: str | None = None) -> None:
    """A line from ``a`` to ``b``, cut short by ``start`` and ``end``, over a darker
    ``outline`` when given; nothing when too little of it would be left."""
    length = math.dist(a, b)
    if length <= start + end + 1:
        return
    p, q = along(a, b, start), along(a, b, -end) if end else b
    x1, y1, x2, y2 = num(p[0]), num(p[1]), num(q[0]), num(q[1])
    if outline:
        under = {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": outline,
                 "stroke-width": num(width + 1.8), "stroke-linecap": cap}
        if dash:
            under["stroke-dasharray"] = dash
        SubElement(parent, "line", under)
    attrib = {"class": cls} if cls else {}
    attrib.update({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": colour,
                   "stroke-width": num(width), "stroke-linecap": cap})
    if dash:
        attrib["stroke-dasharray"] = dash
    SubElement(parent, "line", attrib)


def arrow(parent: Element, a: Point, b: Point, colour: str, outline: str, s: float, *,
          start: float, end: float) -> None:
    """A move's arrow from ``a`` to ``b``: a shaft and a head, kept ``start`` and ``end`` from
    its ends (unless the arrow is too short for that)."""
    length = math.dist(a, b)
    head, half = 9.0 * s, 4.8 * s
    if length < start + end + head:
        start = end = 0.0
    tip = along(a, b, -end) if end else b
    base = along(a, tip, -head)
    dx, dy = tip[0] - a[0], tip[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / d * half, dx / d * half
    line(parent, a, base, colour, 2.4 * s, None, start=start, outline=outline)
    points = " ".join(f"{num(x)},{num(y)}" for x, y in (
        tip, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)))
    SubElement(parent, "polygon", {"points": points, "fill": colour, "stroke": outline,
                                   "stroke-width": num(1.0 * s), "stroke-linejoin": "round"})


def dot(parent: Element, p: Point, colour: str, outline: str, r: float) -> None:
    """A filled dot of radius ``r`` (where a support or convoy line ends)."""
    SubElement(parent, "circle", {"cx": num(p[0]), "cy": num(p[1]), "r": num(r), "fill": colour,
                                  "stroke": outline, "stroke-width": "1"})


def ring(parent: Element, p: Point, r: float, colour: str, outline: str, s: float) -> None:
    """A hold's ring of radius ``r``, over a darker outline."""
    c = {"cx": num(p[0]), "cy": num(p[1]), "r": num(r), "fill": "none"}
    SubElement(parent, "circle", {**c, "stroke": outline, "stroke-width": num(4.2 * s)})
    SubElement(parent, "circle", {**c, "stroke": colour, "stroke-width": num(2.4 * s)})


def cross(parent: Element, p: Point, r: float, colour: str, s: float, *,
          halo: bool = False) -> None:
    """A cross of half-width ``r`` (a failure, a disband), on a white halo when asked."""
    x, y = p
    d = (f"M{num(x - r)},{num(y - r)}L{num(x + r)},{num(y + r)}"
         f"M{num(x - r)},{num(y + r)}L{num(x + r)},{num(y - r)}")
    if halo:
        SubElement(parent, "path", {"class": "x", "d": d, "stroke": "#ffffff",
                                    "stroke-width": num(4.4 * s), "stroke-linecap": "round"})
    SubElement(parent, "path", {"class": "x", "d": d, "stroke": colour,
                                "stroke-width": num(2.4 * s), "stroke-linecap": "round"})


def plus(parent: Element, p: Point, s: float) -> None:
    """A build's mark: a white plus on a green disc."""
    x, y = p
    r = 3.4 * s
    SubElement(parent, "circle", {"cx": num(x), "cy": num(y), "r": num(5.2 * s),
                                  "fill": "#1f8a3b", "stroke": "#ffffff",
                                  "stroke-width": num(1.1 * s)})
    SubElement(parent, "path", {"d": f"M{num(x - r)},{num(y)}H{num(x + r)}M{num(x)},"
                                     f"{num(y - r)}V{num(y + r)}",
                                "stroke": "#ffffff", "stroke-width": num(1.8 * s)})
