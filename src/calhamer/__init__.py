"""calhamer: a Diplomacy judge.

The public surface: boards (:func:`load_map`), positions (:class:`Position`), orders and their
notation (:func:`parse_order`, :func:`format_order`), rule editions (:func:`find_rules`), and
adjudication (:func:`adjudicate`), which returns a :class:`PhaseOutcome`.
"""

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
from calhamer.results import OrderResult, PhaseOutcome
from calhamer.rules import EDITIONS, Rules, find_rules

__version__ = "0.1.0"

__all__ = [
    "ARMY",
    "EDITIONS",
    "FLEET",
    "AmbiguousOrderError",
    "Build",
    "CalhamerError",
    "Convoy",
    "Disband",
    "Dislodged",
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
    "Waive",
    "adjudicate",
    "find_rules",
    "format_order",
    "format_unit",
    "load_map",
    "parse_order",
    "parse_orders",
]
