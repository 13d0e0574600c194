"""Accounts: sign up, log in, log out, and turning a guest into an account.

A guest is made when someone uses an invitation link or creates a game without logging in;
they can later pick a user name and password here to come back from another browser.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from calhamer.server.deps import (
    ApiUser,
    Csrf,
    Now,
    PageDep,
    PasswordsDep,
    SessionDep,
    SettingsDep,
    SignerDep,
    set_session_cookie,
)
from calhamer.server.models import User
from calhamer.server.pages import redirect, render
from calhamer.server.present import user_out
from calhamer.server.schemas import LoginIn, SignupIn, TokenOut, UserOut
from calhamer.server.security import Passwords, SessionData, Signer, new_nonce
from calhamer.server.service import Conflict, Invalid

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


def authenticate(session: Session, *, passwords: Passwords, login: LoginIn) -> User:
    user = session.scalars(select(User).where(User.username == login.username.lower())).first()
    if not passwords.verify(user.password_hash if user else None, login.password):
        raise Invalid("wrong user name or password")
    assert user is not None
    return user


def token_out(signer: Signer, user: User) -> TokenOut:
    return TokenOut(token=signer.token(user.id, user.session_epoch),
                    expires_in=signer.max_age, user=user_out(user))


def log_in_browser(request: Request, signer: Signer, user: User) -> None:
    """Start a fresh browser session for ``user`` (a new CSRF token too)."""
    set_session_cookie(request, signer, SessionData(user.id, user.session_epoch, new_nonce()))


def guest(session: Session, *, name: str, now: datetime) -> User:
    user = User(username=None, display_name=name.strip() or "Guest", password_hash=None,
                session_epoch=0, created_at=now)
    session.add(user)
    session.flush()
    return user


# -- API ------------------------------------------------------------------------------------------


@api.post("/users", response_model=TokenOut, status_code=201, summary="Sign up")
def api_signup(body: SignupIn, session: SessionDep, passwords: PasswordsDep, signer: SignerDep,
               now: Now) -> TokenOut:
    user = create_user(session, passwords=passwords, signup=body, now=now)
    session.commit()
    return token_out(signer, user)


@api.post("/sessions", response_model=TokenOut, summary="Log in (get a bearer token)")
def api_login(body: LoginIn, session: SessionDep, passwords: PasswordsDep,
              signer: SignerDep) -> TokenOut:
    return token_out(signer, authenticate(session, passwords=passwords, login=body))


@api.get("/me", response_model=UserOut, summary="Who the token belongs to")
def api_me(user: ApiUser) -> UserOut:
    return user_out(user)


@api.delete("/sessions", status_code=204, summary="Log out everywhere (every token ends)")
def api_logout_everywhere(user: ApiUser, session: SessionDep) -> Response:
    user.session_epoch += 1
    session.commit()
    return Response(status_code=204)


# -- pages ----------------------------------------------------------------------------------------


@pages.get("/signup")
def signup_page(request: Request, page: PageDep) -> Response:
    return render(request, "signup.html", {"page": page})


@pages.post("/signup")
def signup(request: Request, page: PageDep, _: Csrf, session: SessionDep,
           passwords: PasswordsDep, signer: SignerDep, now: Now,
           username: Annotated[str, Form()] = "", password: Annotated[str, Form()] = "",
           display_name: Annotated[str, Form()] = "") -> Response:
    try:
        body = SignupIn(username=username, password=password, display_name=display_name or None)
        if page.user is not None and page.user.username is None:
            user = _claim(session, passwords, page.user, body)  # a guest keeps their games
        else:
            user = create_user(session, passwords=passwords, signup=body, now=now)
    except ValidationError as exc:
        return _form_error(request, page, "signup.html", exc, username=username)
    except Conflict as exc:
        return render(request, "signup.html", {"page": page, "error": str(exc),
                                               "username": username}, status=409)
    session.commit()
    log_in_browser(request, signer, user)
    return redirect("/")


def _claim(session: Session, passwords: Passwords, user: User, body: SignupIn) -> User:
    taken = session.scalar(select(User.id).where(User.username == body.username.lower()))
    if taken is not None:
        raise Conflict(f"the user name {body.username!r} is taken")
    user.username = body.username.lower()
    user.password_hash = passwords.hash(body.password)
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
          passwords: PasswordsDep, signer: SignerDep,
          username: Annotated[str, Form()] = "", password: Annotated[str, Form()] = "") -> Response:
    try:
        user = authenticate(session, passwords=passwords,
                            login=LoginIn(username=username, password=password))
    except (ValidationError, Invalid):
        return render(request, "login.html", {"page": page, "username": username,
                                              "error": "wrong user name or password"},
                      status=400)
    log_in_browser(request, signer, user)
    return redirect("/")


@pages.post("/logout")
def logout(request: Request, page: PageDep, _: Csrf, signer: SignerDep) -> Response:
    set_session_cookie(request, signer, SessionData(None, 0, new_nonce()))
    return redirect("/")


@pages.get("/account")
def account_page(request: Request, page: PageDep, settings: SettingsDep) -> Response:
    if page.user is None:
        return redirect("/login")
    return render(request, "account.html", {"page": page})


def _form_error(request: Request, page: object, template: str, exc: ValidationError,
                **context: object) -> Response:
    problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}"
                         for e in exc.errors())
    return render(request, template, {"page": page, "error": problems, **context}, status=400)
