"""The short ways the phases take from one phase to the next, each held to the long way.

Random positions of the standard map (the strategies of ``test_properties``), with a few
things the short ways must notice mixed in: a variant's unit, a stack, a centre entry on a
province that is no supply centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from hypothesis import given
from hypothesis import strategies as st

from calhamer.phases import adjustments_needed, advance, retreat_options, update_centers
from calhamer.phases.flow import _centres_after_fall, _winter_needed
from calhamer.phases.retreats import _may_retreat_to, _own_choices
from calhamer.pieces import Phase, Unit, phase_of
from calhamer.position import Position
from calhamer.rules import EDITIONS, find_rules
from calhamer.variant import STANDARD
from calhamer.variants import find_variant
from test_properties import (
    POWERS,
    SETTINGS,
    SUPPLY,
    UNIT_PROVINCES,
    Case,
    M,
    movement_positions,
    pick,
    retreat_positions,
)

RULES = [find_rules(name) for name in EDITIONS]
NOT_CENTRES = [p for p in UNIT_PROVINCES if not M.centre_weight[p]]


@dataclass(frozen=True, slots=True)
class Stack(Unit):
    """A unit standing for several (as Superdiplomacy's stacks do)."""

    size: int = 2

    @property
    def count(self) -> int:
        return self.size


@dataclass(frozen=True, slots=True)
class Marked(Unit):
    """A variant's unit that counts one (as Arpiesse's coloured units do)."""

    colour: str = "red"


@st.composite
def fall_positions(draw) -> Case:
    """A Fall movement board as its phase leaves it: random owners, or owners near balance
    (each power with about as many centres as units, so that often nobody adjusts, or only
    a power with no free home centre); now and then a unit of another class, or a centre
    filed under a province that is no supply centre."""
    position = draw(movement_positions(season="F")).position
    units = dict(position.units)
    centers = dict(position.centers)
    if pick(draw, range(3)):
        # Near balance: a unit on a centre owns it, a unit elsewhere mostly has a free centre.
        free = [sc for sc in SUPPLY if sc not in units]
        centers = {p: u.power for p, u in units.items() if M.centre_weight[p]}
        for province, unit in units.items():
            if not M.centre_weight[province] and free and pick(draw, range(6)):
                centers[free.pop(pick(draw, range(len(free))))] = unit.power
        if free and not pick(draw, range(4)):
            centers[pick(draw, free)] = pick(draw, POWERS)
    if units and not pick(draw, range(6)):
        province = pick(draw, list(units))
        unit = units[province]
        kind = pick(draw, (Stack, Marked))
        units[province] = kind(unit.power, unit.type, unit.loc)
    if not pick(draw, range(6)):
        # A centre filed under a province that is no supply centre, often where a unit stands.
        standing = [p for p in units if not M.centre_weight[p]]
        where = pick(draw, standing) if standing and pick(draw, range(3)) else pick(
            draw, NOT_CENTRES)
        centers[where] = pick(draw, POWERS)
    return Case(position.replace(units=units, centers=centers))


@SETTINGS
@given(case=fall_positions(), rules=st.sampled_from(RULES))
def test_centres_after_fall_agree_with_the_long_way(case: Case, rules) -> None:
    """One pass over the units gives what the long way gives: the centres of
    update_centers, the winter position's adjustments() (less the powers due nothing), its
    free centres, and adjustments_needed's answer."""
    position = case.position
    centers, due, free = _centres_after_fall(position)
    assert centers == update_centers(position)
    winter = position.replace(phase=phase_of(position.phase.year, "W", "A"),
                              centers=MappingProxyType(update_centers(position)))
    if due is None:  # the short count stands aside for stacks and variants' units
        assert any(type(u) is not Unit for u in position.units.values())
        return
    assert {p: n for p, n in due.items() if n} == {
        p: n for p, n in winter.adjustments().items() if n}
    assert free == {p for p in winter.centers if p not in winter.units}
    assert _winter_needed(position, centers, due, free, rules) == adjustments_needed(
        winter, rules)


@SETTINGS
@given(case=fall_positions(), rules=st.sampled_from(RULES))
def test_advance_after_fall_is_the_long_way(case: Case, rules) -> None:
    """The position after Fall, made in one step, is the one the long way makes in two."""
    position = case.position
    year = position.phase.year
    winter = position.replace(phase=Phase(year, "W", "A"),
                              centers=update_centers(position), contested=frozenset())
    expected = (winter if adjustments_needed(winter, rules)
                else winter.replace(phase=Phase(year + 1, "S", "M")))
    assert advance(position, rules) == expected


def test_a_fall_with_nothing_to_adjust_goes_to_spring() -> None:
    start = Position.initial()
    fall = start.replace(phase=Phase(1901, "F", "M"))
    rules = find_rules(None)
    centers, due, free = _centres_after_fall(fall)
    assert due == {} and free == set()
    assert not _winter_needed(fall, centers, due, free, rules)
    assert advance(fall, rules).phase == Phase(1902, "S", "M")


@SETTINGS
@given(case=retreat_positions())
def test_retreat_destinations_checked_by_look_ups_are_the_listed_options(case: Case) -> None:
    """Under the standard retreats, a destination is checked by look-ups: every location
    passes exactly when retreat_options lists it."""
    position = case.position
    for entry in position.dislodged:
        options = set(retreat_options(position, entry))
        for loc in range(M.location_count):
            assert _may_retreat_to(position, entry, loc) == (loc in options), (entry, loc)


def test_only_the_standard_retreat_choices_are_checked_by_look_ups() -> None:
    """A variant with retreat choices of its own (Superdiplomacy's stacks may join their own
    units) has every destination checked in its list; the standard game's by look-ups."""
    assert not _own_choices(STANDARD)
    assert not _own_choices(find_variant("standard"))
    assert _own_choices(find_variant("superdiplomacy"))
