"""The gamemaster's controls that cannot be taken back, in Chromium at desktop and phone
sizes: End, Replace and Process now ask first, and declining changes nothing; the minutes
field belongs to Extend, not to Pause."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401
from sizes import SIZES


def _status(table) -> str:  # type: ignore[no-untyped-def]
    r = table.http.get(f"{table.base}/api/games/{table.id}", headers=table.seats["GM"].headers)
    assert r.status_code == 200, r.text
    return str(r.json()["game"]["status"])


def _answer(page, accept: bool, asked: list[str]) -> None:  # type: ignore[no-untyped-def]
    def handle(dialog) -> None:  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", handle)


@pytest.mark.parametrize("size", SIZES)
def test_end_replace_and_process_ask_first(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    gm = table.browse(chromium, "GM", **SIZES[size])
    asked: list[str] = []

    # Declined: nothing happens.
    _answer(gm, False, asked)
    gm.get_by_role("button", name="End the game").click()
    expect(gm.locator("#controls")).to_be_visible()
    assert asked[-1].startswith("End the game now?")
    assert _status(table) == "active"

    _answer(gm, False, asked)
    gm.locator('tr[data-power="FRANCE"]').get_by_role("button", name="Replace").click()
    assert asked[-1].startswith("Replace france as France?")
    expect(gm.locator('tr[data-power="FRANCE"]')).to_contain_text("france")

    _answer(gm, False, asked)
    gm.get_by_role("button", name="Process now").click()
    assert asked[-1].startswith("Adjudicate Spring 1901 Movement now")
    assert table.phase() == "S1901M"
    assert len(asked) == 3

    # Accepted: each acts.
    _answer(gm, True, asked)
    gm.locator('tr[data-power="FRANCE"]').get_by_role("button", name="Replace").click()
    expect(gm.locator('tr[data-power="FRANCE"]')).to_contain_text("nobody yet")
    _answer(gm, True, asked)
    gm.get_by_role("button", name="End the game").click()
    expect(gm.locator("#status")).to_contain_text("the game is over")
    assert _status(table) == "finished"


@pytest.mark.parametrize("size", SIZES)
def test_process_now_acts_once_confirmed(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    gm = table.browse(chromium, "GM", **SIZES[size])
    asked: list[str] = []
    _answer(gm, True, asked)
    gm.get_by_role("button", name="Process now").click()
    expect(gm.locator("#phase-name")).to_contain_text("Fall 1901", timeout=20_000)
    assert len(asked) == 1


@pytest.mark.parametrize("size", SIZES)
def test_the_minutes_belong_to_extend(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    gm = table.browse(chromium, "GM", **SIZES[size])
    minutes = gm.get_by_role("spinbutton", name="Extend the deadline by so many minutes")
    expect(minutes).to_have_value("60")
    group = gm.locator("#extend")
    expect(group.get_by_role("button", name="Extend the deadline")).to_be_visible()
    expect(group.get_by_role("button", name="Pause")).to_have_count(0)
    # The field and its button sit together in one box (on a phone the box may wrap).
    field, box = minutes.bounding_box(), group.bounding_box()
    assert field and box
    assert box["x"] <= field["x"] and field["x"] + field["width"] <= box["x"] + box["width"]
    assert box["y"] <= field["y"] and field["y"] + field["height"] <= box["y"] + box["height"]
    minutes.fill("90")
    group.get_by_role("button", name="Extend the deadline").click()
    expect(gm.locator("#controls")).to_be_visible()
    r = table.http.get(f"{table.base}/api/games/{table.id}", headers=table.seats["GM"].headers)
    assert r.json()["game"]["deadline"] != table.game["deadline"]
