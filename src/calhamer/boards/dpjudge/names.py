"""DPjudge's place names and aliases as calhamer's province names and ``aliases``.

DPjudge gives every location a full name and a list of aliases (``Norwegian Sea = nwg
norwegian nrg norw+sea``: the first is the abbreviation, ``+`` joins words). calhamer keeps
the aliases of a province; a coast is read as its province's code, name or alias with the
coast (``SPA/NC``, ``Spain (nc)``, ``Spain North Coast``), so the aliases of a coast line are
kept only in that form. An alias another place already answers to, or that DPjudge marks as
ambiguous (``tyr?``), is not kept: calhamer's names each mean one place.
"""

from __future__ import annotations

from typing import Any

from calhamer.boards.dpjudge.reader import Problem, Source
from calhamer.map import COAST_NAMES, normalize_name


def _coast_forms(base: str, coast: str) -> set[str]:
    forms = {f"{base}{sep}{coast}" for sep in ("/", " ", "-")}
    forms |= {f"{base}({coast})", f"{base} {COAST_NAMES.get(coast, coast)}"}
    return {normalize_name(f) for f in forms}


def add_aliases(source: Source, provinces: dict[str, dict[str, Any]],
                problems: list[Problem]) -> None:
    """Set each province's ``aliases`` from its DPjudge name line, leaving out (with a note
    per line) those calhamer would read as another place or cannot keep."""
    taken: dict[str, str] = {}
    for code, entry in provinces.items():
        taken[normalize_name(code)] = code
        for coast in entry.get("coasts", []):
            taken[normalize_name(f"{code}/{coast}")] = f"{code}/{coast}"
    for code, entry in provinces.items():
        taken.setdefault(normalize_name(str(entry["name"])), code)
    for code, entry in provinces.items():
        kept, dropped = [], []
        for alias in source.aliases.get(code, []):
            text = alias.replace("+", " ")
            key = normalize_name(text.rstrip("?"))
            if key in (normalize_name(code), normalize_name(str(entry["name"]))):
                continue
            if alias.endswith("?") or "/" in text or "(" in text or taken.get(key, code) != code:
                dropped.append(alias)
                continue
            if any(taken.get(form, f"{code}/{coast}") != f"{code}/{coast}"
                   for coast in entry.get("coasts", []) for form in _coast_forms(text, coast)):
                dropped.append(alias)
                continue
            taken[key] = code
            kept.append(text)
        if kept:
            entry["aliases"] = kept
        if dropped and code in source.name_where:
            problems.append(Problem(source.name_where[code], f"{code} =", "aliases not kept "
                                    f"(ambiguous, or another place's): {' '.join(dropped)}",
                                    lost=False))
    _coast_lines(source, provinces, problems)


def _coast_lines(source: Source, provinces: dict[str, dict[str, Any]],
                 problems: list[Problem]) -> None:
    """A note for each coast line with spellings calhamer does not read as that coast."""
    for abbr, aliases in source.aliases.items():
        if "/" not in abbr:
            continue
        code, coast = abbr.split("/", 1)
        entry = provinces.get(code)
        if entry is None or abbr not in source.name_where:
            continue
        bases = [code, str(entry["name"]), *entry.get("aliases", [])]
        read = set().union(*(_coast_forms(b, coast) for b in bases))
        missing = [a for a in aliases if normalize_name(a.replace("+", " ")) not in read]
        if missing:
            problems.append(Problem(source.name_where[abbr], f"{abbr} =", "spellings of the "
                                    f"coast not kept (calhamer reads a coast as its province "
                                    f"and the coast, like {abbr}): {' '.join(missing)}",
                                    lost=False))
