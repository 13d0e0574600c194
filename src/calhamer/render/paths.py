"""The corners of an SVG path: each command's end point (curves by their end points).

Used to read a designer's drawing (``calhamer geometry``) and to check a geometry against
its board (:mod:`calhamer.render.checks`).
"""

from __future__ import annotations

import re

Point = tuple[float, float]

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_COMMAND = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]")
_TOKENS = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|" + _NUMBER.pattern)
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def path_points(d: str) -> list[Point]:
    """Every corner of the path ``d`` in order, every subpath's; raises ``ValueError`` with
    what is wrong with a path that cannot be read."""
    points: list[Point] = []
    x = y = 0.0
    start = (0.0, 0.0)
    tokens = _TOKENS.findall(d)
    i, command = 0, ""
    while i < len(tokens):
        if _COMMAND.fullmatch(tokens[i]):
            command = tokens[i]
            i += 1
            if command in "Zz":
                x, y = start
                continue
        elif not command:
            raise ValueError("does not start with a command")
        n = _ARGS[command.upper()]
        args = [float(v) for v in tokens[i:i + n]]
        if len(args) < n:
            raise ValueError(f"ends in the middle of a {command!r} command")
        i += n
        rel = command.islower()
        upper = command.upper()
        if upper == "H":
            x = x + args[0] if rel else args[0]
        elif upper == "V":
            y = y + args[0] if rel else args[0]
        else:
            nx, ny = args[-2], args[-1]
            x, y = (x + nx, y + ny) if rel else (nx, ny)
        if upper == "M":
            start = (x, y)
            command = "l" if rel else "L"  # further pairs are lines
        points.append((x, y))
    return points
