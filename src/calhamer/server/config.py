"""Settings of the web judge, read from the environment once at start-up.

Every setting has a default that works on one machine with nothing else installed: SQLite in
the user's data directory, a secret key kept in the database, one embedded worker.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from calhamer.errors import CalhamerError

if TYPE_CHECKING:
    from calhamer.server.db import Database


def utcnow() -> datetime:
    """Now, in UTC, without a time zone (the database stores naive UTC times)."""
    return datetime.now(UTC).replace(tzinfo=None)


def default_database_url() -> str:
    """SQLite in the user's data directory (``~/.local/share/calhamer`` on Linux)."""
    from platformdirs import user_data_dir

    directory = Path(user_data_dir("calhamer", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'calhamer.db'}"


def normalize_database_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` and use the psycopg 3 driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass
class Settings:
    database_url: str = ""
    sqlite_synchronous: str = "FULL"  # NORMAL: faster commits that a power cut may undo
    # Signs session cookies and API tokens. Empty: generated once and kept in the database, so
    # that every web process sharing the database shares it.
    secret_key: str = ""
    session_max_age: int = 30 * 24 * 3600  # seconds a login lasts
    max_body_bytes: int = 64 * 1024  # larger requests get 413
    max_order_lines: int = 200
    max_message_chars: int = 5000
    embedded_worker: bool = True  # run a worker thread inside the web process
    worker_poll_seconds: float = 1.0
    worker_retry_seconds: int = 60  # wait after a phase failed to adjudicate
    public_url: str = ""  # used in invitation links; empty: taken from each request
    secure_cookies: bool = False  # set when served over HTTPS
    # Failed logins: at most so many in the sliding window per user name and per client
    # address; a login beyond that is refused (429) without hashing the password.
    login_window_seconds: int = 15 * 60
    login_failures_per_account: int = 5
    login_failures_per_address: int = 20
    # Sign-ups (each hashes a password, which is slow on purpose): at most so many per client
    # address in the window; one beyond that is refused (429) before any hashing.
    signup_window_seconds: int = 60 * 60
    signups_per_address: int = 10
    # New games and guests (each game makes seven seats and a phase for the workers): at most
    # so many in the sliding window per account and per client address; one beyond that is
    # refused (429) before anything is made. 0 turns a limit off.
    creation_window_seconds: int = 60 * 60
    games_per_account: int = 20
    games_per_address: int = 30
    guests_per_address: int = 120
    # A game nobody has played is deleted this long after anything last happened in it (see
    # services.expiry.unplayed_games); the workers look every ``expiry_sweep_seconds``. 0: never.
    unplayed_game_hours: int = 7 * 24
    expiry_sweep_seconds: float = 600.0
    # Games in each list of the lobby's pages and of ``GET /api/lobby``.
    lobby_page_size: int = 25
    # A session's row records when it was last seen at most this often (seconds), so that a
    # request reads its session's row and seldom writes it.
    session_touch_seconds: int = 5 * 60
    # argon2id cost; the defaults are argon2-cffi's (RFC 9106 low-memory profile).
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 64 * 1024
    # Live pages (server-sent events): a stream is woken by a notification of a change in its
    # game (``live_events``), reads again after ``events_settle_seconds`` (a burst of changes
    # is read once), and ends after ``events_seconds`` (the browser then reconnects by
    # itself), so that no connection is held for ever; 0 sends the current state once and
    # ends. A quiet stream sends a comment every 20 s (``routes.live.KEEPALIVE_SECONDS``) so
    # proxies keep it open: reconnecting costs a request and a read, which a thousand pages
    # reconnecting every few seconds would pay all the time. At most ``events_per_user``
    # streams per user (one more: 429) and ``events_per_process`` in each web process (503).
    # No stream holds a database connection while it waits.
    events_seconds: float = 600.0
    events_settle_seconds: float = 0.1
    events_per_user: int = 4
    events_per_process: int = 2000
    # Notices (services.notices): the SMTP server that mails them (no host: no mail; the
    # password is read from CALHAMER_SMTP_PASSWORD, as ``calhamer game mail`` reads it), the
    # Web Push key (empty: one is made once and kept in the database) and the contact its
    # push services are given, and how often a worker looks for what to tell.
    smtp_host: str = ""
    smtp_port: int = 0  # 0: the security's usual port
    smtp_security: str = "none"  # none, starttls, ssl
    smtp_user: str = ""
    mail_from: str = ""
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:calhamer@localhost"
    notice_sweep_seconds: float = 30.0
    # A notice whose sending failed for a reason that may pass is tried again after
    # ``notice_retry_seconds``, the wait doubling each time, ``notice_attempts`` tries in all;
    # then it is given up (logged).
    notice_retry_seconds: float = 60.0
    notice_attempts: int = 5
    # For tests only: seconds a worker sleeps inside its transaction before committing.
    worker_pause_in_transaction: float = 0.0
    clock: Callable[[], datetime] = field(default=utcnow, repr=False)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env = os.environ
        settings = cls(
            database_url=env.get("CALHAMER_DATABASE_URL", ""),
            sqlite_synchronous=env.get("CALHAMER_SQLITE_SYNCHRONOUS", "FULL"),
            secret_key=env.get("CALHAMER_SECRET_KEY", ""),
            public_url=env.get("CALHAMER_PUBLIC_URL", "").rstrip("/"),
            secure_cookies=env.get("CALHAMER_SECURE_COOKIES", "") in ("1", "true", "yes"),
            worker_pause_in_transaction=float(env.get("CALHAMER_TEST_WORKER_PAUSE", "0") or 0),
            embedded_worker=env.get("CALHAMER_EMBEDDED_WORKER", "1") not in ("0", "false", "no"),
            smtp_host=env.get("CALHAMER_SMTP_HOST", ""),
            smtp_security=env.get("CALHAMER_SMTP_SECURITY", "none"),
            smtp_user=env.get("CALHAMER_SMTP_USER", ""),
            mail_from=env.get("CALHAMER_MAIL_FROM", ""),
            vapid_private_key=env.get("CALHAMER_VAPID_PRIVATE_KEY", ""),
            vapid_subject=env.get("CALHAMER_VAPID_SUBJECT", "mailto:calhamer@localhost"),
        )
        for name in _FROM_ENV:
            given = env.get(f"CALHAMER_{name.upper()}", "").strip()
            if given:
                setattr(settings, name, _whole_number(name, given))
        for key, value in overrides.items():
            setattr(settings, key, value)
        return settings

    def resolved_database_url(self) -> str:
        return normalize_database_url(self.database_url or default_database_url())

    def open_database(self) -> Database:
        """The database these settings name (not yet migrated)."""
        from calhamer.server.db import Database

        return Database(self.resolved_database_url(), sqlite_synchronous=self.sqlite_synchronous)


# Settings also read from ``CALHAMER_<NAME>`` (whole numbers): the limits an operator tunes.
_FROM_ENV = ("games_per_account", "games_per_address", "guests_per_address",
             "unplayed_game_hours", "lobby_page_size", "smtp_port")


class SettingError(CalhamerError, ValueError):
    """A setting from the environment that is not valid (the command line says it in one
    line)."""


def _whole_number(name: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise SettingError(f"CALHAMER_{name.upper()} must be a whole number (0 or more), "
                           f"not {value!r}")
    return number
