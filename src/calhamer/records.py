"""A game's phase records: what a game file holds for each phase, read and checked.

A :class:`PhaseRecord` is one phase of a game: the position it started from, the orders each
power sent (verbatim), the results once processed, a DP variant's secret bids and any press
kept from an imported game. The readers here check a game file's entries and results, naming
the phase entry of each problem (:class:`GameError`); :mod:`calhamer.game` builds games from
them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from calhamer.errors import CalhamerError
from calhamer.formats import canonical_results, describe_error, position_from_json, position_to_json
from calhamer.map import Map
from calhamer.position import Phase, Position
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome


class GameError(CalhamerError):
    """A game file is unreadable or inconsistent, or a game action is not allowed now."""


class PhaseRecord:
    """One phase of a game: the position it started from, the orders, and the results.

    ``position`` is a :class:`~calhamer.position.Position`. A record made while playing holds
    the position the adjudicator produced, never written out and read back; a record read
    from a file holds its phase document until the position is first asked for, then the
    position (read once, so a damaged past phase is reported when it is needed, naming its
    entry). ``document`` is the phase document the game file stores (without orders; with a
    dice phase's secret ``"seed"``, the gamemaster's). A record may be given a phase document
    instead of a position (the web judge stores documents).
    """

    __slots__ = ("_document", "_position", "bids", "messages", "orders", "phase", "results",
                 "rules", "where")

    def __init__(
        self,
        phase: str,
        position: Position | Mapping[str, Any],
        orders: dict[str, list[str]] | None = None,
        results: dict[str, list[dict[str, str]]] | None = None,
        # A DP variant's secret bids, by bidding power ({"order": ..., "dp": ...} each); kept
        # apart from the position and the results, which players see.
        bids: dict[str, list[Any]] | None = None,
        *,
        rules: str | None = None,
        where: str | None = None,
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        self.phase = phase
        # Press of the phase kept from an imported game (the ``diplomacy`` package's messages,
        # as it wrote them), so that exporting gives them back; calhamer's own press lives in
        # the web judge.
        self.messages: list[dict[str, Any]] = messages if messages is not None else []
        self.orders: dict[str, list[str]] = orders if orders is not None else {}
        self.results = results
        self.bids: dict[str, list[Any]] = bids if bids is not None else {}
        self.rules = rules
        self.where = where  # how errors name the record ("phase entry 3 (F1901M)")
        if isinstance(position, Position):
            self._position: Position | None = position
            self._document: dict[str, Any] | None = None
        else:
            self._position = None
            self._document = dict(position)

    @property
    def position(self) -> Position:
        """The position the phase started from (read from the document on first use)."""
        if self._position is None:
            assert self._document is not None
            self._position = _position(self._document, self.where)
        return self._position

    @property
    def document(self) -> dict[str, Any]:
        """The phase document of ``position`` as the game file stores it (no orders)."""
        if self._document is None:
            position = self.position
            doc = position_to_json(position, self.rules)
            seed = position.extra.get("seed")
            if isinstance(seed, str):
                doc["seed"] = seed
            self._document = doc
        return self._document

    @property
    def seed(self) -> object:
        """The phase's secret dice seed as recorded (Superdiplomacy), or None."""
        if self._document is None and self._position is not None:
            return self._position.extra.get("seed")
        return self.document.get("seed")

    def copy(self) -> PhaseRecord:
        """A record that shares the (immutable) position, with its own orders and results."""
        twin = PhaseRecord(
            self.phase, self._position if self._position is not None else self.document,
            {p: list(v) for p, v in self.orders.items()},
            None if self.results is None else {p: [dict(e) for e in v]
                                               for p, v in self.results.items()},
            {p: list(v) for p, v in self.bids.items()}, rules=self.rules, where=self.where,
            messages=[dict(m) for m in self.messages])
        twin._document = self._document
        return twin

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "phase": self.phase,
            "position": self.document,
            "orders": self.orders,
            "results": self.results,
        }
        if self.bids:
            doc["bids"] = self.bids
        if self.messages:
            doc["messages"] = self.messages
        return doc

    def __repr__(self) -> str:
        done = "played" if self.results is not None else "current"
        return f"<PhaseRecord {self.phase} ({done})>"


@dataclass(frozen=True)
class PhaseCheck:
    """How one recorded phase fared when judged again (:meth:`Game.verify`)."""

    phase: str
    problems: list[str]
    notes: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _first_difference(what: str, recorded: Any, again: Any, where: str = "") -> str:
    """Where two JSON values first differ, as a sentence."""
    if isinstance(recorded, Mapping) and isinstance(again, Mapping):
        for key in sorted(set(recorded) | set(again), key=str):
            if recorded.get(key) != again.get(key):
                return _first_difference(what, recorded.get(key), again.get(key),
                                         f"{where}/{key}")
    if isinstance(recorded, list) and isinstance(again, list) and len(recorded) == len(again):
        for i, (a, b) in enumerate(zip(recorded, again, strict=True)):
            if a != b:
                return _first_difference(what, a, b, f"{where}[{i}]")
    return f"the {what} differ at {where or '/'}: recorded {recorded!r}, judged again {again!r}"


def check_game_document(doc: Mapping[str, Any], *, earlier_positions: bool = False) -> None:
    """``doc`` checked as a game file (:class:`calhamer.documents.GameDocument`): its keys
    and the JSON type of every value, the current phase's position included. Raises
    :class:`GameError` naming the phase entry and the field path of the first problem.

    The positions of earlier phases are checked only with ``earlier_positions``: a command
    checks one when it reads it, so that ``calhamer verify`` can report a tampered one as a
    phase that does not come out as recorded rather than refuse the whole file.
    """
    # The models (and pydantic) are loaded by the first game read, not by the command line's
    # start.
    from pydantic import ValidationError

    from calhamer.documents.base import describe_validation_error
    from calhamer.documents.game import GAME_HINTS, GAME_UNKNOWN, GameDocument

    phases = doc.get("phases")
    if not earlier_positions and isinstance(phases, list):
        doc = {**doc, "phases": [
            {**entry, "position": {}} if index < len(phases) - 1 and isinstance(entry, Mapping)
            and isinstance(entry.get("position"), Mapping) else entry
            for index, entry in enumerate(phases)]}
    try:
        GameDocument.model_validate(doc if isinstance(doc, dict) else dict(doc))
        return
    except ValidationError as exc:
        message = describe_validation_error(exc, hints=GAME_HINTS, unknown=GAME_UNKNOWN)
    # "phases[2].position.units" is told as the commands tell phases: "phase entry 3 (F1901M):"
    entry = re.match(r"phases\[(\d+)\]\.?", message)
    if entry and isinstance(phases, list):
        index = int(entry[1])
        rest = message[entry.end():].strip()
        where = f"phase entry {index + 1}"
        code = phases[index].get("phase") if isinstance(phases[index], Mapping) else None
        if isinstance(code, str):
            where += f" ({code})"
        message = f"{where} {rest}" if rest.startswith("has no") else f"{where}: {rest}"
    raise GameError(message)


def _returns(seed: str) -> Callable[[], str]:
    """A ``new_seed`` for :meth:`Variant.prepare_phase` that gives the seed a phase recorded."""
    return lambda: seed


def _position(doc: Mapping[str, Any], where: str | None = None) -> Position:
    """The position of a record's phase document; ``where`` (the phase entry) leads the
    message of any error."""
    try:
        position, _orders, _rules = position_from_json({k: v for k, v in doc.items()
                                                        if k != "orders"})
    except (CalhamerError, KeyError, ValueError, TypeError, AttributeError) as exc:
        if where is None and isinstance(exc, CalhamerError):
            raise
        message = describe_error(exc)
        raise GameError(f"{where}: {message}" if where else message) from None
    return position


VERDICTS = (SUCCEEDS, FAILS, INVALID)
RESULT_FIELDS = ("order", "canonical", "result", "reason")


def _where(index: int, record: PhaseRecord) -> str:
    """How messages name a phase of a game file."""
    return f"phase entry {index + 1} ({record.phase})"


def _where_at(index: int, position: Position) -> str:
    return f"phase entry {index + 1} ({position.phase.code})"


def results_to_json(outcome: PhaseOutcome) -> dict[str, list[dict[str, str]]]:
    """Each power's results as a game file records them: the ``"results"`` of
    :func:`calhamer.formats.outcome_to_json`, without writing out the next phase."""
    m = outcome.before.map
    found = outcome.results
    powers = [p for p in m.power_codes if p in found]
    powers += sorted(p for p in found if p not in powers)
    return canonical_results({p: [r.to_json() for r in found[p]] for p in powers})


def _check_results(results: Mapping[str, Any], m: Map, where: str) -> None:
    """Refuse stored results that a report could not show: each power of the map maps to a
    list of results, each an object of strings with a known verdict."""
    for power, entries in results.items():
        if m.find_power(str(power)) != power:
            raise GameError(f"{where}: the results name {power!r}, which is not a power of "
                            f"this map; the powers are {', '.join(m.power_codes)}")
        if not isinstance(entries, list):
            raise GameError(f"{where}: the results of {power} must be a list of results")
        for number, entry in enumerate(entries, start=1):
            what = f"{where}: result {number} of {power}"
            if not isinstance(entry, Mapping):
                raise GameError(f'{what} must be an object like {{"order": "A PAR - BUR", '
                                '"canonical": "A PAR - BUR", "result": "succeeds", '
                                '"reason": "moves"}')
            for key in RESULT_FIELDS:
                if not isinstance(entry.get(key), str):
                    problem = "is missing" if key not in entry else "must be a string"
                    raise GameError(f'{what}: its "{key}" {problem}')
            if entry["result"] not in VERDICTS:
                raise GameError(f'{what}: its "result" is {entry["result"]!r}; a result is '
                                f"one of {', '.join(VERDICTS)}")


def _read_record(entry: Any, index: int, last: bool) -> PhaseRecord:
    where = f"phase entry {index + 1}"
    if not isinstance(entry, Mapping):
        raise GameError(f"{where} must be a JSON object")
    try:
        code = Phase.parse(str(entry["phase"])).code
        position = entry["position"]
    except KeyError as exc:
        raise GameError(f"{where} has no {exc} field") from None
    except CalhamerError as exc:
        raise GameError(f"{where}: {exc}") from None
    if not isinstance(position, Mapping):
        raise GameError(f'{where} ({code}): "position" must be a phase document (an object)')
    if str(position.get("phase", "")).upper() != code:
        raise GameError(
            f'{where}: the entry is for {code} but its position is for {position.get("phase")!r}'
        )
    orders = entry.get("orders") or {}
    if not isinstance(orders, Mapping) or not all(
        isinstance(v, list) and all(isinstance(s, str) for s in v) for v in orders.values()
    ):
        raise GameError(f'{where} ({code}): "orders" must map each power to a list of strings')
    results = entry.get("results")
    if last and results is not None:
        raise GameError(f"{where} ({code}) is the current phase but already has results")
    if not last and not isinstance(results, Mapping):
        raise GameError(f"{where} ({code}) was played but has no results")
    bids = entry.get("bids") or {}
    if not isinstance(bids, Mapping) or not all(isinstance(v, list) for v in bids.values()):
        raise GameError(f'{where} ({code}): "bids" must map each power to a list of bids')
    messages = entry.get("messages") or []
    if not isinstance(messages, list) or not all(isinstance(v, Mapping) for v in messages):
        raise GameError(f'{where} ({code}): "messages" must be a list of objects')
    return PhaseRecord(
        code, dict(position), {str(p): list(v) for p, v in orders.items()},
        None if results is None else dict(results), {str(p): list(v) for p, v in bids.items()},
        where=f"{where} ({code})", messages=[dict(v) for v in messages],
    )
