"""possible_orders: every order a power may give, exactly as adjudication judges them.

Listed orders are adjudicated alone and must never be ``invalid``; random orders that the
validation accepts (within what the listing promises) must be listed; the start position's
counts are checked by hand, and retreats, builds, removals and the variants besides.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from calhamer.errors import CalhamerError
from calhamer.game import Game
from calhamer.map import ARMY, FLEET, load_map
from calhamer.notation import format_order, parse_order
from calhamer.options import movement_candidates, possible_order_texts, possible_orders
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from calhamer.phases import adjudicate, buildable_centres, retreat_options
from calhamer.position import Phase, Position, units_from_specs
from calhamer.results import INVALID, SUCCEEDS
from calhamer.rules import find_rules
from calhamer.validation import Illegal, check_movement_order, fleet_seas
from calhamer.variants import find_variant, variant_names
from test_properties import (
    LOCATION,
    POWERS,
    SETTINGS,
    Case,
    adjustment_positions,
    movement_positions,
    pick,
    retreat_positions,
)

M = load_map("standard")


def board(phase: str, units: dict[str, list[str]], centers: dict[str, str] | None = None,
          variant: str = "standard") -> Position:
    m = load_map(find_variant(variant).map_name)
    owned = {m.province_of(m.loc(c)): p for c, p in (centers or {}).items()}
    table = units_from_specs(m, units, find_variant(variant).notation.parse_unit)
    return Position(m, Phase.parse(phase), table, owned, variant=find_variant(variant))


def texts(position: Position, power: str, unit: str | None = None) -> list[str]:
    m = position.map
    found = possible_orders(position, power)
    if unit is None:
        return [format_order(m, o) for orders in found.values() for o in orders]
    return [format_order(m, o) for o in found[m.loc(unit)]]


def alone(position: Position, power: str, order, rules=None) -> str:
    """The result of ``order`` adjudicated with no other order."""
    return adjudicate(position, {power: [order]}, rules).results[power][0].result


# -- the start position -------------------------------------------------------------------------


def test_a_par_at_the_start():
    start = Position.initial()
    assert texts(start, "FRANCE", "PAR") == [
        "A PAR H",
        "A PAR - BRE", "A PAR - BUR", "A PAR - GAS", "A PAR - PIC",
        "A PAR S F BRE", "A PAR S F BRE - GAS", "A PAR S F BRE - PIC",
        "A PAR S A MAR - BUR", "A PAR S A MAR - GAS",
        "A PAR S A MUN - BUR",
    ]


def test_f_lon_and_the_start_counts():
    start = Position.initial()
    assert texts(start, "ENGLAND", "LON") == [
        "F LON H",
        "F LON - ENG", "F LON - NTH", "F LON - WAL", "F LON - YOR",
        "F LON S F BRE - ENG", "F LON S F EDI - NTH", "F LON S F EDI - YOR",
        "F LON S A LVP - WAL", "F LON S A LVP - YOR",
    ]
    counts = {p: {M.loc_name(loc): len(o) for loc, o in possible_orders(start, p).items()}
              for p in POWERS}
    assert counts["ENGLAND"] == {"EDI": 9, "LON": 10, "LVP": 10}
    assert counts["RUSSIA"]["STP/SC"] == 1 + 3 + 2  # H, BOT FIN LVN, S A WAR - LVN, S A MOS - LVN
    assert sum(len(c) for c in counts.values()) == 22
    # Split coasts: a fleet moves to each coast it reaches, named.
    assert "F MAO - SPA/NC" in texts(board("S1901M", {"FRANCE": ["F MAO"]}), "FRANCE")


def test_keys_and_power_names():
    start = Position.initial()
    assert possible_orders(start, "France") == possible_orders(start, "FRANCE")
    with pytest.raises(CalhamerError, match="not a power"):
        possible_orders(start, "Atlantis")
    headings = [h for h, _ in possible_order_texts(start, "FRANCE")]
    assert headings == ["F BRE", "A MAR", "A PAR"]


# -- convoys, and DATC 6.D.31 ---------------------------------------------------------------------


def test_convoyed_moves_and_convoys():
    pos = board("S1901M", {"ENGLAND": ["F NTH", "A LON"], "FRANCE": ["F ENG", "A BEL"]})
    lon = texts(pos, "ENGLAND", "LON")
    for dest in ("BEL", "DEN", "EDI", "HOL", "NWY", "BRE", "PIC"):
        assert f"A LON - {dest}" in lon  # through NTH, or through France's ENG
    assert "A LON - YOR VIA CONVOY" in lon and "A LON - YOR" in lon  # adjacent: both
    assert "A LON - WAL VIA CONVOY" in lon  # ENG touches Wales
    assert "A LON - KIE" not in lon  # no fleet in HEL
    nth = texts(pos, "ENGLAND", "NTH")
    assert "F NTH C A LON - NWY" in nth and "F NTH C A BEL - EDI" in nth
    assert "F NTH C A LON - BRE" in nth  # with France's ENG: NTH is on that route
    assert not any(t.startswith("F NTH C A LON - LON") for t in nth)
    # A coastal army with no fleets at sea near it has no convoyed moves.
    alone_board = board("S1901M", {"ENGLAND": ["A LON"]})
    assert texts(alone_board, "ENGLAND") == ["A LON H", "A LON - WAL", "A LON - YOR"]


def test_datc_6_d_31_support_is_not_listed():
    pos = board("S1901M", {"AUSTRIA": ["A RUM"], "TURKEY": ["F BLA"]})
    assert "A RUM - ARM" in texts(pos, "AUSTRIA", "RUM")
    bla = texts(pos, "TURKEY", "BLA")
    assert "F BLA C A RUM - ARM" in bla
    assert "F BLA S A RUM" in bla
    assert "F BLA S A RUM - ARM" not in bla
    assert "F BLA S A RUM - BUL" in bla  # Bulgaria is next to both


# -- every listed order is legal; every legal order is listed ------------------------------------


def _powers_with_units(position: Position) -> list[str]:
    powers = sorted({u.power for u in position.units.values()})
    assume(powers)
    return powers


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_every_listed_movement_order_is_legal(case: Case, data: st.DataObject) -> None:
    position = case.position
    power = data.draw(st.sampled_from(_powers_with_units(position)))
    found = possible_orders(position, power)
    assert {position.map.province_of(loc) for loc in found} == {
        p for p, u in position.units.items() if u.power == power
    }
    for loc, orders in found.items():
        assert isinstance(orders[0], Hold) and orders[0].loc == loc
        assert len(set(orders)) == len(orders)
        for order in orders:
            note(format_order(M, order))
            assert check_movement_order(position, power, order) == order  # canonical
            assert alone(position, power, order) != INVALID
            assert parse_order(M, format_order(M, order), position=position).order == order


def _route_with(position: Position, army: int, dest: int, fleet: int) -> bool:
    """Whether fleets at sea chain ``army`` to ``dest`` through the sea of ``fleet``."""
    seas = fleet_seas(position)
    return (fleet in seas and M.is_coastal(dest)
            and M.sea_chain(army, seas.__contains__, fleet.__eq__)
            and M.sea_chain(dest, seas.__contains__, fleet.__eq__))


def _move_dests(position: Position, province: int) -> set[int]:
    """Provinces the unit in ``province`` could move to (by land, or by the fleets at sea)."""
    unit = position.units[province]
    if unit.type is FLEET:
        return {M.province_of(d) for d in M.fleet_adjacent[unit.loc]}
    out = set(M.army_adjacent[province])
    if M.is_coastal(province):
        seas = fleet_seas(position)
        out |= {q for q in range(M.province_count) if q != province and M.is_coastal(q)
                and M.sea_chain(province, seas.__contains__, lambda s, q=q: q in
                                M.province_fleet_adjacent[s])}
    return out


@st.composite
def some_order(draw, position: Position, power: str):
    """A random order for one of ``power``'s units, mostly sensible, often illegal."""
    units = position.units
    mine = sorted(p for p, u in units.items() if u.power == power)
    here = pick(draw, mine)
    unit = units[here]
    others = sorted(units)
    kinds = ["hold", "move", "move", "support", "support", "convoy", "convoy"]
    kind = draw(st.sampled_from(kinds))
    if kind == "hold":
        return Hold(unit.type, unit.loc)
    if kind == "move":
        dest = draw(LOCATION)
        if unit.type is FLEET and draw(st.booleans()):
            dest = pick(draw, sorted(M.fleet_adjacent[unit.loc]))
        return Move(unit.type, unit.loc, dest, draw(st.booleans()))
    if kind == "support":
        q = pick(draw, others)
        target = units[q]
        choices = [None, *sorted(_move_dests(position, q))]
        dest = pick(draw, choices) if draw(st.integers(0, 4)) else draw(LOCATION)
        if dest is not None:
            dest = M.province_of(dest)  # a support's move is named by province
        return Support(unit.type, unit.loc, target.type, target.loc, dest)
    armies = [p for p in others if units[p].type is ARMY] or others
    army = pick(draw, armies)
    seas = fleet_seas(position)
    coasts = sorted({q for s in seas for q in M.province_fleet_adjacent[s] if M.is_coastal(q)})
    dest = pick(draw, coasts) if coasts and draw(st.integers(0, 4)) else draw(LOCATION)
    return Convoy(unit.type, unit.loc, army, M.province_of(dest))


def _promised(position: Position, order) -> bool:
    """Whether the listing promises this legal order (see calhamer.options)."""
    units = position.units
    here = M.province_of(order.loc)
    if isinstance(order, Move):
        dest = M.province_of(order.dest)
        if order.unit_type is ARMY and order.via_convoy:
            seas = fleet_seas(position)
            near = M.province_fleet_adjacent
            routed = M.sea_chain(here, seas.__contains__, lambda s: dest in near[s])
            return dest in M.army_adjacent[here] and routed
        return True
    if isinstance(order, Support):
        target = M.province_of(order.target)
        if target not in units:
            return False
        if order.dest is None:
            return True
        return M.province_of(order.dest) in _move_dests(position, target)
    if isinstance(order, Convoy):
        army = units.get(M.province_of(order.army))
        # (Validation accepts a convoy to the army's own province; it is void, not listed.)
        return (army is not None and army.type is ARMY and order.army != order.dest
                and _route_with(position, M.province_of(order.army), order.dest, here))
    return True


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_every_promised_legal_order_is_listed(case: Case, data: st.DataObject) -> None:
    position = case.position
    power = data.draw(st.sampled_from(_powers_with_units(position)))
    listed = {o for orders in possible_orders(position, power).values() for o in orders}
    for _ in range(20):
        order = data.draw(some_order(position, power))
        try:
            checked = check_movement_order(position, power, order)
        except Illegal:
            continue
        if not _promised(position, checked):
            continue
        if isinstance(checked, Move) and checked.via_convoy and checked.unit_type is ARMY \
                and M.province_of(checked.dest) not in M.army_adjacent[M.province_of(checked.loc)]:
            checked = Move(ARMY, checked.loc, checked.dest)  # listed without "via convoy"
        note(format_order(M, checked))
        assert checked in listed


# -- retreats and adjustments ----------------------------------------------------------------------


@SETTINGS
@given(case=retreat_positions())
def test_retreat_options_and_disbands(case: Case) -> None:
    position = case.position
    for power in POWERS:
        found = possible_orders(position, power)
        mine = [d for d in position.dislodged if d.unit.power == power]
        assert sorted(found) == sorted(d.unit.loc for d in mine)
        for entry in mine:
            unit = entry.unit
            expected = [Retreat(unit.type, unit.loc, d) for d in retreat_options(position, entry)]
            assert sorted(found[unit.loc], key=repr) == sorted(
                [*expected, Disband(unit.type, unit.loc)], key=repr)
            for order in found[unit.loc]:
                assert alone(position, power, order) == SUCCEEDS


@SETTINGS
@given(case=adjustment_positions(), edition=st.sampled_from(["datc", "2023", "1971"]))
def test_builds_waives_and_removals(case: Case, edition: str) -> None:
    position = case.position
    rules = find_rules(edition)
    due = position.adjustments()
    for power in POWERS:
        found = possible_orders(position, power, rules)
        amount = due.get(power, 0)
        if amount < 0:
            assert sorted(found) == sorted(u.loc for u in position.units_of(power))
            assert all(orders == [Disband(position.units[M.province_of(loc)].type, loc)]
                       for loc, orders in found.items())
        elif amount == 0:
            assert found == {}
        else:
            centres = buildable_centres(position, power, rules)
            assert sorted(found) == sorted(centres)
            for province in centres:
                tried = [Build(t, loc) for t in (ARMY, FLEET)
                         for loc in (province, *M.coast_locations(province))]
                legal = [b for b in tried if alone(position, power, b, rules) == SUCCEEDS
                         and b.loc == adjudicate(position, {power: [b]}, rules)
                         .results[power][0].order.loc]
                assert found[province] == [*legal, Waive()]
        for orders in found.values():
            for order in orders:
                assert alone(position, power, order, rules) == SUCCEEDS


def test_builds_on_both_coasts_and_in_any_centre_when_allowed():
    pos = board("W1901A", {"RUSSIA": ["A WAR"]},
                {"STP": "RUSSIA", "MOS": "RUSSIA", "SEV": "RUSSIA", "WAR": "RUSSIA",
                 "RUM": "RUSSIA"})
    found = possible_orders(pos, "RUSSIA")
    assert [format_order(M, o) for o in found[M.loc("STP")]] == [
        "BUILD A STP", "BUILD F STP/NC", "BUILD F STP/SC", "WAIVE"]
    assert [format_order(M, o) for o in found[M.loc("MOS")]] == ["BUILD A MOS", "WAIVE"]
    assert M.loc("RUM") not in found  # not a home centre in the DATC edition
    assert M.loc("WAR") not in found  # occupied
    headings = [h for h, _ in possible_order_texts(pos, "RUSSIA")]
    assert headings[0] == "Build in Moscow (MOS)"


# -- variants --------------------------------------------------------------------------------------


def _played(variant: str, phases: int) -> list[Game]:
    """Games of ``variant`` after each of the first phases, every power ordering at random
    from its own listing."""
    import random

    rng = random.Random(7)
    game = Game.new(variant)
    out = []
    for _ in range(phases):
        position = game.current
        v = find_variant(position.variant)
        out.append(Game.from_json(game.to_json()))
        for power in position.map.power_codes:
            listing = possible_orders(position, power, game.rules)
            game.set_orders(power, [v.notation.format_order(position, rng.choice(orders))
                                    for orders in listing.values()])
        game.process()
    return out


@pytest.mark.parametrize("variant", variant_names())
def test_variants_list_only_what_adjudication_accepts(variant):
    phases = 6 if variant != "superdiplomacy" else 3
    for game in _played(variant, phases):
        position = game.current
        v = find_variant(position.variant)
        for power in position.map.power_codes:
            for orders in possible_orders(position, power, game.rules).values():
                for order in orders:
                    result = adjudicate(position, {power: [order]}, game.rules)
                    entry = result.results[power][0]
                    assert entry.result != INVALID, (position.phase, entry.canonical,
                                                     entry.reason)
                    # What the page shows reads back as the same order.
                    text = v.notation.format_order(position, order)
                    parsed = v.notation.parse_order(position.map, text,
                                                    phase_kind=position.phase.kind,
                                                    position=position, power=power)
                    assert v.notation.format_order(position, parsed.order) == text


def test_kriegsplomacy_lists_nothing_a_power_cannot_know():
    pos = board("S1901M", {"FRANCE": ["A PAR", "F BRE"], "GERMANY": ["A BUR", "F HEL"],
                           "ENGLAND": ["F ENG"]}, variant="kriegsplomacy")
    found = possible_orders(pos, "FRANCE")
    assert sorted(M.loc_name(loc) for loc in found) == ["BRE", "PAR"]
    named = {M.province_of(getattr(o, "target", None) or getattr(o, "army", o.loc))
             for orders in found.values() for o in orders}
    assert named <= {M.province_of(M.loc("PAR")), M.province_of(M.loc("BRE"))}
    par = [format_order(M, o) for o in found[M.loc("PAR")]]
    assert "A PAR - BUR" in par  # legal: it fails against a unit France cannot see
    assert not any("ENG" in t and "C " in t for t in par)
    # The listing is the same whatever foreign units stand: nothing about them leaks.
    bare = board("S1901M", {"FRANCE": ["A PAR", "F BRE"]}, variant="kriegsplomacy")
    assert possible_orders(bare, "FRANCE") == found


def test_a_stack_lists_each_type_of_its_units():
    pos = board("S1901M", {"GERMANY": ["2A+1F KIE", "3A BER"]}, variant="superdiplomacy")
    found = possible_order_texts(pos, "GERMANY")
    heads = dict(found)
    assert sorted(heads) == ["2A+1F KIE", "3A BER"]
    kie = heads["2A+1F KIE"]
    assert "1A KIE - HEL" not in kie and "1F KIE - HEL" in kie
    assert "1A KIE - MUN" in kie and "1F KIE - MUN" not in kie
    assert "1A KIE S A BER" in kie or "1A KIE S 3A BER" in kie


def test_minor_powers_and_unknown_phase_kinds_list_nothing():
    game = Game.new("standard-dp")
    position = game.current
    minor = position.map.minor_power_codes[0]
    assert possible_orders(position, minor) == {}
    # A phase kind whose handler lists no orders (the base PhaseHandler) lists nothing.
    from types import MappingProxyType

    from calhamer.phases.handlers import STANDARD_PHASES, PhaseHandler
    from calhamer.variant import Variant

    class Unlisted(Variant):
        phases = MappingProxyType({**STANDARD_PHASES, "X": PhaseHandler()})

    odd = Position.initial().replace(phase=Phase(1901, "U", "X"))
    odd = odd.replace(variant=Unlisted())
    assert possible_orders(odd, "FRANCE") == {}


def test_the_arpiesse_summer_exchange_lists_each_exchange():
    summer = Position.initial(variant=find_variant("arpiesse-exchange"))
    summer = summer.replace(phase=Phase(1901, "U", "X"))
    found = dict(possible_order_texts(summer, "FRANCE"))
    # Brest and Paris could support each other to hold; Marseilles has no French neighbour.
    assert found["Red A PAR"] == ["Red A PAR X Red F BRE"]
    assert found["Red F BRE"] == ["Red F BRE X Red A PAR"]
    assert "Red A MAR" not in found
    assert all(" X " in o for orders in found.values() for o in orders)


# -- the fast path: candidates legal by construction -------------------------------------------


@SETTINGS
@given(case=movement_positions(), data=st.data())
def test_fast_listing_equals_the_full_order_check(case: Case, data: st.DataObject) -> None:
    """Movement orders listed from the map's tables are exactly those that every candidate
    sent through the full order check leaves."""
    position = case.position
    power = data.draw(st.sampled_from(_powers_with_units(position)))
    fast = movement_candidates(position, position, power)
    full = movement_candidates(position, position, power, full_check=True)
    assert fast == full


@st.composite
def _stack_boards(draw: st.DrawFn) -> Position:
    """Superdiplomacy boards with stacks of one to six units of either type, anywhere."""
    start = Position.initial(variant=find_variant("superdiplomacy"))
    m = start.map
    stack = type(next(iter(start.units.values())))
    powers = [p for p in m.power_codes if not m.is_minor(p)]
    provinces = draw(st.lists(st.integers(0, m.province_count - 1), min_size=1, max_size=60,
                              unique=True))
    units = {}
    for province in provinces:
        power = draw(st.sampled_from(powers))
        size = draw(st.integers(1, 6))
        if m.is_sea(province):
            units[province] = stack(power, FLEET, province, armies=0, fleets=size)
        elif m.is_coastal(province) and not m.coast_locations(province) and draw(st.booleans()):
            fleets = draw(st.integers(1, size))
            units[province] = stack(power, FLEET, province, armies=size - fleets, fleets=fleets)
        else:
            units[province] = stack(power, ARMY, province, armies=size, fleets=0)
    return start.replace(units=units)


@SETTINGS
@given(position=_stack_boards(), data=st.data())
def test_fast_listing_of_stacks_equals_the_full_order_check(position: Position,
                                                            data: st.DataObject) -> None:
    power = data.draw(st.sampled_from(sorted({u.power for u in position.units.values()})))
    fast = movement_candidates(position, position, power, stacks=True)
    full = movement_candidates(position, position, power, stacks=True, full_check=True)
    assert fast == full


def test_a_board_listed_twice_lists_the_same_for_each_power():
    """The board kept between listings is never confused with another board."""
    first = Position.initial()
    moved = first.replace(units={p: u for p, u in first.units.items()
                                 if u.power != "FRANCE"})
    for _ in range(2):
        assert possible_orders(moved, "FRANCE") == {}
        assert len(possible_orders(first, "FRANCE")) == 3


def test_fast_listing_equals_the_full_order_check_in_coordinated_play() -> None:
    """The same, on the crowded boards of the greedy player's game (supports, convoys, cut
    supports and bounces), where the benchmarks time the listing: every movement phase to
    1905, every power."""
    import random

    from calhamer import Game
    from calhamer.bots import greedy_policy

    game = Game.new("standard", max_year=1905)
    compared = 0
    while not game.is_done():
        position = game.current
        for power in game.powers():
            if position.phase.is_movement and any(
                    u.power == power for u in position.units.values()):
                fast = movement_candidates(position, position, power)
                assert fast == movement_candidates(position, position, power, full_check=True)
                compared += 1
            view = game.bot_view(power)
            view.rng = random.Random(f"{game.phase}{power}")
            orders = list(greedy_policy(view, game.possible_orders(power)))
            if orders:
                game.set_orders(power, orders)
        game.process()
    assert compared >= 50
