"""The summer colour exchange (Arpiesse rule XII), phase kind ``X``.

Two units swap colours when each orders the exchange with the other (``F ADR X A TRI``) and
either could support the other to hold. This module reads the exchange orders
(:func:`parse_exchange`), lists the possible ones and adjudicates the phase
(:class:`ExchangePhase`, :func:`adjudicate_exchanges`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from calhamer import notation
from calhamer.errors import InvalidOrderError
from calhamer.map import Location, Map, Terrain, UnitType
from calhamer.notation import ParsedOrder
from calhamer.orders import AnyOrder
from calhamer.phases import Intake, OrdersIn, advance
from calhamer.phases.handlers import PhaseHandler
from calhamer.position import Position, Unit
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.views import carry_forward

from .colours import ColouredUnit, Exchange, colour_name, colour_of

_EXCHANGE_WORD = re.compile(r"(?<![\w.'’])(x|exch|exchanges?|swap)(\s+with)?(?![\w.'’])", re.I)
_UNIT_WORDS = {
    "A": UnitType.ARMY, "ARMY": UnitType.ARMY, "F": UnitType.FLEET, "FLEET": UnitType.FLEET,
}


class ExchangePhase(PhaseHandler):
    """The summer colour exchange (rule XII): each power's units may change colour."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_exchanges(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        """An exchange of each of the power's units with every unit it could support to hold
        or that could support it (rule XII)."""
        m = position.map
        found: dict[Location, list[AnyOrder]] = {}
        for here, unit in sorted(position.units.items()):
            if unit.power != power:
                continue
            # the partners the power knows of (every unit on an open board; under fog, its own)
            exchanges: list[AnyOrder] = [
                Exchange(unit.type, unit.loc, other.type, other.loc)
                for there, other in sorted(known.units.items())
                if there != here and (could_support_hold(m, unit, other)
                                      or could_support_hold(m, other, unit))]
            if exchanges:
                found[unit.loc] = exchanges
        return found


def parse_exchange(
    m: Map, text: str, position: Position | None, power: str | None
) -> ParsedOrder:
    """``[Power:] F ADR X A TRI`` (also ``exch``, ``exchange [with]``, ``swap``)."""
    body_start = 0
    prefixed = None
    colon = text.find(":")
    if colon != -1:
        name = text[:colon].strip()
        prefixed = m.find_power(name)
        if prefixed is None:
            raise InvalidOrderError(f'"{name}" is not a power', text=text, start=0, end=colon)
        body_start = colon + 1
    given = (m.find_power(power) or power) if power else None
    if prefixed and given and prefixed != given:
        raise InvalidOrderError(f"this order is marked {prefixed}, but the orders are {given}'s",
                                text=text, start=0, end=colon)
    match = _EXCHANGE_WORD.search(text, body_start)
    if match is None:
        raise InvalidOrderError(
            'Exchange phases take only colour exchanges, like "F ADR X A TRI" or '
            '"F ADR exchange with A TRI"',
            text=text, start=body_start, end=len(text.rstrip()),
        )
    unit_type, loc = _exchange_unit(m, text, body_start, match.start(), position)
    other_type, other = _exchange_unit(m, text, match.end(), len(text), position)
    return ParsedOrder(prefixed or given, Exchange(unit_type, loc, other_type, other),
                       text.strip())


def _exchange_unit(
    m: Map, text: str, start: int, end: int, position: Position | None
) -> tuple[UnitType | None, Location]:
    part = text[start:end]
    lead = len(part) - len(part.lstrip())
    words = part.split()
    if not words:
        raise InvalidOrderError("a unit is missing: name both units, like F ADR X A TRI",
                                text=text, start=start, end=max(end, start + 1))
    written = _UNIT_WORDS.get(words[0].upper())
    name = " ".join(words[1:] if written is not None or words[0] == "?" else words)
    at = start + lead
    loc = m.find_location(name) if name else None
    if loc is None:
        close = [m.describe(c) for c in m.suggest_location(name)] if name else []
        hint = f"did you mean {' or '.join(close)}?" if close else None
        raise InvalidOrderError(f'"{name or part.strip()}" is not a province', text=text,
                                start=at, end=at + len(part.strip()), suggestion=hint)
    if written is None:
        unit = position.unit_at(loc) if position is not None else None
        if unit is not None:
            written = unit.type
        elif m.provinces[m.province_of(loc)].terrain is Terrain.SEA:
            written = UnitType.FLEET
    return written, loc


def could_support_hold(m: Map, unit: Unit, other: Unit) -> bool:
    """Whether ``unit`` is placed so that it could support ``other`` to hold."""
    return m.can_reach_province(unit.type, unit.loc, m.province_of(other.loc))


def adjudicate_exchanges(
    position: Position, orders: Mapping[str, Any], rules: Rules
) -> PhaseOutcome:
    """The summer phase: mutual exchange orders swap colours when either unit could support
    the other to hold (rule XII, Examples 10 to 12)."""

    m = position.map
    intake = Intake(position, orders)
    variant = intake.variant
    # Under fog (composition.md, "the summer exchange") an exchange with a place where no
    # unit stands fails like one the other unit did not order, and no reason names the other
    # unit's colour or type: the power learns only what the exchange it took part in did.
    hidden = variant.visibility.hidden_information
    given: dict[int, list[tuple[OrderResult, Exchange]]] = {}
    for result, order in intake.accepted:
        if not isinstance(order, Exchange):
            intake.illegal(result, "only colour exchanges are given in summer (F ADR X A TRI)")
            continue
        here = m.province_of(order.loc)
        unit = position.units.get(here)
        if unit is None or unit.power != result.power:
            intake.illegal(result, variant.visibility.no_unit_message(position, result.power, here))
            continue
        there = m.province_of(order.other)
        partner = position.units.get(there)
        if there == here:
            intake.illegal(result, "a unit cannot exchange colours with itself")
            continue
        if partner is None and not hidden:
            intake.illegal(result, f"there is no unit in {m.describe(there)} to exchange with")
            continue
        if partner is None or (hidden and partner.power != unit.power):
            # Under fog the partner is written as the power wrote it: its type is not told.
            checked = Exchange(unit.type, unit.loc, order.other_type, order.other)
        else:
            checked = Exchange(unit.type, unit.loc, partner.type, partner.loc)
        result.order = checked
        given.setdefault(here, []).append((result, checked))

    wanted: dict[int, int] = {}
    for here, entries in given.items():
        if len({order for _, order in entries}) > 1:
            for result, _ in entries:
                intake.illegal(result, "the unit was given more than one exchange order")
        else:
            wanted[here] = m.province_of(entries[0][1].other)

    units = dict(position.units)
    for here, there in wanted.items():
        unit, partner = position.units[here], position.units.get(there)
        if partner is None or wanted.get(there) != here:
            if hidden or partner is None:
                reason = f"the unit in {m.describe(there)} did not order the same exchange"
            else:
                name = notation.format_unit(m, partner)
                reason = f"{colour_name(colour_of(partner))} {name} did not order the same " \
                         "exchange"
            verdict = FAILS
        elif not (could_support_hold(m, unit, partner) or could_support_hold(m, partner, unit)):
            verdict, reason = FAILS, "neither unit could support the other to hold"
        else:
            colour = colour_of(partner)
            units[here] = (replace(unit, colour=colour) if isinstance(unit, ColouredUnit)
                           else ColouredUnit(unit.power, unit.type, unit.loc, colour))
            verdict, reason = SUCCEEDS, f"exchanges colours: now {colour_name(colour)}"
        for result, _ in given[here]:
            result.result, result.reason = verdict, reason
    after = position.replace(units=units)
    after, nxt = carry_forward(position, None, after, advance(after, rules))
    return PhaseOutcome(position, intake.finish(), after, nxt)
