"""Variants composed from rule modules: a board, a list of modules and options.

A variant is written down as a :class:`VariantSpec`: the board (a map's name, or the path of
a map file), the rule modules by name, their options and the rule edition. :func:`compose`
turns a spec into a variant: the built-in variant when the spec is one of theirs (the
``kriegsplomacy`` preset *is* ``kriegsplomacy+fog+flexible-builds``), otherwise a class made
from the modules' classes, named by the spec's canonical text (``standard-dp+fog+neutrals``),
which is what phase and game documents and the web judge's database record, so that a
composed game needs nothing but its own file to be read again.

A variant file (TOML, :func:`load_variant_file`) gives the same, with a title::

    title = "Fog of war with DP neutrals"
    board = "standard-dp"
    modules = ["fog", "neutrals"]
    rules = "1971"            # the edition; optional

    [options]
    dp_cap = 2

Modules are combined in one fixed order whatever order they are listed in (:data:`MODULES`),
so that one set of modules is one variant. A spec with no module is the standard rules on its
board, written ``board+standard`` (how a board of one's own is played: ``docs/maps.md``); the
default edition is written as none. Besides the modules' options, every variant takes the
options of the rules vocabulary (:mod:`calhamer.vocabulary`: ``build_sites``,
``civil_disorder``...), with or without modules. Pairs that cannot be played together, an
edition named
with a module that reads none (:data:`REFUSES_EDITION`), options no module takes, bad option
values and boards without what a module needs are refused with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from calhamer.errors import CalhamerError
from calhamer.recent import RecentlyUsed
from calhamer.variant import RuleModule, Variant
from calhamer.vocabulary import OPTIONS, option_value, options_problem, power_codes

if TYPE_CHECKING:
    from calhamer.map import Map

__all__ = ["MODULES", "REFUSES_EDITION", "VariantSpec", "compose", "find_module",
           "load_variant_file", "module_names", "parse_spec", "spec_of", "with_options"]

# The rule modules by name, in the order they are combined: the first is outermost (its
# hooks run first and call the next ones' through ``super()``). Fog comes first, since it
# decides what is told of everything the others do; garrisons follow neutrals, so that on a
# board with both DP answers for the minor powers it sells orders for and garrisons hold the
# rest (docs/rules/composition.md).
MODULES: dict[str, str] = {
    "fog": "calhamer.variants.kriegsplomacy:Fog",
    "neutrals": "calhamer.variants.dp:Neutrals",
    "garrisons": "calhamer.variants.garrisons:Garrisons",
    "colours": "calhamer.variants.arpiesse:Colours",
    "stacks": "calhamer.variants.superdiplomacy:Stacks",
    "flexible-builds": "calhamer.variants.kriegsplomacy:FlexibleBuilds",
}
# Modules that cannot be played with a rule edition named in the spec, and why.
REFUSES_EDITION: dict[str, str] = {
    "stacks": "Superdiplomacy's moves have their own paradox handling and read none of the "
              "edition's options",
}
_ALIASES = {"colors": "colours", "fog-of-war": "fog", "dp": "neutrals", "dp-neutrals": "neutrals",
            "flexible": "flexible-builds", "stack": "stacks", "garrison": "garrisons"}

# Canonical spec text -> the variant made for it, the most recently used kept: a preset is
# never in it (``compose`` finds the presets first), so the shipped variants are always found.
COMPOSED_CACHE_SIZE = 256
_COMPOSED: RecentlyUsed[str, Variant] = RecentlyUsed(COMPOSED_CACHE_SIZE)

# Written in place of the modules for the standard rules on a board (``island.toml+standard``).
STANDARD = "standard"


def module_names() -> list[str]:
    """The names of the rule modules, in the order they are combined."""
    return list(MODULES)


def find_module(name: str) -> type[RuleModule]:
    """The rule module called ``name`` (case-insensitively, or one of its other names)."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in MODULES:
        raise CalhamerError(f"there is no rule module {name!r}; the modules are: "
                            + ", ".join(MODULES))
    module_name, _, attr = MODULES[key].partition(":")
    cls = getattr(import_module(module_name), attr)
    assert issubclass(cls, RuleModule) and cls.module_name == key
    return cls


@dataclass(frozen=True)
class VariantSpec:
    """A variant as a board, rule modules (in their combining order), options and edition."""

    board: str
    modules: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    rules: str | None = None
    title: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, board: str, modules: Sequence[str], options: Mapping[str, Any] | None = None,
           rules: str | None = None, title: str | None = None) -> VariantSpec:
        """A spec with the module names checked and put in their combining order (no module,
        or only ``standard``, is the standard rules on the board)."""
        board = board.strip()
        if not board:
            raise CalhamerError("a variant needs a board: a map's name or a map file's path")
        bad = [c for c in "+?&" if c in board]
        if bad:
            raise CalhamerError(f"the board {board!r} cannot be written in a variant's name: "
                                f"a map's name or path may not hold {bad[0]!r}")
        names = {find_module(m).module_name for m in modules if m.strip().lower() != STANDARD}
        ordered = tuple(m for m in MODULES if m in names)
        opts = tuple(sorted((k.strip(), _canonical(v)) for k, v in (options or {}).items()))
        edition = (rules or "").strip().lower() or None
        if edition == Variant.default_rules:
            edition = None  # the default edition is written as none, so one variant has one text
        return cls(board, ordered, opts, edition, title)

    def text(self) -> str:
        """The canonical text: ``board+module+module`` (``board+standard`` for the standard
        rules on a board), then ``?option=value&...``."""
        out = "+".join((self.board, *(self.modules or (STANDARD,))))
        query = [(k, _option_text(v)) for k, v in self.options]
        if self.rules:
            query.append(("rules", self.rules))
        if query:
            out += "?" + "&".join(f"{k}={v}" for k, v in query)
        return out


def _canonical(value: Any) -> Any:
    """An option's value as a spec holds it: a list of names sorted, as a tuple; a name in
    lower case (as the spec's text reads it back)."""
    if isinstance(value, (list, tuple, frozenset, set)):
        return tuple(sorted(str(v).strip().lower() for v in value))
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _option_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, frozenset, set)):
        return ",".join(sorted(str(v) for v in value))
    return str(value)


def _option_value(text: str) -> Any:
    low = text.strip().lower()
    if low == "none":
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low)
    except ValueError:
        pass
    if "," in low:
        return [v.strip() for v in low.split(",") if v.strip()]
    return low


def parse_spec(text: str) -> VariantSpec:
    """A spec from its text (``standard-dp+fog+neutrals?dp_cap=2``; the modules in any order,
    ``board+standard`` for the standard rules on a board)."""
    body, _, query = text.strip().partition("?")
    board, *modules = [p.strip() for p in body.split("+")]
    if not board or not modules or not all(modules):
        raise CalhamerError(f"{text!r} is not a composed variant: write the board and its "
                            "modules as board+module+module, like standard-dp+fog+neutrals "
                            "(board+standard for the standard rules on a board)")
    if board.lower().endswith(".toml") and not Path(board).is_absolute() \
            and Path(board).is_file():
        board = str(Path(board).resolve())  # a game file then finds it from anywhere
    options, rules = _parse_query(query, text)
    return VariantSpec.of(board, modules, options, rules)


def _parse_query(query: str, text: str) -> tuple[dict[str, Any], str | None]:
    """The options and the edition (``rules=``) of a name's ``?name=value&...`` part."""
    options: dict[str, Any] = {}
    rules = None
    for part in filter(None, query.split("&")):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise CalhamerError(f"{text!r}: option {part!r} has no value (write name=value)")
        if key.strip() == "rules":
            rules = value.strip() or None
        else:
            options[key.strip()] = _option_value(value)
    return options, rules


def spec_of(variant: Variant) -> VariantSpec | None:
    """The spec a variant built from modules, or setting options of the rules vocabulary,
    answers to (None for the standard game or a variant that does neither)."""
    cls = type(variant)
    options: dict[str, Any] = {name: getattr(cls, name) for name in OPTIONS
                               if getattr(cls, name) != getattr(Variant, name)}
    if not cls.modules and not options:
        return None
    for module in cls.modules:
        for option in module.options:
            value = getattr(cls, option)
            if value != getattr(module, option):
                options[option] = sorted(value) if isinstance(value, frozenset) else value
    rules = None if cls.default_rules == Variant.default_rules else cls.default_rules
    return VariantSpec.of(cls.map_name, [m.module_name for m in cls.modules], options, rules)


def _checked_options(modules: Sequence[type[RuleModule]], options: Mapping[str, Any],
                     board: Map) -> dict[str, Any]:
    """The options as class attributes, each checked against the module that takes it, or
    as an option of the rules vocabulary every variant takes (powers named as the board's)."""
    known = {name: module for module in modules for name in module.options}
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name in OPTIONS:
            out[name] = option_value(name, value)
            if name in ("powers", "unplayed"):
                out[name] = power_codes(board, name, out[name])
            continue
        module = known.get(name)
        if module is None:
            takes = ", ".join(sorted([*known, *OPTIONS]))
            raise CalhamerError(f"no module of this variant takes the option {name!r} "
                                f"(the options are: {takes})")
        out[name] = module.option_value(name, value)
    problem = options_problem(out, board)
    if problem is not None:
        raise CalhamerError(problem)
    return out


Presets = Callable[[], Iterable[Variant]]


def compose(spec: VariantSpec | str, presets: Presets | None = None) -> Variant:
    """The variant a spec (or its text) describes: one of ``presets`` (the registry's
    variants, :func:`calhamer.variants.compose` passes them) when the spec is one of theirs,
    otherwise a variant made from the modules. Raises :class:`CalhamerError` with the reason
    for an unknown module or option, a board the modules cannot be played on, or modules that
    cannot be played together."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    key = spec.text()
    # The presets first: a spec that is a preset's is that preset, even when the same spec
    # was composed before without them.
    for preset in presets() if presets is not None else ():
        preset_spec = spec_of(preset)
        if preset_spec is not None and preset_spec.text() == key:
            return preset
    found = _COMPOSED.get(key)
    if found is not None:
        return found
    from calhamer.map import load_map
    from calhamer.rules import find_rules

    modules = [find_module(m) for m in spec.modules]
    if not modules and spec.board == Variant.map_name and spec.rules in (
            None, Variant.default_rules) and not spec.options:
        return _standard(presets)
    try:
        board = load_map(spec.board)
    except CalhamerError as exc:
        raise CalhamerError(f"the board {spec.board!r} could not be loaded: {exc}") from None
    if spec.rules is not None:
        find_rules(spec.rules)  # an unknown edition is refused here, not at the first phase
        for name in spec.modules:
            if name in REFUSES_EDITION:
                raise CalhamerError(f"{name} cannot be played with a rule edition: "
                                    + REFUSES_EDITION[name])
    attrs: dict[str, Any] = _checked_options(modules, dict(spec.options), board)
    titles = ", ".join(m.module_title[:1].lower() + m.module_title[1:] if i
                       else m.module_title for i, m in enumerate(modules)) or "Standard rules"
    attrs.update(
        name=key,
        aliases=(),
        title=spec.title or f"{titles} (on the {board.name} board)",
        map_name=spec.board,
        default_rules=spec.rules or Variant.default_rules,
        __module__=__name__,
        __doc__=f"The variant {key}, composed from rule modules.",
        __reduce__=_reduce_composed,  # it travels to another process as its text
    )
    bases: tuple[type[Variant], ...] = tuple(modules) or (Variant,)
    cls = type("Composed", bases, attrs)  # refuses pairs that cannot be combined
    return _checked(cls, modules, board, key)


def _checked(cls: type[Variant], modules: Iterable[type[RuleModule]], board: Map,
             key: str) -> Variant:
    """The variant of class ``cls``, once each of its rule modules accepts the board (asked
    of the class made, its options set, and told in the module's own words), kept under
    ``key``."""
    for module in modules:
        problem = module.board_problem.__func__(cls, board)  # type: ignore[attr-defined]
        if problem is not None:
            raise CalhamerError(f"{module.module_name} cannot be played here: {problem}")
    made = cls()
    made.board()  # the board as the options change it: a problem is told now, not in play
    _COMPOSED.put(key, made)
    return made


def with_options(base: Variant, query: str, text: str,
                 presets: Presets | None = None, *,
                 finder: Callable[[str], Variant]) -> Variant:
    """``base`` (a variant found by its name) with the options of ``query``, the part after
    ``?`` of a name like ``standard?draw_vote=false`` or ``youngstown-redux?last_year=1910``:
    options of the rules vocabulary or of the variant's modules, and ``rules=`` for the
    edition. The variant keeps everything else of its own (its Python hooks, a shipped file's
    description); it is named ``<base name>?<the options changed, in canonical order>``, which
    :func:`calhamer.variants.find_variant` reads back to the same variant. Options equal to
    the variant's own are left out of the name, so ``standard?draw_vote=true`` is the standard
    game. A composed variant (``board+module...``) takes them into its spec instead. Raises
    :class:`CalhamerError` with the reason for an option nobody takes or a bad value."""
    given, rules = _parse_query(query, text)
    cls = type(base)
    spec = spec_of(base)
    if spec is not None and "+" in base.name:  # a composed variant's name is its spec
        merged = {**dict(spec.options), **given}
        return compose(VariantSpec.of(spec.board, spec.modules, merged, rules or spec.rules),
                       presets)
    board = base.board()
    checked = _checked_options(cls.modules, given, board)
    changed = {k: v for k, v in checked.items() if v != getattr(cls, k)}
    edition = (rules or "").strip().lower() or None
    if edition is not None:
        from calhamer.rules import find_rules

        if edition == cls.default_rules:
            edition = None
        else:
            find_rules(edition)  # an unknown edition is refused here, not at the first phase
            for module in cls.modules:
                if module.module_name in REFUSES_EDITION:
                    raise CalhamerError(f"{base.name} cannot be played with a rule edition: "
                                        + REFUSES_EDITION[module.module_name])
    if not changed and edition is None:
        return base
    query_parts = [f"{k}={_option_text(_canonical(given[k]))}" for k in sorted(changed)]
    if edition is not None:
        query_parts.append(f"rules={edition}")
    key = f"{base.name}?{'&'.join(query_parts)}"
    found = _COMPOSED.get(key)
    if found is not None:
        return found
    attrs: dict[str, Any] = dict(changed)
    attrs.update(
        name=key,
        aliases=(),
        title=f"{base.title} ({', '.join(query_parts)})",
        __module__=__name__,
        __doc__=f"The variant {base.name} with options: {', '.join(query_parts)}.",
        # it travels to another process as its name, found there by ``finder`` (the
        # registry's look-up, handed in: this module never imports the registry)
        __reduce__=lambda variant: (finder, (variant.name,)),
    )
    if edition is not None:
        attrs["default_rules"] = edition
    return _checked(type(cls.__name__, (cls,), attrs), cls.modules, board, key)


def _reduce_composed(variant: Variant) -> tuple[Any, ...]:
    """How a composed variant is pickled: its canonical text, composed again there."""
    return (compose, (variant.name,))


def _standard(presets: Presets | None) -> Variant:
    for preset in presets() if presets is not None else ():
        if type(preset) is Variant:
            return preset
    from calhamer.variant import STANDARD as standard_game

    return standard_game


def load_variant_file(path: str | Path, presets: Presets | None = None) -> Variant:
    """The variant a TOML variant file describes (see this module's documentation); a map
    file named as its board is found beside the variant file."""
    import tomllib

    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalhamerError(f"the variant file {str(path)!r} could not be read: "
                            f"{exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CalhamerError(f"the variant file {str(path)!r} is not TOML: {exc}") from None
    from calhamer.documents.variants import VariantFile, read_variant_file

    doc: VariantFile = read_variant_file(data, str(path))
    board = doc.board
    if board.endswith(".toml") and not Path(board).is_absolute():
        board = str((path.parent / board).resolve())
    spec = VariantSpec.of(board, doc.modules, doc.options, doc.rules, doc.title)
    return compose(spec, presets)
