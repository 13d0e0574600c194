"""The greedy player (``calhamer.bots.greedy_policy``): legal orders that coordinate, as the
benchmarks' coordinated positions need (issue 31, item 1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from calhamer import Game
from calhamer.bots import greedy_policy
from calhamer.formats import position_from_json
from calhamer.game import PhaseRecord
from calhamer.map import UnitType
from calhamer.orders import Convoy, Move, Support
from calhamer.simulate import GameSpec, load_policy, play_game


def _game(units: dict[str, list[str]], centres: dict[str, list[str]],
          phase: str = "S1902M") -> Game:
    """A game whose one phase is ``units`` and ``centres`` (the rest unowned)."""
    position, _, _ = position_from_json({"phase": phase, "units": units, "centers": centres})
    return Game("standard", "datc", [PhaseRecord(phase, position)])


def _orders(game: Game, power: str, seed: int = 0) -> list:
    view = game.bot_view(power)
    view.rng = random.Random(seed)
    return list(greedy_policy(view, game.possible_orders(power)))


def test_the_greedy_player_gives_only_orders_from_its_options() -> None:
    game = Game.new("standard", max_year=1906)
    while not game.is_done():
        for power in game.powers():
            options = game.possible_orders(power)
            allowed = {o for orders in options.values() for o in orders}
            view = game.bot_view(power)
            view.rng = random.Random(f"{game.phase}{power}")
            orders = list(greedy_policy(view, options))
            assert set(orders) <= allowed
            located = [o.loc for o in orders]
            assert len(located) == len(set(located)), "one order a unit or a place"
            if orders:
                game.set_orders(power, orders)
        game.process()


def test_the_greedy_player_supports_its_attack_on_a_held_centre() -> None:
    game = _game({"GERMANY": ["A RUH", "A HOL"], "FRANCE": ["A BEL"]},
                 {"FRANCE": ["BEL"], "GERMANY": ["HOL"]})
    orders = _orders(game, "GERMANY")
    moves = [o for o in orders if isinstance(o, Move)]
    supports = [o for o in orders if isinstance(o, Support)]
    assert len(moves) == 1 and len(supports) == 1
    (move,), (support,) = moves, supports
    assert support.target == move.loc and support.dest == move.dest


def test_the_greedy_player_convoys_an_army_to_a_centre_over_the_sea() -> None:
    game = _game({"ENGLAND": ["A YOR", "F NTH"]}, {"ENGLAND": ["LON", "EDI", "LVP"]})
    orders = _orders(game, "ENGLAND")
    convoys = [o for o in orders if isinstance(o, Convoy)]
    (move,) = [o for o in orders if isinstance(o, Move) and o.unit_type is UnitType.ARMY]
    m = game.current.map
    assert not m.can_reach(UnitType.ARMY, move.loc, move.dest), "over the sea, not by land"
    assert m.provinces[m.province_of(move.dest)].is_supply_center
    assert len(convoys) == 1 and convoys[0].army == move.loc and convoys[0].dest == move.dest


def test_greedy_games_are_coordinated_play() -> None:
    """Moves and supports, not holds, make most of a greedy game's orders, and the games are
    the same for the same seed."""
    kinds: Counter[str] = Counter()
    for number in range(2):
        line = play_game(GameSpec("standard", "greedy", 1908, "coordinated", keep_game=True),
                         number)
        game = Game.from_json(line["game"])
        for record in game.history:
            if record.phase.endswith("M"):
                for orders in record.orders.values():
                    for text in orders:
                        kinds["support" if " S " in f" {text} " else
                              "hold" if text.strip().endswith(" H") else "other"] += 1
    total = sum(kinds.values())
    assert kinds["support"] > total * 0.1 and kinds["hold"] < total * 0.4
    again = play_game(GameSpec("standard", "greedy", 1903, "coordinated", keep_game=False), 0)
    assert again == play_game(GameSpec("standard", "greedy", 1903, "coordinated",
                                       keep_game=False), 0)


def test_the_greedy_policy_by_name() -> None:
    assert load_policy("greedy") is greedy_policy


@pytest.mark.parametrize("variant", ["kriegsplomacy", "superdiplomacy", "standard-dp",
                                     "arpiesse-exchange"])
def test_the_greedy_player_plays_every_variant(variant: str) -> None:
    line = play_game(GameSpec(variant, "greedy", 1903, "v", keep_game=False), 0)
    assert line["result"]["ending"] in ("draw", "solo", "elimination")


def test_simulate_batches_cover_every_game_once_in_order() -> None:
    from calhamer.simulate import _batches

    for games, workers in [(1, 2), (7, 2), (200, 2), (256, 16), (3, 8)]:
        batches = _batches(games, workers)
        assert [n for b in batches for n in b] == list(range(games))
        if games >= workers * 4:  # several batches a worker, so none is left alone at the end
            assert len(batches) >= workers * 4 or len(batches[0]) == 16
