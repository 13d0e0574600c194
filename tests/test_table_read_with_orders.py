"""The reading's order table, held to the table built from the legal orders.

:meth:`MovementReading.order_table` hands over the phase's :class:`OrderTable`. It must be the
very table that ``OrderTable(position, legal, rules)`` builds from the legal orders, whatever
order the orders came in, under every edition, and after clashes, orders replacing orders
given, and powers the map does not number.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, note
from hypothesis import strategies as st

from calhamer.adjudicator import OrderTable
from calhamer.map import ARMY
from calhamer.orders import Hold, Move
from calhamer.phases.movement import MovementReading
from calhamer.position import Phase, Position, Unit
from calhamer.rules import EDITIONS, find_rules
from test_properties import SETTINGS, Case, M, as_dict, movement_orders, movement_positions
from test_resolver_shortcuts import crowded_phases

FIELDS = (
    "kind", "owner", "unit_type", "dest", "src", "exact", "convoyed", "via_convoy",
    "movers_to", "move_supports", "hold_supports", "convoy_fleets", "by_land", "movers",
    "ordered", "swaps",
)


def contents(table: OrderTable) -> dict[str, Any]:
    found = {name: getattr(table, name) for name in FIELDS}
    found["void"] = list(table.void.items())  # in the order the orders were voided
    return found


def read(position: Position, orders: dict[str, list[Any]], rules: Any) -> MovementReading:
    reading = MovementReading(position, rules)
    reading.add_all(orders)
    if reading.clashes:
        reading.settle_clashes()
    return reading


def assert_same_tables(position: Position, orders: dict[str, list[Any]]) -> None:
    for edition in EDITIONS:
        note(f"edition {edition}")
        rules = find_rules(edition)
        reading = read(position, orders, rules)
        table = reading.order_table(rules)
        long_way = OrderTable(position, reading.legal, rules)
        assert contents(table) == contents(long_way)
        # The same table whatever order the orders came in.
        shuffled: dict[str, list[Any]] = {}
        for power in reversed(list(orders)):
            shuffled[power] = list(reversed(orders[power]))
        again = read(position, shuffled, rules).order_table(rules)
        assert contents(again) == contents(long_way)


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_the_reading_table_is_the_table_of_the_legal_orders(
    case: Case, data: st.DataObject
) -> None:
    orders = as_dict(data.draw(movement_orders(case.position), label="orders"))
    assert_same_tables(case.position, orders)


@SETTINGS
@given(phase=crowded_phases())
def test_crowded_phases_fill_the_same_table(phase: tuple[Case, dict[str, list[object]]]) -> None:
    case, orders = phase
    assert_same_tables(case.position, orders)


def test_orders_in_any_order_fill_the_same_table() -> None:
    # Three moves into one province, two swaps and supports of them, shuffled many ways.
    units = {
        M.province_of(M.loc("BUR")): Unit("FRANCE", ARMY, M.loc("BUR")),
        M.province_of(M.loc("MUN")): Unit("GERMANY", ARMY, M.loc("MUN")),
        M.province_of(M.loc("MAR")): Unit("FRANCE", ARMY, M.loc("MAR")),
        M.province_of(M.loc("PAR")): Unit("FRANCE", ARMY, M.loc("PAR")),
        M.province_of(M.loc("RUH")): Unit("GERMANY", ARMY, M.loc("RUH")),
        M.province_of(M.loc("BEL")): Unit("ENGLAND", ARMY, M.loc("BEL")),
        M.province_of(M.loc("PIC")): Unit("ENGLAND", ARMY, M.loc("PIC")),
    }
    position = Position(M, Phase(1901, "S", "M"), units, {})
    texts = {
        "FRANCE": ["A BUR - MUN", "A MAR S A BUR", "A PAR - PIC"],
        "GERMANY": ["A MUN - BUR", "A RUH - BUR"],
        "ENGLAND": ["A BEL - BUR", "A PIC - PAR"],
    }
    rules = find_rules(None)
    expected = contents(OrderTable(position, read(position, texts, rules).legal, rules))
    assert expected["swaps"] and len(expected["movers_to"][M.province_of(M.loc("BUR"))]) == 3
    rng = random.Random(7)
    for _ in range(20):
        powers = list(texts)
        rng.shuffle(powers)
        shuffled = {p: rng.sample(texts[p], len(texts[p])) for p in powers}
        reading = read(position, shuffled, rules)
        assert contents(reading.order_table(rules)) == expected


def test_clashes_replacements_and_unknown_powers_give_the_table_of_the_legal_orders() -> None:
    rules = find_rules(None)
    position = Position.initial("standard")
    army = ARMY
    paris, burgundy = M.loc("PAR"), M.loc("BUR")
    # A unit given two different orders holds (DATC 4.D.3).
    clash = read(position, {"FRANCE": [Move(army, paris, burgundy), Hold(army, paris)]}, rules)
    assert M.province_of(M.loc("PAR")) not in clash.legal
    assert contents(clash.order_table(rules)) == contents(
        OrderTable(position, clash.legal, rules))
    # Orders replacing those given (a variant's units no player commands).
    replaced = read(position, {"FRANCE": [Move(army, paris, burgundy)]}, rules)
    replaced.add("FRANCE", [Hold(army, paris)], replace=True)
    assert contents(replaced.order_table(rules)) == contents(
        OrderTable(position, replaced.legal, rules))
    # Orders for units given none are taken as any other (a DP variant's neutrals).
    added = read(position, {"FRANCE": [Move(army, paris, burgundy)]}, rules)
    added.add("FRANCE", [Hold(army, M.loc("MAR"))], replace=True)
    assert contents(added.order_table(rules)) == contents(
        OrderTable(position, added.legal, rules))
    # A unit of a power the map does not name: the table numbers the powers its own way.
    units = dict(position.units)
    units[M.province_of(M.loc("BUR"))] = Unit("XXX", army, burgundy)
    odd = Position(M, position.phase, units, {})
    reading = read(odd, {"FRANCE": [Move(army, paris, M.loc("PIC"))]}, rules)
    assert contents(reading.order_table(rules)) == contents(
        OrderTable(odd, reading.legal, rules))
    # Rules other than those the reading was given: built from the legal orders.
    other = find_rules("1971")
    reading = read(position, {"FRANCE": [Move(army, paris, burgundy)]}, rules)
    table = reading.order_table(other)
    assert table.rules is other
    assert contents(table) == contents(OrderTable(position, reading.legal, other))
