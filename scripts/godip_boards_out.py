"""The map file and the variant file of a godip board, as TOML text: used by godip-boards.py.

Written by hand (calhamer reads TOML with the standard library and writes none), in the
layout of docs/maps.md and docs/variants.md, sorted, so that the same snapshot always gives
the same bytes.
"""

from __future__ import annotations

import json
from typing import Any

from godip_convert import Board


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string is JSON's
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def header(board: Board, what: str, commit: str) -> list[str]:
    designer = f", designed by {board.created_by}" if board.created_by else ""
    return [
        f"# {board.title}: {what} of a variant of godip, the judge of diplicity",
        f"# (github.com/zond/godip, variants/{board.package}{designer}).",
        "# Its facts were transcribed from godip's public variant definition (commit",
        f"# {commit[:12]}) by calhamer's scripts/godip-boards.py; no code, text or artwork of",
        "# godip is copied. Written by the script: run it again rather than editing this file.",
    ]


def board_text(board: Board, commit: str) -> str:
    """The map file: the board's provinces, powers, adjacency and start."""
    lines = header(board, "the board", commit)
    lines += ["", "[map]", f"name = {toml_value('godip/' + board.name)}",
              f"title = {toml_value(board.title)}",
              f"victory_centers = {board.victory_centers}",
              f"start_phase = {toml_value(board.start_phase)}"]
    if board.calendar:
        lines += ["", "[calendar]"]
        lines += [f"{k} = {toml_value(v)}" for k, v in board.calendar.items()]
    for power in board.powers:
        lines += ["", f"[powers.{power.code}]", f"name = {toml_value(power.name)}"]
        if power.aliases:
            lines.append(f"aliases = {toml_value(power.aliases)}")
        lines.append(f"color = {toml_value(power.color)}")
    if board.neutral:
        lines += ["", "[minor_powers.NEUTRAL]"]
        lines += [f"{k} = {toml_value(v)}" for k, v in board.neutral.items()]
    lines += ["", "[provinces]"]
    for p in board.provinces:
        entry: dict[str, Any] = {"name": p.name, "type": p.type}
        if p.sc:
            entry["sc"] = True
        if p.home:
            entry["home"] = p.home
        if p.coasts:
            entry["coasts"] = p.coasts
        if p.convoys:
            entry["convoys"] = True
        lines.append(f"{p.code} = {toml_value(entry)}")
    for kind, table in (("army", board.army), ("fleet", board.fleet)):
        lines += ["", f"[{kind}]"]
        lines += [f"{_key(loc)} = {toml_value(' '.join(near))}" for loc, near in table.items()]
    if board.oneway:
        lines += ["", "[oneway]"]
        lines += [f"{kind} = {toml_value(edges)}" for kind, edges in board.oneway.items()]
    if board.distance:
        lines += ["", "# Edges no unit moves by that godip's graph distance counts (its removals",
                  "# in civil disorder): a split province's land and the seas by its coasts.",
                  "[distance]", f"edges = {toml_value(board.distance)}"]
    lines += ["", "[start.units]"]
    lines += [f"{power} = {toml_value(units)}" for power, units in board.units.items()]
    if board.start_centres is not None:
        lines += ["", "[start.centers]"]
        lines += [f"{power} = {toml_value(c)}" for power, c in board.start_centres.items()]
    return "\n".join(lines) + "\n"


def _key(loc: str) -> str:
    return toml_value(loc) if "/" in loc else loc


def variant_text(board: Board, commit: str) -> str:
    """The variant file: the board and the rules godip plays on it."""
    lines = header(board, "the rules", commit)
    lines += ["# How each rule was read: docs/rules/godip-variants.md."]
    for note in board.notes:
        lines += ["#", *_comment(note)]
    source = "godip (github.com/zond/godip)"
    if board.created_by:
        source += f", designed by {board.created_by}"
    lines += ["", f"title = {toml_value(board.title)}",
              f"description = {toml_value(board.description)}",
              f"source = {toml_value(source)}"]
    if board.aliases:
        lines.append(f"aliases = {toml_value(board.aliases)}")
    lines += [f"board = {toml_value('godip/' + board.name)}",
              f"modules = {toml_value(board.modules)}", "", "[options]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in board.options.items()]
    return "\n".join(lines) + "\n"


def _comment(text: str, width: int = 96) -> list[str]:
    out, line = [], "#"
    for word in text.split():
        if len(line) + 1 + len(word) > width:
            out.append(line)
            line = "#"
        line += " " + word
    return [*out, line]
