"""The game a bot drives (issue 14), the victory and draw rule, and bulk self-play."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from calhamer import Game, Position, find_variant
from calhamer.bots import BotView, random_policy
from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.game import GameError, PhaseRecord
from calhamer.orders import Build, Hold, Move
from calhamer.phases import adjudicate
from calhamer.results import INVALID
from calhamer.simulate import GameSpec, Summary, load_policy, play_game, run, timed
from calhamer.variant import Variant
from calhamer.victory import Ending, VictoryRule

# -- the victory and draw rule ---------------------------------------------------------------


def _with_centres(position: Position, power: str, count: int) -> Position:
    """``position`` with ``power`` owning ``count`` centres in all."""
    centres = {p: o for p, o in position.centers.items() if o != power}
    for province in sorted(p.id for p in position.map.provinces if p.is_supply_center)[:count]:
        centres[province] = power
    return position.replace(centers=centres)


def test_a_solo_needs_the_boards_victory_number_of_centres() -> None:
    start = Position.initial()
    rule = start.variant.victory
    assert rule.centres_needed(start) == 18
    assert _with_centres(start, "FRANCE", 17).winner() is None
    won = _with_centres(start, "FRANCE", 18)
    assert won.winner() == "FRANCE"
    end = rule.result(won)
    assert end is not None and end.ending is Ending.SOLO and end.winner == "FRANCE"


def test_the_threshold_comes_from_each_variants_board() -> None:
    superdip = Position.initial(variant=find_variant("superdiplomacy"))
    assert superdip.variant.victory.centres_needed(superdip) == 103
    assert Position.initial(variant=find_variant("kriegsplomacy")).map.victory_centers == 18
    excerpt = Position.initial(variant=find_variant("sub-saharan-excerpt"))
    assert excerpt.variant.victory.solo(excerpt) is None  # no number: no solo


def test_a_draw_by_year_limit_and_by_agreement_and_the_last_power_standing() -> None:
    start = Position.initial()
    rule = start.variant.victory
    assert rule.result(start, max_year=1901) is None
    late = start.replace(phase=start.phase.__class__(1902, "S", "M"))
    end = rule.result(late, max_year=1901)
    assert end is not None and end.ending is Ending.DRAW and len(end.winners) == 7
    assert rule.result(start, draw_agreed_by=["FRANCE"]) is None
    agreed = rule.result(start, draw_agreed_by=start.map.power_codes)
    assert agreed is not None and agreed.ending is Ending.DRAW
    alone = start.replace(units={p: u for p, u in start.units.items() if u.power == "TURKEY"},
                          centers={p: o for p, o in start.centers.items() if o == "TURKEY"})
    end = rule.result(alone)
    assert end is not None and end.ending is Ending.ELIMINATION and end.winner == "TURKEY"
    assert "FRANCE" in end.eliminated


class _FiveCentres(VictoryRule):
    def centres_needed(self, position: Position) -> int:
        return 5


class _QuickWin(Variant):
    name = "quick-win-test"
    victory = _FiveCentres()


def test_a_variant_overrides_the_rule() -> None:
    start = Position.initial(variant=_QuickWin())
    assert _with_centres(start, "ITALY", 5).winner() == "ITALY"
    assert _with_centres(Position.initial(), "ITALY", 5).winner() is None


def test_a_game_ends_at_its_year_limit_and_refuses_more(tmp_path: Path) -> None:
    game = Game.new(max_year=1901)
    while not game.is_done():
        game.process()
    end = game.result()
    assert end is not None and end.ending is Ending.DRAW and game.phase == "S1902M"
    assert game.winner is None and game.possible_orders("FRANCE") == {}
    with pytest.raises(GameError, match="year limit"):
        game.process()
    game.save(tmp_path / "g.json")
    again = Game.load(tmp_path / "g.json")
    assert again.max_year == 1901 and again.is_done()


def test_a_game_without_a_limit_writes_the_file_it_always_did() -> None:
    game = Game.new()
    game.process()
    assert set(game.to_json()) == {"format", "variant", "rules", "phases"}


def test_draw_votes() -> None:
    game = Game.new()
    for power in game.powers()[:-1]:
        assert game.vote_draw(power) is None
    end = game.vote_draw(game.powers()[-1])
    assert end is not None and end.ending is Ending.DRAW and game.is_done()
    again = Game.from_json(game.to_json())
    assert again.is_done()
    game.vote_draw("FRANCE", agree=False)
    assert not game.is_done()


# -- the game holds positions ----------------------------------------------------------------


def test_the_game_holds_positions_not_documents() -> None:
    game = Game.new()
    outcome = game.process()
    first, second = game.history
    assert isinstance(first, PhaseRecord) and isinstance(first.position, Position)
    assert second.position is outcome.next is game.current  # never written out and read back
    assert first.position is outcome.before
    assert first.document["phase"] == "S1901M"  # the file's form, written when asked for


def test_a_game_read_back_is_the_same_game() -> None:
    game = Game.new("superdiplomacy", new_seed=lambda: "s")
    for _ in range(3):
        game.process()
    doc = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(doc)
    assert again.to_json() == doc
    assert [r.position for r in again.history] == [r.position for r in game.history]
    assert all(c.ok for c in again.verify())


# -- what a bot needs ------------------------------------------------------------------------


def test_possible_orders_as_values_and_text_set_back_as_either() -> None:
    game = Game.new()
    values = game.possible_orders("FRANCE")
    texts = game.possible_order_texts("FRANCE")
    assert list(values) == ["BRE", "MAR", "PAR"] == list(texts)
    assert texts["PAR"][0] == "A PAR H" and isinstance(values["PAR"][0], Hold)
    assert len(values["PAR"]) == len(texts["PAR"])
    game.set_orders("FRANCE", [values["PAR"][1], texts["MAR"][1]])
    assert game.orders["FRANCE"] == [texts["PAR"][1], texts["MAR"][1]]
    assert game.orderable_locations("RUSSIA") == {"RUSSIA": ["MOS", "SEV", "STP/SC", "WAR"]}
    assert set(game.all_possible_orders()) == set(game.powers())


def _every_listed_order_is_accepted(game: Game, power: str) -> None:
    position, _ = game.phase_input()
    for loc, orders in game.possible_orders(power).items():
        for order in orders:
            result = adjudicate(position, {power: [order]}, game.rules).results[power][0]
            assert result.result != INVALID, (loc, order, result.reason)


def test_kriegsplomacy_lists_espionage_and_counter_espionage() -> None:
    game = Game.new("kriegsplomacy")
    for power in game.powers():
        game.set_orders(power, [o[0] for o in game.possible_orders(power).values()
                                if isinstance(o[0], Build)])
    game.process()
    texts = game.possible_order_texts("AUSTRIA")
    assert game.phase == "S1901M" and texts
    unit = next(iter(texts))
    assert any(t.endswith(" E") for t in texts[unit])
    assert any(t.endswith(" CE") for t in texts[unit])
    _every_listed_order_is_accepted(game, "AUSTRIA")


def test_arpiesse_lists_builds_in_each_colour_and_summer_exchanges() -> None:
    game = Game.new("arpiesse-exchange", max_year=1902)
    game.set_orders("AUSTRIA", ["A Vie - Gal"])
    game.process()
    assert game.phase == "U1901X"
    texts = game.possible_order_texts("AUSTRIA")
    assert any(" X " in t for lines in texts.values() for t in lines)
    _every_listed_order_is_accepted(game, "AUSTRIA")
    game = Game.new("arpiesse")
    game.set_orders("AUSTRIA", ["A Bud - Ser"])
    game.process()
    game.set_orders("AUSTRIA", ["A Ser H"])
    game.process()
    assert game.phase == "W1901A" and game.orders_due("AUSTRIA") == 1
    builds = [t for lines in game.possible_order_texts("AUSTRIA").values() for t in lines]
    assert {"BUILD Red A BUD", "BUILD Purple A BUD", "BUILD Silver A BUD"} <= set(builds)
    _every_listed_order_is_accepted(game, "AUSTRIA")


def test_superdiplomacy_lists_numbered_stack_orders() -> None:
    game = Game.new("superdiplomacy", new_seed=lambda: "n")
    texts = game.possible_order_texts("AUSTRIA")
    assert "2A BUD - SER" in texts["BUD"] and "1A BUD - SER" in texts["BUD"]
    _every_listed_order_is_accepted(game, "AUSTRIA")


def test_dp_bids_come_from_the_listing() -> None:
    game = Game.new("standard-dp")
    allotment, options = game.possible_bids("FRANCE")
    assert allotment == 3 and "BEL" in options
    assert not any(" - " in t.split(" S ")[0] for t in options["BEL"])  # stationary
    bid = f"2 DP: {options['BEL'][0]}"
    assert game.set_bids("FRANCE", [bid]) == []
    assert game.possible_bids("FRANCE")[0] == 3 and Game.new().possible_bids("FRANCE") == (0, {})


def test_builds_due_are_capped_by_the_places_to_build() -> None:
    start = Position.initial()
    m = start.map
    # France owns two more centres but its home centres are all occupied save Paris.
    centres = dict(start.centers)
    centres[m.province_of(m.loc("SPA"))] = "FRANCE"
    centres[m.province_of(m.loc("POR"))] = "FRANCE"
    units = {p: u for p, u in start.units.items() if m.provinces[p].code != "PAR"}
    winter = start.replace(phase=start.phase.__class__(1901, "W", "A"), units=units,
                           centers=centres)
    game = Game("standard", "datc", [PhaseRecord("W1901A", winter)])
    assert winter.adjustments()["FRANCE"] == 3
    assert game.orders_due("FRANCE") == 1  # only Paris is free
    assert game.orders_due("ENGLAND") == 0


def test_rollback_and_copy() -> None:
    game = Game.new()
    game.set_orders("FRANCE", ["A Par - Bur"])
    game.process()
    game.process()
    assert game.phase == "W1901A" or game.phase == "S1902M"
    twin = game.copy()
    game.rollback("S1901M")
    assert game.phase == "S1901M" and game.orders == {"FRANCE": ["A Par - Bur"]}
    assert game.record().results is None and twin.phase != "S1901M"
    game.rollback("S1901M", keep_orders=False)
    assert game.orders == {}
    twin.rollback()
    assert twin.phase == "F1901M" and len(twin.history) == 2
    with pytest.raises(GameError, match="nothing to go back to"):
        game.rollback()


def test_positions_are_dict_keys() -> None:
    game = Game.new()
    seen = {game.current: 1}
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert seen[again.current] == 1  # equal positions from different sources hash alike
    game.set_orders("FRANCE", ["A Par - Bur"])
    game.process()
    assert game.current not in seen


def test_a_kriegsplomacy_bot_sees_only_its_own_view() -> None:
    game = Game.new("kriegsplomacy")
    for power in game.powers():
        game.set_orders(power, random_policy(game.bot_view(power), game.possible_orders(power)))
    game.process()
    view = game.bot_view("FRANCE")
    assert isinstance(view, BotView) and view.last is not None
    assert {u.power for u in view.position.units.values()} == {"FRANCE"}
    assert all(u.power == "FRANCE" for u in view.last.next.units.values())


def test_unknown_powers_are_refused_clearly() -> None:
    with pytest.raises(GameError, match="not a power of this game"):
        Game.new().possible_orders("ATLANTIS")


# -- bulk self-play ----------------------------------------------------------------------------


def test_a_random_game_plays_to_its_end_and_is_reproducible() -> None:
    spec = GameSpec("standard", "random", 1903, "seed")
    first, again = play_game(spec, 4), play_game(spec, 4)
    assert first == again and first["result"]["ending"] in ("draw", "solo", "elimination")
    assert play_game(spec, 5) != first
    game = Game.from_json(first["game"])
    assert game.is_done() and all(c.ok for c in game.verify())


@pytest.mark.parametrize("variant", ["kriegsplomacy", "superdiplomacy", "standard-dp",
                                     "arpiesse-exchange"])
def test_random_games_of_every_variant(variant: str) -> None:
    line = play_game(GameSpec(variant, "random", 1901, "v", keep_game=False), 0)
    assert line["result"]["ending"] == "draw" and line["variant"] == variant


def test_the_same_results_whatever_the_number_of_workers() -> None:
    spec = GameSpec("standard", "random", 1902, "workers", keep_game=False)
    alone = list(run(spec, 4, workers=1))
    assert [line["number"] for line in alone] == [0, 1, 2, 3]
    assert list(run(spec, 4, workers=2)) == alone


def test_the_same_results_on_a_local_dask_cluster() -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    spec = GameSpec("standard", "random", 1902, "workers", keep_game=False)
    assert list(run(spec, 4, workers=2, dask="local")) == list(run(spec, 4, workers=1))


def test_policies_by_name() -> None:
    assert load_policy("random") is random_policy
    assert load_policy("calhamer.bots:random_policy") is random_policy
    for bad in ("nowhere:nothing", "random_policy", "calhamer.bots:BOTS"):
        with pytest.raises(CalhamerError):
            load_policy(bad)


def test_simulate_on_the_command_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "games.jsonl"
    code = main(["simulate", "--games", "3", "--max-year", "1901", "--seed", "7", "--out",
                 str(out), "--workers", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0 and "3 games in" in err and "games/s" in err and "3 draw" in err
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["number"] for line in lines] == [0, 1, 2]
    assert Game.from_json(lines[0]["game"]).is_done()
    assert main(["simulate", "--policy", "nowhere:nothing"]) == 2
    assert main(["simulate", "--variant", "atlantis"]) == 2
    assert "no variant" in capsys.readouterr().err


def test_the_summary_counts_endings() -> None:
    summary = Summary()
    lines = list(timed(run(GameSpec(max_year=1901, keep_game=False), 2, workers=1), summary))
    assert summary.games == 2 and summary.endings["draw"] == 2 and len(lines) == 2


def _hold_everything(view: BotView, options: dict) -> list:
    return [orders[0] for orders in options.values() if not isinstance(orders[0], Move)]


def test_a_policy_module_function() -> None:
    line = play_game(GameSpec("standard", "tests.test_bots:_hold_everything", 1901, "h"), 0,
                     policy=_hold_everything)
    assert line["centres"]["FRANCE"] == 3  # nobody moved


def test_random_policy_builds_what_is_due() -> None:
    game = Game.new()
    game.set_orders("FRANCE", ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"])
    game.process()
    game.set_orders("FRANCE", ["F Mao - Por"])
    game.process()
    view = game.bot_view("FRANCE")
    assert view.orders_due == 2
    view.rng = random.Random(1)
    picks = random_policy(view, game.possible_orders("FRANCE"))
    assert len(picks) == 2 and all(isinstance(o, Build) for o in picks)


def test_the_example_kriegsplomacy_bot_plays_from_its_own_view(monkeypatch) -> None:
    import importlib.util

    path = Path(__file__).parent.parent / "examples" / "krieg_bot.py"
    spec = importlib.util.spec_from_file_location("krieg_bot", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    seen: list[BotView] = []
    policy = module.krieg_policy

    def watching(view: BotView, options: dict) -> list:
        seen.append(view)
        return policy(view, options)

    monkeypatch.setattr(module, "krieg_policy", watching)
    game = module.play(1902)
    assert game.is_done() and game.phase == "S1903M"
    assert seen and all({u.power for u in v.position.units.values()} <= {v.power} for v in seen)
    spied = [r for rec in game.history for rs in (rec.results or {}).values() for r in rs
             if r["canonical"].endswith(" E")]
    assert spied  # the bot used espionage


def test_a_dask_run_without_the_cluster_extra_says_what_to_install(monkeypatch, capsys) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    assert main(["simulate", "--games", "2", "--dask", "local", "--quiet"]) == 2
    assert "calhamer[cluster]" in capsys.readouterr().err


def test_a_solo_ends_the_game_and_process_refuses_with_the_reason() -> None:
    won = _with_centres(Position.initial(), "FRANCE", 18)
    game = Game("standard", "datc", [PhaseRecord("S1901M", won)])
    assert game.is_done() and game.winner == "FRANCE" and game.is_game_done
    end = game.result()
    assert end is not None and end.ending is Ending.SOLO
    with pytest.raises(GameError, match="France has won with 18 centres"):
        game.process()
    with pytest.raises(GameError, match="game is over"):
        game.set_orders("FRANCE", ["A Par H"])


def test_the_names_a_diplomacy_package_user_knows() -> None:
    game = Game.new()
    assert game.get_orderable_locations("ITALY") == ["NAP", "ROM", "VEN"]
    everyone = game.get_orderable_locations()
    assert isinstance(everyone, dict) and everyone["ITALY"] == ["NAP", "ROM", "VEN"]
    every_order = game.get_all_possible_orders()
    assert "A PAR - BUR" in every_order["PAR"] and "F STP/SC - BOT" in every_order["STP/SC"]
    assert len(every_order) == 22 and game.is_game_done is False


def test_the_public_names_for_bots() -> None:
    import calhamer

    for name in ("Game", "BotView", "random_policy", "GameEnd", "Ending", "VictoryRule",
                 "possible_orders", "power_view", "Position"):
        assert name in calhamer.__all__ and getattr(calhamer, name) is not None
