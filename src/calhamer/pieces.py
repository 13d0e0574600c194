"""The small values a position is made of: the phase, a unit, a dislodged unit.

They sit below :mod:`calhamer.position` so that the order notation, validation and the
adjudicator can use them without importing the position (which carries its variant).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from calhamer._build import fit_data_classes, mypyc_attr
from calhamer.errors import PhaseError
from calhamer.map import Location, ProvinceId, UnitType

SEASONS = ("S", "F", "W")
SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter", "U": "Summer"}
KIND_NAMES = {"M": "Movement", "R": "Retreats", "A": "Adjustments", "X": "Exchange"}
_PHASE_RE = re.compile(r"^([SFWU])(\d{1,5})([MRAX])$")


@dataclass(frozen=True, slots=True, order=True)
class Phase:
    """A phase code such as ``S1901M``: season, year and kind (Movement, Retreats, Adjustments).

    Variants may add seasons (``U`` for a summer phase) and kinds (``X`` for exchanges).
    """

    year: int
    season: str
    kind: str

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


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
@dataclass(frozen=True, slots=True)
class Unit:
    power: str
    type: UnitType
    loc: Location

    @property
    def count(self) -> int:
        """How many units this entry stands for: 1, or a Superdiplomacy stack's size."""
        return 1


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit that must retreat, and what it may not retreat to."""

    unit: Unit
    attacker_from: ProvinceId | None


fit_data_classes(Phase, Unit, Dislodged)
