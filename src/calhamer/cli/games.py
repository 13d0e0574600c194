"""``calhamer game``: a whole game kept in one file, changed under a lock; ``calhamer verify``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any

from calhamer.cli.io import (
    BAD_ORDERS,
    OK,
    VARIANT_NAMES,
    Parser,
    UserError,
    dumps,
    full_report,
    in_map_order,
    power_name,
    read_text,
)
from calhamer.game import Game, game_view, locked, write_atomically
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.rules import EDITIONS
from calhamer.variants import find_variant


def _load_game(path: str) -> Game:
    try:
        return Game.load(path)
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a directory, not a game file") from None
    except PermissionError:
        raise UserError(f"{path}: permission denied") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text") from None


def _save_game(game: Game, path: str) -> None:
    try:
        game.save(path)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _game_lock(path: str, failure: str) -> Iterator[None]:
    """Hold the game file's lock (``<path>.lock``, see :func:`calhamer.game.locked`); a lock
    that cannot be taken is a UserError starting with ``failure``."""
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(locked(path))
        except OSError as exc:
            raise UserError(f"{failure}: {exc.strerror or exc}") from None
        yield


@contextlib.contextmanager
def _changing_game(path: str) -> Iterator[Game]:
    """The game in ``path``, saved when the block ends without an error, with the file
    locked from reading to saving so that a change made at the same time by another command
    waits for this one rather than being lost."""
    if not os.path.isfile(path):
        _load_game(path)  # the usual error (no such file...), leaving no lock file behind
    with _game_lock(path, f"cannot lock {path} (by {path}.lock beside it)"):
        game = _load_game(path)
        yield game
        _save_game(game, path)


def cmd_game_new(args: argparse.Namespace) -> int:
    game = Game.new(args.variant, args.rules)
    with _game_lock(args.file, f"cannot write {args.file}"):
        if os.path.exists(args.file) and not args.force:
            raise UserError(f"{args.file} already exists; use --force to replace it")
        _save_game(game, args.file)
    print(f"New {find_variant(game.variant).title} game in {args.file}: "
          f"{game.current.phase.name} ({game.current.phase.code}), rules {game.rules}")
    return OK


def cmd_game_orders(args: argparse.Namespace) -> int:
    lines = read_text(args.orders).splitlines()  # before the lock: stdin may take its time
    with _changing_game(args.file) as game:
        checks = game.set_orders(args.power, lines)
    position = game.current
    power = position.map.find_power(args.power) or args.power
    bad = [c for c in checks if not c.ok]
    for check in checks:
        if check.ok:
            print(f"ok     {check.canonical}")
        else:
            print(f"error  line {check.line}: {check.text.strip()}: {check.problem}")
    name = power_name(position, power)
    count = f"{len(checks)} order{'s' if len(checks) != 1 else ''}"
    print(f"Stored {count} for {name} in {position.phase.code}.")
    if bad:
        print(
            f"calhamer: warning: {len(bad)} of {len(checks)} orders of {name} are invalid; "
            "they are kept as written and will be judged invalid (the unit holds) unless "
            "replaced",
            file=sys.stderr,
        )
    return OK


def cmd_game_bids(args: argparse.Namespace) -> int:
    lines = read_text(args.bids).splitlines()  # before the lock: stdin may take its time
    with _changing_game(args.file) as game:
        problems = game.set_bids(args.power, lines)
    position = game.current
    power = position.map.find_power(args.power) or args.power
    count = len(game.bids.get(power, []))
    name = power_name(position, power)
    for problem in problems:
        print(f"error  {problem}")
    print(f"Stored {count} bid{'s' if count != 1 else ''} for {name} in {position.phase.code}.")
    if problems:
        print(
            f"calhamer: warning: {len(problems)} problem{'s' if len(problems) != 1 else ''} with "
            f"the bids of {name}; they are kept as written, and a bad bid is void (all of them "
            "if the allotment is exceeded) unless replaced",
            file=sys.stderr,
        )
    return OK


def cmd_game_tally(args: argparse.Namespace) -> int:
    from calhamer.variants.dp import bid_tally, tally_report

    game = _load_game(args.file)
    if not find_variant(game.variant).takes_bids:
        raise UserError(f"{find_variant(game.variant).title} has no bids")
    position, orders = game.phase_input(args.phase)
    if not position.phase.is_movement:
        raise UserError(f"{position.phase.code} is not a movement phase: it has no bids")
    sys.stdout.write(tally_report(position, bid_tally(position, orders, game.rules)))
    return OK


def cmd_game_process(args: argparse.Namespace) -> int:
    with _changing_game(args.file) as game:
        outcome = game.process()
    sys.stdout.write(full_report(outcome))
    return OK


def cmd_game_show(args: argparse.Namespace) -> int:
    if args.as_power:
        return _game_show_as(args)
    if args.phase:
        raise UserError("--phase goes with --as POWER (the gamemaster exports phases instead)")
    game = _load_game(args.file)
    position = game.current
    last = game.outcome()  # before printing: a bad earlier phase is an error, not half a page
    parts = [f"Game {args.file}: {find_variant(game.variant).title}, rules {game.rules}\n",
             position_report(position)]
    if not game.winner:
        received = game.orders
        lines = [
            f"{power_name(position, p)} ({len(received[p])})"
            for p in in_map_order(position, received)
        ]
        parts.append(f"\nOrders received: {', '.join(lines) if lines else 'none yet'}\n")
    if last is not None:
        parts += ["\n======\nLast phase\n\n", phase_report(last)]
    sys.stdout.write("".join(parts))
    return OK


def _game_show_as(args: argparse.Namespace) -> int:
    """What one power may know: its view of the current phase and of the last one played."""

    game = _load_game(args.file)
    current = game.current
    power = current.map.find_power(args.as_power)
    if power is None or current.map.is_minor(power):
        known = ", ".join(current.map.power_codes)
        raise UserError(f"{args.as_power!r} is not a power of this game; the powers are {known}")
    name = power_name(current, power)
    # Everything is worked out before anything is printed, so an error comes alone.
    parts = [f"Game {args.file}: {find_variant(game.variant).title}, rules {game.rules}, "
             f"as {name} sees it\n"]
    if args.phase is None:
        parts.append(power_position_report(current, power))
        if not game.winner:
            mine = game.orders.get(power, [])
            parts.append(f"\nYour orders received: {len(mine)}\n")
    if args.phase is not None:
        parts.append(phase_report(game_view(game, power, args.phase)))
    elif len(game.phases) > 1:
        parts += ["\n======\nLast phase\n\n", phase_report(game_view(game, power))]
    sys.stdout.write("".join(parts))
    return OK


def cmd_game_export(args: argparse.Namespace) -> int:
    game = _load_game(args.file)
    text = dumps(game.phase_document(args.phase)) + "\n"
    if args.output and args.output != "-":
        try:
            write_atomically(args.output, text)
        except OSError as exc:
            raise UserError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    return OK


def cmd_verify(args: argparse.Namespace) -> int:
    """Judge every processed phase of a game again and compare with what was recorded."""
    game = _load_game(args.file)
    checks = game.verify()
    print(f"Game {args.file}: {find_variant(game.variant).title}, rules {game.rules}")
    for check in checks:
        print(f"{check.phase}  {'ok' if check.ok else 'MISMATCH'}")
        for note in check.notes:
            print(f"    {note}")
        for problem in check.problems:
            print(f"    {problem}")
    bad = sum(not c.ok for c in checks)
    if not checks:
        print("No phase has been processed yet.")
    elif bad:
        print(f"{bad} of {len(checks)} phases do not come out as recorded.")
    else:
        print(f"All {len(checks)} processed phases come out exactly as recorded"
              " (every dice seed matches its commitment).")
    return BAD_ORDERS if bad else OK


def add_parsers(sub: Any) -> None:
    """``calhamer game ...`` (a whole game in one file) and ``calhamer verify``."""
    editions = ", ".join(EDITIONS)
    g = sub.add_parser("game", help="play a whole game kept in one file",
                       description="Play a whole game kept in one JSON file.")
    gsub = g.add_subparsers(dest="game_command", metavar="ACTION", parser_class=Parser)
    gsub.required = True

    p = gsub.add_parser("new", help="start a game file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--variant", default="standard", help=f"the variant ({VARIANT_NAMES})")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition ({editions})")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(run=cmd_game_new)

    p = gsub.add_parser("orders", help="store a power's orders for the current phase",
                        description="Store a power's orders (one per line) for the current "
                        "phase, replacing any it sent before, and say what each line means.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("power", metavar="POWER")
    p.add_argument("orders", metavar="ORDERS",
                   help="a text file of orders, one per line, or - for standard input")
    p.set_defaults(run=cmd_game_orders)

    p = gsub.add_parser("bids", help="store a power's DP bids for the current phase",
                        description="Store a power's secret DP bids (one per line, like "
                        "'2 DP: A Kas S Sto - Tab') for the current phase of a DP variant, "
                        "replacing any it sent before, and report any problem.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("power", metavar="POWER")
    p.add_argument("bids", metavar="BIDS",
                   help="a text file of bids, one per line, or - for standard input")
    p.set_defaults(run=cmd_game_bids)

    p = gsub.add_parser("tally", help="the gamemaster's bid tally of a phase (who bid what)",
                        description="Show who bid what in a movement phase of a DP variant, "
                        "and how each neutral unit's order was decided. For the gamemaster: "
                        "bids stay secret until the game ends.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--phase", metavar="CODE", help="the phase, like S1901M (default: current)")
    p.set_defaults(run=cmd_game_tally)

    p = gsub.add_parser("process", help="adjudicate the current phase and move on")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=cmd_game_process)

    p = gsub.add_parser("show", help="the current position and the last phase's results")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="as_power", metavar="POWER",
                   help="show only what POWER may know: its units and its view of the results")
    p.add_argument("--phase", metavar="CODE",
                   help="with --as: POWER's view of this processed phase, like S1901M")
    p.set_defaults(run=cmd_game_show)

    p = gsub.add_parser("export", help="a phase of the game as a phase document")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--phase", metavar="CODE", help="the phase, like S1901M (default: current)")
    p.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
    p.set_defaults(run=cmd_game_export)


    p = sub.add_parser("verify", help="judge a game's processed phases again and compare",
                       description="Judge every processed phase of a game file again from its "
                       "recorded position, orders and revealed dice seed, check each seed "
                       "against its published commitment, and compare the results and the "
                       "next phase with the record. Exit status 1 if anything differs.")
    p.add_argument("file", metavar="GAME", help="the game file")
    p.set_defaults(run=cmd_verify)
