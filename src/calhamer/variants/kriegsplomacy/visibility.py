"""What each power may know: its known position (its own units and centres, and the centre
totals it has been told) and its view of each adjudicated phase.

A view of a movement phase holds the power's own results and its spies' reports; of a retreat
phase, the fates of its own dislodged units, what its spies of the movement phase saw of every
retreat, and (after a Fall) its centres as the winter begins; of a winter, the centre chart.
The gamemaster (``power`` None) sees every power's lines, each spy report titled by its power.
"""

from __future__ import annotations

from calhamer.position import Dislodged, Position
from calhamer.results import FAILS, INVALID, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.views import KNOWN_TOTALS, Note, PowerView, Visibility, centre_totals

from .facts import MovementFacts
from .names import power_abbreviation, short, short_unit
from .reports import centre_chart, own_results, spy_lines, spy_title, told_invalid
from .retreats import retreat_fates, retreat_line
from .spying import SPIES, Espionage

# -- known positions -------------------------------------------------------------------------------


def known_totals(position: Position, power: str) -> dict[str, int | None]:
    """Every power's centre total as ``power`` knows it in ``position`` (None: not told).

    Rule 3.2 tells every power the totals after each winter, and ownership changes only as a
    winter begins (rule 6.4), so through Spring and Fall the totals on the board are the ones
    last told (or the game's start, which the rules make public: home centres, rule 2.1). In
    a winter the new totals are not told until after it: a power then knows its own (rule
    3.1, its centres) and no one else's. The reading is in ``docs/rules/kriegsplomacy.md``.
    """
    totals = centre_totals(position)  # already a power's knowledge if known before
    if position.phase.is_adjustment and position.phase.code != position.map.start_phase:
        return {p: (n if p == power else None) for p, n in totals.items()}
    return totals


def known_position(position: Position, power: str) -> Position:
    """What ``power`` knows: its own units, dislodged units and centres, and the centre
    totals of every power it has been told (:func:`known_totals`); nothing else foreign."""
    return position.replace(
        units={p: u for p, u in position.units.items() if u.power == power},
        centers={p: o for p, o in position.centers.items() if o == power},
        dislodged=tuple(
            Dislodged(d.unit, None) for d in position.dislodged if d.unit.power == power
        ),
        contested=frozenset(),
        extra={KNOWN_TOTALS: known_totals(position, power)},
    )


def _known(policy: Visibility, position: Position, power: str | None) -> Position:
    return position if power is None else policy.known_position(position, power)


# -- views -----------------------------------------------------------------------------------------


def movement_view(policy: Visibility, outcome: PhaseOutcome, power: str | None) -> PowerView:
    """A movement phase: ``power``'s own results and what its uncut spies saw."""
    facts = MovementFacts.of(outcome)
    before = outcome.before
    gm = power is None
    # The gamemaster sees every power's lines, the minor powers' too (neutral units, when a
    # module adds them); a power only its own.
    powers = ([p for p in before.map.power_codes if p in outcome.results]
              + sorted(p for p in outcome.results if p not in before.map.power_codes)
              if gm else [power])
    results = {p: own_results(facts, outcome, p) for p in powers if p in outcome.results}
    notes = []
    for spy in facts.spies:
        unit = before.units[spy]
        if (
            isinstance(facts.orders[spy], Espionage)
            and not facts.is_cut(spy)
            and (gm or unit.power == power)
        ):
            # An uncut spy always reports, if only that it saw nothing (a CE, rule 7.3).
            notes.append(Note(spy_title(facts, spy, gm), tuple(spy_lines(facts, spy))))
    # What a variant's facts add (a board of stacks: battles, dice, the Small Powers).
    notes += getattr(facts, "notes", lambda power: [])(power)
    dislodged = tuple(d for d in outcome.dislodged if gm or d.unit.power == power)
    # Units destroyed at once (a module's neutrals), told as a dislodgement is: to their owner.
    destroyed = tuple(u for u in outcome.destroyed_units() if gm or u.power == power)
    return PowerView(
        power,
        _known(policy, before, power),
        _known(policy, outcome.next, power),
        results,
        dislodged,
        tuple(notes),
        complete=gm,
        destroyed=destroyed,
    )


def retreat_view(policy: Visibility, outcome: PhaseOutcome, power: str | None) -> PowerView:
    """A retreat phase: the fates of ``power``'s dislodged units, its spies' news of every
    retreat, and after a Fall its centres as the winter begins."""
    before = outcome.before
    m = before.map
    written = before.variant.notation
    gm = power is None
    fates = retreat_fates(outcome)
    results: dict[str, list[OrderResult]] = {}
    for fate in fates:
        owner = fate.unit.power
        if not gm and owner != power:
            continue
        line = retreat_line(m, fate, written=written) or ""
        if fate.dest is None:
            verdict, reason = SUCCEEDS, "disbanded"
        elif fate.arrived:
            verdict, reason = SUCCEEDS, "retreats"
        else:
            verdict, reason = FAILS, "the retreat fails, so the unit is disbanded"
        results.setdefault(owner, []).append(OrderResult(owner, fate.text, line, verdict, reason))
    for owner, entries in outcome.results.items():
        if gm or owner == power:
            for res in entries:
                if res.result == INVALID:
                    results.setdefault(owner, []).append(told_invalid(owner, res))
    notes = []
    spies = before.extra.get(SPIES, ())
    # SpyRecords, as KriegsplomacyVisibility.carried_extra leaves them.
    if not isinstance(spies, tuple):
        raise TypeError(f'extra["spies"] must be a tuple of SpyRecord, not {spies!r}')
    for spy in spies:
        if not gm and spy.power != power:
            continue
        lines = [
            f"{power_abbreviation(m, fate.unit.power)} {seen}"
            for fate in fates
            if (seen := retreat_line(m, fate, spy.sees, written))
        ]
        if lines:
            who = f"{power_abbreviation(m, spy.power)} " if gm else ""
            title = f"Espionage: {who}{short_unit(m, spy.unit, written)} E (retreats)"
            notes.append(Note(title, tuple(lines)))
    if before.phase.season == "F":
        # Rule 3.1, released only now: the centres owned as the winter begins.
        centres = outcome.next.centers
        for owner in m.power_codes:
            if gm or owner == power:
                owned = sorted(short(m, p) for p, o in centres.items() if o == owner)
                if owned or not gm:
                    title = f"Supply centres of {m.power(owner).name} ({len(owned)})"
                    notes.append(Note(title, (", ".join(owned) or "none",)))
    return PowerView(
        power,
        _known(policy, before, power),
        _known(policy, outcome.next, power),
        results,
        (),
        tuple(notes),
        complete=gm,
    )


def winter_view(policy: Visibility, outcome: PhaseOutcome, power: str | None) -> PowerView:
    """A winter: ``power``'s own adjustments and every power's centres after it (rule 3.2)."""
    gm = power is None
    results = {
        p: list(entries) for p, entries in outcome.results.items() if gm or p == power
    }
    chart = Note("Supply centres after the winter (rule 3.2)", tuple(centre_chart(outcome)))
    return PowerView(
        power,
        _known(policy, outcome.before, power),
        _known(policy, outcome.next, power),
        results,
        (),
        (chart,),
        complete=gm,
        counts=outcome.before.center_counts(),
    )


def own_view(policy: Visibility, outcome: PhaseOutcome, power: str | None) -> PowerView:
    """A phase a module adds (Arpiesse's summer exchange): ``power``'s own results and
    nothing else; the other powers' orders, and whether they gave any, are not told."""
    gm = power is None
    results = {
        p: list(entries) for p, entries in outcome.results.items() if gm or p == power
    }
    return PowerView(
        power,
        _known(policy, outcome.before, power),
        _known(policy, outcome.next, power),
        results,
        (),
        (),
        complete=gm,
    )
