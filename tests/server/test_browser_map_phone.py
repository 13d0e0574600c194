"""The map on a phone (issue 29, item 9), in Chromium at 390x844 (and a desktop for the parts
that are the same): the menu after a tap is on the screen by the tap (a bottom sheet), the map
comes first and is zoomed so its labels are readable and its provinces at least 44 px, the
buttons are 44 px, and a guest's return-link box is folded after the first visit."""

from __future__ import annotations

from browser import chromium, live_server, standard_table  # noqa: F401
from map_sizes import DESKTOP, PHONE, SIZES


def _box(page, selector: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found  # type: ignore[no-any-return]


def test_on_a_phone_the_map_is_zoomed_and_the_menu_is_on_screen(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ITALY", "FRANCE"))
    italy = table.browse(chromium, "ITALY", **PHONE)
    expect(italy.locator("#map svg")).to_be_visible()
    expect(italy.locator("#map-zoom")).to_have_text("Whole map")
    assert italy.evaluate("document.documentElement.scrollWidth") <= 390
    # The smallest province a player of Italy taps, and a label: big enough.
    naples = _box(italy, "#map #prov-NAP")
    assert naples["width"] >= 44 and naples["height"] >= 44, naples
    label = italy.locator("#map svg .lb").first.evaluate(
        "e => e.getBoundingClientRect().height")
    assert label >= 9, label
    # The map comes before the order box.
    assert _box(italy, "#map")["y"] < _box(italy, "#orders-form")["y"]
    italy.locator("#map #unit-NAP").scroll_into_view_if_needed()
    fleet = _box(italy, "#map #unit-NAP")  # Naples's middle is the sea: its fleet is on land
    italy.touchscreen.tap(fleet["x"] + fleet["width"] / 2, fleet["y"] + fleet["height"] / 2)
    sheet = italy.locator("#map-choices")
    expect(sheet).to_be_visible()
    at = _box(italy, "#map-choices")
    assert at["y"] >= 0 and at["y"] + at["height"] <= 844 + 0.5, at  # on the screen
    assert at["width"] >= 380, at  # a sheet across the bottom
    for button in italy.locator("#map-kinds button").all():
        b = button.bounding_box()
        assert b is not None and b["height"] >= 44 and b["width"] >= 44, b
    italy.locator("#map-kinds").get_by_role("button", name="Hold").tap()
    expect(italy.locator("textarea[name=orders]")).to_have_value("F NAP H")
    expect(sheet).to_be_hidden()
    # The whole map at a tap, and back.
    italy.locator("#map-zoom").tap()
    assert _box(italy, "#map svg")["width"] <= 390
    italy.locator("#map-zoom").tap()
    assert _box(italy, "#map svg")["width"] > 390


def test_on_a_desktop_the_menu_is_beside_the_unit(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ITALY", "FRANCE"))
    italy = table.browse(chromium, "ITALY", **DESKTOP)
    expect(italy.locator("#map svg")).to_be_visible()
    expect(italy.locator("#map-zoom")).to_be_hidden()
    fleet = _box(italy, "#map #unit-NAP")
    italy.mouse.click(fleet["x"] + fleet["width"] / 2, fleet["y"] + fleet["height"] / 2)
    expect(italy.locator("#map-choices")).to_be_visible()
    unit, menu = _box(italy, "#map #prov-NAP"), _box(italy, "#map-choices")
    def gap(a: str, size: str) -> float:
        return max(menu[a] - (unit[a] + unit[size]), unit[a] - (menu[a] + menu[size]), 0)

    gap_x, gap_y = gap("x", "width"), gap("y", "height")
    assert gap_x <= 40 and gap_y <= 40, (unit, menu)  # next to the unit, not under the map


@SIZES
def test_the_return_link_is_folded_after_the_first_visit(live_server, chromium, screen):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("FRANCE",))
    invite = next(s["invite_token"] for s in table.game["seats"] if s["power"] == "GERMANY")
    page = chromium.new_context(**screen).new_page()
    page.goto(f"{live_server}/join/{invite}")
    page.fill("input[name=name]", "Pat")
    page.get_by_role("button", name="Play Germany").click()
    box = page.locator("#return-link")
    expect(box).to_have_attribute("open", "")  # the first visit: open, to be kept
    expect(page.locator("#return-link input")).to_be_visible()
    expect(page.locator("#map svg")).to_be_visible()  # the page's scripts have run
    page.goto(f"{live_server}/games/{table.id}")
    expect(page.locator("#map svg")).to_be_visible()
    expect(page.locator("#return-link input")).to_be_hidden()
    expect(page.locator("#return-link summary")).to_be_visible()


@SIZES
def test_on_a_phone_the_map_comes_first(live_server, chromium, screen):  # noqa: F811
    """At 390x844 the map, with its zoom and last turn's buttons, is the first thing on the
    game page: above the game's name and status, the order box, the results, the press and the
    rest. A desktop keeps the name and status above its two columns."""
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ITALY", "FRANCE"))
    table.orders("ITALY", ["A Rom - Apu"])
    assert table.process() == "F1901M"
    italy = table.browse(chromium, "ITALY", **screen)
    expect(italy.locator("#map svg")).to_be_visible()
    expect(italy.locator("#last-turn")).to_be_visible()
    top = _box(italy, "#map svg")["y"]
    others = ["main h1", "#status", "#orders-form", "#results", "#press", "#notices",
              "#proposals"]
    below = {s: _box(italy, s)["y"] for s in others if italy.locator(s).count()}
    assert set(below) >= {"main h1", "#status", "#orders-form", "#results", "#press"}
    if screen is PHONE:
        header = _box(italy, "body > header")
        assert top < header["y"] + header["height"] + 40, (top, header)  # right under the bar
        assert all(top < y for y in below.values()), (top, below)
        for tool in ("#map-zoom", "#last-turn"):  # the map's buttons come with it
            expect(italy.locator(tool)).to_be_visible()
            assert all(_box(italy, tool)["y"] < y for y in below.values()), tool
            assert _box(italy, tool)["y"] < 844, tool  # on the first screen
        assert italy.evaluate("document.documentElement.scrollWidth") <= 390
    else:
        assert below["main h1"] < top and below["#status"] < top


SMALL_BUTTONS = """() => Array.from(document.querySelectorAll('main button'))
  .filter(b => b.getClientRects().length > 0)
  .map(b => [b.textContent.trim(), b.getBoundingClientRect().height])
  .filter(([, h]) => h < 44)"""


def test_on_a_phone_every_button_is_a_fingers_target(live_server, chromium):  # noqa: F811
    """The order box's, the press form's, the gamemaster's and the new-game form's buttons
    are at least 44 px high at 390x844, as the map's are."""
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ITALY", "FRANCE"))
    table.orders("ITALY", ["A Rom - Apu"])
    assert table.process() == "F1901M"
    for who in ("ITALY", "GM"):
        page = table.browse(chromium, who, **PHONE)
        expect(page.locator("#status")).to_be_visible()
        expect(page.locator("main button").first).to_be_visible()
        assert page.evaluate(SMALL_BUTTONS) == [], who
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    home = chromium.new_context(**PHONE).new_page()
    home.goto(live_server + "/")
    expect(home.get_by_role("button", name="Create the game")).to_be_visible()
    assert home.evaluate(SMALL_BUTTONS) == []
