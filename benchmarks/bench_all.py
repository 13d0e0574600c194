"""Every speed figure calhamer aims at, in one run, as ratios against the ``diplomacy`` package.

Seeded random games are played from the standard start (the games of ``bench_movement.py``);
every movement, retreat and adjustment phase played is recorded with its orders. Each path is
then timed in CPU time (``time.process_time``: the machines are shared, so wall time misleads)
over all recorded phases at once, calhamer and ``diplomacy`` 1.1.2 one after the other, several
times over; every line gives the median ratio and its range over the repeats.

    python benchmarks/bench_all.py                      # every ratio
    python benchmarks/bench_all.py --only options       # one path
    python benchmarks/bench_all.py --profile movement   # where calhamer's time goes on a path
    python benchmarks/bench_all.py --build compiled     # the same, on the compiled build
    python benchmarks/bench_all.py --build DIR          # on a build already installed in DIR

``--build compiled`` installs this checkout's compiled build (``CALHAMER_COMPILE=1 pip
install --no-deps --target``, as CI does) into a temporary folder, runs the benchmark again
with that folder first on the path, and removes it; ``--build DIR`` runs on a tree installed
so before (built once, measured many times). Either checks that the compiled build is the one
measured. On the compiled build the full adjudication paths are held to the compiled build's
target (:data:`COMPILED_TARGETS`).

See ``benchmarks/README.md`` for what each path measures and the figures measured so far.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import random
import re
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _build_argument(argv: list[str]) -> str | None:
    """The value of ``--build`` in ``argv`` (read before calhamer is imported: it decides which
    calhamer is)."""
    for i, arg in enumerate(argv):
        if arg == "--build" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--build="):
            return arg.split("=", 1)[1]
    return None


def _run_on_build(build: str, argv: list[str]) -> int:
    """Run this benchmark again in a child process on the compiled build: installed into a
    temporary folder (``compiled``) or already installed in the folder ``build``."""
    import shutil
    import tempfile

    env = dict(os.environ)
    env["CALHAMER_BENCH_BUILD"] = "compiled"
    made = None
    if build == "compiled":
        made = tempfile.mkdtemp(prefix="calhamer-bench-compiled-")
        tree = os.path.join(made, "site")
        print(f"bench_all: building the compiled build into {tree} ...", flush=True)
        built = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", tree,
             str(HERE.parent)], env={**env, "CALHAMER_COMPILE": "1"}, check=False)
        if built.returncode != 0:
            shutil.rmtree(made, ignore_errors=True)
            sys.exit("bench_all: the compiled build failed (see pip's output above)")
    else:
        tree = os.path.abspath(build)
        if not os.path.isdir(os.path.join(tree, "calhamer")):
            sys.exit(f"bench_all: {build} holds no installed calhamer (build one with "
                     f"CALHAMER_COMPILE=1 pip install --no-deps --target {build} .)")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [tree, env.get("PYTHONPATH")]))
    try:
        return subprocess.run([sys.executable, __file__, *argv], env=env,
                              check=False).returncode
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


if __name__ == "__main__":
    _build = _build_argument(sys.argv[1:])
    if _build not in (None, "plain") and "CALHAMER_BENCH_BUILD" not in os.environ:
        sys.exit(_run_on_build(_build, sys.argv[1:]))

# calhamer is imported only once the build to measure is known (above).
import bench_movement as bm  # noqa: E402
from timing import cpu  # noqa: E402  (CPU time, the collector off: shared with the others)

import calhamer  # noqa: E402
from calhamer.formats import position_to_json  # noqa: E402
from calhamer.map import ARMY, FLEET  # noqa: E402
from calhamer.notation import format_order  # noqa: E402
from calhamer.options import possible_orders  # noqa: E402
from calhamer.orders import Build, Disband, Order, Retreat, Waive  # noqa: E402
from calhamer.phases import adjudicate  # noqa: E402
from calhamer.position import Position  # noqa: E402
from calhamer.rules import Rules, find_rules  # noqa: E402

# The targets, by path (diplomacy's time over calhamer's), held on the coordinated positions
# (games of the greedy player: supports, convoys, cuts and bounces on a crowded board); the
# random games' figures are printed beside them, for comparison with earlier runs.
TARGETS = {
    "movement": 10.0,
    "text worded": 6.0,
    "jsonl": 5.0,
    "options": 3.0,
}
# The compiled build's targets on the same positions.
COMPILED_TARGETS = {"movement": 20.0, "text worded": 12.0, "jsonl": 10.0, "options": 3.0}
IMPORT_TARGET_MS = 60.0
HELP_TARGET_MS = 150.0


@dataclass
class Phase:
    """One recorded phase: the board, its orders (values and text), and ``diplomacy``'s setup."""

    position: Position
    orders: dict[str, list[Order]]
    texts: dict[str, list[str]]
    line: str = ""  # the phase as one ``calhamer adjudicate - --jsonl`` input line


@dataclass
class Recorded:
    movement: list[Phase] = field(default_factory=list)
    retreats: list[Phase] = field(default_factory=list)
    adjustments: list[Phase] = field(default_factory=list)


OrderMaker = Callable[[Position, random.Random], dict[str, list[Order]]]


def record(games: int, seed: int, years: int, rules: Rules,
           positions: str = "random") -> Recorded:
    """Play seeded games, recording every phase: the random games of ``bench_movement``
    (``positions="random"``) or games of the greedy player (``"coordinated"``)."""
    import json

    out = Recorded()
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        position = Position.initial("standard")
        m = position.map
        while position.phase.year < 1901 + years and position.winner() is None:
            kind = position.phase.kind
            bucket = {"M": out.movement, "R": out.retreats, "A": out.adjustments}[kind]
            if positions == "coordinated":
                orders = bm.greedy_orders(position, rng, rules)
            elif kind == "M":
                orders = bm.movement_orders(position, rng)
            elif kind == "R":
                orders = bm.retreat_orders(position, rng)
            else:
                orders = bm.adjustment_orders(position, rng, rules)
            texts = {p: [format_order(m, o) for o in os] for p, os in orders.items()}
            doc = position_to_json(position, rules.name)
            doc["orders"] = texts
            bucket.append(Phase(position, orders, texts, json.dumps(doc) + "\n"))
            position = adjudicate(position, orders, rules).next
    return out


# -- the diplomacy package --------------------------------------------------------------------


class Diplomacy:
    """Recorded phases as ``diplomacy.Game`` objects, set up outside any timed region."""

    def __init__(self, judge: bm.DiplomacyJudge) -> None:
        self.judge = judge

    def game(self, phase: Phase, orders: bool = True) -> Any:
        j = self.judge
        position = phase.position
        game = j.game_class()
        game.set_current_phase(position.phase.code)
        game.clear_units()
        game.clear_centers()
        for power in j.m.power_codes:
            units = [j.unit(u.type, u.loc) for u in position.units.values() if u.power == power]
            units += ["*" + j.unit(d.unit.type, d.unit.loc) for d in position.dislodged
                      if d.unit.power == power]
            centers = [j.names[p] for p, owner in position.centers.items() if owner == power]
            game.set_units(power, units, reset=True)
            game.set_centers(power, centers, reset=True)
        if orders:
            for power, given in phase.orders.items():
                game.set_orders(power, [self.order(o) for o in given])
        return game

    def order(self, order: Order) -> str:
        j = self.judge
        if isinstance(order, Retreat):
            return f"{j.unit(order.unit_type, order.loc)} R {j.names[order.dest]}"
        if isinstance(order, Build):
            return f"{j.unit(order.unit_type, order.loc)} B"
        if isinstance(order, Disband):
            return f"{j.unit(order.unit_type, order.loc)} D"
        if isinstance(order, Waive):
            return "WAIVE"
        return j.order(order)


# -- timing -----------------------------------------------------------------------------------


@dataclass
class Ratio:
    name: str
    ours: list[float] = field(default_factory=list)  # seconds per repeat
    theirs: list[float] = field(default_factory=list)
    count: int = 1  # phases (or calls) per repeat
    held: bool = True  # whether the targets are held on these positions

    def line(self) -> str:
        ratios = sorted(t / o for t, o in zip(self.theirs, self.ours, strict=True))
        ours = statistics.median(self.ours) / self.count * 1e6
        theirs = statistics.median(self.theirs) / self.count * 1e6
        targets = COMPILED_TARGETS if calhamer.compiled else TARGETS
        target = targets.get(self.name) if self.held else None
        mark = ""
        if target is not None:
            mark = f"  target {target:.0f}x: " + ("met" if ratios[0] >= target else
                                                 "met by median" if statistics.median(ratios)
                                                 >= target else "not met")
        return (f"{self.name:<13}{ours:>10.1f} µs{theirs:>10.1f} µs   "
                f"{statistics.median(ratios):5.1f}x  ({ratios[0]:.1f}-{ratios[-1]:.1f}){mark}")


def interleaved(name: str, ours: Callable[[], Callable[[], object]],
                theirs: Callable[[], Callable[[], object]], repeats: int, count: int,
                held: bool = True) -> Ratio:
    """Time the calls ``ours()`` and ``theirs()`` prepare (untimed), alternately."""
    ours()()  # warm the memos a first call fills
    result = Ratio(name, count=count, held=held)
    for _ in range(repeats):
        prepared = ours()
        result.ours.append(cpu(prepared))
        prepared = theirs()
        result.theirs.append(cpu(prepared))
    return result


def batch(fns: list[Callable[[], object]]) -> Callable[[], None]:
    def run() -> None:
        for fn in fns:
            fn()
    return run


# -- the paths --------------------------------------------------------------------------------


def paths(rec: Recorded, rules: Rules, dip: Diplomacy | None) -> dict[str, Callable[[], object]]:
    """calhamer's side of every adjudication path, each over all its recorded phases."""

    def full(phases: list[Phase]) -> Callable[[], None]:
        return batch([lambda p=p: adjudicate(p.position, p.orders, rules) for p in phases])

    def worded() -> None:
        for p in rec.movement:
            adjudicate(p.position, p.texts, rules).results  # noqa: B018 (worded on first use)

    def jsonl() -> None:
        from calhamer.cli.phase import _adjudicate_lines

        source = "".join(p.line for p in rec.movement)
        with contextlib.redirect_stdout(io.StringIO()):
            old, sys.stdin = sys.stdin, io.StringIO(source)
            try:
                _adjudicate_lines("-", None)
            finally:
                sys.stdin = old

    def options() -> None:
        for p in rec.movement:
            for power in p.position.powers():
                possible_orders(p.position, power, rules)

    return {
        "movement": full(rec.movement),
        "retreats": full(rec.retreats),
        "adjustments": full(rec.adjustments),
        "text worded": worded,
        "jsonl": jsonl,
        "options": options,
    }


def fresh_phases(phases: list[Phase]) -> list[Phase]:
    """The phases with their positions and orders made anew (the recorded values untouched),
    as ``diplomacy``'s side sets its games up anew for every run: each side's inputs are then
    as recently made as the other's. (Recorded long before and left alone while ``diplomacy``
    runs, calhamer's inputs would come from main memory, the other side's from the caches; on
    the short phases that is a third of calhamer's time.) A position keeps the count of builds
    and removals the phase before it handed over (:meth:`Position.remember_adjustments`), as
    in a game."""
    made = []
    for p in phases:
        q = p.position
        position = Position(q.map, q.phase, dict(q.units), dict(q.centers), q.dislodged,
                            q.contested, q.variant, q.extra)
        if q.phase.kind == "A":
            position.remember_adjustments(q.adjustments())
        orders = {power: list(given) for power, given in p.orders.items()}
        texts = {power: list(given) for power, given in p.texts.items()}
        made.append(Phase(position, orders, texts, p.line))
    return made


def calhamer_side(rec: Recorded, rules: Rules, inputs: str
                  ) -> dict[str, Callable[[], Callable[[], object]]]:
    """calhamer's side, each run prepared (untimed) as ``diplomacy``'s is: over phases made
    anew just before it (``inputs="fresh"``), or over the recorded ones (``"recorded"``)."""

    def prepare(name: str, kind: str) -> Callable[[], Callable[[], object]]:
        def made() -> Callable[[], object]:
            phases: list[Phase] = getattr(rec, kind)
            if inputs == "fresh":
                phases = fresh_phases(phases)
            return paths(Recorded(**{kind: phases}), rules, None)[name]
        return made

    kinds = {"movement": "movement", "retreats": "retreats", "adjustments": "adjustments",
             "text worded": "movement", "jsonl": "movement", "options": "movement"}
    return {name: prepare(name, kind) for name, kind in kinds.items()}


def diplomacy_side(rec: Recorded, dip: Diplomacy) -> dict[str, Callable[[], Callable[[], object]]]:
    """``diplomacy``'s side: games prepared untimed, only ``process()`` (or the listing) timed."""

    def process(phases: list[Phase]) -> Callable[[], Callable[[], object]]:
        # A fresh game for every call, set up untimed (set_orders is where diplomacy reads and
        # checks orders); only process() is timed, as in bench_movement.
        def prepare() -> Callable[[], object]:
            return batch([dip.game(p).process for p in phases])
        return prepare

    bare = [dip.game(p, orders=False) for p in rec.movement]
    movement = process(rec.movement)
    return {
        "movement": movement,
        "retreats": process(rec.retreats),
        "adjustments": process(rec.adjustments),
        "text worded": movement,
        "jsonl": movement,
        "options": lambda: batch([g.get_all_possible_orders for g in bare]),
    }


# -- a whole random game loop -----------------------------------------------------------------


def calhamer_loop(seed: int, years: int, rules: Rules) -> None:
    rng = random.Random(seed)
    position = Position.initial("standard")
    while position.phase.year < 1901 + years:
        orders: dict[str, list[Order]] = {}
        for power in position.powers():
            found = possible_orders(position, power, rules)
            orders[power] = [rng.choice(choices) for choices in found.values()]  # type: ignore[misc]
        position = adjudicate(position, orders, rules).next


def diplomacy_loop(seed: int, years: int) -> None:
    from diplomacy import Game

    rng = random.Random(seed)
    game = Game()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) < 1901 + years:
        possible = game.get_all_possible_orders()
        for power in game.powers:
            locs = game.get_orderable_locations(power)
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs if possible[loc]])
        game.process()


# -- start-up ---------------------------------------------------------------------------------


def child_env() -> dict[str, str]:
    """The calhamer measured here (this checkout's, or the build given), its byte code cached
    (as an installed package's is) even where the environment says not to write it, in a
    folder of its own."""
    import tempfile

    env = dict(os.environ)
    tree = str(Path(calhamer.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [tree, env.get("PYTHONPATH")]))
    if env.pop("PYTHONDONTWRITEBYTECODE", None):
        env.setdefault("PYTHONPYCACHEPREFIX",
                       os.path.join(tempfile.gettempdir(), "calhamer-bench-pycache"))
    return env


def child_cpu_ms(argv: list[str], repeats: int) -> float:
    """Median CPU milliseconds (user + system) of a fresh process running ``argv``."""
    env = child_env()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)  # writes the byte code once
    times = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3)
    return statistics.median(times)


def import_ms(repeats: int) -> float:
    """``import calhamer``'s own cumulative time from ``python -X importtime`` (median)."""
    env = child_env()
    found = []
    for _ in range(repeats):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", "import calhamer"],
                             env=env, capture_output=True, text=True, check=True).stderr
        for line in err.splitlines():
            match = re.match(r"import time:\s+\d+ \|\s+(\d+) \| calhamer$", line)
            if match:
                found.append(int(match.group(1)) / 1e3)
    return statistics.median(found)


def startup(repeats: int) -> list[str]:
    base = child_cpu_ms([sys.executable, "-c", "pass"], repeats)
    imp = child_cpu_ms([sys.executable, "-c", "import calhamer"], repeats)
    helped = child_cpu_ms([sys.executable, "-m", "calhamer.cli", "--help"], repeats)
    importtime = import_ms(repeats)
    ok = lambda v, t: "met" if v < t else "not met"  # noqa: E731
    return [
        f"import calhamer: {importtime:.0f} ms (-X importtime, cumulative); process CPU "
        f"{imp:.0f} ms, of which {base:.0f} ms is Python's own start  "
        f"target {IMPORT_TARGET_MS:.0f} ms: {ok(importtime, IMPORT_TARGET_MS)}",
        f"calhamer --help: {helped - base:.0f} ms CPU beyond Python's start ({helped:.0f} ms in "
        f"all)  target {HELP_TARGET_MS:.0f} ms: {ok(helped - base, HELP_TARGET_MS)}",
    ]


# -- possible orders on the Superdiplomacy board ----------------------------------------------


def crowded_superdiplomacy(stacks: int, seed: int = 1) -> Position:
    """A Superdiplomacy movement phase with ``stacks`` stacks of 1 to 6 units placed at random."""
    from calhamer.variants import find_variant

    variant = find_variant("superdiplomacy")
    start = Position.initial(variant=variant)
    m = start.map
    stack_class = type(next(iter(start.units.values())))
    rng = random.Random(seed)
    provinces = list(range(m.province_count))
    rng.shuffle(provinces)
    powers = [p for p in m.power_codes if not m.is_minor(p)]
    units = {}
    for province in provinces[:stacks]:
        power = rng.choice(powers)
        size = rng.randint(1, 6)
        if m.is_sea(province):
            units[province] = stack_class(power, FLEET, province, armies=0, fleets=size)
        elif m.is_coastal(province) and not m.coast_locations(province) and rng.random() < 0.3:
            fleets = rng.randint(1, size)
            units[province] = stack_class(power, FLEET, province, armies=size - fleets,
                                          fleets=fleets)
        else:
            units[province] = stack_class(power, ARMY, province, armies=size, fleets=0)
    return start.replace(units=units)


def superdiplomacy_scaling(repeats: int) -> list[str]:
    lines = []
    for stacks in (20, 40, 60, 80):
        position = crowded_superdiplomacy(stacks)
        units = sum(u.count for u in position.units.values())  # type: ignore[attr-defined]
        powers = position.powers()

        def run(position: Position = position, powers: list[str] = powers) -> int:
            return sum(len(orders) for power in powers
                       for orders in possible_orders(position, power).values())

        listed = run()
        ms = statistics.median(cpu(run) for _ in range(repeats)) * 1e3
        lines.append(f"  {stacks:>3} stacks, {units:>3} units: {ms:7.2f} ms, "
                     f"{listed:>6} orders listed, {ms * 1e3 / listed:5.2f} µs an order")
    return lines


# -- the run ----------------------------------------------------------------------------------


def profile(fn: Callable[[], object], name: str, repeats: int, top: int = 25) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        fn()
    profiler.disable()
    print(f"\nprofile: calhamer, {name}, x{repeats}")
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


ALL = ["movement", "retreats", "adjustments", "text worded", "jsonl", "options", "game loop",
       "superdiplomacy", "startup"]


def compare(positions: str, args: argparse.Namespace, rules: Rules, dip: Diplomacy,
            chosen: list[str]) -> None:
    """The adjudication paths on one set of positions, side by side with ``diplomacy``."""
    years = args.coordinated_years if positions == "coordinated" else args.years
    rec = record(args.games, args.seed, years, rules, positions)
    units = sorted(len(p.position.units) for p in rec.movement)
    orders = sorted(sum(map(len, p.orders.values())) for p in rec.movement)
    who = "games of the greedy player" if positions == "coordinated" else "random games"
    print(f"\n{positions}: {args.games} {who} of up to {years} years (seed {args.seed}): "
          f"{len(rec.movement)} movement phases ({units[0]}-{units[-1]} units, median "
          f"{units[len(units) // 2]}; median {orders[len(orders) // 2]} orders), "
          f"{len(rec.retreats)} retreat phases, {len(rec.adjustments)} adjustment phases")
    print(f"{'path':<13}{'calhamer':>13}{'diplomacy':>13}   ratio (range), per phase")
    theirs = diplomacy_side(rec, dip)
    prepared = calhamer_side(rec, rules, args.inputs)
    counts = {"movement": len(rec.movement), "retreats": len(rec.retreats),
              "adjustments": len(rec.adjustments), "text worded": len(rec.movement),
              "jsonl": len(rec.movement), "options": len(rec.movement)}
    for name in ALL[:6]:
        if name in chosen and counts[name]:
            print(interleaved(name, prepared[name], theirs[name], args.repeats,
                              counts[name], held=positions == "coordinated").line(),
                  flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games to play per set (10)")
    parser.add_argument("--positions", choices=("both", "coordinated", "random"),
                        default="both", help="the positions timed: games of the greedy "
                        "player (coordinated: supports, convoys, cuts, bounces), random games, "
                        "or both (the default; the targets are held on the coordinated set)")
    parser.add_argument("--years", type=int, default=8,
                        help="years played per random game (8)")
    parser.add_argument("--coordinated-years", type=int, default=19,
                        help="years played per game of the greedy player, unless a solo ends "
                        "it first (19: to 1920)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (1)")
    parser.add_argument("--repeats", type=int, default=7, help="timings of each path (7)")
    parser.add_argument("--rules", default="datc", help="calhamer rule edition (datc)")
    parser.add_argument("--only", action="append", choices=ALL, help="time only these paths")
    parser.add_argument("--profile", choices=ALL[:7], help="a cProfile of calhamer on a path")
    parser.add_argument("--build", default="plain", metavar="plain|compiled|DIR",
                        help="which build to measure: this checkout as plain Python (plain), "
                        "its compiled build made in a temporary folder (compiled), or a build "
                        "installed in DIR")
    parser.add_argument("--inputs", choices=("fresh", "recorded"), default="fresh",
                        help="calhamer's positions and orders made anew before each run, as "
                        "diplomacy's games are (fresh), or the recorded ones (recorded, the "
                        "method before 2026-11-24's third day: calhamer's inputs cold)")
    args = parser.parse_args(argv)
    if os.environ.get("CALHAMER_BENCH_BUILD") == "compiled" and not calhamer.compiled:
        sys.exit(f"bench_all: asked for the compiled build, but {calhamer.__file__} is plain "
                 "Python")
    rules = find_rules(args.rules)
    chosen = args.only or ALL
    sets = ["coordinated", "random"] if args.positions == "both" else [args.positions]

    if args.profile:
        years = args.coordinated_years if sets[0] == "coordinated" else args.years
        rec = record(args.games, args.seed, years, rules, sets[0])
        if args.profile == "game loop":
            profile(lambda: calhamer_loop(args.seed, args.years, rules), "game loop",
                    args.repeats)
        else:
            profile(paths(rec, rules, None)[args.profile], args.profile, args.repeats)
        return

    judge = bm.load_diplomacy(Position.initial("standard").map)
    if judge is None:
        sys.exit("bench_all compares with the diplomacy package: pip install -e '.[bench]'")
    dip = Diplomacy(judge)
    build = "compiled" if calhamer.compiled else "plain Python"
    print(f"calhamer {calhamer.__version__} ({build}) from {Path(calhamer.__file__).parent}")
    print(f"CPU time, {args.repeats} repeats, interleaved; calhamer's inputs {args.inputs}; "
          "targets held on the coordinated positions")
    for positions in sets:
        if any(name in chosen for name in ALL[:6]):
            compare(positions, args, rules, dip, chosen)
    if "game loop" in chosen:
        ratio = interleaved(
            "game loop", lambda: lambda: calhamer_loop(args.seed, args.years, rules),
            lambda: lambda: diplomacy_loop(args.seed, args.years), max(3, args.repeats // 2), 1,
            held=False)
        print("\n" + ratio.line(), "(one random game)", flush=True)
    if "superdiplomacy" in chosen:
        print("\npossible orders for every power, Superdiplomacy board (linear in what "
              "is listed: µs an order flat)")
        print("\n".join(superdiplomacy_scaling(args.repeats)), flush=True)
    if "startup" in chosen:
        print()
        print("\n".join(startup(max(5, args.repeats))))


if __name__ == "__main__":
    main()
