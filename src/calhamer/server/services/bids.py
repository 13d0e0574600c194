"""Bids of the DP variants: saving them, checking them, who may read them, and the tally.

Bids are secret: a power's own, and every power's for the gamemaster who sees all
(:func:`may_read_all_bids`), until the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from calhamer import notation
from calhamer.errors import CalhamerError
from calhamer.game import is_order_line, order_lines
from calhamer.position import Phase, Position
from calhamer.server.models import BidSet, GameRow, PhaseRow
from calhamer.server.schemas import MAX_DP
from calhamer.server.services.common import (
    Conflict,
    Invalid,
    NotFound,
    position_of,
    takes_bids,
    variant_of,
)
from calhamer.server.services.games import current_phase, lock_game
from calhamer.server.services.orders import ensure_current, order_sets, split_lines
from calhamer.server.services.seats import own_power
from calhamer.server.views import Viewer
from calhamer.variants import find_variant
from calhamer.variants.dp import (
    DPTerms,
    bid_tally,
    dp_order,
    judge_power_bids,
    tally_report,
    to_bid,
    with_bids,
)


def bid_sets(session: Session, phase: PhaseRow) -> dict[str, BidSet]:
    """Each power's bids for a phase, by power (secret: the gamemaster's, and the bidder's),
    in the order of the powers' names whoever bid last."""
    rows = session.scalars(
        select(BidSet).where(BidSet.game_id == phase.game_id, BidSet.phase == phase.code)
        .order_by(BidSet.power)
    )
    return {b.power: b for b in rows}


def stored_bids(session: Session, game: GameRow, phase: PhaseRow) -> dict[str, list[Any]]:
    """The bids of a movement phase of a DP game, by power, as stored (empty otherwise)."""
    if not takes_bids(game) or not Phase.parse(phase.code).is_movement:
        return {}
    return {p: list(b.bids) for p, b in bid_sets(session, phase).items() if b.bids}


def may_read_all_bids(viewer: Viewer) -> bool:
    """Whether the viewer may read every power's bids and the tallies: the gamemaster who sees
    all (not one who plays), and everyone once the game is over."""
    return viewer.sees_all or viewer.game.status == "finished"


def visible_bids(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, BidSet]:
    """The bids of a phase the viewer may read: their own; every power's for the gamemaster
    who sees all, and for everyone once the game is over."""
    if not takes_bids(viewer.game):
        return {}
    sets = bid_sets(session, phase)
    if may_read_all_bids(viewer):
        return sets
    return {p: o for p, o in sets.items() if p == viewer.power}


# -- saving and checking -----------------------------------------------------------------------


def _bid_phase(session: Session, game: GameRow, phase_code: str) -> tuple[PhaseRow, Position]:
    """The current phase, which must be a movement phase of a DP game (Conflict otherwise)."""
    variant = variant_of(game)
    if variant.bids is None:
        raise Conflict(f"{variant.title} has no bids: only the DP variants take them")
    phase = current_phase(session, game)
    ensure_current(game, phase, phase_code)
    position = position_of(phase)
    if not position.phase.is_movement:
        raise Conflict(f"bids are given only in movement phases, and {phase.code} "
                       f"({position.phase.name}) is not one")
    return phase, position


def bid_lines(bids: Iterable[str | dict[str, Any]]) -> list[str | dict[str, Any]]:
    """Bids as they are stored: lines (split, stripped; blank ones and comments left out)
    and ``{"order": ..., "dp": ...}`` objects."""
    stored: list[str | dict[str, Any]] = []
    for bid in bids:
        if isinstance(bid, str):
            stored += [line.strip() for line in split_lines([bid]) if is_order_line(line)]
        else:
            stored.append(dict(bid))
    return stored


# The amount a bid line starts with, up to a space, a separator or "DP": "3", "3DP", "1e3",
# "0x10", "1.5". Only plain digits make a whole number of DP.
_BID_AMOUNT = re.compile(
    r"\s*(?P<amount>[-+]?[0-9.,][^\s:;=-]*?)(?:D\.?P\.?S?)?(?=[\s:;=-]|$)"
    r"\s*(?:D\.?P\.?S?\b)?\s*[:;=-]?\s*(?P<order>.*?)\s*$",
    re.IGNORECASE,
)


_PLAIN_AMOUNT = re.compile(r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)")


def bid_amount_problem(line: str) -> str | None:
    """What is wrong with the amount a bid line starts with, when it is not written in plain
    digits (``1e3 DP: A Hol H``); None otherwise (plain amounts are judged with the bid).

    Without this the amount would be read up to its first non-digit ("1") and the rest taken
    for the order ("e3 DP: A Hol H"), and the player told about an order they did not write.
    """
    match = _BID_AMOUNT.match(line)
    if match is None:
        return None
    if _PLAIN_AMOUNT.fullmatch(match["amount"]):
        # Plain digits are judged with the bid, unless no allotment could be that large (a
        # number that size is kept as typed but never summed).
        whole = match["amount"].lstrip("+-").replace(",", ".").partition(".")[0]
        if len(whole) <= len(str(MAX_DP)) and int(whole or 0) <= MAX_DP:
            return None
        return (f"{line.strip()}: the amount {match['amount']!r} is more DP than any power "
                f"has; a bid is at most {MAX_DP} DP")
    return (f"{line.strip()}: the amount {match['amount']!r} is not a whole number of DP; "
            f"write it in digits, like \"3 DP: {match['order'] or 'A Hol H'}\"")


def check_bid_list(game: GameRow, phase: PhaseRow, power: str,
                   bids: Sequence[str | dict[str, Any]]) -> tuple[list[str], int, int]:
    """The problems with ``power``'s bids (overspending included), the DP they allocate and
    the power's allotment this phase. Depends only on the public position and these bids."""
    variant = variant_of(game)
    position = position_of(phase)
    rule = variant.bids
    if rule is None or not isinstance(variant, DPTerms) or not position.phase.is_movement:
        return [], 0, 0
    amounts = {i: bid_amount_problem(b) for i, b in enumerate(bids) if isinstance(b, str)}
    try:
        # a bid whose amount is unreadable is void: its problem is the amount, said above
        problems = [p for p in amounts.values() if p is not None]
        problems += rule.check(position, power,
                               [b for i, b in enumerate(bids) if amounts.get(i) is None])
        parsed = [to_bid(power, b) for b in bids]
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    _judged, spent, allotment, why = judge_power_bids(variant, position, power, parsed)
    if why and why not in problems:
        problems.append(why)
    return problems, spent, allotment


def save_bids(
    session: Session,
    *,
    viewer: Viewer,
    phase_code: str,
    bids: list[str | dict[str, Any]],
    now: datetime,
) -> tuple[BidSet, list[str]]:
    """Replace the viewer's bids for the current (movement) phase; return the problems.

    Like orders, bids are stored as given, problems and all (a bad bid is void at
    adjudication, and all of them if the allotment is exceeded); the problems say so now.
    """
    game = lock_game(session, viewer.game.id)
    power = own_power(game, viewer)
    phase, _position = _bid_phase(session, game, phase_code)
    stored = bid_lines(bids)
    problems, _spent, _allotment = check_bid_list(game, phase, power, stored)
    row = bid_sets(session, phase).get(power)
    if row is None:
        row = BidSet(game_id=game.id, phase=phase.code, power=power, bids=stored,
                     updated_at=now)
        session.add(row)
    else:
        row.bids = stored
        row.updated_at = now
    session.flush()
    return row, problems


def bid_items(row: BidSet | None) -> list[str | dict[str, Any]]:
    """The bids of a bid row as stored (lines and objects)."""
    return list(row.bids) if row is not None else []


# -- the gamemaster's tally --------------------------------------------------------------------


def tally(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The gamemaster's tally of a movement phase's bids (``calhamer.variants.dp.bid_tally``):
    every bid and whether it counted, each neutral unit's totals and order. The gamemaster's
    alone (not a seated one's) until the game is over; NotFound for anyone else, and where
    there are no bids."""
    game = viewer.game
    if not takes_bids(game) or not may_read_all_bids(viewer):
        raise NotFound()
    position = position_of(phase)
    if not position.phase.is_movement:
        raise NotFound()
    position = with_bids(position, stored_bids(session, game, phase))
    orders = {p: order_lines(o.lines)
              for p, o in order_sets(session, phase).items()}
    counted = bid_tally(position, orders, game.rules)
    m = position.map
    return {
        "phase": phase.code,
        "adjudicated": phase.results is not None,
        "report": tally_report(position, counted),
        "allotments": dict(counted.allotments),
        "spent": dict(counted.spent),
        "bids": [
            {"power": j.bid.power, "order": j.bid.order, "dp": j.bid.dp,
             "bought": dp_order(m, j.order) if j.order is not None else None,
             "status": j.status, "reason": j.reason}
            for j in counted.bids
        ],
        "units": [
            {"unit": find_variant(game.variant).notation.format_unit(m, u.unit),
             "order": notation.format_order(m, u.order) if u.order is not None else None,
             "bought": u.bought, "why": u.why, "totals": dict(u.totals)}
            for u in counted.units.values()
        ],
    }
