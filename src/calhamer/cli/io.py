"""Reading and writing for every command: sources, JSON documents, one-line errors.

Exit status: 0 when all went well, 1 when the command ran but some orders or input lines were
bad, 2 for a user error, reported as one line on stderr starting with ``calhamer:``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, NoReturn, TextIO

from calhamer.cli.dispatch import full_report  # noqa: F401 (the commands' name for it)
from calhamer.errors import CalhamerError
from calhamer.formats import (
    describe_error,
    phase_from_line,
    position_from_json,
    read_json,
)
from calhamer.game import dumps_pretty
from calhamer.position import Position
from calhamer.rules import find_rules

OK, BAD_ORDERS, USER_ERROR = 0, 1, 2

# What a malformed document can raise inside the readers besides CalhamerError.
DOCUMENT_ERRORS = (KeyError, ValueError, TypeError, AttributeError)


class UserError(Exception):
    """A problem to report in one line, with exit status 2."""


# Written in a help text where the variants' names belong: they are listed only when that
# help is shown, since finding the installed variants reads every package's metadata, which
# would slow every command's start.
VARIANT_NAMES = "<variant names>"
# The help of every --variant option.
VARIANT_HELP = (f"the variant: a name ({VARIANT_NAMES}), a board and rule modules like "
                "standard-dp+fog+neutrals, or a variant file (.toml); see 'calhamer variants'")


class _Formatter(argparse.HelpFormatter):
    def _split_lines(self, text: str, width: int) -> list[str]:
        # Names with hyphens (arpiesse-exchange, standard-dp+fog+neutrals) stay whole.
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _expand_help(self, action: argparse.Action) -> str:
        text = super()._expand_help(action)
        if VARIANT_NAMES in text:
            from calhamer.variants import variant_names

            text = text.replace(VARIANT_NAMES, ", ".join(variant_names()))
        return text


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a UserError rather than an exit from inside."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UserError(f"{message} (see '{self.prog} --help')")


# -- reading input ----------------------------------------------------------------------------


def source_name(source: str) -> str:
    return "standard input" if source == "-" else source


def open_source(source: str) -> TextIO:
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


def read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    with open_source(source) as f:
        return f.read()


def read_json_source(source: str) -> Any:
    """The JSON document in ``source``: every command that reads one reads it here (game
    files through :meth:`Game.load`, which uses the same :func:`read_json`)."""
    try:
        return read_json(read_text(source), source_name(source))
    except CalhamerError as exc:
        raise UserError(str(exc)) from None


def read_phase(doc: Any, rules_override: str | None) -> tuple[Position, dict[str, list[str]], str]:
    """Read a phase document; its orders; the edition to use (``--rules`` wins)."""
    try:
        position, orders, rules = position_from_json(doc)
    except DOCUMENT_ERRORS as exc:
        raise CalhamerError(describe_error(exc)) from None
    return position, orders, find_rules(rules_override or rules).name


def read_phase_line(text: str, rules_override: str | None
                    ) -> tuple[Position, dict[str, list[str]], str]:
    """:func:`read_phase` of the JSON text ``text`` (one line of ``adjudicate --jsonl``, its
    errors worded as :func:`read_json` words them without a line number)."""
    try:
        position, orders, rules = phase_from_line(text)
    except DOCUMENT_ERRORS as exc:
        raise CalhamerError(describe_error(exc)) from None
    return position, orders, find_rules(rules_override or rules).name


def dumps(doc: Any, compact: bool = False) -> str:
    if compact:
        return json.dumps(doc, separators=(",", ":"))
    return dumps_pretty(doc)


def power_name(position: Position, power: str) -> str:
    try:
        return position.map.power(power).name
    except KeyError:
        return power.title()


def in_map_order(position: Position, keyed: Iterable[str]) -> list[str]:
    keys = list(keyed)
    codes = position.map.power_codes
    return [p for p in codes if p in keys] + sorted(p for p in keys if p not in codes)


