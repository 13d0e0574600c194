"""Workers: claim due phases and adjudicate each exactly once.

A worker repeatedly opens a writing transaction, claims one due game with
``SELECT ... FOR UPDATE SKIP LOCKED`` (PostgreSQL; on SQLite the transaction holds the
database's write lock), adjudicates its current phase and commits. Another worker skips a
claimed game, and once the claim commits the game is no longer due, so each phase is
adjudicated once. A worker that dies mid-way (even by SIGKILL) never commits: the database
rolls the transaction back and the phase is claimed again on the next round.

A worker starting up first sweeps for games that wait for nothing: every power they wait for
is ready, yet no adjudication was asked for (ready marks given while a game was paused did not
ask for one before resuming learned to count them). Without the sweep such a game would sit
until its deadline, or for ever when it has none.

Every ``Settings.expiry_sweep_seconds`` (and in ``calhamer worker --once``) a worker also
deletes the games nobody has played (``expiry.unplayed_games``), each under its row's
exclusive lock, and the guests whose only games those were.

Workers also tell the players what they need to know (``notices.sweep``: a new phase, a
near deadline, new press, by e-mail and Web Push) every ``Settings.notice_sweep_seconds``
and after each round that adjudicated something, so that no request waits on a mail server;
a sending that failed is tried again on a later sweep, a bounded number of times
(``notice_sending.Retries``);
and a phase adjudicated closes the proposals made in it that were not decided
(``proposals.lapse_old``).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from datetime import timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.models import User
from calhamer.server.services import adjudication, notices, proposals, results
from calhamer.server.services.expiry import expire_unplayed, forgotten_guests, unplayed_games
from calhamer.server.services.games import current_phase, lock_game
from calhamer.server.services.orders import request_if_all_ready
from calhamer.views import PowerView

logger = logging.getLogger("calhamer.worker")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{threading.current_thread().name}"[:80]


def sweep_ready(db: Database) -> list[str]:
    """Ask for adjudication of every active game whose waited-for powers are all ready but
    which nobody asked to adjudicate; return their ids. Each game is decided under its row's
    exclusive lock, as a ready mark is, so a sweep and a player cannot both miss the moment."""
    with db.transaction() as session:
        candidates = list(session.scalars(adjudication.unrequested_games()))
    asked: list[str] = []
    for game_id in candidates:
        with db.transaction() as session:
            game = lock_game(session, game_id, exclusive=True)
            if game.status != "active" or game.process_requested:
                continue
            request_if_all_ready(session, game, current_phase(session, game))
            if game.process_requested:
                asked.append(game_id)
    for game_id in asked:
        logger.info("game %s had every power ready: asked for its adjudication", game_id)
    return asked


def sweep_unplayed(db: Database, settings: Settings, limit: int = 500) -> list[str]:
    """Delete the games nobody has played (at most ``limit`` a sweep), then the guests left
    with no game; return the ids of the games deleted. Each game is deleted in a transaction
    of its own, decided again under its row's lock (``expiry.expire_unplayed``)."""
    hours = settings.unplayed_game_hours
    if hours <= 0:
        return []
    now = settings.clock()
    with db.session() as session:
        candidates = list(session.scalars(unplayed_games(now, hours).limit(limit)))
    deleted: list[str] = []
    for game_id in candidates:
        with db.transaction() as session:
            if expire_unplayed(session, game_id, now=now, hours=hours):
                deleted.append(game_id)
    guests: list[int] = []
    try:
        with db.transaction() as session:
            guests = list(session.scalars(forgotten_guests(now, hours).limit(limit)))
            if guests:  # decided again in the statement itself, should one have come back
                session.execute(delete(User).where(
                    User.id.in_(guests),
                    User.id.in_(forgotten_guests(now, hours).subquery().select())))
    except IntegrityError:  # one took a seat at this very moment: they stay, until next time
        guests = []
    if deleted or guests:
        logger.info("deleted %d games nobody played and %d guests left with none",
                    len(deleted), len(guests))
    return deleted


def process_one(db: Database, settings: Settings, name: str | None = None) -> str | None:
    """Adjudicate one due phase; return ``"<game> <phase>"``, or None when nothing is due.

    Where the variant hides information, the players' pictures of the phase are drawn after
    the phase is committed, in a transaction of their own (``results.store_pictures``): the
    game's row is locked, and saves of orders wait, only while the phase is adjudicated."""
    name = name or worker_name()
    now = settings.clock()
    pictures: dict[str, PowerView] = {}
    with db.transaction() as session:
        game = session.scalars(adjudication.due_games(now)).first()
        if game is None:
            return None
        game_id = game.id
        try:
            with session.begin_nested():
                phase = adjudication.process_due_phase(
                    session, game, now=now, worker=name,
                    pause=settings.worker_pause_in_transaction, pictures=pictures)
                proposals.lapse_old(session, game, current_phase(session, game).code, now)
        except Exception as exc:  # a bug in adjudication: park the game and say why
            logger.exception("adjudicating game %s failed", game_id)
            game.retry_at = now + timedelta(seconds=settings.worker_retry_seconds)
            game.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            return f"{game_id} failed"
        code = phase.code
    if pictures:
        try:
            with db.transaction() as session:
                results.store_pictures(session, game_id, code, pictures)
        except Exception:  # the pictures are drawn on request instead (stored_picture)
            logger.exception("storing the pictures of game %s %s failed", game_id, code)
    return f"{game_id} {code}"


def process_due(db: Database, settings: Settings, name: str | None = None,
                limit: int | None = None) -> list[str]:
    """Adjudicate due phases until none is due (or ``limit`` were); return what was done."""
    done: list[str] = []
    while limit is None or len(done) < limit:
        result = process_one(db, settings, name)
        if result is None:
            break
        done.append(result)
    return done


class Worker:
    """The loop of ``calhamer worker``, also run as a thread inside ``calhamer serve``."""

    def __init__(self, db: Database, settings: Settings, name: str | None = None) -> None:
        self.db = db
        self.settings = settings
        self.name = name
        self.stopping = threading.Event()
        self.wakeup = threading.Event()  # set it to look for due phases at once
        self.sender: notices.Sender | None = None  # None: mail and push over the network
        self.retries = notices.Retries.of(settings)  # what failed, to try again
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        try:
            sweep_ready(self.db)
        except Exception:  # the database went away: the rounds below will say so again
            logger.exception("sweeping for ready games failed")
        swept = told = float("-inf")
        while not self.stopping.is_set():
            try:
                adjudicated = process_due(self.db, self.settings, self.name)
                for done in adjudicated:
                    logger.info("adjudicated %s", done)
                if adjudicated or time.monotonic() - told >= self.settings.notice_sweep_seconds:
                    told = time.monotonic()
                    self.tell()
                if time.monotonic() - swept >= self.settings.expiry_sweep_seconds:
                    swept = time.monotonic()
                    sweep_unplayed(self.db, self.settings)
            except Exception:  # the database went away: log it and try again later
                logger.exception("worker round failed")
            self.wakeup.wait(self.settings.worker_poll_seconds)
            self.wakeup.clear()

    def tell(self) -> None:
        """Send the notices due (``notices.sweep``), and again those that failed whose wait
        is over (``self.retries``); a failure is logged, never raised."""
        try:
            sent = notices.sweep(self.db, self.settings, self.sender, retries=self.retries)
        except Exception:
            logger.exception("sending notices failed")
            return
        if sent:
            logger.info("sent %d notices", len(sent))

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="calhamer-worker", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self.stopping.set()
        self.wakeup.set()
        if self._thread is not None:
            self._thread.join(timeout)
