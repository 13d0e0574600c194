"""History to step through, in Chromium: from any adjudicated phase to the one before and the
one after, each with its map, its orders and their results; the phase being played is the
game page."""

from __future__ import annotations

from browser import chromium, live_server, standard_table, to_a_retreat  # noqa: F401


def _map_drawn(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate(
        "(() => { const i = document.querySelector('.picture img');"
        " return !!i && i.complete && i.naturalWidth > 0; })()"))


def test_stepping_through_the_history(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    to_a_retreat(table)
    france = table.browse(chromium, "FRANCE")
    france.get_by_role("link", name="history").first.click()
    france.get_by_role("link", name="Spring 1901 Movement").click()
    expect(france.locator("h1")).to_contain_text("Spring 1901 Movement")
    expect(france.locator("#steps")).to_contain_text("the first phase")
    expect(france.locator("#report")).to_contain_text("A MUN - BUR")
    france.wait_for_load_state("load")
    assert _map_drawn(france)

    france.locator("#next").click()
    expect(france.locator("h1")).to_contain_text("Fall 1901 Movement")
    expect(france.locator("#report")).to_contain_text("A MAR - BUR")
    expect(france.locator("#report")).to_contain_text("A PAR S A MAR - BUR")
    expect(france.locator(".picture img")).to_have_attribute(
        "src", f"/games/{table.id}/phases/F1901M/picture")
    france.wait_for_load_state("load")
    assert _map_drawn(france)

    # The arrow keys step too.
    france.keyboard.press("ArrowLeft")
    expect(france.locator("h1")).to_contain_text("Spring 1901 Movement")
    france.keyboard.press("ArrowRight")
    expect(france.locator("h1")).to_contain_text("Fall 1901 Movement")

    # After the last adjudicated phase comes the one being played: the game page.
    expect(france.locator("#next")).to_contain_text("Fall 1901 Retreats (being played)")
    france.locator("#next").click()
    expect(france.locator("#phase-name")).to_have_text("Fall 1901 Retreats")
