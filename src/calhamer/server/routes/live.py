"""Live pages: a stream of server-sent events that tells a game page when what its viewer may
see has changed (a phase adjudicated, a message, a ready mark, a seat changing hands, the
gamemaster's controls).

An event carries the phase code, the number of messages the viewer may read and a digest of
everything else the viewer may see that a page shows (the game's status and deadline, the
orders and ready marks ``orders.visible_orders`` gives them, the log's seat changes, the
seats for the gamemaster): nothing the viewer's own page would not tell them. The page
reloads its part on a change. The digest is made only of what the viewer may read, so two
viewers who may read the same get the same events, and nobody can tell from theirs that
someone else did something unseen.

No stream holds a database connection while it waits. Who is asking is settled in a short
session closed before the stream starts (``deps.briefly_resolved``); the stream then waits
for a notification that its game changed (``live_events``: the game's id and a kind, no
more), and reads the viewer's event again in a short session of its own, who may see the
game asked again (a replaced player's stream ends). It ends after ``Settings.events_seconds``;
the browser's EventSource reconnects by itself. A user may keep ``events_per_user`` streams
open at once (429 beyond) and a process ``events_per_process`` (503 beyond).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, defer
from starlette.concurrency import run_in_threadpool

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.deps import briefly_resolved
from calhamer.server.live_events import Subscription, TooManyStreams
from calhamer.server.models import PhaseRow, Seat
from calhamer.server.pages import render_error
from calhamer.server.services import orders, press, seats
from calhamer.server.views import Viewer, viewer_by_id

api = APIRouter(prefix="/api/games/{game_id}", tags=["live"])
pages = APIRouter(include_in_schema=False)

# How often a waiting stream sends a comment line and asks whether its reader has gone: the
# comment keeps proxies (which close a quiet connection after a minute or so) from cutting the
# stream, so a stream can live for ``Settings.events_seconds`` and a thousand open pages
# do not reconnect, and pay a request and a read each, every few seconds.
KEEPALIVE_SECONDS = 20.0
RETRY_AFTER = 30  # seconds, for a stream refused over a bound


def _when(value: object) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else ""


# The phase being played and the number of seat changes in the game log, in one query.
_PHASE_AND_SEAT_CHANGES = (
    select(PhaseRow, seats.seat_change_count_of(PhaseRow.game_id))
    .where(PhaseRow.game_id == bindparam("game_id"), PhaseRow.index == bindparam("index"))
    .options(defer(PhaseRow.position))
)


def state_of(session: Session, viewer: Viewer) -> str:
    """The event for ``viewer`` now (a JSON text). A game page carries the one it was drawn
    from, so that a change made before its stream connects is not missed."""
    game = viewer.game
    found = session.execute(_PHASE_AND_SEAT_CHANGES,
                            {"game_id": game.id, "index": game.phase_index}).first()
    if found is None:  # the schema guarantees it; a broken database is a server error
        raise RuntimeError(f"game {game.id} has no phase {game.phase_index}")
    phase, seat_changes = found
    messages = press.visible_count(session, viewer)
    seen: list[object] = [
        phase.code, game.status, _when(game.deadline), bool(game.process_requested),
        phase.results is not None, messages,
        [(p, ready, _when(at)) for p, ready, at in orders.visible_marks(session, viewer, phase)],
        # seats changing hands: how many the game log tells of (an append-only list, so a
        # new one changes the count); not their texts, which name the players (the page
        # shows them), nor the rows' ids, which count what happens in every game
        seat_changes,
    ]
    if viewer.sees_all:  # who holds each seat: the gamemaster's table
        seen.append(sorted((s.power, s.user_id or 0) for s in
                           session.query(Seat).filter(Seat.game_id == game.id)))
    digest = hashlib.sha256(json.dumps(seen, default=str).encode()).hexdigest()[:20]
    return json.dumps({"phase": phase.code, "messages": messages, "state": digest})


def snapshot(db: Database, game_id: str, user_id: int) -> str | None:
    """The event for the viewer now (a JSON text), or None once they may not see the game;
    read in a session closed on return."""
    with db.session() as session:
        viewer = viewer_by_id(session, game_id, user_id)
        if viewer is None:
            return None
        return state_of(session, viewer)


async def _stream(request: Request, sub: Subscription) -> AsyncIterator[str]:
    settings: Settings = request.app.state.settings
    db: Database = request.app.state.db
    loop = sub.loop
    until = loop.time() + settings.events_seconds
    last = None
    try:
        yield "retry: 2000\n\n"
        while True:
            event = await run_in_threadpool(snapshot, db, sub.game_id, sub.user_id)
            if event is None:
                yield "event: gone\ndata: {}\n\n"
                return
            if event != last:
                yield f"event: state\ndata: {event}\n\n"
                last = event
            while True:  # wait for a change, asking now and then whether the reader left
                left = until - loop.time()
                if left <= 0 or await request.is_disconnected():
                    return
                if await sub.wait(min(left, KEEPALIVE_SECONDS)):
                    break
                yield ": keep-alive\n\n"
            if settings.events_settle_seconds > 0:  # let a burst of changes land, read once
                await sub.wait(settings.events_settle_seconds)
    finally:
        db.live.unsubscribe(sub)


async def _open(request: Request, game_id: str, *, api_caller: bool) -> Response:
    viewer = await run_in_threadpool(briefly_resolved, request, game_id, api=api_caller)
    settings: Settings = request.app.state.settings
    db: Database = request.app.state.db
    try:
        sub = db.live.subscribe(viewer.game.id, viewer.user.id,
                                per_user=settings.events_per_user,
                                overall=settings.events_per_process,
                                power=viewer.power, sees_all=viewer.sees_all)
    except TooManyStreams as refused:
        status = 429 if refused.per_user else 503
        message = (f"you have {settings.events_per_user} live pages open already; close one"
                   if refused.per_user else "the server has too many live pages open")
        headers = {"Retry-After": str(RETRY_AFTER)}
        if api_caller:
            return JSONResponse({"detail": message}, status_code=status, headers=headers)
        return render_error(request, status, message, headers=headers)
    return StreamingResponse(
        _stream(request, sub), media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@pages.get("/games/{game_id}/events")
async def events(request: Request, game_id: str) -> Response:
    return await _open(request, game_id, api_caller=False)


@api.get("/events", response_class=StreamingResponse,
         responses={200: {"content": {"text/event-stream": {}},
                          "description": "Server-sent events: `state` on each change"},
                    401: {"description": "No token, or one that is expired, forged or "
                                         "logged out."},
                    404: {"description": "No such game, or one you have no part in (both "
                                         "answer alike)."},
                    429: {"description": "You have as many live streams open as a user may "
                                         "(4 by default); `Retry-After` says when to try "
                                         "again."},
                    503: {"description": "The server has as many live streams open as it "
                                         "takes; `Retry-After` says when to try again."}},
         summary="Live updates: an event whenever what you may see of the game changes",
         description="Each `state` event's data is `{phase, messages, state}`: the phase being "
         "played, how many messages you may read, and a digest of the rest you may see. The "
         "stream ends after a while; reconnect (EventSource does).")
async def api_events(request: Request, game_id: str) -> Response:
    return await _open(request, game_id, api_caller=True)
