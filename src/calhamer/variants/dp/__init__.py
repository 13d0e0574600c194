"""DP-based variants: neutral minor powers whose orders players buy with Diplomacy Points.

This is the "Common Ruleset for DP-based Variants" (NoPunIn10Did) as a rule layer any map can
use; ``docs/rules/dp.md`` gives the rules as implemented and every reading of the source.

- **Minor powers** are map data (``[minor_powers.CODE]``, see ``docs/maps.md``): their units,
  home centres, default order (Hold unless the map says otherwise) and whether their units
  are stationary. No player commands them.
- **Stationary units** (:class:`DPResolver`) take any order, but a move always fails: a
  *sortie* that still bounces others, cuts support and keeps an empty province empty. They
  never dislodge anything; dislodged, they are destroyed (no retreat); a sortie that bounces
  alone leaves a standoff, closing the province to retreats. Vacant minor centres are rebuilt
  with the starting unit in winter.
- **Bids** (:func:`resolve_bids`): each movement phase every player has an allotment of DP
  (flat, or per owned centre with a cap), use-it-or-lose-it, to bid on neutral units' orders.
  Whole numbers only; overspending voids all of a power's bids; identical orders add up; the
  most DP wins, a tie or no bid gives the default order; a power whose unit attacks, or
  supports an attack on, a minor power has its bids on that minor power ignored that turn.
- **Secrecy**: bids are an input of one phase, like orders, kept in ``Position.extra`` and
  dropped when the phase ends. Results and reports show only the winning neutral orders;
  :func:`bid_tally` and :func:`tally_report` are the gamemaster's view of who bid what.
- **Report** (:func:`adjudication_report`): the ruleset's own layout, with a ``Minor Neutral
  Powers`` block (``A Tab - Aru             Bounced 1v1 (with Mom)``).

The package, by concern (each imports only those above it):

- ``neutrals``: minor powers as map data, stationary units (:class:`DPResolver`), winter
  rebuilds;
- ``bids``: bids as written, read and kept in a position;
- ``judging``: the allotment and what DP buy (:class:`DPTerms`), each bid judged, and
  :func:`check_bids`;
- ``tally``: the allocation, every neutral unit's order (:func:`resolve_bids`, :func:`bid_tally`);
- ``report``: the ruleset's report layout and the gamemaster's tally as text;
- this module: the variants themselves, with their bid rule (:class:`DPBids`) and reporter
  (:class:`DPReporter`).

Everything other modules and the tests use is importable from this package.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from calhamer.bids import BidRule, Bids
from calhamer.errors import CalhamerError
from calhamer.map import Location, Map
from calhamer.orders import AnyOrder, Order
from calhamer.position import Position, Unit
from calhamer.reporter import Reporter
from calhamer.results import PhaseOutcome
from calhamer.rules import Rules
from calhamer.variant import Layers

# Besides what the variants use, every name this module had before it became a package, for
# the rest of calhamer, the tests and library callers (``__all__`` is the public part).
from .bids import (  # noqa: F401
    BIDS,
    Bid,
    DPState,
    bids_of,
    bids_to_json,
    parse_bid,
    read_bids,
    to_bid,
    with_bids,
    without_bids,
)
from .judging import (  # noqa: F401
    COUNTED,
    IGNORED,
    ORDER_KINDS,
    VOID,
    DPTerms,
    JudgedBid,
    bid_options,
    bidding_position,
    check_bids,
    judge_bid,
    judge_power_bids,
)
from .neutrals import (  # noqa: F401
    DPResolver,
    MinorPower,
    is_stationary,
    minor_powers,
    neutral_units,
    rebuilds,
)
from .report import (  # noqa: F401
    COLUMN,
    adjudication_lines,
    adjudication_report,
    dp_order,
    dp_phrase,
    dp_unit,
    place,
    resulting_neutral_orders,
    tally_report,
)
from .tally import (  # noqa: F401
    Tally,
    UnitTally,
    attacks_on_minors,
    bid_tally,
    default_order,
    given_orders,
    resolve_bids,
)


class DPBids(BidRule):
    """Bids of Diplomacy Points for neutral units' orders (:func:`check_bids`)."""

    def check(self, position: Position, power: str, bids: Bids) -> list[str]:
        return check_bids(position, power, bids)

    def options(
        self, position: Position, power: str, rules: Rules
    ) -> tuple[int, dict[Location, list[AnyOrder]]]:
        return bid_options(position, power, rules)


class DPReporter(Reporter):
    """A movement phase's results as the adjudication of the bids: who bid what for each
    neutral unit, and the order it was given."""

    def results(self, outcome: PhaseOutcome, powers: Sequence[str] | None) -> list[str] | None:
        if not outcome.before.phase.is_movement:
            return None
        return adjudication_lines(outcome, powers)


class Neutrals(DPTerms):
    """Neutral units bought with Diplomacy Points (the Common Ruleset for DP-based Variants):
    the map's minor powers, whose units take the orders players' secret bids buy.

    Options: ``dp_per_phase`` (a flat allotment), or ``dp_per_center`` DP per owned centre,
    at most ``dp_cap``; ``buyable``, the order kinds DP may buy.
    """

    module_name = "neutrals"
    module_title = "Neutral units bought with Diplomacy Points"
    layers = Layers(resolver=DPResolver, bids=DPBids, reporter=DPReporter,
                    state=DPState)  # the bids of one phase, dropped after it
    options = MappingProxyType({
        "dp_per_phase": "a flat allotment of DP for every player each movement phase",
        "dp_per_center": "otherwise, DP per owned supply centre each movement phase",
        "dp_cap": "the most DP a player receives in a phase (none: no cap)",
        "buyable": "the order kinds DP may buy (hold, move, support, convoy; none: all)",
    })

    dp_per_phase: ClassVar[int | None] = None  # a flat allotment for every player, if set
    dp_per_center: ClassVar[int] = 1  # otherwise: DP per owned supply centre ...
    dp_cap: ClassVar[int | None] = 3  # ... at most this many per phase
    buyable: ClassVar[frozenset[str] | None] = None  # order kinds DP may buy (None: all)

    @classmethod
    def option_value(cls, name: str, value: Any) -> Any:
        """``buyable`` is a list of order kinds (or none: all); ``dp_per_phase`` and
        ``dp_cap`` may be none (no flat allotment, no cap)."""
        if name == "buyable":
            if value is None:
                return None
            kinds = value if isinstance(value, list | tuple | set | frozenset) else [value]
            bad = [k for k in kinds if str(k).lower() not in ORDER_KINDS]
            if bad:
                raise CalhamerError(f"option buyable: {bad[0]!r} is not an order kind "
                                    f"({', '.join(ORDER_KINDS)})")
            return frozenset(str(k).lower() for k in kinds)
        if value is None and name in ("dp_per_phase", "dp_cap"):
            return None
        return super().option_value(name, value)

    @classmethod
    def board_problem(cls, m: Map) -> str | None:
        if not minor_powers(m):
            return f"the board {m.name!r} has no minor powers whose units could be bought"
        return super().board_problem(m)

    # -- where neutral units' orders come from -------------------------------------------------

    def unit_orders(
        self, position: Position, given: Mapping[int, Order], rules: Rules
    ) -> Mapping[str, Sequence[AnyOrder | str]]:
        found = dict(super().unit_orders(position, given, rules))
        if position.phase.is_movement:
            found.update(resolve_bids(position, given).neutral_orders())
        elif position.phase.is_adjustment:
            found.update(rebuilds(position))
        return found

    def may_retreat(self, position: Position, unit: Unit) -> bool:
        return not is_stationary(position.map, unit) and super().may_retreat(position, unit)


class DPVariant(Neutrals):
    """A DP variant on the standard map: ``standard-dp``.

    A stationary neutral army in each of the 12 centres no great power owns at the start, each
    its own minor power; each player receives 1 DP per owned centre, at most 3, each movement
    phase (the Ambition & Empire allotment). Subclasses change the class attributes.
    """

    name = "standard-dp"
    aliases: ClassVar[tuple[str, ...]] = ("dp", "standard-diplomacy-points")
    title = "Standard Diplomacy with DP neutrals"
    map_name = "standard-dp"


class SubSaharanExcerpt(DPVariant):
    """The Sub-Saharan excerpt of the Common Ruleset's DP allocation example: every player
    has 2 DP each movement phase."""

    name = "sub-saharan-excerpt"
    aliases = ("sub-saharan-dp-example",)
    title = "Sub-Saharan (the DP ruleset's example excerpt)"
    map_name = "sub-saharan-excerpt"
    dp_per_phase = 2
    dp_cap = None


__all__ = [
    "BIDS",
    "Bid",
    "DPBids",
    "DPReporter",
    "DPResolver",
    "DPVariant",
    "MinorPower",
    "Neutrals",
    "SubSaharanExcerpt",
    "Tally",
    "adjudication_report",
    "bid_tally",
    "check_bids",
    "minor_powers",
    "parse_bid",
    "resolve_bids",
    "resulting_neutral_orders",
    "tally_report",
    "with_bids",
]
