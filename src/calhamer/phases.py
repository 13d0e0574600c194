"""Movement, retreats and adjustments, and how one phase leads to the next.

``adjudicate(position, orders)`` is the single entry point: it reads the phase from the
position and returns a :class:`~calhamer.results.PhaseOutcome`. Orders may be text (parsed
here, errors kept as ``invalid`` results, never raised) or :class:`~calhamer.orders.Order`
values.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from calhamer.adjudicator import (
    CONVOY,
    EMPTY,
    MOVE,
    SUPPORT,
    MovementResolver,
    OrderTable,
    fleets_on_some_route,
    resolve_movement,
)
from calhamer.errors import OrderError
from calhamer.map import ARMY, FLEET, Map, ProvinceId, Terrain
from calhamer.orders import AnyOrder, Build, Disband, Hold, Order, Retreat, Waive
from calhamer.pieces import Dislodged, Phase, Unit
from calhamer.results import FAILS, INVALID, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import DisorderDistance, ParadoxRule, Rules, find_rules
from calhamer.validation import Illegal, fleet_destination

if TYPE_CHECKING:
    from calhamer.position import Position

OrdersIn = Mapping[str, Iterable[str | AnyOrder]]


def adjudicate(
    position: Position,
    orders: OrdersIn,
    rules: Rules | str | None = None,
    *,
    resolver_class: type[MovementResolver] = MovementResolver,
) -> PhaseOutcome:
    """Adjudicate the phase ``position`` is in, with ``orders`` by power."""
    variant = position.variant
    rules = variant.phase_rules(find_rules(rules))
    own = variant.adjudicate(position, orders, rules)  # a variant's own way (Superdiplomacy)
    if own is not None:
        outcome = own
    elif position.phase.is_movement:
        if resolver_class is MovementResolver:
            resolver_class = variant.resolver_class
        outcome = adjudicate_movement(position, orders, rules, resolver_class=resolver_class)
    elif position.phase.is_retreat:
        outcome = adjudicate_retreats(position, orders, rules)
    elif position.phase.is_adjustment:
        outcome = adjudicate_adjustments(position, orders, rules)
    else:
        outcome = variant.adjudicate_phase(position, orders, rules)
    return variant.finish_outcome(outcome, rules)


# -- reading orders -------------------------------------------------------------------------


class _Intake:
    """Parses each power's orders, keeping every one (good or bad) in the order given."""

    def __init__(self, position: Position, orders: OrdersIn) -> None:
        self.position = position
        self.results: dict[str, list[OrderResult]] = {}
        self.accepted: list[tuple[OrderResult, AnyOrder]] = []
        self.given_as_order: list[tuple[OrderResult, AnyOrder]] = []
        self.variant = position.variant
        self.check = self.variant.check_movement_order  # looked up once: it runs per order
        for raw_power, items in orders.items():
            self.add(raw_power, items)

    def add(
        self, raw_power: str, items: Iterable[str | AnyOrder]
    ) -> list[tuple[OrderResult, AnyOrder]]:
        """Read ``items`` as orders of ``raw_power``; return the ones understood."""
        position, variant = self.position, self.variant
        m = position.map
        power = m.find_power(raw_power) or raw_power.upper()
        bucket = self.results.setdefault(power, [])
        added: list[tuple[OrderResult, AnyOrder]] = []
        given_as_order = self.given_as_order
        for item in items:
            if not isinstance(item, str):
                # An order value: its text is written out only if the results are read.
                result = OrderResult(power, "", "", SUCCEEDS, "", item)
                pair = (result, item)
                given_as_order.append(pair)
                bucket.append(result)
                added.append(pair)
                continue
            try:
                parsed = variant.parse_order(
                    m, item, phase_kind=position.phase.kind, position=position, power=power
                )
            except OrderError as exc:
                bucket.append(OrderResult(power, item, "", INVALID, str(exc)))
                continue
            if parsed.power is not None and parsed.power != power:
                reason = f"{power} cannot order for {parsed.power}"
                bucket.append(OrderResult(power, item, "", INVALID, reason))
                continue
            order = parsed.order
            result = OrderResult(power, item, "", SUCCEEDS, "", order)
            bucket.append(result)
            added.append((result, order))
        self.accepted += added
        return added

    def finish(self) -> dict[str, list[OrderResult]]:
        """The results, with texts and canonical forms written out only now."""
        write = self.write
        for result, given in self.given_as_order:
            result.text = write(given)
        for results in self.results.values():
            for result in results:
                if not result.canonical and result.order is not None:
                    result.canonical = write(result.order)
        return self.results

    def illegal(self, result: OrderResult, reason: str) -> None:
        result.result = INVALID
        result.reason = reason

    def write(self, order: AnyOrder) -> str:
        """The canonical text of an order given in this phase (the variant may add to it)."""
        return self.variant.format_order(self.position, order)


# -- movement ---------------------------------------------------------------------------------


def _checked_movement_order(intake: _Intake, result: OrderResult, order: AnyOrder) -> Order | None:
    """The order as the resolver will see it, or None (and the result marked invalid)."""
    if not isinstance(order, Order):
        intake.illegal(result, "only hold, move, support and convoy orders are given now")
        return None
    try:
        checked = intake.check(intake.position, result.power, order)
    except Illegal as exc:
        intake.illegal(result, str(exc))
        return None
    result.order = checked
    return checked


def adjudicate_movement(
    position: Position,
    orders: OrdersIn,
    rules: Rules,
    *,
    resolver_class: type[MovementResolver] = MovementResolver,
) -> PhaseOutcome:
    intake = _Intake(position, orders)
    loc_province = position.map.loc_province
    by_province: dict[int, list[OrderResult]] = {}
    legal: dict[int, Order] = {}
    clashes: set[int] = set()
    for result, order in intake.accepted:
        checked = _checked_movement_order(intake, result, order)
        if checked is None:
            continue
        province = loc_province[checked.loc]
        earlier = legal.get(province)
        if earlier is None:
            legal[province] = checked
            by_province[province] = [result]
        else:
            by_province[province].append(result)
            if earlier != checked:
                clashes.add(province)
    for province in clashes:
        # DATC 4.D.3: a unit given different orders holds (and may be supported to hold).
        del legal[province]
        for result in by_province[province]:
            intake.illegal(result, "the unit was given more than one order, so it holds")

    # Units no player commands (a DP variant's neutrals): the variant says where their orders
    # come from, and those orders replace any given for the same unit.
    for power, items in intake.variant.unit_orders(position, legal, rules).items():
        for result, order in intake.add(power, items):
            checked = _checked_movement_order(intake, result, order)
            if checked is None:
                continue
            province = loc_province[checked.loc]
            for prior in by_province.get(province, ()):
                if prior.result != INVALID:
                    intake.illegal(prior, "this unit's order is not given by players")
            legal[province] = checked
            by_province[province] = [result]

    table = OrderTable(position, legal, rules)
    resolver = resolve_movement(table, resolver_class)
    return _movement_outcome(position, intake, by_province, table, resolver, rules)


def _movement_outcome(
    position: Position,
    intake: _Intake,
    by_province: dict[int, list[OrderResult]],
    table: OrderTable,
    resolver: MovementResolver,
    rules: Rules,
) -> PhaseOutcome:
    m = position.map
    kind, dest = table.kind, table.dest
    success = resolver.resolution
    moved = {p: dest[p] for p in table.movers if kind[p] == MOVE and success[p]}
    dislodger = {dest[p]: p for p in moved}
    dislodged_at = {
        q: a for q, a in dislodger.items() if kind[q] != EMPTY and q not in moved
    }

    def word_results() -> dict[str, list[OrderResult]]:
        explain = _Explainer(position, table, resolver, dislodged_at)
        for province, entries in by_province.items():
            for result in entries:
                if result.result != INVALID:
                    result.result, result.reason = explain.result(province)
        for province, unit in position.units.items():
            if province not in by_province:
                verdict, reason = explain.result(province)
                canonical = intake.write(Hold(unit.type, unit.loc))
                reason = f"{reason} (no valid order given)"
                intake.results.setdefault(unit.power, []).append(
                    OrderResult(unit.power, "", canonical, verdict, reason)
                )
        return intake.finish()

    new_units: dict[ProvinceId, Unit] = {}
    dislodged: list[Dislodged] = []
    destroyed: list[int] = []
    for province, unit in position.units.items():
        if province in dislodged_at:
            if not intake.variant.may_retreat(position, unit):
                destroyed.append(province)  # a unit that cannot retreat is destroyed at once
                continue
            attacker = dislodged_at[province]
            blocked: int | None = attacker
            if resolver.convoyed[attacker] and rules.retreat_to_convoying_attacker_origin:
                blocked = None  # DATC 4.A.5: the army never crossed that border
            dislodged.append(Dislodged(unit, blocked))
        elif province in moved:
            new_loc = table.exact[province]
            new_units[m.loc_province[new_loc]] = _moved_unit(unit, new_loc)
        else:
            new_units[province] = unit
    targets = {dest[p] for p in table.movers if kind[p] == MOVE}
    contested = frozenset(
        q for q in targets
        if q not in dislodger and q not in new_units and resolver.standoff(q)
    )
    phase = position.phase
    if dislodged:
        phase = Phase(phase.year, phase.season, "R")
    after = position.replace(
        phase=phase, units=new_units, dislodged=tuple(dislodged), contested=contested,
        extra=intake.variant.extra_after_phase(position),
    )
    nxt = after if _retreat_needed(after) else _advance(after, rules)
    return PhaseOutcome(
        before=position,
        results=word_results,
        after=after,
        next=nxt,
        dislodged=tuple(dislodged),
        moved={p: table.exact[p] for p in moved},
        removed=destroyed,
        detail={"resolver": resolver},
    )


def _moved_unit(unit: Unit, loc: int) -> Unit:
    if type(unit) is Unit:
        return Unit(unit.power, unit.type, loc)
    return replace(unit, loc=loc)  # a variant's unit keeps its extra fields


class _Explainer:
    """Turns resolved decisions into each order's result and a reason with strengths."""

    def __init__(self, position, table, resolver, dislodged_at) -> None:
        self.position = position
        self.m: Map = position.map
        self.t: OrderTable = table
        self.r: MovementResolver = resolver
        self.dislodged_at: dict[int, int] = dislodged_at
        self.variant = position.variant

    def unit_name(self, p: int) -> str:
        return self.variant.format_unit(self.m, self.position.units[p])

    def result(self, p: int) -> tuple[str, str]:
        t, r = self.t, self.r
        if p in t.void:
            return FAILS, f"void: {t.void[p]}"
        kind = t.kind[p]
        if kind == MOVE:
            return self._move(p)
        dislodged = self._dislodged_reason(p)
        if kind == SUPPORT:
            if r.resolution[p]:
                return SUCCEEDS, "support given"
            if dislodged:
                return FAILS, f"support cut: {dislodged}"
            # Sorted: the order the moves were given in must not change the wording.
            cutters = sorted(self.unit_name(m) for m in t.movers_to[p] if r.cuts_support(m, p))
            return FAILS, f"support cut by {', '.join(cutters)}" if cutters else "support cut"
        if kind == CONVOY:
            return self._convoy(p, dislodged)
        if dislodged:
            return FAILS, dislodged
        return SUCCEEDS, "holds"

    def _convoy(self, p: int, dislodged: str) -> tuple[str, str]:
        r = self.r
        army = self.t.src[p]
        if army in self.t.by_land:  # 1971 intent: a disrupted swap convoy is not taken
            because = f": {dislodged}" if dislodged else ""
            return FAILS, f"convoy disrupted{because}, so the army went by land"
        if not r.convoyed[army]:
            return FAILS, "the army went by land, not by this convoy"
        if r.rules.paradox is ParadoxRule.ALEXANDER and army in r.fixed_path:
            # IV.5.g: the convoy stands or falls as judged without its own army.
            if r.fixed_path[army] and self._on_route(p, army, alexander=True):
                return SUCCEEDS, "convoys (rule IV.5.g)"
            return FAILS, "convoy disrupted (judged as if its army had no effect)"
        if dislodged:
            return FAILS, f"convoy disrupted: {dislodged}"
        if not r.resolution[p]:
            return FAILS, "convoy disrupted by a paradox: the fleet holds (Szykman rule)"
        if not r.path(army):
            return FAILS, "convoy disrupted: the route is broken elsewhere"
        if not self._on_route(p, army):
            return FAILS, "the army's route does not use this fleet"
        return SUCCEEDS, "convoys"

    def _on_route(self, fleet: int, army: int, alexander: bool = False) -> bool:
        """Whether ``fleet`` lies on an unbroken route of ``army`` (so its convoy is used)."""
        t, r = self.t, self.r
        if alexander:
            world = r.worlds.get(r.neutral | {army}, r)
            usable = [f for f in t.convoy_fleets[army] if world.resolve(f)]
        else:
            usable = [f for f in t.convoy_fleets[army] if r.resolution[f]]
        return fleet in usable and fleet in fleets_on_some_route(t, army, usable)

    def _dislodged_reason(self, p: int) -> str:
        a = self.dislodged_at.get(p)
        if a is None:
            return ""
        attack = self.r.attack_strength(a)
        opp = self.r.opponent[a]
        defence = self.r.defend_strength(opp) if opp != -1 else self.r.hold_strength(p)
        return f"dislodged by {self.unit_name(a)} ({self.r.versus(attack, defence)})"

    def _move(self, p: int) -> tuple[str, str]:
        t, r = self.t, self.r
        q = t.dest[p]
        target = self.m.provinces[q].code
        if r.resolution[p]:
            if p in self.dislodged_at:
                return SUCCEEDS, f"moves; {self._dislodged_reason(p)}"
            return SUCCEEDS, "moves"
        suffix = f"; {self._dislodged_reason(p)}" if p in self.dislodged_at else ""
        if p in r.neutral:
            return FAILS, "has no effect"
        if not r.path(p):
            return FAILS, f"no convoy route to {target}{suffix}"
        attack = r.attack_strength(p)
        opp = r.opponent[p]
        if attack == 0 and t.kind[q] != EMPTY and t.owner[q] == t.owner[p]:
            return FAILS, f"cannot dislodge its own power's {self.unit_name(q)}{suffix}"
        if opp != -1:
            defence = r.defend_strength(opp)
            if not r.move_beats(attack, defence):
                vs = r.versus(attack, defence)
                return FAILS, f"bounced {vs} with {self.unit_name(opp)}{suffix}"
        else:
            hold = r.hold_strength(q)
            if not r.move_beats(attack, hold):
                vs = r.versus(attack, hold)
                return FAILS, f"bounced {vs} against {self.unit_name(q)}{suffix}"
        for other in t.movers_to[q]:
            if other != p:
                prevent = r.prevent_strength(other)
                if not r.move_beats(attack, prevent):
                    vs = r.versus(attack, prevent)
                    return FAILS, f"bounced {vs} with {self.unit_name(other)}{suffix}"
        return FAILS, f"{r.move_failure_reason(p)}{suffix}"


# -- retreats ---------------------------------------------------------------------------------


def retreat_options(position: Position, entry: Dislodged) -> list[int]:
    """Every location the dislodged unit may retreat to."""
    m = position.map
    unit = entry.unit
    blocked = set(position.units) | set(position.contested)
    if entry.attacker_from is not None:
        blocked.add(entry.attacker_from)
    if unit.type is ARMY:
        return [q for q in sorted(m.army_adjacent[m.province_of(unit.loc)]) if q not in blocked]
    return [d for d in sorted(m.fleet_adjacent[unit.loc]) if m.province_of(d) not in blocked]


def _retreat_needed(position: Position) -> bool:
    return bool(position.dislodged)


def adjudicate_retreats(position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
    m = position.map
    intake = _Intake(position, orders)
    by_unit = {m.province_of(d.unit.loc): d for d in position.dislodged}
    chosen: dict[int, tuple[OrderResult, Retreat | Disband]] = {}
    for result, order in intake.accepted:
        if not isinstance(order, Retreat | Disband):
            intake.illegal(result, "only retreat and disband orders are given in a retreat phase")
            continue
        province = m.province_of(order.loc)
        entry = by_unit.get(province)
        if entry is None or entry.unit.power != result.power:
            why = intake.variant.no_unit_message(position, result.power, province, dislodged=True)
            intake.illegal(result, why)
            continue
        if isinstance(order, Retreat):
            checked = _checked_retreat(position, entry, order, intake, result)
            if checked is None:
                continue
            order = checked
        if province in chosen:
            intake.illegal(result, "this unit already has a retreat order")
            continue
        result.order = order
        chosen[province] = (result, order)

    targets: dict[int, list[int]] = {}
    for province, (result, order) in chosen.items():
        if isinstance(order, Retreat) and result.result != FAILS:  # not a blocked retreat
            targets.setdefault(m.province_of(order.dest), []).append(province)
    units = dict(position.units)
    removed: list[int] = []
    for province, entry in by_unit.items():
        if province not in chosen:
            removed.append(province)
            canonical = intake.write(Disband(entry.unit.type, entry.unit.loc))
            reason = "no retreat ordered, so the unit is disbanded"
            intake.results.setdefault(entry.unit.power, []).append(
                OrderResult(entry.unit.power, "", canonical, SUCCEEDS, reason)
            )
            continue
        result, order = chosen[province]
        if isinstance(order, Disband):
            removed.append(province)
            result.result, result.reason = SUCCEEDS, "disbanded"
            continue
        if result.result == FAILS:  # a retreat to a place it may not go (the variant allows it)
            removed.append(province)
            continue
        rivals = targets[m.province_of(order.dest)]
        if len(rivals) > 1:
            # Several retreats to one place: all fail, unless the variant picks a winner.
            name = intake.variant.format_unit
            others = [name(m, by_unit[r].unit) for r in rivals if r != province]
            winner = intake.variant.retreat_clash_winner([by_unit[r].unit for r in rivals])
            if winner is not None and rivals[winner] == province:
                units[m.province_of(order.dest)] = _moved_unit(entry.unit, order.dest)
                result.result = SUCCEEDS
                result.reason = f"retreats; prevails over {', '.join(others)}"
                continue
            removed.append(province)
            result.result = FAILS
            if winner is not None:
                best = name(m, by_unit[rivals[winner]].unit)
                result.reason = f"{best} prevails there; the unit is disbanded"
            else:
                result.reason = f"bounced with {', '.join(others)}; the unit is disbanded"
        else:
            units[m.province_of(order.dest)] = _moved_unit(entry.unit, order.dest)
            result.result, result.reason = SUCCEEDS, "retreats"
    after = position.replace(units=units, dislodged=(), contested=frozenset())
    return PhaseOutcome(position, intake.finish(), after, _advance(after, rules), removed=removed)


def _checked_retreat(position, entry, order, intake, result) -> Retreat | None:
    m = position.map
    unit = entry.unit
    dest = order.dest
    if unit.type is FLEET:
        try:
            dest = fleet_destination(m, unit.loc, dest)
        except Illegal as exc:
            intake.illegal(result, str(exc))
            return None
    else:
        dest = m.province_of(dest)
    options = retreat_options(position, entry)
    if dest not in options:
        target = m.province_of(dest)
        if (unit.type is ARMY and target not in m.army_adjacent[m.province_of(unit.loc)]) or (
            unit.type is FLEET and dest not in m.fleet_adjacent[unit.loc]
        ):
            why = "it is not next to the unit"
        elif target in position.units:
            why = "it is occupied"
        elif target == entry.attacker_from:
            why = "the attacker came from there"
        elif target in position.contested:
            why = "it was left empty by a standoff"
        else:
            why = "the unit cannot go there"
        reason = f"cannot retreat to {m.describe(target)}: {why}"
        if why != "it is not next to the unit" and intake.variant.blocked_retreat_fails:
            # Players who cannot see the board may order it; it fails and the unit is lost.
            result.result, result.reason = FAILS, f"{reason}; the unit is disbanded"
            return Retreat(unit.type, unit.loc, dest)
        intake.illegal(result, reason)
        return None
    return Retreat(unit.type, unit.loc, dest)


# -- adjustments ------------------------------------------------------------------------------


def adjudicate_adjustments(position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
    m = position.map
    intake = _Intake(position, orders)
    for power, items in intake.variant.unit_orders(position, {}, rules).items():
        intake.add(power, items)  # units no player commands (a DP variant's minor powers)
    due = position.adjustments()
    units = dict(position.units)
    built: dict[str, int] = {}
    removed_by: dict[str, int] = {}
    removed: list[int] = []
    for result, order in intake.accepted:
        power = result.power
        allowance = due.get(power, 0)
        if isinstance(order, Build | Waive):
            if allowance <= 0:
                intake.illegal(result, f"{power} has no builds this winter")
                continue
            if built.get(power, 0) >= allowance:
                result.result = FAILS
                result.reason = f"{power} may build only {allowance} this winter"
                continue
            if isinstance(order, Build):
                try:
                    new_unit = _checked_build(position, power, order, units, rules)
                except _AlreadyBuilt as exc:
                    result.result, result.reason = FAILS, str(exc)
                    continue
                except Illegal as exc:
                    intake.illegal(result, str(exc))
                    continue
                units[m.province_of(new_unit.loc)] = new_unit
                result.order = replace(order, unit_type=new_unit.type, loc=new_unit.loc)
                result.reason = "built"
            else:
                result.reason = "build waived"
            built[power] = built.get(power, 0) + 1
        elif isinstance(order, Disband):
            province = m.province_of(order.loc)
            unit = position.units.get(province)
            if allowance >= 0:
                intake.illegal(result, f"{power} has no units to remove this winter")
                continue
            if unit is None or unit.power != power:
                intake.illegal(result, f"{power} has no unit in {m.describe(province)}")
                continue
            if province not in units:
                result.result, result.reason = FAILS, "this unit is already removed"
                continue
            if removed_by.get(power, 0) >= -allowance:
                result.result = FAILS
                result.reason = f"{power} must remove only {-allowance} this winter"
                continue
            del units[province]
            removed.append(province)
            removed_by[power] = removed_by.get(power, 0) + 1
            result.order = Disband(unit.type, unit.loc)
            result.reason = "removed"
        else:
            intake.illegal(result, "only builds, removals and waives are given in winter")

    for power, amount in due.items():
        missing = -amount - removed_by.get(power, 0)
        if amount < 0 and missing > 0:
            for province in civil_disorder_removals(position, power, units, missing, rules):
                unit = units.pop(province)
                removed.append(province)
                intake.results.setdefault(power, []).append(
                    OrderResult(power, "", intake.write(Disband(unit.type, unit.loc)), SUCCEEDS,
                                "removed by the civil-disorder rule (too few removals ordered)")
                )
    after = position.replace(units=units)
    return PhaseOutcome(position, intake.finish(), after, _advance(after, rules), removed=removed)


class _AlreadyBuilt(Illegal):
    """A legal build that another build this winter has already used up."""


def _checked_build(position: Position, power: str, order: Build, units, rules: Rules) -> Unit:
    m = position.map
    province_id = m.province_of(order.loc)
    province = m.provinces[province_id]
    if not province.is_supply_center or position.centers.get(province_id) != power:
        raise Illegal(f"{power} does not own a supply centre in {m.describe(province_id)}")
    if rules.builds_in_home_centres_only and province.home != power:
        raise Illegal(f"{m.describe(province_id)} is not one of {power}'s home centres")
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
    return position.variant.built_unit(power, order, unit_type, loc)


def civil_disorder_removals(
    position: Position, power: str, units: dict[int, Unit], count: int, rules: Rules
) -> list[int]:
    """Which units a power that ordered too few removals loses (DATC 4.D.8, by edition).

    The units farthest from the power's centres go first; at equal distance fleets before
    armies, then by the province's English name.
    """
    m = position.map
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


# -- phase flow ---------------------------------------------------------------------------


def update_centers(position: Position) -> dict[int, str]:
    """Supply-centre owners after Fall: a unit standing on a centre takes it."""
    m = position.map
    centers = dict(position.centers)
    for province, unit in position.units.items():
        if m.provinces[province].is_supply_center:
            centers[province] = unit.power
    return centers


def _advance(position: Position, rules: Rules) -> Position:
    """The next phase to play after ``position`` (whose own phase is finished)."""
    variant = position.variant
    extra = variant.extra_after_phase(position)
    if extra is not position.extra:
        position = position.replace(extra=extra)  # one phase's inputs (DP bids) end with it
    special = variant.next_phase(position, rules)
    if special is not None:
        return special  # a variant's own phase (Arpiesse's summer colour exchange)
    phase = position.phase
    if phase.season == "S":
        return position.replace(phase=Phase(phase.year, "F", "M"), contested=frozenset())
    if phase.season == "F":
        after = position.replace(
            phase=Phase(phase.year, "W", "A"), centers=update_centers(position),
            contested=frozenset(),
        )
        if adjustments_needed(after, rules):
            return after
        return after.replace(phase=Phase(phase.year + 1, "S", "M"))
    return position.replace(phase=Phase(phase.year + 1, "S", "M"))


def adjustments_needed(position: Position, rules: Rules) -> bool:
    """Whether any power must remove, or could build, this winter."""
    for power, amount in position.adjustments().items():
        if amount < 0:
            return True
        if amount > 0 and buildable_centres(position, power, rules):
            return True
    return False


def buildable_centres(position: Position, power: str, rules: Rules) -> list[int]:
    m = position.map
    return [
        p for p in position.centers_of(power)
        if p not in position.units
        and (not rules.builds_in_home_centres_only or m.provinces[p].home == power)
    ]
