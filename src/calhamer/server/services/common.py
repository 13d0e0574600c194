"""What every service module shares: the three refusals, and a phase's position and variant.

The refusals are how a service function says no; ``app.py`` turns each into one answer for
the API and the pages alike: :class:`NotFound` (404; a thing that does not exist and one the
caller may not see answer the same), :class:`Conflict` (409, not possible now) and
:class:`Invalid` (400, the request's content is wrong).
"""

from __future__ import annotations

import functools
import json

from calhamer.formats import position_from_json
from calhamer.position import Position
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


def position_of(row: PhaseRow) -> Position:
    """The position at the start of a phase (parsed once per distinct document)."""
    return _position_from_text(json.dumps(row.position, sort_keys=True))


# -- variants ----------------------------------------------------------------------------------


def variant_of(game: GameRow) -> Variant:
    """The variant the game is played in."""
    return find_variant(game.variant)


def hides(game: GameRow) -> bool:
    """Whether the game's variant shows each player only their own view (Kriegsplomacy)."""
    return bool(variant_of(game).visibility.hidden_information)


def takes_bids(game: GameRow) -> bool:
    """Whether the game's players bid Diplomacy Points (the DP variants)."""
    return variant_of(game).bids is not None
