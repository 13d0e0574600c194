"""The movement resolver: DATC v3.0 section 5's equations over Kruijswijk's guess algorithm.

Every unit's order is one row of flat per-province tables (:class:`OrderTable`), so the inner
loop works on small integers only. :class:`MovementResolver` turns the DATC decisions (MOVE,
SUPPORT, CONVOY and the strengths) into methods that variants override:

- ``attack_strength``, ``hold_strength``, ``defend_strength``, ``prevent_strength`` and
  ``move_beats``: how strengths are computed and compared (``versus``: how they are shown);
- ``cuts_support``: whether a move cuts a support;
- ``backup_rule``: what settles a paradox;
- ``standoff`` and ``move_failure_reason``: what a resolved phase leaves and says (DP sorties);
- :meth:`calhamer.variants.Variant.unit_orders` (in the phase driver): where orders come from.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, Protocol

from calhamer._build import mypyc_attr
from calhamer.map import FLEET, Map
from calhamer.orders import Convoy, Hold, Move, Order, Support
from calhamer.resolver import GuessResolver
from calhamer.rules import ConvoyIntent, ParadoxRule, Rules

if TYPE_CHECKING:
    from calhamer.position import Position

# The kinds of order a province's unit executes (``OrderTable.kind``). Final: compiled, each
# is a constant in the code rather than a module global looked up at every use.
EMPTY: Final = 0
HOLD: Final = 1
MOVE: Final = 2
SUPPORT: Final = 3
CONVOY: Final = 4
# A fleet's type as the tables hold it (``unit_type``, a list of ints): compared as an int,
# natively when compiled, rather than as the enum member looked up in the module.
_FLEET: Final[int] = int(FLEET)


class Strength(Protocol):
    """A strength as the resolver's methods hand it on: an int, or a variant's own int that
    carries more to compare (Arpiesse's colours). Typed apart from ``int`` so that compiled,
    the resolver passes a variant's strength on to its ``move_beats`` as it is, rather than
    as the plain number it would be rebuilt as."""

    def __int__(self) -> int: ...

    def __gt__(self, other: Any, /) -> bool: ...


class OrderTable:
    """The legal orders of one movement phase as per-province integer tables.

    ``orders`` maps a province to the (already validated) order its unit executes; a unit
    without an entry holds. Supports and convoys that match no order given are demoted to
    holds here, and listed in ``void``.
    """

    def __init__(
        self,
        position: Position,
        orders: dict[int, Order],
        rules: Rules,
        *,
        place_units: bool = True,
    ) -> None:
        m = position.map
        n = len(m.provinces)
        self.position = position  # variants read their units' own fields (colours) from it
        self.map: Map = m
        self.rules = rules
        self.kind = kind = [EMPTY] * n
        self.owner = owner = [-1] * n  # the unit's power, as a number (only ever compared)
        self.unit_type = unit_type = [-1] * n
        self.dest = [-1] * n  # move: target province; support: supported-into; convoy: army dest
        self.src = [-1] * n  # support: supported unit's province; convoy: army's province
        self.exact = [-1] * n  # move: the exact location; support: a coast it insists on
        self.convoyed = [False] * n  # armies that go by sea (moves not next door, convoys meant)
        self.via_convoy: set[int] = set()  # moves whose order itself says "via convoy"
        # Lists of provinces, one per province; one shared empty list stands for "none yet"
        # so that a phase does not build hundreds of empty lists (``_add`` replaces it, never
        # appends to it).
        none: list[int] = []
        self.movers_to: list[list[int]] = [none] * n
        self.move_supports: list[list[int]] = [none] * n
        self.hold_supports: list[list[int]] = [none] * n
        self.convoy_fleets: list[list[int]] = [none] * n
        self.void: dict[int, str] = {}
        # Armies next door whose convoy was disrupted, so they went by land (1971 intent).
        self.by_land: set[int] = set()
        self.movers: list[int] = []
        self.ordered: list[int] = []  # the provinces of all moves, supports and convoys
        self.swaps: list[tuple[int, int]] = []  # pairs of moves into each other's province
        # While the orders are read (:meth:`read_order`), before :meth:`finish`: the supports
        # and convoys to match, and the provinces that more than one unit moves to.
        self.supports: list[int] = []
        self.convoys: list[int] = []
        self.crowded: list[int] = []
        if place_units:
            _place_units(position, m, kind, owner, unit_type)
            if orders:
                self._read_orders(orders)

    def _read_orders(self, orders: dict[int, Order]) -> None:
        self._read_each(sorted(orders), orders)
        self.finish()

    def read_order(self, province: int, order: Order) -> None:
        """Enter the legal order of the unit in ``province`` (placed there already, as a hold).

        The orders may come in any order: :meth:`finish`, once they are all in, puts the
        lists in the order of the provinces, and matches the supports and convoys."""
        self._read_each([province], {province: order})

    def _read_each(self, provinces: list[int], orders: dict[int, Order]) -> None:
        """Enter the orders of ``provinces`` (one loop for a whole phase's orders)."""
        m = self.map
        province_of = m.loc_province
        loc_coast = m.loc_coast
        army_adjacent = m.army_adjacent
        kind, dest, src, exact = self.kind, self.dest, self.src, self.exact
        unit_type, convoyed, via_convoy = self.unit_type, self.convoyed, self.via_convoy
        movers_to, crowded = self.movers_to, self.crowded
        movers, ordered, swaps = self.movers, self.ordered, self.swaps
        convoys, supports = self.convoys, self.supports
        move_cls, support_cls, convoy_cls, hold_cls = Move, Support, Convoy, Hold
        fleet = _FLEET
        # Taken loosely, and named again with the class it is found to be (``move_order:
        # Move``...): compiled, that checks its type once, and its fields are then read
        # natively rather than looked up by name (plain Python pays nothing for it).
        order: Any
        for province in provinces:
            order = orders[province]
            cls = type(order)
            if cls is hold_cls:
                continue
            if cls is not move_cls and cls is not support_cls and cls is not convoy_cls:
                # A variant's own order class: read as the standard type it extends.
                cls = next((t for t in (Move, Support, Convoy) if isinstance(order, t)), Hold)
                if cls is Hold:
                    continue  # a hold in a variant's own dress
            ordered.append(province)
            if cls is move_cls:
                movers.append(province)
                kind[province] = MOVE
                move_order: Move = order
                to = move_order.dest
                q = dest[province] = province_of[to]
                exact[province] = to
                if move_order.via_convoy:
                    via_convoy.add(province)
                entries = movers_to[q]
                if entries:
                    entries.append(province)
                    if len(entries) == 2:
                        crowded.append(q)
                else:
                    movers_to[q] = [province]
                if kind[q] == MOVE and dest[q] == province:
                    # The pair as read in province order (the later one finds the other).
                    swaps.append((q, province) if q < province else (province, q))
                if unit_type[province] != fleet and q not in army_adjacent[province]:
                    convoyed[province] = True  # not next door: by sea or not at all
            elif cls is support_cls:
                supports.append(province)
                kind[province] = SUPPORT
                support_order: Support = order
                src[province] = province_of[support_order.target]
                into = support_order.dest
                if into is not None:
                    dest[province] = province_of[into]
                    if loc_coast[into] is not None:
                        exact[province] = into
            else:
                convoys.append(province)
                kind[province] = CONVOY
                convoy_order: Convoy = order
                src[province] = province_of[convoy_order.army]
                dest[province] = province_of[convoy_order.dest]

    def finish(self) -> None:
        """Once every order is in: the lists put in the order of the provinces (the same
        table whatever order the orders came in), then the convoys and supports matched."""
        ordered = self.ordered
        if ordered:
            ordered.sort()
            self.movers.sort()
            swaps = self.swaps
            if len(swaps) > 1:
                swaps.sort(key=_second)  # as read in province order: by the later province
            movers_to = self.movers_to
            for q in self.crowded:
                movers_to[q].sort()
            convoys = self.convoys
            if convoys or self.via_convoy:
                convoys.sort()
                self._read_convoys(convoys)
            supports = self.supports
            if supports:
                supports.sort()
                self._read_supports(supports)

    def _read_convoys(self, convoys: list[int]) -> None:
        """Match the convoys to the armies' moves, and settle whether each army ordered next
        door goes by sea."""
        kind, dest, src = self.kind, self.dest, self.src
        unit_type, convoyed, convoy_fleets = self.unit_type, self.convoyed, self.convoy_fleets
        for p in convoys:
            a = src[p]
            if kind[a] == MOVE and dest[a] == dest[p] and unit_type[a] != _FLEET:
                _add(convoy_fleets, a, p)
        # Armies ordered next door go by land unless a convoy is meant (each army is judged
        # on its own, so the order they are judged in does not matter).
        for p in {*self.via_convoy, *(src[f] for f in convoys)}:
            if (kind[p] == MOVE and unit_type[p] != _FLEET and not convoyed[p]
                    and (p in self.via_convoy or convoy_fleets[p])):
                convoyed[p] = self._uses_convoy(p)
        for p in convoys:
            if p not in convoy_fleets[src[p]]:
                self._void(p, "no army was ordered to move as this convoy says")
            elif not convoyed[src[p]]:
                self._void(p, "the army moves by land, not by this convoy")

    def _read_supports(self, supports: list[int]) -> None:
        """Demote the supports that match no order given to holds; list the others."""
        kind, dest, src, exact = self.kind, self.dest, self.src, self.exact
        hold_supports, move_supports = self.hold_supports, self.move_supports
        for p in supports:
            target = src[p]
            into = dest[p]
            if kind[target] == EMPTY:
                self._void(p, "there is no unit to support")
            elif into == -1 and kind[target] == MOVE:
                self._void(p, "the supported unit was ordered to move, not to hold")
            elif into != -1 and (kind[target] != MOVE or dest[target] != into):
                self._void(p, "the supported unit was not ordered to make that move")
            elif exact[p] != -1 and exact[p] != exact[target]:
                self._void(p, "the supported fleet moves to the other coast")
            elif into == -1:
                entries = hold_supports[target]
                if entries:
                    entries.append(p)
                else:
                    hold_supports[target] = [p]
            else:
                entries = move_supports[target]
                if entries:
                    entries.append(p)
                else:
                    move_supports[target] = [p]

    def next_door(self, p: int) -> bool:
        """Whether the move of ``p`` is to a province next door (by land, for an army)."""
        return self.unit_type[p] == _FLEET or self.dest[p] in self.map.army_adjacent[p]

    def go_by_land(self, p: int) -> None:
        """Send army ``p`` (ordered next door) by land after all; its convoys stay ordered."""
        self.convoyed[p] = False
        self.by_land.add(p)

    def _void(self, p: int, reason: str) -> None:
        self.kind[p] = HOLD
        self.void[p] = reason

    def _uses_convoy(self, p: int) -> bool:
        """Whether army ``p``, ordered to an adjacent province, goes by sea (DATC 4.A.3, by
        the edition's convoy intent). Moves to provinces not next door always go by sea."""
        intent = self.rules.convoy_intent
        if intent is ConvoyIntent.EXPLICIT:
            return p in self.via_convoy
        if intent is ConvoyIntent.SWAP_1971:
            q = self.dest[p]
            return bool(self.convoy_fleets[p]) and self.kind[q] == MOVE and self.dest[q] == p
        # 1982 and 2000/2023 alike: an own fleet convoying it, or the words "via convoy".
        own = self.owner[p]
        return p in self.via_convoy or any(self.owner[f] == own for f in self.convoy_fleets[p])

    def route_fleets(self, p: int, usable: Iterable[int]) -> bool:
        """Whether the fleets ``usable`` chain army ``p`` from its province to its target."""
        return self.map.sea_route(p, frozenset(usable), self.dest[p])

    def necessary_fleets(self, p: int) -> set[int]:
        """Fleets without which army ``p`` has no convoy route (used by the 2000 paradox rule)."""
        fleets = self.convoy_fleets[p]
        return {f for f in fleets if not self.route_fleets(p, (g for g in fleets if g != f))}

    def fleets_on_routes(self, p: int) -> list[int]:
        """Convoying fleets that lie on some route of army ``p`` (the 1971 any-route rule)."""
        return fleets_on_some_route(self, p, self.convoy_fleets[p])


_POWER_NUMBERS: dict[Map, dict[str, int]] = {}  # by map: its powers' codes, numbered


def power_numbers(m: Map) -> dict[str, int]:
    """The numbers :class:`OrderTable` gives the map's powers (in ``owner``)."""
    numbers = _POWER_NUMBERS.get(m)
    if numbers is None:
        if len(_POWER_NUMBERS) >= 64:
            _POWER_NUMBERS.clear()  # maps made on the fly (tests): keep the table small
        codes = (*m.power_codes, *m.minor_power_codes)
        numbers = _POWER_NUMBERS[m] = {code: i for i, code in enumerate(codes)}
    return numbers


def _place_units(
    position: Position, m: Map, kind: list[int], owner: list[int], unit_type: list[int]
) -> None:
    """Mark every unit's province as held, with its owner's number and the unit's type."""
    numbers = power_numbers(m)
    units = position.units
    try:
        for province, unit in units.items():
            owner[province] = numbers[unit.power]
            kind[province] = HOLD
            unit_type[province] = unit.type
    except KeyError:
        # A power the map does not name: number the powers here instead.
        known: dict[str, int] = {}
        for province, unit in units.items():
            owner[province] = known.setdefault(unit.power, len(known))
            kind[province] = HOLD
            unit_type[province] = unit.type


def _second(pair: tuple[int, int]) -> int:
    return pair[1]


def _add(table: list[list[int]], key: int, value: int) -> None:
    entries = table[key]
    if entries:
        entries.append(value)
    else:
        table[key] = [value]


def fleets_on_some_route(table: OrderTable, p: int, fleets: list[int]) -> list[int]:
    """The fleets among ``fleets`` that connect to both army ``p``'s origin and its target."""
    m = table.map
    pool = frozenset(fleets)
    target = table.dest[p]
    if not m.sea_route(p, pool, target):
        return []  # no route at all
    from_origin = m.seas_reached(p, pool)
    to_target = m.seas_reached(target, pool)
    return [f for f in fleets if f in from_origin and f in to_target]


def resolve_movement(
    table: OrderTable, resolver_class: type[MovementResolver] | None = None
) -> MovementResolver:
    """Resolve every order of ``table`` with a resolver of ``resolver_class``.

    Under the 1971 convoy intent an army ordered next door takes a convoy only as a swap with
    the unit opposite, and only if the convoy is not disrupted (DATC 4.A.3, 6.G.4): an army
    whose convoy turns out disrupted goes by land instead, and the phase is resolved again
    with it on land. An army once sent by land stays there, so this ends after at most one
    more round per such army.
    """
    make = resolver_class or MovementResolver
    resolver = make(table)
    resolver.resolve_all()
    if table.rules.convoy_intent is not ConvoyIntent.SWAP_1971:
        return resolver
    while disrupted := [
        p for p in table.movers
        if resolver.convoyed[p] and table.next_door(p) and not resolver.path(p)
    ]:
        for p in disrupted:
            table.go_by_land(p)
        resolver = make(table)
        resolver.resolve_all()
    return resolver


_STANDARD_STRENGTHS: dict[type, bool] = {}  # by resolver class


@mypyc_attr(allow_interpreted_subclasses=True)  # variants subclass it
class MovementResolver(GuessResolver):
    """Decides every MOVE, SUPPORT and CONVOY of one movement phase.

    ``neutral`` and ``worlds`` serve the Alexander rule IV.5.g: each convoy is judged in a
    world where its own army has no effect. Standard editions leave both empty.
    """

    def __init__(
        self,
        table: OrderTable,
        neutral: frozenset[int] = frozenset(),
        worlds: dict[frozenset[int], MovementResolver] | None = None,
    ) -> None:
        super().__init__(len(table.kind))
        self.table = table
        self.rules = table.rules
        self.neutral = neutral
        alexander = self.rules.paradox is ParadoxRule.ALEXANDER
        # The table's own list, copied where the resolver changes it (the Alexander rule sends
        # some armies by land after all).
        self.convoyed = list(table.convoyed) if alexander else table.convoyed
        self.fixed_path: dict[int, bool] = {}
        # Paths found once every fleet convoying the army was settled (see :meth:`path`).
        self._settled_paths: dict[int, bool] = {}
        self.worlds: dict[frozenset[int], MovementResolver] = worlds if worlds is not None else {}
        if alexander:
            self._prepare_alexander_world(self.worlds)
        cls = type(self)
        standard = _STANDARD_STRENGTHS.get(cls)
        if standard is None:
            standard = _STANDARD_STRENGTHS[cls] = all(
                getattr(cls, name) is getattr(MovementResolver, name)
                for name in ("attack_strength", "hold_strength", "defend_strength",
                             "prevent_strength", "move_beats", "_support_count")
            )
        # Whether decide_move may take the strengths as written out for the standard game.
        self._standard_strengths = standard
        # Head-to-head battles: two moves into each other's province, neither by sea.
        self.opponent = opponent = [-1] * len(table.kind)
        convoyed = self.convoyed
        for p, q in table.swaps:
            if not convoyed[p] and not convoyed[q]:
                opponent[p] = q
                opponent[q] = p

    # -- the Alexander rule ------------------------------------------------------------------

    def _prepare_alexander_world(self, worlds: dict[frozenset[int], MovementResolver]) -> None:
        worlds[self.neutral] = self
        t = self.table
        for p in t.movers:
            if not self.convoyed[p]:
                continue
            if p in self.neutral:
                self.fixed_path[p] = False
                self.settle(p, False)
                continue
            key = self.neutral | {p}
            world = worlds.get(key)
            if world is None:
                world = type(self)(t, key, worlds)  # a variant's resolver judges its worlds too
            stands = world.convoy_route_stands(p)
            if (
                not stands
                and p in t.via_convoy
                and t.next_door(p)
                and self.rules.via_convoy_falls_back_to_land
            ):
                self.convoyed[p] = False  # the army takes the land route after all
            else:
                self.fixed_path[p] = stands

    def convoy_route_stands(self, p: int) -> bool:
        """Whether the fleets convoying army ``p`` that succeed still chain it to its target
        (in an Alexander world, where ``p`` has no effect, this is its convoy's fate)."""
        fleets = self.table.convoy_fleets[p]
        return self.table.route_fleets(p, [f for f in fleets if self.resolve(f)])

    # -- PATH ---------------------------------------------------------------------------------

    def path(self, p: int) -> bool:
        if not self.convoyed[p]:
            return True
        fixed = self.fixed_path.get(p)
        if fixed is not None:
            return fixed
        settled = self._settled_paths.get(p)
        if settled is not None:
            return settled
        if self.rules.convoy_needs_all_routes_cut:
            found = self.convoy_route_stands(p)
        else:
            on_routes = self.table.fleets_on_routes(p)
            found = bool(on_routes) and all(self.resolve(f) for f in on_routes)
        # The path asks only whether the army's convoying fleets succeed: once each of them is
        # settled (no guess of the search any more), so is the path, and it is kept. The later
        # decisions and the results' wording ask it again and again.
        if all(map(self.resolved.__getitem__, self.table.convoy_fleets[p])):
            self._settled_paths[p] = found
        return found

    # -- strengths (DATC 5.B.5 to 5.B.8) ----------------------------------------------------

    def _support_count(self, supporters: list[int], exclude_owner: int = -1) -> int:
        if not supporters:
            return 0
        owner = self.table.owner
        resolved, resolution, resolve = self.resolved, self.resolution, self.resolve
        count = 0
        for s in supporters:
            # A decision already taken is read directly (resolve would only look it up).
            if owner[s] != exclude_owner and (resolution[s] if resolved[s] else resolve(s)):
                count += 1
        return count

    def hold_strength(self, q: int) -> Strength:
        kind = self.table.kind[q]
        if kind == EMPTY:
            return 0
        if kind == MOVE:
            return 0 if self.resolve(q) else 1
        return 1 + self._support_count(self.table.hold_supports[q])

    def attack_strength(self, p: int) -> Strength:
        t = self.table
        if self.convoyed[p] and not self.path(p):
            return 0
        q = t.dest[p]
        if t.kind[q] == EMPTY or (self.opponent[p] == -1 and t.kind[q] == MOVE and self.resolve(q)):
            return 1 + self._support_count(t.move_supports[p])
        if t.owner[q] == t.owner[p]:
            return 0
        return 1 + self._support_count(t.move_supports[p], exclude_owner=t.owner[q])

    def defend_strength(self, p: int) -> Strength:
        return 1 + self._support_count(self.table.move_supports[p])

    def prevent_strength(self, p: int) -> Strength:
        if self.convoyed[p] and not self.path(p):
            return 0
        opp = self.opponent[p]
        if opp != -1 and self.resolve(opp):
            return 0
        if not self.rules.dislodged_unit_bounces_without_head_to_head:
            t = self.table
            if any(t.dest[p] == m and self.resolve(m) for m in t.movers_to[p]):
                return 0
        return 1 + self._support_count(self.table.move_supports[p])

    def move_beats(self, attack: Any, opposing: Any) -> bool:  # two strengths
        return attack > opposing

    def versus(self, attack: Any, opposing: Any) -> str:  # two strengths
        """How a result's reason shows two strengths compared (``2v1``)."""
        return f"{attack}v{opposing}"

    # -- after resolution ----------------------------------------------------------------------

    def standoff(self, q: int) -> bool:
        """Whether the moves into ``q`` leave a standoff there, closing it to retreats (if it
        ends up empty). Standard: two or more units with a route tried to get there."""
        count = 0
        for p in self.table.movers_to[q]:
            if self.path(p):
                count += 1
        return count >= 2

    def move_failure_reason(self, p: int) -> str:
        """The reason shown for a failed move that no strength comparison explains."""
        return "fails (a paradox was resolved against it)"

    # -- decisions (DATC 5.B.1 to 5.B.3) ----------------------------------------------------

    def decide(self, p: int) -> bool:
        """The decision of province ``p``'s order: moves, supports given, convoys kept."""
        kind = self.table.kind[p]
        if kind == MOVE:
            return self.decide_move(p)
        if kind == SUPPORT:
            return self.decide_support(p)
        if kind == CONVOY:
            return self.decide_convoy(p)
        return True

    def decide_move(self, p: int) -> bool:
        if p in self.neutral:
            return False
        if self._standard_strengths:
            return self._decide_standard_move(p)
        t = self.table
        attack = self.attack_strength(p)
        if attack == 0:
            return False
        q = t.dest[p]
        opp = self.opponent[p]
        defence = self.defend_strength(opp) if opp != -1 else self.hold_strength(q)
        if not self.move_beats(attack, defence):
            return False
        for r in t.movers_to[q]:
            if r != p and not self.move_beats(attack, self.prevent_strength(r)):
                return False
        return True

    def _settle_known(self) -> list[int]:
        """Settle, before the search, the decisions whose answer no other decision can
        change; return the others, in the table's order.

        Each is settled to what :meth:`decide` answers, whatever the other decisions are: a
        move over land into an empty place nobody else goes to (it succeeds: 1 or more against
        nothing), or that others go to too, none of them supported or by sea (they all fail:
        1 against 1); an unsupported move against a unit that stays or comes the other way,
        or a move against one's own unit (it fails: 1 or 0 against at least 1); a support cut
        by a move over land, of another power and not from where it supports into; a support
        or a convoy nobody moves against. Then, from those: a move into a place whose unit
        moves away, once that move is settled (alone there after a unit that left, it
        succeeds; against one that stayed, unsupported or its own power's, it fails); a support
        not cut, once every move against it is settled (given unless one dislodges it). The
        search that follows finds them settled, and takes the rest in the same order
        (``tests/test_resolver_shortcuts.py`` holds this to the long way).
        """
        t = self.table
        kind, movers_to = t.kind, t.movers_to
        left: list[int] = []  # decisions for the search, in the table's order
        for p in t.ordered:
            k = kind[p]
            value: bool | None
            if k == MOVE:
                value = self._move_known(p)
            elif k == SUPPORT:
                value = self._support_known(p)
            elif k == CONVOY:
                value = None if movers_to[p] else True  # given, if nobody moves against it
            else:
                continue  # a support or convoy made void: it holds
            if value is None:
                left.append(p)
            else:
                self.resolution[p] = value
                self.resolved[p] = True
        return self._settle_waiting(left)

    def _move_known(self, p: int) -> bool | None:
        """What the move from ``p`` comes to whatever the other decisions are, or None."""
        t = self.table
        if self.convoyed[p]:
            return None  # its path asks for the convoys
        q = t.dest[p]
        kq = t.kind[q]
        if kq == EMPTY:
            movers = t.movers_to[q]
            if len(movers) == 1:
                return True  # attack 1 or more against nothing and nobody
            # Attack and prevent strengths of 1 each, unless one is supported or goes by sea
            # (nobody is there to come the other way): then strengths to compare.
            for r in movers:
                if t.move_supports[r] or self.convoyed[r]:
                    return None
            return False  # a standoff
        if kq != MOVE or self.opponent[p] != -1:
            # A unit that stays, or comes the other way (its own move is not asked).
            if t.move_supports[p] and t.owner[q] != t.owner[p]:
                return None
            return False  # attack 0 (own unit) or 1, against a hold or defence of 1+
        return None  # asks whether the unit in its target leaves

    def _support_known(self, p: int) -> bool | None:
        """False if the support from ``p`` is cut whatever the other decisions are; True if
        nobody moves against it; else None (not cut: given unless dislodged, asking the
        moves). As decide_support: the first move that may cut it decides, if it comes over
        land (a convoyed army's path, and the paradox rules, ask for more)."""
        t = self.table
        movers = t.movers_to[p]
        if not movers:
            return True
        for m in movers:
            if self.convoyed[m]:
                return None
            if t.owner[m] != t.owner[p] and m != t.dest[p]:
                return False  # cut
        return None

    def _settle_waiting(self, left: list[int]) -> list[int]:
        """Settle the decisions of ``left`` that wait on ones settled now, round after round
        until no more can be; return the rest."""
        while left:
            rest: list[int] = []
            for p in left:
                k = self.table.kind[p]
                value: bool | None = None
                if k == MOVE:
                    value = self._move_known_after(p)
                elif k == SUPPORT:
                    value = self._support_known_after(p)
                if value is None:
                    rest.append(p)
                else:
                    self.resolution[p] = value
                    self.resolved[p] = True
            if len(rest) == len(left):
                break
            left = rest
        return left

    def _move_known_after(self, p: int) -> bool | None:
        """The move from ``p`` into a place whose unit moves away, once that move is settled:
        alone there after a unit that left, it succeeds; against one that stayed, unsupported
        or its own power's, it fails."""
        t = self.table
        q = t.dest[p]
        if self.convoyed[p] or not self.resolved[q] or t.kind[q] != MOVE or self.opponent[p] != -1:
            return None
        if self.resolution[q]:
            if len(t.movers_to[q]) > 1:
                return None  # prevent strengths to compare
            return True  # against a hold strength of 0, alone
        if t.move_supports[p] and t.owner[q] != t.owner[p]:
            return None
        return False  # attack 0 or 1 against a hold strength of 1

    def _support_known_after(self, p: int) -> bool | None:
        """A support not cut (left by :meth:`_support_known`, so no move against it went by
        sea), once every move against it is settled: given unless one dislodges it."""
        value = True
        for m in self.table.movers_to[p]:
            if self.convoyed[m] or not self.resolved[m]:
                return None
            if self.resolution[m]:
                value = False  # dislodged (by a move it was not cut by)
        return value

    def _decide_standard_move(self, p: int) -> bool:
        """:meth:`decide_move` with the standard strengths written out: the strengths are
        taken, and other decisions asked for, exactly as the methods would (in the same
        order, so a cycle is met the same way); only the calls are saved."""
        t = self.table
        kind, dest, owner, movers_to = t.kind, t.dest, t.owner, t.movers_to
        move_supports = t.move_supports
        resolve, resolved, resolution = self.resolve, self.resolved, self.resolution
        convoyed, opponent = self.convoyed, self.opponent
        count = self._support_count
        # attack_strength
        if convoyed[p] and not self.path(p):
            return False
        q = dest[p]
        opp = opponent[p]
        kq = kind[q]
        if kq == EMPTY or (opp == -1 and kq == MOVE and (
                resolution[q] if resolved[q] else resolve(q))):
            supporters = move_supports[p]
            attack = 1 + count(supporters) if supporters else 1
        elif owner[q] == owner[p]:
            return False
        else:
            supporters = move_supports[p]
            attack = 1 + count(supporters, owner[q]) if supporters else 1
        # defend_strength of the unit coming the other way, or hold_strength of the target
        if opp != -1:
            supporters = move_supports[opp]
            if attack <= (1 + count(supporters) if supporters else 1):
                return False
        elif kq == MOVE:
            if attack <= (0 if (resolution[q] if resolved[q] else resolve(q)) else 1):
                return False
        elif kq != EMPTY:
            supporters = t.hold_supports[q]
            if attack <= (1 + count(supporters) if supporters else 1):
                return False
        # prevent_strength of every other unit moving there
        for r in movers_to[q]:
            if r == p:
                continue
            if convoyed[r] and not self.path(r):
                continue  # prevents nothing
            ropp = opponent[r]
            if ropp != -1 and resolve(ropp):
                continue
            if not self.rules.dislodged_unit_bounces_without_head_to_head and any(
                dest[r] == m and resolve(m) for m in movers_to[r]
            ):
                continue
            supporters = move_supports[r]
            if attack <= (1 + count(supporters) if supporters else 1):
                return False
        return True

    def decide_support(self, s: int) -> bool:
        t = self.table
        movers = t.movers_to[s]
        if not movers:
            return True
        for m in movers:
            if self.cuts_support(m, s):
                return False
        # A dislodged supporter gives no support, even when dislodged from the province it
        # supports into; the rulebooks' paradox rules take precedence (DATC 6.F.17).
        return not any(
            self.resolve(m) for m in t.movers_to[s] if not self._spared_by_paradox_rule(m, s)
        )

    def _spared_by_paradox_rule(self, m: int, s: int) -> bool:
        return self.convoyed[m] and self._convoy_paradox_exception(m, s)

    def cuts_support(self, m: int, s: int) -> bool:
        """Whether the move ``m`` into the supporter's province cuts the support ``s``."""
        t = self.table
        if t.owner[m] == t.owner[s] or m == t.dest[s] or m in self.neutral:
            return False
        if not self.path(m):
            return False
        return not self._spared_by_paradox_rule(m, s)

    def _convoy_paradox_exception(self, m: int, s: int) -> bool:
        """The rulebooks' own paradox rules: a convoyed army spares some supports."""
        rule = self.rules.paradox
        t = self.table
        into = t.dest[s]
        fleets = t.convoy_fleets[m]
        if rule is ParadoxRule.RULE_1971:
            return into in fleets and t.unit_type[t.src[s]] == _FLEET
        if rule is ParadoxRule.RULE_2000:
            return into != -1 and into in t.necessary_fleets(m)
        if rule is ParadoxRule.RULE_1982:
            # Any convoying fleet in the sea where the supported action happens (DATC 6.F.21).
            acted_in = t.src[s] if into == -1 else into
            return t.kind[acted_in] == CONVOY and self.map_is_sea(acted_in)
        return False

    def map_is_sea(self, province: int) -> bool:
        """Whether a fleet in ``province`` convoys from a sea (or a coast whose fleets may
        convoy, which is a sea for convoying)."""
        return self.table.map.can_convoy(province)

    def decide_convoy(self, f: int) -> bool:
        # DATC 5.D: ask the attackers' conditions directly rather than through resolve, so
        # that a convoy paradox always forms one clean cycle (convoy and the support it cuts).
        return not any(self.decide_move(m) for m in self.table.movers_to[f])

    def backup_rule(self, cycle: list[int]) -> None:
        kind = self.table.kind
        convoys = [n for n in cycle if kind[n] == CONVOY]
        if convoys:
            for n in convoys:  # Szykman: the convoying fleets in the paradox hold
                self.settle(n, False)
        elif all(kind[n] == MOVE for n in cycle):
            for n in cycle:  # circular movement: everyone moves
                self.settle(n, True)
        else:
            for n in cycle:  # a variant's paradox: every order in it fails (DATC 5.B.9)
                self.settle(n, False)

    def resolve_all(self) -> None:
        if type(self) is MovementResolver and not self.neutral:
            left = self._settle_known()  # the standard rules, as written here
        else:
            kind = self.table.kind
            # Supports and convoys found void were demoted to holds.
            left = [p for p in self.table.ordered if kind[p] != HOLD]
        resolve, resolved = self.resolve, self.resolved
        for p in left:
            if not resolved[p]:  # decisions taken on the way to others need no call
                resolve(p)


__all__ = [
    "CONVOY",
    "EMPTY",
    "HOLD",
    "MOVE",
    "SUPPORT",
    "MovementResolver",
    "OrderTable",
    "resolve_movement",
]
