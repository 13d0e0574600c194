"""Notices: what an account is told and where (e-mail, this browser's push), and the orders
due in each game (``services.notices``)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.orm import Session, object_session

from calhamer.server.deps import ApiUser, Csrf, Now, PageDep, SessionDep
from calhamer.server.models import User
from calhamer.server.pages import redirect, templates
from calhamer.server.schemas import NO_NUL
from calhamer.server.services import notices
from calhamer.server.services.common import Invalid

api = APIRouter(prefix="/api/notices", tags=["notices"])
pages = APIRouter(include_in_schema=False)


class NoticeSettingsIn(BaseModel):
    email: str | None = Field(None, max_length=254, pattern=NO_NUL,
                              description="Where to mail notices (null or empty: no mail).")
    phase: bool = Field(True, description="A new phase needs your orders, or a game is over.")
    deadline: bool = Field(True, description="A deadline within the hour, no orders saved.")
    press: bool = Field(True, description="New press you may read.")


class NoticeSettingsOut(NoticeSettingsIn):
    push_subscriptions: int = Field(description="Browsers of yours that get push notices.")
    vapid_public_key: str = Field(description="The applicationServerKey to subscribe with.")


class PushKeys(BaseModel):
    p256dh: str = Field(max_length=200, pattern=NO_NUL)
    auth: str = Field(max_length=100, pattern=NO_NUL)


class SubscriptionIn(BaseModel):
    endpoint: str = Field(max_length=1000, pattern=NO_NUL)
    keys: PushKeys


def _settings_out(session: Session, request: Request, user: User) -> NoticeSettingsOut:
    row = notices.settings_of(session, user.id)
    return NoticeSettingsOut(email=row.email, phase=row.phase, deadline=row.deadline,
                             press=row.press,
                             push_subscriptions=len(notices.subscriptions_of(session, user.id)),
                             vapid_public_key=_public_key(request))


def _public_key(request: Request) -> str:
    state = request.app.state
    key = getattr(state, "vapid_public_key", None)
    if key is None:
        key = notices.vapid_public_key(notices.vapid_key(state.db, state.settings))
        state.vapid_public_key = key
    return str(key)


@api.get("", response_model=NoticeSettingsOut, summary="What you are told, and where")
def api_settings(user: ApiUser, session: SessionDep, request: Request) -> NoticeSettingsOut:
    return _settings_out(session, request, user)


@api.put("", response_model=NoticeSettingsOut, summary="Choose what you are told, and where")
def api_save(body: NoticeSettingsIn, user: ApiUser, session: SessionDep,
             request: Request) -> NoticeSettingsOut:
    notices.save_settings(session, user.id, email=body.email, phase=body.phase,
                          deadline=body.deadline, press=body.press)
    session.commit()
    return _settings_out(session, request, user)


@api.post("/push", status_code=201, response_model=NoticeSettingsOut,
          summary="Keep a browser's push subscription")
def api_subscribe(body: SubscriptionIn, user: ApiUser, session: SessionDep, now: Now,
                  request: Request) -> NoticeSettingsOut:
    notices.subscribe(session, user.id, body.endpoint, body.keys.p256dh, body.keys.auth, now)
    session.commit()
    return _settings_out(session, request, user)


@api.delete("/push", response_model=NoticeSettingsOut,
            summary="Forget a browser's push subscription")
def api_unsubscribe(endpoint: str, user: ApiUser, session: SessionDep,
                    request: Request) -> NoticeSettingsOut:
    notices.unsubscribe(session, user.id, endpoint)
    session.commit()
    return _settings_out(session, request, user)


# -- pages --------------------------------------------------------------------------------------


def _back(value: str) -> str:
    """Where a form returns to: a path of this site (else the account page)."""
    return value if value.startswith("/") and not value.startswith("//") else "/account"


@pages.post("/account/notices")
def save(page: PageDep, _: Csrf, session: SessionDep,
         email: Annotated[str, Form()] = "", phase: Annotated[str, Form()] = "",
         deadline: Annotated[str, Form()] = "", press: Annotated[str, Form()] = "",
         back: Annotated[str, Form()] = "/account") -> Response:
    if page.user is None:
        return redirect("/login")
    notices.save_settings(session, page.user.id, email=email[:300], phase=bool(phase),
                          deadline=bool(deadline), press=bool(press))
    session.commit()
    target = _back(back[:300])
    return redirect(target + ("&" if "?" in target else "?") + "notices=saved#notices")


async def _json(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (ValueError, RuntimeError):  # not JSON, or a form (read already, for its token)
        raise Invalid("send the subscription as JSON") from None


@pages.post("/account/push")
async def push_subscribe(request: Request, page: PageDep, _: Csrf, session: SessionDep,
                         now: Now) -> Response:
    """This browser's push subscription, as ``PushSubscription.toJSON()`` gives it. It is
    kept in the request's own session: on SQLite that session holds the process's write lock
    (``db._sqlite_hooks``), which a second transaction would wait for for ever."""
    if page.user is None:
        return Response(status_code=401)
    try:
        body = SubscriptionIn.model_validate(await _json(request))
    except ValidationError:
        raise Invalid("a push subscription has an endpoint and its keys (p256dh, auth)") \
            from None
    user_id = page.user.id

    def keep() -> None:
        notices.subscribe(session, user_id, body.endpoint, body.keys.p256dh, body.keys.auth,
                          now)
        session.commit()

    from starlette.concurrency import run_in_threadpool

    await run_in_threadpool(keep)
    return Response(status_code=204)


@pages.post("/account/push/remove")
def push_unsubscribe(page: PageDep, _: Csrf, session: SessionDep,
                     endpoint: Annotated[str, Form()] = "") -> Response:
    if page.user is None:
        return redirect("/login")
    notices.unsubscribe(session, page.user.id, endpoint[:1000])
    session.commit()
    return redirect("/account#notices")


# -- the templates' part (templates/_notices.html) ----------------------------------------------


def _session(request: Request, user: User) -> Session:
    session = object_session(user)
    if session is None:  # pragma: no cover - pages read the user in their own session
        raise RuntimeError("the user is not in a session")
    return session


def notice_state(request: Request, user: User | None) -> dict[str, Any] | None:
    """The ``notice_state`` of the templates: the account's settings, its push subscriptions
    and the orders due in its games (None when nobody is logged in)."""
    if user is None:
        return None
    session = _session(request, user)
    return {"settings": notices.settings_of(session, user.id),
            "subscriptions": len(notices.subscriptions_of(session, user.id)),
            "marks": notices.order_marks(session, user.id),
            "public_key": _public_key(request),
            "labels": notices.KIND_LABELS,
            "mail": bool(request.app.state.settings.smtp_host)}


templates.env.globals["notice_state"] = notice_state
