"""Arpiesse Diplomacy (Simon Szykman, 1997): every unit is Red, Purple or Silver.

The colours beat each other like rock, paper and scissors (R-P-S): Purple is superior to Red,
Red to Silver, Silver to Purple; units of one colour are equivalent. How the colours change
adjudication, and every reading of the source this package rests on, is written up in
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

The package, by concern (each imports only those above it):

- ``colours``: the three colours and superiority, coloured units, builds and the exchange order;
- ``resolver``: strengths with colours (:class:`Force`) and :class:`ArpiesseResolver`;
- ``exchange``: the summer colour exchange (rule XII), read, listed and adjudicated;
- ``notation``: colours read from and written into order text (:class:`ArpiesseNotation`);
- this module: the rule module :class:`Colours` with its options and state and the winter's
  coloured builds, and the variants :class:`Arpiesse` and :class:`ArpiesseExchange`.

Everything other modules and the tests use is importable from this package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

from pydantic import Field, StrictBool

from calhamer.documents.base import Document
from calhamer.documents.state import VariantState
from calhamer.map import Location, Map, UnitType
from calhamer.orders import AnyOrder, Build
from calhamer.phases.handlers import PhaseHandler
from calhamer.position import Phase, Position, Unit
from calhamer.rules import Rules
from calhamer.variant import Layers, RuleModule, Variant

# Besides what the rule module uses, every public name this module had before it became a
# package, for the tests and library callers.
from .colours import (  # noqa: F401
    COLOUR_NAMES,
    COLOURS,
    PURPLE,
    RED,
    SILVER,
    ColouredBuild,
    ColouredUnit,
    Exchange,
    colour_name,
    colour_of,
    find_colour,
    superior,
    superior_to,
)
from .exchange import ExchangePhase, adjudicate_exchanges, could_support_hold  # noqa: F401
from .notation import ArpiesseNotation
from .resolver import (  # noqa: F401
    ATTACK,
    DEFENCE,
    NO_ATTACK,
    NO_DEFENCE,
    NO_PREVENT,
    PREVENT,
    ArpiesseResolver,
    Force,
    beats_rival,
    dislodges,
)


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
