"""Every power marked ready at the same moment: the last ready mark asks for adjudication.

Seven players send ``PUT /orders`` with ``"ready": true`` at once, over real HTTP to a real
server (uvicorn on a loopback port, its thread pool serving the requests in parallel),
against SQLite and PostgreSQL. Whatever order the seven transactions commit in, one of them
must see the other six marks and ask for the phase to be adjudicated; a game without a
deadline would otherwise wait forever. The race is run many times.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from calhamer.server.models import GameRow, OrderSet, PhaseRow
from calhamer.server.worker import process_due

ROUNDS = 15
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
UNTIMED = {"movement": 0, "retreat": 0, "adjustment": 0}



@pytest.fixture
def server(database, database_url, clock) -> Iterator[tuple[str, Any]]:  # type: ignore[no-untyped-def]
    """A real server on a loopback port (no embedded worker: the test looks at the request
    for adjudication itself, then adjudicates)."""
    from calhamer.server.app import create_app
    from conftest import empty_tables, make_settings, serve_on_loopback

    empty_tables(database)
    settings = make_settings(database_url, clock)
    app = create_app(settings, db=database)
    with serve_on_loopback(app) as base:
        yield base, settings


def _untimed_game(base: str, gm_headers: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A game without deadlines and its seven players' bearer tokens."""
    with httpx.Client(base_url=base, timeout=60) as client:
        r = client.post("/api/games", json={"name": "race", "deadlines": UNTIMED},
                        headers=gm_headers)
        assert r.status_code == 201, r.text
        game = r.json()
        tokens = {}
        for seat in game["seats"]:
            r = client.post("/api/join", json={"invite": seat["invite_token"],
                                               "name": seat["power"].title()})
            assert r.status_code == 200, r.text
            tokens[seat["power"]] = r.json()["token"]
    return game["id"], tokens


def _all_ready_at_once(base: str, game_id: str, tokens: dict[str, str]) -> list[int]:
    """Each power's ``PUT /orders`` with ``ready: true``, all released together."""
    clients = {p: httpx.Client(base_url=base, timeout=60,
                               headers={"Authorization": f"Bearer {t}"})
               for p, t in tokens.items()}
    start = threading.Barrier(len(clients))
    statuses: dict[str, int] = {}
    try:
        for c in clients.values():  # open each connection before the race
            assert c.get(f"/api/games/{game_id}/orders").status_code == 200

        def send(power: str) -> None:
            start.wait(timeout=30)
            r = clients[power].put(f"/api/games/{game_id}/orders",
                                   json={"phase": "S1901M", "orders": [], "ready": True})
            statuses[power] = r.status_code

        threads = [threading.Thread(target=send, args=(p,)) for p in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        for c in clients.values():
            c.close()
    return [statuses.get(p, 0) for p in POWERS]


def test_seven_simultaneous_ready_marks_always_ask_for_adjudication(server, database):
    base, settings = server
    with httpx.Client(base_url=base, timeout=60) as client:
        r = client.post("/api/users", json={"username": "gm", "password": "correct horse 1"})
        assert r.status_code == 201, r.text
        gm_headers = {"Authorization": f"Bearer {r.json()['token']}"}
    stuck = []
    for _round in range(ROUNDS):
        game_id, tokens = _untimed_game(base, gm_headers)
        assert sorted(tokens) == POWERS
        assert _all_ready_at_once(base, game_id, tokens) == [200] * len(POWERS)
        with database.session() as session:
            game = session.get(GameRow, game_id)
            assert game is not None
            marks = session.scalars(select(OrderSet.ready).join(
                PhaseRow, PhaseRow.id == OrderSet.phase_id).where(PhaseRow.game_id == game_id))
            assert list(marks) == [True] * len(POWERS)  # every mark was kept
            if not game.process_requested:
                stuck.append(game_id)
    assert not stuck, f"{len(stuck)} of {ROUNDS} games all ready but never asked to adjudicate"
    # and the requests are honoured: every game moves on, none is left behind
    done = process_due(database, settings, "race-worker")
    assert len(done) == ROUNDS
    with database.session() as session:
        assert set(session.scalars(select(GameRow.phase_index))) == {1}


def test_the_last_ready_mark_given_while_paused_counts_on_resuming(judge):
    """Marks given while the game is paused ask for nothing; resuming must look at them, or
    an untimed game whose last mark came in during the pause would wait forever."""
    gm = judge.user("gm")
    game = judge.new_game(gm, deadlines=UNTIMED)
    players = [judge.join(power) for power in POWERS]
    gid = game["id"]
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "pause"},
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    for player in players:
        assert judge.orders(player, [], ready=True).status_code == 200
    assert judge.process() == []  # paused: nothing is adjudicated
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "resume"},
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    assert judge.process() == [f"{gid} S1901M"]
