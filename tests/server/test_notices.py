"""Being told (issue 29, item 7): e-mail (through a real SMTP server, aiosmtpd) and Web Push
(the push service faked at the network boundary only: the message is really encrypted and
signed, and decrypted here as a browser would) for a new phase, a deadline within the hour
with no orders saved, and new press; each kind switched off by its player is not sent; the
workers send them, once. On SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import json
import socket
from collections.abc import Iterator
from email import message_from_bytes
from typing import Any

import pytest

from conftest import Judge, Player


class Inbox:
    """What the SMTP server received: (recipients, message) pairs."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], Any]] = []
        self.answers: list[str] = []  # what to answer the next mails, before "250 OK"
        self.refused = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.answers:
            self.refused += 1
            return self.answers.pop(0)
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def to(self, address: str) -> list[Any]:
        return [m for rcpt, m in self.mails if address in rcpt]


@pytest.fixture
def inbox(settings) -> Iterator[Inbox]:  # type: ignore[no-untyped-def]
    from aiosmtpd.controller import Controller

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    box = Inbox()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    settings.smtp_host, settings.smtp_port = "127.0.0.1", port
    settings.mail_from = "judge@calhamer.test"
    settings.public_url = "https://judge.test"
    try:
        yield box
    finally:
        controller.stop()


def _sweep(judge: Judge, sender: Any = None) -> list[Any]:
    from calhamer.server.services import notices

    return notices.sweep(judge.database, judge.settings, sender)


def _choose(judge: Judge, who: Player, **choice: Any) -> Any:
    body = {"email": None, "phase": True, "deadline": True, "press": True, **choice}
    r = judge.client.put("/api/notices", json=body, headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_new_phase_is_mailed_to_those_it_needs(standard_game, inbox):
    judge, gm, france, _germany = standard_game
    _choose(judge, france, email="anne@example.org")
    assert _sweep(judge) == []  # nothing has happened yet
    judge.process_now(gm)
    sent = _sweep(judge)
    assert [(d.channel, d.to, d.notice.kind, d.problem) for d in sent] == [
        ("mail", "anne@example.org", "phase", None)]
    (mail,) = inbox.to("anne@example.org")
    assert "Fall 1901" in mail["Subject"] and mail["From"] == "judge@calhamer.test"
    body = mail.get_payload()
    assert f"https://judge.test/games/{judge.game['id']}" in body
    assert _sweep(judge) == []  # told once
    assert len(inbox.mails) == 1


def test_a_kind_switched_off_is_not_sent(standard_game, inbox):
    judge, gm, france, germany = standard_game
    _choose(judge, france, email="anne@example.org", phase=False)
    _choose(judge, germany, email="bert@example.org", press=False)
    judge.process_now(gm)
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages",
                          json={"body": "Shall we?", "to": []}, headers=germany.headers)
    assert r.status_code == 201, r.text
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages",
                          json={"body": "Indeed.", "to": []}, headers=france.headers)
    assert r.status_code == 201, r.text
    sent = {(d.to, d.notice.kind) for d in _sweep(judge)}
    # France: no phase notice (off), press on; Germany: phase on, press off.
    assert sent == {("anne@example.org", "press"), ("bert@example.org", "phase")}
    (press_mail,) = inbox.to("anne@example.org")
    assert "1 new message" in press_mail["Subject"]
    assert "Germany" in press_mail.get_payload()


def test_a_near_deadline_warns_only_those_without_orders(judge, inbox):
    gm = judge.user("gm")
    judge.new_game(gm, deadlines={"movement": 90, "retreat": 60, "adjustment": 60})
    france, germany = judge.join("FRANCE"), judge.join("GERMANY")
    _choose(judge, france, email="anne@example.org")
    _choose(judge, germany, email="bert@example.org")
    assert judge.orders(france, ["A PAR - BUR"]).status_code == 200
    judge.clock.advance(minutes=20)
    assert _sweep(judge) == []  # 70 minutes left
    judge.clock.advance(minutes=15)
    sent = _sweep(judge)
    assert [(d.to, d.notice.kind) for d in sent] == [("bert@example.org", "deadline")]
    assert "55 minutes" in inbox.to("bert@example.org")[0]["Subject"]
    judge.clock.advance(minutes=10)
    assert _sweep(judge) == []  # warned once a phase


def test_press_is_told_only_to_those_who_may_read_it(judge, inbox):
    gm = judge.user("gm")
    judge.new_game(gm)
    players = {p: judge.join(p) for p in ("FRANCE", "GERMANY", "ITALY")}
    for power, player in players.items():
        _choose(judge, player, email=f"{power.lower()}@example.org")
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages",
                          json={"body": "Just us", "to": ["GERMANY"]},
                          headers=players["FRANCE"].headers)
    assert r.status_code == 201, r.text
    sent = [(d.to, d.notice.kind) for d in _sweep(judge)]
    assert sent == [("germany@example.org", "press")]


def test_in_fog_a_phase_is_told_to_every_power(judge, inbox):
    """Kriegsplomacy waits for every power in every phase, so the phase notice goes to every
    seated power alike: being told of a retreat phase tells nobody they were dislodged."""
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard+fog")
    players = {p: judge.join(p) for p in ("FRANCE", "GERMANY", "ITALY")}
    for power, player in players.items():
        _choose(judge, player, email=f"{power.lower()}@example.org")
    judge.orders(players["GERMANY"], ["A MUN - BUR"])
    judge.process_now(gm)  # to Spring 1901's retreats
    sent = sorted((d.to, d.notice.kind) for d in _sweep(judge))
    assert sent == [(f"{p}@example.org", "phase") for p in ("france", "germany", "italy")]
    subjects = {m["Subject"].replace(m["To"].split("@")[0].title(), "X") for _, m in inbox.mails}
    assert len(subjects) == 1, subjects  # the same words for everyone


# -- Web Push -----------------------------------------------------------------------------------


class Browser:
    """A browser's push keys, to subscribe with and to decrypt what the push service brings."""

    def __init__(self) -> None:
        import os

        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = ec.generate_private_key(ec.SECP256R1())
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)
        self.p256dh = base64.urlsafe_b64encode(public).rstrip(b"=").decode()
        self.auth_text = base64.urlsafe_b64encode(self.auth).rstrip(b"=").decode()

    def decrypt(self, body: bytes) -> Any:
        import http_ece

        return json.loads(http_ece.decrypt(body, private_key=self.key,
                                           auth_secret=self.auth, version="aes128gcm"))


class PushService:
    """The push service's side of the network: each POST recorded, answered ``status``."""

    def __init__(self, status: int = 201) -> None:
        self.status = status
        self.posts: list[tuple[str, bytes, dict[str, str]]] = []

    def post(self, url: str, data: bytes = b"", headers: Any = None, **_: Any) -> Any:
        self.posts.append((url, data, dict(headers or {})))
        status = self.status

        class Answer:
            status_code = status
            reason = "Gone" if status == 410 else "Created"
            text = ""
            content = b""
            headers: dict[str, str] = {}  # noqa: RUF012

        return Answer()


def _push_sender(judge: Judge, service: PushService) -> Any:
    from calhamer.server.services import notices

    return notices.NetSender(judge.settings, notices.vapid_key(judge.database, judge.settings),
                             http=service)


def test_push_is_encrypted_for_the_browser_and_signed(standard_game):
    judge, gm, france, _germany = standard_game
    browser = Browser()
    endpoint = "https://push.example.net/send/abc"
    r = judge.client.post("/api/notices/push", headers=france.headers, json={
        "endpoint": endpoint, "keys": {"p256dh": browser.p256dh, "auth": browser.auth_text}})
    assert r.status_code == 201, r.text
    assert r.json()["push_subscriptions"] == 1
    key = r.json()["vapid_public_key"]
    judge.process_now(gm)
    service = PushService()
    sent = _sweep(judge, _push_sender(judge, service))
    assert [(d.channel, d.notice.kind, d.problem) for d in sent] == [("push", "phase", None)]
    ((url, body, headers),) = service.posts
    assert url == endpoint
    notice = browser.decrypt(body)
    assert "Fall 1901" in notice["title"] and notice["url"] == f"/games/{judge.game['id']}"
    lower = {k.lower(): str(v) for k, v in headers.items()}
    assert lower["content-encoding"] == "aes128gcm"
    assert f"k={key}" in lower["authorization"]  # the key browsers are given


def test_a_push_kind_switched_off_is_not_pushed(standard_game):
    judge, gm, france, _germany = standard_game
    browser = Browser()
    judge.client.post("/api/notices/push", headers=france.headers, json={
        "endpoint": "https://push.example.net/x", "keys": {"p256dh": browser.p256dh,
                                                           "auth": browser.auth_text}})
    _choose(judge, france, phase=False)
    judge.process_now(gm)
    service = PushService()
    assert _sweep(judge, _push_sender(judge, service)) == []
    assert service.posts == []


def test_a_subscription_the_push_service_forgot_is_dropped(standard_game):
    judge, gm, france, _germany = standard_game
    browser = Browser()
    judge.client.post("/api/notices/push", headers=france.headers, json={
        "endpoint": "https://push.example.net/gone", "keys": {"p256dh": browser.p256dh,
                                                              "auth": browser.auth_text}})
    judge.process_now(gm)
    sent = _sweep(judge, _push_sender(judge, PushService(410)))
    assert [d.problem for d in sent] == ["the subscription is gone"]
    assert judge.client.get("/api/notices", headers=france.headers).json()[
        "push_subscriptions"] == 0


def test_bad_settings_and_subscriptions_are_refused_clearly(standard_game):
    judge, _gm, france, _germany = standard_game
    r = judge.client.put("/api/notices", headers=france.headers,
                         json={"email": "not an address"})
    assert r.status_code == 400 and "e-mail address" in r.json()["detail"]
    r = judge.client.post("/api/notices/push", headers=france.headers, json={
        "endpoint": "http://plain.example.net/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}})
    assert r.status_code == 400 and "https://" in r.json()["detail"]
    r = judge.client.post("/api/notices/push", headers=france.headers, json={
        "endpoint": "https://push.example.net/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}})
    assert r.status_code == 400 and "push key" in r.json()["detail"]
    assert judge.client.get("/api/notices").status_code == 401


def test_the_worker_sends_them(standard_game, inbox):
    """The worker's loop tells (``Worker.tell``), not the request that made the news."""
    from calhamer.server.worker import Worker

    judge, _gm, france, germany = standard_game
    _choose(judge, germany, email="bert@example.org")
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages",
                          json={"body": "Hello", "to": []}, headers=france.headers)
    assert r.status_code == 201
    assert inbox.mails == []  # the request sent nothing
    Worker(judge.database, judge.settings).tell()
    assert [rcpt for rcpt, _ in inbox.mails] == [["bert@example.org"]]


def test_orders_due_saved_and_ready(standard_game):
    from calhamer.server.services.notices import order_marks

    judge, gm, france, germany = standard_game
    italy = judge.join("ITALY")
    judge.orders(france, ["A PAR H"])
    judge.orders(germany, ["A BER H"], ready=True)
    with judge.database.session() as session:
        marks = {m.power: m.state for user in (france, germany, italy)
                 for m in order_marks(session, user.user_id or 0)}
        assert marks == {"FRANCE": "saved", "GERMANY": "ready", "ITALY": "due"}
        assert order_marks(session, gm.user_id or 0) == []  # the gamemaster plays none


class FlakySender:
    """A mail server that fails ``failures`` times (for ever with None), then takes mail; every
    try recorded. ``refuse`` makes each failure a refusal for good."""

    def __init__(self, failures: int | None, refuse: bool = False) -> None:
        self.failures = failures
        self.refuse = refuse
        self.tries: list[str] = []
        self.mails: list[tuple[str, str]] = []

    def mail(self, to: str, subject: str, text: str) -> None:
        from calhamer.server.services.notices import Refused

        self.tries.append(to)
        if self.failures is None or len(self.tries) <= self.failures:
            if self.refuse:
                raise Refused("550 no such mailbox")
            raise ConnectionRefusedError("the mail server is down")
        self.mails.append((to, subject))

    def push(self, subscription: dict[str, Any], payload: str) -> int:
        raise AssertionError("no push subscription in these tests")


def _worker(judge: Judge, sender: FlakySender) -> Any:
    from calhamer.server.worker import Worker

    worker = Worker(judge.database, judge.settings)
    worker.sender = sender
    return worker


def test_a_failed_notice_is_retried_by_the_worker_after_a_wait(standard_game):
    judge, gm, france, _germany = standard_game
    _choose(judge, france, email="anne@example.org")
    judge.process_now(gm)
    sender = FlakySender(failures=1)
    worker = _worker(judge, sender)
    worker.tell()
    assert sender.tries == ["anne@example.org"] and sender.mails == []
    worker.tell()  # the wait (notice_retry_seconds) is not over: not tried yet
    assert len(sender.tries) == 1
    judge.clock.advance(seconds=judge.settings.notice_retry_seconds)
    worker.tell()
    assert len(sender.tries) == 2
    assert [(to, "Fall 1901" in subject) for to, subject in sender.mails] == [
        ("anne@example.org", True)]
    judge.clock.advance(hours=1)
    worker.tell()  # sent: never again
    assert len(sender.tries) == 2 and len(worker.retries) == 0


def test_a_notice_that_keeps_failing_is_given_up_and_logged(standard_game, caplog):
    judge, gm, france, _germany = standard_game
    judge.settings.notice_attempts = 3
    wait = judge.settings.notice_retry_seconds
    _choose(judge, france, email="anne@example.org")
    judge.process_now(gm)
    sender = FlakySender(failures=None)
    worker = _worker(judge, sender)
    worker.tell()
    judge.clock.advance(seconds=wait)
    worker.tell()
    assert len(sender.tries) == 2
    judge.clock.advance(seconds=wait)  # the wait has doubled: not yet
    worker.tell()
    assert len(sender.tries) == 2
    with caplog.at_level("ERROR", logger="calhamer.notices"):
        judge.clock.advance(seconds=wait)
        worker.tell()
    assert len(sender.tries) == 3  # the third and last try
    assert len(worker.retries) == 0
    assert any("gave up" in r.getMessage() and "after 3 tries" in r.getMessage()
               for r in caplog.records)
    judge.clock.advance(days=2)
    worker.tell()
    assert len(sender.tries) == 3 and sender.mails == []


def test_a_refused_notice_or_one_no_longer_wanted_is_not_retried(standard_game):
    judge, gm, france, germany = standard_game
    _choose(judge, france, email="anne@example.org")
    _choose(judge, germany, email="bert@example.org")
    judge.process_now(gm)
    refused = FlakySender(failures=None, refuse=True)
    worker = _worker(judge, refused)
    worker.tell()
    assert sorted(refused.tries) == ["anne@example.org", "bert@example.org"]
    assert len(worker.retries) == 0  # refused for good: not kept
    # A failure that may pass is kept, but not sent once its player switched the kind off.
    r = judge.client.post(f"/api/games/{judge.game['id']}/messages",
                          json={"body": "Hello", "to": []}, headers=gm.headers)
    assert r.status_code == 201, r.text
    down = FlakySender(failures=None)
    worker.sender = down
    worker.tell()
    assert sorted(down.tries) == ["anne@example.org", "bert@example.org"]
    assert len(worker.retries) == 2
    _choose(judge, germany, email="bert@example.org", press=False)
    judge.clock.advance(seconds=judge.settings.notice_retry_seconds)
    worker.tell()
    assert down.tries[2:] == ["anne@example.org"]


def test_the_mail_servers_answer_decides_whether_a_notice_is_tried_again(standard_game, inbox):
    """Through a real SMTP server: 451 (try later) is tried again after the wait and then
    delivered; 550 (no such mailbox) is given up at once."""
    from calhamer.server.worker import Worker

    judge, gm, france, _germany = standard_game
    _choose(judge, france, email="anne@example.org")
    worker = Worker(judge.database, judge.settings)
    inbox.answers = ["451 4.3.0 try again later"]
    judge.process_now(gm)
    worker.tell()
    assert inbox.refused == 1 and inbox.mails == [] and len(worker.retries) == 1
    judge.clock.advance(seconds=judge.settings.notice_retry_seconds)
    worker.tell()
    assert [rcpt for rcpt, _ in inbox.mails] == [["anne@example.org"]]
    inbox.answers = ["550 5.1.1 no such mailbox"]
    judge.process_now(gm)
    worker.tell()
    assert inbox.refused == 2 and len(worker.retries) == 0
    judge.clock.advance(hours=2)
    worker.tell()
    assert len(inbox.mails) == 1 and inbox.refused == 2
