"""Decisions the plain resolver settles before its search, in bulk, held to the long way.

:meth:`MovementResolver._settle_known` settles a supported move into an empty place nobody
else goes to, a bounce of unsupported moves over land into an empty place, a move into a
place whose unit leaves (or fails to) once that move is settled, and a support not cut once
every move against it is settled. Each phase here is judged alike by the plain resolver and by
:class:`LongWay` (every decision through the search), under every edition, and the plain
resolver is shown to leave nothing, or only what it must, for the search.
"""

from __future__ import annotations

from calhamer.adjudicator import HOLD, MovementResolver, OrderTable, resolve_movement
from calhamer.map import ARMY, FLEET
from calhamer.phases.movement import MovementReading
from calhamer.pieces import Unit
from calhamer.position import Phase, Position
from calhamer.rules import EDITIONS, find_rules
from test_properties import M
from test_resolver_shortcuts import LongWay

_TYPES = {"A": ARMY, "F": FLEET}


Phase_ = tuple[Position, dict[str, list[object]]]


def phase(units: dict[str, str], orders: dict[str, list[str]]) -> Phase_:
    """``units``: "A PAR" -> power; ``orders``: texts by power."""
    placed = {}
    for spec, power in units.items():
        kind, name = spec.split()
        loc = M.loc(name)
        placed[M.province_of(loc)] = Unit(power, _TYPES[kind], loc)
    position = Position(M, Phase(1901, "S", "M"), placed, {})
    return position, {power: list(texts) for power, texts in orders.items()}


def left_for_the_search(position: Position, orders: dict[str, list[object]]) -> list[str]:
    reading = MovementReading(position)
    reading.add_all(orders)
    table = OrderTable(position, reading.legal, find_rules(None))
    left = MovementResolver(table)._settle_known()
    return [M.provinces[p].code for p in left]


CASES = {
    # A supported move into an empty place, alone: it succeeds whatever the support does.
    "supported into empty": phase(
        {"A PAR": "FRANCE", "A PIC": "FRANCE", "A BEL": "ENGLAND"},
        {"FRANCE": ["A PAR - BUR", "A PIC S A PAR - BUR"], "ENGLAND": ["A BEL - PIC"]},
    ),
    # Three unsupported moves over land into one empty place: all bounce.
    "bounce in empty": phase(
        {"A PAR": "FRANCE", "A MUN": "GERMANY", "A BEL": "ENGLAND"},
        {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"], "ENGLAND": ["A BEL - BUR"]},
    ),
    # A chain: each move follows a unit that left (settled one after the other).
    "chain that moves": phase(
        {"A PAR": "FRANCE", "A BUR": "FRANCE", "A MUN": "GERMANY", "A KIE": "GERMANY"},
        {"FRANCE": ["A PAR - BUR", "A BUR - MUN"], "GERMANY": ["A MUN - BER", "A KIE - DEN"]},
    ),
    # A chain that stops: the first unit bounces, so those behind it fail, supported or not.
    "chain that stops": phase(
        {"A PAR": "FRANCE", "A BUR": "FRANCE", "A MUN": "GERMANY", "A BOH": "AUSTRIA",
         "A SIL": "RUSSIA", "A GAS": "ENGLAND", "A MAR": "ITALY"},
        {"FRANCE": ["A PAR - BUR", "A BUR - MUN"], "GERMANY": ["A MUN - TYR"],
         "AUSTRIA": ["A BOH - TYR"], "RUSSIA": ["A SIL - MUN"],
         "ENGLAND": ["A GAS S A MAR - BUR"], "ITALY": ["A MAR - BUR"]},
    ),
    # Supports attacked only from where they support into, or by their own power: given
    # unless dislodged, once those moves are settled.
    "supports not cut": phase(
        {"A MUN": "GERMANY", "A RUH": "GERMANY", "A BUR": "FRANCE", "A KIE": "GERMANY",
         "A BER": "GERMANY"},
        {"GERMANY": ["A MUN S A RUH - BUR", "A RUH - BUR", "A KIE S A MUN", "A BER - KIE"],
         "FRANCE": ["A BUR - MUN"]},
    ),
}


def test_settled_ahead_as_the_search_settles_them() -> None:
    for name, (position, orders) in CASES.items():
        reading = MovementReading(position)
        reading.add_all(orders)
        assert not reading.clashes and all(e.reason is None for e in reading.entries), name
        for edition in EDITIONS:
            rules = find_rules(edition)
            quick = resolve_movement(OrderTable(position, reading.legal, rules))
            slow = resolve_movement(OrderTable(position, reading.legal, rules), LongWay)
            kind = quick.table.kind
            decided = [p for p in quick.table.ordered if kind[p] != HOLD]
            assert [quick.resolution[p] for p in decided] == [
                slow.resolution[p] for p in decided], (name, edition)


def test_the_usual_decisions_are_left_to_no_search() -> None:
    # Only a supported move against a unit that stays is left (strengths to compare).
    left = {"chain that stops": ["MAR"], "supports not cut": ["RUH"]}
    for name, (position, orders) in CASES.items():
        assert left_for_the_search(position, orders) == left.get(name, []), name
