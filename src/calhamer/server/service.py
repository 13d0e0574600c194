"""What the judge does, as plain functions over a database session (the routes call these).

Every function that acts for someone takes a :class:`~calhamer.server.views.Viewer`, made by
:func:`~calhamer.server.views.viewer_for`, which is the only place that decides who may see a
game. Nothing here adjudicates: the library's :class:`calhamer.game.Game` does, and this module
stores what it returns.

Locking: a change to a game's current phase (orders, ready marks, gamemaster actions) first
locks the game's row (:func:`lock_game`); adjudication holds that row's lock for its whole
transaction. So an order saved and acknowledged is either in the phase that gets adjudicated
or refused because that phase is over, never silently dropped.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.orm import Session

from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.game import Game as LibraryGame
from calhamer.game import OrderCheck, PhaseRecord, check_orders, is_order_line
from calhamer.phases import buildable_centres
from calhamer.position import Phase, Position
from calhamer.report import phase_report
from calhamer.rules import find_rules
from calhamer.server.models import Event, Game, Message, OrderSet, PhaseRow, Seat, User
from calhamer.server.views import Viewer
from calhamer.variants import VARIANTS, find_variant

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


def required_powers(position: Position, rules: str) -> list[str]:
    """The powers that have something to order in this phase (they are waited for)."""
    phase = position.phase
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
    """Why the web judge cannot run this variant yet, or None when it can.

    Hidden information (each player sees only their own view) and bids need their own pages
    and authority rules before a game may be offered; until then such games are refused
    rather than served with the whole truth on every page.
    """
    try:
        v = find_variant(variant)
    except CalhamerError as exc:
        return str(exc)
    if getattr(v, "hidden_information", False):
        return (f"{v.title} hides information from the players; the web judge does not "
                "serve such games yet")
    if getattr(v, "takes_bids", False):
        return f"{v.title} takes bids; the web judge has no bid entry yet"
    return None


def servable_variants() -> list[tuple[str, str]]:
    """(name, title) of every variant the web judge can run."""
    return [(v.name, v.title) for v in VARIANTS if unservable_reason(v.name) is None]


def public_position(phase: PhaseRow) -> dict[str, Any]:
    """A phase's position as players may see it: a secret dice seed stays out until the phase
    has been adjudicated (its published commitment, ``seed_hash``, stays in)."""
    doc = dict(phase.position)
    if phase.results is None:
        doc.pop("seed", None)
    return doc


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
        library_game = LibraryGame.new(variant, rules or None)
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if press not in PRESS_SETTINGS:
        raise Invalid(f"press must be one of {', '.join(PRESS_SETTINGS)}")
    record = library_game.history[-1]
    title = find_variant(library_game.variant).title
    game = Game(
        id=secrets.token_urlsafe(9)[:12],
        name=name.strip() or f"{title} game",
        variant=library_game.variant,
        rules=library_game.rules,
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
    position = library_game.current
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
    blocks, an adjudication; ``exclusive=True`` is for gamemaster actions. On SQLite the
    writing transaction already holds the database's write lock.
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
    rows = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id))
    return {o.power: o for o in rows}


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
    """What the judge makes of each line (canonical form or the problem and a suggestion)."""
    return check_orders(position_of(phase), {power: lines}, game.rules)[power]


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
    game = lock_game(session, viewer.game.id)
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
    _request_if_all_ready(session, game, phase)
    return orders, checks


def set_ready(
    session: Session, *, viewer: Viewer, phase_code: str, ready: bool, now: datetime
) -> OrderSet:
    game = lock_game(session, viewer.game.id)
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
    if game.status != "active" or not phase.required:
        return
    sets = order_sets(session, phase)
    if all(p in sets and sets[p].ready for p in phase.required):
        game.process_requested = True


def own_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> OrderSet | None:
    if viewer.power is None:
        return None
    return order_sets(session, phase).get(viewer.power)


def visible_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, OrderSet]:
    """Orders of a phase the viewer may read: all once adjudicated or for the gamemaster,
    otherwise only their own."""
    sets = order_sets(session, phase)
    if phase.results is not None or viewer.is_gm:
        return sets
    return {p: o for p, o in sets.items() if p == viewer.power}


# -- results ----------------------------------------------------------------------------------


def phase_result(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The report and results of an adjudicated phase (NotFound before it is adjudicated)."""
    del viewer  # the standard game: results are public to everyone in the game
    if phase.results is None:
        raise NotFound()
    game = _game_of(session, phase)
    following = session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == phase.game_id,
                               PhaseRow.index == phase.index + 1)
    ).one()
    orders = {p: o.lines for p, o in order_sets(session, phase).items()}
    library_game = LibraryGame(game.variant, game.rules, [
        PhaseRecord(phase.code, phase.position, orders, phase.results),
        PhaseRecord(following.code, following.position),
    ])
    outcome = library_game.outcome(phase.code)
    assert outcome is not None
    return {
        "phase": phase.code,
        "name": Phase.parse(phase.code).name,
        "report": phase_report(outcome),
        "orders": orders,
        "results": phase.results,
        "next": following.code,
        "processed_at": phase.processed_at,
    }


def phase_document(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The phase as a phase document, with the orders the viewer may read."""
    game = _game_of(session, phase)
    doc = public_position(phase)
    doc["rules"] = game.rules
    doc["orders"] = {p: list(o.lines) for p, o in visible_orders(session, viewer, phase).items()}
    return doc


def _game_of(session: Session, phase: PhaseRow) -> Game:
    game = session.get(Game, phase.game_id)
    assert game is not None
    return game


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


def control(
    session: Session, *, viewer: Viewer, action: str, minutes: int | None, now: datetime
) -> Game:
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
    elif action == "extend":
        if not minutes or minutes <= 0:
            raise Invalid("say by how many minutes to extend the deadline (a positive number)")
        if game.status == "paused":
            game.paused_remaining = (game.paused_remaining or 0) + minutes * 60
        else:
            game.deadline = max(game.deadline or now, now) + timedelta(minutes=minutes)
        log(session, game.id, now, "extended", f"deadline extended by {minutes} minutes")
    elif action == "process":
        if game.status == "paused":
            raise Conflict("the game is paused; resume it first")
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
    rows = session.scalars(
        select(Message).where(Message.game_id == viewer.game.id).order_by(Message.id)
    )
    if viewer.is_gm:
        return list(rows)
    me = viewer.power
    return [m for m in rows if not m.recipients or m.sender == me or me in m.recipients]


def events_of(session: Session, game: Game) -> list[Event]:
    return list(session.scalars(
        select(Event).where(Event.game_id == game.id).order_by(Event.id)
    ))


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
    library_game = LibraryGame(game.variant, game.rules,
                               [PhaseRecord(phase.code, phase.position, orders)])
    outcome = library_game.process()
    done, following = library_game.history
    phase.results = done.results
    phase.processed_at = now
    phase.processed_by = worker
    row = PhaseRow(
        game_id=game.id, index=phase.index + 1, code=following.phase,
        position=following.position, required=required_powers(outcome.next, game.rules),
        started_at=now,
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
