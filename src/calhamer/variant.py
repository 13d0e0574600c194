"""The standard game as a variant: the hooks every variant may override.

A position carries its :class:`Variant` (``Position.variant``), and the core asks it wherever
a variant may differ. Most hooks are methods of the variant (what a build creates, who wins a
clash of retreats, which phase follows, where the orders of units no player commands come
from, whether a dislodged unit may retreat, which variant fields outlive a phase); four
concerns are collaborators the variant carries, each a small class with the standard game as
its default:

- ``notation`` (:class:`calhamer.notation.Notation`): how units and orders are read and
  written;
- ``visibility`` (:class:`calhamer.views.Visibility`): what each power may know, before and
  after adjudication, and what the next phase must remember to tell;
- ``reporter`` (:class:`calhamer.reporter.Reporter`): what the text reports add;
- ``bids`` (:class:`calhamer.bids.BidRule`, or None): secret bids for orders.

This module imports no variant: the variants subclass :class:`Variant` in
:mod:`calhamer.variants`, and the registry there turns names into variants at the edges
(documents, the command line, the web judge).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from calhamer import validation
from calhamer.adjudicator import MovementResolver
from calhamer.bids import BidRule
from calhamer.notation import STANDARD_NOTATION, Notation
from calhamer.phases import retreat_options
from calhamer.phases.handlers import STANDARD_PHASES, PhaseHandler
from calhamer.pieces import Unit
from calhamer.reporter import STANDARD_REPORTER, Reporter
from calhamer.victory import STANDARD_VICTORY, VictoryRule
from calhamer.views import STANDARD_VISIBILITY, Visibility

if TYPE_CHECKING:
    from calhamer.documents.state import VariantState
    from calhamer.map import Location, UnitType
    from calhamer.orders import AnyOrder, Build, Order
    from calhamer.pieces import Dislodged
    from calhamer.position import Position
    from calhamer.rules import Rules


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
    # How units and orders are written and read (Arpiesse's colours, Superdiplomacy's stacks,
    # Kriegsplomacy's espionage): every reader and writer of orders asks it.
    notation: ClassVar[Notation] = STANDARD_NOTATION
    # What each power may know, before and after adjudication (Kriegsplomacy's fog of war).
    visibility: ClassVar[Visibility] = STANDARD_VISIBILITY
    # What the text reports add or lay out otherwise (the DP variants, Superdiplomacy).
    reporter: ClassVar[Reporter] = STANDARD_REPORTER
    # Secret bids for orders, or None for a variant that takes none (all but the DP variants).
    bids: ClassVar[BidRule | None] = None
    # When a game is over: a solo at the map's victory number of centres, the last power
    # standing, a draw by the game's year limit or by agreement (:mod:`calhamer.victory`). A
    # variant whose rules differ sets its own :class:`~calhamer.victory.VictoryRule`.
    victory: ClassVar[VictoryRule] = STANDARD_VICTORY
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

    # Whether a retreat to an adjacent place the unit may not enter (occupied, the attacker's
    # origin, a standoff) is a legal order that fails and disbands the unit, rather than an
    # illegal one (which disbands it too, but says why).
    blocked_retreat_fails: ClassVar[bool] = False

    def phase_rules(self, rules: Rules) -> Rules:
        """The edition as this variant plays it (a variant may fix some of its options)."""
        return rules

    # The order as the resolver should see it; raises ``validation.Illegal``. A subclass
    # overrides it with a method ``(self, position, power, order)``; the standard game binds
    # the checker itself, because this runs once for every order of every phase.
    check_movement_order = staticmethod(validation.check_movement_order)

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

    def unit_badge(self, unit: Unit) -> str | None:
        """A CSS colour the renderer marks a unit with, besides its power's (Arpiesse)."""
        return None


STANDARD = Variant()
"""The standard game (the variant of a position that names none)."""
