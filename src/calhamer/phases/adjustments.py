"""The winter adjustment phase: builds, removals, waives and the civil-disorder rule."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from calhamer.map import ARMY, FLEET, Location, Map, Terrain, UnitType
from calhamer.orders import AnyOrder, Build, Disband, Waive
from calhamer.pieces import Phase, Unit
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.rules import DisorderDistance, Rules
from calhamer.validation import Illegal
from calhamer.views import carry_forward

if TYPE_CHECKING:
    from calhamer.position import Position

from calhamer.phases.flow import advance, buildable_centres, editable
from calhamer.phases.intake import (
    ORDER,
    POWER,
    REASON,
    VERDICT,
    OrdersIn,
    PhaseReading,
    keeps_standard,
    plain_unit,
)
from calhamer.phases.sites import build_sites

_BUILD_ORDERS: Final = (Build, Waive)


def adjudicate_adjustments(position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
    reading = PhaseReading(position, orders)
    variant = reading.variant
    if not keeps_standard(variant, "unit_orders"):  # the standard game adds none
        for power, items in variant.unit_orders(position, {}, rules).items():
            reading.add(power, items)  # units no player commands (a DP variant's minor powers)
    winter = _Winter(position, rules)
    for entry in reading.entries:
        order = entry[ORDER]
        if order is None:
            continue  # unreadable: invalid already
        if type(order) is Build or type(order) is Waive or isinstance(order, _BUILD_ORDERS):
            winter.build(entry, order)
        elif isinstance(order, Disband):
            winter.remove(entry, order)
        else:
            entry[VERDICT] = INVALID
            entry[REASON] = "only builds, removals and waives are given in winter"
    units = winter.units
    if variant.missing_builds == "army-first-winter" and _first_winter(position):
        _unused_builds_as_armies(position, reading, units, winter.built, rules)
    if min(winter.counted.values(), default=0) < 0:  # someone must remove
        winter.remove_in_disorder(reading)
    after = position.replace(units=MappingProxyType(units))
    nxt = advance(after, rules)
    after, nxt = carry_forward(position, None, after, nxt)
    # The texts are written when the results are first read (a bot may never read them).
    # Given by position, not by keyword: cheaper to call, and this runs every phase.
    return PhaseOutcome(position, reading.results, after, nxt, (), None, winter.removed)


class _Winter:
    """The units of an adjustment phase as its orders are carried out, and what each power
    has built and removed so far."""

    def __init__(self, position: Position, rules: Rules) -> None:
        self.position = position
        self.rules = rules
        self.counted = position.counted_adjustments()  # looked up only: no copy of the count
        # A build makes a plain unit shared with every other of its place, unless the
        # variant makes its own (Arpiesse's colours).
        self.own_units = not keeps_standard(position.variant, "built_unit")
        self.units = editable(position.units)
        self.built: dict[str, int] = {}
        self.removed_by: dict[str, int] = {}
        self.removed: list[int] = []

    def build(self, entry: list[Any], order: AnyOrder) -> None:
        """Carry out a build or a waive (``entry`` its reading's entry)."""
        power = entry[POWER]
        allowance = self.counted.get(power, 0)
        if allowance <= 0:
            entry[VERDICT], entry[REASON] = INVALID, f"{power} has no builds this winter"
            return
        if self.built.get(power, 0) >= allowance:
            entry[VERDICT] = FAILS
            entry[REASON] = f"{power} may build only {allowance} this winter"
            return
        if isinstance(order, Build):
            if not self._place(entry, order):
                return
            entry[REASON] = "built"
        else:
            entry[REASON] = "build waived"
        self.built[power] = self.built.get(power, 0) + 1

    def _place(self, entry: list[Any], order: Build) -> bool:
        """Place the unit a legal build makes (False, the entry marked, if not legal)."""
        position, power = self.position, entry[POWER]
        try:
            unit_type, loc = _checked_build(position, power, order, self.units, self.rules)
        except _AlreadyBuilt as taken:
            entry[VERDICT], entry[REASON] = FAILS, str(taken)
            return False
        except Illegal as exc:
            entry[VERDICT], entry[REASON] = INVALID, str(exc)
            return False
        new_unit = (position.variant.built_unit(power, order, unit_type, loc) if self.own_units
                    else plain_unit(power, unit_type, loc))
        self.units[position.map.loc_province[new_unit.loc]] = new_unit
        if order.unit_type is not new_unit.type or order.loc != new_unit.loc:
            # The build as it stands (a coast or unit type settled); written out only when
            # something changed, since this runs for every build.
            entry[ORDER] = replace(order, unit_type=new_unit.type, loc=new_unit.loc)
        return True

    def remove(self, entry: list[Any], order: Disband) -> None:
        """Carry out a removal (``entry`` its reading's entry)."""
        m, power = self.position.map, entry[POWER]
        allowance = self.counted.get(power, 0)
        province = m.loc_province[order.loc]
        unit = self.position.units.get(province)
        if allowance >= 0:
            entry[VERDICT] = INVALID
            entry[REASON] = f"{power} has no units to remove this winter"
        elif unit is None or unit.power != power:
            entry[VERDICT] = INVALID
            entry[REASON] = f"{power} has no unit in {m.describe(province)}"
        elif province not in self.units:
            entry[VERDICT], entry[REASON] = FAILS, "this unit is already removed"
        elif self.removed_by.get(power, 0) >= -allowance:
            entry[VERDICT] = FAILS
            entry[REASON] = f"{power} must remove only {-allowance} this winter"
        else:
            del self.units[province]
            self.removed.append(province)
            self.removed_by[power] = self.removed_by.get(power, 0) + 1
            if (type(order) is not Disband or order.unit_type is not unit.type
                    or order.loc != unit.loc):
                entry[ORDER] = Disband(unit.type, unit.loc)  # the unit as it stands
            entry[REASON] = "removed"

    def remove_in_disorder(self, reading: PhaseReading) -> None:
        """The removals a power did not order, chosen by the civil-disorder rule; in the
        order of adjustments(): the powers' own, then any other."""
        position = self.position
        for power, amount in position.adjustments().items():
            missing = -amount - self.removed_by.get(power, 0)
            if amount >= 0 or missing <= 0:
                continue
            for province in civil_disorder_removals(
                    position, power, self.units, missing, self.rules):
                unit = self.units.pop(province)
                self.removed.append(province)
                reading.add_result(
                    power, Disband(unit.type, unit.loc), SUCCEEDS,
                    "removed by the civil-disorder rule (too few removals ordered)")


def _first_winter(position: Position) -> bool:
    """Whether this is the game's first winter: the adjustment phase of its first year."""
    return position.phase.year == Phase.parse(position.map.start_phase).year


def _unused_builds_as_armies(position: Position, reading: PhaseReading, units: dict[int, Unit],
                             built: Mapping[str, int], rules: Rules) -> None:
    """``missing_builds = "army-first-winter"`` (Chaos): every build a power is owed and did
    not use, by a build or a waive, becomes an army in one of its free build sites, in the
    order of the sites' codes."""
    m = position.map
    variant = position.variant
    own_units = not keeps_standard(variant, "built_unit")
    counted = position.counted_adjustments()
    for power in m.power_codes:
        owed = counted.get(power, 0) - built.get(power, 0)
        sites = sorted(buildable_centres(position, power, rules), key=m.code_rank.__getitem__)
        for province in sites:
            if owed <= 0:
                break
            if province in units or m.provinces[province].terrain is Terrain.SEA:
                continue
            order = Build(ARMY, province)
            unit = (variant.built_unit(power, order, ARMY, province) if own_units
                    else plain_unit(power, ARMY, province))
            units[province] = unit
            reading.add_result(power, order, SUCCEEDS,
                               "built by default: an army in a build site left unused")
            owed -= 1


class _AlreadyBuilt(Illegal):
    """A legal build that another build this winter has already used up."""


def _checked_build(
    position: Position, power: str, order: Build, units: Mapping[int, Unit], rules: Rules
) -> tuple[UnitType, Location]:
    """The unit type and location of a legal build (a coast settled); raises Illegal."""
    m = position.map
    province_id = m.loc_province[order.loc]
    province = m.provinces[province_id]
    if not province.is_supply_center or position.centers.get(province_id) != power:
        raise Illegal(f"{power} does not own a supply centre in {m.describe(province_id)}")
    not_a_site = build_sites(position, rules).problem(power, province_id)
    if not_a_site is not None:  # the variant's build sites (home centres by default)
        raise Illegal(not_a_site)
    if province_id in position.units:
        # Occupied as the winter began: a removal this winter does not free it for a build.
        raise Illegal(f"{m.describe(province_id)} is occupied")
    if province_id in units:
        raise _AlreadyBuilt(f"a unit was already built in {m.describe(province_id)}")
    unit_type = order.unit_type
    if unit_type is None:
        raise Illegal("say whether to build an army (A) or a fleet (F)")
    loc = order.loc
    if unit_type is FLEET:
        if province.terrain is not Terrain.COAST:
            raise Illegal(f"a fleet cannot be built in {m.describe(province_id)}")
        if province.coasts and m.loc_coast[loc] is None:
            coasts = " or ".join(m.loc_name(c) for c in m.coast_locations(province_id))
            raise Illegal(f"say which coast the fleet is built on: {coasts}")
        if not province.coasts:
            loc = province_id
    else:
        loc = province_id
    return unit_type, loc


def civil_disorder_removals(
    position: Position, power: str, units: dict[int, Unit], count: int, rules: Rules
) -> list[int]:
    """Which units a power that ordered too few removals loses (DATC 4.D.8, by edition).

    The units farthest from the power's centres go first; at equal distance fleets before
    armies, then by the province's English name (by its code under ``home-distance``).
    """
    m = position.map
    if rules.civil_disorder is DisorderDistance.HOME_DISTANCE:
        return _home_distance_removals(m, power, units, count)
    owned = position.centers_of(power)
    if rules.civil_disorder is DisorderDistance.HOME_CENTRE_BY_TYPE:
        # Before 2023 distance was counted to the home centres, owned or not.
        owned = list(m.home_centers(power)) or owned
    mine = [(p, u) for p, u in units.items() if u.power == power]

    def distance(province: int, unit: Unit) -> int:
        fleet_only = (
            rules.civil_disorder is DisorderDistance.HOME_CENTRE_BY_TYPE and unit.type is FLEET
        )
        return _distance(m, unit.loc if fleet_only else province, set(owned), fleet_only)

    ranked = sorted(
        mine,
        key=lambda pu: (-distance(*pu), pu[1].type is not FLEET, m.provinces[pu[0]].name),
    )
    return [p for p, _ in ranked[:count]]


def _home_distance_removals(m: Map, power: str, units: dict[int, Unit], count: int
                           ) -> list[int]:
    """The ``home-distance`` rule, as godip and vDiplomacy remove units: the farthest from
    the power's home centres (owned or not) by :func:`home_distance`, whatever the unit's
    type; at equal distance fleets first, then by province code, compared in lower case
    character by character (as godip compares its lower-case province ids)."""
    homes = set(m.home_centers(power))
    provinces = m.provinces
    ranked = sorted(
        ((p, u) for p, u in units.items() if u.power == power),
        key=lambda pu: (-home_distance(m, pu[0], homes), pu[1].type is not FLEET,
                        provinces[pu[0]].code.lower()),
    )
    return [p for p, _ in ranked[:count]]


def home_distance(m: Map, province: int, homes: set[int]) -> int:
    """The ``home-distance`` rule's distance from ``province`` to the nearest of ``homes``:
    the fewest edges on a path over the board's graph as godip keeps it, whatever the edges'
    unit type. Its nodes are the locations (a split province's land and each of its coasts
    apart); an army edge joins two provinces' land, a fleet edge two locations, and the map's
    ``[distance]`` edges (which no unit moves by) count too; every edge one way, as the map
    gives it. A path starts at any location of ``province`` and ends at any of a home
    centre's. 0 in a home centre, and 0 where no home centre can be reached (godip finds no
    path and counts none)."""
    if province in homes:
        return 0
    loc_province = m.loc_province
    extra: dict[int, list[int]] = {}
    for a, b in m.distance_edges:
        extra.setdefault(a, []).append(b)
    provinces = len(m.provinces)
    starts = [loc for loc, p in enumerate(loc_province) if p == province]
    seen = set(starts)
    queue = deque((loc, 0) for loc in starts)
    while queue:
        loc, d = queue.popleft()
        near = m.fleet_adjacent[loc]
        if loc < provinces:
            near = near | m.army_adjacent[loc]
        for nxt in (*near, *extra.get(loc, ())):
            if loc_province[nxt] in homes:
                return d + 1
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, d + 1))
    return 0


def _distance(m: Map, start: int, targets: set[int], fleet_only: bool) -> int:
    if fleet_only:
        seen_locs = {start}
        frontier = deque([(start, 0)])
        while frontier:
            loc, d = frontier.popleft()
            if m.province_of(loc) in targets:
                return d
            for nxt in m.fleet_adjacent[loc]:
                if nxt not in seen_locs:
                    seen_locs.add(nxt)
                    frontier.append((nxt, d + 1))
        return 10_000
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        p, d = queue.popleft()
        if p in targets:
            return d
        for nxt in m.army_adjacent[p] | m.province_fleet_adjacent[p]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, d + 1))
    return 10_000
