"""The movement phase: battles first, then the moves decided on the units left, then the fights
to the death, until no force that must retreat and cannot is left; and every order's result
put into words (:class:`_Explainer`).

The dice come from :mod:`calhamer.dice`: the committed seed, the digest of the legal orders
and the battle name the stream, so anyone with the revealed seed can throw them again.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from calhamer import dice
from calhamer.map import FLEET, ProvinceId
from calhamer.phases import Intake
from calhamer.position import Dislodged, Phase, Position
from calhamer.results import FAILS, SUCCEEDS, OrderResult, PhaseOutcome, Resolution, Result
from calhamer.rules import Rules
from calhamer.views import carry_forward

from .board import _Board
from .forces import CONVOY, MOVE, SUPPORT, _Group, _Settled, sizes
from .notation import StackHold, make_stack
from .resolver import _Resolver
from .seasons import _lasting, advance

MAX_DEATH_ROUNDS = 500  # a fight to the death still undecided after this many rounds is lost
LABEL = "calhamer-superdiplomacy/1"


def adjudicate_movement(position: Position, orders: Mapping[str, Any], rules: Rules
                        ) -> PhaseOutcome:
    m = position.map
    intake = Intake(position, orders)
    variant = position.variant
    # Units no player commands take the orders the variant gives them (bought with DP), asked
    # with the players' legal orders; without such a rule the Small Powers hold.
    board = _Board(position, intake,
                   lambda given: variant.unit_orders(position, given, rules),
                   convoy_origin_open=rules.retreat_to_convoying_attacker_origin)
    seed = position.extra.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise TypeError(f"the dice seed must be text, not {seed!r}")
    digest = dice.orders_digest(board.lines)
    label = f"{LABEL}|{position.phase.code}|{digest}"
    log: list[dict[str, Any]] = []
    for battle in sorted(board.battles(), key=lambda b: b.id):
        board.fight(battle, 0, "battle", seed or "", label, log)
    rounds: dict[ProvinceId, int] = {}
    while True:
        # Decide the moves on the units left; then every force that must retreat and cannot
        # exchanges one more round of dice with the force that dislodged it, and all is
        # decided again, until no such force is left.
        r = _Resolver(board)
        r.resolve_all()
        settled = board.settle(r)
        fights = [t for t in sorted(settled.dislodged, key=lambda t: m.provinces[t].code)
                  if board.must_fight(settled, t)]
        if not fights:
            break
        for t in fights:
            n = rounds[t] = rounds.get(t, 0) + 1
            if n > MAX_DEATH_ROUNDS:
                for g in settled.dislodged[t][0]:
                    g.deaths += [(m.provinces[t].code, "exhaustion")] * g.size
                    g.size = 0
                continue
            battle = board.death_battle(r, settled, t)
            board.fight(battle, n, "to the death", seed or "", label, log)

    armed = position.extra.get("armed")
    if armed is None and board.attacks_small_power():
        armed = position.phase.code
    published = position.extra.get("seed_hash")
    throws = dice.DiceRecord(
        phase=position.phase.code,
        scheme=f"{dice.SCHEME} {LABEL}",
        seed=seed,
        seed_hash=str(published) if published else (dice.commitment(seed) if seed else None),
        orders_digest=digest,
        battles=log,
    )
    record = throws.to_json()  # as the next phase's document carries it
    extra = _lasting(position.extra, armed=armed)
    dislodged = []
    blocked_doc: dict[str, list[str]] = {}
    for t in sorted(settled.dislodged, key=lambda t: m.provinces[t].code):
        left, _force = settled.dislodged[t]
        armies, fleets = sizes(left)
        fleet_loc = next((g.loc for g in left if g.type is FLEET), None)
        stack = make_stack(m, left[0].power, t, armies, fleets, fleet_loc)
        if stack is None:
            continue
        origins = sorted(settled.blocked.get(t, ()), key=lambda p: m.provinces[p].code)
        dislodged.append(Dislodged(stack, origins[0] if origins else None))
        blocked_doc[m.provinces[t].code] = [m.provinces[p].code for p in origins]
    if blocked_doc:
        extra["retreat_blocked"] = blocked_doc
    phase = position.phase
    after = position.replace(
        phase=Phase(phase.year, phase.season, "R") if dislodged else phase,
        units=settled.stacks,
        dislodged=tuple(dislodged),
        contested=settled.contested if dislodged else frozenset(),
        extra=MappingProxyType({**extra, "dice": record}),
    )
    # The phase after: the retreats if units were dislodged; else the variant's own next phase
    # (fog of war plays a retreat phase after every movement phase, so that silence tells
    # nothing), else the adjustments due.
    staged = None if dislodged else position.variant.next_phase(after, rules)
    if staged is not None:
        staged = staged.replace(extra=MappingProxyType({**staged.extra, "dice": record}))
    nxt = after if dislodged else staged or advance(after, record)
    resolution = Resolution(r, dice=throws)
    after, nxt = carry_forward(position, resolution, after, nxt)

    def word_results() -> dict[str, list[OrderResult]]:
        explain = _Explainer(board, r, settled)
        for g in board.groups:
            verdict, reason = explain.result(g)
            if g.result is not None:
                g.result.result, g.result.reason = verdict, reason
                continue
            hold = StackHold(g.type, g.loc, count=g.count)
            if m.is_minor(g.power):
                reason = f"{reason} (the Small Powers always hold)"
            else:
                reason = f"{reason} (no order given)"
            intake.results.setdefault(g.power, []).append(
                OrderResult(g.power, "", intake.write(hold), verdict, reason)
            )
        return intake.finish()

    moved = {g.sector: g.exact for g in board.groups if g.kind == MOVE and r.moved(g)}
    return PhaseOutcome(before=position, results=word_results, after=after, next=nxt,
                        dislodged=tuple(dislodged), moved=moved, resolution=resolution)


class _Explainer:
    def __init__(self, board: _Board, r: _Resolver, settled: _Settled) -> None:
        self.b, self.r, self.settled = board, r, settled

    def result(self, g: _Group) -> tuple[Result, str]:
        b, r = self.b, self.r
        if g.size == 0:
            return FAILS, self._destroyed(g)
        lost = f"; {g.count - g.size} of {g.count} killed in battle" if g.size < g.count else ""
        fate = self._fate(g)
        if g.void:
            return FAILS, f"void: {g.void}{lost}{fate}"
        if g.kind == MOVE:
            if r.moved(g):
                return SUCCEEDS, f"moves{lost}"
            return FAILS, f"{self._bounce(g)}{lost}{fate}"
        if g.kind == SUPPORT:
            if r.resolve_group(g):
                return SUCCEEDS, f"support given{lost}{fate}"
            cutters = [b.force_name(f) for f in b.cutters(g, r.path)]
            if cutters:
                return FAILS, f"support cut by {', '.join(cutters)}{lost}{fate}"
            return FAILS, f"support cut: the supporting units were dislodged{lost}{fate}"
        if g.kind == CONVOY:
            army = b.convoyed_movers.get((g.src, g.dest), [])
            if r.resolve_group(g) and any(r.path(a) for a in army if a.size):
                return SUCCEEDS, f"convoys{lost}{fate}"
            if not r.resolve_group(g):
                return FAILS, f"convoy disrupted{lost}{fate}"
            return FAILS, f"convoy fails: the route is broken or too small{lost}{fate}"
        if fate:
            return FAILS, f"{fate[2:]}{lost}"
        return SUCCEEDS, f"holds{lost}"

    def _destroyed(self, g: _Group) -> str:
        kinds = {kind for _, kind in g.deaths}
        where = sorted({battle for battle, _ in g.deaths})
        if "to the death" in kinds or "exhaustion" in kinds:
            return f"destroyed fighting to the death ({', '.join(where)})"
        return f"destroyed: all {g.count} killed in the battle for {', '.join(where)}"

    def _fate(self, g: _Group) -> str:
        """``; dislodged by ...`` for a group among units that must retreat."""
        entry = self.settled.dislodged.get(g.sector)
        if entry is None or g not in entry[0]:
            return ""
        force = entry[1]
        attack = self.r.attack_strength(force)
        hold = self.r.hold_strength(g.sector, force)
        return (f"; dislodged by {self.b.force_name(force)} "
                f"({attack}v{hold}), must retreat")

    def _bounce(self, g: _Group) -> str:
        b, r = self.b, self.r
        f = b.force_of[g.id]
        target = b.m.provinces[f.dest].code
        if not r.path(g):
            return f"no convoy route to {target}"
        if b.m.is_minor(g.power):
            return "sortie: the Small Powers never leave their sectors"
        why = r.fits(f)
        if why:
            return f"fails: {why}"
        attack = r.attack_strength(f)
        owner = b.occupant.get(f.dest)
        if owner is not None and owner != f.power:
            hold = r.hold_strength(f.dest, f)
            if attack <= hold:
                return f"bounced {attack}v{hold} against {b.sector_name(f.dest)}"
            for o in b.opp[f.id]:
                defence = r.defend_strength(o)
                if attack <= defence:
                    return f"bounced {attack}v{defence} with {b.force_name(o)}"
        for other in b.forces_into[f.dest]:
            if other is not f:
                prevent = r.prevent_strength(other)
                if attack <= prevent:
                    return f"bounced {attack}v{prevent} with {b.force_name(other)}"
        return "fails (a paradox was resolved against it)"
