"""The tables (SQLAlchemy 2 ORM). Their schema is made by the migrations in ``migrations/``.

A game's phases are rows of ``phases``: the position at the start of the phase as a phase
document, and once processed each order's result. The orders themselves are rows of
``orders``, one per power and phase, so a player's save touches one row; bids (DP variants)
are rows of ``bids`` likewise. Where the variant hides information, each power's view of an
adjudicated phase is stored in ``power_views`` by the worker that adjudicates it, so a
player's results are read, never computed, on request. Times are naive UTC.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Setting(Base):
    """Server-wide values kept in the database (the session key)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    """Someone who plays or runs games. A guest (made by an invitation link) has no password
    until they choose a user name and password."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str | None] = mapped_column(String(40), unique=True)
    display_name: Mapped[str] = mapped_column(String(60))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    # Every credential carries the epoch it was signed in; moving it ends them all
    # (services.sessions.end_all).
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # A guest's return link is signed over this nonce (security.Signer.return_token): a new
    # nonce revokes the old link, and None (an account) has none.
    return_nonce: Mapped[str | None] = mapped_column(String(32))


class LoginSession(Base):
    """One browser's login or one API token: what the sessions page lists and ends.

    ``key`` is a digest of the signed cookie or token itself (``security.credential_key``), so
    the table holds nothing that opens a session. A credential is accepted while its user's
    ``session_epoch`` is the one it carries and its row is not ended; ``last_seen`` and
    ``address`` are brought up to date at most every ``Settings.session_touch_seconds``."""

    __tablename__ = "login_sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))  # "browser" or "api"
    created_at: Mapped[datetime] = mapped_column(DateTime)
    last_seen: Mapped[datetime] = mapped_column(DateTime)
    address: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str] = mapped_column(String(120))  # the client's User-Agent, shortened
    ended_at: Mapped[datetime | None] = mapped_column(DateTime)

    __table_args__ = (Index("ix_login_sessions_user", "user_id"),
                      Index("ix_login_sessions_created", "created_at"))


class LoginFailure(Base):
    """A failed (or still being checked) login, by user name (``scope`` "account") and by
    client address ("address"): the sliding window that limits guessing passwords. Kept in
    the database so that every web process counts the same attempts. Sign-ups ("signup"),
    new games ("game-user", "game-addr") and new guests ("guest-addr") are counted here the
    same way (``services.limits``)."""

    __tablename__ = "login_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(10))
    key: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_login_failures_key", "scope", "key", "at"),
                      Index("ix_login_failures_at", "at"))


class GameRow(Base):
    """One game of the web judge as stored: its settings, status and current phase. Named
    apart from the library's :class:`calhamer.game.Game`, which adjudicates it."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # random, public in URLs
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(200))  # a name, or a composed spec text
    rules: Mapped[str] = mapped_column(String(20))
    press: Mapped[str] = mapped_column(String(10))  # none, public, full
    movement_minutes: Mapped[int] = mapped_column(Integer)
    retreat_minutes: Mapped[int] = mapped_column(Integer)
    adjustment_minutes: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))  # active, paused, finished
    gm_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    phase_index: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[datetime | None] = mapped_column(DateTime)
    paused_remaining: Mapped[int | None] = mapped_column(Integer)  # seconds left when paused
    process_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    retry_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    winner: Mapped[str | None] = mapped_column(String(20))
    end_reason: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.id", lazy="selectin"
    )

    __table_args__ = (Index("ix_games_due", "status", "deadline"),
                      Index("ix_games_created", "created_at"))


class Seat(Base):
    """One power of one game, and who plays it (nobody until the invitation is used)."""

    __tablename__ = "seats"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    invite_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime)

    game: Mapped[GameRow] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(lazy="joined")

    __table_args__ = (UniqueConstraint("game_id", "power"), Index("ix_seats_user", "user_id"))


class PhaseRow(Base):
    __tablename__ = "phases"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(12))
    position: Mapped[dict[str, Any]] = mapped_column(JSON)  # a phase document without orders
    required: Mapped[list[str]] = mapped_column(JSON)  # powers with something to order
    results: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime)
    processed_by: Mapped[str | None] = mapped_column(String(80))

    __table_args__ = (UniqueConstraint("game_id", "index"),)


class OrderSet(Base):
    """A power's orders for one phase, as written (bad lines included), and its ready mark."""

    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(20))
    lines: Mapped[list[str]] = mapped_column(JSON)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("phase_id", "power"),)


class BidSet(Base):
    """A power's bids (DP variants) for one movement phase, as given (lines and objects)."""

    __tablename__ = "bids"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(12))
    power: Mapped[str] = mapped_column(String(20))
    bids: Mapped[list[Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("game_id", "phase", "power"),)


class PowerViewRow(Base):
    """One power's view of an adjudicated phase of a game that hides information, stored when
    the phase is adjudicated: ``{"report", "results", "view", "picture"}`` (the report text,
    the results it may read, ``calhamer.views.PowerView.to_json`` and the SVG map)."""

    __tablename__ = "power_views"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(12))
    power: Mapped[str] = mapped_column(String(20))
    view: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (UniqueConstraint("game_id", "phase", "power"),)


class Message(Base):
    """Press: from a power (or the gamemaster, ``GM``) to some powers, or to all (empty list)."""

    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(12))
    sender: Mapped[str] = mapped_column(String(20))
    recipients: Mapped[list[str]] = mapped_column(JSON)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_messages_game", "game_id", "id"),)


class PressRead(Base):
    """How far an account has read one conversation of a game: the id of the last message of
    the thread it has read. ``thread`` is the thread's key, its participants' codes joined by
    "+" (sorted), or "ALL" for the players' messages to all; the gamemaster's announcements
    have no thread and no mark. Kept per account, so the mark follows them from browser to
    browser; nobody else's is ever read."""

    __tablename__ = "press_reads"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    thread: Mapped[str] = mapped_column(String(200))
    last_read: Mapped[int] = mapped_column(Integer)

    __table_args__ = (UniqueConstraint("game_id", "user_id", "thread"),)


class Event(Base):
    """The game log: phases adjudicated (and by which worker), gamemaster actions."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime)
    kind: Mapped[str] = mapped_column(String(20))
    detail: Mapped[str] = mapped_column(Text)

    __table_args__ = (Index("ix_events_game", "game_id", "id"),)


# -- being told, and proposals (services.notices, services.proposals) ---------------------------


class NoticeSetting(Base):
    """What an account wants to be told, and where: an e-mail address (none: no mail) and a
    switch per kind of notice (a new phase, a deadline within the hour with no orders saved,
    new press). An account without a row is told nothing by mail and everything by push."""

    __tablename__ = "notice_settings"
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254))
    phase: Mapped[bool] = mapped_column(Boolean, default=True)
    deadline: Mapped[bool] = mapped_column(Boolean, default=True)
    press: Mapped[bool] = mapped_column(Boolean, default=True)


class PushSubscription(Base):
    """One browser's Web Push subscription (its push service's endpoint and keys)."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_push_subscriptions_user", "user_id"),)


class NoticeMark(Base):
    """How far the workers have told a game's players: the last phase (index) and message
    (id) they were told of, and the phase whose deadline warning went out. Advanced in the
    transaction that decides what to tell, so each notice is decided once."""

    __tablename__ = "notice_marks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    phase_index: Mapped[int] = mapped_column(Integer, default=0)
    message_id: Mapped[int] = mapped_column(Integer, default=0)
    warned_index: Mapped[int] = mapped_column(Integer, default=-1)


class Proposal(Base):
    """A draw or a pause put to the vote of a game's surviving powers in one phase: ``open``
    until every voter agrees (``accepted``), one refuses (``rejected``) or the phase ends
    (``lapsed``)."""

    __tablename__ = "proposals"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))  # draw, pause
    phase: Mapped[str] = mapped_column(String(12))
    proposer: Mapped[str] = mapped_column(String(20))
    voters: Mapped[list[str]] = mapped_column(JSON)  # the electorate when proposed
    status: Mapped[str] = mapped_column(String(10))  # open, accepted, rejected, lapsed
    created_at: Mapped[datetime] = mapped_column(DateTime)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime)

    __table_args__ = (Index("ix_proposals_game", "game_id", "status"),)


class Vote(Base):
    """One power's vote on a proposal; nobody else reads it until the proposal is decided."""

    __tablename__ = "votes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    proposal_id: Mapped[int] = mapped_column(ForeignKey("proposals.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(20))
    agree: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("proposal_id", "power"),)
