"""The map file (TOML) as one pydantic model.

Every reader of a map file goes through :class:`MapFile`: :func:`calhamer.map.load_map`
builds the board from it, the renderer finds the map's geometry and node positions in it,
and the DP variants read their minor powers' orders in it. A map file that ``extends``
another holds only its changes, so every table is optional; the merged file is checked again.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StrictInt

from calhamer.documents.base import Document

Terrain = Literal["land", "coast", "sea", "impassable", "LAND", "COAST", "SEA", "IMPASSABLE"]


class MapMeta(Document):
    """``[map]``: the board's name and title, whom it extends, and how it starts and ends."""

    name: str | None = None
    title: str | None = None
    extends: str | None = Field(None, description="a shipped map's name or a TOML file's path "
                                "whose tables this file changes")
    victory_centers: StrictInt | None = Field(
        None, description="centres a power needs to win; 0: no victory by centres")
    start_phase: str | None = Field(None, description="the first phase, S1901M")
    geometry: str | None = Field(None, description="the drawing: a shipped map's name or a "
                                 "geometry JSON file's path")


class PowerEntry(Document):
    """``[powers.CODE]``: a great power, commanded by a player."""

    name: str | None = None
    adjective: str | None = None
    aliases: list[str] = Field(default_factory=list)
    color: str | None = Field(None, description="a CSS colour")
    builds: list[str] | None = Field(
        None, description='its own build sites, supply centres ("PAR", "MAR"), for the variant '
        'option build_sites = "listed"')
    victory_centers: Annotated[StrictInt, Field(ge=0)] | None = Field(
        None, description="the centres this power needs to win, where they differ from the "
        "board's")


class MinorPowerEntry(PowerEntry):
    """``[minor_powers.CODE]``: a power no player commands (a DP variant's neutral, the
    Superdiplomacy Small Powers, a garrison)."""

    units: list[str] = Field(default_factory=list, description="its units at the start")
    centers: list[str] = Field(default_factory=list, description="its home centres")
    stationary: StrictBool = Field(True, description="whether its units never retreat")
    default: str | list[str] = Field(
        "hold", description='its units\' orders when no bid buys one: "hold" or a list of orders')
    garrison: StrictBool = Field(
        False, description="a garrison (the garrisons module): its units only hold, get no "
        "orders from anyone and are removed when dislodged")
    rebuild: StrictBool = Field(
        True, description="a garrison's: whether each winter rebuilds an army in each empty "
        "home centre it still owns")


class ProvinceEntry(Document):
    """``[provinces]``: ``CODE = { name = ..., type = ... }``."""

    name: str | None = None
    type: Terrain = "land"
    convoys: StrictBool = Field(
        False, description="a coast whose fleets may convoy as if it were a sea (Baleares)")
    sc: StrictBool = Field(False, description="whether it is a supply centre")
    centres: Annotated[StrictInt, Field(ge=0)] | None = Field(
        None, description="how many supply centres it counts for (1 for a centre)")
    home: str | None = Field(None, description="the power whose home centre it is")
    coasts: list[str] = Field(default_factory=list, description='its coasts: "NC", "SC"...')
    aliases: list[str] = Field(default_factory=list)
    x: float | None = Field(None, description="where a schematic drawing puts it")
    y: float | None = None


class Removals(Document):
    """``[remove]``: adjacencies of the extended map this one takes away (``"A B"`` each)."""

    army: list[str] = Field(default_factory=list)
    fleet: list[str] = Field(default_factory=list)


class OneWay(Document):
    """``[oneway]``: moves with no edge back, ``"FROM TO"`` each, by unit type."""

    army: list[str] = Field(default_factory=list)
    fleet: list[str] = Field(default_factory=list)


class DistanceEdges(Document):
    """``[distance]``: edges of the board's graph that no unit moves by but that a distance
    counts (the ``home-distance`` removals of civil disorder), ``"FROM TO"`` each, one way."""

    edges: list[str] = Field(default_factory=list)


class SeasonEntry(Document):
    """A season of ``[calendar]``: the letter phase codes write and its name."""

    code: str = Field(description='one capital letter, like "S"')
    name: str = Field(description='like "Spring"')


class CalendarEntry(Document):
    """``[calendar]``: the movement seasons of a year, the winter, the year's step and how
    often adjustments come (the standard calendar when left out)."""

    seasons: list[SeasonEntry] | None = Field(
        None, description='movement seasons in order: [{ code = "S", name = "Spring" }, ...]')
    winter: SeasonEntry | None = Field(None, description="the season of adjustments")
    year_step: StrictInt = Field(
        1, description="how many years pass from one year of movement to the next; negative "
        "for years that count down (B.C.)")
    adjust_every: Annotated[StrictInt, Field(ge=1)] = Field(
        1, description="an adjustment phase after every Nth year of movement, counted from "
        "the first")


class StartEntry(Document):
    """``[start]``: each power's units and centres at the start."""

    units: dict[str, list[str]] = Field(default_factory=dict)
    centers: dict[str, list[str]] | None = Field(
        None, description="left out: each power owns its home centres")


class MapFile(Document):
    """A map file: the board, its powers, its adjacencies and its start."""

    map: MapMeta = Field(default_factory=lambda: MapMeta())
    powers: dict[str, PowerEntry] = Field(default_factory=dict)
    minor_powers: dict[str, MinorPowerEntry] = Field(default_factory=dict)
    provinces: dict[str, ProvinceEntry] = Field(default_factory=dict)
    centres: dict[str, Annotated[StrictInt, Field(ge=0)]] = Field(
        default_factory=dict, description="provinces counting for several supply centres")
    army: dict[str, str] = Field(default_factory=dict, description="army adjacencies: "
                                 'LOC = "LOC LOC ...", each listed once')
    fleet: dict[str, str] = Field(default_factory=dict, description="fleet adjacencies, "
                                  "between coasts where a province has them")
    remove: Removals = Field(default_factory=lambda: Removals())
    oneway: OneWay = Field(default_factory=lambda: OneWay())
    distance: DistanceEdges = Field(default_factory=lambda: DistanceEdges())
    calendar: CalendarEntry | None = None
    start: StartEntry = Field(default_factory=lambda: StartEntry())


MAP_HINTS = {
    "provinces.*": "a province is written CODE = {{ name = \"...\", type = \"land\" }}",
    "provinces.*.type": "the type of a province is land, coast, sea or impassable",
    "provinces.*.centres": "centres must be a whole number",
    "centres.*": "centres must be a whole number",
    "army.*": 'adjacencies are written LOC = "LOC LOC ..."',
    "fleet.*": 'adjacencies are written LOC = "LOC LOC ..."',
    "oneway.*": 'one-way edges are written as a list of "FROM TO", like ["NTH WOO"]',
    "distance.*": 'distance edges are written as a list of "FROM TO", like ["STP BAR"]',
    "calendar.seasons": 'seasons are written [{{ code = "S", name = "Spring" }}, ...]',
    "calendar.year_step": "year_step must be a whole number",
    "calendar.adjust_every": "adjust_every must be a whole number of at least 1",
    "powers.*.victory_centers": "victory_centers must be a whole number of at least 0",
}
