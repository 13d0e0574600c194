"""Authority: every route tried as every role; hidden answers exactly like nonexistent.

Roles: the gamemaster, player A (France), player B (Germany), an outsider with an account,
an anonymous caller, and the same gamemaster in two games of their own: one where they play
England (``seated_gm``), one where they played England and freed the seat (``freed_gm``).
Every route of the app must appear in ``RULES`` below, so a new route cannot ship without
saying who may use it.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from schema_check import undeclared

from calhamer.server.app import create_app
from calhamer.server.routes import ROUTERS
from calhamer.server.security import COOKIE, SessionData
from conftest import Clock, Judge, empty_tables, make_settings

ROLES = ("gm", "a", "b", "outsider", "anonymous", "seated_gm", "freed_gm")
MEMBERS = {"gm", "a", "b", "seated_gm", "freed_gm"}
PLAYERS = {"a", "b", "seated_gm"}
GM = {"gm", "seated_gm", "freed_gm"}  # the controls
SEES_ALL = {"gm"}  # the tally: a gamemaster who plays, or has played, is told none
EVERYONE = set(ROLES)
LOGGED_IN = {"gm", "a", "b", "outsider", "seated_gm", "freed_gm"}
IN_THREAD = {"gm", "a"}  # the gamemaster's conversation with France (see ``world``)


def _read_mark(form: bool) -> Any:
    """The body that marks the gamemaster's conversation with France read (made at call time:
    it names the message's id)."""
    def body(judge: Judge) -> dict[str, Any]:
        from sqlalchemy import select

        from calhamer.server.models import Message

        with judge.database.session() as session:
            last = session.scalar(select(Message.id).where(
                Message.game_id == judge.game["id"], Message.body == "private to France"))
        assert last is not None
        return {"thread": "FRANCE+GM", "last": str(last) if form else last}
    return body


# (method, path): who may use it, and the body to send.
RULES: dict[tuple[str, str], tuple[set[str], Any]] = {
    # the API
    ("POST", "/api/users"): (EVERYONE, None),
    ("POST", "/api/sessions"): (EVERYONE, None),
    ("DELETE", "/api/sessions"): (LOGGED_IN, None),
    ("GET", "/api/sessions"): (LOGGED_IN, None),
    ("DELETE", "/api/sessions/{session_id}"): (LOGGED_IN, None),
    ("GET", "/api/lobby"): (EVERYONE, None),
    ("GET", "/api/me"): (LOGGED_IN, None),
    ("POST", "/api/games"): (LOGGED_IN, None),
    ("GET", "/api/games"): (LOGGED_IN, None),
    ("POST", "/api/join"): (EVERYONE, None),
    ("GET", "/api/games/{game_id}"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/admin"): (GM, None),
    ("POST", "/api/games/{game_id}/control"): (GM, {"action": "extend", "minutes": 5,
                                                    "phase": "F1901M"}),
    ("POST", "/api/games/{game_id}/seats/{power}/replace"): (GM, None),
    ("GET", "/api/games/{game_id}/orders"): (MEMBERS, None),
    ("PUT", "/api/games/{game_id}/orders"): (PLAYERS, {"phase": "F1901M",
                                                       "orders": ["A Par H"]}),
    ("POST", "/api/games/{game_id}/orders/check"): (PLAYERS, {"orders": ["A Par H"]}),
    ("POST", "/api/games/{game_id}/ready"): (PLAYERS, {"phase": "F1901M"}),
    ("GET", "/api/games/{game_id}/phases"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/phases/{code}"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/phases/{code}/document"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/bids"): (MEMBERS, None),
    ("PUT", "/api/games/{game_id}/bids"): (PLAYERS, {"phase": "F1901M",
                                                     "bids": ["1 DP: A Bel H"]}),
    ("GET", "/api/games/{game_id}/phases/{code}/tally"): (SEES_ALL, None),
    ("GET", "/api/games/{game_id}/picture"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/phases/{code}/picture"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/messages"): (MEMBERS, None),
    ("POST", "/api/games/{game_id}/messages"): (MEMBERS, {"body": "hello"}),
    ("GET", "/api/games/{game_id}/events"): (MEMBERS, None),
    ("GET", "/api/games/{game_id}/threads"): (MEMBERS, None),
    ("POST", "/api/games/{game_id}/threads/read"): (IN_THREAD, _read_mark(form=False)),
    ("GET", "/api/games/{game_id}/proposals"): (MEMBERS, None),
    ("POST", "/api/games/{game_id}/proposals"): (PLAYERS, {"kind": "pause", "phase": "F1901M"}),
    # a vote on the game's newest proposal (made by the route above)
    ("POST", "/api/games/{game_id}/proposals/{proposal_id}/vote"): (PLAYERS, {"agree": True}),
    ("GET", "/api/notices"): (LOGGED_IN, None),
    ("PUT", "/api/notices"): (LOGGED_IN, None),
    ("POST", "/api/notices/push"): (LOGGED_IN, None),
    ("DELETE", "/api/notices/push"): (LOGGED_IN, None),
    # the pages
    ("GET", "/"): (EVERYONE, None),
    ("GET", "/signup"): (EVERYONE, None),
    ("POST", "/signup"): (EVERYONE, None),
    ("GET", "/login"): (EVERYONE, None),
    ("POST", "/login"): (EVERYONE, None),
    ("POST", "/logout"): (EVERYONE, None),
    ("GET", "/logout"): (EVERYONE, None),
    ("GET", "/account"): (EVERYONE, None),
    ("POST", "/account/return-link"): (EVERYONE, None),
    ("GET", "/account/sessions"): (EVERYONE, None),
    ("POST", "/account/sessions/end-others"): (EVERYONE, None),
    ("POST", "/account/sessions/{session_id}/end"): (EVERYONE, None),
    ("GET", "/return/{token}"): (EVERYONE, None),
    ("POST", "/return/{token}"): (EVERYONE, None),
    ("POST", "/games"): (EVERYONE, None),
    ("GET", "/join/{token}"): (EVERYONE, None),
    ("POST", "/join/{token}"): (EVERYONE, None),
    ("GET", "/games/{game_id}"): (MEMBERS, None),
    ("POST", "/games/{game_id}/control"): (GM, {"action": "extend", "minutes": "5",
                                                "phase": "F1901M"}),
    ("POST", "/games/{game_id}/seats/{power}/replace"): (GM, {}),
    ("POST", "/games/{game_id}/orders"): (PLAYERS, {"phase": "F1901M", "orders": "A Par H"}),
    ("POST", "/games/{game_id}/orders/check"): (PLAYERS, {"orders": ["A Par H"]}),
    ("POST", "/games/{game_id}/bids"): (PLAYERS, {"phase": "F1901M", "bids": "1 DP: A Bel H"}),
    ("GET", "/games/{game_id}/phases"): (MEMBERS, None),
    ("GET", "/games/{game_id}/phases/{code}"): (MEMBERS, None),
    ("GET", "/games/{game_id}/phases/{code}/export"): (MEMBERS, None),
    ("GET", "/games/{game_id}/picture"): (MEMBERS, None),
    ("GET", "/games/{game_id}/phases/{code}/picture"): (MEMBERS, None),
    ("POST", "/games/{game_id}/messages"): (MEMBERS, {"body": "hello"}),
    ("GET", "/games/{game_id}/options"): (MEMBERS, None),
    ("GET", "/games/{game_id}/events"): (MEMBERS, None),
    ("POST", "/games/{game_id}/threads/read"): (IN_THREAD, _read_mark(form=True)),
    ("GET", "/lobby"): (EVERYONE, None),
    ("POST", "/games/{game_id}/picture/draft"): (MEMBERS, {"orders": ["A Bur - Mar"]}),
    ("POST", "/games/{game_id}/proposals"): (PLAYERS, {"kind": "pause", "phase": "F1901M"}),
    ("POST", "/games/{game_id}/proposals/{proposal_id}/vote"): (PLAYERS, {"agree": "yes"}),
    ("POST", "/account/notices"): (EVERYONE, None),
    ("POST", "/account/push"): (EVERYONE, None),
    ("POST", "/account/push/remove"): (EVERYONE, None),
    ("GET", "/thumbnails/variant/{name}.svg"): (EVERYONE, None),
    ("GET", "/thumbnails/board/{name:path}"): (EVERYONE, None),
}

GAME_ROUTES = [key for key in RULES if "{game_id}" in key[1]]
# Routes where an allowed caller may also be told of a conflict (409) rather than served: a
# second proposal in one phase, a second vote on one proposal. A conflict is still an answer
# only a member gets; others get the 404 of a game that does not exist.
CONFLICTS = {("POST", "/api/games/{game_id}/proposals"), ("POST", "/games/{game_id}/proposals"),
             ("POST", "/api/games/{game_id}/proposals/{proposal_id}/vote"),
             ("POST", "/games/{game_id}/proposals/{proposal_id}/vote")}


def app_routes() -> set[tuple[str, str]]:
    out = set()
    for router in ROUTERS:
        for route in router.routes:
            assert isinstance(route, APIRoute)
            for method in route.methods:
                out.add((method, route.path))
    return out


def test_every_route_has_a_rule(world):
    judge, _callers = world
    assert app_routes() == set(RULES)
    paths = set(judge.client.app.openapi()["paths"])
    assert paths == {path for _, path in RULES if path.startswith("/api")}


class Caller:
    """One role: bearer token for the API, a signed cookie and its CSRF token for pages."""

    def __init__(self, app, user_id: int | None, token: str | None,  # type: ignore[no-untyped-def]
                 game_id: str | None = None) -> None:
        self.client = TestClient(app, follow_redirects=False)
        self.token = token
        self.game_id = game_id  # the game this role calls (None: the module's game)
        self.csrf = "csrf-" + str(user_id)
        if user_id is not None:
            cookie = app.state.signer.cookie(SessionData(user_id, 0, self.csrf))
            self.client.cookies.set(COOKIE, cookie)

    def call(self, method: str, path: str, body: Any):  # type: ignore[no-untyped-def]
        headers = {}
        if path.startswith("/api"):
            if self.token:
                headers["Authorization"] = f"Bearer {self.token}"
            return self.client.request(method, path, json=body, headers=headers)
        if method == "GET":
            return self.client.get(path)
        if path.endswith(("/orders/check", "/picture/draft")):
            return self.client.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        return self.client.post(path, data={"csrf_token": self.csrf, **(body or {})})


@pytest.fixture(scope="module")
def world(database, database_url):  # type: ignore[no-untyped-def]
    """One game for the whole module (the calls below change little, and nothing they check).

    It is a DP game (the standard board with neutral units), so that the bid routes are tried
    too; every other route works in it as in the standard game."""
    empty_tables(database)
    clock = Clock()
    settings = make_settings(database_url, clock)
    app = create_app(settings, db=database)
    with TestClient(app) as client:
        judge = Judge(client, database, settings, clock)
        gm = judge.user("gm")
        judge.new_game(gm, variant="standard-dp")
        a, b = judge.join("FRANCE"), judge.join("GERMANY")
        outsider = judge.user("outsider")
        judge.orders(a, ["A Par - Bur"])
        judge.orders(b, ["A Mun - Ruh"])
        judge.process_now(gm)  # S1901M is history; F1901M is being played
        judge.orders(a, ["A Bur - Mar"], phase="F1901M")
        client.post(f"/api/games/{judge.game['id']}/messages",
                    json={"to": ["FRANCE"], "body": "private to France"}, headers=gm.headers)
        main = judge.game
        own = {role: _gamemasters_own_game(judge, gm, freed=role == "freed_gm")
               for role in ("seated_gm", "freed_gm")}
        judge.game = main
        callers = {
            "seated_gm": Caller(app, gm.user_id, gm.token, own["seated_gm"]),
            "freed_gm": Caller(app, gm.user_id, gm.token, own["freed_gm"]),
            "gm": Caller(app, gm.user_id, gm.token),
            "a": Caller(app, a.user_id, a.token),
            "b": Caller(app, b.user_id, b.token),
            "outsider": Caller(app, outsider.user_id, outsider.token),
            "anonymous": Caller(app, None, None),
        }
        yield judge, callers


def _gamemasters_own_game(judge, gm, *, freed: bool) -> str:  # type: ignore[no-untyped-def]
    """A DP game of ``gm``'s in which they took England (and, with ``freed``, freed the seat
    again), played on to F1901M like the module's game."""
    game = judge.new_game(gm, variant="standard-dp")
    r = judge.client.post("/api/join", json={"invite": judge.invite("ENGLAND")},
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    if freed:
        r = judge.client.post(f"/api/games/{game['id']}/seats/ENGLAND/replace",
                              headers=gm.headers)
        assert r.status_code == 200, r.text
    judge.process_now(gm, game["id"])
    return str(game["id"])


def concrete(path: str, game_id: str, judge: Any = None) -> str:
    proposal = "0"
    if "{proposal_id}" in path and judge is not None:  # the game's newest proposal, if any
        from sqlalchemy import func, select

        from calhamer.server.models import Proposal

        with judge.database.session() as session:
            proposal = str(session.scalar(select(func.max(Proposal.id)).where(
                Proposal.game_id == game_id)) or 0)
    return (path.replace("{game_id}", game_id).replace("{code}", "S1901M")
            .replace("{power}", "ITALY").replace("{proposal_id}", proposal))


@pytest.mark.parametrize("route", GAME_ROUTES, ids=[f"{m} {p}" for m, p in GAME_ROUTES])
def test_game_routes_as_every_role(world, route):
    judge, callers = world
    method, path = route
    allowed, body = RULES[route]
    body = body(judge) if callable(body) else body
    openapi = judge.client.get("/openapi.json").json()
    for role in ROLES:
        caller = callers[role]
        gid = caller.game_id or judge.game["id"]
        if "{proposal_id}" in path and role in allowed:
            # the proposal to vote on: the proposals route makes it, but it may have run in
            # another process of the test run (each has its own world); one a phase, so a
            # second try is refused (409) and the first stands
            made = caller.call("POST", f"/api/games/{gid}/proposals",
                               {"kind": "pause", "phase": "F1901M"})
            assert made.status_code in (201, 409), made.text
        real = caller.call(method, concrete(path, gid, judge), body)
        if path.startswith("/api"):  # an error answer is one the schema declares
            assert undeclared(openapi, method, path, real) is None, (role, real.text)
        if role in allowed:
            conflict = route in CONFLICTS and real.status_code == 409
            assert real.status_code < 400 or conflict, (role, real.status_code, real.text)
            continue
        fake = caller.call(method, concrete(path, "nosuchgame00"), body)
        expected = 401 if role == "anonymous" and path.startswith("/api") else 404
        assert real.status_code == fake.status_code == expected, (role, real.status_code)
        assert real.headers["content-type"] == fake.headers["content-type"]
        assert _comparable(real.text) == _comparable(fake.text), role


def judge_player(judge, caller, power):  # type: ignore[no-untyped-def]
    from conftest import Player

    return Player(power, caller.token, power)


def _comparable(text: str) -> str:
    import re

    return re.sub(r'name="csrf_token" value="[^"]*"', "", text)


def test_unadjudicated_and_nonexistent_phases_answer_alike(world):
    judge, callers = world
    gid = judge.game["id"]
    for role in ("gm", "a"):
        for prefix in (f"/api/games/{gid}/phases", f"/games/{gid}/phases"):
            current = callers[role].call("GET", f"{prefix}/F1901M", None)
            never = callers[role].call("GET", f"{prefix}/S1999M", None)
            garbage = callers[role].call("GET", f"{prefix}/not-a-phase", None)
            assert current.status_code == never.status_code == garbage.status_code == 404
            assert _comparable(current.text) == _comparable(never.text) == \
                _comparable(garbage.text)


def test_a_player_reads_only_their_own_current_orders(world):
    judge, callers = world
    gid = judge.game["id"]
    a, b, gm = callers["a"], callers["b"], callers["gm"]
    judge.orders(judge_player(judge, a, "FRANCE"), ["A Bur - Mar"], phase="F1901M")
    assert list(a.call("GET", f"/api/games/{gid}/orders", None).json()) == ["FRANCE"]
    assert set(b.call("GET", f"/api/games/{gid}/orders", None).json()) <= {"GERMANY"}
    assert "FRANCE" in gm.call("GET", f"/api/games/{gid}/orders", None).json()
    view_b = b.call("GET", f"/api/games/{gid}", None).json()
    assert set(view_b["orders"]) <= {"GERMANY"}
    doc_b = b.call("GET", f"/api/games/{gid}/phases/F1901M/document", None).json()
    assert set(doc_b["orders"]) <= {"GERMANY"}
    doc_gm = gm.call("GET", f"/api/games/{gid}/phases/F1901M/document", None).json()
    assert doc_gm["orders"]["FRANCE"] == ["A Bur - Mar"]
    page_b = b.call("GET", f"/games/{gid}", None).text
    assert "A Bur - Mar" not in page_b and "A BUR - MAR" not in page_b
    # After adjudication everyone's orders are public to the game.
    history_b = b.call("GET", f"/api/games/{gid}/phases/S1901M", None).json()
    assert history_b["orders"]["FRANCE"] == ["A Par - Bur"]


def test_a_player_cannot_change_another_powers_orders(world):
    judge, callers = world
    gid = judge.game["id"]
    b = callers["b"]
    judge.orders(judge_player(judge, callers["a"], "FRANCE"), ["A Bur - Mar"], phase="F1901M")
    r = b.call("PUT", f"/api/games/{gid}/orders",
               {"phase": "F1901M", "orders": ["A Bur - Pic"], "power": "FRANCE"})
    assert r.status_code == 422  # no such field: a player names no power, only their own
    b.call("PUT", f"/api/games/{gid}/orders", {"phase": "F1901M", "orders": ["A Bur - Pic"]})
    mine = callers["a"].call("GET", f"/api/games/{gid}/orders", None).json()
    assert mine["FRANCE"]["orders"] == ["A Bur - Mar"]
    theirs = b.call("GET", f"/api/games/{gid}/orders", None).json()
    assert theirs["GERMANY"]["checks"][0]["ok"] is False  # not Germany's unit


def test_private_press_stays_private(world):
    judge, callers = world
    gid = judge.game["id"]
    seen = {role: [m["body"] for m in callers[role].call(
        "GET", f"/api/games/{gid}/messages", None).json()] for role in ("gm", "a", "b")}
    assert "private to France" in seen["gm"] and "private to France" in seen["a"]
    assert "private to France" not in seen["b"]
    assert "private to France" not in callers["b"].call("GET", f"/games/{gid}", None).text


def test_invitation_tokens_reach_only_the_gm(world):
    judge, callers = world
    gid = judge.game["id"]
    admin = callers["gm"].call("GET", f"/api/games/{gid}/admin", None).json()
    token = next(s["invite_token"] for s in admin["seats"] if s["power"] == "ITALY")
    for role in ("a", "b"):
        for path in (f"/api/games/{gid}", f"/api/games/{gid}/phases", f"/games/{gid}",
                     "/api/games", "/"):
            assert token not in callers[role].call("GET", path, None).text
    assert token in callers["gm"].call("GET", f"/api/games/{gid}/admin", None).text
