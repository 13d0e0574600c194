"""``calhamer import`` and ``calhamer export --format diplomacy``: the ``diplomacy`` package's
saved games (its ``to_saved_game_format`` JSON), read and written.

    calhamer import saved.json [-o game.json]
    calhamer export --format diplomacy game.json [-o saved.json]

Importing replays every phase through calhamer and lists each phase where the two judges
differ, with the orders concerned and the DATC section deciding such cases
(:mod:`calhamer.saved_games`); the exit status is then 1.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from calhamer.cli.io import BAD_ORDERS, OK, dumps, read_json_source
from calhamer.game import Game, dumps_pretty
from calhamer.saved_games import export_saved_game, import_saved_game

FORMATS = ("diplomacy", "calhamer")


def add_parsers(sub: Any) -> None:
    """Add ``import`` and ``export`` to the command line's subparsers."""
    p = sub.add_parser(
        "import", help="read a saved game of the diplomacy package and replay it",
        description="Read a saved game of the diplomacy package (to_saved_game_format JSON), "
                    "replay every phase through calhamer, list the phases where the two judges "
                    "differ and write the game as a calhamer game file.")
    p.add_argument("source", metavar="FILE", help="the saved game (- for standard input)")
    p.add_argument("-o", "--output", metavar="GAME", help="the calhamer game file to write")
    p.set_defaults(run=cmd_import)
    p = sub.add_parser(
        "export", help="write a game file in another program's format",
        description="Write a calhamer game file (standard) as the diplomacy package's saved "
                    "game (--format diplomacy), or as a calhamer game file again.")
    p.add_argument("source", metavar="GAME", help="the calhamer game file (- for stdin)")
    p.add_argument("--format", choices=FORMATS, default="diplomacy",
                   help="the format to write (default: diplomacy)")
    p.add_argument("-o", "--output", metavar="FILE", help="the file to write (default: stdout)")
    p.set_defaults(run=cmd_export)


def _write(text: str, path: str | None) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def cmd_import(args: argparse.Namespace) -> int:
    report = import_saved_game(read_json_source(args.source))
    game = report.game
    print(f"{len(game.phases)} phases read, {len(report.differences)} where the judges differ",
          file=sys.stderr)
    for difference in report.differences:
        print(difference.text())
    if args.output:
        game.save(args.output)
    else:
        _write(dumps_pretty(game.to_json()) + "\n", None)
    return BAD_ORDERS if report.differences else OK


def cmd_export(args: argparse.Namespace) -> int:
    game = Game.from_json(read_json_source(args.source))
    doc = export_saved_game(game) if args.format == "diplomacy" else game.to_json()
    _write(dumps(doc) + "\n", args.output)
    return OK
