"""``calhamer board import``: a board from another judge's map file.

    calhamer board import youngstown.map [-o youngstown.toml] [--strict]

reads a DPjudge map file (or one of the ``diplomacy`` package's, the same format) with the
files it uses, and writes the board as a calhamer map file and, beside it, a variant file that
plays it by its rules (``youngstown.variant.toml``: ``--variant youngstown.variant.toml``).
Every directive or rule the board cannot carry is named on one line (file, line, directive,
why); ``--strict`` refuses a board that would lose a rule or fact of play and writes nothing.
docs/boards.md says how each directive is read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from calhamer.cli.io import BAD_ORDERS, OK, UserError
from calhamer.errors import CalhamerError

HELP = "import a board from a DPjudge map file (.map)"


def add_parser(actions: Any) -> None:
    """Add ``import`` to the ``calhamer board`` actions."""
    p = actions.add_parser(
        "import", help=HELP,
        description="Import a board from a DPjudge map file (or the diplomacy package's): "
        "write it as a calhamer map file and, beside it, a variant file playing it by its "
        "rules. Every directive the board cannot carry is named on one line. Exit status 1 "
        "when --strict refuses the board.")
    p.add_argument("map", metavar="FILE", help="the map file (.map) and, beside it, the files "
                   "it uses")
    p.add_argument("-o", "--output", metavar="BOARD",
                   help="the map file to write (default: FILE's name with .toml, here); the "
                   "variant file is written beside it as BOARD's name with .variant.toml")
    p.add_argument("--strict", action="store_true",
                   help="refuse a board that would lose a rule or fact of play")
    p.add_argument("--name", help="the board's name (default: FILE's name)")
    p.add_argument("--title", help="the board's title (default: from FILE's name)")
    p.set_defaults(run=cmd_import)


def cmd_import(args: argparse.Namespace) -> int:
    from calhamer.boards.dpjudge import ImportRefused, import_map

    source = Path(args.map)
    out = Path(args.output) if args.output else Path(source.stem + ".toml")
    if out.suffix != ".toml":
        raise UserError(f"{out}: the board is written as a map file, whose name ends in .toml")
    try:
        imported = import_map(source, strict=args.strict, name=args.name or out.stem,
                              title=args.title)
    except ImportRefused as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"calhamer: {source.name} is refused: {len(exc.problems)} directive"
              f"{'s' if len(exc.problems) != 1 else ''} cannot be carried over (listed above); "
              "nothing written", file=sys.stderr)
        return BAD_ORDERS
    except CalhamerError as exc:
        raise UserError(str(exc)) from None
    for problem in imported.problems:
        print(problem, file=sys.stderr)
    variant = out.with_name(out.stem + ".variant.toml")
    header = f"Imported by calhamer board import from {', '.join(imported.files)}."
    try:
        out.write_text(imported.board_text(header), encoding="utf-8")
        variant.write_text(imported.variant_text(out.name, header), encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{exc.filename}: {exc.strerror or exc}") from None
    lost = len(imported.lost)
    board = imported.board
    print(f"wrote {out} ({len(board['provinces'])} provinces, {len(board['powers'])} powers) "
          f"and {variant}"
          + (f"; {lost} directive{'s' if lost != 1 else ''} not carried over (listed above)"
             if lost else ""))
    return OK
