"""Reader for the case files in ``tests/datc/`` (format in ``tests/datc/README.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

CASE_DIR = Path(__file__).parent / "datc"

ORDER_LINE = re.compile(r"^(?P<power>[A-Z]+):\s*(?P<text>.*?)\s*=>\s*(?P<result>\S+)\s*$")


@dataclass
class Expectations:
    orders: list[tuple[str, str, str]] = field(default_factory=list)  # power, text, result
    dislodged: set[str] | None = None
    after: dict[str, set[str]] | None = None


@dataclass
class PhaseSpec:
    code: str | None
    main: Expectations = field(default_factory=Expectations)
    editions: dict[str, Expectations] = field(default_factory=dict)

    def expectations(self, edition: str) -> Expectations:
        """Main expectations with one edition's differences laid over them."""
        override = self.editions.get(edition)
        if override is None:
            return self.main
        changed = {(p, t): r for p, t, r in override.orders}
        orders = [(p, t, changed.get((p, t), r)) for p, t, r in self.main.orders]
        return Expectations(
            orders=orders,
            dislodged=override.dislodged if override.dislodged is not None else self.main.dislodged,
            after=override.after if override.after is not None else self.main.after,
        )


@dataclass
class Case:
    id: str
    title: str
    file: str
    rules: list[str] = field(default_factory=lambda: ["datc"])
    units: dict[str, list[str]] = field(default_factory=dict)
    centers: dict[str, list[str]] | None = None
    dislodged_at_start: list[tuple[str, str, str | None]] = field(default_factory=list)
    contested_at_start: list[str] = field(default_factory=list)
    phases: list[PhaseSpec] = field(default_factory=list)

    @property
    def editions(self) -> list[str]:
        names = list(self.rules)
        for phase in self.phases:
            for name in phase.editions:
                if name not in names:
                    names.append(name)
        return names


def _power_list(line: str) -> tuple[str, list[str]]:
    power, _, rest = line.partition(":")
    items = [x.strip() for x in rest.split(",") if x.strip()]
    return power.strip(), items


def _unit_set(text: str) -> set[str]:
    text = text.strip()
    if text.lower() == "none":
        return set()
    return {x.strip() for x in text.split(",") if x.strip()}


def parse_file(path: Path) -> list[Case]:
    cases: list[Case] = []
    case: Case | None = None
    section = ""
    target: Expectations | None = None
    edition_indent = -1
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        text = line.strip()
        word = text.split()[0]
        where = f"{path.name}:{number}"
        if edition_indent >= 0 and indent <= edition_indent:
            edition_indent = -1  # the EDITION block ended
            target = case.phases[-1].main if case and case.phases else None
        if word == "CASE":
            _, ident, *title = text.split(None, 2)
            case = Case(ident, title[0] if title else "", path.name)
            cases.append(case)
            section = ""
            continue
        if case is None:
            raise ValueError(f"{where}: text before the first CASE")
        if word == "END":
            case, section, target, edition_indent = None, "", None, -1
            continue
        if word == "RULES":
            case.rules = text.split()[1:]
            continue
        if word == "PHASE":
            code = text.split()[1]
            if (case.phases and case.phases[-1].main.orders) or (
                case.phases and case.phases[-1].main.after is not None
            ):
                case.phases.append(PhaseSpec(code))
            elif case.phases:
                case.phases[-1].code = code
            else:
                case.phases.append(PhaseSpec(code))
            target = case.phases[-1].main
            section = ""
            continue
        if word == "CONTESTED_AT_START":
            case.contested_at_start = text.split()[1:]
            continue
        if word in ("UNITS", "CENTERS", "DISLODGED_AT_START", "ORDERS"):
            section = word
            if word == "CENTERS":
                case.centers = {}
            if word == "ORDERS":
                if not case.phases:
                    case.phases.append(PhaseSpec(None))
                target = case.phases[-1].main
            continue
        if word == "EDITION":
            name = text.split()[1]
            phase = case.phases[-1]
            target = phase.editions.setdefault(name, Expectations())
            edition_indent = indent
            section = "ORDERS"
            continue
        if word == "DISLODGED":
            assert target is not None, where
            target.dislodged = _unit_set(text[len("DISLODGED") :])
            continue
        if word == "AFTER":
            assert target is not None, where
            target.after = {}
            section = "AFTER"
            continue
        if section == "UNITS":
            power, items = _power_list(text)
            case.units.setdefault(power, []).extend(items)
        elif section == "CENTERS":
            power, items = _power_list(text)
            assert case.centers is not None
            case.centers.setdefault(power, []).extend(items)
        elif section == "DISLODGED_AT_START":
            power, items = _power_list(text)
            for item in items:
                unit, _, origin = item.partition("<-")
                case.dislodged_at_start.append((power, unit.strip(), origin.strip() or None))
        elif section == "AFTER":
            power, items = _power_list(text)
            assert target is not None and target.after is not None
            target.after.setdefault(power, set()).update(items)
        elif section == "ORDERS":
            m = ORDER_LINE.match(text)
            if not m:
                raise ValueError(f"{where}: cannot read order line {text!r}")
            assert target is not None
            target.orders.append((m["power"], m["text"], m["result"]))
        else:
            raise ValueError(f"{where}: unexpected line {text!r}")
    return cases


def all_cases(*names: str) -> list[Case]:
    files = [CASE_DIR / n for n in names] if names else sorted(CASE_DIR.glob("*.txt"))
    return [c for f in files for c in parse_file(f)]
