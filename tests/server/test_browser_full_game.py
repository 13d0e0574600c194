"""A whole standard game played through the browser alone, in Chromium at a desktop's size
(issue 29): a gamemaster creates the game on the home page, seven players join by their
invitation links, and the game goes from Spring 1901 through a retreat and a winter build to
a draw every player votes for on their own page. Orders are typed in the order box and
clicked on the map; ready marks end most phases, the gamemaster's "Process now" (confirmed)
one. Nothing is done over the API or in the database: every step is a page a person would
use, and each is checked by what the page then shows.

The line played: Germany takes Burgundy in the spring while France goes to Picardy and the
Mid-Atlantic; in the fall France attacks Burgundy from Marseilles with Picardy's support and
takes Portugal, Germany takes Denmark. German Burgundy is dislodged and retreats to Munich;
in the winter France and Germany each build one unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser import chromium, live_server  # noqa: F401

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
NAMES = {"AUSTRIA": "Anna", "ENGLAND": "Ed", "FRANCE": "Fleur", "GERMANY": "Gustav",
         "ITALY": "Ida", "RUSSIA": "Rurik", "TURKEY": "Tarik"}
# Spring 1901, typed: openings that bounce or stop short of a neutral centre, so that only
# France and Germany (their moves below) gain a centre by the winter.
TYPED_SPRING = {
    "AUSTRIA": "A Vie - Gal\nF Tri - Alb\nA Bud H",
    "ENGLAND": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "ITALY": "F Nap - Ion\nA Rom - Apu\nA Ven H",
    "RUSSIA": "A War - Gal\nF Sev - Bla\nA Mos - Ukr\nF Stp/sc - Bot",
    "TURKEY": "F Ank - Bla\nA Con H\nA Smy - Arm",
}
SLOW = 30_000  # ms: a wait that spans an adjudication by the server's worker


@pytest.fixture
def patient() -> Iterator[None]:
    """Expectations wait up to 15 s here rather than 5: a busy machine may take longer to
    answer a page's checks and drawings (this bounds a wait, it times nothing)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    try:
        yield
    finally:
        expect.set_options(timeout=None)


def _row(page: Any, power: str, order: str) -> Any:
    """A row of the results table of ``power`` whose order begins with ``order``."""
    rows = page.locator(f'#results table[data-power="{power}"] tr')
    return rows.filter(has=page.locator(".order", has_text=re.compile(f"^{re.escape(order)}")))


def _map_ready(page: Any) -> None:
    """Wait until the map is drawn inline and takes clicks."""
    from playwright.sync_api import expect

    expect(page.locator("#map.clickable svg")).to_be_visible()


# A point of the province's own shape, as near its middle as the shape allows: the middle of
# a province's bounding box may lie in a neighbour (the Mid-Atlantic's lies in Spain).
_INSIDE = """el => {
  const r = el.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  let best = null;
  for (let i = 1; i < 24; i++) for (let j = 1; j < 24; j++) {
    const x = r.left + r.width * i / 24, y = r.top + r.height * j / 24;
    const hit = document.elementFromPoint(x, y);
    if (!hit || hit.closest("[id^='prov-']") !== el) continue;
    const d = (x - cx) ** 2 + (y - cy) ** 2;
    if (!best || d < best[2]) best = [x, y, d];
  }
  return best && [best[0], best[1]];
}"""


def _click(page: Any, *provinces: str) -> None:
    """Click each province on the map where a player would: on a visible part of it."""
    for code in provinces:
        province = page.locator(f"#map #prov-{code}")
        province.scroll_into_view_if_needed()
        point = province.evaluate(_INSIDE)
        assert point, f"no part of {code} can be clicked"
        page.mouse.click(*point)


def _playing(page: Any, phase: str) -> None:
    """Wait until the page shows ``phase`` (a live page reloads itself when a phase is
    adjudicated) and has loaded: its scripts, which check and draw what is typed, have run."""
    from playwright.sync_api import expect

    expect(page.locator("#phase-name")).to_have_text(phase, timeout=SLOW)
    page.wait_for_load_state("load")


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=f"/tmp/full-game-{name}.png", full_page=True)


def test_a_full_standard_game_in_the_browser(live_server, chromium, patient):  # noqa: F811
    from playwright.sync_api import expect

    def confirm(page: Any, asked: list[str]) -> None:
        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        page.once("dialog", answer)

    # -- the gamemaster creates a standard game on the home page ------------------------------
    gm_context = chromium.new_context(**DESKTOP)
    gm = gm_context.new_page()
    gm.goto(live_server + "/")
    gm.fill("input[name=name]", "Whole game")
    gm.fill("input[name=gm_name]", "Greta")
    gm.get_by_role("button", name="Create the game").click()
    expect(gm.locator("h1")).to_have_text("Whole game")
    expect(gm.locator(".meta")).to_contain_text("you are the gamemaster")
    game_url = gm.url
    links = {power: gm.locator(f'tr[data-power="{power}"] input.invite').input_value()
             for power in POWERS}
    assert all(link.startswith(live_server + "/join/") for link in links.values())

    gm.close()  # a live page reloads on each seat taken: opened again when needed

    # -- seven players join by their links (one browser, a context each) and order Spring
    # 1901 in turn: five type their orders and mark ready, Germany clicks, France types last.
    contexts = {power: chromium.new_context(**DESKTOP) for power in POWERS}
    pages: dict[str, Any] = {}

    def join(power: str) -> Any:
        page = pages[power] = contexts[power].new_page()
        page.goto(links[power])
        title = power.title()
        expect(page.get_by_text(f"You are invited to play {title}")).to_be_visible()
        page.fill("input[name=name]", NAMES[power])
        page.get_by_role("button", name=f"Play {title}").click()
        expect(page.locator(".meta")).to_contain_text(f"play {title}")
        _playing(page, "Spring 1901 Movement")
        return page

    for power, text in TYPED_SPRING.items():
        page = join(power)
        page.locator("textarea[name=orders]").fill(text)
        # each line is checked as it is typed, and drawn on the map
        expect(page.locator("#feedback li.ok")).to_have_count(text.count("\n") + 1)
        expect(page.locator("#map #map-orders g.o")).to_have_count(text.count("\n") + 1)
        page.get_by_role("button", name="Save and mark ready").click()
        expect(page.locator("#saved")).to_have_text("Orders saved; you are ready.")
        page.close()  # not needed again until the draw

    # Germany clicks its orders on the map: a move, an attack on a neutral, a hold.
    germany = join("GERMANY")
    _map_ready(germany)
    box = germany.locator("textarea[name=orders]")
    _click(germany, "MUN")
    expect(germany.locator("#map-menu-title")).to_have_text("A MUN")
    expect(germany.locator("#map-kinds").get_by_role("button", name="Move")).to_have_attribute(
        "aria-pressed", "true")
    _click(germany, "BUR")
    expect(box).to_have_value("A MUN - BUR")
    _click(germany, "KIE", "DEN")
    _click(germany, "BER", "BER")  # the unit twice: a hold
    expect(box).to_have_value("A MUN - BUR\nF KIE - DEN\nA BER H")
    expect(germany.locator("#map #map-orders g.o.move[data-unit='MUN']")).to_have_count(1)
    expect(germany.locator("#map #map-orders g.o.move[data-unit='KIE']")).to_have_count(1)
    expect(germany.locator("#map #map-orders g.o.hold[data-unit='BER']")).to_have_count(1)
    expect(germany.locator("#feedback")).to_contain_text("\u2713 F KIE - DEN")
    _shot(germany, "1-spring-germany")
    germany.get_by_role("button", name="Save and mark ready").click()
    expect(germany.locator("#saved")).to_have_text("Orders saved; you are ready.")

    # France types its orders and is the last to be ready: the phase ends on its mark.
    france = join("FRANCE")
    france.locator("textarea[name=orders]").fill("F Bre - Mao\nA Par - Pic\nA Mar H")
    expect(france.locator("#feedback li.ok")).to_have_count(3)
    france.get_by_role("button", name="Save and mark ready").click()
    expect(france.locator("#judged")).to_contain_text(
        "Your orders for Spring 1901 Movement were saved and you were ready", timeout=SLOW)
    _playing(france, "Fall 1901 Movement")
    expect(france.locator("#results h2")).to_have_text("Results of Spring 1901 Movement")
    for power, order in (("FRANCE", "F BRE - MAO"), ("FRANCE", "A PAR - PIC"),
                         ("GERMANY", "A MUN - BUR"), ("GERMANY", "F KIE - DEN"),
                         ("ENGLAND", "F LON - NTH")):
        expect(_row(france, power, order)).to_have_class("result succeeds")
    for power, order in (("AUSTRIA", "A VIE - GAL"), ("RUSSIA", "A WAR - GAL"),
                         ("RUSSIA", "F SEV - BLA"), ("TURKEY", "F ANK - BLA")):
        expect(_row(france, power, order)).to_have_class("result fails")
    expect(_row(france, "GERMANY", "A BER H")).to_have_class("result succeeds")
    _shot(france, "2-fall-france")

    # -- Fall 1901: France clicks a supported attack on Burgundy; Germany types ---------------
    # Germany's page reloads itself on the new phase (a live page).
    _playing(germany, "Fall 1901 Movement")
    _map_ready(france)
    box = france.locator("textarea[name=orders]")
    _click(france, "MAR", "BUR")
    expect(box).to_have_value("A MAR - BUR")
    _click(france, "PIC")
    expect(france.locator("#map-menu-title")).to_have_text("A PIC")
    france.locator("#map-kinds").get_by_role("button", name="Support").click()
    _click(france, "MAR", "BUR")
    _click(france, "MAO", "POR")
    expect(box).to_have_value("A MAR - BUR\nA PIC S A MAR - BUR\nF MAO - POR")
    expect(france.locator("#map #map-orders g.o.support[data-unit='PIC']")).to_have_count(1)
    expect(france.locator("#map #map-orders g.o.move")).to_have_count(2)
    expect(france.locator("#feedback li.ok")).to_have_count(3)
    _shot(france, "3-fall-france-clicked")
    france.get_by_role("button", name="Save orders").click()
    expect(france.locator("#saved")).to_have_text("Orders saved.")
    expect(france.locator("textarea[name=orders]")).to_have_value(
        "A MAR - BUR\nA PIC S A MAR - BUR\nF MAO - POR")

    germany.locator("textarea[name=orders]").fill("A Bur H\nF Den H\nA Ber H")
    expect(germany.locator("#feedback li.ok")).to_have_count(3)
    germany.get_by_role("button", name="Save orders").click()
    expect(germany.locator("#saved")).to_have_text("Orders saved.")

    # The gamemaster sees both saved (not ready) and processes the phase, confirming.
    gm = gm_context.new_page()
    gm.goto(game_url)
    for power in POWERS:
        expect(gm.locator(f'tr[data-power="{power}"]')).to_contain_text(NAMES[power])
    expect(gm.locator('tr[data-power="FRANCE"]')).to_contain_text("received")
    expect(gm.locator('tr[data-power="GERMANY"]')).to_contain_text("received")
    expect(gm.locator('tr[data-power="ITALY"]')).to_contain_text("none")
    asked: list[str] = []
    confirm(gm, asked)
    gm.get_by_role("button", name="Process now").click()
    _playing(gm, "Fall 1901 Retreats")
    assert asked and asked[0].startswith("Adjudicate Fall 1901 Movement now")

    # -- Fall 1901 Retreats: German Burgundy is dislodged and retreats to Munich --------------
    for page in (france, germany):
        _playing(page, "Fall 1901 Retreats")
    expect(_row(germany, "FRANCE", "A MAR - BUR")).to_have_class("result succeeds")
    expect(_row(germany, "FRANCE", "A PIC S A MAR - BUR")).to_have_class("result succeeds")
    expect(_row(germany, "FRANCE", "F MAO - POR")).to_have_class("result succeeds")
    dislodged = _row(germany, "GERMANY", "A BUR H")
    expect(dislodged).to_have_class("result dislodged")
    expect(dislodged.locator(".reason")).to_have_text("Dislodged by A MAR (2v1)")
    expect(_row(germany, "GERMANY", "F DEN H")).to_have_class("result succeeds")
    expect(germany.locator("#guide")).to_contain_text("Dislodged: each unit retreats or disbands")
    expect(germany.locator("#guide")).to_contain_text("A BUR R MUN")
    expect(germany.locator("#guide")).not_to_contain_text("A BUR R MAR")  # the attacker's
    expect(france.locator("#nothing-to-do")).to_contain_text(
        "You have nothing to order in Fall 1901 Retreats")
    _map_ready(germany)
    _click(germany, "BUR")
    # the provinces it may retreat to are lit on the map
    expect(germany.locator("#map .target")).to_have_count(5)
    for code in ("BEL", "GAS", "MUN", "PAR", "RUH"):
        expect(germany.locator(f"#map #prov-{code}")).to_have_class(re.compile(r"\btarget\b"))
    expect(germany.locator("#map-kinds").get_by_role("button", name="Retreat")).to_have_attribute(
        "aria-pressed", "true")
    _click(germany, "MUN")
    expect(germany.locator("textarea[name=orders]")).to_have_value("A BUR R MUN")
    expect(germany.locator("#map #map-orders g.o.retreat[data-unit='BUR']")).to_have_count(1)
    _shot(germany, "4-retreat-germany")
    germany.get_by_role("button", name="Save and mark ready").click()
    # Germany is the only power with something to order: its mark ends the phase.
    expect(germany.locator("#judged")).to_contain_text(
        "Your orders for Fall 1901 Retreats were saved and you were ready", timeout=SLOW)
    _playing(germany, "Winter 1901 Adjustments")
    expect(_row(germany, "GERMANY", "A BUR R MUN")).to_have_class("result succeeds")

    # -- Winter 1901: France types a build, Germany clicks one --------------------------------
    _playing(france, "Winter 1901 Adjustments")
    expect(france.locator("#guide")).to_contain_text("You may build 1 unit")
    france.locator("textarea[name=orders]").fill("Build A Par")
    expect(france.locator("#feedback")).to_have_text("\u2713 BUILD A PAR")
    expect(france.locator("#map #map-orders g.o")).to_have_count(1)
    france.get_by_role("button", name="Save and mark ready").click()
    expect(france.locator("#saved")).to_have_text("Orders saved; you are ready.")

    expect(germany.locator("#guide")).to_contain_text("You may build 1 unit")
    _map_ready(germany)
    expect(germany.locator("#map .mine")).to_have_count(1)  # Kiel: its one free home centre
    _click(germany, "KIE")
    germany.locator("#map-choices").get_by_role("button", name="BUILD F KIE").click()
    expect(germany.locator("textarea[name=orders]")).to_have_value("BUILD F KIE")
    expect(germany.locator("#feedback")).to_have_text("\u2713 BUILD F KIE")
    _shot(germany, "5-winter-germany")
    germany.get_by_role("button", name="Save and mark ready").click()
    expect(germany.locator("#judged")).to_contain_text(
        "Your orders for Winter 1901 Adjustments were saved", timeout=SLOW)
    _playing(germany, "Spring 1902 Movement")
    for power, build in (("GERMANY", "BUILD F KIE"), ("FRANCE", "BUILD A PAR")):
        expect(_row(germany, power, build)).to_have_class("result succeeds")
        expect(_row(germany, power, build).locator(".reason")).to_have_text("Built")
    expect(germany.locator("#board pre")).to_contain_text("F KIE")
    _playing(france, "Spring 1902 Movement")

    # -- Spring 1902: France proposes a draw, every other player agrees on their page ---------
    france.get_by_role("button", name="Propose a draw").click()
    expect(france.locator("#proposals .proposal.open")).to_contain_text("A draw")
    expect(france.locator("#proposals .my-vote")).to_have_text("You agreed.")
    for power in POWERS:
        if power == "FRANCE":
            continue
        page = pages[power] if power == "GERMANY" else contexts[power].new_page()
        pages[power] = page
        page.goto(game_url)
        _playing(page, "Spring 1902 Movement")
        open_one = page.locator("#proposals .proposal.open")
        expect(open_one).to_contain_text("votes stay secret")
        expect(open_one).not_to_contain_text("France agreed")  # secret until decided
        page.get_by_role("button", name="Agree to draw").click()
        if power != "TURKEY":
            expect(page.locator("#proposals .my-vote")).to_have_text("You agreed.")
    turkey = pages["TURKEY"]
    everyone = "Austria, England, France, Germany, Italy, Russia, Turkey"
    expect(turkey.locator("#status")).to_contain_text(
        f"the game is over: a draw agreed by {everyone}")
    history = turkey.locator("#proposal-history")
    expect(history).to_contain_text("a draw, accepted")
    expect(history).to_contain_text("France agreed")
    expect(turkey.locator("#orders-form")).to_have_count(0)  # nothing more to order
    _shot(turkey, "6-draw-turkey")
    for page in (france, gm):
        page.goto(game_url)
        expect(page.locator("#status")).to_contain_text("the game is over: a draw agreed by")
    expect(gm.locator("#controls")).to_have_count(0)
    for context in (gm_context, *contexts.values()):
        context.close()
