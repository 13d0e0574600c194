"""The DP ruleset's own report layout, and the gamemaster's tally of bids as text.

Places are written in title case (``Kas``, ``Stp/SC``) and results in the ruleset's words,
with a ``Minor Neutral Powers`` block (``A Tab - Aru             Bounced 1v1 (with Mom)``).
:func:`adjudication_report` and :func:`resulting_neutral_orders` are public;
:func:`tally_report` shows who bid what and is for the gamemaster only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from calhamer import notation
from calhamer.errors import OrderError
from calhamer.map import Location, Map, UnitType
from calhamer.orders import AnyOrder, Convoy, Hold, Move, Order, Support
from calhamer.position import Position
from calhamer.results import INVALID, OrderResult, PhaseOutcome

from .tally import Tally

COLUMN = 24  # the order column of the ruleset's report


# -- places, units and orders --------------------------------------------------------------------


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
    # A variant's numbered order (a Superdiplomacy stack's) writes its numbers of units:
    # ``2A Ser S 3A Bul - Rum``.
    count = getattr(order, "count", None)
    unit = dp_unit(m, order.unit_type, order.loc)
    if count is not None:
        unit = f"{count}{unit}"
    target_count = getattr(order, "target_count", None)
    letter = getattr(getattr(order, "target_type", None), "letter", "A")
    other = f"{target_count}{letter} " if target_count else ""
    match order:
        case Hold():
            return f"{unit} H"
        case Move():
            steps = [place(m, s) for s in (*order.path, order.dest)]
            via = " via Convoy" if order.via_convoy and not order.path else ""
            return " - ".join([unit, *steps]) + via
        case Support():
            target = other + place(m, order.target)
            if order.dest is None:
                return f"{unit} S {target} H"
            return f"{unit} S {target} - {place(m, order.dest)}"
        case Convoy():
            return f"{unit} C {other}{place(m, order.army)} - {place(m, order.dest)}"
    return notation.format_order(m, order)


def power_name(m: Map, power: str) -> str:
    """A power's name, or its code in title case if the map does not know it."""
    try:
        return m.power(power).name
    except KeyError:
        return power.title()


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


# -- results in the ruleset's words ----------------------------------------------------------------

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


NO_ORDER = " (no valid order given)"


def dp_phrase(result: OrderResult, *, player: bool = False) -> str:
    """A result as the ruleset's report words it: ``Succeeds``, ``Bounced 1v1 (with Mom)``,
    ``Dislodged by A Lua (2v1)``, ``Cut by A Mwa``.

    A neutral unit nobody bought an order for holds by the rules (``Succeeds``); a ``player``'s
    unit without a valid order is written as every report writes it, ``Holds (no valid order
    given)``, so the player sees that the order was missing."""
    if result.result == INVALID:
        return f"Invalid: {result.reason}"
    if player and result.reason.endswith(NO_ORDER):
        return "; ".join(_phrase_part(part) for part in result.reason.split("; "))
    reason = result.reason.removesuffix(NO_ORDER)
    if result.succeeded and reason in _SUCCESS:
        return "Succeeds"
    return "; ".join(_phrase_part(part) for part in reason.split("; "))


# -- the adjudication report ---------------------------------------------------------------------


def _line(text: str, phrase: str) -> str:
    return f"    {text.ljust(COLUMN - 1)} {phrase}"


def _given_lines(m: Map, results: Sequence[OrderResult]) -> list[str]:
    """A player's results as every report lists them: the orders in the order given, then
    the units the judge gave an order to (no valid order), each order in the ruleset's
    notation, an order that could not be read as written."""
    lines = []
    for result in results:
        order = _result_order(m, result)
        shown = dp_order(m, order) if order is not None else (result.text or result.canonical)
        lines.append(_line(shown, dp_phrase(result, player=True)))
    return lines


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
        lines += ["------", power_name(m, power), ""]
        lines += _given_lines(m, results[power])
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


# -- the gamemaster's tally ----------------------------------------------------------------------


def tally_report(position: Position, tally: Tally) -> str:
    """The gamemaster's view of a phase's bids: allotments, every bid and what became of it,
    and each neutral unit's totals. Secret until the game ends."""
    m = position.map
    named = position.map.phase_name(position.phase)
    lines = [f"Bids of {named} ({position.phase.code}): for the gamemaster only", ""]
    lines.append("Allotments:")
    for power, allot in tally.allotments.items():
        allocated = tally.spent.get(power, 0)
        lines.append(f"    {power_name(m, power):<14}{allocated:>3} of {allot} DP allocated")
    lines += ["", "Neutral units:"]
    for tally_unit in tally.units.values():
        order = dp_order(m, tally_unit.order) if tally_unit.order is not None else "?"
        lines.append(f"    {order:<24}{tally_unit.why}")
        for key, dp in sorted(tally_unit.totals.items(), key=lambda kv: (-kv[1], kv[0])):
            read = position.variant.notation.parse_order(m, key, phase_kind="M",
                                                         position=position, power=None)
            shown = dp_order(m, read.order)
            lines.append(f"        {dp} DP  {shown}")
    lines += ["", "Bids:"]
    for j in tally.bids:
        shown = dp_order(m, j.order) if j.order is not None else j.bid.order
        amount = f"{j.bid.dp} DP"
        status = j.status if not j.reason else f"{j.status}: {j.reason}"
        lines.append(f"    {power_name(m, j.bid.power):<14}{amount:>6}  {shown:<24}{status}")
    if not tally.bids:
        lines.append("    none")
    return "\n".join(lines) + "\n"
