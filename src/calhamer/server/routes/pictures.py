"""Pictures: the map of a game's current position and of each adjudicated phase, as SVG; and
the possible orders an order page lists.

Who sees what is decided exactly as for the pages they illustrate: the viewer must be in the
game (``viewer_for``, else the same 404 as a game that does not exist); a phase's picture
exists only once the phase is adjudicated (before that, the same 404 as a phase that never
existed, like its results page). Where the variant hides information a player's picture is
drawn from their view alone (``results.known_to`` for the current position, for a phase the
view stored when it was adjudicated, ``results.stored_view``), so nothing they may not know
is in the SVG at all; the gamemaster's picture is the whole truth. The current position
carries the orders the viewer may read so far (a player's own, all of them for the
gamemaster).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from calhamer.errors import CalhamerError
from calhamer.game import order_lines
from calhamer.map import Location, Map
from calhamer.options import possible_order_texts, possible_orders
from calhamer.orders import AnyOrder, Convoy, Move, Retreat, Support
from calhamer.render import Mask, render_svg
from calhamer.server.deps import ApiViewer, Csrf, PageViewer, SessionDep
from calhamer.server.models import PhaseRow
from calhamer.server.pages import templates
from calhamer.server.schemas import OrderLine
from calhamer.server.services import games, orders, results
from calhamer.server.services.common import NotFound
from calhamer.server.views import Viewer, sees_everything

_DRAFT_LINES = 200  # an order box's lines drawn at most, as many as a check takes

api = APIRouter(prefix="/api/games/{game_id}", tags=["pictures"])
pages = APIRouter(include_in_schema=False)

SVG = "image/svg+xml"
_SVG_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"content": {SVG: {}}, "description": "The map as an SVG document"},
}


def current_picture(session: Session, viewer: Viewer, draft: list[str] | None = None) -> str:
    """The current position as the viewer may see it, with the orders they may read; with
    ``draft``, the viewer's own orders drawn are those lines (the order box as it is being
    typed or clicked, not saved yet) instead of the saved ones."""
    phase = games.current_phase(session, viewer.game)
    position = results.known_to(viewer, phase)
    readable = {p: order_lines(o.lines)
                for p, o in orders.visible_orders(session, viewer, phase).items()}
    if draft is not None and viewer.power is not None:
        readable[viewer.power] = [line for line in draft if line.strip()][:_DRAFT_LINES]
    # A player who sees only their own part of the board: the legend gives the centre totals
    # their known position carries (calhamer.views.centre_totals), never counts of the truth.
    mask = None if sees_everything(viewer) else Mask()
    return render_svg(position, orders=readable, mask=mask)


def phase_picture(session: Session, viewer: Viewer, phase: PhaseRow) -> str:
    """An adjudicated phase with its orders and results, as the viewer may see it."""
    if phase.results is None:
        raise NotFound()
    if not sees_everything(viewer):
        return results.stored_picture(session, viewer, phase)
    outcome = results.library_game(session, viewer.game, phase).outcome(phase.code)
    assert outcome is not None
    return render_svg(outcome=outcome)


def _svg(text: str) -> Response:
    # private: a picture is one viewer's; no-cache: the current one changes with the orders.
    return Response(text, media_type=SVG, headers={"Cache-Control": "private, no-cache"})


# -- API ------------------------------------------------------------------------------------------


@api.get("/picture", response_class=Response, responses=_SVG_ANSWER,
         summary="The map of the current position (SVG), with the orders you may read")
def api_current(viewer: ApiViewer, session: SessionDep) -> Response:
    return _svg(current_picture(session, viewer))


@api.get("/phases/{code}/picture", response_class=Response, responses=_SVG_ANSWER,
         summary="The map of an adjudicated phase (SVG): its orders and their results")
def api_phase(code: str, viewer: ApiViewer, session: SessionDep) -> Response:
    phase = games.find_phase(session, viewer.game, code)
    return _svg(phase_picture(session, viewer, phase))


# -- pages ----------------------------------------------------------------------------------------


@pages.get("/games/{game_id}/picture")
def current(viewer: PageViewer, session: SessionDep) -> Response:
    return _svg(current_picture(session, viewer))


class DraftIn(BaseModel):
    orders: Annotated[list[OrderLine], Field(max_length=_DRAFT_LINES)]


@pages.post("/games/{game_id}/picture/draft")
def draft_picture_page(body: DraftIn, viewer: PageViewer, _: Csrf,
                       session: SessionDep) -> Response:
    """The current picture with the order box's lines drawn as the viewer's orders, so the
    map shows each order as it is entered (lines that are not orders are left out)."""
    return _svg(current_picture(session, viewer, body.orders))


@pages.get("/games/{game_id}/phases/{code}/picture")
def phase_page(code: str, viewer: PageViewer, session: SessionDep) -> Response:
    phase = games.find_phase(session, viewer.game, code)
    return _svg(phase_picture(session, viewer, phase))


# -- possible orders on the order page ------------------------------------------------------------


def possible_orders_for(viewer: Viewer, phase: PhaseRow) -> list[tuple[str, list[str]]]:
    """What the order page lists: each of the viewer's units (or centres) and its possible
    orders (``calhamer.options``), judged on what the viewer's power knows. Empty for the
    gamemaster, once the game is over, and if the listing cannot be made."""
    if viewer.power is None or viewer.game.status == "finished":
        return []
    try:
        # On what the power knows (the truth unless the variant hides information), so the
        # listing depends on nothing the player may not see.
        position = results.known_to(viewer, phase)
        return possible_order_texts(position, viewer.power, viewer.game.rules)
    except CalhamerError:
        return []


# The order page's template calls this (templates/possible_orders.html).
templates.env.globals["possible_orders_for"] = possible_orders_for


# -- orders by clicking the map -------------------------------------------------------------------


def _order_path(m: Map, order: AnyOrder) -> list[str]:
    """The provinces a player clicks, after the unit (or centre), to give ``order``: none for a
    hold, a disband, a build or a waive (chosen from a list), the destination of a move or a
    retreat, the supported unit (then its destination), the convoyed army then its
    destination."""
    code = m.provinces

    def at(loc: Location) -> str:
        return code[m.province_of(loc)].code

    if isinstance(order, Move | Retreat):
        return [at(order.dest)]
    if isinstance(order, Support):
        return [at(order.target)] + ([at(order.dest)] if order.dest is not None else [])
    if isinstance(order, Convoy):
        return [at(order.army), at(order.dest)]
    return []


def map_options(viewer: Viewer, phase: PhaseRow) -> dict[str, Any]:
    """What the map's clicks may give: for each of the viewer's units (or centres they may
    build in), the province to click and each possible order with the provinces to click
    next. Made, like the listing under the order box, from what the viewer's power knows
    (``results.known_to``), so it names nothing outside their view; empty for anyone who
    orders nothing."""
    out: dict[str, Any] = {"phase": phase.code, "units": []}
    if viewer.power is None or viewer.game.status == "finished":
        return out
    try:
        position = results.known_to(viewer, phase)
        found = possible_orders(position, viewer.power, viewer.game.rules)
        texts = possible_order_texts(position, viewer.power, viewer.game.rules)
    except CalhamerError:
        return out
    m = position.map
    base = position.variant.visibility.known_position(position, viewer.power)
    for (loc, given), (heading, _) in zip(found.items(), texts, strict=True):
        out["units"].append({
            "heading": heading,
            "province": m.provinces[m.province_of(loc)].code,
            "orders": [{"text": position.variant.notation.format_order(base, order),
                        "path": _order_path(m, order)} for order in given],
        })
    return out


@pages.get("/games/{game_id}/options")
def options_page(viewer: PageViewer, session: SessionDep) -> dict[str, Any]:
    return map_options(viewer, games.current_phase(session, viewer.game))
