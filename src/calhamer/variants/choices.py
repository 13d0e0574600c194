"""Every order a power may give, for every variant: what a bot chooses from.

:func:`calhamer.options.possible_orders` lists the orders the standard order types express;
each variant adds its own here, by the variant's class (a subclass inherits its parent's):

- **Kriegsplomacy**: espionage (``A VIE E``) and counter-espionage (``F NWY CE``) for every
  unit in a movement phase.
- **Arpiesse**: builds in each colour (``BUILD Purple A PAR``, Red being the plain build), and
  in the summer exchange (``X``) the colour exchange of each of the power's units with every
  unit it could support to hold or that could support it.
- **Superdiplomacy**: numbered orders for stacks (``3A VIE - TRI``: 2 up to the units of that
  type in the stack), removals of several units of a stack, and several builds in one sector
  (up to the builds due and the room left in it).
- **DP variants**: bids are not orders; :func:`neutral_orders` lists what a power may bid for.

A variant from another package adds its own with :func:`register_orders`. This module lives
with the variants because it knows their order types; the game (an edge) asks it.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from calhamer.map import Location
from calhamer.options import movement_candidates, possible_orders
from calhamer.orders import AnyOrder, Build, Convoy, Disband, Hold, Move, Order, Retreat, Support
from calhamer.position import Position
from calhamer.rules import Rules, find_rules
from calhamer.validation import Illegal
from calhamer.variant import Variant

__all__ = ["OrderAdder", "neutral_orders", "register_orders", "variant_orders"]

# What a variant adds to the listed orders: (position, power, rules, listed) -> listed, where
# ``listed`` maps each location to its orders (a new mapping or the one given, changed).
OrderAdder = Callable[[Position, str, Rules, dict[Location, list[AnyOrder]]],
                      dict[Location, list[AnyOrder]]]

# The shipped variants' additions, by the variant class's "module:name"; looked up along the
# class's bases, and loaded only when a game of that variant asks.
_BUILT_IN: dict[str, str] = {
    "calhamer.variants.kriegsplomacy:Kriegsplomacy": "_kriegsplomacy",
    "calhamer.variants.arpiesse:Arpiesse": "_arpiesse",
    "calhamer.variants.superdiplomacy:Superdiplomacy": "_superdiplomacy",
}
_REGISTERED: dict[type[Variant], OrderAdder] = {}


def register_orders(cls: type[Variant], adder: OrderAdder) -> None:
    """Make ``adder`` list the orders of variant ``cls`` (and its subclasses) that
    :func:`calhamer.options.possible_orders` does not."""
    _REGISTERED[cls] = adder


def _adder(variant: Variant) -> OrderAdder | None:
    for cls in type(variant).__mro__:
        if cls in _REGISTERED:
            return _REGISTERED[cls]
        name = _BUILT_IN.get(f"{cls.__module__}:{cls.__qualname__}")
        if name is not None:
            adder: OrderAdder = globals()[name]
            return adder
    return None


def variant_orders(
    position: Position, power: str, rules: Rules | str | None = None
) -> dict[Location, list[AnyOrder]]:
    """Every order ``power`` may give now, by location: the standard listing and what the
    variant adds. Judged on what the power knows, like the listing."""
    edition = position.variant.phase_rules(find_rules(rules))
    listed = possible_orders(position, power, rules)
    adder = _adder(position.variant)
    if adder is not None:
        code = position.map.find_power(power) or power
        listed = adder(position, code, edition, listed)
    names = position.map.loc_names
    return {loc: listed[loc] for loc in sorted(listed, key=names.__getitem__) if listed[loc]}


# -- Kriegsplomacy ---------------------------------------------------------------------------------


def _kriegsplomacy(position: Position, power: str, rules: Rules,
                   listed: dict[Location, list[AnyOrder]]) -> dict[Location, list[AnyOrder]]:
    if not position.phase.is_movement:
        return listed
    spying = import_module("calhamer.variants.kriegsplomacy.spying")
    variant = position.variant
    for loc, orders in listed.items():
        hold = next((o for o in orders if type(o) is Hold), None)
        if hold is None:
            continue
        for kind in (spying.Espionage, spying.CounterEspionage):
            order = kind(hold.unit_type, hold.loc)
            try:
                variant.check_movement_order(position, power, order)
            except Illegal:
                continue
            orders.append(order)
        listed[loc] = orders
    return listed


# -- Arpiesse --------------------------------------------------------------------------------------


def _arpiesse(position: Position, power: str, rules: Rules,
              listed: dict[Location, list[AnyOrder]]) -> dict[Location, list[AnyOrder]]:
    arpiesse = import_module("calhamer.variants.arpiesse")
    if position.phase.is_adjustment:
        for loc, orders in listed.items():
            coloured: list[AnyOrder] = []
            for order in orders:
                coloured.append(order)
                if isinstance(order, Build) and not isinstance(order, arpiesse.ColouredBuild):
                    coloured += [arpiesse.ColouredBuild(order.unit_type, order.loc, colour)
                                 for colour in arpiesse.COLOURS if colour != arpiesse.RED]
            listed[loc] = coloured
    elif position.phase.kind == "X":
        m = position.map
        for here, unit in sorted(position.units.items()):
            if unit.power != power:
                continue
            exchanges: list[AnyOrder] = []
            for there, other in sorted(position.units.items()):
                if there != here and (arpiesse.could_support_hold(m, unit, other)
                                      or arpiesse.could_support_hold(m, other, unit)):
                    exchanges.append(arpiesse.Exchange(unit.type, unit.loc, other.type,
                                                       other.loc))
            if exchanges:
                listed[unit.loc] = exchanges
    return listed


# -- Superdiplomacy --------------------------------------------------------------------------------

_COUNTED = (Hold, Move, Support, Convoy, Retreat, Disband)


def _superdiplomacy(position: Position, power: str, rules: Rules,
                    listed: dict[Location, list[AnyOrder]]) -> dict[Location, list[AnyOrder]]:
    notation = import_module("calhamer.variants.superdiplomacy.notation")
    m = position.map
    stacks = {m.province_of(d.unit.loc): d.unit for d in position.dislodged} \
        if position.phase.is_retreat else position.units
    due = position.adjustments().get(power, 0) if position.phase.is_adjustment else 0
    for loc, orders in listed.items():
        province = m.province_of(loc)
        stack = stacks.get(province)
        more: list[AnyOrder] = []
        for order in orders:
            more.append(order)
            if isinstance(order, Build):
                present = stack.count if stack is not None and stack.power == power else 0
                most = min(due, notation.CAPACITY - present)
                more += [notation.with_count(order, k) for k in range(2, most + 1)]
            elif isinstance(order, _COUNTED) and stack is not None and stack.power == power:
                of_type = getattr(stack, "of_type", None)
                unit_type = order.unit_type or stack.type
                n = of_type(unit_type) if of_type is not None else 1
                more += [notation.with_count(order, k) for k in range(2, n + 1)]
        listed[loc] = more
    return listed


# -- DP variants -----------------------------------------------------------------------------------


def neutral_orders(
    position: Position, power: str, rules: Rules | str | None = None
) -> tuple[int, dict[Location, list[AnyOrder]]]:
    """What ``power`` may bid for in a DP variant's movement phase: its Diplomacy Points, and
    the orders DP may buy for each neutral unit (a stationary unit does not move; only the
    kinds the variant sells), by the unit's location. ``(0, {})`` elsewhere."""
    variant = position.variant
    allotment_of = getattr(variant, "allotment", None)
    if variant.bids is None or allotment_of is None or not position.phase.is_movement:
        return 0, {}
    neutrals = import_module("calhamer.variants.dp.neutrals")
    m = position.map
    allotment = allotment_of(position, m.find_power(power) or power)
    kinds = {Hold: "hold", Move: "move", Support: "support", Convoy: "convoy"}
    buyable = getattr(variant, "buyable", None)
    out: dict[Location, list[AnyOrder]] = {}
    minors = sorted({u.power for u in neutrals.neutral_units(position).values()})
    for minor in minors:
        for loc, orders in movement_candidates(position, position, minor).items():
            unit = position.unit_at(loc)
            stationary = unit is not None and neutrals.is_stationary(m, unit)
            kept: list[AnyOrder] = []
            for order in orders:
                if not isinstance(order, Order) or type(order) not in kinds:
                    continue
                if stationary and isinstance(order, Move | Convoy):
                    continue
                if buyable is not None and kinds[type(order)] not in buyable:
                    continue
                kept.append(order)
            if kept:
                out[loc] = kept
    names = m.loc_names
    return allotment, {loc: out[loc] for loc in sorted(out, key=names.__getitem__)}


