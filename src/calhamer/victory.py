"""When a game is over, and how it ended: the victory and draw rule of a variant.

A variant carries one :class:`VictoryRule` (``Variant.victory``); the game keeping a position
asks it whether the game has ended. The standard rule reads the variant's options of the
rules vocabulary (:mod:`calhamer.vocabulary`, ``docs/variants.md``), whose defaults are the
standard game's, so a variant file changes victory without Python:

- **a solo**: a power holds the centres a solo needs: ``solo_centres``, else its own
  ``victory_centers`` from the map file, else the board's (18 of 34 on the standard board,
  103 of 204 in Superdiplomacy, where a major sector counts five; a board with no number,
  like the DP excerpt, has no solo). With ``solo_needs_lead`` it must also hold strictly the
  most centres (godip's count winner: a tie for the lead plays on). Centres are counted as
  :meth:`Position.center_counts` counts them, so weights count.
- **a lead**: with ``lead_margin``, a power also wins holding that many centres more than any
  other, a margin that falls by one a year from ``lead_margin_year`` to one at least
  (Twenty Twenty).
- ``victory_phase``: the phase kind in which a solo or a lead is checked (``any``: every).
- **elimination**: only one great power played is left with a unit or a centre; it wins.
- **the last year** (``last_year``): once a phase of a later year is reached, the game ends,
  ranked by centres (:attr:`GameEnd.ranking`); the powers with the most share the top.
- **a draw**: when the game's year limit has passed (the first phase of a year after the
  limit is reached; the limit is set on the game, not the variant), or when every surviving
  great power has agreed to one (unless ``draw_vote`` is false); the survivors share it.

Minor powers (a DP variant's neutrals, Superdiplomacy's Small Powers, garrisons) never win,
share a draw or keep a game alive; nor do the powers nobody plays (``unplayed``), though
their centres count against a leader's lead. A variant whose rules go further subclasses
:class:`VictoryRule` and sets ``victory`` on its class.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calhamer.position import Position
    from calhamer.variant import Variant

__all__ = ["Ending", "GameEnd", "VictoryRule"]


class Ending(StrEnum):
    """How a game ended. Members are strings, as documents write them."""

    SOLO = "solo"
    ELIMINATION = "elimination"
    DRAW = "draw"
    LAST_YEAR = "last-year"  # the last year was played: ranked by centres


@dataclass(frozen=True)
class GameEnd:
    """The end of a game: how it ended, who shares the result, and why, in words.

    ``winners`` is the solo winner or the last power standing (one power), every power
    sharing a draw, or the powers with the most centres when the last year is over;
    ``eliminated`` the great powers out of the game by then; ``ranking`` (the last year
    only) each power played with its centres, most first.
    """

    ending: Ending
    winners: tuple[str, ...]
    eliminated: tuple[str, ...]
    year: int
    reason: str
    ranking: tuple[tuple[str, int], ...] = ()

    @property
    def winner(self) -> str | None:
        """The one winner of a solo or an elimination, or of a last year with one power
        ahead; None for a draw or a shared top."""
        if self.ending is Ending.DRAW or len(self.winners) != 1:
            return None
        return self.winners[0]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ending": str(self.ending), "winners": list(self.winners),
                               "eliminated": list(self.eliminated), "year": self.year,
                               "reason": self.reason}
        if self.ranking:
            out["ranking"] = [[power, count] for power, count in self.ranking]
        return out


class VictoryRule:
    """The standard game's rule, as the variant's options set it: a solo, a lead, the last
    power standing, the last year, or a draw by year limit or by agreement of the survivors.
    Variants override the methods."""

    def centres_needed(self, position: Position) -> int:
        """The supply centres a solo needs on this board (0: no solo): the variant's
        ``solo_centres``, else the board's ``victory_centers``."""
        chosen = position.variant.solo_centres
        return chosen if chosen is not None else position.map.victory_centers

    def target_of(self, position: Position, power: str) -> int:
        """The centres ``power`` needs for a solo: its own ``victory_centers`` from the map
        where it has one and the variant sets no ``solo_centres``, else
        :meth:`centres_needed`."""
        if position.variant.solo_centres is None:
            own = position.map.power(power).victory_centers
            if own is not None:
                return own
        return self.centres_needed(position)

    def contenders(self, position: Position) -> list[str]:
        """The great powers played that are still in the game (a unit or a centre), in the
        map's order."""
        m = position.map
        unplayed = position.variant.unplayed
        return [p for p in position.powers() if not m.is_minor(p) and p not in unplayed]

    def checks(self, position: Position) -> bool:
        """Whether victory is checked in ``position``'s phase (``victory_phase``)."""
        kind = position.variant.victory_phase
        return kind == "any" or position.phase.kind == kind

    def lead_needed(self, position: Position) -> int:
        """The lead over every other power that wins in ``position``'s year (0: none)."""
        variant = position.variant
        margin = variant.lead_margin
        start = variant.lead_margin_year
        if not margin or start is None:
            return margin
        return max(1, margin - max(0, position.phase.year - start))

    def solo(self, position: Position) -> str | None:
        """The great power that has won by its centres (a solo or a lead), if any."""
        if not self.checks(position):
            return None
        m = position.map
        variant = position.variant
        counts = position.center_counts()
        margin = self.lead_needed(position)
        leader, lead = None, 0
        if variant.solo_needs_lead or margin:
            leader, lead = _leader({p: c for p, c in counts.items() if not m.is_minor(p)})
        own = variant.solo_centres is None and m.own_targets  # a power's own target
        need = self.centres_needed(position)
        for power, count in counts.items():
            if own:
                need = self.target_of(position, power)
            if (need and count >= need and not m.is_minor(power)
                    and power not in variant.unplayed
                    and (not variant.solo_needs_lead or power == leader)):
                return power
        if margin and leader is not None and leader not in variant.unplayed and lead >= margin:
            return leader
        return None

    def counts_alone(self, position: Position) -> bool:
        """Whether a solo is the board's one number of centres and nothing else (no option of
        the vocabulary changes it and no power has a target of its own): the question a
        writer of documents asks before counting the lists it wrote instead."""
        return _counts_alone(position.variant) and not position.map.own_targets

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
        for a draw; when every survivor has, they share one (if the variant's ``draw_vote``
        allows draws). ``elimination`` false leaves out the last-power-standing ending (a
        board set up with one power, which ended nothing).
        """
        m = position.map
        variant = position.variant
        alive = self.contenders(position)
        out = tuple(p for p in m.power_codes
                    if not m.is_minor(p) and p not in alive and p not in variant.unplayed)
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
        if variant.draw_vote and agreed and all(p in agreed for p in alive):
            return GameEnd(Ending.DRAW, tuple(alive), out, year,
                           "the surviving powers agreed to a draw")
        last = variant.last_year
        if last is not None and m.calendar.past(year, last):
            return self._ranked(position, alive, out, last)
        if max_year is not None and m.calendar.past(year, max_year):
            return GameEnd(Ending.DRAW, tuple(alive), out, year,
                           f"the year limit ({max_year}) was reached")
        return None

    def _ranked(self, position: Position, alive: list[str], out: tuple[str, ...],
                last: int) -> GameEnd:
        """The end after the last year: the powers played ranked by centres (the map's order
        among equals), the survivors with the most sharing the top."""
        m = position.map
        counts = position.center_counts()
        played = [p for p in m.power_codes
                  if not m.is_minor(p) and p not in position.variant.unplayed]
        ranking = tuple(sorted(((p, counts.get(p, 0)) for p in played),
                               key=lambda pc: -pc[1]))
        top = max((counts.get(p, 0) for p in alive), default=0)
        winners = tuple(p for p in alive if counts.get(p, 0) == top)
        names = " and ".join(m.power(p).name for p in winners) or "nobody"
        verb = "leads" if len(winners) == 1 else "share the lead"
        return GameEnd(Ending.LAST_YEAR, winners, out, position.phase.year,
                       f"the last year ({last}) is over: {names} {verb} with {top} centres",
                       ranking)


def _leader(counts: dict[str, int]) -> tuple[str | None, int]:
    """The one power with the most centres (None on a tie) and its lead over the next."""
    ordered = sorted(counts.values(), reverse=True)
    if not ordered or (len(ordered) > 1 and ordered[0] == ordered[1]):
        return None, 0
    leader = next(p for p, c in counts.items() if c == ordered[0])
    return leader, ordered[0] - (ordered[1] if len(ordered) > 1 else 0)


def _counts_alone(variant: Variant) -> bool:
    return (variant.solo_centres is None and not variant.solo_needs_lead
            and not variant.lead_margin and variant.victory_phase == "any"
            and not variant.unplayed)


STANDARD_VICTORY = VictoryRule()
"""The rule every shipped variant plays by."""
