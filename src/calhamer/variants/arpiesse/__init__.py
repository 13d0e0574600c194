"""Arpiesse Diplomacy (Simon Szykman, 1997): every unit is Red, Purple or Silver.

The colours beat each other like rock, paper and scissors (R-P-S): Purple is superior to Red,
Red to Silver, Silver to Purple; units of one colour are equivalent. How the colours change
adjudication, and every reading of the source this module rests on, is written up in
``docs/rules/arpiesse.md``. In short:

- A strength here is a :class:`Force`: the usual number, plus the colours the unit fights in
  (its own, and the colour of any superior unit whose support succeeds) and its role.
- Against a defence (:meth:`ArpiesseResolver.move_beats` with a defending force) an attack must
  have one colour that beats every colour of the defence: a superior colour beats whatever the
  strengths, an equal colour needs the greater strength (rules V and VIII).
- Against another attack on the same province (a preventing force) no colour may lose and at
  least one must win (rule IX, "beat or tie each, and beat at least one").
- An attack whose every colour meets a superior colour in the defence of an occupied province
  fails before anything else is decided and prevents nothing (rule V.3, Example 4).
- An inferior unit cannot cut a superior unit's support (rule VII).
- Paradoxes that are not circular movement or convoys: every order in them fails (V.6, IX.3).

The variant also reads and writes colours in units and orders (``Purple A VEN``,
``Red F ADR S Red A VEN - TRI``, ``Build Silver A PAR``), builds in the named colour (Red by
default), lets a superior retreat win a clash of retreats (rule X), and offers the optional
summer colour exchange (rule XII) as the ``colour_exchange`` option or the
``arpiesse-exchange`` variant.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import Field, StrictBool

from calhamer import notation
from calhamer.adjudicator import CONVOY, EMPTY, MOVE, MovementResolver, OrderTable
from calhamer.documents.base import Document
from calhamer.documents.state import VariantState
from calhamer.errors import IllegalOrderError, InvalidOrderError, OrderError
from calhamer.map import Location, Map, Terrain, UnitType
from calhamer.notation import ParsedOrder
from calhamer.orders import AnyOrder, Build, Convoy, Order, Support, Waive
from calhamer.phases import Intake, OrdersIn, advance
from calhamer.phases.handlers import PhaseHandler
from calhamer.position import Phase, Position, Unit
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import Rules
from calhamer.variant import Layers, RuleModule, Variant
from calhamer.views import carry_forward

RED, PURPLE, SILVER = 0, 1, 2
COLOURS = (RED, PURPLE, SILVER)
COLOUR_NAMES = ("Red", "Purple", "Silver")
_BY_NAME = {"red": RED, "purple": PURPLE, "silver": SILVER}


def superior(a: int, b: int) -> bool:
    """Whether colour ``a`` is superior to colour ``b`` (P > R, R > S, S > P)."""
    return (a - b) % 3 == 1


def superior_to(colour: int) -> int:
    """The one colour superior to ``colour``."""
    return (colour + 1) % 3


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour]


def find_colour(word: str) -> int | None:
    """The colour a word names (``red``, ``Purple``...), or None."""
    return _BY_NAME.get(word.strip().lower())


# -- units and orders with colours ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColouredUnit(Unit):
    """A unit with its colour; it keeps the colour when it moves or retreats."""

    colour: int = RED


def colour_of(unit: Unit) -> int:
    """A unit's colour (a plain :class:`Unit` counts as Red, the colour units start in)."""
    return getattr(unit, "colour", RED)


@dataclass(frozen=True, slots=True)
class ColouredBuild(Build):
    """``Build Silver A PAR``: a build that names the new unit's colour."""

    colour: int = RED


@dataclass(frozen=True, slots=True)
class Exchange(Order):
    """``F ADR X A TRI``: offer to swap colours with another unit (summer, rule XII)."""

    other_type: UnitType | None
    other: Location


# -- strengths with colours -----------------------------------------------------------------------

ATTACK, DEFENCE, PREVENT = "attack", "defence", "prevent"


class Force(int):
    """A strength (the int value) with the colours it fights in and its role.

    ``colours`` is a bit mask (bit ``c`` for colour ``c``); ``role`` says how a comparison
    treats it: ``attack``, ``defence`` (hold or head-to-head defence) or ``prevent``.
    """

    colours: int
    role: str

    def __new__(cls, strength: int, colours: int, role: str) -> Force:
        force = super().__new__(cls, strength)
        force.colours = colours
        force.role = role
        return force

    def colour_list(self) -> list[int]:
        return [c for c in COLOURS if self.colours >> c & 1]

    def describe(self) -> str:
        """``2 Red``, ``3 Red+Purple``; ``0`` for no force at all."""
        if int(self) == 0 or not self.colours:
            return "0"
        return f"{int(self)} {'+'.join(colour_name(c) for c in self.colour_list())}"


NO_ATTACK = Force(0, 0, ATTACK)
NO_DEFENCE = Force(0, 0, DEFENCE)
NO_PREVENT = Force(0, 0, PREVENT)


def _mask_colours(mask: int) -> tuple[int, ...]:
    return tuple(c for c in COLOURS if mask >> c & 1)


def _wins(a: int, strength_a: int, b: int, strength_b: int) -> bool:
    """Whether single colour ``a`` at ``strength_a`` defeats colour ``b`` at ``strength_b``."""
    if a == b:
        return strength_a > strength_b  # equivalent colours: the standard rules (III)
    return superior(a, b)  # otherwise superiority decides, whatever the strengths (V.1, V.2)


def dislodges(attack: int, attack_colours: int, defence: int, defence_colours: int) -> bool:
    """Rule VIII.2: one attack colour must defeat each and every colour of the defence."""
    if attack <= 0:
        return False
    if defence <= 0 or not defence_colours:
        return True
    defend = _mask_colours(defence_colours)
    return any(
        all(_wins(a, attack, d, defence) for d in defend) for a in _mask_colours(attack_colours)
    )


def beats_rival(attack: int, attack_colours: int, rival: int, rival_colours: int) -> bool:
    """Rule IX.1-2: each attack colour beats or ties each rival colour, and one pair beats."""
    if attack <= 0:
        return False
    if rival <= 0 or not rival_colours:
        return True
    beat = False
    rivals = _mask_colours(rival_colours)
    for a in _mask_colours(attack_colours):
        for b in rivals:
            if _wins(b, rival, a, attack):
                return False
            if _wins(a, attack, b, rival):
                beat = True
    return beat


class ArpiesseResolver(MovementResolver):
    """The DATC resolver with coloured strengths (rules III to IX)."""

    def __init__(
        self,
        table: OrderTable,
        neutral: frozenset[int] = frozenset(),
        worlds: dict[frozenset[int], MovementResolver] | None = None,
    ) -> None:
        colour = [RED] * len(table.kind)
        for province, unit in table.position.units.items():
            colour[province] = colour_of(unit)
        self.colour = colour
        super().__init__(table, neutral, worlds)

    def _force(self, p: int, supporters: Sequence[int], exclude_owner: int, role: str) -> Force:
        """Unit ``p`` and its successful supports (bar ``exclude_owner``'s) as a force.

        Every support adds one to the strength; a supporter superior to ``p`` also adds its
        own colour (VI.1). A supporter never passes on colours it got by support itself, so
        a unit never gets a colour inferior to its own (VI.2).
        """
        own = self.colour[p]
        strength, mask = 1, 1 << own
        if supporters:
            owner, colour, resolve = self.table.owner, self.colour, self.resolve
            for s in supporters:
                if owner[s] != exclude_owner and resolve(s):
                    strength += 1
                    c = colour[s]
                    if (c - own) % 3 == 1:
                        mask |= 1 << c
        return Force(strength, mask, role)

    def hold_strength(self, q: int) -> Force:  # type: ignore[override]
        t = self.table
        kind = t.kind[q]
        if kind == EMPTY:
            return NO_DEFENCE
        if kind == MOVE:
            # A unit whose move failed defends with its own strength and colour only (VI.4).
            return NO_DEFENCE if self.resolve(q) else Force(1, 1 << self.colour[q], DEFENCE)
        return self._force(q, t.hold_supports[q], -1, DEFENCE)

    def defend_strength(self, p: int) -> Force:  # type: ignore[override]
        return self._force(p, self.table.move_supports[p], -1, DEFENCE)

    def attack_strength(self, p: int) -> Force:  # type: ignore[override]
        t = self.table
        if self.convoyed[p] and not self.path(p):
            return NO_ATTACK
        q = t.dest[p]
        if t.kind[q] == EMPTY or (self.opponent[p] == -1 and t.kind[q] == MOVE and self.resolve(q)):
            return self._force(p, t.move_supports[p], -1, ATTACK)
        if t.owner[q] == t.owner[p]:
            return NO_ATTACK  # no self-dislodgement, even by a superior attack (V.4)
        # A power's support neither strengthens nor colours an attack on its own unit (V.4).
        return self._force(p, t.move_supports[p], t.owner[q], ATTACK)

    def prevent_strength(self, p: int) -> Force:  # type: ignore[override]
        if not super().prevent_strength(p):
            return NO_PREVENT
        if self.repelled(p):
            return NO_PREVENT
        return self._force(p, self.table.move_supports[p], -1, PREVENT)

    def repelled(self, p: int) -> bool:
        """Whether every colour of move ``p`` meets a superior colour in the defence (V.3).

        Such an attack fails whatever the strengths, and that is decided before anything is
        dislodged: it can neither succeed later nor keep another attack out (Example 4).
        """
        t = self.table
        q = t.dest[p]
        kind = t.kind[q]
        if kind == EMPTY:
            return False
        colour = self.colour
        # Cheap test first: the colours the defence could have at most. The attacker's own
        # colour is always among its colours, so the colour superior to it must be there.
        opp = self.opponent[p]
        if opp != -1:
            supporters: Sequence[int] = t.move_supports[q]
        elif kind == MOVE:
            supporters = ()
        else:
            supporters = t.hold_supports[q]
        own_q = colour[q]
        possible = 1 << own_q
        for s in supporters:
            if superior(colour[s], own_q):
                possible |= 1 << colour[s]
        if not possible >> superior_to(colour[p]) & 1:
            return False
        defence = self.defend_strength(opp) if opp != -1 else self.hold_strength(q)
        if defence == 0:
            return False
        attack = self._force(p, t.move_supports[p], t.owner[q], ATTACK)
        return all(defence.colours >> superior_to(c) & 1 for c in _mask_colours(attack.colours))

    def move_beats(self, attack: int, opposing: int) -> bool:
        a_colours = getattr(attack, "colours", 1)
        o_colours = getattr(opposing, "colours", 1)
        if getattr(opposing, "role", DEFENCE) == PREVENT:
            return beats_rival(int(attack), a_colours, int(opposing), o_colours)
        return dislodges(int(attack), a_colours, int(opposing), o_colours)

    def versus(self, attack: int, opposing: int) -> str:
        def show(force: int) -> str:
            return force.describe() if isinstance(force, Force) else str(force)

        return f"{show(attack)} v {show(opposing)}"

    def cuts_support(self, m: int, s: int) -> bool:
        # An inferior unit cannot cut a superior unit's support (VII).
        if superior(self.colour[s], self.colour[m]):
            return False
        return super().cuts_support(m, s)

    def backup_rule(self, cycle: list[int]) -> None:
        """Convoy paradoxes as in the standard game (XI); circular movement moves when that
        is consistent; any other cycle is a paradox in which every order fails (V.6, IX.3).

        Colours make cycles the standard game cannot have: a move into a province whose unit
        is leaving round a circle can be kept out by an attack that the unit, had it stayed,
        would have repelled. Then "everyone moves" is no resolution at all, and all fail.
        """
        kind = self.table.kind
        if any(kind[n] == CONVOY for n in cycle):
            super().backup_rule(cycle)
            return
        members = set(cycle)
        dest = self.table.dest
        rotation = all(kind[n] == MOVE and dest[n] in members for n in cycle)
        value = rotation and self._consistent(cycle, True)
        for n in cycle:
            self.settle(n, value)

    def _consistent(self, cycle: list[int], value: bool) -> bool:
        """Whether every node of ``cycle`` decides ``value`` when all of them are given it.

        Judged by a fresh resolver that knows what is settled so far, so this resolver's
        bookkeeping of the cycle in progress is left alone.
        """
        probe = type(self)(self.table, self.neutral)
        for n, done in enumerate(self.resolved):
            if done:
                probe.settle(n, self.resolution[n])
        for n in cycle:
            probe.settle(n, value)
        return all(probe.decide(n) == value for n in cycle)


# -- reading and writing colours ------------------------------------------------------------------

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
_EXCHANGE_WORD = re.compile(r"(?<![\w.'’])(x|exch|exchanges?|swap)(\s+with)?(?![\w.'’])", re.I)
_UNIT_WORDS = {
    "A": UnitType.ARMY, "ARMY": UnitType.ARMY, "F": UnitType.FLEET, "FLEET": UnitType.FLEET,
}


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
        claim = _Claim(_BY_NAME[match[1].lower()], start, end)
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


class ExchangePhase(PhaseHandler):
    """The summer colour exchange (rule XII): each power's units may change colour."""

    def adjudicate(self, position: Position, orders: OrdersIn, rules: Rules) -> PhaseOutcome:
        return adjudicate_exchanges(position, orders, rules)

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        """An exchange of each of the power's units with every unit it could support to hold
        or that could support it (rule XII)."""
        m = position.map
        found: dict[Location, list[AnyOrder]] = {}
        for here, unit in sorted(position.units.items()):
            if unit.power != power:
                continue
            # the partners the power knows of (every unit on an open board; under fog, its own)
            exchanges: list[AnyOrder] = [
                Exchange(unit.type, unit.loc, other.type, other.loc)
                for there, other in sorted(known.units.items())
                if there != here and (could_support_hold(m, unit, other)
                                      or could_support_hold(m, other, unit))]
            if exchanges:
                found[unit.loc] = exchanges
        return found


class ColouredAdjustments(PhaseHandler):
    """A mixin over whatever handler plays winters: builds may take any colour (rule I)."""

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        found = super().possible_orders(position, known, power, rules)
        for loc, orders in found.items():
            coloured: list[AnyOrder] = []
            for order in orders:
                coloured.append(order)
                if isinstance(order, Build) and not isinstance(order, ColouredBuild):
                    coloured += [ColouredBuild(order.unit_type, order.loc, colour)
                                 for colour in COLOURS if colour != RED]
            found[loc] = coloured
        return found


class ArpiesseOptions(Document):
    """Arpiesse's options (``"options"`` in a phase document)."""

    colour_exchange: StrictBool | None = Field(
        None, description="whether the game plays the summer colour exchange (rule XII); "
        "written only when it differs from the variant's default")


class ArpiesseState(VariantState):
    """Arpiesse's state: the game's options, written when they differ from the variant's."""

    options: ArpiesseOptions = Field(default_factory=lambda: ArpiesseOptions())

    hints: ClassVar[Mapping[str, str]] = {
        "options": '"options" must be an object, like {{"colour_exchange": true}}',
        "options.colour_exchange": 'the option "colour_exchange" must be true or false',
    }
    unknown: ClassVar[Mapping[str, str]] = {
        "options": "options (the one option is colour_exchange)"}

    def to_extra(self, variant: Variant, m: Map) -> dict[str, object]:
        value = self.options.colour_exchange
        return {} if value is None else {"colour_exchange": value}

    @classmethod
    def from_extra(cls, variant: Variant, position: Position) -> ArpiesseState | None:
        assert isinstance(variant, Colours)
        value = variant.exchange_enabled(position)
        if value == variant.colour_exchange:
            return None
        return cls(options=ArpiesseOptions(colour_exchange=value))


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
                parsed = _parse_exchange(m, blanked, position, power)
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


class Colours(RuleModule):
    """Unit colours (Arpiesse rules I to XI): every unit is Red, Purple or Silver, a superior
    colour wins ties of strength and clashes of retreats; and the optional summer colour
    exchange (rule XII), the option ``colour_exchange``."""

    module_name = "colours"
    module_title = "Unit colours, and the summer colour exchange"
    layers = Layers(
        notation=ArpiesseNotation,
        resolver=ArpiesseResolver,
        phases={"X": ExchangePhase},  # the summer exchange
        phase_mixins={"A": ColouredAdjustments},  # builds in any colour
        state=ArpiesseState,  # the options of the game, in every phase document
    )
    options = MappingProxyType({
        "colour_exchange": "whether the summer colour exchange is played (rule XII)"})
    colour_exchange: ClassVar[bool] = False  # the optional summer colour exchange (rule XII)

    def exchange_enabled(self, position: Position) -> bool:
        """Whether this game plays the summer colour exchange (rule XII)."""
        return bool(position.extra.get("colour_exchange", self.colour_exchange))

    # -- units ---------------------------------------------------------------------------------

    def built_unit(self, power: str, order: Build, unit_type: UnitType, loc: Location) -> Unit:
        return ColouredUnit(power, unit_type, loc, getattr(order, "colour", RED))

    # -- retreats, phases ------------------------------------------------------------------------

    def retreat_clash_winner(self, units: Sequence[Unit]) -> int | None:
        """Rule X: a unit superior to every other unit retreating there gets there."""
        colours = [colour_of(u) for u in units]
        for i, c in enumerate(colours):
            if all(superior(c, d) for j, d in enumerate(colours) if j != i):
                return i
        return None

    def next_phase(self, position: Position, rules: Rules) -> Position | None:
        phase = position.phase
        if phase.season == "S" and self.exchange_enabled(position):
            return position.replace(phase=Phase(phase.year, "U", "X"), contested=frozenset())
        if phase.season == "U":
            return position.replace(phase=Phase(phase.year, "F", "M"), contested=frozenset())
        return super().next_phase(position, rules)

    def unit_badge(self, unit: Unit) -> str | None:
        return colour_name(colour_of(unit)).lower()


class Arpiesse(Colours):
    """Arpiesse Diplomacy on the standard map (``docs/rules/arpiesse.md``)."""

    name = "arpiesse"
    aliases: ClassVar[tuple[str, ...]] = ("rps", "arpiesse-diplomacy")
    title = "Arpiesse Diplomacy"


class ArpiesseExchange(Arpiesse):
    """Arpiesse with the optional summer colour exchange (rule XII) switched on."""

    name = "arpiesse-exchange"
    aliases = ("arpiesse-summer",)
    title = "Arpiesse Diplomacy with colour exchange"
    colour_exchange = True


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


# -- the summer colour exchange (rule XII) --------------------------------------------------------


def _parse_exchange(
    m: Map, text: str, position: Position | None, power: str | None
) -> ParsedOrder:
    """``[Power:] F ADR X A TRI`` (also ``exch``, ``exchange [with]``, ``swap``)."""
    body_start = 0
    prefixed = None
    colon = text.find(":")
    if colon != -1:
        name = text[:colon].strip()
        prefixed = m.find_power(name)
        if prefixed is None:
            raise InvalidOrderError(f'"{name}" is not a power', text=text, start=0, end=colon)
        body_start = colon + 1
    given = (m.find_power(power) or power) if power else None
    if prefixed and given and prefixed != given:
        raise InvalidOrderError(f"this order is marked {prefixed}, but the orders are {given}'s",
                                text=text, start=0, end=colon)
    match = _EXCHANGE_WORD.search(text, body_start)
    if match is None:
        raise InvalidOrderError(
            'Exchange phases take only colour exchanges, like "F ADR X A TRI" or '
            '"F ADR exchange with A TRI"',
            text=text, start=body_start, end=len(text.rstrip()),
        )
    unit_type, loc = _exchange_unit(m, text, body_start, match.start(), position)
    other_type, other = _exchange_unit(m, text, match.end(), len(text), position)
    return ParsedOrder(prefixed or given, Exchange(unit_type, loc, other_type, other),
                       text.strip())


def _exchange_unit(
    m: Map, text: str, start: int, end: int, position: Position | None
) -> tuple[UnitType | None, Location]:
    part = text[start:end]
    lead = len(part) - len(part.lstrip())
    words = part.split()
    if not words:
        raise InvalidOrderError("a unit is missing: name both units, like F ADR X A TRI",
                                text=text, start=start, end=max(end, start + 1))
    written = _UNIT_WORDS.get(words[0].upper())
    name = " ".join(words[1:] if written is not None or words[0] == "?" else words)
    at = start + lead
    loc = m.find_location(name) if name else None
    if loc is None:
        close = [m.describe(c) for c in m.suggest_location(name)] if name else []
        hint = f"did you mean {' or '.join(close)}?" if close else None
        raise InvalidOrderError(f'"{name or part.strip()}" is not a province', text=text,
                                start=at, end=at + len(part.strip()), suggestion=hint)
    if written is None:
        unit = position.unit_at(loc) if position is not None else None
        if unit is not None:
            written = unit.type
        elif m.provinces[m.province_of(loc)].terrain is Terrain.SEA:
            written = UnitType.FLEET
    return written, loc


def could_support_hold(m: Map, unit: Unit, other: Unit) -> bool:
    """Whether ``unit`` is placed so that it could support ``other`` to hold."""
    return m.can_reach_province(unit.type, unit.loc, m.province_of(other.loc))


def adjudicate_exchanges(
    position: Position, orders: Mapping[str, Any], rules: Rules
) -> PhaseOutcome:
    """The summer phase: mutual exchange orders swap colours when either unit could support
    the other to hold (rule XII, Examples 10 to 12)."""

    m = position.map
    intake = Intake(position, orders)
    variant = intake.variant
    # Under fog (composition.md, "the summer exchange") an exchange with a place where no
    # unit stands fails like one the other unit did not order, and no reason names the other
    # unit's colour or type: the power learns only what the exchange it took part in did.
    hidden = variant.visibility.hidden_information
    given: dict[int, list[tuple[OrderResult, Exchange]]] = {}
    for result, order in intake.accepted:
        if not isinstance(order, Exchange):
            intake.illegal(result, "only colour exchanges are given in summer (F ADR X A TRI)")
            continue
        here = m.province_of(order.loc)
        unit = position.units.get(here)
        if unit is None or unit.power != result.power:
            intake.illegal(result, variant.visibility.no_unit_message(position, result.power, here))
            continue
        there = m.province_of(order.other)
        partner = position.units.get(there)
        if there == here:
            intake.illegal(result, "a unit cannot exchange colours with itself")
            continue
        if partner is None and not hidden:
            intake.illegal(result, f"there is no unit in {m.describe(there)} to exchange with")
            continue
        if partner is None or (hidden and partner.power != unit.power):
            # Under fog the partner is written as the power wrote it: its type is not told.
            checked = Exchange(unit.type, unit.loc, order.other_type, order.other)
        else:
            checked = Exchange(unit.type, unit.loc, partner.type, partner.loc)
        result.order = checked
        given.setdefault(here, []).append((result, checked))

    wanted: dict[int, int] = {}
    for here, entries in given.items():
        if len({order for _, order in entries}) > 1:
            for result, _ in entries:
                intake.illegal(result, "the unit was given more than one exchange order")
        else:
            wanted[here] = m.province_of(entries[0][1].other)

    units = dict(position.units)
    for here, there in wanted.items():
        unit, partner = position.units[here], position.units.get(there)
        if partner is None or wanted.get(there) != here:
            if hidden or partner is None:
                reason = f"the unit in {m.describe(there)} did not order the same exchange"
            else:
                name = notation.format_unit(m, partner)
                reason = f"{colour_name(colour_of(partner))} {name} did not order the same " \
                         "exchange"
            verdict = FAILS
        elif not (could_support_hold(m, unit, partner) or could_support_hold(m, partner, unit)):
            verdict, reason = FAILS, "neither unit could support the other to hold"
        else:
            colour = colour_of(partner)
            units[here] = (replace(unit, colour=colour) if isinstance(unit, ColouredUnit)
                           else ColouredUnit(unit.power, unit.type, unit.loc, colour))
            verdict, reason = SUCCEEDS, f"exchanges colours: now {colour_name(colour)}"
        for result, _ in given[here]:
            result.result, result.reason = verdict, reason
    after = position.replace(units=units)
    after, nxt = carry_forward(position, None, after, advance(after, rules))
    return PhaseOutcome(position, intake.finish(), after, nxt)
