"""calhamer: a Diplomacy judge.

The public surface: boards (:func:`load_map`), positions (:class:`Position`, which carries its
:class:`Variant`), orders and their notation (:func:`parse_order`, :func:`format_order`), rule
editions (:func:`find_rules`), adjudication (:func:`adjudicate`, which returns a
:class:`PhaseOutcome`), every legal order (:func:`possible_orders`), what a power may see
(:func:`power_view`), whole games (:class:`Game`, which a bot drives; :class:`BotView`,
:func:`random_policy`), how games end (:class:`VictoryRule`, :class:`GameEnd`), variants by
name (:func:`find_variant`) and pictures (:func:`render_svg`).

:class:`Game`, :func:`render_svg`, :func:`possible_orders` and the bots' names are loaded on
first use, so that ``import calhamer`` stays quick: a program that never draws loads no
renderer, and one that only adjudicates never loads the listing of possible orders.
"""

from typing import TYPE_CHECKING, Any

from calhamer._build import is_compiled as _is_compiled
from calhamer.errors import (
    AmbiguousOrderError,
    CalhamerError,
    IllegalOrderError,
    InvalidOrderError,
    MapError,
    OrderError,
    PhaseError,
)
from calhamer.map import ARMY, FLEET, Map, UnitType, load_map
from calhamer.notation import format_order, format_unit, parse_order, parse_orders
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from calhamer.phases import adjudicate
from calhamer.position import Dislodged, Phase, Position, Unit
from calhamer.resolver import GuessResolver as _GuessResolver
from calhamer.results import OrderResult, PhaseOutcome
from calhamer.rules import EDITIONS, Rules, find_rules
from calhamer.variant import Variant
from calhamer.variants import find_variant
from calhamer.victory import Ending, GameEnd, VictoryRule
from calhamer.views import power_view

if TYPE_CHECKING:
    from calhamer.bots import BotView, random_policy
    from calhamer.game import Game
    from calhamer.options import possible_orders
    from calhamer.render.svg import render_svg

__version__ = "0.1.0"

# The resolver's inner loop stands for the build (tests/test_compiled.py checks it agrees with
# every compiled module).
compiled: bool = _is_compiled(_GuessResolver)
"""Whether the compiled build runs (``CALHAMER_COMPILE=1 pip install .``), not plain Python."""

__all__ = [
    "ARMY",
    "EDITIONS",
    "FLEET",
    "AmbiguousOrderError",
    "BotView",
    "Build",
    "CalhamerError",
    "Convoy",
    "Disband",
    "Dislodged",
    "Ending",
    "Game",
    "GameEnd",
    "Hold",
    "IllegalOrderError",
    "InvalidOrderError",
    "Map",
    "MapError",
    "Move",
    "Order",
    "OrderError",
    "OrderResult",
    "Phase",
    "PhaseError",
    "PhaseOutcome",
    "Position",
    "Retreat",
    "Rules",
    "Support",
    "Unit",
    "UnitType",
    "Variant",
    "VictoryRule",
    "Waive",
    "adjudicate",
    "compiled",
    "find_rules",
    "find_variant",
    "format_order",
    "format_unit",
    "load_map",
    "parse_order",
    "parse_orders",
    "possible_orders",
    "power_view",
    "random_policy",
    "render_svg",
]

_LAZY = {
    "BotView": "calhamer.bots",
    "Game": "calhamer.game",
    "possible_orders": "calhamer.options",
    "random_policy": "calhamer.bots",
    "render_svg": "calhamer.render.svg",
}


def __getattr__(name: str) -> Any:
    """Load the few public names that pull in more than the core on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'calhamer' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
