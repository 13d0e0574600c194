"""Retreats and builds guided, in Chromium: before typing, each power sees the units it must
retreat with their options, or the builds it owes and where; a power with nothing to do gets
no order form (in Kriegsplomacy, where everyone is waited for, only a ready button)."""

from __future__ import annotations

from browser import Table, chromium, live_server, standard_table, to_a_retreat  # noqa: F401


def test_retreats_and_builds_are_guided(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    to_a_retreat(table)
    germany = table.browse(chromium, "GERMANY")
    guide = germany.locator("#guide")
    expect(guide).to_contain_text("A BUR")
    for retreat in ("A BUR R BEL", "A BUR R GAS", "A BUR R MUN", "A BUR R PIC", "A BUR R RUH",
                    "A BUR D"):
        expect(guide).to_contain_text(retreat)
    expect(guide).not_to_contain_text("A BUR R MAR")  # where the attack came from
    box = germany.locator("textarea[name=orders]")
    placeholder = box.get_attribute("placeholder") or ""
    assert placeholder.endswith("like A BUR R BEL"), placeholder
    # France has nothing to retreat: no order form at all.
    france = table.browse(chromium, "FRANCE")
    expect(france.locator("#nothing-to-do")).to_contain_text("nothing to order")
    expect(france.locator("#orders-form")).to_have_count(0)

    germany.fill("textarea[name=orders]", "A Bur D")
    germany.get_by_role("button", name="Save orders").click()
    assert table.process() == "W1901A"
    # the page reloads itself on the new phase (live pages)
    expect(germany.locator("#phase-name")).to_contain_text("Winter 1901", timeout=10_000)
    expect(germany.locator("#guide")).to_contain_text("You may build 1 unit")
    expect(germany.locator("#guide")).to_contain_text("Munich (MUN)")
    expect(germany.locator("#guide")).not_to_contain_text("Berlin")  # occupied
    # the page reloads itself on the new phase (live pages)
    expect(france.locator("#phase-name")).to_contain_text("Winter 1901", timeout=10_000)
    expect(france.locator("#nothing-to-do")).to_be_visible()
    expect(france.locator("#orders-form")).to_have_count(0)


def test_in_kriegsplomacy_a_player_with_nothing_to_do_only_marks_ready(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("ITALY", "FRANCE"), variant="kriegsplomacy")
    italy = table.browse(chromium, "ITALY")
    expect(italy.locator("#guide")).to_contain_text("You may build 3 units")
    for power in ("ITALY", "FRANCE"):
        table.orders(power, [])
    assert table.process() == "S1901M"
    assert table.process() == "S1901R"  # a retreat step for everyone, nobody dislodged
    # the page reloads itself on the new phase (live pages)
    expect(italy.locator("#phase-name")).to_contain_text("Spring 1901 Retreat", timeout=10_000)
    expect(italy.locator("#nothing-to-do")).to_contain_text("waited for all the same")
    expect(italy.locator("#orders-form")).to_have_count(0)
    italy.get_by_role("button", name="Mark ready").click()
    expect(italy.locator("#ready-form")).to_contain_text("Not ready")
