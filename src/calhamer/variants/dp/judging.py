"""What DP a player has and what they buy: each bid judged by itself, then a power's bids
against its allotment.

:class:`DPTerms` is the part of a DP variant that bidding depends on (the allotment and the
order kinds DP may buy); :class:`calhamer.variants.dp.DPVariant` adds the hooks. A bid is
void for a bad amount (DP are whole numbers, at least 1), an illegal order, an order for a
unit that is not neutral or of a kind the variant does not sell; overspending voids all of a
power's bids. :func:`check_bids` says so at submission time; whether the Attacking &
Allocating rule ignores a bid depends on the orders and is decided in
:mod:`calhamer.variants.dp.tally`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from calhamer.errors import CalhamerError, OrderError
from calhamer.map import Location
from calhamer.options import movement_candidates
from calhamer.orders import AnyOrder, Convoy, Hold, Move, Order, Support
from calhamer.position import Position
from calhamer.validation import Illegal
from calhamer.variant import RuleModule

from .bids import Bid, to_bid
from .neutrals import is_stationary, minor_powers, neutral_units

ORDER_KINDS = ("hold", "move", "support", "convoy")


class DPTerms(RuleModule):
    """A variant whose players bid Diplomacy Points: how many DP each has every movement
    phase, and which order kinds DP buy. Subclasses give the class attributes."""

    dp_per_phase: ClassVar[int | None]  # a flat allotment for every player, if set
    dp_per_center: ClassVar[int]  # otherwise: DP per owned supply centre ...
    dp_cap: ClassVar[int | None]  # ... at most this many per phase
    buyable: ClassVar[frozenset[str] | None]  # order kinds DP may buy (None: all)

    def allotment(self, position: Position, power: str) -> int:
        """The DP ``power`` may allocate in ``position``'s movement phase (use it or lose it)."""
        m = position.map
        if m.is_minor(power) or power not in position.powers():
            return 0
        if self.dp_per_phase is not None:
            return self.dp_per_phase
        dp = self.dp_per_center * len(position.centers_of(power))
        return dp if self.dp_cap is None else min(dp, self.dp_cap)


def dp_terms(position: Position) -> DPTerms:
    """The variant of ``position``, which must be a DP variant."""
    variant = position.variant
    if not isinstance(variant, DPTerms):
        raise CalhamerError(f"{variant.title} has no Diplomacy Points")
    return variant


# -- one bid ---------------------------------------------------------------------------------------

COUNTED, VOID, IGNORED = "counted", "void", "ignored"


@dataclass
class JudgedBid:
    """A bid as the gamemaster sees it: the order it buys, and whether it counted."""

    bid: Bid
    dp: int = 0  # the whole number of DP, 0 when the amount is not one
    order: Order | None = None  # the order bought, checked (coasts settled), if legal
    unit: int = -1  # the province of the neutral unit it is for
    status: str = COUNTED
    reason: str = ""


def _whole(dp: object) -> int | None:
    if isinstance(dp, bool):
        return None
    if isinstance(dp, int):
        return dp
    if isinstance(dp, float) and dp.is_integer():
        return int(dp)
    return None


def _order_kind(order: Order) -> str:
    return {Hold: "hold", Move: "move", Support: "support", Convoy: "convoy"}[type(order)]


def judge_bid(variant: DPTerms, position: Position, bid: Bid) -> JudgedBid:
    """Check one bid by itself: its amount, and the order it buys (legal, for a neutral unit,
    of a kind the variant lets DP buy)."""
    m = position.map
    judged = JudgedBid(bid)
    dp = _whole(bid.dp)
    if bid.dp is None:
        return _void(judged, 'it gives no DP: write the amount first, like "1 DP: A KAS H"')
    if dp is None:
        return _void(judged, f"DP are whole numbers, not {bid.dp!r}")
    if dp < 1:
        return _void(judged, "a bid needs at least 1 DP")
    judged.dp = dp
    try:
        parsed = variant.notation.parse_order(m, bid.order, phase_kind="M", position=position,
                                              power=None)
    except OrderError as exc:
        return _void(judged, str(exc))
    order = parsed.order
    if not isinstance(order, Order):
        return _void(judged, "only hold, move, support and convoy orders can be bought")
    if m.province_of(order.loc) not in position.units:
        # Said alike on an open board and under fog, where the board is what the bidder
        # knows (bidding_position): a bid for a unit no longer there is void.
        return _void(judged, f"there is no neutral unit in {m.describe(m.province_of(order.loc))}")
    try:
        checked = variant.check_movement_order(position, None, order)
    except Illegal as exc:
        return _void(judged, str(exc))
    province = m.province_of(checked.loc)
    unit = position.units[province]
    if not m.is_minor(unit.power):
        return _void(
            judged,
            f"{variant.notation.format_unit(m, unit)} is {unit.power}'s, not a neutral unit: "
            "DP buy orders for neutral units only",
        )
    kind = _order_kind(checked)
    if variant.buyable is not None and kind not in variant.buyable:
        allowed = " and ".join(k for k in ORDER_KINDS if k in variant.buyable)
        return _void(judged, f"in {variant.title} DP buy only {allowed} orders, not a {kind}")
    judged.order, judged.unit = checked, province
    return judged


def _void(judged: JudgedBid, reason: str) -> JudgedBid:
    judged.status, judged.reason = VOID, reason
    return judged


# -- a power's bids --------------------------------------------------------------------------------


def judge_power_bids(
    variant: DPTerms, position: Position, power: str, bids: Sequence[Bid]
) -> tuple[list[JudgedBid], int, int, str]:
    """Judge ``power``'s bids: each one, then the total against the allotment.

    Returns the judged bids, the DP allocated (every whole-numbered bid counts, even one for an
    illegal order), the allotment, and the reason all the bids are void ("" if they are not).
    """
    m = position.map
    judged = [judge_bid(variant, position, bid) for bid in bids]
    spent = sum(j.dp for j in judged)
    if m.is_minor(power) or power not in m.power_codes:
        allot, why = 0, f"{power} is not a player's power: only players bid"
    else:
        allot = variant.allotment(position, power)
        why = ""
        if spent > allot:
            name = m.power(power).name
            why = (
                f"{name} allocated {spent} DP but has {allot} DP in {position.phase.code}, "
                "so all its bids are void"
            )
    if why:
        for j in judged:
            if j.status == COUNTED:
                _void(j, why)
    return judged, spent, allot, why


def bidding_position(position: Position, power: str) -> Position:
    """The board ``power``'s bids are checked against when they are given.

    On an open board, the board. When the variant hides the board (fog of war,
    composition.md "Fog and neutrals"), what the power knows (its known position) with the
    minor powers' starting units, which are printed on the board, wherever the power has no
    unit of its own: a bid is checked against that, so that checking it tells nothing of the
    true board (whether a neutral unit is still there, or whose unit stands there now). A
    bid for a unit that is no longer there is void when the phase is adjudicated, which
    judges the bids on the true board.
    """
    variant = position.variant
    policy = variant.visibility
    if not policy.hidden_information:
        return position
    m = position.map
    known = policy.known_position(position, power)
    units = dict(known.units)
    for code, minor in minor_powers(m).items():
        for spec in minor.units:
            start = variant.notation.parse_unit(m, spec, code)
            units.setdefault(m.province_of(start.loc), start)
    return known.replace(units=units)


def check_bids(
    position: Position, power: str, bids: Sequence[Mapping[str, object] | str | Bid]
) -> list[str]:
    """Problems with ``power``'s bids for ``position``'s phase, as sentences (empty: all good).

    For the web and command line at submission time. Each bid is judged by itself (amount,
    legality, a neutral unit, an order kind DP may buy), then the total against the
    allotment. Whether the Attacking & Allocating rule voids a bid depends on the orders, so
    that is decided only at adjudication.
    """
    variant = dp_terms(position)
    m = position.map
    code = m.find_power(power) or power.upper()
    if not position.phase.is_movement:
        return [f"bids are given only in movement phases, and {position.phase.code} is not one"]
    found = [to_bid(code, item) for item in bids]
    judged, _spent, _allot, why = judge_power_bids(
        variant, bidding_position(position, code), code, found)
    problems = [f"{j.bid.text}: {j.reason}" for j in judged if j.status == VOID and j.reason != why]
    if why:
        problems.append(why)
    return problems


_KIND_OF = {Hold: "hold", Move: "move", Support: "support", Convoy: "convoy"}


def bid_options(position: Position, power: str) -> tuple[int, dict[Location, list[AnyOrder]]]:
    """What ``power`` may bid for in a movement phase: its allotment, and the orders DP may
    buy for each neutral unit by the unit's location (a stationary unit does not move: its
    sortie would fail; only the kinds the variant sells). ``(0, {})`` in other phases."""
    variant = dp_terms(position)
    if not position.phase.is_movement:
        return 0, {}
    m = position.map
    code = m.find_power(power) or power
    allotment = variant.allotment(position, code)
    position = bidding_position(position, code)  # under fog, what the bidder knows
    found: dict[Location, list[AnyOrder]] = {}
    for minor in sorted({u.power for u in neutral_units(position).values()}):
        for loc, orders in movement_candidates(position, position, minor).items():
            unit = position.unit_at(loc)
            stationary = unit is not None and is_stationary(m, unit)
            kept: list[AnyOrder] = [
                o for o in orders
                if type(o) in _KIND_OF
                and not (stationary and isinstance(o, Move | Convoy))
                and (variant.buyable is None or _KIND_OF[type(o)] in variant.buyable)]
            if kept:
                found[loc] = kept
    names = m.loc_names
    return allotment, {loc: found[loc] for loc in sorted(found, key=names.__getitem__)}
