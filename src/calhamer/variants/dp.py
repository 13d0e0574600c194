"""DP-based variants: neutral minor powers whose orders players buy with Diplomacy Points.

This is the "Common Ruleset for DP-based Variants" (NoPunIn10Did) as a rule layer any map can
use; ``docs/rules/dp.md`` gives the rules as implemented and every reading of the source.

- **Minor powers** are map data (``[minor_powers.CODE]``, see ``docs/maps.md``): their units,
  home centres, default order (Hold unless the map says otherwise) and whether their units
  are stationary. No player commands them.
- **Stationary units** (:class:`DPResolver`) take any order, but a move always fails: a
  *sortie* that still bounces others, cuts support and keeps an empty province empty. They
  never dislodge anything; dislodged, they are destroyed (no retreat); a sortie that bounces
  alone leaves a standoff, closing the province to retreats. Vacant minor centres are rebuilt
  with the starting unit in winter.
- **Bids** (:func:`resolve_bids`): each movement phase every player has an allotment of DP
  (flat, or per owned centre with a cap), use-it-or-lose-it, to bid on neutral units' orders.
  Whole numbers only; overspending voids all of a power's bids; identical orders add up; the
  most DP wins, a tie or no bid gives the default order; a power whose unit attacks, or
  supports an attack on, a minor power has its bids on that minor power ignored that turn.
- **Secrecy**: bids are an input of one phase, like orders, kept in ``Position.extra`` and
  dropped when the phase ends. Results and reports show only the winning neutral orders;
  :func:`bid_tally` and :func:`tally_report` are the gamemaster's view of who bid what.
- **Report** (:func:`adjudication_report`): the ruleset's own layout, with a ``Minor Neutral
  Powers`` block (``A Tab - Aru             Bounced 1v1 (with Mom)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

from calhamer import notation
from calhamer.adjudicator import MovementResolver, OrderTable
from calhamer.errors import CalhamerError, OrderError, PhaseError
from calhamer.map import Location, Map, UnitType
from calhamer.orders import AnyOrder, Build, Convoy, Hold, Move, Order, Support
from calhamer.position import Position, Unit
from calhamer.results import INVALID, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.validation import Illegal
from calhamer.variant import Variant

BIDS = "bids"  # the key of the bids in a phase document and in ``Position.extra``
ORDER_KINDS = ("hold", "move", "support", "convoy")

# -- minor powers as map data --------------------------------------------------------------------


@dataclass(frozen=True)
class MinorPower:
    """A minor power of a map: its start units (as written), whether they are stationary and
    the default orders of its units (texts; a unit with none holds)."""

    code: str
    name: str
    units: tuple[str, ...]
    stationary: bool = True
    defaults: tuple[str, ...] = ()


@cache
def minor_powers(m: Map) -> dict[str, MinorPower]:
    """The minor powers of ``m``, read from its ``[minor_powers]`` tables."""
    table = m.raw.get("minor_powers", {})
    if not isinstance(table, dict):  # load_map has checked this already
        raise CalhamerError(f"map {m.name!r}: [minor_powers] must be a table")
    found: dict[str, MinorPower] = {}
    for power in m.minor_powers:
        info = dict(table.get(power.code, {}))
        default = info.get("default", "hold")
        if isinstance(default, str):
            default = [] if default.strip().lower() == "hold" else [default]
        if not isinstance(default, list) or not all(isinstance(d, str) for d in default):
            raise PhaseError(
                f'[minor_powers.{power.code}] default must be "hold" or a list of orders'
            )
        found[power.code] = MinorPower(
            power.code,
            power.name,
            tuple(str(u) for u in info.get("units", ())),
            bool(info.get("stationary", True)),
            tuple(default),
        )
    return found


def is_stationary(m: Map, unit: Unit) -> bool:
    minor = minor_powers(m).get(unit.power)
    return minor is not None and minor.stationary


def neutral_units(position: Position) -> dict[int, Unit]:
    """The units of minor powers, by province."""
    m = position.map
    return {p: u for p, u in position.units.items() if m.is_minor(u.power)}


# -- stationary units ------------------------------------------------------------------------------


class DPResolver(MovementResolver):
    """Stationary units: their moves (sorties) always fail but otherwise act as moves.

    A sortie keeps its prevent strength (it bounces others and protects an empty province), its
    defend strength in a head-to-head battle and its power to cut support; only its own MOVE
    decision is forced to fail, so it never dislodges anything.
    """

    def __init__(
        self,
        table: OrderTable,
        neutral: frozenset[int] = frozenset(),
        worlds: dict[frozenset[int], MovementResolver] | None = None,
    ) -> None:
        m = table.map
        self.stationary = [False] * len(table.kind)
        for province, unit in table.position.units.items():
            if is_stationary(m, unit):
                self.stationary[province] = True
        super().__init__(table, neutral, worlds)

    def adjudicate_move(self, p: int) -> bool:
        if self.stationary[p]:
            return False  # a sortie: the unit never leaves its province
        return super().adjudicate_move(p)

    def standoff(self, q: int) -> bool:
        # A sortie that bounces in an otherwise uncontested province leaves it contested.
        if super().standoff(q):
            return True
        return any(self.stationary[p] and self.path(p) for p in self.table.movers_to[q])

    def move_failure_reason(self, p: int) -> str:
        if self.stationary[p]:
            return "sortie: a stationary unit never leaves its province"
        return super().move_failure_reason(p)


# -- bids ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """One bid: ``dp`` Diplomacy Points from ``power`` for the order written ``order``.

    ``dp`` is kept as given (a whole number when the bid is valid) so that a bad amount can be
    reported rather than lost.
    """

    power: str
    order: str
    dp: object

    def to_json(self) -> dict[str, object]:
        return {"order": self.order, "dp": self.dp}

    @property
    def text(self) -> str:
        """The bid in the players' notation: ``3 DP: A Kas S Sto - Tab``."""
        return f"{self.dp} DP: {self.order}" if self.dp is not None else self.order


_BID_LINE = re.compile(
    r"^(?P<dp>[-+]?\d+(?:[.,]\d*)?|[-+]?[.,]\d+)\s*(?:D\.?P\.?S?\b)?\s*[:;=-]?\s*(?P<order>.*)$",
    re.IGNORECASE,
)


def parse_bid(power: str, text: str) -> Bid:
    """Read a bid in the players' notation: ``3 DP: A Kas S Sto - Tab`` (also ``3: ...``).

    A line that does not start with an amount keeps ``dp`` None (a bid with no DP, which is
    void); ``1.5 DP: ...`` keeps 1.5 (void too: DP are whole numbers).
    """
    # Matched on the stripped line with a greedy tail: a lazy tail before "\s*$" would try
    # every split of a long run of spaces (quadratic time on a pasted line).
    match = _BID_LINE.match(text.strip())
    if match is None or not match["order"]:
        return Bid(power, text.strip(), None)
    raw = match["dp"].replace(",", ".")
    dp: object = float(raw) if "." in raw else int(raw)
    return Bid(power, match["order"], dp)


def to_bid(power: str, item: object) -> Bid:
    """A bid from a line of text, a ``{"order": ..., "dp": ...}`` object or a :class:`Bid`."""
    if isinstance(item, Bid):
        return Bid(power, item.order, item.dp)
    if isinstance(item, str):
        return parse_bid(power, item)
    if isinstance(item, Mapping):
        order = item.get("order")
        if not isinstance(order, str):
            raise PhaseError(f'a bid of {power} has no "order" text: {dict(item)!r}')
        unknown = set(item) - {"order", "dp"}
        if unknown:
            raise PhaseError(f"unknown keys in a bid of {power}: {', '.join(sorted(unknown))}")
        return Bid(power, order, item.get("dp"))
    raise PhaseError(
        f'a bid of {power} must be written {{"order": "A KAS H", "dp": 1}} or "1 DP: A KAS H"'
    )


def read_bids(m: Map, doc: object) -> tuple[Bid, ...]:
    """The ``"bids"`` of a phase document: ``{"ZANZIBAR": [{"order": ..., "dp": 1}]}``."""
    if doc is None:
        return ()
    if not isinstance(doc, Mapping):
        raise PhaseError('"bids" must map each bidding power to a list of bids')
    bids: list[Bid] = []
    for raw_power, items in doc.items():
        power = m.find_power(str(raw_power))
        if power is None:
            known = ", ".join(m.power_codes)
            raise PhaseError(
                f"bids: {raw_power!r} is not a power of this map; the powers are {known}"
            )
        if isinstance(items, str | Mapping) or not isinstance(items, list):
            raise PhaseError(f"the bids of {power} must be a list")
        bids += [to_bid(power, item) for item in items]
    return tuple(bids)


def bids_to_json(bids: Iterable[Bid]) -> dict[str, list[dict[str, object]]]:
    doc: dict[str, list[dict[str, object]]] = {}
    for bid in bids:
        doc.setdefault(bid.power, []).append(bid.to_json())
    return doc


def bids_of(position: Position) -> tuple[Bid, ...]:
    """The bids given for ``position``'s phase."""
    return tuple(position.extra.get(BIDS, ()))  # type: ignore[arg-type]


def with_bids(position: Position, bids: Mapping[str, Iterable[object]]) -> Position:
    """``position`` with ``bids`` (by bidding power: lines, objects or :class:`Bid` values)
    as the bids of its phase, replacing any it had. This is how a library caller bids."""
    m = position.map
    found: list[Bid] = []
    for raw_power, items in bids.items():
        power = m.find_power(raw_power) or raw_power.upper()
        found += [to_bid(power, item) for item in items]
    extra = {k: v for k, v in position.extra.items() if k != BIDS}
    if found:
        extra[BIDS] = tuple(found)
    return position.replace(extra=MappingProxyType(extra))


# -- judging bids --------------------------------------------------------------------------------

COUNTED, VOID, IGNORED = "counted", "void", "ignored"


@dataclass
class JudgedBid:
    """A bid as the gamemaster sees it: the order it buys, and whether it counted."""

    bid: Bid
    dp: int = 0  # the whole number of DP, 0 when the amount is not one
    order: Order | None = None  # the order bought, checked (coasts settled), if legal
    unit: int = -1  # the province of the neutral unit it is for
    status: str = COUNTED
    reason: str = ""


@dataclass
class UnitTally:
    """The bids on one neutral unit: DP per order, and the order it was given."""

    province: int
    unit: Unit
    totals: dict[str, int] = field(default_factory=dict)  # canonical order -> DP counted
    order: Order | None = None
    bought: bool = False  # False: the default order (no bid counted, or a tie)
    why: str = ""


@dataclass
class Tally:
    """Everything about one phase's bids (the gamemaster's view; never shown to players)."""

    phase: str
    allotments: dict[str, int]
    spent: dict[str, int]
    bids: list[JudgedBid]
    units: dict[int, UnitTally]
    attacking: dict[str, set[str]]  # bidding power -> minor powers it attacks this turn

    def neutral_orders(self) -> dict[str, list[Order]]:
        """The order of every neutral unit, by minor power."""
        orders: dict[str, list[Order]] = {}
        for tally in self.units.values():
            if tally.order is not None:
                orders.setdefault(tally.unit.power, []).append(tally.order)
        return orders


def _dp_variant(position: Position) -> DPVariant:
    variant = position.variant
    if not isinstance(variant, DPVariant):
        raise CalhamerError(f"{variant.title} has no Diplomacy Points")
    return variant


def _whole(dp: object) -> int | None:
    if isinstance(dp, bool):
        return None
    if isinstance(dp, int):
        return dp
    if isinstance(dp, float) and dp.is_integer():
        return int(dp)
    return None


def _order_kind(order: Order) -> str:
    return {Hold: "hold", Move: "move", Support: "support", Convoy: "convoy"}[type(order)]


def judge_bid(variant: DPVariant, position: Position, bid: Bid) -> JudgedBid:
    """Check one bid by itself: its amount, and the order it buys (legal, for a neutral unit,
    of a kind the variant lets DP buy)."""
    m = position.map
    judged = JudgedBid(bid)
    dp = _whole(bid.dp)
    if bid.dp is None:
        return _void(judged, 'it gives no DP: write the amount first, like "1 DP: A KAS H"')
    if dp is None:
        return _void(judged, f"DP are whole numbers, not {bid.dp!r}")
    if dp < 1:
        return _void(judged, "a bid needs at least 1 DP")
    judged.dp = dp
    try:
        parsed = variant.parse_order(m, bid.order, phase_kind="M", position=position, power=None)
    except OrderError as exc:
        return _void(judged, str(exc))
    order = parsed.order
    if not isinstance(order, Order):
        return _void(judged, "only hold, move, support and convoy orders can be bought")
    try:
        checked = variant.check_movement_order(position, None, order)
    except Illegal as exc:
        return _void(judged, str(exc))
    province = m.province_of(checked.loc)
    unit = position.units[province]
    if not m.is_minor(unit.power):
        return _void(
            judged,
            f"{variant.format_unit(m, unit)} is {unit.power}'s, not a neutral unit: "
            "DP buy orders for neutral units only",
        )
    kind = _order_kind(checked)
    if variant.buyable is not None and kind not in variant.buyable:
        allowed = " and ".join(k for k in ORDER_KINDS if k in variant.buyable)
        return _void(judged, f"in {variant.title} DP buy only {allowed} orders, not a {kind}")
    judged.order, judged.unit = checked, province
    return judged


def _void(judged: JudgedBid, reason: str) -> JudgedBid:
    judged.status, judged.reason = VOID, reason
    return judged


def judge_power_bids(
    variant: DPVariant, position: Position, power: str, bids: Sequence[Bid]
) -> tuple[list[JudgedBid], int, int, str]:
    """Judge ``power``'s bids: each one, then the total against the allotment.

    Returns the judged bids, the DP allocated (every whole-numbered bid counts, even one for an
    illegal order), the allotment, and the reason all the bids are void ("" if they are not).
    """
    m = position.map
    judged = [judge_bid(variant, position, bid) for bid in bids]
    spent = sum(j.dp for j in judged)
    if m.is_minor(power) or power not in m.power_codes:
        allot, why = 0, f"{power} is not a player's power: only players bid"
    else:
        allot = variant.allotment(position, power)
        why = ""
        if spent > allot:
            name = m.power(power).name
            why = (
                f"{name} allocated {spent} DP but has {allot} DP in {position.phase.code}, "
                "so all its bids are void"
            )
    if why:
        for j in judged:
            if j.status == COUNTED:
                _void(j, why)
    return judged, spent, allot, why


def attacks_on_minors(position: Position, given: Mapping[int, Order]) -> dict[str, set[str]]:
    """The Attacking & Allocating rule's test: which minor powers each power attacks (a unit
    of its moves to, or supports a move to, a province held by that minor power's unit)."""
    m = position.map
    units = position.units
    attacking: dict[str, set[str]] = {}
    for province, order in given.items():
        unit = units.get(province)
        if unit is None or m.is_minor(unit.power):
            continue
        if isinstance(order, Move | Support) and order.dest is not None:
            target = m.province_of(order.dest)
        else:
            continue
        victim = units.get(target)
        if victim is not None and m.is_minor(victim.power) and victim.power != unit.power:
            attacking.setdefault(unit.power, set()).add(victim.power)
    return attacking


def default_order(variant: DPVariant, position: Position, province: int) -> Order:
    """A neutral unit's order when no bid wins: its minor power's default, else Hold."""
    m = position.map
    unit = position.units[province]
    for text in minor_powers(m)[unit.power].defaults:
        try:
            parsed = variant.parse_order(m, text, phase_kind="M", position=position, power=None)
        except OrderError:
            continue
        order = parsed.order
        if isinstance(order, Order) and m.province_of(order.loc) == province:
            try:
                return variant.check_movement_order(position, unit.power, order)
            except Illegal:
                break
    return Hold(unit.type, unit.loc)


def resolve_bids(position: Position, given: Mapping[int, Order] | None = None) -> Tally:
    """Decide every neutral unit's order from the bids of ``position``'s phase.

    ``given`` holds the players' legal orders by province, for the Attacking & Allocating rule.
    """
    variant = _dp_variant(position)
    m = position.map
    given = given or {}
    by_power: dict[str, list[Bid]] = {}
    for bid in bids_of(position):
        by_power.setdefault(bid.power, []).append(bid)
    allotments = {
        p: variant.allotment(position, p) for p in m.power_codes if p in position.powers()
    }
    attacking = attacks_on_minors(position, given)
    judged_all: list[JudgedBid] = []
    spent: dict[str, int] = {}
    for power, bids in by_power.items():
        judged, total, _allot, _why = judge_power_bids(variant, position, power, bids)
        spent[power] = total
        for j in judged:
            if j.status == COUNTED and j.order is not None:
                minor = position.units[j.unit].power
                if minor in attacking.get(power, ()):
                    j.status = IGNORED
                    j.reason = (
                        f"{m.power(power).name} attacks {m.power(minor).name} this turn "
                        "(the Attacking & Allocating rule)"
                    )
        judged_all += judged

    units: dict[int, UnitTally] = {}
    neutral = neutral_units(position)
    for province in sorted(neutral, key=lambda p: m.provinces[p].code):
        units[province] = UnitTally(province, neutral[province])
    chosen: dict[int, dict[str, Order]] = {}
    for j in judged_all:
        if j.status == COUNTED and j.order is not None:
            key = notation.format_order(m, j.order)
            tally = units[j.unit]
            tally.totals[key] = tally.totals.get(key, 0) + j.dp
            chosen.setdefault(j.unit, {})[key] = j.order
    for province, tally in units.items():
        ranked = sorted(tally.totals.items(), key=lambda kv: -kv[1])
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            tally.order = chosen[province][ranked[0][0]]
            tally.bought = True
            tally.why = f"won with {ranked[0][1]} DP"
        else:
            tally.order = default_order(variant, position, province)
            tally.why = "tie: default order" if ranked else "no bids: default order"
    return Tally(position.phase.code, allotments, spent, judged_all, units, attacking)


def check_bids(
    position: Position, power: str, bids: Sequence[Mapping[str, object] | str | Bid]
) -> list[str]:
    """Problems with ``power``'s bids for ``position``'s phase, as sentences (empty: all good).

    For the web and command line at submission time. Each bid is judged by itself (amount,
    legality, a neutral unit, an order kind DP may buy), then the total against the
    allotment. Whether the Attacking & Allocating rule voids a bid depends on the orders, so
    that is decided only at adjudication.
    """
    variant = _dp_variant(position)
    m = position.map
    code = m.find_power(power) or power.upper()
    if not position.phase.is_movement:
        return [f"bids are given only in movement phases, and {position.phase.code} is not one"]
    found = [to_bid(code, item) for item in bids]
    judged, _spent, _allot, why = judge_power_bids(variant, position, code, found)
    problems = [f"{j.bid.text}: {j.reason}" for j in judged if j.status == VOID and j.reason != why]
    if why:
        problems.append(why)
    return problems


def bid_tally(
    position: Position,
    orders: Mapping[str, Iterable[str | AnyOrder]],
    rules: Rules | str | None = None,
) -> Tally:
    """The gamemaster's tally of ``position``'s bids, with the players' ``orders`` (which the
    Attacking & Allocating rule needs). Secret: never show it to players before the game ends."""
    from calhamer.phases import adjudicate

    outcome = adjudicate(position, orders, rules)
    return resolve_bids(position, given_orders(outcome))


def given_orders(outcome: PhaseOutcome) -> dict[int, Order]:
    """The players' legal orders of an adjudicated movement phase, by province."""
    m = outcome.before.map
    given: dict[int, Order] = {}
    for power, results in outcome.results.items():
        if m.is_minor(power):
            continue
        for r in results:
            if r.result != INVALID and isinstance(r.order, Order):
                given[m.province_of(r.order.loc)] = r.order
    return given


# -- the variants --------------------------------------------------------------------------------


class DPVariant(Variant):
    """A DP variant on the standard map: ``standard-dp``.

    A stationary neutral army in each of the 12 centres no great power owns at the start, each
    its own minor power; each player receives 1 DP per owned centre, at most 3, each movement
    phase (the Ambition & Empire allotment). Subclasses change the class attributes.
    """

    name = "standard-dp"
    aliases: ClassVar[tuple[str, ...]] = ("dp", "standard-diplomacy-points")
    title = "Standard Diplomacy with DP neutrals"
    map_name = "standard-dp"
    resolver_class = DPResolver
    takes_bids = True

    dp_per_phase: ClassVar[int | None] = None  # a flat allotment for every player, if set
    dp_per_center: ClassVar[int] = 1  # otherwise: DP per owned supply centre ...
    dp_cap: ClassVar[int | None] = 3  # ... at most this many per phase
    buyable: ClassVar[frozenset[str] | None] = None  # order kinds DP may buy (None: all)

    def allotment(self, position: Position, power: str) -> int:
        """The DP ``power`` may allocate in ``position``'s movement phase (use it or lose it)."""
        m = position.map
        if m.is_minor(power) or power not in position.powers():
            return 0
        if self.dp_per_phase is not None:
            return self.dp_per_phase
        dp = self.dp_per_center * len(position.centers_of(power))
        return dp if self.dp_cap is None else min(dp, self.dp_cap)

    # -- the phase document --------------------------------------------------------------------

    def read_extra(self, m: Any, doc: Mapping[str, Any]) -> Mapping[str, object]:
        bids = read_bids(m, doc.get(BIDS))
        return {BIDS: bids} if bids else {}

    def extra_after_phase(self, position: Position) -> Mapping[str, object]:
        if BIDS not in position.extra:
            return position.extra
        return MappingProxyType({k: v for k, v in position.extra.items() if k != BIDS})

    # -- where neutral units' orders come from -------------------------------------------------

    def unit_orders(
        self, position: Position, given: Mapping[int, Order], rules: Rules
    ) -> Mapping[str, Sequence[AnyOrder | str]]:
        if position.phase.is_movement:
            return resolve_bids(position, given).neutral_orders()
        if position.phase.is_adjustment:
            return rebuilds(position)
        return {}

    def may_retreat(self, position: Position, unit: Unit) -> bool:
        return not is_stationary(position.map, unit)

    def check_bids(
        self, position: Position, power: str, bids: Sequence[Mapping[str, object] | str]
    ) -> list[str]:
        return check_bids(position, power, bids)

    def report_blocks(
        self, outcome: PhaseOutcome, powers: Sequence[str] | None
    ) -> list[str] | None:
        if not outcome.before.phase.is_movement:
            return None
        return adjudication_lines(outcome, powers)


class SubSaharanExcerpt(DPVariant):
    """The Sub-Saharan excerpt of the Common Ruleset's DP allocation example: every player
    has 2 DP each movement phase."""

    name = "sub-saharan-excerpt"
    aliases = ("sub-saharan-dp-example",)
    title = "Sub-Saharan (the DP ruleset's example excerpt)"
    map_name = "sub-saharan-excerpt"
    dp_per_phase = 2
    dp_cap = None


def rebuilds(position: Position) -> dict[str, list[AnyOrder]]:
    """Winter: each minor power rebuilds, in every vacant centre it still owns, the unit that
    stood there at the start of the game."""
    m = position.map
    orders: dict[str, list[AnyOrder]] = {}
    for code, minor in minor_powers(m).items():
        for spec in minor.units:
            start = notation.parse_unit(m, spec, code)
            province = m.province_of(start.loc)
            if position.centers.get(province) == code and province not in position.units:
                orders.setdefault(code, []).append(Build(start.type, start.loc))
    return orders


# -- the report ---------------------------------------------------------------------------------

COLUMN = 24  # the order column of the ruleset's report


def place(m: Map, loc: Location) -> str:
    """A location as the ruleset writes it: the code in title case (``Kas``, ``Stp/SC``)."""
    province, _, coast = m.loc_names[loc].partition("/")
    return province.title() + (f"/{coast}" if coast else "")


def dp_unit(m: Map, unit_type: UnitType | None, loc: Location) -> str:
    return f"{'?' if unit_type is None else unit_type.letter} {place(m, loc)}"


def dp_order(m: Map, order: AnyOrder) -> str:
    """An order as the ruleset writes it: ``A Kas S Sto - Tab``, ``A Mwi S Kas H``."""
    if not isinstance(order, Order):
        return notation.format_order(m, order)
    unit = dp_unit(m, order.unit_type, order.loc)
    match order:
        case Hold():
            return f"{unit} H"
        case Move():
            steps = [place(m, s) for s in (*order.path, order.dest)]
            via = " via Convoy" if order.via_convoy and not order.path else ""
            return " - ".join([unit, *steps]) + via
        case Support():
            target = place(m, order.target)
            if order.dest is None:
                return f"{unit} S {target} H"
            return f"{unit} S {target} - {place(m, order.dest)}"
        case Convoy():
            return f"{unit} C {place(m, order.army)} - {place(m, order.dest)}"
    return notation.format_order(m, order)


def _result_order(m: Map, result: OrderResult) -> Order | None:
    if isinstance(result.order, Order):
        return result.order
    if result.canonical:
        try:
            order = notation.parse_order(m, result.canonical, phase_kind="M").order
        except OrderError:
            return None
        return order if isinstance(order, Order) else None
    return None


_UNIT = re.compile(r"\b([AF]) ([A-Z][A-Z0-9]*)(/[A-Z]{2})?\b")
_SUCCESS = {"moves", "holds", "support given", "convoys"}


def _title_units(text: str) -> str:
    return _UNIT.sub(lambda g: f"{g[1]} {g[2].title()}{g[3] or ''}", text)


def _phrase_part(part: str) -> str:
    if match := re.fullmatch(r"bounced (\S+) against .*", part):
        return f"Bounced {match[1]}"
    if match := re.fullmatch(r"bounced (\S+) with [AF] ([A-Z][A-Z0-9]*)(/[A-Z]{2})?", part):
        return f"Bounced {match[1]} (with {match[2].title()}{match[3] or ''})"
    if match := re.fullmatch(r"(?:support cut: )?dislodged by (.*)", part):
        return f"Dislodged by {_title_units(match[1])}"
    if match := re.fullmatch(r"support cut by (.*)", part):
        return f"Cut by {_title_units(match[1])}"
    if part == "support cut":
        return "Cut"
    if part.startswith("sortie"):
        return "Bounced (sortie)"
    text = _title_units(part)
    return text[:1].upper() + text[1:]


def dp_phrase(result: OrderResult) -> str:
    """A result as the ruleset's report words it: ``Succeeds``, ``Bounced 1v1 (with Mom)``,
    ``Dislodged by A Lua (2v1)``, ``Cut by A Mwa``."""
    if result.result == INVALID:
        return f"Invalid: {result.reason}"
    reason = result.reason.removesuffix(" (no valid order given)")
    if result.succeeded and reason in _SUCCESS:
        return "Succeeds"
    return "; ".join(_phrase_part(part) for part in reason.split("; "))


def _line(text: str, phrase: str) -> str:
    return f"    {text.ljust(COLUMN - 1)} {phrase}"


def _sorted_lines(m: Map, results: Sequence[OrderResult]) -> list[str]:
    keyed = []
    for index, result in enumerate(results):
        order = _result_order(m, result)
        if order is not None:
            key = (0, m.provinces[m.province_of(order.loc)].code, index)
            keyed.append((key, _line(dp_order(m, order), dp_phrase(result))))
        else:
            shown = result.text or result.canonical
            keyed.append(((1, "", index), _line(shown, dp_phrase(result))))
    return [line for _key, line in sorted(keyed)]


def adjudication_lines(outcome: PhaseOutcome, powers: Sequence[str] | None = None) -> list[str]:
    """The ruleset's adjudication report: a block per player, then ``Minor Neutral Powers``
    (listed by province, in groups of three as in the source). Only ``powers``' blocks, and
    the neutral block, if ``powers`` is given."""
    m = outcome.before.map
    results = outcome.results
    lines: list[str] = []
    order = [p for p in m.power_codes if p in results]
    order += sorted(p for p in results if p not in order and not m.is_minor(p))
    for power in order:
        if (powers is not None and power not in powers) or not results[power]:
            continue
        lines += ["------", m.power(power).name if power in m.power_codes else power.title(), ""]
        lines += _sorted_lines(m, results[power])
        lines.append("")
    neutral = [r for p in m.minor_power_codes for r in results.get(p, ())]
    if neutral:
        lines += ["------", "Minor Neutral Powers", ""]
        for index, line in enumerate(_sorted_lines(m, neutral)):
            if index and index % 3 == 0:
                lines.append("")
            lines.append(line)
        lines.append("")
    return lines


def adjudication_report(outcome: PhaseOutcome, powers: Sequence[str] | None = None) -> str:
    """:func:`adjudication_lines` as text."""
    return "\n".join(adjudication_lines(outcome, powers)).rstrip() + "\n"


def resulting_neutral_orders(outcome: PhaseOutcome) -> list[str]:
    """The orders neutral units were given (public): ``["A Bra H", "A Kas S Sto - Tab"]``."""
    m = outcome.before.map
    orders = [
        order
        for p in m.minor_power_codes
        for r in outcome.results.get(p, ())
        if (order := _result_order(m, r)) is not None
    ]
    orders.sort(key=lambda o: m.provinces[m.province_of(o.loc)].code)
    return [dp_order(m, o) for o in orders]


def tally_report(position: Position, tally: Tally) -> str:
    """The gamemaster's view of a phase's bids: allotments, every bid and what became of it,
    and each neutral unit's totals. Secret until the game ends."""
    m = position.map

    def name(power: str) -> str:
        try:
            return m.power(power).name
        except KeyError:
            return power.title()

    lines = [f"Bids of {position.phase.name} ({position.phase.code}): for the gamemaster only", ""]
    lines.append("Allotments:")
    for power, allot in tally.allotments.items():
        lines.append(f"    {name(power):<14}{tally.spent.get(power, 0):>3} of {allot} DP allocated")
    lines += ["", "Neutral units:"]
    for tally_unit in tally.units.values():
        order = dp_order(m, tally_unit.order) if tally_unit.order is not None else "?"
        lines.append(f"    {order:<24}{tally_unit.why}")
        for key, dp in sorted(tally_unit.totals.items(), key=lambda kv: (-kv[1], kv[0])):
            shown = dp_order(m, notation.parse_order(m, key, phase_kind="M").order)
            lines.append(f"        {dp} DP  {shown}")
    lines += ["", "Bids:"]
    for j in tally.bids:
        shown = dp_order(m, j.order) if j.order is not None else j.bid.order
        amount = f"{j.bid.dp} DP"
        status = j.status if not j.reason else f"{j.status}: {j.reason}"
        lines.append(f"    {name(j.bid.power):<14}{amount:>6}  {shown:<24}{status}")
    if not tally.bids:
        lines.append("    none")
    return "\n".join(lines) + "\n"


__all__ = [
    "BIDS",
    "Bid",
    "DPResolver",
    "DPVariant",
    "MinorPower",
    "SubSaharanExcerpt",
    "Tally",
    "adjudication_report",
    "bid_tally",
    "check_bids",
    "minor_powers",
    "parse_bid",
    "resolve_bids",
    "resulting_neutral_orders",
    "tally_report",
    "with_bids",
]
