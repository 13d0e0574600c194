"""Games: creating one, finding games and their phases, locking a game's row, the game log.

Locking: a change to a game's current phase (orders, bids, ready marks, press, seats,
gamemaster actions) first locks the game's row (:func:`lock_game`); adjudication holds that
row's lock for its whole transaction. So an order saved and acknowledged is either in the
phase that gets adjudicated or refused because that phase is over, never silently dropped.
Ready marks and gamemaster actions take the row's exclusive lock (see ``orders.py`` for why).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import Select, bindparam, or_, select
from sqlalchemy.orm import Session, defer, lazyload

from calhamer.errors import CalhamerError
from calhamer.game import Game
from calhamer.phases import buildable_centres
from calhamer.position import Phase, Position
from calhamer.rules import find_rules
from calhamer.server.models import Event, GameRow, PhaseRow, Seat, User
from calhamer.server.services.common import Invalid, NotFound
from calhamer.server.views import Viewer
from calhamer.variants import all_variants, find_variant

PRESS_SETTINGS = ("none", "public", "full")


# -- variants the web judge runs ---------------------------------------------------------------


def unservable_reason(variant: str) -> str | None:
    """Why the web judge cannot run this variant, or None when it can (every known one)."""
    try:
        find_variant(variant)
    except CalhamerError as exc:
        return str(exc)
    return None


def servable_variants() -> list[tuple[str, str]]:
    """(name, title) of every variant the web judge can run."""
    return [(v.name, v.title) for v in all_variants() if unservable_reason(v.name) is None]


# -- who is waited for, and until when ---------------------------------------------------------


def required_powers(
    position: Position, rules: str, previous: Iterable[str] | None = None
) -> list[str]:
    """The powers that have something to order in this phase (they are waited for).

    Where the variant hides information, who has something to do is itself hidden (a retreat
    phase waited for by one power tells everyone that power was dislodged), so every power
    in the game is waited for in every phase: those alive at the start of each game year (the
    winter's centre chart has just told everyone who they are), or at the start of the game.
    ``previous`` is the list of the phase before.
    """
    phase = position.phase
    if find_variant(position.variant).visibility.hidden_information:
        if previous is not None and not (phase.is_movement and phase.season == "S"):
            return list(previous)
        return position.powers()
    if phase.is_movement:
        needed = {u.power for u in position.units.values()}
    elif phase.is_retreat:
        needed = {d.unit.power for d in position.dislodged}
    else:
        edition = find_rules(rules)
        needed = {
            p for p, n in position.adjustments().items()
            if n < 0 or (n > 0 and buildable_centres(position, p, edition))
        }
    return [p for p in position.map.power_codes if p in needed]


def deadline_minutes(game: GameRow, code: str) -> int:
    """How long the game gives a phase of this kind, in minutes (0: no deadline)."""
    kind = Phase.parse(code).kind
    if kind == "R":
        return game.retreat_minutes
    if kind == "A":
        return game.adjustment_minutes
    return game.movement_minutes


def next_deadline(game: GameRow, code: str, now: datetime) -> datetime | None:
    """The deadline of phase ``code`` starting ``now``, or None when it has none."""
    minutes = deadline_minutes(game, code)
    return now + timedelta(minutes=minutes) if minutes > 0 else None


# -- creating ----------------------------------------------------------------------------------


def new_token() -> str:
    """A new invitation token (unguessable, fit for a URL)."""
    return secrets.token_urlsafe(24)


def create_game(
    session: Session,
    *,
    gm: User,
    name: str,
    variant: str,
    rules: str | None,
    press: str,
    movement_minutes: int,
    retreat_minutes: int,
    adjustment_minutes: int,
    now: datetime,
) -> GameRow:
    """A new game run by ``gm``: its row, a seat with an invitation for each power, and its
    first phase (Invalid for an unknown variant or rules, or a press setting not offered)."""
    problem = unservable_reason(variant)
    if problem:
        raise Invalid(problem)
    try:
        new_game = Game.new(variant, rules or None)
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if press not in PRESS_SETTINGS:
        raise Invalid(f"press must be one of {', '.join(PRESS_SETTINGS)}")
    record = new_game.history[-1]
    title = find_variant(new_game.variant).title
    game = GameRow(
        id=secrets.token_urlsafe(9)[:12],
        name=name.strip() or f"{title} game",
        variant=new_game.variant,
        rules=new_game.rules,
        press=press,
        movement_minutes=movement_minutes,
        retreat_minutes=retreat_minutes,
        adjustment_minutes=adjustment_minutes,
        status="active",
        gm_id=gm.id,
        phase_index=0,
        process_requested=False,
        created_at=now,
    )
    game.deadline = next_deadline(game, record.phase, now)
    session.add(game)
    session.flush()  # the game's row first: the rows below refer to it
    position = new_game.current
    for power in position.map.power_codes:
        session.add(Seat(game_id=game.id, power=power, invite_token=new_token()))
    session.add(PhaseRow(
        game_id=game.id, index=0, code=record.phase, position=record.document,
        required=required_powers(position, game.rules), started_at=now,
    ))
    log(session, game.id, now, "created", f"{title}, rules {game.rules}, press {press}")
    session.flush()
    return game


def log(session: Session, game_id: str, now: datetime, kind: str, detail: str) -> None:
    """Add an entry to the game log."""
    session.add(Event(game_id=game_id, at=now, kind=kind, detail=detail))


# -- locking and finding -----------------------------------------------------------------------


def _lock_statement(exclusive: bool, seats: bool) -> Select[GameRow]:
    statement = (select(GameRow).where(GameRow.id == bindparam("game_id"))
                 .execution_options(populate_existing=True))
    if not seats:
        statement = statement.options(lazyload(GameRow.seats))
    return statement.with_for_update(read=not exclusive)


# Built once (every save asks one): building and keying a statement costs more than running it.
_LOCK = {(exclusive, seats): _lock_statement(exclusive, seats)
         for exclusive in (False, True) for seats in (False, True)}


def lock_game(session: Session, game_id: str, *, exclusive: bool = False,
              seats: bool = True) -> GameRow:
    """Read a game's row and lock it until the transaction ends.

    ``exclusive=False`` (saving orders) shares the lock with other savers but waits for, and
    blocks, an adjudication; ``exclusive=True`` is for ready marks and gamemaster actions,
    which decide from what the others have committed. On SQLite the writing transaction
    already holds the database's write lock. ``seats=False`` leaves the seats to be read
    when first used (``seats.own_power`` reads the one it needs itself).
    """
    game = session.scalars(_LOCK[exclusive, seats], {"game_id": game_id}).first()
    if game is None:
        raise NotFound()
    return game


def lock_for_gm(session: Session, viewer: Viewer) -> GameRow:
    """The viewer's game locked exclusively, for a gamemaster's action (NotFound for others)."""
    if not viewer.is_gm:
        raise NotFound()
    return lock_game(session, viewer.game.id, exclusive=True)


def games_of(session: Session, user: User) -> list[GameRow]:
    """The games ``user`` runs or plays in, newest first."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    statement = select(GameRow).where(or_(GameRow.gm_id == user.id, GameRow.id.in_(seated)))
    return list(session.scalars(statement.order_by(GameRow.created_at.desc(), GameRow.id)))


_PHASE = {
    position: (select(PhaseRow)
               .where(PhaseRow.game_id == bindparam("game_id"),
                      PhaseRow.index == bindparam("index"))
               .options(*([] if position else [defer(PhaseRow.position)])))
    for position in (False, True)
}


def current_phase(session: Session, game: GameRow, *, position: bool = True) -> PhaseRow:
    """The phase being played (the last one, once the game is over). ``position=False``
    leaves the phase document unread until it is used: ``common.position_of`` keeps each
    phase's parsed position, so a request that only checks orders never reads it again."""
    row = session.scalars(_PHASE[position], {"game_id": game.id,
                                             "index": game.phase_index}).first()
    if row is None:  # the schema guarantees it; a broken database is a server error
        raise RuntimeError(f"game {game.id} has no phase {game.phase_index}")
    return row


def phases_of(session: Session, game: GameRow) -> list[PhaseRow]:
    """The game's phases, first to current."""
    return list(session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.index)
    ))


def find_phase(session: Session, game: GameRow, code: str) -> PhaseRow:
    """The game's phase named ``code`` (NotFound for a phase it has not had)."""
    try:
        wanted = Phase.parse(code).code
    except CalhamerError:
        raise NotFound() from None
    row = session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.code == wanted)
    ).first()
    if row is None:
        raise NotFound()
    return row


# -- the game log ------------------------------------------------------------------------------


def events_of(session: Session, game: GameRow) -> list[Event]:
    """The whole game log, oldest first."""
    return list(session.scalars(
        select(Event).where(Event.game_id == game.id).order_by(Event.id)
    ))


# What the game log may tell a gamemaster who plays a power: the game's public life and their
# own actions. Any other kind (a new one included) is left out until the game is over.
PUBLIC_EVENTS = frozenset({"created", "joined", "replaced", "paused", "resumed", "extended",
                           "process", "ended", "adjudicated"})


def visible_events(session: Session, viewer: Viewer) -> list[Event]:
    """The game log as the viewer may read it (only the gamemaster reads it at all)."""
    if not viewer.is_gm:
        return []
    events = events_of(session, viewer.game)
    if viewer.sees_all:
        return events
    return [e for e in events if e.kind in PUBLIC_EVENTS]
