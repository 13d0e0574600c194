"""Typed dependencies: each cross-cutting need of a route as one ``Annotated`` alias.

A route declares ``db: SessionDep`` to get a session (a writing one for POST, PUT and
DELETE), ``user: ApiUser`` for the bot API's bearer-token user, ``page: PageDep`` for the
browser's signed-cookie session, ``viewer: ApiViewer`` or ``PageViewer`` for the caller's
standing in the game named in the path (404 when the game is unknown or not theirs), and
``_: Csrf`` on every form POST.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, cast

from fastapi import Depends, HTTPException, Request
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, lazyload

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.models import GameRow, User
from calhamer.server.security import (
    COOKIE,
    Passwords,
    SessionData,
    Signer,
    TokenError,
    credential_key,
    new_nonce,
    same_token,
)
from calhamer.server.services import sessions
from calhamer.server.services.common import NotFound
from calhamer.server.services.games import lock_game
from calhamer.server.views import Viewer, caller_in_game, viewer_for

SET_COOKIE_KEY = "calhamer.set_cookie"  # scope key read by the cookie middleware (app.py)


class AuthError(Exception):
    """A session cookie or token that has expired or is not valid (401)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CsrfError(Exception):
    """A form POST without the right CSRF token (403)."""


# Dependencies that only read what is at hand are ``async``: FastAPI runs each plain ``def``
# dependency in its thread pool, a hop per dependency and request. Those that use the
# database stay plain functions (they block).


async def get_settings(request: Request) -> Settings:
    return cast(Settings, request.app.state.settings)


async def get_database(request: Request) -> Database:
    return cast(Database, request.app.state.db)


async def get_signer(request: Request) -> Signer:
    return cast(Signer, request.app.state.signer)


async def get_passwords(request: Request) -> Passwords:
    return cast(Passwords, request.app.state.passwords)


SettingsDep = Annotated[Settings, Depends(get_settings)]
DatabaseDep = Annotated[Database, Depends(get_database)]
SignerDep = Annotated[Signer, Depends(get_signer)]
PasswordsDep = Annotated[Passwords, Depends(get_passwords)]


def get_session(request: Request, db: DatabaseDep) -> Iterator[Session]:
    """A session for this request; routes commit what they change before they answer."""
    write = request.method not in ("GET", "HEAD", "OPTIONS")
    with db.session(write=write) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


async def get_now(settings: SettingsDep) -> datetime:
    return settings.clock()


Now = Annotated[datetime, Depends(get_now)]


_USER = select(User).where(User.id == bindparam("user_id"))  # built once: every request asks


SESSION_ENDED = "your session has ended; log in again"


def seen_of(request: Request) -> sessions.Seen:
    """When and from where this request comes, for its session's row."""
    settings = cast(Settings, request.app.state.settings)
    return sessions.Seen(settings.clock(), request.client.host if request.client else "unknown",
                         request.headers.get("user-agent", ""),
                         settings.session_touch_seconds, settings.session_max_age)


def _user(session: Session, user_id: int | None, epoch: int, key: str, kind: str,
          request: Request) -> User | None:
    """The credential's user (None: nobody is logged in); AuthError when it has been ended
    (the user's epoch moved, or its session's row was ended: ``services.sessions``)."""
    if user_id is None:
        return None
    user = session.scalars(_USER, {"user_id": user_id}).first()
    if (user is None or user.session_epoch != epoch
            or not sessions.is_open(session, user, key, kind, seen_of(request))):
        raise AuthError(SESSION_ENDED)
    return user


# -- the bot API: bearer tokens -----------------------------------------------------------------


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not value.strip():
        raise AuthError('send the token as "Authorization: Bearer <token>"')
    return value.strip()


def optional_api_user(request: Request, session: SessionDep, signer: SignerDep) -> User | None:
    token = _bearer(request)
    if token is None:
        return None
    try:
        user_id, epoch = signer.read_token(token)
    except TokenError as exc:
        raise AuthError("your token has expired; log in again" if exc.expired
                        else "the token is not valid") from None
    return _user(session, user_id, epoch, credential_key(token), sessions.API, request)


OptionalApiUser = Annotated[User | None, Depends(optional_api_user)]


async def api_user(user: OptionalApiUser) -> User:
    if user is None:
        raise AuthError('log in first: send "Authorization: Bearer <token>"')
    return user


ApiUser = Annotated[User, Depends(api_user)]


def api_viewer(game_id: str, session: SessionDep, user: ApiUser) -> Viewer:
    viewer = viewer_for(session, game_id, user)
    if viewer is None:
        raise NotFound()
    return viewer


ApiViewer = Annotated[Viewer, Depends(api_viewer)]


# -- the bot API in one trip to a thread --------------------------------------------------------
#
# A route that declares ``ApiViewer`` resolves its session, its user and its viewer each in a
# trip of its own to FastAPI's thread pool, and then runs in one more: hand-offs that cost a
# busy route (saving orders) more CPU than its own work. ``PendingViewer`` reads the token in
# the event loop (no database) and leaves the rest to the route, which does it all in one
# thread with :meth:`PendingViewer.resolve`: the same answers, in the same order (401 for the
# token, then 404 for the game), as ``ApiViewer``'s.


@dataclass(frozen=True)
class PendingViewer:
    """A bearer token whose signature has been checked, for the game named in the path: who
    the caller is in that game is settled by :meth:`resolve`, in the route's own thread."""

    game_id: str
    user_id: int
    epoch: int
    key: str  # the token's session (services.sessions)
    seen: sessions.Seen

    def resolve(self, session: Session, *, lock: bool | None = None) -> Viewer:
        """The caller's standing in the game (AuthError: the token's user is gone or logged
        out; NotFound: no such game, or not theirs), as ``api_viewer`` answers. With ``lock``
        the game's row is read locked (``games.lock_game``: shared, or exclusive when True),
        as a save would lock it next."""
        user, standing = caller_in_game(session, self.game_id, self.user_id)
        if (user is None or user.session_epoch != self.epoch
                or not sessions.is_open(session, user, self.key, sessions.API, self.seen)):
            raise AuthError(SESSION_ENDED)
        if standing is None:
            raise NotFound()
        if lock is None:
            game = session.scalars(_GAME, {"game_id": self.game_id}).first()
        else:
            game = lock_game(session, self.game_id, exclusive=lock, seats=False)
        if game is None:  # deleted meanwhile
            raise NotFound()
        return standing.viewer(game)


# The game's row, its seats read when first used (as ``viewer_for`` reads it).
_GAME = select(GameRow).where(GameRow.id == bindparam("game_id")).options(
    lazyload(GameRow.seats))


PENDING_KEY = "calhamer.pending_viewer"  # scope key: the 422 handler settles it first (app.py)


async def pending_api_viewer(game_id: str, request: Request) -> PendingViewer:
    signer = cast(Signer, request.app.state.signer)  # not a dependency: one fewer to solve
    token = _bearer(request)
    if token is None:
        raise AuthError('log in first: send "Authorization: Bearer <token>"')
    try:
        user_id, epoch = signer.read_token(token)
    except TokenError as exc:
        raise AuthError("your token has expired; log in again" if exc.expired
                        else "the token is not valid") from None
    pending = PendingViewer(game_id, user_id, epoch, credential_key(token), seen_of(request))
    # A body that is not valid is refused (422) before the route runs: the handler settles
    # the caller first, so that a stranger is told 401 or 404 as by ``ApiViewer``.
    request.scope[PENDING_KEY] = pending
    return pending


ApiPendingViewer = Annotated[PendingViewer, Depends(pending_api_viewer)]


# -- pages: the signed session cookie -----------------------------------------------------------


@dataclass
class PageSession:
    """The browser's session: who is logged in (maybe nobody) and the CSRF token."""

    data: SessionData
    user: User | None
    expired: bool = False  # the browser came with a cookie that is no longer valid
    key: str | None = None  # the cookie's session (services.sessions), when logged in

    @property
    def csrf(self) -> str:
        return self.data.csrf


def set_session_cookie(request: Request, signer: Signer, data: SessionData) -> None:
    request.scope[SET_COOKIE_KEY] = signer.cookie(data)


def page_session(request: Request, session: SessionDep, signer: SignerDep) -> PageSession:
    raw = request.cookies.get(COOKIE)
    expired = False
    if raw:
        try:
            data = signer.read_cookie(raw)
            key = credential_key(raw)
            user = _user(session, data.user_id, data.epoch, key, sessions.BROWSER, request)
            return PageSession(data, user, key=key if user is not None else None)
        except (TokenError, AuthError):
            expired = True
    data = SessionData(None, 0, new_nonce())
    set_session_cookie(request, signer, data)
    return PageSession(data, None, expired)


PageDep = Annotated[PageSession, Depends(page_session)]


def page_viewer(game_id: str, session: SessionDep, page: PageDep) -> Viewer:
    if page.expired:
        raise AuthError("your session has expired; log in again or reopen your invitation link")
    viewer = viewer_for(session, game_id, page.user)
    if viewer is None:
        raise NotFound()
    return viewer


PageViewer = Annotated[Viewer, Depends(page_viewer)]


async def csrf_protect(request: Request, page: PageDep) -> None:
    """Refuse a form POST whose ``csrf_token`` field (or ``X-CSRF-Token``) is not ours."""
    given = request.headers.get("x-csrf-token")
    if given is None:
        content_type = request.headers.get("content-type", "")
        if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            try:
                form = await request.form()
            except HTTPException:
                raise
            except Exception:
                raise CsrfError() from None
            value = form.get("csrf_token")
            given = value if isinstance(value, str) else None
    if page.expired or not same_token(given, page.csrf):
        raise CsrfError()


Csrf = Annotated[None, Depends(csrf_protect)]


# -- live pages: who is asking, in a session closed before the stream waits ---------------------


def briefly_resolved(request: Request, game_id: str, *, api: bool) -> Viewer:
    """The caller's standing in the game, as ``ApiViewer`` (``api``) or ``PageViewer`` would
    give it (the same errors), read in a session of its own that is closed on return: a
    live stream must not hold a database connection while it waits. Runs in a thread."""
    db = cast(Database, request.app.state.db)
    signer = cast(Signer, request.app.state.signer)
    with db.session() as session:
        if api:
            user = optional_api_user(request, session, signer)
            if user is None:
                raise AuthError('log in first: send "Authorization: Bearer <token>"')
            return api_viewer(game_id, session, user)
        return page_viewer(game_id, session, page_session(request, session, signer))
