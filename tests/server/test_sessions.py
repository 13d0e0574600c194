"""Finding 2 of issue 27: sessions can be ended.

Logging out ends this browser's session (its cookie, copied anywhere, opens nothing); a
guest's new return link and a guest's sign-up end every other session of the guest (whoever
came in with a leaked link is logged out); the sessions page lists a user's browsers and API
tokens and ends one or all of them. Every credential is a row of ``login_sessions``.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from test_guests import come_back, return_link_of
from test_pages import Browser, gm_creates_a_game, join

from calhamer.server.models import User
from calhamer.server.security import COOKIE, SessionData
from conftest import PASSWORD

SESSION_ROW = re.compile(r'<tr data-session="(\d+)"( class="current")?>(.*?)</tr>', re.S)


def with_cookie(app: Any, cookie: str) -> TestClient:
    """Another browser holding a copy of ``cookie`` (a stolen or copied one)."""
    client = TestClient(app, follow_redirects=False)
    client.cookies.set(COOKIE, cookie)
    return client


def logged_in_as(client: TestClient) -> str | None:
    """Who the account page says is logged in (None: it sends the browser to log in)."""
    r = client.get("/account", follow_redirects=False)
    if r.status_code in (302, 303, 307):
        assert r.headers["location"] == "/login"
        return None
    assert r.status_code == 200, r.text
    found = re.search(r"Name shown to others: <strong>([^<]+)</strong>", r.text)
    assert found
    return found[1]


def signed_up(app: Any, name: str) -> Browser:
    browser = Browser(app)
    browser.get("/signup")
    browser.post("/signup", {"username": name, "password": PASSWORD})
    return browser


def logged_in(app: Any, name: str) -> Browser:
    browser = Browser(app)
    browser.get("/login")
    browser.post("/login", {"username": name, "password": PASSWORD})
    return browser


def sessions_listed(browser: Browser) -> list[tuple[int, bool, str]]:
    page = browser.get("/account/sessions")
    return [(int(i), bool(current), re.sub(r"\s+", " ", cells))
            for i, current, cells in SESSION_ROW.findall(page.text)]


def test_finding2_an_old_cookie_after_logout_is_refused(app: Any) -> None:
    alice = signed_up(app, "alice")
    cookie = alice.client.cookies[COOKIE]
    assert logged_in_as(with_cookie(app, cookie)) == "alice"
    alice.post("/logout")
    assert alice.client.cookies[COOKIE] != cookie  # this browser got a fresh cookie...
    copy = with_cookie(app, cookie)  # ...and the old one, kept anywhere, opens nothing
    assert logged_in_as(copy) is None
    r = copy.post("/logout", data={"csrf_token": "x"})  # it cannot act either
    assert r.status_code == 403


def test_finding2_logging_out_leaves_the_other_sessions(app: Any) -> None:
    signed_up(app, "alice")
    laptop, phone = logged_in(app, "alice"), logged_in(app, "alice")
    laptop.post("/logout")
    assert logged_in_as(with_cookie(app, laptop.client.cookies[COOKIE])) is None
    assert logged_in_as(phone.client) == "alice"


def test_finding2_a_session_opened_with_an_old_return_link_is_ended_by_a_new_link(
        app: Any) -> None:
    _gm, game_url, links = gm_creates_a_game(app)
    bob, page = join(app, links["FRANCE"], "Bob")
    leaked = return_link_of(page.text)
    thief = come_back(app, leaked)  # someone who found the link
    assert thief.get(game_url).status_code == 200
    bob.get("/account")
    page = bob.post("/account/return-link")
    assert thief.client.get(game_url).status_code == 401  # their session has ended
    assert logged_in_as(thief.client) is None
    assert thief.client.get(leaked).status_code == 404  # and the link opens nothing
    # Bob's own browser stays in, with the new link.
    assert "you play <strong>France</strong>" in bob.get(game_url).text
    assert come_back(app, return_link_of(page.text)).get(game_url).status_code == 200
    assert "every other browser or token that was logged in as you has been logged out" \
        in page.text


def test_finding2_a_new_return_link_ends_the_guests_api_tokens(app: Any, judge: Any) -> None:
    gm = judge.user("gm")
    judge.new_game(gm)
    r = judge.client.post("/api/join", json={"invite": judge.invite("FRANCE"), "name": "Bot"})
    token, link = r.json()["token"], r.json()["return_url"]
    auth = {"Authorization": f"Bearer {token}"}
    assert judge.client.get("/api/me", headers=auth).status_code == 200
    browser = come_back(app, link.replace("http://testserver", ""))
    browser.get("/account")
    browser.post("/account/return-link")
    r = judge.client.get("/api/me", headers=auth)
    assert r.status_code == 401 and r.json()["detail"] == "your session has ended; log in again"


def test_finding2_a_guests_pre_signup_session_is_ended_by_the_signup(app: Any) -> None:
    _gm, game_url, links = gm_creates_a_game(app)
    bob, page = join(app, links["FRANCE"], "Bob")
    elsewhere = come_back(app, return_link_of(page.text))  # the guest's other browser
    old_cookie = bob.client.cookies[COOKIE]
    bob.get("/signup")
    bob.post("/signup", {"username": "bob", "password": PASSWORD})
    assert "you play <strong>France</strong>" in bob.get(game_url).text  # signed up, still in
    assert bob.client.cookies[COOKIE] != old_cookie
    for before in (elsewhere.client, with_cookie(app, old_cookie)):
        assert before.get(game_url).status_code == 401
        assert logged_in_as(before) is None


def test_finding2_the_sessions_page_lists_and_ends_sessions(app: Any, judge: Any,
                                                            clock: Any) -> None:
    laptop = signed_up(app, "alice")
    phone = TestClient(app, client=("192.0.2.7", 5000), follow_redirects=True,
                       headers={"User-Agent": "PhoneBrowser/1.0"})
    page = phone.get("/login")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert csrf
    phone.post("/login", data={"csrf_token": csrf[1], "username": "alice",
                               "password": PASSWORD})
    r = judge.client.post("/api/sessions", json={"username": "alice", "password": PASSWORD})
    token = {"Authorization": f"Bearer {r.json()['token']}"}

    listed = sessions_listed(laptop)
    assert len(listed) == 3
    assert [current for _id, current, _cells in listed].count(True) == 1
    mine = next(cells for _id, current, cells in listed if current)
    assert "Browser" in mine and "(this one)" in mine
    phones = [(i, cells) for i, _c, cells in listed if "192.0.2.7" in cells]
    assert len(phones) == 1 and "PhoneBrowser/1.0" in phones[0][1]
    assert sum("API token" in cells for _i, _c, cells in listed) == 1

    # The API lists the same sessions, the token's own marked.
    r = judge.client.get("/api/sessions", headers=token)
    assert r.status_code == 200, r.text
    assert {s["id"] for s in r.json()} == {i for i, _c, _cells in listed}
    assert [s["kind"] for s in r.json() if s["current"]] == ["api"]

    # Ending the phone's session logs the phone out, and nobody else.
    laptop.post(f"/account/sessions/{phones[0][0]}/end")
    assert logged_in_as(phone) is None
    assert logged_in_as(laptop.client) == "alice"
    assert judge.client.get("/api/me", headers=token).status_code == 200
    assert len(sessions_listed(laptop)) == 2

    # "End every other session": the token too; this browser stays.
    laptop.post("/account/sessions/end-others")
    assert judge.client.get("/api/me", headers=token).status_code == 401
    listed = sessions_listed(laptop)
    assert [(current, "Browser" in cells) for _i, current, cells in listed] == [(True, True)]

    # Ending this browser's own session is logging out.
    laptop.post(f"/account/sessions/{listed[0][0]}/end")
    assert logged_in_as(laptop.client) is None


def test_finding2_nobody_ends_another_accounts_session(app: Any, judge: Any) -> None:
    alice = judge.user("alice")
    bob = judge.user("bob")
    alices = judge.client.get("/api/sessions", headers=alice.headers).json()
    assert len(alices) == 1
    r = judge.client.delete(f"/api/sessions/{alices[0]['id']}", headers=bob.headers)
    assert r.status_code == 404
    browser = logged_in(app, "bob")
    page = browser.post(f"/account/sessions/{alices[0]['id']}/end", status=404)
    assert "not found" in page.text
    assert judge.client.get("/api/me", headers=alice.headers).status_code == 200
    # Alice may end her own token through the API.
    assert judge.client.delete(f"/api/sessions/{alices[0]['id']}",
                               headers=alice.headers).status_code == 204
    assert judge.client.get("/api/me", headers=alice.headers).status_code == 401


def test_finding2_last_seen_and_address_are_kept_roughly(app: Any, judge: Any,
                                                         clock: Any) -> None:
    alice = judge.user("alice")
    first = judge.client.get("/api/sessions", headers=alice.headers).json()[0]
    clock.advance(seconds=60)  # within the touch interval: not written again
    there = TestClient(app, client=("198.51.100.4", 1))
    there.get("/api/me", headers=alice.headers)
    assert judge.client.get("/api/sessions", headers=alice.headers).json()[0] == first
    clock.advance(seconds=judge.settings.session_touch_seconds)
    there.get("/api/me", headers=alice.headers)
    now = judge.client.get("/api/sessions", headers=alice.headers).json()[0]
    assert now["address"] == "198.51.100.4" and now["last_seen"] > first["last_seen"]
    assert now["created_at"] == first["created_at"]


def test_finding2_logging_out_everywhere_ends_browsers_too(app: Any, judge: Any) -> None:
    alice = judge.user("alice")
    browser = logged_in(app, "alice")
    assert judge.client.delete("/api/sessions", headers=alice.headers).status_code == 204
    assert logged_in_as(browser.client) is None
    assert judge.client.get("/api/me", headers=alice.headers).status_code == 401


def test_finding2_a_cookie_from_before_sessions_had_rows_gets_one_and_can_end(
        app: Any, judge: Any) -> None:
    """A credential signed before the upgrade (no row, no session nonce) keeps working, is
    listed once used, and can be ended like any other: the upgrade logs nobody out."""
    from calhamer.server.models import LoginSession

    alice = judge.user("alice")
    old = app.state.signer.cookie(SessionData(alice.user_id, 0, "old-csrf"))
    browser = with_cookie(app, old)
    assert logged_in_as(browser) == "alice"
    with judge.database.session() as session:
        kinds = sorted(s.kind for s in session.scalars(select(LoginSession)))
    assert kinds == ["api", "browser"]
    r = browser.post("/logout", data={"csrf_token": "old-csrf"})
    assert r.status_code == 303
    assert logged_in_as(with_cookie(app, old)) is None


def test_finding2_ended_rows_are_kept_until_their_credential_expires(app: Any, judge: Any,
                                                                     clock: Any) -> None:
    """A row is cleared only once its credential has expired: an ended session cannot come
    back as a new row."""
    from calhamer.server.models import LoginSession

    alice = judge.user("alice")
    judge.client.delete("/api/sessions", headers=alice.headers)
    clock.advance(seconds=judge.settings.session_max_age - 10)
    judge.user("bob")  # a login clears the rows nobody can use any more
    with judge.database.session() as session:
        assert session.scalar(select(User.id).where(User.username == "alice")) is not None
        assert len(list(session.scalars(select(LoginSession)))) == 2
    clock.advance(seconds=20)
    assert judge.client.get("/api/me", headers=alice.headers).status_code == 401  # expired
    judge.user("carol")
    with judge.database.session() as session:
        users = {s.user_id for s in session.scalars(select(LoginSession))}
    assert alice.user_id not in users
