"""Every order a power may give in the phase being played: for order pages, bots and hints.

:func:`possible_orders` lists, for each of a power's units (or, in winter, each centre it may
build in), the orders adjudication would accept, through the same checks: movement orders go
through the variant's ``check_movement_order`` hook (:mod:`calhamer.validation` in the
standard game), so everything listed is legal there, and DATC 6.D.31's support (a fleet
supporting the convoy that could only run through itself) is left out because the check
refuses it.

What is listed, by phase:

- **Movement**: a hold; every move (fleets to each coast they reach); an army's moves by
  convoy to every coast the fleets standing at sea could carry it to, written ``VIA CONVOY``
  only when the destination is also next door (a second way to get there); support to hold
  for every unit next to the supporter, and support for every move another unit could make
  (the ones listed here, convoys included) into a place the supporter reaches, the supported
  move named by province (a coast is not needed); and for a fleet at sea, the convoy of
  every army to every coast the fleets at sea, this one among them, could carry it to.
- **Retreats**: a retreat to each place :func:`calhamer.phases.retreat_options` (the
  variant's ``retreat_choices``) allows, and a disband.
- **Adjustments**: in each centre the power may build in, an army and a fleet where each may
  stand (a fleet on each coast of a split-coast centre), and a waive; or, when units must
  go, the removal of each unit.

What is legal but not listed: supports and convoys naming a unit that is not there or a move
it could not make, and convoys for routes the fleets at sea cannot complete (adjudication
accepts them; they are void or fail).

Variants. The listing is made from what the power knows (``known_position`` of the variant's
visibility policy), so nothing hidden shows in it. Only what the standard order types express
is listed:

- **Kriegsplomacy**: the power's own units only; espionage (``E``) and counter-espionage
  (``CE``) are not listed, and army moves by convoy only through the power's own fleets
  (the rules let an army be ordered anywhere a convoy could take it). A retreat to a place
  the power cannot know is blocked is listed: it is legal, and fails.
- **Arpiesse**: orders carry no colour claim; builds are plain builds (a Red unit; write
  ``BUILD Purple A PAR`` for another colour); the summer colour exchange is not listed.
- **DP variants**: orders for the power's own units; bids for neutral units are not orders.
- **Superdiplomacy** (stacks): each order moves one unit of a stack (write a number for
  more); mixed stacks list their armies' and fleets' orders under one key. Retreats, builds
  and removals are those that adjudicated alone would not be invalid (builds and removals:
  that would succeed).
- Minor powers and phase kinds the core does not know (Arpiesse's exchange) list nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from calhamer.errors import CalhamerError
from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, Terrain, UnitType
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
from calhamer.phases import adjudicate, buildable_centres
from calhamer.pieces import Unit
from calhamer.results import INVALID, SUCCEEDS
from calhamer.rules import Rules, find_rules
from calhamer.validation import Illegal

if TYPE_CHECKING:
    from calhamer.position import Position

__all__ = [
    "adjustment_candidates",
    "kept_by_adjudication",
    "movement_candidates",
    "possible_order_texts",
    "possible_orders",
    "retreat_candidates",
    "stack_adjustment_candidates",
]


def possible_orders(
    position: Position, power: str, rules: Rules | str | None = None
) -> dict[Location, list[AnyOrder]]:
    """Every order ``power`` may give now, by the location of the unit (or centre) it is for.

    ``rules`` is the game's edition (it decides, for one, where builds may go). Keys are in
    the order of the locations' names; each list starts with the simplest order (hold,
    retreats before the disband, builds before the waive). See the module's documentation
    for what is and is not listed.
    """
    m = position.map
    code = m.find_power(power) if power else None
    if code is None:
        known = ", ".join(m.power_codes)
        raise CalhamerError(f"{power!r} is not a power of this game; the powers are {known}")
    if m.is_minor(code):
        return {}
    variant = position.variant
    handler = variant.phases.get(position.phase.kind)
    if handler is None:
        return {}
    edition = variant.phase_rules(find_rules(rules))
    knows = variant.visibility.known_position(position, code)
    found = handler.possible_orders(position, knows, code, edition)
    names = m.loc_names
    return {loc: found[loc] for loc in sorted(found, key=names.__getitem__) if found[loc]}


def possible_order_texts(
    position: Position, power: str, rules: Rules | str | None = None
) -> list[tuple[str, list[str]]]:
    """:func:`possible_orders` as an order page shows it: a heading for each unit (or centre)
    and the canonical text of each of its orders, in the variant's notation."""
    variant = position.variant
    m = position.map
    code = m.find_power(power) or power
    base = variant.visibility.known_position(position, code) if not m.is_minor(code) else position
    out = []
    for loc, orders in possible_orders(position, power, rules).items():
        province = m.province_of(loc)
        if position.phase.is_retreat:
            unit = next((d.unit for d in base.dislodged
                         if m.province_of(d.unit.loc) == province), None)
        else:
            unit = base.units.get(province)
        if unit is not None and unit.power == code:
            heading = variant.notation.format_unit(m, unit)
        else:
            heading = f"Build in {m.describe(province)}"
        out.append((heading, [variant.notation.format_order(base, o) for o in orders]))
    return out


# -- movement --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Piece:
    """Units of one type in one province: a unit, or the armies or the fleets of a stack."""

    province: ProvinceId
    type: UnitType
    loc: Location
    power: str


def _pieces(m: Map, units: Iterable[Unit]) -> list[_Piece]:
    out = []
    for unit in units:
        province = m.province_of(unit.loc)
        of_type: Callable[[UnitType], int] | None = getattr(unit, "of_type", None)
        if of_type is None:
            out.append(_Piece(province, unit.type, unit.loc, unit.power))
            continue
        # A Superdiplomacy stack: its armies stand in the province, its fleets on unit.loc.
        for unit_type in (ARMY, FLEET):
            if of_type(unit_type):
                loc = unit.loc if unit_type is FLEET else province
                out.append(_Piece(province, unit_type, loc, unit.power))
    return out


class _Fleets:
    """The fleets at sea, grouped into chains of adjacent seas: what convoys can use now."""

    def __init__(self, m: Map, pieces: list[_Piece]) -> None:
        near = m.province_fleet_adjacent
        seas = {p.province for p in pieces if p.type is FLEET and m.is_sea(p.province)}
        self.chain: dict[ProvinceId, int] = {}
        self.coasts: list[frozenset[ProvinceId]] = []
        for sea in sorted(seas):
            if sea in self.chain:
                continue
            index = len(self.coasts)
            members, queue = {sea}, [sea]
            self.chain[sea] = index
            while queue:
                here = queue.pop()
                for nxt in near[here]:
                    if nxt in seas and nxt not in members:
                        members.add(nxt)
                        self.chain[nxt] = index
                        queue.append(nxt)
            self.coasts.append(frozenset(
                q for s in members for q in near[s] if m.is_coastal(q)
            ))
        self._near = near

    def chains_near(self, province: ProvinceId) -> set[int]:
        chain = self.chain
        return {chain[s] for s in self._near[province] if s in chain}

    def targets(self, province: ProvinceId) -> set[ProvinceId]:
        """Coasts an army in ``province`` could be convoyed to by the fleets at sea."""
        out: set[ProvinceId] = set()
        for index in self.chains_near(province):
            out |= self.coasts[index]
        out.discard(province)
        return out


def _moves(m: Map, piece: _Piece, fleets: _Fleets) -> list[Move]:
    names = m.loc_names
    if piece.type is FLEET:
        return [Move(FLEET, piece.loc, d)
                for d in sorted(m.fleet_adjacent[piece.loc], key=names.__getitem__)]
    here = piece.province
    adjacent = m.army_adjacent[here]
    moves = [Move(ARMY, here, q) for q in sorted(adjacent, key=names.__getitem__)]
    if m.is_coastal(here) and fleets.coasts:
        for q in sorted(fleets.targets(here), key=names.__getitem__):
            moves.append(Move(ARMY, here, q, via_convoy=q in adjacent))
    return moves


def _reach(m: Map, piece: _Piece) -> frozenset[ProvinceId]:
    """Provinces the piece could move into without a convoy (where it may support)."""
    if piece.type is ARMY:
        return m.army_adjacent[piece.province]
    province_of = m.loc_province
    return frozenset(province_of[d] for d in m.fleet_adjacent[piece.loc])


def movement_candidates(
    position: Position, base: Position, power: str, *, stacks: bool = False
) -> dict[Location, list[AnyOrder]]:
    """Every legal hold, move, support and convoy of ``power``'s units, judged on ``base``
    (what the power knows of ``position``); ``stacks`` for a variant whose units are stacks,
    whose orders are checked on a board probed for them."""
    m = base.map
    names = m.loc_names
    province_names = [names[p] for p in range(m.province_count)]
    pieces = sorted(_pieces(m, base.units.values()), key=lambda p: (names[p.loc], p.type))
    fleets = _Fleets(m, pieces)
    moves = {piece: _moves(m, piece, fleets) for piece in pieces}
    province_of = m.loc_province
    targets = {piece: {province_of[mv.dest] for mv in mvs} for piece, mvs in moves.items()}
    armies = [p for p in pieces if p.type is ARMY and m.is_coastal(p.province)]
    probe = _probe(position) if stacks else None
    out: dict[Location, list[AnyOrder]] = {}
    for piece in pieces:
        if piece.power != power:
            continue
        check = _checker(position, power, position.variant, piece, probe)
        here = piece.province
        candidates: list[Order] = [Hold(piece.type, piece.loc), *moves[piece]]
        reach = _reach(m, piece)
        for other in pieces:
            if other.province == here:
                continue
            if other.province in reach:
                candidates.append(Support(piece.type, piece.loc, other.type, other.loc))
            into = targets[other] & reach
            into.discard(here)
            for q in sorted(into, key=province_names.__getitem__):
                candidates.append(Support(piece.type, piece.loc, other.type, other.loc, q))
        if piece.type is FLEET and m.is_sea(here):
            chain = fleets.chain[here]
            carried = fleets.coasts[chain]
            for army in armies:
                if chain not in fleets.chains_near(army.province):
                    continue
                for q in sorted(carried - {army.province}, key=province_names.__getitem__):
                    candidates.append(Convoy(FLEET, piece.loc, army.province, q))
        listed = out.setdefault(piece.loc, [])
        for order in candidates:
            try:
                check(order)
            except Illegal:
                continue
            listed.append(order)
    return out


def _probe(position: Position) -> Position:
    """The board as single units (a stack stands for its fleets, else its armies): what a
    variant with stacks checks movement orders against."""
    return position.replace(units={p: Unit(u.power, u.type, u.loc)
                                   for p, u in position.units.items()})


def _checker(position: Position, power: str, variant, piece: _Piece,
             probe: Position | None) -> Callable[[Order], Order]:
    if probe is None:
        return lambda order: variant.check_movement_order(position, power, order)
    view = probe
    if probe.units[piece.province].type is not piece.type:
        units = dict(probe.units)
        units[piece.province] = Unit(power, piece.type, piece.loc)
        view = probe.replace(units=units)
    return lambda order: variant.check_movement_order(view, power, order)


# -- retreats and adjustments ----------------------------------------------------------------------


def retreat_candidates(base: Position, power: str) -> dict[Location, list[AnyOrder]]:
    """A retreat to each place the variant allows for ``power``'s dislodged units, and a
    disband."""
    m = base.map
    out: dict[Location, list[AnyOrder]] = {}
    for entry in base.dislodged:
        unit = entry.unit
        if unit.power != power:
            continue
        choices = base.variant.retreat_choices(base, entry)
        for piece in _pieces(m, [unit]):
            if piece.type is ARMY:
                here = m.army_adjacent[piece.province]
                dests = [d for d in choices if d in here]  # armies retreat to provinces
            else:
                here = m.fleet_adjacent[piece.loc]
                dests = [d for d in choices if d in here]
            orders: list[AnyOrder] = [Retreat(piece.type, piece.loc, d) for d in dests]
            orders.append(Disband(piece.type, piece.loc))
            out.setdefault(piece.loc, []).extend(orders)
    return out


def _builds(m: Map, province: ProvinceId) -> list[AnyOrder]:
    terrain = m.provinces[province].terrain
    orders: list[AnyOrder] = []
    if terrain in (Terrain.LAND, Terrain.COAST):
        orders.append(Build(ARMY, province))
    if terrain is Terrain.COAST:
        coasts = m.coast_locations(province)
        orders += [Build(FLEET, c) for c in coasts] if coasts else [Build(FLEET, province)]
    return orders


def adjustment_candidates(base: Position, power: str, rules: Rules
                          ) -> dict[Location, list[AnyOrder]]:
    m = base.map
    due = base.adjustments().get(power, 0)
    out: dict[Location, list[AnyOrder]] = {}
    if due > 0:
        for province in buildable_centres(base, power, rules):
            out[province] = [*_builds(m, province), Waive()]
    elif due < 0:
        for unit in base.units_of(power):
            out[unit.loc] = [Disband(unit.type, unit.loc)]
    return out


def stack_adjustment_candidates(base: Position, power: str) -> dict[Location, list[AnyOrder]]:
    """Candidates for a variant with stacks (tried one by one afterwards)."""
    m = base.map
    out: dict[Location, list[AnyOrder]] = {}
    for province, owner in base.centers.items():
        unit = base.units.get(province)
        if owner == power and (unit is None or unit.power == power):
            out[province] = _builds(m, province)
    for unit in base.units_of(power):
        for piece in _pieces(m, [unit]):
            out.setdefault(piece.province, []).append(Disband(piece.type, piece.loc))
    return out


def kept_by_adjudication(position: Position, power: str, rules: Rules,
           candidates: dict[Location, list[AnyOrder]], *, keep_failed: bool,
           ) -> dict[Location, list[AnyOrder]]:
    """The candidates that, adjudicated alone, are not invalid (and, unless ``keep_failed``,
    succeed): for variants whose own adjudication has rules the core cannot check."""
    out: dict[Location, list[AnyOrder]] = {}
    for loc, orders in candidates.items():
        kept = []
        for order in orders:
            result = adjudicate(position, {power: [order]}, rules).results[power][0].result
            if result == SUCCEEDS or (keep_failed and result != INVALID):
                kept.append(order)
        out[loc] = kept
    return out
