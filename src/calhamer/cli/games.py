"""``calhamer game``: a whole game kept in one file, changed under a lock; ``calhamer verify``."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Iterator
from typing import Any

from calhamer.cli import dispatch
from calhamer.cli.io import (
    BAD_ORDERS,
    OK,
    VARIANT_HELP,
    Parser,
    UserError,
    dumps,
    full_report,
    power_name,
    read_text,
)
from calhamer.due import invalid_consequence
from calhamer.game import Game, OrderCheck, is_order_line, locked, write_atomically
from calhamer.messages import MessageLine, read_message
from calhamer.rules import EDITIONS
from calhamer.variants import find_variant
from calhamer.views import known_position


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
          f"{game.current.map.phase_name(game.current.phase)} ({game.current.phase.code}), "
          f"rules {game.rules}")
    return OK


def cmd_game_orders(args: argparse.Namespace) -> int:
    text = read_text(args.orders)  # before the lock: stdin may take its time
    with _changing_game(args.file) as game:
        if args.every_line:
            given = text.splitlines()
            checks = game.set_orders(args.power, given)
            ignored: list[MessageLine] = []
        else:
            # A whole message: greetings, signatures and quoted text are set aside, not stored.
            code = game.current.map.find_power(args.power)
            # Read against what the power knows (all of it, but where the variant hides).
            seen = known_position(game.current, code) if code and not \
                game.current.map.is_minor(code) else game.current
            message = read_message(seen, text, code)
            checks = game.set_orders(args.power, message.order_texts())
            numbers = [line.number for line in message.orders]
            checks = [dataclasses.replace(c, line=numbers[c.line - 1]) for c in checks]
            ignored = message.ignored
    position = game.current
    power = position.map.find_power(args.power) or args.power
    bad = [c for c in checks if not c.ok]
    if not args.every_line and message.headers:
        print(f"E-mail from {message.headers.get('From', 'an unknown sender')}: "
              f"{message.headers.get('Subject', '(no subject)')}")
    listed: list[tuple[int, str]] = [(c.line, _check_line(c)) for c in checks]
    listed += [(line.number, f"ignored line {line.number}: {line.text.strip()} ({line.set_aside})")
               for line in ignored]
    for _, text_line in sorted(listed, key=lambda item: item[0]):
        print(text_line)
    name = power_name(position, power)
    count = f"{len(checks)} order{'s' if len(checks) != 1 else ''}"
    print(f"Stored {count} for {name} in {position.phase.code}.")
    if ignored:
        what = ("1 line that is not an order" if len(ignored) == 1
                else f"{len(ignored)} lines that are not orders")
        print(f"Set aside {what} (not stored).")
    if bad:
        what = invalid_consequence(position, power)
        print(
            f"calhamer: warning: {len(bad)} of {len(checks)} orders of {name} are invalid; "
            f"they are kept as written and will be judged invalid ({what}) unless replaced",
            file=sys.stderr,
        )
    return OK


def _check_line(check: OrderCheck) -> str:
    if check.ok:
        return f"ok     {check.canonical}"
    return f"error  line {check.line}: {check.text.strip()}: {check.problem}"


def cmd_game_bids(args: argparse.Namespace) -> int:
    lines = read_text(args.bids).splitlines()  # before the lock: stdin may take its time
    with _changing_game(args.file) as game:
        problems = game.set_bids(args.power, lines)
    position = game.current
    power = position.map.find_power(args.power) or args.power
    count = len(game.bids.get(power, []))
    name = power_name(position, power)
    # One line per bid, as for orders; then the problems of the bids together (the allotment).
    rule = find_variant(game.variant).bids
    told: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not is_order_line(line):
            continue
        bid = line.strip()
        # A bid's own problems start with the bid; the allotment is the bids' together.
        alone = [p for p in (rule.check(position, power, [bid]) if rule else [])
                 if p[:1] == bid[:1]]
        told.update(alone)
        if not alone:
            print(f"ok     {bid}")
        for problem in alone:
            print(f"error  line {number}: {problem}")
    for problem in problems:
        if problem not in told:
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
    if find_variant(game.variant).bids is None:
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
    game = _load_game(args.file)
    power = _report_power(game, args.as_power) if args.as_power else None
    # Everything is worked out before anything is printed, so an error comes alone.
    if args.json:
        doc = (dispatch.gamemaster_json(game, args.phase) if power is None
               else dispatch.power_json(game, power, args.phase))
        sys.stdout.write(dumps(doc) + "\n")
    elif power is None:
        sys.stdout.write(dispatch.gamemaster_text(game, args.file, args.phase))
    else:
        sys.stdout.write(dispatch.power_text(game, args.file, power, args.phase))
    return OK


def _report_power(game: Game, text: str) -> str:
    current = game.current
    power = current.map.find_power(text)
    if power is None or current.map.is_minor(power):
        known = ", ".join(current.map.power_codes)
        raise UserError(f"{text!r} is not a power of this game; the powers are {known}")
    return power


def cmd_game_reports(args: argparse.Namespace) -> int:
    """Every power's report (and the gamemaster's) as text and picture, into a folder."""
    game = _load_game(args.file)
    items = dispatch.reports(game, args.file, args.phase, pictures=not args.no_pictures)
    try:
        written = dispatch.write_reports(args.output, items)
    except OSError as exc:
        raise UserError(f"cannot write into {args.output}: {exc.strerror or exc}") from None
    for path in written:
        print(path)
    print(f"Wrote {len(items)} reports ({len(items) - 1} powers and the gamemaster's) "
          f"into {args.output}.")
    return OK


def cmd_game_settings(args: argparse.Namespace) -> int:
    """Set (or show) the game's mail settings: the SMTP server and each power's address."""
    from calhamer.cli.mail import MailError, MailSettings, check_address

    changes = (args.smtp, args.sender, args.security, args.user, args.gamemaster, args.address)
    if not any(c is not None and c != [] for c in changes):
        game = _load_game(args.file)
        mail = game.settings.get("mail")
        print(dumps(mail) if mail else "No mail settings yet.")
        return OK
    with _changing_game(args.file) as game:
        doc = dict(game.settings.get("mail") or {})
        try:
            if args.smtp is not None:
                host, colon, port = args.smtp.rpartition(":")
                if colon and port.isdigit():
                    doc["host"], doc["port"] = host, int(port)
                else:
                    doc["host"] = args.smtp
                    doc.pop("port", None)
            if args.sender is not None:
                doc["from"] = check_address(args.sender, "--from")
            if args.security is not None:
                doc["security"] = args.security
            if args.user is not None:
                doc["user"] = args.user
            if args.gamemaster is not None:
                doc["gamemaster"] = check_address(args.gamemaster, "--gamemaster")
            addresses = dict(doc.get("addresses") or {})
            for item in args.address or []:
                name, equals, address = item.partition("=")
                if not equals:
                    raise UserError(f"--address {item!r}: write POWER=ADDRESS, like "
                                    "FRANCE=anne@example.org")
                power = _report_power(game, name.strip())
                addresses[power] = check_address(address, f"the address of {name.strip()}")
            doc["addresses"] = addresses
            settings = MailSettings.from_json(doc) if "host" in doc and "from" in doc else None
        except MailError as exc:
            raise UserError(str(exc)) from None
        game.settings["mail"] = settings.to_json() if settings else doc
    print(dumps(game.settings["mail"]))
    missing = [power_name(game.current, p) for p in dispatch.recipients(game)
               if p not in game.settings["mail"].get("addresses", {})]
    if missing:
        print(f"No address yet for {', '.join(missing)}.")
    return OK


def cmd_game_mail(args: argparse.Namespace) -> int:
    """Send each power its report (and the gamemaster the full one) by e-mail."""
    from calhamer.cli.mail import PASSWORD_VARIABLE, MailError, MailSettings, compose, send_reports

    game = _load_game(args.file)
    try:
        settings = MailSettings.from_json(game.settings.get("mail"))
    except MailError as exc:
        raise UserError(str(exc)) from None
    items = dispatch.reports(game, args.file, args.phase)
    if args.only:
        wanted = {_report_power(game, p) for p in args.only}
        items = [r for r in items if r.power in wanted]
    label = os.path.basename(args.file)
    if args.dry_run:
        for report in items:
            address = settings.address_of(report.power)
            if address is None:
                print(f"not sent  {report.name}: no address in the mail settings")
                continue
            message = compose(settings, report, label)
            print(f"would send  {report.name} <{address}>: {message['Subject']} "
                  f"({len(report.text.splitlines())} lines and a picture)")
        return OK
    try:
        sent = send_reports(settings, items, label, password=os.environ.get(PASSWORD_VARIABLE))
    except MailError as exc:
        raise UserError(str(exc)) from None
    for item in sent:
        if item.ok:
            print(f"sent      {item.report.name} <{item.address}>")
        else:
            print(f"not sent  {item.report.name}: {item.problem}")
    failed = [s for s in sent if not s.ok]
    if failed:
        print(f"calhamer: warning: {len(failed)} report{'s' if len(failed) != 1 else ''} not "
              "sent", file=sys.stderr)
        return BAD_ORDERS
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
        # Only a game that throws dice (Superdiplomacy) records seeds to check.
        dice = any("seed" in r.document for r in game.history)
        print(f"All {len(checks)} processed phases come out exactly as recorded"
              + (" (every dice seed matches its commitment)." if dice else "."))
    return BAD_ORDERS if bad else OK


def add_parsers(sub: Any) -> None:
    """``calhamer game ...`` (a whole game in one file) and ``calhamer verify``."""
    editions = ", ".join(EDITIONS)
    g = sub.add_parser("game", help="play a whole game kept in one file",
                       description="Play a whole game kept in one JSON file.")
    gsub = g.add_subparsers(dest="game_command", metavar="ACTION", parser_class=Parser)
    gsub.required = True

    p = gsub.add_parser("new", help="start a game file",
                        description="Start a game of a variant in a new game file (JSON), at "
                        "the variant's first phase; --force replaces an existing file.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--variant", default="standard", help=VARIANT_HELP)
    p.add_argument("--rules", metavar="EDITION", help=f"rule edition ({editions})")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(run=cmd_game_new)

    p = gsub.add_parser("orders", help="store a power's orders for the current phase",
                        description="Store a power's orders (one per line) for the current "
                        "phase, replacing any it sent before, and say what each line means.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("power", metavar="POWER")
    p.add_argument("orders", metavar="ORDERS",
                   help="a text file of orders, one per line, or a whole e-mail message "
                   "(greetings, signatures and quoted text are set aside and listed), "
                   "or - for standard input")
    p.add_argument("--every-line", action="store_true",
                   help="store every line as an order, as given (no message reading)")
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

    p = gsub.add_parser("process", help="adjudicate the current phase and move on",
                        description="Adjudicate the current phase with the orders stored "
                        "(units without a valid order hold, dislodged units without one are "
                        "disbanded, missing removals follow the civil-disorder rule), print "
                        "the gamemaster's report and move the game to its next phase.")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=cmd_game_process)

    p = gsub.add_parser("show", help="the current position and the last phase's results",
                        description="Show the game now: every unit, the orders received and "
                        "missing, the builds, removals and retreats due, and the last phase's "
                        "results. --as shows only what one power may know; --phase shows a "
                        "processed phase; --json writes it all as JSON.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--as", dest="as_power", metavar="POWER",
                   help="show only what POWER may know: its units and its view of the results")
    p.add_argument("--phase", metavar="CODE",
                   help="a processed phase, like S1901M: its full report (with --as, POWER's "
                   "view of it)")
    p.add_argument("--json", action="store_true", help="write JSON instead of text")
    p.set_defaults(run=cmd_game_show)

    p = gsub.add_parser("reports", help="write every power's report (text and SVG) into a folder",
                        description="Write each power's report, as a text file and an SVG "
                        "picture, and the gamemaster's, into a folder, ready to send: "
                        "PHASE-POWER.txt and PHASE-POWER.svg. Each power's report holds only "
                        "what it may know. Without --phase: the game now, with the last "
                        "phase's results; with --phase: that processed phase.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", metavar="FOLDER", required=True,
                   help="the folder to write into (made if missing)")
    p.add_argument("--phase", metavar="CODE", help="a processed phase, like S1901M")
    p.add_argument("--no-pictures", action="store_true", help="write the text reports only")
    p.set_defaults(run=cmd_game_reports)

    p = gsub.add_parser("settings", help="set the SMTP server and each power's e-mail address",
                        description="Set the game's mail settings, kept in the game file: the "
                        "SMTP server, the sender, the gamemaster's address and each power's. "
                        "Without options, show them. The SMTP password is never stored: "
                        "'game mail' reads it from CALHAMER_SMTP_PASSWORD.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--smtp", metavar="HOST[:PORT]", help="the SMTP server")
    p.add_argument("--security", choices=["none", "starttls", "ssl"],
                   help="how to talk to it (default none; ports 25, 587, 465 by default)")
    p.add_argument("--user", metavar="NAME", help="the SMTP login, if the server needs one")
    p.add_argument("--from", dest="sender", metavar="ADDRESS", help="the sender of the reports")
    p.add_argument("--gamemaster", metavar="ADDRESS",
                   help="where the gamemaster's full report goes")
    p.add_argument("--address", action="append", metavar="POWER=ADDRESS",
                   help="a power's address (repeat for each power)")
    p.set_defaults(run=cmd_game_settings)

    p = gsub.add_parser("mail", help="e-mail each power its report through the SMTP server",
                        description="Send each power its report (text, with the SVG picture "
                        "attached) and the gamemaster the full one, through the SMTP server "
                        "of the game's mail settings (see 'game settings'). Each power is "
                        "sent only what it may know. Exit status 1 if a report was not sent.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--phase", metavar="CODE",
                   help="a processed phase (default: the game now, with the last results)")
    p.add_argument("--only", action="append", metavar="POWER",
                   help="send only this power's report (repeatable)")
    p.add_argument("--dry-run", action="store_true",
                   help="say what would be sent, and send nothing")
    p.set_defaults(run=cmd_game_mail)

    p = gsub.add_parser("export", help="a phase of the game as a phase document",
                        description="Write a phase of the game as a phase document (JSON) "
                        "with its orders as the judge reads them, so that 'calhamer "
                        "adjudicate' reproduces its results.")
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
