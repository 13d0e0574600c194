"""Orders by clicking the map, in Chromium: a unit, then a destination (or the unit to support
or convoy); only legal targets light up; retreats show their options, builds the free home
centres; the order box and the map stay in step."""

from __future__ import annotations

import pytest
from browser import chromium, live_server, standard_table, to_a_retreat  # noqa: F401
from test_pages import Browser, gm_creates_a_game


def _lit(page, code: str) -> bool:  # type: ignore[no-untyped-def]
    return "target" in (page.locator(f"#map #prov-{code}").get_attribute("class") or "")


def test_orders_by_clicking_the_map_stay_in_step_with_the_box(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    france = table.browse(chromium, "FRANCE")
    expect(france.locator("#map svg")).to_be_visible()
    expect(france.locator("#map-prompt")).to_contain_text("Click one of your units")
    france.locator("#map #prov-PAR").click()
    expect(france.locator("#map #prov-BUR")).to_have_class(lambda_has("target"))
    assert not _lit(france, "SPA") and not _lit(france, "MOS")  # no legal order goes there
    # Moves first; with "Support", the units whose hold or move Paris may support (Germany's
    # Munich to Burgundy)
    assert _lit(france, "PIC") and _lit(france, "BRE") and not _lit(france, "MUN")
    france.locator("#map-kinds").get_by_role("button", name="Support").click()
    assert _lit(france, "MUN") and not _lit(france, "PIC")
    france.locator("#map-kinds").get_by_role("button", name="Move").click()
    france.locator("#map #prov-BUR").click()
    box = france.locator("textarea[name=orders]")
    expect(box).to_have_value("A PAR - BUR")
    expect(france.locator("#feedback")).to_contain_text("\u2713 A PAR - BUR")
    expect(france.locator("#map #prov-PAR")).to_have_class(lambda_has("ordered"))

    # A support: the supporter, the supported unit, its destination.
    france.locator("#map #prov-MAR").click()
    france.locator("#map-kinds").get_by_role("button", name="Support").click()
    france.locator("#map #prov-PAR").click()
    assert _lit(france, "BUR") and _lit(france, "GAS")
    france.locator("#map #prov-BUR").click()
    expect(box).to_have_value("A PAR - BUR\nA MAR S A PAR - BUR")

    # A second order for a unit replaces its line; a hold is chosen from the list.
    france.locator("#map #prov-PAR").click()
    france.locator("#map-choices").get_by_role("button", name="A PAR H").click()
    expect(box).to_have_value("A MAR S A PAR - BUR\nA PAR H")

    # The box leads the map too: what is typed is marked, what is deleted is not.
    box.fill("F Bre - Mao")
    expect(france.locator("#map #prov-BRE")).to_have_class(lambda_has("ordered"))
    expect(france.locator("#map #prov-PAR")).not_to_have_class(lambda_has("ordered"))
    # A click elsewhere than a unit of one's own selects nothing.
    france.locator("#map #prov-MUN").click()
    expect(france.locator("#map .target")).to_have_count(0)

    france.get_by_role("button", name="Save orders").click()
    expect(france.locator(".notice")).to_contain_text("Orders saved")
    expect(france.locator("#map #prov-BRE")).to_have_class(lambda_has("ordered"))


def test_retreats_and_builds_by_clicking_the_map(live_server, chromium):  # noqa: F811
    from playwright.sync_api import expect

    table = standard_table(live_server)
    to_a_retreat(table)
    germany = table.browse(chromium, "GERMANY")
    expect(germany.locator("#map svg")).to_be_visible()
    germany.locator("#map #prov-BUR").click()
    lit = {code for code in ("RUH", "PIC", "BEL", "GAS", "MUN", "MAR", "PAR", "KIE")
           if _lit(germany, code)}
    assert lit == {"RUH", "PIC", "BEL", "GAS", "MUN"}  # not the attacker's Marseilles
    expect(germany.locator("#map-choices")).to_contain_text("A BUR D")
    germany.locator("#map-choices").get_by_role("button", name="A BUR D").click()
    expect(germany.locator("textarea[name=orders]")).to_have_value("A BUR D")
    germany.get_by_role("button", name="Save orders").click()
    expect(germany.locator(".notice")).to_contain_text("Orders saved")
    assert table.process() == "W1901A"

    # the page reloads itself on the new phase (live pages)
    expect(germany.locator("#phase-name")).to_contain_text("Winter 1901", timeout=10_000)
    expect(germany.locator("#map svg")).to_be_visible()
    # The one free home centre is the one to click: Berlin and Kiel are occupied.
    expect(germany.locator("#map .mine")).to_have_count(1)
    expect(germany.locator("#map #prov-MUN")).to_have_class(lambda_has("mine"))
    germany.locator("#map #prov-MUN").click()
    germany.locator("#map-choices").get_by_role("button", name="BUILD A MUN").click()
    expect(germany.locator("textarea[name=orders]")).to_have_value("BUILD A MUN")
    expect(germany.locator("#feedback")).to_contain_text("\u2713 BUILD A MUN")


def lambda_has(cls: str):  # type: ignore[no-untyped-def]
    import re

    return re.compile(rf"(^|\s){cls}(\s|$)")


# -- the options behind the clicks: every variant, and no more than the player's view ---------


def _player_of(app, variant: str, power: str | None = None):  # type: ignore[no-untyped-def]
    gm, url, links = gm_creates_a_game(app, variant=variant)
    player = Browser(app)
    link = links[power or sorted(links)[0]].replace("http://testserver", "")
    player.get(link)
    player.post(link, {"name": "Pat"})
    return gm, player, url


@pytest.mark.parametrize("variant", ["standard", "arpiesse", "kriegsplomacy", "standard-dp",
                                     "superdiplomacy", "sub-saharan-excerpt"])
def test_every_variant_gives_the_map_its_options(app, variant):
    from calhamer.server.services.games import servable_variants

    assert variant in {name for name, _ in servable_variants()}
    gm, player, url = _player_of(app, variant)
    options = player.get(url + "/options").json()
    picture = player.get(url + "/picture").text
    assert options["units"], variant
    for unit in options["units"]:
        assert f'id="prov-{unit["province"]}"' in picture, (variant, unit["province"])
        assert unit["orders"], unit
        for order in unit["orders"]:
            for code in order["path"]:
                assert f'id="prov-{code}"' in picture, (variant, order)
    # The gamemaster, who orders nothing, is given nothing to click.
    assert gm.get(url + "/options").json()["units"] == []


def test_in_kriegsplomacy_the_map_options_name_only_the_players_own_units(app):
    _gm, italy, url = _player_of(app, "kriegsplomacy", "ITALY")
    builds = italy.get(url + "/options").json()
    assert {u["province"] for u in builds["units"]} <= {"VEN", "ROM", "NAP"}
    every = " ".join(o["text"] for u in builds["units"] for o in u["orders"])
    for hidden in ("PAR", "MUN", "VIE", "BRE", "TRI"):
        assert hidden not in every
