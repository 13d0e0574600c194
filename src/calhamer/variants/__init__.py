"""The variants by name: the registry that the edges use to turn a name into a variant.

A position carries its variant object (:class:`calhamer.variant.Variant` or a subclass), so
the core never looks a variant up. Names appear only where a variant is chosen or written
down (phase and game documents, the command line, the web judge), and those places call
:func:`find_variant`.

The variants shipped with calhamer are listed here by name and loaded on first use, so that
``import calhamer`` and a standard game load none of them. Variants from other packages
register through the ``calhamer.variants`` entry-point group: the entry point's name is the
variant's name and its value the class (``my_package.module:MyVariant``). Code may also call
:func:`register_variant` with a class.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from calhamer.errors import CalhamerError
from calhamer.recent import RecentlyUsed
from calhamer.variant import STANDARD, Variant

if TYPE_CHECKING:
    from importlib import metadata

__all__ = ["ENTRY_POINT_GROUP", "Variant", "all_variants", "find_variant", "register_variant",
           "variant_names"]

ENTRY_POINT_GROUP = "calhamer.variants"

# The variants shipped with calhamer: their names and aliases, and where each class lives.
# (A test checks this table against the classes' own ``name`` and ``aliases``.)
BUILT_IN: dict[str, tuple[str, tuple[str, ...]]] = {
    "standard": ("calhamer.variant:Variant", ("classic", "standard-diplomacy")),
    "arpiesse": ("calhamer.variants.arpiesse:Arpiesse", ("rps", "arpiesse-diplomacy")),
    "arpiesse-exchange": ("calhamer.variants.arpiesse:ArpiesseExchange", ("arpiesse-summer",)),
    "standard-dp": ("calhamer.variants.dp:DPVariant", ("dp", "standard-diplomacy-points")),
    "sub-saharan-excerpt": ("calhamer.variants.dp:SubSaharanExcerpt",
                            ("sub-saharan-dp-example",)),
    "kriegsplomacy": ("calhamer.variants.kriegsplomacy:Kriegsplomacy",
                      ("krieg", "kriegsplomacy-rd07", "rd07")),
    "superdiplomacy": ("calhamer.variants.superdiplomacy:Superdiplomacy",
                       ("super", "super-diplomacy", "superdip")),
    # composed presets (calhamer.variants.presets) are added here as each is finished
    "fog-dp": ("calhamer.variants.presets:FogWithNeutrals", ("kriegsplomacy-dp", "fog-neutrals")),
    "arpiesse-fog": ("calhamer.variants.presets:ColoursUnderFog", ("colours-fog", "fog-arpiesse")),
    "superdiplomacy-dp": ("calhamer.variants.presets:SuperdiplomacyWithNeutrals", ("super-dp",)),
    "superdiplomacy-fog": ("calhamer.variants.presets:SuperdiplomacyUnderFog", ("super-fog",)),
}

# The shipped, registered and plugin variants, once loaded, are kept here for good (one shared
# instance each, never forgotten); ``_FOUND`` only saves working a name out again.
_LOADED: dict[str, Variant] = {"standard": STANDARD}  # name -> the one shared instance
_REGISTERED: dict[str, type[Variant]] = {}  # classes given to register_variant, by name
FOUND_CACHE_SIZE = 512
_FOUND: RecentlyUsed[str, Variant] = RecentlyUsed(FOUND_CACHE_SIZE)  # name as asked -> variant


def _entry_points() -> dict[str, metadata.EntryPoint]:
    # Imported here: reading the installed packages' metadata is slow, and only a name that
    # is not a shipped or registered variant needs it.
    from importlib import metadata

    return {ep.name.lower(): ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def variant_names() -> list[str]:
    """The names of every variant there is, without loading any of them."""
    names = list(BUILT_IN)
    names += [n for n in _REGISTERED if n not in names]
    names += sorted(n for n in _entry_points() if n not in names)
    return names


def _instance(name: str, cls: type[Variant]) -> Variant:
    found = _LOADED.get(name)
    if found is None or type(found) is not cls:
        found = _LOADED[name] = cls()
    return found


def _load_class(target: str, where: str) -> type[Variant]:
    module_name, _, attr = target.partition(":")
    try:
        cls = getattr(import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise CalhamerError(f"the variant {where} could not be loaded: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        raise CalhamerError(f"the variant {where} is not a subclass of calhamer's Variant")
    return cls


def _load(name: str) -> Variant:
    if name in _LOADED:
        return _LOADED[name]
    if name in _REGISTERED:
        return _instance(name, _REGISTERED[name])
    if name in BUILT_IN:
        return _instance(name, _load_class(BUILT_IN[name][0], repr(name)))
    ep = _entry_points()[name]
    cls = _load_class(ep.value, f"{name!r} (from the entry point {ep.value})")
    return _instance(name, cls)


def _name_for(key: str) -> str | None:
    """The variant name that ``key`` (a name or an alias, lower case) stands for."""
    if key in BUILT_IN or key in _REGISTERED:
        return key
    for name, (_, aliases) in BUILT_IN.items():
        if key in aliases:
            return name
    for name, cls in _REGISTERED.items():
        if key in cls.aliases:
            return name
    points = _entry_points()
    if key in points:
        return key
    for name in points:  # an alias of a plugin variant: its class must be loaded to tell
        if key in _load(name).aliases:
            return name
    return None


def find_variant(name: str | Variant) -> Variant:
    """The variant called ``name`` or one of its aliases, case-insensitively.

    A variant object is returned as it is. Variants hold no state, so one instance of each is
    shared. A name may also be a composed variant's text (``standard-dp+fog+neutrals``, see
    :mod:`calhamer.variants.composition`) or the path of a variant file (``*.toml``).
    """
    if isinstance(name, Variant):
        return name
    found = _FOUND.get(name)
    if found is not None:
        return found
    if "+" in name or name.strip().lower().endswith(".toml"):
        from calhamer.variants import composition

        if "+" in name:
            found = composition.compose(name, presets=all_variants)
        else:
            found = composition.load_variant_file(name.strip(), presets=all_variants)
        _FOUND.put(name, found)
        return found
    key = _name_for(name.strip().lower())
    if key is None:
        known = ", ".join(variant_names())
        raise CalhamerError(f"there is no variant {name!r}; the variants are: {known}")
    found = _load(key)
    _FOUND.put(name, found)
    return found


def all_variants() -> list[Variant]:
    """Every variant, loaded (for listings: the command line's and the web judge's)."""
    return [_load(name) for name in variant_names()]


def register_variant(cls: type[Variant]) -> Variant:
    """Make ``cls`` findable by its ``name`` and ``aliases``; returns its instance."""
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        raise CalhamerError("only a subclass of calhamer's Variant can be registered")
    _REGISTERED[cls.name] = cls
    _FOUND.clear()
    return _instance(cls.name, cls)
