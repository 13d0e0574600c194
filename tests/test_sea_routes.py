"""The convoy route questions answered once per map agree with the search they replace.

``Map.seas_reached`` and ``Map.sea_route`` remember their answers per map, and
``validation.fleet_seas`` the last position's; each must answer exactly what
``Map.sea_chain`` (the search over the seas) and a fresh look at the units answer.
"""

from __future__ import annotations

import random

from calhamer.map import ARMY, FLEET, load_map
from calhamer.position import Position, Unit
from calhamer.validation import fleet_seas


def test_remembered_routes_agree_with_the_search_over_the_seas() -> None:
    m = load_map("standard")
    near = m.province_fleet_adjacent
    spaces = sorted(m.convoy_spaces)
    rng = random.Random(31)
    for _ in range(400):
        seas = frozenset(rng.sample(spaces, rng.randint(0, len(spaces))))
        origin, dest = rng.randrange(m.province_count), rng.randrange(m.province_count)
        reached = m.seas_reached(origin, seas)
        for sea in spaces:
            assert (sea in reached) == m.sea_chain(origin, seas.__contains__, sea.__eq__)

        def next_to_dest(sea: int, dest: int = dest) -> bool:
            return dest in near[sea]

        expected = m.sea_chain(origin, seas.__contains__, next_to_dest)
        assert m.sea_route(origin, seas, dest) is expected
        assert m.sea_route(origin, seas, dest) is expected  # asked again: remembered
        assert m.seas_reached(origin, seas) is reached


def test_the_fleets_of_each_position_asked_in_turn() -> None:
    m = load_map("standard")
    start = Position.initial("standard")
    units = dict(start.units)
    nth = m.province_of(m.loc("NTH"))
    units[nth] = Unit("ENGLAND", FLEET, m.loc("NTH"))
    other = start.replace(units=units)
    ion = m.province_of(m.loc("ION"))
    for _ in range(2):  # the last position's answer is kept: alternate between two
        assert fleet_seas(start) == frozenset()
        assert fleet_seas(other) == {nth}
    assert ion not in fleet_seas(other) and all(
        u.type is ARMY or p in fleet_seas(other) or not m.can_convoy(p)
        for p, u in other.units.items())
