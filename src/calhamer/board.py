"""Boards as values: provinces, coasts, adjacency, powers and the calendar.

Provinces and locations are small integers so that the resolver never touches strings.
Location ``i`` for ``i < len(provinces)`` is province ``i`` itself; the coasts of split-coast
provinces come after them. A :class:`Map` is built from a map file by
:func:`calhamer.map.load_map` (``docs/maps.md`` for the file format); :mod:`calhamer.map`
re-exports everything here.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from calhamer.calendars import STANDARD_CALENDAR, Calendar

if TYPE_CHECKING:
    from calhamer.documents.maps import MapFile
    from calhamer.pieces import Phase

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
    # The power's own build sites (province codes), for build_sites = "listed"; None: not given.
    builds: tuple[str, ...] | None = None
    # A solo target of the power's own (None: the board's).
    victory_centers: int | None = None
    # A minor power whose units only hold and are removed when dislodged (the garrisons
    # module), and whether each winter rebuilds an army in its empty home centres.
    garrison: bool = False
    rebuild: bool = True


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
    # A coast whose fleets may convoy as if it were a sea (Ancient Mediterranean's Baleares).
    convoys: bool = False


@dataclass(frozen=True, eq=False)
class Map:
    """A board. Build one with :func:`calhamer.map.load_map`; all tables are precomputed and
    read-only."""

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
    # A shipped file checked when shipped has only its tables here, read by the model on
    # first use of :attr:`file` (so that loading the board does not load pydantic).
    _file: MapFile | None = field(repr=False)
    _names: dict[str, Location] = field(repr=False)
    _prefix_names: tuple[tuple[str, Location], ...] = field(repr=False)
    _power_names: dict[str, str] = field(repr=False)
    # Powers no player commands (``[minor_powers]``); not in ``powers`` nor ``power_codes``.
    minor_powers: tuple[Power, ...] = ()
    # What load_map was given (a shipped map's name or a file's path).
    source: str = field(default="", repr=False)
    # The seasons played, the year's step and how often adjustments come (``[calendar]``).
    calendar: Calendar = STANDARD_CALENDAR
    # Edges between locations that no unit moves by but a distance counts (``[distance]``:
    # the graph godip measures its civil-disorder removals on), one way each.
    distance_edges: tuple[tuple[Location, Location], ...] = ()
    # How the map is made again in another process: a function and its arguments (load_map
    # and the source, set by the loader; a board derived by a variant's options, its own).
    # Maps are compared by identity, so each is made there once, as here.
    recipe: tuple[Callable[..., Map], tuple[Any, ...]] | None = field(default=None, repr=False)
    _tables: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def file(self) -> MapFile:
        """The map file as read, merged with the files it extends, as the model reads it."""
        if self._file is None:
            from calhamer.documents.maps import MapFile  # pydantic: on first use

            object.__setattr__(self, "_file", MapFile.model_validate(self._tables))
        assert self._file is not None
        return self._file

    def __reduce__(self) -> tuple[object, ...]:
        if self.recipe is None:
            raise TypeError(f"the map {self.name!r} was not made by load_map: it cannot travel")
        return self.recipe

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
        return code in self._minor_codes

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

    def seas_reached(
        self, origin: ProvinceId, seas: frozenset[ProvinceId]
    ) -> frozenset[ProvinceId]:
        """The provinces of ``seas`` that a chain of them, starting next to ``origin``, gets
        to: :meth:`sea_chain`'s question answered once for every target. Remembered per map
        (a phase asks it again and again: the orders' checks, the resolver's convoy paths,
        the results' wording, and the next phases' games)."""
        key = (origin, seas)
        memo = self._seas_memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= _SEAS_MEMO_LIMIT:
                memo.clear()  # a long run of different fleets: start again
            near = self.province_fleet_adjacent
            todo = [p for p in near[origin] if p in seas]
            seen = set(todo)
            while todo:
                for nxt in near[todo.pop()]:
                    if nxt in seas and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            found = memo[key] = frozenset(seen)
        return found

    def sea_route(self, origin: ProvinceId, seas: frozenset[ProvinceId], dest: ProvinceId) -> bool:
        """Whether a chain of ``seas``, starting next to ``origin``, gets to a sea next to
        ``dest`` (a convoy route through them). Remembered per map, as :meth:`seas_reached`."""
        key = (origin, seas, dest)
        memo = self._route_memo
        found = memo.get(key)
        if found is None:
            if len(memo) >= _SEAS_MEMO_LIMIT:
                memo.clear()
            near = self.province_fleet_adjacent
            found = memo[key] = any(dest in near[sea] for sea in self.seas_reached(origin, seas))
        return found

    def fleet_destinations(self, loc: Location, province: ProvinceId) -> tuple[Location, ...]:
        """The locations of ``province`` that a fleet at ``loc`` can move to."""
        return tuple(d for d in self.fleet_adjacent[loc] if self.loc_province[d] == province)

    def is_sea(self, province: ProvinceId) -> bool:
        return self.provinces[province].terrain is Terrain.SEA

    def can_convoy(self, province: ProvinceId) -> bool:
        """Whether a fleet in ``province`` may convoy: a sea, or a coast the map marks
        ``convoys = true`` (Baleares, Gibraltar), which convoy routes pass through as a sea."""
        return self.convoy_space[province]

    def phase_name(self, phase: Phase) -> str:
        """``Spring 1901 Movement``, ``Year 1425 Movement``: a phase named by this board's
        calendar."""
        return self.calendar.phase_name(phase)

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
        object.__setattr__(self, "_minor_codes", frozenset(p.code for p in self.minor_powers))
        object.__setattr__(self, "own_targets", any(
            p.victory_centers is not None for p in self.powers))
        object.__setattr__(self, "convoy_space", tuple(
            p.terrain is Terrain.SEA or p.convoys for p in self.provinces))
        object.__setattr__(self, "convoy_spaces", frozenset(
            p for p, convoys in enumerate(self.convoy_space) if convoys))
        object.__setattr__(self, "_seas_memo", {})
        object.__setattr__(self, "_route_memo", {})

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
    # Whether a fleet in each province may convoy (seas, and coasts marked ``convoys``).
    convoy_space: tuple[bool, ...] = field(init=False, repr=False)
    # The same, as the set of the provinces where a fleet may convoy.
    convoy_spaces: frozenset[ProvinceId] = field(init=False, repr=False)
    # :meth:`seas_reached`'s answers, by origin and seas.
    _seas_memo: dict[tuple[ProvinceId, frozenset[ProvinceId]], frozenset[ProvinceId]] = field(
        init=False, repr=False)
    # :meth:`sea_route`'s answers, by origin, seas and destination.
    _route_memo: dict[tuple[ProvinceId, frozenset[ProvinceId], ProvinceId], bool] = field(
        init=False, repr=False)
    _minor_codes: frozenset[str] = field(init=False, repr=False)
    # Whether some great power has a solo target of its own (``[powers.X] victory_centers``).
    own_targets: bool = field(init=False, repr=False)


COAST_NAMES = {"NC": "North Coast", "SC": "South Coast", "EC": "East Coast", "WC": "West Coast"}

# Answers :meth:`Map.seas_reached` keeps per map before it starts again (a standard game
# asks a few hundred different questions in all).
_SEAS_MEMO_LIMIT = 8192

_NAME_JUNK = re.compile(r"[\s.'’_-]+")


def normalize_name(text: str) -> str:
    """Fold a name for matching: lower case, no spaces, dots, apostrophes or hyphens."""
    return _NAME_JUNK.sub("", text).lower()


def canonical_coast(canonical: dict[str, Location], loc: Location) -> str:
    for name, value in canonical.items():
        if value == loc and "/" in name:
            return name.split("/", 1)[1]
    raise KeyError(loc)
