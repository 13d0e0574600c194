"""Reading each power's orders for a phase: every line kept, good or bad, in the order given.

:class:`Intake` is the first building block of every phase handler, the standard ones and a
variant's own: it parses text with the variant's notation, keeps each submitted line verbatim
beside its result, and writes canonical text only when the results are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from calhamer.errors import OrderError
from calhamer.map import ARMY, FLEET, Map, UnitType
from calhamer.notation import Notation, canonical_movement_order
from calhamer.orders import AnyOrder, Order
from calhamer.pieces import Unit
from calhamer.results import INVALID, SUCCEEDS, OrderResult, Result

if TYPE_CHECKING:
    from calhamer.position import Position



# Module-level names read per phase or per order are final: the compiled build then holds
# them as constants instead of looking each up in the module's globals.
_UNIT: Final = Unit
_ARMY: Final = ARMY
_FLEET: Final = FLEET

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


# Whether a variant class keeps a hook of the standard game's, by class and hook, found once.
_KEPT: Final[dict[tuple[type, str], bool]] = {}


def keeps_standard(variant: object, name: str) -> bool:
    """Whether ``variant``'s class keeps the standard game's method ``name``
    (``Variant.<name>``, recognised by where it is written: the variant module imports the
    phases, so they may not import it). A phase may then take a short way of its own."""
    key = (type(variant), name)
    kept = _KEPT.get(key)
    if kept is None:
        method = getattr(key[0], name)
        kept = _KEPT[key] = (method.__module__, method.__qualname__) == (
            "calhamer.variant", "Variant." + name)
    return kept


# The fields of a :class:`PhaseReading` entry, a list (cheaper to make than a result);
# final, so that the compiled build reads them as constants.
POWER: Final = 0
TEXT: Final = 1
GIVEN: Final = 2
ORDER: Final = 3
VERDICT: Final = 4
REASON: Final = 5


class PhaseReading:
    """The orders of a retreat or adjustment phase as the standard handlers read them: what
    :class:`Intake` keeps (every line, good or bad, in the order given), each as an entry
    ``[power, text, given, order, verdict, reason]`` rather than an :class:`OrderResult`.
    The results are made, and their texts written, only when they are read (:meth:`results`):
    a bot that only wants the next position never pays for them.

    ``text`` is None for an order given as a value (its text is written out from ``given``);
    ``order`` is None for a line that could not be read (its verdict invalid already), else
    the order as it stands (a handler may settle it: a coast, a unit type). A handler settles
    ``verdict`` and ``reason`` in place. A variant's own handlers use :class:`Intake`, whose
    results are there to be changed.
    """

    def __init__(self, position: Position, orders: OrdersIn) -> None:
        self.position = position
        self.variant = position.variant
        self.entries: list[list[Any]] = []
        # Every power given orders has a list of results, empty or not, in the order given.
        self.powers: dict[str, None] = {}
        for raw_power, items in orders.items():
            self.add(raw_power, items)

    def add(self, raw_power: str, items: Iterable[str | AnyOrder]) -> None:
        """Read ``items`` as orders of ``raw_power``, as :meth:`Intake.add` reads them."""
        m = self.position.map
        power = raw_power if raw_power in m._power_codes else (
            m.find_power(raw_power) or raw_power.upper())
        self.powers[power] = None
        append = self.entries.append
        for item in items:
            if isinstance(item, str):
                append(self._read(power, item))
            else:
                append([power, None, item, item, SUCCEEDS, ""])

    def _read(self, power: str, text: str) -> list[Any]:
        position = self.position
        try:
            parsed = self.variant.notation.parse_order(
                position.map, text, phase_kind=position.phase.kind, position=position,
                power=power)
        except OrderError as exc:
            return [power, text, None, None, INVALID, str(exc)]
        if parsed.power is not None and parsed.power != power:
            return [power, text, None, None, INVALID, f"{power} cannot order for {parsed.power}"]
        return [power, text, parsed.order, parsed.order, SUCCEEDS, ""]

    def add_result(self, power: str, order: AnyOrder, verdict: Result, reason: str) -> None:
        """A result of the phase's own (a unit disbanded for want of an order), with no
        text: its canonical text is written when the results are read."""
        self.powers[power] = None
        self.entries.append([power, "", order, order, verdict, reason])

    def results(self) -> dict[str, list[OrderResult]]:
        """Every entry's result, by power, with texts and canonical forms written out now."""
        position = self.position
        write = self.variant.notation.format_order
        results: dict[str, list[OrderResult]] = {power: [] for power in self.powers}
        for power, text, given, order, verdict, reason in self.entries:
            if text is None:
                text = write(position, given)
                canonical = text if order is given else write(position, order)
            else:
                canonical = "" if order is None else write(position, order)
            results[power].append(OrderResult(power, text, canonical, verdict, reason, order))
        return results


# Plain units by power and location, one table per unit type: units are values, and the
# units of a game move among the same few places (a fresh one costs several times a look-up).
_ARMIES: Final[dict[tuple[str, int], Unit]] = {}
_FLEETS: Final[dict[tuple[str, int], Unit]] = {}


def moved_unit(unit: Unit, loc: int) -> Unit:
    """``unit`` standing at ``loc`` instead."""
    if type(unit) is not _UNIT:
        return replace(unit, loc=loc)  # a variant's unit keeps its extra fields
    return plain_unit(unit.power, unit.type, loc)


def plain_unit(power: str, kind: UnitType, loc: int) -> Unit:
    """``Unit(power, kind, loc)``, made once and then shared (for a moved unit, a build)."""
    if kind is _ARMY:
        made = _ARMIES
    elif kind is _FLEET:
        made = _FLEETS
    else:
        return Unit(power, kind, loc)
    key = (power, loc)
    found = made.get(key)
    if found is None:
        if len(made) >= 8192:
            made.clear()  # a long-lived program with many maps: keep the table small
        found = made[key] = Unit(power, kind, loc)
    return found
