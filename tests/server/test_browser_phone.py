"""Phones, in Chromium: at 390 px wide every page of a game fits the screen (nothing scrolls
sideways) and the map scales to the width."""

from __future__ import annotations

from browser import chromium, live_server, standard_table  # noqa: F401

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True}


def _fits(page) -> None:  # type: ignore[no-untyped-def]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width} px wide on a 390 px screen"


def test_a_game_fits_a_phone(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    table.orders("FRANCE", ["A Par - Bur"])
    table.message("GERMANY", "A long word: " + "Burgundy" * 4)
    gm = table.browse(chromium, "GM", **PHONE)
    expect(gm.locator("#seats")).to_be_visible()
    _fits(gm)
    france = table.browse(chromium, "FRANCE", **PHONE)
    expect(france.locator("#map svg")).to_be_visible()
    _fits(france)
    box = france.locator("#map").bounding_box()  # the map's frame; the map scrolls in it
    assert box is not None and 300 <= box["width"] <= 390, box
    # The map is still to be clicked on a phone.
    france.locator("#map #prov-MAR").tap()
    expect(france.locator("#map-choices")).to_contain_text("A MAR H")
    assert table.process() == "F1901M"
    expect(france.locator("#phase-name")).to_contain_text("Fall 1901", timeout=10_000)
    _fits(france)
    for path in ("/phases", "/phases/S1901M"):
        france.goto(f"{live_server}/games/{table.id}{path}")
        _fits(france)
    france.goto(live_server + "/")
    _fits(france)
