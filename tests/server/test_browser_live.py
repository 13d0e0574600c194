"""Live pages, in Chromium: the game page updates itself on a ready mark (the gamemaster's),
a message and an adjudication, counts down to the deadline in the reader's own time zone and
tells of a new phase by a browser notification; and the event stream tells each viewer only
what they may see."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from browser import chromium, live_server, standard_table  # noqa: F401
from test_browser import _reload
from test_pages import Browser, gm_creates_a_game

# Stands in for the browser's notifications (headless Chromium shows none): it records them
# where they outlive the page's reload.
RECORD_NOTIFICATIONS = """
window.Notification = function (title, options) {
  var notes = JSON.parse(sessionStorage.getItem("notes") || "[]");
  notes.push(title + " | " + ((options && options.body) || ""));
  sessionStorage.setItem("notes", JSON.stringify(notes));
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


def test_the_game_page_updates_itself(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    gm = table.browse(chromium, "GM")
    france = table.browse(chromium, "FRANCE", timezone_id="Asia/Tokyo", locale="en-GB")
    france.add_init_script(RECORD_NOTIFICATIONS)
    _reload(france)  # tolerant of the live page reloading itself at that moment
    expect(gm.locator('tr[data-power="GERMANY"]')).to_contain_text("none")

    # A ready mark: the gamemaster's table shows it, without a reload by hand.
    table.orders("GERMANY", ["A Mun - Ruh"], ready=True)
    expect(gm.locator('tr[data-power="GERMANY"]')).to_contain_text("ready", timeout=10_000)

    # A message: it appears on France's page.
    table.message("GERMANY", "Shall we talk about Burgundy?")
    expect(france.locator("#press")).to_contain_text("Shall we talk about Burgundy?",
                                                     timeout=10_000)

    # The deadline, in France's own time zone (Tokyo: UTC+9), and the time left.
    deadline = datetime.fromisoformat(table.game["deadline"].replace("Z", ""))
    tokyo = (deadline + timedelta(hours=9)).strftime("%H:%M")
    expect(france.locator("#deadline")).to_contain_text(tokyo)
    expect(france.locator("#deadline")).to_contain_text("GMT+9")
    expect(france.locator("#countdown")).to_have_text(re.compile(r"^in (\d+ d )?\d\d:\d\d:\d\d$"))

    # An adjudication: the new phase, its results, and a notification.
    assert table.process() == "F1901M"
    expect(france.locator("#phase-name")).to_have_text("Fall 1901 Movement", timeout=10_000)
    expect(france.locator("#results")).to_contain_text("A MUN - RUH")
    notes = france.evaluate("JSON.parse(sessionStorage.getItem('notes') || '[]')")
    assert any("F1901M" in note for note in notes), notes


def test_a_page_with_unsaved_orders_is_not_reloaded_under_the_player(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE")
    france.fill("textarea[name=orders]", "A Par - Bur")
    table.message("GERMANY", "hello")
    expect(france.locator("#live-banner")).to_be_visible(timeout=10_000)
    expect(france.locator("textarea[name=orders]")).to_have_value("A Par - Bur")


def _events(browser: Browser, url: str) -> str:
    r = browser.client.get(url + "/events")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    return r.text


def test_events_tell_a_player_nothing_of_what_others_do_unseen(app):
    gm, url, links = gm_creates_a_game(app)
    players = {}
    for power in ("FRANCE", "GERMANY"):
        players[power] = Browser(app)
        link = links[power].replace("http://testserver", "")
        players[power].get(link)
        players[power].post(link, {"name": power.title()})
    france_before, gm_before = _events(players["FRANCE"], url), _events(gm, url)
    assert '"phase": "S1901M"' in france_before

    germany = players["GERMANY"]
    germany.get(url)
    germany.post(url + "/orders", {"phase": "S1901M", "orders": "A Mun - Ruh",
                                   "action": "ready"})
    germany.post(url + "/messages", {"body": "for Austria only", "to": "AUSTRIA"})
    # Germany's orders, ready mark and private press change nothing France may see ...
    assert _events(players["FRANCE"], url) == france_before
    # ... but the gamemaster, who sees them, is told.
    assert _events(gm, url) != gm_before
    # A message to all is France's to read: their stream changes.
    germany.post(url + "/messages", {"body": "to everyone", "to": "ALL"})
    assert _events(players["FRANCE"], url) != france_before
    # Someone with no part in the game gets the 404 of a game that does not exist.
    stranger = Browser(app)
    assert stranger.client.get(url + "/events").status_code == 404
