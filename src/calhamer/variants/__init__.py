"""The variants by name: the registry that the edges use to turn a name into a variant.

A position carries its variant object (:class:`calhamer.variant.Variant` or a subclass), so
the core never looks a variant up. Names appear only where a variant is chosen or written
down (phase and game documents, the command line, the web judge), and those places call
:func:`find_variant`.

The variants shipped with calhamer are listed here by name and loaded on first use, so that
``import calhamer`` and a standard game load none of them. A shipped variant may also be a
variant file rather than a class (godip's boards): ``calhamer/variants/files/<family>/
<name>.toml``, found by its name (see "Variants shipped as files" below). Variants from
other packages register through the ``calhamer.variants`` entry-point group: the entry
point's name is the variant's name and its value the class (``my_package.module:MyVariant``).
Code may also call :func:`register_variant` with a class.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from calhamer.errors import CalhamerError
from calhamer.recent import RecentlyUsed
from calhamer.variant import STANDARD, Variant

if TYPE_CHECKING:
    from importlib import metadata

__all__ = ["ENTRY_POINT_GROUP", "Variant", "all_variants", "find_variant", "register_variant",
           "shipped_files", "variant_names"]

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
    names += [n for n in shipped_files() if n not in names]
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
    if name in shipped_files():
        return _instance(name, _file_class(name))
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
    file_name = _file_name_for(key)
    if file_name is not None:
        return file_name
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
    :mod:`calhamer.variants.composition`) or the path of a variant file (``*.toml``), and any
    of these may be followed by options (``standard?draw_vote=false``,
    ``youngstown-redux?last_year=1910&rules=1971``: the variant with those options, see
    :func:`calhamer.variants.composition.with_options`).
    """
    if isinstance(name, Variant):
        return name
    found = _FOUND.get(name)
    if found is not None:
        return found
    base_text, question, query = name.partition("?")
    if question and "+" not in base_text:
        # A variant's name (or a variant file's path) with options: standard?draw_vote=false.
        from calhamer.variants import composition

        found = composition.with_options(find_variant(base_text.strip()), query, name,
                                         presets=all_variants, finder=find_variant)
        _FOUND.put(name, found)
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
    """Every variant, loaded (for listings: the command line's and the web judge's). A
    shipped variant file that cannot be loaded is left out here; :func:`find_variant` of its
    name says why, and ``calhamer variants`` lists it with the reason."""
    out = []
    for name in variant_names():
        try:
            out.append(_load(name))
        except CalhamerError:
            if name not in shipped_files():
                raise
    return out


def register_variant(cls: type[Variant]) -> Variant:
    """Make ``cls`` findable by its ``name`` and ``aliases``; returns its instance."""
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        raise CalhamerError("only a subclass of calhamer's Variant can be registered")
    _REGISTERED[cls.name] = cls
    _FOUND.clear()
    return _instance(cls.name, cls)


# -- Variants shipped as files -----------------------------------------------------------------
#
# A variant calhamer ships may be a variant file (TOML: board, modules, options; see
# calhamer.variants.composition) rather than a Python class: calhamer/variants/files/<family>/
# <name>.toml, where the family is where the variants come from (``godip``: godip's boards,
# written by scripts/godip-boards.py). Each is found by its file's name and by the ``aliases``
# the file lists, and loaded like any variant file, then named: its ``name`` is the file's
# name (what documents, game files and the web judge's database record), and it carries the
# file's ``description``, ``source`` and its ``family``.

_FILES = Path(__file__).with_name("files")


@cache
def shipped_files() -> dict[str, Path]:
    """Every variant shipped as a file: its name -> its path, by family, then by name."""
    return {path.stem: path for path in sorted(_FILES.glob("*/*.toml"))}


@cache
def _file_aliases() -> dict[str, str]:
    """Each shipped file's aliases (lower case) -> its name: the files are read as plain TOML,
    only when a name is none of the classes' names or aliases."""
    import tomllib

    out: dict[str, str] = {}
    for name, path in shipped_files().items():
        with open(path, "rb") as f:
            aliases = tomllib.load(f).get("aliases", [])
        for alias in aliases if isinstance(aliases, list) else []:
            out.setdefault(str(alias).strip().lower(), name)
    return out


def _file_name_for(key: str) -> str | None:
    """The shipped file variant that ``key`` (lower case) names, or None."""
    if key in shipped_files():
        return key
    return _file_aliases().get(key)


@cache
def _file_class(name: str) -> type[Variant]:
    """The class of the variant shipped as the file ``name``: the variant the file describes,
    named by the file (one class per name, so that its instance is shared)."""
    import tomllib

    from calhamer.documents.variants import read_variant_file
    from calhamer.variants.composition import load_variant_file

    path = shipped_files()[name]
    where = f"{name!r} ({path.parent.name}/{path.name})"
    try:
        with open(path, "rb") as f:
            doc = read_variant_file(tomllib.load(f), str(path))
        composed = type(load_variant_file(path))
    except CalhamerError as exc:
        raise CalhamerError(f"the variant {where} could not be loaded: {exc}") from None
    attrs: dict[str, Any] = {
        "name": name,
        "aliases": tuple(a.strip().lower() for a in doc.aliases),
        "title": doc.title or name,
        "description": doc.description or "",
        "source": doc.source or "",
        "family": path.parent.name,
        "__module__": __name__,
        "__doc__": f"The variant {name}, shipped as the file {path.parent.name}/{path.name}.",
        "__reduce__": _by_name,
    }
    return type(f"Shipped_{name.replace('-', '_')}", (composed,), attrs)


def _by_name(self: Variant) -> tuple[object, ...]:
    # A variant made from a file is no class a module holds: it travels to another process
    # (simulate's workers) as its name, and is found there again.
    return (find_variant, (self.name,))
