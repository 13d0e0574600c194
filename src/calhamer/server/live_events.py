"""Live pages' notifications: a game's open pages are told that something in it changed, and
each then reads again, in a short session of its own, what its viewer may see.

A change is published with :func:`publish` inside the transaction that makes it (orders
saved, a ready mark, a message, a log entry: a phase judged, a seat changing hands, a
gamemaster's control). A notification is only the game's id, a kind and, for a change only
one power's player (and whoever sees everything) may see, that power: never what changed, so
it cannot tell a page more than the page reads for its own viewer afterwards. The power only
spares the other pages a read that would find nothing new: with 200 saves a second over a
thousand open pages, waking every page of a game for each save cost seven reads a save.

- On PostgreSQL it is a ``NOTIFY`` in that transaction: delivered when it commits (never when
  it rolls back), to every web process. Each process keeps one listening connection (a
  thread of its own, outside the pool), not one per page.
- On SQLite it is handed to this process's :class:`LiveHub` once the transaction commits.
  What other processes change (a separate ``calhamer worker`` judging a phase) is heard by a
  thread that reads the game log's new entries once a second (:class:`_LogWatcher`); a
  SQLite database has one web process, so orders and messages are always this process's.

The hub also bounds the streams: so many per user (a further one is refused, 429) and so many
in the process (503).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

logger = logging.getLogger("calhamer.live")

CHANNEL = "calhamer_live"
HUB_KEY = "calhamer_live_hub"  # Session.info: the database's hub
PENDING_KEY = "calhamer_live_pending"  # Session.info: SQLite's notifications until commit
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")

KINDS = ("orders", "press", "log")  # orders or ready marks; a message; a game log entry


def publish(session: Session, game_id: str, kind: str, power: str | None = None) -> None:
    """Tell the game's open pages, once this transaction commits, that something of ``kind``
    changed in it: all of them, or with ``power`` only that power's and those of viewers who
    see everything (a change nobody else may see, such as a power's own orders in a phase
    not yet judged). Only the id, the kind and the power travel: each page woken reads what
    its viewer may see."""
    hub = session.info.get(HUB_KEY)
    if hub is None:
        return
    if hub.is_postgresql:
        payload = f"{game_id} {kind}" + (f" {power}" if power else "")
        session.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})
    else:
        session.info.setdefault(PENDING_KEY, set()).add((game_id, kind, power))


class TooManyStreams(Exception):
    """A stream over the bounds: ``per_user`` says whose (429), otherwise the process's
    (503)."""

    def __init__(self, per_user: bool) -> None:
        super().__init__("too many live streams")
        self.per_user = per_user


@dataclass(eq=False)
class Subscription:
    """One open stream's place in the hub: woken when its game changes in a way its viewer
    (playing ``power``, or seeing everything) may see."""

    game_id: str
    user_id: int
    loop: asyncio.AbstractEventLoop
    power: str | None = None
    sees_all: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout: float) -> bool:
        """Wait for a change (True) or ``timeout`` seconds (False); the change is taken."""
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        self.changed.clear()
        return True


class LiveHub:
    """One process's open streams by game, and the way notifications reach them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_postgresql = url.startswith("postgresql")
        self._lock = threading.Lock()
        self._games: dict[str, set[Subscription]] = {}
        self._users: dict[int, int] = {}
        self._count = 0
        self._listener: _Listener | _LogWatcher | None = None

    # -- streams ------------------------------------------------------------------------

    def subscribe(self, game_id: str, user_id: int, *, per_user: int, overall: int,
                  power: str | None = None, sees_all: bool = False) -> Subscription:
        """A new stream's subscription (TooManyStreams over a bound), for a viewer playing
        ``power`` or seeing everything. Called in the event loop; PostgreSQL's listener
        starts with the first."""
        sub = Subscription(game_id, user_id, asyncio.get_running_loop(), power, sees_all)
        with self._lock:
            if per_user and self._users.get(user_id, 0) >= per_user:
                raise TooManyStreams(per_user=True)
            if overall and self._count >= overall:
                raise TooManyStreams(per_user=False)
            self._games.setdefault(game_id, set()).add(sub)
            self._users[user_id] = self._users.get(user_id, 0) + 1
            self._count += 1
            if self._listener is None:
                self._listener = (_Listener(self) if self.is_postgresql
                                  else _LogWatcher.of(self))
                if self._listener is not None:
                    self._listener.start()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._games.get(sub.game_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                del self._games[sub.game_id]
            left = self._users[sub.user_id] - 1
            if left:
                self._users[sub.user_id] = left
            else:
                del self._users[sub.user_id]
            self._count -= 1

    def streams(self, user_id: int | None = None) -> int:
        """Open streams: the user's, or all of this process's."""
        with self._lock:
            return self._count if user_id is None else self._users.get(user_id, 0)

    def notify(self, game_id: str | None, power: str | None = None) -> None:
        """Wake the game's streams (every stream for None: notifications may have been
        missed); with ``power``, only that power's and those that see everything. Safe from
        any thread."""
        with self._lock:
            if game_id is None:
                subs = [s for group in self._games.values() for s in group]
            else:
                subs = [s for s in self._games.get(game_id, ())
                        if power is None or s.sees_all or s.power == power]
        for sub in subs:
            with contextlib.suppress(RuntimeError):  # its loop has closed
                sub.loop.call_soon_threadsafe(sub.changed.set)

    # -- the database's side --------------------------------------------------------------

    def attach(self, *makers: sessionmaker[Session]) -> None:
        """Make sessions from ``makers`` carry this hub; on SQLite, hand their notifications
        to it when they commit."""
        for maker in makers:
            maker.configure(info={HUB_KEY: self})
            if not self.is_postgresql:
                event.listen(maker, "after_commit", self._after_commit)
                event.listen(maker, "after_rollback", _forget)

    def _after_commit(self, session: Session) -> None:
        # The session's event fires for a savepoint released too (``begin_nested``), while the
        # transaction around it is still open: a page woken then would read the state before
        # the change, and hear nothing more once it is committed. Only the outermost commit
        # hands the notifications over.
        if session.in_nested_transaction():
            return
        for game_id, _kind, power in session.info.pop(PENDING_KEY, ()):
            self.notify(game_id, power)

    def close(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()

    def listening(self) -> bool:
        """Whether PostgreSQL's listening connection is up (tests wait for it)."""
        listener = self._listener
        return listener is not None and listener.ready.is_set()


def _forget(session: Session) -> None:
    session.info.pop(PENDING_KEY, None)


def conninfo(url: str) -> str:
    """A libpq address for a SQLAlchemy PostgreSQL URL (its options kept)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class _Listener:
    """PostgreSQL's one listening connection of this process, in a thread of its own; it
    reconnects when the connection is lost, then wakes every stream (what was notified
    meanwhile is not known)."""

    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub
        self.ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="calhamer-live", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as exc:  # a lost connection: try again shortly
                self.ready.clear()
                logger.warning("live notifications: %s; reconnecting", exc)
                self._stop.wait(1.0)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(conninfo(self.hub.url), autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self.ready.set()
            self.hub.notify(None)
            while not self._stop.is_set():
                for note in _notes(conn):
                    game_id, _kind, power = [*note.payload.split(" "), "", ""][:3]
                    self.hub.notify(game_id, power or None)


class _LogWatcher:
    """SQLite's ear for other processes: a thread that reads, once a second, the game log's
    entries written since it last looked (every phase judged, seat changed or control used
    is logged) and wakes their games' streams. One small indexed query a second, whatever
    the number of pages; an entry this process wrote wakes its game a second time, which
    costs its pages one read and sends nothing new."""

    SECONDS = 1.0

    def __init__(self, hub: LiveHub, path: str) -> None:
        self.hub = hub
        self.path = path
        self.ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="calhamer-live", daemon=True)

    @classmethod
    def of(cls, hub: LiveHub) -> _LogWatcher | None:
        """The watcher for the hub's database file (None for a database in memory, which no
        other process can open)."""
        path = make_url(hub.url).database
        if not path or path == ":memory:" or path.startswith("file::memory:"):
            return None
        return cls(hub, path)

    def start(self) -> None:
        """Start, and wait (briefly, once per process) until the log's last entry is known:
        an entry written after the first stream opened must count as new."""
        self._thread.start()
        self.ready.wait(5.0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import sqlite3

        last: int | None = None
        while not self._stop.is_set():
            try:
                with contextlib.closing(sqlite3.connect(self.path, timeout=5)) as conn:
                    if last is None:
                        last = conn.execute("SELECT coalesce(max(id), 0) FROM events"
                                            ).fetchone()[0]
                        self.ready.set()
                    while not self._stop.wait(self.SECONDS):
                        rows = conn.execute("SELECT id, game_id FROM events WHERE id > ? "
                                            "ORDER BY id", (last,)).fetchall()
                        conn.rollback()  # end the read, so the next one sees new commits
                        for game_id in dict.fromkeys(game for _id, game in rows):
                            self.hub.notify(game_id)
                        if rows:
                            last = rows[-1][0]
            except sqlite3.Error as exc:  # a locked or missing file: look again shortly
                logger.warning("live notifications: %s; trying again", exc)
                self._stop.wait(self.SECONDS)


def _notes(conn: Any) -> Iterator[Any]:
    """The notifications that arrive within a second."""
    return iter(conn.notifies(timeout=1.0))
