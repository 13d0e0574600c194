"""Draw and pause proposals: put by a surviving power, voted on by every surviving power.

A proposal is decided unanimously: it is accepted when every voter agrees, rejected as soon
as one refuses, and lapses when the phase it was made in ends. Until it is decided nobody,
the gamemaster included, reads who proposed it or how anyone voted (each player reads their
own vote); once decided, the votes are recorded in the game's history for everyone.

The voters are the surviving great powers (the victory rule's ``contenders``). Where the
variant hides information, who survives is itself hidden until the winter's centre chart, so
the voters are the powers the phase waits for (``games.required_powers``: those alive at the
start of the game year), which every player already knows: a proposal, a vote or a refusal
then tells nobody anything the rules do not. A draw is offered only where the variant's
victory rule allows draws by agreement (``Variant.draw_vote``). An accepted draw ends the
game, shared by the voters; an accepted pause pauses it as the gamemaster's pause does
(``controls``), and the gamemaster resumes it.

Every change takes the game row's exclusive lock (``games.lock_game``), as ready marks do, so
the last vote sees every other and simultaneous votes decide once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from calhamer.server.models import GameRow, PhaseRow, Proposal, Vote
from calhamer.server.services.common import Conflict, Invalid, NotFound, hides, position_of
from calhamer.server.services.common import variant_of as _variant_of
from calhamer.server.services.games import PAUSED_BY_PLAYERS, current_phase, lock_game, log
from calhamer.server.views import Viewer

KINDS = ("draw", "pause")
OPEN, ACCEPTED, REJECTED, LAPSED = "open", "accepted", "rejected", "lapsed"
WORDS = {"draw": "a draw", "pause": "a pause"}


def kinds_allowed(game: GameRow) -> list[str]:
    """The kinds of proposal the game takes: a draw where its victory rule allows one."""
    return [k for k in KINDS if k != "draw" or _variant_of(game).draw_vote]


def electorate(game: GameRow, phase: PhaseRow) -> list[str]:
    """The powers that vote on a proposal made in ``phase`` (see the module's docstring)."""
    if hides(game):
        return list(phase.required)
    position = position_of(phase)
    return list(position.variant.victory.contenders(position))


def _names(game: GameRow, powers: list[str]) -> str:
    board = position_map(game)
    return ", ".join(board.get(p, p) for p in powers) or "nobody"


def position_map(game: GameRow) -> dict[str, str]:
    """Each power's name on the game's board, by code."""
    return {p.code: p.name for p in _variant_of(game).board().powers}


def _votes(session: Session, proposal: Proposal) -> dict[str, bool]:
    rows = session.scalars(select(Vote).where(Vote.proposal_id == proposal.id)
                           .order_by(Vote.power))
    return {v.power: v.agree for v in rows}


def _voter(session: Session, viewer: Viewer, game: GameRow, phase: PhaseRow) -> str:
    """The viewer's power, when it votes in this phase (NotFound when they play none, as
    other player-only actions answer; Conflict when their power has no vote)."""
    if viewer.power is None:
        raise NotFound()
    if viewer.power not in electorate(game, phase):
        raise Conflict("your power is out of the game: only the surviving powers vote")
    return viewer.power


def lapse_old(session: Session, game: GameRow, phase_code: str, now: datetime) -> int:
    """Close the game's open proposals made before phase ``phase_code`` (or every open one of
    a finished game); return how many lapsed. Run under the game's lock."""
    rows = list(session.scalars(select(Proposal).where(Proposal.game_id == game.id,
                                                       Proposal.status == OPEN)))
    lapsed = 0
    for p in rows:
        if p.phase != phase_code or game.status == "finished":
            p.status = LAPSED
            p.decided_at = now
            log(session, game.id, now, "proposal-lapsed",
                f"the proposal of {WORDS[p.kind]} made in {p.phase} lapsed undecided")
            lapsed += 1
    return lapsed


def propose(session: Session, *, viewer: Viewer, kind: str, phase_code: str,
            now: datetime) -> Proposal:
    """Put ``kind`` to the vote in the phase being played, the proposer agreeing."""
    if kind not in KINDS:
        raise Invalid(f"propose one of {', '.join(KINDS)}, not {kind[:20]!r}")
    game = lock_game(session, viewer.game.id, exclusive=True)
    phase = _phase(session, game, phase_code)
    power = _voter(session, viewer, game, phase)
    if kind not in kinds_allowed(game):
        raise Conflict(f"{_variant_of(game).title} has no draws by agreement: the game goes on "
                       "until it is won or its last year is over")
    if kind == "pause" and game.status == "paused":
        raise Conflict("the game is already paused")
    lapse_old(session, game, phase.code, now)
    if session.scalars(select(Proposal.id).where(
            Proposal.game_id == game.id, Proposal.kind == kind,
            Proposal.status == OPEN)).first() is not None:
        raise Conflict(f"{WORDS[kind]} is already proposed in this phase: vote on it")
    proposal = Proposal(game_id=game.id, kind=kind, phase=phase.code, proposer=power,
                        voters=electorate(game, phase), status=OPEN, created_at=now)
    session.add(proposal)
    session.flush()
    log(session, game.id, now, "proposal", f"{WORDS[kind]} was proposed in {phase.code}")
    session.add(Vote(proposal_id=proposal.id, power=power, agree=True, at=now))
    session.flush()
    _decide(session, game, proposal, now)
    return proposal


def vote(session: Session, *, viewer: Viewer, proposal_id: int, agree: bool,
         now: datetime) -> Proposal:
    """The viewer's vote on an open proposal of the phase being played (a vote may be changed
    while the proposal is open; a refusal decides it)."""
    game = lock_game(session, viewer.game.id, exclusive=True)
    proposal = session.get(Proposal, proposal_id)
    if proposal is None or proposal.game_id != game.id:
        raise NotFound()
    phase = current_phase(session, game, position=False)
    lapse_old(session, game, phase.code, now)
    if proposal.status != OPEN:
        raise Conflict(f"this proposal is no longer open: it was {proposal.status}")
    if viewer.power is None:
        raise NotFound()
    if viewer.power not in proposal.voters:
        raise Conflict("your power is out of the game: only the surviving powers vote")
    if game.status == "finished":
        raise Conflict("the game is over")
    existing = session.scalars(select(Vote).where(Vote.proposal_id == proposal.id,
                                                  Vote.power == viewer.power)).first()
    if existing is None:
        session.add(Vote(proposal_id=proposal.id, power=viewer.power, agree=agree, at=now))
    else:
        existing.agree = agree
        existing.at = now
    session.flush()
    _decide(session, game, proposal, now)
    return proposal


def _phase(session: Session, game: GameRow, phase_code: str) -> PhaseRow:
    from calhamer.server.services.orders import ensure_current

    phase = current_phase(session, game)
    ensure_current(game, phase, phase_code)
    return phase


def _decide(session: Session, game: GameRow, proposal: Proposal, now: datetime) -> None:
    """Accept the proposal once every voter agrees, reject it once one refuses."""
    votes = _votes(session, proposal)
    against = [p for p, yes in votes.items() if not yes]
    what = WORDS[proposal.kind]
    if against:
        proposal.status = REJECTED
        proposal.decided_at = now
        agreed = [p for p in proposal.voters if votes.get(p)]
        log(session, game.id, now, "proposal-rejected",
            f"{what} proposed in {proposal.phase} was refused by {_names(game, against)} "
            f"(agreed: {_names(game, agreed)})")
        return
    if not all(votes.get(p) for p in proposal.voters):
        return
    proposal.status = ACCEPTED
    proposal.decided_at = now
    names = _names(game, list(proposal.voters))
    log(session, game.id, now, "proposal-accepted",
        f"{what} proposed in {proposal.phase} was agreed by every surviving power: {names}")
    if proposal.kind == "draw":
        game.status = "finished"
        game.deadline = None
        game.process_requested = False
        game.winner = None
        game.end_reason = f"a draw agreed by {names}"
        log(session, game.id, now, "ended", f"the game ended in a draw agreed by {names}")
        for other in session.scalars(select(Proposal).where(
                Proposal.game_id == game.id, Proposal.status == OPEN)):
            other.status = LAPSED
            other.decided_at = now
    elif game.status == "active":
        game.status = "paused"
        game.paused_remaining = (None if game.deadline is None
                                 else max(0, int((game.deadline - now).total_seconds())))
        game.deadline = None
        game.process_requested = False
        log(session, game.id, now, "paused", PAUSED_BY_PLAYERS)
    session.flush()


# -- what a viewer reads ------------------------------------------------------------------------


@dataclass
class ProposalView:
    """A proposal as one viewer may read it: its votes only once it is decided."""

    id: int
    kind: str
    phase: str
    status: str
    created_at: datetime
    decided_at: datetime | None
    my_vote: bool | None = None  # the viewer's own vote, while open and after
    can_vote: bool = False
    votes: list[tuple[str, bool | None]] = field(default_factory=list)  # decided only
    proposer: str | None = None  # decided only


@dataclass
class ProposalsState:
    """The proposals part of a game page: what may be proposed and every proposal."""

    can_propose: list[str]
    proposals: list[ProposalView]
    voters: list[str]
    note: str = ""


def state_for(session: Session, viewer: Viewer) -> ProposalsState:
    """What the viewer may read of the game's proposals, newest first. Open proposals of a
    phase that is over read as lapsed (the worker closes them when it adjudicates)."""
    game = viewer.game
    phase = current_phase(session, game, position=False)
    rows = list(session.scalars(select(Proposal).where(Proposal.game_id == game.id)
                                .order_by(Proposal.id.desc()).limit(50)))
    voters = electorate(game, phase) if game.status != "finished" else []
    mine = viewer.power if viewer.power in voters else None
    out = []
    for p in rows:
        status = p.status
        if status == OPEN and (p.phase != phase.code or game.status == "finished"):
            status = LAPSED
        votes = _votes(session, p)
        view = ProposalView(p.id, p.kind, p.phase, status, p.created_at, p.decided_at,
                            my_vote=votes.get(viewer.power) if viewer.power else None)
        if status == OPEN:
            view.can_vote = viewer.power is not None and viewer.power in p.voters
        else:
            view.votes = [(v, votes.get(v)) for v in p.voters]
            view.proposer = p.proposer
        out.append(view)
    open_kinds = {v.kind for v in out if v.status == OPEN}
    can = []
    if mine is not None and game.status != "finished":
        can = [k for k in kinds_allowed(game) if k not in open_kinds
               and not (k == "pause" and game.status == "paused")]
    note = "" if "draw" in kinds_allowed(game) else (
        "This variant has no draws by agreement: the game goes on until it is won.")
    return ProposalsState(can, out, voters, note)
