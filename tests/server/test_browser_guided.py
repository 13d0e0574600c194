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


def test_removals_are_guided_and_chosen_on_the_map(live_server, chromium):  # noqa: F811
    """Germany loses Munich and keeps three units on two centres: in Winter 1901 its page
    names the units it may remove, and one is removed by clicking it on the map and choosing
    the removal; France, which gained Munich, is told its build instead."""
    from playwright.sync_api import expect

    table = standard_table(live_server)
    table.orders("GERMANY", ["A Mun - Ruh", "A Ber H", "F Kie H"])
    table.orders("FRANCE", ["A Par - Bur", "A Mar H", "F Bre H"])
    assert table.process() == "F1901M"
    table.orders("GERMANY", ["A Ruh H", "A Ber H", "F Kie H"])
    table.orders("FRANCE", ["A Bur - Mun", "A Mar H", "F Bre H"])
    assert table.process() == "W1901A"

    germany = table.browse(chromium, "GERMANY")
    guide = germany.locator("#guide")
    expect(guide).to_contain_text("You must remove 1 unit")
    for unit in ("A RUH", "A BER", "F KIE"):
        expect(guide).to_contain_text(unit)
    expect(guide).not_to_contain_text("MUN")  # France's army there is not Germany's to remove
    # Only Germany's own units are there to click.
    expect(germany.locator("#map .mine")).to_have_count(3)
    for code in ("RUH", "BER", "KIE"):
        expect(germany.locator(f"#map #prov-{code}")).to_have_class(_has("mine"))
    germany.locator("#map #prov-RUH").click()
    # The unit's menu lists its one order (the removal) once, beside Cancel and the kinds.
    choices = germany.locator("#map-list button")
    expect(choices).to_have_count(1)
    removal = choices.first.text_content() or ""
    assert "RUH" in removal, removal
    expect(germany.locator("#map-kinds button.kind:not(.cancel)")).to_have_count(1)
    germany.locator("#map-more summary").click()
    choices.first.click()
    box = germany.locator("textarea[name=orders]")
    expect(box).to_have_value(removal)
    expect(germany.locator("#feedback")).to_contain_text("\u2713")
    expect(germany.locator("#map #prov-RUH")).to_have_class(_has("ordered"))
    germany.get_by_role("button", name="Save orders").click()
    expect(germany.locator(".notice")).to_contain_text("Orders saved")

    france = table.browse(chromium, "FRANCE")
    expect(france.locator("#guide")).to_contain_text("You may build 1 unit")

    assert table.process() == "S1902M"
    r = table.http.get(f"{table.base}/api/games/{table.id}", headers=table.seats["GERMANY"].headers)
    assert r.status_code == 200, r.text
    assert sorted(r.json()["position"]["units"]["GERMANY"]) == ["A BER", "F KIE"]


def _has(cls: str):  # type: ignore[no-untyped-def]
    import re

    return re.compile(rf"(^|\s){cls}(\s|$)")
