"""A board's calendar: its movement seasons, its winter, how the years step and how often
adjustments come.

The standard board plays Spring and Fall each year, then a Winter of adjustments. A map file
may say otherwise in its ``[calendar]`` table (``docs/maps.md``): Hundred plays one season a
year, "Year", years go five at a time from 1425, and a Winter of adjustments comes after
every second year (years ending in 0). DPjudge says the same in its ``FLOW`` lines
(``NEWYEAR:5``, ``IFYEARDIV:10``).

A phase code is a season letter, a year and a kind: ``Y1425M``, ``Y1425R``, ``W1430A``. The
calendar knows what the letters mean; :class:`calhamer.pieces.Phase` only holds them. This
module imports nothing of calhamer, so that the pieces and the board can both use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calhamer.pieces import Phase

__all__ = ["KIND_NAMES", "SEASON_NAMES", "STANDARD_CALENDAR", "Calendar", "Season"]

# The seasons every board knows, whatever its calendar says (a variant adds Summer, "U").
SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter", "U": "Summer"}
KIND_NAMES = {"M": "Movement", "R": "Retreats", "A": "Adjustments", "X": "Exchange"}


@dataclass(frozen=True, slots=True)
class Season:
    """A season: the letter phase codes write (``S``) and its name (``Spring``)."""

    code: str
    name: str


SPRING = Season("S", "Spring")
FALL = Season("F", "Fall")
WINTER = Season("W", "Winter")


@dataclass(frozen=True)
class Calendar:
    """The seasons a board plays and when it adjusts.

    ``seasons`` are the movement seasons of a year, in order (each followed by its retreats
    when units were dislodged); ``winter`` is the season of the adjustment phase. Years go up
    by ``year_step`` (down, for a negative step: years before Christ). An adjustment phase
    comes after every ``adjust_every``-th year of
    movement, counted from ``first_year``, the year of the game's first movement phase.
    """

    seasons: tuple[Season, ...] = (SPRING, FALL)
    winter: Season = WINTER
    year_step: int = 1
    adjust_every: int = 1
    first_year: int = 1901
    # Worked out once (asked for every phase and every document read):
    # whether the year is the standard one, Spring and Fall, then a Winter, every year (the
    # names may differ): the phases' usual path, which the flow takes quickly;
    standard: bool = field(init=False, repr=False, compare=False)
    # every season letter the calendar declares (its seasons and its winter).
    letters: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        codes = tuple(s.code for s in self.seasons)
        object.__setattr__(self, "standard", codes == ("S", "F") and self.winter.code == "W"
                           and self.year_step == 1 and self.adjust_every == 1)
        object.__setattr__(self, "letters", frozenset((*codes, self.winter.code)))

    @property
    def first_season(self) -> str:
        return self.seasons[0].code

    @property
    def last_season(self) -> str:
        return self.seasons[-1].code

    def next_season(self, code: str) -> str | None:
        """The movement season after ``code`` in the same year; None after the last one."""
        codes = [s.code for s in self.seasons]
        if code not in codes:
            return None
        index = codes.index(code) + 1
        return codes[index] if index < len(codes) else None

    def adjusts_after(self, year: int) -> bool:
        """Whether an adjustment phase follows the last movement season of ``year`` (and so
        whether supply centres change hands after it)."""
        count = (year - self.first_year) // self.year_step + 1
        return count % self.adjust_every == 0

    def past(self, year: int, limit: int) -> bool:
        """Whether ``year`` comes after the year ``limit`` in this calendar's order (later,
        or for years that count down, smaller): how a game's last year is checked."""
        return year < limit if self.year_step < 0 else year > limit

    def season_name(self, code: str) -> str:
        """The name of season ``code``: the calendar's, else the usual one, else the letter."""
        for season in (*self.seasons, self.winter):
            if season.code == code:
                return season.name
        return SEASON_NAMES.get(code, code)

    def phase_name(self, phase: Phase) -> str:
        """``Year 1425 Movement``: a phase named with this calendar's seasons."""
        kind = KIND_NAMES.get(phase.kind, phase.kind)
        return f"{self.season_name(phase.season)} {phase.year} {kind}"


STANDARD_CALENDAR = Calendar()
"""The standard calendar: Spring and Fall, then Winter, every year."""
