"""Arpiesse's three colours, and the units and orders that carry them.

Purple is superior to Red, Red to Silver and Silver to Purple (rule II); a colour is an int
(:data:`RED`, :data:`PURPLE`, :data:`SILVER`). A :class:`ColouredUnit` keeps its colour when it
moves or retreats, a :class:`ColouredBuild` names the colour of the unit it builds, and an
:class:`Exchange` is the summer order to swap colours with another unit (rule XII).
"""

from __future__ import annotations

from dataclasses import dataclass

from calhamer.map import Location, UnitType
from calhamer.orders import Build, Order
from calhamer.position import Unit

RED, PURPLE, SILVER = 0, 1, 2
COLOURS = (RED, PURPLE, SILVER)
COLOUR_NAMES = ("Red", "Purple", "Silver")
_BY_NAME = {"red": RED, "purple": PURPLE, "silver": SILVER}


def superior(a: int, b: int) -> bool:
    """Whether colour ``a`` is superior to colour ``b`` (P > R, R > S, S > P)."""
    return (a - b) % 3 == 1


def superior_to(colour: int) -> int:
    """The one colour superior to ``colour``."""
    return (colour + 1) % 3


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour]


def find_colour(word: str) -> int | None:
    """The colour a word names (``red``, ``Purple``...), or None."""
    return _BY_NAME.get(word.strip().lower())


# -- units and orders with colours ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColouredUnit(Unit):
    """A unit with its colour; it keeps the colour when it moves or retreats."""

    colour: int = RED


def colour_of(unit: Unit) -> int:
    """A unit's colour (a plain :class:`Unit` counts as Red, the colour units start in)."""
    return getattr(unit, "colour", RED)


@dataclass(frozen=True, slots=True)
class ColouredBuild(Build):
    """``Build Silver A PAR``: a build that names the new unit's colour."""

    colour: int = RED


@dataclass(frozen=True, slots=True)
class Exchange(Order):
    """``F ADR X A TRI``: offer to swap colours with another unit (summer, rule XII)."""

    other_type: UnitType | None
    other: Location
