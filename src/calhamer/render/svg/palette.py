"""The colours of a picture: the defaults, each power's own, and the mixes made of them.

:class:`Palette` answers every colour question of the other layers (a province's fill, a
unit's body, an arrow's ink, a failed order's faded tones), with the caller's ``colors``
applied. It depends on nothing but the map's powers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from calhamer.map import Map

__all__ = ["DEFAULT_COLORS", "FADE", "Palette", "faded", "is_light", "mix", "rgb"]

DEFAULT_COLORS: dict[str, str] = {
    "sea": "#a9c9e6",
    "sea_border": "#7ea7cc",
    "coast": "#4f7396",  # a drawn board's coastline
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

FADE = 0.5  # how much white a failed order's colours get


class Palette:
    """The colours of one picture: :data:`DEFAULT_COLORS` and the map's power colours, with
    ``colors`` (keyed by power, in any spelling the map knows, or by a default's key) applied."""

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
        """A power's own colour; light grey for a power that is not one of the map's."""
        return self.power.get(power, self.base["neutral_unit"])

    def territory(self, power: str, strength: float = 0.78) -> str:
        """A power's colour mixed into the land colour (``strength`` 1: the colour itself)."""
        key = (power, strength)
        if key not in self._cache:
            colour = self.power.get(power)
            self._cache[key] = (
                mix(colour, self.base["land"], strength) if colour else self.base["land"]
            )
        return self._cache[key]

    def ink(self, power: str) -> str:
        """The colour of a power's arrows: its own colour (drawn over a dark outline)."""
        return self.unit(power)


def faded(colour: str) -> str:
    """``colour`` as a failed order wears it: mixed with white (cheaper to rasterise than
    transparency)."""
    return mix(colour, "#ffffff", FADE)


def rgb(colour: str) -> tuple[int, int, int] | None:
    """The red, green and blue of ``#rrggbb`` or ``#rgb``; None for anything else (a name)."""
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return None
    try:
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return None


@lru_cache(maxsize=1024)  # a picture asks for the same few mixes over and over
def mix(a: str, b: str, t: float) -> str:
    """``t`` of colour ``a`` and ``1 - t`` of ``b``; ``a`` itself when either is no hex
    colour."""
    ra, rb = rgb(a), rgb(b)
    if ra is None or rb is None:
        return a
    return "#" + "".join(f"{round(x * t + y * (1 - t)):02x}" for x, y in zip(ra, rb, strict=True))


_LIGHT_NAMES = {"silver", "white", "yellow", "gold", "orange", "pink", "lightgrey",
                "lightgray", "cyan", "lime", "khaki", "beige", "ivory"}


def is_light(colour: str) -> bool:
    """Whether dark ink reads better than white on ``colour``."""
    components = rgb(colour)
    if components is None:
        return colour.strip().lower() in _LIGHT_NAMES
    r, g, b = components
    return 0.299 * r + 0.587 * g + 0.114 * b > 150
