"""Stacks and numbered orders: how Superdiplomacy writes its units and orders.

A :class:`Stack` is up to :data:`CAPACITY` units of one power in one sector (``2A+1F KIE``);
orders carry a number of units (``3A VIE - TRI``, ``2A GAL S BOH - VIE``) and are read into
the numbered kinds of the standard orders (:class:`StackMove`...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields

from calhamer import notation
from calhamer.errors import InvalidOrderError, OrderError, PhaseError
from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, UnitType
from calhamer.notation import ParsedOrder
from calhamer.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from calhamer.position import Position, Unit

CAPACITY = 6  # units in one sector


# -- stacks -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stack(Unit):
    """Up to six units of one power in one sector.

    ``type`` and ``loc`` are those of the fleets when there are any (a fleet's coast in a
    split-coast sector), else of the armies; ``armies`` and ``fleets`` count the units.
    """

    armies: int = 0
    fleets: int = 0

    @property
    def count(self) -> int:
        return self.armies + self.fleets

    def of_type(self, unit_type: UnitType) -> int:
        return self.fleets if unit_type is FLEET else self.armies

    def meant(self, unit_type: UnitType | None) -> UnitType | None:
        """The units an order for ``unit_type`` means: those if the stack has any, else its only
        type (a wrong letter is ignored, as in the standard game); None if that is ambiguous."""
        if unit_type is not None and self.of_type(unit_type):
            return unit_type
        types = [t for t in (ARMY, FLEET) if self.of_type(t)]
        return types[0] if len(types) == 1 else None


def loc_of(m: Map, stack: Stack, unit_type: UnitType) -> Location:
    """Where the units of ``unit_type`` of a stack stand (armies never on a coast)."""
    return stack.loc if unit_type is FLEET else m.province_of(stack.loc)


def make_stack(
    m: Map, power: str, province: ProvinceId, armies: int, fleets: int, fleet_loc: Location | None
) -> Stack | None:
    """The stack of these units, or None if there are none."""
    if armies + fleets == 0:
        return None
    if fleets:
        loc = province if fleet_loc is None else fleet_loc
        return Stack(power, FLEET, loc, armies, fleets)
    return Stack(power, ARMY, province, armies, 0)


def as_stack(m: Map, unit: Unit) -> Stack:
    """``unit`` as a stack (a plain unit is a stack of one)."""
    if isinstance(unit, Stack):
        return unit
    province = m.province_of(unit.loc)
    if unit.type is FLEET:
        return make_stack(m, unit.power, province, 0, 1, unit.loc)  # type: ignore[return-value]
    return make_stack(m, unit.power, province, 1, 0, None)  # type: ignore[return-value]


_UNIT_SPEC = re.compile(
    r"^\s*(?P<parts>(?:\d+\s*)?[AF](?:\s*\+\s*(?:\d+\s*)?[AF])*)\s+(?P<loc>\S.*?)\s*$",
    re.IGNORECASE,
)


def parse_stack(m: Map, spec: str, power: str) -> Stack:
    """``2A BER``, ``A BER`` (one army), ``2F STP/SC``, ``2A+1F KIE``."""
    match = _UNIT_SPEC.match(spec)
    if match is None:
        raise PhaseError(
            f'{spec!r} is not a stack; write how many units of each type and where, like '
            '"2A BER", "3F STP/SC" or "2A+1F KIE"'
        )
    armies = fleets = 0
    for number, letter in re.findall(r"(\d*)\s*([AF])", match["parts"], re.IGNORECASE):
        n = int(number) if number else 1
        if letter.upper() == "A":
            armies += n
        else:
            fleets += n
    if not 1 <= armies + fleets <= CAPACITY:
        raise PhaseError(f"{spec!r}: a sector holds one to {CAPACITY} units")
    letter = "F" if fleets else "A"
    unit = notation.parse_unit(m, f"{letter} {match['loc']}", power)
    province = m.province_of(unit.loc)
    return make_stack(m, unit.power, province, armies, fleets, unit.loc if fleets else None)  # type: ignore[return-value]


def format_stack(m: Map, unit: Unit) -> str:
    stack = as_stack(m, unit)
    parts = []
    if stack.armies:
        parts.append(f"{stack.armies}A")
    if stack.fleets:
        parts.append(f"{stack.fleets}F")
    loc = stack.loc if stack.fleets else m.province_of(stack.loc)
    return f"{'+'.join(parts)} {m.loc_name(loc)}"


# -- orders with numbers --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StackHold(Hold):
    count: int = 1


@dataclass(frozen=True, slots=True)
class StackMove(Move):
    count: int = 1


@dataclass(frozen=True, slots=True)
class StackSupport(Support):
    count: int = 1
    target_count: int | None = None  # as written; the support helps the whole move


@dataclass(frozen=True, slots=True)
class StackConvoy(Convoy):
    count: int = 1  # fleets: one fleet carries one army
    target_count: int | None = None


@dataclass(frozen=True, slots=True)
class StackRetreat(Retreat):
    count: int = 1


@dataclass(frozen=True, slots=True)
class StackDisband(Disband):
    count: int = 1


@dataclass(frozen=True, slots=True)
class StackBuild(Build):
    count: int = 1


_COUNTED: dict[type, type] = {
    Hold: StackHold,
    Move: StackMove,
    Support: StackSupport,
    Convoy: StackConvoy,
    Retreat: StackRetreat,
    Disband: StackDisband,
    Build: StackBuild,
}


def count_of(order: AnyOrder) -> int:
    return int(getattr(order, "count", 1))


def with_count(order: Order, count: int, target_count: int | None = None) -> Order:
    """``order`` as its numbered kind (``StackMove``...), carrying ``count`` units."""
    base = next((b for b in type(order).__mro__ if b in _COUNTED), None)
    if base is None:
        return order
    values = {f.name: getattr(order, f.name) for f in fields(base)}
    values["count"] = count
    if base in (Support, Convoy):
        values["target_count"] = target_count
    return _COUNTED[base](**values)


_NUMBER = re.compile(r"(?<![\w/])\d+(?!\d)")
_PLURAL = re.compile(r"(?i)\b(armies|fleets)\b")
_OTHER_UNIT = re.compile(r"(?i)(?<![\w/])(s|supports?|c|convoys?)(?![\w/])")


def _read_counts(text: str) -> tuple[str, list[tuple[int, int, int]]]:
    """The text with its numbers blanked out (same length), and each (value, start, end)."""
    counts = [(int(mt.group()), mt.start(), mt.end()) for mt in _NUMBER.finditer(text)]
    blanked = _NUMBER.sub(lambda mt: " " * len(mt.group()), text)
    blanked = _PLURAL.sub(lambda mt: {"a": "army  ", "f": "fleet "}[mt.group()[0].lower()],
                          blanked)
    return blanked, counts


def parse_counted_order(
    m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
) -> ParsedOrder:
    """Read an order with numbers: ``3A VIE - TRI``, ``2A GAL S 3A BOH - VIE``, ``BUILD 2A PAR``.

    A unit written without a number is one unit. The number of a supported or convoyed unit is
    kept as written but does not have to match (the support helps the whole move).
    """
    notation.check_order_length(text)  # before the numbers are looked for
    blanked, counts = _read_counts(text)
    try:
        parsed = notation.parse_order(
            m, blanked, phase_kind=phase_kind, position=position, power=power
        )
    except OrderError as exc:
        raise exc.against(text) from None
    order = parsed.order

    def fail(message: str, start: int, end: int) -> OrderError:
        return InvalidOrderError(message, text=text, start=start, end=end)

    for value, start, end in counts:
        if not 1 <= value <= CAPACITY:
            raise fail(f"a sector holds one to {CAPACITY} units, so {value} units cannot act",
                       start, end)
    if isinstance(order, Waive):
        if counts:
            raise fail("a waive takes no number", counts[0][1], counts[0][2])
        return parsed
    split = len(text)
    if isinstance(order, Support | Convoy):
        keyword = _OTHER_UNIT.search(blanked)
        if keyword is not None:
            split = keyword.start()
    first = [c for c in counts if c[1] < split]
    second = [c for c in counts if c[1] > split]
    for extra in (first[1:], second[1:]):
        if extra:
            raise fail("one number per unit", extra[0][1], extra[0][2])
    count = first[0][0] if first else 1
    target = second[0][0] if second else None
    return ParsedOrder(parsed.power, with_count(order, count, target), parsed.text)


def format_counted_order(m: Map, order: AnyOrder) -> str:
    if isinstance(order, Waive):
        return "WAIVE"
    text = notation.format_order(m, order)
    n = count_of(order)
    if isinstance(order, Build):
        return f"BUILD {n}{text.removeprefix('BUILD ')}"
    text = f"{n}{text}"
    target = getattr(order, "target_count", None)
    if target and isinstance(order, Support | Convoy):
        word = " S " if isinstance(order, Support) else " C "
        head, _, tail = text.partition(word)
        text = f"{head}{word}{target}{tail}"
    return text


def _noun(unit_type: UnitType, n: int) -> str:
    if unit_type is FLEET:
        return "fleet" if n == 1 else "fleets"
    return "army" if n == 1 else "armies"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def unordered(stacks: Mapping[ProvinceId, Stack]) -> dict[tuple[ProvinceId, UnitType], int]:
    """The units of each type in each stack, all still without an order."""
    return {(p, t): s.of_type(t) for p, s in stacks.items() for t in (ARMY, FLEET)}
