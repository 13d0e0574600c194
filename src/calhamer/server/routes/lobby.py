"""The lobby: games listed for anyone to join, and the viewer's own games (in progress,
finished with their history) and record.

A listed game (its gamemaster ticked "list it in the lobby", which its game log records)
shows everyone its name,
variant, press setting, phase and free powers, each with its invitation link: taking a free
power is what listing it is for. Nothing else of it is shown there, and its own pages stay
closed to anyone who has not joined. An unlisted game never appears in anyone's lobby but
its gamemaster's and players'. A record is the viewer's own only (which games someone
plays is theirs to tell).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import APIRouter, Request, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from calhamer.server.deps import PageDep, SessionDep
from calhamer.server.models import Event, GameRow, User
from calhamer.server.pages import render
from calhamer.server.routes.games import LISTED
from calhamer.server.services import games, results
from calhamer.server.services.common import phase_name, position_of
from calhamer.server.views import viewer_for

api = APIRouter(prefix="/api/lobby", tags=["lobby"])
pages = APIRouter(include_in_schema=False)


@dataclass
class OpenGame:
    id: str
    name: str
    variant: str
    press: str
    phase_name: str
    free: list[tuple[str, str]] = field(default_factory=list)  # (power name, invite token)


@dataclass
class Played:
    """One game of the viewer's, for their lists and record."""

    id: str
    name: str
    variant: str
    phase_name: str
    status: str
    role: str  # "gamemaster", a power's name, or both
    power: str | None
    centres: int | None  # the viewer's power's centres now (or at the end)
    result: str  # "won", "the game was won by Germany", "in progress", ...


def open_games(session: Session, user: User | None) -> list[OpenGame]:
    """Listed games that are not over, with a free power, and that the user is not in."""
    listed = select(Event.game_id).where(Event.kind == LISTED)
    rows = session.scalars(select(GameRow).where(GameRow.id.in_(listed),
                                                 GameRow.status != "finished")
                           .order_by(GameRow.created_at.desc(), GameRow.id))
    out = []
    for game in rows:
        if user is not None and (game.gm_id == user.id
                                 or any(s.user_id == user.id for s in game.seats)):
            continue
        phase = games.current_phase(session, game)
        names = {p.code: p.name for p in position_of(phase).map.powers}
        free = [(names.get(s.power, s.power.title()), s.invite_token) for s in game.seats
                if s.user_id is None and s.invite_token]
        if free:
            out.append(OpenGame(game.id, game.name, game.variant, game.press,
                                phase_name(game, phase.code), free))
    return out


def played(session: Session, user: User) -> list[Played]:
    """The user's games, newest first, each as their record shows it."""
    out = []
    for game in games.games_of(session, user):
        viewer = viewer_for(session, game.id, user)
        if viewer is None:
            continue
        phase = games.current_phase(session, game)
        position = results.known_to(viewer, phase) if viewer.power else position_of(phase)
        names = {p.code: p.name for p in position.map.powers}
        role = " and ".join(r for r in ("gamemaster" if viewer.is_gm else "",
                                        names.get(viewer.power or "", "")) if r)
        centres = position.center_counts().get(viewer.power, 0) if viewer.power else None
        if game.status != "finished":
            result = "in progress"
        elif game.winner and game.winner == viewer.power:
            result = "won"
        elif game.winner:
            result = f"won by {names.get(game.winner, game.winner.title())}"
        else:
            result = "ended" + (f": {game.end_reason}" if game.end_reason else "")
        out.append(Played(game.id, game.name, game.variant, phase_name(game, phase.code),
                          game.status, role, viewer.power, centres, result))
    return out


@pages.get("/lobby")
def lobby(request: Request, page: PageDep, session: SessionDep) -> Response:
    mine = played(session, page.user) if page.user is not None else []
    powers = [g for g in mine if g.power]
    record = {"games": len(powers), "won": sum(g.result == "won" for g in powers),
              "finished": sum(g.status == "finished" for g in powers),
              "run": sum("gamemaster" in g.role for g in mine)}
    return render(request, "lobby.html", {
        "page": page, "open": open_games(session, page.user),
        "in_progress": [g for g in mine if g.status != "finished"],
        "finished": [g for g in mine if g.status == "finished"], "record": record,
    })


