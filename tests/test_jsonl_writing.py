"""The winner written by ``calhamer adjudicate --jsonl`` is counted from the centre lists the
writer has just made (``formats.writing._solo``), not by the position again: under the standard
victory rule, every centre counting one and owned by the map's players. It must be the
position's own :meth:`~calhamer.position.Position.winner` on every board: random ones (a power
near a solo or past it, minor powers and powers the map does not know owning centres), a
board of weighted centres, a board with no solo, and a variant with a victory rule of its
own."""

from __future__ import annotations

import json
import random

import pytest

from calhamer.formats import outcome_to_json, outcome_to_line
from calhamer.formats.writing import _board_line, _map_json, _solo
from calhamer.map import load_map
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.variants import find_variant
from calhamer.victory import VictoryRule


def random_board(variant: str, rng: random.Random) -> Position:
    """The variant's start, its supply centres handed out at random: most to one power
    now and then, some to minor powers and to a power the map does not know."""
    start = Position.initial(variant=find_variant(variant))
    m = start.map
    owners = list(m.power_codes) + [p.code for p in m.minor_powers] + ["ATLANTIS"]
    favourite = rng.choice(m.power_codes)
    centres: dict[int, str] = {}
    for province in (p.id for p in m.provinces if p.is_supply_center):
        roll = rng.random()
        if roll < 0.15:
            continue  # left unowned
        if roll < 0.15 + rng.choice([0.2, 0.5, 0.7, 0.85]):
            centres[province] = favourite
        else:
            centres[province] = rng.choice(owners if rng.random() < 0.2 else m.power_codes)
    # Superdiplomacy's stacks are no plain units: its board is written without them.
    units = {} if variant.startswith("superdiplomacy") else start.units
    return start.replace(units=units, centers=centres)


@pytest.mark.parametrize("variant", ["standard", "standard-dp", "superdiplomacy",
                                     "sub-saharan-excerpt"])
def test_the_winner_counted_from_the_lists_is_the_positions(variant: str) -> None:
    rng = random.Random(variant)
    solos = 0
    for _ in range(300):
        position = random_board(variant, rng)
        board = _board_line(position, "datc", _map_json(position.map))
        assert board is not None
        winner = position.winner()
        assert _solo(position, board[1]) == winner
        solos += winner is not None
    if variant in ("standard", "standard-dp"):
        assert solos > 20  # the boards reach a solo often enough to tell


def test_an_outcome_with_a_winner_is_written_as_the_document_writes_it() -> None:
    rng = random.Random(7)
    for _ in range(40):
        position = random_board("standard", rng)
        outcome = adjudicate(position, {}, "datc")
        line = outcome_to_line(outcome, "datc")
        assert line == json.dumps(outcome_to_json(outcome, "datc"), separators=(",", ":"))


class FirstPowerWins(VictoryRule):
    """A victory rule of a variant's own: the map's first power wins whatever it holds."""

    def solo(self, position: Position) -> str | None:
        return position.map.power_codes[0]


def test_a_victory_rule_of_its_own_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = find_variant("standard")
    monkeypatch.setattr(type(variant), "victory", FirstPowerWins())
    position = Position.initial()
    board = _board_line(position, "datc", _map_json(position.map))
    assert board is not None
    assert _solo(position, board[1]) == "AUSTRIA"
    line = outcome_to_line(adjudicate(position, {}, "datc"), "datc")
    assert json.loads(line)["winner"] == "AUSTRIA"


def test_centres_the_map_counts_several_times_are_counted_by_the_position() -> None:
    m = load_map("superdiplomacy")
    assert not m.single_centres
    rng = random.Random(3)
    for _ in range(50):
        position = random_board("superdiplomacy", rng)
        board = _board_line(position, "datc", _map_json(m))
        assert board is not None
        assert _solo(position, board[1]) == position.winner()
