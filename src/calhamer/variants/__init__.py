"""Variants: each a small subclass of :class:`Variant` overriding a few hooks.

The standard game is the base class itself. A variant names its map file, its default rule
edition, the resolver subclass that carries its adjudication hooks, and how it reads and
writes its own fields of a phase document. :func:`find_variant` is the whole registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from calhamer.adjudicator import MovementResolver
from calhamer.errors import CalhamerError


class Variant:
    """The standard game. Subclasses override class attributes and hook methods."""

    name: ClassVar[str] = "standard"
    aliases: ClassVar[tuple[str, ...]] = ("classic", "standard-diplomacy")
    title: ClassVar[str] = "Standard Diplomacy"
    map_name: ClassVar[str] = "standard"
    default_rules: ClassVar[str] = "datc"
    resolver_class: ClassVar[type[MovementResolver]] = MovementResolver

    def read_extra(self, m: Any, doc: Mapping[str, Any]) -> Mapping[str, object]:
        """Variant fields of a phase document, kept in ``Position.extra``."""
        return {}

    def write_extra(self, position: Any, doc: dict[str, Any]) -> None:
        """Add the variant's fields of ``position`` to a phase document."""


VARIANTS: list[type[Variant]] = [Variant]


def find_variant(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases, case-insensitively."""
    key = name.strip().lower()
    for cls in VARIANTS:
        if key == cls.name or key in cls.aliases:
            return cls()
    known = ", ".join(cls.name for cls in VARIANTS)
    raise CalhamerError(f"there is no variant {name!r}; the variants are: {known}")
