"""The lines a power is told, in the source's notation: its own orders of a movement phase
(``F Sev*-Bla [opp]``), what each of its spies saw (``Ita A ???-Tyo*``), and the centre chart
after a winter (``Austria: (4) + 1;``).

Each movement-phase line is built from the :class:`MovementFacts` of the phase; ``???`` stands
for every place a spy does not see.
"""

from __future__ import annotations

from calhamer.adjudicator import MOVE
from calhamer.map import ProvinceId
from calhamer.orders import Convoy, Order, Support
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


def own_line(facts: MovementFacts, p: ProvinceId, order: Order | None
             ) -> tuple[str, Result, str]:
    """The line, verdict and reason a power is told about its unit in ``p``."""
    m, t, r = facts.m, facts.t, facts.r
    unit = facts.before.units[p]
    dislodged = p in facts.dislodged
    flags: list[str] = []
    words: list[str] = []
    kind = t.kind[p]
    where = short(m, unit.loc)
    unit_letter = label(m, unit, facts.before.variant.notation)  # its colour too, if any
    if kind == MOVE:
        moved = r.resolution[p]
        dest = short(m, t.exact[p])
        if moved:
            dest += "*"
        elif not dislodged:
            where += "*"
        line = f"{unit_letter} {where}-{dest}"
        verdict = SUCCEEDS if moved else FAILS
        words.append("moves" if moved else "fails")
        if facts.opposed(p):
            flags.append("opp")
            words.append("opposed")
    else:
        star = "" if dislodged else "*"
        verdict = FAILS if dislodged else SUCCEEDS
        if isinstance(order, Espionage | CounterEspionage):
            code = "E" if isinstance(order, Espionage) else "CE"
            line = f"{unit_letter} {where}{star} {code}"
            what = "espionage" if code == "E" else "counter-espionage"
            if facts.is_cut(p):
                verdict = FAILS
                words.append(f"{what} cut by an attack")
            else:
                words.append(what)
        elif isinstance(order, Support):
            target = f"{letter(order.target_type)} {short(m, order.target)}"
            if order.dest is not None:
                target += f"-{short(m, order.dest)}"
            line = f"{unit_letter} {where}{star} S {target}"
            verdict = UNKNOWN  # rules 4.2 to 4.4: whether it was given is not told
            words.append("whether the support was given is not told")
        elif isinstance(order, Convoy):
            line = (
                f"{unit_letter} {where}{star} C A {short(m, order.army)}-{short(m, order.dest)}"
            )
            verdict = UNKNOWN
            words.append("whether the convoy was used is not told")
        else:
            line = f"{unit_letter} {where}{star} H"
            words.append("holds" if not dislodged else "dislodged")
    if facts.attacked[p]:
        flags.append("att")
        words.append("attacked")
    if dislodged:
        flags.append("dislodged")
        if "dislodged" not in words:
            words.append("dislodged")
    if flags:
        line += f" [{'; '.join(flags)}]"
    return line, verdict, "; ".join(words)


# -- what a spy learns (rule 6) --------------------------------------------------------------------


def spy_title(facts: MovementFacts, spy: ProvinceId, prefix: bool) -> str:
    unit = facts.before.units[spy]
    line, _, _ = own_line(facts, spy, facts.orders[spy])
    if prefix:
        line = f"{power_abbreviation(facts.m, unit.power)} {line}"
    return f"Espionage: {line}"


def spy_lines(facts: MovementFacts, spy: ProvinceId) -> list[str]:
    """What the espionage in ``spy`` learns: centre owners, then orders, in the source's
    notation, with ``???`` for every place it does not see."""
    sees = facts.sees(spy)
    if not sees:
        return []
    m, before = facts.m, facts.before
    lines = []
    for p in by_code(m, sees):
        if m.provinces[p].is_supply_center:
            owner = before.centers.get(p)
            lines.append(
                f"{short(m, p)} = {power_abbreviation(m, owner) if owner else 'unowned'}"
            )
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
