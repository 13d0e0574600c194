"""Instructions a phase on one of ``bench_all.py``'s paths, counted by callgrind.

CPU time moves with whatever else the machine runs; the number of instructions does not.
This runs the path under ``valgrind --tool=callgrind`` twice, once and three times over the
same recorded phases (after a warm-up run that fills the memos), and prints the difference
over two runs, per phase: the path's own cost, without start-up or recording.

    python benchmarks/instructions.py movement
    python benchmarks/instructions.py retreats --games 10     # retreats are rarer
    PYTHONPATH=DIR python benchmarks/instructions.py movement # a build installed in DIR

Paths: movement, retreats, adjustments, worded (order text, results worded), jsonl, options.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATHS = ("movement", "retreats", "adjustments", "worded", "jsonl", "options")


def run_path(path: str, repeats: int, games: int) -> None:
    """In the child: record the games, warm the path up, then run it ``repeats`` times."""
    sys.path.insert(0, str(HERE))
    import bench_all

    from calhamer.rules import find_rules

    rules = find_rules(None)
    recorded = bench_all.record(games, 1, 6, rules)
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


def count(path: str, repeats: int, games: int) -> tuple[int, int]:
    """Instructions of a child running ``path`` ``repeats`` times, and its phases."""
    env = dict(os.environ, CALHAMER_INSTRUCTIONS_CHILD="1", PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, path, "--repeats", str(repeats), "--games", str(games)],
        env=env, capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    phases = re.search(r"PHASES (\d+)", done.stdout)
    if done.returncode != 0 or collected is None or phases is None:
        sys.exit(f"instructions: the run under valgrind failed:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), int(phases.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", choices=PATHS)
    parser.add_argument("--games", type=int, default=4, help="random games recorded (4)")
    parser.add_argument("--repeats", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if os.environ.get("CALHAMER_INSTRUCTIONS_CHILD"):
        run_path(args.path, args.repeats, args.games)
        return
    once, phases = count(args.path, 1, args.games)
    thrice, _ = count(args.path, 3, args.games)
    per_phase = (thrice - once) / 2 / phases
    print(f"{args.path}: {per_phase / 1000:.0f} k instructions a phase ({phases} phases)")


if __name__ == "__main__":
    main()
