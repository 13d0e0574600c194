"""The "last turn" toggle (issue 29, results), in Chromium at a desktop's size and a 390x844
phone's: the previous phase's orders with their results (moves, supports, convoys, failed ones
marked) drawn on the current map, as the result map draws them, and hidden again; on a
player's inline map and on the gamemaster's picture. In Kriegsplomacy a player is drawn only
what their own result map shows them: no order of a unit they could not see."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from browser import Table, chromium, live_server, standard_table  # noqa: F401
from map_sizes import DESKTOP, SIZES, press

LAYER = "#map svg #last-turn-orders"


def _to_a_winter(table: Table) -> None:
    """Spring and Fall 1901: England convoys to Norway, France holds Burgundy with support,
    Germany's attack on it fails; Winter 1901 follows (England builds)."""
    table.orders("ENGLAND", ["F Lon - Nth", "A Lvp - Yor"])
    table.orders("FRANCE", ["A Par - Bur"])
    assert table.process() == "F1901M"
    table.orders("ENGLAND", ["F Nth C A Yor - Nwy", "A Yor - Nwy"])
    table.orders("FRANCE", ["A Bur H", "A Mar S A Bur"])
    table.orders("GERMANY", ["A Mun - Bur"])
    assert table.process() == "W1901A"


def _units(page: Any, selector: str) -> dict[str, str]:
    """The orders drawn under ``selector``: their unit, and their kind and result."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        f"{selector} g.o", "els => Object.fromEntries(els.map(e => [e.dataset.unit, "
        "e.getAttribute('class') + ' ' + (e.dataset.result || '')]))")


@SIZES
def test_last_turn_draws_the_previous_orders_on_the_map_and_hides_them(
        live_server, chromium, screen):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ENGLAND", "FRANCE", "GERMANY"))
    _to_a_winter(table)
    england = table.browse(chromium, "ENGLAND", **screen)
    expect(england.locator("#map svg")).to_be_visible()
    toggle = england.locator("#last-turn")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(england.locator(LAYER)).to_have_count(0)
    press(england, "#last-turn", screen)
    expect(england.locator(LAYER)).to_have_count(1)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("Hide last turn")
    drawn = _units(england, LAYER)
    assert drawn["NTH"] == "o convoy succeeds", drawn
    assert drawn["YOR"] == "o move succeeds", drawn
    assert drawn["MAR"] == "o support succeeds", drawn
    assert drawn["BUR"] == "o hold succeeds", drawn
    assert drawn["MUN"] == "o move failed fails", drawn  # faded and crossed, as results show
    # The arrows are drawn where the units stood, on the current map: Yorkshire's army is in
    # Norway now, but the arrow starts in Yorkshire.
    assert england.locator(LAYER).is_visible()
    assert england.locator("#map #unit-NWY").count() == 1
    press(england, "#last-turn", screen)
    expect(england.locator(LAYER)).to_have_count(0)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text(re.compile(r"^Show last turn \(Fall 1901 Movement\)$"))
    width = england.evaluate("document.documentElement.scrollWidth")
    assert width <= screen["viewport"]["width"]


def test_last_turn_on_the_gamemasters_picture(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ENGLAND", "FRANCE", "GERMANY"))
    _to_a_winter(table)
    gm = table.browse(chromium, "GM", **DESKTOP)
    picture = gm.locator("#board figure.picture img")
    plain = picture.get_attribute("src")
    assert plain == f"/games/{table.id}/picture"
    gm.locator("#last-turn").click()
    expect(picture).to_have_attribute("src", re.compile("^data:image/svg"))
    drawn = unquote(picture.get_attribute("src") or "")
    assert 'id="last-turn-orders"' in drawn
    assert 'data-unit="MUN"' in drawn and 'data-unit="NTH"' in drawn
    assert picture.evaluate("e => e.complete && e.naturalWidth > 0")  # a picture still
    gm.locator("#last-turn").click()
    expect(picture).to_have_attribute("src", plain)


def _drawn_on_picture(page: Any) -> tuple[dict[str, str], str]:
    """The last turn's orders drawn on the page's picture (an <img> redrawn with them)."""
    from xml.etree import ElementTree

    from playwright.sync_api import expect

    picture = page.locator("#board figure.picture img")
    expect(picture).to_have_attribute("src", re.compile("^data:image/svg"))
    text = unquote((picture.get_attribute("src") or "").split(",", 1)[1])
    svg = "{http://www.w3.org/2000/svg}"
    layer = next(g for g in ElementTree.fromstring(text).iter(svg + "g")
                 if g.get("id") == "last-turn-orders")
    drawn = {g.get("data-unit", ""): f"{g.get('class')} {g.get('data-result', '')}"
             for g in layer.iter(svg + "g") if (g.get("class") or "").startswith("o ")}
    return drawn, ElementTree.tostring(layer, encoding="unicode")


def test_in_kriegsplomacy_last_turn_draws_no_order_a_player_could_not_see(
        live_server, chromium):  # noqa: F811
    table = standard_table(live_server, powers=("FRANCE", "GERMANY"),
                           variant="kriegsplomacy")
    table.orders("FRANCE", ["Build A Par", "Build F Bre", "Build A Mar"])
    table.orders("GERMANY", ["Build A Ber", "Build F Kie", "Build A Mun"])
    assert table.process() == "S1901M"
    table.orders("FRANCE", ["A Par - Bur", "F Bre - Mao"])
    table.orders("GERMANY", ["A Ber - Pru", "F Kie - Den", "A Mun - Ruh"])
    assert table.process() == "S1901R"  # a retreat step for everyone: nothing to order

    def shown(power: str) -> tuple[dict[str, str], str]:
        page = table.browse(chromium, power, **DESKTOP)
        page.locator("#last-turn").click()
        return _drawn_on_picture(page)

    france, text = shown("FRANCE")
    assert {"PAR", "BRE"} <= set(france), france
    assert france["PAR"] == "o move succeeds", france
    assert not {"BER", "KIE", "MUN"} & set(france), france
    for hidden in ("BER", "KIE", "DEN", "PRU", "RUH", "GERMAN"):  # not even in a title
        assert hidden not in text.upper(), hidden
    # Exactly what France's own result map of the spring shows, nothing more.
    page = table.browse(chromium, "FRANCE", **DESKTOP)
    stored = page.request.get(f"{live_server}/games/{table.id}/phases/S1901M/picture").text()
    assert set(re.findall(r'data-unit="([A-Z/]+)"', stored)) == set(france)
    # The gamemaster's toggle has the German orders: they were there to hide.
    truth, _ = shown("GM")
    assert {"BER", "KIE", "MUN", "PAR"} <= set(truth), truth
