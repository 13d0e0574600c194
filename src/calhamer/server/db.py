"""The database: one engine, sessions for reading and for writing, and migrations.

On SQLite a writing transaction starts with ``BEGIN IMMEDIATE`` so that it holds the write lock
from its first statement (two writers never deadlock upgrading a read lock), the journal is a
WAL (readers never wait for the writer) and ``synchronous=FULL`` makes a commit durable. On
PostgreSQL rows are locked explicitly where it matters (see ``services.games.lock_game``).
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, select
from sqlalchemy.orm import Session, sessionmaker

from calhamer.server.live_events import LiveHub
from calhamer.server.models import Setting

MIGRATION_LOCK = 0x63616C68  # "calh": the PostgreSQL advisory lock held while migrating


class Database:
    def __init__(self, url: str, *, sqlite_synchronous: str = "FULL",
                 pool: tuple[int, int] | None = None) -> None:
        """``sqlite_synchronous``: FULL makes each commit survive a power cut; NORMAL (tests)
        survives a crash of the process but not of the machine. ``pool``: the connection
        pool's size and overflow (default 15 + 0 on SQLite, 20 + 10 on PostgreSQL: under load a
        connection beyond the pool's size is opened and closed for each request, which on
        PostgreSQL starts a server process each time, so most of the ceiling is kept open)."""
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            if sqlite_synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
                raise ValueError("sqlite_synchronous must be FULL, NORMAL or EXTRA")
            self.engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": 30},
                **_pool_args(pool or (15, 0)))
            _sqlite_hooks(self.engine, sqlite_synchronous.upper())
        else:
            self.engine = create_engine(url, pool_pre_ping=True, **_pool_args(pool or (20, 10)))
        writer = self.engine.execution_options(calhamer_write=True)
        self._read = sessionmaker(self.engine, expire_on_commit=False)
        self._write = sessionmaker(writer, expire_on_commit=False)
        # Live pages: notifications of changes, published in these sessions' transactions.
        self.live = LiveHub(url)
        self.live.attach(self._read, self._write)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def session(self, write: bool = False) -> Session:
        """A new session; ``write=True`` for one that will change the database."""
        return (self._write if write else self._read)()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """A writing session whose work is committed at the end of the block (or rolled back)."""
        with self.session(write=True) as session, session.begin():
            yield session

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic, scripts shipped in this package)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", "calhamer.server:migrations")
        # On SQLite the writing engine takes the write lock at once (BEGIN IMMEDIATE).
        engine = self.engine.execution_options(calhamer_write=True)
        with engine.connect() as connection:
            if not self.is_sqlite:
                connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
                connection.commit()
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                connection.commit()
            finally:
                if not self.is_sqlite:
                    connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})")
                    connection.commit()
                else:
                    # the migrations switch foreign keys off (env.py); this pooled connection
                    # must not keep them off
                    if connection.in_transaction():
                        connection.rollback()
                    raw = connection.connection.driver_connection
                    if raw is not None:
                        raw.execute("PRAGMA foreign_keys=ON")

    def secret_key(self) -> str:
        """The key that signs sessions, made on first use and shared through the database."""
        with self.session() as session:
            row = session.get(Setting, "secret_key")
            if row is not None:
                return row.value
        with contextlib.suppress(Exception), self.transaction() as session:
            if session.get(Setting, "secret_key") is None:
                session.add(Setting(key="secret_key", value=secrets.token_urlsafe(48)))
        with self.session() as session:
            value = session.scalar(select(Setting.value).where(Setting.key == "secret_key"))
        if value is None:
            raise RuntimeError("could not store the session key in the database")
        return value

    def dispose(self) -> None:
        self.live.close()
        self.engine.dispose()


def _pool_args(pool: tuple[int, int]) -> dict[str, int]:
    return {"pool_size": pool[0], "max_overflow": pool[1]}


def _sqlite_hooks(engine: Engine, synchronous: str) -> None:
    # Writers of this process queue on a lock instead of in SQLite's busy handler, which
    # sleeps in steps of up to 100 ms: the lock is taken at BEGIN IMMEDIATE and given back
    # when the connection returns to the pool (after its COMMIT or ROLLBACK). Other processes
    # (workers) still meet the busy handler.
    write_lock = threading.Lock()

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we say BEGIN ourselves (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("calhamer_write", False)
        if write and not connection.info.get("calhamer_lock"):
            write_lock.acquire()
            connection.info["calhamer_lock"] = True
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
        except BaseException:
            _release(connection.info)
            raise

    def _release(info: dict[Any, Any]) -> None:
        if info.pop("calhamer_lock", False):
            write_lock.release()

    @event.listens_for(engine.pool, "checkin")
    def _on_checkin(_dbapi_connection: Any, record: Any) -> None:
        _release(record.info)
