"""The movement phase: orders checked, resolved by the variant's resolver, and the board after."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from calhamer.adjudicator import (
    EMPTY,
    HOLD,
    MOVE,
    SUPPORT,
    MovementResolver,
    OrderTable,
    power_numbers,
    resolve_movement,
)
from calhamer.errors import OrderError
from calhamer.map import ARMY, ProvinceId
from calhamer.notation import Notation, canonical_movement_order, canonical_texts_read
from calhamer.orders import AnyOrder, Convoy, Hold, Move, Order, Support
from calhamer.pieces import Dislodged, Unit, phase_of
from calhamer.results import INVALID, SUCCEEDS, OrderResult, PhaseOutcome, Resolution
from calhamer.rules import Rules
from calhamer.validation import Illegal, check_movement_order, quick_checks
from calhamer.views import carry_forward

if TYPE_CHECKING:
    from calhamer.position import Position

from calhamer.phases.explain import Explainer
from calhamer.phases.flow import advance, editable
from calhamer.phases.intake import Intake, OrdersIn, keeps_standard, moved_unit


def checked_movement_order(intake: Intake, result: OrderResult, order: AnyOrder) -> Order | None:
    """The order as the resolver will see it, or None (and the result marked invalid)."""
    if not isinstance(order, Order):
        intake.illegal(result, "only hold, move, support and convoy orders are given now")
        return None
    try:
        checked = intake.check(intake.position, result.power, order)
    except Illegal as exc:
        intake.illegal(result, str(exc))
        return None
    result.order = checked
    return checked


_NOT_MOVEMENT = "only hold, move, support and convoy orders are given now"
_CLASH = "the unit was given more than one order, so it holds"
_NOT_PLAYERS = "this unit's order is not given by players"


# Where an order came from, for writing its texts when the results are read.
_GIVEN_AS_ORDER: Final = 0
_READ_EXACTLY: Final = 1
_READ: Final = 2

# Compiled, a Final name is read from a static slot rather than looked up in the module.
_ARMY: Final = ARMY


class MovementReading:
    """The orders of one movement phase, read and checked in one pass.

    Each order given is kept as an entry, ``[power, text, given, order, reason, source]``:
    the text as written ("" for an order value), the order given or read (None if unreadable),
    the order as it stands (checked, when legal), the reason it is invalid (None while it
    stands), and where it came from. :class:`OrderResult` values are only made from the
    entries when the results are read (:meth:`results`): a bot that wants the next position
    never pays for them.

    ``legal`` maps a province to the legal order its unit executes; ``ordered`` holds, by
    province, the first entry of each unit given some legal order (None for the others;
    ``more`` any others).

    Given the rules, the reading also fills the phase's :class:`OrderTable` as it takes each
    legal order (:meth:`order_table` hands it over), rather than having the table read every
    order again: the usual orders are entered here, from what their quick checks looked up,
    any other by :meth:`OrderTable.read_order`. A unit given clashing orders, orders replaced
    (a variant's :meth:`~calhamer.variant.Variant.unit_orders`), or a power the map does not
    number leave the table to be built from ``legal`` instead, as before.
    """

    def __init__(self, position: Position, rules: Rules | None = None) -> None:
        self.position = position
        self.variant = variant = position.variant
        self.map = position.map
        self.entries: list[list[Any]] = []
        self.powers: dict[str, None] = {}  # the powers that gave orders, in order (a set)
        self.legal: dict[int, Order] = {}
        # By province (a list, not a dict: it is written for every order, and compiled, a
        # list's item is set natively where a dict's costs a hashed store).
        self.ordered: list[list[Any] | None] = [None] * len(self.map.provinces)
        self.more: dict[int, list[list[Any]]] = {}
        self.clashes: set[int] = set()
        self.check = variant.check_movement_order  # looked up once: it runs per order
        # The standard checks settle the usual orders by table look-ups, here.
        self.quick = quick_checks(self.map) if self.check is check_movement_order else None
        notation = type(variant.notation)
        self.canonical_reader = (
            notation.parse_order is Notation.parse_order
            and notation.format_order is Notation.format_order
        )
        # The table being filled (None when it is to be built from ``legal``), its units
        # placed as their orders are taken.
        self.table: OrderTable | None = None
        if rules is not None:
            self.table = OrderTable(position, {}, rules, place_units=False)
        self.numbers = power_numbers(self.map)

    def add(self, raw_power: str, items: Any, replace: bool = False) -> None:
        """Read and check ``items``, orders of ``raw_power``. ``replace``: they are orders
        for units no player commands, replacing any given for the same unit."""
        self.add_all({raw_power: items}, replace)

    def add_all(self, orders: OrdersIn, replace: bool = False) -> None:
        """Read and check ``orders``, by power (as :meth:`add` does for each power)."""
        position, m = self.position, self.map
        power_codes, powers = m._power_codes, self.powers
        # (``entries.append(...)`` itself: a bound method kept in a local is called the slow
        # way, where the call written out is one the interpreter does in place.)
        entries, legal, ordered = self.entries, self.legal, self.ordered
        check, quick = self.check, self.quick
        loc_province = m.loc_province
        # Looked up in a dict of its own: a read-only view's look-ups cost twice as much
        # (and compiled, a dict typed as one is looked up natively).
        units: dict[int, Unit] = editable(position.units)
        if quick is not None:
            army_moves, fleet_moves = quick.army_moves, quick.fleet_moves
            reach = quick.reach
            army_adjacent, loc_coast = m.army_adjacent, m.loc_coast
        table = self.table
        numbers = self.numbers
        number = -1
        if table is not None:
            t_kind, t_owner, t_type = table.kind, table.owner, table.unit_type
            t_dest, t_src, t_exact = table.dest, table.src, table.exact
            t_ordered, t_movers, t_supports = table.ordered, table.movers, table.supports
            movers_to, crowded, swaps = table.movers_to, table.crowded, table.swaps
        hold, move, support, convoy = Hold, Move, Support, Convoy
        order_type = Order
        # The canonical reader's memo of this map (texts in calhamer's own form already read).
        memo = canonical_texts_read(m) if self.canonical_reader else None
        # Typed loosely: the standard classes are told apart by ``type(...) is`` below.
        order: Any
        checked: Any
        for raw_power, items in orders.items():
            power = raw_power if raw_power in power_codes else (
                m.find_power(raw_power) or raw_power.upper())
            powers[power] = None
            if table is not None:
                number = numbers.get(power, -1)
                if number == -1:
                    table = self.table = None  # a power the map does not number
            for order in items:
                cls = type(order)
                # (Four identity tests: compiled, cheaper than a look-up in a set of classes,
                # and no dearer in plain Python; the usual orders first.)
                if cls is hold or cls is move or cls is support or cls is convoy:
                    entry = [power, "", order, order, None, _GIVEN_AS_ORDER]
                    entries.append(entry)
                elif (cls is str and memo is not None
                      and (read := memo.get(order)) is not None):
                    # Canonical text read before on this map (a game repeats its orders): the
                    # memo's look-up, done here rather than through _read (as _read does it).
                    entry = [power, order, read, read, None,
                             _READ if order.endswith(" VIA") else _READ_EXACTLY]
                    entries.append(entry)
                    order = read
                    cls = type(order)
                elif cls is str or isinstance(order, str):
                    entry = self._read(power, order)
                    entries.append(entry)
                    order = entry[2]
                    if order is None:
                        continue  # unreadable: invalid already
                    cls = type(order)
                    if not isinstance(order, order_type):
                        entry[4] = _NOT_MOVEMENT
                        continue
                else:
                    entry = [power, "", order, order, None, _GIVEN_AS_ORDER]
                    entries.append(entry)
                    if not isinstance(order, order_type):
                        entry[4] = _NOT_MOVEMENT
                        continue
                checked = None
                taken = EMPTY  # the kind of an order the quick checks took as given
                if quick is not None:
                    # The usual orders, legal exactly as given, settled by look-ups (any other
                    # goes to the full check below, which also says why an order is illegal).
                    # Every path above leaves an Order here (named as one: compiled, its
                    # fields are then read natively).
                    given_order: Order = order
                    loc = given_order.loc
                    here = loc_province[loc]
                    unit = units.get(here)
                    if (
                        unit is not None and unit.power == power
                        and given_order.unit_type is unit.type and loc == unit.loc
                    ):
                        if cls is hold:
                            checked = order
                            taken = HOLD
                        elif cls is move:
                            # Named with its class, so that compiled, its fields are read
                            # natively (plain Python pays nothing for it).
                            move_order: Move = order
                            to = move_order.dest
                            if unit.type is _ARMY:
                                if to in army_moves[loc]:
                                    checked = order
                                    taken = MOVE
                            elif not move_order.via_convoy and to in fleet_moves[loc]:
                                checked = order
                                taken = MOVE
                        elif cls is support:
                            support_order: Support = order
                            named = support_order.target
                            target = loc_province[named]
                            into_loc = support_order.dest
                            into = target if into_loc is None else loc_province[into_loc]
                            supported = units.get(target)
                            if (
                                target != here and into != here and into in reach[unit.type][loc]
                                and (supported is None or supported.loc == named)
                                and (into_loc is None or (
                                    (into_loc == into or loc_coast[into_loc] is not None)
                                    # DATC 6.D.31 is for the full check to judge
                                    and (supported is None or supported.type is not _ARMY
                                         or into in army_adjacent[target])))
                            ):
                                checked = order
                                taken = SUPPORT
                if checked is None:
                    try:
                        checked = check(position, power, order)
                    except Illegal as exc:
                        entry[4] = str(exc)
                        continue
                    entry[3] = checked
                    province = loc_province[checked.loc]
                else:
                    province = here  # legal as given: the entry holds it already
                if replace and ordered[province] is not None:
                    # An order given is replaced: the table is built from ``legal``.
                    self._replace(province, entry, checked)
                    table = self.table = None
                elif province not in legal:
                    # (Replacing nothing, an order of a unit no player commands is taken as
                    # any other.)
                    legal[province] = checked
                    ordered[province] = entry
                    if table is None:
                        continue
                    if taken == EMPTY:
                        if not self._enter(table, province, checked, units):
                            table = self.table = None
                        continue
                    # Entered here as OrderTable.read_order enters it, from what the quick
                    # checks found (an army moves next door by land, a fleet never by sea).
                    assert unit is not None  # (the quick checks found it)
                    t_owner[here] = number
                    t_type[here] = unit.type
                    if taken == HOLD:
                        t_kind[here] = HOLD
                    elif taken == MOVE:
                        t_kind[here] = MOVE
                        t_ordered.append(here)
                        t_movers.append(here)
                        q = t_dest[here] = loc_province[to]
                        t_exact[here] = to
                        if move_order.via_convoy:
                            table.via_convoy.add(here)
                        going = movers_to[q]
                        if going:
                            going.append(here)
                            if len(going) == 2:
                                crowded.append(q)
                        else:
                            movers_to[q] = [here]
                        if t_kind[q] == MOVE and t_dest[q] == here:
                            swaps.append((q, here) if q < here else (here, q))
                    else:
                        t_kind[here] = SUPPORT
                        t_ordered.append(here)
                        t_supports.append(here)
                        t_src[here] = target
                        if into_loc is not None:
                            t_dest[here] = into
                            if loc_coast[into_loc] is not None:
                                t_exact[here] = into_loc
                else:
                    self.more.setdefault(province, []).append(entry)
                    if legal[province] != checked:
                        self.clashes.add(province)
                        table = self.table = None  # the unit holds: built from ``legal``

    def _enter(
        self, table: OrderTable, province: int, checked: Order, units: dict[int, Unit]
    ) -> bool:
        """Enter in ``table`` an order the full check took (False: the table cannot take it,
        and is to be built from ``legal``)."""
        unit = units.get(province)
        number = -1 if unit is None else self.numbers.get(unit.power, -1)
        if unit is None or number == -1:
            return False
        table.owner[province] = number
        table.unit_type[province] = unit.type
        table.kind[province] = HOLD
        table.read_order(province, checked)
        return True

    def order_table(self, rules: Rules) -> OrderTable:
        """The phase's :class:`OrderTable` of ``legal``: the one filled as the orders were
        read, or one built from ``legal`` (the same table either way)."""
        table, self.table = self.table, None  # handed over once
        if table is not None and table.rules is rules:
            units = self.position.units
            if len(self.legal) == len(units) or self._place_rest(table, units):
                table.finish()
                return table
        return OrderTable(self.position, self.legal, rules)

    def _place_rest(self, table: OrderTable, units: Mapping[int, Unit]) -> bool:
        """Place the units given no legal order, as holds (False: a power the map does not
        number, for which the table numbers the powers its own way)."""
        kind, owner, unit_type, numbers = table.kind, table.owner, table.unit_type, self.numbers
        for province, unit in units.items():
            if kind[province] == EMPTY:
                number = numbers.get(unit.power, -1)
                if number == -1:
                    return False
                owner[province] = number
                unit_type[province] = unit.type
                kind[province] = HOLD
        return True

    def _read(self, power: str, text: str) -> list[Any]:
        """The entry of an order given as text (``given`` None if it cannot be read)."""
        m = self.map
        if self.canonical_reader:
            # Text in calhamer's own form (what bots and the web judge send) is read by exact
            # look-ups; while the order stands as read, its canonical text is the text itself
            # (but for "VIA", written out as "VIA CONVOY").
            exact = canonical_movement_order(m, text)
            if exact is not None:
                source = _READ if text.endswith(" VIA") else _READ_EXACTLY
                return [power, text, exact, exact, None, source]
        position = self.position
        try:
            parsed = self.variant.notation.parse_order(
                m, text, phase_kind=position.phase.kind, position=position, power=power)
        except OrderError as exc:
            return [power, text, None, None, str(exc), _READ]
        if parsed.power is not None and parsed.power != power:
            return [power, text, None, None, f"{power} cannot order for {parsed.power}", _READ]
        return [power, text, parsed.order, parsed.order, None, _READ]

    def _replace(self, province: int, entry: list[Any], checked: Order) -> None:
        for prior in self._entries_of(province):
            if prior[4] is None:
                prior[4] = _NOT_PLAYERS
        self.more.pop(province, None)
        self.legal[province] = checked
        self.ordered[province] = entry

    def _entries_of(self, province: int) -> list[list[Any]]:
        first = self.ordered[province]
        if first is None:
            return []
        return [first, *self.more.get(province, [])]

    def settle_clashes(self) -> None:
        """DATC 4.D.3: a unit given different orders holds (and may be supported to hold)."""
        for province in self.clashes:
            del self.legal[province]
            for entry in self._entries_of(province):
                entry[4] = _CLASH
        self.clashes = set()

    def results(self, explain: Explainer) -> dict[str, list[OrderResult]]:
        """Every order's result, worded now: the entries' in the order given, then a hold for
        each unit given no legal order."""
        position = self.position
        write = self.variant.notation.format_order
        loc_province = self.map.loc_province
        results: dict[str, list[OrderResult]] = {power: [] for power in self.powers}
        # The usual outcomes (a move made, a hold kept, a support given, none of them
        # dislodged or void) are worded here as the explainer words them; the rest it words.
        table = explain.t
        kind, void, success = table.kind, table.void, explain.r.resolution
        dislodged_at = explain.dislodged_at
        succeeds, invalid, result_of = SUCCEEDS, INVALID, explain.result
        move, hold, support = MOVE, HOLD, SUPPORT
        given_as_order, read_exactly = _GIVEN_AS_ORDER, _READ_EXACTLY
        order_result = OrderResult
        for power, text, given, order, reason, source in self.entries:
            if reason is None:
                p = loc_province[order.loc]
                k = kind[p]
                if k == move:
                    if success[p] and p not in dislodged_at:
                        verdict, reason = succeeds, "moves"
                    else:
                        verdict, reason = result_of(p)
                elif k == hold:
                    if p not in dislodged_at and p not in void:
                        verdict, reason = succeeds, "holds"
                    else:
                        verdict, reason = result_of(p)
                elif k == support and success[p]:
                    verdict, reason = succeeds, "support given"
                else:
                    verdict, reason = result_of(p)
            else:
                verdict = invalid
            if source == read_exactly and order is given:
                canonical = text
            elif source == given_as_order:
                text = write(position, given)
                canonical = text if order is given else write(position, order)
            else:
                canonical = "" if order is None else write(position, order)
            results[power].append(order_result(power, text, canonical, verdict, reason, order))
        ordered = self.ordered
        units = position.units
        if units.keys() <= self.legal.keys():
            # Every unit has a legal order, so was given one (one set comparison, in C).
            return results
        for province, unit in units.items():
            if ordered[province] is None:
                verdict, reason = explain.result(province)
                canonical = write(position, Hold(unit.type, unit.loc))
                results.setdefault(unit.power, []).append(OrderResult(
                    unit.power, "", canonical, verdict, f"{reason} (no valid order given)"))
        return results


def adjudicate_movement(
    position: Position,
    orders: OrdersIn,
    rules: Rules,
    *,
    resolver_class: type[MovementResolver] = MovementResolver,
) -> PhaseOutcome:
    reading = MovementReading(position, rules)
    reading.add_all(orders)
    if reading.clashes:
        reading.settle_clashes()
    # Units no player commands (a DP variant's neutrals): the variant says where their orders
    # come from, and those orders replace any given for the same unit. (The standard game's
    # hook gives none: not asked.)
    variant = reading.variant
    if not keeps_standard(variant, "unit_orders"):
        for power, items in variant.unit_orders(position, reading.legal, rules).items():
            reading.add(power, items, replace=True)
    legal = reading.legal
    table = reading.order_table(rules)
    resolver = resolve_movement(table, resolver_class)
    return _movement_outcome(position, reading, table, resolver, legal, rules)


def _movement_outcome(
    position: Position,
    reading: MovementReading,
    table: OrderTable,
    resolver: MovementResolver,
    legal: dict[int, Order],
    rules: Rules,
) -> PhaseOutcome:
    m = position.map
    kind, dest, exact = table.kind, table.dest, table.exact
    success = resolver.resolution
    moved: dict[int, int] = {}  # province -> the location it moved to (the outcome's own)
    dislodger: dict[int, int] = {}  # province -> the province its attacker came from
    targets: set[int] = set()
    for p in table.movers:
        if kind[p] == MOVE:
            q = dest[p]
            targets.add(q)
            if success[p]:
                moved[p] = exact[p]
                dislodger[q] = p
    dislodged_at = {
        q: a for q, a in dislodger.items() if kind[q] != EMPTY and q not in moved
    }

    def word_results() -> dict[str, list[OrderResult]]:
        return reading.results(Explainer(position, table, resolver, dislodged_at))

    new_units: dict[ProvinceId, Unit]
    dislodged: list[Dislodged] = []
    destroyed: list[int] = []
    units = position.units
    if moved or dislodged_at:
        # Rebuilt in the order the units stood in, a moved unit where it stood, the units
        # dislodged left out (to retreat, or destroyed). Unit by unit: copying the table as
        # lists and changing the few places that change costs more.
        new_units = {}
        loc_province = m.loc_province
        for province, unit in units.items():
            if province in moved:
                new_loc = moved[province]
                new_units[loc_province[new_loc]] = moved_unit(unit, new_loc)
            elif province not in dislodged_at:
                new_units[province] = unit
            elif not reading.variant.may_retreat(position, unit):
                destroyed.append(province)  # a unit that cannot retreat is destroyed at once
            else:
                attacker = dislodged_at[province]
                blocked: int | None = attacker
                if resolver.convoyed[attacker] and rules.retreat_to_convoying_attacker_origin:
                    blocked = None  # DATC 4.A.5: the army never crossed that border
                dislodged.append(Dislodged(unit, blocked))
    else:
        new_units = editable(units)
    # Places left empty by a standoff: moved to, and neither reached nor held. The standard
    # rule needs two moves there, so a place only one unit tried is asked about only under a
    # variant's own rule.
    contested: frozenset[int] = frozenset()
    if targets:
        left = targets.difference(dislodger, new_units)
        if left:
            standoff = resolver.standoff
            ask_all = type(resolver).standoff is not MovementResolver.standoff
            movers_to = table.movers_to
            contested = frozenset(
                q for q in left if (ask_all or len(movers_to[q]) > 1) and standoff(q))
    phase = position.phase
    retreating = tuple(dislodged)  # one tuple, for the board after and the outcome
    if retreating:
        phase = phase_of(phase.year, phase.season, "R")
    state = reading.variant.state  # the variant fields that outlive the phase (not DP bids)
    after = position.replace(
        phase=phase, units=MappingProxyType(new_units), dislodged=retreating,
        contested=contested,
        extra=position.extra if state is None else state.lasting(position.extra),
    )
    nxt = after if retreating else advance(after, rules, new_units)  # the table behind after.units
    resolution = Resolution(resolver, legal)
    after, nxt = carry_forward(position, resolution, after, nxt)
    return PhaseOutcome(
        position, word_results, after, nxt, retreating, moved, destroyed, resolution,
    )
