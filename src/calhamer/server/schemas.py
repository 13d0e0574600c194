"""The JSON API's models: what comes in (``...In``) and what goes out (``...Out``).

Every API route declares its ``response_model``, so a field leaves the server only if the
public model names it (invitation tokens are only in :class:`GameGMOut`, which only the
gamemaster gets). Incoming text is bounded and may not hold NUL characters (each text field's
schema says so with a pattern), names people choose are normalised, numbers are bounded so
that each fits its column, and a yes/no
field takes only ``true`` or ``false`` (``"yes"`` or ``1`` is a mistake to report, not a
guess to make). Error answers have the shapes of :class:`ErrorOut` and
:class:`ValidationErrorOut` (declared for each route by ``app.py``).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    Tag,
    WithJsonSchema,
)

from calhamer.documents.phase import PhaseDocument, ViewResultEntry
from calhamer.server.names import NAME_PATTERN, clean_name


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("text may not contain NUL characters")
    return value


# The no-NUL rule, as the schema states it (a pattern) and as the server checks it (the
# validator, for a plainer message than a pattern's): every text of every request has both.
NO_NUL = "^[^\\x00]*$"
_NoNul = Field(json_schema_extra={"pattern": NO_NUL})

OrderLine = Annotated[str, Field(max_length=500), _NoNul, AfterValidator(_no_nul)]
PhaseCode = Annotated[str, Field(max_length=12), _NoNul, AfterValidator(_no_nul)]


def _display_name(value: str) -> str:
    return clean_name(value, limit=60, what="a display name")


def _game_name(value: str) -> str:
    return clean_name(value, limit=80, what="a game's name", required=False)


# Names people choose, shown to the others (``names.clean_name``): NFC, invisible characters
# left out, one space between words; NUL and the controls of the writing direction refused
# (the schema's pattern names those).
Name = Annotated[str, Field(max_length=60, json_schema_extra={"pattern": NAME_PATTERN}),
                 AfterValidator(_display_name)]
GameName = Annotated[str, Field(max_length=80, json_schema_extra={"pattern": NAME_PATTERN}),
                     AfterValidator(_game_name)]
# Numbers that reach the database are bounded here, so that none overflows a column (or a
# date) and each refusal is a 422 naming the field.
MAX_MINUTES = 60 * 24 * 60  # a phase's deadline, or one extension: up to 60 days
LONGEST_WAIT_MINUTES = 366 * 24 * 60  # a deadline (paused or not) is at most a year away
MAX_DP = 1_000_000  # a bid's amount: far above any allotment, far below any overflow
MAX_ID = 2**31 - 1  # the largest id an integer column holds

Minutes = Annotated[int, Field(ge=0, le=MAX_MINUTES)]  # 0: no deadline


def _utc(value: datetime | None) -> str | None:
    return None if value is None else value.replace(tzinfo=UTC).isoformat()


UtcTime = Annotated[datetime | None, PlainSerializer(_utc, return_type=str | None)]


class In(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- accounts -------------------------------------------------------------------------------------


class SignupIn(In):
    username: Annotated[str, Field(min_length=2, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]
    password: Annotated[str, Field(min_length=8, max_length=200), _NoNul,
                        AfterValidator(_no_nul)]
    display_name: Name | None = None


class LoginIn(In):
    username: Annotated[str, Field(max_length=40), _NoNul, AfterValidator(_no_nul)]
    password: Annotated[str, Field(max_length=200), _NoNul, AfterValidator(_no_nul)]


class UserOut(BaseModel):
    id: int
    username: str | None
    display_name: str


class TokenOut(BaseModel):
    token: str
    token_type: Literal["bearer"] = "bearer"
    expires_in: int
    user: UserOut


class SessionOut(BaseModel):
    """One of your sessions: a browser's login or an API token (``kind``)."""

    id: int
    kind: Literal["browser", "api"]
    created_at: UtcTime
    last_seen: UtcTime  # to within a few minutes (Settings.session_touch_seconds)
    address: str  # the client's address when last seen
    agent: str  # its User-Agent, shortened
    current: bool  # the session this request was made with


# -- games ----------------------------------------------------------------------------------------


class Deadlines(BaseModel):
    """Minutes each phase type lasts; 0 means no deadline (it waits for everyone's ready)."""

    movement: Minutes = 24 * 60
    retreat: Minutes = 12 * 60
    adjustment: Minutes = 12 * 60


class GameIn(In):
    name: GameName = ""
    variant: Annotated[str, Field(max_length=200), _NoNul, AfterValidator(_no_nul)] = "standard"
    rules: Annotated[str, Field(max_length=20), _NoNul, AfterValidator(_no_nul)] | None = None
    press: Literal["none", "public", "full"] = "full"
    deadlines: Deadlines = Deadlines()
    # List the game in the lobby, where anyone may take a free power.
    listed: bool = False


class SeatOut(BaseModel):
    power: str
    power_name: str
    player: str | None  # the player's display name; None while the power is free


class SeatGMOut(SeatOut):
    invite_url: str | None
    invite_token: str | None
    # None: not told (a gamemaster who plays a power learns only their own, like a player)
    orders_received: bool | None
    ready: bool | None


class GameOut(BaseModel):
    id: str
    name: str
    variant: str
    rules: str
    press: str
    status: str
    phase: str
    phase_name: str
    deadline: UtcTime
    deadlines: Deadlines
    winner: str | None
    end_reason: str | None
    role: Literal["gm", "player"]
    power: str | None  # the power you play here
    seats: list[SeatOut]


class GameGMOut(GameOut):
    seats: list[SeatGMOut]  # type: ignore[assignment]
    last_error: str | None


class FreePowerOut(BaseModel):
    power: str  # its code, as the API names powers
    name: str
    invite: str  # the invitation token, for POST /api/join


class OpenGameOut(BaseModel):
    """A game listed in the lobby: what it shows everyone, and its free powers."""

    id: str
    name: str
    variant: str
    press: str
    phase: str
    phase_name: str
    free: list[FreePowerOut]


class LobbyOut(BaseModel):
    """A page of the lobby's open games, newest first."""

    games: list[OpenGameOut]
    page: int
    page_size: int
    next_page: int | None  # None: this is the last page


class JoinIn(In):
    invite: Annotated[str, Field(max_length=64), _NoNul, AfterValidator(_no_nul)]
    name: Name | None = None


class JoinOut(BaseModel):
    game_id: str
    power: str
    token: str  # a bearer token for the API, for the user who joined
    user: UserOut
    # A guest's way back in any browser (None for an account): open it to log in as them.
    return_url: str | None = None


# -- orders ---------------------------------------------------------------------------------------


class OrderCheckOut(BaseModel):
    line: int
    text: str
    canonical: str
    ok: bool
    problem: str | None


class OrdersIn(In):
    phase: PhaseCode
    orders: Annotated[list[OrderLine], Field(max_length=200)]
    ready: StrictBool | None = None  # None: the ready mark stays as it was


class ReadyIn(In):
    phase: PhaseCode
    ready: StrictBool = True


class OrdersOut(BaseModel):
    phase: str
    power: str
    orders: list[str]
    checks: list[OrderCheckOut]
    ready: bool
    saved_at: UtcTime


class SeatChangeOut(BaseModel):
    """A seat changing hands, as every player of the game is told: a power taken (the
    gamemaster named as such), or freed by the gamemaster."""

    at: UtcTime
    text: str  # "Bob took France", "France was freed by the gamemaster (Bob left); ..."


class GameNowOut(BaseModel):
    """What a player (or the gamemaster) sees of the game now."""

    game: GameOut
    # The current phase as a phase document, without orders (as the viewer may see it).
    position: PhaseDocument
    orders: dict[str, OrdersOut]  # the orders you may read for the current phase
    last_phase: str | None  # the latest adjudicated phase, if any
    seat_changes: list[SeatChangeOut]  # every change of hands so far, oldest first


# -- phases ---------------------------------------------------------------------------------------


class PhaseOut(BaseModel):
    index: int
    phase: str
    name: str
    adjudicated: bool


class ResultOut(ViewResultEntry):
    """One order's result, as in the output document (``unknown``: not told to you)."""


class PhaseResultOut(BaseModel):
    phase: str
    name: str
    report: str
    orders: dict[str, list[str]]
    results: dict[str, list[ResultOut]]
    next: str
    processed_at: UtcTime


# -- bids (DP variants) --------------------------------------------------------------------------


def _dp(value: object) -> int | float:
    """A bid's amount: a JSON number (not a string, not true or false), finite, from 0 to
    ``MAX_DP``. Whole numbers count; any other amount makes the bid void (the bid rule says
    so), but NaN, infinities and huge numbers are refused here: no column or sum takes them."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("dp must be a number of Diplomacy Points, like 3")
    if not math.isfinite(value) or not 0 <= value <= MAX_DP:
        raise ValueError(f"dp must be a finite number from 0 to {MAX_DP}")
    return value


DPAmount = Annotated[int | float, PlainValidator(_dp), WithJsonSchema(
    {"type": "number", "minimum": 0, "maximum": MAX_DP,
     "description": "Diplomacy Points: whole numbers count, any other amount makes the bid "
                    "void; NaN and infinities are refused."})]


class BidItem(In):
    """One bid as an object: the order bought for a neutral unit and the DP given for it."""

    order: OrderLine
    dp: DPAmount


# A bid as a line of the players' notation (``3 DP: A Bel S A Par - Bur``) or as an object;
# told apart by their JSON type, so that a problem is reported for the one it is.
BidIn = Annotated[
    Annotated[OrderLine, Tag("line")] | Annotated[BidItem, Tag("object")],
    Discriminator(lambda v: "line" if isinstance(v, str) else "object"),
]


class BidsIn(In):
    phase: PhaseCode
    bids: Annotated[list[BidIn], Field(max_length=200)]


class BidsOut(BaseModel):
    """A power's bids for the current movement phase (secret: only the bidder and the
    gamemaster read them, and everyone once the game is over)."""

    phase: str
    power: str
    bids: list[str | dict[str, Any]]  # as given: lines, or {"order": ..., "dp": ...}
    problems: list[str]  # empty: every bid counts (unless an attack on its minor voids it)
    allotment: int  # the DP the power may allocate this phase
    allocated: int  # the DP these bids allocate
    saved_at: UtcTime


class TallyBidOut(BaseModel):
    power: str
    order: str  # as the bidder wrote it
    dp: Any
    bought: str | None  # the order it buys, in the ruleset's notation, when it is legal
    status: Literal["counted", "void", "ignored"]
    reason: str


class TallyUnitOut(BaseModel):
    unit: str
    order: str | None  # the order the unit was given
    bought: bool  # False: its default order (no bid counted, or a tie)
    why: str
    totals: dict[str, int]  # DP counted for each order


class TallyOut(BaseModel):
    """The gamemaster's tally of one movement phase's bids."""

    phase: str
    adjudicated: bool
    report: str
    allotments: dict[str, int]
    spent: dict[str, int]
    bids: list[TallyBidOut]
    units: list[TallyUnitOut]


# -- press ----------------------------------------------------------------------------------------


class MessageIn(In):
    to: Annotated[list[Annotated[str, Field(max_length=20), _NoNul, AfterValidator(_no_nul)]],
                  Field(max_length=40)] = []
    body: Annotated[str, Field(min_length=1, max_length=5000), _NoNul, AfterValidator(_no_nul)]


class MessageOut(BaseModel):
    id: int
    phase: str
    sender: str
    to: list[str]  # empty: to all powers
    body: str
    at: UtcTime


class ThreadOut(BaseModel):
    """A conversation you may read, and how far your account has read it."""

    thread: str  # its participants' codes joined by "+", or "ALL" (players' messages to all)
    members: list[str]  # empty for "ALL"
    messages: int
    last: int  # the id of its latest message
    last_read: int  # the id of the last message you have read (0: none)
    unread: int  # messages by others after it


class ReadIn(In):
    thread: Annotated[str, Field(min_length=1, max_length=200), _NoNul, AfterValidator(_no_nul)]
    last: Annotated[int, Field(ge=1, le=MAX_ID, description="the id of the last message read")]


# -- the gamemaster -------------------------------------------------------------------------------


class ControlIn(In):
    action: Literal["pause", "resume", "extend", "process", "end"]
    phase: Annotated[PhaseCode | None, Field(
        description="The phase the action is meant for, which must be the phase being played "
        "(409 otherwise: it has been adjudicated meanwhile). Required for `process` and "
        "`extend`, which act on one phase; `pause`, `resume` and `end` act on the game and do "
        "not read it.",
    )] = None
    minutes: Annotated[int | None, Field(
        ge=1, le=MAX_MINUTES,
        description="For `extend`: by how many minutes (the phase must have a deadline, and "
        "it may end at most 366 days from now: 409 otherwise).",
    )] = None


# -- errors ---------------------------------------------------------------------------------------


class ErrorOut(BaseModel):
    """Every error answer of the API but 422: one sentence saying what is wrong."""

    detail: str


class ProblemOut(BaseModel):
    loc: str  # where in the request, dotted (``orders.3``); empty for the body as a whole
    msg: str


class ValidationErrorOut(BaseModel):
    """A 422 answer: the request does not have the documented shape."""

    detail: str  # the first few problems, as one line
    errors: list[ProblemOut]  # every problem
