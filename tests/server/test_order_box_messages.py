"""The web judge's order box reads a whole message, as ``calhamer game orders`` does (issue
17): greetings and signatures are set aside, never stored, and said so."""

from __future__ import annotations

from test_pages import gm_creates_a_game, join

from calhamer.server.routes.orders import BoxCheckOut

MESSAGE = "Hi GM, my orders:\nA Par - Bur\nA Munchen -> Ruhr\nThanks\n--\nBob\n"


def test_saving_a_message_stores_only_its_orders_and_names_the_lines_set_aside(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    page = france.post(f"{game_url}/orders", {"phase": "S1901M", "orders": MESSAGE})
    assert "Orders saved" in page.text
    assert "set aside and not stored: lines 1, 4, 5, 6 of what you sent" in page.text
    # The textarea holds what was stored: the orders alone.
    assert ">A Par - Bur\nA Munchen -&gt; Ruhr</textarea>" in page.text
    assert "Thanks" not in page.text.split("<textarea", 1)[1].split("</textarea>", 1)[0]


def test_the_live_check_lists_lines_set_aside_beside_the_checked_orders(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    r = france.client.post(f"{game_url}/orders/check", json={"orders": MESSAGE.splitlines()},
                           headers={"X-CSRF-Token": france.csrf})
    assert r.status_code == 200
    checks = [BoxCheckOut(**c) for c in r.json()]
    assert [(c.line, c.set_aside, c.ok) for c in checks] == [
        (1, "not an order", False), (2, None, True), (3, None, False),
        (4, "not an order", False), (5, "signature", False), (6, "signature", False)]
    assert "did you mean Munich" in (checks[2].problem or "")


def test_a_forged_set_aside_address_shows_nothing_but_numbers(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    page = france.get(f"{game_url}?saved=S1901M&set_aside=1,<b>x</b>,3")
    assert "lines 1, 3 of what you sent" in page.text and "<b>x</b>" not in page.text


def test_the_page_says_what_happens_without_orders(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    assert "No orders saved yet: your units hold." in france.get(game_url).text
