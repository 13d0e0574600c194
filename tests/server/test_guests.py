"""Guests: the return link brings a guest (player or gamemaster) back to their games.

A guest has no password; losing the browser's cookie (logging out, another browser) used to
lose their games for good. Their return link logs them in as themselves again in any
browser; making a new one, or signing up, revokes the old one.
"""

from __future__ import annotations

import re

from sqlalchemy import select
from test_pages import Browser, gm_creates_a_game, invite_links, join

from calhamer.server.models import User

RETURN_LINK = re.compile(r'value="(http://testserver/return/[^"]+)"')


def return_link_of(html: str) -> str:
    found = RETURN_LINK.search(html)
    assert found, "no return link on the page"
    return found[1].replace("http://testserver", "")


def come_back(app, link: str) -> Browser:  # type: ignore[no-untyped-def]
    """A fresh browser that opens the return link and continues."""
    browser = Browser(app)
    page = browser.get(link)
    assert "Continue as" in page.text
    browser.post(link)
    return browser


def test_a_guest_who_logs_out_comes_back_with_the_return_link(app):
    gm, game_url, links = gm_creates_a_game(app)
    france, page = join(app, links["FRANCE"], "Bob")
    assert "you play <strong>France</strong>" in page.text
    link = return_link_of(page.text)  # shown as soon as they have joined
    # Logging out warns a guest first, and shows the link again.
    warning = france.get("/logout")
    assert 'id="guest-warning"' in warning.text and "return link" in warning.text
    assert return_link_of(warning.text) == link
    france.post("/logout")
    assert france.client.get(game_url).status_code == 404
    taken = france.get(links["FRANCE"].replace("http://testserver", ""))
    assert "France has already been taken" in taken.text
    # The link, in this browser or any other, gives the same power back.
    for browser in (come_back(app, link), france):
        if browser is france:
            france.get(link)
            france.post(link)
        page = browser.get(game_url)
        assert "you play <strong>France</strong>" in page.text
        page = browser.post(f"{game_url}/orders", {"phase": "S1901M", "action": "save",
                                                   "orders": "A Par - Bur"})
        assert "Orders saved" in page.text
    assert "Bob" in gm.get(game_url).text


def test_a_guest_gamemaster_regains_control(app):
    gm, game_url, _links = gm_creates_a_game(app)
    page = gm.get(game_url)
    assert "you are the gamemaster" in page.text
    link = return_link_of(page.text)  # shown as soon as the game is made
    gm.post("/logout")
    assert gm.client.get(game_url).status_code == 404
    back = come_back(app, link)
    page = back.get(game_url)
    assert "you are the gamemaster" in page.text and 'id="controls"' in page.text
    assert len(invite_links(page.text)) == 7
    page = back.post(f"{game_url}/control", {"action": "pause"})
    assert "paused by the gamemaster" in page.text


def test_a_wrong_or_old_return_link_is_refused(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, page = join(app, links["FRANCE"], "Bob")
    old = return_link_of(page.text)
    account = france.get("/account")
    assert return_link_of(account.text) == old
    account = france.post("/account/return-link")
    assert "the old one no longer works" in account.text
    new = return_link_of(account.text)
    assert new != old
    assert return_link_of(france.get(game_url).text) == new
    tampered = old[:-3] + ("AAA" if not old.endswith("AAA") else "BBB")
    for bad in (old, tampered, "/return/not-a-link", "/return/" + "x" * 500):
        stranger = Browser(app)
        refused = stranger.client.get(bad)
        assert refused.status_code == 404
        assert "this return link does not work" in refused.text
        stranger.get("/")
        refused = stranger.post(bad, status=404)
        assert "this return link does not work" in refused.text
        assert stranger.client.get(game_url).status_code == 404
    assert come_back(app, new).get(game_url).status_code == 200


def test_signing_up_keeps_the_games_and_ends_the_return_link(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, page = join(app, links["FRANCE"], "Bob")
    link = return_link_of(page.text)
    france.get("/signup")
    page = france.post("/signup", {"username": "bob", "password": "long enough pw"})
    assert "Friday game" in page.text
    assert not RETURN_LINK.search(france.get(game_url).text)  # an account has none
    assert "guest-warning" not in france.get("/logout").text
    stranger = Browser(app)
    refused = stranger.client.get(link)
    assert refused.status_code == 404 and "signed up since" in refused.text
    france.post("/logout")
    france.get("/login")
    france.post("/login", {"username": "bob", "password": "long enough pw"})
    assert "you play <strong>France</strong>" in france.get(game_url).text


def test_an_account_has_no_return_link_to_make(app, judge):
    browser = Browser(app)
    browser.get("/signup")
    browser.post("/signup", {"username": "carol", "password": "long enough pw"})
    page = browser.post("/account/return-link", status=409)
    assert "only a guest has a return link" in page.text
    with judge.database.session() as session:
        carol = session.scalars(select(User).where(User.username == "carol")).one()
        assert carol.return_nonce is None


def test_guests_made_before_return_links_get_one(tmp_path):
    """Migrating a database from before return links gives its guests one."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from calhamer.server.db import Database

    db = Database(f"sqlite:///{tmp_path / 'old.db'}", sqlite_synchronous="NORMAL")
    config = Config()
    config.set_main_option("script_location", "calhamer.server:migrations")
    with db.engine.execution_options(calhamer_write=True).connect() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(text(
            "INSERT INTO users (username, display_name, session_epoch, created_at) VALUES "
            "(NULL, 'Old guest', 0, '2026-01-01'), ('dora', 'Dora', 0, '2026-01-01')"))
        connection.commit()
    db.migrate()
    with db.session() as session:
        nonces = {u.display_name: u.return_nonce for u in session.scalars(select(User))}
    assert nonces["Dora"] is None and nonces["Old guest"]
    db.dispose()


def test_a_guest_joining_through_the_api_gets_a_return_link(app, judge):
    gm = judge.user("gm")
    judge.new_game(gm)
    r = judge.client.post("/api/join", json={"invite": judge.invite("FRANCE"), "name": "Bob"})
    assert r.status_code == 200, r.text
    link = r.json()["return_url"]
    assert link.startswith("http://testserver/return/")
    browser = come_back(app, link.replace("http://testserver", ""))
    page = browser.get(f"/games/{judge.game['id']}")
    assert "you play <strong>France</strong>" in page.text
    # An account joining has no return link: its password is the way back.
    alice = judge.user("alice")
    r = judge.client.post("/api/join", json={"invite": judge.invite("GERMANY")},
                          headers=alice.headers)
    assert r.status_code == 200, r.text
    assert r.json()["return_url"] is None
