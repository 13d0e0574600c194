"""Turn rows into the public models of ``schemas.py``, for one viewer (API and pages alike)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from calhamer.game import OrderCheck
from calhamer.server.config import Settings
from calhamer.server.models import GameRow, Message, OrderSet, PhaseRow, User
from calhamer.server.schemas import (
    Deadlines,
    GameGMOut,
    GameOut,
    MessageOut,
    OrderCheckOut,
    OrdersOut,
    SeatGMOut,
    SeatOut,
    UserOut,
)
from calhamer.server.services import common, games, orders
from calhamer.server.views import Viewer


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, username=user.username, display_name=user.display_name)


def invite_url(base: str, token: str | None) -> str | None:
    return None if token is None else f"{base}/join/{token}"


def base_url(settings: Settings, request_base: str) -> str:
    return settings.public_url or request_base.rstrip("/")


def _power_names(phase: PhaseRow) -> dict[str, str]:
    board = common.position_of(phase).map
    return {p.code: p.name for p in board.powers}


def game_out(session: Session, viewer: Viewer, phase: PhaseRow | None = None) -> GameOut:
    game = viewer.game
    phase = phase or games.current_phase(session, game)
    names = _power_names(phase)
    seats = [
        SeatOut(power=s.power, power_name=names.get(s.power, s.power.title()),
                player=s.user.display_name if s.user else None)
        for s in game.seats
    ]
    return GameOut(**_game_fields(game, phase), role="gm" if viewer.is_gm else "player",
                   power=viewer.power,
                   seats=seats)


HIDDEN_ERROR = ("the last adjudication failed; its details are shown only to a gamemaster "
                "who plays no power")


def game_gm_out(session: Session, viewer: Viewer, base: str) -> GameGMOut:
    """The gamemaster's view of the seats. Who has sent orders and who is ready is told to a
    gamemaster who sees all; one who plays is told only their own power's, like any player
    (``None`` for the others), and not the text of a failed adjudication, which may name
    anything on the board."""
    game = viewer.game
    assert viewer.is_gm
    phase = games.current_phase(session, game)
    names = _power_names(phase)
    sets = orders.order_sets(session, phase)

    def known(power: str) -> bool:
        return viewer.sees_all or power == viewer.power

    seats = [
        SeatGMOut(
            power=s.power, power_name=names.get(s.power, s.power.title()),
            player=s.user.display_name if s.user else None,
            invite_token=s.invite_token if s.user_id is None else None,
            invite_url=invite_url(base, s.invite_token) if s.user_id is None else None,
            orders_received=(bool(sets.get(s.power) and sets[s.power].lines)
                             if known(s.power) else None),
            ready=bool(sets.get(s.power) and sets[s.power].ready) if known(s.power) else None,
        )
        for s in game.seats
    ]
    error = game.last_error
    if error is not None and not viewer.sees_all:
        error = HIDDEN_ERROR
    return GameGMOut(**_game_fields(game, phase), role="gm", power=viewer.power, seats=seats,
                     last_error=error)


def _game_fields(game: GameRow, phase: PhaseRow) -> dict[str, Any]:
    return {
        "id": game.id, "name": game.name, "variant": game.variant, "rules": game.rules,
        "press": game.press, "status": game.status, "phase": phase.code,
        "phase_name": common.phase_name(game, phase.code), "deadline": game.deadline,
        "deadlines": Deadlines(movement=game.movement_minutes, retreat=game.retreat_minutes,
                               adjustment=game.adjustment_minutes),
        "winner": game.winner, "end_reason": game.end_reason,
    }


def checks_out(checks: list[OrderCheck]) -> list[OrderCheckOut]:
    return [OrderCheckOut(line=c.line, text=c.text, canonical=c.canonical, ok=c.ok,
                          problem=c.problem) for c in checks]


def orders_out(game: GameRow, phase: PhaseRow, order_set: OrderSet,
               checks: list[OrderCheck] | None = None) -> OrdersOut:
    if checks is None:
        checks = orders.check_lines(game, phase, order_set.power, list(order_set.lines))
    return OrdersOut(phase=phase.code, power=order_set.power, orders=list(order_set.lines),
                     checks=checks_out(checks), ready=order_set.ready,
                     saved_at=order_set.updated_at)


def message_out(message: Message) -> MessageOut:
    return MessageOut(id=message.id, phase=message.phase, sender=message.sender,
                      to=list(message.recipients), body=message.body, at=message.created_at)
