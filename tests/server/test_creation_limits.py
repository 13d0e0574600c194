"""Finding 3 of issue 27: new games and guests are limited per account and per address.

The limits are small here, the clock is the settings' (moved by hand: no test sleeps), and
two apps stand for two web processes sharing the database, as in ``test_login_limits.py``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from calhamer.server.app import create_app
from calhamer.server.models import GameRow, User
from conftest import PASSWORD, Clock, empty_tables, make_settings

WINDOW = 3600
GAMES_PER_ACCOUNT = 3
GAMES_PER_ADDRESS = 5
GUESTS_PER_ADDRESS = 4
HERE = ("127.0.0.2", 50000)  # client addresses as the app sees them (no traffic goes there)
THERE = ("127.0.0.3", 50000)
UNTIMED = {"movement": 0, "retreat": 0, "adjustment": 0}


class Limited:
    def __init__(self, database: Any, database_url: str, **overrides: Any) -> None:
        self.database = database
        self.clock = Clock()
        limits = {"creation_window_seconds": WINDOW, "games_per_account": GAMES_PER_ACCOUNT,
                  "games_per_address": GAMES_PER_ADDRESS,
                  "guests_per_address": GUESTS_PER_ADDRESS, **overrides}
        settings = make_settings(database_url, self.clock, **limits)
        self.apps = [create_app(settings, db=database) for _ in range(2)]  # two web processes

    def at(self, address: tuple[str, int], app: int = 0) -> TestClient:
        return TestClient(self.apps[app], client=address, follow_redirects=False)

    def account(self, name: str, address: tuple[str, int] = THERE) -> dict[str, str]:
        r = self.at(address).post("/api/users", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        return {"Authorization": f"Bearer {r.json()['token']}"}

    def new_game(self, auth: dict[str, str], address: tuple[str, int] = HERE, app: int = 0,
                 **body: Any) -> Any:
        return self.at(address, app).post("/api/games", headers=auth,
                                          json={"name": "G", "deadlines": UNTIMED, **body})

    def count(self, model: Any, *where: Any) -> int:
        with self.database.session() as session:
            return session.scalar(select(func.count()).select_from(model).where(*where)) or 0


@pytest.fixture
def limited(database: Any, database_url: str) -> Iterator[Limited]:
    empty_tables(database)
    yield Limited(database, database_url)


def refused_saying(r: Any, sentence: str, wait: int) -> None:
    assert r.status_code == 429, r.text
    assert r.headers["retry-after"] == str(wait)
    text = r.json()["detail"] if r.headers["content-type"].startswith("application/json") \
        else r.text
    assert sentence in text


def test_finding3_games_past_the_account_limit_get_429_with_retry_after(
        limited: Limited) -> None:
    alice = limited.account("alice")
    for _ in range(GAMES_PER_ACCOUNT):
        assert limited.new_game(alice).status_code == 201
    # From another address and another web process too: the limit is the account's.
    r = limited.new_game(alice, THERE, app=1)
    refused_saying(r, "too many games created by this account; try again in 60 minutes", WINDOW)
    assert limited.count(GameRow) == GAMES_PER_ACCOUNT  # nothing was made
    limited.clock.advance(seconds=WINDOW - 1)
    r = limited.new_game(alice)
    refused_saying(r, "try again in 1 second", 1)
    limited.clock.advance(seconds=1)
    assert limited.new_game(alice).status_code == 201


def test_finding3_games_past_the_address_limit_get_429(limited: Limited) -> None:
    accounts = [limited.account(name) for name in ("alice", "bob")]
    for n in range(GAMES_PER_ADDRESS):
        assert limited.new_game(accounts[n % 2], HERE, app=n % 2).status_code == 201
    r = limited.new_game(limited.account("carol"))
    refused_saying(r, "too many games created from your address; try again in 60 minutes",
                   WINDOW)
    assert limited.new_game(limited.account("dave"), THERE).status_code == 201  # elsewhere


def test_finding3_a_refused_or_failed_creation_does_not_count(limited: Limited) -> None:
    alice = limited.account("alice")
    for _ in range(GAMES_PER_ACCOUNT + 2):
        r = limited.new_game(alice, variant="no-such-variant")
        assert r.status_code == 400, r.text
    for _ in range(GAMES_PER_ACCOUNT):
        assert limited.new_game(alice).status_code == 201
    for _ in range(3):  # refusals do not push the wait further out
        limited.clock.advance(seconds=600)
        assert limited.new_game(alice).status_code == 429
    limited.clock.advance(seconds=WINDOW - 1800)
    assert limited.new_game(alice).status_code == 201


def test_finding3_guests_past_the_limit_get_429_on_the_api(limited: Limited) -> None:
    alice = limited.account("alice")
    game = limited.new_game(alice, THERE).json()
    invites = [s["invite_token"] for s in game["seats"]]
    joiner = limited.at(HERE)
    for invite in invites[:GUESTS_PER_ADDRESS]:
        assert joiner.post("/api/join", json={"invite": invite}).status_code == 200
    guests = limited.count(User, User.username.is_(None))
    r = joiner.post("/api/join", json={"invite": invites[GUESTS_PER_ADDRESS]})
    refused_saying(r, "too many guests made from your address (log in to play without "
                   "making one); try again in 60 minutes", WINDOW)
    assert limited.count(User, User.username.is_(None)) == guests  # no guest made
    # An account joins without making a guest: not limited.
    bob = limited.account("bob")
    r = joiner.post("/api/join", json={"invite": invites[GUESTS_PER_ADDRESS]}, headers=bob)
    assert r.status_code == 200, r.text
    # A join that fails (the power is taken) makes no guest and does not count.
    limited.clock.advance(seconds=WINDOW)
    for _ in range(GUESTS_PER_ADDRESS + 1):
        assert joiner.post("/api/join", json={"invite": invites[0]}).status_code == 409
    assert joiner.post("/api/join", json={"invite": invites[-1]}).status_code == 200


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found[1]


def test_finding3_the_new_game_form_says_when_to_try_again(limited: Limited) -> None:
    """Each new game from a browser that is not logged in makes a guest too: the guests'
    limit answers first, on the form itself."""
    def create() -> Any:
        browser = limited.at(HERE)
        csrf = _csrf(browser.get("/").text)
        return browser.post("/games", data={"csrf_token": csrf, "name": "Friday game",
                                            "gm_name": "Alice", "variant": "standard",
                                            "press": "full", "movement": "60"})
    for _ in range(GUESTS_PER_ADDRESS):
        assert create().status_code == 303
    r = create()
    assert r.status_code == 429 and r.headers["retry-after"] == str(WINDOW)
    assert ("too many guests made from your address (log in to play without making one); "
            "try again in 60 minutes") in r.text
    assert 'id="new-game"' in r.text  # the form, to send again
    assert limited.count(GameRow) == GUESTS_PER_ADDRESS


def test_finding3_the_join_page_says_when_to_try_again(limited: Limited) -> None:
    alice = limited.account("alice")
    game = limited.new_game(alice, THERE).json()
    answers = []
    for seat in game["seats"][:GUESTS_PER_ADDRESS + 1]:
        browser = limited.at(HERE)
        link = f"/join/{seat['invite_token']}"
        csrf = _csrf(browser.get(link).text)
        answers.append(browser.post(link, data={"csrf_token": csrf, "name": "Bob"}))
    assert [r.status_code for r in answers] == [303] * GUESTS_PER_ADDRESS + [429]
    assert answers[-1].headers["retry-after"] == str(WINDOW)
    assert "too many guests made from your address" in answers[-1].text
    assert "try again in 60 minutes" in answers[-1].text


def test_finding3_creations_at_the_same_moment_do_not_slip_past_the_limit(
        limited: Limited) -> None:
    alice = limited.account("alice")
    answers: list[int] = []

    def attempt(app: int) -> None:
        answers.append(limited.new_game(alice, HERE, app=app).status_code)

    threads = [threading.Thread(target=attempt, args=(n % 2,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each creation is counted under the limit's lock before anything is made: exactly as
    # many as the limit allows get through, the rest are refused.
    admitted = answers.count(201)
    assert admitted == min(GAMES_PER_ACCOUNT, 8) and answers.count(429) == 8 - admitted
    assert limited.count(GameRow) == admitted
    assert limited.new_game(alice).status_code == 429


def test_finding3_guests_at_the_same_moment_do_not_slip_past_the_limit(
        limited: Limited) -> None:
    alice = limited.account("alice")
    invites = [s["invite_token"] for s in limited.new_game(alice, THERE).json()["seats"]]
    answers: list[int] = []

    def attempt(n: int) -> None:
        r = limited.at(HERE, n % 2).post("/api/join", json={"invite": invites[n]})
        answers.append(r.status_code)

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(len(invites))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    admitted = answers.count(200)
    assert admitted == min(GUESTS_PER_ADDRESS, len(invites))
    assert answers.count(429) == len(invites) - admitted
    assert limited.count(User, User.username.is_(None)) == admitted


def test_finding3_a_limit_of_zero_is_no_limit(database: Any, database_url: str) -> None:
    empty_tables(database)
    limited = Limited(database, database_url, games_per_account=0, games_per_address=0)
    alice = limited.account("alice")
    for _ in range(GAMES_PER_ADDRESS + 2):
        assert limited.new_game(alice).status_code == 201


def test_finding3_the_limits_are_read_from_the_environment(monkeypatch: Any) -> None:
    from calhamer.server.config import Settings

    monkeypatch.setenv("CALHAMER_GAMES_PER_ACCOUNT", "2")
    monkeypatch.setenv("CALHAMER_GUESTS_PER_ADDRESS", "0")
    monkeypatch.setenv("CALHAMER_UNPLAYED_GAME_HOURS", "48")
    settings = Settings.from_env()
    assert (settings.games_per_account, settings.guests_per_address,
            settings.unplayed_game_hours, settings.games_per_address) == (2, 0, 48, 30)
    monkeypatch.setenv("CALHAMER_GAMES_PER_ADDRESS", "many")
    with pytest.raises(ValueError, match=r"CALHAMER_GAMES_PER_ADDRESS must be a whole number "
                                         r"\(0 or more\), not 'many'"):
        Settings.from_env()
