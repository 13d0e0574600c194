"""Every problem of a map file, one line each with its place: ``calhamer board check``.

The loader (:func:`calhamer.map.load_map`) stops at the first problem; this reads the file's
tables itself and lists them all: the problems the loader refuses (a bad field, a place that
does not exist, an army given a sea, a coast the province does not have...), then what it
accepts but a designer surely did not mean (an edge listed one way in a file that lists the
others both ways, a province no unit can reach, a home centre that is no centre, a start
unit where it cannot stand...). A line reads ``FILE: [TABLE] ENTRY: what is wrong``.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from calhamer.errors import CalhamerError
from calhamer.map import Map, Terrain, UnitType, load_map

Problems = list[str]
_KINDS = {"land", "coast", "sea", "impassable"}


class Tables:
    """A map file's tables as read, with the provinces it can name (its parent's too)."""

    def __init__(self, data: dict[str, Any], parent: Map | None) -> None:
        self.data = data
        self.provinces: dict[str, dict[str, Any]] = {}
        if parent is not None:
            for p in parent.provinces:
                self.provinces[p.code] = {"type": p.terrain.name.lower(),
                                          "sc": p.is_supply_center, "coasts": list(p.coasts),
                                          "home": p.home}
        for code, entry in _table(data, "provinces").items():
            self.provinces[code] = entry if isinstance(entry, dict) else {}
        self.powers = set(parent.power_codes) | set(parent.minor_power_codes) if parent else set()
        self.powers |= set(_table(data, "powers")) | set(_table(data, "minor_powers"))

    def kind(self, code: str) -> str:
        return str(self.provinces.get(code, {}).get("type", "land")).lower()

    def coasts(self, code: str) -> list[str]:
        value = self.provinces.get(code, {}).get("coasts", [])
        return [str(c) for c in value] if isinstance(value, list) else []

    def is_centre(self, code: str) -> bool:
        entry = self.provinces.get(code, {})
        return bool(entry.get("sc")) or bool(entry.get("centres")) or \
            code in _table(self.data, "centres")


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    return value if isinstance(value, dict) else {}


def check_board(source: str) -> tuple[Problems, Map | None]:
    """Every problem of the map file (or shipped map) ``source``, and the map when it loads."""
    path = Path(source)
    if not source.endswith(".toml"):  # a shipped map: its own file
        path = Path(str(resources.files("calhamer") / "maps" / f"{source}.toml"))
    where = str(path)
    if not path.is_file():
        return [f"{source}: no such file" if source.endswith(".toml") else
                f"{source}: no map of that name is shipped"], None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        return [f"{where}: not valid TOML: {exc}"], None
    except (CalhamerError, OSError, UnicodeDecodeError) as exc:
        return [f"{where}: {exc}"], None
    problems = [f"{where}: {line}" for line in _model_problems(data)]
    parent = None
    extends = _table(data, "map").get("extends")
    if extends:
        try:
            parent = load_map(_beside(source, str(extends)))
        except CalhamerError as exc:
            problems.append(f"{where}: [map] extends: {exc}")
    tables = Tables(data, parent)
    problems += [f"{where}: {line}" for line in _table_problems(tables)]
    board = None
    try:
        board = load_map(source)
    except CalhamerError as exc:
        if not problems:  # something the lines above do not know: the loader's own words
            problems.append(f"{where}: {exc}")
    except (OSError, ValueError) as exc:
        problems.append(f"{where}: {exc}")
    if board is not None:
        problems += [f"{where}: {line}" for line in board_problems(board, data)]
    return problems, board


def _beside(source: str, name: str) -> str:
    if name.endswith(".toml") and source.endswith(".toml"):
        near = Path(source).parent / name
        if near.is_file():
            return str(near)
    return name


def _model_problems(data: dict[str, Any]) -> Problems:
    """What the map file's model refuses, every field of it."""
    from pydantic import ValidationError

    from calhamer.documents.base import field_path
    from calhamer.documents.maps import MapFile

    try:
        MapFile.model_validate(data)
    except ValidationError as exc:
        out = []
        for error in exc.errors(include_url=False):
            loc = [part for part in error["loc"] if not str(part).startswith("~")]
            head = f"[{loc[0]}] {field_path(loc[1:])}" if len(loc) > 1 else f"[{loc[0]}]"
            out.append(f"{head}: {error['msg']}")
        return out
    return []


def _table_problems(t: Tables) -> Problems:
    out = []
    for code, entry in t.provinces.items():
        if code != code.upper():
            out.append(f"[provinces] {code}: codes are upper case ({code.upper()})")
        home = entry.get("home")
        if home is not None and home not in t.powers:
            out.append(f"[provinces] {code}: home {home!r} is not a power of [powers]")
        if home is not None and not t.is_centre(code):
            out.append(f"[provinces] {code}: a home centre of {home} that is not a supply "
                       "centre (add sc = true)")
    for code in _table(t.data, "centres"):
        if code not in t.provinces:
            out.append(f"[centres] {code}: not a province")
    out += _edge_problems(t, "army")
    out += _edge_problems(t, "fleet")
    out += _start_problems(t)
    return out


def _location(t: Tables, name: str) -> tuple[str, str | None] | None:
    """(province, coast) of a location name, or None when the map has no such place."""
    code, _, coast = name.upper().partition("/")
    if code not in t.provinces:
        return None
    if coast and coast not in t.coasts(code):
        return None
    return code, coast or None


def _edge_problems(t: Tables, kind: str) -> Problems:
    """Places that do not exist, and edges a unit of that kind cannot take."""
    out = []
    allowed = ("land", "coast") if kind == "army" else ("coast", "sea")
    for src, targets in _table(t.data, kind).items():
        if not isinstance(targets, str):
            continue  # the model's problem, told above
        for name in (src, *targets.split()):
            place = _location(t, name)
            at = f"[{kind}] {src}"
            if place is None:
                out.append(f"{at}: {name!r} is not a province or coast of this map")
                continue
            code, coast = place
            terrain = t.kind(code)
            if terrain not in allowed:
                unit = "armies" if kind == "army" else "fleets"
                out.append(f"{at}: {name} is {terrain}, where {unit} never go (change its "
                           f"type or move the edge to [{'fleet' if kind == 'army' else 'army'}])")
            elif kind == "army" and coast:
                out.append(f"{at}: {name}: armies stand in the province, not on a coast "
                           f"(write {code})")
            elif kind == "fleet" and t.coasts(code) and not coast:
                out.append(f"{at}: {name} has split coasts; name the coast "
                           f"({', '.join(code + '/' + c for c in t.coasts(code))})")
    return out


def _start_problems(t: Tables) -> Problems:
    out = []
    start = _table(t.data, "start")
    taken: dict[str, str] = {}
    units = [(f"[start.units] {power}", power, u)
             for power, listed in _table(start, "units").items() if isinstance(listed, list)
             for u in listed]
    units += [(f"[minor_powers.{power}] units", power, u)
              for power, entry in _table(t.data, "minor_powers").items()
              if isinstance(entry, dict) for u in entry.get("units", [])]
    for at, power, text in units:
        if power not in t.powers:
            out.append(f"{at}: {power} is not a power of [powers]")
        problem = _unit_problem(t, str(text))
        if problem:
            out.append(f"{at}: {text!r}: {problem}")
            continue
        found = _UNIT.match(str(text))
        assert found is not None
        code = found[2].upper().partition("/")[0]
        if code in taken:
            out.append(f"{at}: {text!r}: {code} already holds a unit ({taken[code]})")
        taken[code] = str(text)
    owned: dict[str, str] = {}
    centres = start.get("centers")
    for power, listed in (centres.items() if isinstance(centres, dict) else ()):
        if power not in t.powers:
            out.append(f"[start.centers] {power}: not a power of [powers]")
        for code in listed if isinstance(listed, list) else ():
            code = str(code).upper()
            if code not in t.provinces:
                out.append(f"[start.centers] {power}: {code} is not a province")
            elif not t.is_centre(code):
                out.append(f"[start.centers] {power}: {code} is not a supply centre")
            elif code in owned:
                out.append(f"[start.centers] {power}: {code} is owned by {owned[code]} too")
            owned[code] = power
    return out


_UNIT = re.compile(r"^\s*(?:\d+\s*)?([AaFf])\s+(\S+)(?:\s+\S+)*\s*$")


def _unit_problem(t: Tables, text: str) -> str | None:
    """Why a start unit (``A PAR``, ``F STP/SC``) cannot stand where it is, or None."""
    # A count before the letter (a Superdiplomacy stack, "2A BUD") and words after the place
    # (a variant's unit colour) are the variant's to read.
    found = _UNIT.match(text)
    if found is None:
        return 'a unit is written "A PAR" or "F STP/SC"'
    parts = [found[1].upper(), found[2]]
    place = _location(t, parts[1])
    if place is None:
        return f"{parts[1]} is not a province or coast of this map"
    code, coast = place
    terrain = t.kind(code)
    if UnitType.from_letter(parts[0]) is UnitType.ARMY:
        if terrain not in ("land", "coast") or coast:
            return f"an army cannot stand on {parts[1]} ({terrain}{', a coast' if coast else ''})"
        return None
    if terrain not in ("coast", "sea"):
        return f"a fleet cannot stand in {code}, which is {terrain}"
    if t.coasts(code) and not coast:
        return f"{code} has split coasts: name the fleet's coast"
    return None


# -- what the loader accepts but is surely a mistake -----------------------------------------


def board_problems(m: Map, data: dict[str, Any]) -> Problems:
    """Adjacency a designer surely did not mean, on a board that loads."""
    out = _one_sided(m, data)
    out += _unreachable(m)
    for p in m.provinces:
        if p.terrain is Terrain.COAST and not m.province_fleet_adjacent[p.id]:
            out.append(f"[provinces] {p.code}: a coast no fleet can reach (give it fleet "
                       "neighbours in [fleet], or make it land)")
        if p.terrain is Terrain.SEA and not m.province_fleet_adjacent[p.id]:
            out.append(f"[provinces] {p.code}: a sea with no fleet neighbours")
        for loc in m.coast_locations(p.id):
            if not m.fleet_adjacent[loc]:
                out.append(f"[fleet] {m.loc_name(loc)}: a coast with no neighbours")
    victory = m.victory_centers
    total = sum(m.centre_weight)
    if victory > total:
        out.append(f"[map] victory_centers: {victory}, more than the board's {total} centres")
    return out


def _one_sided(m: Map, data: dict[str, Any]) -> Problems:
    """Edges written one way in a file that writes at least four in five both ways: a
    forgotten entry, or a typo on one side. A file that writes each edge once is fine."""
    out = []
    for kind in ("army", "fleet"):
        listed = set()
        for src, targets in _table(data, kind).items():
            if isinstance(targets, str):
                listed |= {(src.upper(), t.upper()) for t in targets.split()}
        if not listed:
            continue
        one_way = sorted((a, b) for a, b in listed if (b, a) not in listed)
        if len(one_way) * 5 > len(listed):
            continue  # this file lists edges once: symmetry is the loader's job
        for a, b in one_way:
            out.append(f"[{kind}] {b}: lacks {a} (listed only as {a} -> {b}; the file lists "
                       "its other edges both ways)")
    return out


def _unreachable(m: Map) -> Problems:
    """Provinces no unit can ever get to from the rest of the board."""
    walls = {p.id for p in m.provinces if p.terrain is Terrain.IMPASSABLE}
    near = [m.army_adjacent[p] | m.province_fleet_adjacent[p] for p in range(len(m.provinces))]
    groups: list[list[int]] = []
    seen: set[int] = set(walls)
    for start in range(len(m.provinces)):
        if start in seen:
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            p = stack.pop()
            group.append(p)
            for q in near[p]:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        groups.append(group)
    if len(groups) <= 1:
        return []
    groups.sort(key=len, reverse=True)
    out = []
    for group in groups[1:]:
        codes = ", ".join(sorted(m.provinces[p].code for p in group))
        first = min(m.provinces[p].code for p in group)
        out.append(f"[provinces] {first}: cannot be reached from the rest of the board "
                   f"({codes} {'is' if len(group) == 1 else 'are'} cut off)")
    return out
