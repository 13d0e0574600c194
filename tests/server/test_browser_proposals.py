"""Draw proposals in Chromium, at a desktop's size and a 390x844 phone's (issue 29, item 8):
a player proposes a draw on the game page, another sees it without who proposed it, refuses,
and the decided proposal shows every vote; a pause every surviving power agrees to pauses the
game, says so on the page, and is recorded in the game's log."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401

SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
                   "is_mobile": True, "has_touch": True}}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_draw_is_proposed_and_refused_in_the_browser(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.get_by_role("button", name="Propose a draw").click()
    expect(france.locator("#proposals .proposal.open")).to_contain_text("A draw")
    expect(france.locator("#proposals .my-vote")).to_contain_text("You agreed")
    germany = table.browse(chromium, "GERMANY", **SIZES[size])
    open_one = germany.locator("#proposals .proposal.open")
    expect(open_one).to_contain_text("votes stay secret")
    expect(open_one).not_to_contain_text("France agreed")
    germany.get_by_role("button", name="Refuse").click()
    history = germany.locator("#proposal-history")
    expect(history).to_contain_text("rejected")
    expect(history).to_contain_text("France agreed")
    expect(history).to_contain_text("Germany refused")
    button = germany.get_by_role("button", name="Propose a draw")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44
    width = germany.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["viewport"]["width"]  # type: ignore[index]


POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_pause_agreed_by_every_survivor_pauses_the_game(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=POWERS)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.get_by_role("button", name="Propose a pause").click()
    expect(france.locator("#proposals .proposal.open")).to_contain_text("A pause")
    expect(france.locator("#proposals .my-vote")).to_have_text("You agreed.")
    proposal = france.locator("#proposals .proposal.open").get_attribute("data-proposal")
    # Five more agree (over the API, as their own pages would send it); Germany is the last.
    for power in POWERS:
        if power not in ("FRANCE", "GERMANY"):
            r = table.http.post(f"{table.base}/api/games/{table.id}/proposals/{proposal}/vote",
                                headers=table.seats[power].headers, json={"agree": True})
            assert r.status_code == 200, r.text
    germany = table.browse(chromium, "GERMANY", **SIZES[size])
    open_one = germany.locator("#proposals .proposal.open")
    expect(open_one).to_contain_text("votes stay secret")
    expect(open_one).not_to_contain_text("agreed")
    expect(germany.locator("#status")).not_to_contain_text("paused")
    germany.get_by_role("button", name="Agree to pause").click()
    expect(germany.locator("#status")).to_contain_text(
        "paused: every player agreed (the gamemaster resumes it)")
    history = germany.locator("#proposal-history")
    expect(history).to_contain_text("a pause, accepted")
    expect(history).to_contain_text("France agreed")
    expect(history).to_contain_text("Turkey agreed")
    expect(germany.get_by_role("button", name="Propose a pause")).to_have_count(0)
    # The gamemaster's log records it, and the game is paused for everyone.
    gm = table.browse(chromium, "GM", **SIZES[size])
    expect(gm.locator("#status")).to_contain_text("paused: every player agreed")
    expect(gm.get_by_text("the players agreed to pause the game")).to_have_count(1)
    r = table.http.get(f"{table.base}/api/games/{table.id}", headers=table.seats["GM"].headers)
    assert r.json()["game"]["status"] == "paused"
    # Resumed by the gamemaster and paused by them again: the page says who paused it.
    for action in ("resume", "pause"):
        r = table.http.post(f"{table.base}/api/games/{table.id}/control",
                            headers=table.seats["GM"].headers, json={"action": action})
        assert r.status_code == 200, r.text
    france.goto(f"{live_server}/games/{table.id}")
    expect(france.locator("#status")).to_contain_text("paused by the gamemaster")
    width = france.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["viewport"]["width"]  # type: ignore[index]
