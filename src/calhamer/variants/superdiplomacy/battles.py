"""Dice battles: who disputes a sector, the exchange of dice, casualties, fights to the death.

Wherever forces of different powers dispute a sector, each side throws ``2 x direct +
supporting`` dice (the defender first; the attackers then throw with what is left) and every
six kills one opposing unit, a directly involved unit being twice as likely to be chosen as a
supporting one. A force that must retreat and cannot, and every Small Power, fights to the
death: both sides throw at once, round after round.

:class:`_Battles` holds these as methods of the movement board (:class:`.board._Board`, which
inherits them): they read its groups, forces, supports and names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from calhamer import dice
from calhamer.map import Location, Map, ProvinceId

from .forces import MOVE, _Battle, _Force, _Group, _Settled, _Side

if TYPE_CHECKING:
    from .resolver import _Resolver


class _Battles:
    """The battles of a movement board (a mixin of :class:`.board._Board`)."""

    # What the board provides.
    m: Map
    occupant: dict[ProvinceId, str]
    by_sector: dict[ProvinceId, list[_Group]]
    forces_into: dict[ProvinceId, list[_Force]]
    move_supports: dict[tuple[int, int], list[_Group]]
    hold_supports: dict[ProvinceId, list[_Group]]
    fought: dict[str, set[str]]

    if TYPE_CHECKING:

        def possible_path(self, g: _Group) -> bool: ...

        def cut_at_order_level(self, s: _Group) -> bool: ...

        def group_name(self, g: _Group, size: int | None = None) -> str: ...

        def retreat_options(
            self, settled: _Settled, t: ProvinceId, group: _Group
        ) -> list[Location]: ...

    def battles(self) -> list[_Battle]:
        """The disputes the orders set up, before anything is decided (one per sector, with
        the two ends of a head-to-head fought as one battle)."""
        raw: list[_Battle] = []
        for t in sorted(self.forces_into):
            owner = self.occupant.get(t)
            sides: dict[str, _Side] = {}
            for f in self.forces_into[t]:
                live = [g for g in f.groups if g.size and self.possible_path(g)]
                if not live:
                    continue
                side = sides.setdefault(f.power, _Side())
                side.direct += live
                side.attacks = side.attacks or f.power != owner
                for src in sorted({g.sector for g in live}):
                    for s in self.move_supports.get((src, t), ()):
                        if s.size and not self.cut_at_order_level(s):
                            side.support.append(s)
            if not any(p != owner for p in sides):
                continue  # nobody disputes the sector: at most its owner's reinforcements
            if owner is not None:
                here = [g for g in self.by_sector.get(t, ()) if g.size]
                stay = [g for g in here if g.kind != MOVE]
                attackers_from = {
                    g.sector for p, side in sides.items() if p != owner
                    for g in side.direct if not g.convoyed
                }
                h2h = [g for g in here if g.kind == MOVE and not g.convoyed
                       and g.dest in attackers_from]
                if stay or h2h:
                    side = sides.setdefault(owner, _Side())
                    side.direct += stay + h2h
                    side.attacks = side.attacks or bool(h2h)
                if stay:
                    for s in self.hold_supports.get(t, ()):
                        if s.size and not self.cut_at_order_level(s):
                            sides[owner].support.append(s)
            sides = {p: side for p, side in sides.items() if side.direct}
            if len(sides) >= 2:
                raw.append(_Battle({t}, sides))
        return [self._finish_battle(b) for b in _merge_battles(raw)]

    def _finish_battle(self, battle: _Battle) -> _Battle:
        direct = {g.id for side in battle.sides.values() for g in side.direct}
        seen: set[int] = set()
        for side in battle.sides.values():
            side.direct = _unique(side.direct, seen)
        for side in battle.sides.values():
            side.support = [g for g in _unique(side.support, seen) if g.id not in direct]
        battle.id = "+".join(sorted(self.m.provinces[t].code for t in battle.sectors))
        return battle

    def fight(self, battle: _Battle, round_: int, kind: str, seed: str, label: str,
              log: list[dict[str, Any]]) -> None:
        """One exchange of dice in ``battle``; casualties are taken off the groups at once."""
        stream = dice.DiceStream(seed, f"{label}|{battle.id}|{round_}")
        defenders = sorted(p for p, s in battle.sides.items() if not s.attacks)
        attackers = sorted(p for p, s in battle.sides.items() if s.attacks)
        if defenders and attackers and not battle.simultaneous:
            stages = [defenders, attackers]  # the defender throws first
        else:
            stages = [defenders + attackers]
        record: dict[str, Any] = {"battle": battle.id, "kind": kind, "round": round_,
                                  "throws": []}
        # Every power with units in the battle, directly or supporting (told it whole under fog).
        self.fought.setdefault(battle.id, set()).update(
            g.power for side in battle.sides.values() for g in (*side.direct, *side.support))
        for stage in stages:
            thrown = []
            for power in stage:
                side = battle.sides[power]
                direct = sum(g.size for g in side.direct)
                supporting = sum(g.size for g in side.support)
                faces = stream.throw(2 * direct + supporting)
                thrown.append((power, direct, supporting, faces))
            for power, direct, supporting, faces in thrown:
                hits = faces.count(6)
                kills = []
                for _ in range(hits):
                    victim = self._victim(battle, power, stream)
                    if victim is None:
                        break
                    group, role = victim
                    group.size -= 1
                    group.deaths.append((battle.id, kind))
                    kills.append({"power": group.power, "unit": self.group_name(group, 1)[1:],
                                  "as": role})
                record["throws"].append({
                    "power": power,
                    "role": "attacks" if battle.sides[power].attacks else "defends",
                    "direct": direct, "supporting": supporting, "dice": faces, "kills": kills,
                })
        log.append(record)

    @staticmethod
    def _victim(battle: _Battle, thrower: str, stream: dice.DiceStream):
        """An opposing unit chosen at random, direct units weighing two, supporting ones one."""
        pool: list[tuple[_Group, str, int]] = []
        for power in sorted(battle.sides):
            if power == thrower:
                continue
            side = battle.sides[power]
            pool += [(g, "direct", 2 * g.size) for g in side.direct if g.size]
            pool += [(g, "supporting", g.size) for g in side.support if g.size]
        total = sum(w for _, _, w in pool)
        if not total:
            return None
        pick = stream.below(total)
        for group, role, weight in pool:
            if pick < weight:
                return group, role
            pick -= weight
        raise AssertionError("unreachable")

    def must_fight(self, settled: _Settled, t: ProvinceId) -> bool:
        """A Small Power always fights to the death; anyone else when no unit can retreat."""
        left, _force = settled.dislodged[t]
        if self.m.is_minor(left[0].power):
            return True
        return not any(self.retreat_options(settled, t, g) for g in left)

    def death_battle(self, r: _Resolver, settled: _Settled, t: ProvinceId) -> _Battle:
        left, force = settled.dislodged[t]
        owner = left[0].power
        defend = _Side(direct=list(left))
        defend.support = [s for s in self.hold_supports.get(t, ()) if s.size and r.resolve_group(s)]
        attack = _Side(direct=r.live(force), attacks=True)
        for src in sorted({g.sector for g in attack.direct}):
            attack.support += [s for s in self.move_supports.get((src, t), ())
                               if s.size and r.resolve_group(s)]
        battle = _Battle({t}, {owner: defend, force.power: attack}, simultaneous=True)
        return self._finish_battle(battle)


def _unique(groups: Iterable[_Group], seen: set[int]) -> list[_Group]:
    out = []
    for g in groups:
        if g.id not in seen:
            seen.add(g.id)
            out.append(g)
    return out


def _merge_battles(raw: list[_Battle]) -> list[_Battle]:
    """Battles that share a directly involved group (the two ends of a head-to-head) merge."""
    parent = list(range(len(raw)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner_of: dict[int, int] = {}
    for i, b in enumerate(raw):
        for side in b.sides.values():
            for g in side.direct:
                j = owner_of.setdefault(g.id, i)
                if j != i:
                    parent[find(i)] = find(j)
    merged: dict[int, _Battle] = {}
    for i, b in enumerate(raw):
        root = find(i)
        into = merged.get(root)
        if into is None:
            merged[root] = _Battle(set(b.sectors), {p: _Side(list(s.direct), list(s.support),
                                                             s.attacks)
                                                    for p, s in b.sides.items()})
            continue
        into.sectors |= b.sectors
        for p, s in b.sides.items():
            side = into.sides.setdefault(p, _Side())
            side.direct += s.direct
            side.support += s.support
            side.attacks = side.attacks or s.attacks
    return list(merged.values())
