"""Property tests: invariants of adjudication over random positions and random order sets.

Positions are random but sound boards of the standard map (armies on land or coast, fleets at
sea or on a coast, naming the coast of a split-coast province). Orders are mostly plausible
(moves to neighbouring places, supports of moves actually ordered, convoys by fleets next to
the army), with illegal, far-fetched, duplicated, foreign and junk orders mixed in.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, note, settings
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


_INDEX: dict[int, st.SearchStrategy[int]] = {}


def pick(draw, seq):
    """One element of a non-empty sequence (cheaper than building a sampled_from each time)."""
    n = len(seq)
    strategy = _INDEX.get(n)
    if strategy is None:
        strategy = _INDEX[n] = st.integers(0, n - 1)
    return seq[draw(strategy)]


def roll(draw, n: int) -> int:
    return pick(draw, range(n))


class Case:
    """A drawn position, shown compactly when Hypothesis reports a failing example."""

    def __init__(self, position: Position) -> None:
        self.position = position

    def __repr__(self) -> str:
        pos = self.position
        units = ", ".join(
            f"{u.power[:3]} {u.type.letter} {M.loc_name(u.loc)}" for u in pos.units.values()
        )
        centres = ", ".join(f"{M.provinces[p].code}:{o[:3]}" for p, o in pos.centers.items())
        text = f"{pos.phase.code} units [{units}] centres [{centres}]"
        if pos.dislodged:
            gone = ", ".join(
                f"{d.unit.power[:3]} {d.unit.type.letter} {M.loc_name(d.unit.loc)}"
                f" (from {'-' if d.attacker_from is None else M.provinces[d.attacker_from].code})"
                for d in pos.dislodged
            )
            contested = " ".join(M.provinces[p].code for p in sorted(pos.contested))
            text += f" dislodged [{gone}] contested [{contested}]"
        return text

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))


def power_key(key: str) -> str:
    return M.find_power(key) or key.upper()


def unit_order_targets(unit: Unit) -> list[int]:
    """Locations a unit could move (or retreat) to without a convoy."""
    if unit.type is ARMY:
        return sorted(M.army_adjacent[M.province_of(unit.loc)])
    return sorted(M.fleet_adjacent[unit.loc])


LOCATION = st.integers(0, M.location_count - 1)


# -- positions -----------------------------------------------------------------------------------


def _region(seed: int) -> list[int]:
    """Provinces that can hold a unit, nearest ``seed`` first."""
    order, seen = [seed], {seed}
    for p in order:
        for q in NEIGHBOURS[p]:
            if q not in seen:
                seen.add(q)
                order.append(q)
    return [p for p in order if p in PLACES]


REGIONS = {p: _region(p) for p in UNIT_PROVINCES}


@st.composite
def units_on_board(draw, min_size: int = 0, max_size: int = 34) -> dict[int, Unit]:
    """Units packed round a random province (so they meet), a few more anywhere."""
    powers = draw(st.lists(st.sampled_from(POWERS), unique=True, min_size=1, max_size=7))
    region = REGIONS[pick(draw, UNIT_PROVINCES)]
    size = draw(st.integers(min_size, max_size))
    packed = region[: size + size // 2]
    # Leave about a third of the region empty, so that units have somewhere to go.
    provinces = [p for p in packed if roll(draw, 3)]
    provinces += draw(st.lists(st.sampled_from(UNIT_PROVINCES), max_size=3))
    units = {}
    for p in dict.fromkeys(provinces):
        if len(units) >= max_size:
            break
        unit_type, loc = pick(draw, PLACES[p])
        units[p] = Unit(pick(draw, powers), unit_type, loc)
    return units


_OWNER_CHOICES = {
    sc: (None, *POWERS, *([M.provinces[sc].home] * 4 if M.provinces[sc].home else []))
    for sc in SUPPLY
}


def centre_owners(draw) -> dict[int, str]:
    """Random owners, each home centre most often owned by its home power."""
    owners = {sc: pick(draw, _OWNER_CHOICES[sc]) for sc in SUPPLY}
    return {sc: owner for sc, owner in owners.items() if owner is not None}


@st.composite
def movement_positions(draw, season: str | None = None) -> Case:
    season = season or pick(draw, "SF")
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(min_size=1))
    return Case(Position(M, Phase(year, season, "M"), units, centre_owners(draw)))


# -- movement orders ---------------------------------------------------------------------------


def _move(draw, unit: Unit, units: dict[int, Unit]) -> Move:
    chance = roll(draw, 10)
    targets = unit_order_targets(unit)
    if chance < 4:  # an attack on another power's unit, if there is one next door
        enemies = [
            d for d in targets
            if (u := units.get(M.province_of(d))) is not None and u.power != unit.power
        ]
        targets = enemies or targets
    if chance < 7:
        dest = pick(draw, targets)
        return Move(unit.type, unit.loc, dest, unit.type is ARMY and roll(draw, 6) == 0)
    if chance < 9 and unit.type is ARMY:
        return Move(unit.type, unit.loc, pick(draw, COASTAL), pick(draw, (False, True)))
    return Move(unit.type, unit.loc, draw(LOCATION), pick(draw, (False, True)))


_KINDS = ("hold", "move", "move", "move", "support", "support", "none")
_SEA_KINDS = ("hold", "move", "move", "support", "convoy", "convoy", "convoy", "none")
_TYPES = (None, ARMY, FLEET)


@st.composite
def movement_orders(draw, position: Position) -> list[tuple[str, object]]:
    """Orders as (power key, order or text) pairs, in the order a power would submit them."""
    units = position.units
    provinces = sorted(units)
    plan: dict[int, Order] = {}
    kinds = {p: pick(draw, _SEA_KINDS if M.is_sea(p) else _KINDS) for p in provinces}
    for p in provinces:
        unit = units[p]
        if kinds[p] == "hold" or (kinds[p] == "convoy" and not M.is_sea(p)):
            plan[p] = Hold(unit.type, unit.loc)
        elif kinds[p] == "move":
            plan[p] = _move(draw, unit, units)
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
        if armies and coasts and roll(draw, 5) > 0:
            army = pick(draw, armies)
            existing = plan.get(army)
            if isinstance(existing, Move) and M.is_coastal(M.province_of(existing.dest)):
                dest = M.province_of(existing.dest)
            else:
                dest = pick(draw, [q for q in coasts if q != army] or coasts)
                if kinds[army] != "none" or roll(draw, 2):
                    plan[army] = Move(ARMY, units[army].loc, dest, pick(draw, (False, True)))
                    kinds[army] = "move"
            plan[p] = Convoy(FLEET, unit.loc, army, dest)
        else:
            army = pick(draw, provinces) if roll(draw, 2) else pick(draw, COASTAL)
            plan[p] = Convoy(FLEET, unit.loc, army, pick(draw, COASTAL))
    # Supports: mostly of an order actually given, into a place the supporter reaches.
    for p in provinces:
        if kinds[p] != "support":
            continue
        unit = units[p]
        here = unit.loc
        candidates = []
        for q in provinces:
            order = plan.get(q)
            into = M.province_of(order.dest) if isinstance(order, Move) else q
            if q != p and into != p and M.can_reach_province(unit.type, here, into):
                candidates.append(q)
        attacks = [
            q for q in candidates
            if isinstance(plan.get(q), Move) and M.province_of(plan[q].dest) in units
        ]
        chance = roll(draw, 10)
        if attacks and chance < 5:
            candidates = attacks
        if candidates and chance < 8:
            q = pick(draw, candidates)
            target = units[q]
            order = plan.get(q)
            dest = order.dest if isinstance(order, Move) else None
            if roll(draw, 10) == 0:  # the wrong kind of support
                dest = None if dest is not None else pick(draw, NEIGHBOURS[q])
            plan[p] = Support(unit.type, here, target.type, target.loc, dest)
        elif chance < 9:
            q = pick(draw, provinces)
            dest = draw(LOCATION) if roll(draw, 2) else None
            plan[p] = Support(unit.type, here, units[q].type, units[q].loc, dest)
        else:
            dest = draw(LOCATION) if roll(draw, 2) else None
            plan[p] = Support(unit.type, here, pick(draw, _TYPES), draw(LOCATION), dest)
    submissions: list[tuple[str, object]] = []
    for p, order in plan.items():
        power = units[p].power
        if roll(draw, 20) == 0:  # ordered by someone else
            power = pick(draw, POWERS)
        if roll(draw, 20) == 0:  # a wrong or missing unit letter
            order = replace(order, unit_type=pick(draw, _TYPES))
        submissions.append((power, rendered(draw, order, power)))
        if roll(draw, 25) == 0:  # the same unit ordered twice
            again = order if roll(draw, 2) else Hold(units[p].type, units[p].loc)
            submissions.append((power, rendered(draw, again, power)))
    submissions.extend(extras(draw))
    return draw(st.permutations(submissions))


def rendered(draw, order: Order | Waive, power: str) -> object:
    """The order itself (mostly) or its text, in one of a few spellings."""
    chance = roll(draw, 10)
    if chance < 7:
        return order
    text = format_order(M, order)
    if chance == 7:
        return text
    if chance == 8:
        return f"  {text.lower()} "
    return f"{M.power(power).name}: {text}"


def extras(draw) -> list[tuple[str, object]]:
    """Junk text, orders of every kind for random places, orders under unknown powers."""
    out: list[tuple[str, object]] = []
    for _ in range(roll(draw, 4)):
        out.append((pick(draw, POWERS), draw(junk_text)))
    for _ in range(roll(draw, 3)):
        loc = draw(LOCATION)
        unit_type = pick(draw, _TYPES)
        order = pick(
            draw,
            [
                Hold(unit_type, loc),
                Move(unit_type, loc, draw(LOCATION)),
                Retreat(unit_type, loc, draw(LOCATION)),
                Disband(unit_type, loc),
                Build(unit_type, loc),
                Waive(),
            ],
        )
        out.append((pick(draw, POWERS), order))
    if roll(draw, 10) == 0:
        out.append(("atlantis", pick(draw, [Hold(ARMY, 0), "A PAR H"])))
    return out


def as_dict(submissions: list[tuple[str, object]]) -> dict[str, list[object]]:
    orders: dict[str, list[object]] = {}
    for power, item in submissions:
        orders.setdefault(power, []).append(item)
    return orders


# -- retreat positions and orders ------------------------------------------------------------


@st.composite
def retreat_positions(draw) -> Case:
    """A retreat phase; dislodged units are often clustered round one empty province."""
    season = pick(draw, "SF")
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(max_size=25))
    hub = pick(draw, UNIT_PROVINCES)
    units.pop(hub, None)
    near = [q for q in NEIGHBOURS[hub] if q in PLACES]
    cluster = draw(st.lists(st.sampled_from(near), unique=True, max_size=4)) if near else []
    spread = draw(st.lists(st.sampled_from(UNIT_PROVINCES), unique=True, max_size=3))
    dislodged = []
    for p in dict.fromkeys(cluster + spread):
        if p == hub:
            continue
        unit_type, loc = pick(draw, PLACES[p])
        power = pick(draw, POWERS)
        if p not in units:  # the attacker now standing there
            a_type, a_loc = pick(draw, PLACES[p])
            units[p] = Unit(pick(draw, [q for q in POWERS if q != power]), a_type, a_loc)
        elif units[p].power == power:
            power = pick(draw, [q for q in POWERS if q != units[p].power])
        came_from = pick(draw, [None, *NEIGHBOURS[p]])
        if came_from in units:
            came_from = None
        dislodged.append(Dislodged(Unit(power, unit_type, loc), came_from))
    empty = [p for p in range(M.province_count) if p not in units]
    contested = draw(st.lists(st.sampled_from(empty), unique=True, max_size=3))
    return Case(
        Position(
            M, Phase(year, season, "R"), units, centre_owners(draw), tuple(dislodged),
            frozenset(contested),
        )
    )


@st.composite
def retreat_orders(draw, position: Position) -> list[tuple[str, object]]:
    pool = sorted({t for d in position.dislodged for t in unit_order_targets(d.unit)})
    submissions: list[tuple[str, object]] = []
    for d in position.dislodged:
        unit = d.unit
        chance = roll(draw, 20)
        if chance == 0:
            continue
        power = unit.power if roll(draw, 15) else pick(draw, POWERS)
        if chance < 13:
            order: Order = Retreat(unit.type, unit.loc, pick(draw, unit_order_targets(unit)))
        elif chance < 16 and pool:
            order = Retreat(unit.type, unit.loc, pick(draw, pool))
        elif chance < 17:
            order = Retreat(unit.type, unit.loc, draw(LOCATION))
        elif chance < 19:
            order = Disband(unit.type, unit.loc)
        else:
            order = Move(unit.type, unit.loc, pick(draw, unit_order_targets(unit)))
        submissions.append((power, rendered(draw, order, power)))
        if roll(draw, 15) == 0:  # a second order for the same unit
            submissions.append((power, rendered(draw, Disband(unit.type, unit.loc), power)))
    if position.units and roll(draw, 5) == 0:  # a unit that was not dislodged
        u = pick(draw, list(position.units.values()))
        submissions.append((u.power, Retreat(u.type, u.loc, draw(LOCATION))))
    submissions.extend(extras(draw))
    return draw(st.permutations(submissions))


# -- adjustment positions and orders -----------------------------------------------------------


@st.composite
def adjustment_positions(draw) -> Case:
    year = draw(st.integers(1901, 1910))
    units = draw(units_on_board(max_size=30))
    return Case(Position(M, Phase(year, "W", "A"), units, centre_owners(draw)))


HOME_LOCATIONS = {
    power: [loc for p in M.home_centers(power) for loc in (p, *M.coast_locations(p))]
    for power in POWERS
}


@st.composite
def adjustment_orders(draw, position: Position) -> list[tuple[str, object]]:
    due = position.adjustments()
    everyone = list(position.units.values())
    submissions: list[tuple[str, object]] = []
    for power in POWERS:
        mine = [u for u in everyone if u.power == power]
        for _ in range(roll(draw, abs(due.get(power, 0)) + 3)):
            chance = roll(draw, 10)
            if chance < 4:
                order: Order | Waive = Build(
                    pick(draw, (ARMY, FLEET, ARMY, None)), pick(draw, HOME_LOCATIONS[power])
                )
            elif chance < 5:
                order = Build(pick(draw, (ARMY, FLEET)), pick(draw, SUPPLY))
            elif chance < 6:
                order = Waive()
            elif chance < 9 and mine:
                u = pick(draw, mine)
                order = Disband(u.type, u.loc)
            elif everyone:
                u = pick(draw, everyone)
                order = pick(draw, [Disband(u.type, u.loc), Hold(u.type, u.loc)])
            else:
                order = Waive()
            submissions.append((power, rendered(draw, order, power)))
    submissions.extend(extras(draw))
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
#
# Drawing a case costs far more than adjudicating it, so each case is judged under every edition.


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_movement_results_cover_every_order(case: Case, data: st.DataObject) -> None:
    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        outcome = adjudicate(position, orders, edition)
        check_results(outcome, orders)
        # Every unit is named by some result: an order for it, or a generated hold.
        mentioned = {
            M.province_of(r.order.loc)
            for rs in outcome.results.values() for r in rs
            if isinstance(r.order, Order)
        }
        generated = {r.canonical for rs in outcome.results.values() for r in rs if not r.text}
        for p, unit in position.units.items():
            assert p in mentioned or format_order(M, Hold(unit.type, unit.loc)) in generated


@SETTINGS
@given(case=retreat_positions(), data=st.data())
def test_retreat_results_cover_every_order(case: Case, data: st.DataObject) -> None:
    orders = as_dict(data.draw(retreat_orders(case.position), label="orders"))
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        check_results(adjudicate(case.position, orders, edition), orders)


@SETTINGS
@given(case=adjustment_positions(), data=st.data())
def test_adjustment_results_cover_every_order(case: Case, data: st.DataObject) -> None:
    orders = as_dict(data.draw(adjustment_orders(case.position), label="orders"))
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        check_results(adjudicate(case.position, orders, edition), orders)


# -- 2. the board after a movement phase -----------------------------------------------------


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_movement_keeps_the_board_sound(case: Case, data: st.DataObject) -> None:
    orders = as_dict(data.draw(movement_orders(case.position), label="orders"))
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        check_movement(case.position, adjudicate(case.position, orders, edition), edition)


# -- 3. supply centres --------------------------------------------------------------------------


@settings(SETTINGS, max_examples=60)
@given(case=movement_positions(), data=st.data())
def test_supply_centres_change_only_after_fall(case: Case, data: st.DataObject) -> None:
    position = case.position
    year = position.phase.year
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        outcome = adjudicate(position, orders, edition)
        board, current = outcome.after, outcome.next
        if current.phase.is_retreat:
            assert current.dislodged
            retreat_in = as_dict(data.draw(retreat_orders(current), label="retreats"))
            retreat = adjudicate(current, retreat_in, edition)
            check_results(retreat, retreat_in)
            check_retreats(current, retreat)
            board, current = retreat.after, retreat.next
        assert len(current.centers) <= len(SUPPLY) == 34
        assert set(current.centers) <= set(SUPPLY)
        if position.phase.season == "S":
            assert current.phase == Phase(year, "F", "M")
            assert current.centers == position.centers
            continue
        assert current.phase in (Phase(year, "W", "A"), Phase(year + 1, "S", "M"))
        assert set(current.centers) >= set(position.centers)  # a centre is never left unowned
        for sc in SUPPLY:
            unit = board.units.get(sc)
            expected = unit.power if unit is not None else position.centers.get(sc)
            assert current.centers.get(sc) == expected, M.provinces[sc].code
        assert current.units == board.units
        assert (current.phase.season == "W") == adjustments_needed(current, find_rules(edition))
        if current.phase.season == "W":
            winter_in = as_dict(data.draw(adjustment_orders(current), label="adjustments"))
            winter = adjudicate(current, winter_in, edition)
            check_results(winter, winter_in)
            assert winter.next.centers == current.centers
            assert winter.next.phase == Phase(year + 1, "S", "M")


# -- 4. determinism ----------------------------------------------------------------------------


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_adjudication_is_deterministic_and_order_independent(
    case: Case, data: st.DataObject
) -> None:
    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    # Shuffle the powers and each power's list; every order must fare the same.
    keys = data.draw(st.permutations(list(orders)), label="power order")
    shuffled: dict[str, list[object]] = {}
    where: dict[tuple[str, int], int] = {}
    for key in keys:
        perm = data.draw(st.permutations(range(len(orders[key]))), label=f"{key} order")
        shuffled[key] = [orders[key][i] for i in perm]
        for new_index, old_index in enumerate(perm):
            where[(key, old_index)] = new_index
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        first = adjudicate(position, orders, edition)
        second = adjudicate(position, orders, edition)
        assert {p: [r.to_json() for r in rs] for p, rs in first.results.items()} == {
            p: [r.to_json() for r in rs] for p, rs in second.results.items()
        }
        assert first.after == second.after
        assert first.next == second.next
        third = adjudicate(position, shuffled, edition)
        for key, items in orders.items():
            power = power_key(key)
            for old_index in range(len(items)):
                a = first.results[power][old_index].to_json()
                b = third.results[power][where[(key, old_index)]].to_json()
                assert a == b
        assert dict(first.after.units) == dict(third.after.units)
        assert set(first.after.dislodged) == set(third.after.dislodged)
        assert first.after.contested == third.after.contested
        assert first.moved == third.moved
        assert Counter(
            tuple(r.to_json().values()) for rs in first.results.values() for r in rs
        ) == Counter(tuple(r.to_json().values()) for rs in third.results.values() for r in rs)


# -- 5. retreats -------------------------------------------------------------------------------


@SETTINGS
@given(case=retreat_positions(), data=st.data())
def test_retreats_keep_the_board_sound(case: Case, data: st.DataObject) -> None:
    position = case.position
    orders = as_dict(data.draw(retreat_orders(position), label="orders"))
    year, season = position.phase.year, position.phase.season
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        outcome = adjudicate(position, orders, edition)
        check_retreats(position, outcome)
        if season == "S":
            assert outcome.next.phase == Phase(year, "F", "M")
            assert outcome.next.centers == position.centers
        else:
            assert outcome.next.phase in (Phase(year, "W", "A"), Phase(year + 1, "S", "M"))


_COLLISIONS = []
for _hub in UNIT_PROVINCES:
    _reach = []
    for _q in NEIGHBOURS[_hub]:
        for _type, _loc in PLACES.get(_q, []):
            _dests = [d for d in unit_order_targets(Unit("X", _type, _loc))
                      if M.province_of(d) == _hub]
            if _dests:
                _reach.append((_q, _type, _loc, _dests))
    _COLLISIONS += [(_hub, a, b) for a in _reach for b in _reach if a[0] < b[0]]


@settings(deadline=None, max_examples=40)
@given(
    collision=st.sampled_from(_COLLISIONS),
    powers=st.lists(st.sampled_from(POWERS), unique=True, min_size=4, max_size=4),
    data=st.data(),
)
def test_two_retreats_to_one_province_both_fail(collision, powers, data) -> None:
    hub, (p1, t1, l1, d1), (p2, t2, l2, d2) = collision
    units = {p1: Unit(powers[2], *PLACES[p1][0]), p2: Unit(powers[3], *PLACES[p2][0])}
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
    check_retreats(position, outcome)
    assert [r.result for r in outcome.results[powers[0]]] == [FAILS]
    assert [r.result for r in outcome.results[powers[1]]] == [FAILS]
    assert hub not in outcome.after.units
    assert sorted(outcome.removed) == sorted([p1, p2])


# -- 6. adjustments ----------------------------------------------------------------------------


@SETTINGS
@given(case=adjustment_positions(), data=st.data())
def test_adjustments_respect_centre_counts(case: Case, data: st.DataObject) -> None:
    position = case.position
    orders = as_dict(data.draw(adjustment_orders(position), label="orders"))
    due = position.adjustments()
    before_counts, centres = position.unit_counts(), position.center_counts()
    for edition in EDITION_NAMES:
        note(f"edition {edition}")
        outcome = adjudicate(position, orders, edition)
        after = outcome.after
        check_board(after)
        assert after.centers == position.centers
        assert outcome.next.phase == Phase(position.phase.year + 1, "S", "M")
        # Builds only in owned home centres that were vacant when the winter began.
        built = {p: u for p, u in after.units.items() if position.units.get(p) != u}
        for p, unit in built.items():
            where = M.provinces[p].code
            assert p not in position.units, f"{unit.power} built in occupied {where}"
            assert M.provinces[p].home == unit.power, where
            assert position.centers.get(p) == unit.power, where
            assert due[unit.power] > 0, where
        # Every other unit stays unless its power had to remove units.
        for p, unit in position.units.items():
            if p in outcome.removed:
                assert p not in after.units
                assert due[unit.power] < 0
            else:
                assert after.units.get(p) == unit
        after_counts = after.unit_counts()
        for power in POWERS:
            if due.get(power, 0) < 0:
                # Exactly the surplus goes, by order or by the civil-disorder rule.
                assert after_counts[power] == centres[power], power
            else:
                assert before_counts[power] <= after_counts[power] <= centres[power], power
        successes = Counter(
            (r.power, type(r.order)) for rs in outcome.results.values() for r in rs
            if r.result == SUCCEEDS
        )
        for power in POWERS:
            assert successes[(power, Build)] == sum(1 for u in built.values() if u.power == power)
            assert successes[(power, Build)] + successes[(power, Waive)] <= max(0, due[power])


HOME_CENTRES = [(p, M.provinces[p].home) for p in SUPPLY if M.provinces[p].home]


@settings(deadline=None, max_examples=40)
@given(
    home=st.sampled_from(HOME_CENTRES),
    data=st.data(),
    removal_first=st.booleans(),
)
def test_no_build_where_a_unit_is_removed_the_same_winter(home, data, removal_first) -> None:
    # The centre is occupied when the winter begins, so it is no place for a build, whether
    # the removal of the unit standing there is read before or after the build.
    centre, builder = home
    remover = data.draw(st.sampled_from([p for p in POWERS if p != builder]), label="remover")
    unit_type, loc = data.draw(st.sampled_from(PLACES[centre]), label="unit")
    position = Position(
        M, Phase(1901, "W", "A"), {centre: Unit(remover, unit_type, loc)}, {centre: builder}
    )
    removal = {remover: [Disband(unit_type, loc)]}
    build = {builder: [Build(ARMY, centre)]}
    orders = {**removal, **build} if removal_first else {**build, **removal}
    outcome = adjudicate(position, orders)
    check_results(outcome, orders)
    assert centre in outcome.removed
    assert outcome.results[builder][0].result != SUCCEEDS, outcome.results[builder][0]
    assert centre not in outcome.after.units


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_quick_movement_checks_agree_with_the_full_checks(case: Case, data: st.DataObject) -> None:
    # The movement reading settles the usual orders by per-map look-ups; every order must come
    # out of it exactly as the full check leaves it (the same value, the same reason, and the
    # very order given when the check keeps it as it is: its canonical text depends on that).
    from calhamer.phases.movement import MovementReading

    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    quick = MovementReading(position)
    assert quick.quick is not None
    quick.add_all(orders)
    full = MovementReading(position)
    full.quick = None  # every order through check_movement_order
    full.add_all(orders)
    assert quick.entries == full.entries
    assert [e.order is e.given for e in quick.entries] == [e.order is e.given for e in full.entries]
    assert quick.legal == full.legal
    assert list(quick.ordered) == list(full.ordered) and quick.clashes == full.clashes


def test_convoys_and_armies_across_the_water_are_settled_by_the_quick_checks() -> None:
    # A convoy on the army's route and the army's move over two seas are legal as written,
    # found by the per-map tables; a fleet off every route, a coast named for the army's
    # target, or an army with no fleets to carry it go to the full check, which says why.
    from calhamer.phases.movement import MovementReading
    from calhamer.validation import quick_checks

    names = ("LON", "NTH", "NWG", "NWY", "EDI", "BRE")
    lon, nth, nwg, nwy, edi, bre = (M.canonical_locations[n] for n in names)
    units = {lon: Unit("ENGLAND", ARMY, lon), nth: Unit("ENGLAND", FLEET, nth),
             nwg: Unit("ENGLAND", FLEET, nwg), edi: Unit("ENGLAND", FLEET, edi)}
    position = Position(M, Phase(1901, "S", "M"), units, {})
    quick = quick_checks(M)
    assert quick.army_by_sea(position, lon, nwy)
    assert not quick.army_by_sea(position, lon, bre)  # no fleet in the Channel
    assert quick.convoy_legal(nth, lon, nwy)
    assert not quick.convoy_legal(nwg, lon, M.canonical_locations["BEL"])  # off every route
    orders = {"ENGLAND": [Move(ARMY, lon, nwy), Convoy(FLEET, nth, lon, nwy),
                          Convoy(FLEET, nwg, lon, M.canonical_locations["BEL"])]}
    reading = MovementReading(position)
    reading.add_all(orders)
    assert [e.reason for e in reading.entries][:2] == [None, None]
    assert "no convoy route" in (reading.entries[2].reason or "")
    assert [e.order is e.given for e in reading.entries][:2] == [True, True]



@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_results_worded_by_the_phase_agree_with_the_explainer(case: Case, data: st.DataObject
                                                              ) -> None:
    # A movement phase words the usual results itself (a move made, a hold kept, a support
    # given); every legal order's result and reason must be the explainer's own.
    from calhamer.adjudicator import EMPTY, MOVE
    from calhamer.phases.explain import Explainer

    position = case.position
    orders = as_dict(data.draw(movement_orders(position), label="orders"))
    outcome = adjudicate(position, orders)
    assert outcome.resolution is not None
    resolver = outcome.resolution.resolver
    table = resolver.table
    moved = {p for p in table.movers if table.kind[p] == MOVE and resolver.resolution[p]}
    dislodged_at = {table.dest[p]: p for p in moved
                    if table.kind[table.dest[p]] != EMPTY and table.dest[p] not in moved}
    explain = Explainer(position, table, resolver, dislodged_at)
    loc_province = position.map.loc_province
    checked = 0
    for result in outcome.all_results():
        if result.result is INVALID or result.order is None or not result.text:
            continue
        province = loc_province[result.order.loc]  # type: ignore[union-attr]
        assert (result.result, result.reason) == explain.result(province)
        checked += 1
    note(f"{checked} results compared")
