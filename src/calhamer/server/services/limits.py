"""Limits on what one client may make: sliding windows kept in the database.

Each new game and each new guest (a user made for someone who is not logged in) is counted
per account and per client address in ``login_failures``, beside the failed logins and
sign-ups, so that every web process counts the same. One beyond a limit is refused with
:class:`TooManyAttempts` (429, ``Retry-After``, and a sentence saying when to try again)
before anything is made.

An attempt is counted and recorded under its limits' locks (:func:`reserve`): of several
requests racing, exactly as many as the limit allows are let through. An attempt that is
refused is not recorded, and one that makes nothing after all (a bad variant, a taken power)
is deleted again, so only what was made counts.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session
from starlette.exceptions import HTTPException

from calhamer.server.config import Settings
from calhamer.server.models import LoginFailure


class TooManyAttempts(HTTPException):
    """An attempt refused because too many came before it (429, with when to try again)."""

    def __init__(self, message: str, wait: int) -> None:
        super().__init__(429, message, headers={"Retry-After": str(wait)})
        self.wait = wait


def in_words(seconds: int) -> str:
    """A wait as a person says it: seconds under a minute, whole minutes (rounded up) after."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def wait_for(times: list[datetime], most: int, window: int, now: datetime) -> int:
    """Seconds until one more attempt fits, ``times`` being the attempts in the window (in
    order, at least ``most`` of them): once enough have left it."""
    frees = times[len(times) - most] + timedelta(seconds=window)
    return max(1, math.ceil((frees - now).total_seconds()))


@dataclass(frozen=True)
class Limit:
    """At most ``most`` attempts under ``scope`` and ``key`` in ``window`` seconds (0: no
    limit); ``what`` names them in the refusal ("games created from your address")."""

    scope: str
    key: str
    most: int
    window: int
    what: str


def game_limits(settings: Settings, address: str, user_id: int | None) -> list[Limit]:
    """The limits a new game counts against: its gamemaster's account (none for a guest made
    with it, whom the guests' limit counts) and the client's address."""
    window = settings.creation_window_seconds
    limits = [Limit("game-addr", address[:64], settings.games_per_address, window,
                    "games created from your address")]
    if user_id is not None:
        limits.insert(0, Limit("game-user", str(user_id), settings.games_per_account, window,
                               "games created by this account"))
    return limits


def guest_limits(settings: Settings, address: str) -> list[Limit]:
    """The limit a new guest counts against: the client's address."""
    return [Limit("guest-addr", address[:64], settings.guests_per_address,
                  settings.creation_window_seconds,
                  "guests made from your address (log in to play without making one)")]


def reserve(session: Session, limits: list[Limit], now: datetime) -> list[LoginFailure]:
    """Count one attempt under each limit and commit it; TooManyAttempts (nothing kept) when
    one of them is full. Returns the rows recorded, for :func:`release`.

    The count and the record are one transaction that holds each limit's lock, so that of
    several attempts racing exactly as many as the limit allows get through: on PostgreSQL an
    advisory lock per limit (taken in one order, so two attempts never wait on each other),
    on SQLite the write lock every writing transaction takes at its start."""
    limits = [limit for limit in limits if limit.most > 0]
    if not limits:
        return []
    _lock(session, limits)
    worst: TooManyAttempts | None = None
    for limit in limits:
        since = now - timedelta(seconds=limit.window)
        session.execute(delete(LoginFailure).where(LoginFailure.scope == limit.scope,
                                                   LoginFailure.at <= since))
        times = list(session.scalars(
            select(LoginFailure.at)
            .where(LoginFailure.scope == limit.scope, LoginFailure.key == limit.key,
                   LoginFailure.at > since)
            .order_by(LoginFailure.at, LoginFailure.id)))
        if len(times) < limit.most:
            continue
        wait = wait_for(times, limit.most, limit.window, now)
        if worst is None or wait > worst.wait:
            worst = TooManyAttempts(f"too many {limit.what}; try again in {in_words(wait)}",
                                    wait)
    if worst is not None:
        session.rollback()  # a refused attempt is not recorded: it does not make the wait longer
        raise worst
    mine = [LoginFailure(scope=limit.scope, key=limit.key, at=now) for limit in limits]
    session.add_all(mine)
    session.commit()  # counted by every attempt after this one; the locks are let go
    return mine


def _lock(session: Session, limits: list[Limit]) -> None:
    """Hold each limit's lock until the transaction ends (PostgreSQL; SQLite's writing
    transaction already holds the database's one write lock)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for name in sorted({f"{limit.scope}:{limit.key}" for limit in limits}):
        session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": name})


def release(session: Session, rows: list[LoginFailure]) -> None:
    """Forget attempts that made nothing, and commit."""
    if rows:
        session.execute(delete(LoginFailure).where(LoginFailure.id.in_([r.id for r in rows])))
        session.commit()


@contextlib.contextmanager
def counted(session: Session, limits: list[Limit], now: datetime) -> Iterator[None]:
    """Count an attempt (:func:`reserve`) for the block, which makes what is counted; when it
    fails, its work is rolled back and the attempt forgotten before the error goes on."""
    rows = reserve(session, limits, now)
    try:
        yield
    except BaseException:
        session.rollback()
        release(session, rows)
        raise
