"""What happened to each order, in words a player understands."""

from __future__ import annotations

from dataclasses import dataclass, field

from calhamer.orders import AnyOrder
from calhamer.position import Dislodged, Position

SUCCEEDS = "succeeds"
FAILS = "fails"
INVALID = "invalid"


@dataclass(slots=True)
class OrderResult:
    """One order's fate. ``text`` is the order as the player wrote it, kept verbatim."""

    power: str
    text: str
    canonical: str
    result: str
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


@dataclass
class PhaseOutcome:
    """The adjudication of one phase: every order's result and the position that follows.

    ``after`` is the board as this phase leaves it (for a movement phase: dislodged units
    waiting to retreat); ``next`` is the next phase to be played, with empty phases skipped.
    """

    before: Position
    results: dict[str, list[OrderResult]]
    after: Position
    next: Position
    dislodged: tuple[Dislodged, ...] = ()
    moved: dict[int, int] = field(default_factory=dict)  # province -> destination location
    removed: list[int] = field(default_factory=list)  # provinces whose units were destroyed
    detail: dict[str, object] = field(default_factory=dict)

    def result_of(self, power: str, canonical: str) -> OrderResult | None:
        for r in self.results.get(power, []):
            if r.canonical == canonical:
                return r
        return None

    def all_results(self) -> list[OrderResult]:
        return [r for rs in self.results.values() for r in rs]
