"""The lobby: games listed for anyone to join, and the viewer's own games (in progress,
finished with their history) and record.

A listed game (its gamemaster ticked "list it in the lobby", which its game log records)
shows everyone its name,
variant, press setting, phase and free powers, each with its invitation link: taking a free
power is what listing it is for. Nothing else of it is shown there, and its own pages stay
closed to anyone who has not joined. An unlisted game never appears in anyone's lobby but
its gamemaster's and players'. A record is the viewer's own only (which games someone
plays is theirs to tell).

Every list is paged (``Settings.lobby_page_size`` games a page, newest first), so the page
costs the same however many games the judge holds: the open games at ``?open=N``, the
viewer's games in progress at ``?playing=N`` and finished at ``?finished=N``; the record is
counted by the database. ``GET /api/lobby?page=N`` gives the open games to bots, a page at a
time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Generic, TypeVar

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy import case, exists, func, select
from sqlalchemy.orm import Session

from calhamer.server.config import Settings
from calhamer.server.deps import OptionalApiUser, PageDep, SessionDep, SettingsDep
from calhamer.server.models import Event, GameRow, Seat, User
from calhamer.server.pages import render
from calhamer.server.routes.games import LISTED
from calhamer.server.schemas import FreePowerOut, LobbyOut, OpenGameOut
from calhamer.server.services import games, results
from calhamer.server.services.common import phase_name, position_of
from calhamer.server.views import viewer_for

api = APIRouter(prefix="/api/lobby", tags=["lobby"])
pages = APIRouter(include_in_schema=False)

PageNumber = Annotated[int, Query(ge=1, le=100_000,
                                  description="Which page of the list, from 1.")]


@dataclass
class OpenGame:
    id: str
    name: str
    variant: str
    press: str
    phase: str
    phase_name: str
    free: list[tuple[str, str, str]] = field(default_factory=list)  # (code, name, invitation)


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


T = TypeVar("T")


@dataclass
class Paged(Generic[T]):
    """One page of a list: its items, its number (from 1) and whether a next one has any."""

    items: list[T]
    number: int
    more: bool


def page_size(settings: Settings) -> int:
    """Games a page (at least one)."""
    return max(1, settings.lobby_page_size)


def open_games(session: Session, user: User | None, number: int = 1,
               size: int = 25) -> Paged[OpenGame]:
    """A page of the listed games that are not over, with a free power, and that the user is
    not in, newest first."""
    listed = select(Event.game_id).where(Event.kind == LISTED)
    free = exists().where(Seat.game_id == GameRow.id, Seat.user_id.is_(None),
                          Seat.invite_token.is_not(None))
    statement = select(GameRow).where(GameRow.id.in_(listed), GameRow.status != "finished",
                                      free)
    if user is not None:
        statement = statement.where(GameRow.gm_id != user.id, ~exists().where(
            Seat.game_id == GameRow.id, Seat.user_id == user.id))
    rows = list(session.scalars(statement.order_by(GameRow.created_at.desc(), GameRow.id)
                                .offset((number - 1) * size).limit(size + 1)))
    out = []
    for game in rows[:size]:
        phase = games.current_phase(session, game)
        names = {p.code: p.name for p in position_of(phase).map.powers}
        free_seats = [(s.power, names.get(s.power, s.power.title()), s.invite_token)
                      for s in game.seats if s.user_id is None and s.invite_token]
        out.append(OpenGame(game.id, game.name, game.variant, game.press, phase.code,
                            phase_name(game, phase.code), free_seats))
    return Paged(out, number, len(rows) > size)


def played(session: Session, user: User, *, finished: bool, number: int = 1,
           size: int = 25) -> Paged[Played]:
    """A page of the user's games in progress (or finished), newest first, each as their
    record shows it."""
    statement = games.games_of_query(user).where(
        (GameRow.status == "finished") if finished else (GameRow.status != "finished"))
    rows = list(session.scalars(statement.offset((number - 1) * size).limit(size + 1)))
    out = []
    for game in rows[:size]:
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
    return Paged(out, number, len(rows) > size)


def record_of(session: Session, user: User) -> dict[str, int]:
    """The user's record, counted by the database: games played (a power held), won,
    finished, and run as the gamemaster."""
    over = GameRow.status == "finished"
    games_played, won, finished = session.execute(
        select(func.count(), func.sum(case((over & (GameRow.winner == Seat.power), 1),
                                           else_=0)),
               func.sum(case((over, 1), else_=0)))
        .select_from(Seat).join(GameRow, GameRow.id == Seat.game_id)
        .where(Seat.user_id == user.id)).one()
    run = session.scalar(select(func.count()).select_from(GameRow)
                         .where(GameRow.gm_id == user.id))
    return {"games": games_played or 0, "won": won or 0, "finished": finished or 0,
            "run": run or 0}


def _number(request: Request, name: str) -> int:
    """A page number from the address (1 when it is missing or not one)."""
    value = request.query_params.get(name, "")
    return int(value) if value.isdigit() and 0 < int(value) <= 100_000 else 1


@api.get("", response_model=LobbyOut, summary="The games listed for anyone to join",
         description="Listed games that are not over and have a free power (not your own), "
         "newest first, a page at a time: `page` counts from 1, `page_size` games a page, "
         "`next_page` is null on the last. Each free power comes with its invitation.")
def api_lobby(session: SessionDep, user: OptionalApiUser, settings: SettingsDep,
              page: PageNumber = 1) -> LobbyOut:
    found = open_games(session, user, page, page_size(settings))
    return LobbyOut(
        games=[OpenGameOut(id=g.id, name=g.name, variant=g.variant, press=g.press,
                           phase=g.phase, phase_name=g.phase_name,
                           free=[FreePowerOut(power=code, name=name, invite=token)
                                 for code, name, token in g.free])
               for g in found.items],
        page=page, page_size=page_size(settings), next_page=page + 1 if found.more else None)


@pages.get("/lobby")
def lobby(request: Request, page: PageDep, session: SessionDep,
          settings: SettingsDep) -> Response:
    size = page_size(settings)
    numbers = {name: _number(request, name) for name in ("open", "playing", "finished")}

    def page_link(name: str, number: int) -> str:
        """The lobby with list ``name`` at page ``number``, the other lists where they are."""
        query = "&".join(f"{key}={number if key == name else value}"
                         for key, value in numbers.items()
                         if (key == name and number > 1) or (key != name and value > 1))
        return f"/lobby{'?' + query if query else ''}#{name}"

    context: dict[str, object] = {
        "page": page, "page_link": page_link,
        "open": open_games(session, page.user, numbers["open"], size)}
    if page.user is not None:
        context.update(
            in_progress=played(session, page.user, finished=False,
                               number=numbers["playing"], size=size),
            finished=played(session, page.user, finished=True, number=numbers["finished"],
                            size=size),
            record=record_of(session, page.user))
    return render(request, "lobby.html", context)
