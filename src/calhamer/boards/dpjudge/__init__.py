"""DPjudge's boards: its ``.map`` files (and the ``diplomacy`` package's) imported into
calhamer's map format and rules vocabulary.

:func:`import_map` reads a map file, with the files it uses, and returns an
:class:`Imported`: the board's tables (written out as a map file by
:meth:`Imported.board_text`), the variant options its rules come to
(:meth:`Imported.variant_text`), and a :class:`Problem` for each directive or rule the board
cannot carry. ``strict=True`` refuses a board that loses a rule or fact of play
(:class:`ImportRefused`). docs/boards.md ("DPjudge's boards") lists how every directive and
``RULE`` is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calhamer.boards import toml
from calhamer.boards.dpjudge.convert import convert
from calhamer.boards.dpjudge.names import add_aliases
from calhamer.boards.dpjudge.postscript import read_drawing
from calhamer.boards.dpjudge.reader import Problem, Where, read_source
from calhamer.errors import CalhamerError

__all__ = ["ImportRefused", "Imported", "Problem", "Where", "import_map"]

# Colours for powers a drawing does not colour (told apart on a picture).
PALETTE = ("#c0504d", "#4f81bd", "#9bbb59", "#8064a2", "#f79646", "#4bacc6", "#a5a5a5",
           "#e2c541", "#7f6000", "#2c4d75", "#d16fa4", "#5f8a3a", "#b24d2b", "#3f3f3f")


class ImportRefused(CalhamerError):
    """A board refused by a strict import: ``problems`` are what it would lose."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{path.name} is refused: {len(problems)} directive"
                         f"{'s' if len(problems) != 1 else ''} cannot be carried over:\n{lines}")


@dataclass
class Imported:
    """A board imported from a map file."""

    board: dict[str, Any]  # the map file's tables
    options: dict[str, Any]  # the variant options of its rules
    problems: list[Problem] = field(default_factory=list)
    drawing: str | None = None  # the PostScript drawing its points and colours come from
    files: list[str] = field(default_factory=list)  # the map files read, in order

    @property
    def lost(self) -> list[Problem]:
        """The problems that leave a rule or fact of play out of the board."""
        return [p for p in self.problems if p.lost]

    def board_text(self, header: str = "") -> str:
        """The map file, as TOML."""
        return toml.dumps(self.board, header)

    def variant_text(self, board: str, header: str = "", title: str | None = None) -> str:
        """A variant file playing the board (``board``: its name or path) by its rules."""
        tables: dict[str, Any] = {"title": title or self.board["map"]["title"], "board": board}
        if self.options:
            tables["options"] = self.options
        return toml.dumps(tables, header)


def import_map(path: str | Path, strict: bool = False, name: str | None = None,
               title: str | None = None) -> Imported:
    """The board of the DPjudge map file at ``path`` (and the files it ``USE``\\s).

    ``name`` and ``title`` name the board (default: the file's name). Every directive the
    board cannot carry is a :class:`Problem` of the result; with ``strict``, one that loses a
    rule or fact of play raises :class:`ImportRefused` instead. A file that cannot be read
    raises :class:`CalhamerError`; nothing raises anything else.
    """
    path = Path(path)
    if not path.is_file():
        raise CalhamerError(f"{path}: no such map file")
    source = read_source(path)
    if not source.locs:
        raise CalhamerError(f"{path.name} is not a DPjudge map file: it gives no places (no "
                            "WATER, LAND, COAST, PORT or SHUT lines, itself or in the files "
                            "it uses)")
    stem = name or path.stem
    board, options, problems = convert(source, stem)
    board["map"]["title"] = title or path.stem.replace("_", " ").title()
    add_aliases(source, board["provinces"], problems)
    drawing = _drawing(source, path, board)
    problems.sort(key=lambda p: (source.files.index(p.where.file)
                                 if p.where.file in source.files else len(source.files),
                                 p.where.line))
    imported = Imported(board, options, problems, drawing, list(source.files))
    if strict and imported.lost:
        raise ImportRefused(path, imported.lost)
    return imported


def _drawing(source: Any, path: Path, board: dict[str, Any]) -> str | None:
    """Province points and power colours from the board's PostScript drawing, if it has one
    (DPjudge draws a board with its ``MAP``'s drawing, else its own)."""
    ps = path.parent / f"{source.root_map or path.stem}.ps"
    drawing = read_drawing(ps) if ps.is_file() else None
    for index, (code, power) in enumerate(board["powers"].items()):
        color = drawing.colors.get(code) if drawing else None
        power["color"] = color or PALETTE[index % len(PALETTE)]
    if drawing is None:
        return None
    for code, entry in board["provinces"].items():
        # A place the drawing calls by another code is found by its name.
        drawn = code if code in drawing.points else \
            drawing.names.get(str(entry["name"]).lower())
        if drawn in drawing.points:
            entry["x"], entry["y"] = drawing.points[drawn]
    return ps.name
