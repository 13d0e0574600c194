"""DPjudge's locations as calhamer's provinces, coasts and adjacencies.

DPjudge writes each location's neighbours in one list and says by letter case who may cross:
``ven`` (lower case) in a list is reached by armies only, ``Tys`` (a capital, then lower case)
by fleets only, ``VEN`` by both as the terrain allows; a location written in lower case
itself (``spa``) is a province whose fleets stand on its coasts (``SPA/NC``). The edges are
worked out per unit type, as DPjudge's own adjacency test answers them, and an edge that one
way only is written in the board's ``[oneway]`` table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from calhamer.boards.dpjudge.reader import Loc, Problem, Source

TERRAIN = {"WATER": "sea", "LAND": "land", "COAST": "coast", "PORT": "coast",
           "SHUT": "impassable"}
ARMY_GROUND = ("LAND", "COAST", "PORT")
FLEET_WATER = ("WATER", "COAST", "PORT")
# What each special mark on an adjacency means, for the line that says it is left out.
MARKS = {
    "~": "a weak strait (no support across, a move across has no strength of its own)",
    "*": "the Cape of Good Hope rule (half-strength moves, no support across)",
    ":": "a crossing only some powers' units may use",
    "(": "a crossing only the owner of certain centres may use",
}


@dataclass
class Places:
    """Provinces (calhamer's entries), and the edges per unit type, directed."""

    provinces: dict[str, dict[str, object]] = field(default_factory=dict)
    army: set[tuple[str, str]] = field(default_factory=set)
    fleet: set[tuple[str, str]] = field(default_factory=set)


def base(name: str) -> str:
    """The province of a location: ``SPA`` for ``SPA/NC`` (and for ``spa``)."""
    return name.upper().split("/")[0]


def read_places(source: Source, problems: list[Problem]) -> Places:
    """The provinces and directed edges of a board read by :mod:`.reader`."""
    places = Places()
    left_out = _left_out_edges(source, problems)
    terrain = {base(loc.key): loc.terrain for loc in source.locs.values() if "/" not in loc.key}
    for loc in source.locs.values():
        if "/" in loc.key:
            terrain.setdefault(base(loc.key), loc.terrain)
    for code in sorted(terrain):
        places.provinces[code] = _province(source, code, terrain[code], problems)
    fleet_locs = {loc.key for loc in source.locs.values()
                  if loc.key == loc.key.upper() and loc.terrain in FLEET_WATER}
    for loc in source.locs.values():
        here = base(loc.key)
        for entry in loc.abuts:
            if (loc.key, entry) in left_out:
                continue
            there = base(entry)
            if there not in terrain:
                problems.append(Problem(loc.where, f"{loc.terrain} {loc.key}",
                                        f"{entry} is not a place of the map; left out"))
                continue
            if ("/" not in loc.key and loc.terrain in ARMY_GROUND
                    and terrain[there] in ARMY_GROUND and entry != entry.title()
                    and here != there):
                places.army.add((here, there))
            if (loc.key in fleet_locs and not entry[0].islower()
                    and entry.upper() in fleet_locs and terrain[there] in FLEET_WATER):
                places.fleet.add((loc.key, entry.upper()))
    return places


def _left_out_edges(source: Source, problems: list[Problem]) -> set[tuple[str, str]]:
    """The edges with special marks, each named as left out."""
    out = set()
    for key, dest, marks, where in source.marked_abuts:
        mark = next((m for m in MARKS if m in marks), marks[:1])
        meaning = MARKS.get(mark, f"the special mark {marks!r}")
        problems.append(Problem(where, f"{key} ABUTS {marks if mark == '*' else ''}{dest}"
                                f"{'' if mark == '*' else marks}",
                                f"{meaning} is not supported; the crossing is left out",
                                feature=f"ABUTS {mark}"))
        out.add((key, dest))
    return out


def _province(source: Source, code: str, kind: str, problems: list[Problem]) -> dict[str, object]:
    loc = source.loc(code)
    coasts = [k.split("/")[1] for k in source.locs if base(k) == code and "/" in k]
    entry: dict[str, object] = {"name": source.names.get(code, code.title()),
                                "type": TERRAIN.get(kind, "land")}
    if code not in source.names and loc is not None:
        problems.append(Problem(loc.where, f"{kind} {code}", "has no full name (no '=' line); "
                                "named by its abbreviation", lost=False))
    if coasts:
        entry["coasts"] = coasts
        if loc is not None and loc.key == loc.key.upper():
            problems.append(Problem(loc.where, f"{kind} {loc.key}", "a fleet may stand both on "
                                    "the province and on its coasts; calhamer's fleets stand "
                                    "on the coasts only"))
    elif loc is not None and kind in ("COAST", "PORT") and loc.key != loc.key.upper():
        problems.append(Problem(loc.where, f"{kind} {loc.key}", "a coast where no fleet may "
                                "stand and that has no coasts of its own: fleets may stand "
                                "there in calhamer"))
    if kind == "PORT":
        entry["convoys"] = True
    return entry


def unit_location(source: Source, unit: str) -> str | None:
    """Why a start unit (``F STP/SC``) cannot stand where it is, or None if it can."""
    kind, _, place = unit.partition(" ")
    loc: Loc | None = source.loc(place)
    if loc is None:
        return f"{place} is not a place of the map"
    if kind == "A" and ("/" in place or loc.terrain not in ARMY_GROUND):
        return f"an army cannot stand in {place}"
    if kind == "F" and (loc.key != loc.key.upper() or loc.terrain not in FLEET_WATER):
        return f"a fleet cannot stand in {place}"
    return None
