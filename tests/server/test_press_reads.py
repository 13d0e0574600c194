"""Read marks of conversations belong to the account, not the browser: a thread read in one
browser is read in every other, a new message makes it unread again, the gamemaster's
announcements carry no mark, and a mark never goes back."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from calhamer.server.security import COOKIE, SessionData
from conftest import Judge, Player


def _account_player(judge: Judge, power: str) -> Player:
    player = judge.user(power.lower() + "acct")
    r = judge.client.post("/api/join", headers=player.headers,
                          json={"invite": judge.invite(power)})
    assert r.status_code == 200, r.text
    player.power = power
    return player


def _browser(judge: Judge, player: Player, csrf: str) -> tuple[TestClient, str]:
    """A browser of its own (its own cookie jar and CSRF nonce) logged in as ``player``."""
    app: Any = judge.client.app
    client = TestClient(app, follow_redirects=False)
    client.cookies.set(COOKIE, app.state.signer.cookie(SessionData(player.user_id, 0, csrf)))
    return client, csrf


def _markers(client: TestClient, game_id: str) -> dict[str, tuple[str, str | None]]:
    """Each thread of the game page: (its latest message's id, its unread marker or None)."""
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200, page.text
    out = {}
    for m in re.finditer(r'<details class="thread[^"]*" data-thread="([^"]+)" '
                         r'data-last="(\d+)">\s*<summary>.*?<span class="unread"( hidden)?>'
                         r"([^<]*)</span>", page.text, flags=re.S):
        out[m.group(1)] = (m.group(2), None if m.group(3) else m.group(4))
    return out


def _send(judge: Judge, player: Player, body: str, to: list[str]) -> int:
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages", headers=player.headers,
                          json={"body": body, "to": to})
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


def test_a_thread_read_in_one_browser_is_read_in_another(judge: Judge) -> None:
    gm = judge.user("gm")
    judge.new_game(gm)
    gid = judge.game["id"]
    france, germany = _account_player(judge, "FRANCE"), _account_player(judge, "GERMANY")
    _send(judge, germany, "Burgundy?", ["FRANCE"])
    _send(judge, germany, "Or Belgium?", ["FRANCE"])
    _send(judge, germany, "Hello all", [])
    _send(judge, gm, "Deadlines are firm", [])  # an announcement: no thread, no marker
    laptop, laptop_csrf = _browser(judge, france, "laptop-nonce")
    phone, _ = _browser(judge, france, "phone-nonce")

    seen = _markers(laptop, gid)
    assert set(seen) == {"FRANCE+GERMANY", "ALL"}
    assert seen["FRANCE+GERMANY"][1] == "2 new" and seen["ALL"][1] == "1 new"
    assert _markers(phone, gid) == seen

    last = seen["FRANCE+GERMANY"][0]
    r = laptop.post(f"/games/{gid}/threads/read", data={"thread": "FRANCE+GERMANY",
                                                        "last": last},
                    headers={"X-CSRF-Token": laptop_csrf})
    assert r.status_code == 204, r.text
    on_phone = _markers(phone, gid)
    assert on_phone["FRANCE+GERMANY"] == (last, None)  # read, in the other browser too
    assert on_phone["ALL"][1] == "1 new"  # the other thread is untouched

    later = _send(judge, germany, "Agreed?", ["FRANCE"])
    assert _markers(phone, gid)["FRANCE+GERMANY"] == (str(later), "1 new")
    assert _markers(laptop, gid)["FRANCE+GERMANY"] == (str(later), "1 new")
    _send(judge, france, "Yes", ["GERMANY"])  # one's own message is never new to one
    assert _markers(phone, gid)["FRANCE+GERMANY"][1] == "1 new"

    # Germany's marks are Germany's: France reading changed nothing for them.
    r = judge.client.get(f"/api/games/{gid}/threads", headers=germany.headers)
    theirs = {t["thread"]: t for t in r.json()}
    assert theirs["FRANCE+GERMANY"]["last_read"] == 0
    assert theirs["FRANCE+GERMANY"]["unread"] == 1  # France's "Yes": the only one not theirs
    assert theirs["ALL"]["unread"] == 0  # they wrote it


def test_read_marks_over_the_api(judge: Judge) -> None:
    gm = judge.user("gm")
    judge.new_game(gm)
    gid = judge.game["id"]
    france, germany = _account_player(judge, "FRANCE"), _account_player(judge, "GERMANY")
    first = _send(judge, germany, "one", ["FRANCE"])
    second = _send(judge, germany, "two", ["FRANCE"])
    url = f"/api/games/{gid}/threads"
    [thread] = judge.client.get(url, headers=france.headers).json()
    assert thread == {"thread": "FRANCE+GERMANY", "members": ["FRANCE", "GERMANY"],
                      "messages": 2, "last": second, "last_read": 0, "unread": 2}
    r = judge.client.post(url + "/read", headers=france.headers,
                          json={"thread": "FRANCE+GERMANY", "last": first})
    assert r.status_code == 200 and r.json()["unread"] == 1 and r.json()["last_read"] == first
    r = judge.client.post(url + "/read", headers=france.headers,
                          json={"thread": "FRANCE+GERMANY", "last": second})
    assert r.json()["unread"] == 0 and r.json()["last_read"] == second
    # A mark never goes back.
    r = judge.client.post(url + "/read", headers=france.headers,
                          json={"thread": "FRANCE+GERMANY", "last": first})
    assert r.status_code == 200 and r.json()["last_read"] == second
    # A message not in the thread, a thread that is not one: 404, the same answer.
    wrong = judge.client.post(url + "/read", headers=france.headers,
                              json={"thread": "ALL", "last": second})
    none = judge.client.post(url + "/read", headers=france.headers,
                             json={"thread": "NOBODY", "last": 10**6})
    assert wrong.status_code == none.status_code == 404 and wrong.text == none.text
    # Bad input: a clear 422 or 400, never a traceback.
    for body in ({"thread": "FRANCE+GERMANY"}, {"thread": "", "last": 1},
                 {"thread": "FRANCE+GERMANY", "last": "x"}, {"thread": "FRANCE+GERMANY",
                                                              "last": 0}):
        r = judge.client.post(url + "/read", headers=france.headers, json=body)
        assert r.status_code == 422, (body, r.text)


def test_the_page_route_checks_its_input(judge: Judge) -> None:
    gm = judge.user("gm")
    judge.new_game(gm)
    gid = judge.game["id"]
    france, germany = _account_player(judge, "FRANCE"), _account_player(judge, "GERMANY")
    last = _send(judge, germany, "one", ["FRANCE"])
    browser, csrf = _browser(judge, france, "a-nonce")
    url = f"/games/{gid}/threads/read"
    r = browser.post(url, data={"thread": "FRANCE+GERMANY", "last": str(last)})
    assert r.status_code == 403  # no CSRF token
    r = browser.post(url, data={"thread": "FRANCE+GERMANY", "last": "soon"},
                     headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and "Traceback" not in r.text
    r = browser.post(url, data={"thread": "FRANCE+GERMANY", "last": str(last)},
                     headers={"X-CSRF-Token": csrf})
    assert r.status_code == 204
