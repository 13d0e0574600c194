"""Map order entry players cannot get wrong (issue 29, item 1), in Chromium on a desktop and a
phone: after a unit, the kind of order is chosen from a menu beside it; a click on an occupied
province attacks it; a click on one's own unit starts that unit's order and never completes
the previous one."""

from __future__ import annotations

import re
from typing import Any

from browser import chromium, live_server, standard_table  # noqa: F401
from map_sizes import SIZES, press


def _fall_1901(base: str) -> Any:
    """Germany with A Ruh and A Mun, France with A Bur: Fall 1901."""
    table = standard_table(base)
    table.orders("GERMANY", ["A Mun - Ruh", "A Ber - Mun"])
    table.orders("FRANCE", ["A Par - Bur"])
    assert table.process() == "F1901M"
    return table


@SIZES
def test_a_click_on_ones_own_unit_starts_its_order(live_server, chromium, screen):  # noqa: F811
    from playwright.sync_api import expect

    table = _fall_1901(live_server)
    germany = table.browse(chromium, "GERMANY", **screen)
    expect(germany.locator("#map svg")).to_be_visible()
    box = germany.locator("textarea[name=orders]")
    # The steps: Ruh, then the French army in Bur, then Mun to order the next unit.
    press(germany, "#map #prov-RUH", screen)
    menu = germany.locator("#map-choices")
    expect(menu).to_be_visible()
    expect(germany.locator("#map-menu-title")).to_have_text("A RUH")
    for kind in ("Move", "Support", "Hold"):
        expect(germany.locator("#map-kinds").get_by_role("button", name=kind)).to_be_visible()
    press(germany, "#map #prov-BUR", screen)  # occupied by France: an attack
    expect(box).to_have_value("A RUH - BUR")
    press(germany, "#map #prov-MUN", screen)  # one's own unit: its order begins
    expect(germany.locator("#map-menu-title")).to_have_text("A MUN")
    expect(box).to_have_value("A RUH - BUR")
    # Munich supports Ruhr into Burgundy: the kind first, then the supported unit, then where.
    germany.locator("#map-kinds").get_by_role("button", name="Support").click()
    press(germany, "#map #prov-RUH", screen)
    expect(box).to_have_value("A RUH - BUR")  # Ruhr's own order is untouched
    press(germany, "#map #prov-BUR", screen)
    expect(box).to_have_value("A RUH - BUR\nA MUN S A RUH - BUR")
    expect(germany.locator("#feedback")).to_contain_text("\u2713 A MUN S A RUH - BUR")
    expect(menu).to_be_hidden()
    germany.get_by_role("button", name="Save orders").click()
    expect(germany.locator(".notice").first).to_contain_text("Orders saved")
    expect(box).to_have_value("A RUH - BUR\nA MUN S A RUH - BUR")


@SIZES
def test_a_move_into_ones_own_units_province_is_still_in_the_menu(live_server, chromium,  # noqa: F811
                                                                    screen):
    from playwright.sync_api import expect

    table = _fall_1901(live_server)
    germany = table.browse(chromium, "GERMANY", **screen)
    expect(germany.locator("#map svg")).to_be_visible()
    press(germany, "#map #prov-RUH", screen)
    germany.locator("#map-more summary").click()
    germany.locator("#map-list").get_by_role("button", name="A RUH - MUN").click()
    expect(germany.locator("textarea[name=orders]")).to_have_value("A RUH - MUN")


def _hit(page: Any, code: str, screen: dict[str, Any]) -> None:
    """A click or a tap on a part of the province a player would hit: its own shape."""
    from test_browser_full_game import _INSIDE

    province = page.locator(f"#map #prov-{code}")
    province.scroll_into_view_if_needed()
    point = province.evaluate(_INSIDE)
    assert point, f"no part of {code} can be hit"
    if screen.get("has_touch"):
        page.touchscreen.tap(*point)
    else:
        page.mouse.click(*point)


@SIZES
def test_a_convoy_is_entered_from_the_menu(live_server, chromium, screen):  # noqa: F811
    """A fleet's menu has Convoy: the fleet, Convoy, the army, where it goes; the army's move
    across the sea is then offered to it, and both are drawn as entered."""
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ENGLAND", "FRANCE"))
    table.orders("ENGLAND", ["F Lon - Nth", "A Lvp - Yor"])
    assert table.process() == "F1901M"
    england = table.browse(chromium, "ENGLAND", **screen)
    expect(england.locator("#map svg")).to_be_visible()
    england.wait_for_load_state("load")
    box = england.locator("textarea[name=orders]")
    press(england, "#map #prov-NTH", screen)
    expect(england.locator("#map-menu-title")).to_have_text("F NTH")
    kinds = england.locator("#map-kinds")
    for kind in ("Move", "Support", "Convoy"):
        expect(kinds.get_by_role("button", name=kind)).to_be_visible()
    press(england, "#map-kinds button:text-is('Convoy')", screen)
    press(england, "#map #prov-YOR", screen)
    expect(england.locator("#map #prov-NWY")).to_have_class(re.compile(r"\btarget\b"))
    _hit(england, "NWY", screen)  # Norway's middle is in Sweden
    expect(box).to_have_value("F NTH C A YOR - NWY")
    expect(england.locator("#map #map-orders g.o.convoy[data-unit='NTH']")).to_have_count(1)
    press(england, "#map #prov-YOR", screen)
    expect(england.locator("#map-menu-title")).to_have_text("A YOR")
    _hit(england, "NWY", screen)
    expect(box).to_have_value("F NTH C A YOR - NWY\nA YOR - NWY")
    expect(england.locator("#map #map-orders g.o.move[data-unit='YOR']")).to_have_count(1)
    expect(england.locator("#feedback li.ok")).to_have_count(2)
