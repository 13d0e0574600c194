"""Superdiplomacy's state in a phase document: the dice and the Small Powers.

``"extra"`` holds the published commitment to a movement phase's secret dice seed
(``seed_hash``), the phase in which the Small Powers were first attacked (``armed``), the
record of the last movement phase's battles and throws (``dice``) and, in a retreat phase,
the provinces each dislodged stack may not retreat to (``retreat_blocked``). The secret
``"seed"`` itself is a key of its own, which only the gamemaster's documents hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field

from calhamer import dice
from calhamer.documents.base import Document
from calhamer.documents.state import VariantState
from calhamer.errors import PhaseError
from calhamer.pieces import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping

    from calhamer.map import Map
    from calhamer.position import Position
    from calhamer.variant import Variant

# The variant's own fields of a position's "extra" (the secret seed is kept apart).
EXTRA_FIELDS = ("seed_hash", "armed", "dice", "retreat_blocked")


class Kill(Document):
    """A unit lost to a six: its power, the unit and whether it fought directly or in
    support."""

    power: str
    unit: str
    as_: Literal["direct", "supporting"] = Field(alias="as")


class Throw(Document):
    """One side's dice in one exchange: two dice per directly engaged unit, one per
    supporting unit."""

    power: str
    role: Literal["attacks", "defends"]
    direct: int
    supporting: int
    dice: list[int]
    kills: list[Kill]


class Battle(Document):
    """One exchange of dice in a battle (round 0) or in a fight to the death."""

    battle: str = Field(description="the battle's sectors, joined by +")
    kind: str
    round: int
    throws: list[Throw]


class DiceRecord(Document):
    """The dice of one movement phase, enough to check every throw against the seed."""

    phase: str
    scheme: str
    seed: str | None = Field(description="the seed, once the phase is over")
    seed_hash: str | None
    orders_digest: str
    battles: list[Battle]


class SuperdiplomacyExtra(Document):
    seed_hash: str | None = Field(
        None, description="SHA-256 of the phase's secret dice seed, published before it")
    armed: str | None = Field(
        None, description="the phase in which a Great Power first attacked a Small Power")
    dice: DiceRecord | None = None
    retreat_blocked: dict[str, list[str]] | None = Field(
        None, description="each dislodged stack's province: where it may not retreat")


class SuperdiplomacyState(VariantState):
    """Superdiplomacy's fields of a phase document: ``"extra"`` and the secret ``"seed"``."""

    seed: str | None = Field(None, min_length=1,
                             description="the phase's secret dice seed (gamemaster only)")
    extra: SuperdiplomacyExtra | None = None

    hints: ClassVar[Mapping[str, str]] = {
        "seed": '"seed" must be a non-empty string',
        "extra": '"extra" must be an object',
        "extra.armed": '"extra.armed" must be a phase code, like "F1901M"',
    }
    unknown: ClassVar[Mapping[str, str]] = {"extra": 'Superdiplomacy fields in "extra"'}

    def to_extra(self, variant: Variant, m: Map) -> dict[str, object]:
        out: dict[str, object] = {}
        if self.extra is not None:
            given = self.extra.model_dump(mode="json")
            out.update({k: v for k, v in given.items() if v is not None})
        if self.seed is not None:
            published = out.get("seed_hash")
            if published is not None and not dice.seed_matches(self.seed, str(published)):
                raise PhaseError("the seed does not match the published commitment "
                                 f"(SHA-256 {published})")
            out["seed"] = self.seed
            out["seed_hash"] = dice.commitment(self.seed)
        armed = out.get("armed")
        if armed is not None:
            Phase.parse(str(armed))
        return out

    @classmethod
    def from_extra(cls, variant: Variant, position: Position) -> SuperdiplomacyState | None:
        # The secret seed is never written here: a game keeps it apart from the position
        # (revealed with the results), and a phase document given to be adjudicated names it.
        extra = position.extra
        fields = {k: extra[k] for k in EXTRA_FIELDS if extra.get(k) is not None}
        return cls.model_validate({"extra": fields}) if fields else None
