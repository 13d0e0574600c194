"""TOML text for the board and variant files the importers write.

The tables are small and of a known shape (strings, numbers, booleans, lists of them, inline
tables for provinces and calendar seasons), so they are written here in a fixed, readable
order: the same board always gives the same text, which lets a test compare a shipped file
with what the importer writes now.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(name: str) -> str:
    """A TOML key: bare where it may be, quoted otherwise (``"SPA/NC"``)."""
    return name if _BARE.match(name) else json.dumps(name, ensure_ascii=False)


def value(item: Any) -> str:
    """A TOML value on one line."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, (int, float)):
        return repr(item)
    if isinstance(item, str):
        return json.dumps(item, ensure_ascii=False)
    if isinstance(item, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }"
    if isinstance(item, (list, tuple)):
        return "[" + ", ".join(value(v) for v in item) + "]"
    raise TypeError(f"no TOML form for {item!r}")


def dumps(tables: Mapping[str, Any], header: str = "") -> str:
    """``tables`` as a TOML document: top-level values first, then each table (a table of
    tables, like ``powers``, as ``[powers.CODE]``), in the order given."""
    out = [f"# {line}".rstrip() for line in header.splitlines()]
    if out:
        out.append("")
    plain = {k: v for k, v in tables.items() if not isinstance(v, Mapping)}
    out += [f"{key(k)} = {value(v)}" for k, v in plain.items()]
    if plain:
        out.append("")
    for name, table in tables.items():
        if isinstance(table, Mapping):
            _table(out, [name], table)
    return "\n".join(out).rstrip("\n") + "\n"


def _table(out: list[str], path: list[str], table: Mapping[str, Any]) -> None:
    nested = {k: v for k, v in table.items() if isinstance(v, Mapping) and len(path) == 1
              and path[0] in ("powers", "minor_powers", "start", "variants")}
    plain = {k: v for k, v in table.items() if k not in nested}
    if plain or not nested:
        out.append(f"[{'.'.join(key(p) for p in path)}]")
        out += [f"{key(k)} = {value(v)}" for k, v in plain.items()]
        out.append("")
    for name, sub in nested.items():
        _table(out, [*path, name], sub)
