"""How one phase leads to the next: centres change hands after Fall, empty phases are skipped.

The seasons come from the board's calendar (:mod:`calhamer.calendars`): the standard year
(Spring, Fall, Winter) takes the quick path; any other calendar is followed season by season,
and its centres change hands after the last movement season of each year that adjusts.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypeVar

from calhamer.phases.intake import keeps_standard
from calhamer.phases.sites import build_sites
from calhamer.pieces import Phase, Unit, phase_of
from calhamer.rules import Rules

if TYPE_CHECKING:
    from calhamer.position import Position

K = TypeVar("K")
V = TypeVar("V")

_UNIT: Final = Unit  # plain units count one each (a stack counts more)



def editable(mapping: Mapping[K, V]) -> dict[K, V]:
    """A dict copy of one of a position's tables: a read-only view's own dict, copied at once
    (``dict()`` of a view would read it entry by entry, many times slower)."""
    if type(mapping) is MappingProxyType or type(mapping) is dict:
        return mapping.copy()  # type: ignore[attr-defined,no-any-return]
    return dict(mapping)


def update_centers(position: Position) -> dict[int, str]:
    """Supply-centre owners after Fall: a unit standing on a centre takes it."""
    weight = position.map.centre_weight
    centers = editable(position.centers)
    for province, unit in position.units.items():
        if weight[province]:
            centers[province] = unit.power
    return centers


def advance(
    position: Position, rules: Rules, units: dict[int, Unit] | None = None
) -> Position:
    """The next phase to play after ``position`` (whose own phase is finished).

    ``units`` may give the table behind ``position.units`` (the phase that made ``position``
    still holds it): after Fall it is read in one pass, as a table (in the compiled build,
    much cheaper than a read-only view), instead of a copy of the view."""
    variant = position.variant
    state = variant.state
    extra = position.extra if state is None else state.lasting(position.extra)
    if extra is not position.extra:
        position = position.replace(extra=extra)  # one phase's inputs (DP bids) end with it
    if not keeps_standard(variant, "next_phase"):  # the standard game has no phase of its own
        special = variant.next_phase(position, rules)
        if special is not None:
            return special  # a variant's own phase (Arpiesse's summer colour exchange)
    phase = position.phase
    calendar = position.map.calendar
    if not calendar.standard:
        return _by_calendar(position, rules, units)
    if phase.season == "S":
        return position.replace(phase=phase_of(phase.year, "F", "M"), contested=frozenset())
    if phase.season == "F":
        return _year_end(position, rules, units, "W", phase_of(phase.year + 1, "S", "M"))
    return position.replace(phase=phase_of(phase.year + 1, "S", "M"))


def _by_calendar(position: Position, rules: Rules, units: dict[int, Unit] | None) -> Position:
    """:func:`advance` on a board whose calendar is not the standard one: the next movement
    season of the year; after the last one, the winter if the year adjusts (centres change
    hands then, and only then), else the first season of the next year."""
    phase = position.phase
    calendar = position.map.calendar
    following = phase_of(phase.year + calendar.year_step, calendar.first_season, "M")
    if phase.season == calendar.winter.code:
        return position.replace(phase=following)
    season = calendar.next_season(phase.season)
    if season is not None:
        return position.replace(phase=phase_of(phase.year, season, "M"), contested=frozenset())
    if not calendar.adjusts_after(phase.year):
        return position.replace(phase=following, contested=frozenset())
    return _year_end(position, rules, units, calendar.winter.code, following)


def _year_end(position: Position, rules: Rules, units: dict[int, Unit] | None, winter: str,
              following: Phase) -> Position:
    """After the last movement season of a year that adjusts (the Fall): the centres change
    hands, and the winter follows if anyone adjusts (every winter, where victory is checked in
    adjustment phases), else ``following``, the next year's first phase."""
    phase = position.phase
    every_winter = position.variant.victory_phase == "A"
    centers, due, free = _centres_after_fall(position, units)
    if due is None:  # the short count does not apply: ask the winter position
        winter_position = position.replace(phase=phase_of(phase.year, winter, "A"),
                                           centers=MappingProxyType(centers),
                                           contested=frozenset())
        if every_winter or adjustments_needed(winter_position, rules):
            return winter_position
        return winter_position.replace(phase=following)
    # One position made: the winter if anyone adjusts, else next spring.
    if every_winter or _winter_needed(position, centers, due, free, rules):
        winter_position = position.replace(phase=phase_of(phase.year, winter, "A"),
                                           centers=MappingProxyType(centers),
                                           contested=frozenset())
        # The winter's phase need not count them again. Kept where the short count is
        # adjustments()'s exactly: on a map with minor powers, one whose units all stand on
        # its own centres would be missing from it (at zero).
        if not position.map.minor_powers:
            winter_position.remember_adjustments(due)
        return winter_position
    return position.replace(phase=following, centers=MappingProxyType(centers),
                            contested=frozenset())


def _centres_after_fall(
    position: Position, units: dict[int, Unit] | None = None,
) -> tuple[dict[int, str], dict[str, int] | None, set[int]]:
    """The centres' owners after Fall (as :func:`update_centers` has them), each power's
    builds (positive) or removals (negative) in the winter after (as ``adjustments()`` has
    them, powers due none left out), and the owned centres nobody stands in, in one pass over
    the units (``units``, the table behind ``position.units``, if the caller has it; else a
    copy of the view) instead of three. The builds
    are None (and the free centres not worked out) when the short count does not apply: a
    stack, or a centre counting more than one (Superdiplomacy); the caller then asks the
    winter position the long way.

    The short count: once Fall is over, a unit standing on a supply centre owns it, and counts
    once for its power (the centre) and once against it (the unit). So a power's builds, or
    removals if negative, are its centres nobody stands in less its units standing elsewhere;
    only those are counted. ``tests/test_phase_shortcuts.py`` holds it to the long way.
    """
    m = position.map
    weight = m.centre_weight
    centers = editable(position.centers)
    due: dict[str, int] = {}  # due.get called as a method: native in the compiled build
    plain = m.single_centres
    table: dict[int, Unit] = editable(position.units) if units is None else units
    for province, unit in table.items():
        if type(unit) is not _UNIT:
            plain = False  # a stack counts all its units (and a variant's unit may be one)
        if weight[province]:
            centers[province] = unit.power
        else:
            power = unit.power
            due[power] = due.get(power, 0) - 1
            if province in centers:  # a centre entry on a province that is no supply centre
                owner = centers[province]
                due[owner] = due.get(owner, 0) + 1
    if not plain:
        return centers, None, set()
    free = centers.keys() - table.keys()
    for province in free:
        owner = centers[province]
        due[owner] = due.get(owner, 0) + 1
    return centers, due, free


def _winter_needed(
    position: Position, centers: Mapping[int, str], due: Mapping[str, int],
    free: AbstractSet[int], rules: Rules,
) -> bool:
    """Whether anyone adjusts this winter, from the centres' owners, each power's builds
    (removals if negative) ``due`` and the owned centres nobody stands in (``free``): the
    long count of :func:`adjustments_needed` or the short one of :func:`_centres_after_fall`."""
    if min(due.values(), default=0) < 0:
        return True  # someone must remove
    # A power due builds needs a free centre it may build in (calhamer.phases.sites).
    sites = build_sites(position, rules)
    for province in free:
        owner = centers[province]
        if due[owner] > 0 and sites.allows(owner, province):
            return True
    return False


def adjustments_needed(position: Position, rules: Rules) -> bool:
    """Whether any power must remove, or could build, this winter."""
    free = position.centers.keys() - position.units.keys()
    return _winter_needed(position, position.centers, position.adjustments(), free, rules)


def buildable_centres(position: Position, power: str, rules: Rules) -> list[int]:
    """The centres ``power`` may build in this winter: owned, free, and build sites for it
    under the variant's rule (:func:`calhamer.phases.sites.build_sites`)."""
    sites = build_sites(position, rules)
    return [p for p in position.centers_of(power)
            if p not in position.units and sites.allows(power, p)]
