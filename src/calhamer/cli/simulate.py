"""``calhamer simulate``: many games played by bots, on all cores or a Dask cluster.

    calhamer simulate --games 100 --variant standard --policy random --max-year 1905 \\
        --seed 7 --out games.jsonl [--workers K] [--dask ADDRESS|local]

Each game is one JSON line in ``--out`` (its result, and the whole game file), in the order
of the games; the lines for a seed are the same however many workers or machines play them
(:mod:`calhamer.simulate`). A progress bar goes to standard error and a summary follows.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from calhamer.cli.io import OK, VARIANT_HELP, UserError
from calhamer.pieces import Phase
from calhamer.simulate import GameSpec, Summary, load_policy, run_played, timed
from calhamer.variant import Variant
from calhamer.variants import find_variant

HELP = "play many games with bots (all cores, or a Dask cluster)"
DESCRIPTION = (
    "Play --games games of a variant with one policy for every power, each to a solo, the "
    "last power standing or the year limit, and write one JSON line per game. A policy is "
    "'random' or module:function, called with a power's view and its possible orders "
    "(calhamer.bots). Results for a seed are the same for any --workers or --dask."
)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of at least 1")
    return value


def _year(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text} is not a year, like 1905") from None


def add_parsers(sub: Any) -> None:
    """Add the ``simulate`` command to the command line's subparsers."""
    p = sub.add_parser("simulate", help=HELP, description=DESCRIPTION)
    p.add_argument("--games", type=_positive, default=1, metavar="N", help="games to play")
    p.add_argument("--variant", default="standard", help=VARIANT_HELP + " (default: standard)")
    p.add_argument("--policy", default="random", metavar="random|greedy|module:function",
                   help="the bot playing every power (default: random)")
    p.add_argument("--max-year", type=_year, default=None, metavar="Y",
                   help="the last year played; the survivors then draw (default: four "
                   "movement years after the variant's start, 1905 for the standard game)")
    p.add_argument("--seed", default="0", metavar="S", help="the run's seed (default: 0)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="the JSON lines file to write (default: standard output)")
    p.add_argument("--workers", type=_positive, metavar="K",
                   help="processes (default: every core; with --dask local, its workers)")
    p.add_argument("--dask", metavar="ADDRESS|local",
                   help="play on a Dask cluster: a scheduler's address, or local")
    p.add_argument("--no-games", action="store_true",
                   help="write each game's result only, not the whole game")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_simulate)


def default_last_year(variant: Variant) -> int:
    """Four movement years after the variant's first: 1905 for a game that starts in 1901,
    1445 for Hundred (a year step of five), 2005 for Twenty Twenty."""
    from calhamer.map import load_map

    board = load_map(variant.map_name)
    # A board's calendar may step several years a movement phase (docs/variants.md).
    step = getattr(getattr(board.file, "calendar", None), "year_step", None) or 1
    return Phase.parse(board.start_phase).year + 4 * int(step)


def cmd_simulate(args: argparse.Namespace) -> int:
    found = find_variant(args.variant)
    variant = found.name
    load_policy(args.policy)
    last = args.max_year if args.max_year is not None else default_last_year(found)
    spec = GameSpec(variant, args.policy, last, str(args.seed), not args.no_games)
    summary = Summary()
    lines = timed(run_played(spec, args.games, workers=args.workers, dask=args.dask), summary)
    try:
        out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    except OSError as exc:
        raise UserError(f"{args.out}: {exc.strerror}") from None
    try:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", disable=args.quiet, file=sys.stderr)
    except ImportError:  # the bar is a nicety: without tqdm the run goes on silently
        bar = None
    try:
        for line in lines:
            out.write(line.text + "\n")
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
        if out is not sys.stdout:
            out.close()
    print(summary.text(), file=sys.stderr)
    return OK
