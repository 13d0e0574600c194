"""Boards: provinces, coasts and adjacency, loaded from TOML data files.

Provinces and locations are small integers so that the resolver never touches strings.
Location ``i`` for ``i < len(provinces)`` is province ``i`` itself; the coasts of split-coast
provinces come after them. See ``docs/maps.md`` for the file format.
"""

from __future__ import annotations

import os
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING

from calhamer.errors import MapError

if TYPE_CHECKING:
    from calhamer.documents.maps import MapFile, PowerEntry

Location = int
ProvinceId = int


class Terrain(IntEnum):
    LAND = 0
    COAST = 1
    SEA = 2
    IMPASSABLE = 3


class UnitType(IntEnum):
    ARMY = 0
    FLEET = 1

    @property
    def letter(self) -> str:
        return "AF"[self]

    @classmethod
    def from_letter(cls, letter: str) -> UnitType:
        return cls.ARMY if letter.upper() == "A" else cls.FLEET


ARMY = UnitType.ARMY
FLEET = UnitType.FLEET


@dataclass(frozen=True, slots=True)
class Power:
    code: str
    name: str
    adjective: str = ""
    aliases: tuple[str, ...] = ()
    color: str = "#888888"
    minor: bool = False  # a minor power: no player commands it (a DP variant's neutral units)


@dataclass(frozen=True, slots=True)
class Province:
    id: ProvinceId
    code: str
    name: str
    terrain: Terrain
    is_supply_center: bool = False
    home: str | None = None
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    # How many supply centres the province counts for (0 if none; Superdiplomacy has 5).
    centres: int = 0


@dataclass(frozen=True, eq=False)
class Map:
    """A board. Build one with :func:`load_map`; all tables are precomputed and read-only."""

    name: str
    title: str
    victory_centers: int
    start_phase: str
    powers: tuple[Power, ...]
    provinces: tuple[Province, ...]
    loc_province: tuple[ProvinceId, ...]
    loc_coast: tuple[str | None, ...]
    army_adjacent: tuple[frozenset[ProvinceId], ...]
    fleet_adjacent: tuple[frozenset[Location], ...]
    start_units: dict[str, tuple[str, ...]]
    start_centers: dict[str, tuple[str, ...]] | None
    # The map file as read (merged with the files it extends), checked by one model: the
    # renderer and the variants read their own tables here (geometry, minor powers' orders).
    file: MapFile = field(repr=False)
    _names: dict[str, Location] = field(repr=False)
    _prefix_names: tuple[tuple[str, Location], ...] = field(repr=False)
    _power_names: dict[str, str] = field(repr=False)
    # Powers no player commands (``[minor_powers]``); not in ``powers`` nor ``power_codes``.
    minor_powers: tuple[Power, ...] = ()
    # What load_map was given (a shipped map's name or a file's path): a map travels to another
    # process as this, and is loaded there once, as here (maps are compared by identity).
    source: str = field(default="", repr=False)

    def __reduce__(self) -> tuple[object, ...]:
        return (load_map, (self.source or self.name,))

    # -- provinces and locations -------------------------------------------------------------

    @property
    def province_count(self) -> int:
        return len(self.provinces)

    @property
    def location_count(self) -> int:
        return len(self.loc_province)

    @property
    def supply_centers(self) -> tuple[ProvinceId, ...]:
        return tuple(p.id for p in self.provinces if p.is_supply_center)

    def home_centers(self, power: str) -> tuple[ProvinceId, ...]:
        return tuple(p.id for p in self.provinces if p.home == power)

    def province_of(self, loc: Location) -> ProvinceId:
        return self.loc_province[loc]

    def coast_locations(self, province: ProvinceId) -> tuple[Location, ...]:
        """The coast locations of a split-coast province (empty for any other province)."""
        return self._coast_locs[province]

    def loc_name(self, loc: Location) -> str:
        """Canonical text of a location: ``SPA`` or ``SPA/NC``."""
        return self.loc_names[loc]

    @property
    def canonical_locations(self) -> dict[str, Location]:
        """Every location by its canonical name (``"STP/SC"``), for exact look-ups."""
        return self._canonical

    def loc(self, name: str) -> Location:
        """Exact look-up of a canonical location name (``"STP/SC"``); raises KeyError."""
        return self._canonical[name.upper()]

    def find_location(self, text: str) -> Location | None:
        """Look up a province or coast by code, name, alias or unique prefix; None if unknown."""
        key = normalize_name(text)
        loc = self._names.get(key)
        if loc is not None:
            return loc
        if len(key) >= 3:
            hits = {loc for name, loc in self._prefix_names if name.startswith(key)}
            if len(hits) == 1:
                return hits.pop()
        return None

    def suggest_location(self, text: str) -> list[Location]:
        """Locations whose names look like ``text``, best first (for "did you mean ...")."""
        key = normalize_name(text)
        if len(key) >= 2:
            hits = sorted({loc for name, loc in self._prefix_names if name.startswith(key)})
            if 1 < len(hits) <= 4:
                return hits
        import difflib  # only for a misspelt name

        close = difflib.get_close_matches(key, self._names.keys(), n=3, cutoff=0.6)
        seen: list[Location] = []
        for name in close:
            loc = self._names[name]
            if loc not in seen:
                seen.append(loc)
        return seen

    def describe(self, loc: Location) -> str:
        """``Tyrolia (TYR)``: how a location is named in messages."""
        province = self.provinces[self.loc_province[loc]]
        coast = self.loc_coast[loc]
        # A coast of another name than the four (Vietnam War's Mekong "RIVER") is named by it.
        suffix = f" {COAST_NAMES.get(coast, coast.title())}" if coast else ""
        return f"{province.name}{suffix} ({self.loc_name(loc)})"

    # -- powers -----------------------------------------------------------------------------

    @property
    def power_codes(self) -> tuple[str, ...]:
        """The powers players command (minor powers are not among them)."""
        return self._player_codes

    @property
    def minor_power_codes(self) -> tuple[str, ...]:
        return tuple(p.code for p in self.minor_powers)

    def is_minor(self, code: str) -> bool:
        """Whether ``code`` is a minor power (one no player commands)."""
        return any(p.code == code for p in self.minor_powers)

    def find_power(self, text: str) -> str | None:
        """A power (minor powers included) by code, name, adjective or alias."""
        if text in self._power_codes:
            return text
        return self._power_names.get(normalize_name(text))

    def power(self, code: str) -> Power:
        for p in (*self.powers, *self.minor_powers):
            if p.code == code:
                return p
        raise KeyError(code)

    # -- movement -----------------------------------------------------------------------------

    def can_reach(self, unit_type: UnitType, loc: Location, dest: Location) -> bool:
        """Whether a unit of this type at ``loc`` may move to ``dest`` without a convoy.

        For armies ``dest`` may be any location of the target province; for fleets it must be
        the exact location (coast) reached.
        """
        if unit_type is UnitType.ARMY:
            return self.loc_province[dest] in self.army_adjacent[self.loc_province[loc]]
        return dest in self.fleet_adjacent[loc]

    def can_reach_province(self, unit_type: UnitType, loc: Location, province: ProvinceId) -> bool:
        """Whether the unit could move into ``province`` at all (any coast): used for supports."""
        if unit_type is UnitType.ARMY:
            return province in self.army_adjacent[self.loc_province[loc]]
        return province in self._fleet_adjacent_provinces[loc]

    def sea_chain(
        self,
        origin: ProvinceId,
        allowed: Callable[[ProvinceId], bool],
        reached: Callable[[ProvinceId], bool],
    ) -> bool:
        """Whether a chain of ``allowed`` seas, starting next to ``origin``, gets to a sea for
        which ``reached`` holds. Convoy routes of every kind are questions of this shape."""
        near = self.province_fleet_adjacent
        start = [p for p in near[origin] if allowed(p)]
        seen = set(start)
        queue = deque(start)
        while queue:
            sea = queue.popleft()
            if reached(sea):
                return True
            for nxt in near[sea]:
                if nxt not in seen and allowed(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
        return False

    def fleet_destinations(self, loc: Location, province: ProvinceId) -> tuple[Location, ...]:
        """The locations of ``province`` that a fleet at ``loc`` can move to."""
        return tuple(d for d in self.fleet_adjacent[loc] if self.loc_province[d] == province)

    def is_sea(self, province: ProvinceId) -> bool:
        return self.provinces[province].terrain is Terrain.SEA

    def is_coastal(self, province: ProvinceId) -> bool:
        return self.provinces[province].terrain is Terrain.COAST

    def unit_can_stand(self, unit_type: UnitType, loc: Location) -> bool:
        """Armies stand on land or coast provinces; fleets on seas or a coast (named if split)."""
        province = self.provinces[self.loc_province[loc]]
        if unit_type is UnitType.ARMY:
            return self.loc_coast[loc] is None and province.terrain in (Terrain.LAND, Terrain.COAST)
        if province.terrain is Terrain.SEA:
            return True
        if province.terrain is not Terrain.COAST:
            return False
        return (self.loc_coast[loc] is not None) == bool(province.coasts)

    # Derived tables, filled in by __post_init__ so that callers never recompute them.
    def __post_init__(self) -> None:
        coast_locs: list[list[Location]] = [[] for _ in self.provinces]
        for loc in range(len(self.provinces), len(self.loc_province)):
            coast_locs[self.loc_province[loc]].append(loc)
        object.__setattr__(self, "_coast_locs", tuple(tuple(c) for c in coast_locs))
        object.__setattr__(
            self,
            "_fleet_adjacent_provinces",
            tuple(frozenset(self.loc_province[d] for d in adj) for adj in self.fleet_adjacent),
        )
        by_province: list[set[ProvinceId]] = [set() for _ in self.provinces]
        for loc, adj in enumerate(self._fleet_adjacent_provinces):
            by_province[self.loc_province[loc]] |= adj
        object.__setattr__(
            self, "province_fleet_adjacent", tuple(frozenset(s) for s in by_province)
        )
        names = tuple(
            f"{self.provinces[p].code}/{c}" if c else self.provinces[p].code
            for p, c in zip(self.loc_province, self.loc_coast, strict=True)
        )
        object.__setattr__(self, "loc_names", names)
        object.__setattr__(
            self, "_power_codes", frozenset(p.code for p in (*self.powers, *self.minor_powers))
        )
        object.__setattr__(self, "_canonical", {name: loc for loc, name in enumerate(names)})
        # Tables the phases read every time: computed once here.
        object.__setattr__(self, "_player_codes", tuple(p.code for p in self.powers))
        object.__setattr__(self, "centre_weight", tuple(
            (p.centres or 1) if p.is_supply_center else 0 for p in self.provinces))
        object.__setattr__(self, "single_centres", max(self.centre_weight, default=0) <= 1)
        by_code = sorted(range(len(self.provinces)), key=lambda p: self.provinces[p].code)
        rank = [0] * len(self.provinces)
        for i, p in enumerate(by_code):
            rank[p] = i
        object.__setattr__(self, "code_rank", tuple(rank))

    _coast_locs: tuple[tuple[Location, ...], ...] = field(init=False, repr=False)
    _fleet_adjacent_provinces: tuple[frozenset[ProvinceId], ...] = field(init=False, repr=False)
    _canonical: dict[str, Location] = field(init=False, repr=False)
    loc_names: tuple[str, ...] = field(init=False, repr=False)
    _power_codes: frozenset[str] = field(init=False, repr=False)
    _player_codes: tuple[str, ...] = field(init=False, repr=False)
    # How many supply centres each province counts for (0: none; Superdiplomacy's majors 5).
    centre_weight: tuple[int, ...] = field(init=False, repr=False)
    # Whether every supply centre counts one (true but for Superdiplomacy's majors).
    single_centres: bool = field(init=False, repr=False)
    # Each province's place when provinces are sorted by code (documents list them so).
    code_rank: tuple[int, ...] = field(init=False, repr=False)
    # Provinces a fleet could reach from any coast of a province: convoy routes use these.
    province_fleet_adjacent: tuple[frozenset[ProvinceId], ...] = field(init=False, repr=False)


COAST_NAMES = {"NC": "North Coast", "SC": "South Coast", "EC": "East Coast", "WC": "West Coast"}

_NAME_JUNK = re.compile(r"[\s.'’_-]+")


def normalize_name(text: str) -> str:
    """Fold a name for matching: lower case, no spaces, dots, apostrophes or hyphens."""
    return _NAME_JUNK.sub("", text).lower()


# -- loading ----------------------------------------------------------------------------------


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
    file and the field path (``map 'x.toml': provinces.PAR.type: ...``).
    """
    data = _read_with_parents(name_or_path, seen=())
    return _build(_checked(data, name_or_path), source=name_or_path)


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


def _read(name_or_path: str) -> dict[str, object]:
    import tomllib  # only when a map is loaded

    try:
        if name_or_path.endswith(".toml") and os.path.exists(name_or_path):
            path = name_or_path
        else:
            path = os.path.join(_MAPS, f"{name_or_path}.toml")
            if not os.path.isfile(path):
                known = ", ".join(available_maps())
                raise MapError(f"no map called {name_or_path!r}; the maps shipped are: {known}")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"map {name_or_path!r} is not valid TOML: {exc}") from None
    _checked(data, name_or_path)  # each file on its own, so that a problem names its file
    return data


def _read_with_parents(name_or_path: str, seen: tuple[str, ...]) -> dict[str, object]:
    if name_or_path in seen:
        raise MapError(f"map {name_or_path!r} extends itself through {' -> '.join(seen)}")
    data = _read(name_or_path)
    parent = _table(data, "map").get("extends")
    if not parent:
        return data
    base = _read_with_parents(str(parent), (*seen, name_or_path))
    return _merge(base, data, name_or_path)


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


def _build(file: MapFile, source: str) -> Map:
    meta = file.map

    def fail(msg: str) -> MapError:
        return MapError(f"map {source!r}: {msg}")

    def power_entry(code: str, info: PowerEntry, color: str, minor: bool) -> Power:
        return Power(
            code=code,
            name=info.name if info.name is not None else code.title(),
            adjective=info.adjective or "",
            aliases=tuple(info.aliases),
            color=info.color if info.color is not None else color,
            minor=minor,
        )

    powers = [power_entry(code, info, "#888888", False) for code, info in file.powers.items()]
    minor_powers = []
    minor_homes: dict[str, str] = {}  # province code -> minor power
    minor_units: dict[str, tuple[str, ...]] = {}
    for code, minor_info in file.minor_powers.items():
        if code in {p.code for p in powers}:
            raise fail(f"{code} is in both [powers] and [minor_powers]")
        minor_powers.append(power_entry(code, minor_info, "#c8b48c", True))
        minor_units[code] = tuple(minor_info.units)
        for centre in minor_info.centers:
            minor_homes[centre.upper()] = code
    power_codes = {p.code for p in powers} | {p.code for p in minor_powers}

    provinces: list[Province] = []
    # [centres] gives provinces several supply centres each (or makes them centres at all).
    weights = {k.upper(): v for k, v in file.centres.items()}
    unknown_weights = set(weights) - set(file.provinces)
    if unknown_weights:
        raise fail(f"[centres] names {', '.join(sorted(unknown_weights))}, not provinces")
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
        home = info.home
        if code in minor_homes:
            if home is not None and home != minor_homes[code]:
                raise fail(f"{code} is a home centre of both {home} and {minor_homes[code]}")
            if not sc:
                raise fail(f"[minor_powers.{minor_homes[code]}] centers: {code} is no centre")
            home = minor_homes.pop(code)
        if home is not None and home not in power_codes:
            raise fail(f"province {code}: home power {home!r} is not in [powers]")
        provinces.append(
            Province(
                id=index,
                code=code,
                name=info.name if info.name is not None else code,
                terrain=terrain,
                is_supply_center=sc,
                home=home,
                coasts=tuple(info.coasts),
                aliases=tuple(info.aliases),
                centres=weight,
            )
        )

    for code, power in minor_homes.items():
        raise fail(f"[minor_powers.{power}] centers: {code} is not a province")

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

    def location(name: str, where: str) -> Location:
        loc = canonical.get(name.upper())
        if loc is None:
            raise fail(f"{where} names {name!r}, which is not a province or coast of this map")
        return loc

    army: list[set[ProvinceId]] = [set() for _ in provinces]
    for src, targets in file.army.items():
        a = location(src, "[army]")
        for t in targets.split():
            b = location(t, f"[army] {src}")
            army[a].add(b)
            army[b].add(a)
    fleet: list[set[Location]] = [set() for _ in loc_province]
    for src, targets in file.fleet.items():
        a = location(src, "[fleet]")
        for t in targets.split():
            b = location(t, f"[fleet] {src}")
            fleet[a].add(b)
            fleet[b].add(a)

    for p in provinces:
        if army[p.id] and p.terrain not in (Terrain.LAND, Terrain.COAST):
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

    names, prefix_names = _name_index(provinces, canonical, fail)
    power_names: dict[str, str] = {}
    for pw in (*powers, *minor_powers):
        for alias in (pw.code, pw.name, pw.adjective, *pw.aliases):
            if alias:
                key = normalize_name(alias)
                if power_names.get(key, pw.code) != pw.code:
                    raise fail(f"the power name {alias!r} is given to {power_names[key]} too")
                power_names[key] = pw.code

    start_units = {k: tuple(v) for k, v in file.start.units.items()}
    start_units.update({k: v for k, v in minor_units.items() if v})
    start_centers = (
        {k: tuple(v) for k, v in file.start.centers.items()}
        if file.start.centers is not None
        else None
    )
    if start_centers is not None:
        # Minor powers own their home centres at the start unless the start says otherwise.
        listed = {c.upper() for codes in start_centers.values() for c in codes}
        for minor in minor_powers:
            homes = [q.code for q in provinces if q.home == minor.code and q.code not in listed]
            if homes and minor.code not in start_centers:
                start_centers[minor.code] = tuple(homes)
    for power in list(start_units) + list(start_centers or {}):
        if power not in power_codes:
            raise fail(f"[start] names {power!r}, which is not in [powers]")

    name = meta.name if meta.name is not None else source
    return Map(
        name=name,
        title=meta.title if meta.title is not None else name,
        victory_centers=meta.victory_centers or 0,
        start_phase=meta.start_phase or "S1901M",
        powers=tuple(powers),
        provinces=tuple(provinces),
        loc_province=tuple(loc_province),
        loc_coast=tuple(loc_coast),
        army_adjacent=tuple(frozenset(a) for a in army),
        fleet_adjacent=tuple(frozenset(f) for f in fleet),
        start_units=start_units,
        start_centers=start_centers,
        file=file,
        _names=names,
        _prefix_names=prefix_names,
        _power_names=power_names,
        minor_powers=tuple(minor_powers),
        source=source,
    )


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


def canonical_coast(canonical: dict[str, Location], loc: Location) -> str:
    for name, value in canonical.items():
        if value == loc and "/" in name:
            return name.split("/", 1)[1]
    raise KeyError(loc)
