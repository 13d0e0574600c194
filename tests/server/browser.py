"""Helpers for the browser tests: a real server, a table of players set up over its API, and
their browsers logged in with Chromium (Debian's package) through Playwright."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from test_browser import CHROMIUM, FLAGS, _missing

from conftest import PASSWORD, empty_tables, make_settings, serve_on_loopback


@pytest.fixture
def live_server(database, database_url, clock) -> Iterator[str]:  # type: ignore[no-untyped-def]
    from calhamer.server.app import create_app

    empty_tables(database)
    settings = make_settings(database_url, clock, embedded_worker=True, worker_poll_seconds=0.2,
                             events_seconds=20.0)
    app = create_app(settings, db=database)
    with serve_on_loopback(app) as base:
        yield base


@pytest.fixture
def chromium() -> Iterator[Any]:
    problem = _missing()
    if problem:
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Seat:
    username: str
    token: str
    power: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Table:
    """A game set up and moved on over the live server's API, as bots would."""

    base: str
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=20))
    game: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, Seat] = field(default_factory=dict)

    def user(self, username: str) -> Seat:
        r = self.http.post(self.base + "/api/users", json={"username": username,
                                                           "password": PASSWORD})
        assert r.status_code == 201, r.text
        return Seat(username, r.json()["token"])

    def new_game(self, gm: Seat, **options: Any) -> str:
        r = self.http.post(self.base + "/api/games", headers=gm.headers,
                           json={"name": "Browser game", **options})
        assert r.status_code == 201, r.text
        self.game = r.json()
        self.seats["GM"] = gm
        return str(self.game["id"])

    @property
    def id(self) -> str:
        return str(self.game["id"])

    def join(self, power: str) -> Seat:
        seat = self.user(power.lower())
        invite = next(s["invite_token"] for s in self.game["seats"] if s["power"] == power)
        r = self.http.post(self.base + "/api/join", headers=seat.headers,
                           json={"invite": invite})
        assert r.status_code == 200, r.text
        seat.power = power
        self.seats[power] = seat
        return seat

    def phase(self) -> str:
        r = self.http.get(f"{self.base}/api/games/{self.id}", headers=self.seats["GM"].headers)
        assert r.status_code == 200, r.text
        return str(r.json()["game"]["phase"])

    def orders(self, power: str, lines: list[str], ready: bool | None = None) -> None:
        body: dict[str, Any] = {"phase": self.phase(), "orders": lines}
        if ready is not None:
            body["ready"] = ready
        r = self.http.put(f"{self.base}/api/games/{self.id}/orders",
                          headers=self.seats[power].headers, json=body)
        assert r.status_code == 200, r.text

    def message(self, power: str, body: str, to: list[str] | None = None) -> None:
        r = self.http.post(f"{self.base}/api/games/{self.id}/messages",
                           headers=self.seats[power].headers,
                           json={"body": body, "to": to or ["ALL"]})
        assert r.status_code == 201, r.text

    def process(self) -> str:
        """Process the phase now and wait for the worker: the new phase."""
        before = self.phase()
        r = self.http.post(f"{self.base}/api/games/{self.id}/control",
                           headers=self.seats["GM"].headers,
                           json={"action": "process", "phase": before})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = self.phase()
            if now != before:
                return now
            time.sleep(0.1)
        raise AssertionError(f"{before} was not adjudicated")

    def browse(self, browser: Any, power: str, **context: Any) -> Any:
        """A page of ``power``'s player (or "GM"), logged in, on the game page."""
        page = browser.new_context(**context).new_page()
        page.goto(self.base + "/login")
        page.fill("input[name=username]", self.seats[power].username)
        page.fill("input[name=password]", PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()
        page.goto(f"{self.base}/games/{self.id}")
        return page


def standard_table(base: str, powers: tuple[str, ...] = ("FRANCE", "GERMANY"),
                   **options: Any) -> Table:
    table = Table(base)
    table.new_game(table.user("gm"), **options)
    for power in powers:
        table.join(power)
    return table


def to_a_retreat(table: Table) -> None:
    """Spring 1901 and Fall 1901 of a standard game, to German A BUR dislodged by France
    (from Marseilles, supported from Paris): Fall 1901's retreats."""
    table.orders("GERMANY", ["A Mun - Bur"])
    table.orders("FRANCE", ["A Par H", "A Mar H"])
    assert table.process() == "F1901M"
    table.orders("FRANCE", ["A Mar - Bur", "A Par S A Mar - Bur"])
    table.orders("GERMANY", ["A Bur H"])
    assert table.process() == "F1901R"
