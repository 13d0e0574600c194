"""Orders: check, save and mark ready. A save is committed before its answer is sent."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from calhamer.messages import ReadMessage
from calhamer.server import present
from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.deps import (
    ApiPendingViewer,
    ApiViewer,
    Csrf,
    Now,
    PageDep,
    PageViewer,
    PendingViewer,
    SessionDep,
    SettingsDep,
)
from calhamer.server.pages import Typed, redirect
from calhamer.server.schemas import OrderCheckOut, OrderLine, OrdersIn, OrdersOut, ReadyIn
from calhamer.server.services import games, orders
from calhamer.server.services.common import Conflict, Invalid, NotFound
from calhamer.server.views import Viewer
from calhamer.server.worker import Worker

api = APIRouter(prefix="/api/games/{game_id}", tags=["orders"])
pages = APIRouter(include_in_schema=False)


class CheckIn(BaseModel):
    orders: Annotated[list[OrderLine], Field(max_length=200)]


def _check(session: Session, viewer: Viewer, lines: list[str]) -> list[OrderCheckOut]:
    if viewer.power is None:
        raise NotFound()
    phase = games.current_phase(session, viewer.game, position=False)
    given = orders.split_lines(lines)
    return present.checks_out(orders.check_lines(viewer.game, phase, viewer.power, given))


def _wake_if_requested(request: Request, viewer: Viewer) -> None:
    worker = request.app.state.worker
    if worker is not None and viewer.game.process_requested:
        worker.wakeup.set()


def _too_many(lines: list[str], limit: int) -> None:
    if len(lines) > limit:
        raise Invalid(f"at most {limit} order lines are taken at once")


# -- API ------------------------------------------------------------------------------------------


@api.get("/orders", response_model=dict[str, OrdersOut],
         summary="The current phase's orders you may read (yours; all for the GM)")
def api_orders(viewer: ApiViewer, session: SessionDep) -> dict[str, OrdersOut]:
    phase = games.current_phase(session, viewer.game, position=False)
    return {power: present.orders_out(viewer.game, phase, o)
            for power, o in orders.visible_orders(session, viewer, phase).items()}


@api.put("/orders", response_model=OrdersOut,
         summary="Replace your orders for the current phase",
         description="Each line is checked (canonical form, or the problem and a suggestion). "
         "Every line is stored as written, bad ones included. `phase` must be the current "
         "phase (409 otherwise); the answer comes after the orders are committed.")
async def api_save(body: OrdersIn, pending: ApiPendingViewer, request: Request) -> Response:
    # The busiest route: everything that touches the database (who is asking, the save, the
    # commit) and the answer's JSON are done in one trip to a worker thread.
    state = request.app.state
    answer = await run_in_threadpool(_save_in_thread, state.db, state.settings, state.worker,
                                     pending, body)
    return Response(answer, media_type="application/json")


def _save_in_thread(db: Database, settings: Settings, worker: Worker | None,
                    pending: PendingViewer, body: OrdersIn) -> bytes:
    with db.session(write=True) as session:
        # the game's row is read with the lock the save takes (a ready mark's: exclusive)
        viewer = pending.resolve(session, lock=body.ready is not None)
        _too_many(body.orders, settings.max_order_lines)
        saved = orders.save_orders(session, viewer=viewer, phase_code=body.phase,
                                   lines=body.orders, ready=body.ready, now=settings.clock(),
                                   locked=True)
        session.commit()
    if worker is not None and viewer.game.process_requested:
        worker.wakeup.set()
    out = present.orders_out(viewer.game, saved.phase, saved.orders, saved.checks)
    return out.model_dump_json().encode()


@api.post("/orders/check", response_model=list[OrderCheckOut],
          summary="Check order lines without saving them")
def api_check(body: CheckIn, viewer: ApiViewer, session: SessionDep) -> list[OrderCheckOut]:
    return _check(session, viewer, body.orders)


@api.post("/ready", response_model=OrdersOut, summary="Mark yourself ready (or not)")
def api_ready(body: ReadyIn, viewer: ApiViewer, session: SessionDep, request: Request,
              now: Now) -> OrdersOut:
    marked = orders.set_ready(session, viewer=viewer, phase_code=body.phase, ready=body.ready,
                              now=now)
    session.commit()
    _wake_if_requested(request, viewer)
    phase = games.current_phase(session, viewer.game, position=False)
    return present.orders_out(viewer.game, phase, marked)


# -- pages ----------------------------------------------------------------------------------------


def typed_back(session: Session, viewer: Viewer, csrf: str, given_phase: str, *, action: str,
               name: str, label: str, text: str, button: str,
               fields: tuple[tuple[str, str], ...] = (), phase_field: bool = True) -> Typed:
    """A refused form's text, for the error page to give back, ready to be sent again for
    the phase being played now (the page says so when that is not the one it was typed for)."""
    game = viewer.game
    phase = games.current_phase(session, game, position=False)
    note = ""
    if game.status == "finished":
        note = "The game is over: keep a copy of this text if you need it."
    elif given_phase.strip().upper() != phase.code:
        note = (f"The phase being played is now {phase.code}: check this against it "
                "before sending it again.")
    return Typed(action=action, name=name, label=label, text=text.replace("\x00", ""),
                 button=button,
                 fields=(("csrf_token", csrf), *([("phase", phase.code)] if phase_field else []),
                         *fields), note=note,
                 retry=game.status != "finished")


@pages.post("/games/{game_id}/orders")
def save(request: Request, viewer: PageViewer, page: PageDep, _: Csrf, session: SessionDep,
         now: Now, settings: SettingsDep, phase: Annotated[str, Form(max_length=12)] = "",
         text: Annotated[str, Form(alias="orders")] = "",
         action: Annotated[str, Form()] = "save") -> Response:
    try:
        lines = text.replace("\x00", "").splitlines()
        _too_many(lines, settings.max_order_lines)
        if any(len(line) > 500 for line in lines):
            raise Invalid("an order line is longer than 500 characters")
        ready = {"ready": True, "unready": False}.get(action)
        set_aside = ""
        if action == "unready":
            orders.set_ready(session, viewer=viewer, phase_code=phase, ready=False, now=now)
        else:
            message = _read_box(session, viewer, lines)
            # Lines that are not orders (a greeting, a signature) are set aside, not stored;
            # the page names them by number (their text is not sent back in the address).
            set_aside = ",".join(str(line.number) for line in message.ignored)
            orders.save_orders(session, viewer=viewer, phase_code=phase,
                                lines=message.order_texts(), ready=ready, now=now)
    except (Invalid, Conflict):
        # the error page gives the orders back (app.py), so nothing typed is lost
        request.state.typed = typed_back(
            session, viewer, page.csrf, phase, action=f"/games/{viewer.game.id}/orders",
            name="orders", label="Your orders", text=text, button="Save orders",
            fields=(("action", "save"),))
        raise
    session.commit()
    _wake_if_requested(request, viewer)
    aside = f"&set_aside={set_aside}" if set_aside else ""
    return redirect(f"/games/{viewer.game.id}?saved={phase}{aside}#orders")


class BoxCheckOut(OrderCheckOut):
    """A line of the order box as the page shows it: checked, or set aside (not an order)."""

    set_aside: str | None = None


def _read_box(session: Session, viewer: Viewer, lines: list[str]) -> ReadMessage:
    if viewer.power is None:
        raise NotFound()
    phase = games.current_phase(session, viewer.game, position=False)
    return orders.read_box(viewer.game, phase, viewer.power, "\n".join(lines))


@pages.post("/games/{game_id}/orders/check")
def check(body: CheckIn, viewer: PageViewer, _: Csrf,
          session: SessionDep) -> list[BoxCheckOut]:
    """The order box read as a message: each order line checked, the others set aside."""
    message = _read_box(session, viewer, orders.split_lines(body.orders))
    phase = games.current_phase(session, viewer.game, position=False)
    numbers = [line.number for line in message.orders]
    checked = orders.check_lines(viewer.game, phase, viewer.power or "", message.order_texts())
    out = [BoxCheckOut(**{**c.model_dump(), "line": numbers[c.line - 1]})
           for c in present.checks_out(checked)]
    out += [BoxCheckOut(line=line.number, text=line.text, canonical="", ok=False, problem=None,
                        set_aside=line.set_aside) for line in message.ignored]
    return sorted(out, key=lambda c: c.line)
