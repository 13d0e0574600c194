"""Property tests: invariants of adjudication over random positions and random order sets.

Positions are random but sound boards of the standard map (armies on land or coast, fleets at
sea or on a coast, naming the coast of a split-coast province). Orders are mostly plausible
(moves to neighbouring places, supports of moves actually ordered, convoys by fleets next to
the army), with illegal, far-fetched, duplicated, foreign and junk orders mixed in.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calhamer.map import ARMY, FLEET, Terrain, UnitType, load_map
from calhamer.notation import format_order
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from calhamer.phases import adjudicate, adjustments_needed
from calhamer.position import Dislodged, Phase, Position, Unit
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.rules import EDITIONS, find_rules
from calhamer.validation import sea_route_exists

M = load_map("standard")
POWERS = M.power_codes
EDITION_NAMES = list(EDITIONS)
SUPPLY = M.supply_centers
VERDICTS = {SUCCEEDS, FAILS, INVALID}

# Where a unit may stand: province -> the (type, location) pairs a unit there may have.
PLACES: dict[int, list[tuple[UnitType, int]]] = {}
for _loc in range(M.location_count):
    for _type in (ARMY, FLEET):
        if M.unit_can_stand(_type, _loc):
            PLACES.setdefault(M.province_of(_loc), []).append((_type, _loc))
UNIT_PROVINCES = sorted(PLACES)
COASTAL = [p.id for p in M.provinces if p.terrain is Terrain.COAST]
NEIGHBOURS = {
    p: sorted(M.army_adjacent[p] | M.province_fleet_adjacent[p]) for p in range(M.province_count)
}

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

junk_text = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="AFaf SHCDRBW-/:>ENGLANDPARMAOSPASTPNCSCEC", max_size=30),
    st.sampled_from(
        ["", "   ", "A", "A PAR", "F SPA - MAO", "A PAR -", "F NTH C A LON -", "BUILD",
         "WAIVE", "ENGLAND:", "France: A PAR H", "A ZZZ H", "A PAR S", "F SPA/XC H"]
    ),
)


def power_key(key: str) -> str:
    return M.find_power(key) or key.upper()


def unit_order_targets(unit: Unit) -> list[int]:
    """Locations a unit could move (or retreat) to without a convoy."""
    if unit.type is ARMY:
        return sorted(M.army_adjacent[M.province_of(unit.loc)])
    return sorted(M.fleet_adjacent[unit.loc])


def any_location() -> st.SearchStrategy[int]:
    return st.integers(0, M.location_count - 1)


# -- positions -----------------------------------------------------------------------------------


@st.composite
def units_on_board(draw, min_size: int = 0, max_size: int = 34) -> dict[int, Unit]:
    powers = draw(st.lists(st.sampled_from(POWERS), unique=True, min_size=1, max_size=7))
    provinces = draw(
        st.lists(st.sampled_from(UNIT_PROVINCES), unique=True, min_size=min_size,
                 max_size=max_size)
    )
    units = {}
    for p in provinces:
        unit_type, loc = draw(st.sampled_from(PLACES[p]))
        units[p] = Unit(draw(st.sampled_from(powers)), unit_type, loc)
    return units


@st.composite
def centre_owners(draw) -> dict[int, str]:
    centers = {}
    for sc in SUPPLY:
        home = M.provinces[sc].home
        choices = [None, *POWERS] + ([home] * 4 if home else [])
        owner = draw(st.sampled_from(choices))
        if owner is not None:
            centers[sc] = owner
    return centers


@st.composite
def movement_positions(draw, season: str | None = None) -> Position:
    season = season or draw(st.sampled_from("SF"))
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(min_size=1))
    return Position(M, Phase(year, season, "M"), units, draw(centre_owners()))


# -- movement orders ---------------------------------------------------------------------------


def _move_dest(draw, unit: Unit) -> Move:
    roll = draw(st.integers(0, 9))
    if roll < 7:
        dest = draw(st.sampled_from(unit_order_targets(unit)))
        via = unit.type is ARMY and draw(st.integers(0, 5)) == 0
        return Move(unit.type, unit.loc, dest, via)
    if roll < 9 and unit.type is ARMY:
        return Move(unit.type, unit.loc, draw(st.sampled_from(COASTAL)), draw(st.booleans()))
    return Move(unit.type, unit.loc, draw(any_location()), draw(st.booleans()))


@st.composite
def movement_orders(draw, position: Position) -> list[tuple[str, object]]:
    """Orders as (power key, order or text) pairs, in the order a power would submit them."""
    units = position.units
    provinces = sorted(units)
    plan: dict[int, Order] = {}
    kinds = {
        p: draw(st.sampled_from(["hold", "move", "move", "move", "support", "support",
                                 "convoy", "none"]))
        for p in provinces
    }
    for p in provinces:
        unit = units[p]
        if kinds[p] == "hold" or (kinds[p] == "convoy" and not M.is_sea(p)):
            plan[p] = Hold(unit.type, unit.loc)
        elif kinds[p] == "move":
            plan[p] = _move_dest(draw, unit)
    # Convoys: mostly of an army next to the fleet, to a coast next to the fleet (rewriting
    # the army's order to match), sometimes of a random army to a random coast.
    for p in provinces:
        if kinds[p] != "convoy" or not M.is_sea(p):
            continue
        unit = units[p]
        armies = [
            a for a in provinces
            if units[a].type is ARMY and a in M.province_fleet_adjacent[p] and M.is_coastal(a)
        ]
        coasts = [q for q in sorted(M.province_fleet_adjacent[p]) if M.is_coastal(q)]
        if armies and coasts and draw(st.integers(0, 4)) > 0:
            army = draw(st.sampled_from(armies))
            existing = plan.get(army)
            if isinstance(existing, Move) and M.is_coastal(M.province_of(existing.dest)):
                dest = M.province_of(existing.dest)
            else:
                dest = draw(st.sampled_from([q for q in coasts if q != army] or coasts))
                if kinds[army] != "none" or draw(st.booleans()):
                    plan[army] = Move(ARMY, units[army].loc, dest, draw(st.booleans()))
                    kinds[army] = "move"
            plan[p] = Convoy(FLEET, unit.loc, army, dest)
        else:
            army = draw(st.one_of(st.sampled_from(provinces), st.sampled_from(COASTAL)))
            plan[p] = Convoy(FLEET, unit.loc, army, draw(st.sampled_from(COASTAL)))
    # Supports: mostly of an order actually given, into a place the supporter reaches.
    for p in provinces:
        if kinds[p] != "support":
            continue
        unit = units[p]
        here = unit.loc
        candidates = []
        for q in provinces:
            if q == p:
                continue
            order = plan.get(q)
            into = M.province_of(order.dest) if isinstance(order, Move) else q
            if into != p and M.can_reach_province(unit.type, here, into):
                candidates.append(q)
        roll = draw(st.integers(0, 9))
        if candidates and roll < 8:
            q = draw(st.sampled_from(candidates))
            target = units[q]
            order = plan.get(q)
            dest = order.dest if isinstance(order, Move) else None
            if draw(st.integers(0, 9)) == 0:  # the wrong kind of support
                dest = None if dest is not None else draw(st.sampled_from(NEIGHBOURS[q]))
            plan[p] = Support(unit.type, here, target.type, target.loc, dest)
        elif roll < 9:
            q = draw(st.sampled_from(provinces))
            dest = draw(st.one_of(st.none(), any_location()))
            plan[p] = Support(unit.type, here, units[q].type, units[q].loc, dest)
        else:
            target = draw(any_location())
            plan[p] = Support(unit.type, here, draw(st.sampled_from([None, ARMY, FLEET])), target,
                              draw(st.one_of(st.none(), any_location())))
    submissions: list[tuple[str, object]] = []
    for p, order in plan.items():
        power = units[p].power
        if draw(st.integers(0, 19)) == 0:  # ordered by someone else
            power = draw(st.sampled_from(POWERS))
        if draw(st.integers(0, 19)) == 0:  # a wrong or missing unit letter
            order = _with_type(order, draw(st.sampled_from([None, ARMY, FLEET])))
        submissions.append((power, draw(rendered(order, power))))
        if draw(st.integers(0, 24)) == 0:  # the same unit ordered twice
            again = order if draw(st.booleans()) else Hold(units[p].type, units[p].loc)
            submissions.append((power, draw(rendered(again, power))))
    submissions.extend(draw(extras(position, "M")))
    return draw(st.permutations(submissions))


def _with_type(order: Order, unit_type: UnitType | None) -> Order:
    from dataclasses import replace

    return replace(order, unit_type=unit_type)


@st.composite
def rendered(draw, order: object, power: str) -> object:
    """The order itself (mostly) or its text, in one of a few spellings."""
    roll = draw(st.integers(0, 9))
    if roll < 7:
        return order
    text = format_order(M, order)
    if roll == 7:
        return text
    if roll == 8:
        return f"  {text.lower()} "
    return f"{M.power(power).name}: {text}"


@st.composite
def extras(draw, position: Position, kind: str) -> list[tuple[str, object]]:
    """Junk text, orders for empty places and orders sent under odd power names."""
    out: list[tuple[str, object]] = []
    for _ in range(draw(st.integers(0, 3))):
        out.append((draw(st.sampled_from(POWERS)), draw(junk_text)))
    for _ in range(draw(st.integers(0, 2))):
        loc = draw(any_location())
        unit_type = draw(st.sampled_from([None, ARMY, FLEET]))
        order = draw(
            st.sampled_from(
                [
                    Hold(unit_type, loc),
                    Move(unit_type, loc, draw(any_location())),
                    Retreat(unit_type, loc, draw(any_location())),
                    Disband(unit_type, loc),
                    Build(unit_type, loc),
                    Waive(),
                ]
            )
        )
        out.append((draw(st.sampled_from(POWERS)), order))
    if draw(st.integers(0, 9)) == 0:
        out.append(("atlantis", draw(st.sampled_from([Hold(ARMY, 0), "A PAR H"]))))
    return out


def as_dict(submissions: list[tuple[str, object]]) -> dict[str, list[object]]:
    orders: dict[str, list[object]] = {}
    for power, item in submissions:
        orders.setdefault(power, []).append(item)
    return orders


# -- retreat positions and orders ------------------------------------------------------------


@st.composite
def retreat_positions(draw) -> Position:
    """A retreat phase; dislodged units are often clustered round one empty province."""
    season = draw(st.sampled_from("SF"))
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(max_size=25))
    hub = draw(st.sampled_from(UNIT_PROVINCES))
    units.pop(hub, None)
    near = [q for q in NEIGHBOURS[hub] if q in PLACES]
    cluster = draw(st.lists(st.sampled_from(near), unique=True, max_size=4)) if near else []
    spread = draw(st.lists(st.sampled_from(UNIT_PROVINCES), unique=True, max_size=3))
    dislodged = []
    for p in dict.fromkeys(cluster + spread):
        if p == hub:
            continue
        unit_type, loc = draw(st.sampled_from(PLACES[p]))
        power = draw(st.sampled_from(POWERS))
        if p not in units:  # the attacker now standing there
            attacker_power = draw(st.sampled_from([q for q in POWERS if q != power]))
            a_type, a_loc = draw(st.sampled_from(PLACES[p]))
            units[p] = Unit(attacker_power, a_type, a_loc)
        elif units[p].power == power:
            power = draw(st.sampled_from([q for q in POWERS if q != units[p].power]))
        came_from = draw(st.sampled_from([None, *NEIGHBOURS[p]]))
        if came_from in units:
            came_from = None
        dislodged.append(Dislodged(Unit(power, unit_type, loc), came_from))
    empty = [p for p in range(M.province_count) if p not in units]
    contested = draw(st.lists(st.sampled_from(empty), unique=True, max_size=3))
    return Position(
        M, Phase(year, season, "R"), units, draw(centre_owners()), tuple(dislodged),
        frozenset(contested),
    )


@st.composite
def retreat_orders(draw, position: Position) -> list[tuple[str, object]]:
    pool = sorted(
        {t for d in position.dislodged for t in unit_order_targets(d.unit)}
    )
    submissions: list[tuple[str, object]] = []
    for d in position.dislodged:
        unit = d.unit
        roll = draw(st.integers(0, 19))
        if roll == 0:
            continue
        power = unit.power if draw(st.integers(0, 14)) else draw(st.sampled_from(POWERS))
        if roll < 13:
            dest = draw(st.sampled_from(unit_order_targets(unit)))
            order: object = Retreat(unit.type, unit.loc, dest)
        elif roll < 16 and pool:
            order = Retreat(unit.type, unit.loc, draw(st.sampled_from(pool)))
        elif roll < 17:
            order = Retreat(unit.type, unit.loc, draw(any_location()))
        elif roll < 19:
            order = Disband(unit.type, unit.loc)
        else:
            order = Move(unit.type, unit.loc, draw(st.sampled_from(unit_order_targets(unit))))
        submissions.append((power, draw(rendered(order, power))))
        if draw(st.integers(0, 14)) == 0:  # a second order for the same unit
            other = Disband(unit.type, unit.loc)
            submissions.append((power, draw(rendered(other, power))))
    if position.units and draw(st.integers(0, 4)) == 0:  # a unit that was not dislodged
        p = draw(st.sampled_from(sorted(position.units)))
        u = position.units[p]
        submissions.append((u.power, Retreat(u.type, u.loc, draw(any_location()))))
    submissions.extend(draw(extras(position, "R")))
    return draw(st.permutations(submissions))


# -- adjustment positions and orders -----------------------------------------------------------


@st.composite
def adjustment_positions(draw) -> Position:
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(max_size=30))
    return Position(M, Phase(year, "W", "A"), units, draw(centre_owners()))


@st.composite
def adjustment_orders(draw, position: Position) -> list[tuple[str, object]]:
    due = position.adjustments()
    submissions: list[tuple[str, object]] = []
    for power in POWERS:
        amount = due.get(power, 0)
        mine = [u for u in position.units.values() if u.power == power]
        homes = [
            loc for p in M.home_centers(power) for loc in [p, *M.coast_locations(p)]
        ]
        for _ in range(draw(st.integers(0, max(0, abs(amount)) + 2))):
            roll = draw(st.integers(0, 9))
            if roll < 4 and homes:
                loc = draw(st.sampled_from(homes))
                order: object = Build(draw(st.sampled_from([ARMY, FLEET, ARMY, None])), loc)
            elif roll < 5:
                order = Build(draw(st.sampled_from([ARMY, FLEET])), draw(st.sampled_from(SUPPLY)))
            elif roll < 6:
                order = Waive()
            elif roll < 9 and mine:
                u = draw(st.sampled_from(mine))
                order = Disband(u.type, u.loc)
            elif position.units:
                u = draw(st.sampled_from(sorted(position.units.values(), key=lambda u: u.loc)))
                order = draw(st.sampled_from([Disband(u.type, u.loc), Hold(u.type, u.loc)]))
            else:
                order = Waive()
            submissions.append((power, draw(rendered(order, power))))
    submissions.extend(draw(extras(position, "A")))
    return draw(st.permutations(submissions))


# -- checks shared by several properties ---------------------------------------------------


def check_results(outcome: PhaseOutcome, orders: dict[str, list[object]]) -> None:
    """One result per submitted order, in submission order, text verbatim; extras unsigned."""
    submitted = {power_key(k): items for k, items in orders.items()}
    assert len(submitted) == len(orders), "test bug: two keys name the same power"
    for power, results in outcome.results.items():
        items = submitted.get(power, [])
        assert len(results) >= len(items), (power, results, items)
        for item, r in zip(items, results, strict=False):
            expected = item if isinstance(item, str) else format_order(M, item)
            assert r.text == expected
            assert r.power == power
            assert r.result in VERDICTS, r
            assert r.reason, r
        for r in results[len(items):]:
            # Generated for units left without orders (holds, disbands, removals).
            assert r.text == "", r
            assert r.result in (SUCCEEDS, FAILS), r
            assert r.reason, r
    for power, items in submitted.items():
        if items:
            assert power in outcome.results


def check_board(position: Position) -> None:
    for province, unit in position.units.items():
        assert M.province_of(unit.loc) == province, (province, unit)
        assert M.unit_can_stand(unit.type, unit.loc), unit
    assert position.status() == []
    assert set(position.centers) <= set(SUPPLY)
    assert set(position.centers.values()) <= set(POWERS)


def check_movement(position: Position, outcome: PhaseOutcome, rules_name: str) -> None:
    rules = find_rules(rules_name)
    after = outcome.after
    check_board(after)
    before = position.units
    dislodged = {M.province_of(d.unit.loc): d for d in outcome.dislodged}
    assert len(dislodged) == len(outcome.dislodged)
    assert after.dislodged == outcome.dislodged
    # Units are conserved: each one stays, moves, or is dislodged.
    assert len(after.units) + len(outcome.dislodged) == len(before)
    for p, unit in before.items():
        if p in dislodged:
            assert dislodged[p].unit == unit
            assert p not in outcome.moved
        elif p in outcome.moved:
            dest = outcome.moved[p]
            assert after.units[M.province_of(dest)] == Unit(unit.power, unit.type, dest)
        else:
            assert after.units.get(p) == unit, (p, unit, after.units.get(p))
    # Every move went somewhere the unit could reach.
    fleets_at_sea = frozenset(q for q, u in before.items() if u.type is FLEET and M.is_sea(q))
    for p, dest in outcome.moved.items():
        unit = before[p]
        target = M.province_of(dest)
        if unit.type is FLEET:
            assert dest in M.fleet_adjacent[unit.loc], (M.loc_name(unit.loc), M.loc_name(dest))
        else:
            assert target in M.army_adjacent[p] or sea_route_exists(M, p, target, fleets_at_sea)
    # Dislodged units are replaced by the unit that beat them, of another power.
    for p, d in dislodged.items():
        winner = [q for q, dest in outcome.moved.items() if M.province_of(dest) == p]
        assert len(winner) == 1, (p, winner)
        attacker = before[winner[0]]
        assert attacker.power != d.unit.power
        assert after.units[p].power == attacker.power
        if d.attacker_from is None:
            assert rules.retreat_to_convoying_attacker_origin and attacker.type is ARMY
        else:
            assert d.attacker_from == winner[0]
    for q in after.contested:
        assert q not in after.units
    # A successful move order ends exactly where it said (coast included); others stay put.
    for results in outcome.results.values():
        for r in results:
            if r.result != SUCCEEDS or not isinstance(r.order, Move):
                continue
            p = M.province_of(r.order.loc)
            assert p in outcome.moved, r
            assert outcome.moved[p] == r.order.dest, (
                r.text, r.canonical, M.loc_name(outcome.moved[p])
            )
    successful_moves = {
        M.province_of(r.order.loc)
        for rs in outcome.results.values() for r in rs
        if r.result == SUCCEEDS and isinstance(r.order, Move)
    }
    assert successful_moves == set(outcome.moved)
    # The phase that follows.
    if dislodged:
        assert after.phase == Phase(position.phase.year, position.phase.season, "R")
    assert after.centers == position.centers


def check_retreats(position: Position, outcome: PhaseOutcome) -> None:
    after = outcome.after
    check_board(after)
    assert after.dislodged == ()
    assert not after.contested
    for p, unit in position.units.items():
        assert after.units[p] == unit
    by_province = {M.province_of(d.unit.loc): d for d in position.dislodged}
    retreats = [
        r for rs in outcome.results.values() for r in rs
        if isinstance(r.order, Retreat) and r.result != INVALID
    ]
    targets = Counter(M.province_of(r.order.dest) for r in retreats)
    moved_in = {}
    for r in retreats:
        d = by_province[M.province_of(r.order.loc)]
        target = M.province_of(r.order.dest)
        if targets[target] > 1:
            assert r.result == FAILS, r
            assert target not in after.units
            continue
        assert r.result == SUCCEEDS, r
        assert r.power == d.unit.power
        assert target not in position.units
        assert target not in position.contested
        assert target != d.attacker_from
        assert r.order.dest in unit_order_targets(d.unit) or (
            d.unit.type is ARMY and target in M.army_adjacent[M.province_of(d.unit.loc)]
        )
        assert after.units[target] == Unit(d.unit.power, d.unit.type, r.order.dest)
        moved_in[target] = d
    assert len(after.units) == len(position.units) + len(moved_in)
    assert len(moved_in) + len(outcome.removed) == len(position.dislodged)
    assert set(outcome.removed) | {M.province_of(d.unit.loc) for d in moved_in.values()} == set(
        by_province
    )
    assert after.centers == position.centers


# -- 1. adjudicate never raises; one result per order --------------------------------------------


@pytest.mark.parametrize("edition", EDITION_NAMES)
@SETTINGS
@given(data=st.data())
def test_movement_results_cover_every_order(edition: str, data: st.DataObject) -> None:
    position = data.draw(movement_positions())
    orders = as_dict(data.draw(movement_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_results(outcome, orders)
    # Every unit gets a result: its own order's, or a generated hold.
    for p, unit in position.units.items():
        assert any(
            r.order is not None and M.province_of(r.order.loc) == p and r.result != INVALID
            or r.text == "" and r.canonical == format_order(M, Hold(unit.type, unit.loc))
            for r in outcome.results.get(unit.power, [])
        ) or any(
            M.province_of(r.order.loc) == p
            for rs in outcome.results.values() for r in rs
            if isinstance(r.order, Order) and r.result == INVALID
        )


@pytest.mark.parametrize("edition", ["datc", "1971"])
@SETTINGS
@given(data=st.data())
def test_retreat_results_cover_every_order(edition: str, data: st.DataObject) -> None:
    position = data.draw(retreat_positions())
    orders = as_dict(data.draw(retreat_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_results(outcome, orders)


@pytest.mark.parametrize("edition", ["datc", "2000"])
@SETTINGS
@given(data=st.data())
def test_adjustment_results_cover_every_order(edition: str, data: st.DataObject) -> None:
    position = data.draw(adjustment_positions())
    orders = as_dict(data.draw(adjustment_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_results(outcome, orders)


# -- 2. the board after a movement phase -----------------------------------------------------


@pytest.mark.parametrize("edition", EDITION_NAMES)
@SETTINGS
@given(data=st.data())
def test_movement_keeps_the_board_sound(edition: str, data: st.DataObject) -> None:
    position = data.draw(movement_positions())
    orders = as_dict(data.draw(movement_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_movement(position, outcome, edition)


# -- 3. supply centres --------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITION_NAMES)
@SETTINGS
@given(data=st.data())
def test_supply_centres_change_only_after_fall(edition: str, data: st.DataObject) -> None:
    position = data.draw(movement_positions())
    orders = as_dict(data.draw(movement_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_movement(position, outcome, edition)
    board = outcome.after
    current = outcome.next
    if current.phase.is_retreat:
        assert current.dislodged
        retreat_in = as_dict(data.draw(retreat_orders(current)))
        retreat = adjudicate(current, retreat_in, edition)
        check_results(retreat, retreat_in)
        check_retreats(current, retreat)
        board, current = retreat.after, retreat.next
    year = position.phase.year
    assert len(current.centers) <= len(SUPPLY) == 34
    assert set(current.centers) <= set(SUPPLY)
    if position.phase.season == "S":
        assert current.phase == Phase(year, "F", "M")
        assert current.centers == position.centers
        return
    assert current.phase in (Phase(year, "W", "A"), Phase(year + 1, "S", "M"))
    assert set(current.centers) >= set(position.centers)  # a centre is never left unowned
    for sc in SUPPLY:
        unit = board.units.get(sc)
        expected = unit.power if unit is not None else position.centers.get(sc)
        assert current.centers.get(sc) == expected, M.provinces[sc].code
    assert current.units == board.units
    rules = find_rules(edition)
    assert (current.phase.season == "W") == adjustments_needed(current, rules)
    if current.phase.season == "W":
        winter_in = as_dict(data.draw(adjustment_orders(current)))
        winter = adjudicate(current, winter_in, edition)
        check_results(winter, winter_in)
        assert winter.next.centers == current.centers
        assert winter.next.phase == Phase(year + 1, "S", "M")


# -- 4. determinism ----------------------------------------------------------------------------


def _summary(outcome: PhaseOutcome, orders: dict[str, list[object]]) -> dict:
    per_order = {}
    for key, items in orders.items():
        results = outcome.results[power_key(key)]
        for index, r in enumerate(results[: len(items)]):
            per_order[(key, id(items[index]), index)] = (r.canonical, r.result, r.reason)
    return per_order


@pytest.mark.parametrize("edition", EDITION_NAMES)
@SETTINGS
@given(data=st.data())
def test_adjudication_is_deterministic_and_order_independent(
    edition: str, data: st.DataObject
) -> None:
    position = data.draw(movement_positions())
    submissions = data.draw(movement_orders(position))
    orders = as_dict(submissions)
    first = adjudicate(position, orders, edition)
    second = adjudicate(position, orders, edition)
    assert [r.to_json() for rs in first.results.values() for r in rs] == [
        r.to_json() for rs in second.results.values() for r in rs
    ]
    assert first.after == second.after
    assert first.next == second.next

    # Shuffle the powers and each power's list; every order must fare the same.
    keys = data.draw(st.permutations(list(orders)))
    shuffled: dict[str, list[object]] = {}
    where: dict[tuple[str, int], int] = {}
    for key in keys:
        perm = data.draw(st.permutations(range(len(orders[key]))))
        shuffled[key] = [orders[key][i] for i in perm]
        for new_index, old_index in enumerate(perm):
            where[(key, old_index)] = new_index
    third = adjudicate(position, shuffled, edition)
    for key, items in orders.items():
        power = power_key(key)
        for old_index in range(len(items)):
            a = first.results[power][old_index]
            b = third.results[power][where[(key, old_index)]]
            assert (a.text, a.canonical, a.result, a.reason) == (
                b.text, b.canonical, b.result, b.reason
            )
    assert dict(first.after.units) == dict(third.after.units)
    assert set(first.after.dislodged) == set(third.after.dislodged)
    assert first.after.contested == third.after.contested
    assert first.moved == third.moved
    assert Counter(
        (r.canonical, r.result, r.reason) for rs in first.results.values() for r in rs
    ) == Counter((r.canonical, r.result, r.reason) for rs in third.results.values() for r in rs)


# -- 5. retreats -------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["datc", "2000"])
@SETTINGS
@given(data=st.data())
def test_retreats_keep_the_board_sound(edition: str, data: st.DataObject) -> None:
    position = data.draw(retreat_positions())
    orders = as_dict(data.draw(retreat_orders(position)))
    outcome = adjudicate(position, orders, edition)
    check_retreats(position, outcome)
    year, season = position.phase.year, position.phase.season
    if season == "S":
        assert outcome.next.phase == Phase(year, "F", "M")
        assert outcome.next.centers == position.centers
    else:
        assert outcome.next.phase in (Phase(year, "W", "A"), Phase(year + 1, "S", "M"))


@settings(deadline=None, max_examples=30)
@given(
    hub=st.sampled_from([p for p in UNIT_PROVINCES if len(NEIGHBOURS[p]) >= 2]),
    data=st.data(),
)
def test_two_retreats_to_one_province_both_fail(hub: int, data: st.DataObject) -> None:
    # Two dislodged armies or fleets next to an empty province both retreat there.
    candidates = []
    for q in NEIGHBOURS[hub]:
        for unit_type, loc in PLACES.get(q, []):
            unit = Unit("ENGLAND", unit_type, loc)
            dests = [d for d in unit_order_targets(unit) if M.province_of(d) == hub]
            if dests:
                candidates.append((q, unit_type, loc, dests))
    pairs = [(a, b) for a in candidates for b in candidates if a[0] < b[0]]
    if not pairs:
        return
    (p1, t1, l1, d1), (p2, t2, l2, d2) = data.draw(st.sampled_from(pairs))
    powers = data.draw(st.lists(st.sampled_from(POWERS), unique=True, min_size=4, max_size=4))
    units = {
        p1: Unit(powers[2], ARMY if ARMY in [t for t, _ in PLACES[p1]] else FLEET,
                 next(loc for t, loc in PLACES[p1])),
        p2: Unit(powers[3], next(t for t, _ in PLACES[p2]), next(loc for _, loc in PLACES[p2])),
    }
    dislodged = (
        Dislodged(Unit(powers[0], t1, l1), None),
        Dislodged(Unit(powers[1], t2, l2), None),
    )
    position = Position(M, Phase(1901, "F", "R"), units, {}, dislodged)
    orders = {
        powers[0]: [Retreat(t1, l1, data.draw(st.sampled_from(d1)))],
        powers[1]: [Retreat(t2, l2, data.draw(st.sampled_from(d2)))],
    }
    outcome = adjudicate(position, orders)
    check_results(outcome, orders)
    assert [r.result for r in outcome.results[powers[0]]] == [FAILS]
    assert [r.result for r in outcome.results[powers[1]]] == [FAILS]
    assert hub not in outcome.after.units
    assert sorted(outcome.removed) == sorted([p1, p2])


# -- 6. adjustments ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITION_NAMES)
@SETTINGS
@given(data=st.data())
def test_adjustments_respect_centre_counts(edition: str, data: st.DataObject) -> None:
    position = data.draw(adjustment_positions())
    orders = as_dict(data.draw(adjustment_orders(position)))
    outcome = adjudicate(position, orders, edition)
    after = outcome.after
    check_board(after)
    assert after.centers == position.centers
    assert outcome.next.phase == Phase(position.phase.year + 1, "S", "M")
    due = position.adjustments()
    before_counts, after_counts = position.unit_counts(), after.unit_counts()
    centres = position.center_counts()
    for power in POWERS:
        amount = due.get(power, 0)
        if amount < 0:
            # Exactly the surplus goes, by order or by the civil-disorder rule.
            assert after_counts[power] == centres[power], power
        else:
            assert before_counts[power] <= after_counts[power] <= centres[power], power
    removed = set(outcome.removed)
    for p, unit in position.units.items():
        if p in removed:
            assert p not in after.units
            assert due[unit.power] < 0
        else:
            assert after.units.get(p) == unit
    built = {p: u for p, u in after.units.items() if p not in position.units}
    for p, unit in built.items():
        province = M.provinces[p]
        assert province.home == unit.power, (province.code, unit)
        assert position.centers.get(p) == unit.power
        assert due[unit.power] > 0
    builds_ok = Counter(
        r.power for rs in outcome.results.values() for r in rs
        if isinstance(r.order, Build) and r.result == SUCCEEDS
    )
    assert builds_ok == Counter(u.power for u in built.values())
    waived_or_built = Counter(
        r.power for rs in outcome.results.values() for r in rs
        if isinstance(r.order, Build | Waive) and r.result == SUCCEEDS
    )
    for power, count in waived_or_built.items():
        assert count <= due[power]
