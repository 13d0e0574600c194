"""Retreats as Kriegsplomacy tells them (rule 3.6 and the staged release): what became of
each dislodged unit, written ``F Aeg [r-Gre*]``, and the part of it a spy's places show.

A retreat to a place the unit may not go is a legal order that fails and disbands the unit
(``Kriegsplomacy.blocked_retreat_fails``), so a fate is one of: disbanded, retreated, or failed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from calhamer.map import Location, Map, ProvinceId
from calhamer.notation import Notation
from calhamer.orders import Disband, Retreat
from calhamer.position import Unit
from calhamer.results import INVALID, SUCCEEDS, OrderResult, PhaseOutcome

from .names import label, short


@dataclass(frozen=True, slots=True)
class Fate:
    """What became of a dislodged unit: the retreat ordered, if any, and whether it arrived."""

    unit: Unit
    dest: Location | None  # the retreat ordered, if any
    arrived: bool


def retreat_fates(outcome: PhaseOutcome) -> dict[ProvinceId, Fate]:
    """What became of each dislodged unit of a retreat phase, by the province it left."""
    before = outcome.before
    m = before.map
    chosen: dict[ProvinceId, OrderResult] = {}
    for results in outcome.results.values():
        for res in results:
            if res.result != INVALID and isinstance(res.order, Retreat | Disband):
                chosen.setdefault(m.province_of(res.order.loc), res)
    fates = {}
    for d in before.dislodged:
        p = m.province_of(d.unit.loc)
        given = chosen.get(p)
        if given is not None and isinstance(given.order, Retreat):
            fates[p] = Fate(d.unit, given.order.dest, given.result == SUCCEEDS)
        else:
            fates[p] = Fate(d.unit, None, False)
    return fates


def retreat_line(m: Map, fate: Fate, sees: Iterable[ProvinceId] | None = None,
                 written: Notation | None = None) -> str | None:
    """``F Aeg [r-Gre*]`` (retreated), ``[r-Gre]`` (failed: disbanded), ``[d]`` (disbanded).

    With ``sees`` (a spy's places), names out of them are ``???`` and the line is None when
    the retreat neither starts nor ends in them. With ``written`` (the variant's notation),
    the unit is written as it names units (``Purple F Aeg [r-Gre*]``).
    """
    here = m.province_of(fate.unit.loc)
    seen = None if sees is None else frozenset(sees)
    visible_from = seen is None or here in seen
    where = short(m, fate.unit.loc) if visible_from else "???"
    unit_letter = label(m, fate.unit, written)
    if fate.dest is None:
        return f"{unit_letter} {where} [d]" if visible_from else None
    visible_to = seen is None or m.province_of(fate.dest) in seen
    if not visible_from and not visible_to:
        return None
    dest = short(m, fate.dest) if visible_to else "???"
    return f"{unit_letter} {where} [r-{dest}{'*' if fate.arrived else ''}]"
