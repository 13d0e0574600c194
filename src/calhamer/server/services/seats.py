"""Seats: which user plays which power, joining by invitation and the gamemaster replacing a
player. :func:`own_power` checks again, under the game's lock, that the viewer still holds
the seat they act for (it may have been replaced since the request began)."""

from __future__ import annotations

import re
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, object_session

from calhamer.server.models import GameRow, Seat, User
from calhamer.server.services.common import Conflict, NotFound, position_of
from calhamer.server.services.games import current_phase, lock_for_gm, lock_game, log, new_token
from calhamer.server.views import Viewer


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
    seat.user_id = user.id
    seat.joined_at = now
    log(session, game.id, now, "joined", f"{user.display_name} plays {seat.power}")
    session.flush()
    return seat


def replace_player(session: Session, *, viewer: Viewer, power: str, now: datetime) -> Seat:
    """Free a power and give it a new invitation (the old link and player lose access)."""
    game = lock_for_gm(session, viewer)
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
