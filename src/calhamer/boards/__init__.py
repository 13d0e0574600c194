"""Boards from other judges, imported into calhamer's map format.

Each importer is a package of its own (``calhamer.boards.dpjudge`` reads DPjudge's ``.map``
files and the ``diplomacy`` package's dialect of them). The importers write map files and
variant files; they sit outside the core, which never imports them: a board they write is
loaded like any other map file (``docs/maps.md``), and ``docs/boards.md`` says how each
judge's directives are read.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

__all__ = ["shipped_boards"]


def shipped_boards() -> list[str]:
    """Every map calhamer ships, by the name it is loaded with: the top-level ones
    (``standard``), then each family folder's (``godip/hundred``, ``dpjudge/youngstown``),
    sorted."""
    return list(_shipped())


@cache
def _shipped() -> tuple[str, ...]:
    root = Path(str(resources.files("calhamer") / "maps"))
    names = sorted(p.stem for p in root.glob("*.toml"))
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        names += sorted(f"{folder.name}/{p.stem}" for p in folder.glob("*.toml"))
    return tuple(names)
