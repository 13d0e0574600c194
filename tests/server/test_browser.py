"""A game in a real browser: headless Chromium (Debian's package) driven by Playwright.

The gamemaster creates a game, two players join through their invitation links, enter
orders (the page checks each line as it is typed), the gamemaster processes the phase and
the results appear for everyone. Runs once, on SQLite; skipped only when Chromium or
Playwright is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator

import pytest

CHROMIUM = os.environ.get("CALHAMER_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


def _missing() -> str | None:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return (f"Chromium is not installed at {CHROMIUM} "
                "(apt-get install chromium, or set CALHAMER_CHROMIUM)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    return None



@pytest.fixture
def live_server(database, database_url, clock) -> Iterator[str]:  # type: ignore[no-untyped-def]
    from calhamer.server.app import create_app
    from conftest import empty_tables, make_settings, serve_on_loopback

    empty_tables(database)
    settings = make_settings(database_url, clock, embedded_worker=True, worker_poll_seconds=0.2)
    app = create_app(settings, db=database)
    with serve_on_loopback(app) as base:
        yield base


def test_gm_and_two_players_play_a_phase_in_chromium(database, live_server, tmp_path):
    problem = _missing()
    if problem:
        pytest.skip(problem)
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            gm = browser.new_context().new_page()
            gm.goto(live_server + "/")
            gm.fill("input[name=name]", "Browser game")
            gm.fill("input[name=gm_name]", "Alice")
            gm.get_by_role("button", name="Create the game").click()
            expect(gm.locator("h1")).to_have_text("Browser game")
            links = {power: gm.locator(f'tr[data-power="{power}"] input.invite').input_value()
                     for power in ("FRANCE", "GERMANY")}

            france = browser.new_context().new_page()
            france.goto(links["FRANCE"])
            france.fill("input[name=name]", "Bob")
            france.get_by_role("button", name="Play France").click()
            expect(france.locator(".meta")).to_contain_text("play France")
            france.fill("textarea[name=orders]", "A Par - Bur\nA Mar - Tryolia")
            # The page checks each line as it is typed, before anything is saved.
            expect(france.locator("#feedback")).to_contain_text("did you mean Tyrolia (TYR)?")
            expect(france.locator("#feedback")).to_contain_text("A PAR - BUR")
            france.get_by_role("button", name="Save orders").click()
            expect(france.locator(".notice")).to_contain_text("Orders saved")

            germany = browser.new_context().new_page()
            germany.goto(links["GERMANY"])
            germany.fill("input[name=name]", "Carol")
            germany.get_by_role("button", name="Play Germany").click()
            germany.fill("textarea[name=orders]", "A Mun - Bur")
            germany.get_by_role("button", name="Save and mark ready").click()
            expect(germany.locator(".notice")).to_contain_text("you are ready")

            _reload(gm)
            expect(gm.locator('tr[data-power="FRANCE"]')).to_contain_text("Bob")
            expect(gm.locator('tr[data-power="GERMANY"]')).to_contain_text("ready")
            gm.once("dialog", lambda dialog: dialog.accept())  # "Adjudicate ... now?"
            gm.get_by_role("button", name="Process now").click()
            _reload_until(gm, "#results", "Results of Spring 1901 Movement")
            expect(gm.locator("#phase-name")).to_have_text("Fall 1901 Movement")

            _reload(france)
            expect(france.locator("#results")).to_contain_text("Bounced")
            expect(france.locator("#results")).to_contain_text("A MUN - BUR")
            france.screenshot(path=str(tmp_path / "france.png"), full_page=True)
            france.locator("#results").get_by_role("link", name="Spring 1901 Movement").click()
            expect(france.locator("#report")).to_contain_text("A PAR - BUR")
        finally:
            browser.close()


def _reload_until(page, selector: str, text: str, timeout: float = 15.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in (page.locator(selector).text_content(timeout=500) or "") \
                if page.locator(selector).count() else False:
            return
        time.sleep(0.2)
        _reload(page)
    raise AssertionError(f"{text!r} did not appear in {selector}")


def _reload(page) -> None:  # type: ignore[no-untyped-def]
    """Reload, unless the live page is reloading itself at that moment (then wait for it)."""
    # The three ways the browser reports a reload crossing the page's own navigation.
    crossed = ("ERR_ABORTED", "interrupted", "Not attached to an active page")
    for _ in range(3):
        try:
            page.reload()
            break
        except Exception as exc:
            if not any(word in str(exc) for word in crossed):
                raise
            page.wait_for_load_state("load")
    page.wait_for_load_state("load")
