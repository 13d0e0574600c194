"""The rules vocabulary: the standard game's own options, which every variant takes.

A variant put on the table with files only sets these in its variant file's ``[options]``
(or its spec text, ``standard+standard?build_sites=owned``), as it sets a rule module's
options; a variant written in Python sets them in its class body. Each is a class attribute
of :class:`calhamer.variant.Variant` whose default is the standard game's rule, so that a
variant that sets none plays exactly as before. The hooks read them where their rule is
decided: build sites in the winter (:mod:`calhamer.phases.sites`), victory in
:mod:`calhamer.victory`, the powers played in the board a variant plays on
(:meth:`Variant.board`), civil disorder in the edition (:meth:`Variant.phase_rules`).

``docs/variants.md`` gives each option's meaning, the variants that use it, its default and
an example. This module knows no variant and imports nothing but the errors and the rule
editions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from calhamer.errors import CalhamerError
from calhamer.rules import DisorderDistance

if TYPE_CHECKING:
    from calhamer.board import Map

__all__ = ["BUILD_SITES", "OPTIONS", "Option", "option_value", "options_problem", "power_codes"]

BUILD_SITES = ("home", "owned", "any-home", "listed")
MISSING_BUILDS = ("waive", "army-first-winter")
VICTORY_PHASES = ("any", "M", "A")

Check = Callable[[str, Any], Any]


@dataclass(frozen=True)
class Option:
    """One option of the vocabulary: its name, what it means, the standard game's value, and
    how a value given in a file or a spec is checked (returning it as the variant holds it,
    or raising :class:`CalhamerError` saying what the option takes)."""

    name: str
    meaning: str
    default: Any
    check: Check


def _choice(*choices: str, upper: bool = False) -> Check:
    def check(name: str, value: Any) -> Any:
        # (a spec's text reads "1971" as a number)
        plain = isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
        text = str(value).strip() if plain else None
        found = next((c for c in choices if text is not None and c.lower() == text.lower()),
                     None)
        if found is None:
            raise CalhamerError(f"option {name} must be one of {', '.join(choices)}, "
                                f"not {value!r}")
        return found.upper() if upper else found
    return check


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise CalhamerError(f"option {name} must be true or false, not {value!r}")
    return value


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CalhamerError(f"option {name} must be a whole number of at least 0, not {value!r}")
    return value


def _count_or_none(name: str, value: Any) -> int | None:
    return None if value is None else _count(name, value)


def _names(name: str, value: Any) -> tuple[str, ...]:
    """A list of power names (one name alone, or "" for none, as a spec's text gives them),
    held as upper-case codes; which powers they are is checked against the board when the
    variant is made (:func:`power_codes`)."""
    if value is None or value == "":
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, Sequence) or not all(isinstance(v, str) for v in items):
        raise CalhamerError(f"option {name} must be a list of powers, like [\"FRANCE\", "
                            f"\"AUSTRIA\"], not {value!r}")
    return tuple(sorted({v.strip().upper() for v in items if v.strip()}))


def _played(name: str, value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    codes = _names(name, value)
    if not codes:
        raise CalhamerError(f"option {name} must name at least one power")
    return codes


def _disorder(name: str, value: Any) -> str | None:
    if value is None:
        return None
    # The rule editions' own names for their civil-disorder rules (DisorderDistance), so
    # that a rule an edition gains is taken here without a change.
    return _choice(*(d.value for d in DisorderDistance))(name, value)  # type: ignore[no-any-return]


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("build_sites", "where a power builds: home (its home centres), owned (any centre "
           "it owns), any-home (any great power's home centre it owns) or listed (the map's "
           "[powers.X] builds)", "home", _choice(*BUILD_SITES)),
    Option("missing_builds", "builds a power is owed and did not order: waive (lost), or "
           "army-first-winter (in the first winter each unused build site gets an army)",
           "waive", _choice(*MISSING_BUILDS)),
    Option("solo_centres", "the centres a solo needs (0: no solo; none: the map's "
           "victory_centers, a power's own first)", None, _count_or_none),
    Option("solo_needs_lead", "a solo also needs strictly more centres than any other power "
           "(a tie for the most plays on)", False, _flag),
    Option("lead_margin", "a power also wins with this many centres more than any other "
           "(0: no such win)", 0, _count),
    Option("lead_margin_year", "the year from which the lead margin falls by one a year, to "
           "1 at least (none: it never falls)", None, _count_or_none),
    Option("victory_phase", "the phases in which victory is checked: any, or a phase kind "
           "(A: adjustments only, every winter then played)", "any",
           _choice(*VICTORY_PHASES, upper=True)),
    Option("last_year", "the last year played: after it the game ends, ranked by centres "
           "(none: no last year)", None, _count_or_none),
    Option("draw_vote", "whether the surviving powers may agree to a draw", True, _flag),
    Option("powers", "the powers played (none: all); the others are left off the board: "
           "no units, their home centres owned by no one and no one's home", None, _played),
    Option("unplayed", "powers on the board nobody plays: their units hold, no orders are "
           "due from them, they never build", (), _names),
    Option("civil_disorder", "which units go when a power owes removals and ordered too few "
           "(none: the edition's rule)", None, _disorder),
)}


def option_value(name: str, value: Any) -> Any:
    """``value`` (as a variant file or spec gives it) checked as the option ``name``, in the
    form the variant's class attribute holds it."""
    return OPTIONS[name].check(name, value)


def power_codes(m: Map, name: str, given: Sequence[str] | None) -> tuple[str, ...] | None:
    """The power codes the option ``name`` names on board ``m`` (by code, name or alias), in
    the map's order; raises :class:`CalhamerError` for a name that is no great power of it."""
    if given is None:
        return None
    found: list[str] = []
    for text in given:
        code = m.find_power(text)
        if code is None or m.is_minor(code):
            known = ", ".join(m.power_codes)
            raise CalhamerError(f"option {name}: {text!r} is not a power of the board "
                                f"{m.name!r} (the powers are {known})")
        found.append(code)
    return tuple(p for p in m.power_codes if p in found)


def options_problem(values: Mapping[str, Any], m: Map) -> str | None:
    """Why options ``values`` (as checked, powers as codes) cannot be played on board ``m``,
    or None: listed build sites need a list for every power played, and a power nobody plays
    must be on the board."""
    played = values.get("powers") or m.power_codes
    unplayed = values.get("unplayed") or ()
    left_off = [p for p in unplayed if p not in played]
    if left_off:
        return (f"option unplayed: {', '.join(left_off)} is not among the powers played "
                f"({', '.join(played)})")
    if values.get("build_sites") == "listed":
        missing = [p.code for p in m.powers if p.code in played and p.builds is None]
        if missing:
            return (f"build_sites = listed needs the map's [powers.X] builds for every power "
                    f"played; they are missing for {', '.join(missing)}")
    return None
