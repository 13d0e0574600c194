"""Press on the game page, in Chromium at desktop and phone sizes: an unread count in the
page header that leads to the press and follows the threads as they are read, and a new
message goes to all or to the powers ticked, never both."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401
from sizes import SIZES


def _read_mark(response) -> bool:  # a playwright Response
    return response.url.endswith("/threads/read") and response.request.method == "POST"


@pytest.mark.parametrize("size", SIZES)
def test_unread_press_in_the_header(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("FRANCE", "GERMANY", "ITALY"))
    table.message("GERMANY", "Burgundy?", to=["FRANCE"])
    table.message("GERMANY", "Or Belgium?", to=["FRANCE"])
    table.message("ITALY", "Hello all")
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    link = france.locator("header #press-unread")
    expect(link).to_have_text("Press: 3 new")
    link.click()
    expect(france.locator("#press h2")).to_be_in_viewport()
    # Each thread opened tells the server it was read (a request of its own, answered before
    # the reload below: a reload sent first could be answered before the mark is stored).
    for text in ("Or Belgium?", "Hello all"):
        with france.expect_response(_read_mark):
            france.locator("details.thread", has_text=text).locator("summary").click()
        if text == "Or Belgium?":
            expect(link).to_have_text("Press: 1 new")
    expect(link).to_be_hidden()
    # Read stays read: after a reload nothing is counted.
    france.reload()
    expect(france.locator("header #press-unread")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_press_form_ticks_all_or_powers(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("FRANCE", "GERMANY", "ITALY"))
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    form = france.locator("#press-form")
    everyone = form.get_by_role("checkbox", name="all")
    germany = form.get_by_role("checkbox", name="Germany")
    expect(everyone).to_be_checked()
    germany.check()
    expect(everyone).not_to_be_checked()
    form.get_by_role("checkbox", name="Italy").check()
    everyone.check()
    expect(germany).not_to_be_checked()
    expect(form.get_by_role("checkbox", name="Italy")).not_to_be_checked()


def test_the_server_refuses_all_and_a_power(live_server):  # noqa: F811
    table = standard_table(live_server, powers=("FRANCE", "GERMANY"))
    r = table.http.post(f"{table.base}/api/games/{table.id}/messages",
                        headers=table.seats["FRANCE"].headers,
                        json={"body": "Which is it?", "to": ["ALL", "GERMANY"]})
    assert r.status_code == 400, r.text
    assert "either to all or to the powers named" in r.text
    r = table.http.get(f"{table.base}/api/games/{table.id}/messages",
                       headers=table.seats["GERMANY"].headers)
    assert all(m["body"] != "Which is it?" for m in r.json())
