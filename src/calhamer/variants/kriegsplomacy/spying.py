"""The spying orders (rule 5): espionage (``A VIE E``) and counter-espionage (``F NWY CE``).

Both adjudicate as holds, so they are :class:`~calhamer.orders.Hold` subclasses; this module
reads and writes them, says where a unit spies (:func:`spy_range`), and holds the record of a
spy whose news is still to come (:class:`SpyRecord`). What a spy learns is worked out in
:mod:`calhamer.variants.kriegsplomacy.facts` and written in ``reports``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from calhamer import notation
from calhamer.errors import InvalidOrderError, OrderError
from calhamer.map import ARMY, Map, ProvinceId
from calhamer.notation import ParsedOrder
from calhamer.orders import Hold
from calhamer.position import Position, Unit

SPIES = "spies"  # the key of the spy records in ``Position.extra`` and in a phase document


@dataclass(frozen=True, slots=True)
class Espionage(Hold):
    """``A VIE E``: the unit holds and learns what happens in its range (rule 6)."""


@dataclass(frozen=True, slots=True)
class CounterEspionage(Hold):
    """``F NWY CE``: the unit holds and hides its range from other powers' espionage (rule 7)."""


def spy_range(m: Map, unit: Unit) -> frozenset[ProvinceId]:
    """The places a unit spies on (rule 5.3): where it could support into, and its own place.

    Rule 6.4 names the centre a spy sits on, and the source's Fall 1901 shows a CE hiding the
    province of the CE unit itself, so the unit's own province is part of its range.
    """
    here = m.province_of(unit.loc)
    if unit.type is ARMY:
        return frozenset(m.army_adjacent[here]) | {here}
    return frozenset(m.province_of(loc) for loc in m.fleet_adjacent[unit.loc]) | {here}


# -- spies remembered from the movement phase until its retreats are told -------------------------


@dataclass(frozen=True, slots=True)
class SpyRecord:
    """A spy whose espionage succeeded, and the places it saw (``Position.extra["spies"]``)."""

    power: str
    unit: Unit
    sees: frozenset[ProvinceId]


# -- the orders as text ----------------------------------------------------------------------------

_SPY_WORDS = {
    "E": Espionage,
    "ESP": Espionage,
    "ESPIONAGE": Espionage,
    "SPY": Espionage,
    "CE": CounterEspionage,
    "C-E": CounterEspionage,
    "COUNTERESPIONAGE": CounterEspionage,
    "COUNTER-ESPIONAGE": CounterEspionage,
    "COUNTER ESPIONAGE": CounterEspionage,
}
_SPY_TAIL = re.compile(
    r"^(?P<head>.*?\S)(?P<gap>\s+)(?P<word>e|esp|espionage|spy|c-e|ce|"
    r"counter[- ]?espionage)\s*$",
    re.IGNORECASE,
)


OrderReader = Callable[..., ParsedOrder]
"""Reads an order: ``(m, text, *, phase_kind, position, power) -> ParsedOrder``."""


def read_order(
    m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None,
    parse: OrderReader = notation.parse_order,
) -> ParsedOrder:
    """``parse`` (by default :func:`calhamer.notation.parse_order`; a variant's notation
    passes the reader of the modules under fog, which may add to the order, like a colour),
    with ``E`` and ``CE`` ending a movement order: the unit's part is read by ``parse`` as a
    hold."""
    notation.check_order_length(text)  # before the espionage words are looked for
    match = _SPY_TAIL.match(text) if phase_kind == "M" else None
    if match is None:
        return parse(m, text, phase_kind=phase_kind, position=position, power=power)
    word = match["word"]
    kind = _SPY_WORDS[re.sub(r"\s+", " ", word.upper())]
    held = f"{match['head']}{match['gap']}H{' ' * (len(word) - 1)}"
    start = len(match["head"]) + len(match["gap"])
    try:
        parsed = parse(m, held, phase_kind=phase_kind, position=position, power=power)
    except OrderError as exc:
        if exc.start <= start < max(exc.end, exc.start + 1):
            message = (
                f'"{word}" is out of place here: espionage (E) and counter-espionage (CE) '
                'are ordered to a unit by itself, like "A VIE E" or "F NWY CE"'
            )
            raise InvalidOrderError(
                message, text=text, start=start, end=start + len(word)
            ) from None
        raise type(exc)(
            exc.message, text=text, start=exc.start, end=exc.end, suggestion=exc.suggestion
        ) from None
    order = parsed.order
    if type(order) is not Hold:
        raise InvalidOrderError(
            'espionage (E) and counter-espionage (CE) are ordered to a unit by itself, like '
            '"A VIE E"', text=text, start=start, end=start + len(word),
        )
    return ParsedOrder(parsed.power, kind(order.unit_type, order.loc), text.strip())


def format_spy_order(m: Map, order: Espionage | CounterEspionage) -> str:
    """``A VIE E``, ``F NWY CE``: a spying order in the canonical notation."""
    unit = notation.format_order(m, Hold(order.unit_type, order.loc))[:-2]
    return f"{unit} {'E' if isinstance(order, Espionage) else 'CE'}"
