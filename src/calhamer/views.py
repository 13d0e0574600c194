"""What each power may see: the machinery for hidden information.

An adjudication (:class:`~calhamer.results.PhaseOutcome`) is the whole truth. A
:class:`PowerView` is what one power is allowed to learn of it: the order results it may read,
the dislodgements it may know of, the position that follows as that power knows it, and any
further facts in words (:class:`Note`: an espionage report, a centre chart). Reports, the phase
JSON and the web judge take a view wherever they would take the truth, so a player is only ever
shown a view.

The variant decides, through its visibility policy (:class:`Visibility`, carried as
``Variant.visibility``): in the standard game a power's view is everything there is, after
adjudication. A variant that hides information (Kriegsplomacy) builds its views from the
position, the orders and the outcome, and also says what a power knows *before* adjudicating
(:func:`known_position`), which is what its orders are read and checked against, so that no
error message tells a player more than the rules do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from calhamer.errors import CalhamerError
from calhamer.pieces import Dislodged, Phase, Unit
from calhamer.results import OrderResult, PhaseOutcome, Resolution, Result

if TYPE_CHECKING:
    from calhamer.map import ProvinceId
    from calhamer.position import Position

# A result a power is not told (whether its support was given, in Kriegsplomacy).
UNKNOWN = Result.UNKNOWN

# The key of ``Position.extra`` under which a power's known position (:func:`known_position`)
# carries every power's centre total as that power knows it (None: a total it is not told).
# A known position holds only the power's own centres, so the totals cannot be counted from
# it; the variant that made it writes them here.
KNOWN_TOTALS = "known_centre_totals"


@dataclass(frozen=True)
class Note:
    """Facts a view tells in words: a heading and one line per fact."""

    title: str
    lines: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "lines": list(self.lines)}


@dataclass
class PowerView:
    """What ``power`` may know after one phase (``power`` None: the gamemaster, who sees all).

    ``before`` and ``next`` are the phase adjudicated and the one that follows, each holding
    only what this power may know of them; ``results`` are the order results it may read, by
    power; ``complete`` says whether the view is the whole truth.
    """

    power: str | None
    before: Position
    next: Position
    results: dict[str, list[OrderResult]]
    dislodged: tuple[Dislodged, ...] = ()
    notes: tuple[Note, ...] = ()
    complete: bool = True
    counts: dict[str, int] | None = field(default=None)  # centre counts it is told, if any
    # The units dislodged and destroyed at once (no retreat: a DP variant's neutrals) that
    # it may know of.
    destroyed: tuple[Unit, ...] = ()

    @property
    def phase(self) -> Phase:
        return self.before.phase

    def centre_totals(self) -> dict[str, int | None]:
        """Every power's centre total on the board of this phase, as this power knows it once
        the phase is told: the counts the view tells (a centre chart), else those it knew of
        the board (:func:`centre_totals`); None for a total it is not told."""
        if self.counts is not None:
            return {p: self.counts.get(p) for p in _power_order(self.before, self.counts)}
        return centre_totals(self.before)


def _power_order(position: Position, keyed: Mapping[str, object]) -> list[str]:
    codes = position.map.power_codes
    return [*codes, *sorted(p for p in keyed if p not in codes)]


def _power_code(position: Position, power: str) -> str:
    code = position.map.find_power(power)
    if code is None or position.map.is_minor(code):
        known = ", ".join(position.map.power_codes)
        raise CalhamerError(f"{power!r} is not a power of this game; the powers are {known}")
    return code


# -- the policy ---------------------------------------------------------------------------------


class Visibility:
    """What each power may know: a variant's visibility policy (``Variant.visibility``).

    The standard game shows everyone everything. Kriegsplomacy overrides every part (fog of
    war); Superdiplomacy's views add the battles and dice (:meth:`power_view`).
    """

    # Whether powers see less than the whole truth: phase documents then carry each power's
    # view, reports and pictures for a power are made from its view, and the web judge shows a
    # player only its own.
    hidden_information: bool = False

    def known_position(self, position: Position, power: str) -> Position:
        """What ``power`` (a power's code) knows of ``position`` before adjudication, which is
        what its orders are read and checked against: all of it by default."""
        return position

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        """What ``power`` may see of ``outcome`` (None: the gamemaster): here, everything."""
        return full_view(outcome, power)

    def no_unit_message(
        self, position: Position, power: str | None, province: ProvinceId, *,
        dislodged: bool = False,
    ) -> str:
        """Why ``power`` may not order the (dislodged) unit in ``province``: it has none there.

        The standard message says whether the unit is someone else's; a policy that hides
        foreign units says the same whether one stands there or not.
        """
        m = position.map
        where = m.describe(province)
        if dislodged:
            if any(m.province_of(d.unit.loc) == province for d in position.dislodged):
                return f"the dislodged unit in {where} is not yours"
            return f"no dislodged unit in {where} has to retreat"
        if province in position.units:
            return f"the unit in {where} is not yours"
        return f"there is no unit in {where}"

    def carried_extra(
        self,
        before: Position,
        after: Position,
        resolution: Resolution | None,
        extra: Mapping[str, object],
    ) -> Mapping[str, object]:
        """The variant fields (``Position.extra``) of the phase after ``before``, given as
        ``extra``, with what its powers are still to be told of this phase.

        Every phase handler asks this while it adjudicates, before it builds the
        :class:`~calhamer.results.PhaseOutcome`, so an outcome is never changed afterwards.
        ``after`` is the board the phase leaves (its dislodged units), ``resolution`` how a
        movement phase was resolved (None for other phases). The
        standard game tells everything at once and keeps ``extra`` as it is; Kriegsplomacy
        remembers a movement phase's spies for the retreat phase, whose news they get.
        """
        return extra


STANDARD_VISIBILITY = Visibility()
"""The standard game's visibility policy: everyone sees everything."""


def carry_forward(
    before: Position, resolution: Resolution | None, after: Position, nxt: Position
) -> tuple[Position, Position]:
    """``after`` and ``nxt`` (the board a phase leaves and the phase to be played next) with
    the variant fields its visibility policy carries forward (:meth:`Visibility.carried_extra`).

    Only the next phase changes (and ``after`` with it when it is that phase): the board the
    phase leaves is what it is. Every phase handler calls this before building its outcome.
    """
    policy = before.variant.visibility
    if policy is STANDARD_VISIBILITY:
        return after, nxt  # the standard policy keeps the fields as they are (no call a phase)
    extra = policy.carried_extra(before, after, resolution, nxt.extra)
    if extra is nxt.extra:
        return after, nxt
    new = nxt.replace(extra=extra)
    return (new if after is nxt else after), new


# -- the views ----------------------------------------------------------------------------------


def full_view(outcome: PhaseOutcome, power: str | None) -> PowerView:
    """Everything there is to know of ``outcome``: every power's view in the standard game."""
    return PowerView(
        power,
        outcome.before,
        outcome.next,
        dict(outcome.results),
        tuple(outcome.dislodged),
        (),
        True,
        outcome.next.center_counts(),
        tuple(outcome.destroyed_units()),
    )


def power_view(outcome: PhaseOutcome, power: str) -> PowerView:
    """What ``power`` may see of an adjudicated phase.

    ``outcome`` must come from :func:`calhamer.phases.adjudicate` (a variant with hidden
    information reads the adjudicator's decisions from it); an outcome rebuilt from a game
    file has none, so use :func:`game_views` for recorded phases.
    """
    variant = outcome.before.variant
    return variant.visibility.power_view(outcome, _power_code(outcome.before, power))


def gamemaster_view(outcome: PhaseOutcome) -> PowerView:
    """The gamemaster's view: the whole truth, in the variant's notation."""
    return outcome.before.variant.visibility.power_view(outcome, None)


def viewers(outcome: PhaseOutcome) -> list[str]:
    """The powers that receive a view of ``outcome``: those in the game before or after it."""
    alive = set(outcome.before.powers()) | set(outcome.next.powers())
    return [p for p in outcome.before.map.power_codes if p in alive]


def power_views(outcome: PhaseOutcome) -> dict[str, PowerView]:
    """Every power's view of an adjudicated phase, in the map's order of powers."""
    policy = outcome.before.variant.visibility
    return {p: policy.power_view(outcome, p) for p in viewers(outcome)}


def hides_information(position: Position) -> bool:
    """Whether the variant of ``position`` shows the powers less than the whole truth."""
    return bool(position.variant.visibility.hidden_information)


def known_position(position: Position, power: str | None) -> Position:
    """What ``power`` knows of ``position`` before it is adjudicated (None: the truth)."""
    if power is None:
        return position
    return position.variant.visibility.known_position(position, _power_code(position, power))


def is_known_position(position: Position) -> bool:
    """Whether ``position`` is one power's partial knowledge (made by a variant's
    ``known_position`` that hides something) rather than a whole board."""
    return isinstance(position.extra.get(KNOWN_TOTALS), Mapping)


def centre_totals(position: Position) -> dict[str, int | None]:
    """Every power's supply-centre total as whoever holds ``position`` may know it.

    For a whole board, the counts themselves. For a power's known position, the totals its
    variant's rules let that power know, None for each one it is not told, never a count
    made from the centres the known position happens to hold (those are only its own).
    """
    known = position.extra.get(KNOWN_TOTALS)
    if isinstance(known, Mapping):
        return {p: _total(known.get(p)) for p in _power_order(position, known)}
    return dict(position.center_counts())


def _total(value: object) -> int | None:
    return value if isinstance(value, int) else None
