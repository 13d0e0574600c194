"""JSON text, as calhamer reads and writes it, below any document's meaning.

:func:`read_json` parses the text of every document calhamer reads, with limits: invalid JSON,
a number too long to read or a document nested more than :data:`MAX_DEPTH` levels deep is a
:class:`DocumentError` with a one-line message (:func:`describe_error` words any error reading
a document). ``_json_text`` and ``_compact`` write JSON text, as the writers of
:mod:`calhamer.formats.writing` need it. This module imports no other module of the package.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring_ascii as _encode_text
from typing import Any

from calhamer.errors import CalhamerError

# How deeply a document may nest. calhamer's own documents are a few levels deep (a game file
# about six); the limit leaves room for variants and keeps every reader, and every error
# message that shows part of a document, far from Python's recursion limit.
MAX_DEPTH = 100


class DocumentError(CalhamerError):
    """JSON text that is not a document calhamer can read (invalid, or absurdly nested)."""


def read_json(text: str, name: str | None = None, *, with_line: bool = True) -> Any:
    """Parse ``text`` as JSON, for any document calhamer reads.

    Raises :class:`DocumentError` with a one-line message, starting with ``name`` (a file
    name, ``standard input``) when given: for invalid JSON (with the line and column, or only
    the column without ``with_line``), a number too long to read, or a document nested more
    than :data:`MAX_DEPTH` levels deep (which would otherwise exhaust Python's recursion).
    """
    doc = _parse_json(text, name, with_line=with_line)
    _check_depth(text, doc, name)
    return doc


def _parse_json(text: str, name: str | None, *, with_line: bool) -> Any:
    """:func:`read_json` but for the depth of the document."""
    subject = f"{name} is " if name else ""
    try:
        return _loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if with_line else f"column {exc.colno}"
        raise DocumentError(f"{subject}not valid JSON: {exc.msg} ({where})") from None
    except RecursionError:
        raise DocumentError(f"{subject}{_too_deep()}") from None
    except ValueError as exc:  # a number with thousands of digits, lone surrogates...
        reason = "a number is too long" if "digits" in str(exc) else str(exc)
        raise DocumentError(f"{subject}not valid JSON: {reason}") from None


def _check_depth(text: str, doc: Any, name: str | None) -> None:
    """Raise :class:`DocumentError` when ``doc``, parsed from ``text``, nests more than
    :data:`MAX_DEPTH` levels deep."""
    # Nesting deeper than the limit needs more brackets than the limit: most documents have
    # too few to be walked at all.
    if (text.count("[") + text.count("{") > MAX_DEPTH
            and _depth_exceeds(doc, MAX_DEPTH)):
        subject = f"{name} is " if name else ""
        raise DocumentError(f"{subject}{_too_deep()}")


# JSON's own scanner (in C), as json.loads sets it up; and the blanks JSON allows around a value.
# (The decoder sets scan_once up in its __init__; the type stubs do not declare it.)
_scan_once: Callable[[str, int], tuple[Any, int]] = (
    json.JSONDecoder().scan_once)  # type: ignore[attr-defined]
_BLANKS = " \t\n\r"


def _loads(text: str | bytes) -> Any:
    """``json.loads(text)``: read by the scanner straight away when ``text`` holds one value
    and blanks at most (what every good document is), without the Python steps of
    ``json.loads`` around it (a phase of ``--jsonl`` reads one document). Any other text is
    read again by ``json.loads``, which raises its own errors as ever (and decodes bytes)."""
    if not isinstance(text, str):
        return json.loads(text)
    try:
        doc, end = _scan_once(text, len(text) - len(text.lstrip(_BLANKS)))
    except (StopIteration, ValueError, RecursionError):
        return json.loads(text)
    if end != len(text) and text[end:].lstrip(_BLANKS):
        return json.loads(text)  # more than one value: "Extra data"
    return doc


def _too_deep() -> str:
    return (f"nested too deeply (more than {MAX_DEPTH} levels) to be a calhamer document; "
            "check that it is the right file")


def _depth_exceeds(doc: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def _compact(doc: Any) -> str:
    return json.dumps(doc, separators=(",", ":"))


# Strings as JSON writes them (quoted, escaped, ASCII), by string: results repeat their
# orders and reasons from phase to phase. Emptied when it grows past the limit.
_JSON_TEXTS: dict[str, str] = {}
_JSON_TEXT_LIMIT = 20_000


def _json_text(value: str) -> str:
    found = _JSON_TEXTS.get(value)
    if found is None:
        found = _encode_text(value)
        if len(_JSON_TEXTS) >= _JSON_TEXT_LIMIT:
            _JSON_TEXTS.clear()
        _JSON_TEXTS[value] = found
    return found


def describe_error(exc: Exception) -> str:
    """A one-line message for any error reading a document (never a traceback)."""
    if isinstance(exc, CalhamerError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"missing field {exc}"
    return f"{type(exc).__name__}: {exc}"
