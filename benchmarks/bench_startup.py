"""What a fresh process pays before its first result: loading a board, one ``calhamer
adjudicate`` call, and the first game of ``calhamer simulate``.

Each figure is the CPU time (user and system) of a fresh Python process, read from the
operating system after it ends, the least and the median over the repeats:

- ``python -c pass``: the interpreter alone, on this machine (its site packages included);
- ``import calhamer``: the interpreter and the library;
- ``load_map(NAME)``: one shipped board (the standard board, a godip board, a DPjudge board)
  loaded in a fresh process after ``import calhamer``, timed inside it; target: under 20 ms;
- ``calhamer adjudicate``: the command on one Spring 1901 phase with orders; target: under
  100 ms in all;
- ``first game``: ``calhamer simulate --games 1`` to 1901 (the first game's latency), and to
  1910.

    python benchmarks/bench_startup.py                 # the build on the path
    python benchmarks/bench_startup.py --repeats 15

Run it from the checkout (it puts ``src`` first on the path unless ``--installed``), on a
quiet machine; benchmarks/both_builds.sh runs it on plain Python and on the compiled build.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
BOARDS = ("standard", "godip/twenty-twenty", "dpjudge/1898")
ORDERS = {"FRANCE": ["A PAR-BUR", "A MAR S A PAR-BUR", "F BRE-MAO"],
          "GERMANY": ["A MUN-BUR", "A BER-KIE", "F KIE-DEN"],
          "ENGLAND": ["F LON-NTH", "F EDI-NWG", "A LVP-YOR"],
          "RUSSIA": ["F SEV-BLA", "A WAR-GAL", "A MOS-UKR", "F STP/SC-BOT"],
          "TURKEY": ["F ANK-BLA", "A CON-BUL", "A SMY-ARM"],
          "AUSTRIA": ["A VIE-GAL", "A BUD-SER", "F TRI-ALB"],
          "ITALY": ["A VEN-TYR", "A ROM-APU", "F NAP-ION"]}


def cpu_ms(argv: list[str], env: dict[str, str], repeats: int) -> list[float]:
    """The CPU milliseconds of ``repeats`` fresh processes running ``argv``, sorted."""
    times = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(1000 * (after.ru_utime + after.ru_stime
                             - before.ru_utime - before.ru_stime))
    return sorted(times)


def load_ms(board: str, env: dict[str, str], repeats: int) -> list[float]:
    """The CPU milliseconds of ``load_map(board)`` in ``repeats`` fresh processes (after
    ``import calhamer``, timed inside the process), sorted."""
    code = ("import time, calhamer\nstart = time.process_time()\n"
            f"calhamer.load_map({board!r})\nprint(1000 * (time.process_time() - start))")
    return sorted(float(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                       capture_output=True, text=True).stdout)
                  for _ in range(repeats))


def line(label: str, times: list[float], base: list[float] | None = None,
         target: float | None = None) -> str:
    least, median = times[0], statistics.median(times)
    text = f"  {label:<34} least {least:6.1f} ms, median {median:6.1f} ms"
    if base is not None:
        share = least - base[0], median - statistics.median(base)
        text += f"   (its share: {share[0]:5.1f} / {share[1]:5.1f} ms)"
        if target is not None:
            text += f" {'meets' if share[0] < target else 'misses'} < {target:g} ms"
    elif target is not None:
        text += f"   {'meets' if least < target else 'misses'} < {target:g} ms"
    return text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--installed", action="store_true",
                        help="the calhamer installed, not the checkout's src")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    if not args.installed:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(SRC), env.get("PYTHONPATH"))))
    py = sys.executable
    build = subprocess.run([py, "-m", "calhamer", "--version"], env=env, check=True,
                           capture_output=True, text=True).stdout.strip()
    print(f"{build}; Python {sys.version.split()[0]}; CPU time of a fresh process, "
          f"{args.repeats} repeats")
    r = args.repeats
    bare = cpu_ms([py, "-c", "pass"], env, r)
    print(line("python -c pass", bare))
    imported = cpu_ms([py, "-c", "import calhamer"], env, r)
    print(line("import calhamer", imported, bare))
    for board in BOARDS:
        print(line(f"load_map({board!r})", load_ms(board, env, r), target=20))
    with tempfile.TemporaryDirectory() as folder:
        phase = Path(folder, "phase.json")
        new = subprocess.run([py, "-m", "calhamer", "new"], env=env, check=True,
                             capture_output=True, text=True).stdout
        doc = json.loads(new)
        doc["orders"] = ORDERS
        phase.write_text(json.dumps(doc), encoding="utf-8")
        adjudicate = cpu_ms([py, "-m", "calhamer", "adjudicate", str(phase)], env, r)
        print(line("calhamer adjudicate (one phase)", adjudicate, bare))
        print(f"  {'':<34} in all: least {adjudicate[0]:.1f} ms "
              f"{'meets' if adjudicate[0] < 100 else 'misses'} < 100 ms")
        out = Path(folder, "games.jsonl")
        for year in (1901, 1910):
            sim = [py, "-m", "calhamer", "simulate", "--games", "1", "--max-year", str(year),
                   "--quiet", "--out", str(out)]
            print(line(f"first game, to {year}", cpu_ms(sim, env, r), bare))


if __name__ == "__main__":
    main()
