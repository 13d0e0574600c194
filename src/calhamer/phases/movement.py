"""The movement phase: orders checked, resolved by the variant's resolver, and the board after."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, cast

from calhamer.adjudicator import (
    EMPTY,
    HOLD,
    MOVE,
    SUPPORT,
    MovementResolver,
    OrderTable,
    resolve_movement,
)
from calhamer.errors import OrderError
from calhamer.map import ARMY, FLEET, ProvinceId
from calhamer.notation import Notation, canonical_movement_order, canonical_texts_read
from calhamer.orders import AnyOrder, Convoy, Hold, Move, Order, Support
from calhamer.pieces import Dislodged, Unit, phase_of
from calhamer.results import INVALID, SUCCEEDS, OrderResult, PhaseOutcome, Resolution, Result
from calhamer.rules import Rules
from calhamer.validation import Illegal, QuickChecks, check_movement_order, quick_checks
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


class Entry:
    """One order as given, and what became of it.

    ``text`` is the order as written ("" for an order value); ``given`` the order given or
    read (None if unreadable); ``order`` the order as it stands (checked, when legal);
    ``reason`` why it is invalid (None while it stands); ``source`` where it came from
    (:data:`_GIVEN_AS_ORDER`, :data:`_READ_EXACTLY` or :data:`_READ`), for writing its texts
    when the results are read.
    """

    __slots__ = ("given", "order", "power", "reason", "source", "text")

    def __init__(
        self, power: str, text: str, given: AnyOrder | None, order: AnyOrder | None,
        reason: str | None, source: int,
    ) -> None:
        self.power = power
        self.text = text
        self.given = given
        self.order = order
        self.reason = reason
        self.source = source

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (
            self.power, self.text, self.given, self.order, self.reason, self.source
        ) == (other.power, other.text, other.given, other.order, other.reason, other.source)

    def __repr__(self) -> str:
        return (f"Entry({self.power!r}, {self.text!r}, {self.given!r}, {self.order!r}, "
                f"{self.reason!r}, {self.source})")


class MovementReading:
    """The orders of one movement phase, read and checked in one pass.

    Each order given is kept as an :class:`Entry`. :class:`OrderResult` values are only made
    from the entries when the results are read (:meth:`results`): a bot that wants the next
    position never pays for them.

    ``legal`` maps a province to the legal order its unit executes; ``ordered`` holds, by
    province, the first entry of each unit given some legal order (None for the others;
    ``more`` any others).

    The phase's :class:`OrderTable` is built from ``legal`` in one pass once every order is
    in (:meth:`order_table`): one loop over the legal orders costs less than entering each
    as it is taken.
    """

    def __init__(self, position: Position, rules: Rules | None = None) -> None:
        self.position = position
        self.variant = variant = position.variant
        self.map = position.map
        self.units: dict[int, Unit] = editable(position.units)  # a dict: quicker look-ups
        self.entries: list[Entry] = []
        self.powers: dict[str, None] = {}  # the powers that gave orders, in order (a set)
        self.legal: dict[int, Order] = {}
        self.ordered: list[Entry | None] = [None] * len(self.map.provinces)
        self.more: dict[int, list[Entry]] = {}
        self.clashes: set[int] = set()
        self.check = variant.check_movement_order  # looked up once: it runs per order
        # The standard checks settle the usual orders by table look-ups, here.
        self.quick = quick_checks(self.map) if self.check is check_movement_order else None
        notation = type(variant.notation)
        self.canonical_reader = (
            notation.parse_order is Notation.parse_order
            and notation.format_order is Notation.format_order
        )
        self.rules = rules  # the rules the phase is judged by, where known
        # The canonical reader's memo of this map (texts in calhamer's own form already read).
        self.memo = canonical_texts_read(self.map) if self.canonical_reader else None

    def add(self, raw_power: str, items: Any, replace: bool = False) -> None:
        """Read and check ``items``, orders of ``raw_power``. ``replace``: they are orders
        for units no player commands, replacing any given for the same unit."""
        self.add_all({raw_power: items}, replace)

    def add_all(self, orders: OrdersIn, replace: bool = False) -> None:
        """Read and check ``orders``, by power (as :meth:`add` does for each power)."""
        entries = self.entries
        for raw_power, items in orders.items():
            power = self._power(raw_power)
            for item in items:
                entry = self._entry(power, item)
                entries.append(entry)
                order = entry.order
                if entry.reason is None and isinstance(order, Order):
                    self._take(entry, order, replace)

    def _power(self, raw_power: str) -> str:
        """The power named ``raw_power``, noted as giving orders."""
        m = self.map
        if raw_power in m._power_codes:
            power = raw_power
        else:
            power = m.find_power(raw_power) or raw_power.upper()
        self.powers[power] = None
        return power

    def _entry(self, power: str, item: Any) -> Entry:
        """The entry of one order given, as text or as an order (invalid already if it cannot
        be read, or is no movement order)."""
        if isinstance(item, str):
            # Canonical text read before on this map (a game repeats its orders): the memo's
            # look-up, done here rather than through _read (as _read does it).
            known = self.memo.get(item) if self.memo is not None else None
            if known is not None:
                source = _READ if item.endswith(" VIA") else _READ_EXACTLY
                return Entry(power, item, known, known, None, source)
            entry = self._read(power, item)
        else:
            entry = Entry(power, "", item, item, None, _GIVEN_AS_ORDER)
        if entry.reason is None and not isinstance(entry.order, Order):
            entry.reason = _NOT_MOVEMENT
        return entry

    def _take(self, entry: Entry, order: Order, replace: bool) -> None:
        """Check ``order``, an entry's, and keep it if legal."""
        if self.quick is not None and self._legal_as_given(self.quick, entry.power, order):
            checked = order  # the entry holds it already
        else:
            try:
                checked = self.check(self.position, entry.power, order)
            except Illegal as exc:
                entry.reason = str(exc)
                return
            entry.order = checked
        province = self.map.loc_province[checked.loc]
        if replace and self.ordered[province] is not None:
            self._replace(province, entry, checked)
        elif province not in self.legal:
            # (Replacing nothing, an order of a unit no player commands is taken as any other.)
            self.legal[province] = checked
            self.ordered[province] = entry
        else:
            self.more.setdefault(province, []).append(entry)
            if self.legal[province] != checked:
                self.clashes.add(province)  # the unit holds

    def _legal_as_given(self, quick: QuickChecks, power: str, order: Order) -> bool:
        """Whether ``order`` is one of the usual orders, legal exactly as given, settled by
        look-ups. False sends it to the full check, which also says why an order is illegal."""
        loc = order.loc
        here = self.map.loc_province[loc]
        unit = self.units.get(here)
        if (
            unit is None or unit.power != power or order.unit_type != unit.type
            or loc != unit.loc
        ):
            return False
        cls = type(order)
        if cls is Hold:
            return True
        # Taken loosely and named again with the class it was found to be: no call (``cast``
        # is one in plain Python), and compiled, its fields are then read natively.
        found: Any = order
        if cls is Move:
            move: Move = found
            if unit.type == ARMY:
                return (move.dest in quick.army_moves[loc]
                        or quick.army_by_sea(self.position, here, move.dest))
            return not move.via_convoy and move.dest in quick.fleet_moves[loc]
        if cls is Support:
            return self._support_legal(quick, unit, here, found)
        if cls is Convoy:
            convoy: Convoy = found
            return unit.type == FLEET and quick.convoy_legal(here, convoy.army, convoy.dest)
        return False

    def _support_legal(self, quick: QuickChecks, unit: Unit, here: int, order: Support) -> bool:
        """:meth:`_legal_as_given` for a support given by ``unit`` in ``here``."""
        m = self.map
        named, into_loc = order.target, order.dest
        target = m.loc_province[named]
        into = target if into_loc is None else m.loc_province[into_loc]
        if target == here or into == here or into not in quick.reach[unit.type][unit.loc]:
            return False
        supported = self.units.get(target)
        if supported is not None and supported.loc != named:
            return False
        if into_loc is None:
            return True
        if into_loc != into and m.loc_coast[into_loc] is None:
            return False
        # DATC 6.D.31 (an army supported to a place it could reach only by sea) is for the
        # full check to judge.
        return supported is None or supported.type != ARMY or into in m.army_adjacent[target]

    def order_table(self, rules: Rules) -> OrderTable:
        """The phase's :class:`OrderTable` of ``legal``, built in one pass."""
        return OrderTable(self.position, self.legal, rules)

    def _read(self, power: str, text: str) -> Entry:
        """The entry of an order given as text (``given`` None if it cannot be read)."""
        m = self.map
        if self.canonical_reader:
            # Text in calhamer's own form (what bots and the web judge send) is read by exact
            # look-ups; while the order stands as read, its canonical text is the text itself
            # (but for "VIA", written out as "VIA CONVOY").
            exact = canonical_movement_order(m, text)
            if exact is not None:
                source = _READ if text.endswith(" VIA") else _READ_EXACTLY
                return Entry(power, text, exact, exact, None, source)
        position = self.position
        try:
            parsed = self.variant.notation.parse_order(
                m, text, phase_kind=position.phase.kind, position=position, power=power)
        except OrderError as exc:
            return Entry(power, text, None, None, str(exc), _READ)
        if parsed.power is not None and parsed.power != power:
            return Entry(power, text, None, None, f"{power} cannot order for {parsed.power}",
                         _READ)
        return Entry(power, text, parsed.order, parsed.order, None, _READ)

    def _replace(self, province: int, entry: Entry, checked: Order) -> None:
        for prior in self._entries_of(province):
            if prior.reason is None:
                prior.reason = _NOT_PLAYERS
        self.more.pop(province, None)
        self.legal[province] = checked
        self.ordered[province] = entry

    def _entries_of(self, province: int) -> list[Entry]:
        first = self.ordered[province]
        if first is None:
            return []
        return [first, *self.more.get(province, [])]

    def settle_clashes(self) -> None:
        """DATC 4.D.3: a unit given different orders holds (and may be supported to hold)."""
        for province in self.clashes:
            del self.legal[province]
            for entry in self._entries_of(province):
                entry.reason = _CLASH
        self.clashes = set()

    def results(self, explain: Explainer) -> dict[str, list[OrderResult]]:
        """Every order's result, worded now: the entries' in the order given, then a hold for
        each unit given no legal order."""
        results: dict[str, list[OrderResult]] = {power: [] for power in self.powers}
        verdict_of = self._verdicts(explain)
        for entry in self.entries:
            if entry.reason is None:
                verdict, reason = verdict_of(entry.order)
            else:
                verdict, reason = INVALID, entry.reason
            if entry.source == _READ_EXACTLY and entry.order is entry.given:
                text = canonical = entry.text  # (as _texts words it, without the call)
            else:
                text, canonical = self._texts(entry)
            results[entry.power].append(
                OrderResult(entry.power, text, canonical, verdict, reason, entry.order))
        units = self.position.units
        if units.keys() <= self.legal.keys():
            return results  # every unit has a legal order, so was given one
        write = self.variant.notation.format_order
        for province, unit in units.items():
            if self.ordered[province] is None:
                verdict, reason = explain.result(province)
                canonical = write(self.position, Hold(unit.type, unit.loc))
                results.setdefault(unit.power, []).append(OrderResult(
                    unit.power, "", canonical, verdict, f"{reason} (no valid order given)"))
        return results

    def _verdicts(self, explain: Explainer) -> Callable[[Any], tuple[Result, str]]:
        """The verdict on a standing order and its reason, as a function of the order. The
        usual outcomes (a move made, a hold kept, a support given, none of them dislodged or
        void) are worded here as the explainer words them, from its tables read once; the
        explainer words the rest (bounces, cuts, convoys, dislodgements)."""
        loc_province = self.map.loc_province
        kind, void, resolution = explain.t.kind, explain.t.void, explain.r.resolution
        dislodged_at, explained = explain.dislodged_at, explain.result

        def verdict(order: Order) -> tuple[Result, str]:
            p = loc_province[order.loc]
            k = kind[p]
            if k == MOVE:
                if resolution[p] and p not in dislodged_at:
                    return SUCCEEDS, "moves"
            elif k == HOLD:
                if p not in dislodged_at and p not in void:
                    return SUCCEEDS, "holds"
            elif k == SUPPORT and resolution[p]:
                return SUCCEEDS, "support given"
            return explained(p)

        return verdict

    def _texts(self, entry: Entry) -> tuple[str, str]:
        """An entry's text as given and its canonical text (the order as it stands)."""
        write = self.variant.notation.format_order
        order = entry.order
        if entry.source == _READ_EXACTLY and order is entry.given:
            return entry.text, entry.text
        if entry.source == _GIVEN_AS_ORDER:
            given = cast(AnyOrder, entry.given)  # (an order value, never None)
            text = write(self.position, given)
            return text, text if order is given else write(self.position, cast(AnyOrder, order))
        return entry.text, "" if order is None else write(self.position, order)


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
    moved, dislodger, targets = _moves_made(table, resolver)
    dislodged_at = {
        q: a for q, a in dislodger.items() if table.kind[q] != EMPTY and q not in moved
    }

    def word_results() -> dict[str, list[OrderResult]]:
        return reading.results(Explainer(position, table, resolver, dislodged_at))

    new_units, dislodged, destroyed = _units_after(
        position, reading, resolver, rules, moved, dislodged_at)
    contested = _contested(table, resolver, targets, dislodger, new_units)
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


def _moves_made(
    table: OrderTable, resolver: MovementResolver
) -> tuple[dict[int, int], dict[int, int], set[int]]:
    """The moves that succeed (province -> the location moved to), the province each
    successful attacker came from (by the province it entered), and every place moved to."""
    moved: dict[int, int] = {}
    dislodger: dict[int, int] = {}
    targets: set[int] = set()
    for p in table.movers:
        if table.kind[p] == MOVE:
            q = table.dest[p]
            targets.add(q)
            if resolver.resolution[p]:
                moved[p] = table.exact[p]
                dislodger[q] = p
    return moved, dislodger, targets


def _units_after(
    position: Position, reading: MovementReading, resolver: MovementResolver, rules: Rules,
    moved: dict[int, int], dislodged_at: dict[int, int],
) -> tuple[dict[ProvinceId, Unit], list[Dislodged], list[int]]:
    """The units after the moves, in the order they stood in (a moved unit where it stood),
    the units dislodged that retreat, and those destroyed at once (unable to retreat)."""
    units = position.units
    if not moved and not dislodged_at:
        return editable(units), [], []
    new_units: dict[ProvinceId, Unit] = {}
    dislodged: list[Dislodged] = []
    destroyed: list[int] = []
    loc_province = position.map.loc_province
    for province, unit in units.items():
        if province in moved:
            new_loc = moved[province]
            new_units[loc_province[new_loc]] = moved_unit(unit, new_loc)
        elif province not in dislodged_at:
            new_units[province] = unit
        elif not reading.variant.may_retreat(position, unit):
            destroyed.append(province)
        else:
            attacker = dislodged_at[province]
            blocked: int | None = attacker
            if resolver.convoyed[attacker] and rules.retreat_to_convoying_attacker_origin:
                blocked = None  # DATC 4.A.5: the army never crossed that border
            dislodged.append(Dislodged(unit, blocked))
    return new_units, dislodged, destroyed


def _contested(
    table: OrderTable, resolver: MovementResolver, targets: set[int],
    dislodger: dict[int, int], new_units: dict[ProvinceId, Unit],
) -> frozenset[int]:
    """Places left empty by a standoff: moved to, and neither reached nor held. The standard
    rule needs two moves there, so a place only one unit tried is asked about only under a
    variant's own rule."""
    left = targets.difference(dislodger, new_units)
    if not left:
        return frozenset()
    ask_all = type(resolver).standoff is not MovementResolver.standoff
    return frozenset(
        q for q in left if (ask_all or len(table.movers_to[q]) > 1) and resolver.standoff(q))
