"""What a viewer is shown of positions and adjudicated phases: the current position (as a
document, as text, as the picture's position), each phase's results and document, and the
views stored for the players of games that hide information.

Nothing here adjudicates for a player of such a game: their results are read from the view
the worker stored when it adjudicated the phase (:func:`stored_view`), so the time an answer
takes does not depend on what they may not see.

Someone in such a game who holds no power and may not see all (a gamemaster who held a seat
and freed it, until the game is over) is told no power's part: the board without units or
centres (:func:`nothing_known`), and of each adjudicated phase only that it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session

from calhamer.formats import position_to_json, view_to_json
from calhamer.game import Game, PhaseRecord, game_outcome, game_view
from calhamer.position import Phase, Position
from calhamer.render import Mask, render_svg
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.server.models import GameRow, PhaseRow, PowerViewRow
from calhamer.server.services.bids import may_read_all_bids, stored_bids
from calhamer.server.services.common import NotFound, hides, phase_name, position_of
from calhamer.server.services.orders import order_sets, visible_orders
from calhamer.server.views import Viewer, sees_everything
from calhamer.views import KNOWN_TOTALS, PowerView, gamemaster_view, known_position

NO_POWER = ("You hold no power in this game: what each power knows is told to its player "
            "only, until the game is over.")

# -- the current position ----------------------------------------------------------------------


def public_position(phase: PhaseRow) -> dict[str, Any]:
    """A phase's position as players may see it: a secret dice seed stays out until the phase
    has been adjudicated (its published commitment, ``seed_hash``, stays in)."""
    doc = dict(phase.position)
    if phase.results is None:
        doc.pop("seed", None)
    return doc


def known_to(viewer: Viewer, phase: PhaseRow) -> Position:
    """The position at the start of ``phase`` as the viewer knows it: the truth, or in a game
    that hides information, a player's own units, dislodged units and centres only."""
    position = position_of(phase)
    if sees_everything(viewer):
        return position
    if viewer.power is None:
        return nothing_known(position)
    return known_position(position, viewer.power)


def nothing_known(position: Position) -> Position:
    """What someone who holds no power knows of a position of a game that hides information:
    the board and the phase, no unit, no centre and no power's total."""
    return position.replace(
        units={}, centers={}, dislodged=(), contested=frozenset(),
        extra={KNOWN_TOTALS: dict.fromkeys(position.map.power_codes)})


def position_document(viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The current position as a phase document (without orders), as the viewer may see it."""
    if sees_everything(viewer):
        return public_position(phase)
    return position_to_json(known_to(viewer, phase), viewer.game.rules)


def board_report(viewer: Viewer, phase: PhaseRow) -> str:
    """The position as text, as the viewer may see it (a player of a game that hides
    information: their own units and centres)."""
    position = position_of(phase)
    if sees_everything(viewer):
        return position_report(position)
    if viewer.power is None:
        return f"{position.phase.name} ({position.phase.code})\n\n{NO_POWER}\n"
    return power_position_report(position, viewer.power)


# -- adjudicated phases ------------------------------------------------------------------------


def _following(session: Session, phase: PhaseRow) -> PhaseRow:
    return session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == phase.game_id,
                               PhaseRow.index == phase.index + 1)
    ).one()


def library_game(session: Session, game: GameRow, phase: PhaseRow) -> Game:
    """An adjudicated phase and the one after it, as a library game (with its secret bids).

    Only for the gamemaster (and for players of games that hide nothing): a player of a game
    that hides information reads their stored view (:func:`stored_view`) instead."""
    orders = {p: list(o.lines) for p, o in order_sets(session, phase).items()}
    following = _following(session, phase)
    return Game(game.variant, game.rules, [
        PhaseRecord(phase.code, phase.position, orders, phase.results,
                    stored_bids(session, game, phase)),
        PhaseRecord(following.code, following.position),
    ])


def phase_result(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The report and results of an adjudicated phase (NotFound before it is adjudicated).

    In the standard game they are public to everyone in the game. Where the variant hides
    information a player gets their own view of the phase, as the worker stored it when it
    adjudicated the phase (:func:`stored_view`: nothing is adjudicated on request, so the
    time an answer takes does not depend on the board), and their own orders; the
    gamemaster gets the whole truth, followed by what the players were told.
    """
    if phase.results is None:
        raise NotFound()
    game = viewer.game
    orders = {p: list(o.lines) for p, o in order_sets(session, phase).items()}
    results: dict[str, Any]
    if not sees_everything(viewer) and viewer.power is None:
        report = f"{Phase.parse(phase.code).name} ({phase.code}) has been adjudicated.\n\n"
        orders, results, following_code = {}, {}, _following(session, phase).code
        report += NO_POWER + "\n"
    elif not sees_everything(viewer):
        assert viewer.power is not None
        stored = stored_view(session, viewer, phase)
        report = stored["report"]
        orders = {p: lines for p, lines in orders.items() if p == viewer.power}
        results = stored["results"]
        following_code = stored["view"]["next"]["phase"]
    else:
        whole = library_game(session, game, phase)
        following_code = whole.history[-1].phase
        outcome = whole.outcome(phase.code)
        assert outcome is not None
        report = phase_report(outcome)
        if hides(game):
            told = phase_report(gamemaster_view(game_outcome(whole, phase.code)))
            report += f"\n======\nAs the players are told it\n\n{told}"
        results = dict(phase.results)
    return {
        "phase": phase.code,
        "name": phase_name(game, phase.code),
        "report": report,
        "orders": orders,
        "results": results,
        "next": following_code,
        "processed_at": phase.processed_at,
    }


def phase_document(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The phase as a phase document, with the orders the viewer may read.

    The gamemaster's is the whole document, with the bids of a DP game. A player of a game
    that hides information exports their own view: the position as they knew it, their own
    orders and, once adjudicated, their view of the results (``"views"``). The bids of a DP
    game reach the players only once the game is over.
    """
    game = viewer.game
    if not sees_everything(viewer) and viewer.power is None:
        doc = position_to_json(known_to(viewer, phase), game.rules)
        doc["orders"] = {}
        return doc
    if not sees_everything(viewer):
        assert viewer.power is not None
        doc = position_to_json(known_to(viewer, phase), game.rules)
        own = order_sets(session, phase).get(viewer.power)
        doc["orders"] = {viewer.power: list(own.lines)} if own is not None else {}
        if phase.results is not None:
            doc["views"] = {viewer.power: stored_view(session, viewer, phase)["view"]}
        return doc
    doc = public_position(phase)
    doc["rules"] = game.rules
    doc["orders"] = {p: list(o.lines) for p, o in visible_orders(session, viewer, phase).items()}
    if may_read_all_bids(viewer):
        bids = stored_bids(session, game, phase)
        if bids:
            doc["bids"] = bids
    return doc


# -- stored views (games that hide information) ------------------------------------------------


def view_entry(view: PowerView, rules: str, *, picture: bool = True) -> dict[str, Any]:
    """What is stored of one power's view of a phase: everything its results pages, API
    answers, export and picture show, so that reading them adjudicates nothing. With
    ``picture=False`` the picture is left out, to be added by :func:`store_pictures`."""
    entry = {
        "report": phase_report(view),
        "results": {p: [r.to_json() for r in entries] for p, entries in view.results.items()},
        "view": view_to_json(view, rules),
    }
    if picture:
        entry["picture"] = render_svg(view=view)
    return entry


def recorded_views(variant: str, rules: str, code: str, position: dict[str, Any],
                   orders: dict[str, list[str]], results: dict[str, Any],
                   next_code: str, next_position: dict[str, Any],
                   powers: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each of ``powers``' stored view of a recorded phase, adjudicated again from its record
    (for phases adjudicated before views were stored: migration 0002)."""
    recorded = Game(variant, rules, [
        PhaseRecord(code, position, orders, results),
        PhaseRecord(next_code, next_position),
    ])
    return {p: view_entry(game_view(recorded, p, code), rules) for p in powers}


def store_views(session: Session, game: GameRow, phase: PhaseRow, views: dict[str, PowerView],
                *, pictures: bool = True) -> None:
    """Store each power's view of an adjudicated phase (:func:`view_entry`); with
    ``pictures=False`` without their pictures (the worker adds them once it has committed
    the phase: :func:`store_pictures`)."""
    for power, view in views.items():
        session.add(PowerViewRow(game_id=game.id, phase=phase.code, power=power,
                                 view=view_entry(view, game.rules, picture=pictures)))


# Each power's picture, added to its stored view where it is missing.
_VIEWS: Table = PowerViewRow.__table__  # type: ignore[assignment]
_ADD_PICTURE = (
    update(_VIEWS)
    .where(_VIEWS.c.game_id == bindparam("g"), _VIEWS.c.phase == bindparam("c"),
           _VIEWS.c.power == bindparam("p"))
    .values(view=bindparam("v", type_=_VIEWS.c.view.type))
)


def store_pictures(session: Session, game_id: str, code: str,
                   views: dict[str, PowerView]) -> None:
    """Draw each power's picture of an adjudicated phase and add it to its stored view.

    The worker does this after committing the phase, so that drawing (the larger part of a
    phase's work where views are stored) holds no lock any player waits for. Until it is
    done a picture asked for is drawn from the phase's record (:func:`stored_picture`), the
    same picture."""
    rows = session.execute(select(PowerViewRow.power, PowerViewRow.view).where(
        PowerViewRow.game_id == game_id, PowerViewRow.phase == code)).all()
    changed = [{"g": game_id, "c": code, "p": power,
                "v": {**stored, "picture": render_svg(view=views[power])}}
               for power, stored in rows if "picture" not in stored and power in views]
    if changed:
        session.connection().execute(_ADD_PICTURE, changed)


def stored_picture(session: Session, viewer: Viewer, phase: PhaseRow) -> str:
    """The viewer's power's picture of an adjudicated phase: the one stored with its view, or,
    in the moment between the worker's commit of the phase and of its pictures (or when a
    worker stopped in between), the same picture drawn now from the phase's record. Someone
    who holds no power gets the empty board (:func:`nothing_known`)."""
    if viewer.power is None:
        return render_svg(nothing_known(position_of(phase)), mask=Mask())
    stored = stored_view(session, viewer, phase)
    picture = stored.get("picture")
    if isinstance(picture, str):
        return picture
    assert viewer.power is not None
    view = game_view(library_game(session, viewer.game, phase), viewer.power, phase.code)
    return render_svg(view=view)


def stored_view(session: Session, viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """The viewer's power's view of an adjudicated phase, as stored when it was adjudicated."""
    assert viewer.power is not None
    row = session.scalars(select(PowerViewRow.view).where(
        PowerViewRow.game_id == phase.game_id, PowerViewRow.phase == phase.code,
        PowerViewRow.power == viewer.power,
    )).first()
    if row is None:  # every seat's view is stored with the phase: a broken database
        raise RuntimeError(f"no stored view of {phase.code} for {viewer.power} "
                           f"in game {phase.game_id}")
    return row
