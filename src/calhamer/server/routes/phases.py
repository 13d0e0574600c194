"""Phases: the history, each adjudicated phase's results, and any phase as phase JSON."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy.orm import Session

from calhamer.game import dumps_pretty
from calhamer.position import Phase
from calhamer.server.deps import ApiViewer, PageDep, PageViewer, SessionDep
from calhamer.server.pages import render
from calhamer.server.schemas import PhaseOut, PhaseResultOut
from calhamer.server.services import bids, common, games, results
from calhamer.server.views import Viewer

api = APIRouter(prefix="/api/games/{game_id}/phases", tags=["phases"])
pages = APIRouter(include_in_schema=False)


def _history(session: Session, viewer: Viewer) -> list[PhaseOut]:
    return [PhaseOut(index=p.index, phase=p.code, name=common.phase_name(viewer.game, p.code),
                     adjudicated=p.results is not None)
            for p in games.phases_of(session, viewer.game)]


@api.get("", response_model=list[PhaseOut], summary="Every phase so far, oldest first")
def api_history(viewer: ApiViewer, session: SessionDep) -> list[PhaseOut]:
    return _history(session, viewer)


@api.get("/{code}", response_model=PhaseResultOut,
         summary="An adjudicated phase: the report, every order and its result")
def api_result(code: str, viewer: ApiViewer, session: SessionDep) -> dict[str, Any]:
    return results.phase_result(session, viewer, games.find_phase(session, viewer.game, code))


@api.get("/{code}/document", summary="A phase as a phase document (docs/formats.md)",
         description="With the orders you may read: all of an adjudicated phase; only yours "
         "for the current phase (the GM gets all, and a DP game's bids). Where the variant "
         "hides information, a player's document is their own view: the position as they "
         "knew it, their own orders and, once adjudicated, their view of the results.")
def api_document(code: str, viewer: ApiViewer, session: SessionDep) -> dict[str, Any]:
    return results.phase_document(session, viewer, games.find_phase(session, viewer.game, code))


@pages.get("/games/{game_id}/phases")
def history(request: Request, viewer: PageViewer, page: PageDep,
            session: SessionDep) -> Response:
    return render(request, "phases.html", {"page": page, "viewer": viewer,
                                           "phases": _history(session, viewer)})


@pages.get("/games/{game_id}/phases/{code}")
def result(code: str, request: Request, viewer: PageViewer, page: PageDep,
           session: SessionDep) -> Response:
    phase = games.find_phase(session, viewer.game, code)
    context: dict[str, Any] = {
        "page": page, "viewer": viewer, "phase": phase,
        "result": results.phase_result(session, viewer, phase), "tally": None,
    }
    # Stepping through the history: the phases before and after this one (their codes are
    # the history's, which every viewer may read); a next phase still being played is the
    # game page.
    every = games.phases_of(session, viewer.game)
    context["previous"] = every[phase.index - 1].code if phase.index > 0 else None
    following = every[phase.index + 1] if phase.index + 1 < len(every) else None
    context["following"] = following.code if following is not None else None
    context["following_done"] = following is not None and following.results is not None
    if (common.takes_bids(viewer.game) and Phase.parse(phase.code).is_movement
            and bids.may_read_all_bids(viewer)):
        context["tally"] = bids.tally(session, viewer, phase)["report"]
    return render(request, "phase.html", context)


@pages.get("/games/{game_id}/phases/{code}/export")
def export(code: str, viewer: PageViewer, session: SessionDep) -> Response:
    phase = games.find_phase(session, viewer.game, code)
    doc = results.phase_document(session, viewer, phase)
    name = f"{viewer.game.id}-{phase.code}.json"
    return Response(dumps_pretty(doc) + "\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
