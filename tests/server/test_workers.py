"""Workers: each due phase adjudicated exactly once, crashes lose nothing, saves are durable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from sqlalchemy import func, select

from calhamer.server.models import Event, GameRow, OrderSet, PhaseRow, User
from calhamer.server.services import adjudication
from calhamer.server.services.common import Conflict
from calhamer.server.services.orders import save_orders
from calhamer.server.views import viewer_for


def worker_process(database_url: str, pause: float = 0.0) -> subprocess.Popen[str]:
    env = {**os.environ, "CALHAMER_TEST_WORKER_PAUSE": str(pause),
           "CALHAMER_SQLITE_SYNCHRONOUS": "NORMAL"}
    return subprocess.Popen(
        [sys.executable, "-m", "calhamer.cli", "worker", "--once", "--database", database_url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def due_games(judge, count: int):  # type: ignore[no-untyped-def]
    gm = judge.user("gm")
    ids = []
    for _ in range(count):
        game = judge.new_game(gm)
        france = judge.join("FRANCE", game=game)
        judge.orders(france, ["A Par - Bur"], game_id=game["id"])
        r = judge.client.post(f"/api/games/{game['id']}/control",
                              json={"action": "process", "phase": "S1901M"}, headers=gm.headers)
        assert r.status_code == 200
        ids.append(game["id"])
    return gm, ids


def adjudications(database, game_id: str) -> list[str]:
    with database.session() as session:
        return list(session.scalars(select(Event.detail).where(
            Event.game_id == game_id, Event.kind == "adjudicated").order_by(Event.id)))


def test_a_due_phase_is_adjudicated_once(judge):
    _gm, (gid,) = due_games(judge, 1)
    assert judge.process() == [f"{gid} S1901M"]
    assert judge.process() == []
    assert adjudications(judge.database, gid) == ["S1901M by test-worker"]


def test_two_workers_racing_adjudicate_each_phase_exactly_once(judge, database_url):
    _gm, ids = due_games(judge, 10)
    workers = [worker_process(database_url, pause=0.1) for _ in range(2)]
    outputs = [w.communicate(timeout=120) for w in workers]
    for w, (_out, err) in zip(workers, outputs, strict=True):
        assert w.returncode == 0, err
    done = [line.split()[1] for out, _ in outputs for line in out.splitlines()
            if line.startswith("adjudicated")]
    assert sorted(done) == sorted(ids)  # every game once, none twice
    by = set()
    for gid in ids:
        (entry,) = adjudications(judge.database, gid)
        by.add(entry.split(" by ")[1].split(":")[1])  # the worker's process id
    with judge.database.session() as session:
        assert session.scalar(select(func.count()).select_from(PhaseRow)) == 2 * len(ids)
        assert set(session.scalars(select(GameRow.phase_index))) == {1}
    if judge.database.dialect == "postgresql":
        assert len(by) == 2, "with SKIP LOCKED both workers should have found work"


def test_a_worker_killed_mid_phase_loses_nothing(judge, database_url):
    gm, (gid,) = due_games(judge, 1)
    proc = worker_process(database_url, pause=60)
    assert proc.stderr is not None
    line = ""
    for line in proc.stderr:  # logged inside the open transaction
        if "pausing in the transaction" in line:
            break
    assert "pausing in the transaction" in line, (line, proc.stdout.read() if proc.stdout else "")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)

    with judge.database.session() as session:
        game = session.get(GameRow, gid)
        assert game is not None and game.phase_index == 0 and game.process_requested
        phases = list(session.scalars(select(PhaseRow).where(PhaseRow.game_id == gid)))
        assert [(p.code, p.results) for p in phases] == [("S1901M", None)]
        (orders,) = session.scalars(select(OrderSet).where(OrderSet.phase_id == phases[0].id))
        assert orders.lines == ["A Par - Bur"]
    assert adjudications(judge.database, gid) == []

    deadline = time.monotonic() + 20  # PostgreSQL notices the dead client within moments
    done: list[str] = []
    while not done and time.monotonic() < deadline:
        done = judge.process()
        time.sleep(0.1)
    assert done == [f"{gid} S1901M"]
    assert adjudications(judge.database, gid) == ["S1901M by test-worker"]
    result = judge.client.get(f"/api/games/{gid}/phases/S1901M", headers=gm.headers).json()
    assert "A PAR - BUR                 Succeeds" in result["report"]


def test_acknowledged_orders_are_never_lost_to_a_concurrent_adjudication(judge):
    """A save that was answered "saved" is in the adjudicated phase; a later one is refused."""
    _gm, (gid,) = due_games(judge, 1)
    with judge.database.transaction() as session:
        session.get(GameRow, gid).process_requested = False
    france_id = judge.database.session().scalar(
        select(User.id).where(User.display_name == "France"))
    acknowledged: list[int] = []
    refused: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def player() -> None:
        try:
            save_until_refused()
        except BaseException as exc:
            errors.append(exc)

    def save_until_refused() -> None:
        n = 0
        while not stop.is_set() and n < 5000:
            n += 1
            try:
                with judge.database.transaction() as session:
                    viewer = viewer_for(session, gid, session.get(User, france_id))
                    assert viewer is not None
                    save_orders(session, viewer=viewer, phase_code="S1901M",
                                lines=["A Par - Bur", f"# save {n}"], ready=None,
                                now=judge.clock())
                acknowledged.append(n)
            except Conflict:
                refused.append(n)
                return

    thread = threading.Thread(target=player)
    thread.start()
    while len(acknowledged) < 5:
        time.sleep(0.01)
    with judge.database.transaction() as session:
        session.get(GameRow, gid).process_requested = True
    done: list[str] = []
    deadline = time.monotonic() + 20
    while not done and time.monotonic() < deadline:
        done = judge.process()  # SKIP LOCKED: a save holding the row makes it try again
    assert done == [f"{gid} S1901M"]
    thread.join(timeout=30)
    stop.set()
    assert not errors, errors
    assert refused, "saves after the adjudication must be refused"
    with judge.database.session() as session:
        phase = session.scalars(select(PhaseRow).where(PhaseRow.game_id == gid,
                                                       PhaseRow.index == 0)).one()
        (orders,) = session.scalars(select(OrderSet).where(OrderSet.phase_id == phase.id))
    assert orders.lines == ["A Par - Bur", f"# save {acknowledged[-1]}"]


def test_orders_are_committed_before_the_answer(judge):
    _gm, ids = due_games(judge, 1)
    gid = ids[0]
    judge.database.dispose()  # a fresh connection below sees only committed data
    germany = judge.join("GERMANY", game=judge.game)
    r = judge.orders(germany, ["A Mun - Tyr"], game_id=gid)
    assert r.status_code == 200
    from calhamer.server.db import Database

    other = Database(judge.database.url)
    try:
        with other.session() as session:
            stored = session.scalars(select(OrderSet.lines).where(OrderSet.power == "GERMANY"))
            assert list(stored) == [["A Mun - Tyr"]]
    finally:
        other.dispose()


def test_a_failing_adjudication_parks_the_game(judge, monkeypatch):
    _gm, (gid,) = due_games(judge, 1)

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("resolver bug")

    monkeypatch.setattr(adjudication, "process_due_phase", broken)
    assert judge.process() == [f"{gid} failed"]
    assert judge.process() == []  # not retried at once
    with judge.database.session() as session:
        game = session.get(GameRow, gid)
        assert game.last_error == "RuntimeError: resolver bug" and game.phase_index == 0
    monkeypatch.undo()
    judge.clock.advance(seconds=judge.settings.worker_retry_seconds + 1)
    assert judge.process() == [f"{gid} S1901M"]


def test_the_embedded_worker_adjudicates_when_asked(database, database_url, clock):
    from fastapi.testclient import TestClient

    from calhamer.server.app import create_app
    from conftest import Judge, empty_tables, make_settings

    empty_tables(database)
    settings = make_settings(database_url, clock, embedded_worker=True,
                             worker_poll_seconds=30.0)
    app = create_app(settings, db=database)
    with TestClient(app) as client:
        judge = Judge(client, database, settings, clock)
        gm = judge.user("gm")
        game = judge.new_game(gm)
        client.post(f"/api/games/{game['id']}/control",
                    json={"action": "process", "phase": "S1901M"},
                    headers=gm.headers)  # wakes the worker: no 30 s wait
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            view = client.get(f"/api/games/{game['id']}", headers=gm.headers).json()
            if view["game"]["phase"] == "F1901M":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the embedded worker did not adjudicate")


POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _full_game(judge):  # type: ignore[no-untyped-def]
    """A standard game with all seven powers seated; returns the gamemaster and the players."""
    gm = judge.user("gm")
    judge.new_game(gm)
    return gm, {power: judge.join(power) for power in POWERS}


def _all_ready(judge, players, but: str | None = None) -> None:  # type: ignore[no-untyped-def]
    for power, player in players.items():
        r = judge.orders(player, [], ready=power != but)
        assert r.status_code == 200, r.text


def _forget_the_request(database, game_id: str) -> None:  # type: ignore[no-untyped-def]
    """Leave a game as ready marks given while it was paused used to: every power ready, yet
    no adjudication asked for."""
    with database.transaction() as session:
        session.get(GameRow, game_id).process_requested = False


def test_a_worker_starting_up_adjudicates_games_whose_powers_were_all_ready(judge):
    from calhamer.server.worker import sweep_ready

    _gm, players = _full_game(judge)
    gid = judge.game["id"]
    _all_ready(judge, players)
    _forget_the_request(judge.database, gid)
    assert judge.process() == []  # stuck: nothing asks for it
    assert sweep_ready(judge.database) == [gid]
    assert judge.process() == [f"{gid} S1901M"]
    assert sweep_ready(judge.database) == []  # the next phase waits for its own marks


def test_the_start_up_sweep_leaves_games_still_waiting_for_a_power(judge):
    from calhamer.server.worker import sweep_ready

    gm, players = _full_game(judge)
    gid = judge.game["id"]
    _all_ready(judge, players, but="TURKEY")
    assert sweep_ready(judge.database) == []
    assert judge.process() == []
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "pause"},
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    _all_ready(judge, players)
    _forget_the_request(judge.database, gid)
    assert sweep_ready(judge.database) == []  # paused: resuming decides
    assert judge.process() == []


def test_worker_once_sweeps_before_it_adjudicates(judge, database_url):
    _gm, players = _full_game(judge)
    gid = judge.game["id"]
    _all_ready(judge, players)
    _forget_the_request(judge.database, gid)
    proc = worker_process(database_url)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert f"adjudicated {gid} S1901M" in out
