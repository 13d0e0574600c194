"""Bad input gets a clear 4xx answer, never a 500."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@pytest.fixture
def game(standard_game):  # type: ignore[no-untyped-def]
    judge, gm, france, germany = standard_game
    return judge, gm, france, germany, judge.game["id"]


@pytest.mark.parametrize("orders, fragment", [
    ("A Par - Bur", "list"),
    ([1, 2], "string"),
    ([["A Par - Bur"]], "string"),
    (["A Par\x00 - Bur"], "NUL"),
    (["x" * 501], "500 characters"),
    (["A Par H"] * 201, "200 items"),
])
def test_malformed_order_bodies_are_422(game, orders, fragment):
    judge, _gm, france, _germany, gid = game
    r = judge.client.put(f"/api/games/{gid}/orders", json={"phase": "S1901M", "orders": orders},
                         headers=france.headers)
    assert r.status_code == 422, r.text
    assert fragment in r.json()["detail"]


def test_unreadable_orders_are_stored_and_explained(game):
    judge, _gm, france, _germany, _gid = game
    lines = ["", "A", "Par Bur", "A Par - - Bur", "F Bre S F Bre", "BUILD A PAR", "🙂 - 🙃",
             "A Par - Bur VIA CONVOY VIA CONVOY", "A Par -> Bur", "A PAR-BUR;"]
    r = judge.orders(france, lines)
    assert r.status_code == 200
    checks = r.json()["checks"]
    assert len(checks) == len(lines) - 1  # the blank line is no order
    assert all(c["problem"] for c in checks if not c["ok"])


def test_bad_phase_codes(game):
    judge, _gm, france, _germany, _gid = game
    r = judge.orders(france, ["A Par H"], phase="Spring")
    assert r.status_code == 400 and "is not a phase code" in r.json()["detail"]
    r = judge.orders(france, ["A Par H"], phase="F1905M")
    assert r.status_code == 409 and "current phase is S1901M" in r.json()["detail"]


def test_broken_json_and_wrong_content(game):
    judge, _gm, france, _germany, gid = game
    url = f"/api/games/{gid}/orders"
    for content, ctype in (('{"phase": "S1901M", "orders": [', "application/json"),
                           ("phase=S1901M", "application/x-www-form-urlencoded"),
                           ("\xff\xfe", "application/json"), ("", "application/json")):
        r = judge.client.put(url, content=content.encode("latin-1"),
                             headers={**france.headers, "content-type": ctype})
        assert r.status_code == 422, (content, r.status_code, r.text)
    r = judge.client.put(url, json={"phase": "S1901M", "orders": [], "extra": 1},
                         headers=france.headers)
    assert r.status_code == 422 and "extra" in r.text


def test_oversized_bodies_are_413(game):
    judge, _gm, france, _germany, gid = game
    big = {"phase": "S1901M", "orders": ["A Par H " + "x" * 400] * 200}
    assert len(json.dumps(big)) > judge.settings.max_body_bytes
    r = judge.client.put(f"/api/games/{gid}/orders", json=big, headers=france.headers)
    assert r.status_code == 413 and "larger than" in r.json()["detail"]

    def chunks():  # no Content-Length: the limit is counted as the body streams in
        yield b'{"phase": "S1901M", "orders": ['
        for _ in range(400):
            yield b'"' + b"x" * 400 + b'",'
        yield b'"A Par H"]}'

    r = judge.client.put(f"/api/games/{gid}/orders", content=chunks(),
                         headers={**france.headers, "content-type": "application/json"})
    assert r.status_code == 413
    r = judge.client.post(f"/games/{gid}/orders", content=b"x" * 70_000,
                          headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    r = judge.client.put(f"/api/games/{gid}/orders", content=b"{}",
                         headers={**france.headers, "content-length": "banana",
                                  "content-type": "application/json"})
    assert r.status_code == 400


def test_unknown_games_are_404(judge):
    gm = judge.user("gm")
    for path in ("/api/games/nope", "/api/games/nope/orders", "/api/games/nope/phases",
                 "/api/games/nope/phases/S1901M", "/api/games/" + "x" * 500,
                 "/api/games/%00", "/api/games/nope/messages"):
        r = judge.client.get(path, headers=gm.headers)
        assert r.status_code == 404 and r.json() == {"detail": "not found"}, path
    for invite in ("not-a-real-invitation", "\x00", "a b", "é" * 10):
        r = judge.client.post("/api/join", json={"invite": invite})
        # NUL breaks the schema's no-NUL rule for every text: 422, as the schema says
        assert r.status_code == (422 if "\x00" in invite else 404), invite
        assert judge.client.get("/join/" + quote(invite)).status_code == 404
    r = judge.client.get("/api/no/such/route", headers=gm.headers)
    assert r.status_code == 404 and r.json() == {"detail": "not found"}


def test_forged_expired_and_malformed_tokens_are_401(judge):
    gm = judge.user("gm")
    for header in ("Bearer forged.token.value", "Bearer " + gm.token[:-3] + "abc",
                   "Basic Z206cGFzc3dvcmQ=", "Bearer", "Bearer " + "x" * 5000):
        r = judge.client.get("/api/me", headers={"Authorization": header})
        assert r.status_code == 401, header
        assert r.headers["www-authenticate"] == "Bearer"
    r = judge.client.get("/api/me")
    assert r.status_code == 401 and "log in first" in r.json()["detail"]
    judge.clock.advance(seconds=judge.settings.session_max_age + 1)
    r = judge.client.get("/api/me", headers=gm.headers)
    assert r.status_code == 401 and "expired" in r.json()["detail"]


def test_a_token_from_another_server_is_refused(judge, app):
    from calhamer.server.security import Signer

    other = Signer("another-secret", 3600, judge.clock)
    r = judge.client.get("/api/me", headers={"Authorization": "Bearer " + other.token(1, 0)})
    assert r.status_code == 401
    cookie = app.state.signer.cookie  # a cookie is not a bearer token
    from calhamer.server.security import SessionData

    r = judge.client.get("/api/me",
                         headers={"Authorization": "Bearer " + cookie(SessionData(1, 0, "x"))})
    assert r.status_code == 401


def test_bad_game_settings(judge):
    gm = judge.user("gm")
    for body in ({"press": "loud"}, {"deadlines": {"movement": -1}},
                 {"deadlines": {"movement": 10 ** 9}}, {"name": "x" * 81},
                 {"variant": "x" * 300}, {"deadlines": "soon"}):
        r = judge.client.post("/api/games", json=body, headers=gm.headers)
        assert r.status_code == 422, body


def test_bad_control_and_messages(game):
    judge, gm, france, _germany, gid = game
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "explode"},
                          headers=gm.headers)
    assert r.status_code == 422
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "extend",
                                                             "minutes": 0}, headers=gm.headers)
    assert r.status_code == 422
    for body in ({"body": ""}, {"body": "x" * 5001}, {"to": "FRANCE", "body": "hi"},
                 {"body": "a\x00b"}):
        r = judge.client.post(f"/api/games/{gid}/messages", json=body, headers=france.headers)
        assert r.status_code == 422, body
    r = judge.client.post(f"/api/games/{gid}/messages", json={"body": "   "},
                          headers=france.headers)
    assert r.status_code == 400
    r = judge.client.post(f"/api/games/{gid}/messages", json={"to": ["FRANCE"], "body": "me"},
                          headers=france.headers)
    assert r.status_code == 400 and "someone other than yourself" in r.json()["detail"]
    r = judge.client.post(f"/api/games/{gid}/seats/NARNIA/replace", headers=gm.headers)
    assert r.status_code == 404


def test_bad_page_forms_are_400_pages(app):
    from test_pages import Browser

    browser = Browser(app)
    browser.get("/")
    for form in ({"movement": "soon"}, {"movement": "-5"}, {"press": "loud"},
                 {"variant": "nope"}, {"name": "x" * 200}):
        r = browser.client.post("/games", data={"csrf_token": browser.csrf, **form})
        assert r.status_code == 400, form
        assert "New game" in r.text  # the form comes back, with the problem
    r = browser.client.post("/games", content=b"csrf_token=" + browser.csrf.encode()
                            + b"&name=%ff%fe%00",
                            headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code < 500


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(max_size=60), max_size=6))
def test_any_order_text_gets_an_answer(game, lines):
    judge, _gm, france, _germany, gid = game
    r = judge.client.post(f"/api/games/{gid}/orders/check", json={"orders": lines},
                          headers=france.headers)
    assert r.status_code in (200, 422), r.text
    if r.status_code == 200:
        assert all(c["ok"] or c["problem"] for c in r.json())


def test_no_route_answers_500_to_junk(game):
    """Junk bodies and a method no path takes: never a 500, and (issue 27, finding 7) every
    error answer of the API as its OpenAPI schema declares it."""
    from schema_check import undeclared
    from test_authority import RULES

    judge, gm, france, _germany, gid = game
    openapi = judge.client.get("/openapi.json").json()
    junk_bodies = [b'{"a":', b"\x00\xff", b'{"orders": null, "phase": 7}',
                   b'{"phase": "S1901M\\u0000", "orders": ["A Par H\\u0000"], "bids": [],'
                   b' "name": "\\u202e", "to": ["\\u0000"], "body": "x", "thread": "A",'
                   b' "last": 99999999999, "invite": "\\u0000", "action": "extend",'
                   b' "minutes": 99999999, "ready": true}']
    for method, path in RULES:
        if path in ("/logout", "/api/sessions") and method in ("POST", "DELETE"):
            continue  # ending the sessions used below
        url = (path.replace("{game_id}", gid).replace("{code}", "S1901M")
               .replace("{power}", "FRANCE").replace("{token}", "junk"))
        for body in junk_bodies:
            for headers in (france.headers, gm.headers if "{game_id}" in path else {}):
                r = judge.client.request(method, url, content=body,
                                         headers={**headers, "content-type": "application/json"})
                assert r.status_code < 500, (method, url, body, r.status_code, r.text[:200])
                if path.startswith("/api"):
                    assert undeclared(openapi, method, path, r) is None, (body, r.text)
        other = "PATCH"
        r = judge.client.request(other, url, headers=france.headers)
        assert r.status_code == 405
        assert method in r.headers["allow"].split(", ")
        if path.startswith("/api"):
            assert undeclared(openapi, other, path, r) is None


def test_a_body_it_cannot_read_tells_a_stranger_nothing(game):
    """Saving orders settles who is asking before the body is read, in one trip to a thread:
    with a body that is not valid, as with a valid one, a stranger and a game that does not
    exist get the same 404, a missing or logged-out token 401, and only the player a 422."""
    judge, _gm, france, germany, gid = game
    url = f"/api/games/{gid}/orders"
    bad = {"phase": "S1901M", "orders": "A Par - Bur"}
    good = {"phase": "S1901M", "orders": ["A Par - Bur"]}
    stranger = judge.user("stranger")
    answers = {}
    for name, body in (("bad", bad), ("good", good)):
        for who, target, headers in (("stranger", url, stranger.headers),
                                     ("no game", "/api/games/nosuchgame0/orders",
                                      france.headers),
                                     ("malformed id", "/api/games/no%20such/orders",
                                      france.headers),
                                     ("no token", url, {})):
            r = judge.client.put(target, json=body, headers=headers)
            answers[name, who] = (r.status_code, r.json())
    for who in ("stranger", "no game", "malformed id"):
        assert answers["bad", who] == answers["good", who] == answers["good", "stranger"]
        assert answers["bad", who][0] == 404
    assert answers["bad", "no token"] == answers["good", "no token"]
    assert answers["bad", "no token"][0] == 401
    r = judge.client.put(url, json=bad, headers=france.headers)
    assert r.status_code == 422 and "list" in r.json()["detail"]
    # Germany logs out everywhere: its token is refused before its body is read
    assert judge.client.delete("/api/sessions", headers=germany.headers).status_code == 204
    for body in (bad, good):
        r = judge.client.put(url, json=body, headers=germany.headers)
        assert r.status_code == 401 and "session has ended" in r.json()["detail"], r.text
    # a token that is not ours at all
    r = judge.client.put(url, json=bad, headers={"Authorization": "Bearer forged"})
    assert r.status_code == 401 and "not valid" in r.json()["detail"]
