"""Retreats as Kriegsplomacy tells them (rule 3.6 and the staged release): what became of
each dislodged unit, written ``F Aeg [r-Gre*]``, and the part of it a spy's places show.

A retreat to a place the unit may not go is a legal order that fails and disbands the unit
(``Kriegsplomacy.blocked_retreat_fails``), so a fate is one of: disbanded, retreated, or failed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, UnitType
from calhamer.notation import Notation
from calhamer.orders import Disband, Retreat
from calhamer.position import Unit
from calhamer.results import INVALID, SUCCEEDS, OrderResult, PhaseOutcome

from .names import by_code, label, letter, short


@dataclass(frozen=True, slots=True)
class Fate:
    """What became of a dislodged unit, or of part of a dislodged stack: the retreat
    ordered, if any, whether it arrived, and the text of the order given ("" if none)."""

    unit: Unit
    dest: Location | None  # the retreat ordered, if any
    arrived: bool
    text: str = ""
    # On a board of stacks, the units this fate is of (how many, of which type): a stack may
    # retreat in parts, each part to its own place, and what no order names is disbanded.
    part: tuple[int, UnitType] | None = None


def retreat_fates(outcome: PhaseOutcome) -> list[Fate]:
    """What became of each dislodged unit of a retreat phase (of each part of a dislodged
    stack), in the order of the provinces' codes and, within a stack, of the orders given."""
    before = outcome.before
    m = before.map
    chosen: dict[ProvinceId, list[OrderResult]] = {}
    for results in outcome.results.values():
        for res in results:
            if res.result != INVALID and isinstance(res.order, Retreat | Disband):
                chosen.setdefault(m.province_of(res.order.loc), []).append(res)
    fates: list[Fate] = []
    entries = {m.province_of(d.unit.loc): d for d in before.dislodged}
    for p in by_code(m, entries):
        unit = entries[p].unit
        given = chosen.get(p, [])
        of_type: Callable[[UnitType], int] | None = getattr(unit, "of_type", None)
        if of_type is None:
            fates.append(_fate(unit, given[0] if given else None))
            continue
        left = {ARMY: of_type(ARMY), FLEET: of_type(FLEET)}
        for res in given:
            order = res.order
            assert isinstance(order, Retreat | Disband)  # as chosen above
            kind = order.unit_type or unit.type
            n = min(int(getattr(order, "count", 1)), left[kind])
            if n > 0:
                left[kind] -= n
                fates.append(_fate(unit, res, (n, kind)))
        fates += [Fate(unit, None, False, part=(n, kind)) for kind, n in left.items() if n]
    return fates


def _fate(unit: Unit, given: OrderResult | None, part: tuple[int, UnitType] | None = None
          ) -> Fate:
    if given is not None and isinstance(given.order, Retreat):
        return Fate(unit, given.order.dest, given.result == SUCCEEDS, given.text, part)
    return Fate(unit, None, False, given.text if given is not None else "", part)


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
    if fate.part is not None:  # part of a stack, with its number (``2A Rum [r-Bud*]``)
        unit_letter = f"{fate.part[0]}{letter(fate.part[1])}"
    else:
        unit_letter = label(m, fate.unit, written)
    if fate.dest is None:
        return f"{unit_letter} {where} [d]" if visible_from else None
    visible_to = seen is None or m.province_of(fate.dest) in seen
    if not visible_from and not visible_to:
        return None
    dest = short(m, fate.dest) if visible_to else "???"
    return f"{unit_letter} {where} [r-{dest}{'*' if fate.arrived else ''}]"
