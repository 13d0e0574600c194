"""Live pages: a stream of server-sent events that tells a game page when what its viewer may
see has changed (a phase adjudicated, a message, a ready mark, the gamemaster's controls).

An event carries the phase code, the number of messages the viewer may read and a digest of
everything else the viewer may see that a page shows (the game's status and deadline, the
orders and ready marks ``orders.visible_orders`` gives them, the seats for the gamemaster):
nothing the viewer's own page would not tell them. The page reloads its part on a change.
The digest is made only of what the viewer may read, so two viewers who may read the same
get the same events, and nobody can tell from theirs that someone else did something unseen.

Each stream looks for changes every ``Settings.events_poll_seconds`` and ends after
``Settings.events_seconds``; the browser's EventSource reconnects by itself. A look is one
cheap query (:func:`probe`: the game's row and a few counts and maxima over its messages,
the current phase's orders and the seats), the same for every viewer; only when that
changes (and every ``FULL_EVERY`` looks regardless) is the viewer's event made again from
what they may read, with who may see the game asked again (a replaced player's stream ends).
The probe only decides when to look closer, never what is sent, so it tells nobody anything.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import bindparam, case, func, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from calhamer.server.db import Database
from calhamer.server.deps import ApiViewer, PageViewer
from calhamer.server.models import GameRow, Message, OrderSet, PhaseRow, Seat, User
from calhamer.server.services import games, orders, press
from calhamer.server.views import Viewer, viewer_for

api = APIRouter(prefix="/api/games/{game_id}", tags=["live"])
pages = APIRouter(include_in_schema=False)


def _when(value: object) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else ""


def state_of(session: Session, viewer: Viewer) -> str:
    """The event for ``viewer`` now (a JSON text). A game page carries the one it was drawn
    from, so that a change made before its stream connects is not missed."""
    game = viewer.game
    phase = games.current_phase(session, game, position=False)
    messages = press.messages_for(session, viewer)
    seen: list[object] = [
        phase.code, game.status, _when(game.deadline), bool(game.process_requested),
        phase.results is not None, len(messages),
        sorted((p, o.ready, _when(o.updated_at))
               for p, o in orders.visible_orders(session, viewer, phase).items()),
    ]
    if viewer.sees_all:  # who holds each seat: the gamemaster's table
        seen.append(sorted((s.power, s.user_id or 0) for s in
                           session.query(Seat).filter(Seat.game_id == game.id)))
    digest = hashlib.sha256(json.dumps(seen, default=str).encode()).hexdigest()[:20]
    return json.dumps({"phase": phase.code, "messages": len(messages), "state": digest})


FULL_EVERY = 15  # looks between full remakes of the event, whatever the probe says

_current = (select(PhaseRow.id)
            .where(PhaseRow.game_id == GameRow.id, PhaseRow.index == GameRow.phase_index)
            .correlate(GameRow)  # the outer query's game, two levels up
            .scalar_subquery())
_orders = OrderSet.phase_id == _current
# Everything ``state_of`` reads, summed up in one row: a change to any of it changes the row
# (the orders' ids summed over the ready ones tell a mark given from one taken at the same
# instant).
_PROBE = select(
    GameRow.phase_index, GameRow.status, GameRow.deadline, GameRow.process_requested,
    select(func.max(Message.id)).where(Message.game_id == GameRow.id).scalar_subquery(),
    select(func.count(OrderSet.id)).where(_orders).scalar_subquery(),
    select(func.sum(case((OrderSet.ready, OrderSet.id), else_=0))).where(_orders)
    .scalar_subquery(),
    select(func.max(OrderSet.updated_at)).where(_orders).scalar_subquery(),
    select(func.min(OrderSet.updated_at)).where(_orders).scalar_subquery(),
    select(func.sum(Seat.user_id)).where(Seat.game_id == GameRow.id).scalar_subquery(),
    select(func.count(Seat.user_id)).where(Seat.game_id == GameRow.id).scalar_subquery(),
).where(GameRow.id == bindparam("game_id"))


def probe(db: Database, game_id: str) -> tuple[Any, ...] | None:
    """The game's change probe (None for a game that is gone)."""
    with db.session() as session:
        row = session.execute(_PROBE, {"game_id": game_id}).first()
    return None if row is None else tuple(row)


def snapshot(db: Database, game_id: str, user_id: int) -> str | None:
    """The event for the viewer now (a JSON text), or None once they may not see the game."""
    with db.session() as session:
        user = session.get(User, user_id)
        viewer = viewer_for(session, game_id, user) if user is not None else None
        if viewer is None:
            return None
        return state_of(session, viewer)


async def _stream(request: Request, game_id: str, user_id: int) -> AsyncIterator[str]:
    settings = request.app.state.settings
    db = request.app.state.db
    loop = asyncio.get_running_loop()
    until = loop.time() + settings.events_seconds
    last = None
    looked: tuple[Any, ...] | None = None
    looks = 0
    yield "retry: 2000\n\n"
    while True:
        now = await run_in_threadpool(probe, db, game_id)
        if last is None or now is None or now != looked or looks >= FULL_EVERY:
            event = await run_in_threadpool(snapshot, db, game_id, user_id)
            if event is None:
                yield "event: gone\ndata: {}\n\n"
                return
            looked, looks = now, 0
            if event != last:
                yield f"event: state\ndata: {event}\n\n"
                last = event
        looks += 1
        if loop.time() >= until or await request.is_disconnected():
            return
        await asyncio.sleep(settings.events_poll_seconds)


@pages.get("/games/{game_id}/events")
def events(request: Request, viewer: PageViewer) -> StreamingResponse:
    return StreamingResponse(
        _stream(request, viewer.game.id, viewer.user.id), media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@api.get("/events", response_class=StreamingResponse,
         responses={200: {"content": {"text/event-stream": {}},
                          "description": "Server-sent events: `state` on each change"}},
         summary="Live updates: an event whenever what you may see of the game changes",
         description="Each `state` event's data is `{phase, messages, state}`: the phase being "
         "played, how many messages you may read, and a digest of the rest you may see. The "
         "stream ends after a while; reconnect (EventSource does).")
def api_events(request: Request, viewer: ApiViewer) -> StreamingResponse:
    return events(request, viewer)
