"""Passwords, signed session tokens and CSRF tokens.

A browser holds one signed cookie: ``{"u": user id or None, "e": the user's session epoch,
"c": a random CSRF nonce, "s": a random session nonce}``. Every form carries the CSRF nonce
and a POST is refused unless it matches the cookie's. Bots send ``Authorization: Bearer
<token>``, a token signed with another salt, so a cookie is never accepted as a bearer token
or the other way round. Both expire after ``Settings.session_max_age`` seconds. Each is also
a row of ``login_sessions``, found by a digest of the credential (:func:`credential_key`), so
that one can be ended alone; ending them all moves the epoch (``services.sessions``).

A guest's return link carries ``{"u": user id, "n": the user's return nonce}``, signed with a
third salt and without an expiry (it is meant to outlive a lost cookie); it stops working
when the guest makes a new one (a new nonce) or signs up (no nonce).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import (
    BadSignature,
    SignatureExpired,
    TimestampSigner,
    URLSafeSerializer,
    URLSafeTimedSerializer,
)

COOKIE = "calhamer_session"


class TokenError(Exception):
    """A session cookie or API token that is expired (``expired``) or not ours."""

    def __init__(self, expired: bool) -> None:
        super().__init__("expired" if expired else "invalid")
        self.expired = expired


@dataclass
class SessionData:
    user_id: int | None
    epoch: int
    csrf: str
    # Makes each login's cookie its own session, whatever its CSRF token (a login draws it).
    nonce: str = ""

    def dump(self) -> dict[str, Any]:
        data: dict[str, Any] = {"u": self.user_id, "e": self.epoch, "c": self.csrf}
        if self.nonce:
            data["s"] = self.nonce
        return data


def new_nonce() -> str:
    return secrets.token_urlsafe(24)


class Signer:
    """Signs and reads session cookies and API tokens, timed by ``clock`` (naive UTC)."""

    def __init__(self, secret: str, max_age: int, clock: Callable[[], datetime]) -> None:
        self.max_age = max_age

        class ClockedSigner(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(clock().replace(tzinfo=UTC).timestamp())

        self._cookie = URLSafeTimedSerializer(secret, salt="calhamer-session",
                                              signer=ClockedSigner)
        self._bearer = URLSafeTimedSerializer(secret, salt="calhamer-api-token",
                                              signer=ClockedSigner)
        self._return = URLSafeSerializer(secret, salt="calhamer-guest-return")

    def cookie(self, data: SessionData) -> str:
        return self._cookie.dumps(data.dump())

    def read_cookie(self, value: str) -> SessionData:
        payload = _loads(self._cookie, value, self.max_age)
        try:
            user = payload["u"]
            return SessionData(None if user is None else int(user), int(payload["e"]),
                               str(payload["c"]), str(payload.get("s", "")))
        except (KeyError, TypeError, ValueError):
            raise TokenError(expired=False) from None

    def token(self, user_id: int, epoch: int) -> str:
        # The nonce makes two tokens signed in the same second two sessions.
        return self._bearer.dumps({"u": user_id, "e": epoch, "n": new_nonce()[:12]})

    def read_token(self, value: str) -> tuple[int, int]:
        payload = _loads(self._bearer, value, self.max_age)
        try:
            return int(payload["u"]), int(payload["e"])
        except (KeyError, TypeError, ValueError):
            raise TokenError(expired=False) from None

    def return_token(self, user_id: int, nonce: str) -> str:
        """The secret part of a guest's return link."""
        return self._return.dumps({"u": user_id, "n": nonce})

    def read_return_token(self, value: str) -> tuple[int, str]:
        """The user id and nonce of a return link (TokenError if it is not ours)."""
        try:
            payload = self._return.loads(value)
            return int(payload["u"]), str(payload["n"])
        except (BadSignature, ValueError, UnicodeError, KeyError, TypeError):
            raise TokenError(expired=False) from None


def _loads(serializer: URLSafeTimedSerializer, value: str, max_age: int) -> Any:
    try:
        payload = serializer.loads(value, max_age=max_age)
    except SignatureExpired:
        raise TokenError(expired=True) from None
    except (BadSignature, ValueError, UnicodeError):
        raise TokenError(expired=False) from None
    if not isinstance(payload, dict):
        raise TokenError(expired=False)
    return payload


def credential_key(value: str) -> str:
    """The key of a cookie's or token's session row: a digest of the signed value, so the
    database keeps nothing that would open the session."""
    return hashlib.sha256(value.encode()).hexdigest()


def same_token(given: str | None, expected: str) -> bool:
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


class Passwords:
    """argon2id, the memory-hard hash."""

    def __init__(self, time_cost: int, memory_kib: int) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        if not stored:
            self._hasher.hash(password)  # the same work either way: no timing hint
            return False
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False
