"""Notices: telling players by e-mail and Web Push that they are needed.

Three kinds: a new phase has begun in which the player's power has something to order (or
the game is over), a deadline is less than an hour away and the power has saved no orders,
and new press they may read has arrived. Each account switches each kind off or on and gives
an e-mail address if it wants mail (``notice_settings``); each browser that allowed push
notifications has a row in ``push_subscriptions``.

The workers decide and send them (:func:`sweep`), never a request: a request never waits on
an SMTP server or a push service. For each game, under its row's exclusive lock, a worker
compares the game with how far its players were told (``notice_marks``), decides what to
tell whom, and moves the marks on in the same transaction; it sends after committing. So
each notice is decided once however many workers run, and a worker that dies after deciding
loses those notices rather than sending them twice (they are reminders, not the game: the
game page always says what is due). Sending, and trying again what failed for a reason
that may pass (bounded, with waits that double), is ``services.notice_sending``'s.

Who is told what follows what each may read: a phase notice goes to the powers the phase
waits for (in a game that hides information every power is waited for, so nobody learns who
was dislodged), press only to those who may read the message.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import Select, and_, delete, exists, func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.models import (
    GameRow,
    Message,
    NoticeMark,
    NoticeSetting,
    OrderSet,
    PhaseRow,
    PushSubscription,
    Seat,
    Setting,
)
from calhamer.server.services.common import Invalid, phase_name
from calhamer.server.services.games import lock_game
from calhamer.server.services.notice_sending import (
    PASSWORD_VARIABLE,
    Delivery,
    Gone,
    NetSender,
    Notice,
    Refused,
    Retries,
    Send,
    Sender,
    send_all,
)

__all__ = ["KINDS", "PASSWORD_VARIABLE", "Delivery", "Gone", "NetSender", "Notice", "Refused",
           "Retries", "Send", "Sender", "decide", "order_marks", "save_settings", "settings_of",
           "subscribe", "sweep", "unsubscribe", "vapid_key", "vapid_public_key"]

logger = logging.getLogger("calhamer.notices")

KINDS = ("phase", "deadline", "press")
KIND_LABELS = {"phase": "a new phase needs my orders, or the game is over",
               "deadline": "a deadline is less than an hour away and I have saved no orders",
               "press": "a message has arrived for me"}
WARNING = timedelta(hours=1)


# -- settings of an account ---------------------------------------------------------------------


def settings_of(session: Session, user_id: int) -> NoticeSetting:
    """The account's notice settings (the defaults, not stored, when it has none)."""
    row = session.get(NoticeSetting, user_id)
    return row if row is not None else NoticeSetting(user_id=user_id, email=None, phase=True,
                                                      deadline=True, press=True)


def check_email(address: str) -> str | None:
    """The address, stripped (None for none); Invalid when it is not one."""
    from calhamer.cli.mail import MailError, check_address

    address = address.strip()
    if not address:
        return None
    if len(address) > 254:
        raise Invalid("an e-mail address is at most 254 characters")
    try:
        return check_address(address, "e-mail")
    except MailError as exc:
        raise Invalid(str(exc)) from None


def save_settings(session: Session, user_id: int, *, email: str | None, phase: bool,
                  deadline: bool, press: bool) -> NoticeSetting:
    """Store the account's notice settings (one row, written in one statement)."""
    values = {"user_id": user_id, "email": check_email(email or ""), "phase": phase,
              "deadline": deadline, "press": press}
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    insert = dialect.insert(NoticeSetting).values(**values)
    session.execute(insert.on_conflict_do_update(
        index_elements=[NoticeSetting.user_id],
        set_={k: insert.excluded[k] for k in ("email", "phase", "deadline", "press")}))
    session.flush()
    row = session.get(NoticeSetting, user_id, populate_existing=True)
    assert row is not None
    return row


def _b64(value: str, what: str, lengths: tuple[int, ...]) -> str:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (ValueError, TypeError):
        raw = b""
    if len(raw) not in lengths:
        raise Invalid(f"the subscription's {what} is not a push key")
    return value


def subscribe(session: Session, user_id: int, endpoint: str, p256dh: str, auth: str,
              now: datetime) -> PushSubscription:
    """Keep a browser's push subscription for the account (a subscription already known is
    given to this account: a browser has one user at a time)."""
    endpoint = endpoint.strip()
    if not endpoint.startswith("https://") or len(endpoint) > 1000:
        raise Invalid("a push subscription's endpoint is an https:// address of at most "
                      "1000 characters")
    _b64(p256dh, "p256dh key", (65,))
    _b64(auth, "auth secret", (16,))
    session.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
    row = PushSubscription(user_id=user_id, endpoint=endpoint, p256dh=p256dh, auth=auth,
                           created_at=now)
    session.add(row)
    session.flush()
    return row


def unsubscribe(session: Session, user_id: int, endpoint: str) -> int:
    """Forget the account's subscription at ``endpoint``; how many were forgotten."""
    result = session.execute(delete(PushSubscription).where(
        PushSubscription.user_id == user_id, PushSubscription.endpoint == endpoint.strip()))
    return int(getattr(result, "rowcount", 0) or 0)


def subscriptions_of(session: Session, user_id: int) -> list[PushSubscription]:
    return list(session.scalars(select(PushSubscription).where(
        PushSubscription.user_id == user_id).order_by(PushSubscription.id)))


# -- the Web Push key ---------------------------------------------------------------------------


def vapid_key(db: Database, settings: Settings) -> str:
    """The Web Push (VAPID) private key, a P-256 key as PEM: the setting's, else one made once
    and kept in the database (as the session key is), so every process signs with it."""
    if settings.vapid_private_key:
        return settings.vapid_private_key
    with db.session() as session:
        row = session.get(Setting, "vapid_private_key")
        if row is not None:
            return row.value
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()).decode()
    try:
        with db.transaction() as session:
            if session.get(Setting, "vapid_private_key") is None:
                session.add(Setting(key="vapid_private_key", value=pem))
    except Exception:  # another process made it at the same moment: read theirs
        logger.info("the VAPID key was made by another process")
    with db.session() as session:
        value = session.scalar(select(Setting.value).where(Setting.key == "vapid_private_key"))
    if value is None:
        raise RuntimeError("could not keep the Web Push key in the database")
    return value


def vapid_public_key(pem: str) -> str:
    """The browser's ``applicationServerKey``: the public point, base64url without padding."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


# -- deciding what to tell ----------------------------------------------------------------------


def _due_games(now: datetime) -> Select[str]:
    """The ids of games with something to tell: a phase, a message or a near deadline their
    players were not told of (a game with no marks yet counts from its first phase)."""
    mark_phase = func.coalesce(NoticeMark.phase_index, 0)
    newer_message = exists().where(Message.game_id == GameRow.id,
                                   Message.id > func.coalesce(NoticeMark.message_id, 0))
    near = and_(GameRow.status == "active", GameRow.deadline.is_not(None),
                GameRow.deadline <= now + WARNING, GameRow.deadline > now,
                func.coalesce(NoticeMark.warned_index, -1) < GameRow.phase_index)
    return (select(GameRow.id).outerjoin(NoticeMark, NoticeMark.game_id == GameRow.id)
            .where(or_(GameRow.phase_index > mark_phase, newer_message, near))
            .order_by(GameRow.id))


def _mark(session: Session, game_id: str) -> NoticeMark:
    """The game's marks, made if missing, locked for this transaction."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(dialect.insert(NoticeMark).values(
        game_id=game_id, phase_index=0, message_id=0, warned_index=-1,
    ).on_conflict_do_nothing(index_elements=[NoticeMark.game_id]))
    mark = session.scalars(select(NoticeMark).where(NoticeMark.game_id == game_id)
                           .with_for_update().execution_options(populate_existing=True)).one()
    return mark


def decide(session: Session, game_id: str, now: datetime) -> list[Notice]:
    """What to tell the game's players now, the marks moved past it (run in a transaction)."""
    game = lock_game(session, game_id, exclusive=True)
    mark = _mark(session, game_id)
    seats = {s.power: s.user_id for s in game.seats if s.user_id is not None}
    phase = session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id,
                                                   PhaseRow.index == game.phase_index)).one()
    name = phase_name(game, phase.code)
    path = f"/games/{game.id}"
    out: list[Notice] = []
    if game.phase_index > mark.phase_index:
        out += _phase_notices(game, phase, name, seats, path)
        mark.phase_index = game.phase_index
    if (game.status == "active" and game.deadline is not None
            and now < game.deadline <= now + WARNING and mark.warned_index < game.phase_index):
        out += _deadline_notices(session, game, phase, name, seats, path, now)
        mark.warned_index = game.phase_index
    messages = list(session.scalars(select(Message).where(
        Message.game_id == game.id, Message.id > mark.message_id).order_by(Message.id)))
    if messages:
        out += _press_notices(game, messages, seats, path)
        mark.message_id = messages[-1].id
    session.flush()
    return out


def _phase_notices(game: GameRow, phase: PhaseRow, name: str, seats: dict[str, int],
                   path: str) -> list[Notice]:
    if game.status == "finished":
        why = game.end_reason or "it has ended"
        users = sorted(set(seats.values()) | {game.gm_id})
        return [Notice(u, "phase", game.id, f"{game.name}: the game is over",
                       f"{game.name} is over: {why}.", path) for u in users]
    by = (f" The deadline is {game.deadline:%Y-%m-%d %H:%M} UTC."
          if game.deadline is not None else "")
    return [Notice(seats[p], "phase", game.id, f"{game.name}: {name} needs your orders",
                   f"{name} has begun in {game.name}, and {p.title()} has orders to give."
                   f"{by}", path)
            for p in phase.required if p in seats]


def _deadline_notices(session: Session, game: GameRow, phase: PhaseRow, name: str,
                      seats: dict[str, int], path: str, now: datetime) -> list[Notice]:
    saved = {o.power for o in session.scalars(select(OrderSet).where(
        OrderSet.phase_id == phase.id)) if o.lines or o.ready}
    minutes = max(1, int(((game.deadline or now) - now).total_seconds() // 60))
    return [Notice(seats[p], "deadline", game.id,
                   f"{game.name}: {minutes} minutes left, no orders saved",
                   f"{name} of {game.name} is adjudicated in {minutes} minutes and "
                   f"{p.title()} has saved no orders.", path)
            for p in phase.required if p in seats and p not in saved]


def _press_notices(game: GameRow, messages: Iterable[Message], seats: dict[str, int],
                   path: str) -> list[Notice]:
    """One notice per reader for the messages they may read (``press.messages_for``'s rule:
    to all, or to their power; to the gamemaster, the gamemaster)."""
    counts: dict[int, list[str]] = {}
    for m in messages:
        readers = set(seats) if not m.recipients else set(m.recipients)
        users = {seats[p] for p in readers if p in seats and p != m.sender}
        if "GM" in m.recipients and m.sender != "GM":
            users.add(game.gm_id)
        if m.sender in seats:
            users.discard(seats[m.sender])
        for u in users:
            counts.setdefault(u, []).append("the gamemaster" if m.sender == "GM"
                                            else m.sender.title())
    out = []
    for user, senders in counts.items():
        n = len(senders)
        who = ", ".join(dict.fromkeys(senders))
        out.append(Notice(user, "press", game.id,
                          f"{game.name}: {n} new message{'s' if n > 1 else ''}",
                          f"{n} new message{'s' if n > 1 else ''} in {game.name}, from {who}.",
                          path + "#press"))
    return out


# -- the sweep the workers run ------------------------------------------------------------------


def sweep(db: Database, settings: Settings, sender: Sender | None = None,
          limit: int = 200, retries: Retries | None = None) -> list[Delivery]:
    """Decide and send what the players of every game are to be told, and try again what
    failed before and is due (``retries``: a worker's; without them a failure is only
    logged); return the deliveries. Each game is decided in a transaction of its own; sending
    follows its commit."""
    now = settings.clock()
    due = retries.due(now) if retries is not None else []
    with db.session() as session:
        game_ids = list(session.scalars(_due_games(now).limit(limit)))
        if due:
            due = _still_wanted(session, due)
    if not game_ids and not due:
        return []
    sender = sender or NetSender(settings, vapid_key(db, settings))
    done = send_all(db, settings, sender, due, retries) if due else []
    for game_id in game_ids:
        try:
            with db.transaction() as session:
                notices = decide(session, game_id, now)
                plan = _plan(session, notices)
        except Exception:  # the game was deleted meanwhile, or the database went away
            logger.exception("deciding the notices of game %s failed", game_id)
            continue
        done += send_all(db, settings, sender, plan, retries)
    return done


def _plan(session: Session, notices: list[Notice]) -> list[Send]:
    """Each notice by each channel its account wants it by."""
    plan: list[Send] = []
    users = {n.user_id for n in notices}
    if not users:
        return plan
    prefs = {u: settings_of(session, u) for u in users}
    subs: dict[int, list[PushSubscription]] = {}
    for s in session.scalars(select(PushSubscription).where(
            PushSubscription.user_id.in_(users))):
        subs.setdefault(s.user_id, []).append(s)
    for n in notices:
        pref = prefs[n.user_id]
        if not getattr(pref, n.kind):
            continue
        if pref.email:
            plan.append(Send(n, "mail", pref.email))
        for s in subs.get(n.user_id, []):
            plan.append(Send(n, "push", s.endpoint, {"endpoint": s.endpoint,
                                                     "keys": {"p256dh": s.p256dh,
                                                              "auth": s.auth}}))
    return plan


def _still_wanted(session: Session, sends: list[Send]) -> list[Send]:
    """The retries their accounts still want: the kind not switched off since, the mail to
    the address still given, the push to a subscription still held (with its keys now)."""
    current = {(p.notice, p.channel, p.to): p
               for p in _plan(session, list(dict.fromkeys(s.notice for s in sends)))}
    return [replace(current[key], attempt=s.attempt) for s in sends
            if (key := (s.notice, s.channel, s.to)) in current]


# -- orders due, for the home page and the lobby ------------------------------------------------


@dataclass(frozen=True)
class OrderMark:
    """Where the user's orders stand in one game they play: ``due`` (nothing saved), ``saved``
    or ``ready``, or ``none`` (nothing to order in this phase)."""

    game_id: str
    game: str
    phase: str
    power: str
    state: str
    deadline: datetime | None


def order_marks(session: Session, user_id: int) -> list[OrderMark]:
    """The user's orders in each unfinished game they play, in one query."""
    rows = session.execute(
        select(GameRow, Seat.power, PhaseRow.code, PhaseRow.required, OrderSet.lines,
               OrderSet.ready)
        .join(Seat, and_(Seat.game_id == GameRow.id, Seat.user_id == user_id))
        .join(PhaseRow, and_(PhaseRow.game_id == GameRow.id,
                             PhaseRow.index == GameRow.phase_index))
        .outerjoin(OrderSet, and_(OrderSet.phase_id == PhaseRow.id,
                                  OrderSet.power == Seat.power))
        .where(GameRow.status != "finished")
        .order_by(GameRow.deadline.is_(None), GameRow.deadline, GameRow.id))
    out = []
    for game, power, code, required, lines, ready in rows:
        if power not in (required or []):
            state = "none"
        elif ready:
            state = "ready"
        elif lines:
            state = "saved"
        else:
            state = "due"
        out.append(OrderMark(game.id, game.name, phase_name(game, code), power, state,
                             game.deadline))
    return out

