"""What the map marks (issue 29, item 5), in Chromium on a desktop and a phone: highlights no
power's colour (hatched and dotted, not filled), a hold by clicking the unit a second time,
and each order drawn as it is entered, as the result maps draw orders, without a reload."""

from __future__ import annotations

from browser import chromium, live_server, standard_table  # noqa: F401
from map_sizes import SIZES, press

from calhamer.render.svg.palette import Palette
from calhamer.variants import find_variant


def _fill(page, code: str) -> str:  # type: ignore[no-untyped-def]
    return str(page.locator(f"#map #prov-{code}").evaluate("e => getComputedStyle(e).fill"))


@SIZES
def test_highlights_hold_gesture_and_orders_drawn_as_entered(live_server, chromium,  # noqa: F811
                                                               screen):
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE", **screen)
    expect(france.locator("#map svg")).to_be_visible()
    france.evaluate("window.notReloaded = true")
    powers = {c.lower() for c in Palette(find_variant("standard").board(), None).power.values()}

    press(france, "#map #prov-PAR", screen)
    expect(france.locator("#map #prov-BUR")).to_have_class(lambda_has("target"))
    lit, chosen = _fill(france, "BUR"), _fill(france, "PAR")
    # Patterns, not a flat colour: no power's colour can be read into them.
    assert lit.startswith("url(") and "map-lit" in lit, lit
    assert chosen.startswith("url(") and "map-chosen" in chosen, chosen
    assert france.locator("#map #map-lit").count() == 1
    assert not powers & {lit, chosen}

    # A move, drawn at once as an arrow (the same drawing as the result maps').
    press(france, "#map #prov-BUR", screen)
    drawn = france.locator("#map #map-orders g.o.move[data-unit='PAR']")
    expect(drawn).to_have_count(1)

    # The hold gesture: the unit, then the unit again.
    press(france, "#map #prov-MAR", screen)
    expect(france.locator("#map-menu-title")).to_have_text("A MAR")
    press(france, "#map #prov-MAR", screen)
    box = france.locator("textarea[name=orders]")
    expect(box).to_have_value("A PAR - BUR\nA MAR H")
    expect(france.locator("#map #map-orders g.o.hold[data-unit='MAR']")).to_have_count(1)
    # A line typed in the box is drawn too; one deleted is no longer drawn.
    box.fill("F Bre - Mao")
    expect(france.locator("#map #map-orders g.o.move[data-unit='BRE']")).to_have_count(1)
    expect(france.locator("#map #map-orders g.o[data-unit='PAR']")).to_have_count(0)
    assert france.evaluate("window.notReloaded") is True  # all of it without a reload


def lambda_has(cls: str):  # type: ignore[no-untyped-def]
    import re

    return re.compile(rf"(^|\s){cls}(\s|$)")
