"""Superdiplomacy (Dan Alderson, 1965): stacks, dice casualties, supply lines and Small Powers.

The rules as implemented, and every reading of the 1965 sketch they rest on, are written up in
``docs/rules/superdiplomacy.md``. In short:

- **Board** (``maps/superdiplomacy.toml``): the standard map plus Switzerland (a major nation)
  and seven islands; every land sector is a supply-centre sector, majors counting for five
  centres (``[centres]``) and minors for one.
- **Stacks**: a sector holds up to six units of one power, a :class:`Stack` (``2A BER``,
  ``2A+1F KIE``). Orders carry a number (``3A VIE - TRI``, ``2A GAL S BOH - VIE``); units of a
  stack not ordered hold. Strength counts units; moves of one power into one sector combine.
- **Battles**: wherever forces of different powers dispute a sector, each side throws
  ``2 x direct + supporting`` dice (defender first; the attackers then throw with what is left)
  and every six kills one opposing unit, a directly involved unit being twice as likely to be
  chosen as a supporting one. The moves are then decided on the units left, as in Diplomacy. A
  force that must retreat and cannot (and every Small Power) fights to the death.
- **Dice** come from :mod:`calhamer.dice`: a committed seed, the orders and the battle.
- **Winter and spring adjustments**: supply lines (each unit needs its own centre, connected by
  sectors that no other Great Power owns or holds), production per sector, and the Small
  Powers, who arm after the first attack on one of them.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from types import MappingProxyType
from typing import Any

from calhamer import dice, notation
from calhamer.errors import InvalidOrderError, OrderError, PhaseError
from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, Terrain, UnitType
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
from calhamer.phases import _Intake, update_centers
from calhamer.position import Dislodged, Phase, Position, Unit
from calhamer.resolver import GuessResolver
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.validation import Illegal, check_movement_order, fleet_destination
from calhamer.variants import Variant
from calhamer.views import Note, PowerView, full_view

NEUTRAL = "NEUTRAL"
CAPACITY = 6  # units in one sector
MAX_DEATH_ROUNDS = 500  # a fight to the death still undecided after this many rounds is lost
LABEL = "calhamer-superdiplomacy/1"


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


def _again(exc: OrderError, text: str) -> OrderError:
    return type(exc)(exc.message, text=text, start=exc.start, end=exc.end,
                     suggestion=exc.suggestion)


def parse_counted_order(
    m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
) -> ParsedOrder:
    """Read an order with numbers: ``3A VIE - TRI``, ``2A GAL S 3A BOH - VIE``, ``BUILD 2A PAR``.

    A unit written without a number is one unit. The number of a supported or convoyed unit is
    kept as written but does not have to match (the support helps the whole move).
    """
    blanked, counts = _read_counts(text)
    try:
        parsed = notation.parse_order(
            m, blanked, phase_kind=phase_kind, position=position, power=power
        )
    except OrderError as exc:
        raise _again(exc, text) from None
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


# -- the board as sectors --------------------------------------------------------------------------


def is_major_sector(m: Map, province: ProvinceId) -> bool:
    """Majors count for five centres (``[centres]`` in the map), minors for one."""
    return m.provinces[province].centres > 1


@cache
def sector_neighbours(m: Map) -> tuple[frozenset[ProvinceId], ...]:
    """Sectors next to each sector by land or by sea (supply lines use both)."""
    return tuple(
        frozenset(m.army_adjacent[p] | m.province_fleet_adjacent[p])
        for p in range(m.province_count)
    )


def sea_route(
    m: Map, origin: ProvinceId, dest: ProvinceId, seas: set[ProvinceId] | frozenset[ProvinceId]
) -> bool:
    """Whether the seas ``seas`` chain ``origin`` to ``dest``."""
    near = m.province_fleet_adjacent
    return m.sea_chain(origin, seas.__contains__, lambda sea: dest in near[sea])


# -- movement: groups and forces -------------------------------------------------------------------

HOLD, MOVE, SUPPORT, CONVOY = range(4)


@dataclass(eq=False)
class _Group:
    """Units of one stack under one order (or left without one: they hold)."""

    id: int
    power: str
    sector: ProvinceId
    type: UnitType
    loc: Location
    count: int
    kind: int = HOLD
    dest: int = -1  # move: target sector; support: supported-into (-1: hold); convoy: army dest
    exact: int = -1  # move: exact location reached
    src: int = -1  # support: supported sector; convoy: the army's sector
    via: bool = False
    convoyed: bool = False
    void: str = ""
    result: OrderResult | None = None
    size: int = 0
    deaths: list[tuple[str, str]] = field(default_factory=list)  # (battle, kind) per unit lost

    def __post_init__(self) -> None:
        self.size = self.count

    @property
    def letter(self) -> str:
        return self.type.letter


@dataclass(eq=False)
class _Force:
    """All units of one power ordered into one sector: they move, or fail, together."""

    id: int
    power: str
    dest: ProvinceId
    groups: list[_Group] = field(default_factory=list)


@dataclass(eq=False)
class _Side:
    direct: list[_Group] = field(default_factory=list)
    support: list[_Group] = field(default_factory=list)
    attacks: bool = False


@dataclass(eq=False)
class _Battle:
    sectors: set[ProvinceId]
    sides: dict[str, _Side]
    id: str = ""
    simultaneous: bool = False  # a fight to the death: both sides throw at once


@dataclass
class _Settled:
    """The board after one resolution: where the units stand and who must retreat."""

    stacks: dict[ProvinceId, Stack]
    dislodged: dict[ProvinceId, tuple[list[_Group], _Force]]
    contested: frozenset[ProvinceId]
    blocked: dict[ProvinceId, frozenset[ProvinceId]]


class _Board:
    """The legal orders of one movement phase as groups, forces, supports and convoys."""

    def __init__(self, position: Position, intake: _Intake) -> None:
        self.position = position
        self.m = m = position.map
        self.intake = intake
        self.groups: list[_Group] = []
        self.lines: list[str] = []  # canonical legal orders, for the dice
        stacks = {p: as_stack(m, u) for p, u in position.units.items()}
        self.stacks = stacks
        self.occupant = {p: s.power for p, s in stacks.items()}
        left = {(p, t): s.of_type(t) for p, s in stacks.items() for t in (ARMY, FLEET)}
        probe_units = {p: Unit(s.power, s.type, s.loc) for p, s in stacks.items()}
        probe = position.replace(units=probe_units)
        for result, order in intake.accepted:
            checked = self._check(result, order, stacks, left, probe, probe_units)
            if checked is None:
                continue
            order, unit_type = checked
            result.order = order
            self._add(result.power, order, unit_type, result)
            self.lines.append(f"{result.power}: {intake.write(order)}")
        for (p, unit_type), n in sorted(left.items()):
            if n:
                stack = stacks[p]
                loc = loc_of(m, stack, unit_type)
                self.groups.append(_Group(len(self.groups), stack.power, p, unit_type, loc, n))
        self._index()

    # -- reading the orders ------------------------------------------------------------------------

    def _check(self, result, order, stacks, left, probe, probe_units):
        m, intake = self.m, self.intake
        if m.is_minor(result.power):
            intake.illegal(result, "the Small Powers take no orders: they always hold")
            return None
        if not isinstance(order, Hold | Move | Support | Convoy):
            intake.illegal(result, "only hold, move, support and convoy orders are given now")
            return None
        sector = m.province_of(order.loc)
        stack = stacks.get(sector)
        if stack is None:
            intake.illegal(result, f"there is no unit in {m.describe(sector)}")
            return None
        if stack.power != result.power:
            intake.illegal(result, f"the units in {m.describe(sector)} are not yours")
            return None
        unit_type = order.unit_type
        if unit_type is None or not stack.of_type(unit_type):
            types = [t for t in (ARMY, FLEET) if stack.of_type(t)]
            if len(types) != 1:
                intake.illegal(result, f"say whether the armies (A) or the fleets (F) in "
                               f"{m.describe(sector)} are meant")
                return None
            unit_type = types[0]  # a wrong letter is ignored, as in the standard game
        n = count_of(order)
        have = stack.of_type(unit_type)
        if n > have:
            verb = "is" if have == 1 else "are"
            intake.illegal(result, f"there {verb} only {have} {_noun(unit_type, have)} in "
                           f"{m.describe(sector)}")
            return None
        free = left[(sector, unit_type)]
        if n > free:
            intake.illegal(result, f"only {free} of the {have} {_noun(unit_type, have)} in "
                           f"{m.describe(sector)} are left without an order")
            return None
        loc = loc_of(m, stack, unit_type)
        view = probe
        if probe_units[sector].type is not unit_type:
            view = probe.replace(units={**probe_units, sector: Unit(stack.power, unit_type, loc)})
        try:
            checked = check_movement_order(
                view, result.power, replace(order, unit_type=unit_type, loc=loc)
            )
        except Illegal as exc:
            intake.illegal(result, str(exc))
            return None
        left[(sector, unit_type)] -= n
        return with_count(checked, n, getattr(order, "target_count", None)), unit_type

    def _add(self, power: str, order: Order, unit_type: UnitType, result: OrderResult) -> None:
        m = self.m
        sector = m.province_of(order.loc)
        g = _Group(len(self.groups), power, sector, unit_type, order.loc, count_of(order),
                   result=result)
        if isinstance(order, Move):
            g.kind, g.dest, g.exact, g.via = MOVE, m.province_of(order.dest), order.dest, \
                order.via_convoy
        elif isinstance(order, Support):
            g.kind, g.src = SUPPORT, m.province_of(order.target)
            g.dest = -1 if order.dest is None else m.province_of(order.dest)
            if order.dest is not None and m.loc_coast[order.dest] is not None:
                g.exact = order.dest
        elif isinstance(order, Convoy):
            g.kind, g.src, g.dest = CONVOY, m.province_of(order.army), m.province_of(order.dest)
        self.groups.append(g)

    def _index(self) -> None:
        m = self.m
        groups = self.groups
        self.by_sector: dict[ProvinceId, list[_Group]] = {}
        for g in groups:
            self.by_sector.setdefault(g.sector, []).append(g)
        movers = [g for g in groups if g.kind == MOVE]
        convoys: dict[tuple[int, int], list[_Group]] = {}
        for g in groups:
            if g.kind == CONVOY:
                convoys.setdefault((g.src, g.dest), []).append(g)
        for g in movers:
            if g.type is FLEET:
                g.convoyed = False
            elif g.dest not in m.army_adjacent[g.sector]:
                g.convoyed = True
            else:  # the DATC default: by sea when it says so or its own fleets convoy it
                g.convoyed = g.via or any(
                    c.power == g.power for c in convoys.get((g.sector, g.dest), ())
                )
        self.convoyed_movers: dict[tuple[int, int], list[_Group]] = {}
        for g in movers:
            if g.convoyed:
                self.convoyed_movers.setdefault((g.sector, g.dest), []).append(g)
        self.convoys: dict[tuple[int, int], list[_Group]] = {}
        for key, items in convoys.items():
            for c in items:
                if key not in self.convoyed_movers:
                    army_moves = any(g.sector == c.src and g.dest == c.dest for g in movers)
                    c.kind = HOLD
                    c.void = ("the army moves by land, not by this convoy" if army_moves
                              else "no army was ordered to move as this convoy says")
                else:
                    self.convoys.setdefault(key, []).append(c)
        self.move_supports: dict[tuple[int, int], list[_Group]] = {}
        self.hold_supports: dict[ProvinceId, list[_Group]] = {}
        for s in groups:
            if s.kind != SUPPORT:
                continue
            target = self.by_sector.get(s.src, [])
            if not target:
                s.kind, s.void = HOLD, "there is no unit to support"
            elif s.dest == -1:
                if all(g.kind == MOVE for g in target):
                    s.kind, s.void = HOLD, "the supported units were ordered to move, not to hold"
                else:
                    self.hold_supports.setdefault(s.src, []).append(s)
            else:
                moving = [g for g in target if g.kind == MOVE and g.dest == s.dest]
                if not moving:
                    s.kind = HOLD
                    s.void = "no unit there was ordered to make that move"
                elif s.exact != -1 and all(g.exact != s.exact for g in moving):
                    s.kind, s.void = HOLD, "the supported fleets move to the other coast"
                else:
                    self.move_supports.setdefault((s.src, s.dest), []).append(s)
        self.forces: list[_Force] = []
        force_by_key: dict[tuple[str, int], _Force] = {}
        self.force_of: dict[int, _Force] = {}
        for g in movers:
            f = force_by_key.get((g.power, g.dest))
            if f is None:
                f = force_by_key[(g.power, g.dest)] = _Force(len(self.forces), g.power, g.dest)
                self.forces.append(f)
            f.groups.append(g)
            self.force_of[g.id] = f
        self.forces_into: dict[ProvinceId, list[_Force]] = {}
        for f in self.forces:
            self.forces_into.setdefault(f.dest, []).append(f)
        # Head-to-head: a force from X into Y meets a force of another power from Y into X.
        self.opp: list[list[_Force]] = [[] for _ in self.forces]
        for f in self.forces:
            origins = {g.sector for g in f.groups if not g.convoyed}
            for x in origins:
                for f2 in self.forces_into.get(x, ()):
                    if f2.power != f.power and any(
                        g.sector == f.dest and not g.convoyed for g in f2.groups
                    ) and f2 not in self.opp[f.id]:
                        self.opp[f.id].append(f2)

    # -- questions that do not depend on the resolution ------------------------------------------

    def possible_path(self, g: _Group) -> bool:
        """Whether the convoys ordered could carry ``g`` (ignoring whether they will hold)."""
        if not g.convoyed:
            return True
        return self._route(g, lambda c: True)

    def _route(self, g: _Group, stands: Callable[[_Group], bool]) -> bool:
        key = (g.sector, g.dest)
        need = sum(x.size for x in self.convoyed_movers.get(key, ()) if x.size)
        capacity: dict[ProvinceId, int] = {}
        for c in self.convoys.get(key, ()):
            if c.size and stands(c):
                capacity[c.sector] = capacity.get(c.sector, 0) + c.size
        seas = {s for s, n in capacity.items() if n >= need}
        return bool(seas) and sea_route(self.m, g.sector, g.dest, seas)

    def cut_at_order_level(self, s: _Group) -> bool:
        """Whether a support is cut by an attack on its sector (not counting dislodgements)."""
        for f in self.forces_into.get(s.sector, ()):
            if f.power != s.power and any(
                g.size and g.sector != s.dest and self.possible_path(g) for g in f.groups
            ):
                return True
        return False

    def group_name(self, g: _Group, size: int | None = None) -> str:
        n = g.size if size is None else size
        return f"{n}{g.letter} {self.m.loc_name(g.loc)}"

    def force_name(self, f: _Force) -> str:
        live = [g for g in f.groups if g.size] or f.groups
        return " + ".join(self.group_name(g) for g in live)

    def sector_name(self, t: ProvinceId) -> str:
        live = [g for g in self.by_sector.get(t, ()) if g.size]
        if not live:
            return f"the units in {self.m.provinces[t].code}"
        armies = sum(g.size for g in live if g.type is ARMY)
        fleets = sum(g.size for g in live if g.type is FLEET)
        parts = [f"{armies}A"] * bool(armies) + [f"{fleets}F"] * bool(fleets)
        return f"{'+'.join(parts)} {self.m.provinces[t].code}"

    # -- battles -----------------------------------------------------------------------------------

    def battles(self) -> list[_Battle]:
        """The disputes the orders set up, before anything is decided (one per sector, with
        the two ends of a head-to-head fought as one battle)."""
        raw: list[_Battle] = []
        for t in sorted(self.forces_into):
            owner = self.occupant.get(t)
            sides: dict[str, _Side] = {}
            for f in self.forces_into[t]:
                live = [g for g in f.groups if g.size and self.possible_path(g)]
                if not live:
                    continue
                side = sides.setdefault(f.power, _Side())
                side.direct += live
                side.attacks = side.attacks or f.power != owner
                for src in sorted({g.sector for g in live}):
                    for s in self.move_supports.get((src, t), ()):
                        if s.size and not self.cut_at_order_level(s):
                            side.support.append(s)
            if not any(p != owner for p in sides):
                continue  # nobody disputes the sector: at most its owner's reinforcements
            if owner is not None:
                here = [g for g in self.by_sector.get(t, ()) if g.size]
                stay = [g for g in here if g.kind != MOVE]
                attackers_from = {
                    g.sector for p, side in sides.items() if p != owner
                    for g in side.direct if not g.convoyed
                }
                h2h = [g for g in here if g.kind == MOVE and not g.convoyed
                       and g.dest in attackers_from]
                if stay or h2h:
                    side = sides.setdefault(owner, _Side())
                    side.direct += stay + h2h
                    side.attacks = side.attacks or bool(h2h)
                if stay:
                    for s in self.hold_supports.get(t, ()):
                        if s.size and not self.cut_at_order_level(s):
                            sides[owner].support.append(s)
            sides = {p: side for p, side in sides.items() if side.direct}
            if len(sides) >= 2:
                raw.append(_Battle({t}, sides))
        return [self._finish_battle(b) for b in _merge_battles(raw)]

    def _finish_battle(self, battle: _Battle) -> _Battle:
        direct = {g.id for side in battle.sides.values() for g in side.direct}
        seen: set[int] = set()
        for side in battle.sides.values():
            side.direct = _unique(side.direct, seen)
        for side in battle.sides.values():
            side.support = [g for g in _unique(side.support, seen) if g.id not in direct]
        battle.id = "+".join(sorted(self.m.provinces[t].code for t in battle.sectors))
        return battle

    def fight(self, battle: _Battle, round_: int, kind: str, seed: str, label: str,
              log: list[dict[str, Any]]) -> None:
        """One exchange of dice in ``battle``; casualties are taken off the groups at once."""
        stream = dice.DiceStream(seed, f"{label}|{battle.id}|{round_}")
        defenders = sorted(p for p, s in battle.sides.items() if not s.attacks)
        attackers = sorted(p for p, s in battle.sides.items() if s.attacks)
        if defenders and attackers and not battle.simultaneous:
            stages = [defenders, attackers]  # the defender throws first
        else:
            stages = [defenders + attackers]
        record: dict[str, Any] = {"battle": battle.id, "kind": kind, "round": round_,
                                  "throws": []}
        for stage in stages:
            thrown = []
            for power in stage:
                side = battle.sides[power]
                direct = sum(g.size for g in side.direct)
                supporting = sum(g.size for g in side.support)
                faces = stream.throw(2 * direct + supporting)
                thrown.append((power, direct, supporting, faces))
            for power, direct, supporting, faces in thrown:
                hits = faces.count(6)
                kills = []
                for _ in range(hits):
                    victim = self._victim(battle, power, stream)
                    if victim is None:
                        break
                    group, role = victim
                    group.size -= 1
                    group.deaths.append((battle.id, kind))
                    kills.append({"power": group.power, "unit": self.group_name(group, 1)[1:],
                                  "as": role})
                record["throws"].append({
                    "power": power,
                    "role": "attacks" if battle.sides[power].attacks else "defends",
                    "direct": direct, "supporting": supporting, "dice": faces, "kills": kills,
                })
        log.append(record)

    @staticmethod
    def _victim(battle: _Battle, thrower: str, stream: dice.DiceStream):
        """An opposing unit chosen at random, direct units weighing two, supporting ones one."""
        pool: list[tuple[_Group, str, int]] = []
        for power in sorted(battle.sides):
            if power == thrower:
                continue
            side = battle.sides[power]
            pool += [(g, "direct", 2 * g.size) for g in side.direct if g.size]
            pool += [(g, "supporting", g.size) for g in side.support if g.size]
        total = sum(w for _, _, w in pool)
        if not total:
            return None
        pick = stream.below(total)
        for group, role, weight in pool:
            if pick < weight:
                return group, role
            pick -= weight
        raise AssertionError("unreachable")

    # -- after a resolution ------------------------------------------------------------------------

    def settle(self, r: _Resolver) -> _Settled:
        m = self.m
        arrived: dict[ProvinceId, list[_Group]] = {}
        winners: dict[ProvinceId, list[_Force]] = {}
        for f in self.forces:
            if r.resolve(f.id):
                winners.setdefault(f.dest, []).append(f)
                arrived.setdefault(f.dest, []).extend(
                    g for g in f.groups if g.size and r.path(g)
                )
        stays: dict[ProvinceId, list[_Group]] = {}
        dislodged: dict[ProvinceId, tuple[list[_Group], _Force]] = {}
        for t, owner in self.occupant.items():
            left = [g for g in self.by_sector.get(t, ()) if g.size and not r.moved(g)]
            if not left:
                continue
            foreign = [f for f in winners.get(t, ()) if f.power != owner]
            if foreign:
                dislodged[t] = (left, foreign[0])
            else:
                stays[t] = left
        stacks: dict[ProvinceId, Stack] = {}
        for t in set(stays) | set(arrived):
            here = stays.get(t, []) + arrived.get(t, [])
            armies = sum(g.size for g in here if g.type is ARMY)
            fleet_groups = [g for g in here if g.type is FLEET]
            fleets = sum(g.size for g in fleet_groups)
            fleet_loc = None
            for g in fleet_groups:
                fleet_loc = g.exact if g in arrived.get(t, []) else g.loc
            stack = make_stack(m, here[0].power, t, armies, fleets, fleet_loc)
            if stack is not None:
                stacks[t] = stack
        contested = frozenset(
            t for t, forces in self.forces_into.items()
            if t not in stacks and t not in winners
            and sum(1 for f in forces if any(g.size and r.path(g) for g in f.groups)) >= 2
        )
        blocked = {
            t: frozenset(g.sector for g in force.groups if g.size and not g.convoyed)
            for t, (_, force) in dislodged.items()
        }
        return _Settled(stacks, dislodged, contested, blocked)

    def retreat_options(self, settled: _Settled, t: ProvinceId, group: _Group) -> list[Location]:
        power = group.power
        return _retreat_targets(self.m, settled.stacks, settled.contested,
                                settled.blocked.get(t, frozenset()), t, group.type, group.loc,
                                power)

    def must_fight(self, settled: _Settled, t: ProvinceId) -> bool:
        """A Small Power always fights to the death; anyone else when no unit can retreat."""
        left, _force = settled.dislodged[t]
        if self.m.is_minor(left[0].power):
            return True
        return not any(self.retreat_options(settled, t, g) for g in left)

    def death_battle(self, r: _Resolver, settled: _Settled, t: ProvinceId) -> _Battle:
        left, force = settled.dislodged[t]
        owner = left[0].power
        defend = _Side(direct=list(left))
        defend.support = [s for s in self.hold_supports.get(t, ()) if s.size and r.resolve_group(s)]
        attack = _Side(direct=[g for g in force.groups if g.size and r.path(g)], attacks=True)
        for src in sorted({g.sector for g in attack.direct}):
            attack.support += [s for s in self.move_supports.get((src, t), ())
                               if s.size and r.resolve_group(s)]
        battle = _Battle({t}, {owner: defend, force.power: attack}, simultaneous=True)
        return self._finish_battle(battle)


def _unique(groups: Iterable[_Group], seen: set[int]) -> list[_Group]:
    out = []
    for g in groups:
        if g.id not in seen:
            seen.add(g.id)
            out.append(g)
    return out


def _merge_battles(raw: list[_Battle]) -> list[_Battle]:
    """Battles that share a directly involved group (the two ends of a head-to-head) merge."""
    parent = list(range(len(raw)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner_of: dict[int, int] = {}
    for i, b in enumerate(raw):
        for side in b.sides.values():
            for g in side.direct:
                j = owner_of.setdefault(g.id, i)
                if j != i:
                    parent[find(i)] = find(j)
    merged: dict[int, _Battle] = {}
    for i, b in enumerate(raw):
        root = find(i)
        into = merged.get(root)
        if into is None:
            merged[root] = _Battle(set(b.sectors), {p: _Side(list(s.direct), list(s.support),
                                                             s.attacks)
                                                    for p, s in b.sides.items()})
            continue
        into.sectors |= b.sectors
        for p, s in b.sides.items():
            side = into.sides.setdefault(p, _Side())
            side.direct += s.direct
            side.support += s.support
            side.attacks = side.attacks or s.attacks
    return list(merged.values())


def _retreat_targets(
    m: Map,
    stacks: Mapping[ProvinceId, Unit],
    contested: frozenset[ProvinceId],
    blocked: frozenset[ProvinceId],
    t: ProvinceId,
    unit_type: UnitType,
    loc: Location,
    power: str,
) -> list[Location]:
    """Where units of ``unit_type`` dislodged from ``t`` may retreat: next to them, not where
    the attack came from nor left empty by a standoff, and empty or their own with room."""
    if unit_type is ARMY:
        candidates: Iterable[Location] = sorted(m.army_adjacent[t])
    else:
        candidates = sorted(m.fleet_adjacent[loc])
    out = []
    for dest in candidates:
        q = m.province_of(dest)
        if q in blocked or q in contested:
            continue
        there = stacks.get(q)
        if there is not None:
            stack = as_stack(m, there)
            if stack.power != power or stack.count >= CAPACITY:
                continue
            if unit_type is FLEET and stack.fleets and stack.loc != dest:
                continue  # one sector's fleets all stand on one coast
        out.append(dest)
    return out


# -- movement: the resolver ------------------------------------------------------------------------


class _Resolver(GuessResolver):
    """The DATC decisions for forces (node ``f``) and supports and convoys (``F + group``).

    A force succeeds when its strength beats the hold strength of the units left in the
    sector, the defence of a force meeting it head-to-head, and every other force's prevent
    strength, exactly as a unit's move in Diplomacy; strengths count units.
    """

    def __init__(self, board: _Board) -> None:
        self.b = board
        self.nf = len(board.forces)
        super().__init__(self.nf + len(board.groups))

    def adjudicate(self, node: int) -> bool:
        if node < self.nf:
            return self.force_wins(self.b.forces[node])
        g = self.b.groups[node - self.nf]
        if g.kind == SUPPORT:
            return self.support_given(g)
        if g.kind == CONVOY:
            return self.convoy_stands(g)
        return True

    def resolve_group(self, g: _Group) -> bool:
        return self.resolve(self.nf + g.id)

    def resolve_all(self) -> None:
        for f in self.b.forces:
            self.resolve(f.id)
        for g in self.b.groups:
            if g.kind in (SUPPORT, CONVOY):
                self.resolve_group(g)

    # -- paths and who is left -----------------------------------------------------------------

    def path(self, g: _Group) -> bool:
        if not g.convoyed:
            return True
        return self.b._route(g, self.resolve_group)

    def moved(self, g: _Group) -> bool:
        return (g.kind == MOVE and g.size > 0 and self.path(g)
                and self.resolve(self.b.force_of[g.id].id))

    def live(self, f: _Force) -> list[_Group]:
        return [g for g in f.groups if g.size and self.path(g)]

    def remaining(self, t: ProvinceId, exclude: frozenset[int] = frozenset()) -> int:
        """Units in ``t`` that stay there: those not moving, and those whose move fails."""
        return sum(g.size for g in self.b.by_sector.get(t, ())
                   if g.size and g.id not in exclude and not self.moved(g))

    def _supports(self, live: list[_Group], t: ProvinceId, exclude_power: str | None) -> int:
        total = 0
        for src in {g.sector for g in live}:
            for s in self.b.move_supports.get((src, t), ()):
                if s.size and s.power != exclude_power and self.resolve_group(s):
                    total += s.size
        return total

    # -- strengths (DATC 5.B.5 to 5.B.8, counting units) ------------------------------------

    def attack_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        if not base:
            return 0
        owner = self.b.occupant.get(f.dest)
        exclude = None
        if owner is not None and owner != f.power and (
            self.b.opp[f.id] or self.remaining(f.dest) > 0
        ):
            exclude = owner  # a power's support does not help to dislodge its own units
        return base + self._supports(live, f.dest, exclude)

    def hold_strength(self, t: ProvinceId, against: _Force) -> int:
        """The units left in ``t`` against ``against`` (a head-to-head is met separately)."""
        owner = self.b.occupant.get(t)
        if owner is None:
            return 0
        h2h = frozenset(g.id for o in self.b.opp[against.id] for g in o.groups if g.sector == t)
        staying = sum(g.size for g in self.b.by_sector.get(t, ()) if g.kind != MOVE and g.size)
        failed = sum(g.size for g in self.b.by_sector.get(t, ())
                     if g.kind == MOVE and g.size and g.id not in h2h and not self.moved(g))
        if not staying and not failed:
            return 0
        strength = staying + failed
        if staying:
            strength += sum(s.size for s in self.b.hold_supports.get(t, ())
                            if s.size and self.resolve_group(s))
        return strength

    def defend_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        return base + self._supports(live, f.dest, None) if base else 0

    def prevent_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        if not base:
            return 0
        if any(self.resolve(o.id) for o in self.b.opp[f.id]):
            return 0  # it lost a head-to-head battle
        return base + self._supports(live, f.dest, None)

    def fits(self, f: _Force) -> str:
        """Why the sector cannot take the force (room, or fleets on two coasts), or ''."""
        live = self.live(f)
        count = sum(g.size for g in live)
        coasts = {g.exact for g in live if g.type is FLEET}
        if self.b.occupant.get(f.dest) == f.power:
            for g in self.b.by_sector.get(f.dest, ()):
                if g.size and not self.moved(g):
                    count += g.size
                    if g.type is FLEET:
                        coasts.add(g.loc)
        if count > CAPACITY:
            return f"{self.b.m.provinces[f.dest].code} would hold {count} units; six is the most"
        if len(coasts) > 1:
            return "the fleets in one sector must all stand on one coast"
        return ""

    # -- decisions ------------------------------------------------------------------------------

    def force_wins(self, f: _Force) -> bool:
        if not self.live(f) or self.fits(f):
            return False
        attack = self.attack_strength(f)
        owner = self.b.occupant.get(f.dest)
        if owner is not None and owner != f.power:
            if attack <= self.hold_strength(f.dest, f):
                return False
            for o in self.b.opp[f.id]:
                if attack <= self.defend_strength(o):
                    return False
        for other in self.b.forces_into[f.dest]:
            if other is not f and attack <= self.prevent_strength(other):
                return False
        return True

    def support_given(self, s: _Group) -> bool:
        for f in self.b.forces_into.get(s.sector, ()):
            if f.power != s.power and any(
                g.size and g.sector != s.dest and self.path(g) for g in f.groups
            ):
                return False  # cut by an attack (not from where the support goes)
        return not any(
            self.resolve(f.id) for f in self.b.forces_into.get(s.sector, ()) if f.power != s.power
        )

    def convoy_stands(self, c: _Group) -> bool:
        # As DATC 5.D: ask the attacks directly, so a convoy paradox is one clean cycle.
        return not any(
            self.force_wins(f) for f in self.b.forces_into.get(c.sector, ()) if f.power != c.power
        )

    def backup_rule(self, cycle: list[int]) -> None:
        groups = [self.b.groups[n - self.nf] for n in cycle if n >= self.nf]
        convoys = [g for g in groups if g.kind == CONVOY]
        if convoys:
            for g in convoys:  # Szykman: the convoying fleets in the paradox hold
                self.settle(self.nf + g.id, False)
        elif all(n < self.nf for n in cycle):
            for n in cycle:  # circular movement: everyone moves
                self.settle(n, True)
        else:
            for n in cycle:
                self.settle(n, False)


# -- movement: the phase ---------------------------------------------------------------------------


def adjudicate_movement(position: Position, orders: Mapping[str, Any], rules: Rules
                        ) -> PhaseOutcome:
    m = position.map
    intake = _Intake(position, orders)
    board = _Board(position, intake)
    seed = position.extra.get("seed")
    digest = dice.orders_digest(board.lines)
    label = f"{LABEL}|{position.phase.code}|{digest}"
    log: list[dict[str, Any]] = []
    for battle in sorted(board.battles(), key=lambda b: b.id):
        board.fight(battle, 0, "battle", seed or "", label, log)
    rounds: dict[ProvinceId, int] = {}
    while True:
        # Decide the moves on the units left; then every force that must retreat and cannot
        # exchanges one more round of dice with the force that dislodged it, and all is
        # decided again, until no such force is left.
        r = _Resolver(board)
        r.resolve_all()
        settled = board.settle(r)
        fights = [t for t in sorted(settled.dislodged, key=lambda t: m.provinces[t].code)
                  if board.must_fight(settled, t)]
        if not fights:
            break
        for t in fights:
            n = rounds[t] = rounds.get(t, 0) + 1
            if n > MAX_DEATH_ROUNDS:
                for g in settled.dislodged[t][0]:
                    g.deaths += [(m.provinces[t].code, "exhaustion")] * g.size
                    g.size = 0
                continue
            battle = board.death_battle(r, settled, t)
            board.fight(battle, n, "to the death", seed or "", label, log)

    armed = position.extra.get("armed")
    if armed is None and _attacks_small_power(board):
        armed = position.phase.code
    record = {
        "phase": position.phase.code,
        "scheme": f"{dice.SCHEME} {LABEL}",
        "seed": seed,
        "seed_hash": position.extra.get("seed_hash") or (dice.commitment(seed) if seed else None),
        "orders_digest": digest,
        "battles": log,
    }
    extra = _lasting(position.extra, armed=armed)
    dislodged = []
    blocked_doc: dict[str, list[str]] = {}
    for t in sorted(settled.dislodged, key=lambda t: m.provinces[t].code):
        left, _force = settled.dislodged[t]
        armies = sum(g.size for g in left if g.type is ARMY)
        fleets = sum(g.size for g in left if g.type is FLEET)
        fleet_loc = next((g.loc for g in left if g.type is FLEET), None)
        stack = make_stack(m, left[0].power, t, armies, fleets, fleet_loc)
        if stack is None:
            continue
        origins = sorted(settled.blocked.get(t, ()), key=lambda p: m.provinces[p].code)
        dislodged.append(Dislodged(stack, origins[0] if origins else None))
        blocked_doc[m.provinces[t].code] = [m.provinces[p].code for p in origins]
    if blocked_doc:
        extra["retreat_blocked"] = blocked_doc
    phase = position.phase
    after = position.replace(
        phase=Phase(phase.year, phase.season, "R") if dislodged else phase,
        units=settled.stacks,
        dislodged=tuple(dislodged),
        contested=settled.contested if dislodged else frozenset(),
        extra=MappingProxyType({**extra, "dice": record}),
    )
    nxt = after if dislodged else advance(after, record)

    def word_results() -> dict[str, list[OrderResult]]:
        explain = _Explainer(board, r, settled)
        for g in board.groups:
            verdict, reason = explain.result(g)
            if g.result is not None:
                g.result.result, g.result.reason = verdict, reason
                continue
            hold = StackHold(g.type, g.loc, count=g.count)
            if m.is_minor(g.power):
                reason = f"{reason} (the Small Powers always hold)"
            else:
                reason = f"{reason} (no order given)"
            intake.results.setdefault(g.power, []).append(
                OrderResult(g.power, "", intake.write(hold), verdict, reason)
            )
        return intake.finish()

    moved = {g.sector: g.exact for g in board.groups if g.kind == MOVE and r.moved(g)}
    return PhaseOutcome(before=position, results=word_results, after=after, next=nxt,
                        dislodged=tuple(dislodged), moved=moved,
                        detail={"dice": record, "resolver": r})


def _attacks_small_power(board: _Board) -> bool:
    """Whether a Great Power moved against a Small Power: into a sector one owns or holds."""
    m = board.m
    centers = board.position.centers
    for g in board.groups:
        if g.kind != MOVE or m.is_minor(g.power):
            continue
        owner = centers.get(g.dest)
        holder = board.occupant.get(g.dest)
        if (owner is not None and m.is_minor(owner)) or (holder is not None and
                                                          m.is_minor(holder)):
            return True
    return False


def _lasting(extra: Mapping[str, object], **changes: object) -> dict[str, object]:
    """The variant fields that outlive a phase (the Small Powers' state), with ``changes``."""
    kept = {k: v for k, v in extra.items() if k == "armed"}
    for key, value in changes.items():
        if value is None:
            kept.pop(key, None)
        else:
            kept[key] = value
    return kept


class _Explainer:
    def __init__(self, board: _Board, r: _Resolver, settled: _Settled) -> None:
        self.b, self.r, self.settled = board, r, settled

    def result(self, g: _Group) -> tuple[str, str]:
        b, r = self.b, self.r
        if g.size == 0:
            return FAILS, self._destroyed(g)
        lost = f"; {g.count - g.size} of {g.count} killed in battle" if g.size < g.count else ""
        fate = self._fate(g)
        if g.void:
            return FAILS, f"void: {g.void}{lost}{fate}"
        if g.kind == MOVE:
            if r.moved(g):
                return SUCCEEDS, f"moves{lost}"
            return FAILS, f"{self._bounce(g)}{lost}{fate}"
        if g.kind == SUPPORT:
            if r.resolve_group(g):
                return SUCCEEDS, f"support given{lost}{fate}"
            cutters = [b.force_name(f) for f in b.forces_into.get(g.sector, ())
                       if f.power != g.power and any(x.size and x.sector != g.dest and r.path(x)
                                                     for x in f.groups)]
            if cutters:
                return FAILS, f"support cut by {', '.join(cutters)}{lost}{fate}"
            return FAILS, f"support cut: the supporting units were dislodged{lost}{fate}"
        if g.kind == CONVOY:
            army = b.convoyed_movers.get((g.src, g.dest), [])
            if r.resolve_group(g) and any(r.path(a) for a in army if a.size):
                return SUCCEEDS, f"convoys{lost}{fate}"
            if not r.resolve_group(g):
                return FAILS, f"convoy disrupted{lost}{fate}"
            return FAILS, f"convoy fails: the route is broken or too small{lost}{fate}"
        if fate:
            return FAILS, f"{fate[2:]}{lost}"
        return SUCCEEDS, f"holds{lost}"

    def _destroyed(self, g: _Group) -> str:
        kinds = {kind for _, kind in g.deaths}
        where = sorted({battle for battle, _ in g.deaths})
        if "to the death" in kinds or "exhaustion" in kinds:
            return f"destroyed fighting to the death ({', '.join(where)})"
        return f"destroyed: all {g.count} killed in the battle for {', '.join(where)}"

    def _fate(self, g: _Group) -> str:
        """``; dislodged by ...`` for a group among units that must retreat."""
        entry = self.settled.dislodged.get(g.sector)
        if entry is None or g not in entry[0]:
            return ""
        force = entry[1]
        attack = self.r.attack_strength(force)
        hold = self.r.hold_strength(g.sector, force)
        return (f"; dislodged by {self.b.force_name(force)} "
                f"({attack}v{hold}), must retreat")

    def _bounce(self, g: _Group) -> str:
        b, r = self.b, self.r
        f = b.force_of[g.id]
        target = b.m.provinces[f.dest].code
        if not r.path(g):
            return f"no convoy route to {target}"
        why = r.fits(f)
        if why:
            return f"fails: {why}"
        attack = r.attack_strength(f)
        owner = b.occupant.get(f.dest)
        if owner is not None and owner != f.power:
            hold = r.hold_strength(f.dest, f)
            if attack <= hold:
                return f"bounced {attack}v{hold} against {b.sector_name(f.dest)}"
            for o in b.opp[f.id]:
                defence = r.defend_strength(o)
                if attack <= defence:
                    return f"bounced {attack}v{defence} with {b.force_name(o)}"
        for other in b.forces_into[f.dest]:
            if other is not f:
                prevent = r.prevent_strength(other)
                if attack <= prevent:
                    return f"bounced {attack}v{prevent} with {b.force_name(other)}"
        return "fails (a paradox was resolved against it)"


# -- retreats --------------------------------------------------------------------------------------


def _blocked(position: Position, entry: Dislodged) -> frozenset[ProvinceId]:
    m = position.map
    code = m.provinces[m.province_of(entry.unit.loc)].code
    listed = dict(position.extra.get("retreat_blocked", {}) or {}).get(code)  # type: ignore[call-overload]
    if listed is not None:
        return frozenset(m.province_of(m.loc(c)) for c in listed)
    return frozenset() if entry.attacker_from is None else frozenset({entry.attacker_from})


def retreat_choices(position: Position, entry: Dislodged) -> list[Location]:
    """Every location some unit of the dislodged stack may retreat to."""
    m = position.map
    stack = as_stack(m, entry.unit)
    t = m.province_of(stack.loc)
    out: list[Location] = []
    for unit_type in (ARMY, FLEET):
        if stack.of_type(unit_type):
            out += _retreat_targets(m, position.units, position.contested,
                                    _blocked(position, entry), t, unit_type,
                                    loc_of(m, stack, unit_type), stack.power)
    return sorted(set(out))


def adjudicate_retreats(position: Position, orders: Mapping[str, Any], rules: Rules
                        ) -> PhaseOutcome:
    m = position.map
    intake = _Intake(position, orders)
    entries = {m.province_of(d.unit.loc): d for d in position.dislodged}
    stacks = {p: as_stack(m, d.unit) for p, d in entries.items()}
    left = {(p, t): s.of_type(t) for p, s in stacks.items() for t in (ARMY, FLEET)}
    moves: list[tuple[OrderResult, ProvinceId, UnitType, int, Location]] = []
    for result, order in intake.accepted:
        if not isinstance(order, Retreat | Disband):
            intake.illegal(result, "only retreat and disband orders are given in a retreat phase")
            continue
        sector = m.province_of(order.loc)
        stack = stacks.get(sector)
        if stack is None:
            intake.illegal(result, f"no dislodged units in {m.describe(sector)} have to retreat")
            continue
        if stack.power != result.power:
            intake.illegal(result, f"the dislodged units in {m.describe(sector)} are not yours")
            continue
        unit_type = order.unit_type
        if unit_type is None or not stack.of_type(unit_type):
            types = [t for t in (ARMY, FLEET) if stack.of_type(t)]
            if len(types) != 1:
                intake.illegal(result, "say whether the armies (A) or the fleets (F) are meant")
                continue
            unit_type = types[0]
        n = count_of(order)
        if n > left[(sector, unit_type)]:
            intake.illegal(result, f"only {left[(sector, unit_type)]} "
                           f"{_noun(unit_type, 2)} in {m.describe(sector)} are left to order")
            continue
        loc = loc_of(m, stack, unit_type)
        if isinstance(order, Retreat):
            try:
                dest = (fleet_destination(m, loc, order.dest) if unit_type is FLEET
                        else m.province_of(order.dest))
            except Illegal as exc:
                intake.illegal(result, str(exc))
                continue
            options = _retreat_targets(m, position.units, position.contested,
                                       _blocked(position, entries[sector]), sector, unit_type,
                                       loc, stack.power)
            if dest not in options:
                intake.illegal(result, f"cannot retreat to {m.describe(m.province_of(dest))}: "
                               "it is not next to the units, or occupied, full, left empty by "
                               "a standoff, or where the attack came from")
                continue
            left[(sector, unit_type)] -= n
            result.order = StackRetreat(unit_type, loc, dest, count=n)
            moves.append((result, sector, unit_type, n, dest))
        else:
            left[(sector, unit_type)] -= n
            result.order = StackDisband(unit_type, loc, count=n)
            result.reason = "disbanded"

    units: dict[ProvinceId, Unit] = dict(position.units)
    by_dest: dict[ProvinceId, list[tuple[OrderResult, ProvinceId, UnitType, int, Location]]] = {}
    for item in moves:
        by_dest.setdefault(m.province_of(item[4]), []).append(item)
    removed: list[int] = []
    for q, items in sorted(by_dest.items()):
        powers = {i[0].power for i in items}
        there = as_stack(m, units[q]) if q in units else None
        armies = there.armies if there else 0
        fleets = there.fleets if there else 0
        coasts = {there.loc} if there and there.fleets else set()
        armies += sum(i[3] for i in items if i[2] is ARMY)
        fleets += sum(i[3] for i in items if i[2] is FLEET)
        coasts |= {i[4] for i in items if i[2] is FLEET}
        problem = ""
        if len(powers) > 1:
            problem = "retreats of several powers met there; all are disbanded"
        elif armies + fleets > CAPACITY:
            problem = f"{armies + fleets} units would stand there; six is the most"
        elif len(coasts) > 1:
            problem = "fleets of one sector must stand on one coast"
        if problem:
            for result, sector, *_ in items:
                result.result, result.reason = FAILS, problem
                removed.append(sector)
            continue
        fleet_loc = next(iter(coasts)) if coasts else None
        units[q] = make_stack(m, items[0][0].power, q, armies, fleets, fleet_loc)  # type: ignore[assignment]
        for result, *_ in items:
            result.result, result.reason = SUCCEEDS, "retreats"
    for (sector, unit_type), n in sorted(left.items()):
        if n:
            stack = stacks[sector]
            canonical = intake.write(StackDisband(unit_type, loc_of(m, stack, unit_type), count=n))
            intake.results.setdefault(stack.power, []).append(
                OrderResult(stack.power, "", canonical, SUCCEEDS,
                            "no retreat ordered, so the units are disbanded")
            )
            removed.append(sector)
    after = position.replace(units=units, dislodged=(), contested=frozenset(),
                             extra=MappingProxyType(_lasting(position.extra)))
    return PhaseOutcome(position, intake.finish(), after, advance(after, None), removed=removed)


# -- supply lines and adjustments ------------------------------------------------------------------


@dataclass(eq=False)
class Component:
    """Sectors joined by supply lines for one power: its centres there supply its units there."""

    power: str
    sectors: frozenset[ProvinceId]
    centres: int
    units: int

    @property
    def excess(self) -> int:
        return max(0, self.units - self.centres)

    @property
    def spare(self) -> int:
        return max(0, self.centres - self.units)


def supply_components(position: Position, power: str) -> list[Component]:
    """The supply network of a Great Power, split where other Great Powers own or hold sectors.

    A unit is supplied from a centre when a chain of adjacent sectors joins them through no
    sector owned or occupied by another Great Power (Small Powers do not count). Within one
    connected set of such sectors every centre can supply any unit, so each set supplies as many
    units as it has centres of the power.
    """
    m = position.map
    others = {p for p in m.power_codes if p != power}
    mine = {p for p, u in position.units.items() if u.power == power}
    near = sector_neighbours(m)

    def open_(p: ProvinceId) -> bool:
        if p in mine:
            return True  # a line may end in the unit's own sector, whoever owns it
        if m.provinces[p].terrain is Terrain.IMPASSABLE:
            return False
        if position.centers.get(p) in others:
            return False
        unit = position.units.get(p)
        return unit is None or unit.power not in others

    owned = {p for p, o in position.centers.items() if o == power}
    starts = sorted(mine | {p for p in owned if open_(p)})
    seen: set[ProvinceId] = set()
    out = []
    for s in starts:
        if s in seen:
            continue
        part = {s}
        queue = deque([s])
        while queue:
            p = queue.popleft()
            for q in near[p]:
                if q not in part and open_(q):
                    part.add(q)
                    queue.append(q)
        seen |= part
        centres = sum(m.provinces[p].centres for p in part if p in owned)
        units = sum(position.units[p].count for p in part if p in mine)
        out.append(Component(power, frozenset(part), centres, units))
    return out


def production(m: Map, province: ProvinceId, season: str) -> int:
    """Units a sector may produce: majors one after Spring and two after Fall, minors one after
    Fall (``season`` is that of the adjustment phase: S after Spring, W after Fall)."""
    if season == "S":
        return 1 if is_major_sector(m, province) else 0
    return 2 if is_major_sector(m, province) else 1


def small_power_production(position: Position, province: ProvinceId) -> int:
    """What an armed Small Power's sector builds this adjustment phase (0 if unarmed)."""
    m = position.map
    armed = position.extra.get("armed")
    if not armed:
        return 0
    phase = position.phase
    spring_attack = armed == f"S{phase.year}M"
    if phase.season == "S":
        return 1 if is_major_sector(m, province) or spring_attack else 0
    if is_major_sector(m, province):
        return 2
    return 0 if spring_attack else 1


def _small_power_builds(position: Position) -> dict[ProvinceId, int]:
    m = position.map
    out = {}
    for p, owner in sorted(position.centers.items()):
        if not m.is_minor(owner):
            continue
        unit = position.units.get(p)
        if unit is not None and unit.power != owner:
            continue
        have = unit.count if unit is not None else 0
        n = min(small_power_production(position, p), m.provinces[p].centres - have,
                CAPACITY - have)
        if n > 0 and m.provinces[p].terrain is not Terrain.SEA:
            out[p] = n
    return out


def _can_build(position: Position, power: str, comps: list[Component], season: str) -> bool:
    m = position.map
    for comp in comps:
        if not comp.spare:
            continue
        for p in comp.sectors:
            if position.centers.get(p) != power or not production(m, p, season):
                continue
            unit = position.units.get(p)
            if unit is None or (unit.power == power and unit.count < CAPACITY):
                return True
    return False


def adjustments_due(position: Position) -> bool:
    """Whether anyone builds or removes in this adjustment phase (else it is skipped)."""
    season = position.phase.season
    if _small_power_builds(position):
        return True
    for power in position.map.power_codes:
        comps = supply_components(position, power)
        if season == "W" and any(c.excess for c in comps):
            return True
        if _can_build(position, power, comps, season):
            return True
    return False


def advance(position: Position, record: Mapping[str, object] | None) -> Position:
    """The next phase to play after ``position`` (whose phase is over); ``record`` is the dice
    log of the movement phase just played, which travels with the next phase's document."""
    phase = position.phase
    extra = _lasting(position.extra)
    base = position.replace(dislodged=(), contested=frozenset(), extra=MappingProxyType(extra))
    if phase.kind == "A":
        after = Phase(phase.year, "F", "M") if phase.season == "S" else Phase(phase.year + 1,
                                                                                "S", "M")
        nxt = base.replace(phase=after)
    else:
        if phase.season == "S":
            adj = base.replace(phase=Phase(phase.year, "S", "A"))
        else:
            adj = base.replace(phase=Phase(phase.year, "W", "A"), centers=update_centers(base))
        nxt = adj if adjustments_due(adj) else advance(adj, None)
    if record is not None:
        nxt = nxt.replace(extra=MappingProxyType({**nxt.extra, "dice": record}))
    return nxt


def adjudicate_adjustments(position: Position, orders: Mapping[str, Any], rules: Rules
                           ) -> PhaseOutcome:
    m = position.map
    intake = _Intake(position, orders)
    season = "S" if position.phase.season == "S" else "W"
    stacks: dict[ProvinceId, list[Any]] = {}  # province -> [power, armies, fleets, fleet_loc]
    for p, unit in position.units.items():
        s = as_stack(m, unit)
        stacks[p] = [s.power, s.armies, s.fleets, s.loc if s.fleets else None]
    comps: dict[str, list[Component]] = {p: supply_components(position, p)
                                          for p in m.power_codes}
    comp_of = {(c.power, p): c for cs in comps.values() for c in cs for p in c.sectors}
    to_remove = {id(c): (c.excess if season == "W" else 0) for cs in comps.values() for c in cs}
    spare = {id(c): c.spare for cs in comps.values() for c in cs}
    built: dict[ProvinceId, int] = {}
    removed: list[int] = []

    for result, order in intake.accepted:
        power = result.power
        if m.is_minor(power):
            intake.illegal(result, "the Small Powers take no orders: they build by themselves")
            continue
        if isinstance(order, Waive):
            result.reason = "build waived"
            continue
        if isinstance(order, Build):
            _build(position, intake, result, order, power, stacks, comp_of, spare, built, season)
        elif isinstance(order, Disband):
            _remove(position, intake, result, order, power, stacks, comp_of, to_remove, season,
                    removed)
        else:
            intake.illegal(result, "only builds, removals and waives are given now")

    # Units nobody chose to remove: those farthest from the centres that supply their sector.
    for power in m.power_codes:
        for comp in comps[power]:
            due = to_remove[id(comp)]
            if due <= 0:
                continue
            chosen: dict[tuple[ProvinceId, UnitType], int] = {}
            for key in _removal_order(position, comp, stacks)[:due]:
                chosen[key] = chosen.get(key, 0) + 1
            for (p, unit_type), n in chosen.items():
                entry = stacks[p]
                entry[2 if unit_type is FLEET else 1] -= n
                removed.append(p)
                loc = entry[3] if unit_type is FLEET else p
                canonical = intake.write(StackDisband(unit_type, loc, count=n))
                intake.results.setdefault(power, []).append(OrderResult(
                    power, "", canonical, SUCCEEDS,
                    f"removed: the supply lines there reach {_count(comp.centres, 'centre')} "
                    f"for {_count(comp.units, 'unit')} (too few removals ordered)"))

    for p, n in _small_power_builds(position).items():
        owner = position.centers[p]
        entry = stacks.setdefault(p, [owner, 0, 0, None])
        entry[1] += n
        canonical = intake.write(StackBuild(ARMY, p, count=n))
        intake.results.setdefault(owner, []).append(OrderResult(
            owner, "", canonical, SUCCEEDS, "built: the Small Powers are armed"))

    units = {}
    for p, (power, armies, fleets, fleet_loc) in stacks.items():
        stack = make_stack(m, power, p, armies, fleets, fleet_loc)
        if stack is not None:
            units[p] = stack
    after = position.replace(units=units, extra=MappingProxyType(_lasting(position.extra)))
    return PhaseOutcome(position, intake.finish(), after, advance(after, None), removed=removed)


def _build(position, intake, result, order, power, stacks, comp_of, spare, built, season) -> None:
    m = position.map
    p = m.province_of(order.loc)
    province = m.provinces[p]
    n = count_of(order)
    if position.centers.get(p) != power:
        intake.illegal(result, f"{power} does not own {m.describe(p)}")
        return
    unit = position.units.get(p)
    if unit is not None and unit.power != power:
        intake.illegal(result, f"{m.describe(p)} is held by another power's units")
        return
    rate = production(m, p, season)
    if rate == 0:
        intake.illegal(result, f"{m.describe(p)} is a minor sector: it builds only after Fall")
        return
    unit_type = order.unit_type
    if unit_type is None:
        intake.illegal(result, "say whether to build armies (A) or fleets (F)")
        return
    loc = p
    entry = stacks.get(p)
    if unit_type is FLEET:
        if province.terrain is not Terrain.COAST:
            intake.illegal(result, f"a fleet cannot be built in {m.describe(p)}")
            return
        if province.coasts:
            if m.loc_coast[order.loc] is None:
                coasts = " or ".join(m.loc_name(c) for c in m.coast_locations(p))
                intake.illegal(result, f"say which coast the fleets are built on: {coasts}")
                return
            loc = order.loc
            if entry is not None and entry[2] and entry[3] != loc:
                intake.illegal(result, "the fleets of one sector all stand on one coast")
                return
    if built.get(p, 0) + n > rate:
        result.result = FAILS
        result.reason = (f"{m.describe(p)} can produce only {rate} "
                         f"{'unit' if rate == 1 else 'units'} now")
        return
    have = (entry[1] + entry[2]) if entry is not None else 0
    if have + n > CAPACITY:
        result.result, result.reason = FAILS, f"no room: {m.describe(p)} would hold {have + n}"
        return
    comp = comp_of.get((power, p))
    if comp is None or spare[id(comp)] < n:
        left = 0 if comp is None else spare[id(comp)]
        result.result = FAILS
        result.reason = (f"the centres joined to {province.code} by supply lines can supply "
                         f"only {left} more {'unit' if left == 1 else 'units'}")
        return
    spare[id(comp)] -= n
    built[p] = built.get(p, 0) + n
    if entry is None:
        entry = stacks[p] = [power, 0, 0, None]
    if unit_type is FLEET:
        entry[2] += n
        entry[3] = loc
    else:
        entry[1] += n
    result.order = StackBuild(unit_type, loc, count=n)
    result.reason = "built"


def _remove(position, intake, result, order, power, stacks, comp_of, to_remove, season,
            removed) -> None:
    m = position.map
    p = m.province_of(order.loc)
    if season != "W":
        intake.illegal(result, "units are removed only after Fall")
        return
    entry = stacks.get(p)
    unit = position.units.get(p)
    if unit is None or unit.power != power or entry is None:
        intake.illegal(result, f"{power} has no units in {m.describe(p)}")
        return
    stack = as_stack(m, unit)
    unit_type = order.unit_type
    if unit_type is None or not stack.of_type(unit_type):
        types = [t for t in (ARMY, FLEET) if stack.of_type(t)]
        if len(types) != 1:
            intake.illegal(result, "say whether armies (A) or fleets (F) are removed")
            return
        unit_type = types[0]
    comp = comp_of[(power, p)]
    due = to_remove[id(comp)]
    if comp.excess == 0:
        intake.illegal(result, f"the units in {m.describe(p)} are all supplied: none has to go")
        return
    n = count_of(order)
    have = entry[2] if unit_type is FLEET else entry[1]
    if n > have:
        result.result, result.reason = FAILS, f"only {have} {_noun(unit_type, have)} are left there"
        return
    if n > due:
        result.result = FAILS
        result.reason = f"only {due} more {'unit has' if due == 1 else 'units have'} to go there"
        return
    to_remove[id(comp)] -= n
    entry[2 if unit_type is FLEET else 1] -= n
    removed.append(p)
    result.order = StackDisband(unit_type, loc_of(m, stack, unit_type), count=n)
    result.reason = "removed"


def _removal_order(
    position: Position, comp: Component, stacks: Mapping[ProvinceId, list[Any]]
) -> list[tuple[ProvinceId, UnitType]]:
    """The power's units left in ``comp``, one entry per unit, the first to go first: farthest
    from the power's centres in the component, fleets before armies, then by sector name."""
    m = position.map
    near = sector_neighbours(m)
    sources = [p for p in comp.sectors if position.centers.get(p) == comp.power]
    distance = {p: 0 for p in sources}
    queue = deque(sources)
    while queue:
        p = queue.popleft()
        for q in near[p]:
            if q in comp.sectors and q not in distance:
                distance[q] = distance[p] + 1
                queue.append(q)
    units: list[tuple[ProvinceId, UnitType]] = []
    for p in comp.sectors:
        entry = stacks.get(p)
        if entry is None or entry[0] != comp.power:
            continue
        units += [(p, FLEET)] * entry[2] + [(p, ARMY)] * entry[1]
    units.sort(key=lambda pu: (-distance.get(pu[0], 10_000), pu[1] is ARMY,
                               m.provinces[pu[0]].name))
    return units


# -- the variant ----------------------------------------------------------------------------------


class Superdiplomacy(Variant):
    """Superdiplomacy on the larger board (``docs/rules/superdiplomacy.md``)."""

    name = "superdiplomacy"
    aliases = ("super", "super-diplomacy", "superdip")
    title = "Superdiplomacy"
    map_name = "superdiplomacy"

    # -- documents -----------------------------------------------------------------------------

    def read_extra(self, m: Any, doc: Mapping[str, Any]) -> Mapping[str, object]:
        extra = doc.get("extra", {}) or {}
        if not isinstance(extra, Mapping):
            raise PhaseError('"extra" must be an object')
        unknown = set(extra) - {"seed_hash", "armed", "dice", "retreat_blocked"}
        if unknown:
            raise PhaseError(f"unknown Superdiplomacy fields in \"extra\": "
                             f"{', '.join(sorted(map(str, unknown)))}")
        out: dict[str, object] = {k: v for k, v in extra.items() if v is not None}
        seed = doc.get("seed")
        if seed is not None:
            if not isinstance(seed, str) or not seed:
                raise PhaseError('"seed" must be a non-empty string')
            published = extra.get("seed_hash")
            if published is not None and not dice.seed_matches(seed, str(published)):
                raise PhaseError("the seed does not match the published commitment "
                                 f"(SHA-256 {published})")
            out["seed"] = seed
            out["seed_hash"] = dice.commitment(seed)
        armed = out.get("armed")
        if armed is not None:
            Phase.parse(str(armed))
        return out

    def write_extra(self, position: Any, doc: dict[str, Any]) -> None:
        # The secret seed is never written here: a game keeps it apart from the position
        # (revealed with the results), and a phase document given to be adjudicated names it.
        extra = position.extra
        fields_ = {k: extra[k] for k in ("seed_hash", "armed", "dice", "retreat_blocked")
                   if extra.get(k) is not None}
        if fields_:
            doc["extra"] = fields_

    def prepare_phase(self, position: Position, new_seed: Callable[[], str]) -> Position:
        """A movement phase gets a fresh secret seed; only its hash is shown before it is over."""
        if not position.phase.is_movement or position.extra.get("seed"):
            return position
        seed = new_seed()
        return position.replace(extra=MappingProxyType(
            {**position.extra, "seed": seed, "seed_hash": dice.commitment(seed)}))

    # -- notation -------------------------------------------------------------------------------

    def parse_unit(self, m: Map, spec: str, power: str) -> Unit:
        return parse_stack(m, spec, power)

    def format_unit(self, m: Map, unit: Unit) -> str:
        return format_stack(m, unit)

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        return parse_counted_order(m, text, phase_kind=phase_kind, position=position, power=power)

    def format_order(self, position: Position, order: AnyOrder) -> str:
        return format_counted_order(position.map, order)

    # -- phases ---------------------------------------------------------------------------------

    def adjudicate(self, position: Position, orders: Mapping[str, Any], rules: Rules
                   ) -> PhaseOutcome | None:
        kind = position.phase.kind
        if kind == "M":
            return adjudicate_movement(position, orders, rules)
        if kind == "R":
            return adjudicate_retreats(position, orders, rules)
        if kind == "A":
            return adjudicate_adjustments(position, orders, rules)
        return None

    def retreat_choices(self, position: Position, entry: Dislodged) -> list[Location]:
        return retreat_choices(position, entry)

    # -- reports --------------------------------------------------------------------------------

    def report_notes(self, outcome: PhaseOutcome) -> list[str]:
        record = _dice_record(outcome)
        return [] if record is None else dice_report(outcome.before.map, record)

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        """Everything, as in the standard game, with the battles and every throw."""
        view = full_view(outcome, power)
        record = _dice_record(outcome)
        if record is None:
            return view
        lines = tuple(line for line in dice_lines(outcome.before.map, record) if line)
        note = Note("Battles and dice", lines)
        return replace(view, notes=(*view.notes, note))

    def position_notes(self, position: Position) -> list[str]:
        lines = []
        armed = position.extra.get("armed")
        if armed:
            lines.append(f"The Small Powers are armed (first attacked in {armed}).")
        published = position.extra.get("seed_hash")
        if published and position.phase.is_movement:
            lines.append(f"Dice for {position.phase.code}: committed seed, SHA-256 {published}")
        return lines


def dice_lines(m: Map, record: Mapping[str, Any]) -> list[str]:
    """The battles of a movement phase and every throw, with the seed to check them by."""
    seed = record.get("seed")
    if seed:
        lines = [f"Seed {seed}",
                 f"(SHA-256 {record.get('seed_hash')}; orders {record['orders_digest']})"]
    else:
        lines = ["No seed was given: these throws are not verifiable."]
    battles = record.get("battles", [])
    if not battles:
        lines += ["", "No battles."]
    for b in battles:
        heading = f"Battle for {b['battle']}"
        if b["kind"] != "battle":
            heading += f", to the death (round {b['round']})"
        lines += ["", heading]
        for t in b["throws"]:
            try:
                name = m.power(t["power"]).name
            except KeyError:
                name = str(t["power"]).title()
            faces = " ".join(str(d) for d in t["dice"]) or "-"
            kills = ", ".join(f"{k['unit']} ({k['as']})" for k in t["kills"])
            lines.append(
                f"    {name} {t['role']}: {t['direct']} direct + {t['supporting']} "
                f"supporting, {len(t['dice'])} dice: {faces}"
                + (f"; kills {kills}" if kills else "")
            )
    return lines


def dice_report(m: Map, record: Mapping[str, Any]) -> list[str]:
    """:func:`dice_lines` as a block of a phase report."""
    body = [f"    {line}" if line else "" for line in dice_lines(m, record)]
    return ["------", "Battles and dice", "", *body, ""]


def _dice_record(outcome: PhaseOutcome) -> Mapping[str, Any] | None:
    before = outcome.before
    if not before.phase.is_movement:
        return None
    record = outcome.after.extra.get("dice") or outcome.next.extra.get("dice")
    if not isinstance(record, Mapping) or record.get("phase") != before.phase.code:
        return None
    return record


__all__ = [
    "NEUTRAL",
    "Component",
    "Stack",
    "Superdiplomacy",
    "adjustments_due",
    "count_of",
    "dice_report",
    "format_stack",
    "parse_stack",
    "production",
    "supply_components",
]
