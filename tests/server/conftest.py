"""Fixtures for the web judge's tests: every test runs on SQLite and again on PostgreSQL.

PostgreSQL is ``postgresql://postgres@127.0.0.1:5432/test`` unless ``CALHAMER_TEST_POSTGRES``
names another; when it cannot be reached the PostgreSQL half is skipped, saying why. Each test
run gets its own schema there, dropped at the end; between tests every table is emptied.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from calhamer.server.config import Settings, utcnow
from calhamer.server.db import Database
from calhamer.server.models import Base

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from calhamer.server.app import create_app  # noqa: E402
from calhamer.server.worker import process_due  # noqa: E402

POSTGRES = os.environ.get("CALHAMER_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PASSWORD = "correct horse battery"


def postgres_problem() -> str | None:
    """Why PostgreSQL cannot be used for the tests, or None when it can."""
    try:
        engine = create_engine(POSTGRES, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"PostgreSQL is not reachable at {POSTGRES}: {first}"
    return None


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'judge.db'}"
        return
    problem = postgres_problem()
    if problem:
        pytest.skip(problem)
    schema = f"calhamer_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(POSTGRES)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        # Commits need not wait for the disk here (a test never survives a power cut).
        yield f"{POSTGRES}?options=-csearch_path%3D{schema}%20-csynchronous_commit%3Doff"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def database(database_url: str) -> Iterator[Database]:
    db = Database(database_url, sqlite_synchronous="NORMAL")
    db.migrate()
    yield db
    db.dispose()


def empty_tables(db: Database) -> None:
    with db.transaction() as session:
        for table in reversed(Base.metadata.sorted_tables):
            if table.name != "settings":
                session.execute(table.delete())


class Clock:
    """A clock the tests move by hand (deadlines, token expiry)."""

    def __init__(self) -> None:
        self.now = utcnow().replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def make_settings(database_url: str, clock: Clock, **overrides: Any) -> Settings:
    settings = Settings(database_url=database_url, embedded_worker=False,
                        sqlite_synchronous="NORMAL",
                        argon2_time_cost=1, argon2_memory_kib=1024, clock=clock,
                        secret_key="test-secret-key-not-for-production",
                        # a live page's event stream: the state once, then the end
                        events_seconds=0.0)
    for key, value in overrides.items():
        setattr(settings, key, value)
    return settings


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(database_url: str, clock: Clock) -> Settings:
    return make_settings(database_url, clock)


@pytest.fixture
def app(database: Database, settings: Settings):  # type: ignore[no-untyped-def]
    empty_tables(database)
    return create_app(settings, db=database)


@pytest.fixture
def client(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as c:
        yield c


@dataclass
class Player:
    """Someone using the API: a name, a bearer token, the power they play (if any)."""

    name: str
    token: str
    power: str | None = None
    user_id: int | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Judge:
    """Factories over the API for a test: users, games, players who joined."""

    client: TestClient
    database: Database
    settings: Settings
    clock: Clock
    game: dict[str, Any] = field(default_factory=dict)

    def user(self, name: str) -> Player:
        r = self.client.post("/api/users", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        return Player(name, r.json()["token"], user_id=r.json()["user"]["id"])

    def new_game(self, gm: Player, **options: Any) -> dict[str, Any]:
        r = self.client.post("/api/games", json={"name": "Test game", **options},
                             headers=gm.headers)
        assert r.status_code == 201, r.text
        self.game = r.json()
        return self.game

    def invite(self, power: str, game: dict[str, Any] | None = None) -> str:
        game = game or self.game
        return next(s["invite_token"] for s in game["seats"] if s["power"] == power)

    def join(self, power: str, name: str | None = None,
             game: dict[str, Any] | None = None) -> Player:
        r = self.client.post("/api/join", json={"invite": self.invite(power, game),
                                                "name": name or power.title()})
        assert r.status_code == 200, r.text
        return Player(name or power.title(), r.json()["token"], power,
                      r.json()["user"]["id"])

    def orders(self, player: Player, lines: list[str], phase: str = "S1901M",
               ready: bool | None = None, game_id: str | None = None) -> Any:
        body: dict[str, Any] = {"phase": phase, "orders": lines}
        if ready is not None:
            body["ready"] = ready
        return self.client.put(f"/api/games/{game_id or self.game['id']}/orders", json=body,
                               headers=player.headers)

    def process(self) -> list[str]:
        """Run a worker until nothing is due."""
        return process_due(self.database, self.settings, "test-worker")

    def process_now(self, gm: Player, game_id: str | None = None) -> list[str]:
        gid = game_id or self.game["id"]
        phase = self.client.get(f"/api/games/{gid}", headers=gm.headers).json()["game"]["phase"]
        r = self.client.post(f"/api/games/{gid}/control",
                             json={"action": "process", "phase": phase}, headers=gm.headers)
        assert r.status_code == 200, r.text
        return self.process()


@pytest.fixture
def judge(client: TestClient, database: Database, settings: Settings, clock: Clock) -> Judge:
    return Judge(client, database, settings, clock)


@pytest.fixture
def standard_game(judge: Judge) -> tuple[Judge, Player, Player, Player]:
    """A game run by ``gm`` with France (``a``) and Germany (``b``) joined."""
    gm = judge.user("gm")
    judge.new_game(gm)
    return judge, gm, judge.join("FRANCE"), judge.join("GERMANY")


@contextlib.contextmanager
def serve_on_loopback(app: Any) -> Iterator[str]:
    """Run ``app`` in a real uvicorn server on a free loopback port; yield its base URL."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
