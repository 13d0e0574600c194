"""Press as conversations, in Chromium: one thread per set of participants, unread markers
that remember what was read, the gamemaster's announcements apart, and replies only where the
game's press setting allows."""

from __future__ import annotations

import re

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401
from test_browser import _reload


def _thread(page, title: str):  # type: ignore[no-untyped-def]
    return page.locator("details.thread").filter(
        has=page.locator(".title", has_text=re.compile(f"^{re.escape(title)}$")))


def _received(table, power: str) -> list[tuple[str, list[str], str]]:  # type: ignore[no-untyped-def]
    r = table.http.get(f"{table.base}/api/games/{table.id}/messages",
                       headers=table.seats[power].headers)
    assert r.status_code == 200, r.text
    return [(m["sender"], m["to"], m["body"]) for m in r.json()]


def test_press_as_conversations(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("FRANCE", "GERMANY", "ITALY"))
    table.message("GERMANY", "Burgundy, then?", to=["FRANCE"])
    table.message("GERMANY", "Or Belgium?", to=["FRANCE"])
    table.message("ITALY", "Hello all")
    table.message("GERMANY", "The three of us", to=["FRANCE", "ITALY"])
    table.message("GM", "Deadlines are firm")
    table.message("GERMANY", "for Italy alone", to=["ITALY"])

    france = table.browse(chromium, "FRANCE")
    expect(france.locator("#announcements")).to_contain_text("Deadlines are firm")
    titles = france.locator("details.thread .title").all_text_contents()
    assert titles == ["Germany, Italy", "Everyone", "Germany"]  # the latest first
    assert "for Italy alone" not in france.content()
    germany = _thread(france, "Germany")
    expect(germany.locator(".count")).to_have_text("(2)")
    expect(germany.locator(".unread")).to_have_text("2 new")
    expect(_thread(france, "Everyone").locator(".unread")).to_have_text("1 new")

    germany.locator("summary").click()
    expect(germany.locator(".unread")).to_be_hidden()
    expect(germany).to_contain_text("Or Belgium?")
    germany.get_by_role("textbox").fill("Burgundy it is")
    germany.get_by_role("button", name="Reply").click()
    # The reply is in the same thread, still open, and went to Germany alone.
    germany = _thread(france, "Germany")
    expect(germany).to_contain_text("Burgundy it is")
    expect(germany.locator(".count")).to_have_text("(3)")
    expect(germany.locator(".unread")).to_be_hidden()
    assert ("FRANCE", ["GERMANY"], "Burgundy it is") in _received(table, "GERMANY")
    assert all(body != "Burgundy it is" for _, _, body in _received(table, "ITALY"))

    # A thread read stays read; a new message in it is new.
    _reload(france)  # tolerant of the live page reloading itself at that moment
    expect(_thread(france, "Everyone").locator(".unread")).to_have_text("1 new")
    germany = _thread(france, "Germany")
    germany.locator("summary").click()  # close it
    table.message("GERMANY", "Agreed.", to=["FRANCE"])
    expect(_thread(france, "Germany").locator(".unread")).to_have_text("1 new",
                                                                        timeout=10_000)


@pytest.mark.parametrize("setting", ["public", "none"])
def test_conversations_follow_the_press_setting(live_server, chromium, setting):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, press=setting)
    table.message("GM", "Welcome")
    if setting == "public":
        table.message("GERMANY", "Hello all")
    table.message("GM", "Just for France", to=["FRANCE"])
    france = table.browse(chromium, "FRANCE")
    expect(france.locator("#announcements")).to_contain_text("Welcome")
    gm_thread = _thread(france, "Gamemaster")
    expect(gm_thread).to_contain_text("Just for France")
    expect(gm_thread.locator("form.reply")).to_have_count(0)  # one cannot write to the GM
    if setting == "public":
        expect(_thread(france, "Everyone").locator("form.reply")).to_have_count(1)
        expect(france.locator("#press-form fieldset")).to_have_count(0)  # to all only
    else:
        expect(france.locator("form.reply")).to_have_count(0)
        expect(france.locator("#press-form")).to_have_count(0)
        expect(france.locator("#press")).to_contain_text("This game has no press")


def test_unread_markers_follow_the_account_across_browsers(live_server, chromium):  # noqa: F811
    """France reads a thread on the laptop: the phone (another browser context, the same
    account) shows it read; a new message makes it new in both."""
    from playwright.sync_api import expect

    table = standard_table(live_server)
    table.message("GERMANY", "Burgundy, then?", to=["FRANCE"])
    table.message("GERMANY", "Or Belgium?", to=["FRANCE"])
    table.message("GERMANY", "Hello all")
    table.message("GM", "Deadlines are firm")
    laptop = table.browse(chromium, "FRANCE")
    phone = table.browse(chromium, "FRANCE")
    for page in (laptop, phone):
        expect(_thread(page, "Germany").locator(".unread")).to_have_text("2 new")
        expect(_thread(page, "Everyone").locator(".unread")).to_have_text("1 new")
        expect(page.locator("#announcements .unread")).to_have_count(0)

    with laptop.expect_response(lambda r: r.url.endswith("/threads/read")) as told:
        _thread(laptop, "Germany").locator("summary").click()
    assert told.value.status == 204
    expect(_thread(laptop, "Germany").locator(".unread")).to_be_hidden()

    _reload(phone)
    expect(_thread(phone, "Germany").locator(".unread")).to_be_hidden()
    expect(_thread(phone, "Germany")).not_to_have_class(re.compile("has-unread"))
    expect(_thread(phone, "Everyone").locator(".unread")).to_have_text("1 new")

    # A new message: the live pages reload themselves, and it is new in both browsers.
    _thread(laptop, "Germany").locator("summary").click()  # closed, so it is not read here
    table.message("GERMANY", "Agreed?", to=["FRANCE"])
    for page in (laptop, phone):
        expect(_thread(page, "Germany").locator(".unread")).to_have_text("1 new",
                                                                          timeout=10_000)
