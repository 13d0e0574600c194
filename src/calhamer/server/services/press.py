"""Press: sending messages, which messages a viewer may read, and how far their account has
read each conversation.

A conversation (thread) is every message among one set of participants (:func:`thread_key`),
or every player's message to all ("ALL"); the gamemaster's announcements (from the gamemaster
to all) stand apart and carry no read mark. Read marks are kept per account in
``press_reads`` and are only ever read or written for the caller's own account, through the
messages the caller may read (:func:`messages_for`): a thread the caller is not in, or a
message not in it, answers as one that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, case, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from calhamer.server import live_events
from calhamer.server.models import Message, PressRead
from calhamer.server.services.common import Conflict, Invalid, NotFound, position_of
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
    to_all = [raw for raw in recipients if raw.strip().upper() in ("ALL", "*")]
    if to_all and len(to_all) < len(recipients):
        # Either reading ("all" wins, or the powers named win) could send a message where
        # its writer did not mean it to go, so neither is guessed.
        raise Invalid("a message goes either to all or to the powers named, not both: "
                      "untick all, or the powers")
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
    live_events.publish(session, game.id, "press")
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
    return [m for m in rows if _may_read(viewer, m.sender, m.recipients)]


# A live page's two reads of the press (built once: every change an open page hears asks one).
_COUNT_ALL = select(func.count()).select_from(Message).where(
    Message.game_id == bindparam("game_id"))
_ADDRESSES = select(Message.sender, Message.recipients).where(
    Message.game_id == bindparam("game_id"))


def visible_count(session: Session, viewer: Viewer) -> int:
    """How many messages the viewer may read (as :func:`messages_for`), read as the
    senders and recipients alone: what a live page's digest needs after each change."""
    if viewer.sees_all:
        return session.scalar(_COUNT_ALL, {"game_id": viewer.game.id}) or 0
    rows = session.execute(_ADDRESSES, {"game_id": viewer.game.id})
    return sum(1 for sender, recipients in rows if _may_read(viewer, sender, recipients))


def _may_read(viewer: Viewer, sender: str, recipients: list[str]) -> bool:
    """Whether a player (a seated gamemaster too) may read a message: one to all, from them,
    or to them; a gamemaster also reads what they sent as the gamemaster."""
    me = viewer.power
    return (not recipients or sender == me or (viewer.is_gm and sender == GM)
            or me in recipients)


# -- conversations and read marks -----------------------------------------------------------


def thread_key(message: Message) -> str | None:
    """The conversation a message belongs to: its participants' codes, sorted and joined by
    "+", or "ALL" for a player's message to all; None for the gamemaster's announcements."""
    if not message.recipients:
        return None if message.sender == GM else "ALL"
    return "+".join(sorted({message.sender, *message.recipients}))


def me_of(viewer: Viewer) -> str:
    """Who the viewer writes as: their power, or ``GM`` for the gamemaster who plays none."""
    return viewer.power or (GM if viewer.is_gm else "")


@dataclass
class ThreadState:
    """One conversation as the caller's account has read it: ``last`` is the id of its latest
    message, ``last_read`` of the last one read (0: none), ``unread`` how many messages
    written by others came after it."""

    key: str
    members: list[str]  # empty for "ALL"
    count: int
    last: int
    last_read: int
    unread: int


def read_marks(session: Session, viewer: Viewer) -> dict[str, int]:
    """The viewer's own account's read marks in the game, by thread."""
    rows = session.execute(select(PressRead.thread, PressRead.last_read).where(
        PressRead.game_id == viewer.game.id, PressRead.user_id == viewer.user.id))
    return {thread: last for thread, last in rows}


def thread_states(session: Session, viewer: Viewer,
                  messages: list[Message] | None = None) -> dict[str, ThreadState]:
    """Every conversation the viewer may read (from ``messages``, those of
    :func:`messages_for`), with how far their account has read it, by key."""
    if messages is None:
        messages = messages_for(session, viewer)
    marks = read_marks(session, viewer)
    me = me_of(viewer)
    out: dict[str, ThreadState] = {}
    for m in messages:
        key = thread_key(m)
        if key is None:
            continue
        state = out.get(key)
        if state is None:
            members = [] if key == "ALL" else key.split("+")
            state = out[key] = ThreadState(key, members, 0, 0, marks.get(key, 0), 0)
        state.count += 1
        state.last = max(state.last, m.id)
        if m.id > state.last_read and m.sender != me:
            state.unread += 1
    return out


def mark_read(session: Session, viewer: Viewer, thread: str, last: int) -> ThreadState:
    """Record that the viewer's account has read ``thread`` up to message ``last`` (a mark
    never goes back). A thread the viewer may not read, and a message not in it, answer as
    ones that do not exist (NotFound)."""
    messages = messages_for(session, viewer)
    if not any(m.id == last and thread_key(m) == thread for m in messages):
        raise NotFound()
    values = {"game_id": viewer.game.id, "user_id": viewer.user.id, "thread": thread,
              "last_read": last}
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    insert = dialect.insert(PressRead).values(**values)
    session.execute(insert.on_conflict_do_update(
        index_elements=[PressRead.game_id, PressRead.user_id, PressRead.thread],
        set_={"last_read": case((insert.excluded.last_read > PressRead.last_read,
                                 insert.excluded.last_read), else_=PressRead.last_read)}))
    return thread_states(session, viewer, messages)[thread]
