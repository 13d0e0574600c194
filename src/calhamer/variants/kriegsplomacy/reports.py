"""The lines a power is told, in the source's notation: its own orders of a movement phase
(``F Sev*-Bla [opp]``), what each of its spies saw (``Ita A ???-Tyo*``), and the centre chart
after a winter (``Austria: (4) + 1;``).

Each movement-phase line is built from the :class:`MovementFacts` of the phase; ``???`` stands
for every place a spy does not see.
"""

from __future__ import annotations

from collections.abc import Iterable

from calhamer.adjudicator import MOVE
from calhamer.map import ProvinceId
from calhamer.orders import Convoy, Order, Support
from calhamer.position import Position
from calhamer.results import FAILS, INVALID, SUCCEEDS, OrderResult, PhaseOutcome, Result
from calhamer.views import UNKNOWN

from .facts import MovementFacts
from .names import by_code, label, letter, power_abbreviation, short
from .spying import CounterEspionage, Espionage

# -- a power's own orders (rules 3.3 to 3.6) -------------------------------------------------------


def told_invalid(power: str, res: OrderResult) -> OrderResult:
    """An invalid order as its power is told it: the text, the reason, nothing parsed."""
    return OrderResult(power, res.text, res.canonical, INVALID, res.reason)


def own_results(facts: MovementFacts, outcome: PhaseOutcome, power: str, prefix: bool = False
                ) -> list[OrderResult]:
    """``power``'s orders as it is told them, each line in the source's notation: the
    orders given (invalid ones with the reason), then its units that held for want of a
    valid order."""
    own = getattr(facts, "own_results", None)
    if own is not None:  # facts that write their own lines (a board of stacks)
        return own(outcome, power, prefix)  # type: ignore[no-any-return]
    out: list[OrderResult] = []
    m = facts.m
    abbreviation = f"{power_abbreviation(m, power)} " if prefix else ""
    for res in outcome.results.get(power, []):
        if res.result == INVALID:
            out.append(told_invalid(power, res))
        elif isinstance(res.order, Order):
            line, verdict, reason = own_line(facts, m.province_of(res.order.loc), res.order)
            out.append(
                OrderResult(power, res.text, abbreviation + line, verdict, reason, res.order)
            )
    for p in by_code(m, facts.before.units):
        if facts.before.units[p].power == power and p not in facts.orders:
            line, verdict, reason = own_line(facts, p, None)
            out.append(OrderResult(power, "", abbreviation + line, verdict, reason))
    return out


class OwnLine:
    """The line a power is told about one of its units, as the source writes it
    (``F Sev*-Bla [opp]``), with its verdict and the reason in words.

    Every board of fog builds its lines with this (a unit a province here, a group of a
    stack's units in ``superdiplomacy/fog.py``), so the boards differ only in the facts they
    hand in: the unit and place as written, and what happened to it. A line is one order
    (:meth:`move` or :meth:`stay`), then its flags in the order they are written."""

    def __init__(self, unit: str, where: str) -> None:
        self.unit = unit
        self.where = where
        self.line = ""
        self.verdict: Result = SUCCEEDS
        self.flags: list[str] = []
        self.words: list[str] = []

    def move(self, dest: str, moved: bool, *, stayed: bool, opposed: bool) -> None:
        """A move to ``dest``: the destination is starred when the unit got there, its own
        place when it stayed there and still stands (``stayed``)."""
        where = self.where + ("*" if stayed else "")
        self.line = f"{self.unit} {where}-{dest}{'*' if moved else ''}"
        self.verdict = SUCCEEDS if moved else FAILS
        self.words.append("moves" if moved else "fails")
        if opposed:
            self.flag("opp", "opposed")

    def stay(self, order: object, *, standing: bool, cut: bool, support: str | None = None,
             convoy: str | None = None, hold: str | None = None) -> None:
        """An order that keeps the unit in place (``standing``: it still stands there, and
        its place is starred): spying (``cut`` by an attack), a support of the units written
        ``support``, a convoy of the move written ``convoy``, else a hold, told in the word
        ``hold`` if any. Rules 4.2 to 4.4: whether a support or convoy was given is not
        told."""
        at = f"{self.unit} {self.where}{'*' if standing else ''}"
        self.verdict = SUCCEEDS if standing else FAILS
        if isinstance(order, Espionage | CounterEspionage):
            code = "E" if isinstance(order, Espionage) else "CE"
            self.line = f"{at} {code}"
            what = "espionage" if code == "E" else "counter-espionage"
            if cut:
                self.verdict = FAILS
                self.words.append(f"{what} cut by an attack")
            else:
                self.words.append(what)
        elif support is not None:
            self.line = f"{at} S {support}"
            self.verdict = UNKNOWN
            self.words.append("whether the support was given is not told")
        elif convoy is not None:
            self.line = f"{at} C A {convoy}"
            self.verdict = UNKNOWN
            self.words.append("whether the convoy was used is not told")
        else:
            self.line = f"{at} H"
            if hold is not None:
                self.words.append(hold)

    def flag(self, flag: str, word: str) -> None:
        """A flag written in brackets after the order, and its word in the reason."""
        self.flags.append(flag)
        self.words.append(word)

    def told(self, dislodged: bool) -> tuple[str, Result, str]:
        """The line, verdict and reason, flagged ``dislodged`` last when the unit was."""
        if dislodged:
            self.flags.append("dislodged")
            if "dislodged" not in self.words:
                self.words.append("dislodged")
        line = self.line
        if self.flags:
            line += f" [{'; '.join(self.flags)}]"
        return line, self.verdict, "; ".join(self.words)


def own_line(facts: MovementFacts, p: ProvinceId, order: Order | None
             ) -> tuple[str, Result, str]:
    """The line, verdict and reason a power is told about its unit in ``p``."""
    m, t, r = facts.m, facts.t, facts.r
    unit = facts.before.units[p]
    dislodged = p in facts.dislodged
    told = OwnLine(label(m, unit, facts.before.variant.notation),  # its colour too, if any
                   short(m, unit.loc))
    if t.kind[p] == MOVE:
        moved = r.resolution[p]
        told.move(short(m, t.exact[p]), moved, stayed=not moved and not dislodged,
                  opposed=facts.opposed(p))
    else:
        support = convoy = None
        if isinstance(order, Support):
            support = f"{letter(order.target_type)} {short(m, order.target)}"
            if order.dest is not None:
                support += f"-{short(m, order.dest)}"
        elif isinstance(order, Convoy):
            convoy = f"{short(m, order.army)}-{short(m, order.dest)}"
        told.stay(order, standing=not dislodged, cut=facts.is_cut(p), support=support,
                  convoy=convoy, hold="dislodged" if dislodged else "holds")
    if facts.attacked[p]:
        told.flag("att", "attacked")
    return told.told(dislodged)


# -- what a spy learns (rule 6) --------------------------------------------------------------------


def spy_title(facts: MovementFacts, spy: ProvinceId, prefix: bool) -> str:
    own = getattr(facts, "spy_title", None)
    if own is not None:  # facts that write their own lines (a board of stacks)
        return own(spy, prefix)  # type: ignore[no-any-return]
    unit = facts.before.units[spy]
    line, _, _ = own_line(facts, spy, facts.orders[spy])
    if prefix:
        line = f"{power_abbreviation(facts.m, unit.power)} {line}"
    return f"Espionage: {line}"


def centre_lines(before: Position, sees: Iterable[ProvinceId]) -> list[str]:
    """The owner of each supply centre a spy sees (``Bre = Fre``, ``Por = unowned``)."""
    m = before.map
    lines = []
    for p in by_code(m, sees):
        if m.provinces[p].is_supply_center:
            owner = before.centers.get(p)
            lines.append(
                f"{short(m, p)} = {power_abbreviation(m, owner) if owner else 'unowned'}"
            )
    return lines


def spy_lines(facts: MovementFacts, spy: ProvinceId) -> list[str]:
    """What the espionage in ``spy`` learns: centre owners, then orders, in the source's
    notation, with ``???`` for every place it does not see."""
    own = getattr(facts, "spy_lines", None)
    if own is not None:  # facts that write their own lines (a board of stacks)
        return own(spy)  # type: ignore[no-any-return]
    sees = facts.sees(spy)
    if not sees:
        return []
    m, before = facts.m, facts.before
    lines = centre_lines(before, sees)
    for p in by_code(m, before.units):
        if p != spy:
            line = seen(facts, p, sees)
            if line:
                lines.append(line)
    return lines


def seen(facts: MovementFacts, p: ProvinceId, sees: frozenset[ProvinceId]) -> str | None:
    """The line a spy seeing ``sees`` gets about the unit in ``p``, if any."""
    m, t, r = facts.m, facts.t, facts.r
    unit = facts.before.units[p]
    order = facts.orders.get(p)
    here = p in sees
    dislodged = here and p in facts.dislodged
    written = facts.before.variant.notation
    # The unit as seen: its type, and its colour in a variant with colours (composition.md)
    # when the spy sees the piece itself: in its place, or arriving where the spy looks.
    piece_seen = here or (t.kind[p] == MOVE and t.dest[p] in sees)
    kind_of = label(m, unit, written) if piece_seen else letter(unit.type)
    who = f"{power_abbreviation(m, unit.power)} {kind_of}"
    where = short(m, unit.loc) if here else "???"
    tag = " [dislodged]" if dislodged else ""
    star = "*" if here and not dislodged else ""
    if t.kind[p] == MOVE:
        q = t.dest[p]
        there = q in sees
        if not here and not there:
            return None
        dest = short(m, t.exact[p]) if there else "???"
        if r.resolution[p]:
            dest += "*" if there else ""
        else:
            where += star
        return f"{who} {where}-{dest}{tag}"
    if isinstance(order, Support):
        target = m.province_of(order.target)
        into = target if order.dest is None else m.province_of(order.dest)
        if not (here or target in sees or into in sees):
            return None
        if not here and facts.support_cut(p):
            return None  # rule 6.3
        other = facts.before.units.get(target)
        if other is not None:
            # its colour only if the spy sees the supported unit itself
            kind_of = label(m, other, written) if target in sees else letter(other.type)
            them = f"{power_abbreviation(m, other.power)} {kind_of}"
            at = short(m, other.loc) if target in sees else "???"
        else:
            them = f"??? {letter(order.target_type)}"
            at = short(m, order.target) if target in sees else "???"
        line = f"{who} {where}{star} S {them} {at}"
        if order.dest is not None:
            line += "-" + (short(m, order.dest) if into in sees else "???")
        if p in t.void:
            line += " [nso]"  # rule 6.2
        return line + tag
    if not here:
        return None
    if isinstance(order, Convoy):
        army = m.province_of(order.army)
        to = m.province_of(order.dest)
        other = facts.before.units.get(army)
        them = power_abbreviation(m, other.power) if other is not None else "???"
        frm = short(m, order.army) if army in sees else "???"
        dst = short(m, order.dest) if to in sees else "???"
        line = f"{who} {where}{star} C {them} A {frm}-{dst}"
        if p in t.void:
            line += " [nso]"
        return line + tag
    if isinstance(order, Espionage):
        return f"{who} {where}{star} E{tag}"
    if isinstance(order, CounterEspionage) and facts.is_cut(p):
        return f"{who} {where}{star} CE{tag}"  # rule 7.1
    if dislodged:
        return f"{who} {where}{tag}"  # a unit in range was driven out
    return None


# -- after a winter (rule 3.2) ---------------------------------------------------------------------


def centre_chart(outcome: PhaseOutcome) -> list[str]:
    """``Austria: (4) + 1;``: every power's centres after a winter and its change in units."""
    before, after = outcome.before, outcome.after
    m = before.map
    centres = before.center_counts()
    units_before, units_after = before.unit_counts(), after.unit_counts()
    lines = []
    for power in m.power_codes:
        count = centres.get(power, 0)
        had, has = units_before.get(power, 0), units_after.get(power, 0)
        if not (count or had or has):
            continue
        change = has - had
        text = "No Change" if change == 0 else f"{'+' if change > 0 else '-'} {abs(change)}"
        lines.append(f"{m.power(power).name}: ({count}) {text};")
    return lines
