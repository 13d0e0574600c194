"""Adjudication speed per unit on large variant boards beside the standard board.

The question: does calhamer adjudicate a phase on Youngstown Redux (10 powers, 183 provinces)
or Twenty Twenty (20 powers, 215 provinces) as fast, per unit on the board, as on the standard
board? Seeded games of the greedy player (:func:`calhamer.bots.greedy_policy`: supports,
convoys, cuts and bounces, as real play looks) are played on each board under its variant's
own rules, and every phase recorded. Each board's recorded phases are then adjudicated with
:func:`calhamer.phases.adjudicate`, in CPU time (``time.process_time``, the garbage collector
off), ``--repeats`` times; the median is divided by the phases and by the units they hold.
The inputs of each run (positions and order lists) are fresh copies made untimed just before
it, for every board alike.

    python benchmarks/bench_boards_speed.py                    # the three boards
    python benchmarks/bench_boards_speed.py --games 4 --years 6
    python benchmarks/bench_boards_speed.py --variant hundred  # and another board

See ``benchmarks/README.md`` ("Variant boards") for the figures measured.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from bench_movement import greedy_orders  # (benchmarks/: the script's folder is on the path)
from timing import median_cpu  # (benchmarks/timing.py: its folder is on the path)

from calhamer import Game
from calhamer.orders import AnyOrder
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.rules import Rules, find_rules
from calhamer.variants import find_variant

BOARDS = ("standard", "youngstown-redux", "twenty-twenty")


@dataclass
class Recorded:
    """One board's recorded phases, by kind (M, R, A): each a position and its orders."""

    variant: str
    rules: Rules
    phases: dict[str, list[tuple[Position, dict[str, list[AnyOrder]]]]] = field(
        default_factory=lambda: {"M": [], "R": [], "A": []})

    def units(self, kind: str) -> int:
        """Units on the board over the recorded phases of ``kind`` (dislodged ones included)."""
        return sum(len(p.units) + len(p.dislodged) for p, _ in self.phases[kind])


def record(variant: str, games: int, years: int, seed: int) -> Recorded:
    """Play ``games`` greedy games of ``years`` movement years (or to a solo) on ``variant``."""
    rules = find_rules(Game.new(variant).rules)
    out = Recorded(variant, rules)
    for game in range(games):
        rng = random.Random(f"{seed}:{variant}:{game}")
        position = Position.initial(variant=find_variant(variant))
        first = position.phase.year
        while position.phase.year < first + years and position.winner() is None:
            orders = greedy_orders(position, rng, rules)
            out.phases[position.phase.kind].append((position, orders))
            position = adjudicate(position, orders, rules).next
    return out


def time_kind(recorded: Recorded, kind: str, repeats: int) -> float:
    """Median CPU seconds to adjudicate every recorded phase of ``kind`` once."""
    rules = recorded.rules

    def prepare() -> Callable[[], object]:
        inputs = [(p.replace(units=dict(p.units), centers=dict(p.centers)),
                   {power: list(given) for power, given in orders.items()})
                  for p, orders in recorded.phases[kind]]

        def run() -> None:
            for position, orders in inputs:
                adjudicate(position, orders, rules)

        return run

    return median_cpu(prepare, repeats)


KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="greedy games per board (4)")
    parser.add_argument("--years", type=int, default=6,
                        help="movement years per game, unless a solo ends it first (6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--variant", action="append", default=[],
                        help="another board to time beside the standard one (repeatable)")
    args = parser.parse_args(argv)
    boards = list(dict.fromkeys([*BOARDS, *args.variant]))
    recorded = {b: record(b, args.games, args.years, args.seed) for b in boards}
    print(f"greedy games: {args.games} per board, {args.years} years each, seed {args.seed}; "
          f"CPU time, median of {args.repeats}")
    print(f"{'board':<20} {'path':<12} {'phases':>6} {'units/phase':>11} "
          f"{'µs/phase':>9} {'µs/unit':>8} {'per unit vs standard':>21}")
    standard: dict[str, float] = {}
    for board in boards:
        rec = recorded[board]
        for kind, name in KINDS.items():
            phases = len(rec.phases[kind])
            units = rec.units(kind)
            if not phases or not units:
                continue
            seconds = time_kind(rec, kind, args.repeats)
            per_unit = seconds / units * 1e6
            if board == "standard":
                standard[kind] = per_unit
            ratio = f"{per_unit / standard[kind]:.2f}x" if kind in standard else ""
            print(f"{board:<20} {name:<12} {phases:>6} {units / phases:>11.1f} "
                  f"{seconds / phases * 1e6:>9.0f} {per_unit:>8.2f} {ratio:>21}")


if __name__ == "__main__":
    main()
