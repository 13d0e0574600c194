"""The boards calhamer ships, and which of them carry a drawing made by ``calhamer board draw``.

A shipped board is a map file in ``calhamer/maps`` (``standard``) or in one of its family
folders (``godip/hundred``, ``dpjudge/youngstown``); its geometry, when it has one of its
own, is ``<board>.geometry.json`` beside it. The standard board's drawing is made by hand
(``scripts/make_geometry.py``) and the maps that extend it use it; every other board is drawn
from its map by ``scripts/draw-boards.py``, so that no board is drawn at run time.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from calhamer.boards import shipped_boards

__all__ = ["drawn_boards", "geometry_path", "shipped_boards"]


def _maps() -> Path:
    return Path(str(resources.files("calhamer") / "maps"))


def drawn_boards() -> list[str]:
    """The shipped boards whose drawing ``calhamer board draw`` makes: those in a family
    folder (the top-level maps are the standard board, its extensions and the hand-drawn
    excerpt)."""
    return [name for name in shipped_boards() if "/" in name]


def geometry_path(name: str) -> Path:
    """Where a shipped board's own geometry file is (or would be)."""
    return _maps() / f"{name}.geometry.json"
