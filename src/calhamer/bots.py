"""What a bot is given, and the simplest bot there is.

A bot (a *policy*) is a callable ``policy(view, options)`` returning the orders of one power
for the phase being played: ``view`` is a :class:`BotView`, what that power may know now, and
``options`` its possible orders by location (:meth:`calhamer.Game.possible_orders`: ``Order``
values; text works as well in what it returns). ``view.rng`` is the bot's random generator,
seeded by the game so that a simulation gives the same games for the same seed however many
processes or machines play them (:mod:`calhamer.simulate`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from calhamer.map import UnitType
from calhamer.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from calhamer.pieces import Phase, Unit
from calhamer.position import Position
from calhamer.views import PowerView

__all__ = ["BotView", "Policy", "greedy_policy", "random_policy"]


@dataclass
class BotView:
    """What ``power`` may know when it orders: nothing a human player of it would not.

    ``position`` is the board as the power knows it (in Kriegsplomacy its own units and
    centres and what it has seen); ``last`` its view of the phase just played (results it may
    read, notes such as espionage reports), when the game has it; ``orders_due`` the builds
    (positive) or removals (negative) due in winter.
    """

    power: str
    phase: Phase
    position: Position
    last: PowerView | None
    orders_due: int
    rules: str
    rng: random.Random = field(default_factory=random.Random)


Policy = Callable[[BotView, Mapping[str, list[AnyOrder]]], Iterable[AnyOrder | str]]


def random_policy(view: BotView, options: Mapping[str, list[AnyOrder]]) -> list[AnyOrder]:
    """A uniformly random legal order for each unit; in winter, as many random builds (or
    removals) as are due, each in its own place."""
    rng = view.rng
    if view.phase.is_adjustment:
        due = abs(view.orders_due)
        kind = Build if view.orders_due > 0 else Disband
        places = [loc for loc, orders in options.items()
                  if any(isinstance(o, kind) for o in orders)]
        chosen = rng.sample(places, min(due, len(places)))
        picks: list[AnyOrder] = []
        for loc in chosen:
            picks.append(rng.choice([o for o in options[loc]
                                     if isinstance(o, kind) and not isinstance(o, Waive)]))
        return picks
    return [rng.choice(orders) for orders in options.values() if orders]


# -- a player that coordinates ------------------------------------------------------------------
#
# The greedy player orders as a plain human beginner would: each unit goes for the best centre
# it can reach that nobody of its own side goes for; an attack on a held place takes every
# support its neighbours can give; a unit with nothing better cuts a support next door or
# backs a friend; an army crosses a sea where one of its own fleets offers the convoy. Its
# positions are what real play looks like to the judge (supports, cuts, convoys and bounces on
# a crowded board), which random orders are not: benchmarks/ measures speed on both.

_CENTRE, _NEAR_CENTRE, _ATTACK = 10.0, 3.0, 2.0


def greedy_policy(view: BotView, options: Mapping[str, list[AnyOrder]]) -> list[AnyOrder]:
    """A coordinating greedy player: moves on centres, supports its own attacks, convoys its
    armies over the sea, cuts supports next door; builds and removes as a plain player does.
    Orders of kinds it does not know (a variant's own) are chosen at random."""
    if view.phase.is_adjustment:
        return _adjust(view, options)
    if view.phase.is_retreat:
        return [_best_retreat(view, orders) for orders in options.values() if orders]
    return _Movement(view, options).orders()


def _target_value(position: Position, power: str, province: int) -> float:
    m = position.map
    owner = position.centers.get(province)
    if m.provinces[province].is_supply_center and owner != power:
        return _CENTRE
    return 0.0


def _best_retreat(view: BotView, orders: list[AnyOrder]) -> AnyOrder:
    position = view.position
    m = position.map

    def score(order: AnyOrder) -> float:
        if isinstance(order, Retreat):
            return _target_value(position, view.power, m.province_of(order.dest)) + 1.0
        return 0.0

    return max(orders, key=lambda o: (score(o), view.rng.random()))


def _adjust(view: BotView, options: Mapping[str, list[AnyOrder]]) -> list[AnyOrder]:
    due = view.orders_due
    if due == 0:
        return []
    rng = view.rng
    position = view.position
    if due > 0:
        units = position.units_of(view.power)
        fleets = sum(1 for u in units if u.type is UnitType.FLEET)
        picks: list[AnyOrder] = []
        places = [loc for loc, orders in options.items()
                  if any(isinstance(o, Build) for o in orders)]
        rng.shuffle(places)
        for loc in places[:due]:
            builds = [o for o in options[loc] if isinstance(o, Build)]
            # about one fleet for every two armies, where a fleet may be built
            want = UnitType.FLEET if fleets * 2 < len(units) else UnitType.ARMY
            pick = next((o for o in builds if o.unit_type is want), builds[0])
            fleets += pick.unit_type is UnitType.FLEET
            units.append(Unit(view.power, pick.unit_type or UnitType.ARMY, pick.loc))
            picks.append(pick)
        return picks
    # removals: the units standing on no centre go first
    m = position.map
    removals = [o for orders in options.values() for o in orders if isinstance(o, Disband)]
    removals.sort(key=lambda o: (m.provinces[m.province_of(o.loc)].is_supply_center, rng.random()))
    return list(removals[:-due])


class _Movement:
    """One movement phase of the greedy player: an assignment of one order to each unit."""

    def __init__(self, view: BotView, options: Mapping[str, list[AnyOrder]]) -> None:
        self.view = view
        self.position = view.position
        self.map = view.position.map
        self.options = {orders[0].loc: orders for orders in options.values()
                        if orders and isinstance(orders[0], Order)}
        self.chosen: dict[int, AnyOrder] = {}
        self.claimed: set[int] = set()  # provinces one of our units moves into
        self.distances = {t: self._distances(t) for t in (UnitType.ARMY, UnitType.FLEET)}

    def orders(self) -> list[AnyOrder]:
        for loc, order in self._moves():
            if loc in self.chosen or self.map.province_of(order.dest) in self.claimed:
                continue
            if self._convoyed(order):
                fleet = self._convoying_fleet(loc, order.dest)
                if fleet is None:
                    continue
                self.chosen[fleet.loc] = fleet
            self._take(loc, order)
            self._support(order)
        for loc, orders in self.options.items():
            if loc not in self.chosen:
                self.chosen[loc] = self._idle(orders)
        return list(self.chosen.values())

    def _convoyed(self, move: Move) -> bool:
        """Whether the move goes by sea: said so, or out of the unit's own reach."""
        return move.via_convoy or not self.map.can_reach(
            move.unit_type or UnitType.ARMY, move.loc, move.dest)

    def _take(self, loc: int, order: AnyOrder) -> None:
        self.chosen[loc] = order
        if isinstance(order, Move):
            self.claimed.add(self.map.province_of(order.dest))

    def _distances(self, unit_type: UnitType) -> dict[int, int]:
        """Each province's distance, in moves of this unit type, to the nearest centre the
        power does not own (a breadth-first walk out from those centres)."""
        m = self.map
        near = m.army_adjacent if unit_type is UnitType.ARMY else m.province_fleet_adjacent
        frontier = [p for p in m.supply_centers
                    if _target_value(self.position, self.view.power, p)]
        dist = dict.fromkeys(frontier, 0)
        step = 0
        while frontier:
            step += 1
            nxt = [q for p in frontier for q in near[p] if q not in dist]
            for q in nxt:
                dist.setdefault(q, step)
            frontier = list(dict.fromkeys(nxt))
        return dist

    def _value(self, province: int, unit_type: UnitType) -> float:
        """What standing in ``province`` is worth to a unit of this type."""
        value = _target_value(self.position, self.view.power, province)
        if value:
            return value
        dist = self.distances[unit_type].get(province)
        return 0.0 if dist is None else _NEAR_CENTRE * 2 / (1 + dist)

    def _threatened(self, province: int) -> bool:
        """Whether one of our centres has a foreign unit next to it."""
        if self.position.centers.get(province) != self.view.power:
            return False
        m = self.map
        return any((u := self.position.units.get(q)) is not None and u.power != self.view.power
                   for q in m.army_adjacent[province] | m.province_fleet_adjacent[province])

    def _contested(self, province: int) -> bool:
        """Whether a unit stands in ``province`` or a foreign one stands next to it."""
        m = self.map
        if province in self.position.units:
            return True
        return any((u := self.position.units.get(q)) is not None and u.power != self.view.power
                   for q in m.army_adjacent[province] | m.province_fleet_adjacent[province])

    def _score(self, move: Move) -> float:
        """How much better off the unit is after ``move`` than standing where it is."""
        province = self.map.province_of(move.dest)
        occupant = self.position.units.get(province)
        if occupant is not None and occupant.power == self.view.power:
            return -1.0  # never into one's own unit
        unit_type = move.unit_type or UnitType.ARMY
        here = self.map.province_of(move.loc)
        stay = self._value(here, unit_type) + (_CENTRE if self._threatened(here) else 0.0)
        gain = self._value(province, unit_type) - stay
        if occupant is not None:
            gain += _ATTACK
        return gain + self.view.rng.random()

    def _moves(self) -> list[tuple[int, Move]]:
        """Every unit's moves worth making, best first (a convoyed move is made only where
        a free fleet of ours offers the convoy)."""
        rng = self.view.rng
        scored = [(self._score(o), rng.random(), loc, o)
                  for loc, orders in self.options.items() for o in orders
                  if isinstance(o, Move)]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [(loc, o) for score, _, loc, o in scored if score > 0]

    def _support(self, move: Move) -> None:
        """Every free unit that may support ``move`` does, when the place is held or a
        foreign unit could also move there."""
        if not self._contested(self.map.province_of(move.dest)):
            return
        for loc, orders in self.options.items():
            if loc in self.chosen:
                continue
            for order in orders:
                if (isinstance(order, Support) and order.target == move.loc
                        and order.dest is not None
                        and self.map.province_of(order.dest) == self.map.province_of(move.dest)):
                    self.chosen[loc] = order
                    break

    def _convoying_fleet(self, army: int, dest: int) -> Convoy | None:
        for loc, orders in self.options.items():
            if loc in self.chosen:
                continue
            for order in orders:
                if isinstance(order, Convoy) and order.army == army and order.dest == dest:
                    return order
        return None

    def _idle(self, orders: list[AnyOrder]) -> AnyOrder:
        """A unit with no move worth making: cut a support next door, back a friend who
        stays, or hold."""
        rng = self.view.rng
        helps = [o for o in orders if isinstance(o, Support) and o.dest is not None
                 and self.chosen.get(o.target) == Move(o.target_type, o.target, o.dest)]
        if helps:
            return rng.choice(helps)
        cuts = [o for o in orders if isinstance(o, Move) and not self._convoyed(o)
                and (u := self.position.units.get(self.map.province_of(o.dest))) is not None
                and u.power != self.view.power]
        if cuts and rng.random() < 0.5:
            return rng.choice(cuts)
        backs = [o for o in orders if isinstance(o, Support) and o.dest is None
                 and (u := self.position.units.get(self.map.province_of(o.target))) is not None
                 and u.power == self.view.power
                 and not isinstance(self.chosen.get(o.target), Move)]
        if backs and rng.random() < 0.5:
            return rng.choice(backs)
        known = [o for o in orders if isinstance(o, Hold)]
        return known[0] if known else rng.choice(orders)
