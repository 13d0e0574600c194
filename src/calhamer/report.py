"""Results as text: one block per power, one line per order, as gamemasters write them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from calhamer.position import Position
from calhamer.results import INVALID, OrderResult, PhaseOutcome
from calhamer.views import PowerView, centre_totals, known_position

if TYPE_CHECKING:
    from calhamer.map import Map

WIDTH = 28


def result_phrase(result: OrderResult) -> str:
    """``Succeeds``, ``Bounced 2v2 with A MUN``, ``Invalid: ...``: the report's right column."""
    if result.result == INVALID:
        return f"Invalid: {result.reason}"
    reason = result.reason
    if result.succeeded and reason in (
        "moves",
        "holds",
        "support given",
        "convoys",
        "retreats",
        "built",
        "removed",
        "disbanded",
    ):
        return "Succeeds"
    return reason[:1].upper() + reason[1:]


def order_line(result: OrderResult) -> str:
    shown = result.canonical or result.text
    return f"    {shown:<{WIDTH - 1}} {result_phrase(result)}"


def phase_report(outcome: PhaseOutcome | PowerView, *, powers: list[str] | None = None) -> str:
    """The full text report of one adjudicated phase (only ``powers``' blocks if given).

    Given a :class:`~calhamer.views.PowerView` instead, the report of that view (see
    :func:`view_report`): what one power may know.
    """
    if isinstance(outcome, PowerView):
        return view_report(outcome)
    before = outcome.before
    m = before.map
    lines = [f"{before.map.phase_name(before.phase)} ({before.phase.code})", ""]
    blocks = before.variant.reporter.results(outcome, powers)
    lines += result_blocks(outcome, powers) if blocks is None else blocks
    if outcome.dislodged and powers is None:
        lines += ["------", "Dislodged units", ""]
        format_unit = before.variant.notation.format_unit
        for d in outcome.dislodged:
            lines.append(f"    {d.unit.power.title()}: {format_unit(m, d.unit)}")
        lines.append("")
    lines += before.variant.reporter.phase_notes(outcome)  # Superdiplomacy's dice
    lines += position_summary(outcome.next)
    return "\n".join(lines).rstrip() + "\n"


def result_blocks(outcome: PhaseOutcome, powers: list[str] | None = None) -> list[str]:
    """One block per power (only ``powers``' if given): a rule, its name, a line per order."""
    m = outcome.before.map
    names = {p.code: p.name for p in (*m.powers, *m.minor_powers)}
    lines: list[str] = []
    for power in powers or _ordered(outcome.before, outcome.results):
        results = outcome.results.get(power, [])
        if not results:
            continue
        lines += ["------", names.get(power, power.title()), ""]
        lines += [order_line(r) for r in results]
        lines.append("")
    return lines


def _ordered(position: Position, keyed: Mapping[str, object]) -> list[str]:
    codes = position.map.power_codes
    return [p for p in codes if p in keyed] + sorted(p for p in keyed if p not in codes)


def _name_width(m: Map) -> int:
    """The width of the centre chart's name column: 12, or more where a power's name is
    longer (godip's "Abbasid Caliphate"), so that the numbers stay in one column."""
    return max(12, *(len(m.power(p).name) + 1 for p in m.power_codes))


def position_summary(position: Position) -> list[str]:
    """The next phase, the supply-centre chart, and a winner if there is one."""
    m = position.map
    named = position.map.phase_name(position.phase)
    lines = ["------", f"Next: {named} ({position.phase.code})", ""]
    centers = position.center_counts()
    units = position.unit_counts()
    width = _name_width(m)
    for power in m.power_codes:
        if centers.get(power) or units.get(power):
            lines.append(
                f"    {m.power(power).name:<{width}}{centers.get(power, 0):>3} centres"
                f"{units.get(power, 0):>4} units"
            )
    minors = m.minor_power_codes
    if minors:
        minor_centres = sum(centers.get(p, 0) for p in minors)
        minor_units = sum(units.get(p, 0) for p in minors)
        lines.append(f"    {'Minor powers':<{width}}{minor_centres:>3} centres"
                     f"{minor_units:>4} units")
    variant = position.variant
    notes = variant.reporter.position_notes(position)
    if notes:
        lines += ["", *notes]
    if position.phase.is_retreat and position.dislodged:
        # Kriegsplomacy has a retreat phase after every movement phase: a heading over nothing
        # would read as if something had been left out.
        lines += ["", "Retreats due:"]
        format_unit = variant.notation.format_unit
        for d in position.dislodged:
            choices = variant.retreat_choices(position, d)
            options = ", ".join(m.loc_name(o) for o in choices) or "none"
            lines.append(f"    {format_unit(m, d.unit)} ({d.unit.power.title()}): {options}")
    winner = position.winner()
    if winner:
        lines += ["", f"{m.power(winner).name} has won with {centers[winner]} centres."]
    return lines


def position_report(position: Position) -> str:
    """The units of every power, for ``calhamer game show``."""
    m = position.map
    lines = [f"{position.map.phase_name(position.phase)} ({position.phase.code})", ""]
    format_unit = position.variant.notation.format_unit
    for power in m.power_codes:
        units = [format_unit(m, u) for u in position.units_of(power)]
        if units:
            lines.append(f"{m.power(power).name}: {', '.join(sorted(units))}")
    neutral = [format_unit(m, u) for u in position.units.values() if m.is_minor(u.power)]
    if neutral:
        lines.append(f"Minor powers: {', '.join(sorted(neutral))}")
    lines += position_summary(position)[2:]
    return "\n".join(lines) + "\n"


def view_report(view: PowerView) -> str:
    """The text report of what one power may know of a phase (:mod:`calhamer.views`).

    Its own results (in the variant's notation), the further facts it learns, and the next
    phase as it knows it; a view that is the whole truth ends like :func:`phase_report`.
    """
    before = view.before
    m = before.map
    names = {p.code: p.name for p in (*m.powers, *m.minor_powers)}
    heading = f"{before.map.phase_name(before.phase)} ({before.phase.code})"
    if view.power is not None:
        heading += f", as {names.get(view.power, view.power.title())} sees it"
    elif not view.complete:
        heading += ", as the public sees it"
    lines = [heading, ""]
    for power in _ordered(before, view.results):
        results = view.results[power]
        if results:
            lines += ["------", names.get(power, power.title()), ""]
            lines += [order_line(r) for r in results]
            lines.append("")
    for note in view.notes:
        lines += ["------", note.title, ""]
        lines += [f"    {line}" for line in note.lines] or ["    (nothing)"]
        lines.append("")
    format_unit = before.variant.notation.format_unit
    if view.complete:
        if view.dislodged or view.destroyed:
            lines += ["------", "Dislodged units", ""]
            for d in view.dislodged:
                lines.append(f"    {d.unit.power.title()}: {format_unit(m, d.unit)}")
            for unit in view.destroyed:  # no retreat phase for them: gone already
                lines.append(f"    {unit.power.title()}: {format_unit(m, unit)} "
                             "(destroyed: it may not retreat)")
            lines.append("")
        lines += position_summary(view.next)
        return "\n".join(lines).rstrip() + "\n"
    nxt = view.next
    lines += ["------", f"Next: {nxt.map.phase_name(nxt.phase)} ({nxt.phase.code})", ""]
    if view.power is not None:
        lines += _own_summary(nxt, view.power)
    return "\n".join(lines).rstrip() + "\n"


def _own_summary(position: Position, power: str) -> list[str]:
    """A power's units, centres and retreats due, and nothing about anyone else."""
    m = position.map
    format_unit = position.variant.notation.format_unit
    units = sorted(format_unit(m, u) for u in position.units_of(power))
    centres = sorted(m.provinces[p].code for p in position.centers_of(power))
    lines = [
        f"    Your units ({len(units)}): {', '.join(units) or 'none'}",
        f"    Your supply centres ({len(centres)}): {', '.join(centres) or 'none'}",
    ]
    retreats = [format_unit(m, d.unit) for d in position.dislodged if d.unit.power == power]
    if retreats:
        lines.append(f"    To retreat or disband: {', '.join(retreats)}")
    return lines


def power_position_report(position: Position, power: str) -> str:
    """The position as ``power`` may know it, for ``calhamer game show --as``: the whole
    board in a variant that hides nothing, else only the power's own units and centres."""
    if not position.variant.visibility.hidden_information:
        return position_report(position)

    known = known_position(position, power)
    lines = [f"{position.map.phase_name(position.phase)} ({position.phase.code})", ""]
    lines += _own_summary(known, power)
    lines += ["", *totals_lines(known)]
    return "\n".join(lines) + "\n"


def totals_lines(position: Position) -> list[str]:
    """Every power's supply-centre total as the holder of ``position`` knows it (a power's
    known position: ``?`` for a total its rules do not tell it, never a 0 it cannot know)."""
    m = position.map
    totals = centre_totals(position)
    lines = ["Supply centre totals:"]
    width = _name_width(m)
    for power in m.power_codes:
        total = totals.get(power)
        count = "?" if total is None else str(total)
        lines.append(f"    {m.power(power).name:<{width}}{count:>3} centres"
                     + (" (unknown)" if total is None else ""))
    return lines
