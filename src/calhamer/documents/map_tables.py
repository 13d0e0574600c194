"""A shipped map file read as :class:`~calhamer.documents.maps.MapFile` reads it, without
pydantic: for the files checked by that model when they were shipped (``maps/checked.txt``).

Loading pydantic and building the model costs more than the rest of a board's loading, and a
shipped file's check gives the same answer at every start. The map's loader builds a shipped,
already-checked file's board from :func:`plain_map_file`: its tables as the model's
attributes, each left-out key read as the model's default (:data:`DEFAULTS`; the tests hold
each default to the model's, and every shipped board built both ways to the other). The
board's :attr:`~calhamer.map.Map.file` is still the model, checked on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from calhamer.documents.maps import MapFile

# Each table of the model, by the name of its model class: its keys' defaults, and the class
# of the keys holding tables (a table, or a table of tables by code, or a list of tables).
DEFAULTS: dict[str, dict[str, Any]] = {
    "MapFile": {"map": {}, "powers": {}, "minor_powers": {}, "provinces": {}, "centres": {},
                "army": {}, "fleet": {}, "remove": {}, "oneway": {}, "distance": {},
                "calendar": None, "start": {}},
    "MapMeta": {"name": None, "title": None, "extends": None, "victory_centers": None,
                "start_phase": None, "geometry": None},
    "PowerEntry": {"name": None, "adjective": None, "aliases": [], "color": None,
                   "builds": None, "victory_centers": None},
    "MinorPowerEntry": {"name": None, "adjective": None, "aliases": [], "color": None,
                        "builds": None, "victory_centers": None, "units": [], "centers": [],
                        "stationary": True, "default": "hold", "garrison": False,
                        "rebuild": True},
    "ProvinceEntry": {"name": None, "type": "land", "convoys": False, "sc": False,
                      "centres": None, "home": None, "coasts": [], "aliases": [], "x": None,
                      "y": None},
    "Removals": {"army": [], "fleet": []},
    "OneWay": {"army": [], "fleet": []},
    "DistanceEdges": {"edges": []},
    "SeasonEntry": {"code": None, "name": None},  # both required: a checked file has them
    "CalendarEntry": {"seasons": None, "winter": None, "year_step": 1, "adjust_every": 1},
    "StartEntry": {"units": {}, "centers": None},
}

# (model class, key) -> how the key's value holds tables: "one" a table, "by_code" a table of
# tables, "list" a list of tables; and the class of those tables.
NESTED: dict[tuple[str, str], tuple[str, str]] = {
    ("MapFile", "map"): ("one", "MapMeta"),
    ("MapFile", "powers"): ("by_code", "PowerEntry"),
    ("MapFile", "minor_powers"): ("by_code", "MinorPowerEntry"),
    ("MapFile", "provinces"): ("by_code", "ProvinceEntry"),
    ("MapFile", "remove"): ("one", "Removals"),
    ("MapFile", "oneway"): ("one", "OneWay"),
    ("MapFile", "distance"): ("one", "DistanceEdges"),
    ("MapFile", "calendar"): ("one", "CalendarEntry"),
    ("MapFile", "start"): ("one", "StartEntry"),
    ("CalendarEntry", "seasons"): ("list", "SeasonEntry"),
    ("CalendarEntry", "winter"): ("one", "SeasonEntry"),
}


class PlainTable:
    """One table of a checked map file, its keys read as attributes (left out: the model's
    default)."""

    __slots__ = ("_data", "_kind")

    def __init__(self, data: dict[str, Any], kind: str) -> None:
        self._data = data
        self._kind = kind

    def __getattr__(self, key: str) -> Any:
        defaults = DEFAULTS[self._kind]
        if key not in defaults:
            raise AttributeError(key)
        value = self._data.get(key, defaults[key])
        nested = NESTED.get((self._kind, key))
        if nested is None or value is None:
            return value
        how, kind = nested
        if how == "one":
            return PlainTable(value, kind)
        if how == "list":
            return [PlainTable(v, kind) for v in value]
        return {code: PlainTable(v, kind) for code, v in value.items()}


def plain_map_file(data: dict[str, Any]) -> MapFile:
    """A checked map file's tables (merged with those it extends) read as the model would
    read them. Only for a file the model has accepted: nothing is checked here."""
    return cast("MapFile", PlainTable(data, "MapFile"))
