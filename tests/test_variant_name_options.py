"""A variant's name followed by options: ``standard?draw_vote=false`` is the standard game
without draws by agreement, as ``standard+standard?draw_vote=false`` is, wherever a variant's
name is taken (the registry and the library's games here, the command line's ``--variant``; the
web judge's in tests/server/test_web_variant_names_with_options.py). A bad option gets the
reason."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from calhamer import Game
from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.variants import find_variant


def test_the_registry_finds_a_variant_name_with_options() -> None:
    variant = find_variant("standard?draw_vote=false")
    assert variant.name == "standard?draw_vote=false"
    assert type(variant).draw_vote is False
    # The same rules as the composed spelling, and the name reads back to the same variant.
    assert type(find_variant("standard+standard?draw_vote=false")).draw_vote is False
    assert find_variant(variant.name) is variant
    assert find_variant("Standard?draw_vote=false") is variant  # any case, as names are


def test_a_variant_with_options_keeps_everything_else_of_its_own() -> None:
    # A shipped file's variant: its board, description and other options stay; the name puts
    # the options in one order, so that one variant has one name.
    base = find_variant("youngstown-redux")
    variant = find_variant("youngstown-redux?rules=1971&last_year=1910")
    assert variant.name == "youngstown-redux?last_year=1910&rules=1971"
    assert type(variant).last_year == 1910 and variant.default_rules == "1971"
    assert variant.board().name == base.board().name
    assert variant.description == base.description  # type: ignore[attr-defined]
    assert type(variant).solo_needs_lead
    # A variant written in Python (with modules) keeps its hooks.
    fog = find_variant("kriegsplomacy?draw_vote=false")
    assert fog.visibility.hidden_information and type(fog).draw_vote is False
    # It travels to another process (simulate's workers) as its name.
    assert pickle.loads(pickle.dumps(variant)) is variant


def test_an_option_equal_to_the_variants_own_is_the_variant_itself() -> None:
    assert find_variant("standard?draw_vote=true") is find_variant("standard")


def test_a_game_of_a_variant_name_with_options_plays_them() -> None:
    game = Game.new("standard?last_year=1901")
    assert game.variant == "standard?last_year=1901"
    while not game.is_done():
        game.process()
    result = game.result()
    assert result is not None and result.ending == "last-year"
    again = Game.from_json(game.to_json())  # a saved game reads back with its variant
    assert again.variant == game.variant and again.is_done()


@pytest.mark.parametrize(("name", "said"), [
    ("standard?draw_vote=maybe", "option draw_vote must be true or false, not 'maybe'"),
    ("standard?dp_cap=2", "no module of this variant takes the option 'dp_cap'"),
    ("standard?draw_vote", "option 'draw_vote' has no value (write name=value)"),
    ("standard?unplayed=narnia", "option unplayed: 'NARNIA' is not a power"),
    ("standard?rules=1850", "there is no rule edition '1850'"),
    ("superdiplomacy?rules=1971", "cannot be played with a rule edition"),
    ("nowhere?draw_vote=false", "there is no variant 'nowhere'"),
])
def test_a_bad_option_of_a_variant_name_says_why(name: str, said: str) -> None:
    with pytest.raises(CalhamerError) as caught:
        find_variant(name)
    assert said in str(caught.value)


def test_the_command_line_takes_a_variant_name_with_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    code = main(["simulate", "--games", "1", "--variant", "standard?last_year=1902",
                 "--workers", "1", "-q", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    line = json.loads(out.read_text(encoding="utf-8"))
    assert line["variant"] == "standard?last_year=1902"
    assert line["result"]["ending"] in ("last-year", "solo")
    game = Game.from_json(line["game"])
    assert game.current.phase.year <= 1903


def test_the_command_line_refuses_a_bad_option_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["simulate", "--games", "1", "--variant", "standard?draw_vote=maybe",
                 "--workers", "1", "-q", "--no-games"])
    err = capsys.readouterr().err
    assert code != 0
    assert "option draw_vote must be true or false, not 'maybe'" in err
    assert "Traceback" not in err
