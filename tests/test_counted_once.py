"""A position's builds and removals are counted once: the end of a Fall hands its count to the
winter it makes, and a position keeps what it counted. Each kept count is held to a fresh
count of the same board."""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from calhamer.options import possible_orders
from calhamer.phases import adjudicate, advance
from calhamer.position import Position, Unit
from calhamer.rules import EDITIONS, find_rules
from calhamer.variants import find_variant
from test_phase_shortcuts import fall_positions
from test_properties import SETTINGS, Case


def fresh(position: Position) -> Position:
    """The same position, made anew (a pickled copy keeps no count)."""
    copy = pickle.loads(pickle.dumps(position))
    assert "_adjustments_due" not in vars(copy)
    return copy


@SETTINGS
@given(case=fall_positions(), rules=st.sampled_from([find_rules(n) for n in EDITIONS]))
def test_the_count_a_fall_hands_on_is_the_winters_own(case: Case, rules) -> None:
    winter = advance(case.position, rules)
    assert winter.adjustments() == fresh(winter).adjustments()
    assert winter == fresh(winter) and hash(winter) == hash(fresh(winter))


def play(variant_name: str, seed: int, years: int = 6) -> list[Position]:
    """The positions of a random game, as adjudication makes them."""
    rng = random.Random(seed)
    variant = find_variant(variant_name)
    rules = find_rules(variant.default_rules)
    position = Position.initial(variant=variant)
    seen = [position]
    while position.phase.year < 1901 + years and position.winner() is None:
        orders = {}
        for power in position.powers():
            found = possible_orders(position, power, rules)
            orders[power] = [rng.choice(choices) for choices in found.values() if choices]
        position = adjudicate(position, orders, rules).next
        seen.append(position)
    return seen


def test_every_position_of_random_games_counts_as_a_fresh_one() -> None:
    winters = 0
    for variant_name in ("standard", "arpiesse", "standard-dp", "superdiplomacy"):
        for seed in range(3):
            for position in play(variant_name, seed):
                assert position.adjustments() == fresh(position).adjustments(), (
                    variant_name, seed, position.phase)
                winters += position.phase.kind == "A"
    assert winters > 10


def test_a_position_made_by_replace_counts_its_own_board() -> None:
    start = Position.initial()
    winter = start.replace(phase=start.phase.__class__(1901, "W", "A"))
    winter.remember_adjustments({"FRANCE": 2})
    assert winter.adjustments()["FRANCE"] == 2
    # A board changed by replace counts again, from its own units and centres.
    paris = start.map.province_of(start.map.loc("PAR"))
    fewer = winter.replace(units={p: u for p, u in winter.units.items() if p != paris})
    assert fewer.adjustments() == fresh(fewer).adjustments()
    assert fewer.adjustments()["FRANCE"] == 1


def test_the_count_given_out_is_a_copy() -> None:
    position = Position.initial()
    due = position.adjustments()
    due["FRANCE"] = 5
    assert position.adjustments()["FRANCE"] == 0
    assert all(isinstance(u, Unit) for u in position.units.values())
