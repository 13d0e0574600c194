"""Orders: checking lines, saving them, ready marks, and which orders a viewer may read.

Ready marks are set under the game row's exclusive lock, one transaction at a time: each
reads the marks the others committed before it, so the last power to get ready sees every
mark and asks for adjudication (:func:`request_if_all_ready`), however many arrive at once
(with a shared lock, under PostgreSQL's READ COMMITTED, simultaneous marks could each miss
the others' and leave an untimed game waiting forever). Saving orders alone shares the lock
with other savers but still waits for, and blocks, an adjudication.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, defer

from calhamer.errors import CalhamerError
from calhamer.game import OrderCheck, check_orders
from calhamer.messages import ReadMessage, read_message
from calhamer.position import Phase
from calhamer.server import live_events
from calhamer.server.models import GameRow, OrderSet, PhaseRow, Seat
from calhamer.server.services.common import Conflict, Invalid, NotFound, hides, position_of
from calhamer.server.services.games import current_phase, lock_game
from calhamer.server.services.seats import own_power
from calhamer.server.views import Viewer
from calhamer.views import known_position


def split_lines(lines: Iterable[str]) -> list[str]:
    """Orders as the player gave them, one per line (a multi-line string is split)."""
    return [part for line in lines for part in (str(line).splitlines() or [""])]


def check_lines(game: GameRow, phase: PhaseRow, power: str, lines: list[str]) -> list[OrderCheck]:
    """What the judge makes of each line (canonical form or the problem and a suggestion).

    In a game that hides information the lines are checked against what the power knows (its
    own units and the map), never the truth: the variant's rules make every check come out as
    it would on the whole board, and checking without the foreign units makes the answer, and
    the time it takes, independent of them by construction.
    """
    position = position_of(phase)
    if hides(game):
        position = known_position(position, power)
    return check_orders(position, {power: lines}, game.rules)[power]


def read_box(game: GameRow, phase: PhaseRow, power: str, text: str) -> ReadMessage:
    """The order box's text read as a whole message (:mod:`calhamer.messages`): greetings,
    signatures and quoted text set aside, never stored. Read against what the power knows,
    as its orders are checked (:func:`check_lines`)."""
    position = position_of(phase)
    if hides(game):
        position = known_position(position, power)
    return read_message(position, text, power)


def order_sets(session: Session, phase: PhaseRow) -> dict[str, OrderSet]:
    """Each power's orders for a phase (bids are in a table of their own, ``bids``), in the
    order of the powers' names: what lists them must not depend on who wrote last."""
    rows = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id)
                           .order_by(OrderSet.power))
    return {o.power: o for o in rows}


def ensure_current(game: GameRow, phase: PhaseRow, code: str) -> None:
    """Refuse (Conflict) unless ``code`` names ``phase``, the phase being played, and the
    game is not over; Invalid when ``code`` is not a phase."""
    if game.status == "finished":
        raise Conflict("the game is over; no more orders are taken")
    try:
        wanted = Phase.parse(code).code
    except CalhamerError as exc:
        raise Invalid(str(exc)) from None
    if wanted != phase.code:
        raise Conflict(
            f"phase {wanted} is not the phase being played; the current phase is {phase.code}"
        )


@functools.cache
def _upsert(dialect_name: str, sets_ready: bool) -> Any:
    """The statement that writes a power's orders (built once per database kind): insert,
    or on the power's existing row replace the lines (and the ready mark when given)."""
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    table = OrderSet.__table__
    insert = dialect.insert(table).values(
        phase_id=bindparam("phase_id"), power=bindparam("power"),
        lines=bindparam("lines", type_=table.c.lines.type),
        ready=bindparam("ready"), updated_at=bindparam("updated_at"))
    changed: dict[str, Any] = {"lines": insert.excluded.lines,
                               "updated_at": insert.excluded.updated_at}
    if sets_ready:
        changed["ready"] = insert.excluded.ready
    return insert.on_conflict_do_update(
        index_elements=[table.c.phase_id, table.c.power],
        set_=changed).returning(table.c.id, table.c.ready)


_SEAT_AND_PHASE = (
    select(PhaseRow, select(Seat.user_id)
           .where(Seat.game_id == bindparam("game_id"), Seat.power == bindparam("power"))
           .scalar_subquery())
    .where(PhaseRow.game_id == bindparam("game_id"), PhaseRow.index == bindparam("index"))
    .options(defer(PhaseRow.position))
)


def _seat_and_phase(session: Session, game: GameRow, viewer: Viewer) -> tuple[str, PhaseRow]:
    """The viewer's power, checked again under the game's lock (``seats.own_power``), and the
    phase being played (``games.current_phase(..., position=False)``), in one query."""
    if viewer.power is None:
        raise NotFound()
    row = session.execute(_SEAT_AND_PHASE, {"game_id": game.id, "power": viewer.power,
                                            "index": game.phase_index}).first()
    if row is None:  # the schema guarantees the phase; a broken database is a server error
        raise RuntimeError(f"game {game.id} has no phase {game.phase_index}")
    phase, holder = row
    if holder is None or holder != viewer.user.id:
        raise NotFound()
    return viewer.power, phase


class Saved(NamedTuple):
    """What :func:`save_orders` stored: the power's orders, each line's check, the phase."""

    orders: OrderSet
    checks: list[OrderCheck]
    phase: PhaseRow


def save_orders(
    session: Session,
    *,
    viewer: Viewer,
    phase_code: str,
    lines: list[str],
    ready: bool | None,
    now: datetime,
    locked: bool = False,
) -> Saved:
    """Replace the viewer's orders for the current phase; return each line's check.

    The lines are kept as written, bad ones included (they are judged invalid when the phase
    is adjudicated), so nothing the player typed is lost. The row is written in one
    statement (an upsert), so two saves of the same power at once (two browsers) both land,
    the later one last, where a read-then-insert could have had one refused.

    ``locked``: the caller has read ``viewer.game`` with the lock this takes (shared, or
    exclusive with a ready mark), in this transaction.
    """
    # A ready mark takes the exclusive lock: see the module's docstring.
    game = (viewer.game if locked else
            lock_game(session, viewer.game.id, exclusive=ready is not None, seats=False))
    power, phase = _seat_and_phase(session, game, viewer)
    ensure_current(game, phase, phase_code)
    given = split_lines(lines)
    checks = check_lines(game, phase, power, given)
    stored = [line for line in given if line.strip()]
    row = session.connection().execute(
        _upsert(session.get_bind().dialect.name, ready is not None),
        {"phase_id": phase.id, "power": power, "lines": stored, "ready": bool(ready),
         "updated_at": now}).one()
    # What was stored, as a row object of its own (not the session's: nothing else is saved)
    orders = OrderSet(id=row.id, phase_id=phase.id, power=power, lines=stored,
                      ready=row.ready, updated_at=now)
    if ready:
        request_if_all_ready(session, game, phase)
    _publish_orders(session, game, power)
    return Saved(orders, checks, phase)


def set_ready(
    session: Session, *, viewer: Viewer, phase_code: str, ready: bool, now: datetime
) -> OrderSet:
    """Mark the viewer's orders for the current phase ready or not; the last power to get
    ready asks for adjudication."""
    game = lock_game(session, viewer.game.id, exclusive=True, seats=False)
    power = own_power(game, viewer)
    phase = current_phase(session, game, position=False)
    ensure_current(game, phase, phase_code)
    orders = order_sets(session, phase).get(power)
    if orders is None:
        orders = OrderSet(phase_id=phase.id, power=power, lines=[], ready=ready, updated_at=now)
        session.add(orders)
    else:
        orders.ready = ready
        orders.updated_at = now
    session.flush()
    if ready:
        request_if_all_ready(session, game, phase)
    _publish_orders(session, game, power)
    return orders


def _publish_orders(session: Session, game: GameRow, power: str) -> None:
    """Tell the live pages that ``power``'s orders or ready mark changed. In a phase not yet
    judged only that power's player and those who see everything may read them
    (:func:`visible_orders`), so only their pages are woken; the last ready mark, which asks
    for adjudication (a change every page shows), wakes them all."""
    live_events.publish(session, game.id, "orders",
                        None if game.process_requested else power)


def request_if_all_ready(session: Session, game: GameRow, phase: PhaseRow) -> None:
    """Ask for adjudication when every power waited for is ready. The caller holds the game's
    row exclusively, so the marks read here include every other committed one."""
    if game.status != "active" or not phase.required:
        return
    rows = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id)
                           .execution_options(populate_existing=True))
    sets = {o.power: o for o in rows}
    if all(p in sets and sets[p].ready for p in phase.required):
        game.process_requested = True


def own_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> OrderSet | None:
    """The viewer's own orders for the phase (None when they play no power or gave none)."""
    if viewer.power is None:
        return None
    return order_sets(session, phase).get(viewer.power)


def _reads_all_orders(viewer: Viewer, phase: PhaseRow) -> bool:
    """Whether the viewer may read every power's orders of the phase: the gamemaster who sees
    all, and everyone once it is adjudicated (except in a game that hides information);
    otherwise only their own (a seated gamemaster's too)."""
    return viewer.sees_all or (phase.results is not None and not hides(viewer.game))


def visible_orders(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, OrderSet]:
    """Orders of a phase the viewer may read (:func:`_reads_all_orders`)."""
    sets = order_sets(session, phase)
    if _reads_all_orders(viewer, phase):
        return sets
    return {p: o for p, o in sets.items() if p == viewer.power}


def visible_marks(session: Session, viewer: Viewer,
                  phase: PhaseRow) -> list[tuple[str, bool, datetime]]:
    """Each power's ready mark and time of saving among the orders the viewer may read (as
    :func:`visible_orders`), by power: what a live page's digest needs, read as columns
    without the orders themselves (a live page reads it after every save it may see)."""
    if _reads_all_orders(viewer, phase):
        rows = session.execute(_ALL_MARKS, {"phase_id": phase.id})
    else:
        rows = session.execute(_OWN_MARK, {"phase_id": phase.id, "power": viewer.power or ""})
    return [(power, bool(ready), at) for power, ready, at in rows]


# :func:`visible_marks`' two queries, built once (every change an open page hears asks one).
_ALL_MARKS = (select(OrderSet.power, OrderSet.ready, OrderSet.updated_at)
              .where(OrderSet.phase_id == bindparam("phase_id")).order_by(OrderSet.power))
_OWN_MARK = _ALL_MARKS.where(OrderSet.power == bindparam("power"))
