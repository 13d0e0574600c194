"""Saving that says what happened, in Chromium at desktop and phone sizes: a save with
invalid lines is amber, not green, and names what each such unit does instead; the player
whose ready mark ended the phase is told so on the next one, with a link to the results."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401
from sizes import SIZES

GREEN = "rgb(29, 107, 52)"
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


@pytest.mark.parametrize("size", SIZES)
def test_a_save_with_invalid_lines_is_amber_and_names_each_fate(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.locator("#orders-form textarea").fill("A Par - Bur\nF Bre - Tun\nA Mar - Mun")
    france.get_by_role("button", name="Save and mark ready").click()
    saved = france.locator("#saved")
    expect(saved).to_be_visible()
    expect(saved).to_have_class("notice warn")
    expect(saved).to_contain_text("Orders saved; you are ready, but 2 lines are not valid")
    expect(saved.locator("li").filter(has_text="F Bre - Tun")).to_contain_text(
        "F BRE will hold.")
    expect(saved.locator("li").filter(has_text="A Mar - Mun")).to_contain_text(
        "A MAR will hold.")
    assert "A Par - Bur" not in (saved.text_content() or "")
    assert saved.evaluate("e => getComputedStyle(e).color") != GREEN

    # All lines valid: the plain green notice.
    france.locator("#orders-form textarea").fill("A Par - Bur\nF Bre - Mao")
    france.get_by_role("button", name="Save orders").click()
    expect(france.locator("#saved")).to_have_text("Orders saved; you are ready.")
    assert france.locator("#saved").evaluate("e => getComputedStyle(e).color") == GREEN


def test_a_retreat_save_names_the_disband(live_server, chromium):  # noqa: F811
    from browser import to_a_retreat
    from playwright.sync_api import expect

    table = standard_table(live_server)
    to_a_retreat(table)
    germany = table.browse(chromium, "GERMANY")
    germany.locator("#orders-form textarea").fill("A Bur R Par")
    germany.get_by_role("button", name="Save orders").click()
    expect(germany.locator("#saved")).to_contain_text("A BUR will be disbanded.")


@pytest.mark.parametrize("size", SIZES)
def test_the_last_ready_mark_lands_on_a_banner(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=POWERS)
    for power in POWERS:
        if power != "FRANCE":
            table.orders(power, ["A Mun - Ruh"] if power == "GERMANY" else [], ready=True)
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    france.locator("#orders-form textarea").fill("A Par - Bur")
    france.get_by_role("button", name="Save and mark ready").click()
    # The page reloads itself while the phase is adjudicated, then shows the next phase.
    banner = france.locator("#judged")
    expect(banner).to_be_visible(timeout=20_000)
    expect(france.locator("#phase-name")).to_contain_text("Fall 1901")
    expect(banner).to_contain_text(
        "Your orders for Spring 1901 Movement were saved and you were ready")
    banner.get_by_role("link", name="See what happened").click()
    expect(france.locator("#results")).to_be_in_viewport()
    expect(france.locator("#results")).to_contain_text("A PAR - BUR")
    # Only for the phase the save was for: a plain visit shows no banner.
    france.goto(f"{live_server}/games/{table.id}")
    expect(france.locator("#judged")).to_have_count(0)
