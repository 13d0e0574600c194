"""Games nobody played: found, and deleted under their row's lock.

A game made and never played costs a row in the lobby's lists and, when it has deadlines, a
phase for the workers to adjudicate at every deadline, for ever. So a game that is not over
and that nobody but its gamemaster has taken part in is deleted once nothing has happened in
it for ``Settings.unplayed_game_hours`` (docs/server.md, "Games nobody plays expire"); the
workers call this every ``expiry_sweep_seconds`` (``worker.sweep_unplayed``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Select, and_, delete, exists, or_, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from calhamer.server.models import (
    BidSet,
    GameRow,
    LoginSession,
    Message,
    OrderSet,
    PhaseRow,
    Seat,
    User,
)
from calhamer.server.services.common import NotFound
from calhamer.server.services.games import lock_game


def _gm_power() -> ColumnElement[str | None]:
    """The power the game's gamemaster holds (NULL when none), for the game being looked at."""
    return (select(Seat.power).where(Seat.game_id == GameRow.id, Seat.user_id == GameRow.gm_id)
            .limit(1).scalar_subquery())


def _not_gms(power: InstrumentedAttribute[str]) -> ColumnElement[bool]:
    """Whether what ``power`` wrote is someone else's than the gamemaster's seat's."""
    gm_power = _gm_power()
    return or_(gm_power.is_(None), power != gm_power)


def unplayed_games(now: datetime, hours: int) -> Select[str]:
    """The ids of the games that expire now: not over; made, joined and written to (orders,
    ready marks, bids, press) by nobody for ``hours``; and either nothing was ever written in
    them (whoever took seats), or nobody but the gamemaster ever took part (no other account
    holds a seat, and every order, bid and message is the gamemaster's own: as gamemaster or
    from the power they hold)."""
    since = now - timedelta(hours=hours)
    game = GameRow.id
    orders = select(OrderSet.id).join(PhaseRow, PhaseRow.id == OrderSet.phase_id).where(
        PhaseRow.game_id == game)
    bids = select(BidSet.id).where(BidSet.game_id == game)
    messages = select(Message.id).where(Message.game_id == game)
    recent = or_(
        exists(select(Seat.id).where(Seat.game_id == game, Seat.joined_at >= since)),
        exists(orders.where(OrderSet.updated_at >= since)),
        exists(bids.where(BidSet.updated_at >= since)),
        exists(messages.where(Message.created_at >= since)))
    nothing_written = ~or_(exists(orders), exists(bids), exists(messages))
    others_seated = exists(select(Seat.id).where(Seat.game_id == game,
                                                 Seat.user_id.is_not(None),
                                                 Seat.user_id != GameRow.gm_id))
    others_wrote = or_(
        exists(orders.where(_not_gms(OrderSet.power))),
        exists(bids.where(_not_gms(BidSet.power))),
        exists(messages.where(Message.sender != "GM", _not_gms(Message.sender))))
    return (select(GameRow.id)
            .where(GameRow.status != "finished", GameRow.created_at < since, ~recent,
                   or_(nothing_written, and_(~others_seated, ~others_wrote)))
            .order_by(GameRow.created_at, GameRow.id))


def expire_unplayed(session: Session, game_id: str, *, now: datetime, hours: int) -> bool:
    """Delete the game if it still expires (see :func:`unplayed_games`), under its row's
    exclusive lock, as every change to a game takes it: a player joining or writing at the
    same moment either came first (and the game stays) or finds no game. True: deleted."""
    try:
        lock_game(session, game_id, exclusive=True, seats=False)
    except NotFound:
        return False
    still = session.scalar(unplayed_games(now, hours).where(GameRow.id == game_id))
    if still is None:
        return False
    session.execute(delete(GameRow).where(GameRow.id == game_id))  # the rest by cascade
    return True


def forgotten_guests(now: datetime, hours: int) -> Select[int]:
    """Guests (no password) made more than ``hours`` ago who run no game, hold no seat and
    have no session seen since: those whose only games expired. Nothing can log them in that
    would lead anywhere."""
    since = now - timedelta(hours=hours)
    return (select(User.id)
            .where(User.username.is_(None), User.created_at < since,
                   ~exists(select(GameRow.id).where(GameRow.gm_id == User.id)),
                   ~exists(select(Seat.id).where(Seat.user_id == User.id)),
                   ~exists(select(LoginSession.id).where(LoginSession.user_id == User.id,
                                                         LoginSession.last_seen >= since)))
            .order_by(User.id))
