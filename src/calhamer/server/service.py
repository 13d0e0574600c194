"""What the judge does, as plain functions over a database session (the routes call these).

Every function that acts for someone takes a :class:`~calhamer.server.views.Viewer`, made by
:func:`~calhamer.server.views.viewer_for`, which is the only place that decides who may see a
game. Nothing here adjudicates: the library's :class:`calhamer.game.Game` does, and this module
stores what it returns.

Locking: a change to a game's current phase (orders, ready marks, gamemaster actions) first
locks the game's row (:func:`lock_game`); adjudication holds that row's lock for its whole
transaction. So an order saved and acknowledged is either in the phase that gets adjudicated
or refused because that phase is over, never silently dropped. Ready marks are set under the
row's exclusive lock, one transaction at a time: each reads the marks the others committed
before it, so the last power to get ready sees every mark and asks for adjudication, however
many arrive at once (with a shared lock, under PostgreSQL's READ COMMITTED, simultaneous
marks could each miss the others' and leave an untimed game waiting forever).
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.orm import Session

from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json, position_to_json, view_to_json
from calhamer.game import Game as LibraryGame
from calhamer.game import (
    OrderCheck,
    PhaseRecord,
    check_orders,
    game_outcome,
    game_view,
    is_order_line,
)
from calhamer.phases import buildable_centres
from calhamer.position import Phase, Position
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.rules import find_rules
from calhamer.server.models import (
    BidSet,
    Event,
    Game,
    Message,
    OrderSet,
    PhaseRow,
    PowerViewRow,
    Seat,
    User,
)
from calhamer.server.views import Viewer, sees_everything
from calhamer.variants import Variant, all_variants, find_variant
from calhamer.views import (
    PowerView,
    gamemaster_view,
    known_position,
    power_view,
)

PRESS_SETTINGS = ("none", "public", "full")
GM = "GM"


class NotFound(Exception):
    """Nonexistent or hidden: both answer the same (404, one body)."""


class Conflict(Exception):
    """The request is understood but not possible now (409), e.g. the phase is over."""


class Invalid(Exception):
    """The request is understood but its content is wrong (400)."""


# -- positions --------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _position_from_text(text: str) -> Position:
    position, _orders, _rules = position_from_json(json.loads(text))
    return position


def position_of(row: PhaseRow) -> Position:
    """The position at the start of a phase (parsed once per distinct document)."""
    return _position_from_text(json.dumps(row.position, sort_keys=True))


def required_powers(
    position: Position, rules: str, previous: Iterable[str] | None = None
) -> list[str]:
    """The powers that have something to order in this phase (they are waited for).

    Where the variant hides information, who has something to do is itself hidden (a retreat
    phase waited for by one power tells everyone that power was dislodged), so every power
    in the game is waited for in every phase: those alive at the start of each game year (the
    winter's centre chart has just told everyone who they are), or at the start of the game.
    ``previous`` is the list of the phase before.
    """
    phase = position.phase
    if find_variant(position.variant).hidden_information:
        if previous is not None and not (phase.is_movement and phase.season == "S"):
            return list(previous)
        return position.powers()
    if phase.is_movement:
        needed = {u.power for u in position.units.values()}
    elif phase.is_retreat:
        needed = {d.unit.power for d in position.dislodged}
    else:
        edition = find_rules(rules)
        needed = {
            p for p, n in position.adjustments().items()
            if n < 0 or (n > 0 and buildable_centres(position, p, edition))
        }
    return [p for p in position.map.power_codes if p in needed]


def deadline_minutes(game: Game, code: str) -> int:
    kind = Phase.parse(code).kind
    if kind == "R":
        return game.retreat_minutes
    if kind == "A":
        return game.adjustment_minutes
    return game.movement_minutes


def next_deadline(game: Game, code: str, now: datetime) -> datetime | None:
    minutes = deadline_minutes(game, code)
    return now + timedelta(minutes=minutes) if minutes > 0 else None


# -- variants ---------------------------------------------------------------------------------


def unservable_reason(variant: str) -> str | None:
    """Why the web judge cannot run this variant, or None when it can (every known one)."""
    try:
        find_variant(variant)
    except CalhamerError as exc:
        return str(exc)
    return None


def servable_variants() -> list[tuple[str, str]]:
    """(name, title) of every variant the web judge can run."""
    return [(v.name, v.title) for v in all_variants() if unservable_reason(v.name) is None]


def variant_of(game: Game) -> Variant:
    return find_variant(game.variant)


def hides(game: Game) -> bool:
    """Whether the game's variant shows each player only their own view (Kriegsplomacy)."""
    return bool(variant_of(game).hidden_information)


def takes_bids(game: Game) -> bool:
    """Whether the game's players bid Diplomacy Points (the DP variants)."""
    return bool(variant_of(game).takes_bids)


def public_position(phase: PhaseRow) -> dict[str, Any]:
    """A phase's position as players may see it: a secret dice seed stays out until the phase
    has been adjudicated (its published commitment, ``seed_hash``, stays in)."""
    doc = dict(phase.position)
    if phase.results is None:
        doc.pop("seed", None)
    return doc


def known_to(viewer: Viewer, phase: PhaseRow) -> Position:
    """The position at the start of ``phase`` as the viewer knows it: the truth, or in a game
    that hides information, a player's own units, dislodged units and centres only."""
    position = position_of(phase)
    if sees_everything(viewer):
        return position
    assert viewer.power is not None
    return known_position(position, viewer.power)


def position_document(viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The current position as a phase document (without orders), as the viewer may see it."""
    if sees_everything(viewer):
        return public_position(phase)
    return position_to_json(known_to(viewer, phase), viewer.game.rules)


def board_report(viewer: Viewer, phase: PhaseRow) -> str:
    """The position as text, as the viewer may see it (a player of a game that hides
    information: their own units and centres)."""
    position = position_of(phase)
    if sees_everything(viewer):
        return position_report(position)
    assert viewer.power is not None
    return power_position_report(position, viewer.power)


# -- games ------------------------------------------------------------------------------------


def new_token() -> str:
    return secrets.token_urlsafe(24)


def create_game(
    session: Session,
    *,
    gm: User,
    name: str,
    variant: str,
    rules: str | None,
    press: str,
    movement_minutes: int,
    retreat_minutes: int,
    adjustment_minutes: int,
    now: datetime,
) -> Game:
    problem = unservable_reason(variant)
    if problem:
        raise Invalid(problem)
    try:
        new_game = LibraryGame.new(variant, rules or None)
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if press not in PRESS_SETTINGS:
        raise Invalid(f"press must be one of {', '.join(PRESS_SETTINGS)}")
    record = new_game.history[-1]
    title = find_variant(new_game.variant).title
    game = Game(
        id=secrets.token_urlsafe(9)[:12],
        name=name.strip() or f"{title} game",
        variant=new_game.variant,
        rules=new_game.rules,
        press=press,
        movement_minutes=movement_minutes,
        retreat_minutes=retreat_minutes,
        adjustment_minutes=adjustment_minutes,
        status="active",
        gm_id=gm.id,
        phase_index=0,
        process_requested=False,
        created_at=now,
    )
    game.deadline = next_deadline(game, record.phase, now)
    session.add(game)
    session.flush()  # the game's row first: the rows below refer to it
    position = new_game.current
    for power in position.map.power_codes:
        session.add(Seat(game_id=game.id, power=power, invite_token=new_token()))
    session.add(PhaseRow(
        game_id=game.id, index=0, code=record.phase, position=record.position,
        required=required_powers(position, game.rules), started_at=now,
    ))
    log(session, game.id, now, "created", f"{title}, rules {game.rules}, press {press}")
    session.flush()
    return game


def log(session: Session, game_id: str, now: datetime, kind: str, detail: str) -> None:
    session.add(Event(game_id=game_id, at=now, kind=kind, detail=detail))


def lock_game(session: Session, game_id: str, *, exclusive: bool = False) -> Game:
    """Read a game's row and lock it until the transaction ends.

    ``exclusive=False`` (saving orders) shares the lock with other savers but waits for, and
    blocks, an adjudication; ``exclusive=True`` is for ready marks and gamemaster actions,
    which decide from what the others have committed. On SQLite the writing transaction
    already holds the database's write lock.
    """
    statement = select(Game).where(Game.id == game_id).execution_options(populate_existing=True)
    statement = statement.with_for_update(read=not exclusive)
    game = session.scalars(statement).first()
    if game is None:
        raise NotFound()
    return game


def games_of(session: Session, user: User) -> list[Game]:
    """The games ``user`` runs or plays in, newest first."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    statement = select(Game).where(or_(Game.gm_id == user.id, Game.id.in_(seated)))
    return list(session.scalars(statement.order_by(Game.created_at.desc(), Game.id)))


def current_phase(session: Session, game: Game) -> PhaseRow:
    row = session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.index == game.phase_index)
    ).first()
    if row is None:  # the schema guarantees it; a broken database is a server error
        raise RuntimeError(f"game {game.id} has no phase {game.phase_index}")
    return row


def phases_of(session: Session, game: Game) -> list[PhaseRow]:
    return list(session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.index)
    ))


def find_phase(session: Session, game: Game, code: str) -> PhaseRow:
    try:
        wanted = Phase.parse(code).code
    except CalhamerError:
        raise NotFound() from None
    row = session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.code == wanted)
    ).first()
    if row is None:
        raise NotFound()
    return row


def order_sets(session: Session, phase: PhaseRow) -> dict[str, OrderSet]:
    """Each power's orders for a phase (bids are in a table of their own, ``bids``)."""
    rows = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id))
    return {o.power: o for o in rows}


def bid_sets(session: Session, phase: PhaseRow) -> dict[str, BidSet]:
    """Each power's bids for a phase, by power (secret: the gamemaster's, and the bidder's)."""
    rows = session.scalars(
        select(BidSet).where(BidSet.game_id == phase.game_id, BidSet.phase == phase.code)
    )
    return {b.power: b for b in rows}


def seat_of(game: Game, power: str) -> Seat:
    for seat in game.seats:
        if seat.power == power:
            return seat
    raise NotFound()


# -- orders -----------------------------------------------------------------------------------


def split_lines(lines: Iterable[str]) -> list[str]:
    """Orders as the player gave them, one per line (a multi-line string is split)."""
    return [part for line in lines for part in (str(line).splitlines() or [""])]


def check_lines(game: Game, phase: PhaseRow, power: str, lines: list[str]) -> list[OrderCheck]:
    """What the judge makes of each line (canonical form or the problem and a suggestion).

    In a game that hides information the lines are checked against what the power knows (its
    own units and the map), never the truth: the variant's rules make every check come out as
    it would on the whole board, and checking without the foreign units makes the answer, and
    the time it takes, independent of them by construction.
    """
    position = position_of(phase)
    if hides(game):
        position = known_position(position, power)
    return check_orders(position, {power: lines}, game.rules)[power]


def _ensure_current(game: Game, phase: PhaseRow, code: str) -> None:
    if game.status == "finished":
        raise Conflict("the game is over; no more orders are taken")
    try:
        wanted = Phase.parse(code).code
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if wanted != phase.code:
        raise Conflict(
            f"phase {wanted} is not the phase being played; the current phase is {phase.code}"
        )


def save_orders(
    session: Session,
    *,
    viewer: Viewer,
    phase_code: str,
    lines: list[str],
    ready: bool | None,
    now: datetime,
) -> tuple[OrderSet, list[OrderCheck]]:
    """Replace the viewer's orders for the current phase; return each line's check.

    The lines are kept as written, bad ones included (they are judged invalid when the phase
    is adjudicated), so nothing the player typed is lost.
    """
    # A ready mark takes the exclusive lock: see the module's docstring.
    game = lock_game(session, viewer.game.id, exclusive=ready is not None)
    power = _own_power(game, viewer)
    phase = current_phase(session, game)
    _ensure_current(game, phase, phase_code)
    given = split_lines(lines)
    checks = check_lines(game, phase, power, given)
    stored = [line for line in given if line.strip()]
    orders = order_sets(session, phase).get(power)
    if orders is None:
        orders = OrderSet(phase_id=phase.id, power=power, lines=stored, ready=False,
                          updated_at=now)
        session.add(orders)
    else:
        orders.lines = stored
        orders.updated_at = now
    if ready is not None:
        orders.ready = ready
    session.flush()
    if ready:
        _request_if_all_ready(session, game, phase)
    return orders, checks


def set_ready(
    session: Session, *, viewer: Viewer, phase_code: str, ready: bool, now: datetime
) -> OrderSet:
    game = lock_game(session, viewer.game.id, exclusive=True)
    power = _own_power(game, viewer)
    phase = current_phase(session, game)
    _ensure_current(game, phase, phase_code)
    orders = order_sets(session, phase).get(power)
    if orders is None:
        orders = OrderSet(phase_id=phase.id, power=power, lines=[], ready=ready, updated_at=now)
        session.add(orders)
    else:
        orders.ready = ready
        orders.updated_at = now
    session.flush()
    if ready:
        _request_if_all_ready(session, game, phase)
    return orders


def _own_power(game: Game, viewer: Viewer) -> str:
    """The viewer's power, checked again under the lock (the seat may have been replaced)."""
    if viewer.power is None:
        raise NotFound()
    seat = seat_of(game, viewer.power)
    if seat.user_id != viewer.user.id:
        raise NotFound()
    return viewer.power


def _request_if_all_ready(session: Session, game: Game, phase: PhaseRow) -> None:
    """Ask for adjudication when every power waited for is ready. The caller holds the game's
    row exclusively, so the marks read here include every other committed one."""
    if game.status != "active" or not phase.required:
        return
    rows = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id)
                           .execution_options(populate_existing=True))
    sets = {o.power: o for o in rows}
    if all(p in sets and sets[p].ready for p in phase.required):
        game.process_requested = True


def own_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> OrderSet | None:
    if viewer.power is None:
        return None
    return order_sets(session, phase).get(viewer.power)


def visible_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, OrderSet]:
    """Orders of a phase the viewer may read: all for the gamemaster who sees all, and once
    adjudicated for everyone (except in a game that hides information); otherwise only their
    own (a seated gamemaster's too)."""
    sets = order_sets(session, phase)
    if viewer.sees_all or (phase.results is not None and not hides(viewer.game)):
        return sets
    return {p: o for p, o in sets.items() if p == viewer.power}


# -- results ----------------------------------------------------------------------------------


def _following(session: Session, phase: PhaseRow) -> PhaseRow:
    return session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == phase.game_id,
                               PhaseRow.index == phase.index + 1)
    ).one()


def _stored_bids(session: Session, game: Game, phase: PhaseRow) -> dict[str, list[Any]]:
    """The bids of a movement phase of a DP game, by power, as stored (empty otherwise)."""
    if not takes_bids(game) or not Phase.parse(phase.code).is_movement:
        return {}
    return {p: list(b.bids) for p, b in bid_sets(session, phase).items() if b.bids}


def library_game(session: Session, game: Game, phase: PhaseRow) -> LibraryGame:
    """An adjudicated phase and the one after it, as a library game (with its secret bids).

    Only for the gamemaster (and for players of games that hide nothing): a player of a game
    that hides information reads their stored view (:func:`stored_view`) instead."""
    orders = {p: list(o.lines) for p, o in order_sets(session, phase).items()}
    following = _following(session, phase)
    return LibraryGame(game.variant, game.rules, [
        PhaseRecord(phase.code, phase.position, orders, phase.results,
                    _stored_bids(session, game, phase)),
        PhaseRecord(following.code, following.position),
    ])


def phase_result(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The report and results of an adjudicated phase (NotFound before it is adjudicated).

    In the standard game they are public to everyone in the game. Where the variant hides
    information a player gets their own view of the phase, as the worker stored it when it
    adjudicated the phase (:func:`stored_view`: nothing is adjudicated on request, so the
    time an answer takes does not depend on the board), and their own orders; the
    gamemaster gets the whole truth, followed by what the players were told.
    """
    if phase.results is None:
        raise NotFound()
    game = viewer.game
    orders = {p: list(o.lines) for p, o in order_sets(session, phase).items()}
    if not sees_everything(viewer):
        assert viewer.power is not None
        stored = stored_view(session, viewer, phase)
        report = stored["report"]
        orders = {p: lines for p, lines in orders.items() if p == viewer.power}
        results: dict[str, Any] = stored["results"]
        following_code = stored["view"]["next"]["phase"]
    else:
        whole = library_game(session, game, phase)
        following_code = whole.history[-1].phase
        outcome = whole.outcome(phase.code)
        assert outcome is not None
        report = phase_report(outcome)
        if hides(game):
            told = phase_report(gamemaster_view(game_outcome(whole, phase.code)))
            report += f"\n======\nAs the players are told it\n\n{told}"
        results = dict(phase.results)
    return {
        "phase": phase.code,
        "name": Phase.parse(phase.code).name,
        "report": report,
        "orders": orders,
        "results": results,
        "next": following_code,
        "processed_at": phase.processed_at,
    }


def phase_document(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The phase as a phase document, with the orders the viewer may read.

    The gamemaster's is the whole document, with the bids of a DP game. A player of a game
    that hides information exports their own view: the position as they knew it, their own
    orders and, once adjudicated, their view of the results (``"views"``). The bids of a DP
    game reach the players only once the game is over.
    """
    game = viewer.game
    if not sees_everything(viewer):
        assert viewer.power is not None
        doc = position_to_json(known_to(viewer, phase), game.rules)
        own = order_sets(session, phase).get(viewer.power)
        doc["orders"] = {viewer.power: list(own.lines)} if own is not None else {}
        if phase.results is not None:
            doc["views"] = {viewer.power: stored_view(session, viewer, phase)["view"]}
        return doc
    doc = public_position(phase)
    doc["rules"] = game.rules
    doc["orders"] = {p: list(o.lines) for p, o in visible_orders(session, viewer, phase).items()}
    if may_read_all_bids(viewer):
        bids = _stored_bids(session, game, phase)
        if bids:
            doc["bids"] = bids
    return doc


# -- stored views (games that hide information) --------------------------------------------------


def view_entry(view: PowerView, rules: str) -> dict[str, Any]:
    """What is stored of one power's view of a phase: everything its results pages, API
    answers, export and picture show, so that reading them adjudicates nothing."""
    from calhamer.render import render_svg

    return {
        "report": phase_report(view),
        "results": {p: [r.to_json() for r in entries] for p, entries in view.results.items()},
        "view": view_to_json(view, rules),
        "picture": render_svg(view=view),
    }


def recorded_views(variant: str, rules: str, code: str, position: dict[str, Any],
                   orders: dict[str, list[str]], results: dict[str, Any],
                   next_code: str, next_position: dict[str, Any],
                   powers: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each of ``powers``' stored view of a recorded phase, adjudicated again from its record
    (for phases adjudicated before views were stored: migration 0002)."""
    recorded = LibraryGame(variant, rules, [
        PhaseRecord(code, position, orders, results),
        PhaseRecord(next_code, next_position),
    ])
    return {p: view_entry(game_view(recorded, p, code), rules) for p in powers}


def store_views(session: Session, game: Game, phase: PhaseRow, views: dict[str, PowerView]
                ) -> None:
    for power, view in views.items():
        session.add(PowerViewRow(game_id=game.id, phase=phase.code, power=power,
                                 view=view_entry(view, game.rules)))


def stored_view(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The viewer's power's view of an adjudicated phase, as stored when it was adjudicated."""
    assert viewer.power is not None
    row = session.scalars(select(PowerViewRow.view).where(
        PowerViewRow.game_id == phase.game_id, PowerViewRow.phase == phase.code,
        PowerViewRow.power == viewer.power,
    )).first()
    if row is None:  # every seat's view is stored with the phase: a broken database
        raise RuntimeError(f"no stored view of {phase.code} for {viewer.power} "
                           f"in game {phase.game_id}")
    return row


def _game_of(session: Session, phase: PhaseRow) -> Game:
    game = session.get(Game, phase.game_id)
    assert game is not None
    return game


# -- bids (DP variants) -----------------------------------------------------------------------


def _bid_phase(session: Session, game: Game, phase_code: str) -> tuple[PhaseRow, Position]:
    """The current phase, which must be a movement phase of a DP game (Conflict otherwise)."""
    variant = variant_of(game)
    if not variant.takes_bids:
        raise Conflict(f"{variant.title} has no bids: only the DP variants take them")
    phase = current_phase(session, game)
    _ensure_current(game, phase, phase_code)
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
    if match is None or _PLAIN_AMOUNT.fullmatch(match["amount"]):
        return None
    return (f"{line.strip()}: the amount {match['amount']!r} is not a whole number of DP; "
            f"write it in digits, like \"3 DP: {match['order'] or 'A Hol H'}\"")


def check_bid_list(game: Game, phase: PhaseRow, power: str,
                   bids: Sequence[str | dict[str, Any]]) -> tuple[list[str], int, int]:
    """The problems with ``power``'s bids (overspending included), the DP they allocate and
    the power's allotment this phase. Depends only on the public position and these bids."""
    from calhamer.variants.dp import DPVariant, judge_power_bids, to_bid

    variant = variant_of(game)
    position = position_of(phase)
    if not isinstance(variant, DPVariant) or not position.phase.is_movement:
        return [], 0, 0
    amounts = {i: bid_amount_problem(b) for i, b in enumerate(bids) if isinstance(b, str)}
    try:
        # a bid whose amount is unreadable is void: its problem is the amount, said above
        problems = [p for p in amounts.values() if p is not None]
        problems += variant.check_bids(position, power,
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
    power = _own_power(game, viewer)
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


def tally(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The gamemaster's tally of a movement phase's bids (``calhamer.variants.dp.bid_tally``):
    every bid and whether it counted, each neutral unit's totals and order. The gamemaster's
    alone (not a seated one's) until the game is over; NotFound for anyone else, and where
    there are no bids."""
    from calhamer import notation
    from calhamer.variants.dp import bid_tally, dp_order, tally_report, with_bids

    game = viewer.game
    if not takes_bids(game) or not may_read_all_bids(viewer):
        raise NotFound()
    position = position_of(phase)
    if not position.phase.is_movement:
        raise NotFound()
    position = with_bids(position, _stored_bids(session, game, phase))
    orders = {p: [t for t in o.lines if is_order_line(t)]
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
            {"unit": find_variant(game.variant).format_unit(m, u.unit),
             "order": notation.format_order(m, u.order) if u.order is not None else None,
             "bought": u.bought, "why": u.why, "totals": dict(u.totals)}
            for u in counted.units.values()
        ],
    }


# -- players ----------------------------------------------------------------------------------


INVITE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what new_token makes


def seat_for_invite(session: Session, token: str) -> Seat:
    if not INVITE.fullmatch(token):
        raise NotFound()
    seat = session.scalars(select(Seat).where(Seat.invite_token == token)).first()
    if seat is None:
        raise NotFound()
    return seat


def join(session: Session, *, token: str, user: User, now: datetime) -> Seat:
    """Take the power an invitation is for."""
    seat = seat_for_invite(session, token)
    game = lock_game(session, seat.game_id, exclusive=True)
    session.refresh(seat)
    if seat.invite_token != token:
        raise NotFound()
    if seat.user_id == user.id:
        return seat
    if seat.user_id is not None:
        raise Conflict("this power has already been taken; ask the gamemaster for a new link")
    for other in game.seats:
        if other.user_id == user.id:
            raise Conflict(f"you already play {other.power.title()} in this game")
    if game.status == "finished":
        raise Conflict("the game is over")
    seat.user_id = user.id
    seat.joined_at = now
    log(session, game.id, now, "joined", f"{user.display_name} plays {seat.power}")
    session.flush()
    return seat


def replace_player(session: Session, *, viewer: Viewer, power: str, now: datetime) -> Seat:
    """Free a power and give it a new invitation (the old link and player lose access)."""
    game = _gm_lock(session, viewer)
    found = position_of(current_phase(session, game)).map.find_power(power)
    seat = seat_of(game, found or power.upper())
    old = seat.user.display_name if seat.user else "nobody"
    seat.user_id = None
    seat.joined_at = None
    seat.invite_token = new_token()
    log(session, game.id, now, "replaced", f"{seat.power}: {old} removed, new invitation made")
    session.flush()
    session.refresh(seat)
    return seat


# -- the gamemaster's controls -----------------------------------------------------------------

CONTROLS = ("pause", "resume", "extend", "process", "end")


def _gm_lock(session: Session, viewer: Viewer) -> Game:
    if not viewer.is_gm:
        raise NotFound()
    return lock_game(session, viewer.game.id, exclusive=True)


def _ensure_named_phase(session: Session, game: Game, action: str,
                        phase_code: str | None) -> None:
    """``process`` and ``extend`` act on one phase: the request must name the phase being
    played, and is refused once that phase has been adjudicated (a "process" sent just
    after everyone got ready must not adjudicate the next phase, with nobody's orders in
    it, nor an "extend" lengthen the next phase's deadline)."""
    phase = current_phase(session, game)
    if not phase_code or not phase_code.strip():
        raise Invalid(f'say which phase to {action}: send "phase" with the phase being played '
                      f"({phase.code})")
    try:
        wanted = Phase.parse(phase_code).code
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if wanted == phase.code:
        return
    over = session.scalars(select(PhaseRow.id).where(
        PhaseRow.game_id == game.id, PhaseRow.code == wanted, PhaseRow.index < phase.index,
    )).first() is not None
    why = "has been adjudicated" if over else "is not the phase being played"
    raise Conflict(f"{wanted} {why}: the phase being played is {phase.code}, so nothing "
                   f"was done; {action} {phase.code} if that is what you mean")


def control(
    session: Session, *, viewer: Viewer, action: str, minutes: int | None, now: datetime,
    phase_code: str | None = None,
) -> Game:
    """A gamemaster's action. ``process`` and ``extend`` act on one phase, which
    ``phase_code`` must name: the phase being played (Conflict if it is over)."""
    game = _gm_lock(session, viewer)
    if action not in CONTROLS:
        raise Invalid(f"unknown action {action!r}; the actions are {', '.join(CONTROLS)}")
    if game.status == "finished":
        raise Conflict("the game is over")
    if action == "pause":
        if game.status == "paused":
            raise Conflict("the game is already paused")
        game.status = "paused"
        game.paused_remaining = (
            None if game.deadline is None
            else max(0, int((game.deadline - now).total_seconds()))
        )
        game.deadline = None
        log(session, game.id, now, "paused", "the gamemaster paused the game")
    elif action == "resume":
        if game.status != "paused":
            raise Conflict("the game is not paused")
        game.status = "active"
        if game.paused_remaining is not None:
            game.deadline = now + timedelta(seconds=max(game.paused_remaining, 60))
        game.paused_remaining = None
        log(session, game.id, now, "resumed", "the gamemaster resumed the game")
        # Ready marks given while paused asked for nothing: the last of them may be in.
        session.flush()
        _request_if_all_ready(session, game, current_phase(session, game))
    elif action == "extend":
        if not minutes or minutes <= 0:
            raise Invalid("say by how many minutes to extend the deadline (a positive number)")
        _ensure_named_phase(session, game, action, phase_code)
        untimed = (game.paused_remaining is None if game.status == "paused"
                   else game.deadline is None)
        if untimed:
            # Giving it a deadline would change how the game is played (it would be
            # adjudicated then, ready or not): that is not what "extend" says.
            raise Conflict("this phase has no deadline to extend: it waits until every power "
                           "is ready or you process it")
        if game.status == "paused":
            game.paused_remaining = (game.paused_remaining or 0) + minutes * 60
        else:
            game.deadline = max(game.deadline or now, now) + timedelta(minutes=minutes)
        log(session, game.id, now, "extended", f"deadline extended by {minutes} minutes")
    elif action == "process":
        if game.status == "paused":
            raise Conflict("the game is paused; resume it first")
        _ensure_named_phase(session, game, action, phase_code)
        game.process_requested = True
        game.retry_at = None
        log(session, game.id, now, "process", "the gamemaster asked to adjudicate now")
    else:
        game.status = "finished"
        game.deadline = None
        game.process_requested = False
        game.end_reason = "ended by the gamemaster"
        log(session, game.id, now, "ended", "the gamemaster ended the game")
    session.flush()
    return game


# -- press --------------------------------------------------------------------------------------


def send_message(
    session: Session,
    *,
    viewer: Viewer,
    recipients: list[str],
    body: str,
    now: datetime,
) -> Message:
    game = lock_game(session, viewer.game.id)
    if viewer.power is not None and not viewer.is_gm:
        _own_power(game, viewer)
    if game.status == "finished":
        raise Conflict("the game is over: no more messages are taken")
    sender = GM if viewer.is_gm and viewer.power is None else viewer.power
    assert sender is not None
    if not body.strip():
        raise Invalid("the message is empty")
    phase = current_phase(session, game)
    board = position_of(phase).map
    to: list[str] = []
    for raw in recipients:
        if raw.strip().upper() in ("ALL", "*"):
            to = []
            break
        power = board.find_power(raw.strip())
        if power is None:
            raise Invalid(f"{raw!r} is not a power of this game; the powers are "
                          f"{', '.join(board.power_codes)}")
        if power != sender and power not in to:
            to.append(power)
    else:
        if recipients and not to:
            raise Invalid("a message needs someone other than yourself to go to")
    if sender != GM:
        if game.press == "none":
            raise Conflict("this game has no press: players cannot send messages")
        if game.press == "public" and to:
            raise Conflict("this game has public press only: messages go to all powers")
    message = Message(game_id=game.id, phase=phase.code, sender=sender, recipients=to,
                      body=body.strip(), created_at=now)
    session.add(message)
    session.flush()
    return message


def messages_for(session: Session, viewer: Viewer) -> list[Message]:
    """The messages the viewer may read: all of them for the gamemaster who sees all; a
    player's (a seated gamemaster's too) are those to all, from them, or to them, and a
    gamemaster also reads what they sent as the gamemaster."""
    rows = session.scalars(
        select(Message).where(Message.game_id == viewer.game.id).order_by(Message.id)
    )
    if viewer.sees_all:
        return list(rows)
    me = viewer.power
    mine = {me, GM} if viewer.is_gm else {me}
    return [m for m in rows if not m.recipients or m.sender in mine or me in m.recipients]


def events_of(session: Session, game: Game) -> list[Event]:
    return list(session.scalars(
        select(Event).where(Event.game_id == game.id).order_by(Event.id)
    ))


# What the game log may tell a gamemaster who plays a power: the game's public life and their
# own actions. Any other kind (a new one included) is left out until the game is over.
PUBLIC_EVENTS = frozenset({"created", "joined", "replaced", "paused", "resumed", "extended",
                           "process", "ended", "adjudicated"})


def visible_events(session: Session, viewer: Viewer) -> list[Event]:
    """The game log as the viewer may read it (only the gamemaster reads it at all)."""
    if not viewer.is_gm:
        return []
    events = events_of(session, viewer.game)
    if viewer.sees_all:
        return events
    return [e for e in events if e.kind in PUBLIC_EVENTS]


# -- adjudication (the workers) -----------------------------------------------------------------


def due_games(now: datetime) -> Select[Game]:
    """The statement a worker claims a due game with: one row, locked, skipping locked ones."""
    return (
        select(Game)
        .where(
            Game.status == "active",
            or_(Game.process_requested,
                and_(Game.deadline.is_not(None), Game.deadline <= now)),
            or_(Game.retry_at.is_(None), Game.retry_at <= now),
        )
        .order_by(Game.deadline, Game.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )


def adjudicate_phase(
    session: Session, game: Game, *, now: datetime, worker: str, pause: float = 0.0
) -> PhaseRow:
    """Adjudicate the game's current phase with the stored orders and start the next phase.

    Runs inside the caller's transaction with the game's row locked; everything it changes
    is committed together or not at all. ``pause`` (tests only) sleeps before returning, so a
    test can kill the worker while the transaction is open.
    """
    phase = current_phase(session, game)
    orders = {p: [t for t in o.lines if is_order_line(t)]
              for p, o in order_sets(session, phase).items()}
    judged = LibraryGame(game.variant, game.rules, [
        PhaseRecord(phase.code, phase.position, orders,
                    bids=_stored_bids(session, game, phase)),
    ])
    outcome = judged.process()
    done, following = judged.history
    if hides(game):
        # Each player's view, stored now so that their results are read, never adjudicated,
        # on request (the time an answer takes must not depend on what they may not see).
        store_views(session, game, phase,
                    {seat.power: power_view(outcome, seat.power) for seat in game.seats})
    phase.results = done.results
    phase.processed_at = now
    phase.processed_by = worker
    row = PhaseRow(
        game_id=game.id, index=phase.index + 1, code=following.phase,
        position=following.position,
        required=required_powers(outcome.next, game.rules, phase.required), started_at=now,
    )
    session.add(row)
    game.phase_index = row.index
    game.process_requested = False
    game.retry_at = None
    game.last_error = None
    winner = outcome.next.winner()
    if winner:
        game.winner = winner
        game.status = "finished"
        game.deadline = None
        game.end_reason = f"{outcome.next.map.power(winner).name} has won"
    else:
        game.deadline = next_deadline(game, row.code, now)
    log(session, game.id, now, "adjudicated", f"{phase.code} by {worker}")
    session.flush()
    if pause > 0:
        print(f"calhamer worker {worker}: pausing in the transaction of {game.id} {phase.code}",
              flush=True)
        time.sleep(pause)
    return phase
