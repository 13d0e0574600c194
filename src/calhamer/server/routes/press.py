"""Press: messages between powers and to all, as the game's press setting allows."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response

from calhamer.server import present
from calhamer.server.deps import (
    ApiViewer,
    Csrf,
    Now,
    PageDep,
    PageViewer,
    SessionDep,
    SettingsDep,
)
from calhamer.server.pages import redirect
from calhamer.server.routes.orders import typed_back
from calhamer.server.schemas import MessageIn, MessageOut, ReadIn, ThreadOut
from calhamer.server.services import games, press
from calhamer.server.services.common import Conflict, Invalid

api = APIRouter(prefix="/api/games/{game_id}", tags=["press"])
pages = APIRouter(include_in_schema=False)


def _thread_out(state: press.ThreadState) -> ThreadOut:
    return ThreadOut(thread=state.key, members=state.members, messages=state.count,
                     last=state.last, last_read=state.last_read, unread=state.unread)


@api.get("/messages", response_model=list[MessageOut], summary="The messages you may read")
def api_messages(viewer: ApiViewer, session: SessionDep) -> list[MessageOut]:
    return [present.message_out(m) for m in press.messages_for(session, viewer)]


@api.post("/messages", response_model=MessageOut, status_code=201,
          summary="Send a message (to: powers, or empty for all)")
def api_send(body: MessageIn, viewer: ApiViewer, session: SessionDep, now: Now) -> MessageOut:
    message = press.send_message(session, viewer=viewer, recipients=body.to, body=body.body,
                                   now=now)
    session.commit()
    return present.message_out(message)


@pages.post("/games/{game_id}/messages")
def send(request: Request, viewer: PageViewer, page: PageDep, _: Csrf, session: SessionDep,
         now: Now, settings: SettingsDep, body: Annotated[str, Form()] = "",
         to: Annotated[list[str] | None, Form()] = None) -> Response:
    recipients = [t for t in (to or []) if t]
    try:
        if len(body) > settings.max_message_chars:
            raise Invalid(
                f"a message may be at most {settings.max_message_chars} characters")
        press.send_message(session, viewer=viewer, recipients=recipients,
                             body=body.replace("\x00", ""), now=now)
    except (Invalid, Conflict):
        phase = games.current_phase(session, viewer.game).code
        request.state.typed = typed_back(
            session, viewer, page.csrf, phase, action=f"/games/{viewer.game.id}/messages",
            name="body", label="Your message", text=body, button="Send",
            fields=tuple(("to", t) for t in recipients), phase_field=False)
        raise
    session.commit()
    return redirect(f"/games/{viewer.game.id}#press")


@api.get("/threads", response_model=list[ThreadOut],
         summary="Your conversations and how far you have read each",
         description="One per set of participants (`ALL`: the players' messages to all; the "
         "gamemaster's announcements have none). Read marks belong to your account, so they "
         "are the same in every browser and client.")
def api_threads(viewer: ApiViewer, session: SessionDep) -> list[ThreadOut]:
    return [_thread_out(t) for t in press.thread_states(session, viewer).values()]


@api.post("/threads/read", response_model=ThreadOut,
          summary="Mark a conversation read up to a message",
          description="`last` must be the id of a message of that conversation; a mark never "
          "goes back. A conversation you are not in answers 404, as one that does not exist.")
def api_read(body: ReadIn, viewer: ApiViewer, session: SessionDep) -> ThreadOut:
    state = press.mark_read(session, viewer, body.thread, body.last)
    session.commit()
    return _thread_out(state)


@pages.post("/games/{game_id}/threads/read", status_code=204)
def read(viewer: PageViewer, _: Csrf, session: SessionDep,
         thread: Annotated[str, Form(max_length=200)] = "",
         last: Annotated[str, Form(max_length=20)] = "") -> Response:
    """The page's thread was opened: its messages up to ``last`` are read (no page: 204)."""
    if not last.isdigit():
        raise Invalid("say which message was read last")
    press.mark_read(session, viewer, thread, int(last))
    session.commit()
    return Response(status_code=204)
