"""How ``calhamer simulate`` scales with its workers on the machine at hand.

Plays the same seeded games with 1 worker and then with 2, 4, ... up to the number of cores,
each run a fresh ``calhamer simulate`` process (its start, its workers' start and writing the
games included, as a user meets them), and prints games a second and the speed-up over one
worker. The target: K workers play at least 0.9 K times as many games a second as one (on two
cores, 2 workers at least 1.8 times one), and the output is the same file whatever K.

    python benchmarks/bench_simulate.py                  # 200 games to 1910, random policy
    python benchmarks/bench_simulate.py --games 400 --policy greedy --repeats 3

Scaling is a matter of elapsed time (K processes at once), so this one script reads the wall
clock; run it on a machine that is otherwise quiet, and look at the range over the repeats.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 0.9  # of K times one worker's rate


def one_run(games: int, workers: int, policy: str, max_year: int, out: Path) -> float:
    """Seconds for one ``calhamer simulate`` process to play ``games`` with ``workers``."""
    argv = [sys.executable, "-m", "calhamer", "simulate", "--games", str(games),
            "--workers", str(workers), "--policy", policy, "--max-year", str(max_year),
            "--seed", "bench", "--quiet", "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(argv, check=True, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--policy", default="random")
    parser.add_argument("--max-year", type=int, default=1910)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    counts = [1] + [k for k in (2, 4, 8, 16, 32, 64) if k <= cores]
    print(f"calhamer simulate, {args.games} games to {args.max_year}, policy {args.policy}, "
          f"{cores} cores, {args.repeats} repeats (wall clock: the machine should be quiet)")
    with tempfile.TemporaryDirectory() as folder:
        outputs = {k: Path(folder, f"k{k}.jsonl") for k in counts}
        rates: dict[int, list[float]] = {k: [] for k in counts}
        for _ in range(args.repeats):  # the worker counts interleaved, so load hits all alike
            for k in counts:
                seconds = one_run(args.games, k, args.policy, args.max_year, outputs[k])
                rates[k].append(args.games / seconds)
        alone = statistics.median(rates[1])
        for k in counts:
            rate = statistics.median(rates[k])
            low, high = min(rates[k]) / alone, max(rates[k]) / alone
            same = filecmp.cmp(outputs[1], outputs[k], shallow=False)
            verdict = ""
            if k > 1:
                verdict = f"  target {TARGET * k:.1f}x: " + (
                    "met" if rate / alone >= TARGET * k else "not met")
            print(f"{k:>3} workers: {rate:7.1f} games/s  {rate / alone:5.2f}x "
                  f"({low:.2f}-{high:.2f}){verdict}  output {'same' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()
