"""The pieces of a movement phase: groups of units under one order, the forces they make, the
sides and battles of the dice, and the board they leave behind.

A :class:`_Group` is the units of one stack under one order (or left without one); every
group of one power ordered into one sector belongs to one :class:`_Force`, which moves or
fails as a whole. Casualties are taken off ``_Group.size``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from calhamer.map import ARMY, FLEET, Location, ProvinceId, UnitType
from calhamer.results import OrderResult

from .notation import Stack

HOLD, MOVE, SUPPORT, CONVOY = range(4)


@dataclass(eq=False)
class _Group:
    """Units of one stack under one order (or left without one: they hold)."""

    id: int
    power: str
    sector: ProvinceId
    type: UnitType
    loc: Location
    count: int
    kind: int = HOLD
    dest: int = -1  # move: target sector; support: supported-into (-1: hold); convoy: army dest
    exact: int = -1  # move: exact location reached
    src: int = -1  # support: supported sector; convoy: the army's sector
    via: bool = False
    convoyed: bool = False
    void: str = ""
    result: OrderResult | None = None
    size: int = 0
    deaths: list[tuple[str, str]] = field(default_factory=list)  # (battle, kind) per unit lost

    def __post_init__(self) -> None:
        self.size = self.count

    @property
    def letter(self) -> str:
        return self.type.letter


@dataclass(eq=False)
class _Force:
    """All units of one power ordered into one sector: they move, or fail, together."""

    id: int
    power: str
    dest: ProvinceId
    groups: list[_Group] = field(default_factory=list)


@dataclass(eq=False)
class _Side:
    direct: list[_Group] = field(default_factory=list)
    support: list[_Group] = field(default_factory=list)
    attacks: bool = False


@dataclass(eq=False)
class _Battle:
    sectors: set[ProvinceId]
    sides: dict[str, _Side]
    id: str = ""
    simultaneous: bool = False  # a fight to the death: both sides throw at once


@dataclass
class _Settled:
    """The board after one resolution: where the units stand and who must retreat."""

    stacks: dict[ProvinceId, Stack]
    dislodged: dict[ProvinceId, tuple[list[_Group], _Force]]
    contested: frozenset[ProvinceId]
    blocked: dict[ProvinceId, frozenset[ProvinceId]]


def sizes(groups: Iterable[_Group]) -> tuple[int, int]:
    """The armies and the fleets left in ``groups``."""
    armies = fleets = 0
    for g in groups:
        if g.type is ARMY:
            armies += g.size
        elif g.type is FLEET:
            fleets += g.size
    return armies, fleets
