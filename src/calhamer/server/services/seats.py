"""Seats: which user plays which power, joining by invitation and the gamemaster replacing a
player. :func:`own_power` checks again, under the game's lock, that the viewer still holds
the seat they act for (it may have been replaced since the request began).

Every change of hands is in the game log, which every player of the game is shown
(:func:`seat_changes`): who took a power (the gamemaster named as such), and a power freed.
The gamemaster taking a seat is logged as ``views.GM_SEATED``, after which they no longer
see all until the game is over (``Viewer.played``); and they may take one only before
anything is hidden from the players, or after having held one (:func:`hidden_so_far`): a
gamemaster who has read the others' orders must not then play with them in mind.
"""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import ColumnElement, ScalarSelect, bindparam, exists, func, literal, select
from sqlalchemy.orm import QueryableAttribute, Session, object_session

from calhamer.server.models import BidSet, Event, GameRow, Message, OrderSet, PhaseRow, Seat, User
from calhamer.server.services.common import Conflict, NotFound, hides, position_of
from calhamer.server.services.games import current_phase, lock_for_gm, lock_game, log, new_token
from calhamer.server.views import GM_LEFT, GM_SEATED, Viewer

JOINED, REPLACED = "joined", "replaced"  # the game log's other seat entries
SEAT_EVENTS = (JOINED, GM_SEATED, REPLACED, GM_LEFT)
_GM_SENDER = "GM"  # press.GM, the gamemaster's messages (press depends on this module)


def seat_of(game: GameRow, power: str) -> Seat:
    """The game's seat for ``power`` (NotFound when the game has no such power)."""
    for seat in game.seats:
        if seat.power == power:
            return seat
    raise NotFound()


_HOLDER = select(Seat.user_id).where(Seat.game_id == bindparam("game_id"),
                                     Seat.power == bindparam("power"))


def own_power(game: GameRow, viewer: Viewer) -> str:
    """The viewer's power, checked again under the lock (the seat may have been replaced)."""
    if viewer.power is None:
        raise NotFound()
    session = object_session(game)
    if session is None:  # a game read outside a session: its seats as they were read
        holder = seat_of(game, viewer.power).user_id
    else:  # read now, after the lock: the game's seats may have been read before it
        holder = session.scalar(_HOLDER, {"game_id": game.id, "power": viewer.power})
    if holder is None or holder != viewer.user.id:
        raise NotFound()
    return viewer.power


# -- invitations -------------------------------------------------------------------------------


INVITE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what new_token makes


def seat_for_invite(session: Session, token: str) -> Seat:
    """The seat an invitation is for (NotFound for an unknown or malformed one)."""
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
    name = _power_name(session, game, seat.power)
    if user.id == game.gm_id:
        _ensure_gm_may_play(session, game, name)
        log(session, game.id, now, GM_SEATED, f"{user.display_name} (the gamemaster) took {name}")
    else:
        log(session, game.id, now, JOINED, f"{user.display_name} took {name}")
    seat.user_id = user.id
    seat.joined_at = now
    session.flush()
    return seat


def _power_name(session: Session, game: GameRow, power: str) -> str:
    board = position_of(current_phase(session, game)).map
    return board.power(power).name if power in board.power_codes else power.title()


def _ensure_gm_may_play(session: Session, game: GameRow, power_name: str) -> None:
    """Refuse the gamemaster a seat once they may have read what its player may not."""
    played = session.scalar(select(exists().where(Event.game_id == game.id,
                                                  Event.kind.in_((GM_SEATED, GM_LEFT)))))
    if played:
        return  # they have been shown a player's part ever since they first sat down
    hidden = hidden_so_far(session, game)
    if hidden:
        raise Conflict(f"as the gamemaster you have been able to read {hidden}, which "
                       f"{power_name}'s player may not: a gamemaster takes a seat only before "
                       f"anything is hidden from the players, so invite someone else to play "
                       f"{power_name}")


def hidden_so_far(session: Session, game: GameRow) -> str | None:
    """What of the game has been hidden from its players so far, which the gamemaster who
    sees all could read (None: nothing): orders or ready marks, bids, press between powers,
    and in a game that hides information, a board adjudicated."""
    in_game = select(PhaseRow.id).where(PhaseRow.game_id == game.id)
    if session.scalar(select(exists().where(OrderSet.phase_id.in_(in_game)))):
        return "orders or ready marks"
    if session.scalar(select(exists().where(BidSet.game_id == game.id))):
        return "bids"
    recipients = session.scalars(select(Message.recipients).where(
        Message.game_id == game.id, Message.sender != _GM_SENDER))
    if any(to for to in recipients):
        return "press between powers"
    if hides(game) and game.phase_index > 0:
        return "the whole board"
    return None


def seat_changes(session: Session, game: GameRow) -> list[Event]:
    """The game log's entries of seats changing hands, oldest first: told to every player
    of the game (who holds each power is in the seat table already; these say when it
    changed, and whether the gamemaster took a seat)."""
    return list(session.scalars(
        select(Event).where(Event.game_id == game.id, Event.kind.in_(SEAT_EVENTS))
        .order_by(Event.id)))


def seat_change_count(session: Session, game: GameRow) -> int:
    """How many entries :func:`seat_changes` holds, counted by the database."""
    return session.scalar(select(seat_change_count_of(literal(game.id)))) or 0


def seat_change_count_of(
        game_id: ColumnElement[str] | QueryableAttribute[str]) -> ScalarSelect[int]:
    """:func:`seat_change_count` as a column of another query, for the game whose id is
    ``game_id`` there (a live page reads it with the phase, in one query)."""
    return (select(func.count()).select_from(Event)
            .where(Event.game_id == game_id, Event.kind.in_(SEAT_EVENTS))
            .scalar_subquery())


def replace_player(session: Session, *, viewer: Viewer, power: str, now: datetime) -> Seat:
    """Free a power and give it a new invitation (the old link and player lose access)."""
    game = lock_for_gm(session, viewer)
    found = position_of(current_phase(session, game)).map.find_power(power)
    seat = seat_of(game, found or power.upper())
    name = _power_name(session, game, seat.power)
    kind = REPLACED
    if seat.user is None:
        told = f"the gamemaster made a new invitation for {name} (nobody held it)"
    elif seat.user_id == game.gm_id:
        kind = GM_LEFT  # they have played: Viewer.played, whenever they sat down
        told = (f"{name} was freed by the gamemaster, who held it ({seat.user.display_name} "
                "left); a new invitation was made")
    else:
        told = (f"{name} was freed by the gamemaster ({seat.user.display_name} left); a new "
                "invitation was made")
    seat.user_id = None
    seat.joined_at = None
    seat.invite_token = new_token()
    log(session, game.id, now, kind, told)
    session.flush()
    session.refresh(seat)
    return seat
