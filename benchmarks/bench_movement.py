"""How fast calhamer adjudicates movement phases, and how that compares with ``diplomacy``.

Seeded random games are played from the standard start: every movement phase gives each unit a
random legal order (moves, supports, convoys, holds), calhamer adjudicates it, and random
retreats and adjustments carry the board on to the next year. Every movement phase played is
recorded, then timed four ways in calhamer and, when the PyPI ``diplomacy`` package is
installed (``pip install -e '.[bench]'``), once more through ``diplomacy.Game.process``.

    python benchmarks/bench_movement.py --games 20 --phases 20 --seed 1
    python benchmarks/bench_movement.py --profile       # where calhamer's time goes
    python benchmarks/bench_movement.py --profile text  # ... when orders come as text

See ``benchmarks/README.md`` for what each figure measures.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from calhamer.adjudicator import MovementResolver, OrderTable
from calhamer.map import ARMY, FLEET, Map, ProvinceId, Terrain
from calhamer.notation import format_order, format_unit
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support
from calhamer.phases import adjudicate, buildable_centres, retreat_options
from calhamer.position import Position, Unit
from calhamer.rules import Rules, find_rules
from calhamer.validation import Illegal, check_movement_order, fleet_seas

# The order mix asked of each unit (the rest hold); see README.md.
MOVE_SHARE = 0.40
SUPPORT_SHARE = 0.25
CONVOY_SHARE = 0.10
CHAIN_SHARE = 0.30  # of convoys: try a second fleet in a chain
SEA_MOVE_SHARE = 0.30  # of armies drawing the convoy share: try an army move by sea
RETREAT_SHARE = 0.85  # of dislodged units with somewhere to go: retreat rather than disband
FLEET_BUILD_SHARE = 0.40  # of builds in coastal centres

# The speed-up of dipcc (C++) over ``diplomacy`` quoted in the project brief.
DIPCC_SPEEDUP = 14.0

OrdersByPower = dict[str, list[Order]]


@dataclass(frozen=True)
class Sample:
    """One recorded movement phase: the board, its orders, and what calhamer made of them."""

    game: int
    position: Position
    orders: OrdersByPower
    texts: dict[str, list[str]]
    legal: dict[int, Order]  # validated orders by province, as the resolver core receives them
    after: frozenset[tuple[str, str]]  # (power, "A PAR" or "*A PAR" if dislodged)


@dataclass
class Timings:
    """Per-phase medians in nanoseconds, one list per judge."""

    full: list[int] = field(default_factory=list)
    worded: list[int] = field(default_factory=list)
    core: list[int] = field(default_factory=list)
    text: list[int] = field(default_factory=list)
    diplomacy: list[int] = field(default_factory=list)


# -- random orders ----------------------------------------------------------------------------


class OrderMaker:
    """Random, legal movement orders for every unit on the board."""

    def __init__(self, position: Position, rng: random.Random) -> None:
        self.position = position
        self.m: Map = position.map
        self.rng = rng
        self.orders: dict[ProvinceId, Order] = {}
        self.supporters: list[ProvinceId] = []

    def make(self) -> dict[ProvinceId, Order]:
        units = list(self.position.units.items())
        self.rng.shuffle(units)
        # Fleets at sea choose first so that a convoy can also order the army it carries.
        for province, unit in units:
            at_sea = unit.type is FLEET and self.m.is_sea(province)
            if at_sea and self.rng.random() < CONVOY_SHARE:
                self.try_convoy(province, unit)
        for province, unit in units:
            if province not in self.orders:
                self.choose(province, unit)
        for province in self.supporters:
            self.orders[province] = self.support(province, self.position.units[province])
        return self.orders

    def choose(self, province: ProvinceId, unit: Unit) -> None:
        roll = self.rng.random()
        if roll < MOVE_SHARE:
            self.orders[province] = self.move(province, unit)
        elif roll < MOVE_SHARE + SUPPORT_SHARE:
            self.supporters.append(province)
        elif roll < MOVE_SHARE + SUPPORT_SHARE + CONVOY_SHARE and unit.type is ARMY:
            if self.rng.random() < SEA_MOVE_SHARE:
                self.orders[province] = self.sea_move(province, unit)
            else:
                self.orders[province] = Hold(unit.type, unit.loc)
        else:
            self.orders[province] = Hold(unit.type, unit.loc)

    def move(self, province: ProvinceId, unit: Unit) -> Order:
        if unit.type is ARMY:
            return Move(ARMY, unit.loc, self.rng.choice(sorted(self.m.army_adjacent[province])))
        return Move(FLEET, unit.loc, self.rng.choice(sorted(self.m.fleet_adjacent[unit.loc])))

    def sea_move(self, province: ProvinceId, unit: Unit) -> Order:
        """An army move to a coast it can only reach by sea, through seas holding fleets."""
        if not self.m.is_coastal(province):
            return Hold(unit.type, unit.loc)
        reachable = coasts_by_sea(self.m, province, fleet_seas(self.position))
        targets = sorted(reachable - self.m.army_adjacent[province] - {province})
        if not targets:
            return Hold(unit.type, unit.loc)
        return Move(ARMY, unit.loc, self.rng.choice(targets), via_convoy=True)

    def try_convoy(self, sea: ProvinceId, fleet: Unit) -> None:
        m, units = self.m, self.position.units
        near = m.province_fleet_adjacent
        armies = [
            p
            for p in sorted(near[sea])
            if p not in self.orders and m.is_coastal(p) and p in units and units[p].type is ARMY
        ]
        if not armies:
            return
        own = [p for p in armies if units[p].power == fleet.power]
        army = self.rng.choice(own or armies)
        fleets = [sea]
        reach = near[sea]
        seconds = [
            g
            for g in sorted(near[sea])
            if m.is_sea(g)
            and g not in self.orders
            and g in units
            and army not in near[g]
            and units[g].type is FLEET
            and units[g].power == fleet.power
        ]
        if seconds and self.rng.random() < CHAIN_SHARE:
            second = self.rng.choice(seconds)
            fleets.append(second)
            reach = near[second] - near[sea]
        targets = sorted(p for p in reach if m.is_coastal(p) and p != army)
        if not targets:
            return
        dest = self.rng.choice(targets)
        for f in fleets:
            self.orders[f] = Convoy(FLEET, units[f].loc, army, dest)
        if units[army].power == fleet.power:
            # Always say "via convoy": both judges then agree the army means to go by sea.
            self.orders[army] = Move(ARMY, army, dest, via_convoy=True)

    def support(self, province: ProvinceId, unit: Unit) -> Order:
        m, units = self.m, self.position.units
        moves = [
            (p, o)
            for p, o in self.orders.items()
            if isinstance(o, Move)
            and p != province
            and m.province_of(o.dest) != province
            and m.can_reach_province(unit.type, unit.loc, m.province_of(o.dest))
        ]
        holds = [
            p
            for p in sorted(units)
            if p != province
            and not isinstance(self.orders.get(p), Move)
            and m.can_reach_province(unit.type, unit.loc, p)
        ]
        if moves and (not holds or self.rng.random() < 0.6):
            p, move = self.rng.choice(moves)
            target = units[p]
            return Support(unit.type, unit.loc, target.type, target.loc, m.province_of(move.dest))
        if holds:
            target = units[self.rng.choice(holds)]
            return Support(unit.type, unit.loc, target.type, target.loc)
        return Hold(unit.type, unit.loc)


def coasts_by_sea(m: Map, origin: ProvinceId, seas: Iterable[ProvinceId]) -> set[ProvinceId]:
    """Coastal provinces an army at ``origin`` could be convoyed to through ``seas``."""
    near, allowed = m.province_fleet_adjacent, set(seas)
    frontier = [s for s in near[origin] if s in allowed]
    seen = set(frontier)
    coasts: set[ProvinceId] = set()
    while frontier:
        sea = frontier.pop()
        for p in near[sea]:
            if m.is_coastal(p):
                coasts.add(p)
            elif p in allowed and p not in seen:
                seen.add(p)
                frontier.append(p)
    return coasts


# -- playing games ----------------------------------------------------------------------------


def by_power(position: Position, orders: Iterable[Order]) -> OrdersByPower:
    out: OrdersByPower = {}
    for order in orders:
        out.setdefault(position.units[position.map.province_of(order.loc)].power, []).append(order)
    return out


def validated(position: Position, orders: OrdersByPower) -> dict[int, Order]:
    """The orders as ``adjudicate`` hands them to the resolver (coasts settled, by province)."""
    legal: dict[int, Order] = {}
    for power, items in orders.items():
        for order in items:
            checked = check_movement_order(position, power, order)
            legal[position.map.province_of(checked.loc)] = checked
    return legal


def movement_orders(position: Position, rng: random.Random) -> OrdersByPower:
    """Random orders, each checked; the rare order the checks refuse becomes a hold."""
    orders = OrderMaker(position, rng).make()
    kept = []
    for province, order in orders.items():
        unit = position.units[province]
        try:
            check_movement_order(position, unit.power, order)
        except Illegal:
            order = Hold(unit.type, unit.loc)
        kept.append(order)
    return by_power(position, kept)


def retreat_orders(position: Position, rng: random.Random) -> OrdersByPower:
    out: OrdersByPower = {}
    for entry in position.dislodged:
        unit = entry.unit
        options = retreat_options(position, entry)
        if options and rng.random() < RETREAT_SHARE:
            order: Order = Retreat(unit.type, unit.loc, rng.choice(options))
        else:
            order = Disband(unit.type, unit.loc)
        out.setdefault(unit.power, []).append(order)
    return out


def adjustment_orders(position: Position, rng: random.Random, rules: Rules) -> OrdersByPower:
    m = position.map
    out: OrdersByPower = {}
    for power, amount in sorted(position.adjustments().items()):
        if amount > 0:
            free = buildable_centres(position, power, rules)
            rng.shuffle(free)
            out[power] = [_build(m, p, rng) for p in free[:amount]]
        elif amount < 0:
            mine = sorted(p for p, u in position.units.items() if u.power == power)
            doomed = rng.sample(mine, -amount)
            out[power] = [Disband(position.units[p].type, position.units[p].loc) for p in doomed]
    return out


def greedy_orders(position: Position, rng: random.Random, rules: Rules) -> OrdersByPower:
    """Every power's orders from the greedy player (:func:`calhamer.bots.greedy_policy`:
    supports, convoys, cuts and bounces, as coordinated play looks), its choices seeded by
    ``rng``. Its waives are left out: a build not ordered is a waived one, except where a
    variant fills missing builds (``missing_builds``), which then does so."""
    from calhamer.bots import BotView, greedy_policy
    from calhamer.options import possible_orders

    due = position.adjustments() if position.phase.kind == "A" else {}
    out: OrdersByPower = {}
    for power in position.powers():
        options = possible_orders(position, power, rules)
        if not options:
            continue
        view = BotView(power, position.phase, position, None, due.get(power, 0), rules.name,
                       random.Random(rng.random()))
        given = [o for o in greedy_policy(view, options) if isinstance(o, Order)]
        if given:
            out[power] = given
    return out


def _build(m: Map, province: ProvinceId, rng: random.Random) -> Build:
    if m.provinces[province].terrain is Terrain.COAST and rng.random() < FLEET_BUILD_SHARE:
        coasts = m.coast_locations(province)
        return Build(FLEET, rng.choice(coasts) if coasts else province)
    return Build(ARMY, province)


def board_after(position: Position) -> frozenset[tuple[str, str]]:
    """Every unit as ``(power, "A PAR")``, dislodged ones as ``(power, "*A PAR")``.

    A dislodged unit with nowhere to retreat is left out: ``diplomacy`` disbands it at once,
    where calhamer leaves that to the retreat phase.
    """
    m = position.map
    units = {(u.power, format_unit(m, u)) for u in position.units.values()}
    units |= {
        (d.unit.power, "*" + format_unit(m, d.unit))
        for d in position.dislodged
        if retreat_options(position, d)
    }
    return frozenset(units)


def play_game(game: int, seed: int, phases: int, rules: Rules) -> list[Sample]:
    """Play one random game for ``phases`` movement phases, recording each of them."""
    rng = random.Random(f"{seed}:{game}")
    position = Position.initial("standard")
    m = position.map
    samples: list[Sample] = []
    while len(samples) < phases and position.winner() is None:
        if position.phase.is_movement:
            orders = movement_orders(position, rng)
            outcome = adjudicate(position, orders, rules)
            texts = {p: [format_order(m, o) for o in os] for p, os in orders.items()}
            legal = validated(position, orders)
            samples.append(Sample(game, position, orders, texts, legal, board_after(outcome.after)))
        elif position.phase.is_retreat:
            outcome = adjudicate(position, retreat_orders(position, rng), rules)
        else:
            outcome = adjudicate(position, adjustment_orders(position, rng, rules), rules)
        position = outcome.next
    return samples


# -- the diplomacy package --------------------------------------------------------------------


class DiplomacyJudge:
    """Sets recorded phases up as ``diplomacy.Game`` objects, in that package's notation."""

    def __init__(self, m: Map) -> None:
        import diplomacy  # the optional ``bench`` extra; imported only when asked for

        self.game_class = diplomacy.Game
        self.version = getattr(diplomacy, "__version__", "?")
        theirs = {loc.upper() for loc in diplomacy.Map("standard").locs}
        self.names = {
            loc: self._their_name(m.loc_name(loc), theirs) for loc in range(m.location_count)
        }
        self.m = m
        self.rejected = 0

    @staticmethod
    def _their_name(ours: str, theirs: set[str]) -> str:
        # Both boards use the same three-letter codes and "STP/SC" coasts; check rather than
        # assume, so that a change on either side fails loudly here.
        if ours not in theirs:
            raise LookupError(f"diplomacy's standard map has no location {ours}")
        return ours

    def unit(self, unit_type: Any, loc: int) -> str:
        return f"{unit_type.letter} {self.names[loc]}"

    def order(self, order: Order) -> str:
        unit = self.unit(order.unit_type, order.loc)
        match order:
            case Move():
                return f"{unit} - {self.names[order.dest]}" + (" VIA" if order.via_convoy else "")
            case Support() if order.dest is None:
                return f"{unit} S {self.unit(order.target_type, order.target)}"
            case Support():
                target = self.unit(order.target_type, order.target)
                return f"{unit} S {target} - {self.names[order.dest]}"
            case Convoy():
                return f"{unit} C A {self.names[order.army]} - {self.names[order.dest]}"
        return f"{unit} H"

    def game(self, sample: Sample) -> Any:
        """A fresh game standing where ``sample`` does, with its orders given."""
        position = sample.position
        game = self.game_class()
        game.set_current_phase(position.phase.code)
        game.clear_units()
        game.clear_centers()
        for power in self.m.power_codes:
            units = [self.unit(u.type, u.loc) for u in position.units.values() if u.power == power]
            centers = [self.names[p] for p, owner in position.centers.items() if owner == power]
            game.set_units(power, units, reset=True)
            game.set_centers(power, centers, reset=True)
        for power, orders in sample.orders.items():
            game.set_orders(power, [self.order(o) for o in orders])
        return game

    def count_rejected(self, sample: Sample, game: Any) -> int:
        given = sum(len(o) for o in sample.orders.values())
        return given - sum(len(game.get_orders(p)) for p in sample.orders)

    @staticmethod
    def board(game: Any) -> frozenset[tuple[str, str]]:
        return frozenset((p, u) for p, units in game.get_units().items() for u in units)


@dataclass
class Disagreement:
    sample: Sample
    only_calhamer: list[tuple[str, str]]
    only_diplomacy: list[tuple[str, str]]


def load_diplomacy(m: Map) -> DiplomacyJudge | None:
    try:
        return DiplomacyJudge(m)
    except ImportError:
        print("note: the diplomacy package is not installed, so there is no comparison;")
        print("      install it with: pip install -e '.[bench]'  (diplomacy==1.1.2)\n")
        return None


def compare(samples: list[Sample], judge: DiplomacyJudge) -> list[Disagreement]:
    """Phases after which diplomacy's board differs from calhamer's."""
    disagreements = []
    for s in samples:
        game = judge.game(s)
        judge.rejected += judge.count_rejected(s, game)
        game.process()
        theirs = judge.board(game)
        if theirs != s.after:
            disagreements.append(
                Disagreement(s, sorted(s.after - theirs), sorted(theirs - s.after))
            )
    return disagreements


# -- timing -----------------------------------------------------------------------------------


def median_ns(prepare: Callable[[], Callable[[], object]], repeat: int) -> int:
    """The median time of ``repeat`` calls, each to a fresh ``prepare()`` (not timed itself).

    The garbage collector is off while timing, as in :mod:`timeit`.
    """
    times = []
    for _ in range(repeat):
        call = prepare()
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            start = time.perf_counter_ns()
            call()
            times.append(time.perf_counter_ns() - start)
        finally:
            if gc_was_on:
                gc.enable()
    return int(statistics.median(times))


def adjudicate_worded(sample: Sample, rules: Rules) -> object:
    """``adjudicate`` with every order's result and reason read (they may be worded lazily)."""
    return adjudicate(sample.position, sample.orders, rules).results


def resolve_core(sample: Sample, rules: Rules) -> MovementResolver:
    resolver = MovementResolver(OrderTable(sample.position, sample.legal, rules))
    resolver.resolve_all()
    return resolver


def measure(
    samples: list[Sample], rules: Rules, repeat: int, judge: DiplomacyJudge | None
) -> Timings:
    """Time every phase in each judge, back to back so that a busy machine slows all alike."""
    timings = Timings()
    for s in samples:
        adjudicate(s.position, s.texts, rules)  # warm any caches this board fills
        full = partial(adjudicate, s.position, s.orders, rules)
        worded = partial(adjudicate_worded, s, rules)
        core = partial(resolve_core, s, rules)
        text = partial(adjudicate, s.position, s.texts, rules)
        timings.full.append(median_ns(lambda full=full: full, repeat))
        timings.worded.append(median_ns(lambda worded=worded: worded, repeat))
        timings.core.append(median_ns(lambda core=core: core, repeat))
        timings.text.append(median_ns(lambda text=text: text, repeat))
        if judge is not None:
            # A fresh game for every call (not timed): process() moves a game to its next phase.
            timings.diplomacy.append(median_ns(lambda s=s: judge.game(s).process, repeat))
    return timings


# -- report -----------------------------------------------------------------------------------


def us(values: list[int]) -> tuple[float, float]:
    """Median and mean of nanosecond figures, in microseconds."""
    return statistics.median(values) / 1000, statistics.fmean(values) / 1000


def order_mix(samples: list[Sample]) -> str:
    kinds: Counter[str] = Counter()
    for s in samples:
        for order in s.legal.values():
            name = type(order).__name__.lower()
            if isinstance(order, Move) and order.via_convoy:
                name = "move by sea"
            elif isinstance(order, Support):
                name = "support (hold)" if order.dest is None else "support (move)"
            kinds[name] += 1
    total = sum(kinds.values())
    parts = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in kinds.most_common())
    return f"{total} orders: {parts}"


def print_report(samples: list[Sample], timings: Timings, args: argparse.Namespace) -> None:
    units = [len(s.position.units) for s in samples]
    years = {(s.game, s.position.phase.year) for s in samples}
    print(
        f"{len(samples)} movement phases from {args.games} games (seed {args.seed}, "
        f"{len(years)} game-years, {min(units)}-{max(units)} units, mean "
        f"{statistics.fmean(units):.1f}); each timed {args.repeat} times, median taken"
    )
    print(order_mix(samples))
    print()
    rows = [
        ("calhamer adjudicate, Order objects (full)", timings.full),
        ("calhamer full + results worded", timings.worded),
        ("calhamer OrderTable + resolve_all (core)", timings.core),
        ("calhamer adjudicate, order text", timings.text),
    ]
    if timings.diplomacy:
        rows.append(("diplomacy Game.process()", timings.diplomacy))
    print(f"{'judge':<44}{'median µs':>12}{'mean µs':>12}")
    for name, values in rows:
        median, mean = us(values)
        print(f"{name:<44}{median:>12.1f}{mean:>12.1f}")
    if not timings.diplomacy:
        return
    print()
    theirs = us(timings.diplomacy)
    ours_by_name = {
        "full": timings.full,
        "full + results worded": timings.worded,
        "core": timings.core,
        "order text": timings.text,
    }
    for name, values in ours_by_name.items():
        ours = us(values)
        print(
            f"diplomacy / calhamer ({name}): {theirs[0] / ours[0]:.1f}x by median, "
            f"{theirs[1] / ours[1]:.1f}x by mean"
        )
    speedup = theirs[0] / us(timings.full)[0]
    core = theirs[0] / us(timings.core)[0]
    verdict = "reaches" if speedup >= DIPCC_SPEEDUP else "does not reach"
    print(
        f"reference: dipcc (C++) is about {DIPCC_SPEEDUP:.0f}x faster than diplomacy; calhamer's "
        f"full adjudicate is {speedup:.1f}x faster (its core {core:.1f}x), so it {verdict} "
        "dipcc's mark"
    )


def print_disagreements(
    disagreements: list[Disagreement], judge: DiplomacyJudge, total: int
) -> None:
    print()
    print(
        f"agreement with diplomacy: {total - len(disagreements)}/{total} phases end with the "
        f"same units in the same places (and the same units dislodged); "
        f"{judge.rejected} orders refused by diplomacy"
    )
    for d in disagreements[:10]:
        s = d.sample
        print(
            f"  game {s.game} {s.position.phase.code}: only calhamer {d.only_calhamer}, "
            f"only diplomacy {d.only_diplomacy}"
        )
        for power, texts in sorted(s.texts.items()):
            print(f"    {power}: {'; '.join(texts)}")
    if len(disagreements) > 10:
        print(f"  ... and {len(disagreements) - 10} more")


def profile(samples: list[Sample], rules: Rules, repeat: int, how: str, top: int = 15) -> None:
    """cProfile of calhamer's adjudicate over every recorded phase, by own time."""
    given = {
        "full": lambda s: adjudicate(s.position, s.orders, rules),
        "worded": lambda s: adjudicate_worded(s, rules),
        "text": lambda s: adjudicate(s.position, s.texts, rules),
    }[how]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        for s in samples:
            given(s)
    profiler.disable()
    print()
    print(f"profile: calhamer adjudicate ({how}), {len(samples)} phases x {repeat}")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="random games to play (20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (1)")
    parser.add_argument(
        "--phases", type=int, default=20, help="movement phases per game, two a year (20)"
    )
    parser.add_argument("--repeat", type=int, default=7, help="timings per phase (7)")
    parser.add_argument("--rules", default="datc", help="calhamer rule edition (datc)")
    parser.add_argument(
        "--no-diplomacy", action="store_true", help="skip the diplomacy package comparison"
    )
    parser.add_argument(
        "--profile",
        nargs="?",
        const="full",
        choices=["full", "worded", "text"],
        help="also print a cProfile of calhamer's adjudicate (full, worded or text; full)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.phases < 1 or args.repeat < 1:
        parser.error("--games, --phases and --repeat must be at least 1")
    rules = find_rules(args.rules)

    samples = [s for g in range(args.games) for s in play_game(g, args.seed, args.phases, rules)]
    judge = None if args.no_diplomacy else load_diplomacy(samples[0].position.map)
    disagreements = compare(samples, judge) if judge is not None else None
    timings = measure(samples, rules, args.repeat, judge)
    print_report(samples, timings, args)
    if judge is not None and disagreements is not None:
        print_disagreements(disagreements, judge, len(samples))
    if args.profile:
        profile(samples, rules, args.repeat, args.profile)


if __name__ == "__main__":
    main()
