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

A variant is built from **rule modules** (:class:`RuleModule`): fog of war, flexible builds,
colours, neutrals, stacks. A module is a small :class:`Variant` subclass that overrides the
hooks its rule changes, calling ``super()`` for the rest, and names its :class:`Layers`: the
pieces it adds to each collaborator (a notation subclass, a phase handler mixin, its state
model). A variant is a class that lists its modules as bases (``class Kriegsplomacy(Fog,
FlexibleBuilds)``); when it is created, each collaborator is built from the layers of its
modules, in the order of the class's bases (:func:`combined`). Two modules that cannot be
played together say so (``RuleModule.refuses``), and such a class is refused with the reason.

This module imports no variant: the variants subclass :class:`Variant` in
:mod:`calhamer.variants`, and the registry there turns names into variants at the edges
(documents, the command line, the web judge). :mod:`calhamer.composition` builds a variant
from a board, module names and options, as a variant file gives them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from calhamer import validation
from calhamer.adjudicator import MovementResolver
from calhamer.bids import BidRule
from calhamer.errors import CalhamerError
from calhamer.notation import STANDARD_NOTATION, Notation
from calhamer.phases import retreat_options
from calhamer.phases.handlers import STANDARD_PHASES, PhaseHandler
from calhamer.pieces import Unit
from calhamer.reporter import STANDARD_REPORTER, Reporter
from calhamer.rules import DisorderDistance
from calhamer.victory import STANDARD_VICTORY, VictoryRule
from calhamer.views import STANDARD_VISIBILITY, Visibility

if TYPE_CHECKING:
    from calhamer.documents.state import VariantState
    from calhamer.map import Location, Map, UnitType
    from calhamer.orders import AnyOrder, Build, Order
    from calhamer.pieces import Dislodged
    from calhamer.position import Position
    from calhamer.rules import Rules


_T = TypeVar("_T")


@dataclass(frozen=True)
class Layers:
    """What a rule module adds to each collaborator of the variants built from it.

    Each entry is a class; the collaborators of a variant are built from the entries of all
    its modules (:func:`combined`), so a layer overrides only what its rule changes and
    calls ``super()`` for the rest, like the module's own hooks.
    """

    notation: type[Notation] | None = None
    visibility: type[Visibility] | None = None
    reporter: type[Reporter] | None = None
    # The movement resolver: a MovementResolver subclass with the module's strengths or
    # paradox rule (colours) or units (stationary neutrals).
    resolver: type[MovementResolver] | None = None
    # Phase handlers that replace a kind's handler, or add a kind (at most one module may
    # replace a kind), and mixins that wrap whatever handler plays a kind.
    phases: Mapping[str, type[PhaseHandler]] = field(default_factory=dict)
    phase_mixins: Mapping[str, type[PhaseHandler]] = field(default_factory=dict)
    bids: type[BidRule] | None = None
    # The module's fields of a phase document (a VariantState subclass).
    state: type[VariantState] | None = None


def combined(base: type[_T], layers: Sequence[type[_T]], name: str) -> type[_T]:
    """One class from several layers over ``base``: the layer itself when there is one, a
    class whose bases are the layers, in order, when there are several."""
    unique = list(dict.fromkeys(layers))
    if not unique:
        return base
    if len(unique) == 1:
        return unique[0]
    try:
        return type(name, tuple(unique), {})
    except TypeError as exc:  # an inconsistent order of bases
        raise CalhamerError(f"the rule layers {[c.__name__ for c in unique]} cannot be "
                            f"combined: {exc}") from None


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

    # -- the rules vocabulary: the standard game's own options (:mod:`calhamer.vocabulary`,
    # docs/variants.md), set by a variant in its class body, its file or its spec text. The
    # defaults are the standard game's rules.
    # Where a power builds: "home", "owned", "any-home" or "listed" (calhamer.phases.sites).
    build_sites: ClassVar[str] = "home"
    # Builds owed and not ordered: "waive", or "army-first-winter" (Chaos).
    missing_builds: ClassVar[str] = "waive"
    # The centres a solo needs (None: the map's victory_centers, a power's own first; 0: none).
    solo_centres: ClassVar[int | None] = None
    # Whether a solo also needs strictly the most centres (a tie for the lead plays on).
    solo_needs_lead: ClassVar[bool] = False
    # A lead over every other power that wins (0: none), falling by one a year from
    # lead_margin_year (None: it never falls) to 1 at least (Twenty Twenty).
    lead_margin: ClassVar[int] = 0
    lead_margin_year: ClassVar[int | None] = None
    # The phase kind in which victory is checked ("any", "M" or "A").
    victory_phase: ClassVar[str] = "any"
    # The last year played (None: none): after it the game ends, ranked by centres.
    last_year: ClassVar[int | None] = None
    # Whether the survivors may agree to a draw.
    draw_vote: ClassVar[bool] = True
    # The great powers played (None: all of the map's); the others are left off the board.
    powers: ClassVar[tuple[str, ...] | None] = None
    # Great powers on the board that nobody plays: their units hold, they never build.
    unplayed: ClassVar[tuple[str, ...]] = ()
    # The civil-disorder rule, by the edition's name for it (None: the edition's own).
    civil_disorder: ClassVar[str | None] = None

    # The rule modules the variant is built from, in the order of its bases (set when the
    # class is created, from its bases).
    modules: ClassVar[tuple[type[RuleModule], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _build_collaborators(cls)

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
        """The edition as this variant plays it (a variant may fix some of its options; the
        standard game sets the civil-disorder rule its ``civil_disorder`` option names)."""
        chosen = self.civil_disorder
        if chosen is None or rules.civil_disorder.value == chosen:
            return rules
        return rules.with_options(civil_disorder=DisorderDistance(chosen))

    def board(self) -> Map:
        """The board this variant is played on: its map (``map_name``) as its options and
        modules change it (:meth:`make_board`). Made once for each variant class."""
        cls = type(self)
        found: Map | None = cls.__dict__.get("_board")
        if found is None:
            from calhamer.map import load_map

            found = self.make_board(load_map(self.map_name))
            cls._board = found  # type: ignore[attr-defined]
        return found

    def make_board(self, m: Map) -> Map:
        """Map ``m`` as this variant plays it. The standard game leaves off the great powers
        its ``powers`` option does not name; a module changes the board further (the
        garrisons module adds the minor power that garrisons unowned centres) after
        ``super()``."""
        if self.powers is None or set(self.powers) >= set(m.power_codes):
            return m
        from calhamer.derived_maps import derived_map

        return derived_map(m, ("powers", tuple(self.powers)))

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


def _build_collaborators(cls: type[Variant]) -> None:
    """Set the collaborators of a variant class that its own body does not set, from the
    layers of its modules (its bases that are :class:`RuleModule` classes with layers)."""
    # (RuleModule is not named here: this runs when RuleModule itself is created)
    modules: tuple[Any, ...] = tuple(k for k in cls.__mro__ if k.__dict__.get("module_name"))
    cls.modules = modules
    if not modules:
        return
    names = [k.module_name for k in modules]
    for k in modules:
        for other, why in k.refuses.items():
            if other in names:
                raise CalhamerError(f"{k.module_name} cannot be played with {other}: {why}")
    own = cls.__dict__
    layers = [k.layers for k in modules if "layers" in k.__dict__]
    label = cls.__name__

    def pick(attr: str) -> list[Any]:
        return [getattr(lay, attr) for lay in layers if getattr(lay, attr) is not None]

    def made(standard: _T, layer_name: str, name: str) -> _T:
        built = combined(type(standard), pick(layer_name), label + name)
        return standard if built is type(standard) else built()

    if "notation" not in own:
        cls.notation = made(STANDARD_NOTATION, "notation", "Notation")
    if "visibility" not in own:
        cls.visibility = made(STANDARD_VISIBILITY, "visibility", "Visibility")
    if "reporter" not in own:
        cls.reporter = made(STANDARD_REPORTER, "reporter", "Reporter")
    if "resolver_class" not in own:
        cls.resolver_class = combined(MovementResolver, pick("resolver"), label + "Resolver")
    if "bids" not in own:
        bid_rules = list(dict.fromkeys(pick("bids")))
        if len(bid_rules) > 1:
            raise CalhamerError(f"{label}: two modules take bids ({bid_rules})")
        cls.bids = bid_rules[0]() if bid_rules else None
    if "phases" not in own:
        handlers: dict[str, PhaseHandler] = {}
        kinds = dict.fromkeys([*STANDARD_PHASES, *(k for lay in layers for k in lay.phases)])
        for kind in kinds:
            replacing = list(dict.fromkeys(lay.phases[kind] for lay in layers
                                           if kind in lay.phases))
            if len(replacing) > 1:
                raise CalhamerError(f"{label}: two modules play the {kind!r} phases their "
                                    "own way")
            base = replacing[0] if replacing else type(STANDARD_PHASES[kind])
            mixins = [lay.phase_mixins[kind] for lay in layers if kind in lay.phase_mixins]
            handler = combined(PhaseHandler, [*mixins, base], f"{label}Phase{kind}")
            handlers[kind] = (STANDARD_PHASES[kind] if handler is type(STANDARD_PHASES.get(kind))
                              else handler())
        cls.phases = MappingProxyType(handlers)
    if "state" not in own:
        states = list(dict.fromkeys(pick("state")))
        if len(states) > 1:
            from calhamer.documents.state import combine_states  # pydantic, loaded on demand

            cls.state = combine_states(states, label + "State")
        else:
            cls.state = states[0] if states else None


class RuleModule(Variant):
    """A rule that variants are built from: the hooks it overrides, and its :class:`Layers`.

    A module overrides only the hooks its rule changes and calls ``super()`` in each, so that
    several modules combine in one class. Its options are class attributes, named in
    ``options`` with what each means, and set by a variant (in its class body or its file).
    """

    module_name: ClassVar[str] = ""
    module_title: ClassVar[str] = ""
    layers: ClassVar[Layers] = Layers()
    # option name -> what it means (each a class attribute of the module)
    options: ClassVar[Mapping[str, str]] = MappingProxyType({})
    # module name -> why the two cannot be played together
    refuses: ClassVar[Mapping[str, str]] = MappingProxyType({})

    @classmethod
    def option_value(cls, name: str, value: Any) -> Any:
        """``value`` (as a variant file or spec gives it) checked as the module's option
        ``name``, in the form the class attribute holds; raises :class:`CalhamerError` saying
        what the option takes. By default an option is true or false when its default is, and
        otherwise a whole number of at least 0."""
        if isinstance(getattr(cls, name), bool):
            if not isinstance(value, bool):
                raise CalhamerError(f"option {name} must be true or false, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CalhamerError(f"option {name} must be a whole number of at least 0, "
                                f"not {value!r}")
        return value

    @classmethod
    def board_problem(cls, m: Map) -> str | None:
        """Why this module cannot be played on map ``m`` (a board without what its rule
        needs), or None when it can."""
        return None


STANDARD = Variant()
"""The standard game (the variant of a position that names none)."""
