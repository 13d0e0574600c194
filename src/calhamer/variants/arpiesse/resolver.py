"""Strengths with colours, and the resolver that compares them (Arpiesse rules III to IX).

A strength is a :class:`Force`: the usual number, the colours it fights in and its role.
:func:`dislodges` and :func:`beats_rival` compare an attack with a defence and with a rival
attack; :class:`ArpiesseResolver` is the DATC resolver with these strengths, the repelled
attacks of rule V.3, support that an inferior unit cannot cut, and the all-fail paradox rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from calhamer.adjudicator import CONVOY, EMPTY, MOVE, MovementResolver, OrderTable

from .colours import COLOURS, RED, colour_name, colour_of, superior, superior_to

ATTACK, DEFENCE, PREVENT = "attack", "defence", "prevent"


class Force(int):
    """A strength (the int value) with the colours it fights in and its role.

    ``colours`` is a bit mask (bit ``c`` for colour ``c``); ``role`` says how a comparison
    treats it: ``attack``, ``defence`` (hold or head-to-head defence) or ``prevent``.
    """

    colours: int
    role: str

    def __new__(cls, strength: int, colours: int, role: str) -> Force:
        force = super().__new__(cls, strength)
        force.colours = colours
        force.role = role
        return force

    def colour_list(self) -> list[int]:
        return [c for c in COLOURS if self.colours >> c & 1]

    def describe(self) -> str:
        """``2 Red``, ``3 Red+Purple``; ``0`` for no force at all."""
        if int(self) == 0 or not self.colours:
            return "0"
        return f"{int(self)} {'+'.join(colour_name(c) for c in self.colour_list())}"


NO_ATTACK = Force(0, 0, ATTACK)
NO_DEFENCE = Force(0, 0, DEFENCE)
NO_PREVENT = Force(0, 0, PREVENT)


def _mask_colours(mask: int) -> tuple[int, ...]:
    return tuple(c for c in COLOURS if mask >> c & 1)


def _wins(a: int, strength_a: int, b: int, strength_b: int) -> bool:
    """Whether single colour ``a`` at ``strength_a`` defeats colour ``b`` at ``strength_b``."""
    if a == b:
        return strength_a > strength_b  # equivalent colours: the standard rules (III)
    return superior(a, b)  # otherwise superiority decides, whatever the strengths (V.1, V.2)


def dislodges(attack: int, attack_colours: int, defence: int, defence_colours: int) -> bool:
    """Rule VIII.2: one attack colour must defeat each and every colour of the defence."""
    if attack <= 0:
        return False
    if defence <= 0 or not defence_colours:
        return True
    defend = _mask_colours(defence_colours)
    return any(
        all(_wins(a, attack, d, defence) for d in defend) for a in _mask_colours(attack_colours)
    )


def beats_rival(attack: int, attack_colours: int, rival: int, rival_colours: int) -> bool:
    """Rule IX.1-2: each attack colour beats or ties each rival colour, and one pair beats."""
    if attack <= 0:
        return False
    if rival <= 0 or not rival_colours:
        return True
    beat = False
    rivals = _mask_colours(rival_colours)
    for a in _mask_colours(attack_colours):
        for b in rivals:
            if _wins(b, rival, a, attack):
                return False
            if _wins(a, attack, b, rival):
                beat = True
    return beat


class ArpiesseResolver(MovementResolver):
    """The DATC resolver with coloured strengths (rules III to IX)."""

    def __init__(
        self,
        table: OrderTable,
        neutral: frozenset[int] = frozenset(),
        worlds: dict[frozenset[int], MovementResolver] | None = None,
    ) -> None:
        colour = [RED] * len(table.kind)
        for province, unit in table.position.units.items():
            colour[province] = colour_of(unit)
        self.colour = colour
        super().__init__(table, neutral, worlds)

    def _force(self, p: int, supporters: Sequence[int], exclude_owner: int, role: str) -> Force:
        """Unit ``p`` and its successful supports (bar ``exclude_owner``'s) as a force.

        Every support adds one to the strength; a supporter superior to ``p`` also adds its
        own colour (VI.1). A supporter never passes on colours it got by support itself, so
        a unit never gets a colour inferior to its own (VI.2).
        """
        own = self.colour[p]
        strength, mask = 1, 1 << own
        if supporters:
            owner, colour, resolve = self.table.owner, self.colour, self.resolve
            for s in supporters:
                if owner[s] != exclude_owner and resolve(s):
                    strength += 1
                    c = colour[s]
                    if (c - own) % 3 == 1:
                        mask |= 1 << c
        return Force(strength, mask, role)

    def hold_strength(self, q: int) -> Force:  # type: ignore[override]
        t = self.table
        kind = t.kind[q]
        if kind == EMPTY:
            return NO_DEFENCE
        if kind == MOVE:
            # A unit whose move failed defends with its own strength and colour only (VI.4).
            return NO_DEFENCE if self.resolve(q) else Force(1, 1 << self.colour[q], DEFENCE)
        return self._force(q, t.hold_supports[q], -1, DEFENCE)

    def defend_strength(self, p: int) -> Force:  # type: ignore[override]
        return self._force(p, self.table.move_supports[p], -1, DEFENCE)

    def attack_strength(self, p: int) -> Force:  # type: ignore[override]
        t = self.table
        if self.convoyed[p] and not self.path(p):
            return NO_ATTACK
        q = t.dest[p]
        if t.kind[q] == EMPTY or (self.opponent[p] == -1 and t.kind[q] == MOVE and self.resolve(q)):
            return self._force(p, t.move_supports[p], -1, ATTACK)
        if t.owner[q] == t.owner[p]:
            return NO_ATTACK  # no self-dislodgement, even by a superior attack (V.4)
        # A power's support neither strengthens nor colours an attack on its own unit (V.4).
        return self._force(p, t.move_supports[p], t.owner[q], ATTACK)

    def prevent_strength(self, p: int) -> Force:  # type: ignore[override]
        if not super().prevent_strength(p):
            return NO_PREVENT
        if self.repelled(p):
            return NO_PREVENT
        return self._force(p, self.table.move_supports[p], -1, PREVENT)

    def repelled(self, p: int) -> bool:
        """Whether every colour of move ``p`` meets a superior colour in the defence (V.3).

        Such an attack fails whatever the strengths, and that is decided before anything is
        dislodged: it can neither succeed later nor keep another attack out (Example 4).
        """
        t = self.table
        q = t.dest[p]
        kind = t.kind[q]
        if kind == EMPTY:
            return False
        colour = self.colour
        # Cheap test first: the colours the defence could have at most. The attacker's own
        # colour is always among its colours, so the colour superior to it must be there.
        opp = self.opponent[p]
        if opp != -1:
            supporters: Sequence[int] = t.move_supports[q]
        elif kind == MOVE:
            supporters = ()
        else:
            supporters = t.hold_supports[q]
        own_q = colour[q]
        possible = 1 << own_q
        for s in supporters:
            if superior(colour[s], own_q):
                possible |= 1 << colour[s]
        if not possible >> superior_to(colour[p]) & 1:
            return False
        defence = self.defend_strength(opp) if opp != -1 else self.hold_strength(q)
        if defence == 0:
            return False
        attack = self._force(p, t.move_supports[p], t.owner[q], ATTACK)
        return all(defence.colours >> superior_to(c) & 1 for c in _mask_colours(attack.colours))

    def move_beats(self, attack: int, opposing: int) -> bool:
        a_colours = getattr(attack, "colours", 1)
        o_colours = getattr(opposing, "colours", 1)
        if getattr(opposing, "role", DEFENCE) == PREVENT:
            return beats_rival(int(attack), a_colours, int(opposing), o_colours)
        return dislodges(int(attack), a_colours, int(opposing), o_colours)

    def versus(self, attack: int, opposing: int) -> str:
        def show(force: int) -> str:
            return force.describe() if isinstance(force, Force) else str(force)

        return f"{show(attack)} v {show(opposing)}"

    def cuts_support(self, m: int, s: int) -> bool:
        # An inferior unit cannot cut a superior unit's support (VII).
        if superior(self.colour[s], self.colour[m]):
            return False
        return super().cuts_support(m, s)

    def backup_rule(self, cycle: list[int]) -> None:
        """Convoy paradoxes as in the standard game (XI); circular movement moves when that
        is consistent; any other cycle is a paradox in which every order fails (V.6, IX.3).

        Colours make cycles the standard game cannot have: a move into a province whose unit
        is leaving round a circle can be kept out by an attack that the unit, had it stayed,
        would have repelled. Then "everyone moves" is no resolution at all, and all fail.
        """
        kind = self.table.kind
        if any(kind[n] == CONVOY for n in cycle):
            super().backup_rule(cycle)
            return
        members = set(cycle)
        dest = self.table.dest
        rotation = all(kind[n] == MOVE and dest[n] in members for n in cycle)
        value = rotation and self._consistent(cycle, True)
        for n in cycle:
            self.settle(n, value)

    def _consistent(self, cycle: list[int], value: bool) -> bool:
        """Whether every node of ``cycle`` decides ``value`` when all of them are given it.

        Judged by a fresh resolver that knows what is settled so far, so this resolver's
        bookkeeping of the cycle in progress is left alone.
        """
        probe = type(self)(self.table, self.neutral)
        for n, done in enumerate(self.resolved):
            if done:
                probe.settle(n, self.resolution[n])
        for n in cycle:
            probe.settle(n, value)
        return all(probe.decide(n) == value for n in cycle)
