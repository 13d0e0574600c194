"""Live pages that hold no database connection while they wait (issue 27, finding 1).

Each test runs a real server (uvicorn on loopback) and reads its event streams with httpx.
No timing is asserted: a read that never comes fails the test by its timeout (generous: the
machine is shared), and only a hang or a missing event reaches it.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import queue
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx

from calhamer.server import live_events
from calhamer.server.app import create_app
from calhamer.server.db import Database
from calhamer.server.worker import process_due
from conftest import PASSWORD, Clock, empty_tables, make_settings, serve_on_loopback

PATIENCE = 60.0  # seconds before a read counts as a hang


class Stream:
    """An open event stream, read in a thread of its own: each ``state`` event's data (other
    events by name, and "closed" at the end)."""

    def __init__(self, base: str, path: str, headers: dict[str, str]) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.events: queue.Queue[dict[str, Any] | str] = queue.Queue()
        self._conn = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
        self._conn.request("GET", path, headers=headers)
        self._response = self._conn.getresponse()
        self.code = self._response.status
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        kind = None
        try:
            while line := self._response.readline().decode():
                line = line.rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "state":
                    self.events.put(json.loads(line[6:]))
                elif line.startswith("data: "):
                    self.events.put(kind or "")
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed
            pass
        finally:
            self.events.put("closed")

    def next(self) -> dict[str, Any] | str:
        return self.events.get(timeout=PATIENCE)

    def close(self) -> None:
        if self._conn.sock is not None:
            with contextlib.suppress(OSError):
                self._conn.sock.shutdown(socket.SHUT_RDWR)
        self._conn.close()
        self._thread.join(timeout=PATIENCE)


def wait_until(done: Any) -> None:
    """Wait for ``done()`` (a hang fails after PATIENCE seconds)."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


class Table:
    """A server, a gamemaster and the players who joined their game, over the API."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.client = httpx.Client(base_url=base, timeout=PATIENCE)
        r = self.client.post("/api/users", json={"username": "gm", "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.gm = {"Authorization": "Bearer " + r.json()["token"]}
        r = self.client.post("/api/games", json={"name": "Live"}, headers=self.gm)
        assert r.status_code == 201, r.text
        self.game = r.json()
        self.id = self.game["id"]
        self.players: dict[str, dict[str, str]] = {}

    def join(self, power: str) -> dict[str, str]:
        invite = next(s["invite_token"] for s in self.game["seats"] if s["power"] == power)
        r = self.client.post("/api/join", json={"invite": invite, "name": power.title()})
        assert r.status_code == 200, r.text
        self.players[power] = {"Authorization": "Bearer " + r.json()["token"]}
        return self.players[power]

    def stream(self, headers: dict[str, str]) -> Stream:
        return Stream(self.base, f"/api/games/{self.id}/events", headers)

    def save(self, power: str, lines: list[str], ready: bool | None = None) -> None:
        body: dict[str, Any] = {"phase": "S1901M", "orders": lines}
        if ready is not None:
            body["ready"] = ready
        r = self.client.put(f"/api/games/{self.id}/orders", json=body,
                            headers=self.players[power])
        assert r.status_code == 200, r.text


@contextlib.contextmanager
def served(database: Database, database_url: str, **overrides: Any) -> Iterator[Table]:
    empty_tables(database)
    settings = make_settings(database_url, Clock(), events_seconds=120.0, **overrides)
    app = create_app(settings, db=database)
    with serve_on_loopback(app) as base:
        table = Table(base)
        try:
            yield table
        finally:
            table.client.close()


@contextlib.contextmanager
def streams(table: Table, *headers: dict[str, str]) -> Iterator[list[Stream]]:
    opened: list[Stream] = []
    try:
        for h in headers:
            opened.append(table.stream(h))
        yield opened
    finally:
        for s in opened:
            s.close()


def next_phase_heard(stream: Stream) -> str:
    """The first phase other than Spring 1901 that ``stream``'s events name ("closed" when the
    stream ends first)."""
    while (event := stream.next()) != "closed":
        assert isinstance(event, dict)
        if event["phase"] != "S1901M":
            return str(event["phase"])
    return "closed"


def first_states(opened: list[Stream]) -> list[dict[str, Any] | str]:
    firsts = [s.next() for s in opened]
    assert all(isinstance(f, dict) for f in firsts), firsts
    return firsts


def test_more_open_streams_than_connections_do_not_stall_other_requests(
        database: Database, database_url: str) -> None:
    """The stall: a pool of two connections, none spare, and six streams open (three users,
    two pages each); every other request still answers, and the streams still hear."""
    small = Database(database_url, sqlite_synchronous="NORMAL", pool=(2, 0))
    try:
        with served(small, database_url) as table:
            players = [table.join(p) for p in ("FRANCE", "GERMANY", "ITALY")]
            with streams(table, *players, *players) as opened:
                first_states(opened)
                for _ in range(5):
                    assert table.client.get("/lobby").status_code == 200
                    r = table.client.get(f"/api/games/{table.id}", headers=table.gm)
                    assert r.status_code == 200, r.text
                table.save("FRANCE", ["A Par H"])
                r = table.client.post(f"/api/games/{table.id}/messages",
                                      json={"body": "hello all", "to": []},
                                      headers=table.players["GERMANY"])
                assert r.status_code == 201, r.text
                for s in opened:  # every page hears of the message to all
                    while (event := s.next()) != "closed":
                        assert isinstance(event, dict)
                        if event["messages"] == 1:
                            break
                    assert event != "closed"
    finally:
        small.dispose()


def test_a_phase_judged_elsewhere_reaches_the_open_pages(database: Database,
                                                         database_url: str) -> None:
    """On SQLite the change comes from a worker thread of the same process (the embedded
    worker); on PostgreSQL from another engine, as another process's would (NOTIFY)."""
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        with streams(table, france, table.gm) as opened:
            assert [f["phase"] for f in first_states(opened)] == ["S1901M", "S1901M"]  # type: ignore[index]
            r = table.client.post(f"/api/games/{table.id}/control",
                                  json={"action": "process", "phase": "S1901M"},
                                  headers=table.gm)
            assert r.status_code == 200, r.text
            other = (database if database.is_sqlite else
                     Database(database_url, sqlite_synchronous="NORMAL"))
            settings = make_settings(database_url, Clock())
            try:
                worker = threading.Thread(target=process_due, args=(other, settings, "elsewhere"))
                worker.start()
                worker.join(timeout=PATIENCE)
            finally:
                if other is not database:
                    other.dispose()
            for s in opened:
                assert next_phase_heard(s) == "F1901M"


def test_a_phase_judged_by_another_process_reaches_the_open_pages(
        database: Database, database_url: str) -> None:
    """A separate worker process judges the phase through an engine of its own, whose commits
    this process's hub is not handed: on SQLite the log watcher reads the new log entry
    within a second or so, on PostgreSQL the NOTIFY arrives; either way the open pages hear
    of the new phase long before their streams would end (120 s here)."""
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        with streams(table, france, table.gm) as opened:
            first_states(opened)
            r = table.client.post(f"/api/games/{table.id}/control",
                                  json={"action": "process", "phase": "S1901M"},
                                  headers=table.gm)
            assert r.status_code == 200, r.text
            elsewhere = Database(database_url, sqlite_synchronous="NORMAL")
            try:
                process_due(elsewhere, make_settings(database_url, Clock()), "elsewhere")
            finally:
                elsewhere.dispose()
            for s in opened:
                assert next_phase_heard(s) == "F1901M"


def test_a_quiet_stream_sends_a_comment_to_stay_open(database: Database,
                                                     database_url: str,
                                                     monkeypatch: Any) -> None:
    """A stream with nothing new sends a comment line now and then (proxies close a quiet
    connection), and no event: the page's state is unchanged."""
    from calhamer.server.routes import live

    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.2)
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        conn = http.client.HTTPConnection(*table.base.removeprefix("http://").split(":"),
                                          timeout=PATIENCE)
        try:
            conn.request("GET", f"/api/games/{table.id}/events", headers=france)
            response = conn.getresponse()
            assert response.status == 200
            lines = [response.readline() for _ in range(8)]
        finally:
            conn.close()
    assert b": keep-alive\n" in lines, lines
    assert sum(line.startswith(b"event: state") for line in lines) == 1, lines


def test_a_user_keeps_at_most_four_streams(database: Database, database_url: str) -> None:
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        with streams(table, france, france, france, france) as opened:
            first_states(opened)
            assert database.live.streams(user_id=None) == 4
            r = table.client.get(f"/api/games/{table.id}/events", headers=france)
            assert r.status_code == 429
            assert r.headers["retry-after"].isdigit()
            assert "live pages open" in r.json()["detail"]
            germany = table.join("GERMANY")  # another user is not refused
            with streams(table, germany) as theirs:
                assert theirs[0].code == 200
                first_states(theirs)
        # the streams closed, the user may open new ones
        wait_until(lambda: database.live.streams() == 0)
        with streams(table, france) as again:
            assert again[0].code == 200
            first_states(again)


def test_the_process_bounds_its_streams(database: Database, database_url: str) -> None:
    with served(database, database_url, events_per_process=2) as table:
        france, germany, italy = (table.join(p) for p in ("FRANCE", "GERMANY", "ITALY"))
        with streams(table, france, germany) as opened:
            first_states(opened)
            r = table.client.get(f"/api/games/{table.id}/events", headers=italy)
            assert r.status_code == 503
            assert r.headers["retry-after"].isdigit()


def test_a_seat_changing_hands_is_pushed_to_the_players(database: Database,
                                                        database_url: str) -> None:
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        germany = table.join("GERMANY")
        with streams(table, france) as (stream,):
            before = stream.next()
            r = table.client.post(f"/api/games/{table.id}/seats/GERMANY/replace",
                                  headers=table.gm)
            assert r.status_code == 200, r.text
            after = stream.next()
            assert isinstance(after, dict) and after != before
            table.join("ITALY")  # a seat taken is told too
            assert stream.next() not in (before, after, "closed")
        # the replaced player's stream is refused
        r = table.client.get(f"/api/games/{table.id}/events", headers=germany)
        assert r.status_code in (401, 404)


def test_another_players_orders_tell_a_player_nothing(database: Database,
                                                      database_url: str) -> None:
    """Germany's orders and ready mark wake France's page (the notification says only that
    the game changed), but France's stream sends nothing until something France may see
    changes: its next event is France's own message."""
    with served(database, database_url) as table:
        france, _germany = table.join("FRANCE"), table.join("GERMANY")
        with streams(table, france, table.gm) as (theirs, gms):
            before, gm_before = theirs.next(), gms.next()
            table.save("GERMANY", ["A Mun H", "A Ber H", "F Kie H"], ready=True)
            gm_after = gms.next()  # the gamemaster sees it
            assert gm_after not in (gm_before, "closed")
            r = table.client.post(f"/api/games/{table.id}/messages",
                                  json={"body": "to all", "to": []}, headers=france)
            assert r.status_code == 201, r.text
            after = theirs.next()
            assert isinstance(after, dict) and isinstance(before, dict)
            assert after["messages"] == 1 and after["phase"] == before["phase"]


def test_a_notification_carries_only_the_game_and_a_kind(database: Database,
                                                         database_url: str) -> None:
    """What travels: the game's id and a kind. On PostgreSQL the payload is read off the
    channel by a listener of our own; on SQLite the hub is handed the same."""
    heard: list[str] = []
    with served(database, database_url) as table:
        france = table.join("FRANCE")
        table.join("GERMANY")
        listening = _listen(database_url, heard) if not database.is_sqlite else None
        try:
            if listening is None:
                notify = database.live.notify
                database.live.notify = (  # type: ignore[method-assign]
                    lambda game_id, power=None: heard.append(
                        f"{game_id}" + (f" {power}" if power else "")))
            table.save("GERMANY", ["A Mun - Bur"], ready=True)
            r = table.client.post(f"/api/games/{table.id}/messages",
                                  json={"body": "secret plan", "to": ["GERMANY"]},
                                  headers=france)
            assert r.status_code == 201, r.text
            table.client.post(f"/api/games/{table.id}/seats/ITALY/replace", headers=table.gm)
        finally:
            if listening is None:
                database.live.notify = notify  # type: ignore[method-assign]
            else:
                listening()
    # (other tests on the same PostgreSQL may be heard too: only this game's are ours)
    ours = [p for p in heard if p.startswith(table.id)]
    assert ours
    # the orders saved name their power (only its page and the gamemaster's need to look);
    # the ready mark that completes nothing here is Germany's alone
    pattern = (re.compile(rf"{table.id}( [A-Z]+)?") if database.is_sqlite
               else re.compile(rf"{table.id} (orders [A-Z]+|press|log)"))
    for payload in ours:
        assert pattern.fullmatch(payload), payload
    assert any(p.endswith(" GERMANY") for p in ours), ours
    assert not any(p.endswith((" FRANCE", " ITALY")) for p in ours), ours


def test_a_powers_own_change_wakes_only_its_page_and_those_that_see_all() -> None:
    """A change only one power may see (its orders before the phase is judged) wakes that
    power's stream and the gamemaster's, not the other players': with many open pages each
    save would otherwise cost a read per page of the game. A change everyone may see wakes
    every stream of the game, and none of another game's."""
    from calhamer.server.live_events import LiveHub

    async def woken() -> tuple[set[str], set[str]]:
        hub = LiveHub("sqlite://")
        subs = {name: hub.subscribe("g1", n, per_user=0, overall=0, power=power,
                                    sees_all=name == "gm")
                for n, (name, power) in enumerate([("france", "FRANCE"),
                                                   ("germany", "GERMANY"), ("gm", None)])}
        other = hub.subscribe("g2", 9, per_user=0, overall=0, power="GERMANY")
        hub.notify("g1", "GERMANY")
        await asyncio.sleep(0)
        first = {name for name, sub in subs.items() if sub.changed.is_set()}
        assert not other.changed.is_set()
        for sub in subs.values():
            sub.changed.clear()
        hub.notify("g1")
        await asyncio.sleep(0)
        second = {name for name, sub in subs.items() if sub.changed.is_set()}
        assert not other.changed.is_set()
        return first, second

    first, second = asyncio.run(woken())
    assert first == {"germany", "gm"}
    assert second == {"france", "germany", "gm"}


def _listen(database_url: str, heard: list[str]) -> Any:
    """Listen on the live channel in a thread; returns a function that stops and waits for
    the notifications sent so far."""
    import psycopg

    from calhamer.server.live_events import CHANNEL, conninfo

    conn = psycopg.connect(conninfo(database_url), autocommit=True)
    conn.execute(f"LISTEN {CHANNEL}")
    conn.execute(f"NOTIFY {CHANNEL}, 'end-of-test'")  # a marker, sent after the rest below

    def stop() -> None:
        with psycopg.connect(conninfo(database_url), autocommit=True) as other:
            other.execute(f"NOTIFY {CHANNEL}, 'end-of-test'")
        seen_end = 0
        for note in conn.notifies(timeout=PATIENCE):
            if note.payload == "end-of-test":
                seen_end += 1
                if seen_end == 2:
                    break
                continue
            heard.append(note.payload)
        conn.close()

    return stop


def test_the_digest_counts_what_the_pages_show(database: Database, database_url: str) -> None:
    """The live digest reads counts and marks as columns (``press.visible_count``,
    ``orders.visible_marks``, ``seats.seat_change_count``); each agrees with what the
    services give the viewer's page (``messages_for``, ``visible_orders``, ``seat_changes``)
    for every player and the gamemaster, with private press, saves and a seat change."""
    from sqlalchemy import select

    from calhamer.server.models import PhaseRow, User
    from calhamer.server.services import games, orders, press, seats
    from calhamer.server.views import viewer_by_id, viewer_for

    with served(database, database_url) as table:
        players = {p: table.join(p) for p in ("FRANCE", "GERMANY", "ITALY")}
        table.save("GERMANY", ["A Mun - Bur"], ready=True)
        table.save("FRANCE", ["A Par H"])
        for sender, to in (("FRANCE", ["GERMANY"]), ("GERMANY", []), ("ITALY", ["FRANCE"])):
            r = table.client.post(f"/api/games/{table.id}/messages",
                                  json={"body": "hello", "to": to}, headers=players[sender])
            assert r.status_code == 201, r.text
        r = table.client.post(f"/api/games/{table.id}/messages",
                              json={"body": "from the gamemaster", "to": ["ITALY"]},
                              headers=table.gm)
        assert r.status_code == 201, r.text
        table.client.post(f"/api/games/{table.id}/seats/AUSTRIA/replace", headers=table.gm)
        with database.session() as session:
            users = session.query(User).all()
            checked = 0
            for user in users:
                viewer = viewer_for(session, table.id, user)
                if viewer is None:
                    continue
                phase = games.current_phase(session, viewer.game, position=False)
                assert press.visible_count(session, viewer) == len(
                    press.messages_for(session, viewer))
                assert orders.visible_marks(session, viewer, phase) == [
                    (p, o.ready, o.updated_at)
                    for p, o in orders.visible_orders(session, viewer, phase).items()]
                assert seats.seat_change_count(session, viewer.game) == len(
                    seats.seat_changes(session, viewer.game))
                checked += 1
            assert checked == 4  # three players and the gamemaster
            # The stream's own reads: who is asking in one query (``viewer_by_id``) and the
            # seat changes counted with the phase (``seat_change_count_of``) agree too.
            for user in [*users, None]:
                by_id = viewer_by_id(session, table.id, user.id if user else 10**6)
                found = viewer_for(session, table.id, user)
                assert (by_id is None) == (found is None)
                if by_id is not None and found is not None:
                    assert (by_id.user.id, by_id.game.id, by_id.is_gm, by_id.power,
                            by_id.played) == (found.user.id, found.game.id, found.is_gm,
                                              found.power, found.played)
            assert viewer_by_id(session, "nosuchgame", users[0].id) is None
            assert viewer_by_id(session, "../not-an-id", users[0].id) is None
            counted = session.execute(select(PhaseRow.id, seats.seat_change_count_of(
                PhaseRow.game_id)).where(PhaseRow.game_id == table.id)).all()
            changes = len(seats.seat_changes(session, viewer.game))
            assert changes > 0 and counted and {n for _id, n in counted} == {changes}


def test_pages_are_told_when_the_transaction_commits_not_when_a_savepoint_is_released(
        tmp_path: Any) -> None:
    """A phase is judged inside a savepoint (``worker.process_one``); on SQLite the session's
    commit event also fires when the savepoint is released, while the phase is not yet
    committed. A page woken then read the old phase and was never told of the new one."""
    db = Database(f"sqlite:///{tmp_path / 'savepoint.db'}", sqlite_synchronous="NORMAL")
    try:
        db.migrate()
        told: list[tuple[str | None, str | None]] = []
        db.live.notify = lambda game_id, power=None: told.append((game_id, power))  # type: ignore[method-assign]
        with db.session(write=True) as session, session.begin():
            with session.begin_nested():
                live_events.publish(session, "G1", "log")
            assert told == []  # released, not committed
        assert told == [("G1", None)]
        with db.session(write=True) as session, session.begin():  # rolled back: nothing
            with session.begin_nested():
                live_events.publish(session, "G2", "log")
            session.rollback()
        assert told == [("G1", None)]
    finally:
        db.dispose()
