"""The standard game as a variant: the hooks every variant may override.

A position carries its :class:`Variant` (``Position.variant``), and the core asks it wherever
a variant may differ: how units and orders are written and read (Arpiesse's colours), what a
build creates, who wins a clash of retreats, which phase follows and how a phase kind the core
does not know is adjudicated; where the orders of units no player commands come from, whether
a dislodged unit may retreat, which variant fields outlive a phase, and how results are laid
out in a report (the DP variants). Every hook below defaults to the standard game.

This module imports no variant: the variants subclass :class:`Variant` in
:mod:`calhamer.variants`, and the registry there turns names into variants at the edges
(documents, the command line, the web judge).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from calhamer import notation, validation
from calhamer.adjudicator import MovementResolver
from calhamer.phases import retreat_options
from calhamer.phases.handlers import STANDARD_PHASES, PhaseHandler
from calhamer.pieces import Unit
from calhamer.views import full_view

if TYPE_CHECKING:
    from calhamer.documents.state import VariantState
    from calhamer.map import Location, Map, UnitType
    from calhamer.notation import ParsedOrder
    from calhamer.orders import AnyOrder, Build, Order
    from calhamer.pieces import Dislodged
    from calhamer.position import Position
    from calhamer.results import PhaseOutcome
    from calhamer.rules import Rules
    from calhamer.views import PowerView


class Variant:
    """The standard game. Subclasses override class attributes and hook methods."""

    name: ClassVar[str] = "standard"
    aliases: ClassVar[tuple[str, ...]] = ("classic", "standard-diplomacy")
    title: ClassVar[str] = "Standard Diplomacy"
    map_name: ClassVar[str] = "standard"
    default_rules: ClassVar[str] = "datc"
    # The resolver of movement phases: a MovementResolver subclass carries a variant's own
    # strengths and paradox rule (Arpiesse's colours), in the Alexander edition's nested
    # worlds too.
    resolver_class: ClassVar[type[MovementResolver]] = MovementResolver
    # The phase kinds the variant plays, each with its handler (adjudication and possible
    # orders): the standard movement, retreats and adjustments here. A variant reuses, wraps
    # or replaces them, or adds a kind (Arpiesse's summer exchange, "X").
    phases: ClassVar[Mapping[str, PhaseHandler]] = STANDARD_PHASES
    takes_bids: ClassVar[bool] = False  # DP variants: players bid for neutral units' orders
    # The variant's own state: the model of the fields it adds to a phase document, which
    # reads them into ``Position.extra``, writes them back and says what outlives a phase
    # (:class:`calhamer.documents.state.VariantState`). None: the standard game keeps none.
    # A class attribute, so that ``import calhamer`` loads no model (nor pydantic).
    state: ClassVar[type[VariantState] | None] = None

    # Variants hold no state: two instances of one class are the same variant, so positions
    # that carry them compare and hash alike.
    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    # -- notation: units and orders as text ----------------------------------------------------

    def parse_unit(self, m: Map, spec: str, power: str) -> Unit:
        """A unit as written in a phase document or a map's start (``A PAR``)."""
        return notation.parse_unit(m, spec, power)

    def format_unit(self, m: Map, unit: Unit) -> str:
        """A unit as shown in documents and reports (``F STP/SC``)."""
        return notation.format_unit(m, unit)

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        """Read one order of a phase of kind ``phase_kind`` (raises ``OrderError``)."""
        return notation.parse_order(m, text, phase_kind=phase_kind, position=position, power=power)

    def format_order(self, position: Position, order: AnyOrder) -> str:
        """The canonical text of an order given in ``position`` (``F ADR S A VEN - TRI``)."""
        return notation.format_order(position.map, order)

    # -- hidden information (Kriegsplomacy); the defaults show everyone everything ----------

    # Whether powers see less than the whole truth (phase JSON then carries each power's view).
    hidden_information: ClassVar[bool] = False
    # Whether a retreat to an adjacent place the unit may not enter (occupied, the attacker's
    # origin, a standoff) is a legal order that fails and disbands the unit, rather than an
    # illegal one (which disbands it too, but says why).
    blocked_retreat_fails: ClassVar[bool] = False

    def phase_rules(self, rules: Rules) -> Rules:
        """The edition as this variant plays it (a variant may fix some of its options)."""
        return rules

    def known_position(self, position: Position, power: str) -> Position:
        """What ``power`` knows of ``position`` before adjudication: all of it by default."""
        return position

    # The order as the resolver should see it; raises ``validation.Illegal``. A subclass
    # overrides it with a method ``(self, position, power, order)``; the standard game binds
    # the checker itself, because this runs once for every order of every phase.
    check_movement_order = staticmethod(validation.check_movement_order)

    def no_unit_message(
        self, position: Position, power: str | None, province: int, *, dislodged: bool = False
    ) -> str:
        """Why ``power`` may not order the (dislodged) unit in ``province``: it has none there."""
        m = position.map
        where = m.describe(province)
        if dislodged:
            if any(m.province_of(d.unit.loc) == province for d in position.dislodged):
                return f"the dislodged unit in {where} is not yours"
            return f"no dislodged unit in {where} has to retreat"
        if province in position.units:
            return f"the unit in {where} is not yours"
        return f"there is no unit in {where}"

    def finish_outcome(self, outcome: PhaseOutcome, rules: Rules) -> PhaseOutcome:
        """A last look at an adjudicated phase (a variant may note facts in ``next.extra``)."""
        return outcome

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        """What ``power`` may see of ``outcome`` (None: the gamemaster): here, everything."""
        return full_view(outcome, power)

    # -- phases -------------------------------------------------------------------------------

    def built_unit(self, power: str, order: Build, unit_type: UnitType, loc: Location) -> Unit:
        """The unit a legal build order creates (``unit_type`` and ``loc`` already settled)."""
        return Unit(power, unit_type, loc)

    def retreat_clash_winner(self, units: Sequence[Unit]) -> int | None:
        """Which of several units retreating to one place gets there (an index), if any.

        In the standard game none does: they are all disbanded.
        """
        return None

    def next_phase(self, position: Position, rules: Rules) -> Position | None:
        """The phase after ``position`` (whose own phase is over), or None for the usual one."""
        return None

    def unit_orders(
        self, position: Position, given: Mapping[int, Order], rules: Rules
    ) -> Mapping[str, Sequence[AnyOrder | str]]:
        """Where orders for units no player commands come from: extra orders, by power.

        Called before a movement or adjustment phase is adjudicated. ``given`` holds the
        players' legal orders by the province of their unit (movement phases; empty in winter).
        The orders returned are read and checked like any other; in a movement phase they
        replace whatever was given for the same unit. The standard game adds none; the DP
        variants give each neutral unit the order its bids bought, and rebuild minor powers'
        units in winter.
        """
        return {}

    def may_retreat(self, position: Position, unit: Unit) -> bool:
        """Whether a dislodged ``unit`` may retreat; if not, it is destroyed at once.

        Every unit may in the standard game; a DP variant's stationary neutral units may not.
        """
        return True

    def report_blocks(
        self, outcome: PhaseOutcome, powers: Sequence[str] | None
    ) -> list[str] | None:
        """The text report's lines for the results of ``outcome``; None for the usual blocks
        (one block per power, see :func:`calhamer.report.phase_report`)."""
        return None

    def check_bids(
        self, position: Position, power: str, bids: Sequence[Mapping[str, object] | str]
    ) -> list[str]:
        """Problems with ``power``'s bids (``{"order": ..., "dp": ...}``) for this phase."""
        return [f"{self.title} has no bids: only DP variants take them"]

    # -- games ---------------------------------------------------------------------------------

    def prepare_phase(self, position: Position, new_seed: Callable[[], str]) -> Position:
        """A phase about to be played, made ready by the game keeping it: a variant that
        throws dice draws a secret seed with ``new_seed`` and publishes its commitment."""
        return position

    def retreat_choices(self, position: Position, entry: Dislodged) -> list[Location]:
        """Where the dislodged ``entry`` may retreat: the one answer that adjudication, possible
        orders, reports and pictures all ask for (a Superdiplomacy stack may also join its own
        units)."""
        return retreat_options(position, entry)

    def report_notes(self, outcome: PhaseOutcome) -> list[str]:
        """Lines a phase report adds after the results (Superdiplomacy: battles and dice)."""
        return []

    def position_notes(self, position: Position) -> list[str]:
        """Lines shown with a position's summary (Superdiplomacy: the dice commitment)."""
        return []

    def unit_badge(self, unit: Unit) -> str | None:
        """A CSS colour the renderer marks a unit with, besides its power's (Arpiesse)."""
        return None


STANDARD = Variant()
"""The standard game (the variant of a position that names none)."""
