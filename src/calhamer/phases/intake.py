"""Reading each power's orders for a phase: every line kept, good or bad, in the order given.

:class:`Intake` is the first building block of every phase handler, the standard ones and a
variant's own: it parses text with the variant's notation, keeps each submitted line verbatim
beside its result, and writes canonical text only when the results are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from calhamer.errors import OrderError
from calhamer.map import ARMY, FLEET, Map
from calhamer.notation import Notation, canonical_movement_order
from calhamer.orders import AnyOrder, Order
from calhamer.pieces import Unit
from calhamer.results import INVALID, SUCCEEDS, OrderResult

if TYPE_CHECKING:
    from calhamer.position import Position



_UNIT = Unit

OrdersIn = Mapping[str, Iterable[str | AnyOrder]]


class Intake:
    """Parses each power's orders, keeping every one (good or bad) in the order given."""

    def __init__(self, position: Position, orders: OrdersIn) -> None:
        self.position = position
        self.results: dict[str, list[OrderResult]] = {}
        self.accepted: list[tuple[OrderResult, AnyOrder]] = []
        self.given_as_order: list[tuple[OrderResult, AnyOrder]] = []
        # Orders read from text already in canonical form: while the order stands as read,
        # its canonical text is the text itself (nothing to write out).
        self.verbatim: list[tuple[OrderResult, AnyOrder]] = []
        self.variant = variant = position.variant
        self._canonical_reader: Callable[[Map, str], Order | None] | None = None
        if position.phase.kind == "M":
            notation = type(variant.notation)
            if (notation.parse_order is Notation.parse_order
                    and notation.format_order is Notation.format_order):
                self._canonical_reader = canonical_movement_order
        self.check = variant.check_movement_order  # looked up once: it runs per order
        for raw_power, items in orders.items():
            self.add(raw_power, items)

    def add(
        self, raw_power: str, items: Iterable[str | AnyOrder]
    ) -> list[tuple[OrderResult, AnyOrder]]:
        """Read ``items`` as orders of ``raw_power``; return the ones understood."""
        position, variant = self.position, self.variant
        m = position.map
        power = raw_power if raw_power in m._power_codes else (
            m.find_power(raw_power) or raw_power.upper())
        bucket = self.results.setdefault(power, [])
        added: list[tuple[OrderResult, AnyOrder]] = []
        given_as_order = self.given_as_order
        parse = None
        for item in items:
            if type(item) is not str and not isinstance(item, str):
                # An order value: its text is written out only if the results are read.
                result = OrderResult(power, "", "", SUCCEEDS, "", item)
                pair = (result, item)
                given_as_order.append(pair)
                bucket.append(result)
                added.append(pair)
                continue
            if self._canonical_reader is not None:
                # The standard notation reading a movement order: text in calhamer's own form
                # (what bots and the web judge send) is read by exact look-ups, here.
                exact = self._canonical_reader(m, item)
                if exact is not None:
                    result = OrderResult(power, item, "", SUCCEEDS, "", exact)
                    bucket.append(result)
                    added.append((result, exact))
                    if not item.endswith(" VIA"):  # written out as "VIA CONVOY"
                        self.verbatim.append((result, exact))
                    continue
            if parse is None:
                parse = variant.notation.parse_order
                kind = position.phase.kind
            try:
                parsed = parse(m, item, phase_kind=kind, position=position, power=power)
            except OrderError as exc:
                bucket.append(OrderResult(power, item, "", INVALID, str(exc)))
                continue
            if parsed.power is not None and parsed.power != power:
                reason = f"{power} cannot order for {parsed.power}"
                bucket.append(OrderResult(power, item, "", INVALID, reason))
                continue
            order = parsed.order
            result = OrderResult(power, item, "", SUCCEEDS, "", order)
            bucket.append(result)
            added.append((result, order))
        self.accepted += added
        return added

    def finish(self) -> dict[str, list[OrderResult]]:
        """The results, with texts and canonical forms written out only now."""
        write = self.write
        for result, given in self.given_as_order:
            result.text = write(given)
        for result, read in self.verbatim:
            if result.order is read and not result.canonical:
                result.canonical = result.text
        for results in self.results.values():
            for result in results:
                if not result.canonical and result.order is not None:
                    result.canonical = write(result.order)
        return self.results

    def illegal(self, result: OrderResult, reason: str) -> None:
        result.result = INVALID
        result.reason = reason

    def write(self, order: AnyOrder) -> str:
        """The canonical text of an order given in this phase (the variant may add to it)."""
        return self.variant.notation.format_order(self.position, order)


# Plain units by power and location, one table per unit type: units are values, and the
# units of a game move among the same few places (a fresh one costs several times a look-up).
_ARMIES: dict[tuple[str, int], Unit] = {}
_FLEETS: dict[tuple[str, int], Unit] = {}


def moved_unit(unit: Unit, loc: int) -> Unit:
    """``unit`` standing at ``loc`` instead."""
    if type(unit) is not _UNIT:
        return replace(unit, loc=loc)  # a variant's unit keeps its extra fields
    kind = unit.type
    if kind is ARMY:
        made = _ARMIES
    elif kind is FLEET:
        made = _FLEETS
    else:
        return Unit(unit.power, kind, loc)
    key = (unit.power, loc)
    found = made.get(key)
    if found is None:
        if len(made) >= 8192:
            made.clear()  # a long-lived program with many maps: keep the table small
        found = made[key] = Unit(unit.power, kind, loc)
    return found
