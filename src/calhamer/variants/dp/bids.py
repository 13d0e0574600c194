"""Bids as written and kept: one :class:`Bid` is DP from a power for an order text.

Bids are read from the players' notation (``3 DP: A Kas S Sto - Tab``), from phase documents
(``"bids": {"ZANZIBAR": [{"order": ..., "dp": 1}]}``) or from library callers
(:func:`with_bids`), and kept in ``Position.extra`` under :data:`BIDS` for one phase, like
orders. Nothing here judges a bid: a bad amount or order is kept as given, to be reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from calhamer.documents.phase import PHASE_HINTS, BidItem
from calhamer.documents.state import VariantState
from calhamer.errors import PhaseError
from calhamer.map import Map
from calhamer.position import Position

if TYPE_CHECKING:
    from calhamer.variant import Variant

BIDS = "bids"  # the key of the bids in a phase document and in ``Position.extra``


@dataclass(frozen=True)
class Bid:
    """One bid: ``dp`` Diplomacy Points from ``power`` for the order written ``order``.

    ``dp`` is kept as given (a whole number when the bid is valid) so that a bad amount can be
    reported rather than lost.
    """

    power: str
    order: str
    dp: object

    def to_json(self) -> dict[str, object]:
        return {"order": self.order, "dp": self.dp}

    @property
    def text(self) -> str:
        """The bid in the players' notation: ``3 DP: A Kas S Sto - Tab``."""
        return f"{self.dp} DP: {self.order}" if self.dp is not None else self.order


# -- reading ---------------------------------------------------------------------------------------

_BID_LINE = re.compile(
    r"^(?P<dp>[-+]?\d+(?:[.,]\d*)?|[-+]?[.,]\d+)\s*(?:D\.?P\.?S?\b)?\s*[:;=-]?\s*(?P<order>.*)$",
    re.IGNORECASE,
)


def parse_bid(power: str, text: str) -> Bid:
    """Read a bid in the players' notation: ``3 DP: A Kas S Sto - Tab`` (also ``3: ...``).

    A line that does not start with an amount keeps ``dp`` None (a bid with no DP, which is
    void); ``1.5 DP: ...`` keeps 1.5 (void too: DP are whole numbers), and an amount written
    with a comma (``1,000``) is kept as its text, void too.
    """
    # Matched on the stripped line with a greedy tail: a lazy tail before "\s*$" would try
    # every split of a long run of spaces (quadratic time on a pasted line).
    match = _BID_LINE.match(text.strip())
    if match is None or not match["order"]:
        return Bid(power, text.strip(), None)
    raw = match["dp"]
    # "1,000" may be a thousands separator or a decimal comma: never guess the amount of a
    # secret bid; kept as written, it is void with its text in the reason.
    dp: object = raw if "," in raw else float(raw) if "." in raw else int(raw)
    return Bid(power, match["order"], dp)


def to_bid(power: str, item: object) -> Bid:
    """A bid from a line of text, a ``{"order": ..., "dp": ...}`` object or a :class:`Bid`."""
    if isinstance(item, Bid):
        return Bid(power, item.order, item.dp)
    if isinstance(item, str):
        return parse_bid(power, item)
    if isinstance(item, Mapping):
        order = item.get("order")
        if not isinstance(order, str):
            raise PhaseError(f'a bid of {power} has no "order" text: {dict(item)!r}')
        unknown = set(item) - {"order", "dp"}
        if unknown:
            raise PhaseError(f"unknown keys in a bid of {power}: {', '.join(sorted(unknown))}")
        return Bid(power, order, item.get("dp"))
    raise PhaseError(
        f'a bid of {power} must be written {{"order": "A KAS H", "dp": 1}} or "1 DP: A KAS H"'
    )


def read_bids(m: Map, doc: object) -> tuple[Bid, ...]:
    """The ``"bids"`` of a phase document: ``{"ZANZIBAR": [{"order": ..., "dp": 1}]}``."""
    if doc is None:
        return ()
    if not isinstance(doc, Mapping):
        raise PhaseError('"bids" must map each bidding power to a list of bids')
    bids: list[Bid] = []
    for raw_power, items in doc.items():
        power = m.find_power(str(raw_power))
        if power is None:
            known = ", ".join(m.power_codes)
            raise PhaseError(
                f"bids: {raw_power!r} is not a power of this map; the powers are {known}"
            )
        if isinstance(items, str | Mapping) or not isinstance(items, list):
            raise PhaseError(f"the bids of {power} must be a list")
        bids += [to_bid(power, item) for item in items]
    return tuple(bids)


class DPState(VariantState):
    """A DP variant's state: the secret bids of one movement phase (``"bids"``), an input
    of that phase like its orders. They are never written into a phase document (a game
    keeps them apart, see ``docs/formats.md``), and they end with their phase."""

    bids: dict[str, list[BidItem]] | None = Field(
        None, description="each bidding power's bids: lines like \"2 DP: A Kas - Kam\", "
        "or objects")

    hints: ClassVar[Mapping[str, str]] = {
        k: v for k, v in PHASE_HINTS.items() if k.startswith("bids")}

    def to_extra(self, variant: Variant, m: Map) -> dict[str, object]:
        bids = read_bids(m, self.model_dump(mode="json").get(BIDS))
        return {BIDS: bids} if bids else {}

    @classmethod
    def from_extra(cls, variant: Variant, position: Position) -> DPState | None:
        return None  # bids are secret: no phase document made from a position holds them

    @classmethod
    def lasting(cls, extra: Mapping[str, object]) -> Mapping[str, object]:
        if BIDS not in extra:
            return extra
        return MappingProxyType(without_bids(extra))


def bids_to_json(bids: Iterable[Bid]) -> dict[str, list[dict[str, object]]]:
    doc: dict[str, list[dict[str, object]]] = {}
    for bid in bids:
        doc.setdefault(bid.power, []).append(bid.to_json())
    return doc


# -- the bids of a position's phase ----------------------------------------------------------------


def bids_of(position: Position) -> tuple[Bid, ...]:
    """The bids given for ``position``'s phase."""
    return tuple(position.extra.get(BIDS, ()))  # type: ignore[arg-type]


def without_bids(extra: Mapping[str, object]) -> dict[str, object]:
    """A position's variant fields less its bids."""
    return {k: v for k, v in extra.items() if k != BIDS}


def with_bids(position: Position, bids: Mapping[str, Iterable[object]]) -> Position:
    """``position`` with ``bids`` (by bidding power: lines, objects or :class:`Bid` values)
    as the bids of its phase, replacing any it had. This is how a library caller bids."""
    m = position.map
    found: list[Bid] = []
    for raw_power, items in bids.items():
        power = m.find_power(raw_power) or raw_power.upper()
        found += [to_bid(power, item) for item in items]
    extra = without_bids(position.extra)
    if found:
        extra[BIDS] = tuple(found)
    return position.replace(extra=MappingProxyType(extra))
