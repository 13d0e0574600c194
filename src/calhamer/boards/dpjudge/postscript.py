"""What a board's PostScript drawing tells the importer: where each province is, and each
power's colour.

DPjudge's drawings (``standard.ps``) open with a ``% INFO`` block that lists every place with
the point its name is drawn at, in PostScript's units (y grows upwards); their
``/VisitPowers`` procedure names each power's colour, defined in ``/VisitColors``. The
points become the provinces' ``x``/``y`` hints (y grows downwards, from the top of the
drawing's frame), which place a province in a picture drawn from the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_INFO = re.compile(r"^%\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(\S+)\s+(.*)$")
_FRAME = re.compile(r"^\s*SeaBlue\s+(-?[\d.]+)\s+(-?[\d.]+)\s+([\d.]+)\s+([\d.]+)\s+rectfill")
_POWER = re.compile(r"^\s*/(\S+)\s+\(.?\)\s+/(\S+)\s+/\S+")
_RGB = re.compile(r"^\s*/(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+r\s*$")
_GREY = re.compile(r"^\s*/(\S+)\s+([\d.]+)\s+g\s*$")


@dataclass
class Drawing:
    """A drawing's province points (y downwards) and power colours (``#rrggbb``)."""

    points: dict[str, tuple[float, float]] = field(default_factory=dict)
    colors: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # a place's full name -> its code


def read_drawing(path: Path) -> Drawing:
    """The points and colours of the PostScript drawing at ``path``."""
    lines = path.read_bytes().decode("latin-1").splitlines()
    raw: dict[str, tuple[float, float]] = {}
    names: dict[str, str] = {}
    in_info = False
    frame = None
    powers: dict[str, str] = {}
    colors: dict[str, str] = {}
    in_powers = False
    for line in lines:
        if line.startswith("/VisitPowers"):
            in_powers = True
        elif in_powers and line.strip() == "end":
            in_powers = False
        if line.startswith("% INFO"):
            in_info = True
            continue
        if in_info:
            match = _INFO.match(line)
            if match:
                code = match.group(3).upper()
                raw[code] = (float(match.group(1)), float(match.group(2)))
                names.setdefault(match.group(4).strip().lower(), code)
                continue
            in_info = False
        if frame is None and (found := _FRAME.match(line)):
            frame = tuple(float(v) for v in found.groups())
        if in_powers and (power := _POWER.match(line)) and power.group(1) != "UNOWNED":
            powers.setdefault(power.group(1), power.group(2))
        if rgb := _RGB.match(line):
            colors.setdefault(rgb.group(1), _hex(*(float(v) for v in rgb.groups()[1:])))
        elif grey := _GREY.match(line):
            value = float(grey.group(2))
            colors.setdefault(grey.group(1), _hex(value, value, value))
    top = frame[1] + frame[3] if frame else max((y for _, y in raw.values()), default=0) + 10
    left = frame[0] if frame else min((x for x, _ in raw.values()), default=0) - 10
    points = {code: (round(x - left, 1), round(top - y, 1)) for code, (x, y) in raw.items()}
    return Drawing(points, {p: colors[c] for p, c in powers.items() if c in colors}, names)


def _hex(r: float, g: float, b: float) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v * 255))):02x}" for v in (r, g, b))
