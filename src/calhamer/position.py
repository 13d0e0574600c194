"""Who stands where, who owns what, which phase it is, and by which variant's rules.

Positions are immutable values. The pieces a position is made of (:class:`Phase`,
:class:`Unit`, :class:`Dislodged`) live in :mod:`calhamer.pieces` and are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Final

from calhamer import notation
from calhamer._build import mypyc_attr
from calhamer.errors import PhaseError
from calhamer.map import Location, Map, ProvinceId, UnitType, load_map
from calhamer.pieces import KIND_NAMES, SEASON_NAMES, SEASONS, Dislodged, Phase, Unit
from calhamer.variant import STANDARD, Variant

__all__ = ["KIND_NAMES", "SEASONS", "SEASON_NAMES", "Dislodged", "Phase", "Position", "Unit",
           "units_from_specs"]


def _frozen(mapping: Mapping) -> Mapping:
    if type(mapping) is MappingProxyType:
        return mapping  # already a read-only view of a table nobody else holds
    return MappingProxyType(dict(mapping))


@mypyc_attr(native_class=False)  # written out by hand: a plain class in either build
class Position:
    """A board position. Every field is read-only; use :meth:`replace` to derive new ones.

    ``units`` maps a province to the unit standing in it; ``centers`` maps a supply centre to
    its owner. ``dislodged`` and ``contested`` are only non-empty in a retreat phase.

    An immutable value, written out by hand rather than as a dataclass (whose methods are
    compiled when the module is imported, by every program that imports calhamer): equal
    when every field is equal.
    """

    __match_args__ = ("map", "phase", "units", "centers", "dislodged", "contested", "variant",
                      "extra")
    map: Map
    phase: Phase
    units: Mapping[ProvinceId, Unit]
    centers: Mapping[ProvinceId, str]
    dislodged: tuple[Dislodged, ...]
    contested: frozenset[ProvinceId]
    variant: Variant
    extra: Mapping[str, object]

    def __init__(
        self,
        map: Map,
        phase: Phase,
        units: Mapping[ProvinceId, Unit],
        centers: Mapping[ProvinceId, str],
        dislodged: tuple[Dislodged, ...] = (),
        contested: frozenset[ProvinceId] = frozenset(),
        variant: Variant = STANDARD,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        self.__dict__.update(
            map=map, phase=phase, units=_frozen(units), centers=_frozen(centers),
            dislodged=dislodged, contested=contested, variant=variant,
            extra=MappingProxyType({}) if extra is None else extra,
        )

    def _fields(self) -> tuple[object, ...]:
        return (self.map, self.phase, self.units, self.centers, self.dislodged, self.contested,
                self.variant, self.extra)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._fields() == other._fields()  # type: ignore[attr-defined]
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    @classmethod
    def initial(cls, m: Map | str | None = None, variant: Variant = STANDARD) -> Position:
        """The starting position of a variant (by default the standard game) on its board
        (:meth:`Variant.board`), or on the map ``m``; units are read as the variant reads them
        (Arpiesse's are red)."""
        parse_unit = variant.notation.parse_unit
        if isinstance(m, Map):
            board = m
        elif m is None or m == variant.map_name:
            board = variant.board()  # its map, as the variant's options change it
        else:
            board = load_map(m)
        units: dict[ProvinceId, Unit] = {}
        for power, specs in board.start_units.items():
            for spec in specs:
                unit = parse_unit(board, spec, power)
                units[board.province_of(unit.loc)] = unit
        if board.start_centers is not None:
            centers = {
                board.province_of(board.loc(c)): power
                for power, codes in board.start_centers.items()
                for c in codes
            }
        else:
            centers = {p.id: p.home for p in board.provinces if p.home and p.is_supply_center}
        return cls(board, Phase.parse(board.start_phase), units, centers, variant=variant)

    def __hash__(self) -> int:
        # Positions are values, usable as dict keys (a bot's table of positions seen). Equal
        # positions hash alike: the hash leaves out the variant's extra fields, whose values
        # need not be hashable. (Not cached: a cached string hash would be wrong in another
        # process after pickling.)
        return hash((self.map.name, self.phase, frozenset(self.units.items()),
                     frozenset(self.centers.items()), self.dislodged, self.contested,
                     self.variant))

    def __reduce__(self) -> tuple[object, ...]:
        # Read-only mapping views cannot be pickled: send plain dicts (made read-only again
        # on arrival), so positions travel to worker processes.
        return (Position, (self.map, self.phase, dict(self.units), dict(self.centers),
                           self.dislodged, self.contested, self.variant, dict(self.extra)))

    def replace(self, **changes: object) -> Position:
        """A copy with some fields changed (written out by hand: this runs every phase).

        The copy is filled in directly rather than through ``__init__``: the fields are
        already checked values, and only the mappings given anew are made read-only."""
        new = _new(_POSITION)
        fields = new.__dict__
        fields.update(self.__dict__)
        if _DUE in fields:  # counted from the old fields: the new position counts its own
            del fields[_DUE]
        fields.update(changes)
        if len(fields) != _FIELD_COUNT:
            unknown = sorted(changes.keys() - _FIELDS)[0]
            raise TypeError(f"Position has no field {unknown!r}")
        # Asked of the fields rather than of ``changes``: the old position's are read-only
        # views already, which _frozen keeps as they are.
        fields["units"] = _frozen(fields["units"])
        fields["centers"] = _frozen(fields["centers"])
        return new

    # -- questions ---------------------------------------------------------------------------

    def unit_at(self, loc_or_province: Location) -> Unit | None:
        return self.units.get(self.map.province_of(loc_or_province))

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centers_of(self, power: str) -> list[ProvinceId]:
        return [p for p, owner in self.centers.items() if owner == power]

    def center_counts(self) -> dict[str, int]:
        m = self.map
        counts = dict.fromkeys(m.power_codes, 0)
        self._add_centres(counts, 1)
        return counts

    def unit_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(self.map.power_codes, 0)
        self._add_units(counts, 1)
        return counts

    def _add_centres(self, counts: dict[str, int], sign: int) -> None:
        m = self.map
        get = counts.get
        if m.single_centres:
            for owner in self.centers.values():
                counts[owner] = get(owner, 0) + sign
            return
        weight = m.centre_weight
        for province, owner in self.centers.items():
            # A province may count for several centres (Superdiplomacy's majors count 5).
            counts[owner] = get(owner, 0) + sign * (weight[province] or 1)

    def _add_units(self, counts: dict[str, int], sign: int) -> None:
        get = counts.get
        for unit in self.units.values():
            power = unit.power
            # A plain unit counts one; a stack counts all its units.
            counts[power] = get(power, 0) + (sign if type(unit) is Unit else sign * unit.count)

    def powers(self) -> list[str]:
        """Powers still in the game: those with a unit or a supply centre."""
        alive = {u.power for u in self.units.values()} | set(self.centers.values())
        return [p for p in self.map.power_codes if p in alive]

    def adjustments(self) -> dict[str, int]:
        """Builds (positive) or removals (negative) each power is due in an adjustment phase
        (a new dict each call; counted once per position)."""
        due = dict.fromkeys(self.map.power_codes, 0)  # every player's power, due none or more
        due.update(self.counted_adjustments())
        return due

    def counted_adjustments(self) -> Mapping[str, int]:
        """The count :meth:`adjustments` gives out, as kept (not copied; a power due none may
        be missing, and the powers come in no set order): for a reader that only looks up."""
        known = self.__dict__.get(_DUE)
        if known is None:
            known = {}  # centres less units, counted in one go
            self._add_centres(known, 1)
            self._add_units(known, -1)
            self.__dict__[_DUE] = known
        return known

    def remember_adjustments(self, due: dict[str, int]) -> None:
        """Keep ``due`` as the count :meth:`adjustments` gives (powers left out are due none):
        for the step that made this position and has counted its builds and removals already
        (the end of a Fall), so that the adjustment phase does not count them again. ``due``
        is kept as it is: the caller hands it over.

        The count is derived from the position, not a field of it: equality, hashing and
        pickling leave it out, and :meth:`replace` drops it."""
        self.__dict__[_DUE] = due

    def winner(self) -> str | None:
        """The great power holding the centres a solo needs (the map's victory number, as the
        variant's :class:`~calhamer.victory.VictoryRule` counts them), if any."""
        return self.variant.victory.solo(self)

    def status(self) -> list[str]:
        """Problems with this position as sentences; empty when it is sound."""
        problems = []
        loc_province, can_stand = self.map.loc_province, self.map.unit_can_stand
        for province, unit in self.units.items():
            if loc_province[unit.loc] != province:
                problems.append(f"{self.map.loc_name(unit.loc)} is filed under the wrong province")
            if not can_stand(unit.type, unit.loc):
                kind = "an army" if unit.type is UnitType.ARMY else "a fleet"
                problems.append(f"{kind} cannot stand in {self.map.describe(unit.loc)}")
        return problems

    def __repr__(self) -> str:
        return f"<Position {self.map.name} {self.phase.code}: {len(self.units)} units>"


# Where a position keeps the count of :meth:`Position.adjustments` (not a field).
# The names :meth:`Position.replace` reads are final: the compiled build then holds them as
# constants instead of looking each up in the module's globals (a plain class's methods would).
_DUE: Final = "_adjustments_due"

_FIELDS: Final = frozenset(("map", "phase", "units", "centers", "dislodged", "contested",
                            "variant", "extra"))
_FIELD_COUNT: Final = len(_FIELDS)
_new: Final = object.__new__
_POSITION: Final = Position


def units_from_specs(
    m: Map,
    specs: Mapping[str, Iterable[str]],
    parse_unit: Callable[[Map, str, str], Unit] | None = None,
) -> dict[ProvinceId, Unit]:
    """Build a unit table from ``{"ENGLAND": ["F LON", ...]}``, checking for clashes.

    ``parse_unit`` reads one unit (a variant's own reader, such as Arpiesse's colours).
    """
    if parse_unit is None:
        parse_unit = notation.parse_unit
    # The standard reader: a unit written as documents write it ("A PAR", "F STP/SC") is read
    # here by exact look-ups; anything else goes to the reader.
    standard = parse_unit is notation.parse_unit or (
        getattr(parse_unit, "__func__", None) is notation.Notation.parse_unit)
    canonical = m.canonical_locations
    loc_province = m.loc_province
    types = {"A ": UnitType.ARMY, "F ": UnitType.FLEET}

    units: dict[ProvinceId, Unit] = {}
    for power, unit_specs in specs.items():
        exact = standard and power in m.power_codes
        for spec in unit_specs:
            unit_type = types.get(spec[:2]) if exact else None
            loc = canonical.get(spec[2:]) if unit_type is not None else None
            if unit_type is not None and loc is not None:
                unit = Unit(power, unit_type, loc)
            else:
                unit = parse_unit(m, spec, power)
            province = loc_province[unit.loc]
            if province in units:
                raise PhaseError(
                    f"two units are placed in {m.describe(province)}: "
                    f"{units[province].power}'s and {power}'s"
                )
            units[province] = unit
    return units
