"""Being told, in Chromium at a desktop's size and a 390x844 phone's (issue 29, item 7): the
home page and the lobby say whose orders are due, saved or ready; the account page switches
each kind of notice and takes an e-mail address."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401

SIZES = {"desktop": {"viewport": {"width": 1280, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
                   "is_mobile": True, "has_touch": True}}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_orders_due_and_notice_settings(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.goto(live_server + "/")
    expect(france.locator(f"#orders-due li[data-game='{table.id}']")).to_contain_text(
        "orders due")
    table.orders("FRANCE", ["A PAR H"])
    france.goto(live_server + "/lobby")
    expect(france.locator(f"#orders-due li[data-game='{table.id}']")).to_contain_text(
        "saved, not ready")
    table.orders("FRANCE", ["A PAR H"], ready=True)
    france.goto(live_server + "/")
    expect(france.locator(f"#orders-due li[data-game='{table.id}']")).to_contain_text("ready")
    france.goto(live_server + "/account")
    form = france.locator("#notices-form")
    form.locator("input[name=email]").fill("anne@example.org")
    form.locator("input[name=press]").uncheck()
    form.get_by_role("button", name="Save").click()
    expect(france.locator("#notices")).to_contain_text("Saved")
    expect(form.locator("input[name=press]")).not_to_be_checked()
    expect(form.locator("input[name=phase]")).to_be_checked()
    expect(form.locator("input[name=email]")).to_have_value("anne@example.org")
    expect(france.locator("#push-on")).to_be_visible()
    width = france.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["viewport"]["width"]  # type: ignore[index]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_game_page_has_one_control_for_notifications(live_server, chromium, size):  # noqa: F811
    """The push setting of "Being told" is the one way to be notified from the game page: the
    old "Tell me when a new phase starts" button beside it is gone, shown or hidden."""
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    expect(france.locator("#push-on")).to_be_visible()
    asking = france.evaluate("""() => Array.from(document.querySelectorAll('button'))
        .filter(b => /notif|tell me|new phase/i.test((b.closest('p') || b).textContent))
        .map(b => b.id)""")
    assert asking == ["push-on"], asking
    assert france.locator("#notify, #notify-button").count() == 0
