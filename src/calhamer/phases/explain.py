"""Why each movement order succeeded or failed, in words a player understands.

After resolution the resolver's decisions are all cached, so the :class:`Explainer` asks them
again for the final strengths: "bounced 2v2 with A MUN", "dislodged by A BOH (3v2)", "support
cut by F ADR", "void: the supported unit was not ordered to make that move".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from calhamer.adjudicator import (
    CONVOY,
    EMPTY,
    MOVE,
    SUPPORT,
    MovementResolver,
    OrderTable,
    fleets_on_some_route,
)
from calhamer.map import Map
from calhamer.notation import Notation
from calhamer.results import FAILS, SUCCEEDS, Result
from calhamer.rules import ParadoxRule

if TYPE_CHECKING:
    from calhamer.position import Position


class Explainer:
    """Turns resolved decisions into each order's result and a reason with strengths."""

    def __init__(
        self,
        position: Position,
        table: OrderTable,
        resolver: MovementResolver,
        dislodged_at: dict[int, int],
    ) -> None:
        self.position = position
        self.m: Map = position.map
        self.t: OrderTable = table
        self.r: MovementResolver = resolver
        self.dislodged_at: dict[int, int] = dislodged_at
        self._on_routes: dict[int, list[int]] = {}  # by army: its fleets on a route
        self.variant = position.variant
        # The standard notation's unit names are written here (the same text, without the
        # notation's calls); a variant's own are asked of its notation.
        self._names = self.m.loc_names if (
            type(self.variant.notation).format_unit is Notation.format_unit) else None

    def unit_name(self, p: int) -> str:
        unit = self.position.units[p]
        names = self._names
        if names is not None:
            return f"{'AF'[unit.type]} {names[unit.loc]}"
        return self.variant.notation.format_unit(self.m, unit)

    def result(self, p: int) -> tuple[Result, str]:
        t, r = self.t, self.r
        if p in t.void:
            return FAILS, f"void: {t.void[p]}"
        kind = t.kind[p]
        if kind == MOVE:
            return self._move(p)
        dislodged = self._dislodged_reason(p)
        if kind == SUPPORT:
            if r.resolution[p]:
                return SUCCEEDS, "support given"
            if dislodged:
                return FAILS, f"support cut: {dislodged}"
            # Sorted: the order the moves were given in must not change the wording.
            cutters = sorted(self.unit_name(m) for m in t.movers_to[p] if r.cuts_support(m, p))
            return FAILS, f"support cut by {', '.join(cutters)}" if cutters else "support cut"
        if kind == CONVOY:
            return self._convoy(p, dislodged)
        if dislodged:
            return FAILS, dislodged
        return SUCCEEDS, "holds"

    def _convoy(self, p: int, dislodged: str) -> tuple[Result, str]:
        r = self.r
        army = self.t.src[p]
        if army in self.t.by_land:  # 1971 intent: a disrupted swap convoy is not taken
            because = f": {dislodged}" if dislodged else ""
            return FAILS, f"convoy disrupted{because}, so the army went by land"
        if not r.convoyed[army]:
            return FAILS, "the army went by land, not by this convoy"
        if r.rules.paradox is ParadoxRule.ALEXANDER and army in r.fixed_path:
            # IV.5.g: the convoy stands or falls as judged without its own army.
            if r.fixed_path[army] and self._on_route(p, army, alexander=True):
                return SUCCEEDS, "convoys (rule IV.5.g)"
            return FAILS, "convoy disrupted (judged as if its army had no effect)"
        if dislodged:
            return FAILS, f"convoy disrupted: {dislodged}"
        if not r.resolution[p]:
            return FAILS, "convoy disrupted by a paradox: the fleet holds (Szykman rule)"
        if not r.path(army):
            return FAILS, "convoy disrupted: the route is broken elsewhere"
        if not self._on_route(p, army):
            return FAILS, "the army's route does not use this fleet"
        return SUCCEEDS, "convoys"

    def _on_route(self, fleet: int, army: int, alexander: bool = False) -> bool:
        """Whether ``fleet`` lies on an unbroken route of ``army`` (so its convoy is used)."""
        t, r = self.t, self.r
        if alexander:
            world = r.worlds.get(r.neutral | {army}, r)
            usable = [f for f in t.convoy_fleets[army] if world.resolve(f)]
            return fleet in usable and fleet in fleets_on_some_route(t, army, usable)
        # Every fleet convoying one army asks the same: its army's fleets on a route, found once.
        on_route = self._on_routes.get(army)
        if on_route is None:
            usable = [f for f in t.convoy_fleets[army] if r.resolution[f]]
            on_route = self._on_routes[army] = fleets_on_some_route(t, army, usable)
        return fleet in on_route

    def _dislodged_reason(self, p: int) -> str:
        a = self.dislodged_at.get(p)
        if a is None:
            return ""
        attack = self.r.attack_strength(a)
        opp = self.r.opponent[a]
        defence = self.r.defend_strength(opp) if opp != -1 else self.r.hold_strength(p)
        return f"dislodged by {self.unit_name(a)} ({self.r.versus(attack, defence)})"

    def _move(self, p: int) -> tuple[Result, str]:
        t, r = self.t, self.r
        q = t.dest[p]
        if r.resolution[p]:
            if p in self.dislodged_at:
                return SUCCEEDS, f"moves; {self._dislodged_reason(p)}"
            return SUCCEEDS, "moves"
        suffix = f"; {self._dislodged_reason(p)}" if p in self.dislodged_at else ""
        if p in r.neutral:
            return FAILS, "has no effect"
        if r.convoyed[p] and not r.path(p):  # (a move over land has its path)
            return FAILS, f"no convoy route to {self.m.provinces[q].code}{suffix}"
        attack = r.attack_strength(p)
        opp = r.opponent[p]
        if attack == 0 and t.kind[q] != EMPTY and t.owner[q] == t.owner[p]:
            return FAILS, f"cannot dislodge its own power's {self.unit_name(q)}{suffix}"
        if opp != -1:
            defence = r.defend_strength(opp)
            if not r.move_beats(attack, defence):
                vs = r.versus(attack, defence)
                return FAILS, f"bounced {vs} with {self.unit_name(opp)}{suffix}"
        else:
            hold = r.hold_strength(q)
            if not r.move_beats(attack, hold):
                vs = r.versus(attack, hold)
                return FAILS, f"bounced {vs} against {self.unit_name(q)}{suffix}"
        for other in t.movers_to[q]:
            if other != p:
                prevent = r.prevent_strength(other)
                if not r.move_beats(attack, prevent):
                    vs = r.versus(attack, prevent)
                    return FAILS, f"bounced {vs} with {self.unit_name(other)}{suffix}"
        return FAILS, f"{r.move_failure_reason(p)}{suffix}"
