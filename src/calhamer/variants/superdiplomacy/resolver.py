"""The stack resolver: the DATC decisions on forces, counting units (:class:`_Resolver`).

It runs on the standard guess algorithm (:class:`calhamer.resolver.GuessResolver`), with one
node per force and one per support or convoy group, and is asked again after every round of
dice, on the units left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from calhamer.map import FLEET, ProvinceId
from calhamer.resolver import GuessResolver

from .forces import CONVOY, MOVE, SUPPORT, _Force, _Group
from .notation import CAPACITY

if TYPE_CHECKING:
    from .board import _Board


class _Resolver(GuessResolver):
    """The DATC decisions for forces (node ``f``) and supports and convoys (``F + group``).

    A force succeeds when its strength beats the hold strength of the units left in the
    sector, the defence of a force meeting it head-to-head, and every other force's prevent
    strength, exactly as a unit's move in Diplomacy; strengths count units.
    """

    def __init__(self, board: _Board) -> None:
        self.b = board
        self.nf = len(board.forces)
        super().__init__(self.nf + len(board.groups))

    def decide(self, node: int) -> bool:
        if node < self.nf:
            return self.force_wins(self.b.forces[node])
        g = self.b.groups[node - self.nf]
        if g.kind == SUPPORT:
            return self.support_given(g)
        if g.kind == CONVOY:
            return self.convoy_stands(g)
        return True

    def fog_facts(self, before: Any, resolution: Any, dislodged: Any) -> Any:
        """What fog of war tells of this resolution (:class:`.fog.StackFacts`)."""
        from .fog import StackFacts  # only a fog view needs it

        return StackFacts(before, resolution, dislodged)

    def resolve_group(self, g: _Group) -> bool:
        return self.resolve(self.nf + g.id)

    def resolve_all(self) -> None:
        for f in self.b.forces:
            self.resolve(f.id)
        for g in self.b.groups:
            if g.kind in (SUPPORT, CONVOY):
                self.resolve_group(g)

    # -- paths and who is left -----------------------------------------------------------------

    def path(self, g: _Group) -> bool:
        if not g.convoyed:
            return True
        return self.b._route(g, self.resolve_group)

    def moved(self, g: _Group) -> bool:
        return (g.kind == MOVE and g.size > 0 and self.path(g)
                and self.resolve(self.b.force_of[g.id].id))

    def live(self, f: _Force) -> list[_Group]:
        return [g for g in f.groups if g.size and self.path(g)]

    def remaining(self, t: ProvinceId, exclude: frozenset[int] = frozenset()) -> int:
        """Units in ``t`` that stay there: those not moving, and those whose move fails."""
        return sum(g.size for g in self.b.by_sector.get(t, ())
                   if g.size and g.id not in exclude and not self.moved(g))

    def _supports(self, live: list[_Group], t: ProvinceId, exclude_power: str | None) -> int:
        total = 0
        for src in {g.sector for g in live}:
            for s in self.b.move_supports.get((src, t), ()):
                if s.size and s.power != exclude_power and self.resolve_group(s):
                    total += s.size
        return total

    # -- strengths (DATC 5.B.5 to 5.B.8, counting units) ------------------------------------

    def attack_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        if not base:
            return 0
        owner = self.b.occupant.get(f.dest)
        exclude = None
        if owner is not None and owner != f.power and (
            self.b.opp[f.id] or self.remaining(f.dest) > 0
        ):
            exclude = owner  # a power's support does not help to dislodge its own units
        return base + self._supports(live, f.dest, exclude)

    def hold_strength(self, t: ProvinceId, against: _Force) -> int:
        """The units left in ``t`` against ``against`` (a head-to-head is met separately)."""
        owner = self.b.occupant.get(t)
        if owner is None:
            return 0
        h2h = frozenset(g.id for o in self.b.opp[against.id] for g in o.groups if g.sector == t)
        staying = sum(g.size for g in self.b.by_sector.get(t, ()) if g.kind != MOVE and g.size)
        failed = sum(g.size for g in self.b.by_sector.get(t, ())
                     if g.kind == MOVE and g.size and g.id not in h2h and not self.moved(g))
        if not staying and not failed:
            return 0
        strength = staying + failed
        if staying:
            strength += sum(s.size for s in self.b.hold_supports.get(t, ())
                            if s.size and self.resolve_group(s))
        return strength

    def defend_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        return base + self._supports(live, f.dest, None) if base else 0

    def prevent_strength(self, f: _Force) -> int:
        live = self.live(f)
        base = sum(g.size for g in live)
        if not base:
            return 0
        if any(self.resolve(o.id) for o in self.b.opp[f.id]):
            return 0  # it lost a head-to-head battle
        return base + self._supports(live, f.dest, None)

    def fits(self, f: _Force) -> str:
        """Why the sector cannot take the force (room, or fleets on two coasts), or ''."""
        live = self.live(f)
        count = sum(g.size for g in live)
        coasts = {g.exact for g in live if g.type is FLEET}
        if self.b.occupant.get(f.dest) == f.power:
            for g in self.b.by_sector.get(f.dest, ()):
                if g.size and not self.moved(g):
                    count += g.size
                    if g.type is FLEET:
                        coasts.add(g.loc)
        if count > CAPACITY:
            return f"{self.b.m.provinces[f.dest].code} would hold {count} units; six is the most"
        if len(coasts) > 1:
            return "the fleets in one sector must all stand on one coast"
        return ""

    # -- decisions ------------------------------------------------------------------------------

    def force_wins(self, f: _Force) -> bool:
        if not self.live(f) or self.fits(f):
            return False
        if self.b.m.is_minor(f.power):
            # The Small Powers never leave their sectors: a move bought for them (a DP sortie)
            # fails, though it still bounces, cuts support and fights its battle.
            return False
        attack = self.attack_strength(f)
        owner = self.b.occupant.get(f.dest)
        if owner is not None and owner != f.power:
            if attack <= self.hold_strength(f.dest, f):
                return False
            for o in self.b.opp[f.id]:
                if attack <= self.defend_strength(o):
                    return False
        for other in self.b.forces_into[f.dest]:
            if other is not f and attack <= self.prevent_strength(other):
                return False
        return True

    def support_given(self, s: _Group) -> bool:
        if next(self.b.cutters(s, self.path), None) is not None:
            return False  # cut by an attack (not from where the support goes)
        return not any(
            self.resolve(f.id) for f in self.b.forces_into.get(s.sector, ()) if f.power != s.power
        )

    def convoy_stands(self, c: _Group) -> bool:
        # As DATC 5.D: ask the attacks directly, so a convoy paradox is one clean cycle.
        return not any(
            self.force_wins(f) for f in self.b.forces_into.get(c.sector, ()) if f.power != c.power
        )

    def backup_rule(self, cycle: list[int]) -> None:
        groups = [self.b.groups[n - self.nf] for n in cycle if n >= self.nf]
        convoys = [g for g in groups if g.kind == CONVOY]
        if convoys:
            for g in convoys:  # Szykman: the convoying fleets in the paradox hold
                self.settle(self.nf + g.id, False)
        elif all(n < self.nf for n in cycle):
            for n in cycle:  # circular movement: everyone moves
                self.settle(n, True)
        else:
            for n in cycle:
                self.settle(n, False)
