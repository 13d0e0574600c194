"""Bids (the DP variants): each player's secret Diplomacy Points for neutral units' orders,
and the gamemaster's tally.

A player reads and replaces only their own bids for the current movement phase; the answer
says what is wrong with them now (a bad bid, or more DP than the allotment, which voids them
all) and comes after they are committed. Nobody else reads them, nor learns whether they
exist, until the game is over; the gamemaster reads every power's and the tally.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request, Response
from sqlalchemy.orm import Session

from calhamer.position import Phase
from calhamer.server.deps import (
    ApiViewer,
    Csrf,
    Now,
    PageDep,
    PageViewer,
    SessionDep,
    SettingsDep,
)
from calhamer.server.models import BidSet, PhaseRow
from calhamer.server.pages import redirect
from calhamer.server.routes.orders import typed_back
from calhamer.server.schemas import BidsIn, BidsOut, TallyOut
from calhamer.server.services import bids, common, games
from calhamer.server.services.common import Conflict, Invalid
from calhamer.server.views import Viewer

api = APIRouter(prefix="/api/games/{game_id}", tags=["bids"])
pages = APIRouter(include_in_schema=False)


def bids_out(session: Session, viewer: Viewer, phase: PhaseRow, power: str,
             row: BidSet | None, problems: list[str] | None = None) -> BidsOut:
    stored = bids.bid_items(row)
    found, allocated, allotment = bids.check_bid_list(viewer.game, phase, power, stored)
    return BidsOut(phase=phase.code, power=power, bids=stored,
                   problems=found if problems is None else problems,
                   allotment=allotment, allocated=allocated,
                   saved_at=row.updated_at if row is not None else None)


def bid_text(bid: str | dict[str, Any]) -> str:
    """A stored bid as a line of the players' notation (``2 DP: A Bel H``)."""
    if isinstance(bid, str):
        return bid
    return f"{bid.get('dp')} DP: {bid.get('order', '')}"


def bids_context(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """What the game page shows of the bids of the current movement phase: the player's own
    (with the allotment and any problem), and for the gamemaster who sees all, the tally so
    far."""
    context: dict[str, Any] = {}
    if viewer.power is not None:
        row = bids.visible_bids(session, viewer, phase).get(viewer.power)
        out = bids_out(session, viewer, phase, viewer.power, row)
        context.update(mine=out, text="\n".join(bid_text(b) for b in out.bids))
    if viewer.sees_all:
        context["tally"] = bids.tally(session, viewer, phase)["report"]
    return context


# -- API ------------------------------------------------------------------------------------------


@api.get("/bids", response_model=dict[str, BidsOut],
         summary="The current phase's bids you may read (yours; all for the GM)",
         description="DP variants, movement phases: your bids (none yet: an empty list) with "
         "your allotment. Empty in a phase that takes no bids.")
def api_bids(viewer: ApiViewer, session: SessionDep) -> dict[str, BidsOut]:
    phase = games.current_phase(session, viewer.game)
    if not common.takes_bids(viewer.game) or not Phase.parse(phase.code).is_movement:
        return {}
    rows: dict[str, BidSet | None] = dict(bids.visible_bids(session, viewer, phase))
    if viewer.power is not None:
        rows.setdefault(viewer.power, None)
    return {power: bids_out(session, viewer, phase, power, rows[power]) for power in sorted(rows)}


@api.put("/bids", response_model=BidsOut, summary="Replace your bids for the current phase",
         description="DP variants, movement phases. Each bid is a line (`3 DP: A Bel S A Par - "
         "Bur`) or an object `{\"order\": \"A Bel S A Par - Bur\", \"dp\": 3}`. Bids are stored "
         "as given; `problems` says which are void, and that all are if they allocate more DP "
         "than `allotment`. `phase` must be the current phase (409 otherwise); the answer comes "
         "after the bids are committed.")
def api_save_bids(body: BidsIn, viewer: ApiViewer, session: SessionDep, now: Now) -> BidsOut:
    items = [b if isinstance(b, str) else b.model_dump() for b in body.bids]
    row, problems = bids.save_bids(session, viewer=viewer, phase_code=body.phase,
                                   bids=items, now=now)
    session.commit()
    phase = games.current_phase(session, viewer.game)
    assert viewer.power is not None
    return bids_out(session, viewer, phase, viewer.power, row, problems)


@api.get("/phases/{code}/tally", response_model=TallyOut,
         summary="Gamemaster: the tally of a movement phase's bids",
         description="Every bid, whether it counted and why, and each neutral unit's totals. "
         "The gamemaster's alone (404 for anyone else) until the game is over.")
def api_tally(code: str, viewer: ApiViewer, session: SessionDep) -> dict[str, Any]:
    return bids.tally(session, viewer, games.find_phase(session, viewer.game, code))


# -- pages ----------------------------------------------------------------------------------------


@pages.post("/games/{game_id}/bids")
def save(request: Request, viewer: PageViewer, page: PageDep, _: Csrf, session: SessionDep,
         now: Now, settings: SettingsDep, phase: Annotated[str, Form(max_length=12)] = "",
         text: Annotated[str, Form(alias="bids")] = "") -> Response:
    try:
        lines = text.replace("\x00", "").splitlines()
        if len(lines) > settings.max_order_lines:
            raise Invalid(
                f"at most {settings.max_order_lines} bid lines are taken at once")
        if any(len(line) > 500 for line in lines):
            raise Invalid("a bid line is longer than 500 characters")
        bids.save_bids(session, viewer=viewer, phase_code=phase, bids=list(lines), now=now)
    except (Invalid, Conflict):
        request.state.typed = typed_back(
            session, viewer, page.csrf, phase, action=f"/games/{viewer.game.id}/bids",
            name="bids", label="Your bids", text=text, button="Save bids")
        raise
    session.commit()
    return redirect(f"/games/{viewer.game.id}?bids_saved={phase}#bids")
