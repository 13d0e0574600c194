"""A variant's name followed by options (``standard?draw_vote=false``), without a composition
(``standard+standard?...``), is taken by the web judge's API and its new-game form as the
library takes it (tests/test_variant_name_options.py); a bad option is refused with the
library's reason, and a path is still never read."""

from __future__ import annotations

from test_new_game_modules import game_rows, post_form, refused_on_the_form
from test_pages import Browser

from calhamer.server.services.games import unservable_reason
from conftest import Judge


def test_the_api_makes_a_game_of_a_variant_name_with_options(judge: Judge) -> None:
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="standard?draw_vote=false")
    assert game["variant"] == "standard?draw_vote=false" and game["status"] == "active"
    france = judge.join("FRANCE")
    # The option is played: this game takes no draw by agreement.
    r = judge.client.post(f"/api/games/{game['id']}/proposals",
                          json={"kind": "draw", "phase": "S1901M"}, headers=france.headers)
    assert r.status_code == 409 and "has no draws by agreement" in r.json()["detail"], r.text
    # A shipped variant with an option of the vocabulary, and its aliases' case.
    game = judge.new_game(gm, variant="Youngstown-Redux?last_year=1910")
    assert game["variant"] == "youngstown-redux?last_year=1910"


def test_the_api_refuses_a_bad_option_of_a_variant_name_with_the_reason(judge: Judge) -> None:
    gm = judge.user("gm")
    for variant, said in [
        ("standard?draw_vote=maybe", "option draw_vote must be true or false, not 'maybe'"),
        ("standard?dp_cap=2", "no module of this variant takes the option 'dp_cap'"),
        ("standard?draw_vote", "has no value (write name=value)"),
        ("nowhere?draw_vote=false", "there is no variant 'nowhere'"),
        ("../x.toml?draw_vote=false", "is not a variant name"),  # a path is never read
    ]:
        r = judge.client.post("/api/games", json={"variant": variant}, headers=gm.headers)
        assert r.status_code == 400, r.text
        assert said in r.json()["detail"], r.text
        assert unservable_reason(variant) == r.json()["detail"]


def test_the_new_game_form_makes_a_game_of_a_variant_name_with_options(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "preset", "variant": "standard?draw_vote=false"})
    assert r.status_code == 200, r.text
    assert "you are the gamemaster" in r.text
    [game] = game_rows(database)
    assert game.variant == "standard?draw_vote=false"
    gm.get("/")
    r = post_form(gm, {"source": "preset", "variant": "standard?draw_vote=perhaps"})
    refused_on_the_form(r, "option draw_vote must be true or false, not 'perhaps'")
    assert len(game_rows(database)) == 1
