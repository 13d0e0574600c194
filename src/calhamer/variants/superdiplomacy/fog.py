"""A movement phase of stacks as fog of war tells it (``docs/rules/composition.md``, "Fog and
stacks"): :class:`StackFacts` is what the fog module's views ask of an adjudication
(attacks, spies and what they see), worked out from the stack board rather than from the
standard resolver, and it writes the lines of a board of stacks itself:

- a power's own orders, one line per group of units with its number (``3A Vie-Tri* [opp]``),
  with its own casualties always;
- what a spy sees: each order line in its range with the number of units it concerns
  (``Rus 3A ???-War*``, ``Ger 2A Sil S 3A ???-War``) and the units holding in a sector in it;
- the battles: told whole (sides, dice, casualties) to a power that fought in them (directly
  or supporting), and only their casualties to a power whose uncut spy sees a sector of one;
- the dice seed and the orders digest, after the phase, to every power (the throws of a battle
  depend only on them, the phase and the battle's sector);
- whether the Small Powers are armed, which is public.

It is built only when a fog view asks for it (:meth:`._Resolver.fog_facts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from calhamer.map import Map, ProvinceId
from calhamer.orders import Convoy, Support
from calhamer.pieces import Dislodged
from calhamer.position import Position
from calhamer.results import FAILS, INVALID, OrderResult, PhaseOutcome, Resolution
from calhamer.variants.kriegsplomacy.facts import SpyingRules
from calhamer.variants.kriegsplomacy.names import by_code, letter, power_abbreviation, short
from calhamer.variants.kriegsplomacy.reports import OwnLine, centre_lines
from calhamer.variants.kriegsplomacy.spying import (
    CounterEspionage,
    Espionage,
)
from calhamer.views import Note

from .forces import CONVOY, MOVE, SUPPORT, _Group
from .report import dice_lines

if TYPE_CHECKING:
    from .board import _Board
    from .resolver import _Resolver


class StackFacts(SpyingRules):
    """What fog of war tells about one adjudicated movement phase of stacks."""

    def __init__(self, before: Position, resolution: Resolution,
                 dislodged: Iterable[Dislodged]) -> None:
        r: _Resolver = resolution.resolver  # type: ignore[assignment]
        self.r = r
        self.b: _Board = r.b
        self.before = before
        self.m: Map = before.map
        self.record = resolution.dice
        m = self.m
        self.dislodged = {m.province_of(d.unit.loc) for d in dislodged}
        groups = [g for g in self.b.groups if g.count]
        self.groups = sorted(groups, key=lambda g: (m.provinces[g.sector].code, g.id))
        # The spying groups, by sector (one spying order per stack).
        self.orders: dict[ProvinceId, Any] = {}
        for g in self.groups:
            order = g.result.order if g.result is not None else None
            if isinstance(order, Espionage | CounterEspionage):
                self.orders.setdefault(g.sector, order)
        self.spies = by_code(m, self.orders)
        self.attacked = {p: self._attacked(p) for p in before.units}

    # -- attacks, opposition, spies --------------------------------------------------------------

    def _attacked(self, q: ProvinceId) -> bool:
        """Rule 3.3: a foreign force reached for ``q`` (its units did not all leave)."""
        owner = self.b.occupant.get(q)
        here = self.b.by_sector.get(q, [])
        if here and all(self.r.moved(g) for g in here if g.count):
            return False
        return any(f.power != owner and any(g.count and self.r.path(g) for g in f.groups)
                   for f in self.b.forces_into.get(q, ()))

    def opposed(self, g: _Group) -> bool:
        """Rule 3.4: units held the destination or failed to leave it, or other units moved
        there (own ones count), or a force came the other way."""
        t = g.dest
        if any(h.count and not self.r.moved(h) for h in self.b.by_sector.get(t, ())):
            return True
        if any(h.count and h.kind == MOVE and h.dest == g.sector and not h.convoyed
               and not g.convoyed for h in self.b.by_sector.get(t, ())):
            return True
        return any(h is not g and h.count and self.r.path(h)
                   for f in self.b.forces_into.get(t, ()) for h in f.groups)

    def is_cut(self, p: ProvinceId) -> bool:
        """Rule 5.1: an attack on a spying unit cuts the spying."""
        return self.attacked.get(p, False)

    def _unit(self, g: _Group) -> str:
        return f"{g.count}{letter(g.type)}"

    def own_results(self, outcome: PhaseOutcome, power: str, prefix: bool = False
                    ) -> list[OrderResult]:
        m = self.m
        head = f"{power_abbreviation(m, power)} " if prefix else ""
        out = [OrderResult(power, r.text, r.canonical, INVALID, r.reason)
               for r in outcome.results.get(power, []) if r.result == INVALID]
        for g in self.groups:
            if g.power != power:
                continue
            line, verdict, reason = self.own_line(g)
            text = g.result.text if g.result is not None else ""
            order = g.result.order if g.result is not None else None
            out.append(OrderResult(power, text, head + line, verdict, reason, order))
        return out

    def own_line(self, g: _Group) -> tuple[str, Any, str]:
        """The line, verdict and reason a power is told about one group of its units,
        with its casualties (``3A Vie-Tri* [opp; lost 1]``)."""
        m, r = self.m, self.r
        moved = r.moved(g)
        dislodged = g.sector in self.dislodged and not moved and g.size > 0
        told = OwnLine(self._unit(g), short(m, g.loc))
        order = g.result.order if g.result is not None else None
        if g.kind == MOVE:
            told.move(short(m, g.exact), moved, stayed=not moved and not dislodged and g.size > 0,
                      opposed=self.opposed(g))
        else:
            support = convoy = None
            if g.kind == SUPPORT or isinstance(order, Support):
                support = self._target(g, order, None)
            elif g.kind == CONVOY or isinstance(order, Convoy):
                convoy = f"{short(m, g.src)}-{short(m, g.dest)}"
            standing = g.size > 0 and not dislodged
            told.stay(order, standing=standing, cut=self.is_cut(g.sector), support=support,
                      convoy=convoy,
                      hold="holds" if standing else "dislodged" if g.size else None)
        if self.attacked.get(g.sector) and not moved:
            told.flag("att", "attacked")
        if g.size < g.count:
            lost = g.count - g.size
            told.flag(f"lost {lost}", "destroyed" if not g.size else f"{lost} of {g.count} killed")
            if not g.size:
                told.verdict = FAILS
        return told.told(dislodged)

    def _target(self, g: _Group, order: Any, sees: frozenset[ProvinceId] | None) -> str:
        """The units a support names: their number as written on the order, their place
        (``???`` out of ``sees``), and their power when the place is seen."""
        m = self.m
        src = g.src if g.src >= 0 else (m.province_of(order.target) if order else -1)
        written = getattr(order, "target_count", None)
        kind = letter(getattr(order, "target_type", None)) if order is not None else "?"
        if kind == "?":
            kind = "A"
        units = f"{written}{kind}" if written else kind
        seen = sees is None or src in sees
        place = short(m, src) if seen else "???"
        text = f"{units} {place}"
        if seen and sees is not None:
            other = self.b.occupant.get(src)
            text = f"{power_abbreviation(m, other) if other else '???'} {text}"
        into = g.dest if g.dest >= 0 else None
        if into is None and order is not None and getattr(order, "dest", None) is not None:
            into = m.province_of(order.dest)
        if into is not None:
            text += "-" + (short(m, into) if sees is None or into in sees else "???")
        return text

    # -- what a spy sees -------------------------------------------------------------------------

    def spy_title(self, spy: ProvinceId, prefix: bool) -> str:
        g = next(g for g in self.groups
                 if g.sector == spy and g.result is not None
                 and isinstance(g.result.order, Espionage | CounterEspionage))
        line, _, _ = self.own_line(g)
        if prefix:
            line = f"{power_abbreviation(self.m, g.power)} {line}"
        return f"Espionage: {line}"

    def spy_lines(self, spy: ProvinceId) -> list[str]:
        sees = self.sees(spy)
        if not sees:
            return []
        before = self.before
        lines = centre_lines(before, sees)
        for g in self.groups:
            if g.sector == spy and g.result is not None and \
                    isinstance(g.result.order, Espionage):
                continue
            line = self.seen(g, sees)
            if line:
                lines.append(line)
        lines += self.battle_casualties(sees)
        return lines

    def seen(self, g: _Group, sees: frozenset[ProvinceId]) -> str | None:
        """The line a spy seeing ``sees`` gets about group ``g``, if any."""
        m, r = self.m, self.r
        here = g.sector in sees
        dislodged = here and g.sector in self.dislodged and not r.moved(g) and g.size > 0
        who = f"{power_abbreviation(m, g.power)} {self._unit(g)}"
        where = short(m, g.loc) if here else "???"
        tag = " [dislodged]" if dislodged else ""
        star = "*" if here and not dislodged and g.size else ""
        order = g.result.order if g.result is not None else None
        if g.kind == MOVE:
            there = g.dest in sees
            if not here and not there:
                return None
            dest = short(m, g.exact) if there else "???"
            if r.moved(g):
                dest += "*" if there else ""
            else:
                where += star
            return f"{who} {where}-{dest}{tag}"
        if g.kind == SUPPORT or isinstance(order, Support):
            into = g.dest if g.dest >= 0 else g.src
            if not (here or g.src in sees or into in sees):
                return None
            cut = g.sector in self.dislodged or (g.kind == SUPPORT and not r.resolve_group(g))
            if not here and cut:
                return None
            line = f"{who} {where}{star} S {self._target(g, order, sees)}"
            if g.void:
                line += " [nso]"
            return line + tag
        if not here:
            return None
        if g.kind == CONVOY or isinstance(order, Convoy):
            line = f"{who} {where}{star} C A {short(m, g.src)}-{short(m, g.dest)}"
            return line + (" [nso]" if g.void else "") + tag
        if isinstance(order, Espionage):
            return f"{who} {where}{star} E{tag}"
        if isinstance(order, CounterEspionage) and self.is_cut(g.sector):
            return f"{who} {where}{star} CE{tag}"
        return f"{who} {where}{star} H{tag}"  # the units holding in a sector in range

    # -- battles and dice -----------------------------------------------------------------------

    def _battles(self) -> list[Mapping[str, Any]]:
        return list(self.record.battles) if self.record is not None else []

    def _sectors(self, battle: Mapping[str, Any]) -> set[ProvinceId]:
        return {self.m.loc(code) for code in str(battle["battle"]).split("+")}

    def fought(self, power: str, battle: Mapping[str, Any]) -> bool:
        """Whether ``power`` had units directly involved or supporting in ``battle``."""
        return power in self.b.fought.get(str(battle["battle"]), set())

    def battle_casualties(self, sees: frozenset[ProvinceId]) -> list[str]:
        """The casualties (not the dice) of every battle in a sector a spy sees."""
        lines = []
        for battle in self._battles():
            if not self._sectors(battle) & sees:
                continue
            lost: dict[str, int] = {}
            for t in battle["throws"]:
                for k in t["kills"]:
                    lost[k["power"]] = lost.get(k["power"], 0) + 1
            words = ", ".join(f"{power_abbreviation(self.m, p)} lost {n}"
                              for p, n in sorted(lost.items())) or "no losses"
            kind = "" if battle["kind"] == "battle" else f" (to the death, round {battle['round']})"
            lines.append(f"Battle for {battle['battle']}{kind}: {words}")
        return lines

    def notes(self, power: str | None) -> list[Note]:
        """The battles ``power`` fought in, told whole; the dice seed and the orders digest;
        whether the Small Powers are armed. The gamemaster (None) is told every battle."""
        notes = []
        record = self.record
        if record is not None:
            mine = [b for b in self._battles() if power is None or self.fought(power, b)]
            head = dice_lines(self.m, {**record.to_json(), "battles": mine})
            title = "Battles and dice" if power is None else "Your battles and dice"
            notes.append(Note(title, tuple(line for line in head if line)))
        armed = self.before.extra.get("armed") or (
            self.record is not None and self._armed_now())
        if armed:
            when = armed if isinstance(armed, str) else self.before.phase.code
            notes.append(Note("The Small Powers",
                              (f"The Small Powers are armed (first attacked in {when}).",)))
        return notes

    def _armed_now(self) -> bool:
        return self.b.attacks_small_power()
