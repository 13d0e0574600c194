"""The rules vocabulary, victory (issue 30, item 1): the solo target (a count, a power's own),
a tie for the lead that plays on, Twenty Twenty's falling lead checked in the winter only, a
last year ranked by centres, and draws by vote, each set by a variant file or a spec alone
and read by the standard :class:`VictoryRule`. Each test quotes the published rule it comes
from (``docs/variants.md``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calhamer import Game
from calhamer.formats import outcome_to_json, outcome_to_line, position_to_json
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position
from calhamer.records import GameError
from calhamer.variants import find_variant
from calhamer.victory import STANDARD_VICTORY, Ending

DATA = Path(__file__).parent / "data" / "vocabulary"
TWENTY = str(DATA / "twenty-twenty-rules.toml")


def board_with(variant: str, counts: dict[str, int], phase: str = "S1902M") -> Position:
    """A position of ``variant`` in ``phase`` where each power owns ``counts`` centres (taken
    in the order of the board's centres) and no unit stands: the winner is a matter of
    centres alone."""
    v = find_variant(variant)
    m = v.board()
    centres = iter(m.supply_centers)
    owned = {next(centres): power for power, n in counts.items() for _ in range(n)}
    return Position(m, Phase.parse(phase), {}, owned, variant=v)


def winner(position: Position) -> str | None:
    end = STANDARD_VICTORY.result(position)
    return end.winner if end is not None and end.ending is Ending.SOLO else None


# Pure (godip's published rules): "First to 4 Supply Centers (SC) is the winner."


def test_solo_centres_first_to_4_supply_centers_is_the_winner() -> None:
    variant = "standard+standard?solo_centres=4"
    assert winner(board_with(variant, {"FRANCE": 4, "GERMANY": 3, "ITALY": 1})) == "FRANCE"
    assert winner(board_with(variant, {"FRANCE": 3, "GERMANY": 3, "ITALY": 1})) is None
    assert winner(board_with("standard", {"FRANCE": 4, "GERMANY": 3, "ITALY": 1})) is None


def test_solo_centres_0_is_no_solo() -> None:
    position = board_with("standard+standard?solo_centres=0", {"FRANCE": 20, "ITALY": 1})
    assert winner(position) is None


def test_solo_centres_a_powers_own_target_comes_before_the_boards() -> None:
    variant = f"{DATA / 'targets.toml'}+standard"
    assert winner(board_with(variant, {"FRANCE": 10, "ITALY": 1})) == "FRANCE"
    assert winner(board_with(variant, {"GERMANY": 10, "ITALY": 1})) is None
    assert winner(board_with(variant, {"GERMANY": 18, "ITALY": 1})) == "GERMANY"
    # The variant's own solo_centres is for every power alike.
    assert winner(board_with(variant + "?solo_centres=12", {"FRANCE": 10, "ITALY": 1})) is None


# Youngstown Redux (godip's published rules): "First to 28 Supply Centers (SC) wins. If two
# nations have 28 SCs, the one with most wins. If drawn, the game continues an extra year."


def test_solo_needs_lead_if_two_nations_have_the_target_the_one_with_most_wins() -> None:
    variant = "standard+standard?solo_centres=12&solo_needs_lead=true"
    assert winner(board_with(variant, {"FRANCE": 13, "GERMANY": 12})) == "FRANCE"
    assert winner(board_with(variant, {"GERMANY": 13, "FRANCE": 12})) == "GERMANY"


def test_solo_needs_lead_if_drawn_the_game_continues() -> None:
    position = board_with("standard+standard?solo_centres=12&solo_needs_lead=true",
                          {"FRANCE": 12, "GERMANY": 12})
    assert STANDARD_VICTORY.result(position) is None
    # Without the option, the first power in the board's order with the target wins.
    plain = board_with("standard+standard?solo_centres=12", {"FRANCE": 12, "GERMANY": 12})
    assert winner(plain) == "FRANCE"


# Twenty Twenty (godip's published rules): "To win, a nation needs a number of Supply Centers
# (SC) more than any other nation at the end of a year. In the first year they need a lead of
# 20 SCs, but this is reduced by 1 SC each year (in 2015 a nation needs a lead of six SCs, in
# 2020 and beyond only one SC). Alternatively, first to 49 SC wins."


@pytest.mark.parametrize(("year", "lead", "wins"), [
    (2001, 20, True), (2001, 19, False),
    (2015, 6, True), (2015, 5, False),
    (2020, 1, True), (2025, 1, True),
])
def test_lead_margin_the_lead_needed_falls_by_one_each_year(year: int, lead: int,
                                                            wins: bool) -> None:
    position = board_with(TWENTY, {"FRANCE": 1 + lead, "GERMANY": 1}, f"W{year}A")
    assert winner(position) == ("FRANCE" if wins else None)


def test_lead_margin_a_tie_for_the_lead_is_no_lead() -> None:
    position = board_with(TWENTY, {"FRANCE": 5, "GERMANY": 5}, "W2030A")
    assert winner(position) is None


def test_lead_margin_the_other_way_to_win_is_the_count() -> None:
    # "Alternatively, first to 49 SC wins": the standard board has 34 centres, so the count is
    # tried here at 20, with a lead (6) far short of 2001's 20.
    v = find_variant(TWENTY)
    assert v.solo_centres == 49 and v.solo_needs_lead and v.lead_margin == 20
    position = board_with("standard+standard?solo_centres=20&solo_needs_lead=true"
                          "&lead_margin=20&lead_margin_year=2001&victory_phase=a",
                          {"FRANCE": 20, "GERMANY": 14}, "W2001A")
    assert winner(position) == "FRANCE"


def test_victory_phase_twenty_twenty_checks_only_in_the_adjustment_phase() -> None:
    # godip: "It's only possible to win in the Adjustment phase."
    assert winner(board_with(TWENTY, {"FRANCE": 25, "GERMANY": 1}, "S2002M")) is None
    assert winner(board_with(TWENTY, {"FRANCE": 25, "GERMANY": 1}, "W2001A")) == "FRANCE"


def test_victory_phase_every_winter_is_played_so_that_each_year_is_checked() -> None:
    # Nobody builds or removes after the Fall of 1901 with no orders: the standard game skips
    # that winter; with victory checked in winters, it is played.
    for variant, season in (("standard", "S"), (TWENTY, "W")):
        game = Game.new(variant)
        game.process()
        game.process()
        assert game.current.phase.season == season, variant


# The last year: "a last year with the result ranked by centres" (the words for the
# variants that end in a set year).


def test_last_year_after_it_the_game_ends_ranked_by_centres() -> None:
    game = Game.new("standard+standard?last_year=1901")
    game.set_orders("FRANCE", ["A MAR - SPA", "F BRE - MAO"])
    game.process()
    game.set_orders("FRANCE", ["F MAO - POR"])
    game.process()
    while not game.is_done():
        game.process()
    end = game.result()
    assert end is not None and end.ending is Ending.LAST_YEAR
    assert game.phase == "S1902M"
    assert end.winners == ("FRANCE",) and end.winner == "FRANCE"
    assert end.ranking[0] == ("FRANCE", 5)
    assert dict(end.ranking)["RUSSIA"] == 4 and len(end.ranking) == 7
    assert end.reason == "the last year (1901) is over: France leads with 5 centres"
    assert end.to_json()["ranking"][0] == ["FRANCE", 5]


def test_last_year_powers_level_at_the_top_share_it() -> None:
    position = board_with("standard+standard?last_year=1905", {"FRANCE": 6, "ITALY": 6,
                                                               "TURKEY": 2}, "S1906M")
    end = STANDARD_VICTORY.result(position)
    assert end is not None and end.winners == ("FRANCE", "ITALY") and end.winner is None
    assert "share the lead with 6 centres" in end.reason


def test_last_year_the_standard_result_is_written_as_before() -> None:
    end = STANDARD_VICTORY.result(board_with("standard", {"FRANCE": 18, "ITALY": 1}))
    assert end is not None and "ranking" not in end.to_json()


# DPjudge's Sengoku map: "RULE NO_DRAW" (no draws by agreement).


def test_draw_vote_false_no_draw_by_agreement() -> None:
    game = Game.new("standard+standard?draw_vote=false")
    with pytest.raises(GameError, match="has no draws by agreement"):
        game.vote_draw("FRANCE")
    position = game.current
    assert STANDARD_VICTORY.result(position, draw_agreed_by=position.map.power_codes) is None
    agreed = Game.new("standard")
    for power in agreed.powers():
        agreed.vote_draw(power)
    assert agreed.result() is not None and agreed.result().ending is Ending.DRAW


def test_victory_options_reach_the_output_documents_winner() -> None:
    # Pure's count (solo_centres = 4): France takes a fourth centre in the Fall, and both
    # writers of output documents say it has won (the compact line counts its lists only
    # under the board's plain rule).
    v = find_variant("standard+standard?solo_centres=4")
    start = Position.initial(variant=v)
    fall = start.replace(phase=Phase(1901, "F", "M"))
    outcome = adjudicate(fall, {"FRANCE": ["A PAR - BUR", "A MAR - SPA"]})
    assert outcome.next.winner() == "FRANCE"
    assert outcome_to_json(outcome)["winner"] == "FRANCE"
    assert json.loads(outcome_to_line(outcome))["winner"] == "FRANCE"
    plain = adjudicate(Position.initial().replace(phase=Phase(1901, "F", "M")),
                       {"FRANCE": ["A PAR - BUR", "A MAR - SPA"]})
    assert "winner" not in outcome_to_json(plain) and "winner" not in outcome_to_line(plain)


def test_victory_options_a_lead_in_spring_is_no_winner_in_documents() -> None:
    position = board_with(TWENTY, {"FRANCE": 25, "GERMANY": 1}, "S2002M")
    assert position.winner() is None
    assert "winner" not in position_to_json(position)
