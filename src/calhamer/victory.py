"""When a game is over, and how it ended: the victory and draw rule of a variant.

A variant carries one :class:`VictoryRule` (``Variant.victory``); the game keeping a position
asks it whether the game has ended. It decides three things:

- **a solo**: a power holds the board's victory number of supply centres
  (``victory_centers`` in the map file: 18 of 34 on the standard board and every variant
  played on it, 103 of 204 in Superdiplomacy, where a major sector counts five; a board with
  no number, like the DP excerpt, has no solo). Centres are counted as
  :meth:`Position.center_counts` counts them, so weights count.
- **elimination**: only one great power is left with a unit or a centre; it wins.
- **a draw**: when the game's year limit has passed (the first phase of a year after the
  limit is reached; the limit is set on the game, not the variant), or when every surviving
  great power has agreed to one; the draw is shared by the survivors.

Minor powers (a DP variant's neutrals, Superdiplomacy's Small Powers) never win, share a draw
or keep a game alive. A variant whose rules differ subclasses :class:`VictoryRule` and sets
``victory`` on its class; every shipped variant plays by this one, the threshold coming from
its map.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calhamer.position import Position

__all__ = ["Ending", "GameEnd", "VictoryRule"]


class Ending(StrEnum):
    """How a game ended. Members are strings, as documents write them."""

    SOLO = "solo"
    ELIMINATION = "elimination"
    DRAW = "draw"


@dataclass(frozen=True)
class GameEnd:
    """The end of a game: how it ended, who shares the result, and why, in words.

    ``winners`` is the solo winner or the last power standing (one power), or every power
    sharing a draw; ``eliminated`` the great powers out of the game by then.
    """

    ending: Ending
    winners: tuple[str, ...]
    eliminated: tuple[str, ...]
    year: int
    reason: str

    @property
    def winner(self) -> str | None:
        """The one winner of a solo or an elimination; None for a draw."""
        return self.winners[0] if self.ending is not Ending.DRAW else None

    def to_json(self) -> dict[str, Any]:
        return {"ending": str(self.ending), "winners": list(self.winners),
                "eliminated": list(self.eliminated), "year": self.year, "reason": self.reason}


class VictoryRule:
    """The standard game's rule: a solo at the board's victory number, the last power standing,
    or a draw by year limit or by agreement of the survivors. Variants override the methods."""

    def centres_needed(self, position: Position) -> int:
        """The supply centres a solo needs on this board (0: no solo)."""
        return position.map.victory_centers

    def contenders(self, position: Position) -> list[str]:
        """The great powers still in the game (a unit or a centre), in the map's order."""
        m = position.map
        return [p for p in position.powers() if not m.is_minor(p)]

    def solo(self, position: Position) -> str | None:
        """The great power holding the centres a solo needs, if any."""
        need = self.centres_needed(position)
        if not need:
            return None
        m = position.map
        for power, count in position.center_counts().items():
            if count >= need and not m.is_minor(power):
                return power
        return None

    def result(
        self,
        position: Position,
        *,
        max_year: int | None = None,
        draw_agreed_by: Iterable[str] = (),
        elimination: bool = True,
    ) -> GameEnd | None:
        """How the game stands in ``position``: its end, or None while it goes on.

        ``max_year`` is the game's last year (None: no limit): once a phase of a later year
        is reached the survivors share a draw. ``draw_agreed_by`` are the powers that voted
        for a draw; when every survivor has, they share one. ``elimination`` false leaves out
        the last-power-standing ending (a board set up with one power, which ended nothing).
        """
        m = position.map
        alive = self.contenders(position)
        out = tuple(p for p in m.power_codes if not m.is_minor(p) and p not in alive)
        year = position.phase.year
        winner = self.solo(position)
        if winner is not None:
            count = position.center_counts()[winner]
            return GameEnd(Ending.SOLO, (winner,), out, year,
                           f"{m.power(winner).name} has won with {count} centres")
        if elimination and len(alive) == 1:
            return GameEnd(Ending.ELIMINATION, (alive[0],), out, year,
                           f"{m.power(alive[0]).name} is the last power standing")
        if elimination and not alive:  # a board with no great power left: nobody won
            return GameEnd(Ending.DRAW, (), out, year, "no great power is left")
        agreed = set(draw_agreed_by)
        if agreed and all(p in agreed for p in alive):
            return GameEnd(Ending.DRAW, tuple(alive), out, year,
                           "the surviving powers agreed to a draw")
        if max_year is not None and year > max_year:
            return GameEnd(Ending.DRAW, tuple(alive), out, year,
                           f"the year limit ({max_year}) was reached")
        return None


STANDARD_VICTORY = VictoryRule()
"""The rule every shipped variant plays by."""
