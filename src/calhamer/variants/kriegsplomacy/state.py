"""Kriegsplomacy's state in a phase document: the spies whose news is still to come.

A spy whose espionage succeeded in a movement phase sees the places around it; what it saw
of the retreats is told with them, so the retreat phase's document remembers it
(``"extra": {"spies": [...]}``) and the phase after forgets it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from calhamer.documents.base import Document
from calhamer.documents.state import VariantState
from calhamer.errors import PhaseError

from .spying import SPIES, SpyRecord

if TYPE_CHECKING:
    from collections.abc import Mapping

    from calhamer.map import Map
    from calhamer.position import Position
    from calhamer.variant import Variant


class SpyEntry(Document):
    """A spy: its power, its unit, and the provinces it saw."""

    power: str
    unit: str = Field(description='the spying unit, "F NTH"')
    sees: list[str] = Field(description="the province codes it saw")


class KriegsplomacyExtra(Document):
    spies: list[SpyEntry] = Field(default_factory=list)


class KriegsplomacyState(VariantState):
    """Kriegsplomacy's fields of a phase document (``"extra"``)."""

    extra: KriegsplomacyExtra | None = None

    hints: ClassVar[Mapping[str, str]] = {
        "extra": '"extra" must be an object',
        "extra.spies": '"extra.spies" must be a list of {{"power", "unit", "sees"}} objects',
        "extra.spies.*": 'each of "extra.spies" is written {{"power": "ENGLAND", '
                         '"unit": "F NTH", "sees": ["BEL", ...]}}',
    }
    unknown: ClassVar[Mapping[str, str]] = {"extra": 'Kriegsplomacy fields in "extra"'}

    def to_extra(self, variant: Variant, m: Map) -> dict[str, object]:
        spies = []
        for entry in self.extra.spies if self.extra else ():
            power = m.find_power(entry.power)
            if power is None:
                raise PhaseError(f"extra.spies: {entry.power!r} is not a power of this map")
            unit = variant.notation.parse_unit(m, entry.unit, power)
            sees = set()
            for code in entry.sees:
                loc = m.find_location(code)
                if loc is None:
                    raise PhaseError(f"extra.spies: {code!r} is not a province of this map")
                sees.add(m.province_of(loc))
            spies.append(SpyRecord(power, unit, frozenset(sees)))
        return {SPIES: tuple(spies)} if spies else {}

    @classmethod
    def from_extra(cls, variant: Variant, position: Position) -> KriegsplomacyState | None:
        spies = position.extra.get(SPIES)
        if not spies:
            return None
        m = position.map
        return cls(extra=KriegsplomacyExtra(spies=[
            SpyEntry(power=s.power, unit=variant.notation.format_unit(m, s.unit),
                     sees=sorted(m.provinces[p].code for p in s.sees))
            for s in spies  # type: ignore[attr-defined]
        ]))
