"""Kriegsplomacy (Allen Wells and Don Woods, rd07): Diplomacy where nobody sees the board.

A power learns which of its orders succeeded, which of its units were attacked, which of its
moves were opposed, its dislodgements and whether each retreat worked, its own centres before
each winter and every power's centre count after it; anything else only through espionage.
The rules as implemented, and every reading of the source, are in ``docs/rules/kriegsplomacy.md``.

What the variant changes:

- the board (``maps/kriegsplomacy.toml``) starts in Winter 1900 with home centres and no units,
  and builds go in any owned, vacant centre (rule 2);
- two more movement orders, espionage (``A VIE E``) and counter-espionage (``F NWY CE``), which
  adjudicate as holds (rule 5);
- orders are read and checked against what their power knows (its own units), so that no
  error message reveals a foreign unit; a retreat to a place it may not go is a legal order
  that fails and disbands the unit (rule 3.6);
- every movement phase is followed by a retreat phase and every Fall by a Winter, needed or
  not, so that silence tells nothing (the staged release);
- :meth:`KriegsplomacyVisibility.power_view` builds each power's view in the source's notation
  (``F Sev*-Bla [opp]``, ``Ita A ???-Tyo*``, ``Austria: (4) + 1;``).

The package, by concern (each imports only those above it):

- ``names``: places, powers and units as the source writes them;
- ``spying``: the ``E`` and ``CE`` orders, read and written, and where a unit spies;
- ``facts``: what a movement phase's adjudication tells (attacks, opposition, spies);
- ``reports``: the lines each power and spy is told, and the winter's centre chart;
- ``retreats``: the fate of each dislodged unit, and what a spy sees of it;
- ``visibility``: each power's known position and its view of every phase;
- this module: the two rule modules, :class:`Fog` (fog of war with espionage and
  counter-espionage) and :class:`FlexibleBuilds` (builds in any owned centre, Kriegsplomacy's
  civil disorder), and :class:`Kriegsplomacy`, the preset built from both on its own board.

Everything other modules and the tests use is importable from this package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import ClassVar

from calhamer.map import ARMY, Location, Map, ProvinceId
from calhamer.notation import Notation, ParsedOrder
from calhamer.orders import AnyOrder, Hold, Move, Order
from calhamer.phases import update_centers
from calhamer.phases.handlers import PhaseHandler
from calhamer.position import Phase, Position
from calhamer.results import PhaseOutcome, Resolution
from calhamer.rules import DisorderDistance, Rules
from calhamer.validation import Illegal, sea_route_exists
from calhamer.variant import Layers, RuleModule
from calhamer.views import PowerView, Visibility

# Besides what the variant uses, every public name this module had before it became a
# package, for the tests and library callers.
from .facts import MovementFacts
from .names import power_abbreviation, short  # noqa: F401
from .reports import centre_chart  # noqa: F401
from .retreats import retreat_fates, retreat_line  # noqa: F401
from .spying import (  # noqa: F401
    SPIES,
    CounterEspionage,
    Espionage,
    SpyRecord,
    format_spy_order,
    read_order,
    spy_range,
)
from .state import KriegsplomacyState
from .visibility import (  # noqa: F401
    known_position,
    known_totals,
    movement_view,
    own_view,
    retreat_view,
    winter_view,
)


class KriegsplomacyNotation(Notation):
    """The standard notation, with ``E`` and ``CE`` ending a movement order (rule 5)."""

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        """Orders are read against the power's own units only (an omitted unit type is never
        taken from a foreign unit, a colour written for a foreign unit is never checked);
        ``E`` and ``CE`` end a movement order. The rest of the reading is the notation of
        the other modules (``super()``), given only what the power knows."""
        if position is not None:
            position = known_position(position, m.find_power(power or "") or "")
        # the next layer reads the order itself (a board of stacks reads its numbers)
        return read_order(m, text, phase_kind=phase_kind, position=position, power=power,
                          parse=super().parse_order)

    def format_order(self, position: Position, order: AnyOrder) -> str:
        """An order written as its power knows the board: what the other modules' notation
        adds about a unit (a colour) is written for the power's own units only, so that the
        canonical form of an order naming a foreign unit tells nothing of it."""
        m = position.map
        loc = getattr(order, "loc", None)
        owner = None
        if isinstance(order, Order) and loc is not None:
            here = m.province_of(loc)
            unit = position.units.get(here)
            if position.phase.is_retreat:
                unit = next((d.unit for d in position.dislodged
                             if m.province_of(d.unit.loc) == here), unit)
            owner = unit.power if unit is not None else None
        known = known_position(position, owner or "")
        if isinstance(order, Espionage | CounterEspionage):
            held = super().format_order(known, Hold(order.unit_type, order.loc))
            word = "E" if isinstance(order, Espionage) else "CE"
            return f"{held.removesuffix(' H')} {word}"
        return super().format_order(known, order)


class KriegsplomacyVisibility(Visibility):
    """Fog of war: each power knows its own units and centres, and is told what the rules
    release, phase by phase, in the source's notation."""

    hidden_information = True

    def known_position(self, position: Position, power: str) -> Position:
        """What ``power`` knows: its own units, dislodged units and centres, and the centre
        totals of every power it has been told (:func:`known_totals`); nothing else foreign."""
        return known_position(position, power)

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        """A power's view of a movement phase (its results and its spies' reports), of a
        retreat phase (its retreats, its spies' news, its centres after a Fall) or of a winter
        (the centre chart), in the source's notation."""
        kind = outcome.before.phase.kind
        if kind == "M":
            return movement_view(self, outcome, power)
        if kind == "R":
            return retreat_view(self, outcome, power)
        if kind == "A":
            return winter_view(self, outcome, power)
        if power is None:
            return super().power_view(outcome, power)
        # A kind another module adds (the summer exchange): each power its own results only
        # (composition.md, "the summer exchange").
        return own_view(self, outcome, power)

    def no_unit_message(
        self,
        position: Position,
        power: str | None,
        province: ProvinceId,
        *,
        dislodged: bool = False,
    ) -> str:
        """Said alike whether a foreign unit stands there or none (nothing foreign is told)."""
        m = position.map
        name = m.power(power).name if power and m.find_power(power) else (power or "you")
        what = "dislodged unit" if dislodged else "unit"
        return f"{name} has no {what} in {m.describe(province)}"

    def carried_extra(
        self,
        before: Position,
        after: Position,
        resolution: Resolution | None,
        extra: Mapping[str, object],
    ) -> Mapping[str, object]:
        """A movement phase's spies are remembered in the retreat phase after it (whose news
        of every retreat they get), and forgotten after that phase."""
        movement = before.phase.is_movement
        if not movement and SPIES not in extra:
            return extra
        kept = {k: v for k, v in extra.items() if k != SPIES}
        if movement and resolution is not None:
            facts = MovementFacts.while_adjudicating(before, resolution, after.dislodged)
            if spies := facts.spy_records():
                kept[SPIES] = spies
        return kept


class FogMovement(PhaseHandler):
    """A mixin over whatever handler plays movement phases: its possible orders also spy,
    every unit that may hold may be ordered to espionage (``A VIE E``) or counter-espionage
    (``F NWY CE``) instead."""

    def possible_orders(
        self, position: Position, known: Position, power: str, rules: Rules
    ) -> dict[Location, list[AnyOrder]]:
        found = super().possible_orders(position, known, power, rules)
        check = position.variant.check_movement_order
        for orders in found.values():
            hold = next((o for o in orders if type(o) is Hold), None)
            if hold is None:
                continue
            for kind in (Espionage, CounterEspionage):
                try:
                    orders.append(check(position, power, kind(hold.unit_type, hold.loc)))
                except Illegal:
                    continue
        return found


class Fog(RuleModule):
    """Fog of war (Kriegsplomacy rules 3 to 6): each power knows its own units and centres
    and is told what the rules release, phase by phase; espionage and counter-espionage;
    orders checked against what their power knows; a retreat phase after every movement
    phase and a winter after every Fall, needed or not."""

    module_name = "fog"
    module_title = "Fog of war, with espionage and counter-espionage"
    layers = Layers(
        notation=KriegsplomacyNotation,
        visibility=KriegsplomacyVisibility,
        phase_mixins={"M": FogMovement},
        state=KriegsplomacyState,  # the spies whose retreat news is still to come
    )
    blocked_retreat_fails = True
    options = MappingProxyType({
        "convoy_origin_closed": "a unit dislodged by a convoyed army may not retreat to the "
                                "province the army came from (rule 3.6); false: the rule "
                                "edition decides (DATC 4.A.5)",
    })
    convoy_origin_closed: ClassVar[bool] = True

    def phase_rules(self, rules: Rules) -> Rules:
        """Rule 3.6 closes the province an attacker came from to the unit it dislodged, by
        land or by convoy (the DATC's preference 4.A.5 opens it after a convoy), unless the
        variant sets ``convoy_origin_closed = false``."""
        rules = super().phase_rules(rules)
        if self.convoy_origin_closed and rules.retreat_to_convoying_attacker_origin:
            return rules.with_options(retreat_to_convoying_attacker_origin=False)
        return rules

    # -- orders ------------------------------------------------------------------------------------

    def check_movement_order(self, position: Position, power: str | None, order: Order) -> Order:
        """Legality judged on what the power knows: its own units and the map.

        An army may be ordered anywhere a convoy could take it, whatever fleets stand at sea
        (players cannot see them); a support or convoy may name any unit, or none (rule 4.3).
        """
        m = position.map
        here = m.loc_province[order.loc]
        unit = position.units.get(here)
        if unit is None or (power is not None and unit.power != power):
            raise Illegal(self.visibility.no_unit_message(position, power, here))
        known = known_position(position, unit.power)
        if isinstance(order, Move) and unit.type is ARMY:
            target = m.province_of(order.dest)
            if (
                target != here
                and target not in m.army_adjacent[here]
                and m.is_coastal(here)
                and sea_route_exists(m, here, target)
            ):
                return replace(order, unit_type=ARMY, loc=unit.loc, dest=target)
        return super().check_movement_order(known, power, order)

    # -- phases ------------------------------------------------------------------------------------

    def next_phase(self, position: Position, rules: Rules) -> Position | None:
        """A retreat phase after every movement phase and a winter after every Fall."""
        phase = position.phase
        if phase.is_movement:
            return position.replace(phase=Phase(phase.year, phase.season, "R"), dislodged=())
        if phase.is_retreat and phase.season == "F":
            return position.replace(
                phase=Phase(phase.year, "W", "A"),
                centers=update_centers(position),
                contested=frozenset(),
            )
        return super().next_phase(position, rules)


class FlexibleBuilds(RuleModule):
    """Builds in any owned, vacant centre (Kriegsplomacy rule 2.2), and civil disorder that
    removes the units farthest from any owned centre by any route (rule 2.3), in any
    edition."""

    module_name = "flexible-builds"
    module_title = "Builds in any owned centre"

    def phase_rules(self, rules: Rules) -> Rules:
        """Rule 2.2 (build in any owned, vacant centre) and 2.3 (civil disorder) in any
        edition; a variant's own ``civil_disorder`` option, if it sets one, decides instead
        of rule 2.3."""
        rules = super().phase_rules(rules)
        disorder = (DisorderDistance.OWNED_CENTRE_ANY_ROUTE if self.civil_disorder is None
                    else rules.civil_disorder)
        if not rules.builds_in_home_centres_only and rules.civil_disorder is disorder:
            return rules
        return rules.with_options(builds_in_home_centres_only=False, civil_disorder=disorder)


class Kriegsplomacy(Fog, FlexibleBuilds):
    """Kriegsplomacy rd07: fog of war, espionage and counter-espionage, flexible builds."""

    name = "kriegsplomacy"
    aliases = ("krieg", "kriegsplomacy-rd07", "rd07")
    title = "Kriegsplomacy"
    map_name = "kriegsplomacy"


# The movement handler the preset plays (the standard movement with the espionage orders).
KriegsplomacyMovement = type(Kriegsplomacy.phases["M"])
