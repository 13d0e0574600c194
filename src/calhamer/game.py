"""Whole games kept in one JSON file (the format is described in ``docs/formats.md``).

A :class:`Game` is a list of phase records, oldest first. Every record holds the position at
the start of the phase, the orders each power submitted (verbatim, bad lines included) and,
once the phase has been processed, each order's result. The last record is the phase being
played now, so its results are ``None``.

Saving is atomic: the file is written to a temporary file in the same directory, flushed to
disk and renamed over the old one, so a crash leaves either the old game or the new one.
Changing a game file (:meth:`Game.update`) holds a lock on a file beside it, ``<game>.lock``,
from reading the game to saving it, so that two changes made at once both land.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from calhamer import dice
from calhamer.bots import BotView
from calhamer.errors import CalhamerError, PhaseError
from calhamer.files import dumps_pretty, locked, write_atomically
from calhamer.formats import (
    canonical_results,
    order_text,
    position_from_json,
    read_json,
)
from calhamer.options import possible_orders
from calhamer.orders import AnyOrder, Build
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position
from calhamer.records import (
    GameError,
    PhaseCheck,
    PhaseRecord,
    _check_results,
    _first_difference,
    _read_record,
    _returns,
    _where,
    _where_at,
    check_game_document,
    results_to_json,
)
from calhamer.results import INVALID, OrderResult, PhaseOutcome, Result
from calhamer.rules import Rules, find_rules
from calhamer.variants import find_variant
from calhamer.victory import GameEnd
from calhamer.views import PowerView, power_view, power_views

FORMAT = "calhamer-game/1"


@dataclass(frozen=True)
class OrderCheck:
    """What the judge makes of one submitted line: its canonical form, or the problem."""

    line: int  # 1-based, counting every submitted line (blank ones included)
    text: str
    canonical: str
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def is_order_line(text: str) -> bool:
    """Whether a submitted line holds an order (it is not blank or only a ``#`` comment)."""
    return bool(order_text(text).strip())


def order_lines(lines: Iterable[str]) -> list[str]:
    """The orders in submitted lines, as the judge reads them: blank lines and ``#`` comments
    left out, a comment at the end of a line cut off (:func:`calhamer.formats.order_text`)."""
    return [text for text in map(order_text, lines) if text.strip()]


def check_orders(
    position: Position, orders: Mapping[str, Iterable[str]], rules: Rules | str | None = None
) -> dict[str, list[OrderCheck]]:
    """Judge each order line as adjudication will, without the other powers' orders.

    The phase is adjudicated with only these orders, and an order is reported as a problem,
    with the adjudicator's reason, exactly when the adjudicator refuses it: when it is
    ``invalid`` (unreadable, illegal for the unit, not this power's unit, a second order for
    one unit...) and, in an adjustment phase, when it does not succeed (a second build in one
    place, more builds than allowed, a unit removed twice, more removals than due), since
    there a power's orders meet no one else's. Whether a legal movement or retreat succeeds
    depends on everyone's orders, so that is not judged here. Lines are read as the judge reads
    them: blank lines and ``#`` comments are skipped and a comment at the end of a line is cut
    off (each check still shows the line as written); line numbers count every line given.
    """
    numbered: dict[str, list[tuple[int, str]]] = {}
    for power, lines in orders.items():
        numbered[power] = [(n, t) for n, t in enumerate(lines, start=1) if is_order_line(t)]
    outcome = adjudicate(
        position, {p: [order_text(t) for _, t in items] for p, items in numbered.items()}, rules)
    winter = position.phase.is_adjustment
    checks: dict[str, list[OrderCheck]] = {}
    for power, items in numbered.items():
        key = position.map.find_power(power) or power.upper()
        # The adjudicator keeps one result per order given, in order, before any it adds.
        results = outcome.results.get(key, [])[: len(items)]
        checks[power] = [
            OrderCheck(n, text, r.canonical,
                       r.reason if r.result == INVALID or (winter and not r.succeeded) else None)
            for (n, text), r in zip(items, results, strict=True)
        ]
    return checks


class Game:
    """A game in progress (or finished): its variant, rule edition and phase records.

    Besides the game file, a game is what a bot drives (the names a ``diplomacy`` package
    user knows are offered too, see below):

    - what to order: :meth:`possible_orders` (``Order`` values) and
      :meth:`possible_order_texts` (their text), by the location of the unit or centre, for
      every variant (espionage, Arpiesse's colours and exchanges, numbered stack orders);
      :meth:`possible_bids` for a DP variant's neutral units; :meth:`orderable_locations`;
      :meth:`orders_due` (the builds or removals due in winter, capped by the places there
      are);
    - playing: :meth:`set_orders` with text or ``Order`` values, :meth:`process`;
    - the end: :meth:`result` (a :class:`~calhamer.victory.GameEnd`: a solo, the last power
      standing, a draw by the year limit ``max_year`` or by agreement, :meth:`vote_draw`) and
      :meth:`is_done`;
    - the past: :attr:`history` (each phase with its orders and results), :meth:`rollback`
      to an earlier phase, :meth:`copy`; :meth:`bot_view` is what one power may know now.

    For readers coming from the ``diplomacy`` package, ``get_all_possible_orders()``,
    ``get_orderable_locations(power)`` and ``is_game_done`` are offered under those names.
    """

    def __init__(
        self,
        variant: str,
        rules: str,
        records: list[PhaseRecord],
        new_seed: Callable[[], str] | None = None,
        *,
        max_year: int | None = None,
    ) -> None:
        if not records:
            raise GameError("a game needs at least one phase")
        self.variant = find_variant(variant).name
        self.rules = find_rules(rules).name
        self._records = records
        for index, record in enumerate(records):
            record.rules = record.rules or self.rules
            record.where = record.where or _where(index, record)
        # The gamemaster's settings (``"mail"``: the SMTP server and each power's address,
        # see calhamer.cli.mail); kept as read, never shown to players.
        self.settings: dict[str, Any] = {}
        # Where the secret seeds of phases that throw dice come from (Superdiplomacy).
        self.new_seed: Callable[[], str] = new_seed or dice.new_seed
        # The last year played (None: no limit): a phase of a later year ends the game in a
        # draw (:mod:`calhamer.victory`).
        self.max_year = max_year
        # The powers that voted for a draw in the current phase (a vote lasts one phase).
        self.draw_votes: set[str] = set()
        # The adjudication of the last phase processed in this session, kept for the powers'
        # views of it (a recorded phase would otherwise be adjudicated again).
        self._last_outcome: PhaseOutcome | None = None

    # -- creating, loading, saving -------------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str = "standard",
        rules: str | None = None,
        *,
        new_seed: Callable[[], str] | None = None,
        max_year: int | None = None,
    ) -> Game:
        """A game at the variant's start; ``rules`` defaults to the variant's edition.

        ``new_seed`` draws the secret seed of each phase that throws dice (by default 32
        random bytes from the operating system; tests and simulations pass their own).
        ``max_year`` is the last year played: the game then ends in a draw of the survivors.
        """
        v = find_variant(variant)
        edition = find_rules(rules or v.default_rules).name
        start = Position.initial(variant=v)
        start = v.prepare_phase(start, new_seed or dice.new_seed)
        record = PhaseRecord(start.phase.code, start, rules=edition)
        return cls(v.name, edition, [record], new_seed, max_year=max_year)

    @classmethod
    def from_json(cls, doc: Any) -> Game:
        """Read a game document, checking its shape; raises :class:`GameError`."""
        if not isinstance(doc, Mapping):
            raise GameError("a game file must hold a JSON object")
        if doc.get("format") != FORMAT:
            raise GameError(
                f'this is not a calhamer game file: "format" is {doc.get("format")!r}, '
                f"expected {FORMAT!r}"
            )
        phases = doc.get("phases")
        if not isinstance(phases, list) or not phases:
            raise GameError('"phases" must be a non-empty list')
        max_year = doc.get("max_year")
        if max_year is not None and (isinstance(max_year, bool) or not isinstance(max_year, int)):
            raise GameError(f'"max_year" must be a year (a whole number), not {max_year!r}')
        check_game_document(doc)
        records = []
        for index, entry in enumerate(phases):
            records.append(_read_record(entry, index, last=index == len(phases) - 1))
        game = cls(str(doc.get("variant", "standard")), str(doc.get("rules", "datc")), records,
                   max_year=max_year)
        current = game.current  # the current phase is read now, its errors named
        settings = doc.get("settings") or {}
        if not isinstance(settings, Mapping):
            raise GameError('"settings" must be a JSON object')
        game.settings = dict(settings)
        # Every stored result is checked now, so that a bad one is reported with its phase
        # rather than failing a report. Earlier positions are read when they are needed
        # (by name too): ``verify`` must be able to report a tampered one as a mismatch.
        for record in records:
            if record.results is not None:
                _check_results(record.results, current.map, record.where or record.phase)
        votes = doc.get("draw_votes", [])
        if not isinstance(votes, list) or not all(isinstance(v, str) for v in votes):
            raise GameError('"draw_votes" must be a list of powers')
        game.draw_votes = {game._power(v) for v in votes}
        return game

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Game:
        """Read a game file; raises :class:`GameError` (bad content) or ``OSError``."""
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
        try:
            doc = read_json(text, os.fspath(path))
        except CalhamerError as exc:
            raise GameError(str(exc)) from None
        try:
            return cls.from_json(doc)
        except CalhamerError as exc:  # each message names the phase entry where it has one
            raise GameError(f"{os.fspath(path)}: {exc}") from None

    @classmethod
    @contextlib.contextmanager
    def update(cls, path: str | os.PathLike[str]) -> Iterator[Game]:
        """Change a game file: ``with Game.update(path) as game: game.set_orders(...)``.

        The game is read and, when the block ends without an exception, saved, all while
        holding the file's lock (:func:`locked`), so a change made meanwhile by another
        process waits rather than being overwritten. On an exception nothing is saved.
        """
        if not os.path.isfile(path):
            cls.load(path)  # the error of a missing file, before a lock file is made for it
        with locked(path):
            game = cls.load(path)
            yield game
            game.save(path)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": FORMAT, "variant": self.variant, "rules": self.rules}
        # Written only when set, so a game without them keeps the file it always had.
        if self.max_year is not None:
            doc["max_year"] = self.max_year
        if self.draw_votes:
            m = self.current.map
            doc["draw_votes"] = [p for p in m.power_codes if p in self.draw_votes]
        if self.settings:
            doc["settings"] = self.settings
        doc["phases"] = [r.to_json() for r in self._records]
        return doc

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the game to ``path`` atomically (the old file survives any failure)."""
        write_atomically(path, dumps_pretty(self.to_json()) + "\n")

    def copy(self) -> Game:
        """An independent copy: playing on either changes nothing in the other (positions,
        being immutable, are shared)."""
        twin = Game(self.variant, self.rules, [r.copy() for r in self._records],
                    self.new_seed, max_year=self.max_year)
        twin.draw_votes = set(self.draw_votes)
        twin._last_outcome = self._last_outcome
        return twin

    # -- questions ------------------------------------------------------------------------------

    @property
    def history(self) -> tuple[PhaseRecord, ...]:
        """Every phase record, oldest first, each with its position, orders and results; the
        last one is the current phase."""
        return tuple(self._records)

    @property
    def phases(self) -> list[str]:
        return [r.phase for r in self._records]

    @property
    def current(self) -> Position:
        """The position of the phase being played now."""
        return self._records[-1].position

    @property
    def phase(self) -> str:
        """The current phase's code (``S1901M``)."""
        return self._records[-1].phase

    @property
    def orders(self) -> dict[str, list[str]]:
        """The orders stored so far for the current phase, by power."""
        return {p: list(lines) for p, lines in self._records[-1].orders.items()}

    @property
    def winner(self) -> str | None:
        """The solo winner, or the last power standing; None otherwise (a draw included)."""
        end = self.result()
        return end.winner if end is not None else None

    def result(self) -> GameEnd | None:
        """How the game ended (:class:`~calhamer.victory.GameEnd`), or None while it goes on:
        the variant's :class:`~calhamer.victory.VictoryRule` asked about the current phase,
        with this game's year limit and draw votes."""
        position = self.current
        rule = position.variant.victory
        # A game that began with one great power (a board set up to try orders on) is not
        # won by elimination: nobody was eliminated.
        try:
            several = len(rule.contenders(self._records[0].position)) > 1
        except GameError:  # a damaged first phase is reported where it is read, not here
            several = True
        return rule.result(position, max_year=self.max_year, draw_agreed_by=self.draw_votes,
                           elimination=several)

    def is_done(self) -> bool:
        """Whether the game is over (a solo, the last power standing, or a draw)."""
        return self.result() is not None

    def record(self, code: str | None = None) -> PhaseRecord:
        """The record of phase ``code`` (default: the current phase)."""
        if code is None:
            return self._records[-1]
        wanted = Phase.parse(code).code
        for r in self._records:
            if r.phase == wanted:
                return r
        raise GameError(
            f"phase {wanted} is not in this game; its phases are {', '.join(self.phases)}"
        )

    def phase_document(self, code: str | None = None) -> dict[str, Any]:
        """Phase ``code`` (default: the current one) as a phase document, with its orders as
        the judge reads them (comments and blank lines left out), so that adjudicating it
        reproduces the phase's results."""
        r = self.record(code)
        # A bad position is refused here, naming its phase, rather than wherever the
        # document is read.
        r.position  # noqa: B018
        doc = dict(r.document)
        if r.results is None:
            doc.pop("seed", None)  # a phase's dice seed stays secret until it is processed
        doc["rules"] = self.rules
        doc["orders"] = {p: order_lines(lines) for p, lines in r.orders.items()
                         if order_lines(lines)}
        if r.bids:
            doc["bids"] = {p: list(bids) for p, bids in r.bids.items()}  # the GM's document
        return doc

    def phase_input(self, code: str | None = None) -> tuple[Position, dict[str, list[str]]]:
        """Phase ``code`` (default: current) as adjudicated: the position, with the phase's
        bids if any (secret), and the orders by power."""
        r = self.record(code)
        position = r.position
        if r.bids:
            # The bids join the position as the variant reads them from a phase document.
            state = position.variant.state
            extra = state.read(position.variant, position.map, {"bids": r.bids}) if state else {}
            position = position.replace(extra=MappingProxyType({**position.extra, **extra}))
        orders = {p: order_lines(lines) for p, lines in r.orders.items()}
        return position, orders

    def outcome(self, code: str | None = None) -> PhaseOutcome | None:
        """The recorded outcome of phase ``code`` (default: the last processed phase).

        Rebuilt from the stored results, not adjudicated again, so a report shows what was
        decided at the time. None if no phase has been processed yet.
        """
        if code is None:
            if len(self._records) < 2:
                return None
            index = len(self._records) - 2
        else:
            index = self._records.index(self.record(code))
            if self._records[index].results is None:
                raise GameError(f"phase {self._records[index].phase} has not been processed yet")
        r, following = self._records[index], self._records[index + 1]
        before = r.position
        nxt = following.position
        results = {
            power: [
                OrderResult(power, e.get("order", ""), e.get("canonical", ""), Result(e["result"]),
                            e.get("reason", ""))
                for e in entries
            ]
            for power, entries in (r.results or {}).items()
        }
        # A movement phase that dislodged anything is always followed by its retreat phase.
        same_turn = (nxt.phase.year, nxt.phase.season) == (before.phase.year, before.phase.season)
        dislodged = nxt.dislodged if before.phase.is_movement and same_turn else ()
        return PhaseOutcome(before, results, nxt, nxt, dislodged=dislodged)

    # -- what a bot needs -----------------------------------------------------------------------

    def powers(self) -> list[str]:
        """The great powers still in the game (those a player orders), in the map's order."""
        position = self.current
        return position.variant.victory.contenders(position)

    def possible_orders(self, power: str) -> dict[str, list[AnyOrder]]:
        """Every order ``power`` may give now, as ``Order`` values, by the name of the
        location of the unit (or, in winter, of the centre) each is for (``"STP/SC"``).

        Made from what the power may know by the phase's handler
        (:func:`calhamer.options.possible_orders`), the variant's own orders included:
        espionage, colours, numbered stack orders. Empty once the game is over.
        """
        if self.is_done():
            return {}
        position = self.current
        code = self._power(power)
        names = position.map.loc_names
        found = possible_orders(position, code, self.rules)
        return {names[loc]: orders for loc, orders in found.items()}

    def possible_order_texts(self, power: str) -> dict[str, list[str]]:
        """:meth:`possible_orders` as text, in the variant's notation (what
        :meth:`set_orders` reads back to the same orders)."""
        base = self._known(power)
        write = base.variant.notation.format_order
        return {loc: [write(base, o) for o in orders]
                for loc, orders in self.possible_orders(power).items()}

    def all_possible_orders(self) -> dict[str, dict[str, list[str]]]:
        """:meth:`possible_order_texts` of every power still in the game, by power."""
        return {p: self.possible_order_texts(p) for p in self.powers()}

    def orderable_locations(self, power: str | None = None) -> dict[str, list[str]]:
        """The locations ``power`` (default: every power in the game) has orders for now,
        by power: its units, its dislodged units, the centres it may build in or the units it
        may remove."""
        powers = [self._power(power)] if power is not None else self.powers()
        return {p: list(self.possible_orders(p)) for p in powers}

    def orders_due(self, power: str) -> int:
        """How many orders ``power`` gives now that change the board in winter: the builds
        due (positive, capped by the places it may build in) or the removals due (negative);
        0 in other phases and for a power with nothing to adjust."""
        position = self.current
        code = self._power(power)
        if not position.phase.is_adjustment:
            return 0
        due = position.adjustments().get(code, 0)
        if due <= 0:
            return due
        room = 0
        for orders in self.possible_orders(code).values():
            builds = [int(getattr(o, "count", 1)) for o in orders if isinstance(o, Build)]
            room += max(builds, default=0)
        return min(due, room)

    def possible_bids(self, power: str) -> tuple[int, dict[str, list[str]]]:
        """A DP variant's bids open to ``power`` now: its Diplomacy Points for the phase, and
        every order it may buy for each neutral unit, by the unit's location (text, to bid as
        ``"1 DP: A BEL - HOL"`` with :meth:`set_bids`). ``(0, {})`` in other variants and
        phases."""
        position = self.current
        code = self._power(power)
        rule = position.variant.bids
        if rule is None:
            return 0, {}
        edition = position.variant.phase_rules(find_rules(self.rules))
        allotment, found = rule.options(position, code, edition)
        write = position.variant.notation.format_order
        names = position.map.loc_names
        # written against what the power knows: under fog, writing them against the true
        # board would name what stands there now (a foreign unit's colour, say)
        known = self._known(code)
        return allotment, {names[loc]: [write(known, o) for o in orders]
                           for loc, orders in found.items()}

    def bot_view(self, power: str) -> BotView:
        """What ``power`` may know now, for a bot: its known position (in Kriegsplomacy only
        what it sees), its view of the last phase processed in this session, if any, and the
        orders it may give."""
        code = self._power(power)
        last = None
        if self._last_outcome is not None and self._last_outcome.next is self.current:
            last = power_view(self._last_outcome, code)
        return BotView(code, self.current.phase, self._known(code), last,
                       self.orders_due(code), self.rules)

    def _known(self, power: str) -> Position:
        position = self.current
        code = self._power(power)
        return position.variant.visibility.known_position(position, code)

    def vote_draw(self, power: str, agree: bool = True) -> GameEnd | None:
        """Record ``power``'s vote for (or against) a draw in the current phase; when every
        surviving power agrees, the game ends in a draw, which is returned. A variant whose
        ``draw_vote`` is false takes no such vote."""
        code = self._power(power)
        if agree and not self.current.variant.draw_vote:
            raise GameError(f"{self.current.variant.title} has no draws by agreement: "
                            "the game goes on until it is won or its last year is over")
        if agree:
            self.draw_votes.add(code)
        else:
            self.draw_votes.discard(code)
        return self.result()

    def rollback(self, code: str | None = None, *, keep_orders: bool = True) -> None:
        """Go back to phase ``code`` (default: the phase before the current one): later phases
        are forgotten and that phase is to be played again, with the orders given in it
        unless ``keep_orders`` is false (its bids too)."""
        if code is None:
            if len(self._records) < 2:
                raise GameError("no phase has been processed yet: there is nothing to go back to")
            index = len(self._records) - 2
        else:
            index = self._records.index(self.record(code))
        del self._records[index + 1:]
        record = self._records[-1]
        record.results = None
        if not keep_orders:
            record.orders = {}
            record.bids = {}
        self.draw_votes = set()
        self._last_outcome = None

    # -- the names a ``diplomacy`` package user knows (bot-aliases) ------------------------------

    def get_all_possible_orders(self) -> dict[str, list[str]]:
        """Every power's possible orders as text, by location, in one mapping (as the
        ``diplomacy`` package's method of that name gives them)."""
        return {loc: texts for by_loc in self.all_possible_orders().values()
                for loc, texts in by_loc.items()}

    def get_orderable_locations(self, power: str | None = None
                                ) -> list[str] | dict[str, list[str]]:
        """:meth:`orderable_locations`: a list for one power, a mapping for all."""
        found = self.orderable_locations(power)
        return next(iter(found.values())) if power is not None else found

    @property
    def is_game_done(self) -> bool:
        """:meth:`is_done`, as a property."""
        return self.is_done()

    # -- playing --------------------------------------------------------------------------------

    def _power(self, power: str) -> str:
        m = self.current.map
        code = m.find_power(power)
        if code is None:
            known = ", ".join(m.power_codes)
            raise GameError(f"{power!r} is not a power of this game; the powers are {known}")
        if m.is_minor(code):
            raise GameError(f"{m.power(code).name} is a minor power: no player orders for it")
        if code in self.current.variant.unplayed:
            raise GameError(f"nobody plays {m.power(code).name} in this variant: its units "
                            "hold, and no orders are taken for it")
        return code

    def _check_not_over(self) -> None:
        end = self.result()
        if end is not None:
            raise GameError(f"the game is over: {end.reason}")

    def set_orders(self, power: str, lines: Iterable[str | AnyOrder], *,
                   check: bool = True) -> list[OrderCheck]:
        """Replace ``power``'s orders for the current phase; return a check of each line.

        Each item is an order's text or an :class:`~calhamer.orders.Order` value (stored as
        its canonical text in the variant's notation).

        The lines are stored exactly as given (blank lines aside), bad ones and comments
        included, so nothing a player submitted is lost; when the phase is processed a
        ``#`` comment (a whole line, or the end of one) is not read as an order, and an
        unreadable or illegal order is judged ``invalid`` and its unit holds. The returned
        checks (see :func:`check_orders`) tell the player what the judge made of each line;
        with ``check`` false (a bot that took its orders from :meth:`possible_orders`) the
        lines are stored unchecked and the list is empty, which saves an adjudication.
        """
        self._check_not_over()
        code = self._power(power)
        given = self._order_texts(lines)
        checks = check_orders(self.current, {code: given}, self.rules)[code] if check else []
        stored = [line for line in given if line.strip()]
        if stored:
            self._records[-1].orders[code] = stored
        else:
            self._records[-1].orders.pop(code, None)
        return checks

    def _order_texts(self, items: Iterable[str | AnyOrder]) -> list[str]:
        """Order values written out as text; text split into lines."""
        position = self.current
        texts: list[str] = []
        for item in items:
            if isinstance(item, str):
                texts += item.splitlines() or [""]
            elif isinstance(item, AnyOrder):
                texts.append(position.variant.notation.format_order(position, item))
            else:
                raise GameError(f"{item!r} is neither an order's text nor an Order value")
        return texts

    @property
    def bids(self) -> dict[str, list[Any]]:
        """The bids stored so far for the current phase, by power (secret)."""
        return {p: list(items) for p, items in self._records[-1].bids.items()}

    def set_bids(self, power: str, bids: Iterable[str | Mapping[str, Any]]) -> list[str]:
        """Replace ``power``'s bids for the current phase (DP variants); return the problems.

        Bids are lines in the players' notation (``2 DP: A Kas S Sto - Tab``) or objects
        ``{"order": ..., "dp": ...}``. Like orders, they are stored as given, problems and
        all: a bad bid is void at adjudication, and a power that allocates more than its
        allotment loses all its bids. The problems returned say so now
        (the variant's bid rule, :class:`calhamer.bids.BidRule`).
        """
        self._check_not_over()
        code = self._power(power)
        position = self.current
        variant = find_variant(self.variant)
        rule = variant.bids
        if rule is None:
            raise GameError(f"{variant.title} has no bids")
        if not position.phase.is_movement:
            raise GameError(f"bids are given in movement phases, and {position.phase.code} is not")
        stored = [
            b.strip() if isinstance(b, str) else dict(b)
            for b in bids
            if not isinstance(b, str) or is_order_line(b)
        ]
        problems = rule.check(position, code, stored)
        if stored:
            self._records[-1].bids[code] = stored
        else:
            self._records[-1].bids.pop(code, None)
        return problems

    def process(self) -> PhaseOutcome:
        """Adjudicate the current phase with the stored orders and move on to the next."""
        self._check_not_over()
        record = self._records[-1]
        position, orders = self.phase_input()
        outcome = adjudicate(position, orders, self.rules)
        record.results = results_to_json(outcome)
        # The next phase gets what it needs before orders are due (a committed dice seed).
        outcome.next = position.variant.prepare_phase(outcome.next, self.new_seed)
        self._records.append(PhaseRecord(outcome.next.phase.code, outcome.next,
                                         rules=self.rules, where=_where_at(len(self._records),
                                                                           outcome.next)))
        self.draw_votes = set()
        self._last_outcome = outcome
        return outcome

    def verify(self) -> list[PhaseCheck]:
        """Adjudicate every processed phase again from its record and compare.

        Each phase is judged from its recorded position (dice seed included, checked against
        its published commitment) and orders; the results and the next phase must come out
        exactly as recorded. Anyone holding the finished game file can run this.
        """
        variant = find_variant(self.variant)
        checks = []
        for index, r in enumerate(self._records[:-1]):
            following = self._records[index + 1].document
            notes: list[str] = []
            problems: list[str] = []
            try:
                position, orders = self.phase_input(r.phase)
                notes = variant.reporter.position_notes(position)
                outcome = adjudicate(position, orders, self.rules)
                results = results_to_json(outcome)
                recorded_seed = following.get("seed")
                # A seed that is not a string cannot be the one drawn: the next phase then
                # differs from the record, which is reported below.
                seed = recorded_seed if isinstance(recorded_seed, str) else ""
                nxt = variant.prepare_phase(outcome.next, _returns(seed))
                expected = PhaseRecord(nxt.phase.code, nxt, rules=self.rules).document
            except CalhamerError as exc:
                checks.append(PhaseCheck(r.phase, [f"cannot be judged again: {exc}"], notes))
                continue
            # Compared in their defined order, which files written before it was defined
            # may not follow for units given no valid order.
            recorded = canonical_results(r.results or {})
            if results != recorded:
                problems.append(_first_difference("results", recorded, results))
            if expected != following:
                problems.append(_first_difference("next phase", following, expected))
            checks.append(PhaseCheck(r.phase, problems, notes))
        return checks


# -- what each power may see of a recorded game -------------------------------------------------


def game_outcome(game: Game, code: str | None = None) -> PhaseOutcome:
    """Phase ``code`` of a game (default: the last one processed), adjudicated again.

    Adjudication is deterministic, so this is the outcome the game recorded, with the
    adjudicator's decisions that views are built from.
    """
    phases = game.phases
    if code is None:
        if len(phases) < 2:
            raise PhaseError("no phase of this game has been processed yet")
        code = phases[-2]
    record = game.record(code)
    if record.results is None:
        raise PhaseError(f"phase {record.phase} has not been processed yet")
    position, orders, rules = position_from_json(game.phase_document(record.phase))
    lines = {p: order_lines(texts) for p, texts in orders.items()}
    return adjudicate(position, lines, rules)


def game_view(game: Game, power: str, code: str | None = None) -> PowerView:
    """``power``'s view of phase ``code`` of a game (default: the last one processed)."""
    return power_view(game_outcome(game, code), power)


def game_views(game: Game, code: str | None = None) -> dict[str, PowerView]:
    """Every power's view of phase ``code`` of a game (default: the last one processed)."""
    return power_views(game_outcome(game, code))


def history_views(game: Game, power: str) -> Iterator[PowerView]:
    """``power``'s view of every processed phase of a game, oldest first."""
    for code in game.phases[:-1]:
        yield game_view(game, power, code)
