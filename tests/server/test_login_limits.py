"""Failed logins are limited per user name and per client address, in a sliding window.

The clock is the settings' (moved by hand: no test sleeps), the limits are small, and the
password hasher counts its work, so that a refused attempt is seen to cost no hashing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from calhamer.server.app import create_app
from calhamer.server.security import Passwords
from conftest import PASSWORD, Clock, empty_tables, make_settings

WINDOW = 600
PER_ACCOUNT = 3
PER_ADDRESS = 5
SIGNUP_WINDOW = 3600
SIGNUPS = 4  # per address in SIGNUP_WINDOW; the fixture signs up two users from HERE
HERE = ("127.0.0.2", 50000)  # client addresses as the app sees them (no traffic goes there)
THERE = ("127.0.0.3", 50000)


class CountingPasswords(Passwords):
    """The app's hasher, counting the passwords it checks."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_kib=1024)
        self.verified = 0
        self.hashed = 0
        self._lock = threading.Lock()

    def hash(self, password: str) -> str:
        with self._lock:
            self.hashed += 1
        return super().hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        with self._lock:
            self.verified += 1
        return super().verify(stored, password)


class Limited:
    def __init__(self, database: Any, database_url: str) -> None:
        self.clock = Clock()
        settings = make_settings(database_url, self.clock, login_window_seconds=WINDOW,
                                 login_failures_per_account=PER_ACCOUNT,
                                 login_failures_per_address=PER_ADDRESS,
                                 signup_window_seconds=SIGNUP_WINDOW,
                                 signups_per_address=SIGNUPS)
        self.apps = [create_app(settings, db=database) for _ in range(2)]  # two web processes
        self.passwords = CountingPasswords()
        for app in self.apps:
            app.state.passwords = self.passwords
        self.client = self.at(HERE)
        for name in ("alice", "bob"):
            r = self.client.post("/api/users", json={"username": name, "password": PASSWORD})
            assert r.status_code == 201, r.text

    def at(self, address: tuple[str, int], app: int = 0) -> TestClient:
        return TestClient(self.apps[app], client=address, follow_redirects=False)

    def login(self, username: str, password: str, client: TestClient | None = None) -> Any:
        return (client or self.client).post("/api/sessions", json={"username": username,
                                                                  "password": password})


@pytest.fixture
def limited(database: Any, database_url: str) -> Iterator[Limited]:
    empty_tables(database)
    yield Limited(database, database_url)


def test_an_account_is_locked_after_too_many_failures(limited: Limited) -> None:
    for _ in range(PER_ACCOUNT):
        assert limited.login("alice", "wrong password").status_code == 400
    checked = limited.passwords.verified
    for password in ("wrong password", PASSWORD):  # the right one too: guessing must stop
        r = limited.login("alice", password)
        assert r.status_code == 429, r.text
        assert r.json()["detail"] == ("too many failed logins for this user name; try again "
                                      "in 10 minutes")
        assert r.headers["retry-after"] == str(WINDOW)
    assert limited.passwords.verified == checked  # a refused attempt hashes nothing
    # Another account from another address is not affected.
    assert limited.login("bob", PASSWORD, limited.at(THERE)).status_code == 200
    limited.clock.advance(seconds=WINDOW - 1)
    r = limited.login("alice", PASSWORD)
    assert r.status_code == 429 and r.headers["retry-after"] == "1"
    assert r.json()["detail"].endswith("try again in 1 second")
    limited.clock.advance(seconds=1)
    assert limited.login("alice", PASSWORD).status_code == 200


def test_the_window_slides(limited: Limited) -> None:
    for step in (0, 300, 100):  # failures at 0, 300 and 400 seconds
        limited.clock.advance(seconds=step)
        assert limited.login("alice", "wrong password").status_code == 400
    limited.clock.advance(seconds=100)  # 500: the first failure leaves the window at 600
    r = limited.login("alice", PASSWORD)
    assert r.status_code == 429 and r.headers["retry-after"] == "100"
    limited.clock.advance(seconds=100)  # 600: two failures left in the window
    assert limited.login("alice", "wrong password").status_code == 400
    r = limited.login("alice", PASSWORD)  # failures at 300, 400, 600: free at 900
    assert r.status_code == 429 and r.headers["retry-after"] == "300"


def test_a_success_clears_the_accounts_failures(limited: Limited) -> None:
    for _ in range(PER_ACCOUNT - 1):
        assert limited.login("alice", "wrong password").status_code == 400
    assert limited.login("alice", PASSWORD).status_code == 200
    for _ in range(PER_ACCOUNT):
        assert limited.login("alice", "wrong password").status_code == 400
    assert limited.login("alice", "wrong password").status_code == 429


def test_an_address_is_limited_across_user_names(limited: Limited) -> None:
    for number in range(PER_ADDRESS):
        assert limited.login(f"nobody{number}", "wrong password").status_code == 400
    checked = limited.passwords.verified
    r = limited.login("bob", PASSWORD)
    assert r.status_code == 429, r.text
    assert r.json()["detail"] == ("too many failed logins from your address; try again in "
                                  "10 minutes")
    assert limited.passwords.verified == checked
    assert limited.login("bob", PASSWORD, limited.at(THERE)).status_code == 200


def test_every_web_process_counts_the_same_attempts(limited: Limited) -> None:
    for app in (0, 1, 0):
        assert limited.login("alice", "wrong", limited.at(HERE, app)).status_code == 400
    assert limited.login("alice", PASSWORD, limited.at(THERE, 1)).status_code == 429


def test_attempts_at_the_same_moment_do_not_slip_past_the_limit(limited: Limited) -> None:
    answers: list[int] = []

    def attempt(app: int) -> None:
        answers.append(limited.login("alice", "wrong password",
                                     limited.at(HERE, app)).status_code)

    threads = [threading.Thread(target=attempt, args=(n % 2,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each attempt is counted before its hashing, so never more than the limit are let
    # through; a burst may be refused more strictly (an attempt counts the others being
    # checked with it), but the refused leave nothing behind.
    admitted = answers.count(400)
    assert 1 <= admitted <= PER_ACCOUNT and answers.count(429) == 8 - admitted
    assert limited.passwords.verified == admitted
    for _ in range(PER_ACCOUNT - admitted):
        assert limited.login("alice", "wrong password").status_code == 400
    assert limited.login("alice", "wrong password").status_code == 429


def test_the_login_page_says_how_long_to_wait(limited: Limited) -> None:
    browser = limited.at(HERE)
    page = browser.get("/login")
    csrf = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    for _ in range(PER_ACCOUNT):
        r = browser.post("/login", data={"csrf_token": csrf, "username": "alice",
                                         "password": "wrong password"})
        assert r.status_code == 400 and "wrong user name or password" in r.text
    r = browser.post("/login", data={"csrf_token": csrf, "username": "alice",
                                     "password": PASSWORD})
    assert r.status_code == 429
    assert "too many failed logins for this user name; try again in 10 minutes" in r.text
    assert r.headers["retry-after"] == str(WINDOW)


def test_sign_ups_from_one_address_are_limited(limited: Limited) -> None:
    for name in ("carol", "dave"):  # alice and bob were the first two
        r = limited.client.post("/api/users", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
    hashed = limited.passwords.hashed
    r = limited.client.post("/api/users", json={"username": "erin", "password": PASSWORD})
    assert r.status_code == 429, r.text
    assert r.json()["detail"] == "too many sign-ups from your address; try again in 60 minutes"
    assert r.headers["retry-after"] == str(SIGNUP_WINDOW)
    assert limited.passwords.hashed == hashed  # refused before any hashing
    assert limited.login("erin", PASSWORD, limited.at(THERE)).status_code == 400  # not made
    # Another address, or another web process from there, is not affected.
    r = limited.at(THERE, app=1).post("/api/users", json={"username": "erin",
                                                          "password": PASSWORD})
    assert r.status_code == 201, r.text
    limited.clock.advance(seconds=SIGNUP_WINDOW)
    r = limited.client.post("/api/users", json={"username": "frank", "password": PASSWORD})
    assert r.status_code == 201, r.text


def test_the_sign_up_page_says_how_long_to_wait(limited: Limited) -> None:
    browser = limited.at(HERE)
    page = browser.get("/signup")
    csrf = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    for name in ("carol", "dave", "erin"):
        r = browser.post("/signup", data={"csrf_token": csrf, "username": name,
                                          "password": PASSWORD})
        if name == "erin":
            break
        assert r.status_code == 303, r.text
        browser.cookies.clear()
        page = browser.get("/signup")
        csrf = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    assert r.status_code == 429
    assert "too many sign-ups from your address; try again in 60 minutes" in r.text
    assert 'value="erin"' in r.text  # what was typed is kept
