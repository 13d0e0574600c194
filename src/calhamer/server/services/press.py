"""Press: sending messages, and which messages a viewer may read."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from calhamer.server.models import Message
from calhamer.server.services.common import Conflict, Invalid, position_of
from calhamer.server.services.games import current_phase, lock_game
from calhamer.server.services.seats import own_power
from calhamer.server.views import Viewer

GM = "GM"  # the sender of a message from the gamemaster who plays no power


def send_message(
    session: Session,
    *,
    viewer: Viewer,
    recipients: list[str],
    body: str,
    now: datetime,
) -> Message:
    """Send a message for the viewer: from their power, or from the gamemaster (``GM``) who
    plays none; to the named powers, or to all when none (or "ALL") is named."""
    game = lock_game(session, viewer.game.id)
    if viewer.power is not None and not viewer.is_gm:
        own_power(game, viewer)
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
