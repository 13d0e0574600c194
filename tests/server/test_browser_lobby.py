"""A lobby, in Chromium: listed games with free powers for anyone to join, the viewer's games
in progress and finished (with their history), and their record. An unlisted game shows in
nobody's lobby but its own people's, and a listed one shows no more than its name, variant,
phase and free powers."""

from __future__ import annotations

from browser import chromium, live_server, standard_table  # noqa: F401
from test_pages import Browser, gm_creates_a_game


def test_joining_from_the_lobby_and_a_players_record(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    gm = chromium.new_context().new_page()
    gm.goto(live_server + "/")
    gm.fill("input[name=name]", "Open table")
    gm.fill("input[name=gm_name]", "Alice")
    gm.check("input[name=listed]")
    gm.get_by_role("button", name="Create the game").click()
    expect(gm.locator("h1")).to_have_text("Open table")
    game_url = gm.url
    secret = standard_table(live_server)  # unlisted, with orders in
    secret.orders("FRANCE", ["A Par - Bur  # secret plan"])

    stranger = chromium.new_context().new_page()
    stranger.goto(live_server + "/")
    stranger.get_by_role("link", name="Lobby").click()
    open_games = stranger.locator("#open-games")
    expect(open_games).to_contain_text("Open table")
    expect(open_games).to_contain_text("Spring 1901 Movement")
    expect(open_games).not_to_contain_text("Browser game")  # not listed
    stranger.get_by_role("link", name="take Germany").click()
    stranger.fill("input[name=name]", "Dora")
    stranger.get_by_role("button", name="Play Germany").click()
    expect(stranger.locator(".meta")).to_contain_text("play Germany")

    stranger.goto(live_server + "/lobby")
    expect(stranger.locator("#open-games")).not_to_contain_text("Open table")  # in it now
    expect(stranger.locator("#in-progress")).to_contain_text("Open table")
    expect(stranger.locator("#in-progress")).to_contain_text("Germany")
    expect(stranger.locator("#record")).to_contain_text("1 game played: 0 won, 0 finished, "
                                                        "1 in progress")
    # Someone else now sees one power fewer to take.
    other = chromium.new_context().new_page()
    other.goto(live_server + "/lobby")
    expect(other.locator("#open-games")).to_contain_text("take France")
    expect(other.locator("#open-games")).not_to_contain_text("take Germany")

    # The gamemaster ends the game: it is finished, with its history, in Dora's record.
    gm.goto(game_url)
    gm.once("dialog", lambda dialog: dialog.accept())  # "End the game now?"
    gm.get_by_role("button", name="End the game").click()
    stranger.goto(live_server + "/lobby")
    finished = stranger.locator("#finished")
    expect(finished).to_contain_text("Open table")
    expect(finished).to_contain_text("ended")
    expect(finished).to_contain_text("3 centres")
    expect(stranger.locator("#record")).to_contain_text("1 game played: 0 won, 1 finished")
    expect(stranger.locator("#open-games")).not_to_contain_text("Open table")  # over
    finished.get_by_role("link", name="history").click()
    expect(stranger.locator("h1")).to_contain_text("history")


def test_the_lobby_tells_nothing_of_a_listed_game_but_its_free_powers(app):
    _gm, url, links = gm_creates_a_game(app, listed="1")
    france = Browser(app)
    link = links["FRANCE"].replace("http://testserver", "")
    france.get(link)
    france.post(link, {"name": "Francine"})
    france.post(url + "/orders", {"phase": "S1901M", "orders": "A Par - Bur # lobby secret"})
    france.post(url + "/messages", {"body": "lobby press secret", "to": "ALL"})
    stranger = Browser(app)
    page = stranger.get("/lobby").text
    assert "Friday game" in page and "take Germany" in page
    assert "take France" not in page and "Francine" not in page
    for secret in ("lobby secret", "lobby press secret", "A PAR", "Alice"):
        assert secret not in page
    # The game's own pages stay closed to whoever has not joined.
    assert stranger.client.get(url).status_code == 404
