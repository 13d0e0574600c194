"""The game file (``calhamer game``) as a pydantic model."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from calhamer.documents.base import Document
from calhamer.documents.phase import PHASE_HINTS, PhaseDocument, ResultEntry

FORMAT = "calhamer-game/1"


class PhaseRecordDocument(Document):
    """One phase of a game: the position it started from, the orders as each power sent
    them, the results once processed (null for the phase being played) and, in a DP variant,
    the secret bids."""

    phase: str
    position: PhaseDocument = Field(description="a phase document without orders; in a game "
                                    "that throws dice, with the phase's secret seed")
    orders: dict[str, list[str]] | None = Field(default_factory=dict)
    results: dict[str, list[ResultEntry]] | None = None
    bids: dict[str, list[Any]] | None = Field(default_factory=dict)
    messages: list[dict[str, Any]] | None = Field(
        None, description="press of the phase kept from an imported saved game (the "
        "diplomacy package's messages, as it wrote them); written only when there is some")


class GameDocument(Document):
    """A whole game in one file, oldest phase first; the last phase is the one being played."""

    format: Literal["calhamer-game/1"]
    variant: str = "standard"
    rules: str = "datc"
    max_year: int | None = Field(
        None, description="the last year played: a phase of a later year ends the game in a "
        "draw of the surviving powers (calhamer.victory)")
    draw_votes: list[str] | None = Field(
        None, description="the powers that voted for a draw in the current phase")
    settings: dict[str, Any] | None = Field(
        None, description="the gamemaster's settings; \"mail\": the SMTP server and each "
        "power's address for calhamer game mail (never a password)")
    phases: list[PhaseRecordDocument] = Field(min_length=1)


GAME_HINTS = {
    **{f"phases.*.position.{k}" if k else "phases.*.position": v.replace(
        "a phase document must", '"position" must') for k, v in PHASE_HINTS.items()},
    "": "a game file must hold a JSON object",
    "format": f'this is not a calhamer game file: "format" must be "{FORMAT}"',
    "phases": '"phases" must be a non-empty list',
    "phases.*": 'each phase entry is an object with "phase", "position", "orders" and '
                '"results"',
    "phases.*.phase": '"phase" must be a phase code, like "S1901M"',
    "phases.*.orders": '"orders" must map each power to a list of strings',
    "phases.*.bids": '"bids" must map each power to a list of bids',
    "phases.*.results": '"results" must map each power to a list of results, each like '
                        '{{"order": "A PAR - BUR", "canonical": "A PAR - BUR", '
                        '"result": "succeeds", "reason": "moves"}}',
    "phases.*.results.*.*.result": "a result is one of succeeds, fails, invalid",
}
GAME_UNKNOWN = {"": "keys in the game file"}
