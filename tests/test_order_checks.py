"""Order checks give adjudication's verdict: a line the check passes is not refused when the
phase is adjudicated, and a line it refuses is refused there, for the same reason.

Adjudication refuses an order that is ``invalid`` and, in an adjustment phase, one that does
not succeed (a second build in one place, more builds or removals than due): there a power's
orders meet no one else's, so the list alone decides. Every variant is covered, in every
kind of phase it has.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from calhamer.formats import position_from_json
from calhamer.game import Game, OrderCheck, check_orders, is_order_line
from calhamer.map import FLEET, Map, Terrain, load_map
from calhamer.phases import adjudicate
from calhamer.position import Dislodged, Phase, Position, Unit
from calhamer.results import INVALID, SUCCEEDS, OrderResult
from calhamer.rules import EDITIONS
from calhamer.variants import Variant, find_variant
from calhamer.variants.superdiplomacy.notation import Stack

VARIANTS = [
    "standard", "arpiesse", "arpiesse-exchange", "kriegsplomacy", "standard-dp",
    "sub-saharan-excerpt", "superdiplomacy",
]
SETTINGS = settings(
    deadline=None, max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def refused(phase: Phase, result: OrderResult) -> bool:
    """What adjudication refuses, as this module's docstring says."""
    return result.result == INVALID or (phase.is_adjustment and result.result != SUCCEEDS)


def winter(units: dict[str, list[str]], centres: dict[str, list[str]]) -> Position:
    position, _, _ = position_from_json({"phase": "W1901A", "units": units, "centers": centres})
    return position


def problems(position: Position, power: str, lines: list[str]) -> list[str | None]:
    return [c.problem for c in check_orders(position, {power: lines})[power]]


# -- the cases of issue 11 -------------------------------------------------------------------


def test_a_second_build_in_one_place_is_refused_by_the_check() -> None:
    position = winter({"FRANCE": ["A PAR"]}, {"FRANCE": ["PAR", "MAR", "BRE"]})
    assert problems(position, "FRANCE", ["Build A Mar", "Build A Mar", "Build F Bre"]) == [
        None, "a unit was already built in Marseilles (MAR)", None,
    ]
    # ...whatever the unit type: one province takes one build
    assert problems(position, "FRANCE", ["Build A Bre", "Build F Bre"])[1] == (
        "a unit was already built in Brest (BRE)"
    )


def test_builds_beyond_the_allowance_are_refused_by_the_check() -> None:
    position = winter({"FRANCE": ["A PAR", "F BRE"]}, {"FRANCE": ["PAR", "MAR", "BRE"]})
    assert problems(position, "FRANCE", ["Build A Mar", "Waive"]) == [
        None, "FRANCE may build only 1 this winter",
    ]
    assert problems(position, "FRANCE", ["Waive", "Build A Mar"]) == [
        None, "FRANCE may build only 1 this winter",
    ]


def test_removals_twice_or_beyond_those_due_are_refused_by_the_check() -> None:
    position = winter({"FRANCE": ["A PAR", "A MAR", "F BRE"]}, {"FRANCE": ["PAR", "MAR"]})
    assert problems(position, "FRANCE", ["Remove A Par", "A Par D", "A Mar D"]) == [
        None, "this unit is already removed", "FRANCE must remove only 1 this winter",
    ]


def test_two_orders_for_one_unit_are_refused_alike_by_the_check() -> None:
    start = Position.initial()
    reason = "the unit was given more than one order, so it holds"
    assert problems(start, "FRANCE", ["A Par - Bur", "A Par - Pic", "A Mar H"]) == [
        reason, reason, None,
    ]
    retreat, _, _ = position_from_json({
        "phase": "S1901R", "units": {"ITALY": ["A VEN"]}, "dislodged": {"AUSTRIA": ["A TRI"]},
    })
    assert problems(retreat, "AUSTRIA", ["A Tri R Bud", "A Tri D", "A Tri R Vie"]) == [
        None, "this unit already has a retreat order", "this unit already has a retreat order",
    ]


def test_a_game_checks_the_orders_it_stores_the_same_way() -> None:
    game = Game.new()
    # To the winter of 1901, France having taken Spain and Portugal.
    game.set_orders("FRANCE", ["A Mar - Spa", "F Bre - Mao"])
    game.process()
    game.set_orders("FRANCE", ["F Mao - Por"])
    game.process()
    assert game.current.phase.code == "W1901A"
    checks = game.set_orders("FRANCE", ["Build A Mar", "Build A Mar", "Build F Bre", "Waive"])
    assert [c.problem for c in checks] == [
        None, "a unit was already built in Marseilles (MAR)", None,
        "FRANCE may build only 2 this winter",
    ]


def test_superdiplomacy_builds_beyond_production_are_refused_by_the_check() -> None:
    position = start("superdiplomacy").replace(phase=Phase(1901, "W", "A"), units={})
    m = position.map
    home = next(p for p in m.home_centers("FRANCE") if p in position.centers)
    lines = [f"Build 1A {m.provinces[home].code}"] * 8
    checks = check_orders(position, {"FRANCE": lines})["FRANCE"]
    outcome = adjudicate(position, {"FRANCE": lines})
    results = outcome.results["FRANCE"][: len(lines)]
    assert any(not c.ok for c in checks)
    assert [c.problem for c in checks] == [r.reason if r.result != SUCCEEDS else None
                                           for r in results]


# -- the property, over every variant ------------------------------------------------------


@cache
def start(name: str) -> Position:
    variant = find_variant(name)
    m = load_map(variant.map_name)
    position = Position.initial(m, variant=variant)
    if not position.units:  # a variant that starts by building (Kriegsplomacy): build armies
        builds = {power: [f"Build A {m.provinces[p].code}" for p in m.home_centers(power)]
                  for power in m.power_codes}
        position = adjudicate(position, builds).next
        assert position.units and position.phase.is_movement
    return variant.prepare_phase(position, lambda: "5e" * 32)


def neighbours(m: Map, province: int) -> list[int]:
    """The provinces next to ``province`` (every province, on an excerpt map where it has
    none)."""
    near = sorted(m.army_adjacent[province] | m.province_fleet_adjacent[province])
    return near or list(range(m.province_count))


def unit_text(draw, variant: Variant, m: Map, unit: Unit) -> str:
    """The unit as a player might write it (a stack: some of its units of one type)."""
    if isinstance(unit, Stack):
        types = [t for t in ("A", "F") if unit.of_type(FLEET if t == "F" else unit.type) or
                 (t == "A" and unit.armies)]
        letter = draw(st.sampled_from(types or ["A"]))
        have = unit.fleets if letter == "F" else unit.armies
        count = draw(st.integers(1, max(1, have) + 1))
        loc = unit.loc if letter == "F" else m.province_of(unit.loc)
        return f"{count}{letter} {m.loc_name(loc)}"
    return variant.notation.format_unit(m, unit)


JUNK = ["", "#", "Waive", "H", "A Xyz H", "Build A", "England: A Lon H", "A Par - ", "B A Par",
        "A Par S", "F Nth C A Lon", "?", "Remove"]


def place_text(draw, m: Map, province: int) -> str:
    coasts = m.coast_locations(province)
    if coasts and draw(st.booleans()):
        return m.loc_name(draw(st.sampled_from(coasts)))
    return m.provinces[province].code


@st.composite
def movement_case(draw, name: str) -> tuple[Position, dict[str, list[str]]]:
    position = start(name)
    return position, draw(order_lists(position, movement_line))


@st.composite
def retreat_case(draw, name: str) -> tuple[Position, dict[str, list[str]]]:
    position = start(name)
    m = position.map
    provinces = sorted(position.units)
    chosen = draw(st.lists(st.sampled_from(provinces), min_size=1, max_size=4, unique=True))
    dislodged = []
    for p in chosen:
        attacker = draw(st.sampled_from([None, *neighbours(m, p)]))
        dislodged.append(Dislodged(position.units[p], attacker))
    units = {p: u for p, u in position.units.items() if p not in chosen}
    retreat = position.replace(phase=Phase(1901, "S", "R"), units=units,
                               dislodged=tuple(dislodged), extra={})
    owners = sorted({d.unit.power for d in dislodged} & set(m.power_codes))
    return retreat, draw(order_lists(retreat, retreat_line, owners))


@st.composite
def adjustment_case(draw, name: str) -> tuple[Position, dict[str, list[str]]]:
    position = start(name)
    m = position.map
    provinces = sorted(position.units)
    gone = set(draw(st.lists(st.sampled_from(provinces), max_size=8, unique=True)))
    units = {p: u for p, u in position.units.items() if p not in gone}
    centres = dict(position.centers)
    owned = sorted(centres)
    for p in draw(st.lists(st.sampled_from(owned), max_size=6, unique=True)):
        centres[p] = draw(st.sampled_from(m.power_codes))
    season = draw(st.sampled_from("SW")) if name == "superdiplomacy" else "W"
    winter_ = position.replace(phase=Phase(1901, season, "A"), units=units, centers=centres,
                               extra={})
    return winter_, draw(order_lists(winter_, adjustment_line))


@st.composite
def exchange_case(draw, name: str) -> tuple[Position, dict[str, list[str]]]:
    position = start(name).replace(phase=Phase(1901, "U", "X"))
    return position, draw(order_lists(position, exchange_line))


def order_lists(
    position: Position, line, concerned: list[str] | None = None
) -> st.SearchStrategy[dict[str, list[str]]]:
    """Order lists of a few powers; the ``concerned`` ones (those with units to retreat)
    mostly among them."""
    powers = list(position.map.power_codes)

    @st.composite
    def build(draw) -> dict[str, list[str]]:
        orders = {}
        chosen = draw(st.lists(st.sampled_from(powers), min_size=1, max_size=4, unique=True))
        if concerned and draw(st.integers(0, 3)):
            chosen = list(dict.fromkeys([draw(st.sampled_from(concerned)), *chosen]))
        for power in chosen:
            size = draw(st.integers(0, 7))
            lines = [draw(line(position, power)) for _ in range(size)]
            if lines and draw(st.booleans()):  # the same line again, or another of them
                lines.append(draw(st.sampled_from(lines)))
            orders[power] = lines
        return orders

    return build()


def _own_first(draw, position: Position, power: str, units: list[Unit]) -> Unit | None:
    if not units:
        return None
    own = [u for u in units if u.power == power]
    return draw(st.sampled_from(own if own and draw(st.integers(0, 4)) else units))


@st.composite
def movement_line(draw, position: Position, power: str) -> str:
    m = position.map
    variant = find_variant(position.variant)
    unit = _own_first(draw, position, power, list(position.units.values()))
    if unit is None or draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(JUNK))
    here = m.province_of(unit.loc)
    me = unit_text(draw, variant, m, unit)
    near = neighbours(m, here)
    kind = draw(st.sampled_from(["hold", "move", "move", "far", "support", "convoy", "via"]))
    if kind == "hold":
        return f"{me} H"
    if kind in ("move", "via"):
        tail = " VIA" if kind == "via" else ""
        return f"{me} - {place_text(draw, m, draw(st.sampled_from(near)))}{tail}"
    if kind == "far":
        return f"{me} - {place_text(draw, m, draw(st.integers(0, m.province_count - 1)))}"
    others = [u for p, u in position.units.items() if p in near] or list(position.units.values())
    other = draw(st.sampled_from(others))
    them = unit_text(draw, variant, m, other)
    there = draw(st.sampled_from(neighbours(m, m.province_of(other.loc))))
    if kind == "support":
        if draw(st.booleans()):
            return f"{me} S {them}"
        return f"{me} S {them} - {place_text(draw, m, there)}"
    return f"{me} C {them} - {m.provinces[there].code}"


@st.composite
def retreat_line(draw, position: Position, power: str) -> str:
    m = position.map
    variant = find_variant(position.variant)
    units = [d.unit for d in position.dislodged] + [draw(st.sampled_from(
        list(position.units.values())))]
    unit = _own_first(draw, position, power, units)
    if unit is None or draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(JUNK))
    me = unit_text(draw, variant, m, unit)
    if draw(st.integers(0, 3)) == 0:
        return f"{me} D"
    there = draw(st.sampled_from(neighbours(m, m.province_of(unit.loc))))
    word = draw(st.sampled_from(["R", "-"]))
    return f"{me} {word} {place_text(draw, m, there)}"


@st.composite
def adjustment_line(draw, position: Position, power: str) -> str:
    m = position.map
    variant = find_variant(position.variant)
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(JUNK))
    kind = draw(st.sampled_from(["build", "build", "build", "remove", "waive"]))
    if kind == "waive":
        return "Waive"
    if kind == "remove":
        unit = _own_first(draw, position, power, list(position.units.values()))
        if unit is None:
            return "Waive"
        me = unit_text(draw, variant, m, unit)
        return draw(st.sampled_from([f"{me} D", f"Remove {me}", f"Disband {me}"]))
    homes = list(m.home_centers(power)) or [p.id for p in m.provinces if p.is_supply_center]
    where = draw(st.sampled_from([*homes, draw(st.integers(0, m.province_count - 1))]))
    letter = draw(st.sampled_from("AF"))
    if m.provinces[where].terrain is not Terrain.COAST:
        letter = draw(st.sampled_from("AAF"))
    count = f"{draw(st.integers(1, 3))}" if position.variant.name == "superdiplomacy" else ""
    colour = draw(st.sampled_from(["", "Red ", "Purple "])) if "arpiesse" in position.variant.name \
        else ""
    return f"Build {colour}{count}{letter} {place_text(draw, m, where)}"


@st.composite
def exchange_line(draw, position: Position, power: str) -> str:
    m = position.map
    variant = find_variant(position.variant)
    unit = _own_first(draw, position, power, list(position.units.values()))
    if unit is None or draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(JUNK))
    near = neighbours(m, m.province_of(unit.loc))
    others = [u for p, u in position.units.items() if p in near and u is not unit]
    if not others or draw(st.integers(0, 5)) == 0:  # far away, or itself
        others = list(position.units.values())
    other = draw(st.sampled_from(others))
    return f"{unit_text(draw, variant, m, unit)} X {unit_text(draw, variant, m, other)}"


def assert_checks_agree(
    position: Position, orders: dict[str, list[str]], rules: str, tell=note
) -> None:
    """Each power's lines checked alone, and all checked at once, against adjudication."""
    tell(f"{position.variant} {position.phase.code} {rules}: {orders}")
    # Blank lines and comments are no orders: a game stores and adjudicates the others.
    stored = {power: [text for text in lines if is_order_line(text)]
              for power, lines in orders.items()}
    outcome = adjudicate(position, stored, rules)
    together = check_orders(position, orders, rules)
    for power, lines in orders.items():
        alone = check_orders(position, {power: lines}, rules)[power]
        assert alone == together[power]
        given = stored[power]
        results = outcome.results.get(power, [])[: len(given)]
        assert [r.text for r in results] == given
        for check, result in zip(alone, results, strict=True):
            assert isinstance(check, OrderCheck)
            assert check.text == result.text
            assert check.ok == (not refused(position.phase, result)), (check, result)
            if not check.ok:
                assert check.problem == result.reason


def _rules(name: str, draw) -> str:
    if name in ("standard", "standard-dp", "kriegsplomacy"):
        return draw(st.sampled_from(list(EDITIONS)))
    return find_variant(name).default_rules


@SETTINGS
@given(name=st.sampled_from(VARIANTS), data=st.data())
def test_movement_checks_agree_with_adjudication(name: str, data: st.DataObject) -> None:
    position, orders = data.draw(movement_case(name))
    assert_checks_agree(position, orders, _rules(name, data.draw))


@SETTINGS
@given(name=st.sampled_from(VARIANTS), data=st.data())
def test_retreat_checks_agree_with_adjudication(name: str, data: st.DataObject) -> None:
    position, orders = data.draw(retreat_case(name))
    assert_checks_agree(position, orders, _rules(name, data.draw))


@SETTINGS
@given(name=st.sampled_from(VARIANTS), data=st.data())
def test_adjustment_checks_agree_with_adjudication(name: str, data: st.DataObject) -> None:
    position, orders = data.draw(adjustment_case(name))
    assert_checks_agree(position, orders, _rules(name, data.draw))


@SETTINGS
@given(data=st.data())
def test_exchange_checks_agree_with_adjudication(data: st.DataObject) -> None:
    position, orders = data.draw(exchange_case("arpiesse-exchange"))
    assert_checks_agree(position, orders, "datc")


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_has_an_adjustment_phase_with_refusals(name: str) -> None:
    """The property is not vacuous: each variant's winter refuses some order on the list's
    account (not ``invalid``), and the check reports it."""
    position = start(name)
    m = position.map
    power = next(p for p in m.power_codes if m.home_centers(p))
    mine = [p for p, u in position.units.items() if u.power == power]
    phase = Phase(1901, "W", "A")
    emptied = position.replace(phase=phase, units={p: u for p, u in position.units.items()
                                                   if p not in mine}, extra={})
    home = next(p for p in m.home_centers(power) if emptied.centers.get(p) == power)
    count = "1" if name == "superdiplomacy" else ""
    build = f"Build {count}A {m.provinces[home].code}"
    lines = [build] * 8 + ["Waive"] * 30
    assert_checks_agree(emptied, {power: lines}, find_variant(name).default_rules, print)
    checks = check_orders(emptied, {power: lines})[power]
    results = adjudicate(emptied, {power: lines}).results[power]
    assert any(not c.ok and r.result != INVALID for c, r in zip(checks, results, strict=False))


def test_a_comment_at_the_end_of_a_line_is_checked_as_the_judge_reads_it() -> None:
    # The judge cuts a trailing "#" comment off before reading the order: the check agrees,
    # and still shows the line as written.
    from calhamer.game import Game, check_orders

    game = Game.new()
    lines = ["F Lon - Nth  # to the north", "# a whole-line comment", "A Lvp - Yor"]
    checks = check_orders(game.current, {"ENGLAND": lines})["ENGLAND"]
    assert [(c.line, c.text, c.canonical, c.problem) for c in checks] == [
        (1, "F Lon - Nth  # to the north", "F LON - NTH", None),
        (3, "A Lvp - Yor", "A LVP - YOR", None),
    ]
    game.set_orders("ENGLAND", lines)
    outcome = game.process()
    assert [r.result for r in outcome.results["ENGLAND"][:2]] == ["succeeds", "succeeds"]
