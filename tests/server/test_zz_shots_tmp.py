from browser import chromium, live_server, standard_table  # noqa: F401
from sizes import SIZES


def test_shots(live_server, chromium):  # noqa: F811
    table = standard_table(live_server)
    table.orders("FRANCE", ["A Par - Bur", "A Mar S A Par - Bur"])
    table.orders("GERMANY", ["A Mun - Bur", "A Ber H", "F Kie - Mun"])
    table.process()
    table.message("GERMANY", "Hello", to=["FRANCE"])
    for size in SIZES:
        page = table.browse(chromium, "FRANCE", **SIZES[size])
        page.locator("#orders-form textarea").fill("A Bur - Mun\nF Bre - Tun")
        page.get_by_role("button", name="Save orders").click()
        page.locator("#orders").screenshot(path=f"/tmp/pg_orders_{size}.png")
        page.locator("#results").screenshot(path=f"/tmp/pg_results_{size}.png")
        page.locator("header").screenshot(path=f"/tmp/pg_header_{size}.png")
        gm = table.browse(chromium, "GM", **SIZES[size])
        gm.locator("#controls").screenshot(path=f"/tmp/pg_gm_{size}.png")
