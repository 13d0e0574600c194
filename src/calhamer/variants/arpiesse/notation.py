"""Colours in order text: ``Purple A VEN``, ``Red F ADR S Red A VEN - TRI``, ``Build Silver A PAR``.

:class:`ArpiesseNotation` takes the colour words out of an order before the standard notation
reads it, checks each colour written against the unit it names, and writes every unit of an
order with its colour; in the summer exchange phase it reads the exchange orders of
:mod:`.exchange`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from calhamer import notation
from calhamer.errors import IllegalOrderError, InvalidOrderError, OrderError
from calhamer.map import Location, Map, UnitType
from calhamer.notation import ParsedOrder
from calhamer.orders import AnyOrder, Build, Convoy, Order, Support, Waive
from calhamer.position import Position, Unit

from .colours import RED, ColouredBuild, ColouredUnit, Exchange, colour_name, colour_of, find_colour
from .exchange import parse_exchange

_COLOUR_WORD = re.compile(r"(?<![\w.'’])(red|purple|silver)(?![\w.'’])", re.IGNORECASE)
_WORD = re.compile(r"[^\W_][\w.'’]*")
# Words after which a colour names the second unit of an order (supported, convoyed, partner).
_SECOND_UNIT_WORDS = {
    "S", "SUPPORT", "SUPPORTS", "C", "CONVOY", "CONVOYS", "X", "EXCH", "EXCHANGE", "EXCHANGES",
    "WITH", "SWAP",
}
# Words that cannot follow a colour: it must stand just before the unit it names.
_NOT_A_UNIT = {
    "H", "HOLD", "HOLDS", "R", "RETREAT", "RETREATS", "D", "DISBAND", "DISBANDS", "REMOVE",
    "REMOVES", "B", "BUILD", "BUILDS", "VIA", "BY", "TO", "WAIVE", *_SECOND_UNIT_WORDS,
}
_ARROW = re.compile(r"->|=>|→|[-–—]+|(?<![\w.'’])to(?![\w.'’])", re.IGNORECASE)


@dataclass(frozen=True)
class _Claim:
    colour: int
    start: int
    end: int


def _read_colours(text: str) -> tuple[str, _Claim | None, _Claim | None]:
    """Take the colour words out of an order (blanked, so columns stay where they were).

    Returns the blanked text and the colours claimed for the ordered unit and for the second
    unit (supported, convoyed or exchange partner).
    """
    first: _Claim | None = None
    second: _Claim | None = None
    chars = list(text)
    for match in _COLOUR_WORD.finditer(text):
        start, end = match.span()
        colour = find_colour(match[1])
        assert colour is not None  # the pattern matches the colours' names alone
        claim = _Claim(colour, start, end)
        after = text[end:].lstrip()
        word = _WORD.match(after)
        if not after or (word is None and after[0] != "?") or (
            word is not None and word[0].upper() in _NOT_A_UNIT
        ):
            raise InvalidOrderError(
                f'"{match[1]}" is out of place: a colour goes just before the unit it names, '
                f'like "Red A VEN"',
                text=text, start=start, end=end,
            )
        before = {w.upper() for w in _WORD.findall(text[:start])}
        arrows = list(_ARROW.finditer(text, 0, start))
        if arrows and not {
            w.upper() for w in _WORD.findall(text[arrows[-1].end() : start])
        } & _SECOND_UNIT_WORDS:
            raise InvalidOrderError(
                f'"{match[1]}" is out of place: a colour names a unit, not where it goes',
                text=text, start=start, end=end,
            )
        if before & _SECOND_UNIT_WORDS:
            if second is not None:
                raise InvalidOrderError("two colours are given for one unit", text=text,
                                        start=second.start, end=end)
            second = claim
        else:
            if first is not None:
                raise InvalidOrderError("two colours are given for one unit", text=text,
                                        start=first.start, end=end)
            first = claim
        chars[start:end] = " " * (end - start)
    return "".join(chars), first, second


class ArpiesseNotation(notation.Notation):
    """Units and orders with their colours: ``Purple A VEN``, ``BUILD Silver F LON``, and the
    summer exchange ``A VEN X F TRI``."""

    # -- units ---------------------------------------------------------------------------------

    def parse_unit(self, m: Map, spec: str, power: str) -> Unit:
        """``Purple A VEN``; a unit written without a colour is Red."""
        words = spec.split(None, 1)
        colour = find_colour(words[0]) if len(words) == 2 else None
        if colour is None:
            colour, rest = RED, spec
        else:
            rest = words[1]
        unit = notation.parse_unit(m, rest, power)
        return ColouredUnit(unit.power, unit.type, unit.loc, colour)

    def format_unit(self, m: Map, unit: Unit) -> str:
        return f"{colour_name(colour_of(unit))} {notation.format_unit(m, unit)}"

    # -- orders --------------------------------------------------------------------------------

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        notation.check_order_length(text)  # before the colours are looked for
        blanked, first, second = _read_colours(text)
        try:
            if phase_kind == "X":
                parsed = parse_exchange(m, blanked, position, power)
            else:
                parsed = notation.parse_order(
                    m, blanked, phase_kind=phase_kind, position=position, power=power
                )
        except OrderError as exc:
            raise exc.against(text) from None
        order = parsed.order
        if first is not None:
            if isinstance(order, Build):
                order = ColouredBuild(order.unit_type, order.loc, first.colour)
            elif isinstance(order, Waive):
                raise InvalidOrderError("a waive names no unit, so it takes no colour",
                                        text=text, start=first.start, end=first.end)
            elif position is not None:
                _check_claim(m, text, first, _ordered_unit(position, order.loc), order.loc)
        if second is not None:
            if isinstance(order, Support):
                other = order.target
            elif isinstance(order, Convoy):
                other = order.army
            elif isinstance(order, Exchange):
                other = order.other
            else:
                raise InvalidOrderError("this order names only one unit, so only one colour",
                                        text=text, start=second.start, end=second.end)
            if position is not None:
                _check_claim(m, text, second, position.unit_at(other), other)
        return ParsedOrder(parsed.power, order, text.strip())

    def format_order(self, position: Position, order: AnyOrder) -> str:
        m = position.map
        if isinstance(order, Exchange):
            unit = notation._unit_text(m, order.unit_type, order.loc)
            other = notation._unit_text(m, order.other_type, order.other)
            return (f"{_prefix(_ordered_unit(position, order.loc))}{unit} X "
                    f"{_prefix(position.unit_at(order.other))}{other}")
        text = notation.format_order(m, order)
        if isinstance(order, Build):
            name = colour_name(getattr(order, "colour", RED))
            return f"BUILD {name} {text.removeprefix('BUILD ')}"
        if not isinstance(order, Order):
            return text
        text = _prefix(_ordered_unit(position, order.loc)) + text
        if isinstance(order, Support | Convoy):
            word = " S " if isinstance(order, Support) else " C "
            other_loc = order.target if isinstance(order, Support) else order.army
            head, _, tail = text.partition(word)
            text = f"{head}{word}{_prefix(position.unit_at(other_loc))}{tail}"
        return text


def _prefix(unit: Unit | None) -> str:
    return "" if unit is None else f"{colour_name(colour_of(unit))} "


def _ordered_unit(position: Position, loc: Location) -> Unit | None:
    """The unit an order for ``loc`` is for: in a retreat phase, the dislodged one."""
    m = position.map
    province = m.province_of(loc)
    if position.phase.is_retreat:
        for d in position.dislodged:
            if m.province_of(d.unit.loc) == province:
                return d.unit
    return position.units.get(province)


def _check_claim(m: Map, text: str, claim: _Claim, unit: Unit | None, loc: Location) -> None:
    """A colour written in an order must be the unit's: a wrong one is an error."""
    if unit is None:
        return  # no unit there: the order is judged (and found wanting) on other grounds
    actual = colour_of(unit)
    if actual != claim.colour:
        kind = "army" if unit.type is UnitType.ARMY else "fleet"
        raise IllegalOrderError(
            f"the {kind} in {m.describe(m.province_of(loc))} is {colour_name(actual)}, "
            f"not {colour_name(claim.colour)}",
            text=text, start=claim.start, end=claim.end,
        )
