"""The gamemaster's controls: pause, resume, extend, process and end a game.

Each takes the game row's exclusive lock (:func:`~calhamer.server.services.games.lock_for_gm`);
``process`` and ``extend`` act on the phase they name only while it is being played.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from calhamer.errors import CalhamerError
from calhamer.position import Phase
from calhamer.server.models import GameRow, PhaseRow
from calhamer.server.schemas import LONGEST_WAIT_MINUTES
from calhamer.server.services.common import Conflict, Invalid
from calhamer.server.services.games import current_phase, lock_for_gm, log
from calhamer.server.services.orders import request_if_all_ready
from calhamer.server.views import Viewer

CONTROLS = ("pause", "resume", "extend", "process", "end")


def _ensure_named_phase(session: Session, game: GameRow, action: str,
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


def _ensure_within_reach(left: timedelta, minutes: int) -> None:
    """An extension may take a deadline at most ``LONGEST_WAIT_MINUTES`` (366 days) away:
    beyond that a paused game's remaining seconds would outgrow their column, and a running
    one's deadline the calendar, after enough extensions (Conflict, saying how much is left)."""
    room = LONGEST_WAIT_MINUTES - int(left.total_seconds() // 60)
    if minutes > room:
        raise Conflict(f"a deadline may be at most {LONGEST_WAIT_MINUTES // (24 * 60)} days "
                       f"away; this one is {_days(left)} away, so extend it by at most "
                       f"{max(room, 0)} minutes")


def _days(left: timedelta) -> str:
    days = left.total_seconds() / 86400
    return f"{days:.1f} days" if days < 10 else f"{round(days)} days"


def control(
    session: Session, *, viewer: Viewer, action: str, minutes: int | None, now: datetime,
    phase_code: str | None = None,
) -> GameRow:
    """A gamemaster's action. ``process`` and ``extend`` act on one phase, which
    ``phase_code`` must name: the phase being played (Conflict if it is over)."""
    game = lock_for_gm(session, viewer)
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
        request_if_all_ready(session, game, current_phase(session, game))
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
        left = (timedelta(seconds=game.paused_remaining or 0) if game.status == "paused"
                else max(game.deadline or now, now) - now)
        _ensure_within_reach(left, minutes)
        if game.status == "paused":
            game.paused_remaining = int(left.total_seconds()) + minutes * 60
        else:
            game.deadline = now + left + timedelta(minutes=minutes)
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
