"""Superdiplomacy (Dan Alderson, 1965): stacks, dice casualties, supply lines and Small Powers.

The rules as implemented, and every reading of the 1965 sketch they rest on, are written up in
``docs/rules/superdiplomacy.md``. In short:

- **Board** (``maps/superdiplomacy.toml``): the standard map plus Switzerland (a major nation)
  and seven islands; every land sector is a supply-centre sector, majors counting for five
  centres (``[centres]``) and minors for one.
- **Stacks**: a sector holds up to six units of one power, a :class:`Stack` (``2A BER``,
  ``2A+1F KIE``). Orders carry a number (``3A VIE - TRI``, ``2A GAL S BOH - VIE``); units of a
  stack not ordered hold. Strength counts units; moves of one power into one sector combine.
- **Battles**: wherever forces of different powers dispute a sector, each side throws
  ``2 x direct + supporting`` dice (defender first; the attackers then throw with what is left)
  and every six kills one opposing unit, a directly involved unit being twice as likely to be
  chosen as a supporting one. The moves are then decided on the units left, as in Diplomacy. A
  force that must retreat and cannot (and every Small Power) fights to the death.
- **Dice** come from :mod:`calhamer.dice`: a committed seed, the orders and the battle.
- **Winter and spring adjustments**: supply lines (each unit needs its own centre, connected by
  sectors that no other Great Power owns or holds), production per sector, and the Small
  Powers, who arm after the first attack on one of them.

The package, by concern:

- ``notation``: stacks and numbered orders, read and written;
- ``forces``, ``board``, ``resolver``: the orders of a movement phase as groups and forces,
  and the stack resolver that decides them;
- ``battles``: dice battles, casualties and fights to the death;
- ``movement``, ``retreats``, ``adjustments``: the three kinds of phase;
- ``supply``: supply lines; ``seasons``: production, the Small Powers arming, the next phase;
- ``report``: the battles and dice in words.

Everything other modules and the tests use is importable from this package.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType

from calhamer import dice
from calhamer.map import Location, Map
from calhamer.notation import Notation, ParsedOrder
from calhamer.orders import AnyOrder
from calhamer.position import Dislodged, Position, Unit
from calhamer.reporter import Reporter
from calhamer.results import PhaseOutcome
from calhamer.rules import Rules
from calhamer.variant import Layers, RuleModule
from calhamer.views import Note, PowerView, Visibility, full_view

# Besides what the variant uses, the names the rest of calhamer and the tests have always
# imported from here (``__all__`` is the public part, unchanged).
from .adjustments import adjudicate_adjustments  # noqa: F401
from .board import _Board, sea_route  # noqa: F401
from .forces import CONVOY, HOLD, MOVE, SUPPORT, _Battle, _Group, _Side  # noqa: F401
from .movement import LABEL, MAX_DEATH_ROUNDS, adjudicate_movement  # noqa: F401
from .notation import (  # noqa: F401
    CAPACITY,
    Stack,
    StackBuild,
    StackConvoy,
    StackDisband,
    StackHold,
    StackMove,
    StackRetreat,
    StackSupport,
    as_stack,
    count_of,
    format_counted_order,
    format_stack,
    loc_of,
    make_stack,
    parse_counted_order,
    parse_stack,
    with_count,
)
from .phases import StackAdjustments, StackMovement, StackRetreats
from .report import _dice_record, dice_lines, dice_report
from .resolver import _Resolver  # noqa: F401
from .retreats import adjudicate_retreats, retreat_choices  # noqa: F401
from .seasons import (  # noqa: F401
    adjustments_due,
    advance,
    is_major_sector,
    production,
    small_power_production,
)
from .state import SuperdiplomacyState
from .supply import Component, sector_neighbours, supply_components  # noqa: F401

NEUTRAL = "NEUTRAL"


class SuperdiplomacyNotation(Notation):
    """Units as counted stacks (``3A VIE``) and orders that number the units they move."""

    def parse_unit(self, m: Map, spec: str, power: str) -> Unit:
        return parse_stack(m, spec, power)

    def format_unit(self, m: Map, unit: Unit) -> str:
        return format_stack(m, unit)

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        return parse_counted_order(m, text, phase_kind=phase_kind, position=position, power=power)

    def format_order(self, position: Position, order: AnyOrder) -> str:
        return format_counted_order(position.map, order)


class SuperdiplomacyVisibility(Visibility):
    """Everything is seen, as in the standard game; views add the battles and every throw."""

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        """Everything, as in the standard game, with the battles and every throw."""
        view = full_view(outcome, power)
        record = _dice_record(outcome)
        if record is None:
            return view
        lines = tuple(line for line in dice_lines(outcome.before.map, record) if line)
        note = Note("Battles and dice", lines)
        return replace(view, notes=(*view.notes, note))


class SuperdiplomacyReporter(Reporter):
    """Battles and dice after a phase's results; the dice commitment with a position."""

    def phase_notes(self, outcome: PhaseOutcome) -> list[str]:
        record = _dice_record(outcome)
        return [] if record is None else dice_report(outcome.before.map, record)

    def position_notes(self, position: Position) -> list[str]:
        lines = []
        armed = position.extra.get("armed")
        if armed:
            lines.append(f"The Small Powers are armed (first attacked in {armed}).")
        published = position.extra.get("seed_hash")
        if published and position.phase.is_movement:
            lines.append(f"Dice for {position.phase.code}: committed seed, SHA-256 {published}")
        return lines


class Stacks(RuleModule):
    """Stacks of numbered units, dice battles, supply lines and Small Powers
    (Superdiplomacy): every phase kind is played its own way."""

    module_name = "stacks"
    module_title = "Stacks, dice battles, supply lines and Small Powers"
    layers = Layers(
        notation=SuperdiplomacyNotation,
        visibility=SuperdiplomacyVisibility,
        reporter=SuperdiplomacyReporter,
        phases={"M": StackMovement, "R": StackRetreats, "A": StackAdjustments},
        state=SuperdiplomacyState,  # the dice commitment and record, and the Small Powers
    )
    refuses = MappingProxyType({
        "colours": "Arpiesse decides a clash by colour before strength and Superdiplomacy by "
                   "dice battles; one battle cannot be decided both ways, and no source says "
                   "how colours mix inside a stack",
        "flexible-builds": "Superdiplomacy's production (section 8) already says where and "
                           "how many a power builds",
    })

    def prepare_phase(self, position: Position, new_seed: Callable[[], str]) -> Position:
        """A movement phase gets a fresh secret seed; only its hash is shown before it is over."""
        position = super().prepare_phase(position, new_seed)
        if not position.phase.is_movement or position.extra.get("seed"):
            return position
        seed = new_seed()
        return position.replace(extra=MappingProxyType(
            {**position.extra, "seed": seed, "seed_hash": dice.commitment(seed)}))

    # -- phases ---------------------------------------------------------------------------------

    def phase_rules(self, rules: Rules) -> Rules:
        """Section 6: a convoyed attacker's origin stays open to the force it dislodged,
        whatever the edition; a module over this one may close it (fog, Kriegsplomacy 3.6).
        The stacks read no other option of the edition."""
        rules = super().phase_rules(rules)
        if rules.retreat_to_convoying_attacker_origin:
            return rules
        return rules.with_options(retreat_to_convoying_attacker_origin=True)

    def retreat_choices(self, position: Position, entry: Dislodged) -> list[Location]:
        return retreat_choices(position, entry)


class Superdiplomacy(Stacks):
    """Superdiplomacy on the larger board (``docs/rules/superdiplomacy.md``)."""

    name = "superdiplomacy"
    aliases = ("super", "super-diplomacy", "superdip")
    title = "Superdiplomacy"
    map_name = "superdiplomacy"


__all__ = [
    "NEUTRAL",
    "Component",
    "Stack",
    "Stacks",
    "Superdiplomacy",
    "SuperdiplomacyNotation",
    "SuperdiplomacyReporter",
    "SuperdiplomacyVisibility",
    "adjustments_due",
    "count_of",
    "dice_report",
    "format_stack",
    "parse_stack",
    "production",
    "supply_components",
]
