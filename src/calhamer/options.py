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
- Minor powers, powers nobody plays (the ``unplayed`` option) and phase kinds the core does
  not know (Arpiesse's exchange) list nothing.

Boards. A coast whose fleets may convoy (``convoys = true``) is a sea for convoying: a fleet
there lists convoys, and armies are listed moves by convoy through it. One-way edges are
listed in their direction only (moves, supports into a province, retreats).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

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
from calhamer.validation import Illegal, convoy_route_fleets, sea_route_exists
from calhamer.validation import check_movement_order as standard_check

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
    variant = position.variant
    if m.is_minor(code) or code in variant.unplayed:
        return {}  # nobody gives its orders (its units hold, it never builds)
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
        seas = {p.province for p in pieces if p.type is FLEET and m.can_convoy(p.province)}
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
    moves = list(_direct_moves(m, piece.type, piece.loc))
    if piece.type is ARMY and fleets.coasts and m.is_coastal(piece.province):
        here = piece.province
        adjacent = m.army_adjacent[here]
        for q in sorted(fleets.targets(here), key=m.loc_names.__getitem__):
            moves.append(Move(ARMY, here, q, via_convoy=q in adjacent))
    return moves


_direct_by_map: WeakKeyDictionary[Map, dict[tuple[UnitType, Location], tuple[Move, ...]]] = (
    WeakKeyDictionary())


def _direct_moves(m: Map, unit_type: UnitType, loc: Location) -> tuple[Move, ...]:
    """The moves of a unit next door (fleets to each coast they reach), made once per map."""
    table = _direct_by_map.setdefault(m, {})
    found = table.get((unit_type, loc))
    if found is None:
        names = m.loc_names
        if unit_type is FLEET:
            dests = sorted(m.fleet_adjacent[loc], key=names.__getitem__)
        else:
            dests = sorted(m.army_adjacent[m.loc_province[loc]], key=names.__getitem__)
        found = table[(unit_type, loc)] = tuple(Move(unit_type, loc, d) for d in dests)
    return found


def _reach(m: Map, piece: _Piece) -> frozenset[ProvinceId]:
    """Provinces the piece could move into without a convoy (where it may support)."""
    if piece.type is ARMY:
        return m.army_adjacent[piece.province]
    province_of = m.loc_province
    return frozenset(province_of[d] for d in m.fleet_adjacent[piece.loc])


def movement_candidates(
    position: Position, base: Position, power: str, *, stacks: bool = False,
    full_check: bool = False,
) -> dict[Location, list[AnyOrder]]:
    """Every legal hold, move, support and convoy of ``power``'s units, judged on ``base``
    (what the power knows of ``position``); ``stacks`` for a variant whose units are stacks,
    whose orders are checked on a board probed for them.

    Under the standard order check (the variant's ``check_movement_order`` is
    :func:`calhamer.validation.check_movement_order`, and the power knows the whole board),
    the candidates are built from tables of the map so that most are legal by construction:
    holds, moves next door, supports to hold, and supports of moves the supported unit makes
    over land or along the coast. Only convoys, moves by convoy and supports of an army's move
    by sea go through the check. ``full_check`` sends every candidate through it (the
    reference the fast path is tested against)."""
    board = _board(position, base, stacks)
    m = base.map
    fast = (not full_check and base is position
            and position.variant.check_movement_order is standard_check)
    probe = _probe(position) if stacks else None
    view_units = (probe if probe is not None else position).units
    out: dict[Location, list[AnyOrder]] = {}
    pair_supports = _pair_supports_by_map.setdefault(m, {})  # looked up once, not per pair
    for index, piece in enumerate(board.pieces):
        if piece.power != power:
            continue
        check = _checker(position, power, position.variant, piece, probe)
        listed = out.setdefault(piece.loc, [])
        own = [Hold(piece.type, piece.loc), *board.moves[index]]
        if fast:
            # A hold, and every move next door, are legal as listed. So is every move by
            # convoy: its destination is a coast next to a chain of seas holding fleets that
            # starts next to the army, which is what the check asks.
            listed.extend(own)
        else:
            listed.extend(order for order in own if _passes(check, order))
        if fast:
            for other in _supportable_pieces(board, index):
                listed.extend(_known_pair_supports(m, board, index, other, view_units,
                                                   pair_supports))
        else:
            for other, held, into in _supportable(board, index):
                listed.extend(_checked_supports(board, piece, board.pieces[other], held,
                                                into, check))
        if piece.type is FLEET and m.can_convoy(piece.province):
            listed.extend(_convoys(m, board, piece, check, fast))
    return out


def _supportable(board: _Board, index: int) -> list[tuple[int, bool, list[ProvinceId]]]:
    """The units piece ``index`` may support, in the order of the board: each with whether
    it stands next to the piece (to hold) and the provinces the piece reaches that it could
    move into."""
    pieces = board.pieces
    here = pieces[index].province
    holds: set[int] = set()
    into: dict[int, list[ProvinceId]] = {}
    for q in board.reach[index]:
        for other in board.at.get(q, ()):
            if pieces[other].province != here:
                holds.add(other)
        if q == here:
            continue
        for other in board.movers_into.get(q, ()):
            if pieces[other].province != here:
                into.setdefault(other, []).append(q)
    return [(other, other in holds, into.get(other, []))
            for other in sorted(holds.union(into))]


def _supportable_pieces(board: _Board, index: int) -> list[int]:
    """The units piece ``index`` may support, as :func:`_supportable` finds them, without
    where: all the map's tables of pair supports need (the fast path)."""
    pieces = board.pieces
    here = pieces[index].province
    at, movers_into = board.at, board.movers_into
    found: set[int] = set()
    for q in board.reach[index]:
        found.update(at.get(q, ()))
        if q != here:
            found.update(movers_into.get(q, ()))
    return sorted(other for other in found if pieces[other].province != here)


def _known_pair_supports(m: Map, board: _Board, index: int, other: int,
                         view_units: Mapping[int, Unit],
                         pair_supports: dict[tuple[object, ...], list[Support]]) -> list[Support]:
    """The legal supports of piece ``index`` for piece ``other``, under the standard check.
    They depend on the map, where each stands and where the other may go: kept per map
    (``pair_supports``, the map's entry of ``_pair_supports_by_map``), so each pair is worked
    out once."""
    piece, target = board.pieces[index], board.pieces[other]
    supported = view_units.get(target.province)
    is_army = supported is not None and supported.type is ARMY
    key = (piece.type, piece.loc, target.type, target.loc, board.targets[other], is_army)
    found = pair_supports.get(key)
    if found is None:
        found = _pair_supports(m, piece, target, board.targets[other], board.reach[index],
                               is_army)
        if len(pair_supports) > _PAIR_LIMIT:
            pair_supports.clear()
        pair_supports[key] = found
    return found


def _checked_supports(board: _Board, piece: _Piece, target: _Piece, held: bool,
                      into: list[ProvinceId], check: Callable[[Order], Order]) -> list[Support]:
    """The supports of ``piece`` for ``target`` (to hold if ``held``, and into each of
    ``into``) that pass the variant's check."""
    found: list[Support] = []
    if held:
        support = Support(piece.type, piece.loc, target.type, target.loc)
        if _passes(check, support):
            found.append(support)
    for q in sorted(into, key=board.province_names.__getitem__):
        support = Support(piece.type, piece.loc, target.type, target.loc, q)
        if _passes(check, support):
            found.append(support)
    return found


def _convoys(m: Map, board: _Board, piece: _Piece, check: Callable[[Order], Order],
             fast: bool) -> list[Convoy]:
    """The legal convoys of fleet ``piece``, for every army near its chain of seas."""
    here = piece.province
    chain = board.fleets.chain[here]
    carried = board.fleets.coasts[chain]
    found: list[Convoy] = []
    for army in board.armies_near[chain]:
        for q in sorted(carried - {army.province}, key=board.province_names.__getitem__):
            convoy = Convoy(FLEET, piece.loc, army.province, q)
            if fast:
                # The check's one question here: is this sea on a convoy route from the army
                # to the coast (the map's routes, computed once)?
                if here in convoy_route_fleets(m, army.province, q):
                    found.append(convoy)
            elif _passes(check, convoy):
                found.append(convoy)
    return found


# Supports of one piece for another, by map (see movement_candidates); bounded, since the
# places a unit may go by convoy make the pairs of a long game many.
_PAIR_LIMIT = 50_000
_pair_supports_by_map: WeakKeyDictionary[Map, dict[tuple[object, ...], list[Support]]] = (
    WeakKeyDictionary())


def _pair_supports(m: Map, piece: _Piece, target: _Piece, targets: frozenset[ProvinceId],
                   reach: frozenset[ProvinceId], army: bool) -> list[Support]:
    """The supports ``piece`` may give ``target`` (which may move into ``targets``; ``army``
    if the unit standing there is an army), as the order check would leave them."""
    here = piece.province
    out = []
    if target.province in reach:
        out.append(Support(piece.type, piece.loc, target.type, target.loc))
    names = m.loc_names
    for q in sorted(targets & reach - {here}, key=names.__getitem__):
        # DATC 6.D.31 asks the check about an army's move by sea alone.
        if (not army or q in m.army_adjacent[target.province] or not m.is_coastal(q)
                or _sea_route_avoiding(m, target.province, q, here)):
            out.append(Support(piece.type, piece.loc, target.type, target.loc, q))
    return out


@cache
def _sea_route_avoiding(m: Map, origin: ProvinceId, dest: ProvinceId, avoid: ProvinceId) -> bool:
    """Whether the map's seas, but ``avoid``, carry an army from ``origin`` to ``dest`` (the
    check's DATC 6.D.31 question, which depends on the map alone)."""
    return sea_route_exists(m, origin, dest, avoid=avoid)


def _passes(check: Callable[[Order], Order], order: Order) -> bool:
    try:
        check(order)
    except Illegal:
        return False
    return True


class _Board:
    """What the listing needs of a whole board, whoever asks: the pieces in the order they
    are listed, their moves, where each reaches, and who could move where. Built once per
    board and kept for the next power's listing of the same board."""

    def __init__(self, m: Map, base: Position) -> None:
        names = m.loc_names
        self.province_names = [names[p] for p in range(m.province_count)]
        self.pieces = sorted(_pieces(m, base.units.values()), key=lambda p: (names[p.loc], p.type))
        self.fleets = fleets = _Fleets(m, self.pieces)
        self.moves = [_moves(m, piece, fleets) for piece in self.pieces]
        self.reach = [_reach(m, piece) for piece in self.pieces]
        province_of = m.loc_province
        self.at: dict[ProvinceId, list[int]] = {}
        self.movers_into: dict[ProvinceId, list[int]] = {}
        self.targets: list[frozenset[ProvinceId]] = []
        for index, (piece, mvs) in enumerate(zip(self.pieces, self.moves, strict=True)):
            self.at.setdefault(piece.province, []).append(index)
            targets = frozenset(province_of[mv.dest] for mv in mvs)
            self.targets.append(targets)
            for q in targets:
                self.movers_into.setdefault(q, []).append(index)
        self.armies_near: list[list[_Piece]] = [[] for _ in fleets.coasts]
        for piece in self.pieces:
            if piece.type is ARMY and m.is_coastal(piece.province):
                for chain in sorted(fleets.chains_near(piece.province)):
                    self.armies_near[chain].append(piece)


# The last board listed, kept because every power of a phase is usually listed in turn.
_last_board: tuple[Position, bool, _Board] | None = None


def _board(position: Position, base: Position, stacks: bool) -> _Board:
    global _last_board
    last = _last_board
    if last is not None and last[0] is base and last[1] == stacks:
        return last[2]
    board = _Board(base.map, base)
    _last_board = (base, stacks, board)
    return board


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
