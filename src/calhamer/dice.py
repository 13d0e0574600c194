"""Verifiable dice: throws nobody can bend or predict, and anybody can check afterwards.

The scheme is commit and reveal:

1. Before orders are due the judge draws a secret **seed** (:func:`new_seed`) and publishes
   its **commitment**, the SHA-256 hash of the seed (:func:`commitment`).
2. When the phase is adjudicated, every throw is taken from a :class:`DiceStream`: the bytes of
   HMAC-SHA256 keyed with the seed over a **label** that names the phase, a digest of the orders
   as submitted (:func:`orders_digest`), the battle and the round, and a block counter.
3. The seed is revealed with the results. Anyone can check it against the commitment and run
   the adjudication again (``calhamer verify``): the same seed and orders give the same throws.

Players cannot predict the throws (the seed is secret until the orders are in) and the judge
cannot choose them (the seed was fixed before the orders, and the throws depend on the orders).
A die is one byte of the stream taken modulo 6, bytes 252 to 255 being skipped so that each
face has exactly the same chance; :meth:`DiceStream.below` draws any uniform choice the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SCHEME = "hmac-sha256/1"


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes from the operating system, as hex."""
    import secrets  # the hashing modules load only when dice are used: the CLI starts quickly

    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: its SHA-256 hash, as hex."""
    import hashlib

    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def seed_matches(seed: str, published: str) -> bool:
    """Whether ``seed`` is the one committed to by the hash ``published``."""
    import hmac

    return hmac.compare_digest(commitment(seed), published.strip().lower())


def orders_digest(lines: Iterable[str]) -> str:
    """SHA-256 of the orders (canonical lines; sorted here, so their order does not matter)."""
    import hashlib

    text = "\n".join(sorted(lines))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class DiceRecord:
    """Every throw of one adjudicated phase, with what anyone needs to check them afterwards:
    the phase, the scheme, the seed (once revealed) and its commitment, the digest of the
    orders, and the battles in the order they were fought (each a document-shaped object, as
    phase documents carry it)."""

    phase: str
    scheme: str
    seed: str | None
    seed_hash: str | None
    orders_digest: str
    battles: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The record as phase documents write it (``extra.dice``)."""
        return {
            "phase": self.phase,
            "scheme": self.scheme,
            "seed": self.seed,
            "seed_hash": self.seed_hash,
            "orders_digest": self.orders_digest,
            "battles": self.battles,
        }


class DiceStream:
    """An endless stream of unbiased throws, a pure function of ``seed`` and ``label``."""

    def __init__(self, seed: str, label: str) -> None:
        import hashlib
        import hmac

        self._hmac, self._sha256 = hmac.new, hashlib.sha256
        self._key = seed.encode("utf-8")
        self.label = label
        self._block = b""
        self._used = 0
        self._counter = 0

    def _byte(self) -> int:
        if self._used == len(self._block):
            message = f"{self.label}|{self._counter}".encode()
            self._block = self._hmac(self._key, message, self._sha256).digest()
            self._counter += 1
            self._used = 0
        value = self._block[self._used]
        self._used += 1
        return value

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely (rejection sampling)."""
        if n < 1:
            raise ValueError("below() needs a positive bound")
        size = 1
        while 256**size < n:
            size += 1
        span = 256**size
        limit = span - span % n
        while True:
            value = 0
            for _ in range(size):
                value = value * 256 + self._byte()
            if value < limit:
                return value % n

    def d6(self) -> int:
        """One throw of a six-sided die: 1 to 6."""
        return self.below(6) + 1

    def throw(self, count: int) -> list[int]:
        return [self.d6() for _ in range(count)]
