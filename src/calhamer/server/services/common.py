"""What every service module shares: the three refusals, and a phase's position and variant.

The refusals are how a service function says no; ``app.py`` turns each into one answer for
the API and the pages alike: :class:`NotFound` (404; a thing that does not exist and one the
caller may not see answer the same), :class:`Conflict` (409, not possible now) and
:class:`Invalid` (400, the request's content is wrong).
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict

from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.position import Phase, Position
from calhamer.server.models import GameRow, PhaseRow
from calhamer.variants import Variant, find_variant


class NotFound(Exception):
    """Nonexistent or hidden: both answer the same (404, one body)."""


class Conflict(Exception):
    """The request is understood but not possible now (409), e.g. the phase is over."""


class Invalid(Exception):
    """The request is understood but its content is wrong (400)."""


# -- positions ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _position_from_text(text: str) -> Position:
    position, _orders, _rules = position_from_json(json.loads(text))
    return position


_by_phase: OrderedDict[tuple[int, str, int, str], Position] = OrderedDict()
_by_phase_lock = threading.Lock()
_BY_PHASE_SIZE = 2048


def position_of(row: PhaseRow) -> Position:
    """The position at the start of a phase, parsed once per phase row and per distinct
    document. A phase's position is written once, when the phase row is made, and never
    changed, so it is kept by the row's identity (id, game, index, code): a request that
    finds it here never reads the document from the database (``current_phase(...,
    position=False)`` leaves it unread)."""
    key = (row.id, row.game_id, row.index, row.code)
    with _by_phase_lock:
        found = _by_phase.get(key)
        if found is not None:
            _by_phase.move_to_end(key)
            return found
    position = _position_from_text(json.dumps(row.position, sort_keys=True))
    if row.id is not None:
        with _by_phase_lock:
            _by_phase[key] = position
            while len(_by_phase) > _BY_PHASE_SIZE:
                _by_phase.popitem(last=False)
    return position


# -- variants ----------------------------------------------------------------------------------


def variant_of(game: GameRow) -> Variant:
    """The variant the game is played in."""
    return find_variant(game.variant)


def phase_name(game: GameRow, code: str) -> str:
    """Phase ``code`` of ``game`` named by its board's calendar (``Spring 1901 Movement``,
    ``Year 1425 Movement``); the code itself if it is no phase code."""
    try:
        phase = Phase.parse(code)
    except CalhamerError:
        return code
    try:
        return variant_of(game).board().phase_name(phase)
    except CalhamerError:  # a variant no longer found: the usual names
        return phase.name


def hides(game: GameRow) -> bool:
    """Whether the game's variant shows each player only their own view (Kriegsplomacy)."""
    return bool(variant_of(game).visibility.hidden_information)


def takes_bids(game: GameRow) -> bool:
    """Whether the game's players bid Diplomacy Points (the DP variants)."""
    return variant_of(game).bids is not None
