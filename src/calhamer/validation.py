"""Whether an order is legal by itself, before any other order is looked at.

An illegal order is ignored and its unit holds (DATC 4.E.1). Each check returns the order as
the resolver should see it, or raises :class:`Illegal` with a reason a player understands.
Coast fixes (a fleet's only reachable coast, DATC 4.B.2) are applied here so the resolver
sees exact locations.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from calhamer.map import ARMY, FLEET, Location, Map, ProvinceId, Terrain, UnitType
from calhamer.orders import Convoy, Hold, Move, Order, Support

if TYPE_CHECKING:
    from calhamer.position import Position


class Illegal(Exception):
    """Raised inside the checks; carries the reason."""


def sea_route_exists(
    m: Map,
    origin: ProvinceId,
    dest: ProvinceId,
    seas: frozenset[ProvinceId] | set[ProvinceId] | None = None,
    avoid: ProvinceId | None = None,
) -> bool:
    """Whether an army could be convoyed from ``origin`` to ``dest`` through sea provinces
    (and coasts whose fleets may convoy, ``convoys = true``).

    ``seas`` limits the route to those seas (the ones holding fleets); None allows every sea.
    """
    if m.provinces[dest].terrain is not Terrain.COAST:
        return False
    pool = m.convoy_spaces if seas is None else frozenset(seas)
    if dest in pool or (avoid is not None and avoid in pool):
        # (a coast that convoys is never a step of a route to itself)
        pool = pool.difference((dest, avoid))
    return m.sea_route(origin, pool, dest)


# The last position :func:`fleet_seas` was asked about, and its answer: the orders of one
# phase ask it of the same position, once for each army ordered across the water.
_LAST_FLEET_SEAS: tuple[Position | None, frozenset[ProvinceId]] = (None, frozenset())


def fleet_seas(position: Position) -> frozenset[ProvinceId]:
    """The provinces where a fleet stands that may convoy (seas, and ``convoys`` coasts)."""
    global _LAST_FLEET_SEAS
    last, found = _LAST_FLEET_SEAS  # (one read: another thread may replace the pair)
    if last is position:
        return found  # a position's units never change
    convoys = position.map.convoy_space  # (Map.can_convoy, read as its table)
    found = frozenset([p for p, u in position.units.items() if u.type is FLEET and convoys[p]])
    _LAST_FLEET_SEAS = (position, found)
    return found


def check_movement_order(position: Position, power: str | None, order: Order) -> Order:
    """The order as the resolver should see it (coasts settled); raises Illegal if illegal."""
    m = position.map
    here = m.loc_province[order.loc]
    unit = position.units.get(here)
    if unit is None:
        raise Illegal(f"there is no unit in {m.describe(here)}")
    if power is not None and unit.power != power:
        raise Illegal(f"the unit in {m.describe(here)} is not yours")
    # DATC 4.C.2 and 4.B.5: a wrong unit letter or coast for the ordered unit is ignored.
    if order.unit_type is not unit.type or order.loc != unit.loc:
        order = replace(order, unit_type=unit.type, loc=unit.loc)
    kind = type(order)
    if kind is Hold:
        return order
    check = _CHECKS.get(kind)
    if check is None:  # a subclass of an order type, or no movement order at all
        check = next((c for t, c in _CHECKS.items() if isinstance(order, t)), None)
        if check is None:
            if isinstance(order, Hold):
                return order
            raise Illegal(
                "only hold, move, support and convoy orders are given in a movement phase"
            )
    return check(position, order)


def _check_move(position: Position, order: Move) -> Move:
    m = position.map
    here = m.loc_province[order.loc]
    target = m.loc_province[order.dest]
    if target == here:
        raise Illegal("a unit cannot move to the province it is in")
    if order.unit_type is ARMY:
        if order.dest != target:
            order = replace(order, dest=target)  # armies ignore coasts
        if target in m.army_adjacent[here]:
            return order
        if m.provinces[target].terrain not in (Terrain.LAND, Terrain.COAST):
            raise Illegal(f"an army cannot move to {m.describe(target)}")
        if m.is_coastal(here) and sea_route_exists(m, here, target, fleet_seas(position)):
            return order
        if m.is_coastal(here) and sea_route_exists(m, here, target):
            raise Illegal(
                f"{m.describe(target)} is not next to {m.describe(here)} and no fleets stand "
                "where a convoy could take it"
            )
        raise Illegal(f"{m.describe(target)} is not next to {m.describe(here)}")
    if order.via_convoy:
        raise Illegal("only armies can be convoyed")
    if order.dest in m.fleet_adjacent[order.loc]:
        return order  # the usual case: an exact, reachable location
    dest = fleet_destination(m, order.loc, order.dest)
    return order if dest == order.dest else replace(order, dest=dest)


def fleet_destination(m: Map, loc: Location, dest: Location) -> Location:
    """The exact location a fleet at ``loc`` reaches for ``dest`` (DATC 4.B.1 to 4.B.3)."""
    target = m.province_of(dest)
    terrain = m.provinces[target].terrain
    if terrain not in (Terrain.COAST, Terrain.SEA):
        raise Illegal(f"a fleet cannot move to {m.describe(target)}")
    options = m.fleet_destinations(loc, target)
    if not options:
        raise Illegal(f"{m.describe(target)} is not next to {m.describe(loc)} for a fleet")
    if dest in options:
        return dest
    if m.loc_coast[dest] is not None:
        if not m.coast_locations(target):
            return options[0]  # a coast named on an undivided province is ignored
        raise Illegal(f"a fleet in {m.describe(loc)} cannot reach {m.describe(dest)}")
    if len(options) == 1:
        return options[0]  # DATC 4.B.2: the only reachable coast is meant
    coasts = " or ".join(m.loc_name(o) for o in options)
    raise Illegal(f"say which coast of {m.describe(target)} the fleet goes to: {coasts}")


def _check_support(position: Position, order: Support) -> Support:
    m = position.map
    loc_province = m.loc_province
    here = loc_province[order.loc]
    target = loc_province[order.target]
    if target == here:
        raise Illegal("a unit cannot support itself")
    into = target if order.dest is None else loc_province[order.dest]
    if into == here:
        raise Illegal("a unit cannot support a move into its own province")
    if not m.can_reach_province(order.unit_type, order.loc, into):  # type: ignore[arg-type]
        raise Illegal(f"the unit in {m.describe(here)} cannot reach {m.describe(into)}")
    supported = position.units.get(target)
    if (
        order.dest is not None
        and supported is not None
        and supported.type is ARMY
        and into not in m.army_adjacent[target]
        and m.is_coastal(into)
        and not sea_route_exists(m, target, into, avoid=here)
    ):
        # DATC 6.D.31: the only route for the army runs through the supporter itself.
        raise Illegal(
            f"the army in {m.describe(target)} could only reach {m.describe(into)} through "
            f"{m.describe(here)}, and a fleet cannot convoy and support at once"
        )
    target_loc = supported.loc if supported is not None else order.target
    # A coast named in a support of a fleet move must match the move (DATC 6.B.9): keep it.
    if order.dest is None:
        dest = None
    elif m.loc_coast[order.dest] is not None:
        dest = order.dest
    else:
        dest = into
    if target_loc == order.target and dest == order.dest:
        return order
    return replace(order, target=target_loc, dest=dest)


def _check_convoy(position: Position, order: Convoy) -> Convoy:
    m = position.map
    here = m.province_of(order.loc)
    if order.unit_type is not FLEET or not m.can_convoy(here):
        raise Illegal("only fleets at sea (or on a coast whose fleets may convoy) can convoy")
    army_from = m.province_of(order.army)
    army_to = m.province_of(order.dest)
    if not m.is_coastal(army_from) or not m.is_coastal(army_to):
        raise Illegal(
            f"an army cannot be convoyed from {m.describe(army_from)} to {m.describe(army_to)}"
        )
    if here not in convoy_route_fleets(m, army_from, army_to):
        # DATC 6.F.1, 6.G.7, 6.G.19: a fleet on no route that is needed is illegal.
        raise Illegal(
            f"a fleet in {m.describe(here)} is on no convoy route from "
            f"{m.describe(army_from)} to {m.describe(army_to)}"
        )
    if order.army == army_from and order.dest == army_to:
        return order
    return replace(order, army=army_from, dest=army_to)


# Chains the exact search below may try for one pair before it settles for the seas on any
# simple route (see _route_fleets_cached); far more than any pair of the standard board needs.
_ROUTE_SEARCH_LIMIT = 3_000


def _seas_on_simple_routes(
    near: Sequence[frozenset[ProvinceId]], usable: list[bool], origin: ProvinceId, dest: ProvinceId
) -> set[ProvinceId]:
    """The seas on some simple route (one that does not pass a sea twice) from ``origin`` to
    ``dest``: with an edge added from ``origin`` to ``dest``, exactly the seas that share a
    biconnected block with that edge (a sea lies on a simple route when it lies on a cycle
    through the added edge). Every irredundant route is simple, so this bounds the search."""
    index: dict[ProvinceId, int] = {}
    low: dict[ProvinceId, int] = {}
    edges: list[tuple[ProvinceId, ProvinceId]] = []
    block: set[ProvinceId] = set()

    # The graph of the seas, ``origin`` and ``dest``, each edge both ways (one-way edges too:
    # this is only a bound), with the edge from ``origin`` to ``dest`` added.
    graph: dict[ProvinceId, set[ProvinceId]] = {origin: {dest}, dest: {origin}}
    for p, adjacent in enumerate(near):
        if usable[p] or p in (origin, dest):
            for q in adjacent:
                if (usable[q] or q in (origin, dest)) and (usable[p] or usable[q]):
                    graph.setdefault(p, set()).add(q)
                    graph.setdefault(q, set()).add(p)

    def neighbours(p: ProvinceId) -> list[ProvinceId]:
        return sorted(graph.get(p, ()))

    def visit(p: ProvinceId, parent: ProvinceId) -> None:
        index[p] = low[p] = len(index)
        for q in neighbours(p):
            if q == parent:
                continue
            if q not in index:
                edges.append((p, q))
                visit(q, p)
                low[p] = min(low[p], low[q])
                if low[q] >= index[p]:  # p cuts off the block just finished
                    popped: list[tuple[ProvinceId, ProvinceId]] = []
                    while True:
                        edge = edges.pop()
                        popped.append(edge)
                        if edge == (p, q):
                            break
                    if (origin, dest) in popped or (dest, origin) in popped:
                        block.update(x for e in popped for x in e)
            elif index[q] < index[p]:
                edges.append((p, q))
                low[p] = min(low[p], index[q])

    visit(origin, -1)
    block.discard(origin)
    block.discard(dest)
    return block


@cache
def _route_fleets_cached(m: Map, origin: ProvinceId, dest: ProvinceId) -> frozenset[ProvinceId]:
    """The seas of every irredundant route from ``origin`` to ``dest``: a chain of seas that
    may convoy, the first next to ``origin``, only the last next to ``dest``, none but the
    first next to ``origin``, and none next to an earlier sea but its predecessor (so that no
    sea of it could be left out).

    Whether a sea lies on such a chain is a hard question in general, and the chains grow
    exponentially with the open water of a large board; the seas on them do not. So the
    search gives up a chain that cannot reach ``dest`` or could only add seas already found,
    and stops once it has every sea on a simple route. On a board where that still takes
    more than ``_ROUTE_SEARCH_LIMIT`` chains, the seas on any simple route are the answer (a
    fleet on a roundabout route may then convoy, as in most judges; no board calhamer ships
    with a known route of such size has it)."""
    near = m.province_fleet_adjacent
    if origin == dest:  # a convoy to where the army stands (DATC 6.A.5): each sea beside it
        return frozenset(p for p in near[origin] if m.can_convoy(p))
    usable = [m.can_convoy(p) and p != dest and p != origin for p in range(len(near))]
    simple = _seas_on_simple_routes(near, usable, origin, dest)
    found: set[ProvinceId] = set()
    budget = [_ROUTE_SEARCH_LIMIT]

    def ahead(last: ProvinceId, banned: set[ProvinceId]) -> set[ProvinceId]:
        # The seas a chain at ``last`` could still reach (more than it may: a sea taken
        # later bans more): if none is new and none leads on, the chain has nothing to give.
        seen, queue = {last}, deque([last])
        while queue:
            for q in near[queue.popleft()]:
                if q not in seen and q in simple and q not in banned:
                    seen.add(q)
                    queue.append(q)
        return seen

    def extend(path: list[ProvinceId], banned: set[ProvinceId]) -> bool:
        # False once the search is over: every sea found, or the budget spent.
        budget[0] -= 1
        if budget[0] < 0:
            return False
        last = path[-1]
        if dest in near[last]:
            found.update(path)
            return len(found) < len(simple)
        reach = ahead(last, banned)
        if not any(dest in near[q] for q in reach) or found.issuperset(reach.union(path)):
            return True
        for nxt in near[last]:
            more = nxt in simple and nxt not in banned
            if more and not extend([*path, nxt], banned | near[last]):
                return False
        return True

    next_to_origin = {p for p in range(len(near)) if origin in near[p]}
    for first in sorted(near[origin]):
        if first in simple and not extend([first], next_to_origin | {first}):
            break
    return frozenset(simple if budget[0] < 0 else found)


def convoy_route_fleets(m: Map, origin: ProvinceId, dest: ProvinceId) -> frozenset[ProvinceId]:
    """Seas lying on some irredundant convoy route from ``origin`` to ``dest`` on the map."""
    return _route_fleets_cached(m, origin, dest)


_CHECKS: dict[type, Callable[[Position, Any], Order]] = {
    Move: _check_move,
    Support: _check_support,
    Convoy: _check_convoy,
}


class QuickChecks:
    """Per-map tables that settle the usual movement orders by a look-up or two each.

    An order found here is legal exactly as given (the checks above would return it
    unchanged); anything else goes through :func:`check_movement_order`, which says why.
    """

    __slots__ = ("army_moves", "coastal", "fleet_moves", "map", "reach")

    def __init__(self, m: Map) -> None:
        self.map = m
        loc_province = m.loc_province
        # Moves a unit standing at a location makes as written: an army names a province next
        # to its own (never a coast), a fleet an exact location it reaches in another province.
        self.army_moves: list[frozenset[Location]] = [
            frozenset(q for q in m.army_adjacent[loc_province[loc]] if q != loc_province[loc])
            for loc in range(len(loc_province))
        ]
        self.fleet_moves: list[frozenset[Location]] = [
            frozenset(d for d in m.fleet_adjacent[loc] if loc_province[d] != loc_province[loc])
            for loc in range(len(loc_province))
        ]
        # Provinces a unit could move into (supports): by unit type, then location.
        self.reach: dict[UnitType, list[frozenset[ProvinceId]]] = {
            ARMY: [m.army_adjacent[loc_province[loc]] for loc in range(len(loc_province))],
            FLEET: [frozenset(loc_province[d] for d in m.fleet_adjacent[loc])
                    for loc in range(len(loc_province))],
        }
        # The coastal provinces, as the locations an army's move or a convoy names them by
        # (a convoy's ends, and the places an army goes to by sea).
        self.coastal: frozenset[Location] = frozenset(
            p for p in range(len(m.provinces)) if m.is_coastal(p))

    def army_by_sea(self, position: Position, here: ProvinceId, dest: Location) -> bool:
        """Whether an army in ``here``, ordered to ``dest`` (not next door), has that move
        legal as written: both coastal, ``dest`` named without a coast, and a chain of the
        fleets standing at sea between them (what :func:`_check_move` asks, unchanged)."""
        coastal = self.coastal
        return (dest != here and dest in coastal and here in coastal
                and sea_route_exists(self.map, here, dest, fleet_seas(position)))

    def convoy_legal(self, here: ProvinceId, army: Location, dest: Location) -> bool:
        """Whether a fleet in ``here`` may convoy the army in ``army`` to ``dest`` as written:
        both ends coastal provinces named without a coast, and ``here`` on a route between
        them (whose seas are all places a fleet may convoy from: :func:`_check_convoy`)."""
        coastal = self.coastal
        return (army in coastal and dest in coastal
                and here in convoy_route_fleets(self.map, army, dest))


_QUICK: dict[Map, QuickChecks] = {}  # maps hash by identity; a program uses a handful


def quick_checks(m: Map) -> QuickChecks:
    """The :class:`QuickChecks` of map ``m`` (built on first use)."""
    found = _QUICK.get(m)
    if found is None:
        if len(_QUICK) >= 64:
            _QUICK.clear()  # maps made on the fly (tests): keep the table small
        found = _QUICK[m] = QuickChecks(m)
    return found
