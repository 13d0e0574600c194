"""Games: create, list, view, and the gamemaster's controls."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request, Response
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.datastructures import FormData
from starlette.datastructures import UploadFile as StarletteUpload

from calhamer.documents.phase import PhaseDocument
from calhamer.due import without_orders
from calhamer.position import Position
from calhamer.rules import EDITIONS
from calhamer.server import play, present
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
from calhamer.server.models import GameRow, Message, PhaseRow, User
from calhamer.server.names import clean_name
from calhamer.server.pages import redirect, render
from calhamer.server.routes import live
from calhamer.server.routes.accounts import client_address, guest, log_in_browser, return_url
from calhamer.server.routes.bids import bids_context
from calhamer.server.routes.pictures import possible_orders_for
from calhamer.server.schemas import (
    ControlIn,
    Deadlines,
    ErrorOut,
    GameGMOut,
    GameIn,
    GameNowOut,
    GameOut,
    SeatChangeOut,
)
from calhamer.server.services import (
    boards,
    common,
    controls,
    games,
    limits,
    orders,
    press,
    results,
    seats,
)
from calhamer.server.services.common import Invalid, NotFound
from calhamer.server.views import Viewer, viewer_for
from calhamer.variants import find_variant

api = APIRouter(prefix="/api/games", tags=["games"])
pages = APIRouter(include_in_schema=False)

LISTED = "listed"  # the game-log entry of a game listed in the lobby (routes/lobby.py)


def _create(session: Session, user: User, body: GameIn, now: datetime) -> GameRow:
    game = games.create_game(
        session, gm=user, name=body.name, variant=body.variant, rules=body.rules,
        press=body.press, movement_minutes=body.deadlines.movement,
        retreat_minutes=body.deadlines.retreat, adjustment_minutes=body.deadlines.adjustment,
        now=now,
    )
    if body.listed:
        # The lobby lists the games whose log says so (services.games.log): no column of its
        # own, the log already being where a game's public life is kept.
        games.log(session, game.id, now, LISTED, "listed in the lobby: anyone may take a free "
                  "power")
    return game


def _wake_worker(request: Request) -> None:
    worker = request.app.state.worker
    if worker is not None:
        worker.wakeup.set()


# -- API ------------------------------------------------------------------------------------------


@api.post("", response_model=GameGMOut, status_code=201, summary="Create a game (you are its GM)",
          description="After too many new games from your account or your address the answer "
          "is 429, saying (and `Retry-After` giving in seconds) when to try again.",
          responses={429: {"model": ErrorOut, "description": "Too many new games lately."}})
def api_create(body: GameIn, request: Request, session: SessionDep, user: ApiUser, now: Now,
               settings: SettingsDep) -> GameGMOut:
    counts = limits.game_limits(settings, client_address(request), user.id)
    with limits.counted(session, counts, now):
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
        previous = games.phase_at(session, viewer.game, phase.index - 1, position=False)
        last = previous.code if previous is not None else None
    changes = [SeatChangeOut(at=e.at, text=e.detail)
               for e in seats.seat_changes(session, viewer.game)]
    return GameNowOut(game=present.game_out(session, viewer, phase),
                      position=PhaseDocument.model_validate(
                          results.position_document(viewer, phase)),
                      orders=readable, last_phase=last, seat_changes=changes)


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
    return {"variants": games.variant_groups(), "editions": list(EDITIONS),
            "defaults": Deadlines(), "boards": games.board_choices(),
            "modules": games.module_choices(), "chosen": NewGameChoice(),
            "previews": {p.name: p for p in boards.variant_previews()},
            "board_previews": {p.name: p for p in boards.board_previews()}}


@dataclass
class NewGameChoice:
    """What the new-game form was sent with, to show it again beside a problem."""

    source: str = "preset"  # "preset", "modules" (composed on the form) or "file" (uploaded)
    board: str = "standard"
    modules: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)


async def _form(request: Request) -> FormData:
    # The new-game form's fields that vary with the modules (opt_<option>), its ticked
    # modules and its uploaded file (read once by Starlette; the CSRF check reads it too).
    return await request.form()


def _variant_of(form: FormData, choice: NewGameChoice, rules: str) -> tuple[str, str | None]:
    """The variant the form chose, and the title of an uploaded file (Invalid: why not)."""
    if choice.source == "modules":
        return games.composed_variant(choice.board, choice.modules, choice.options,
                                      rules or None), None
    if choice.source == "file":
        upload = form.get("variant_file")
        if not isinstance(upload, StarletteUpload) or not upload.filename:
            raise Invalid("choose a variant file (.toml) to upload")
        return games.uploaded_variant(upload.file.read(games.UPLOAD_LIMIT + 1))
    raise Invalid("choose a variant, rule modules or a variant file")


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
           now: Now, settings: SettingsDep, form: Annotated[FormData, Depends(_form)],
           name: Annotated[str, Form()] = "",
           variant: Annotated[str, Form()] = "standard", rules: Annotated[str, Form()] = "",
           press: Annotated[str, Form()] = "full",
           movement: Annotated[str, Form()] = "1440", retreat: Annotated[str, Form()] = "720",
           adjustment: Annotated[str, Form()] = "720",
           gm_name: Annotated[str, Form()] = "",
           listed: Annotated[str, Form()] = "",
           source: Annotated[str, Form()] = "preset") -> Response:
    modules = [m for m in form.getlist("modules") if isinstance(m, str)]
    choice = NewGameChoice(source, str(form.get("board") or "standard"), modules,
                           {k[4:]: v for k, v in form.items()
                            if k.startswith("opt_") and isinstance(v, str)})
    try:
        if source != "preset":
            # A composed or uploaded variant carries its edition in its name.
            variant, title = _variant_of(form, choice, rules)
            rules = ""
            name = name or (title or "")
        body = GameIn.model_validate({
            "name": name, "variant": variant, "rules": rules or None, "press": press,
            "deadlines": {"movement": movement or 0, "retreat": retreat or 0,
                          "adjustment": adjustment or 0},
            "listed": bool(listed),
        })
        if page.user is None:
            try:
                gm_name = clean_name(gm_name[:200], limit=60, what="your name", required=False)
            except ValueError as exc:
                raise Invalid(str(exc)) from None
        address = client_address(request)
        counts = limits.game_limits(settings, address, page.user.id if page.user else None)
        if page.user is None:
            counts += limits.guest_limits(settings, address)
        with limits.counted(session, counts, now):
            user = page.user or guest(session, name=gm_name or "Gamemaster", now=now)
            game = _create(session, user, body, now)
    except (ValidationError, Invalid) as exc:
        message = str(exc) if isinstance(exc, Invalid) else "; ".join(
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
        return render(request, "home.html", {"page": page, "games": [], "error": message,
                                             **_choices(), "chosen": choice}, status=400)
    except limits.TooManyAttempts as exc:  # the form comes back as it was sent
        return render(request, "home.html", {"page": page, "games": [], "error": exc.detail,
                                             **_choices(), "chosen": choice},
                      status=429, headers={"Retry-After": str(exc.wait)})
    session.commit()
    if page.user is None:
        log_in_browser(request, session, signer, user)
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
        "checks": checks, "guide": orders_guide(viewer, phase),
        "live_state": live.state_of(session, viewer),
        # Lines of the last message saved that were not orders (numbers only: see orders.save).
        "set_aside": [int(n) for n in request.query_params.get("set_aside", "").split(",")
                      if n.isdigit()][:100],
        "my_units": sorted(_units_of(position, viewer.power)) if viewer.power else [],
        "without_orders": without_orders(position, viewer.power) if viewer.power else "",
        "powers": [(p.code, p.name) for p in position.map.powers],
        "last": None,
        "hidden": common.hides(game),
        "paused_by_players": (game.status == "paused"
                              and games.paused_by_players(session, game)),
        "seat_changes": seats.seat_changes(session, game),
        "return_url": return_url(request, settings, signer, page.user),
    }
    messages = press.messages_for(session, viewer)
    context["messages"] = messages
    context["announcements"], context["threads"] = conversations(
        viewer, messages, {p.code: p.name for p in position.map.powers},
        press.thread_states(session, viewer, messages))
    if common.takes_bids(game) and position.phase.is_movement:
        context["bids"] = bids_context(session, viewer, phase)
    if phase.index > 0:
        previous = games.phase_at(session, game, phase.index - 1)
        assert previous is not None  # phases are numbered from 0 without a gap
        context["last"] = last = results.phase_result(session, viewer, previous)
        context["result_rows"] = play.result_rows(
            last, {p.code: p.name for p in (*position.map.powers, *position.map.minor_powers)})
    saved = request.query_params.get("saved", "")
    context["judged"] = play.judged_since(session, viewer, saved, phase)
    context["fallbacks"] = (play.fallbacks(position, viewer.power, checks)
                            if viewer.power and saved == phase.code else [])
    if viewer.is_gm:
        base = present.base_url(settings, str(request.base_url))
        context["admin"] = present.game_gm_out(session, viewer, base)
        if viewer.sees_all:
            context["all_orders"] = orders.visible_orders(session, viewer, phase)
        context["events"] = games.visible_events(session, viewer)[-30:]
    return render(request, "game.html", context)


@dataclass
class Guide:
    """What a power has to do in the phase being played, told before they type: ``kind`` is
    ``movement``, ``retreat`` (``items``: each dislodged unit and its retreats and disband),
    ``build`` or ``remove`` (``count`` owed; ``items``: the free home centres, or the units
    that may go), or ``none``. ``example`` is an order the box may suggest."""

    kind: str
    count: int = 0
    items: list[tuple[str, list[str]]] = field(default_factory=list)
    example: str = ""


def orders_guide(viewer: Viewer, phase: PhaseRow) -> Guide:
    """The guide for the viewer's power, made from what the power knows (its own units,
    dislodged units and centres: ``results.known_to``) and the orders it may give
    (``possible_orders_for``), so it tells nothing the player may not see."""
    if viewer.power is None:
        return Guide("none")
    position = results.known_to(viewer, phase)
    options = possible_orders_for(viewer, phase)
    example = options[0][1][0] if options and options[0][1] else ""
    if position.phase.is_movement:
        return Guide("movement" if options else "none", example=example)
    if position.phase.is_retreat:
        return Guide("retreat" if options else "none", items=options, example=example)
    owed = position.adjustments().get(viewer.power, 0)
    if owed > 0 and options:
        return Guide("build", owed, options, example)
    if owed < 0:
        return Guide("remove", -owed, options, example)
    return Guide("none")


@dataclass
class Thread:
    """A conversation: every message among one set of powers (or to all), oldest first."""

    key: str  # "ALL", or the participants' codes joined by "+"
    title: str
    messages: list[Message] = field(default_factory=list)
    reply_to: list[str] = field(default_factory=list)  # the others, for a reply
    can_reply: bool = False
    unread: int = 0  # messages by others after the last one the account has read


def conversations(viewer: Viewer, messages: list[Message], powers: dict[str, str],
                  states: dict[str, press.ThreadState] | None = None,
                  ) -> tuple[list[Message], list[Thread]]:
    """The messages the viewer may read (``press.messages_for``), as the gamemaster's
    announcements (from the gamemaster to all) and one thread per set of participants, the
    most recently written first, each with how many of its messages the viewer's account has
    not read (``states``: ``press.thread_states``). A thread may be answered where the game's
    press setting lets the viewer write to its participants (the gamemaster who plays no
    power: always)."""
    me = press.me_of(viewer)
    as_gm = viewer.is_gm and viewer.power is None
    open_game = viewer.game.status != "finished"
    announcements: list[Message] = []
    threads: dict[str, Thread] = {}
    last: dict[str, int] = {}
    for n, m in enumerate(messages):
        key = press.thread_key(m)
        if key is None:
            announcements.append(m)
            continue
        if key == "ALL":
            title, others = "Everyone", []
        else:
            members = key.split("+")
            others = [p for p in members if p != me]
            named = others if me in members else members
            title = ", ".join("Gamemaster" if p == press.GM else powers.get(p, p) for p in named)
        thread = threads.setdefault(key, Thread(key, title))
        thread.messages.append(m)
        last[key] = n
        if key == "ALL":
            thread.can_reply = open_game and (as_gm or viewer.game.press != "none")
        elif me in key.split("+") and press.GM not in others:
            thread.reply_to = others
            thread.can_reply = open_game and (as_gm or viewer.game.press == "full")
    for thread in threads.values():
        if states is not None and thread.key in states:
            thread.unread = states[thread.key].unread
    ordered = sorted(threads.values(), key=lambda t: -last[t.key])
    return announcements, ordered


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
