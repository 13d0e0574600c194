"""Roles: every route of the app, as every role, in a standard, a Kriegsplomacy and a DP game.

The gamemaster may take a seat (hosts often play), and a seated gamemaster must then be told
exactly what a player of that power is told, everywhere, until the game is over; they keep
the controls. To check it, each variant is played in twin games that differ only in who
holds Italy: in game X the gamemaster ``host`` took Italy's seat, in game Y a plain player
``italy`` holds it (``host`` runs Y too, from no seat). France and Germany have orders in
(and, in the DP game, bids) that Italy may not read, and in Kriegsplomacy units Italy may not
see.

- Every route (found from ``app.routes``, so a new one cannot be forgotten) is called as every
  role: the gamemaster of Y, the seated gamemaster of X, the gamemaster of a third game Z who
  took Italy's seat and freed it again (a plain player holds Italy there now: the gamemaster
  who has played may not read any power's part until the game is over), Italy's player in Y,
  a player of another game, and an anonymous caller. No answer (body or headers) may carry a
  secret the role is not entitled to: another power's orders of the phase being played, other
  powers' bids, units outside the viewer's view.
- Every game route answers the seated gamemaster of X as it answers Italy's player in Y, once
  the game's id, the role name and the gamemaster's own section of the game page are set
  aside; the gamemaster's routes (seats, controls) tell them nothing else either.
- A player of another game and an anonymous caller get, from every game route, exactly what
  a game that does not exist gets.
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from schema_check import undeclared
from starlette.routing import Mount, Route

from calhamer.server.app import create_app
from calhamer.server.models import User
from calhamer.server.security import COOKIE, SessionData
from conftest import PASSWORD, Clock, Judge, Player, empty_tables, make_settings

ROLES = ("gm", "seated_gm", "freed_gm", "player", "other_player", "anonymous")
OUTSIDERS = ("other_player", "anonymous")
NO_GAME = "nosuchgame00"
CSRF = "csrf-roles"  # one CSRF nonce for every caller: the twins' pages then agree
LEGIT = "Legit"  # France's and Germany's orders: canonical order text appears in them

# Secrets, by name: each is a string that appears only where the secret is told.
ORDER_MARKS = {p: f"# orders-of-{p.lower()}-now" for p in ("FRANCE", "GERMANY", "ITALY")}
BID_MARKS = {p: f"1 DP: A Bel - Zzbid{p.lower()}" for p in ("FRANCE", "GERMANY", "ITALY")}
HIDDEN_UNITS = {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A BER", "F KIE"]}
PRESS_MARK = "a word from France for Germany alone"
PRESS_THREAD = "FRANCE+GERMANY"  # the conversation it starts: Italy may not learn it exists
BUILD_MARK = {p: f"# builds-of-{p.lower()}" for p in ("FRANCE", "GERMANY", "ITALY")}


@dataclass
class Variant:
    name: str
    adjudicated: str  # a phase adjudicated before the calls
    current: str  # the phase being played
    bids: bool = False
    hidden: bool = False


VARIANTS = [
    Variant("standard", "S1901M", "F1901M"),
    Variant("kriegsplomacy", "W1900A", "S1901M", hidden=True),
    Variant("standard-dp", "S1901M", "F1901M", bids=True),
]

ORDERS = {  # the orders of the phase being played, per variant kind
    "S1901M": {"FRANCE": ["A Par - Pic", "A Mar - Spa", "F Bre - Mao"],
               "GERMANY": ["A Mun - Boh", "A Ber - Sil", "F Kie - Den"],
               "ITALY": ["A Ven - Apu", "A Rom H", "F Nap - Ion"]},
    "F1901M": {"FRANCE": ["A Bur - Bel", "A Spa H", "F Mao - Por"],
               "GERMANY": ["A Ruh - Hol", "A Kie - Den", "F Hol - Nth"],
               "ITALY": ["A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"]},
}
FIRST_MOVES = {"FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
               "GERMANY": ["A Mun - Ruh", "A Ber - Kie", "F Kie - Hol"],
               "ITALY": ["A Ven H", "A Rom H", "F Nap H"]}
BUILDS = {"FRANCE": ["Build A Par", "Build A Mar", "Build F Bre"],
          "GERMANY": ["Build A Mun", "Build A Ber", "Build F Kie"],
          "ITALY": ["Build A Ven", "Build A Rom", "Build F Nap"]}


# Checked without saving: lines naming no unit of Italy's (they must not echo a secret).
PROBES = ["A Tyr - Boh", "F Eng H", "A Bur S A Ruh"]


def current_orders(variant: Variant, power: str) -> list[str]:
    return [*ORDERS[variant.current][power], ORDER_MARKS[power]]


@dataclass
class Caller:
    """One role: a user (or nobody), calling with a fresh client each time.

    The bearer token and cookie are signed for the user's session epoch at the time of the
    call, each a session of its own, so a route that logs the user out (everywhere, or this
    session) does not spoil the later calls."""

    app: Any
    user_id: int | None

    def _credentials(self) -> tuple[str | None, str | None]:
        if self.user_id is None:
            return None, None
        with self.app.state.db.session() as session:
            user = session.get(User, self.user_id)
            assert user is not None
            epoch = user.session_epoch
        signer = self.app.state.signer
        return signer.token(self.user_id, epoch), signer.cookie(
            SessionData(self.user_id, epoch, CSRF, secrets.token_hex(6)))

    def call(self, method: str, path: str, body: Any = None) -> Any:
        token, cookie = self._credentials()
        client = TestClient(self.app, follow_redirects=False)
        if path.startswith("/api"):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            return client.request(method, path, json=body, headers=headers)
        if cookie:
            client.cookies.set(COOKIE, cookie)
        if method == "GET":
            return client.get(path)
        if path.endswith(("/orders/check", "/picture/draft")):
            return client.post(path, json=body, headers={"X-CSRF-Token": CSRF})
        return client.post(path, data={"csrf_token": CSRF, **(body or {})})


@dataclass
class World:
    """Twin games X (the gamemaster plays Italy) and Y (a player does) of one variant, and Z
    (the gamemaster played Italy and freed the seat; a player holds it now)."""

    variant: Variant
    judge: Judge
    games: dict[str, str] = field(default_factory=dict)  # "X", "Y", "Z" -> game id
    callers: dict[str, Caller] = field(default_factory=dict)
    home: dict[str, str] = field(default_factory=dict)  # role -> the game it calls

    def game_of(self, role: str) -> str:
        return self.games[self.home[role]]

    def secrets(self) -> dict[str, list[str]]:
        """Each secret's name and the strings that give it away."""
        out: dict[str, list[str]] = {"press:FRANCE": [PRESS_MARK, PRESS_THREAD]}
        for power in ("FRANCE", "GERMANY", "ITALY"):
            out[f"orders:{power}"] = [ORDER_MARKS[power]]
            if self.variant.bids:
                out[f"bids:{power}"] = [BID_MARKS[power].split(" - ")[1]]
            if self.variant.hidden:
                out[f"builds:{power}"] = [BUILD_MARK[power]]
                if power in HIDDEN_UNITS:
                    out[f"units:{power}"] = HIDDEN_UNITS[power]
        return out

    def entitled(self, role: str) -> set[str]:
        everything = set(self.secrets())
        if role == "gm":
            return everything
        if role in ("seated_gm", "player"):
            return {name for name in everything if name.endswith(":ITALY")}
        return set()  # the freed gamemaster of Z too: Italy's secrets are its new player's


def _signup(judge: Judge, username: str, display_name: str) -> Player:
    r = judge.client.post("/api/users", json={"username": username, "password": PASSWORD,
                                              "display_name": display_name})
    assert r.status_code == 201, r.text
    return Player(username, r.json()["token"], user_id=r.json()["user"]["id"])


def _join(judge: Judge, player: Player, game: dict[str, Any], power: str) -> None:
    r = judge.client.post("/api/join", headers=player.headers,
                          json={"invite": judge.invite(power, game)})
    assert r.status_code == 200, r.text
    player.power = power


def _bid(judge: Judge, player: Player, game_id: str, phase: str) -> None:
    assert player.power is not None
    r = judge.client.put(f"/api/games/{game_id}/bids", headers=player.headers,
                         json={"phase": phase, "bids": [BID_MARKS[player.power],
                                                        "1 DP: A Hol H"]})
    assert r.status_code == 200, r.text


def build_world(judge: Judge, variant: Variant) -> World:
    world = World(variant, judge)
    host = _signup(judge, "host", "Ital")  # the gamemaster of both games
    italy = _signup(judge, "italy", "Ital")  # the same name: the twins' pages agree
    players: dict[str, dict[str, Player]] = {"X": {"ITALY": host}, "Y": {"ITALY": italy},
                                             "Z": {"ITALY": host}}
    for twin in ("X", "Y", "Z"):
        players[twin]["FRANCE"] = _signup(judge, f"france{twin.lower()}", "Francois")
        players[twin]["GERMANY"] = _signup(judge, f"germany{twin.lower()}", "Gerhard")
    # Alike step by step in both games, so that everything Italy may see agrees.
    games: dict[str, dict[str, Any]] = {}
    for twin in ("X", "Y", "Z"):
        games[twin] = judge.new_game(host, variant=variant.name, name="Twins",
                                     deadlines={"movement": 60, "retreat": 30,
                                                "adjustment": 30})
        world.games[twin] = games[twin]["id"]
        for power in ("ITALY", "FRANCE", "GERMANY"):
            _join(judge, players[twin][power], games[twin], power)
    # In Z the gamemaster frees their own seat and a plain player takes Italy.
    r = judge.client.post(f"/api/games/{world.games['Z']}/seats/ITALY/replace",
                          headers=host.headers)
    assert r.status_code == 200, r.text
    players["Z"]["ITALY"] = _signup(judge, "italyz", "Ital")
    _join(judge, players["Z"]["ITALY"],
          {"seats": [{"power": "ITALY", "invite_token": r.json()["invite_token"]}]}, "ITALY")
    for twin in ("X", "Y", "Z"):
        gid = world.games[twin]
        if variant.hidden:
            for power, lines in BUILDS.items():
                r = judge.orders(players[twin][power], [*lines, BUILD_MARK[power]],
                                 phase="W1900A", game_id=gid)
                assert r.status_code == 200, r.text
        else:
            for power, lines in FIRST_MOVES.items():
                r = judge.orders(players[twin][power], lines, phase="S1901M", game_id=gid)
                assert r.status_code == 200, r.text
                if variant.bids:
                    _bid(judge, players[twin][power], gid, "S1901M")
        judge.process_now(host, gid)
        view = judge.client.get(f"/api/games/{gid}", headers=host.headers).json()
        assert view["game"]["phase"] == variant.current, view["game"]
        for power in ("FRANCE", "GERMANY", "ITALY"):
            r = judge.orders(players[twin][power], current_orders(variant, power),
                             phase=variant.current, game_id=gid)
            assert r.status_code == 200, r.text
            if variant.bids:
                _bid(judge, players[twin][power], gid, variant.current)
        r = judge.client.post(f"/api/games/{gid}/messages",
                              headers=players[twin]["FRANCE"].headers,
                              json={"to": ["GERMANY"], "body": PRESS_MARK})
        assert r.status_code == 201, r.text
    app = judge.client.app
    world.callers = {
        "gm": Caller(app, host.user_id),
        "seated_gm": Caller(app, host.user_id),
        "freed_gm": Caller(app, host.user_id),
        "player": Caller(app, italy.user_id),
        "other_player": Caller(app, players["X"]["FRANCE"].user_id),
        "anonymous": Caller(app, None),
    }
    world.home = {"gm": "Y", "seated_gm": "X", "freed_gm": "Z", "player": "Y",
                  "other_player": "Y", "anonymous": "Y"}
    return world


@pytest.fixture(scope="module", params=VARIANTS, ids=[v.name for v in VARIANTS])
def world(request: pytest.FixtureRequest, database: Any, database_url: str) -> Iterator[World]:
    empty_tables(database)
    clock = Clock()
    settings = make_settings(database_url, clock)
    app = create_app(settings, db=database)
    with TestClient(app) as client:
        yield build_world(Judge(client, database, settings, clock), request.param)


# -- the routes -----------------------------------------------------------------------------------

_counter = itertools.count()


def _unique(prefix: str) -> str:
    return f"{prefix}{next(_counter)}"


def _press_mark_id(world: World, game_id: str) -> int:
    """The id of France's message to Germany in the game (1 in a game without it)."""
    from sqlalchemy import select

    from calhamer.server.models import Message

    with world.judge.database.session() as session:
        found = session.scalar(select(Message.id).where(Message.game_id == game_id,
                                                        Message.body == PRESS_MARK))
    return found or 1


def route_calls(world: World, method: str, path: str, game_id: str) -> list[tuple[str, Any]]:
    """The concrete calls that try a route: (path, body). Every route of the app must be
    known here; an unknown one fails the test that enumerates them."""
    v = world.variant
    mine = current_orders(v, "ITALY")
    api_bodies: dict[tuple[str, str], Any] = {
        ("POST", "/api/users"): lambda: {"username": _unique("new"), "password": PASSWORD},
        ("POST", "/api/sessions"): lambda: {"username": "italy", "password": PASSWORD},
        ("DELETE", "/api/sessions"): None,
        ("GET", "/api/sessions"): None,
        ("DELETE", "/api/sessions/{session_id}"): None,  # the first session: not theirs all
        ("GET", "/api/lobby"): None,
        ("GET", "/api/me"): None,
        ("POST", "/api/games"): {"name": "Another", "variant": v.name},
        ("GET", "/api/games"): None,
        ("POST", "/api/join"): {"invite": "no-such-invitation", "name": "Guest"},
        ("GET", "/api/games/{game_id}"): None,
        ("GET", "/api/games/{game_id}/admin"): None,
        ("POST", "/api/games/{game_id}/control"): {"action": "extend", "minutes": 5},
        ("POST", "/api/games/{game_id}/seats/{power}/replace"): None,
        ("GET", "/api/games/{game_id}/orders"): None,
        ("PUT", "/api/games/{game_id}/orders"): {"phase": v.current, "orders": mine},
        ("POST", "/api/games/{game_id}/orders/check"): {
            "orders": [*mine, *PROBES]},
        ("POST", "/api/games/{game_id}/ready"): {"phase": v.current, "ready": False},
        ("GET", "/api/games/{game_id}/phases"): None,
        ("GET", "/api/games/{game_id}/phases/{code}"): None,
        ("GET", "/api/games/{game_id}/phases/{code}/document"): None,
        ("GET", "/api/games/{game_id}/bids"): None,
        ("PUT", "/api/games/{game_id}/bids"): {
            "phase": v.current, "bids": [BID_MARKS["ITALY"], "1 DP: A Hol H"]},
        ("GET", "/api/games/{game_id}/phases/{code}/tally"): None,
        ("GET", "/api/games/{game_id}/picture"): None,
        ("GET", "/api/games/{game_id}/events"): None,
        ("GET", "/api/games/{game_id}/phases/{code}/picture"): None,
        ("GET", "/api/games/{game_id}/messages"): None,
        ("POST", "/api/games/{game_id}/messages"): {"body": "hello", "to": ["FRANCE"]},
        ("GET", "/api/games/{game_id}/threads"): None,
        # marking read a conversation of France and Germany: theirs, not Italy's
        ("POST", "/api/games/{game_id}/threads/read"): lambda: {
            "thread": PRESS_THREAD, "last": _press_mark_id(world, game_id)},
        # proposals: one for a phase long gone (refused, so that no game is paused or drawn
        # here), and a refusal of the game's first proposal, if it has one
        ("GET", "/api/games/{game_id}/proposals"): None,
        ("POST", "/api/games/{game_id}/proposals"): {"kind": "draw", "phase": "S1999M"},
        ("POST", "/api/games/{game_id}/proposals/{proposal_id}/vote"): {"agree": False},
        # what one is told, and where (one's own settings)
        ("GET", "/api/notices"): None,
        ("PUT", "/api/notices"): {"email": None, "phase": True, "deadline": True,
                                  "press": True},
        ("POST", "/api/notices/push"): {"endpoint": "https://push.invalid/roles",
                                        "keys": {"p256dh": "x", "auth": "y"}},
        ("DELETE", "/api/notices/push"): None,
    }
    page_bodies: dict[tuple[str, str], Any] = {
        ("GET", "/"): None,
        ("GET", "/signup"): None,
        ("POST", "/signup"): lambda: {"username": _unique("page"), "password": PASSWORD},
        ("GET", "/login"): None,
        ("POST", "/login"): {"username": "italy", "password": PASSWORD},
        ("POST", "/logout"): {},
        ("GET", "/logout"): None,
        ("GET", "/account"): None,
        ("POST", "/account/return-link"): {},
        ("GET", "/account/sessions"): None,
        ("POST", "/account/sessions/end-others"): {},
        ("POST", "/account/sessions/{session_id}/end"): {},
        ("GET", "/return/{token}"): None,
        ("POST", "/return/{token}"): {},
        ("POST", "/games"): {"name": "Another", "variant": v.name},
        ("GET", "/join/{token}"): None,
        ("POST", "/join/{token}"): {"name": "Guest"},
        ("GET", "/games/{game_id}"): None,
        ("POST", "/games/{game_id}/control"): {"action": "extend", "minutes": "5"},
        ("POST", "/games/{game_id}/seats/{power}/replace"): {},
        ("POST", "/games/{game_id}/orders"): {"phase": v.current, "orders": "\n".join(mine)},
        ("POST", "/games/{game_id}/orders/check"): {
            "orders": [*mine, *PROBES]},
        ("POST", "/games/{game_id}/bids"): {
            "phase": v.current, "bids": "\n".join([BID_MARKS["ITALY"], "1 DP: A Hol H"])},
        ("GET", "/games/{game_id}/phases"): None,
        ("GET", "/games/{game_id}/phases/{code}"): None,
        ("GET", "/games/{game_id}/phases/{code}/export"): None,
        ("GET", "/games/{game_id}/picture"): None,
        ("GET", "/games/{game_id}/phases/{code}/picture"): None,
        ("GET", "/games/{game_id}/options"): None,
        ("GET", "/lobby"): None,
        ("GET", "/games/{game_id}/events"): None,
        ("POST", "/games/{game_id}/messages"): {"body": "hello", "to": "FRANCE"},
        ("POST", "/games/{game_id}/threads/read"): lambda: {
            "thread": PRESS_THREAD, "last": str(_press_mark_id(world, game_id))},
        ("POST", "/games/{game_id}/picture/draft"): {"orders": [*mine, *PROBES]},
        ("POST", "/games/{game_id}/proposals"): {"kind": "draw", "phase": "S1999M"},
        ("POST", "/games/{game_id}/proposals/{proposal_id}/vote"): {"agree": "no"},
        # the settings as they are at first (every kind on), so no twin's page differs
        ("POST", "/account/notices"): {"email": "", "phase": "1", "deadline": "1", "press": "1"},
        ("POST", "/account/push"): {},
        ("POST", "/account/push/remove"): {"endpoint": "https://push.invalid/roles"},
        ("GET", "/thumbnails/variant/{name}.svg"): None,
        ("GET", "/thumbnails/board/{name:path}"): None,
        # FastAPI's schema, and the API browser (served from here: app.py)
        ("GET", "/openapi.json"): None,
        ("GET", "/docs"): None,
    }
    known = {**api_bodies, **page_bodies}
    if (method, path) not in known:
        raise KeyError(f"test_roles.py does not know how to call {method} {path}: add it to "
                       "route_calls")
    body = known[(method, path)]
    body = body() if callable(body) else body
    codes = [v.adjudicated, v.current] if "{code}" in path else [""]
    out = []
    for code in codes:
        concrete = (path.replace("{game_id}", game_id).replace("{code}", code)
                    .replace("{power}", "TURKEY").replace("{token}", "no-such-invitation")
                    .replace("{session_id}", "1").replace("{proposal_id}", "1")
                    .replace("{name}", v.name).replace("{name:path}", "standard"))
        assert "{" not in concrete, f"test_roles.py cannot fill in {path}"
        out.append((concrete, body))
    return out


def app_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) the app answers, HEAD aside (it is GET without a body)."""
    return _routes(app.routes, "")


def _routes(routes: list[Any], prefix: str) -> list[tuple[str, str]]:
    out = []
    for route in routes:
        if isinstance(route, Mount):
            # the site's files, and the API browser's (Swagger UI, served from here)
            assert prefix + route.path in ("/static", "/docs/assets"), \
                f"an unexpected mount: {route.path}"
        elif isinstance(route, Route):
            assert route.methods, route.path
            out += [(method, prefix + route.path) for method in sorted(route.methods)
                    if method != "HEAD"]
        elif hasattr(route, "original_router"):  # a router included in the app (FastAPI)
            out += _routes(route.original_router.routes, prefix + route.include_context.prefix)
        else:
            raise AssertionError(f"a route of an unknown kind: {type(route).__name__}")
    return out


def test_every_route_is_known(world: World) -> None:
    app = world.judge.client.app
    routes = app_routes(app)
    assert len(routes) > 40
    for method, path in routes:
        route_calls(world, method, path, NO_GAME)  # raises for a route it does not know


# -- the secrets --------------------------------------------------------------------------------


def leaked(world: World, role: str, text: str) -> list[str]:
    """The secrets ``text`` gives away that ``role`` may not know."""
    allowed = world.entitled(role)
    return [f"{name} ({needle!r})" for name, needles in world.secrets().items()
            if name not in allowed for needle in needles if needle in text]


def answer_text(response: Any) -> str:
    headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items()
                        if k.lower() != "set-cookie")
    return f"{response.status_code}\n{headers}\n{response.text}"


def test_the_secrets_are_there_to_find(world: World) -> None:
    """The gamemaster who plays no power reads every secret: the search below can fail."""
    gm = world.callers["gm"]
    gid = world.game_of("gm")
    found = "\n".join(answer_text(gm.call("GET", path)) for path in (
        f"/api/games/{gid}", f"/api/games/{gid}/orders", f"/api/games/{gid}/bids",
        f"/games/{gid}", f"/api/games/{gid}/phases/{world.variant.adjudicated}/document"))
    missing = [name for name, needles in world.secrets().items()
               if not all(n in found for n in needles)]
    assert not missing


@pytest.mark.parametrize("role", ROLES)
def test_no_route_tells_a_role_a_secret(world: World, role: str) -> None:
    """Every route as the role: no secret the role may not know in any answer, and (issue 27,
    finding 7) every error answer of the API one its OpenAPI schema declares, of the
    declared shape."""
    app = world.judge.client.app
    openapi = world.judge.client.get("/openapi.json").json()
    caller = world.callers[role]
    gid = world.game_of(role)
    problems, undocumented = [], []
    for method, path in app_routes(app):
        for url, body in route_calls(world, method, path, gid):
            r = caller.call(method, url, body)
            assert r.status_code < 500, (role, method, url, r.text)
            for secret in leaked(world, role, answer_text(r)):
                problems.append(f"{method} {url} tells the {role} {secret}")
            if path.startswith("/api") and (wrong := undeclared(openapi, method, path, r)):
                undocumented.append(f"as the {role}: {wrong}")
    assert not problems, "\n".join(problems)
    assert not undocumented, "\n".join(undocumented)


# -- the seated gamemaster is told what Italy's player is told ----------------------------------

GM_ONLY = {"/api/games/{game_id}/admin", "/api/games/{game_id}/control",
           "/api/games/{game_id}/seats/{power}/replace", "/games/{game_id}/control",
           "/games/{game_id}/seats/{power}/replace"}


def comparable(text: str, game_id: str, path: str) -> str:
    """An answer with what may differ between the twins set aside: the game's id, the role's
    name, message ids (numbered across games), the gamemaster's own part of the game page."""
    text = text.replace(game_id, "GAME").replace(" (the gamemaster) took", " took")
    # The replace routes are tried (by the secrets test) as the gamemaster of each twin: how
    # many times, hence how many new invitations the game log tells of, depends on which ran.
    text = re.sub(r"<li>[^<]*: " + NEW_INVITATION + "</li>", "", text)
    # The live page's digest counts those seat changes too (routes/live.py state_of), so it is
    # set aside with them; what it digests is on the page, compared here.
    text = re.sub(r"&#34;state&#34;: &#34;[0-9a-f]+&#34;", "&#34;state&#34;: &#34;S&#34;", text)
    text = re.sub(r'"state": "[0-9a-f]+"', '"state": "S"', text)  # the same, in the stream
    if path.startswith("/api"):
        try:
            doc = json.loads(text)
        except ValueError:
            return text
        return json.dumps(_without_ids(doc, path), sort_keys=True)
    text = re.sub(r'<section id="gm">.*?</section>', "", text, flags=re.S)
    text = re.sub(r'data-last="\d+"', 'data-last="ID"', text)
    text = re.sub(r"\s+", " ", text)
    return text.replace("you are the gamemaster and play", "you play")


NEW_INVITATION = r"the gamemaster made a new invitation for \w+ \(nobody held it\)"


def _without_ids(doc: Any, path: str) -> Any:
    if isinstance(doc, dict):
        out = {k: _without_ids(v, path) for k, v in doc.items()}
        if out.get("role") in ("gm", "player"):
            out["role"] = "ROLE"
        if path.endswith("/messages"):
            out.pop("id", None)
        if path.endswith("/threads"):
            for key in ("last", "last_read"):
                out.pop(key, None)
        return out
    if isinstance(doc, list):
        return [_without_ids(item, path) for item in doc
                if not (isinstance(item, dict)
                        and re.fullmatch(NEW_INVITATION, str(item.get("text"))))]
    return doc


def _even_out_press(seated: Any, player: Any, x: str, y: str) -> None:
    """The secrets test writes press as each role, into its own twin game; when tests are
    spread over several processes only one twin may have had it. Give the other twin the same
    messages, so that the comparison below compares what each is told, not which ran first."""
    def sent(caller: Any, gid: str) -> list[tuple[list[str], str]]:
        answer = caller.call("GET", f"/api/games/{gid}/messages")
        assert answer.status_code == 200, answer.text
        return [(m["to"], m["body"]) for m in answer.json() if m["sender"] == "ITALY"]

    in_x, in_y = sent(seated, x), sent(player, y)
    for caller, gid, missing in ((seated, x, in_y[len(in_x):]), (player, y, in_x[len(in_y):])):
        for to, body in missing:
            caller.call("POST", f"/api/games/{gid}/messages", {"body": body, "to": to})


def test_a_seated_gamemaster_is_told_what_a_player_is_told(world: World) -> None:
    app = world.judge.client.app
    seated, player = world.callers["seated_gm"], world.callers["player"]
    x, y = world.games["X"], world.games["Y"]
    _even_out_press(seated, player, x, y)
    compared = 0
    for method, path in app_routes(app):
        if "{game_id}" not in path or path in GM_ONLY:
            continue
        if method != "GET" and not path.endswith("/orders/check"):
            continue  # the writes are tried in the secrets test; their answers below
        for (url_x, body), (url_y, _) in zip(route_calls(world, method, path, x),
                                             route_calls(world, method, path, y), strict=True):
            got_x, got_y = seated.call(method, url_x, body), player.call(method, url_y, body)
            assert got_x.status_code == got_y.status_code, (method, path, got_x.text)
            assert got_x.headers.get("content-type") == got_y.headers.get("content-type")
            assert comparable(got_x.text, x, path) == comparable(got_y.text, y, path), \
                f"{method} {path}: the seated gamemaster is told something else"
            compared += 1
    assert compared >= 15


def test_the_seated_gamemasters_writes_answer_as_a_players(world: World) -> None:
    """Saving orders, bids and ready marks answers the seated gamemaster as it answers Italy's
    player (the same body to both twins)."""
    seated, player = world.callers["seated_gm"], world.callers["player"]
    x, y = world.games["X"], world.games["Y"]
    v = world.variant
    for method, path, body in (
        ("PUT", "/api/games/{id}/orders", {"phase": v.current,
                                          "orders": current_orders(v, "ITALY")}),
        ("POST", "/api/games/{id}/ready", {"phase": v.current, "ready": False}),
        ("PUT", "/api/games/{id}/bids", {"phase": v.current,
                                        "bids": [BID_MARKS["ITALY"], "1 DP: A Hol H"]}),
    ):
        got_x = seated.call(method, path.replace("{id}", x), body)
        got_y = player.call(method, path.replace("{id}", y), body)
        assert got_x.status_code == got_y.status_code, got_x.text
        assert comparable(got_x.text, x, path) == comparable(got_y.text, y, path), path


def test_the_seated_gamemaster_keeps_the_controls_and_learns_nothing_from_them(
        world: World) -> None:
    seated = world.callers["seated_gm"]
    x = world.games["X"]
    admin = seated.call("GET", f"/api/games/{x}/admin")
    assert admin.status_code == 200, admin.text
    seats = {s["power"]: s for s in admin.json()["seats"]}
    assert seats["ITALY"]["orders_received"] is True  # their own, as a player knows it
    for power in ("FRANCE", "GERMANY", "TURKEY"):
        assert seats[power]["orders_received"] is None and seats[power]["ready"] is None
    r = seated.call("POST", f"/api/games/{x}/control", {"action": "pause"})
    assert r.status_code == 200 and r.json()["status"] == "paused"
    assert {s["power"]: s["ready"] for s in r.json()["seats"]}["FRANCE"] is None
    assert seated.call("POST", f"/api/games/{x}/control", {"action": "resume"}).status_code == 200
    page = seated.call("GET", f"/games/{x}").text
    assert 'id="controls"' in page and 'id="seated-gm"' in page
    # The unseated gamemaster of the twin is told who has ordered.
    gm = world.callers["gm"].call("GET", f"/api/games/{world.games['Y']}/admin").json()
    assert {s["power"]: s["orders_received"] for s in gm["seats"]}["FRANCE"] is True


def test_outsiders_get_what_a_missing_game_gets(world: World) -> None:
    app = world.judge.client.app
    for role in OUTSIDERS:
        caller = world.callers[role]
        gid = world.game_of(role)
        for method, path in app_routes(app):
            if "{game_id}" not in path:
                continue
            for (real_url, body), (fake_url, _) in zip(
                    route_calls(world, method, path, gid),
                    route_calls(world, method, path, NO_GAME), strict=True):
                real, fake = caller.call(method, real_url, body), caller.call(method, fake_url,
                                                                             body)
                expected = 401 if role == "anonymous" and path.startswith("/api") else 404
                assert real.status_code == fake.status_code == expected, (role, method, path)
                assert real.headers["content-type"] == fake.headers["content-type"]
                assert real.text == fake.text, (role, method, path)


def test_once_the_game_is_over_the_seated_gamemaster_sees_all(world: World) -> None:
    seated = world.callers["seated_gm"]
    x = world.games["X"]
    before = seated.call("GET", f"/api/games/{x}/orders").json()
    assert set(before) == {"ITALY"}
    r = seated.call("POST", f"/api/games/{x}/control", {"action": "end"})
    assert r.status_code == 200, r.text
    after = seated.call("GET", f"/api/games/{x}/orders").json()
    assert {"FRANCE", "GERMANY", "ITALY"} <= set(after)


# -- read marks are each account's own ------------------------------------------------------------


def _answers(world: World, role: str) -> dict[str, str]:
    """Every GET game route's answer to ``role`` (the role's own game)."""
    app = world.judge.client.app
    caller, gid = world.callers[role], world.game_of(role)
    out = {}
    for method, path in app_routes(app):
        if method != "GET" or "{game_id}" not in path:
            continue
        for url, body in route_calls(world, method, path, gid):
            out[url] = answer_text(caller.call(method, url, body))
    return out


def test_no_route_tells_one_account_how_far_another_has_read(world: World) -> None:
    """France reads its conversation with Germany: no answer to Italy's player or to the
    gamemaster changes, Italy cannot mark (or learn of) that conversation, and the
    gamemaster's own mark for it is untouched."""
    from calhamer.server.models import User

    gid = world.games["Y"]
    with world.judge.database.session() as session:
        france_id = session.scalar(select_user_id(User, "francey"))
    france = Caller(world.judge.client.app, france_id)
    before = {role: _answers(world, role) for role in ("player", "gm")}
    threads = {t["thread"]: t for t in france.call("GET", f"/api/games/{gid}/threads").json()}
    assert threads[PRESS_THREAD]["unread"] == 0  # France wrote it
    assert threads[PRESS_THREAD]["last_read"] == 0  # and has not marked it read
    gm = world.callers["gm"]
    gm_threads = {t["thread"]: t for t in gm.call("GET", f"/api/games/{gid}/threads").json()}
    last = _press_mark_id(world, gid)
    r = france.call("POST", f"/api/games/{gid}/threads/read",
                    {"thread": PRESS_THREAD, "last": last})
    assert r.status_code == 200, r.text
    assert r.json()["last_read"] == last
    after = {role: _answers(world, role) for role in ("player", "gm")}
    for role in before:
        changed = [url for url in before[role] if before[role][url] != after[role][url]]
        assert not changed, f"{role} is told that France read: {changed}"
    gm_after = {t["thread"]: t for t in gm.call("GET", f"/api/games/{gid}/threads").json()}
    assert gm_after[PRESS_THREAD] == gm_threads[PRESS_THREAD]
    # Italy's player: the conversation is not theirs, and answers as one that does not exist.
    italy = world.callers["player"]
    assert PRESS_THREAD not in {t["thread"] for t in
                                italy.call("GET", f"/api/games/{gid}/threads").json()}
    theirs = italy.call("POST", f"/api/games/{gid}/threads/read",
                        {"thread": PRESS_THREAD, "last": last})
    nothing = italy.call("POST", f"/api/games/{gid}/threads/read",
                         {"thread": "AUSTRIA+TURKEY", "last": last + 1000})
    assert theirs.status_code == nothing.status_code == 404
    assert theirs.text == nothing.text
    page = italy.call("POST", f"/games/{gid}/threads/read",
                      {"thread": PRESS_THREAD, "last": str(last)})
    assert page.status_code == 404


def select_user_id(user: Any, username: str) -> Any:
    from sqlalchemy import select

    return select(user.id).where(user.username == username)
