"""The end of a Fall read from the unit table a retreat phase still holds is the end of the
same Fall read from the position's own (read-only) table: the same next phase, the same
count handed to the winter."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from calhamer.phases import advance
from calhamer.rules import EDITIONS, find_rules
from test_phase_shortcuts import fall_positions
from test_properties import SETTINGS, Case


@SETTINGS
@given(case=fall_positions(), rules=st.sampled_from([find_rules(n) for n in EDITIONS]))
def test_advance_from_the_table_behind_the_units_is_the_long_way(case: Case, rules) -> None:
    position = case.position
    table = dict(position.units)
    given_table = advance(position, rules, table)
    long_way = advance(position, rules)
    assert given_table == long_way
    assert given_table.adjustments() == long_way.adjustments()
    assert table == dict(position.units)  # the table is read, never changed
