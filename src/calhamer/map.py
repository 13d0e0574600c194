"""Map files: boards read from TOML, merged with the files they extend, checked and built.

The board itself (:class:`Map`, its provinces, powers and calendar) is in
:mod:`calhamer.board`, re-exported here, so that ``from calhamer.map import Map, load_map``
keeps working. See ``docs/maps.md`` for the file format.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from calhamer.board import (
    ARMY,
    COAST_NAMES,
    FLEET,
    Location,
    Map,
    Power,
    Province,
    ProvinceId,
    Terrain,
    UnitType,
    canonical_coast,
    normalize_name,
)
from calhamer.calendars import FALL, SPRING, WINTER, Calendar, Season
from calhamer.errors import MapError, PhaseError
from calhamer.pieces import Phase

if TYPE_CHECKING:
    from calhamer.documents.maps import CalendarEntry, MapFile, PowerEntry

__all__ = ["ARMY", "COAST_NAMES", "FLEET", "Location", "Map", "Power", "Province",
           "ProvinceId", "Terrain", "UnitType", "available_maps", "build_map",
           "canonical_coast", "load_map", "normalize_name"]

Fail = Callable[[str], MapError]

# The shipped maps, beside this module (read only when a map is loaded: the import of
# calhamer stays quick).
_MAPS = os.path.join(os.path.dirname(__file__), "maps")


def available_maps() -> list[str]:
    return sorted(n[:-5] for n in os.listdir(_MAPS) if n.endswith(".toml"))


@cache
def load_map(name_or_path: str) -> Map:
    """Load a map by name (a file in ``calhamer/maps``) or by path to a TOML file.

    Each file, and the map merged from the files it extends, is checked by
    :class:`calhamer.documents.maps.MapFile`; a problem raises :class:`MapError` naming the
    file and the field path (``map 'x.toml': provinces.PAR.type: ...``). A shipped file
    listed in ``maps/checked.txt`` (checked when it was shipped: see
    :func:`shipped_map_hashes`) is read as that check read it, without loading the model.
    """
    data, shipped = _read_with_parents(name_or_path, seen=())
    recipe = (load_map, (name_or_path,))
    if shipped:
        from calhamer.documents.map_tables import plain_map_file  # no pydantic

        return build_map(plain_map_file(data), name_or_path, recipe, tables=data)
    return build_map(_checked(data, name_or_path), name_or_path, recipe)


def _checked(data: dict[str, object], name_or_path: str) -> MapFile:
    """``data`` (a map file's tables) checked by the one model of map files."""
    # Imported here: pydantic is loaded by the first map read, not by ``import calhamer``.
    from pydantic import ValidationError

    from calhamer.documents.base import describe_validation_error
    from calhamer.documents.maps import MAP_HINTS, MapFile

    try:
        return MapFile.model_validate(data)
    except ValidationError as exc:
        problem = describe_validation_error(exc, hints=MAP_HINTS)
        raise MapError(f"map {name_or_path!r}: {problem}") from None


# The shipped map files checked when they were shipped: their SHA-256, one a line with the
# file's name after it (``scripts/check_shipped_maps.py`` writes it; a test holds it to the
# files). A file whose text has changed since is not listed, and is checked as any other.
_CHECKED_LIST = os.path.join(_MAPS, "checked.txt")


@cache
def _checked_hashes() -> frozenset[str]:
    try:
        with open(_CHECKED_LIST, encoding="utf-8") as f:
            return frozenset(line.split()[0] for line in f if line.strip())
    except OSError:
        return frozenset()


def shipped_map_hashes() -> dict[str, str]:
    """Every shipped map file (its name under ``calhamer/maps``) and the SHA-256 of its text,
    each file checked now by the model, alone and merged with the files it extends, and built
    (raises :class:`MapError` for a file that fails): the lines of ``maps/checked.txt``."""
    import hashlib

    listed: dict[str, str] = {}
    for folder, _dirs, files in sorted(os.walk(_MAPS)):
        for file_name in sorted(files):
            if not file_name.endswith(".toml"):
                continue
            path = os.path.join(folder, file_name)
            name = os.path.relpath(path, _MAPS)[:-5].replace(os.sep, "/")
            data, _ = _read_with_parents(name, seen=(), trust=False)
            build_map(_checked(data, name), name)
            with open(path, "rb") as f:
                listed[name] = hashlib.sha256(f.read()).hexdigest()
    return listed


def _read(name_or_path: str, trust: bool = True) -> tuple[dict[str, object], bool]:
    """A map file's tables, and whether it is a shipped file checked when it was shipped
    (else it is checked here, on its own, so that a problem names its file)."""
    import tomllib  # only when a map is loaded

    try:
        if name_or_path.endswith(".toml") and os.path.exists(name_or_path):
            path = name_or_path
        else:
            path = os.path.join(_MAPS, f"{name_or_path}.toml")
            if not os.path.isfile(path):
                known = ", ".join(available_maps())
                raise MapError(f"no map called {name_or_path!r}; the maps shipped are: {known}")
        with open(path, "rb") as f:
            raw = f.read()
        # As a file opened as text reads it: any line ending read as a newline.
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"map {name_or_path!r} is not valid TOML: {exc}") from None
    shipped = trust and _is_checked_shipped(path, raw)
    if not shipped:
        _checked(data, name_or_path)
    return data, shipped


def _is_checked_shipped(path: str, raw: bytes) -> bool:
    """Whether the file at ``path`` is a shipped map whose text is as it was checked."""
    shipped = os.path.realpath(_MAPS)
    if os.path.commonpath([os.path.realpath(path), shipped]) != shipped:
        return False
    from hashlib import sha256

    return sha256(raw).hexdigest() in _checked_hashes()


def _read_with_parents(name_or_path: str, seen: tuple[str, ...], trust: bool = True
                       ) -> tuple[dict[str, object], bool]:
    """The map's tables merged with those of the files it extends, and whether every one of
    those files is a shipped one checked when shipped (their merge was checked then too)."""
    if name_or_path in seen:
        raise MapError(f"map {name_or_path!r} extends itself through {' -> '.join(seen)}")
    data, shipped = _read(name_or_path, trust)
    parent = _table(data, "map").get("extends")
    if not parent:
        return data, shipped
    base, base_shipped = _read_with_parents(str(parent), (*seen, name_or_path), trust)
    return _merge(base, data, name_or_path), shipped and base_shipped


def _merge(base: dict[str, object], child: dict[str, object], name: str) -> dict[str, object]:
    merged: dict[str, object] = {}
    for key in set(base) | set(child):
        if key == "remove":
            continue
        b, c = base.get(key), child.get(key)
        if isinstance(b, dict) and isinstance(c, dict):
            if key in ("army", "fleet"):
                both = dict(b)
                for loc, targets in c.items():
                    both[loc] = f"{both.get(loc, '')} {targets}".strip()
                merged[key] = both
            elif key in ("oneway", "distance"):  # one-way and distance edges add to the parent's
                merged[key] = {kind: [*b.get(kind, []), *c.get(kind, [])]
                               for kind in set(b) | set(c)}
            elif key == "start":
                merged[key] = c  # a start replaces the parent's whole start
            else:
                merged[key] = {**b, **c}
        else:
            merged[key] = c if c is not None else b
    removals = _table(child, "remove")
    for kind in ("army", "fleet"):
        table = dict(_table(merged, kind))
        for edge in removals.get(kind, []):  # type: ignore[attr-defined]
            ends = str(edge).split()
            if len(ends) != 2:
                raise MapError(f"map {name!r}: remove.{kind}: {edge!r} must name two places, "
                               'like "BUR PAR"')
            a, b = ends
            table[a] = " ".join(t for t in str(table.get(a, "")).split() if t != b)
            table[b] = " ".join(t for t in str(table.get(b, "")).split() if t != a)
        merged[kind] = table
    return merged


def _table(data: dict[str, object], key: str) -> dict[str, object]:
    value = data.get(key, {})
    return value if isinstance(value, dict) else {}  # the model has checked it is a table


# -- building ----------------------------------------------------------------------------------


def build_map(file: MapFile, source: str,
              recipe: tuple[Callable[..., Map], tuple[Any, ...]] | None = None, *,
              tables: dict[str, Any] | None = None) -> Map:
    """The board a checked map file describes (``source`` names it in errors); ``recipe`` is
    how another process makes it again (:attr:`Map.recipe`). With ``tables``, ``file`` is
    those tables read as the model reads them (a shipped file checked when shipped:
    :func:`calhamer.documents.map_tables.plain_map_file`), and the board's
    :attr:`Map.file` is read from them on first use. Raises :class:`MapError`."""

    def fail(msg: str) -> MapError:
        return MapError(f"map {source!r}: {msg}")

    meta = file.map
    powers, minors, minor_homes = _powers(file, fail)
    power_codes = {p.code for p in (*powers, *minors)}
    provinces = _provinces(file, minor_homes, power_codes, fail)
    loc_province, loc_coast, canonical = _locations(provinces)
    army, fleet = _adjacency(file, provinces, loc_province, loc_coast, canonical, fail)
    distance = _distance_edges(file, canonical, fail)
    _check_build_lists(powers, provinces, fail)
    names, prefix_names = _name_index(provinces, canonical, fail)
    start_units, start_centers = _start(file, minors, provinces, power_codes, fail)
    start_phase, calendar = _calendar(meta.start_phase or "S1901M", file.calendar, fail)
    name = meta.name if meta.name is not None else source
    return Map(
        name=name,
        title=meta.title if meta.title is not None else name,
        victory_centers=meta.victory_centers or 0,
        start_phase=start_phase,
        powers=tuple(powers),
        provinces=tuple(provinces),
        loc_province=tuple(loc_province),
        loc_coast=tuple(loc_coast),
        army_adjacent=tuple(frozenset(a) for a in army),
        fleet_adjacent=tuple(frozenset(f) for f in fleet),
        distance_edges=distance,
        start_units=start_units,
        start_centers=start_centers,
        _file=None if tables is not None else file,
        _tables=tables,
        _names=names,
        _prefix_names=prefix_names,
        _power_names=_power_names([*powers, *minors], fail),
        minor_powers=tuple(minors),
        source=source,
        calendar=calendar,
        recipe=recipe,
    )


def _power(code: str, info: PowerEntry, color: str, minor: bool) -> Power:
    garrison = bool(getattr(info, "garrison", False))
    return Power(
        code=code,
        name=info.name if info.name is not None else code.title(),
        adjective=info.adjective or "",
        aliases=tuple(info.aliases),
        color=info.color if info.color is not None else color,
        minor=minor,
        builds=tuple(b.upper() for b in info.builds) if info.builds is not None else None,
        victory_centers=info.victory_centers,
        garrison=garrison,
        rebuild=bool(getattr(info, "rebuild", True)),
    )


def _powers(file: MapFile, fail: Fail) -> tuple[list[Power], list[Power], dict[str, str]]:
    """The great powers, the minor powers, and each minor power's home centres (province
    code -> minor power)."""
    powers = [_power(code, info, "#888888", False) for code, info in file.powers.items()]
    minors: list[Power] = []
    minor_homes: dict[str, str] = {}
    for code, minor_info in file.minor_powers.items():
        if code in {p.code for p in powers}:
            raise fail(f"{code} is in both [powers] and [minor_powers]")
        minors.append(_power(code, minor_info, "#c8b48c", True))
        for centre in minor_info.centers:
            minor_homes[centre.upper()] = code
    return powers, minors, minor_homes


def _provinces(file: MapFile, minor_homes: dict[str, str], power_codes: set[str],
               fail: Fail) -> list[Province]:
    provinces: list[Province] = []
    # [centres] gives provinces several supply centres each (or makes them centres at all).
    weights = {k.upper(): v for k, v in file.centres.items()}
    unknown_weights = set(weights) - set(file.provinces)
    if unknown_weights:
        raise fail(f"[centres] names {', '.join(sorted(unknown_weights))}, not provinces")
    homes = dict(minor_homes)
    for index, (code, info) in enumerate(sorted(file.provinces.items())):
        if code != code.upper():
            raise fail(f"province code {code!r} must be upper case")
        sc = info.sc
        weight = info.centres if info.centres is not None else weights.get(code, 1 if sc else 0)
        if weight:
            sc = True
        elif sc:
            raise fail(f"province {code} is a supply centre counting for no centres")
        terrain = Terrain[info.type.upper()]
        if info.convoys and terrain in (Terrain.LAND, Terrain.IMPASSABLE):
            raise fail(f"province {code}: convoys = true is for a coast (fleets there may "
                       f"convoy), but it is {terrain.name.lower()}")
        home = info.home
        if code in homes:
            if home is not None and home != homes[code]:
                raise fail(f"{code} is a home centre of both {home} and {homes[code]}")
            if not sc:
                raise fail(f"[minor_powers.{homes[code]}] centers: {code} is no centre")
            home = homes.pop(code)
        if home is not None and home not in power_codes:
            raise fail(f"province {code}: home power {home!r} is not in [powers]")
        provinces.append(Province(
            id=index, code=code, name=info.name if info.name is not None else code,
            terrain=terrain, is_supply_center=sc, home=home, coasts=tuple(info.coasts),
            aliases=tuple(info.aliases), centres=weight, convoys=info.convoys,
        ))
    for code, power in homes.items():
        raise fail(f"[minor_powers.{power}] centers: {code} is not a province")
    return provinces


def _locations(provinces: list[Province]
               ) -> tuple[list[ProvinceId], list[str | None], dict[str, Location]]:
    """Each location's province and coast (the provinces first, then the coasts), and every
    location by its canonical name."""
    loc_province = [p.id for p in provinces]
    loc_coast: list[str | None] = [None] * len(provinces)
    for p in provinces:
        for coast_code in p.coasts:
            loc_province.append(p.id)
            loc_coast.append(coast_code)
    canonical: dict[str, Location] = {}
    for loc, (pid, coast) in enumerate(zip(loc_province, loc_coast, strict=True)):
        code = provinces[pid].code
        canonical[f"{code}/{coast}" if coast else code] = loc
    return loc_province, loc_coast, canonical


def _adjacency(file: MapFile, provinces: list[Province], loc_province: list[ProvinceId],
               loc_coast: list[str | None], canonical: dict[str, Location], fail: Fail,
               ) -> tuple[list[set[ProvinceId]], list[set[Location]]]:
    """The army edges (between provinces) and the fleet edges (between locations): each edge
    of ``[army]`` and ``[fleet]`` both ways, each of ``[oneway]`` one way only."""

    def location(name: str, where: str) -> Location:
        loc = canonical.get(name.upper())
        if loc is None:
            raise fail(f"{where} names {name!r}, which is not a province or coast of this map")
        return loc

    army: list[set[ProvinceId]] = [set() for _ in provinces]
    fleet: list[set[Location]] = [set() for _ in loc_province]
    for kind, table, edges in (("army", file.army, army), ("fleet", file.fleet, fleet)):
        for src, targets in table.items():
            a = location(src, f"[{kind}]")
            for t in targets.split():
                b = location(t, f"[{kind}] {src}")
                edges[a].add(b)
                edges[b].add(a)
    for kind, listed, edges in (("army", file.oneway.army, army),
                                ("fleet", file.oneway.fleet, fleet)):
        for edge in listed:
            ends = edge.split()
            if len(ends) != 2:
                raise fail(f"oneway.{kind}: {edge!r} must name two places, from and to, "
                           'like "NTH WOO"')
            a, b = (location(end, f"oneway.{kind} {edge!r}") for end in ends)
            if kind == "army":
                a, b = loc_province[a], loc_province[b]  # armies move between provinces
            edges[a].add(b)
    _check_terrain(provinces, loc_province, loc_coast, army, fleet, fail)
    return army, fleet


def _distance_edges(file: MapFile, canonical: dict[str, Location], fail: Fail
                    ) -> tuple[tuple[Location, Location], ...]:
    """``[distance]``: edges between locations that no unit moves by but a distance counts,
    one way each (godip's graph joins a split province's land to the seas its coasts touch)."""
    edges: set[tuple[Location, Location]] = set()
    for edge in file.distance.edges:
        ends = edge.split()
        if len(ends) != 2:
            raise fail(f"distance.edges: {edge!r} must name two places, from and to, "
                       'like "STP BAR"')
        a, b = (canonical.get(end.upper()) for end in ends)
        if a is None or b is None:
            end = ends[0] if a is None else ends[1]
            raise fail(f"distance.edges {edge!r} names {end!r}, which is not a province or "
                       "coast of this map")
        edges.add((a, b))
    return tuple(sorted(edges))


def _check_terrain(provinces: list[Province], loc_province: list[ProvinceId],
                   loc_coast: list[str | None], army: list[set[ProvinceId]],
                   fleet: list[set[Location]], fail: Fail) -> None:
    """Armies never touch seas, fleets never touch land, and a split coast is named."""
    entered = {q for edges in army for q in edges}
    for p in provinces:
        if (army[p.id] or p.id in entered) and p.terrain not in (Terrain.LAND, Terrain.COAST):
            raise fail(f"[army] gives {p.code} army neighbours, but it is {p.terrain.name.lower()}")
    for loc, adj in enumerate(fleet):
        if not adj:
            continue
        p = provinces[loc_province[loc]]
        if p.terrain in (Terrain.LAND, Terrain.IMPASSABLE):
            raise fail(
                f"[fleet] gives {p.code} fleet neighbours, but it is {p.terrain.name.lower()}"
            )
        if p.coasts and loc_coast[loc] is None:
            raise fail(f"[fleet] gives {p.code} fleet neighbours; name its coasts instead")
    for adj in fleet:  # a one-way fleet edge's far end is checked here
        for d in adj:
            q = provinces[loc_province[d]]
            if q.terrain in (Terrain.LAND, Terrain.IMPASSABLE) or (q.coasts and
                                                                    loc_coast[d] is None):
                raise fail(f"a fleet edge leads into {q.code}, where no fleet can stand")


def _check_build_lists(powers: list[Power], provinces: list[Province], fail: Fail) -> None:
    """A power's own build sites are supply centres of the board."""
    centres = {p.code for p in provinces if p.is_supply_center}
    for power in powers:
        for code in power.builds or ():
            if code not in centres:
                raise fail(f"[powers.{power.code}] builds: {code} is not a supply centre")


def _power_names(powers: list[Power], fail: Fail) -> dict[str, str]:
    power_names: dict[str, str] = {}
    for pw in powers:
        for alias in (pw.code, pw.name, pw.adjective, *pw.aliases):
            if alias:
                key = normalize_name(alias)
                if power_names.get(key, pw.code) != pw.code:
                    raise fail(f"the power name {alias!r} is given to {power_names[key]} too")
                power_names[key] = pw.code
    return power_names


def _start(file: MapFile, minors: list[Power], provinces: list[Province],
           power_codes: set[str], fail: Fail,
           ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]] | None]:
    """The units at the start, and the centres' owners when the file lists them (None: each
    power owns its home centres)."""
    start_units = {k: tuple(v) for k, v in file.start.units.items()}
    for minor in minors:
        units = tuple(file.minor_powers[minor.code].units)
        if units:
            start_units[minor.code] = units
    start_centers = (
        {k: tuple(v) for k, v in file.start.centers.items()}
        if file.start.centers is not None
        else None
    )
    if start_centers is not None:
        # Minor powers own their home centres at the start unless the start says otherwise.
        listed = {c.upper() for codes in start_centers.values() for c in codes}
        for minor in minors:
            homes = [q.code for q in provinces if q.home == minor.code and q.code not in listed]
            if homes and minor.code not in start_centers:
                start_centers[minor.code] = tuple(homes)
    for power in list(start_units) + list(start_centers or {}):
        if power not in power_codes:
            raise fail(f"[start] names {power!r}, which is not in [powers]")
    return start_units, start_centers


def _calendar(start: str, entry: CalendarEntry | None, fail: Fail) -> tuple[str, Calendar]:
    """The start phase and the calendar (``[calendar]``, else the standard one), checked
    against each other: the game starts in a movement season or in the winter."""
    try:
        phase = Phase.parse(start)
    except PhaseError as exc:
        raise fail(f"[map] start_phase: {exc}") from None
    seasons: tuple[Season, ...] = (SPRING, FALL)
    winter = WINTER
    step = every = 1
    if entry is not None:
        if entry.seasons is not None:
            seasons = tuple(Season(s.code, s.name) for s in entry.seasons)
        if entry.winter is not None:
            winter = Season(entry.winter.code, entry.winter.name)
        step, every = entry.year_step, entry.adjust_every
    if step == 0:
        raise fail("calendar.year_step: the years must move on (a step of 0 never ends a game)")
    codes = [s.code for s in (*seasons, winter)]
    if not seasons:
        raise fail("calendar.seasons: a year needs at least one season of movement")
    for code in codes:
        if len(code) != 1 or not ("A" <= code <= "Z"):
            raise fail(f"calendar: the season code {code!r} must be one capital letter")
    if len(set(codes)) != len(codes):
        raise fail(f"calendar: two seasons have one code ({', '.join(codes)})")
    movement = {s.code for s in seasons}
    if phase.kind == "A" and phase.season != winter.code:
        raise fail(f"[map] start_phase: {start!r} adjusts in {phase.season!r}, which is not "
                   f"the calendar's winter ({winter.code!r})")
    if phase.kind in ("M", "R") and phase.season not in movement:
        raise fail(f"[map] start_phase: {start!r} moves in {phase.season!r}, which is not a "
                   f"season of the calendar ({', '.join(sorted(movement))})")
    first_year = phase.year + step if phase.kind == "A" else phase.year
    return start, Calendar(seasons, winter, step, every, first_year)


def _name_index(
    provinces: list[Province], canonical: dict[str, Location], fail
) -> tuple[dict[str, Location], tuple[tuple[str, Location], ...]]:
    """Every exact spelling, and the spellings eligible for unique-prefix matching."""
    names: dict[str, Location] = {}
    owner: dict[str, str] = {}

    def add(name: str, loc: Location, who: str) -> None:
        key = normalize_name(name)
        if not key:
            return
        if key in names and names[key] != loc:
            raise fail(f"the name {name!r} is given to both {owner[key]} and {who}")
        names[key] = loc
        owner[key] = who

    for canon, loc in canonical.items():
        add(canon, loc, canon)
    for p in provinces:
        for alias in (p.name, *p.aliases):
            add(alias, p.id, p.code)
        for coast_loc in (canonical[f"{p.code}/{c}"] for c in p.coasts):
            coast = canonical_coast(canonical, coast_loc)
            for base in (p.code, p.name, *p.aliases):
                for sep in ("/", "(", " ", "-"):
                    suffix = f"{coast})" if sep == "(" else coast
                    add(f"{base}{sep}{suffix}", coast_loc, f"{p.code}/{coast}")
                add(f"{base} {COAST_NAMES.get(coast, coast)}", coast_loc, f"{p.code}/{coast}")
    prefix = tuple(
        (normalize_name(n), p.id)
        for p in provinces
        if p.terrain is not Terrain.IMPASSABLE
        for n in (p.code, p.name, *p.aliases)
    )
    return names, prefix
