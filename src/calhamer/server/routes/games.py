"""Games: create, list, view, and the gamemaster's controls."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from pydantic import ValidationError
from sqlalchemy.orm import Session

from calhamer.documents.phase import PhaseDocument
from calhamer.due import without_orders
from calhamer.position import Position
from calhamer.rules import EDITIONS
from calhamer.server import present
from calhamer.server.deps import (
    ApiUser,
    ApiViewer,
    Csrf,
    Now,
    PageDep,
    PageViewer,
    SessionDep,
    SettingsDep,
    SignerDep,
)
from calhamer.server.models import GameRow, User
from calhamer.server.pages import redirect, render
from calhamer.server.routes.accounts import guest, log_in_browser, return_url
from calhamer.server.routes.bids import bids_context
from calhamer.server.schemas import ControlIn, Deadlines, GameGMOut, GameIn, GameNowOut, GameOut
from calhamer.server.services import common, controls, games, orders, press, results
from calhamer.server.services.common import Invalid, NotFound
from calhamer.server.views import Viewer, viewer_for
from calhamer.variants import find_variant

api = APIRouter(prefix="/api/games", tags=["games"])
pages = APIRouter(include_in_schema=False)


def _create(session: Session, user: User, body: GameIn, now: datetime) -> GameRow:
    return games.create_game(
        session, gm=user, name=body.name, variant=body.variant, rules=body.rules,
        press=body.press, movement_minutes=body.deadlines.movement,
        retreat_minutes=body.deadlines.retreat, adjustment_minutes=body.deadlines.adjustment,
        now=now,
    )


def _wake_worker(request: Request) -> None:
    worker = request.app.state.worker
    if worker is not None:
        worker.wakeup.set()


# -- API ------------------------------------------------------------------------------------------


@api.post("", response_model=GameGMOut, status_code=201, summary="Create a game (you are its GM)")
def api_create(body: GameIn, request: Request, session: SessionDep, user: ApiUser, now: Now,
               settings: SettingsDep) -> GameGMOut:
    game = _create(session, user, body, now)
    session.commit()
    viewer = Viewer(user, game, True, None)
    return present.game_gm_out(session, viewer, present.base_url(settings, str(request.base_url)))


@api.get("", response_model=list[GameOut], summary="The games you run or play")
def api_list(session: SessionDep, user: ApiUser) -> list[GameOut]:
    out = []
    for game in games.games_of(session, user):
        viewer = viewer_for(session, game.id, user)
        if viewer is not None:
            out.append(present.game_out(session, viewer))
    return out


@api.get("/{game_id}", response_model=GameNowOut, summary="The game now, as you may see it")
def api_game_now(viewer: ApiViewer, session: SessionDep) -> GameNowOut:
    phase = games.current_phase(session, viewer.game)
    readable = {
        power: present.orders_out(viewer.game, phase, o)
        for power, o in orders.visible_orders(session, viewer, phase).items()
    }
    last = None
    if phase.index > 0:
        last = games.phases_of(session, viewer.game)[phase.index - 1].code
    return GameNowOut(game=present.game_out(session, viewer, phase),
                      position=PhaseDocument.model_validate(
                          results.position_document(viewer, phase)),
                      orders=readable, last_phase=last)


@api.get("/{game_id}/admin", response_model=GameGMOut,
         summary="The gamemaster's view: seats, invitations, who has ordered")
def api_admin(viewer: ApiViewer, session: SessionDep, request: Request,
              settings: SettingsDep) -> GameGMOut:
    if not viewer.is_gm:
        raise NotFound()
    return present.game_gm_out(session, viewer, present.base_url(settings, str(request.base_url)))


@api.post("/{game_id}/control", response_model=GameGMOut,
          summary="Gamemaster: pause, resume, extend, process now, end",
          description="`process` and `extend` act on one phase: `phase` must name the phase "
          "being played (409 when it has been adjudicated meanwhile; nothing is done).")
def api_control(body: ControlIn, viewer: ApiViewer, session: SessionDep, request: Request,
                now: Now, settings: SettingsDep) -> GameGMOut:
    controls.control(session, viewer=viewer, action=body.action, minutes=body.minutes, now=now,
                     phase_code=body.phase)
    session.commit()
    _wake_worker(request)
    return present.game_gm_out(session, viewer, present.base_url(settings, str(request.base_url)))


# -- pages ----------------------------------------------------------------------------------------


def _choices() -> dict[str, object]:
    return {"variants": games.servable_variants(), "editions": list(EDITIONS),
            "defaults": Deadlines()}


@pages.get("/")
def home(request: Request, page: PageDep, session: SessionDep) -> Response:
    listed = []
    if page.user is not None:
        for game in games.games_of(session, page.user):
            viewer = viewer_for(session, game.id, page.user)
            if viewer is not None:
                listed.append(present.game_out(session, viewer))
    return render(request, "home.html", {"page": page, "games": listed, **_choices()})


@pages.post("/games")
def create(request: Request, page: PageDep, _: Csrf, session: SessionDep, signer: SignerDep,
           now: Now, name: Annotated[str, Form()] = "",
           variant: Annotated[str, Form()] = "standard", rules: Annotated[str, Form()] = "",
           press: Annotated[str, Form()] = "full",
           movement: Annotated[str, Form()] = "1440", retreat: Annotated[str, Form()] = "720",
           adjustment: Annotated[str, Form()] = "720",
           gm_name: Annotated[str, Form()] = "") -> Response:
    try:
        body = GameIn.model_validate({
            "name": name, "variant": variant, "rules": rules or None, "press": press,
            "deadlines": {"movement": movement or 0, "retreat": retreat or 0,
                          "adjustment": adjustment or 0},
        })
        gm_name = gm_name.strip()[:60].replace("\x00", "")
        user = page.user or guest(session, name=gm_name or "Gamemaster", now=now)
        game = _create(session, user, body, now)
    except (ValidationError, Invalid) as exc:
        message = str(exc) if isinstance(exc, Invalid) else "; ".join(
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
        return render(request, "home.html", {"page": page, "games": [], "error": message,
                                             **_choices()}, status=400)
    session.commit()
    if page.user is None:
        log_in_browser(request, signer, user)
    return redirect(f"/games/{game.id}")


@pages.get("/games/{game_id}")
def game_page(request: Request, viewer: PageViewer, page: PageDep, session: SessionDep,
              settings: SettingsDep, signer: SignerDep) -> Response:
    game = viewer.game
    phase = games.current_phase(session, game)
    position = common.position_of(phase)
    mine = orders.own_orders(session, viewer, phase)
    checks = (orders.check_lines(game, phase, viewer.power, list(mine.lines))
              if mine is not None and viewer.power else [])
    context: dict[str, object] = {
        "page": page, "viewer": viewer, "game": present.game_out(session, viewer, phase),
        "phase": phase, "board": results.board_report(viewer, phase), "orders": mine,
        "checks": checks,
        # Lines of the last message saved that were not orders (numbers only: see orders.save).
        "set_aside": [int(n) for n in request.query_params.get("set_aside", "").split(",")
                      if n.isdigit()][:100],
        "my_units": sorted(_units_of(position, viewer.power)) if viewer.power else [],
        "without_orders": without_orders(position, viewer.power) if viewer.power else "",
        "messages": press.messages_for(session, viewer),
        "powers": [(p.code, p.name) for p in position.map.powers],
        "last": None,
        "hidden": common.hides(game),
        "return_url": return_url(request, settings, signer, page.user),
    }
    if common.takes_bids(game) and position.phase.is_movement:
        context["bids"] = bids_context(session, viewer, phase)
    if phase.index > 0:
        previous = games.phases_of(session, game)[phase.index - 1]
        context["last"] = results.phase_result(session, viewer, previous)
    if viewer.is_gm:
        base = present.base_url(settings, str(request.base_url))
        context["admin"] = present.game_gm_out(session, viewer, base)
        if viewer.sees_all:
            context["all_orders"] = orders.visible_orders(session, viewer, phase)
        context["events"] = games.visible_events(session, viewer)[-30:]
    return render(request, "game.html", context)


def _units_of(position: Position, power: str) -> list[str]:
    variant = find_variant(position.variant)
    return [variant.notation.format_unit(position.map, u) for u in position.units_of(power)]


@pages.post("/games/{game_id}/control")
def control(request: Request, viewer: PageViewer, _: Csrf, session: SessionDep, now: Now,
            action: Annotated[str, Form()] = "", phase: Annotated[str, Form()] = "",
            minutes: Annotated[str, Form()] = "") -> Response:
    try:
        body = ControlIn.model_validate({"action": action, "minutes": minutes.strip() or None,
                                         "phase": phase[:12] or None})
    except ValidationError:
        raise Invalid(
            f"choose one of {', '.join(controls.CONTROLS)}, and a whole number of minutes "
            "from 1 to 86400"
        ) from None
    controls.control(session, viewer=viewer, action=body.action, minutes=body.minutes, now=now,
                     phase_code=body.phase)
    session.commit()
    _wake_worker(request)
    return redirect(f"/games/{viewer.game.id}")
