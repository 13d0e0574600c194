"""Accounts: sign up, log in, log out, and turning a guest into an account.

A guest is made when someone uses an invitation link or creates a game without logging in;
they can later pick a user name and password here to come back from another browser. Until
then their way back is their **return link** (``/return/<token>``), shown when they join or
create a game, on their game pages and their account page: opening it in any browser logs
them in as that guest again. Making a new one revokes the old one, and signing up (which
keeps their games) revokes it for good: from then on they log in with their password.

Every login is a session that can be ended (``services.sessions``): logging out ends this
browser's; a guest's new return link and a guest's sign-up end all of the guest's others
(whoever used a leaked link is logged out); ``/account/sessions`` lists one's browsers and
API tokens (when made, when last seen, from which address) and ends any of them.

Failed logins are limited per user name and per client address, in a sliding window kept in
the database (``login_failures``) so that every web process counts the same attempts. Each
attempt is recorded before its password is hashed and counted after, so that attempts made
at the same moment cannot slip past the limit together; one refused costs no hashing.
Sign-ups (and guests choosing a password) are limited per client address the same way, in
the same table, since each one hashes a password too.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from pydantic import ValidationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from calhamer.server.config import Settings
from calhamer.server.deps import (
    SET_COOKIE_KEY,
    ApiUser,
    Csrf,
    Now,
    PageDep,
    PasswordsDep,
    SessionDep,
    SettingsDep,
    SignerDep,
    seen_of,
    set_session_cookie,
)
from calhamer.server.models import LoginFailure, LoginSession, User
from calhamer.server.pages import redirect, render, render_error
from calhamer.server.present import base_url, user_out
from calhamer.server.schemas import (
    ErrorOut,
    LoginIn,
    SessionOut,
    SignupIn,
    TokenOut,
    UserOut,
)
from calhamer.server.security import (
    Passwords,
    SessionData,
    Signer,
    TokenError,
    credential_key,
    new_nonce,
    same_token,
)
from calhamer.server.services import sessions
from calhamer.server.services.common import Conflict, Invalid, NotFound
from calhamer.server.services.games import games_of
from calhamer.server.services.limits import Limit, TooManyAttempts, in_words, reserve, wait_for

api = APIRouter(prefix="/api", tags=["accounts"])
pages = APIRouter(include_in_schema=False)


def create_user(session: Session, *, passwords: Passwords, signup: SignupIn,
                now: datetime) -> User:
    taken = session.scalar(select(User.id).where(User.username == signup.username.lower()))
    if taken is not None:
        raise Conflict(f"the user name {signup.username!r} is taken")
    user = User(username=signup.username.lower(),
                display_name=(signup.display_name or signup.username).strip(),
                password_hash=passwords.hash(signup.password), session_epoch=0, created_at=now)
    session.add(user)
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(f"the user name {signup.username!r} is taken") from None
    return user


def _refusal(session: Session, settings: Settings, keys: list[tuple[str, str]],
             mine: list[LoginFailure], since: datetime, now: datetime) -> TooManyAttempts | None:
    """Why this attempt is refused (None: it is not): too many other attempts under one of
    its keys in the window. Those recorded before this one count, those being checked at the
    same moment included; those recorded after it do not, so that in a burst of attempts the
    first ones are judged and the rest refused, never all of them."""
    limits = {"account": (settings.login_failures_per_account, "for this user name"),
              "address": (settings.login_failures_per_address, "from your address")}
    first_of_mine = min(row.id for row in mine)
    worst: TooManyAttempts | None = None
    for scope, key in keys:
        limit, where = limits[scope]
        times = [at for row_id, at in session.execute(
            select(LoginFailure.id, LoginFailure.at)
            .where(LoginFailure.scope == scope, LoginFailure.key == key, LoginFailure.at > since)
            .order_by(LoginFailure.at, LoginFailure.id)) if row_id < first_of_mine]
        if len(times) < limit:
            continue
        # Free again once enough of them have left the window for this one to fit.
        wait = wait_for(times, limit, settings.login_window_seconds, now)
        if worst is None or wait > worst.wait:
            worst = TooManyAttempts(f"too many failed logins {where}; try again in "
                                    f"{in_words(wait)}", wait)
    return worst


def limit_signups(session: Session, *, settings: Settings, address: str,
                  now: datetime) -> None:
    """Count a sign-up from ``address``; TooManyAttempts (before any hashing) if too many came
    from there in the window. Recorded first and counted after, as failed logins are."""
    reserve(session, [Limit("signup", address[:64], settings.signups_per_address,
                            settings.signup_window_seconds, "sign-ups from your address")], now)


def authenticate(session: Session, *, passwords: Passwords, login: LoginIn, address: str,
                 settings: Settings, now: datetime) -> User:
    """The user whose name and password these are; Invalid if they are wrong, TooManyAttempts
    (before any hashing) if too many logins failed lately for the name or the address."""
    account = login.username.lower()
    keys = [("account", account[:64]), ("address", address[:64])]
    since = now - timedelta(seconds=settings.login_window_seconds)
    session.execute(delete(LoginFailure).where(LoginFailure.at <= since))
    mine = [LoginFailure(scope=scope, key=key, at=now) for scope, key in keys]
    session.add_all(mine)
    session.commit()  # counted by every other attempt from now on, before the slow hashing
    refused = _refusal(session, settings, keys, mine, since, now)
    if refused is not None:
        for row in mine:  # a refused attempt does not make the wait longer
            session.delete(row)
        session.commit()
        raise refused
    user = session.scalars(select(User).where(User.username == account)).first()
    if not passwords.verify(user.password_hash if user else None, login.password):
        raise Invalid("wrong user name or password")  # the attempt stays a failure
    assert user is not None
    # Not a failure after all; the account starts afresh (its owner knows the password).
    session.delete(mine[1])
    session.execute(delete(LoginFailure).where(LoginFailure.scope == "account",
                                               LoginFailure.key == keys[0][1]))
    session.commit()
    return user


def client_address(request: Request) -> str:
    """The caller's address (behind a proxy, as ``--proxy-headers`` reports it)."""
    return request.client.host if request.client else "unknown"


def issue_token(request: Request, session: Session, signer: Signer, user: User) -> str:
    """A new API token for ``user``, and its session's row (committed)."""
    token = signer.token(user.id, user.session_epoch)
    sessions.start(session, user, credential_key(token), sessions.API, seen_of(request))
    session.commit()
    return token


def token_out(request: Request, session: Session, signer: Signer, user: User) -> TokenOut:
    return TokenOut(token=issue_token(request, session, signer, user),
                    expires_in=signer.max_age, user=user_out(user))


def log_in_browser(request: Request, session: Session, signer: Signer, user: User) -> None:
    """Start a fresh browser session for ``user`` (a new CSRF token too), its row committed."""
    cookie = signer.cookie(SessionData(user.id, user.session_epoch, new_nonce(),
                                       new_nonce()[:12]))
    sessions.start(session, user, credential_key(cookie), sessions.BROWSER, seen_of(request))
    session.commit()
    request.scope[SET_COOKIE_KEY] = cookie


def guest(session: Session, *, name: str, now: datetime) -> User:
    user = User(username=None, display_name=name.strip() or "Guest", password_hash=None,
                session_epoch=0, created_at=now, return_nonce=new_return_nonce())
    session.add(user)
    session.flush()
    return user


# -- a guest's return link --------------------------------------------------------------------

RETURN_REFUSED = ("this return link does not work: it has been replaced by a newer one, or "
                  "its guest has signed up since (then log in with that user name and "
                  "password); check that you copied the whole link")


def new_return_nonce() -> str:
    return secrets.token_urlsafe(16)


def return_url(request: Request, settings: Settings, signer: Signer,
               user: User | None) -> str | None:
    """The return link of a guest (None for an account, or nobody)."""
    if user is None or user.username is not None or not user.return_nonce:
        return None
    base = base_url(settings, str(request.base_url))
    return f"{base}/return/{signer.return_token(user.id, user.return_nonce)}"


def guest_of_return_token(session: Session, signer: Signer, token: str) -> User | None:
    """The guest a return link is for, or None when it is not (or no longer) valid."""
    if len(token) > 200:
        return None
    try:
        user_id, nonce = signer.read_return_token(token)
    except TokenError:
        return None
    user = session.get(User, user_id)
    if user is None or user.username is not None or not user.return_nonce:
        return None
    return user if same_token(nonce, user.return_nonce) else None


# -- API ------------------------------------------------------------------------------------------


@api.post("/users", response_model=TokenOut, status_code=201, summary="Sign up",
          description="After too many sign-ups from your address the answer is 429, saying "
          "(and `Retry-After` giving in seconds) when to try again.")
def api_signup(body: SignupIn, request: Request, session: SessionDep, passwords: PasswordsDep,
               signer: SignerDep, settings: SettingsDep, now: Now) -> TokenOut:
    limit_signups(session, settings=settings, address=client_address(request), now=now)
    user = create_user(session, passwords=passwords, signup=body, now=now)
    session.commit()
    return token_out(request, session, signer, user)


@api.post("/sessions", response_model=TokenOut, summary="Log in (get a bearer token)",
          description="After too many failed logins for the user name or from your address "
          "the answer is 429, saying (and `Retry-After` giving in seconds) when to try again.")
def api_login(body: LoginIn, request: Request, session: SessionDep, passwords: PasswordsDep,
              signer: SignerDep, settings: SettingsDep, now: Now) -> TokenOut:
    user = authenticate(session, passwords=passwords, login=body,
                        address=client_address(request), settings=settings, now=now)
    return token_out(request, session, signer, user)


@api.get("/me", response_model=UserOut, summary="Who the token belongs to")
def api_me(user: ApiUser) -> UserOut:
    return user_out(user)


@api.delete("/sessions", status_code=204,
            summary="Log out everywhere (every token and browser session ends)")
def api_logout_everywhere(user: ApiUser, session: SessionDep, now: Now) -> Response:
    sessions.end_all(session, user, now)
    session.commit()
    return Response(status_code=204)


def _session_out(row: LoginSession, current: str | None) -> SessionOut:
    return SessionOut(id=row.id, kind="api" if row.kind == sessions.API else "browser",
                      created_at=row.created_at, last_seen=row.last_seen, address=row.address,
                      agent=row.agent, current=row.key == current)


def _token_key(request: Request) -> str:
    """The session key of the bearer token this request was made with."""
    return credential_key(request.headers.get("authorization", "").partition(" ")[2].strip())


@api.get("/sessions", response_model=list[SessionOut],
         summary="Your sessions: browsers logged in and API tokens",
         description="Each with when it was made, when it was last seen (to within a few "
         "minutes) and from which address; `current` marks the token of this request.")
def api_sessions(user: ApiUser, request: Request, session: SessionDep) -> list[SessionOut]:
    current = _token_key(request)
    session.commit()  # a fresh snapshot: the row of a token first seen just now is listed
    return [_session_out(row, current)
            for row in sessions.sessions_of(session, user, seen_of(request))]


@api.delete("/sessions/{session_id}", status_code=204,
            summary="End one of your sessions (a browser's login or a token)",
            description="404 when you have no such session open. Ending the session of this "
                        "request's own token logs that token out.",
            responses={404: {"model": ErrorOut, "description": "You have no such session open "
                             "(it is another account's, has ended, or never was)."}})
def api_end_session(session_id: int, user: ApiUser, session: SessionDep, now: Now) -> Response:
    if not sessions.end(session, user, session_id, now):
        raise NotFound()
    session.commit()
    return Response(status_code=204)


# -- pages ----------------------------------------------------------------------------------------


@pages.get("/signup")
def signup_page(request: Request, page: PageDep) -> Response:
    return render(request, "signup.html", {"page": page})


@pages.post("/signup")
def signup(request: Request, page: PageDep, _: Csrf, session: SessionDep,
           passwords: PasswordsDep, signer: SignerDep, settings: SettingsDep, now: Now,
           username: Annotated[str, Form()] = "", password: Annotated[str, Form()] = "",
           display_name: Annotated[str, Form()] = "") -> Response:
    try:
        body = SignupIn(username=username, password=password, display_name=display_name or None)
        limit_signups(session, settings=settings, address=client_address(request), now=now)
        if page.user is not None and page.user.username is None:
            user = _claim(session, passwords, page.user, body)  # a guest keeps their games
            # Whoever came in as the guest (a return link, a copied cookie) is logged out:
            # from now on the way in is the password.
            sessions.end_all(session, user, now)
        else:
            user = create_user(session, passwords=passwords, signup=body, now=now)
    except ValidationError as exc:
        return _form_error(request, page, "signup.html", exc, username=username)
    except Conflict as exc:
        return render(request, "signup.html", {"page": page, "error": str(exc),
                                               "username": username}, status=409)
    except TooManyAttempts as exc:
        return render(request, "signup.html", {"page": page, "error": exc.detail,
                                               "username": username},
                      status=429, headers={"Retry-After": str(exc.wait)})
    session.commit()
    log_in_browser(request, session, signer, user)
    return redirect("/")


def _claim(session: Session, passwords: Passwords, user: User, body: SignupIn) -> User:
    taken = session.scalar(select(User.id).where(User.username == body.username.lower()))
    if taken is not None:
        raise Conflict(f"the user name {body.username!r} is taken")
    user.username = body.username.lower()
    user.password_hash = passwords.hash(body.password)
    user.return_nonce = None  # from now on the password is the way back
    if body.display_name:
        user.display_name = body.display_name.strip()
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(f"the user name {body.username!r} is taken") from None
    return user


@pages.get("/login")
def login_page(request: Request, page: PageDep) -> Response:
    return render(request, "login.html", {"page": page})


@pages.post("/login")
def login(request: Request, page: PageDep, _: Csrf, session: SessionDep,
          passwords: PasswordsDep, signer: SignerDep, settings: SettingsDep, now: Now,
          username: Annotated[str, Form()] = "", password: Annotated[str, Form()] = "") -> Response:
    try:
        user = authenticate(session, passwords=passwords,
                            login=LoginIn(username=username, password=password),
                            address=client_address(request), settings=settings, now=now)
    except (ValidationError, Invalid):
        return render(request, "login.html", {"page": page, "username": username,
                                              "error": "wrong user name or password"},
                      status=400)
    except TooManyAttempts as exc:
        return render(request, "login.html", {"page": page, "username": username,
                                              "error": exc.detail},
                      status=429, headers={"Retry-After": str(exc.wait)})
    log_in_browser(request, session, signer, user)
    return redirect("/")


@pages.get("/logout")
def logout_page(request: Request, page: PageDep, settings: SettingsDep,
                signer: SignerDep) -> Response:
    """Before logging out: a guest is told how they will come back (or that they will not)."""
    return render(request, "logout.html", {
        "page": page, "return_url": return_url(request, settings, signer, page.user)})


@pages.post("/logout")
def logout(request: Request, page: PageDep, _: Csrf, session: SessionDep, signer: SignerDep,
           now: Now) -> Response:
    """End this browser's session: its cookie, copied anywhere, opens nothing any more."""
    if page.key is not None:
        sessions.end_key(session, page.key, now)
        session.commit()
    set_session_cookie(request, signer, SessionData(None, 0, new_nonce()))
    return redirect("/")


@pages.get("/account")
def account_page(request: Request, page: PageDep, settings: SettingsDep,
                 signer: SignerDep) -> Response:
    if page.user is None:
        return redirect("/login")
    return render(request, "account.html", {
        "page": page, "return_url": return_url(request, settings, signer, page.user)})


@pages.post("/account/return-link")
def new_return_link(request: Request, page: PageDep, _: Csrf, session: SessionDep,
                    signer: SignerDep, now: Now) -> Response:
    """A guest's new return link; the old one stops working, and every other session of the
    guest ends (whoever came in with a leaked link is logged out). This browser stays in."""
    if page.user is None:
        return redirect("/login")
    if page.user.username is not None:
        raise Conflict("only a guest has a return link; you log in with your user name and "
                       "password")
    page.user.return_nonce = new_return_nonce()
    sessions.end_all(session, page.user, now)
    session.commit()
    log_in_browser(request, session, signer, page.user)
    return redirect("/account?new_link=1#return")


@pages.get("/return/{token}")
def return_page(token: str, request: Request, page: PageDep, session: SessionDep,
                signer: SignerDep) -> Response:
    """What a return link leads to: whom it logs in, and a button to do it (a link preview
    fetching the address must not log anybody in)."""
    user = guest_of_return_token(session, signer, token)
    if user is None:
        return render_error(request, 404, RETURN_REFUSED)
    names = [g.name for g in games_of(session, user)]
    return render(request, "return.html", {"page": page, "guest": user, "token": token,
                                           "game_names": names})


@pages.post("/return/{token}")
def return_(token: str, request: Request, page: PageDep, _: Csrf, session: SessionDep,
            signer: SignerDep) -> Response:
    """Log this browser in as the guest of the return link."""
    user = guest_of_return_token(session, signer, token)
    if user is None:
        return render_error(request, 404, RETURN_REFUSED)
    log_in_browser(request, session, signer, user)
    return redirect("/")


def _form_error(request: Request, page: object, template: str, exc: ValidationError,
                **context: object) -> Response:
    problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}"
                         for e in exc.errors())
    return render(request, template, {"page": page, "error": problems, **context}, status=400)


# -- the sessions page ---------------------------------------------------------------------------


@pages.get("/account/sessions")
def sessions_page(request: Request, page: PageDep, session: SessionDep) -> Response:
    """Where one is logged in: each browser and API token, this browser's marked."""
    if page.user is None:
        return redirect("/login")
    session.commit()  # a fresh snapshot: the row of a cookie first seen just now is listed
    rows = sessions.sessions_of(session, page.user, seen_of(request))
    return render(request, "sessions.html", {
        "page": page, "sessions": [_session_out(row, page.key) for row in rows]})


@pages.post("/account/sessions/end-others")
def end_other_sessions(request: Request, page: PageDep, _: Csrf, session: SessionDep,
                       signer: SignerDep, now: Now) -> Response:
    """End every session but this browser's (which starts afresh: every credential signed
    before, tokens and sessions not yet listed included, stops working)."""
    if page.user is None:
        return redirect("/login")
    sessions.end_all(session, page.user, now)
    session.commit()
    log_in_browser(request, session, signer, page.user)
    return redirect("/account/sessions?ended=others")


@pages.post("/account/sessions/{session_id}/end")
def end_session(session_id: int, request: Request, page: PageDep, _: Csrf, session: SessionDep,
                signer: SignerDep, now: Now) -> Response:
    """End one session; this browser's own is logging out."""
    if page.user is None:
        return redirect("/login")
    if not sessions.end(session, page.user, session_id, now):
        raise NotFound()
    session.commit()
    if page.key is not None and sessions.key_of(session, session_id) == page.key:
        set_session_cookie(request, signer, SessionData(None, 0, new_nonce()))
        return redirect("/")
    return redirect("/account/sessions?ended=one")
