"""Seats: joining a power through its invitation, and the gamemaster replacing a player."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response

from calhamer.server import present
from calhamer.server.deps import (
    ApiViewer,
    Csrf,
    Now,
    OptionalApiUser,
    PageDep,
    PageViewer,
    SessionDep,
    SettingsDep,
    SignerDep,
)
from calhamer.server.names import clean_name
from calhamer.server.pages import redirect, render
from calhamer.server.routes.accounts import (
    client_address,
    guest,
    issue_token,
    log_in_browser,
    return_url,
)
from calhamer.server.schemas import ErrorOut, JoinIn, JoinOut, SeatGMOut
from calhamer.server.services import limits, seats
from calhamer.server.services.common import Invalid

api = APIRouter(prefix="/api", tags=["players"])
pages = APIRouter(include_in_schema=False)


@api.post("/join", response_model=JoinOut, summary="Take a power with its invitation token",
          description="Without a bearer token a guest user is made for you; keep the token "
          "this returns, and its `return_url`: opened in a browser, it logs the guest in. "
          "After too many guests made from your address the answer is 429, saying (and "
          "`Retry-After` giving in seconds) when to try again.",
          responses={429: {"model": ErrorOut, "description": "Too many new guests lately."}})
def api_join(body: JoinIn, request: Request, session: SessionDep, user: OptionalApiUser,
             signer: SignerDep, settings: SettingsDep, now: Now) -> JoinOut:
    seats.seat_for_invite(session, body.invite)  # an unknown invitation: 404, no guest made
    counts = [] if user else limits.guest_limits(settings, client_address(request))
    with limits.counted(session, counts, now):
        user = user or guest(session, name=body.name or "Player", now=now)
        seat = seats.join(session, token=body.invite, user=user, now=now)
    session.commit()
    return JoinOut(game_id=seat.game_id, power=seat.power,
                   token=issue_token(request, session, signer, user),
                   user=present.user_out(user),
                   return_url=return_url(request, settings, signer, user))


@api.post("/games/{game_id}/seats/{power}/replace", response_model=SeatGMOut,
          summary="Gamemaster: free a power and make a new invitation for it")
def api_replace(power: str, viewer: ApiViewer, session: SessionDep, request: Request,
                settings: SettingsDep, now: Now) -> SeatGMOut:
    seat = seats.replace_player(session, viewer=viewer, power=power, now=now)
    session.commit()
    admin = present.game_gm_out(session, viewer, present.base_url(settings, str(request.base_url)))
    return next(s for s in admin.seats if s.power == seat.power)


@pages.get("/join/{token}")
def join_page(token: str, request: Request, page: PageDep, session: SessionDep) -> Response:
    seat = seats.seat_for_invite(session, token)
    game = seat.game
    taken = seat.user_id is not None and (page.user is None or seat.user_id != page.user.id)
    is_gm = page.user is not None and game.gm_id == page.user.id
    return render(request, "join.html", {"page": page, "seat": seat, "game": game,
                                         "token": token, "taken": taken, "is_gm": is_gm})


@pages.post("/join/{token}")
def join(token: str, request: Request, page: PageDep, _: Csrf, session: SessionDep,
         signer: SignerDep, settings: SettingsDep, now: Now,
         name: Annotated[str, Form()] = "") -> Response:
    seats.seat_for_invite(session, token)
    if page.user is None:
        try:
            name = clean_name(name[:200], limit=60, what="your name", required=False)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
    counts = [] if page.user else limits.guest_limits(settings, client_address(request))
    with limits.counted(session, counts, now):  # too many: 429, an error page saying when
        user = page.user or guest(session, name=name or "Player", now=now)
        seat = seats.join(session, token=token, user=user, now=now)
    session.commit()
    if page.user is None:
        log_in_browser(request, session, signer, user)
    return redirect(f"/games/{seat.game_id}")


@pages.post("/games/{game_id}/seats/{power}/replace")
def replace(power: str, viewer: PageViewer, _: Csrf, session: SessionDep, now: Now) -> Response:
    seats.replace_player(session, viewer=viewer, power=power, now=now)
    session.commit()
    return redirect(f"/games/{viewer.game.id}#seats")
