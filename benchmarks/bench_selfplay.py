"""Self-play speed: whole random games per second, calhamer beside the ``diplomacy`` package.

Both loops do the same thing: start a standard game, and until the year limit give every
orderable unit of every power a uniformly random possible order (in winter, as many random
builds or removals as are due), then process the phase. Time is CPU time
(``time.process_time``), since the machines running benchmarks are shared. The ``diplomacy``
package is needed for the comparison (``pip install -e '.[bench]'``).

    python benchmarks/bench_selfplay.py [--games N] [--max-year Y] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from calhamer import Game
from calhamer.bots import BotView, random_policy


def calhamer_game(seed: str, max_year: int) -> int:
    """One random game with calhamer's Game; returns the number of phases played."""
    game = Game.new("standard", max_year=max_year)
    while not game.is_done():
        for power in game.powers():
            options = game.possible_orders(power)
            view = BotView(power, game.current.phase, game.current, None,
                           game.orders_due(power), game.rules,
                           random.Random(f"{seed}:{game.phase}:{power}"))
            game.set_orders(power, random_policy(view, options), check=False)
        game.process()
    return len(game.phases)


def diplomacy_game(seed: str, max_year: int) -> int:
    """The same loop with the ``diplomacy`` package's Game."""
    from diplomacy import Game as PackageGame

    game = PackageGame()
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
        possible = game.get_all_possible_orders()
        for name, power in game.powers.items():
            rng = random.Random(f"{seed}:{game.get_current_phase()}:{name}")
            locations = game.get_orderable_locations(name)
            if game.get_current_phase().endswith("A"):
                due = len(power.centers) - len(power.units)
                kind = " B" if due > 0 else " D"
                places = [loc for loc in locations
                          if any(o.endswith(kind) for o in possible[loc])]
                chosen = rng.sample(places, min(abs(due), len(places)))
                orders = [rng.choice([o for o in possible[loc] if o.endswith(kind)])
                          for loc in chosen]
            else:
                orders = [rng.choice(possible[loc]) for loc in locations if possible[loc]]
            game.set_orders(name, orders)
        game.process()
    return len(game.state_history) + 1


def measure(play: Callable[[str, int], int], games: int, seed: int, max_year: int
            ) -> tuple[float, int]:
    start = time.process_time()
    phases = sum(play(f"{seed}:{n}", max_year) for n in range(games))
    return time.process_time() - start, phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-year", type=int, default=1905)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ours, phases = measure(calhamer_game, args.games, args.seed, args.max_year)
    print(f"calhamer:  {args.games / ours:8.2f} games/s  ({phases} phases, {ours:.2f} s CPU)")
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("diplomacy: not installed (pip install -e '.[bench]')")
        return
    theirs, phases = measure(diplomacy_game, args.games, args.seed, args.max_year)
    print(f"diplomacy: {args.games / theirs:8.2f} games/s  ({phases} phases, {theirs:.2f} s CPU)")
    print(f"calhamer is {theirs / ours:.2f}x the package's speed")


if __name__ == "__main__":
    main()
