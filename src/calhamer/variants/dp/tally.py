"""The allocation: every neutral unit's order, decided from a movement phase's bids.

Identical orders add up; the most DP wins, and a tie or no bid gives the unit its minor
power's default order. A power whose unit attacks, or supports an attack on, a minor power has
its bids on that minor power ignored that turn (the Attacking & Allocating rule), which is why
the tally needs the players' orders. A :class:`Tally` is the gamemaster's view of who bid what;
players see only the winning orders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from calhamer.errors import OrderError
from calhamer.orders import AnyOrder, Hold, Move, Order, Support
from calhamer.phases import adjudicate
from calhamer.position import Position, Unit
from calhamer.results import INVALID, PhaseOutcome
from calhamer.rules import Rules
from calhamer.validation import Illegal

from .bids import Bid, bids_of
from .judging import COUNTED, IGNORED, DPTerms, JudgedBid, dp_terms, judge_power_bids
from .neutrals import minor_powers, neutral_units


@dataclass
class UnitTally:
    """The bids on one neutral unit: DP per order, and the order it was given."""

    province: int
    unit: Unit
    totals: dict[str, int] = field(default_factory=dict)  # canonical order -> DP counted
    order: Order | None = None
    bought: bool = False  # False: the default order (no bid counted, or a tie)
    why: str = ""


@dataclass
class Tally:
    """Everything about one phase's bids (the gamemaster's view; never shown to players)."""

    phase: str
    allotments: dict[str, int]
    spent: dict[str, int]
    bids: list[JudgedBid]
    units: dict[int, UnitTally]
    attacking: dict[str, set[str]]  # bidding power -> minor powers it attacks this turn

    def neutral_orders(self) -> dict[str, list[Order]]:
        """The order of every neutral unit, by minor power."""
        orders: dict[str, list[Order]] = {}
        for tally in self.units.values():
            if tally.order is not None:
                orders.setdefault(tally.unit.power, []).append(tally.order)
        return orders


def attacks_on_minors(position: Position, given: Mapping[int, Order]) -> dict[str, set[str]]:
    """The Attacking & Allocating rule's test: which minor powers each power attacks (a unit
    of its moves to, or supports a move to, a province held by that minor power's unit)."""
    m = position.map
    units = position.units
    attacking: dict[str, set[str]] = {}
    for province, order in given.items():
        unit = units.get(province)
        if unit is None or m.is_minor(unit.power):
            continue
        if isinstance(order, Move | Support) and order.dest is not None:
            target = m.province_of(order.dest)
        else:
            continue
        victim = units.get(target)
        if victim is not None and m.is_minor(victim.power) and victim.power != unit.power:
            attacking.setdefault(unit.power, set()).add(victim.power)
    return attacking


def default_order(variant: DPTerms, position: Position, province: int) -> Order:
    """A neutral unit's order when no bid wins: its minor power's default, else Hold."""
    m = position.map
    unit = position.units[province]
    for text in minor_powers(m)[unit.power].defaults:
        try:
            parsed = variant.notation.parse_order(m, text, phase_kind="M", position=position,
                                                  power=None)
        except OrderError:
            continue
        order = parsed.order
        if isinstance(order, Order) and m.province_of(order.loc) == province:
            try:
                return variant.check_movement_order(position, unit.power, order)
            except Illegal:
                break
    return Hold(unit.type, unit.loc)


def resolve_bids(position: Position, given: Mapping[int, Order] | None = None) -> Tally:
    """Decide every neutral unit's order from the bids of ``position``'s phase.

    ``given`` holds the players' legal orders by province, for the Attacking & Allocating rule.
    """
    variant = dp_terms(position)
    m = position.map
    given = given or {}
    by_power: dict[str, list[Bid]] = {}
    for bid in bids_of(position):
        by_power.setdefault(bid.power, []).append(bid)
    allotments = {
        p: variant.allotment(position, p) for p in m.power_codes if p in position.powers()
    }
    attacking = attacks_on_minors(position, given)
    judged_all: list[JudgedBid] = []
    spent: dict[str, int] = {}
    for power, bids in by_power.items():
        judged, total, _allot, _why = judge_power_bids(variant, position, power, bids)
        spent[power] = total
        for j in judged:
            if j.status == COUNTED and j.order is not None:
                minor = position.units[j.unit].power
                if minor in attacking.get(power, ()):
                    j.status = IGNORED
                    j.reason = (
                        f"{m.power(power).name} attacks {m.power(minor).name} this turn "
                        "(the Attacking & Allocating rule)"
                    )
        judged_all += judged

    units: dict[int, UnitTally] = {}
    neutral = neutral_units(position)
    for province in sorted(neutral, key=lambda p: m.provinces[p].code):
        units[province] = UnitTally(province, neutral[province])
    chosen: dict[int, dict[str, Order]] = {}
    for j in judged_all:
        if j.status == COUNTED and j.order is not None:
            key = variant.notation.format_order(position, j.order)  # with a stack's numbers
            tally = units[j.unit]
            tally.totals[key] = tally.totals.get(key, 0) + j.dp
            chosen.setdefault(j.unit, {})[key] = j.order
    for province, tally in units.items():
        ranked = sorted(tally.totals.items(), key=lambda kv: -kv[1])
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            tally.order = chosen[province][ranked[0][0]]
            tally.bought = True
            tally.why = f"won with {ranked[0][1]} DP"
        else:
            tally.order = default_order(variant, position, province)
            tally.why = "tie: default order" if ranked else "no bids: default order"
    return Tally(position.phase.code, allotments, spent, judged_all, units, attacking)


def bid_tally(
    position: Position,
    orders: Mapping[str, Iterable[str | AnyOrder]],
    rules: Rules | str | None = None,
) -> Tally:
    """The gamemaster's tally of ``position``'s bids, with the players' ``orders`` (which the
    Attacking & Allocating rule needs). Secret: never show it to players before the game ends."""
    outcome = adjudicate(position, orders, rules)
    return resolve_bids(position, given_orders(outcome))


def given_orders(outcome: PhaseOutcome) -> dict[int, Order]:
    """The players' legal orders of an adjudicated movement phase, by province."""
    m = outcome.before.map
    given: dict[int, Order] = {}
    for power, results in outcome.results.items():
        if m.is_minor(power):
            continue
        for r in results:
            if r.result != INVALID and isinstance(r.order, Order):
                given[m.province_of(r.order.loc)] = r.order
    return given
