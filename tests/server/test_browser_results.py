"""Results as a game site shows them, in Chromium at desktop and phone sizes: per power,
each order with a result icon and the judge's own reason; missed orders (no order given)
marked apart from holds ordered; invalid orders marked void."""

from __future__ import annotations

import re

import pytest
from browser import chromium, live_server, standard_table  # noqa: F401
from sizes import SIZES


def _row(page, power: str, order: str):  # type: ignore[no-untyped-def]
    rows = page.locator(f'#results table[data-power="{power}"] tr')
    return rows.filter(has=page.locator(".order", has_text=re.compile(f"^{re.escape(order)}")))


@pytest.mark.parametrize("size", SIZES)
def test_results_per_power_with_icons_and_reasons(live_server, chromium, size):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    table.orders("FRANCE", ["A Par - Bur", "A Mar S A Par - Bur"])  # F Bre: no order
    table.orders("GERMANY", ["A Mun - Bur", "A Ber H", "F Kie - Mun"])
    assert table.process() == "F1901M"
    france = table.browse(chromium, "FRANCE", **SIZES[size])
    expect(france.locator("#results caption")).to_contain_text(["France", "Germany"])

    moved = _row(france, "FRANCE", "A PAR - BUR")
    expect(moved).to_have_class("result succeeds")
    expect(moved.locator(".icon")).to_have_text("\u2713")
    expect(moved.locator(".reason")).to_have_text("Moves")
    expect(_row(france, "FRANCE", "A MAR S A PAR - BUR").locator(".reason")).to_have_text(
        "Support given")
    bounced = _row(france, "GERMANY", "A MUN - BUR")
    expect(bounced).to_have_class("result fails")
    expect(bounced.locator(".icon")).to_have_text("\u2717")
    expect(bounced.locator(".reason")).to_have_text("Bounced 1v2 with A PAR")

    # A hold ordered and a unit given no order look different.
    held = _row(france, "GERMANY", "A BER H")
    expect(held).to_have_class("result succeeds")
    missed = _row(france, "FRANCE", "F BRE H")
    expect(missed).to_have_class("result missed")
    expect(missed).to_contain_text("no order given")
    assert missed.locator(".icon").text_content() != held.locator(".icon").text_content()
    assert missed.evaluate("e => getComputedStyle(e).fontStyle") == "italic"
    assert held.evaluate("e => getComputedStyle(e).fontStyle") == "normal"

    void = _row(france, "GERMANY", "F KIE - MUN")
    expect(void).to_have_class("result void")
    expect(void.locator(".reason")).to_contain_text("Invalid: ")
    # The unit whose order was invalid holds, but it was not left without an order.
    fallback = _row(france, "GERMANY", "F KIE H")
    expect(fallback).to_contain_text("its order was invalid")
    expect(fallback).not_to_contain_text("no order given")
    # The judge's text report is still there, folded.
    expect(france.locator("#results details#report pre")).to_contain_text("Bounced 1v2")
    width = france.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["viewport"]["width"]


def test_dislodged_units_are_marked(live_server, chromium):  # noqa: F811
    from browser import to_a_retreat
    from playwright.sync_api import expect

    table = standard_table(live_server)
    to_a_retreat(table)
    germany = table.browse(chromium, "GERMANY")
    row = _row(germany, "GERMANY", "A BUR H")
    expect(row).to_have_class("result dislodged")
    expect(row.locator(".reason")).to_contain_text("Dislodged")
