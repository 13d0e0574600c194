"""The ``calhamer`` command line: one module per command group.

``io`` reads and writes for every command; ``phase`` has the commands on one phase document,
``games`` those on a game file, ``render`` draws pictures (``geometry`` makes a new board's
drawing from an SVG; ``board`` checks a map file and draws it from the map alone), and
``serve`` runs the web judge
(its packages are imported only when it is used); ``simulate`` plays many games with
bots, ``interop`` reads and writes the ``diplomacy`` package's saved games. The documents
read and written are in ``docs/formats.md``.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import TextIO

from calhamer.cli.io import BAD_ORDERS, OK, USER_ERROR, Parser, UserError
from calhamer.errors import CalhamerError

# The command groups (modules of calhamer.cli), in the order help lists them.
GROUPS = ("phase", "games", "serve", "render", "geometry", "board", "simulate", "interop")

# Each command and its group: a command run loads its own group alone, and what that group
# imports (``calhamer adjudicate`` loads no renderer, mail or game files). Help and errors
# at the top level load every group. tests/test_cli_startup.py holds this
# table to the groups.
COMMANDS = {
    "adjudicate": "phase", "new": "phase", "validate": "phase", "rules": "phase",
    "variants": "phase", "game": "games", "verify": "games", "serve": "serve",
    "worker": "serve", "render": "render", "geometry": "geometry", "board": "board",
    "simulate": "simulate", "import": "interop", "export": "interop",
}


def build_parser(groups: tuple[str, ...] = GROUPS) -> Parser:
    """The command line's parser, with the commands of ``groups`` (every one by default)."""
    parser = Parser(
        prog="calhamer",
        description="A Diplomacy judge: adjudicate phases, check orders, run whole games.",
        epilog="Exit status: 0 ok, 1 some orders or lines were bad, 2 a usage or input error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for group in groups:
        import_module(f"calhamer.cli.{group}").add_parsers(sub)
    return parser


def _groups_for(argv: list[str] | None) -> tuple[str, ...]:
    """The groups to load for ``argv``: the named command's, else all of them."""
    args = sys.argv[1:] if argv is None else argv
    group = COMMANDS.get(args[0]) if args else None
    return (group,) if group is not None else GROUPS


def _version() -> str:
    from calhamer import __version__, compiled  # the package's own version, read when asked for

    return f"{__version__} ({'compiled' if compiled else 'plain Python'})"


def _fail(message: str, stream: TextIO | None = None) -> int:
    print(f"calhamer: {message}", file=stream or sys.stderr)
    return USER_ERROR


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, 1 or 2)."""
    parser = build_parser(_groups_for(argv))
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


