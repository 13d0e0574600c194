"""Sending notices (``services.notices`` decides them): by mail and by Web Push, and again later
when a mail server or push service failed.

A delivery that fails for a reason that may pass (a mail server down, a push service that
answers 5xx or 429, a timeout) is kept by the worker that tried it (:class:`Retries`) and tried
again after a wait that doubles each time, at most ``Settings.notice_attempts`` times in all;
then it is given up and logged. A refusal that will not pass (:class:`Refused`: an address or
a message the mail server rejects for good, a push request the push service calls bad) is
logged and not tried again, and a subscription the push service no longer knows
(:class:`Gone`) is forgotten.

The retries are held in the worker's memory, not the database, as the notices themselves are
decided: a worker that stops loses what it was still to retry rather than risking sending it
twice (they are reminders, not the game: the game page always says what is due). Their number
is bounded too (``Retries.limit``): past it a failure is given up at once, logged.
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
import ssl
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any, Protocol

from sqlalchemy import delete

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.models import PushSubscription

logger = logging.getLogger("calhamer.notices")

PASSWORD_VARIABLE = "CALHAMER_SMTP_PASSWORD"


@dataclass(frozen=True)
class Notice:
    """One thing to tell one account."""

    user_id: int
    kind: str
    game_id: str
    subject: str
    text: str
    path: str  # the page to open, from the site's root


@dataclass(frozen=True)
class Delivery:
    """A notice as sent (or not): by ``channel`` (mail, push) to ``to``; ``problem`` why not.
    ``attempt`` counts the tries so far (1 the first); ``retry_at`` says when it is tried
    again, None when it was sent or given up."""

    notice: Notice
    channel: str
    to: str
    problem: str | None = None
    attempt: int = 1
    retry_at: datetime | None = None


@dataclass(frozen=True)
class Send:
    """One notice to send by one channel: by mail to an address, or to one push
    ``subscription`` (its endpoint in ``to``); ``attempt`` is the try this is (1 the first)."""

    notice: Notice
    channel: str
    to: str
    subscription: dict[str, Any] | None = None
    attempt: int = 1


class Sender(Protocol):
    """How notices leave the judge: by mail and by push (tests give their own). Raise
    :class:`Gone` for a subscription that no longer exists, :class:`Refused` for a refusal
    that trying again will not change, anything else for a failure that may pass."""

    def mail(self, to: str, subject: str, text: str) -> None: ...

    def push(self, subscription: dict[str, Any], payload: str) -> int:
        """Send one push message; the push service's status."""
        ...


class Gone(Exception):
    """The push service says the subscription no longer exists."""


class Refused(Exception):
    """The mail server or push service refused the notice for good: it is not tried again."""


class NetSender:
    """Mail through the SMTP server of the settings, push through ``pywebpush``.
    ``http`` is the HTTP session push messages are posted with (``requests``' by default):
    the network boundary, which tests replace."""

    def __init__(self, settings: Settings, vapid_pem: str | None,
                 http: Any = None, timeout: float = 20.0) -> None:
        self.settings = settings
        self.vapid_pem = vapid_pem
        self.http = http
        self.timeout = timeout

    def mail(self, to: str, subject: str, text: str) -> None:
        s = self.settings
        if not s.smtp_host or not s.mail_from:
            raise Refused("no SMTP server or sender is set (CALHAMER_SMTP_HOST, "
                          "CALHAMER_MAIL_FROM)")
        port = s.smtp_port or {"ssl": 465, "starttls": 587}.get(s.smtp_security, 25)
        message = EmailMessage()
        message["From"] = s.mail_from
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain=s.mail_from.rpartition("@")[2].strip("> "))
        message.set_content(text)
        server: smtplib.SMTP
        if s.smtp_security == "ssl":
            server = smtplib.SMTP_SSL(s.smtp_host, port, timeout=self.timeout,
                                      context=ssl.create_default_context())
        else:
            server = smtplib.SMTP(s.smtp_host, port, timeout=self.timeout)
        try:
            if s.smtp_security == "starttls":
                server.starttls(context=ssl.create_default_context())
            if s.smtp_user:
                server.login(s.smtp_user, os.environ.get(PASSWORD_VARIABLE, ""))
            server.send_message(message)
        except smtplib.SMTPRecipientsRefused as exc:
            if all(code >= 500 for code, _ in exc.recipients.values()):
                raise Refused(f"the mail server refused {to}") from None
            raise
        except smtplib.SMTPResponseException as exc:
            if exc.smtp_code >= 500:  # 5xx: permanent; 4xx: try again later
                raise Refused(f"the mail server refused: {exc.smtp_code} "
                              f"{exc.smtp_error!r}") from None
            raise
        finally:
            try:
                server.quit()
            except (OSError, smtplib.SMTPException):
                server.close()

    def push(self, subscription: dict[str, Any], payload: str) -> int:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush

        if self.vapid_pem is None:
            raise RuntimeError("no Web Push key")
        try:
            response = webpush(subscription, data=payload,
                               vapid_private_key=Vapid02.from_pem(self.vapid_pem.encode()),
                               vapid_claims={"sub": self.settings.vapid_subject},
                               ttl=24 * 3600, timeout=self.timeout,
                               requests_session=self.http)
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", 0) or 0
            if status in (404, 410):
                raise Gone() from None
            if 400 <= status < 500 and status not in (408, 429):
                raise Refused(f"the push service refused ({status}): {exc.message}") from None
            raise RuntimeError(f"the push service failed ({status or 'no answer'}): "
                               f"{exc.message}") from None
        return int(getattr(response, "status_code", 201))


class Retries:
    """The deliveries a worker is to try again: each after ``first_wait``, doubled at each
    failure, until ``attempts`` tries in all have failed; at most ``limit`` kept at once."""

    def __init__(self, first_wait: timedelta, attempts: int, limit: int = 10_000) -> None:
        self.first_wait = first_wait
        self.attempts = max(1, attempts)
        self.limit = limit
        self._waiting: list[tuple[datetime, Send]] = []

    @classmethod
    def of(cls, settings: Settings) -> Retries:
        return cls(timedelta(seconds=settings.notice_retry_seconds), settings.notice_attempts)

    def __len__(self) -> int:
        return len(self._waiting)

    def failed(self, send: Send, now: datetime, problem: str) -> datetime | None:
        """Keep ``send``, which failed, for another try; when it is tried again, or None when
        it is given up (its tries spent, or too many waiting), which is logged."""
        if send.attempt >= self.attempts or len(self._waiting) >= self.limit:
            why = (f"after {send.attempt} tries" if send.attempt >= self.attempts
                   else f"at once: {len(self._waiting)} notices already wait to be retried")
            logger.error("gave up a %s notice by %s to user %d (game %s) %s: %s",
                         send.notice.kind, send.channel, send.notice.user_id,
                         send.notice.game_id, why, problem)
            return None
        at = now + self.first_wait * 2 ** (send.attempt - 1)
        self._waiting.append((at, replace(send, attempt=send.attempt + 1)))
        return at

    def due(self, now: datetime) -> list[Send]:
        """Take the deliveries whose wait is over, in the order they failed."""
        ready = [send for at, send in self._waiting if at <= now]
        self._waiting = [(at, send) for at, send in self._waiting if at > now]
        return ready


def send_all(db: Database, settings: Settings, sender: Sender, plan: list[Send],
             retries: Retries | None = None) -> list[Delivery]:
    """Send each of ``plan``; a failure that may pass is kept in ``retries`` (without them,
    only told). Subscriptions that are gone are forgotten."""
    out = []
    gone = []
    now = settings.clock()
    for send in plan:
        notice = send.notice
        url = (settings.public_url or "") + notice.path
        try:
            if send.subscription is None:
                sender.mail(send.to, notice.subject, f"{notice.text}\n\n{url}\n\n"
                            "You can choose what you are told on your account page.\n")
            else:
                sender.push(send.subscription, json.dumps({
                    "title": notice.subject, "body": notice.text, "url": notice.path,
                    "kind": notice.kind, "game": notice.game_id}))
        except Gone:
            gone.append(send.to)
            out.append(Delivery(notice, send.channel, send.to, "the subscription is gone",
                                send.attempt))
            continue
        except Exception as exc:  # a mail server or push service down, or refusing
            problem = str(exc) or type(exc).__name__
            retry_at = None
            if isinstance(exc, Refused):
                logger.error("a %s notice by %s to user %d was refused: %s", notice.kind,
                             send.channel, notice.user_id, problem)
            elif retries is not None:
                retry_at = retries.failed(send, now, problem)
            if retry_at is not None:
                logger.warning("sending a %s notice by %s failed (try %d), tried again at "
                               "%s: %s", notice.kind, send.channel, send.attempt,
                               f"{retry_at:%H:%M:%S}", problem)
            elif retries is None and not isinstance(exc, Refused):
                logger.warning("sending a %s notice by %s failed: %s", notice.kind,
                               send.channel, problem)
            out.append(Delivery(notice, send.channel, send.to, problem, send.attempt, retry_at))
            continue
        out.append(Delivery(notice, send.channel, send.to, None, send.attempt))
    if gone:
        with db.transaction() as session:
            session.execute(delete(PushSubscription).where(PushSubscription.endpoint.in_(gone)))
    return out
