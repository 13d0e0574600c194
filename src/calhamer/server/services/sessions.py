"""Sessions: each browser login and each API token is a row that can be listed and ended.

A credential (the signed session cookie, a bearer token) names its user and the user's
session epoch; its row, in ``login_sessions``, is found by a digest of the credential
(``security.credential_key``). A credential is accepted while its user's epoch is the one it
carries and its row is not ended. So:

- ending one session (logging out, the sessions page) ends its row;
- ending them all (logging out everywhere, a guest's new return link, a guest's sign-up)
  moves the user's epoch as well, which ends every credential ever signed for them, also one
  that has no row yet.

A credential signed before sessions had rows (or one never used since it was made) gets its
row when it is first seen, so an upgrade logs nobody out. A row is kept until no credential
naming it can be valid any more (``session_max_age`` after it was made: it is never made
before its credential was signed), so an ended session cannot come back as a new row.

Requests read their session's row; they write it (when it was last seen, from where) at most
every ``Settings.session_touch_seconds``, in the request's own transaction when it writes
anyway, otherwise in a short one of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from calhamer.server.models import LoginSession, User

BROWSER = "browser"
API = "api"


@dataclass(frozen=True)
class Seen:
    """Where and when a request was made, for its session's row."""

    now: datetime
    address: str
    agent: str
    touch_seconds: int = 300
    max_age: int = 30 * 24 * 3600


def start(session: Session, user: User, key: str, kind: str, seen: Seen) -> LoginSession:
    """The row of a session just signed for ``user`` (added, not committed). Rows no credential
    can open any more are cleared on the way."""
    session.execute(delete(LoginSession).where(
        LoginSession.created_at < seen.now - timedelta(seconds=seen.max_age)))
    row = LoginSession(key=key, user_id=user.id, kind=kind, created_at=seen.now,
                       last_seen=seen.now, address=seen.address[:64], agent=seen.agent[:120])
    session.add(row)
    return row


_ROW = select(LoginSession.id, LoginSession.user_id, LoginSession.ended_at,
              LoginSession.last_seen).where(LoginSession.key == bindparam("key"))


def is_open(session: Session, user: User, key: str, kind: str, seen: Seen) -> bool:
    """Whether the credential whose key this is may still be used by ``user`` (its epoch was
    checked already): its row is not ended. Records that it was seen."""
    row = session.execute(_ROW, {"key": key}).first()
    if row is None:  # signed before sessions had rows: it gets one now
        _write(session, _first_seen(session, user.id, key, kind, seen))
        return True
    row_id, owner, ended_at, last_seen = row
    if owner != user.id or ended_at is not None:
        return False
    if seen.now - last_seen >= timedelta(seconds=seen.touch_seconds):
        _write(session, update(LoginSession).where(LoginSession.id == row_id).values(
            last_seen=seen.now, address=seen.address[:64], agent=seen.agent[:120]))
    return True


def _first_seen(session: Session, user_id: int, key: str, kind: str, seen: Seen) -> Any:
    values = {"key": key, "user_id": user_id, "kind": kind, "created_at": seen.now,
              "last_seen": seen.now, "address": seen.address[:64], "agent": seen.agent[:120]}
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql_insert(LoginSession).values(values).on_conflict_do_nothing(
            index_elements=["key"])
    if dialect == "sqlite":
        return sqlite_insert(LoginSession).values(values).on_conflict_do_nothing(
            index_elements=["key"])
    return insert(LoginSession).values(values)


def _write(session: Session, statement: Any) -> None:
    """Run a small write for a request: in its own transaction when it writes anyway (on
    SQLite a second writer would wait for it), otherwise in a short transaction of its own."""
    bind = session.get_bind()
    if bind.get_execution_options().get("calhamer_write"):
        session.execute(statement)
        return
    with Session(bind.execution_options(calhamer_write=True)) as writer, writer.begin():
        writer.execute(statement)


def sessions_of(session: Session, user: User, seen: Seen) -> list[LoginSession]:
    """The user's sessions that are open, the one seen last first."""
    return list(session.scalars(
        select(LoginSession)
        .where(LoginSession.user_id == user.id, LoginSession.ended_at.is_(None),
               LoginSession.created_at > seen.now - timedelta(seconds=seen.max_age))
        .order_by(LoginSession.last_seen.desc(), LoginSession.id.desc())))


def end(session: Session, user: User, session_id: int, now: datetime) -> bool:
    """End one of the user's sessions (False: they have no such open session)."""
    ended = session.execute(
        update(LoginSession)
        .where(LoginSession.id == session_id, LoginSession.user_id == user.id,
               LoginSession.ended_at.is_(None))
        .values(ended_at=now))
    return bool(getattr(ended, "rowcount", 0))


def key_of(session: Session, session_id: int) -> str | None:
    """The key of a session's row (None: there is none)."""
    return session.scalar(select(LoginSession.key).where(LoginSession.id == session_id))


def end_key(session: Session, key: str, now: datetime) -> None:
    """End the session of the credential whose key this is (logging out)."""
    session.execute(update(LoginSession)
                    .where(LoginSession.key == key, LoginSession.ended_at.is_(None))
                    .values(ended_at=now))


def end_all(session: Session, user: User, now: datetime) -> None:
    """End every session of the user: their rows, and by moving the epoch every credential
    signed for them, those without a row included. The caller commits."""
    user.session_epoch += 1
    session.execute(update(LoginSession)
                    .where(LoginSession.user_id == user.id, LoginSession.ended_at.is_(None))
                    .values(ended_at=now))
