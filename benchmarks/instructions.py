"""Instructions a phase on one of ``bench_all.py``'s paths, counted by callgrind.

CPU time moves with whatever else the machine runs; the number of instructions does not.
This runs the path under ``valgrind --tool=callgrind`` twice, once and three times over the
same recorded phases (after a warm-up run that fills the memos), and prints the difference
over two runs, per phase: the path's own cost, without start-up or recording.

    python benchmarks/instructions.py movement
    python benchmarks/instructions.py retreats --games 10     # retreats are rarer
    PYTHONPATH=DIR python benchmarks/instructions.py movement # a build installed in DIR

Paths: movement, retreats, adjustments, worded (order text, results worded), jsonl, options;
and ``steps``, the movement path step by step (each step counted as the path stopped after it,
less the path stopped before it):

    python benchmarks/instructions.py steps   # set-up, reading, table, resolver, the rest
The garbage collector is off while the path runs, as ``bench_all.py`` times it, and the
string hash is fixed (``PYTHONHASHSEED=0``), so that two runs of one tree agree.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PATHS = ("movement", "retreats", "adjustments", "worded", "jsonl", "options", "steps")
# The movement path's steps, in the order they run; a child runs the path up to the end of one.
STEPS = ("setting the reading up", "reading and checking the orders", "finishing the table",
         "the resolver", "the board after, the next phase and the outcome")


def movement_up_to(step: int, rules: Any) -> Callable[[Any], object]:
    """The standard movement phase of ``adjudicate`` (the public pieces it is made of) run up
    to the end of ``STEPS[step]`` (the last step: the whole phase)."""
    from calhamer.adjudicator import MovementResolver, resolve_movement
    from calhamer.phases import adjudicate
    from calhamer.phases.movement import MovementReading

    def run(phase: Any) -> object:
        if step == len(STEPS) - 1:
            return adjudicate(phase.position, phase.orders, rules)
        reading = MovementReading(phase.position, rules)
        if step == 0:
            return reading
        reading.add_all(phase.orders)
        if step == 1:
            return reading
        table = reading.order_table(rules)
        if step == 2:
            return table
        return resolve_movement(table, MovementResolver)
    return run


def run_path(path: str, repeats: int, games: int, step_number: int = 0) -> None:
    """In the child: record the games, warm the path up, then run it ``repeats`` times."""
    sys.path.insert(0, str(HERE))
    import bench_all

    from calhamer.rules import find_rules

    rules = find_rules(None)
    recorded = bench_all.record(games, 1, 6, rules)
    if path == "steps":
        step = movement_up_to(step_number, rules)
        phases = recorded.movement

        def run_steps() -> None:
            for phase in phases:
                step(phase)
        gc.collect()
        gc.disable()
        run_steps()
        for _ in range(repeats):
            run_steps()
        print("PHASES", len(phases))
        return
    paths = bench_all.paths(recorded, rules, None)
    paths["worded"] = paths["text worded"]
    run = paths[path]
    gc.collect()
    gc.disable()
    run()
    for _ in range(repeats):
        run()
    phases = {"retreats": recorded.retreats, "adjustments": recorded.adjustments}
    print("PHASES", len(phases.get(path, recorded.movement)))


def count(path: str, repeats: int, games: int, step: int = 0) -> tuple[int, int]:
    """Instructions of a child running ``path`` ``repeats`` times (for ``steps``, up to the
    end of ``STEPS[step]``), and its phases."""
    env = dict(os.environ, CALHAMER_INSTRUCTIONS_CHILD="1", PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, path, "--repeats", str(repeats), "--games", str(games), "--step", str(step)],
        env=env, capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    phases = re.search(r"PHASES (\d+)", done.stdout)
    if done.returncode != 0 or collected is None or phases is None:
        sys.exit(f"instructions: the run under valgrind failed:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), int(phases.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", choices=PATHS)
    parser.add_argument("--step", type=int, help=argparse.SUPPRESS)  # a child's step of steps
    parser.add_argument("--games", type=int, default=4, help="random games recorded (4)")
    parser.add_argument("--repeats", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if os.environ.get("CALHAMER_INSTRUCTIONS_CHILD"):
        run_path(args.path, args.repeats, args.games, args.step or 0)
        return
    if args.path == "steps":
        before = 0.0
        for i, name in enumerate(STEPS):
            once, phases = count("steps", 1, args.games, i)
            thrice, _ = count("steps", 3, args.games, i)
            upto = (thrice - once) / 2 / phases
            print(f"{name}: {(upto - before) / 1000:.0f} k instructions a phase "
                  f"(the path up to here: {upto / 1000:.0f} k; {phases} phases)", flush=True)
            before = upto
        return
    once, phases = count(args.path, 1, args.games)
    thrice, _ = count(args.path, 3, args.games)
    per_phase = (thrice - once) / 2 / phases
    print(f"{args.path}: {per_phase / 1000:.0f} k instructions a phase ({phases} phases)")


if __name__ == "__main__":
    main()
