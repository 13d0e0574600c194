"""The facts of an adjudicated movement phase that Kriegsplomacy tells about, worked out once:
which units were attacked (rule 3.3), which moves were opposed (rule 3.4), which supports were
cut, and the spies, whether each was cut and what it sees (rules 5 to 7).

The lines built from these facts are in :mod:`calhamer.variants.kriegsplomacy.reports`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from weakref import WeakKeyDictionary

from calhamer.adjudicator import EMPTY, MOVE, SUPPORT, MovementResolver, OrderTable
from calhamer.errors import PhaseError
from calhamer.map import Map, ProvinceId
from calhamer.orders import Order
from calhamer.pieces import Dislodged
from calhamer.position import Position
from calhamer.results import PhaseOutcome, Resolution

from .names import by_code
from .spying import CounterEspionage, Espionage, SpyRecord, spy_range

# The facts of each resolution, worked out once: while the phase is adjudicated (for its spies)
# or when its first view is built. Held weakly, so they go when the outcome goes; neither the
# outcome nor its resolution is ever changed to hold them.
_WORKED_OUT: WeakKeyDictionary[Resolution, MovementFacts] = WeakKeyDictionary()


class SpyingRules:
    """Rules 7 and 7.2 over the facts of a movement phase, whatever resolved it (units or
    stacks): what each espionage sees and which spies are remembered. The facts give
    ``before``, ``m``, ``spies`` (the provinces of espionage and counter-espionage orders),
    ``orders`` and ``is_cut``."""

    before: Position
    m: Map
    spies: list[ProvinceId]
    orders: Mapping[ProvinceId, object]

    def is_cut(self, p: ProvinceId) -> bool:
        """Rule 5.1: whether the spying of the unit in ``p`` was cut."""
        raise NotImplementedError

    def sees(self, spy: ProvinceId) -> frozenset[ProvinceId]:
        """The places an espionage order learns about: its range less every other power's
        uncut counter-espionage (rules 7 and 7.2); empty when the espionage is cut."""
        if self.is_cut(spy):
            return frozenset()
        unit = self.before.units[spy]
        hidden: set[ProvinceId] = set()
        for p in self.spies:
            other = self.before.units[p]
            if (
                isinstance(self.orders[p], CounterEspionage)
                and other.power != unit.power
                and not self.is_cut(p)
            ):
                hidden |= spy_range(self.m, other)
        return spy_range(self.m, unit) - hidden

    def spy_records(self) -> tuple[SpyRecord, ...]:
        records = []
        for p in self.spies:
            if isinstance(self.orders[p], Espionage) and not self.is_cut(p):
                unit = self.before.units[p]
                records.append(SpyRecord(unit.power, unit, self.sees(p)))
        return tuple(records)


class MovementFacts(SpyingRules):
    """What Kriegsplomacy tells about one adjudicated movement phase, worked out once.

    ``attacked`` (rule 3.3), ``opposed`` (rule 3.4), spies and their ranges (rules 5 to 7).
    """

    def __init__(
        self, before: Position, resolution: Resolution | None, dislodged: Iterable[Dislodged]
    ) -> None:
        resolver = None if resolution is None else resolution.resolver
        if resolution is None or not isinstance(resolver, MovementResolver):
            raise PhaseError(
                "a Kriegsplomacy view needs the adjudication itself (adjudicate the phase "
                "again rather than rebuilding it from stored results)"
            )
        self.before: Position = before
        self.m: Map = before.map
        self.r: MovementResolver = resolver
        self.t: OrderTable = resolver.table
        m = self.m
        # The legal orders the resolver judged, by the province of their unit.
        self.orders: Mapping[ProvinceId, Order] = resolution.orders
        # Every unit driven out, the ones that may retreat and any a module destroys at once
        # (a stationary neutral unit): a spy sees either driven out.
        moved = {p for p in self.t.movers if self.t.kind[p] == MOVE and self.r.resolution[p]}
        self.dislodged = {m.province_of(d.unit.loc) for d in dislodged} | {
            q for q in (self.t.dest[p] for p in moved) if self.t.kind[q] != EMPTY and q not in moved
        }
        self.attacked = {p: self._attacked(p) for p in before.units}
        self.spies = [
            p for p in by_code(m, before.units)
            if isinstance(self.orders.get(p), Espionage | CounterEspionage)
        ]

    @classmethod
    def of(cls, outcome: PhaseOutcome) -> MovementFacts:
        """The facts of ``outcome``, worked out once however many views are built from it
        (and reused from the adjudication, which worked them out for the spies)."""
        resolution = outcome.resolution
        facts = None if resolution is None else _WORKED_OUT.get(resolution)
        if facts is None:
            facts = cls.build(outcome.before, resolution, outcome.dislodged)
            if resolution is not None:
                _WORKED_OUT[resolution] = facts
        return facts

    @classmethod
    def build(cls, before: Position, resolution: Resolution | None,
              dislodged: Iterable[Dislodged]) -> MovementFacts:
        """The facts of a resolution: a variant's own resolver that knows what fog tells of
        it (a board of stacks, ``fog_facts``) works them out and writes its own lines."""
        own = getattr(resolution.resolver, "fog_facts", None) if resolution else None
        if own is not None:
            return own(before, resolution, dislodged)  # type: ignore[no-any-return]
        return cls(before, resolution, dislodged)

    @classmethod
    def while_adjudicating(
        cls, before: Position, resolution: Resolution, dislodged: Iterable[Dislodged]
    ) -> MovementFacts:
        """The facts of a movement phase being adjudicated, kept for the views of its outcome."""
        facts = _WORKED_OUT[resolution] = cls.build(before, resolution, dislodged)
        return facts

    # -- rules 3.3 and 3.4 ------------------------------------------------------------------------

    def _attacked(self, q: ProvinceId) -> bool:
        """Rule 3.3: a foreign move reached for ``q`` and its unit did not leave."""
        t, r = self.t, self.r
        if t.kind[q] == MOVE and r.resolution[q]:
            return False  # a move into the place it left is no attack
        return any(t.owner[a] != t.owner[q] and r.path(a) for a in t.movers_to[q])

    def opposed(self, p: ProvinceId) -> bool:
        """Rule 3.4: whether the move of the unit in ``p`` met opposition (own units count)."""
        t, r = self.t, self.r
        q = t.dest[p]
        if t.kind[q] != EMPTY:
            if t.kind[q] != MOVE or not r.resolution[q]:
                return True  # a unit holding there, or trying and failing to leave
            if t.dest[q] == p and not r.convoyed[p] and not r.convoyed[q]:
                return True  # a unit moving the other way, neither move convoyed
        return any(a != p and r.path(a) for a in t.movers_to[q])

    def support_cut(self, s: ProvinceId) -> bool:
        """Whether the support ordered in ``s`` (given or void) was cut or dislodged (6.3)."""
        if s in self.dislodged:
            return True
        if self.t.kind[s] == SUPPORT:
            return not self.r.resolution[s]
        return any(self.r.cuts_support(a, s) for a in self.t.movers_to[s])

    # -- rules 5 to 7 -----------------------------------------------------------------------------

    def is_cut(self, p: ProvinceId) -> bool:
        """Rule 5.1: an attack on a spying unit cuts the spying."""
        return self.attacked[p]
