"""Sending each power its report by e-mail, through the SMTP server in the game's settings.

The settings live in the game file, under ``"settings": {"mail": {...}}`` (the gamemaster's
file; players are sent reports, never the file)::

    {"host": "smtp.example.org", "port": 587, "security": "starttls",
     "user": "gm@example.org", "from": "gm@example.org", "gamemaster": "gm@example.org",
     "addresses": {"FRANCE": "anne@example.org", "ENGLAND": "bob@example.org"}}

``security`` is ``none`` (plain SMTP, as a local relay speaks it), ``starttls`` or ``ssl``.
The password is never stored: it is read from the environment variable
``CALHAMER_SMTP_PASSWORD`` when a ``user`` is set. Each power is sent only its own report
(:mod:`calhamer.dispatch`), as the message's text with its picture attached; the gamemaster,
if an address is given, gets the full report.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Any

from calhamer.cli.dispatch import GAMEMASTER, PowerReport
from calhamer.errors import CalhamerError

PASSWORD_VARIABLE = "CALHAMER_SMTP_PASSWORD"
SECURITY = ("none", "starttls", "ssl")
DEFAULT_PORTS = {"none": 25, "starttls": 587, "ssl": 465}


class MailError(CalhamerError):
    """The mail settings are missing or wrong, or the SMTP server cannot be reached."""


def check_address(address: str, what: str) -> str:
    """``address`` if it looks like an e-mail address (``name@host``), else a MailError."""
    _name, addr = parseaddr(address)
    if not addr or "@" not in addr or addr.startswith("@") or addr.endswith("@") \
            or any(c.isspace() for c in addr):
        raise MailError(f"{what}: {address!r} is not an e-mail address like anne@example.org")
    return address.strip()


@dataclass
class MailSettings:
    """Where and how reports are sent (see the module's documentation)."""

    host: str
    sender: str
    port: int | None = None
    security: str = "none"
    user: str | None = None
    gamemaster: str | None = None
    addresses: dict[str, str] = field(default_factory=dict)

    @property
    def port_used(self) -> int:
        return self.port or DEFAULT_PORTS[self.security]

    @classmethod
    def from_json(cls, doc: Any) -> MailSettings:
        """Read the ``"mail"`` settings of a game; a MailError says what is wrong."""
        if not isinstance(doc, Mapping) or not doc:
            raise MailError("this game has no mail settings; set them with 'calhamer game "
                            "settings FILE --smtp HOST --from ADDRESS --address POWER=ADDRESS'")
        host, sender = doc.get("host"), doc.get("from")
        if not isinstance(host, str) or not host:
            raise MailError('the mail settings have no SMTP server ("host"): use --smtp HOST')
        if not isinstance(sender, str) or not sender:
            raise MailError('the mail settings have no sender ("from"): use --from ADDRESS')
        port = doc.get("port")
        if port is not None and (not isinstance(port, int) or not 0 < port < 65536):
            raise MailError(f"the SMTP port must be a number from 1 to 65535, not {port!r}")
        security = doc.get("security", "none")
        if security not in SECURITY:
            raise MailError(f"the mail security is {security!r}; it is one of "
                            f"{', '.join(SECURITY)}")
        addresses = doc.get("addresses") or {}
        if not isinstance(addresses, Mapping) or not all(
                isinstance(v, str) for v in addresses.values()):
            raise MailError('"addresses" must map each power to an e-mail address')
        user, gm = doc.get("user"), doc.get("gamemaster")
        return cls(host, check_address(sender, "the sender"), port, security,
                   user if isinstance(user, str) and user else None,
                   check_address(gm, "the gamemaster") if isinstance(gm, str) and gm else None,
                   {str(p): a for p, a in addresses.items()})

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"host": self.host}
        if self.port is not None:
            doc["port"] = self.port
        doc["security"] = self.security
        if self.user:
            doc["user"] = self.user
        doc["from"] = self.sender
        if self.gamemaster:
            doc["gamemaster"] = self.gamemaster
        doc["addresses"] = dict(self.addresses)
        return doc

    def address_of(self, recipient: str) -> str | None:
        if recipient == GAMEMASTER:
            return self.gamemaster
        return self.addresses.get(recipient)


def compose(settings: MailSettings, report: PowerReport, game: str) -> EmailMessage:
    """The e-mail carrying one report: its text as the body, its picture attached."""
    to = settings.address_of(report.power)
    if to is None:
        raise MailError(f"no address for {report.name}")
    message = EmailMessage()
    message["From"] = settings.sender
    message["To"] = to
    message["Subject"] = report.subject(game)
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=settings.sender.rpartition("@")[2].strip("> "))
    message.set_content(report.text)
    if report.picture:
        message.add_attachment(report.picture.encode("utf-8"), maintype="image",
                               subtype="svg+xml", filename=f"{report.file_stem()}.svg")
    return message


@dataclass(frozen=True)
class Sent:
    """What became of one report: sent to ``address``, or not, and why (``problem``)."""

    report: PowerReport
    address: str | None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


SmtpFactory = Callable[..., smtplib.SMTP]


def send_reports(
    settings: MailSettings,
    reports: list[PowerReport],
    game: str,
    *,
    password: str | None = None,
    timeout: float = 30.0,
) -> list[Sent]:
    """Send each report to its recipient over one SMTP connection; a report whose recipient
    has no address is not sent (and said so). Raises MailError when the server cannot be
    reached or refuses the login; a refused recipient is reported in its :class:`Sent`."""
    outcome: list[Sent] = []
    to_send = []
    for report in reports:
        address = settings.address_of(report.power)
        if address is None:
            if report.power != GAMEMASTER:
                outcome.append(Sent(report, None, "no address in the mail settings"))
            continue
        to_send.append((report, address))
    if not to_send:
        return outcome
    where = f"{settings.host}:{settings.port_used}"
    try:
        server = _connect(settings, timeout)
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"cannot reach the SMTP server {where}: {exc}") from None
    try:
        if settings.security == "starttls":
            server.starttls(context=ssl.create_default_context())
        if settings.user:
            if password is None:
                raise MailError(f"the SMTP server needs the password of {settings.user}: "
                                f"set {PASSWORD_VARIABLE}")
            server.login(settings.user, password)
        for report, address in to_send:
            try:
                server.send_message(compose(settings, report, game))
            except smtplib.SMTPRecipientsRefused as exc:
                outcome.append(Sent(report, address, f"refused by the server: {exc.recipients}"))
            except smtplib.SMTPResponseException as exc:
                said = exc.smtp_error
                text = said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
                outcome.append(Sent(report, address,
                                    f"refused by the server: {exc.smtp_code} {text}"))
            else:
                outcome.append(Sent(report, address))
    except smtplib.SMTPAuthenticationError:
        raise MailError(f"the SMTP server {where} refused the login of {settings.user}") from None
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(f"the SMTP server {where} failed: {exc}") from None
    finally:
        try:
            server.quit()
        except (OSError, smtplib.SMTPException):
            server.close()
    return outcome


def _connect(settings: MailSettings, timeout: float) -> smtplib.SMTP:
    if settings.security == "ssl":
        return smtplib.SMTP_SSL(settings.host, settings.port_used, timeout=timeout,
                                context=ssl.create_default_context())
    return smtplib.SMTP(settings.host, settings.port_used, timeout=timeout)
