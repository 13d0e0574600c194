"""The benchmark's fresh inputs are the recorded phases, made anew: equal, not shared.

``benchmarks/bench_all.py`` times calhamer over copies of its recorded phases, made just
before each run (as it sets ``diplomacy``'s games up). A copy that differed from what was
recorded (a field lost, the winter's count of builds wrong) would time another game; one
that shared the recorded tables would not be fresh. Needs calhamer only (no ``diplomacy``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from calhamer.phases import adjudicate
from calhamer.rules import find_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_all


@pytest.fixture(scope="module")
def recorded() -> bench_all.Recorded:
    return bench_all.record(2, 3, 4, find_rules(None))


@pytest.mark.parametrize("kind", ["movement", "retreats", "adjustments"])
def test_fresh_phases_equal_the_recorded_ones_and_share_no_table(
    recorded: bench_all.Recorded, kind: str
) -> None:
    phases = getattr(recorded, kind)
    assert phases, f"the recorded games have no {kind} phase"
    rules = find_rules(None)
    for old, new in zip(phases, bench_all.fresh_phases(phases), strict=True):
        assert new.position == old.position
        assert new.position.units is not old.position.units
        assert new.orders == old.orders and new.texts == old.texts
        assert all(new.orders[p] is not old.orders[p] for p in old.orders)
        assert new.position.adjustments() == old.position.adjustments()
        mine, theirs = adjudicate(new.position, new.orders, rules), adjudicate(
            old.position, old.orders, rules)
        assert mine.next == theirs.next and mine.after == theirs.after
        assert mine.results == theirs.results
