"""The small values a position is made of: the phase, a unit, a dislodged unit.

They sit below :mod:`calhamer.position` so that the order notation, validation and the
adjudicator can use them without importing the position (which carries its variant).
"""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError, dataclass
from typing import Final

from calhamer._build import fit_data_classes, mypyc_attr
from calhamer.board import Location, ProvinceId, UnitType
from calhamer.calendars import KIND_NAMES, SEASON_NAMES
from calhamer.errors import PhaseError

__all__ = ["KIND_NAMES", "SEASONS", "SEASON_NAMES", "Dislodged", "Phase", "Unit", "phase_of"]

SEASONS = ("S", "F", "W")  # the standard board's (a board's calendar may declare others)
# Any letter is a season here: which letters a board plays is its calendar's business
# (calhamer.calendars), asked where a position is read against its board.
_PHASE_RE = re.compile(r"^([A-Z])(\d{1,5})([MRAX])$")

_set = object.__setattr__  # how an immutable value's own __init__ fills it in


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")



@mypyc_attr(native_class=False)  # written out by hand: a plain class in either build
class Phase:
    """A phase code such as ``S1901M``: season, year and kind (Movement, Retreats, Adjustments).

    The season is any letter: a board's calendar declares its own (Hundred's ``Y1425M``, see
    :mod:`calhamer.calendars`), and variants may add one (``U`` for a summer phase); kinds are
    movement, retreats, adjustments and a variant's exchange (``X``). Years 0 and 1 are years
    like any other (``S0001M`` is read as ``S1M``).

    An immutable value, ordered by year, then season, then kind. Written out by hand rather
    than as a dataclass: a dataclass compiles its methods when its module is imported, and
    every program that imports calhamer would pay for it.
    """

    __slots__ = ("kind", "season", "year")
    __match_args__ = ("year", "season", "kind")
    year: int
    season: str
    kind: str

    def __init__(self, year: int, season: str, kind: str) -> None:
        _set(self, "year", year)
        _set(self, "season", season)
        _set(self, "kind", kind)

    def _key(self) -> tuple[int, str, str]:
        return (self.year, self.season, self.kind)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() < other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() <= other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() > other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() >= other._key()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Phase(year={self.year!r}, season={self.season!r}, kind={self.kind!r})"

    __setattr__ = _frozen_setattr
    __delattr__ = _frozen_delattr

    def __reduce__(self) -> tuple[object, ...]:
        return (Phase, self._key())

    @classmethod
    def parse(cls, code: str) -> Phase:
        m = _PHASE_RE.match(code.strip().upper())
        if not m:
            raise PhaseError(
                f"{code!r} is not a phase code; write season, year and kind, like S1901M, "
                "F1901R or W1901A"
            )
        return cls(int(m.group(2)), m.group(1), m.group(3))

    @property
    def code(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    @property
    def name(self) -> str:
        """``Spring 1901 Movement``, with the usual season names; a board's own seasons are
        named by its calendar (``Map.phase_name``)."""
        return f"{SEASON_NAMES.get(self.season, self.season)} {self.year} {KIND_NAMES[self.kind]}"

    @property
    def is_movement(self) -> bool:
        return self.kind == "M"

    @property
    def is_retreat(self) -> bool:
        return self.kind == "R"

    @property
    def is_adjustment(self) -> bool:
        return self.kind == "A"

    def __str__(self) -> str:
        return self.code


# Final: the compiled build holds the table as a constant, not in the module's globals.
_PHASES: Final[dict[tuple[int, str, str], Phase]] = {}


def phase_of(year: int, season: str, kind: str) -> Phase:
    """``Phase(year, season, kind)``, made once and then shared: phases are values, and the
    phases of a game follow one another through the same few."""
    key = (year, season, kind)
    found = _PHASES.get(key)
    if found is None:
        if len(_PHASES) >= 4096:
            _PHASES.clear()  # a long-lived program: keep the table small
        found = _PHASES[key] = Phase(year, season, kind)
    return found


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    type: UnitType
    loc: Location

    def __init__(self, power: str, type: UnitType, loc: Location) -> None:
        # Written out (dataclass keeps an __init__ the class has): the one dataclass writes
        # runs as Python even in the compiled build, where this one is compiled. A variant's
        # data class over Unit still gets its own.
        _set(self, "power", power)
        _set(self, "type", type)
        _set(self, "loc", loc)

    @property
    def count(self) -> int:
        """How many units this entry stands for: 1, or a Superdiplomacy stack's size."""
        return 1


@mypyc_attr(native_class=False)  # written out by hand: a plain class in either build
class Dislodged:
    """A unit that must retreat, and what it may not retreat to (an immutable value, written
    out by hand as :class:`Phase` is)."""

    __slots__ = ("attacker_from", "unit")
    __match_args__ = ("unit", "attacker_from")
    unit: Unit
    attacker_from: ProvinceId | None

    def __init__(self, unit: Unit, attacker_from: ProvinceId | None) -> None:
        _set(self, "unit", unit)
        _set(self, "attacker_from", attacker_from)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return (self.unit, self.attacker_from) == (
                other.unit, other.attacker_from)  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.unit, self.attacker_from))

    def __repr__(self) -> str:
        return f"Dislodged(unit={self.unit!r}, attacker_from={self.attacker_from!r})"

    __setattr__ = _frozen_setattr
    __delattr__ = _frozen_delattr

    def __reduce__(self) -> tuple[object, ...]:
        return (Dislodged, (self.unit, self.attacker_from))


fit_data_classes(Unit)
