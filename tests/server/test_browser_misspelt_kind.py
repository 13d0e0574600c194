"""A misspelt kind of order typed on the game page (issue 29, item 11), in Chromium on a
desktop and a phone: ``Buidl F Edi`` is told as a misspelt Build, not as a province, both as
it is typed and when it is saved."""

from __future__ import annotations

from browser import Table, chromium, live_server, standard_table  # noqa: F401
from map_sizes import SIZES


def _to_englands_build(table: Table) -> None:
    """England's fleet leaves Edinburgh and takes Norway: Winter 1901, a build for England."""
    table.orders("ENGLAND", ["F Edi - Nwg"])
    assert table.process() == "F1901M"
    table.orders("ENGLAND", ["F Nwg - Nwy"])
    assert table.process() == "W1901A"


@SIZES
def test_buidl_suggests_build(live_server, chromium, screen):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ENGLAND", "FRANCE"))
    _to_englands_build(table)
    england = table.browse(chromium, "ENGLAND", **screen)
    expect(england.locator("#phase-name")).to_have_text("Winter 1901 Adjustments")
    england.wait_for_load_state("load")
    box = england.locator("textarea[name=orders]")
    box.fill("Buidl F Edi")
    line = england.locator("#feedback li.bad")
    expect(line).to_contain_text("did you mean Build?")
    expect(line).not_to_contain_text("Bulgaria")
    england.get_by_role("button", name="Save orders").click()
    saved = england.locator("#saved")
    expect(saved).to_have_class("notice warn")
    expect(saved).to_contain_text("did you mean Build?")
    expect(saved).not_to_contain_text("Bulgaria")
    # Taken at its word, the suggestion makes a valid build.
    england.locator("textarea[name=orders]").fill("Build F Edi")
    expect(england.locator("#feedback")).to_have_text("\u2713 BUILD F EDI")
    width = england.evaluate("document.documentElement.scrollWidth")
    assert width <= screen["viewport"]["width"]
