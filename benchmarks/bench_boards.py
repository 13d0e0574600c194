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
  unit ordered to move: arrows, failures);
- **a new process**: the board's first load and its first picture in a fresh interpreter
  (beyond its imports; the median of 3), where no cache of the loader or the SVG writer
  helps. The first load of any board in a process also builds the map file's checking
  model, which the loads above (a second board, its cache cleared) do not pay again.

    python benchmarks/bench_boards.py [--repeat R]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from timing import timed  # (benchmarks/timing.py: run as a script, its folder is on the path)

from calhamer import Position, adjudicate
from calhamer.map import load_map
from calhamer.options import possible_order_texts
from calhamer.render import geometry as geometry_module
from calhamer.render import geometry_for, render_svg

LOADED = ["standard", "dpjudge/youngstown", "godip/youngstown-redux", "godip/twenty-twenty"]
DRAWN = ["dpjudge/youngstown", "godip/youngstown-redux", "godip/twenty-twenty"]


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
    print(f"{'load a board (cache cleared)':<50} median     best   provinces")
    for name in LOADED:
        med, best = timed(lambda name=name: _load(name), args.repeat)
        size = len(load_map(name).provinces)
        print(f"  {name:<48} {med:7.1f} ms {best:7.1f} ms   {size}")
    print(f"{'a large board picture':<50} median     best")
    for name in DRAWN:
        board = load_map(name)
        start = Position.initial(board)
        outcome = adjudicate(start, _moves(start))
        med, best = timed(lambda name=name: _first_picture(name), max(3, args.repeat // 3))
        print(f"  {name + ': first (drawing read)':<48} {med:7.1f} ms {best:7.1f} ms")
        geometry_for(load_map(name))
        med, best = timed(lambda start=start: render_svg(start), args.repeat)
        print(f"  {name + ': start':<48} {med:7.1f} ms {best:7.1f} ms")
        med, best = timed(lambda outcome=outcome: render_svg(outcome=outcome), args.repeat)
        print(f"  {name + ': results':<48} {med:7.1f} ms {best:7.1f} ms")
        runs = [fresh_process(name) for _ in range(3)]
        for i, what in enumerate(("new process: first load", "new process: first picture")):
            times = sorted(run[i] for run in runs)
            print(f"  {name + ': ' + what:<48} {times[1]:7.1f} ms {times[0]:7.1f} ms")


def fresh_process(name: str) -> tuple[float, float]:
    """CPU times of a new process's first load of ``name`` and its first picture (the
    drawing read, the picture drawn), beyond the imports, in milliseconds."""
    import subprocess

    code = ("import time, sys; from calhamer import Position; from calhamer.map import "
            "load_map; from calhamer.render import render_svg; import pydantic; "
            "t = time.process_time(); m = load_map(sys.argv[1]); u = time.process_time(); "
            "render_svg(Position.initial(m)); v = time.process_time(); "
            "print((u - t) * 1000, (v - u) * 1000)")
    src = str(Path(__file__).resolve().parents[1] / "src")
    out = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"})
    load, picture = out.stdout.split()
    return float(load), float(picture)


if __name__ == "__main__":
    main()
