"""``calhamer board``: a board's files checked, drawn and imported.

    calhamer board check lagoon.toml [--geometry lagoon.geometry.json]
    calhamer board draw lagoon.toml [-o lagoon.geometry.json]
    calhamer board import youngstown.map [-o youngstown.toml] [--strict]

``check`` lists every problem of the map file in one line each (file, table, entry) and, with
a geometry, whether the drawing shows the board truly (adjacent provinces touch or are joined
by a bridge or canal, and provinces that touch are adjacent); it exits with 1 when there is a
problem. ``draw`` draws the board from the map alone (``docs/render.md``) and writes its
geometry file, which pictures then use. ``import`` (:mod:`calhamer.cli.board_import`) writes a
board from another judge's map file. See ``docs/boards.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from calhamer.cli import board_import
from calhamer.cli.board_check import check_board
from calhamer.cli.io import BAD_ORDERS, OK, UserError
from calhamer.errors import CalhamerError
from calhamer.map import Map, load_map

HELP = "check a board's map file, draw its picture from the map alone, or import a board"


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("board", help=HELP, description=__doc__.split("\n\n")[0])
    actions = p.add_subparsers(dest="action", metavar="ACTION", parser_class=type(p))
    actions.required = True
    check = actions.add_parser(
        "check", help="list every problem of a map file, one line each",
        description="List every problem of a map file, one line each with its place (file, "
        "table, entry): what the loader refuses, and adjacency that is surely a mistake. With "
        "--geometry, also check that the drawing shows the board truly. Exit status 1 when "
        "there is a problem.")
    check.add_argument("board", metavar="BOARD", help="the map file (.toml) or a shipped map")
    check.add_argument("--geometry", metavar="FILE",
                       help="a geometry file (.json) to check against the board")
    check.set_defaults(run=cmd_check)
    draw = actions.add_parser(
        "draw", help="draw a board from its map and write its geometry file",
        description="Draw a board from its map alone (provinces as regions, coasts, centres, "
        "labels, bridges and canals) and write the geometry file pictures are drawn with. "
        "Needs the draw extra: pip install 'calhamer[draw]'.")
    draw.add_argument("board", metavar="BOARD", help="the map file (.toml) or a shipped map")
    draw.add_argument("-o", "--output", metavar="OUT",
                      help="the file to write (default: BOARD.geometry.json beside the board)")
    draw.add_argument("--no-hints", action="store_true",
                      help="ignore the provinces' x and y in the map file")
    draw.set_defaults(run=cmd_draw)
    board_import.add_parser(actions)


def cmd_check(args: argparse.Namespace) -> int:
    problems, board = check_board(args.board)
    if args.geometry:
        problems += _geometry_problems(board, args.geometry)
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
        return BAD_ORDERS
    assert board is not None
    centres = sum(1 for p in board.provinces if p.is_supply_center)
    print(f"{args.board}: no problems ({len(board.provinces)} provinces, {centres} supply "
          f"centres, {len(board.powers)} powers)")
    return OK


def _geometry_problems(board: Map | None, path: str) -> list[str]:
    from calhamer.render.checks import geometry_problems
    from calhamer.render.geometry import read_geometry

    try:
        geo = read_geometry(path)
    except OSError as exc:
        return [f"{path}: {exc.strerror or exc}"]
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        what = f"lacks {exc}" if isinstance(exc, KeyError) else str(exc)
        return [f"{path}: not a calhamer-geometry/1 file ({what})"]
    if board is None:
        return [f"{path}: not checked: the board does not load"]
    from calhamer.render.geometry import _fit

    return [f"{path}: {line}" for line in geometry_problems(board, _fit(board, geo))]


def cmd_draw(args: argparse.Namespace) -> int:
    try:
        import networkx  # noqa: F401  (the draw extra)
    except ImportError:
        raise UserError("drawing a board needs networkx: pip install 'calhamer[draw]'"
                        ) from None
    from calhamer.render.checks import geometry_problems
    from calhamer.render.draw import draw_board
    from calhamer.render.geometry import _from_doc

    try:
        board = load_map(args.board)
    except CalhamerError as exc:
        raise UserError(f"{exc} (calhamer board check {args.board} lists every problem)"
                        ) from None
    out = Path(args.output) if args.output else _default_output(args.board)
    doc = draw_board(board, hints=not args.no_hints)
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    links = len(doc.get("connectors", []))
    joined = "bridge or canal" if links == 1 else "bridges or canals"
    print(f"wrote {out}: {len(doc['provinces'])} provinces, {doc['width']:g} x "
          f"{doc['height']:g}, {links} {joined}")
    for line in geometry_problems(board, _from_doc(doc)):
        print(f"note: {line}")
    return OK


def _default_output(source: str) -> Path:
    if source.endswith(".toml"):
        return Path(source).with_suffix(".geometry.json")
    return Path(f"{source}.geometry.json")
