"""Games: creating one, finding games and their phases, locking a game's row, the game log.

Locking: a change to a game's current phase (orders, bids, ready marks, press, seats,
gamemaster actions) first locks the game's row (:func:`lock_game`); adjudication holds that
row's lock for its whole transaction. So an order saved and acknowledged is either in the
phase that gets adjudicated or refused because that phase is over, never silently dropped.
Ready marks and gamemaster actions take the row's exclusive lock (see ``orders.py`` for why).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Select, bindparam, or_, select
from sqlalchemy.orm import Session, defer, lazyload

from calhamer.boards import shipped_boards
from calhamer.documents.variants import read_variant_file
from calhamer.errors import CalhamerError
from calhamer.game import Game
from calhamer.map import load_map
from calhamer.phases import buildable_centres
from calhamer.position import Phase, Position
from calhamer.rules import find_rules
from calhamer.server import live_events
from calhamer.server.models import Event, GameRow, PhaseRow, Seat, User
from calhamer.server.names import variant_name_problem
from calhamer.server.services.common import Invalid, NotFound
from calhamer.server.views import Viewer
from calhamer.variants import all_variants, find_variant
from calhamer.variants.composition import (
    REFUSES_EDITION,
    VariantSpec,
    find_module,
    module_names,
)

PRESS_SETTINGS = ("none", "public", "full")


# -- variants the web judge runs ---------------------------------------------------------------


def unservable_reason(variant: str) -> str | None:
    """Why the web judge cannot run this variant, or None when it can: every known variant,
    and every variant composed from rule modules on a shipped board (``standard+fog+colours``)
    whose name fits the database. The judge reads no file of its own disk for a game: a
    variant file is uploaded (:func:`uploaded_variant`), never named by its path."""
    text = variant.strip()
    problem = variant_name_problem(text)  # a name, never a path: checked before any lookup
    if problem:
        return problem
    try:
        name = find_variant(text).name
    except CalhamerError as exc:
        return str(exc)
    if len(name) > VARIANT_LENGTH:
        # games.variant is String(200): longer names need a wider column (a migration).
        return (f"this variant's name, {name}, is {len(name)} characters long; this web judge "
                f"stores at most {VARIANT_LENGTH}, so choose fewer options")
    return None


def servable_variants() -> list[tuple[str, str]]:
    """(name, title) of every variant the web judge can run."""
    return [(v.name, v.title) for v in all_variants() if unservable_reason(v.name) is None]


def variant_groups() -> list[tuple[str, list[tuple[str, str]]]]:
    """The variants the new-game form offers, by family (calhamer's, godip's boards...):
    each family's heading, and (name, label) of each of its variants the web judge can run,
    the label saying what the variant is and the size of its board."""
    from calhamer.variants.catalogue import FAMILIES, catalogue

    groups: dict[str, list[tuple[str, str]]] = {}
    for e in catalogue():
        if e.problem is not None or unservable_reason(e.name) is not None:
            continue
        label = f"{e.title} ({e.size})" + (f": {e.description}" if e.description else "")
        heading = FAMILIES.get(e.family, (e.family, ""))[0]
        groups.setdefault(heading, []).append((e.name, label))
    return list(groups.items())


# The longest variant name (a composed variant's text) the games table stores.
VARIANT_LENGTH: int = GameRow.__table__.c.variant.type.length or 200  # type: ignore[attr-defined]

# An uploaded variant file is a few lines; anything much larger is not one.
UPLOAD_LIMIT = 16_000


@dataclass(frozen=True)
class ModuleChoice:
    """A rule module as the new-game form offers it: its name, title, options and refusals."""

    name: str
    title: str
    options: list[tuple[str, str, str, bool]]  # (name, meaning, default as text, is a flag)
    refuses: list[tuple[str, str]]  # (module, why)


def module_choices() -> list[ModuleChoice]:
    """The rule modules, in their combining order, for the new-game form."""
    out = []
    for name in module_names():
        module = find_module(name)
        options = []
        for option, meaning in module.options.items():
            default = getattr(module, option)
            shown = "none" if default is None else str(default).lower()
            options.append((option, meaning, shown, isinstance(default, bool)))
        refuses = list(module.refuses.items())
        refuses += [(other, why) for other in module_names()
                    if (why := find_module(other).refuses.get(name)) and other not in
                    module.refuses]
        if name in REFUSES_EDITION:
            refuses.append(("a rule edition", REFUSES_EDITION[name]))
        out.append(ModuleChoice(name, module.module_title, options, refuses))
    return out


def board_choices() -> list[tuple[str, str]]:
    """(name, title) of the maps a composed variant may be played on: every shipped board,
    godip's and DPjudge's included."""
    return [(name, load_map(name).title) for name in shipped_boards()]


def composed_variant(board: str, modules: Iterable[str], options: Mapping[str, str],
                     rules: str | None) -> str:
    """The name of the variant made of ``modules`` on ``board`` with ``options`` (as typed
    in the form: empty ones, and those of modules not chosen, are left at their defaults)
    and the edition ``rules``; Invalid
    with the reason when it cannot be played (a refused pair, a bad option)."""
    if board not in shipped_boards():
        raise Invalid(f"choose a board among: {', '.join(shipped_boards())}")
    chosen = [m for m in modules if m]
    owner = {option: name for name in module_names() for option in find_module(name).options}
    query = []
    for key, value in options.items():
        value = value.strip()
        if not value or (key in owner and owner[key] not in chosen):
            continue  # left at its default, or an option of a module not chosen
        if any(c in value for c in "+?&=") or len(value) > 60:
            raise Invalid(f"option {key}: {value[:60]!r} is not a value (a number, true or "
                          "false, none, or names separated by commas)")
        query.append(f"{key}={value}")
    if rules:
        query.append(f"rules={rules}")
    text = "+".join([board, *(chosen or ["standard"])]) + ("?" + "&".join(query) if query else "")
    try:
        name = find_variant(text).name
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    problem = unservable_reason(name)
    if problem:
        raise Invalid(problem)
    return name


def uploaded_variant(data: bytes) -> tuple[str, str | None]:
    """The name and title of the variant an uploaded variant file describes; Invalid with the
    reason (naming the field) for a file that is not one or a variant that cannot be played.
    Its board must be one of the judge's maps: an upload names no file of the server's."""
    import tomllib

    if len(data) > UPLOAD_LIMIT:
        raise Invalid(f"a variant file is a few lines; this one is over {UPLOAD_LIMIT} bytes")
    try:
        doc = read_variant_file(tomllib.loads(data.decode("utf-8")), "uploaded")
    except UnicodeDecodeError:
        raise Invalid("the variant file is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise Invalid(f"the variant file is not TOML: {exc}") from None
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if doc.board not in shipped_boards():
        raise Invalid(f"variant file: board {doc.board!r} is not one of the web judge's maps "
                      f"({', '.join(shipped_boards())}); a board of your own is played with "
                      "the command line")
    try:
        spec = VariantSpec.of(doc.board, doc.modules, doc.options, doc.rules)
        name = find_variant(spec.text()).name
    except CalhamerError as exc:
        raise Invalid(f"variant file: {exc}") from None
    problem = unservable_reason(name)
    if problem:
        raise Invalid(f"variant file: {problem}")
    return name, doc.title


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
        first = position.map.calendar.first_season  # the start of a game year
        if previous is not None and not (phase.is_movement and phase.season == first):
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
    unplayed = position.variant.unplayed  # nobody plays them: nobody is waited for
    return [p for p in position.map.power_codes if p in needed and p not in unplayed]


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
        name=name.strip() or _default_name(title),
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
        if power not in position.variant.unplayed:  # a seat for each power played
            session.add(Seat(game_id=game.id, power=power, invite_token=new_token()))
    session.add(PhaseRow(
        game_id=game.id, index=0, code=record.phase, position=record.document,
        required=required_powers(position, game.rules), started_at=now,
    ))
    log(session, game.id, now, "created", f"{title}, rules {game.rules}, press {press}")
    session.flush()
    return game


def _default_name(title: str) -> str:
    """A game's name when its gamemaster gives none: the variant's title (a composed
    variant's may be long), cut to what the games table stores."""
    name = f"{title} game"
    longest: int = GameRow.__table__.c.name.type.length or 80  # type: ignore[attr-defined]
    return name if len(name) <= longest else name[:longest - 1].rstrip(" ,(") + "…"


def log(session: Session, game_id: str, now: datetime, kind: str, detail: str) -> None:
    """Add an entry to the game log (and tell the game's live pages, once committed)."""
    session.add(Event(game_id=game_id, at=now, kind=kind, detail=detail))
    live_events.publish(session, game_id, "log")


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


def games_of_query(user: User) -> Select[GameRow]:
    """The games ``user`` runs or plays in, newest first (a statement, to page or filter)."""
    seated = select(Seat.game_id).where(Seat.user_id == user.id)
    return (select(GameRow).where(or_(GameRow.gm_id == user.id, GameRow.id.in_(seated)))
            .order_by(GameRow.created_at.desc(), GameRow.id))


def games_of(session: Session, user: User) -> list[GameRow]:
    """The games ``user`` runs or plays in, newest first."""
    return list(session.scalars(games_of_query(user)))


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


def phase_at(session: Session, game: GameRow, index: int, *,
             position: bool = True) -> PhaseRow | None:
    """The game's phase number ``index`` (None for one it has not had), read alone: a page or
    route that needs the phase before the current one does not read every phase of a long
    game (``position=False`` as for :func:`current_phase`)."""
    return session.scalars(_PHASE[position], {"game_id": game.id, "index": index}).first()


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


# The log's words for a pause the players agreed to (``proposals``); the gamemaster's pause
# is logged in other words.
PAUSED_BY_PLAYERS = "the players agreed to pause the game"


def paused_by_players(session: Session, game: GameRow) -> bool:
    """Whether a paused game was paused by its players' agreed proposal (else the gamemaster
    paused it): the log's last pause says which."""
    last = session.scalars(select(Event).where(Event.game_id == game.id, Event.kind == "paused")
                           .order_by(Event.id.desc()).limit(1)).first()
    return last is not None and last.detail == PAUSED_BY_PLAYERS


# What the game log may tell a gamemaster who plays a power: the game's public life and their
# own actions. Any other kind (a new one included) is left out until the game is over.
PUBLIC_EVENTS = frozenset({"created", "joined", "gm-joined", "replaced", "gm-left", "paused",
                           "resumed", "extended", "process", "ended", "adjudicated"})


def visible_events(session: Session, viewer: Viewer) -> list[Event]:
    """The game log as the viewer may read it (only the gamemaster reads it at all)."""
    if not viewer.is_gm:
        return []
    events = events_of(session, viewer.game)
    if viewer.sees_all:
        return events
    return [e for e in events if e.kind in PUBLIC_EVENTS]
