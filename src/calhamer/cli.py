"""The ``calhamer`` command line (the documents it reads and writes: ``docs/formats.md``).

Exit status: 0 when all went well, 1 when the command ran but some orders or input lines were
bad, 2 for a user error (unreadable file, bad JSON, unknown power, province, variant or rule
edition), which is reported as one line on stderr starting with ``calhamer:``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, NoReturn, TextIO

from calhamer.errors import CalhamerError
from calhamer.formats import (
    describe_error,
    outcome_to_json,
    position_from_json,
    position_to_json,
    read_json,
    view_to_json,
)
from calhamer.game import Game, check_orders, dumps_pretty, game_view, locked, write_atomically
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.rules import EDITIONS, find_rules
from calhamer.variants import all_variants, find_variant
from calhamer.views import gamemaster_view, power_view

OK, BAD_ORDERS, USER_ERROR = 0, 1, 2

# What a malformed document can raise inside the readers besides CalhamerError.
DOCUMENT_ERRORS = (KeyError, ValueError, TypeError, AttributeError)


class UserError(Exception):
    """A problem to report in one line, with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a UserError rather than an exit from inside."""

    def error(self, message: str) -> NoReturn:
        raise UserError(f"{message} (see '{self.prog} --help')")


# -- reading input ----------------------------------------------------------------------------


def _name(source: str) -> str:
    return "standard input" if source == "-" else source


def _open(source: str) -> TextIO:
    """Open ``source`` for reading text, with one-line errors for the usual failures."""
    try:
        return open(source, encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{source} is a directory, not a file") from None
    except PermissionError:
        raise UserError(f"{source}: permission denied") from None
    except OSError as exc:
        raise UserError(f"cannot read {source}: {exc.strerror or exc}") from None


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with _open(source) as f:
        return f.read()


def _read_json(source: str) -> Any:
    """The JSON document in ``source``: every command that reads one reads it here (game
    files through :meth:`Game.load`, which uses the same :func:`read_json`)."""
    try:
        return read_json(_read_text(source), _name(source))
    except CalhamerError as exc:
        raise UserError(str(exc)) from None


def _read_phase(doc: Any, rules_override: str | None) -> tuple[Position, dict[str, list[str]], str]:
    """Read a phase document; its orders; the edition to use (``--rules`` wins)."""
    try:
        position, orders, rules = position_from_json(doc)
    except DOCUMENT_ERRORS as exc:
        raise CalhamerError(describe_error(exc)) from None
    return position, orders, find_rules(rules_override or rules).name


def _dumps(doc: Any, compact: bool = False) -> str:
    if compact:
        return json.dumps(doc, separators=(",", ":"))
    return dumps_pretty(doc)


def _power_name(position: Position, power: str) -> str:
    try:
        return position.map.power(power).name
    except KeyError:
        return power.title()


# -- the commands -----------------------------------------------------------------------------


def cmd_adjudicate(args: argparse.Namespace) -> int:
    if args.rules:
        find_rules(args.rules)  # a bad edition is a user error before any input is read
    if args.jsonl:
        return _adjudicate_lines(args.file, args.rules, args.as_power)
    doc = _read_json(args.file)
    try:
        position, orders, rules = _read_phase(doc, args.rules)
    except CalhamerError as exc:
        raise UserError(f"{_name(args.file)}: {exc}") from None
    outcome = adjudicate(position, orders, rules)
    if args.as_power:
        # One power's view: only what the rules let that power know (calhamer.views).
        view = power_view(outcome, args.as_power)
        if args.json:
            print(_dumps(view_to_json(view, rules)))
        else:
            sys.stdout.write(phase_report(view))
    elif args.json:
        print(_dumps(outcome_to_json(outcome, rules)))
    else:
        sys.stdout.write(_full_report(outcome))
    return OK


def _full_report(outcome: Any) -> str:
    """The gamemaster's report: every result, and where the variant hides information from
    the players, also everything the players are told, in the variant's notation."""
    report = phase_report(outcome)
    if find_variant(outcome.before.variant).hidden_information:
        told = phase_report(gamemaster_view(outcome))
        report += f"\n======\nAs the players are told it\n\n{told}"
    return report


def _lines(source: str) -> Iterator[str]:
    if source == "-":
        yield from sys.stdin
        return
    with _open(source) as f:
        yield from f


def _adjudicate_lines(source: str, rules_override: str | None, as_power: str | None = None) -> int:
    """One phase document per input line, one compact output document per output line (with
    ``as_power``: that power's view)."""
    failed = False
    for number, line in enumerate(_lines(source), start=1):
        if not line.strip():
            continue
        try:
            doc = read_json(line.rstrip("\r\n"), with_line=False)
            position, orders, rules = _read_phase(doc, rules_override)
            outcome = adjudicate(position, orders, rules)
            if as_power:
                out = view_to_json(power_view(outcome, as_power), rules)
            else:
                out = outcome_to_json(outcome, rules)
        except CalhamerError as exc:
            out, failed = {"error": f"line {number}: {exc}"}, True
        print(_dumps(out, compact=True), flush=True)
    return BAD_ORDERS if failed else OK


def cmd_new(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    rules = find_rules(args.rules or variant.default_rules).name
    start = Position.initial(variant=variant)
    print(_dumps(position_to_json(start, rules)))
    return OK


def cmd_validate(args: argparse.Namespace) -> int:
    if args.rules:
        find_rules(args.rules)
    doc = _read_json(args.file)
    try:
        position, orders, rules = _read_phase(doc, args.rules)
    except CalhamerError as exc:
        raise UserError(f"{_name(args.file)}: {exc}") from None
    if not any(orders.values()):
        print(f"{position.phase.code}: the document has no orders to check")
        return OK
    checks = check_orders(position, orders, rules)
    bad = 0
    print(f"{position.phase.name} ({position.phase.code}), rules {rules}")
    for power in _in_map_order(position, checks):
        print()
        print(_power_name(position, power))
        for check in checks[power]:
            if check.ok:
                print(f"    ok     {check.canonical}")
            else:
                bad += 1
                print(f"    error  {check.text.strip()}: {check.problem}")
    total = sum(len(c) for c in checks.values())
    print()
    print(f"{total - bad} of {total} orders are valid" if bad else f"all {total} orders are valid")
    return BAD_ORDERS if bad else OK


def _in_map_order(position: Position, keyed: Iterable[str]) -> list[str]:
    keys = list(keyed)
    codes = position.map.power_codes
    return [p for p in codes if p in keys] + sorted(p for p in keys if p not in codes)


def cmd_rules(args: argparse.Namespace) -> int:
    names = [find_rules(args.edition).name] if args.edition else list(EDITIONS)
    default = find_variant("standard").default_rules
    for i, name in enumerate(names):
        if i:
            print()
        rules = EDITIONS[name]
        print(f"{name} (default)" if name == default else name)
        options = [(k, v) for k, v in rules.describe() if k != "name"]
        width = max(len(k) for k, _ in options)
        for key, value in options:
            print(f"    {key:<{width}}  {value}")
    return OK


# -- whole games ------------------------------------------------------------------------------


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
    lines = _read_text(args.orders).splitlines()  # before the lock: stdin may take its time
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
    name = _power_name(position, power)
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
    lines = _read_text(args.bids).splitlines()  # before the lock: stdin may take its time
    with _changing_game(args.file) as game:
        problems = game.set_bids(args.power, lines)
    position = game.current
    power = position.map.find_power(args.power) or args.power
    count = len(game.bids.get(power, []))
    name = _power_name(position, power)
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
    sys.stdout.write(_full_report(outcome))
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
            f"{_power_name(position, p)} ({len(received[p])})"
            for p in _in_map_order(position, received)
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
    name = _power_name(current, power)
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
    text = _dumps(game.phase_document(args.phase)) + "\n"
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


# -- the web judge (imported only when used, so the library needs none of its packages) ------


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from calhamer.server.app import create_app
        from calhamer.server.config import Settings
    except ImportError as exc:
        raise UserError(f"the web judge needs {exc.name}: pip install calhamer") from None
    overrides: dict[str, Any] = {"embedded_worker": not args.no_worker}
    if args.database:
        overrides["database_url"] = args.database
    settings = Settings.from_env(**overrides)
    app = create_app(settings)
    print(f"calhamer: serving on http://{args.host}:{args.port}/ "
          f"(database {_safe_url(settings.resolved_database_url())})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                proxy_headers=args.proxy_headers)
    return OK


def cmd_worker(args: argparse.Namespace) -> int:
    import logging
    import time

    try:
        from calhamer.server.config import Settings
        from calhamer.server.worker import Worker, process_due
    except ImportError as exc:
        raise UserError(f"the worker needs {exc.name}: pip install calhamer") from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = Settings.from_env(worker_poll_seconds=args.poll)
    if args.database:
        settings.database_url = args.database
    db = settings.open_database()
    db.migrate()
    if args.once:
        for done in process_due(db, settings):
            print(f"adjudicated {done}", flush=True)
        return OK
    worker = Worker(db, settings)
    print(f"calhamer: worker polling {_safe_url(db.url)} every {args.poll} s", file=sys.stderr)
    worker.start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        worker.stop()
    return OK


def _safe_url(url: str) -> str:
    """A database URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


# -- the parser -------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="calhamer",
        description="A Diplomacy judge: adjudicate phases, check orders, run whole games.",
        epilog="Exit status: 0 ok, 1 some orders or lines were bad, 2 a usage or input error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    editions = ", ".join(EDITIONS)
    variants = ", ".join(v.name for v in all_variants())

    p = sub.add_parser("adjudicate", help="adjudicate a phase document",
                       description="Adjudicate a phase document and report each order's result.")
    p.add_argument("file", metavar="FILE", help="the phase document, or - for standard input")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print the output document as JSON")
    mode.add_argument("--jsonl", action="store_true",
                      help="read one phase document per line, write one output document per line")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition to use ({editions})")
    p.add_argument("--as", dest="as_power", metavar="POWER",
                   help="print only what POWER may know (its view; see docs/formats.md)")
    p.set_defaults(run=cmd_adjudicate)

    p = sub.add_parser("new", help="print the starting position as a phase document")
    p.add_argument("--variant", default="standard", help=f"the variant ({variants})")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition ({editions})")
    p.set_defaults(run=cmd_new)

    p = sub.add_parser("validate", help="check the orders of a phase document",
                       description="Check each order of a phase document without "
                       "adjudicating: is it readable, and legal for its unit?")
    p.add_argument("file", metavar="FILE", help="the phase document, or - for standard input")
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition to use ({editions})")
    p.set_defaults(run=cmd_validate)

    p = sub.add_parser("rules", help="list the rule editions and their options")
    p.add_argument("edition", nargs="?", metavar="EDITION", help="show only this edition")
    p.set_defaults(run=cmd_rules)

    g = sub.add_parser("game", help="play a whole game kept in one file",
                       description="Play a whole game kept in one JSON file.")
    gsub = g.add_subparsers(dest="game_command", metavar="ACTION", parser_class=_Parser)
    gsub.required = True

    p = gsub.add_parser("new", help="start a game file")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--variant", default="standard", help=f"the variant ({variants})")
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

    p = sub.add_parser("serve", help="run the web judge (with one embedded worker)",
                       description="Run the web judge. The database is SQLite in your data "
                       "directory unless CALHAMER_DATABASE_URL (or --database) names another, "
                       "like postgresql://user@host/db. See docs/server.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument("--database", metavar="URL", help="database URL (overrides the environment)")
    p.add_argument("--no-worker", action="store_true",
                   help="do not adjudicate here; leave it to 'calhamer worker' processes")
    p.add_argument("--proxy-headers", action="store_true",
                   help="trust X-Forwarded-* headers (behind a reverse proxy)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("worker", help="adjudicate due phases of the web judge's games",
                       description="Adjudicate due phases, each exactly once however many "
                       "workers run against one database. See docs/server.md.")
    p.add_argument("--database", metavar="URL", help="database URL (overrides the environment)")
    p.add_argument("--poll", type=float, default=1.0, metavar="SECONDS",
                   help="how often to look for due phases (1)")
    p.add_argument("--once", action="store_true",
                   help="adjudicate what is due now, then stop")
    p.set_defaults(run=cmd_worker)

    from calhamer.render.command import add_parser as add_render_parser

    add_render_parser(sub)  # calhamer render (maps as pictures)
    return parser


def _version() -> str:
    from calhamer import __version__

    return __version__


def _fail(message: str, stream: TextIO | None = None) -> int:
    print(f"calhamer: {message}", file=stream or sys.stderr)
    return USER_ERROR


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 1 or 2)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.run(args)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else OK
    except UserError as exc:
        return _fail(str(exc))
    except CalhamerError as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        # The reader went away (``calhamer ... | head``): stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BAD_ORDERS
    except UnicodeDecodeError as exc:
        return _fail(f"the input is not UTF-8 text (byte {exc.start + 1} of a line or file)")
    except KeyboardInterrupt:
        _fail("interrupted")
        return 130
    except OSError as exc:
        return _fail(f"{exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}")


if __name__ == "__main__":
    sys.exit(main())
