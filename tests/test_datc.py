"""Every DATC v3.0 chapter-6 case, and the Alexander cases, run under each edition they name."""

from __future__ import annotations

import pytest

from calhamer.map import load_map
from calhamer.notation import format_unit, parse_unit
from calhamer.phases import adjudicate
from calhamer.position import Dislodged, Phase, Position, units_from_specs
from datc_cases import Case, all_cases

STANDARD = load_map("standard")
CASES = all_cases()


def _params() -> list:
    return [
        pytest.param(case, edition, id=f"{case.id}[{edition}]")
        for case in CASES
        for edition in case.editions
    ]


def start_position(case: Case) -> Position:
    m = STANDARD
    first = case.phases[0].code or "S1901M"
    units = units_from_specs(m, case.units)
    if case.centers is not None:
        centers = {
            m.province_of(m.loc(c)): power for power, codes in case.centers.items() for c in codes
        }
    else:
        centers = dict(Position.initial(m).centers)
    dislodged = []
    for power, spec, origin in case.dislodged_at_start:
        unit = parse_unit(m, spec, power)
        dislodged.append(Dislodged(unit, m.province_of(m.loc(origin)) if origin else None))
    contested = frozenset(m.province_of(m.loc(c)) for c in case.contested_at_start)
    return Position(m, Phase.parse(first), units, centers, tuple(dislodged), contested)


def test_case_files_are_complete() -> None:
    ids = {c.id for c in CASES}
    sections = {
        "A": 12,
        "B": 15,
        "C": 9,
        "D": 34,
        "E": 15,
        "F": 25,
        "G": 20,
        "H": 16,
        "I": 7,
        "J": 11,
    }
    for section, count in sections.items():
        for number in range(1, count + 1):
            assert f"6.{section}.{number}" in ids, f"6.{section}.{number} is missing"


@pytest.mark.parametrize(("case", "edition"), _params())
def test_case(case: Case, edition: str) -> None:
    position = start_position(case)
    for step, spec in enumerate(case.phases):
        if spec.code and step:
            assert position.phase.code == spec.code, "the phases do not follow as the case says"
        expect = spec.expectations(edition)
        orders: dict[str, list[str]] = {}
        for power, text, _ in expect.orders:
            orders.setdefault(power, []).append(text)
        outcome = adjudicate(position, orders, edition)
        seen: dict[str, int] = {}
        problems = []
        for power, text, wanted in expect.orders:
            if wanted == "?":
                continue
            matches = [r for r in outcome.results.get(power, []) if r.text == text]
            k = seen.get(power + text, 0)
            seen[power + text] = k + 1
            got = matches[k] if k < len(matches) else None
            if got is None or got.result != wanted:
                problems.append(
                    f"{power}: {text}: expected {wanted}, got "
                    f"{got.result + ' (' + got.reason + ')' if got else 'nothing'}"
                )
        if expect.dislodged is not None:
            got_dislodged = {format_unit(STANDARD, d.unit) for d in outcome.dislodged}
            if got_dislodged != expect.dislodged:
                problems.append(
                    f"dislodged: expected {sorted(expect.dislodged)}, got {sorted(got_dislodged)}"
                )
        if expect.after is not None:
            got_after: dict[str, set[str]] = {}
            for unit in outcome.after.units.values():
                got_after.setdefault(unit.power, set()).add(format_unit(STANDARD, unit))
            wanted_after = {p: u for p, u in expect.after.items() if u}
            if got_after != wanted_after:
                problems.append(f"units after: expected {wanted_after}, got {got_after}")
        assert not problems, "\n".join(problems)
        position = outcome.next
