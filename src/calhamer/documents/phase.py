"""The phase document and the output document as pydantic models.

These models check a document's *shape* (which keys, which JSON types); whether a name is a
power of the map or a province is checked by :func:`calhamer.formats.position_from_json`,
which knows the map. A variant's own fields (``options``, ``bids``, ``seed``, ``extra``) are
typed loosely here and checked by the variant's state model
(:class:`calhamer.documents.state.VariantState`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from calhamer.documents.base import BY_JSON_TYPE, OBJECT, TEXT, Document

UnitText = Annotated[str, Field(description='a unit: type letter and location, "F STP/SC"')]
PowerLists = dict[str, list[str]]


class DislodgedEntry(Document):
    """A unit that must retreat, and the province its attacker came from (where it may not
    go); ``attacker_from`` is left out when the attacker came by convoy and the edition lets
    the unit retreat there."""

    unit: UnitText
    attacker_from: str | None = None


def _listed(value: Any) -> Any:
    # A power's dislodged units may be written as one entry rather than a list of one.
    return value if isinstance(value, list) else [value]


DislodgedList = Annotated[
    list[Annotated[Annotated[UnitText, TEXT] | Annotated[DislodgedEntry, OBJECT], BY_JSON_TYPE]],
    BeforeValidator(_listed),
]


class BidEntry(Document):
    """One secret bid of a DP variant: the order bought for a neutral unit and the Diplomacy
    Points given for it. An amount that is not a whole number makes the bid void, not the
    document wrong, so ``dp`` takes any JSON value."""

    order: str
    dp: Any = None


# A bid: a line of the players' notation, or an object.
BidItem = Annotated[Annotated[str, TEXT] | Annotated[BidEntry, OBJECT], BY_JSON_TYPE]


class PhaseDocument(Document):
    """A board at the start of one phase, with the orders given for it (``docs/formats.md``).

    Keys are written in this order; a key left out takes its default.
    """

    variant: str = Field("standard", description="the variant, which fixes the map")
    rules: str | None = Field(None, description="the rule edition; null: the variant's own")
    phase: str | None = Field(None, description="the phase code, S1901M; the map's first phase "
                              "when left out")
    units: PowerLists = Field(default_factory=dict,
                              description="each power's units, as unit strings")
    centers: PowerLists = Field(default_factory=dict,
                                description="each power's supply centres, as province codes")
    dislodged: dict[str, DislodgedList] = Field(
        default_factory=dict, description="retreat phases: each power's units that must retreat")
    contested: list[str] = Field(
        default_factory=list,
        description="retreat phases: provinces left empty by a standoff, closed to retreats")
    orders: PowerLists = Field(default_factory=dict,
                               description="each power's orders, one string per order")
    options: dict[str, Any] | None = Field(
        None, description="the variant's options (Arpiesse: colour_exchange)")
    bids: dict[str, list[BidItem]] | None = Field(
        None, description="DP variants: each bidding power's secret bids")
    seed: str | None = Field(None, description="Superdiplomacy: the secret dice seed")
    extra: dict[str, Any] | None = Field(
        None, description="the variant's own state (docs/schemas/*-state.json)")
    game: Any = Field(None, description="reserved for variants")
    views: Any = Field(None, description="reserved for variants")


# How a problem in a phase document is told (see ``describe_validation_error``).
PHASE_HINTS = {
    "": "a phase document must be a JSON object",
    "variant": '"variant" must be a variant\'s name, like "standard"',
    "rules": '"rules" must be a rule edition\'s name, like "datc"',
    "phase": '"phase" must be a phase code, like "S1901M"',
    "units": '"units" must map each power to a list of units, like "F LON"',
    "units.*": "units of {key} must be a list of strings",
    "centers": '"centers" must map each power to a list, like {{"ENGLAND": [...]}}',
    "centers.*": "centers of {key} must be a list of strings",
    "orders": '"orders" must map each power to a list, like {{"ENGLAND": [...]}}',
    "orders.*": "orders of {key} must be a list of strings",
    "dislodged": '"dislodged" must map each power to a list, like {{"ENGLAND": [...]}}',
    "dislodged.*": 'dislodged units of {key} are written {{"unit": "F ANK", '
                   '"attacker_from": "SEV"}}',
    "contested": "contested must be a list of strings",
    "options": '"options" must be an object, like {{"colour_exchange": true}}',
    "bids": '"bids" must map each bidding power to a list of bids',
    "bids.*": "the bids of {key} must be a list",
    "bids.*.*": 'each bid must be written {{"order": "A KAS H", "dp": 1}} or '
                '"1 DP: A KAS H"',
    "seed": '"seed" must be a non-empty string',
    "extra": '"extra" must be an object',
}
PHASE_UNKNOWN = {"": "keys in the phase document"}


# -- the output document ---------------------------------------------------------------------------

Verdict = Literal["succeeds", "fails", "invalid"]


class ResultEntry(Document):
    """One order's result: the order as written, calhamer's reading of it, and why."""

    order: str = Field(description="the order as written; empty for a unit given no valid order")
    canonical: str = Field(description="the order in calhamer's notation; empty when unreadable")
    result: Verdict
    reason: str


class ViewResultEntry(ResultEntry):
    """A result as one power may read it: whether it succeeded may be ``unknown``."""

    result: Verdict | Literal["unknown"]  # type: ignore[assignment]


class Note(Document):
    title: str
    lines: list[str]


class DislodgedUnit(Document):
    """A unit dislodged in the phase: its power, the places it may retreat to, and whether it
    was destroyed at once (a unit the variant lets no retreat, such as a DP variant's neutral
    army, is removed in the movement phase itself and has no retreat phase)."""

    unit: UnitText
    power: str = Field(description="the unit's power")
    retreats: list[str] | None = Field(
        None, description='the locations it may retreat to ("BEL", "SPA/NC"), in the order '
        "the text report lists them; empty when it may go nowhere or was destroyed; left out "
        "of a view that does not tell them (fog of war)")
    destroyed: bool = Field(description="true: destroyed at once, with no retreat phase")


class ViewDocument(Document):
    """What one power may see of an adjudicated phase (``power`` null: the gamemaster)."""

    power: str | None
    phase: str
    complete: bool
    results: dict[str, list[ViewResultEntry]]
    dislodged: list[DislodgedUnit]
    notes: list[Note] = Field(default_factory=list)
    centre_counts: dict[str, int] | None = None
    next: PhaseDocument


class OutputDocument(Document):
    """What ``calhamer adjudicate --json`` writes: each order's result and the next phase."""

    phase: str
    results: dict[str, list[ResultEntry]]
    dislodged: list[DislodgedUnit]
    next: PhaseDocument
    winner: str | None = None
    views: dict[str, ViewDocument] | None = None
