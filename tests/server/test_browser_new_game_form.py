"""The new-game form (issue 29, item 11), in Chromium on a desktop and a phone: a variant
from the list shows no rule module's options (it comes with its own); a board with modules
shows the modules, and only the options of the modules ticked."""

from __future__ import annotations

from browser import chromium, live_server  # noqa: F401
from map_sizes import SIZES

VISIBLE_OPTIONS = """() => Array.from(document.querySelectorAll('#new-game [name^=opt_]'))
  .filter(e => e.getClientRects().length > 0).map(e => e.name).sort()"""


@SIZES
def test_the_form_shows_only_the_options_that_apply(live_server, chromium, screen):  # noqa: F811
    from playwright.sync_api import expect

    gm = chromium.new_context(**screen).new_page()
    gm.goto(live_server + "/")
    gm.wait_for_load_state("load")
    form = gm.locator("#new-game")
    # A variant from the list (the default choice): no module, no option.
    expect(form.locator("input[name=source][value=preset]")).to_be_checked()
    gm.locator("select[name=variant]").select_option("standard")
    expect(gm.locator("#modules")).to_be_hidden()
    assert gm.evaluate(VISIBLE_OPTIONS) == []
    # A board with modules: the modules, but an option only once its module is ticked.
    form.locator("input[name=source][value=modules]").check()
    expect(form.locator("input[name=modules][value=neutrals]")).to_be_visible()
    expect(form.locator("input[name=modules][value=fog]")).to_be_visible()
    assert gm.evaluate(VISIBLE_OPTIONS) == []
    form.locator("input[name=modules][value=neutrals]").check()
    expect(form.locator("input[name=opt_dp_cap]")).to_be_visible()
    assert gm.evaluate(VISIBLE_OPTIONS) == [
        "opt_buyable", "opt_dp_cap", "opt_dp_per_center", "opt_dp_per_phase"]
    form.locator("input[name=modules][value=neutrals]").uncheck()
    form.locator("input[name=modules][value=fog]").check()
    assert gm.evaluate(VISIBLE_OPTIONS) == ["opt_convoy_origin_closed"]
    # Back to a variant from the list: its options are its own again.
    gm.locator("select[name=variant]").select_option("standard")
    expect(form.locator("input[name=source][value=preset]")).to_be_checked()
    expect(gm.locator("#modules")).to_be_hidden()
    assert gm.evaluate(VISIBLE_OPTIONS) == []
    # Choosing a board is choosing to compose; the ticked module is still there.
    gm.locator("select[name=board]").select_option("standard")
    expect(form.locator("input[name=source][value=modules]")).to_be_checked()
    assert gm.evaluate(VISIBLE_OPTIONS) == ["opt_convoy_origin_closed"]
    assert gm.evaluate("document.documentElement.scrollWidth") <= screen["viewport"]["width"]
    gm.fill("input[name=gm_name]", "Greta")
    gm.get_by_role("button", name="Create the game").click()
    expect(gm.locator("main")).to_contain_text("standard+fog")
