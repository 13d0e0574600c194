"""The variants as the places that offer them list them: by family, each with its source,
a sentence on what it is and the size of its board.

``calhamer variants`` and the web judge's new-game form read :func:`catalogue`. A family is
where variants come from: those built for calhamer (the five variants and the presets
composed from their rule modules), godip's boards (variant files written by
scripts/godip-boards.py, see docs/rules/godip-variants.md), and any a plugin registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from calhamer.errors import CalhamerError
from calhamer.map import Terrain, load_map
from calhamer.variant import Variant
from calhamer.variants import BUILT_IN, find_variant, shipped_files, variant_names

__all__ = ["FAMILIES", "Entry", "catalogue"]

# family -> (its heading, where its variants come from)
FAMILIES: dict[str, tuple[str, str]] = {
    "calhamer": ("Built for calhamer", "calhamer's own rule modules and boards"),
    "godip": ("godip's boards", "from godip, the judge of diplicity, github.com/zond/godip; "
              "the facts transcribed by scripts/godip-boards.py"),
    "dpjudge": ("DPjudge's boards", "from DPjudge's map files (MIT licence, (c) 2017 Manus "
                "Hand), github.com/serrasqueiro/dpjudge; imported by "
                "scripts/dpjudge-boards.py"),
    "other": ("From other packages", "registered by a plugin"),
}

# What each variant built for calhamer is, in a sentence (a variant file says it itself).
_DESCRIPTIONS: dict[str, str] = {
    "standard": "The standard game of seven powers on the map of Europe in 1901.",
    "arpiesse": "Every unit has a colour; colours beat one another as rock, paper and "
                "scissors do.",
    "arpiesse-exchange": "Arpiesse with a summer phase in which units may change colour.",
    "standard-dp": "The standard map with neutral units whose orders players buy with "
                   "secret Diplomacy Points.",
    "sub-saharan-excerpt": "A small excerpt of the Sub-Saharan board, with DP neutrals: the "
                           "DP rules' own worked example.",
    "kriegsplomacy": "Fog of war: each power sees only near its units, and may spy.",
    "superdiplomacy": "A larger board of stacked units, dice battles and supply lines.",
    "fog-dp": "Fog of war and DP neutrals together on the standard board.",
    "arpiesse-fog": "Arpiesse's colours under fog of war.",
    "superdiplomacy-dp": "Superdiplomacy with DP neutrals among the Small Powers.",
    "superdiplomacy-fog": "Superdiplomacy under fog of war.",
}


@dataclass(frozen=True)
class Entry:
    """One variant as a listing shows it."""

    name: str
    family: str
    title: str
    description: str
    source: str
    powers: int = 0
    provinces: int = 0
    centres: int = 0
    rules: str = ""
    problem: str | None = None  # why it cannot be loaded (a shipped file, say)

    @property
    def size(self) -> str:
        """``7 powers, 75 provinces, 34 centres``."""
        return f"{self.powers} powers, {self.provinces} provinces, {self.centres} centres"


def family_of(name: str, variant: Variant | None = None) -> str:
    """The family of the variant called ``name``."""
    if name in BUILT_IN:
        return "calhamer"
    if name in shipped_files():
        return shipped_files()[name].parent.name
    return str(getattr(variant, "family", "other"))


def entry(name: str) -> Entry:
    """The listing's entry for the variant ``name`` (one that cannot be loaded included,
    with its problem)."""
    try:
        variant = find_variant(name)
    except CalhamerError as exc:
        return Entry(name, family_of(name), name, "", "", problem=str(exc))

    board = load_map(variant.map_name)
    family = family_of(name, variant)
    doc = (type(variant).__doc__ or "").strip().split("\n\n")[0]
    return Entry(
        name=name, family=family, title=variant.title,
        description=str(getattr(variant, "description", "") or _DESCRIPTIONS.get(name)
                        or " ".join(doc.split())),
        source=str(getattr(variant, "source", "") or FAMILIES.get(family, ("", family))[1]),
        powers=len(board.powers),
        provinces=sum(p.terrain is not Terrain.IMPASSABLE for p in board.provinces),
        centres=sum(board.centre_weight), rules=variant.default_rules)


def catalogue() -> list[Entry]:
    """Every variant there is, by family (calhamer's, godip's, then the others), each family
    in the registry's order."""
    entries = [entry(name) for name in variant_names()]
    order = list(FAMILIES)
    return sorted(entries, key=lambda e: order.index(e.family) if e.family in order
                  else len(order))
