"""Draw proposals in Chromium, at a desktop's size and a 390x844 phone's (issue 29, item 8):
a player proposes a draw on the game page, another sees it without who proposed it, refuses,
and the decided proposal shows every vote."""

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
