"""What happened to each order, in words a player understands."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from calhamer.orders import AnyOrder
from calhamer.pieces import Dislodged

if TYPE_CHECKING:
    from calhamer.position import Position



class Result(StrEnum):
    """An order's fate. Members are strings ("succeeds"), as documents and reports write them."""

    SUCCEEDS = "succeeds"
    FAILS = "fails"
    INVALID = "invalid"  # unreadable or illegal: the unit holds (DATC 4.E.1)
    UNKNOWN = "unknown"  # not told to this power (whether its support was given, Kriegsplomacy)


SUCCEEDS, FAILS, INVALID, UNKNOWN = Result.SUCCEEDS, Result.FAILS, Result.INVALID, Result.UNKNOWN


@dataclass(slots=True)
class OrderResult:
    """One order's fate. ``text`` is the order as the player wrote it, kept verbatim."""

    power: str
    text: str
    canonical: str
    result: Result
    reason: str
    order: AnyOrder | None = None

    @property
    def succeeded(self) -> bool:
        return self.result == SUCCEEDS

    def to_json(self) -> dict[str, str]:
        return {
            "order": self.text,
            "canonical": self.canonical,
            "result": self.result,
            "reason": self.reason,
        }


class PhaseOutcome:
    """The adjudication of one phase: every order's result and the position that follows.

    ``after`` is the board as this phase leaves it (for a movement phase: dislodged units
    waiting to retreat); ``next`` is the next phase to be played, with empty phases skipped.
    ``results`` (each order's result and reason, by power) is worded on first use, so a bot
    that only wants the next position never pays for the sentences.
    """

    def __init__(
        self,
        before: Position,
        results: dict[str, list[OrderResult]] | Callable[[], dict[str, list[OrderResult]]],
        after: Position,
        next: Position,
        dislodged: tuple[Dislodged, ...] = (),
        moved: dict[int, int] | None = None,
        removed: list[int] | None = None,
        detail: dict[str, object] | None = None,
    ) -> None:
        self.before = before
        self._results = results
        self.after = after
        self.next = next
        self.dislodged = dislodged
        self.moved = moved or {}  # province -> destination location
        self.removed = removed or []  # provinces whose units were destroyed
        self.detail = detail or {}

    @property
    def results(self) -> dict[str, list[OrderResult]]:
        if callable(self._results):
            self._results = self._results()
        return self._results

    def result_of(self, power: str, canonical: str) -> OrderResult | None:
        for r in self.results.get(power, []):
            if r.canonical == canonical:
                return r
        return None

    def all_results(self) -> list[OrderResult]:
        return [r for rs in self.results.values() for r in rs]
