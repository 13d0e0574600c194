"""Places, powers and units as the Kriegsplomacy source writes them: ``Bud``, ``StP(NC)``,
``Aus``, ``F Sev``; and provinces in the order reports list them."""

from __future__ import annotations

from collections.abc import Iterable

from calhamer import notation
from calhamer.map import Location, Map, ProvinceId, UnitType
from calhamer.position import Unit

# The source's own abbreviations where they differ from the map's codes (all of them are also
# names the map accepts, so a player may copy a report line back into an order).
_SHORT = {"STP": "StP", "TYR": "Tyo", "TYS": "Tyh", "MAO": "Mid", "WES": "Wmd", "NAO": "Nat"}


def short(m: Map, loc: Location) -> str:
    """``Bud``, ``StP(NC)``, ``Bul(SC)``: a place as the source writes it."""
    code = m.provinces[m.loc_province[loc]].code
    name = _SHORT.get(code, code[:1] + code[1:].lower())
    coast = m.loc_coast[loc]
    return f"{name}({coast})" if coast else name


def power_abbreviation(m: Map, power: str | None) -> str:
    """``Aus``, ``Eng``, ``Fre``: the first three letters of the power's adjective."""
    if power is None:
        return "???"
    try:
        p = m.power(power)
    except KeyError:
        return power[:3].title()
    return (p.adjective or p.name)[:3]


def letter(unit_type: UnitType | None) -> str:
    """``A``, ``F``, or ``?`` for a unit whose type is not known."""
    return "?" if unit_type is None else unit_type.letter


def label(m: Map, unit: Unit, written: notation.Notation | None = None) -> str:
    """``F``, or ``Purple F`` in a variant whose notation writes more of a unit than its type
    (Arpiesse's colour): the unit as ``written`` names it, less its place.

    Whatever the variant's notation puts before the standard ``F WES`` is part of the unit
    (composition.md: a unit's colour is seen with the unit), so a report line that shows the
    unit shows it too.
    """
    if written is None:
        return letter(unit.type)
    plain = notation.format_unit(m, unit)
    full = written.format_unit(m, unit)
    head = full[: -len(plain)] if full.endswith(plain) else ""
    return f"{head}{letter(unit.type)}"


def short_unit(m: Map, unit: Unit, written: notation.Notation | None = None) -> str:
    """``F Sev`` (``Purple F Sev``): a unit as the source writes it."""
    return f"{label(m, unit, written)} {short(m, unit.loc)}"


def by_code(m: Map, provinces: Iterable[ProvinceId]) -> list[ProvinceId]:
    """``provinces`` in the order of their codes, as reports list them."""
    return sorted(provinces, key=lambda p: m.provinces[p].code)
