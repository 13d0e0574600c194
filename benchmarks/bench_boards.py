"""How fast boards load and how fast a large board's picture is drawn from its shipped drawing.

Targets (issue 28): loading a board under 50 ms; a large board's picture under 200 ms once
its geometry exists. Timed, each as the median (and best) of ``--repeat`` calls, in the
process's CPU time:

- **load**: ``load_map`` of a shipped board with its cache cleared (the modules it needs
  already imported, as in a running judge): the standard board, DPjudge's Youngstown, godip's
  Youngstown Redux and Twenty Twenty;
- **first picture**: the board's start drawn with its geometry file read anew (the cache of
  drawings cleared): what the first picture of a board costs a fresh process;
- **picture**: the same with the drawing cached, and the picture of a phase's results (every
  unit ordered to move: arrows, failures).

    python benchmarks/bench_boards.py [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from calhamer import Position, adjudicate
from calhamer.map import load_map
from calhamer.options import possible_order_texts
from calhamer.render import geometry as geometry_module
from calhamer.render import geometry_for, render_svg

LOADED = ["standard", "dpjudge/youngstown", "godip/youngstown-redux", "godip/twenty-twenty"]
DRAWN = ["dpjudge/youngstown", "godip/youngstown-redux", "godip/twenty-twenty"]


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and best CPU time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times), min(times)


def _load(name: str) -> None:
    load_map.cache_clear()
    load_map(name)


def _first_picture(name: str) -> None:
    geometry_module._GEOMETRY_CACHE.clear()
    geometry_module._packaged.cache_clear()
    render_svg(Position.initial(load_map(name)))


def _moves(position: Position) -> dict[str, list[str]]:
    return {power: [choices[1] if len(choices) > 1 else choices[0]
                    for _, choices in possible_order_texts(position, power) if choices]
            for power in position.map.power_codes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="calls timed each (15)")
    args = parser.parse_args()
    load_map("standard")  # pydantic and the loader's modules imported once
    print("load a board (cache cleared)               median     best   provinces")
    for name in LOADED:
        med, best = timed(lambda name=name: _load(name), args.repeat)
        size = len(load_map(name).provinces)
        print(f"  {name:<40} {med:7.1f} ms {best:7.1f} ms   {size}")
    print("a large board's picture                    median     best")
    for name in DRAWN:
        board = load_map(name)
        start = Position.initial(board)
        outcome = adjudicate(start, _moves(start))
        med, best = timed(lambda name=name: _first_picture(name), max(3, args.repeat // 3))
        print(f"  {name + ': first (drawing read)':<40} {med:7.1f} ms {best:7.1f} ms")
        geometry_for(load_map(name))
        med, best = timed(lambda start=start: render_svg(start), args.repeat)
        print(f"  {name + ': start':<40} {med:7.1f} ms {best:7.1f} ms")
        med, best = timed(lambda outcome=outcome: render_svg(outcome=outcome), args.repeat)
        print(f"  {name + ': results':<40} {med:7.1f} ms {best:7.1f} ms")


if __name__ == "__main__":
    main()
