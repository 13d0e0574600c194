"""The plain movement resolver's shortcuts, held to the long way.

:class:`MovementResolver` settles the common decisions before its search (unsupported moves
against units that stay, head-to-head battles without support, supports cut by a move over
land, orders nobody moves against) and takes the standard strengths written out. A subclass
gets neither: :class:`LongWay` has every decision taken by the guess search, through the
strength methods. Both must judge every generated phase alike, under every edition.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, note
from hypothesis import strategies as st

from calhamer.adjudicator import HOLD, MovementResolver, OrderTable, resolve_movement
from calhamer.map import ARMY
from calhamer.orders import Convoy, Hold, Move, Order, Support
from calhamer.phases.movement import MovementReading, adjudicate_movement
from calhamer.position import Phase, Position, Unit
from calhamer.rules import EDITIONS, find_rules
from test_properties import (
    PLACES,
    POWERS,
    REGIONS,
    SETTINGS,
    UNIT_PROVINCES,
    Case,
    M,
    as_dict,
    movement_orders,
    movement_positions,
    pick,
    roll,
    unit_order_targets,
)


class LongWay(MovementResolver):
    """The standard rules, with no shortcut: a subclass of the plain resolver is not searched
    ahead of time, and a strength method of its own keeps the strengths from being written
    out (it compares as the standard one does)."""

    def move_beats(self, attack: Any, opposing: Any) -> bool:
        return bool(attack > opposing)


def test_the_long_way_takes_no_shortcut() -> None:
    from calhamer.position import Position

    position = Position.initial("standard")
    resolver = LongWay(OrderTable(position, {}, find_rules(None)))
    assert not resolver._standard_strengths


@st.composite
def crowded_phases(draw: st.DrawFn) -> tuple[Case, dict[str, list[object]]]:
    """Units of two or three powers packed into one region, most of them attacking a unit
    next door, the rest holding, supporting a neighbour's order, or convoying: head-to-head
    battles, supports cut and given, and attacks on supported units, far more often than the
    general orders of test_properties give them."""
    powers = draw(st.lists(st.sampled_from(POWERS), unique=True, min_size=2, max_size=3))
    units: dict[int, Unit] = {}
    for p in REGIONS[pick(draw, UNIT_PROVINCES)][:12]:
        if roll(draw, 5):
            unit_type, loc = pick(draw, PLACES[p])
            units[p] = Unit(pick(draw, powers), unit_type, loc)
    plan: dict[int, Order] = {}
    supporters = []
    for p, unit in units.items():
        targets = unit_order_targets(unit)
        occupied = [d for d in targets if M.province_of(d) in units]
        chance = roll(draw, 10)
        if chance < 5 and occupied:
            plan[p] = Move(unit.type, unit.loc, pick(draw, occupied))
        elif chance < 6:
            plan[p] = Move(unit.type, unit.loc, pick(draw, targets))
        elif chance < 7:
            plan[p] = Hold(unit.type, unit.loc)
        else:
            supporters.append(p)
    for p in supporters:
        unit = units[p]
        if M.is_sea(p) and roll(draw, 2):
            armies = [a for a in units if units[a].type is ARMY and M.is_coastal(a)
                      and a in M.province_fleet_adjacent[p]]
            coasts = [q for q in sorted(M.province_fleet_adjacent[p]) if M.is_coastal(q)]
            if armies and coasts:
                army, dest = pick(draw, armies), pick(draw, coasts)
                if dest != army:
                    plan[army] = Move(ARMY, units[army].loc, dest, bool(roll(draw, 2)))
                    plan[p] = Convoy(unit.type, unit.loc, army, dest)
                    continue
        helped = []
        for q, order in plan.items():
            into = M.province_of(order.dest) if isinstance(order, Move) else q
            if q != p and into != p and M.can_reach_province(unit.type, unit.loc, into):
                helped.append(q)
        if helped:
            q = pick(draw, helped)
            order = plan[q]
            dest = order.dest if isinstance(order, Move) else None
            plan[p] = Support(unit.type, unit.loc, units[q].type, units[q].loc, dest)
    orders: dict[str, list[object]] = {}
    for p, order in plan.items():
        orders.setdefault(units[p].power, []).append(order)
    return Case(Position(M, Phase(1901, "F", "M"), units, {})), orders


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_decisions_settled_before_the_search_are_the_searchs_own(
    case: Case, data: st.DataObject
) -> None:
    orders = as_dict(data.draw(movement_orders(case.position), label="orders"))
    compare_resolvers(case.position, orders)


@SETTINGS
@given(phase=crowded_phases())
def test_crowded_phases_are_settled_as_the_search_settles_them(
    phase: tuple[Case, dict[str, list[object]]]
) -> None:
    case, orders = phase
    compare_resolvers(case.position, orders)


def compare_resolvers(position: Position, orders: dict[str, list[object]]) -> None:
    reading = MovementReading(position)
    reading.add_all(orders)
    if reading.clashes:
        reading.settle_clashes()
    for edition in EDITIONS:
        note(f"edition {edition}")
        rules = find_rules(edition)
        quick = resolve_movement(OrderTable(position, reading.legal, rules))
        slow = resolve_movement(OrderTable(position, reading.legal, rules), LongWay)
        kind = quick.table.kind
        assert kind == slow.table.kind
        decided = [p for p in quick.table.ordered if kind[p] != HOLD]
        assert all(quick.resolved[p] for p in decided)
        assert [quick.resolution[p] for p in decided] == [slow.resolution[p] for p in decided]
        assert quick.opponent == slow.opponent
        assert quick.convoyed == slow.convoyed
        movers = quick.table.movers
        assert [quick.path(p) for p in movers] == [slow.path(p) for p in movers]


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_a_phase_judged_with_shortcuts_reads_as_the_long_way(
    case: Case, data: st.DataObject
) -> None:
    # The whole outcome, results and reasons included (the explainer asks the resolver again).
    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    for edition in ("datc", "1971", "alexander"):
        note(f"edition {edition}")
        rules = find_rules(edition)
        quick = adjudicate_movement(position, orders, rules)
        slow = adjudicate_movement(position, orders, rules, resolver_class=LongWay)
        assert quick.after == slow.after
        assert quick.next == slow.next
        assert {p: [r.to_json() for r in rs] for p, rs in quick.results.items()} == {
            p: [r.to_json() for r in rs] for p, rs in slow.results.items()
        }


@SETTINGS
@given(phase=crowded_phases())
def test_a_path_kept_once_its_fleets_are_settled_is_the_path_found_anew(
    phase: tuple[Case, dict[str, list[object]]]
) -> None:
    # The resolver keeps an army's convoy path once every fleet convoying it is settled; the
    # path kept must be the one the fleets' final decisions give, asked anew.
    case, orders = phase
    reading = MovementReading(case.position)
    reading.add_all(orders)
    if reading.clashes:
        reading.settle_clashes()
    for edition in EDITIONS:
        note(f"edition {edition}")
        resolver = resolve_movement(OrderTable(case.position, reading.legal, find_rules(edition)))
        table, resolution = resolver.table, resolver.resolution
        for p in table.movers:
            if not resolver.convoyed[p] or p in resolver.fixed_path:
                continue
            fleets = table.convoy_fleets[p]
            if resolver.rules.convoy_needs_all_routes_cut:
                anew = table.route_fleets(p, [f for f in fleets if resolution[f]])
            else:
                on_routes = table.fleets_on_routes(p)
                anew = bool(on_routes) and all(resolution[f] for f in on_routes)
            assert resolver.path(p) == anew
            assert resolver._settled_paths[p] == anew  # kept: every fleet is settled now
