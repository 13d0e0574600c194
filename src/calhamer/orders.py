"""Order types. Orders name locations (ints of a :class:`~calhamer.map.Map`), never strings.

Parse text with :func:`calhamer.notation.parse_order` and write it back with
:func:`calhamer.notation.format_order`.
"""

from __future__ import annotations

from dataclasses import dataclass

from calhamer._build import fit_data_classes, mypyc_attr
from calhamer.map import Location, UnitType


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Order:
    """An order for the unit of type ``unit_type`` at ``loc``.

    ``unit_type`` is None only when the writer omitted it and no unit stands at ``loc``.
    """

    unit_type: UnitType | None
    loc: Location


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Hold(Order):
    pass


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Move(Order):
    dest: Location
    via_convoy: bool = False
    # Provinces of a path written as ``A BRE - ENG - LON``; kept for the record, never required.
    path: tuple[Location, ...] = ()


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Support(Order):
    """Support to hold (``dest is None``) or to move from ``target`` to ``dest``."""

    target_type: UnitType | None
    target: Location
    dest: Location | None = None

    @property
    def is_hold_support(self) -> bool:
        return self.dest is None


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Convoy(Order):
    army: Location
    dest: Location


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Retreat(Order):
    dest: Location


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Disband(Order):
    """A disband in a retreat phase, or a removal in an adjustment phase."""


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Build(Order):
    pass


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""


fit_data_classes(Order, Hold, Move, Support, Convoy, Retreat, Disband, Build, Waive)

AnyOrder = Order | Waive

MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)
