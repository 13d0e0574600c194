"""The HTML pages, driven with plain form posts as a browser without JavaScript would."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from calhamer.server.security import COOKIE


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match[1]


class Browser:
    """One person's browser: its own cookie jar, and the CSRF token of the last page."""

    def __init__(self, app) -> None:  # type: ignore[no-untyped-def]
        self.client = TestClient(app, follow_redirects=True)
        self.csrf = ""

    def get(self, url: str, status: int = 200):  # type: ignore[no-untyped-def]
        r = self.client.get(url)
        assert r.status_code == status, r.text
        if 'name="csrf_token"' in r.text:
            self.csrf = csrf_of(r.text)
        return r

    def post(self, url: str, data: dict | None = None, status: int = 200):  # type: ignore[no-untyped-def]
        r = self.client.post(url, data={"csrf_token": self.csrf, **(data or {})})
        assert r.status_code == status, r.text
        if 'name="csrf_token"' in r.text:
            self.csrf = csrf_of(r.text)
        return r


def invite_links(html: str) -> dict[str, str]:
    links = {}
    for power, row in re.findall(r'<tr data-power="(\w+)">(.*?)</tr>', html, re.S):
        found = re.search(r'value="(http[^"]+/join/[^"]+)"', row)
        if found:
            links[power] = found[1]
    return links


def gm_creates_a_game(app, **form):  # type: ignore[no-untyped-def]
    gm = Browser(app)
    home = gm.get("/")
    assert "New game" in home.text
    page = gm.post("/games", {"name": "Friday game", "gm_name": "Alice", "variant": "standard",
                              "rules": "", "press": "full", "movement": "60", "retreat": "30",
                              "adjustment": "30", **form})
    assert "Friday game" in page.text and "you are the gamemaster" in page.text
    game_url = str(page.url).replace("http://testserver", "")
    return gm, game_url, invite_links(page.text)


def join(app, link: str, name: str):  # type: ignore[no-untyped-def]
    player = Browser(app)
    page = player.get(link.replace("http://testserver", ""))
    assert "You are invited to play" in page.text
    return player, player.post(link.replace("http://testserver", ""), {"name": name})


def test_a_game_played_through_the_pages(app, judge):
    gm, game_url, links = gm_creates_a_game(app)
    assert sorted(links) == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA",
                             "TURKEY"]
    france, page = join(app, links["FRANCE"], "Bob")
    assert "you play <strong>France</strong>" in page.text
    assert "Your units: A MAR, A PAR, F BRE" in page.text
    germany, _ = join(app, links["GERMANY"], "Carol")

    page = france.post(f"{game_url}/orders", {"phase": "S1901M", "action": "save",
                                              "orders": "A Par - Bur\nA Mar - Tryolia"})
    assert "Orders saved" in page.text
    assert "&#10003; A PAR - BUR" in page.text
    assert "did you mean Tyrolia (TYR)?" in page.text
    germany.post(f"{game_url}/orders", {"phase": "S1901M", "action": "ready",
                                        "orders": "A Mun - Bur"})

    page = gm.get(game_url)
    assert "Carol" in page.text and "Bob" in page.text
    assert "A Mun - Bur" in page.text  # the gamemaster sees everyone's orders
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert judge.process()

    page = france.get(game_url)
    assert "Results of Spring 1901 Movement" in page.text
    assert "Bounced" in page.text
    assert "Fall 1901 Movement" in page.text
    history = france.get(f"{game_url}/phases")
    assert "Spring 1901 Movement" in history.text
    result = france.get(f"{game_url}/phases/S1901M")
    assert "A PAR - BUR" in result.text and "A MUN - BUR" in result.text
    export = france.get(f"{game_url}/phases/S1901M/export")
    assert export.headers["content-type"] == "application/json"
    assert export.json()["orders"]["GERMANY"] == ["A Mun - Bur"]


def test_players_see_only_their_own_orders_before_adjudication(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    germany, _ = join(app, links["GERMANY"], "Carol")
    france.post(f"{game_url}/orders", {"phase": "S1901M", "orders": "A Par - Pic"})
    page = germany.get(game_url)
    assert "A Par - Pic" not in page.text and "A PAR - PIC" not in page.text
    current = germany.get(f"{game_url}/phases/S1901M/export").json()
    assert current["orders"] == {}


def test_live_check_needs_the_csrf_header(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    url = f"{game_url}/orders/check"
    r = france.client.post(url, json={"orders": ["F Bre - Mao"]})
    assert r.status_code == 403
    r = france.client.post(url, json={"orders": ["F Bre - Mao"]},
                           headers={"X-CSRF-Token": france.csrf})
    assert r.status_code == 200 and r.json()[0]["canonical"] == "F BRE - MAO"


def test_every_form_post_needs_the_csrf_token(app):
    gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    for browser, url, data in (
        (france, f"{game_url}/orders", {"phase": "S1901M", "orders": "A Par - Bur"}),
        (france, f"{game_url}/messages", {"body": "hello"}),
        (gm, f"{game_url}/control", {"action": "pause"}),
        (gm, f"{game_url}/seats/FRANCE/replace", {}),
        (gm, "/games", {"name": "x"}),
        (gm, "/logout", {}),
    ):
        for token in ("", "forged-token"):
            r = browser.client.post(url, data={"csrf_token": token, **data})
            assert r.status_code == 403, (url, token, r.status_code)
            assert "reload the page" in r.text


def test_press_through_the_pages(app):
    gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    germany, _ = join(app, links["GERMANY"], "Carol")
    italy, _ = join(app, links["ITALY"], "Dan")
    france.post(f"{game_url}/messages", {"to": "GERMANY", "body": "Let us share Belgium"})
    gm.post(f"{game_url}/messages", {"to": "ALL", "body": "Deadline is firm"})
    assert "Let us share Belgium" in germany.get(game_url).text
    assert "Let us share Belgium" not in italy.get(game_url).text
    assert "Deadline is firm" in italy.get(game_url).text
    assert "Let us share Belgium" in gm.get(game_url).text


def test_gm_controls_through_the_pages(app):
    gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    page = gm.post(f"{game_url}/control", {"action": "pause"})
    assert "paused by the gamemaster" in page.text
    page = gm.post(f"{game_url}/control", {"action": "resume"})
    assert "deadline" in page.text
    for minutes in ("abc", "99999999999999", "-3", "1.5"):
        page = gm.post(f"{game_url}/control", {"action": "extend", "minutes": minutes},
                       status=400)
        assert "whole number" in page.text
    page = gm.post(f"{game_url}/control", {"action": "explode"}, status=400)
    old_link = links["FRANCE"]
    page = gm.post(f"{game_url}/seats/FRANCE/replace")
    row = re.search(r'<tr data-power="FRANCE">(.*?)</tr>', page.text, re.S)[1]
    assert "nobody yet" in row and "Bob" not in row
    assert invite_links(page.text)["FRANCE"] != old_link
    assert france.client.get(game_url).status_code == 404
    page = gm.post(f"{game_url}/control", {"action": "end"})
    assert "the game is over" in page.text


def test_guest_signs_up_and_keeps_their_games(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    france.get("/signup")
    page = france.post("/signup", {"username": "bob", "password": "long enough pw"})
    assert "Friday game" in page.text  # the home page lists the guest's game
    france.get("/")
    france.post("/logout")
    assert france.client.get(game_url).status_code == 404
    france.get("/login")
    page = france.post("/login", {"username": "bob", "password": "long enough pw"})
    assert "Friday game" in page.text
    assert france.client.get(game_url).status_code == 200


def test_login_with_a_wrong_password(app):
    browser = Browser(app)
    browser.get("/login")
    page = browser.post("/login", {"username": "nobody", "password": "whatever1"}, status=400)
    assert "wrong user name or password" in page.text


def test_signup_errors_are_shown_on_the_form(app):
    browser = Browser(app)
    browser.get("/signup")
    page = browser.post("/signup", {"username": "x y", "password": "short"}, status=400)
    assert "username" in page.text and "password" in page.text


def test_a_forged_session_cookie_is_a_401_then_a_fresh_session(app):
    _gm, game_url, _links = gm_creates_a_game(app)
    browser = Browser(app)
    browser.client.cookies.set(COOKIE, "forged.cookie.value")
    r = browser.client.get(game_url)
    assert r.status_code == 401 and "log in again" in r.text
    r = browser.client.get("/")
    assert r.status_code == 200


def test_an_expired_session_cookie_is_a_401(app, clock):
    gm, game_url, _links = gm_creates_a_game(app)
    clock.advance(seconds=app.state.settings.session_max_age + 1)
    r = gm.client.get(game_url)
    assert r.status_code == 401 and "expired" in r.text
    assert gm.client.get(game_url).status_code == 404  # the cookie was replaced: a stranger now


def test_unknown_pages_and_games_are_the_same_404(app):
    gm, game_url, _links = gm_creates_a_game(app)
    stranger = Browser(app)
    mine = gm.client.get("/games/doesnotexist")
    hidden = stranger.client.get(game_url)
    nothing = stranger.client.get("/games/doesnotexist")
    assert mine.status_code == hidden.status_code == nothing.status_code == 404
    strip = re.compile(r'name="csrf_token" value="[^"]+"|<nav>.*?</nav>', re.S)
    assert strip.sub("", hidden.text) == strip.sub("", nothing.text)
    assert stranger.client.get("/join/not-a-token").status_code == 404


def test_pages_carry_security_headers(client):
    r = client.get("/")
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "same-origin"  # invitation links stay on the site
    assert "default-src 'self'" in r.headers["content-security-policy"]
    # /docs too: its files are served from here (test_issue27_schema_and_names.py)
    assert "default-src 'self'" in client.get("/docs").headers["content-security-policy"]


def test_deadlines_are_shown_with_the_time_left():
    from datetime import datetime, timedelta

    from calhamer.server.pages import _until

    now = datetime(2026, 1, 1, 12, 0)
    assert _until(now + timedelta(hours=3, minutes=20), now) == "in 3 h 20 min"
    assert _until(now + timedelta(days=2, hours=1, minutes=5), now) == "in 2 d 1 h"
    assert _until(now + timedelta(seconds=45), now) == "in 45 s"
    assert _until(now - timedelta(seconds=1), now) == "now"


def test_the_page_reloads_itself_while_a_phase_is_adjudicated(app):
    gm, game_url, _links = gm_creates_a_game(app)
    page = gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert '<meta http-equiv="refresh"' in page.text and "being adjudicated" in page.text
