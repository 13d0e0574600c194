"""Issue 27, finding 4: a gamemaster who holds a seat cannot see hidden information by any route,
freeing their own seat and taking it again included, and players are told when a seat changes
hands."""

from __future__ import annotations

import json
from typing import Any

from test_pages import gm_creates_a_game, join

from conftest import Judge, Player

SECRET_ORDER = "# germany-secret-order"
SECRET_BID = "1 DP: A Bel - Zzsecret"
SECRET_PRESS = "germany to italy, quietly"


def _join(judge: Judge, who: Player, power: str, invite: str | None = None) -> Any:
    return judge.client.post("/api/join", headers=who.headers,
                             json={"invite": invite or judge.invite(power)})


def _everything(judge: Judge, who: Player) -> str:
    gid = judge.game["id"]
    return "\n".join(judge.client.get(path, headers=who.headers).text for path in (
        f"/api/games/{gid}", f"/api/games/{gid}/orders", f"/api/games/{gid}/bids",
        f"/api/games/{gid}/messages", f"/api/games/{gid}/threads", f"/api/games/{gid}/admin",
        f"/api/games/{gid}/phases/S1901M/document", f"/games/{gid}"))


def _dp_game_with_secrets(judge: Judge) -> tuple[Player, Player, Player]:
    """A DP game whose gamemaster took France; Germany and Italy joined, and Germany has
    secret orders, bids and press in."""
    gm = judge.user("host")
    judge.new_game(gm, variant="standard-dp")
    assert _join(judge, gm, "FRANCE").status_code == 200
    germany, italy = judge.join("GERMANY"), judge.join("ITALY")
    gid = judge.game["id"]
    assert judge.orders(germany, ["A Mun H", SECRET_ORDER]).status_code == 200
    r = judge.client.put(f"/api/games/{gid}/bids", headers=germany.headers,
                         json={"phase": "S1901M", "bids": [SECRET_BID]})
    assert r.status_code == 200, r.text
    r = judge.client.post(f"/api/games/{gid}/messages", headers=germany.headers,
                          json={"to": ["ITALY"], "body": SECRET_PRESS})
    assert r.status_code == 201, r.text
    return gm, germany, italy


def _secrets_in(text: str) -> list[str]:
    return [s for s in (SECRET_ORDER, "Zzsecret", SECRET_PRESS) if s in text]


# -- finding 4: a seated gamemaster switching roles --------------------------------------------


def test_issue27_4_a_gamemaster_who_frees_their_own_seat_sees_no_secret(judge):
    gm, _germany, _italy = _dp_game_with_secrets(judge)
    gid = judge.game["id"]
    assert _secrets_in(_everything(judge, gm)) == []  # seated: France's view only
    r = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert r.status_code == 200, r.text
    assert _secrets_in(_everything(judge, gm)) == []  # freed: still nothing hidden
    admin = judge.client.get(f"/api/games/{gid}/admin", headers=gm.headers).json()
    assert {s["power"]: s["orders_received"] for s in admin["seats"]}["GERMANY"] is None
    r = judge.client.get(f"/api/games/{gid}/phases/S1901M/tally", headers=gm.headers)
    assert r.status_code == 404
    # ...and back in the seat with the new invitation: as before, France's view only
    assert _join(judge, gm, "FRANCE", admin_invite(judge, gm, "FRANCE")).status_code == 200
    assert _secrets_in(_everything(judge, gm)) == []
    # once the game is over the gamemaster sees everything again
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "end"},
                          headers=gm.headers)
    assert r.status_code == 200
    assert set(_secrets_in(_everything(judge, gm))) == {SECRET_ORDER, "Zzsecret",
                                                        SECRET_PRESS}


def admin_invite(judge: Judge, gm: Player, power: str) -> str:
    admin = judge.client.get(f"/api/games/{judge.game['id']}/admin", headers=gm.headers).json()
    token = next(s["invite_token"] for s in admin["seats"] if s["power"] == power)
    assert token
    return str(token)


def _cookie_client(judge: Judge, user: Player) -> Any:
    """A browser logged in as ``user`` (a signed session cookie), for the pages."""
    from fastapi.testclient import TestClient

    from calhamer.server.security import COOKIE, SessionData

    app = judge.client.app
    client = TestClient(app, follow_redirects=False)
    client.cookies.set(COOKIE, app.state.signer.cookie(SessionData(user.user_id, 0, "c")))
    return client


def test_issue27_4_a_freed_gamemaster_in_a_fog_game_is_shown_no_board(judge):
    gm = judge.user("host")
    judge.new_game(gm, variant="kriegsplomacy")
    gid = judge.game["id"]
    assert _join(judge, gm, "FRANCE").status_code == 200
    players = {p: judge.join(p) for p in ("GERMANY", "ITALY")}
    for power, lines in (("GERMANY", ["Build A Mun"]), ("ITALY", ["Build A Ven"])):
        assert judge.orders(players[power], lines, phase="W1900A").status_code == 200
    judge.process_now(gm)
    r = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert r.status_code == 200
    browser = _cookie_client(judge, gm)
    answers = {}
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/phases/W1900A",
                 f"/api/games/{gid}/phases/W1900A/document", f"/api/games/{gid}/picture",
                 f"/api/games/{gid}/phases/W1900A/picture", f"/api/games/{gid}/orders",
                 f"/games/{gid}", f"/games/{gid}/phases/W1900A",
                 f"/games/{gid}/phases/W1900A/export", f"/games/{gid}/options",
                 f"/games/{gid}/picture", "/lobby"):
        if path.startswith("/api"):
            r = judge.client.get(path, headers=gm.headers)
        else:
            r = browser.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:300])
        answers[path] = r.text
    for path, text in answers.items():
        for unit in ("A Mun", "A MUN", "A Ven", "A VEN", "Build A"):
            assert unit not in text, (path, unit)
    view = json.loads(answers[f"/api/games/{gid}"])
    assert view["position"]["units"] == {}
    result = json.loads(answers[f"/api/games/{gid}/phases/W1900A"])
    assert result["orders"] == {} and result["results"] == {}


def test_issue27_4_a_gamemaster_who_has_read_secrets_cannot_take_a_seat(judge):
    gm = judge.user("host")
    judge.new_game(gm)
    germany = judge.join("GERMANY")
    assert judge.orders(germany, ["A Mun H", SECRET_ORDER]).status_code == 200
    r = _join(judge, gm, "FRANCE")
    assert r.status_code == 409, r.text
    assert "gamemaster" in r.json()["detail"] and "seat" in r.json()["detail"]
    # A gamemaster who took their seat before anything was hidden may leave and come back.
    judge.new_game(gm)
    assert _join(judge, gm, "FRANCE").status_code == 200
    germany = judge.join("GERMANY")
    assert judge.orders(germany, ["A Mun H", SECRET_ORDER]).status_code == 200
    gid = judge.game["id"]
    seat = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert _join(judge, gm, "FRANCE", seat.json()["invite_token"]).status_code == 200


def test_issue27_4_players_are_told_when_a_seat_changes_hands(judge):
    gm = judge.user("host")
    judge.new_game(gm)
    gid = judge.game["id"]
    assert _join(judge, gm, "ITALY").status_code == 200
    france, germany = judge.join("FRANCE", "Bob"), judge.join("GERMANY", "Gerd")
    seat = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert seat.status_code == 200
    r = judge.client.post("/api/join", json={"invite": seat.json()["invite_token"],
                                             "name": "Carol"})
    assert r.status_code == 200
    view = judge.client.get(f"/api/games/{gid}", headers=germany.headers).json()
    told = [c["text"] for c in view["seat_changes"]]
    assert any("gamemaster" in t and "Italy" in t for t in told), told
    assert any("Bob" in t and "France" in t for t in told), told
    assert any("France" in t and "freed" in t for t in told), told
    assert any("Carol" in t and "France" in t for t in told), told
    assert all(c["at"].endswith("+00:00") for c in view["seat_changes"])
    assert judge.client.get(f"/api/games/{gid}", headers=france.headers).status_code == 404


def test_issue27_4_the_game_page_lists_the_seat_changes(app):
    gm, game_url, links = gm_creates_a_game(app)
    bob, _ = join(app, links["FRANCE"], "Bob")
    gm.post(f"{game_url}/seats/FRANCE/replace", {})
    page = bob.client.get(game_url)
    assert page.status_code == 404  # Bob no longer plays
    carol, _ = join(app, links["GERMANY"], "Carol")
    page = carol.get(game_url).text
    assert 'id="seat-changes"' in page
    notes = page.split('id="seat-changes"', 1)[1].split("</section>", 1)[0]
    assert "Bob" in notes and "France" in notes and "freed" in notes and "Carol" in notes


def test_issue27_4_a_seat_taken_before_the_log_said_so_is_known_when_freed(judge):
    """A gamemaster seated before the judge logged it (the log has only a plain "joined"
    entry) and freeing the seat now: freeing it is logged too, and is enough."""
    from sqlalchemy import update

    from calhamer.server.models import Event

    gm, _germany, _italy = _dp_game_with_secrets(judge)
    gid = judge.game["id"]
    with judge.database.transaction() as session:
        session.execute(update(Event).where(Event.game_id == gid, Event.kind == "gm-joined")
                        .values(kind="joined"))
    r = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert r.status_code == 200
    assert _secrets_in(_everything(judge, gm)) == []
    view = judge.client.get(f"/api/games/{gid}", headers=gm.headers).json()
    assert "who held it" in view["seat_changes"][-1]["text"]
