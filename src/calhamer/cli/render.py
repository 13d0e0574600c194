"""``calhamer render``: a game file or a phase document as a picture (SVG or PNG).

    calhamer render game.json --phase S1902M [--as POWER] [--orders] -o map.png

The picture is drawn from exactly what a report would show: with ``--as`` it is drawn from
that power's view (:mod:`calhamer.views`), never from the whole truth.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from calhamer.cli.io import OK, UserError, read_json_source, read_phase, source_name
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.game import FORMAT, Game, game_outcome
from calhamer.phases import adjudicate
from calhamer.position import Phase
from calhamer.views import known_position, power_view

HELP = "draw a position or a phase's orders as a picture (SVG or PNG)"
DESCRIPTION = (
    "Draw the board of a game file or a phase document as SVG or PNG. For a game, --phase "
    "picks the phase (default: the current one) and --orders adds its orders: with their "
    "results once the phase is processed, as stored before. For a phase document, --orders "
    "adjudicates its orders and draws the results. --as draws only what that power may know."
)


# The widths a picture may have: below this nothing on the board can be told apart; above
# it a PNG needs hundreds of megabytes (and past 32767 pixels cairo cannot draw it at all).
MIN_SIZE, MAX_SIZE = 16, 10_000


def _width(text: str) -> float:
    """``--size``: a width in pixels within the range above (argparse reports the error)."""
    try:
        size = float(text)
    except ValueError:
        size = float("nan")
    if not MIN_SIZE <= size <= MAX_SIZE:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"{text} is not a width in pixels between {MIN_SIZE} and {MAX_SIZE}"
        )
    return size


def add_parsers(sub: Any) -> None:
    """Add the ``render`` command to the command line's subparsers."""
    p = sub.add_parser("render", help=HELP, description=DESCRIPTION)
    p.add_argument("source", metavar="GAME-OR-PHASE",
                   help="a game file or a phase document (- for standard input)")
    p.add_argument("--phase", metavar="CODE", help="the phase, like S1902M (default: current)")
    p.add_argument("--as", dest="as_power", metavar="POWER",
                   help="draw only what this power may see")
    p.add_argument("--orders", action="store_true", help="draw the phase's orders")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the file to write: .png for PNG, .svg (or no suffix) for SVG; "
                   "other suffixes are refused (default: SVG on stdout)")
    p.add_argument("--size", type=_width, metavar="PX",
                   help=f"width in pixels, {MIN_SIZE} to {MAX_SIZE} (the height follows)")
    p.add_argument("--format", choices=["svg", "png"], help="override the output's suffix")
    p.set_defaults(run=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:

    fmt = args.format or _format_of(args.output)
    if fmt == "png" and not args.output:
        raise UserError("a PNG needs a file: give -o map.png")
    doc = read_json_source(args.source)
    picture = _picture(doc, args, source_name(args.source))
    options = {"size": args.size, **picture}
    if fmt == "png":
        from calhamer.render.png import render_png

        data: bytes | str = render_png(**options)
    else:
        from calhamer.render.svg import render_svg

        data = render_svg(**options)
    if not args.output or args.output == "-":
        sys.stdout.write(data if isinstance(data, str) else data.decode("latin-1"))
        return OK
    try:
        if isinstance(data, str):
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(data)
        else:
            with open(args.output, "wb") as f:
                f.write(data)
    except OSError as exc:
        raise UserError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    return OK


def _format_of(output: str | None) -> str:
    """The format a file name asks for: PNG for ``.png``, SVG for ``.svg``, no suffix or
    standard output. Any other suffix (``.jpg``) is refused rather than given SVG under a
    name that says otherwise."""
    if not output or output == "-":
        return "svg"
    suffix = os.path.splitext(output)[1].lower()
    if suffix in ("", ".svg"):
        return "svg"
    if suffix == ".png":
        return "png"
    stem = output[: -len(suffix)]
    raise UserError(
        f"{output}: calhamer draws SVG and PNG pictures, not {suffix[1:].upper()}; write "
        f"-o {stem}.svg or -o {stem}.png (or add --format svg or --format png to use this "
        "name anyway)"
    )


def _picture(doc: Any, args: argparse.Namespace, where: str) -> dict[str, Any]:
    """What to draw (keyword arguments of ``render_svg``), from a game or a phase document."""

    try:
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            return _from_game(doc, args)
        return _from_phase(doc, args)
    except UserError:
        raise
    except CalhamerError as exc:
        raise UserError(f"{where}: {exc}") from None


def _power(position: Any, text: str | None) -> str | None:

    if text is None:
        return None
    m = position.map
    power = m.find_power(text)
    if power is None or m.is_minor(power):
        known = ", ".join(m.power_codes)
        raise UserError(f"{text!r} is not a power of this game; the powers are {known}")
    return power


def _from_game(doc: dict, args: argparse.Namespace) -> dict[str, Any]:

    game = Game.from_json(doc)
    record = game.record(args.phase)
    position, stored, _rules = position_from_json(game.phase_document(record.phase))
    power = _power(position, args.as_power)
    if args.orders and record.results is not None:
        outcome = game_outcome(game, record.phase)
        if power is not None:
            return {"view": power_view(outcome, power)}
        return {"outcome": outcome}
    orders = None
    if args.orders:
        # Orders of a phase not yet played: secret but to the power that gave them.
        orders = stored if power is None else {power: stored.get(power, [])}
    if power is not None:
        position = known_position(position, power)
    return {"position": position, "orders": orders}


def _from_phase(doc: Any, args: argparse.Namespace) -> dict[str, Any]:

    position, orders, rules = read_phase(doc, None)
    if args.phase and Phase.parse(args.phase).code != position.phase.code:
        raise UserError(
            f"the document is for {position.phase.code}, not {Phase.parse(args.phase).code}"
        )
    power = _power(position, args.as_power)
    if args.orders and any(orders.values()):
        outcome = adjudicate(position, orders, rules)
        if power is not None:
            return {"view": power_view(outcome, power)}
        return {"outcome": outcome}
    if power is not None:
        position = known_position(position, power)
    return {"position": position}
