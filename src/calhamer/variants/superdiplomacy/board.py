"""The orders of a movement phase read into groups and forces (:class:`_Board`).

The board checks each order against the stacks, turns the legal ones into groups, combines the
moves of one power into one sector into a force, and indexes supports, convoys and
head-to-heads. It answers the questions that do not depend on the resolution (could a convoy
carry a group, is a support cut) and, once the resolver has decided, where every unit stands
(:meth:`_Board.settle`). Its battles are in :mod:`.battles`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, UnitType
from calhamer.orders import Convoy, Hold, Move, Order, Support
from calhamer.phases import Intake
from calhamer.position import Position, Unit
from calhamer.results import OrderResult
from calhamer.validation import Illegal

from .battles import _Battles
from .forces import CONVOY, HOLD, MOVE, SUPPORT, _Force, _Group, _Settled, sizes
from .notation import (
    CAPACITY,
    Stack,
    StackHold,
    _noun,
    as_stack,
    count_of,
    loc_of,
    make_stack,
    unordered,
    with_count,
)

if TYPE_CHECKING:
    from .resolver import _Resolver


def sea_route(
    m: Map, origin: ProvinceId, dest: ProvinceId, seas: set[ProvinceId] | frozenset[ProvinceId]
) -> bool:
    """Whether the seas ``seas`` chain ``origin`` to ``dest`` (the board's own question,
    :meth:`Map.sea_route`, whose answers the map remembers)."""
    return m.sea_route(origin, frozenset(seas), dest)


class _Board(_Battles):
    """The legal orders of one movement phase as groups, forces, supports and convoys."""

    def __init__(self, position: Position, intake: Intake,
                 unit_orders: Callable[[Mapping[ProvinceId, Order]],
                                       Mapping[str, Iterable[Any]]] | None = None,
                 *, convoy_origin_open: bool = True) -> None:
        """The players' orders read from ``intake``; then, if ``unit_orders`` is given, the
        orders of the units no player commands (a DP variant's bought orders for the Small
        Powers), asked with the players' legal orders by sector. ``convoy_origin_open``: a
        force dislodged by a convoyed attacker may retreat to the sector it set out from
        (section 6; fog of war closes it, Kriegsplomacy rule 3.6)."""
        self.position = position
        self.convoy_origin_open = convoy_origin_open
        self.m = m = position.map
        self.intake = intake
        self.groups: list[_Group] = []
        self.lines: list[str] = []  # canonical legal orders, for the dice
        self.fought: dict[str, set[str]] = {}  # battle -> the powers with units in it
        stacks = {p: as_stack(m, u) for p, u in position.units.items()}
        self.stacks = stacks
        self.occupant = {p: s.power for p, s in stacks.items()}
        left = unordered(stacks)
        probe_units = {p: Unit(s.power, s.type, s.loc) for p, s in stacks.items()}
        probe = position.replace(units=probe_units)
        given: dict[ProvinceId, Order] = {}
        for result, order in intake.accepted:
            checked = self._check(result, order, stacks, left, probe, probe_units)
            if checked is None:
                continue
            order, unit_type = checked
            result.order = order
            given.setdefault(m.province_of(order.loc), order)
            self._add(result.power, order, unit_type, result)
            self.lines.append(f"{result.power}: {intake.write(order)}")
        if unit_orders is not None:
            for power, items in unit_orders(given).items():
                for result, order in intake.add(power, [self._whole(o) for o in items]):
                    checked = self._check(result, order, stacks, left, probe, probe_units,
                                          given_by_rule=True)
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

    def _whole(self, order: Any) -> Any:
        """A plain Hold given by the variant (a default order, for "the unit") as the hold of
        the whole stack."""
        if type(order) is not Hold:
            return order
        stack = self.stacks.get(self.m.province_of(order.loc))
        if stack is None:
            return order
        meant = stack.meant(order.unit_type)
        return with_count(order, stack.of_type(meant if meant is not None else stack.type))

    def _check(self, result, order, stacks, left, probe, probe_units, given_by_rule=False):
        m, intake = self.m, self.intake
        if m.is_minor(result.power) and not given_by_rule:
            intake.illegal(result, "the Small Powers take no orders: they always hold")
            return None
        if not isinstance(order, Hold | Move | Support | Convoy):
            intake.illegal(result, "only hold, move, support and convoy orders are given now")
            return None
        sector = m.province_of(order.loc)
        stack = stacks.get(sector)
        variant = self.position.variant
        hidden = variant.visibility.hidden_information
        if stack is None or (hidden and stack.power != result.power):
            # under fog, said alike whether a foreign stack stands there or none
            message = (variant.visibility.no_unit_message(self.position, result.power, sector)
                       if hidden else f"there is no unit in {m.describe(sector)}")
            intake.illegal(result, message)
            return None
        if stack.power != result.power:
            intake.illegal(result, f"the units in {m.describe(sector)} are not yours")
            return None
        unit_type = stack.meant(order.unit_type)
        if unit_type is None:
            intake.illegal(result, f"say whether the armies (A) or the fleets (F) in "
                           f"{m.describe(sector)} are meant")
            return None
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
            # the variant's check: under fog, judged on what the power knows
            checked = variant.check_movement_order(
                view, result.power, replace(order, unit_type=unit_type, loc=loc)
            )
        except Illegal as exc:
            intake.illegal(result, str(exc))
            return None
        left[(sector, unit_type)] -= n
        if isinstance(checked, Hold) and not isinstance(checked, StackHold) \
                and type(checked) is not Hold:
            return checked, unit_type  # a hold of another kind (espionage): one unit, kept
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

    def attacks_small_power(self) -> bool:
        """Whether a Great Power moved against a Small Power: into a sector one owns or holds
        (what arms them; a Small Power's own sortie does not)."""
        m = self.m
        centers = self.position.centers
        for g in self.groups:
            if g.kind != MOVE or m.is_minor(g.power):
                continue
            owner = centers.get(g.dest)
            holder = self.occupant.get(g.dest)
            if (owner is not None and m.is_minor(owner)) or (holder is not None and
                                                              m.is_minor(holder)):
                return True
        return False

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

    def cutters(self, s: _Group, path: Callable[[_Group], bool]) -> Iterator[_Force]:
        """The forces that cut support ``s`` by attacking its sector (not from where the support
        goes), ``path`` saying whether a group gets there; lazily, so a caller may stop at one."""
        for f in self.forces_into.get(s.sector, ()):
            if f.power != s.power and any(
                g.size and g.sector != s.dest and path(g) for g in f.groups
            ):
                yield f

    def cut_at_order_level(self, s: _Group) -> bool:
        """Whether a support is cut by an attack on its sector (not counting dislodgements)."""
        return next(self.cutters(s, self.possible_path), None) is not None

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
        armies, fleets = sizes(live)
        parts = [f"{armies}A"] * bool(armies) + [f"{fleets}F"] * bool(fleets)
        return f"{'+'.join(parts)} {self.m.provinces[t].code}"

    # -- after a resolution ------------------------------------------------------------------------

    def settle(self, r: _Resolver) -> _Settled:
        m = self.m
        arrived: dict[ProvinceId, list[_Group]] = {}
        winners: dict[ProvinceId, list[_Force]] = {}
        for f in self.forces:
            if r.resolve(f.id):
                winners.setdefault(f.dest, []).append(f)
                arrived.setdefault(f.dest, []).extend(r.live(f))
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
            armies, fleets = sizes(here)
            fleet_loc = None
            for g in here:
                if g.type is FLEET:
                    fleet_loc = g.exact if g in arrived.get(t, []) else g.loc
            stack = make_stack(m, here[0].power, t, armies, fleets, fleet_loc)
            if stack is not None:
                stacks[t] = stack
        # Left empty by a standoff: two forces bounced there, or a Small Power's sortie (which
        # never arrives) did, even alone.
        contested = frozenset(
            t for t, forces in self.forces_into.items()
            if t not in stacks and t not in winners
            and (sum(1 for f in forces if any(g.size and r.path(g) for g in f.groups)) >= 2
                 or any(m.is_minor(f.power) and any(g.size and r.path(g) for g in f.groups)
                        for f in forces))
        )
        blocked = {
            t: frozenset(g.sector for g in force.groups
                         if g.size and not (g.convoyed and self.convoy_origin_open))
            for t, (_, force) in dislodged.items()
        }
        return _Settled(stacks, dislodged, contested, blocked)

    def retreat_options(self, settled: _Settled, t: ProvinceId, group: _Group) -> list[Location]:
        power = group.power
        return _retreat_targets(self.m, settled.stacks, settled.contested,
                                settled.blocked.get(t, frozenset()), t, group.type, group.loc,
                                power)


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
