"""Draw and pause proposals: propose one, vote on it, read them (``services.proposals``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Form, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session, object_session

from calhamer.server.deps import ApiViewer, Csrf, Now, PageViewer, SessionDep
from calhamer.server.pages import redirect, templates
from calhamer.server.schemas import PhaseCode
from calhamer.server.services import proposals
from calhamer.server.services.common import Invalid
from calhamer.server.views import Viewer

api = APIRouter(prefix="/api/games/{game_id}/proposals", tags=["proposals"])
pages = APIRouter(include_in_schema=False)

_NOT_NOW = {409: {"description": "The phase is over, the game is over or (for a pause) "
                                 "paused, the variant takes no draws, your power is out of "
                                 "the game, or the proposal is no longer open."}}


class ProposalIn(BaseModel):
    kind: Literal["draw", "pause"]
    phase: PhaseCode = Field(description="The phase being played.")


class VoteIn(BaseModel):
    agree: bool


class VoteOut(BaseModel):
    power: str
    agree: bool | None = Field(description="None: the power did not vote.")


class ProposalOut(BaseModel):
    id: int
    kind: str
    phase: str
    status: str = Field(description="open, accepted, rejected or lapsed")
    created_at: datetime
    decided_at: datetime | None
    my_vote: bool | None = Field(description="Your own vote (None: none).")
    can_vote: bool
    proposer: str | None = Field(description="Who proposed it, once decided.")
    votes: list[VoteOut] = Field(description="Every voter's vote, once decided (empty while "
                                             "open: votes are secret until then).")


class ProposalsOut(BaseModel):
    can_propose: list[str]
    voters: list[str]
    proposals: list[ProposalOut]


def _out(state: proposals.ProposalsState) -> ProposalsOut:
    return ProposalsOut(can_propose=state.can_propose, voters=state.voters, proposals=[
        ProposalOut(id=p.id, kind=p.kind, phase=p.phase, status=p.status,
                    created_at=p.created_at, decided_at=p.decided_at, my_vote=p.my_vote,
                    can_vote=p.can_vote, proposer=p.proposer,
                    votes=[VoteOut(power=w, agree=a) for w, a in p.votes])
        for p in state.proposals])


@api.get("", response_model=ProposalsOut, summary="Draw and pause proposals, newest first")
def api_list(viewer: ApiViewer, session: SessionDep) -> ProposalsOut:
    return _out(proposals.state_for(session, viewer))


@api.post("", response_model=ProposalsOut, status_code=201, responses=_NOT_NOW,  # type: ignore[arg-type]
          summary="Propose a draw or a pause (you agree to it)")
def api_propose(body: ProposalIn, viewer: ApiViewer, session: SessionDep,
                now: Now) -> ProposalsOut:
    proposals.propose(session, viewer=viewer, kind=body.kind, phase_code=body.phase, now=now)
    session.commit()
    return _out(proposals.state_for(session, viewer))


@api.post("/{proposal_id}/vote", response_model=ProposalsOut, responses=_NOT_NOW,  # type: ignore[arg-type]
          summary="Vote on an open proposal (a refusal decides it)")
def api_vote(proposal_id: int, body: VoteIn, viewer: ApiViewer, session: SessionDep,
             now: Now) -> ProposalsOut:
    proposals.vote(session, viewer=viewer, proposal_id=proposal_id, agree=body.agree, now=now)
    session.commit()
    return _out(proposals.state_for(session, viewer))


@pages.post("/games/{game_id}/proposals")
def propose(viewer: PageViewer, _: Csrf, session: SessionDep, now: Now,
            kind: Annotated[str, Form()] = "", phase: Annotated[str, Form()] = "") -> Response:
    proposals.propose(session, viewer=viewer, kind=kind[:20], phase_code=phase[:12], now=now)
    session.commit()
    return redirect(f"/games/{viewer.game.id}#proposals")


@pages.post("/games/{game_id}/proposals/{proposal_id}/vote")
def vote(proposal_id: int, viewer: PageViewer, _: Csrf, session: SessionDep, now: Now,
         agree: Annotated[str, Form()] = "") -> Response:
    if agree not in ("yes", "no"):
        raise Invalid('vote "yes" or "no"')
    proposals.vote(session, viewer=viewer, proposal_id=proposal_id, agree=agree == "yes",
                   now=now)
    session.commit()
    return redirect(f"/games/{viewer.game.id}#proposals")


# -- the game page's part (templates/_proposals.html) -------------------------------------------


@contextmanager
def _session_of(request: Request, viewer: Viewer) -> Iterator[Session]:
    """The page's own session (the game's row was read in it), or a new one."""
    session = object_session(viewer.game)
    if session is not None:
        yield session
        return
    with request.app.state.db.session() as fresh:
        yield fresh


def proposals_of(request: Request, viewer: Viewer) -> proposals.ProposalsState:
    """The ``proposals_of`` of the templates: what the game page shows of the proposals."""
    with _session_of(request, viewer) as session:
        return proposals.state_for(session, viewer)


templates.env.globals["proposals_of"] = proposals_of
