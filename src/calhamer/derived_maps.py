"""Boards a variant's options derive from its map: the powers played, and garrisons in the
centres no power owns.

A variant plays on its map as its options change it (:meth:`calhamer.variant.Variant.board`):
France vs Austria is the standard map with five powers left off, Western World 901's 28
neutral armies are a minor power ``NEUTRAL`` added to the board. Each change is made on the
map file (the checked model) and built as any map file is, so that the board it gives is
checked alike, and each derived board is made once (maps are compared by identity) and
travels to another process as the map it was made from and the change.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from calhamer.errors import CalhamerError, MapError
from calhamer.map import Map, Terrain, build_map

if TYPE_CHECKING:
    from calhamer.documents.maps import MapFile

__all__ = ["NEUTRAL", "derived_map", "garrisoned", "played_only"]

# The minor power that garrisons the centres no power owns (``garrison_unowned``).
NEUTRAL = "NEUTRAL"


@cache
def derived_map(m: Map, change: tuple[object, ...]) -> Map:
    """``m`` changed by ``change``: ``("powers", codes)`` keeps only those great powers
    (:func:`played_only`), ``("garrison-unowned",)`` garrisons the unowned centres
    (:func:`garrisoned`). Made once for each map and change."""
    kind = change[0]
    if kind == "powers":
        codes = change[1]
        assert isinstance(codes, tuple)
        file = played_only(m.file, codes)
    elif kind == "garrison-unowned":
        file = garrisoned(m)
    else:
        raise ValueError(f"no such change of a map: {change!r}")
    try:
        return build_map(file, m.source, (derived_map, (m, change)))
    except MapError as exc:
        raise CalhamerError(f"the board {m.name!r} cannot be changed so: {exc}") from None


def played_only(file: MapFile, codes: tuple[str, ...]) -> MapFile:
    """The map file with only the great powers ``codes``: the others' entries, units and
    centres gone, and their home centres no one's home (so owned by no one at the start)."""
    dropped = {code for code in file.powers if code not in codes}
    provinces = {
        code: entry.model_copy(update={"home": None}) if entry.home in dropped else entry
        for code, entry in file.provinces.items()
    }
    start = file.start
    centres = start.centers
    start = start.model_copy(update={
        "units": {p: u for p, u in start.units.items() if p not in dropped},
        "centers": None if centres is None else {p: c for p, c in centres.items()
                                                 if p not in dropped},
    })
    powers = {code: entry for code, entry in file.powers.items() if code not in dropped}
    return file.model_copy(update={"powers": powers, "provinces": provinces, "start": start})


def garrisoned(m: Map) -> MapFile:
    """The map file of ``m`` with a minor power ``NEUTRAL`` ("Neutral", a garrison that
    rebuilds) owning, as home centres, every supply centre no power owns at the start and no
    unit stands in, each with an army (a fleet in a sea centre)."""
    from calhamer.documents.maps import MinorPowerEntry  # the map file's model

    if m.find_power(NEUTRAL) is not None:
        raise CalhamerError(f"the board {m.name!r} has a power {NEUTRAL} already: garrison its "
                            "centres with [minor_powers.X] garrison = true instead")
    owned = _owned_at_start(m)
    places = (m.find_location(spec.split()[-1]) for specs in m.start_units.values()
              for spec in specs if spec.split())
    occupied = {m.province_of(loc) for loc in places if loc is not None}
    centres = [p for p in m.provinces
               if p.is_supply_center and p.code not in owned and p.id not in occupied]
    units = [f"{'F' if p.terrain is Terrain.SEA else 'A'} {p.code}" for p in centres]
    entry = MinorPowerEntry(name="Neutral", units=units, centers=[p.code for p in centres],
                            garrison=True, rebuild=True)
    file = m.file
    return file.model_copy(update={"minor_powers": {**file.minor_powers, NEUTRAL: entry}})


def _owned_at_start(m: Map) -> set[str]:
    """The codes of the centres some power owns at the start."""
    if m.start_centers is not None:
        return {c.upper() for codes in m.start_centers.values() for c in codes}
    return {p.code for p in m.provinces if p.home is not None and p.is_supply_center}
