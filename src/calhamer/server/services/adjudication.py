"""Adjudication, as the workers do it: which game is due, and processing its current phase.

Nothing here decides a result: the library's :class:`calhamer.game.Game` does, and this
module stores what it returns (for a game that hides information, every player's view too).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.orm import Session

from calhamer.game import Game, PhaseRecord, order_lines
from calhamer.server.models import GameRow, PhaseRow
from calhamer.server.services.bids import stored_bids
from calhamer.server.services.common import hides
from calhamer.server.services.games import current_phase, log, next_deadline, required_powers
from calhamer.server.services.orders import order_sets
from calhamer.server.services.results import store_views
from calhamer.victory import Ending
from calhamer.views import PowerView, power_view

logger = logging.getLogger(__name__)


def due_games(now: datetime) -> Select[GameRow]:
    """The statement a worker claims a due game with: one row, locked, skipping locked ones."""
    return (
        select(GameRow)
        .where(
            GameRow.status == "active",
            or_(GameRow.process_requested,
                and_(GameRow.deadline.is_not(None), GameRow.deadline <= now)),
            or_(GameRow.retry_at.is_(None), GameRow.retry_at <= now),
        )
        .order_by(GameRow.deadline, GameRow.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )


def unrequested_games() -> Select[str]:
    """The ids of active games nobody has asked to adjudicate (the worker's start-up sweep
    looks at each for powers that are all ready)."""
    return select(GameRow.id).where(GameRow.status == "active",
                                    GameRow.process_requested.is_(False)).order_by(GameRow.id)


def process_due_phase(
    session: Session, game: GameRow, *, now: datetime, worker: str, pause: float = 0.0,
    pictures: dict[str, PowerView] | None = None,
) -> PhaseRow:
    """Process the due game's current phase: adjudicate it with the stored orders, store its
    results (and each player's view where the variant hides information), and start the next
    phase.

    Runs inside the caller's transaction with the game's row locked; everything it changes
    is committed together or not at all. ``pause`` (tests only) sleeps before returning, so a
    test can kill the worker while the transaction is open.

    Given ``pictures`` (a dict), the players' views are stored without their pictures and put
    in it, for the caller to draw once it has committed (``results.store_pictures``);
    otherwise the pictures are drawn and stored with the views.
    """
    phase = current_phase(session, game)
    orders = {p: order_lines(o.lines)
              for p, o in order_sets(session, phase).items()}
    judged = Game(game.variant, game.rules, [
        PhaseRecord(phase.code, phase.position, orders,
                    bids=stored_bids(session, game, phase)),
    ])
    outcome = judged.process()
    done, following = judged.history
    if hides(game):
        # Each player's view, stored now so that their results are read, never adjudicated,
        # on request (the time an answer takes must not depend on what they may not see).
        views = {seat.power: power_view(outcome, seat.power) for seat in game.seats}
        store_views(session, game, phase, views, pictures=pictures is None)
        if pictures is not None:
            pictures.update(views)
    phase.results = done.results
    phase.processed_at = now
    phase.processed_by = worker
    row = PhaseRow(
        game_id=game.id, index=phase.index + 1, code=following.phase,
        position=following.document,
        required=required_powers(outcome.next, game.rules, phase.required), started_at=now,
    )
    session.add(row)
    game.phase_index = row.index
    game.process_requested = False
    game.retry_at = None
    game.last_error = None
    # The variant's own end: a solo (or a lead), the last power standing, or the last year
    # of a variant that sets one (ranked by centres, the top perhaps shared).
    end = outcome.next.variant.victory.result(outcome.next)
    if end is not None:
        game.winner = end.winner
        game.status = "finished"
        game.deadline = None
        game.end_reason = (f"{outcome.next.map.power(end.winner).name} has won"
                           if end.ending is Ending.SOLO and end.winner else end.reason)
    else:
        game.deadline = next_deadline(game, row.code, now)
        # A phase that waits for nobody (Twenty Twenty's winters, played every year so that
        # each year's victory is checked, often owe no one anything) is due at once: no ready
        # mark will ever come to ask for it.
        game.process_requested = not row.required
    log(session, game.id, now, "adjudicated", f"{phase.code} by {worker}")
    session.flush()
    if pause > 0:
        logger.info("calhamer worker %s: pausing in the transaction of %s %s",
                    worker, game.id, phase.code)
        time.sleep(pause)
    return phase
