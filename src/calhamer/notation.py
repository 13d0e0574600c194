"""Reading and writing orders and units in the usual English notation.

Parsing reads syntax and resolves names to locations, nothing more: adjacency, ownership and
which coast a move needs are the adjudicator's business, so ``F POR - SPA`` parses to the SPA
province and is judged later. Every parse error is an :class:`~calhamer.errors.OrderError`
whose span points at the offending fragment of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, NoReturn

from calhamer.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    InvalidOrderError,
    OrderError,
    PhaseError,
)
from calhamer.map import Location, Map, Terrain, UnitType, normalize_name
from calhamer.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from calhamer.pieces import KIND_NAMES, Unit

if TYPE_CHECKING:
    from calhamer.position import Position

# The longest order text read, in characters. The longest real orders (a convoy path written
# out in full names, a power prefix) take about a hundred; anything longer is a paste gone
# wrong, refused at once rather than read (docs/formats.md).
MAX_ORDER_LENGTH = 300

# Words are kept whole (with inner dots and apostrophes, as in "St." or "Lyon's"); every dash
# or arrow is one token, so "Ven-Tri" and "Ven -> Tri" read alike.
_TOKEN = re.compile(
    r"(?P<arrow>->|=>|→|[-–—]+)|(?P<word>[^\W_][\w.'’]*)|(?P<punct>[/():?])|(?P<other>\S)"
)

_KEYWORDS = {
    **dict.fromkeys(("A", "ARMY"), "A"),
    **dict.fromkeys(("F", "FLEET"), "F"),
    **dict.fromkeys(("H", "HOLD", "HOLDS"), "H"),
    **dict.fromkeys(("S", "SUPPORT", "SUPPORTS"), "S"),
    **dict.fromkeys(("C", "CONVOY", "CONVOYS"), "C"),
    **dict.fromkeys(("R", "RETREAT", "RETREATS"), "R"),
    **dict.fromkeys(("D", "DISBAND", "DISBANDS", "REMOVE", "REMOVES"), "D"),
    **dict.fromkeys(("B", "BUILD", "BUILDS"), "B"),
    **dict.fromkeys(("WAIVE", "WAIVES"), "W"),
    **dict.fromkeys(("VIA", "BY"), "VIA"),
    # godip's and diplicity's words: "par Move bur", "par MoveViaConvoy bur" (an arrow each).
    **dict.fromkeys(("TO", "MOVE", "MOVES"), "TO"),
    "MOVEVIACONVOY": "VIACONVOY",
}

# Which kinds of order each phase kind takes ("move" in a retreat phase is a retreat).
_PHASE_ORDERS = {
    "M": ("hold", "move", "support", "convoy"),
    "R": ("retreat", "move", "disband"),
    "A": ("build", "disband", "waive"),
}
_PHASE_TAKES = {
    "M": "holds, moves, supports and convoys (A VEN H, A VEN - TRI, F ADR S A VEN - TRI, "
    "F ENG C A BRE - LON)",
    "R": "retreats and disbands (A PAR R BUR, A PAR D)",
    "A": "builds, removals and waives (BUILD A PAR, A PAR D, WAIVE)",
}


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # "arrow", "word", "punct" or "other"
    text: str
    start: int
    end: int

    @property
    def kw(self) -> str | None:
        return _KEYWORDS.get(self.text.upper()) if self.kind == "word" else None

    @property
    def is_arrow(self) -> bool:
        return self.kind == "arrow" or self.kw in ("TO", "VIACONVOY")


@dataclass(frozen=True)
class ParsedOrder:
    """An order as read: the power named in its prefix (or given), the order, the text."""

    power: str | None
    order: Order | Waive
    text: str


def check_order_length(text: str) -> None:
    """Refuse an order text longer than :data:`MAX_ORDER_LENGTH` (raises ``InvalidOrderError``).

    Variants that rewrite an order before reading it call this first, on the text as given.
    """
    if len(text) > MAX_ORDER_LENGTH:
        raise InvalidOrderError(
            f"the order is {len(text)} characters long, more than the {MAX_ORDER_LENGTH} an "
            "order may have; write one order per line",
            text=text,
            start=MAX_ORDER_LENGTH,
        )


@cache
def _longest_name(m: Map) -> int:
    """How many characters the longest place name of ``m`` keeps once normalized.

    A run of words holding more letters than that can name no place, even as a prefix, so
    the reader stops extending a name there: each name is tried in a bounded window, and
    reading stays linear in the length of the order.
    """
    return max(map(len, m._names), default=0)


# The words naming a kind of order, as a "did you mean" offers them for a misspelt one.
_KIND_WORDS = ("Build", "Disband", "Remove", "Waive", "Hold", "Support", "Convoy", "Retreat")


def _kind_like(word: str) -> str | None:
    """The kind of order ``word`` looks like a misspelling of (``Buidl``: Build), if any."""
    import difflib  # only for a misspelt word

    close = difflib.get_close_matches(word.upper(), [k.upper() for k in _KIND_WORDS], 1, 0.6)
    return close[0].capitalize() if close else None


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


class _Reader:
    """A recursive-descent reader over the tokens of one order."""

    def __init__(self, m: Map, text: str, position: Position | None) -> None:
        self.m, self.text, self.position = m, text, position
        self.toks = [
            _Tok(k.lastgroup or "", k.group(), k.start(), k.end()) for k in _TOKEN.finditer(text)
        ]
        self.i = 0
        # Whether a unit type was left out and had to be inferred (from the position or the
        # terrain): such a reading holds for this board only, and is not memoized.
        self.inferred = False

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def peek_kw(self) -> str | None:
        tok = self.peek()
        return tok.kw if tok else None

    def fail(
        self,
        message: str,
        start: int,
        end: int,
        suggestion: str | None = None,
        cls: type[OrderError] = InvalidOrderError,
    ) -> NoReturn:
        raise cls(message, text=self.text, start=start, end=end, suggestion=suggestion)

    # -- names ----------------------------------------------------------------------------------

    def power_prefix(self) -> str | None:
        """Read ``Italy:`` (or a bare power name that is no place name) before the order."""
        colon = next((k for k, t in enumerate(self.toks) if t.text == ":"), None)
        if colon is None:
            first = self.peek()
            if (
                len(self.toks) < 2
                or first is None
                or first.kind != "word"
                or first.kw
                or self.m.find_location(first.text) is not None
            ):
                return None
            power = self.m.find_power(first.text)
            self.i += power is not None
            return power
        if colon == 0:
            self.fail('a power name must come before ":"', 0, self.toks[0].end)
        start, end = self.toks[0].start, self.toks[colon - 1].end
        name = self.text[start:end]
        power = self.m.find_power(name)
        if power is None:
            spellings = {
                normalize_name(s): p.name
                for p in self.m.powers
                for s in (p.code, p.name, p.adjective, *p.aliases)
                if s
            }
            import difflib  # only for a misspelt name

            close = difflib.get_close_matches(normalize_name(name), spellings, n=3, cutoff=0.6)
            names = list(dict.fromkeys(spellings[c] for c in close))
            self.fail(
                f'"{name}" is not a power',
                start,
                end,
                f"did you mean {_or(names)}?" if names else None,
            )
        self.i = colon + 1
        return power

    def location(self, what: str) -> Location:
        """Read a place name, which may run over several words (``Gulf of Lyon``, ``Spa(sc)``)."""
        toks, i, text = self.toks, self.i, self.text
        tok = self.peek()
        if tok is None or tok.kind != "word" or tok.kw is not None:
            prev = toks[i - 1] if i else None
            after = f' after "{prev.text}"' if prev else ""
            if tok is None:
                self.fail(
                    f"{what} is missing{after}", *((prev.start, prev.end) if prev else (0, 0))
                )
            self.fail(f'expected {what}{after}, found "{tok.text}"', tok.start, tok.end)
        # The tokens that may belong to one name; the name ends after one of ``ends``. The
        # window closes once it holds more letters than any name has (see _longest_name).
        ends, j, budget = [], i, _longest_name(self.m)
        while j < len(toks):
            t = toks[j]
            if (t.kind == "word" and t.kw is None) or t.text == ")":
                ends.append(j)
                budget -= len(normalize_name(t.text))
                if budget < 0:
                    break
            elif not self.joins(i, j):
                break
            j += 1
        for j in reversed(ends):  # longest name first: "Spa sc" before "Spa"
            loc = self.m.find_location(text[tok.start : toks[j].end])
            if loc is not None:
                self.i = j + 1
                return loc
        self.bad_name(tok.start, toks[ends[-1]].end)

    def joins(self, first: int, j: int) -> bool:
        """Whether punctuation token ``j`` continues the name that starts at token ``first``."""
        toks, t = self.toks, self.toks[j]
        nxt = toks[j + 1] if j + 1 < len(toks) else None
        if nxt is None or nxt.kind != "word":
            return False
        if t.text in ("/", "("):  # "Spa/sc", "StP(SC)"
            return True
        # A dash joins words only when glued to both ("Mid-Atlantic"), and not when both sides
        # are names by themselves ("Swe-Den" is a move, not "Sweden").
        if t.text != "-" or toks[j - 1].end != t.start or t.end != nxt.start:
            return False
        left = self.text[toks[first].start : toks[j - 1].end]
        return self.m.find_location(left) is None or self.m.find_location(nxt.text) is None

    def bad_name(self, start: int, end: int) -> NoReturn:
        """Fail on a name that is no location: ambiguous if it starts several names."""
        name, m = self.text[start:end], self.m
        key = normalize_name(name)
        hits = [
            p
            for p in sorted(m.provinces, key=lambda p: p.name)
            if len(key) >= 2
            and p.terrain is not Terrain.IMPASSABLE
            and any(normalize_name(n).startswith(key) for n in (p.code, p.name, *p.aliases))
        ]
        if len(hits) > 1:
            names = _or([m.describe(p.id) for p in hits[:6]])
            message, cls = f'"{name}" could be several provinces', AmbiguousOrderError
            self.fail(message, start, end, f"did you mean {names}?", cls)
        close = [m.describe(loc) for loc in m.suggest_location(name)]
        hint = f"did you mean {_or(close)}?" if close else None
        self.fail(f'"{name}" is not a province', start, end, hint)

    def unit(self, what: str = "the unit's province") -> tuple[UnitType | None, Location]:
        """Read ``A VEN``, ``F STP/SC``, ``? VEN`` or plain ``VEN``; the type may be None."""
        tok = self.peek()
        written = None
        if tok is not None and (tok.kw in ("A", "F") or tok.text == "?"):
            self.i += 1
            written = {"A": UnitType.ARMY, "F": UnitType.FLEET}.get(tok.kw or "")
        return written, self.location(what)

    def infer(
        self, written: UnitType | None, loc: Location, build: bool = False
    ) -> UnitType | None:
        """The unit type, when omitted: the unit standing there, else what the terrain allows."""
        if written is not None:
            return written
        self.inferred = True
        # A build's place is empty by rule, so a unit standing there says nothing about it.
        if self.position is not None and not build and (u := self.position.unit_at(loc)):
            return u.type
        terrain = self.m.provinces[self.m.province_of(loc)].terrain
        if self.m.loc_coast[loc] is not None or terrain is Terrain.SEA:
            return UnitType.FLEET
        return UnitType.ARMY if terrain is Terrain.LAND else None

    # -- orders -------------------------------------------------------------------------------

    def order(self, phase_kind: str) -> tuple[str, _Tok, Order | Waive]:
        """Read one order: its kind, the token naming the kind (for errors) and the order."""
        first = self.peek()
        if first is None:
            self.fail("the order is empty", 0, len(self.text))
        if first.kw == "W":
            self.i += 1
            if self.peek_kw() == "B":  # "waive build"
                self.i += 1
            return "waive", first, Waive()
        prefixed = first.kw in ("B", "D")  # "Build A Par", "Disband A Par", "Remove A Par"
        self.i += prefixed
        written, loc = self.kind_or_unit(first, prefixed)
        tok = first if prefixed else self.peek()
        if tok is None:
            name = f"{'?' if written is None else written.letter} {self.m.loc_name(loc)}"
            takes = _PHASE_TAKES.get(phase_kind, "no orders")
            kind = KIND_NAMES.get(phase_kind, phase_kind)
            message = f"the order for {name} does not say what to do; {kind} phases take {takes}"
            self.fail(message, first.start, self.toks[-1].end)
        self.i += not prefixed
        if tok.kw == "B" and not prefixed and self.peek_kw() in ("A", "F"):
            # godip's "par Build Army", "stp/nc Build Fleet": the type after the word
            written = UnitType.ARMY if self.peek_kw() == "A" else UnitType.FLEET
            self.i += 1
        unit_type = self.infer(written, loc, build=tok.kw == "B")
        if tok.kw == "B":
            return "build", tok, Build(unit_type, loc)
        if tok.kw == "D":
            return "disband", tok, Disband(unit_type, loc)
        if tok.kw == "H":
            return "hold", tok, Hold(unit_type, loc)
        if tok.kw == "R":
            if self.peek_kw() == "TO":
                self.i += 1
            return "retreat", tok, Retreat(unit_type, loc, self.location("the destination"))
        if tok.is_arrow:
            return "move", tok, self.move(unit_type, loc, tok.kw == "VIACONVOY")
        if tok.kw == "S":
            return "support", tok, self.support(unit_type, loc)
        if tok.kw == "C":
            return "convoy", tok, self.convoy(unit_type, loc)
        self.i -= 1
        self.unexpected()

    def kind_or_unit(self, first: _Tok, prefixed: bool) -> tuple[UnitType | None, Location]:
        """Read the unit; a first word that is no place but looks like a kind of order
        ("Buidl F Edi") is taken for a misspelt kind, not for a misspelt province."""
        try:
            return self.unit()
        except InvalidOrderError as exc:
            nxt = self.toks[1] if len(self.toks) > 1 else None
            kind = _kind_like(first.text) if first.kind == "word" and not prefixed else None
            if kind is None or exc.start != first.start or nxt is None or nxt.kind != "word":
                raise
            message = f'"{first.text}" is neither a province nor a kind of order'
            self.fail(message, first.start, first.end, f"did you mean {kind}?")

    def move(self, unit_type: UnitType | None, loc: Location, by_convoy: bool = False) -> Move:
        steps = [self.location("the destination")]
        while (tok := self.peek()) is not None and tok.is_arrow:  # a convoy path, "A Bre-ENG-Lon"
            self.i += 1
            steps.append(self.location("the destination"))
        via = len(steps) > 1 or by_convoy
        if (tok := self.peek()) is not None and tok.kw == "VIA":
            self.i += 1
            if self.peek_kw() == "C":  # "via convoy", "by convoy"
                self.i += 1
            elif self.peek() is not None or tok.text.upper() != "VIA":
                # A bare "VIA" ends the order (other judges write it so); "by" alone says
                # nothing, and "via" before anything but "convoy" is a slip.
                self.fail(f'expected "convoy" after "{tok.text}"', tok.start, tok.end)
            via = True
        return Move(unit_type, loc, steps[-1], via, tuple(steps[:-1]))

    def convoy(self, unit_type: UnitType | None, loc: Location) -> Convoy:
        start = self.toks[self.i].start if self.i < len(self.toks) else 0
        written, army = self.unit("the convoyed army's province")
        if written is UnitType.FLEET:  # Convoy has no room for it, so say so now
            end = self.toks[self.i - 1].end
            self.fail("only armies can be convoyed", start, end, cls=IllegalOrderError)
        arrow = self.peek()
        if arrow is not None and arrow.kind == "word" and arrow.kw is None:
            # godip's "eng Convoy lon bre": the destination right after the army
            return Convoy(unit_type, loc, army, self.location("the destination"))
        if arrow is None or not arrow.is_arrow:
            where = arrow or self.toks[-1]
            message = 'expected "-" and the destination after the convoyed army'
            self.fail(message, where.start, where.end)
        self.i += 1
        return Convoy(unit_type, loc, army, self.location("the destination"))

    def support(self, unit_type: UnitType | None, loc: Location) -> Support:
        written, target = self.unit("the supported unit's province")
        target_type = self.infer(written, target)
        tok = self.peek()
        if tok is not None and tok.kw == "H":
            self.i += 1
        elif tok is not None and (tok.is_arrow or (tok.kind == "word" and tok.kw is None)):
            # "F Adr S A Ven - Tri", or godip's "adr Support ven tri" with no arrow
            self.i += tok.is_arrow
            dest = self.location("the destination of the supported move")
            return Support(unit_type, loc, target_type, target, dest)
        return Support(unit_type, loc, target_type, target)

    def unexpected(self) -> NoReturn:
        """Fail on the token at the cursor, which no rule of the grammar accepts there."""
        start, end = self.toks[self.i].start, self.toks[self.i].end
        if self.toks[self.i].kind == "word" and self.toks[self.i].kw is None:
            word = self.toks[self.i].text
            kind = _kind_like(word) if self.m.find_location(word) is None else None
            if kind is not None:  # "A Par Hlod"
                message = f'"{word}" is neither a province nor a kind of order'
                self.fail(message, start, end, f"did you mean {kind}?")
            self.location("")  # a word that is no place name gets "did you mean ..." here
            end = self.toks[self.i - 1].end
        self.fail(f'"{self.text[start:end]}" is out of place here', start, end)


def parse_order(
    m: Map,
    text: str,
    *,
    phase_kind: str = "M",
    position: Position | None = None,
    power: str | None = None,
) -> ParsedOrder:
    """Read one order for a phase of kind ``phase_kind`` (``M``, ``R`` or ``A``).

    ``position`` supplies omitted unit types; ``power`` is the power the orders are for, used
    when the text has no ``Power:`` prefix. A text longer than :data:`MAX_ORDER_LENGTH`
    characters is refused unread.
    """
    check_order_length(text)
    if phase_kind == "M":
        fast = canonical_movement_order(m, text)
        if fast is not None:
            owner = (m.find_power(power) or power) if power else None
            return ParsedOrder(owner, fast, text.strip())
    given = (m.find_power(power) or power) if power else None
    memo = _TEXT_READ.get(m)
    if memo is None:
        memo = _TEXT_READ[m] = {}
    else:
        seen = memo.get((phase_kind, text))
        # A text read before reads the same again, unless it is marked for another power
        # than the one now giving it: the reader words that error.
        if seen is not None and not (seen[0] and given and seen[0] != given):
            return ParsedOrder(seen[0] or given, seen[1], text.strip())
    reader = _Reader(m, text, position)
    prefixed = reader.power_prefix()
    if prefixed and given and prefixed != given:
        first = reader.toks[0]
        reader.fail(
            f"this order is marked {prefixed}, but the orders are {given}'s",
            first.start,
            reader.toks[reader.i - 1].end,
        )
    kind, tok, order = reader.order(phase_kind)
    if reader.peek() is not None:
        reader.unexpected()
    allowed = _PHASE_ORDERS.get(phase_kind)
    if allowed is None:
        reader.fail(f"no orders are known for phase kind {phase_kind!r}", 0, len(text))
    if kind not in allowed:
        reader.fail(
            f"{KIND_NAMES[phase_kind]} phases take {_PHASE_TAKES[phase_kind]}, not {kind}s",
            tok.start,
            tok.end,
        )
    if phase_kind == "R" and isinstance(order, Move):
        if order.via_convoy:
            reader.fail("a retreat cannot go by convoy", tok.start, len(text.rstrip()))
        order = Retreat(order.unit_type, order.loc, order.dest)
    if not reader.inferred and len(memo) < _MEMO_LIMIT:
        memo[(phase_kind, text)] = (prefixed, order)
    return ParsedOrder(prefixed or given, order, text.strip())


_CANONICAL = re.compile(
    r"([AF]) ([A-Z]{3}(?:/[A-Z]{2})?)"
    r"(?: (H)| - ([A-Z]{3}(?:/[A-Z]{2})?)( VIA(?: CONVOY)?)?"
    r"| S ([AF]) ([A-Z]{3}(?:/[A-Z]{2})?)(?: - ([A-Z]{3}(?:/[A-Z]{2})?))?"
    r"| C A ([A-Z]{3}(?:/[A-Z]{2})?) - ([A-Z]{3}(?:/[A-Z]{2})?))"
)


# Per map, every order text already read in canonical form and the order it reads as. A game
# repeats its orders from phase to phase ("A PAR H", "F LON - NTH"), and a text in canonical
# form reads the same on any board of that map, so a text is read once and then looked up.
# Orders are frozen values, safe to hand out again. A map's memo stops growing at _MEMO_LIMIT
# texts (games send a few thousand; the limit keeps it to some megabytes whatever a client
# sends); texts past it are still read, only not kept.
_CANONICAL_READ: dict[Map, dict[str, Order]] = {}
# Per map, every other text read without error by the full reader, by phase kind and text: the
# power its prefix named (if any) and the order. Texts that leave a unit type out are not kept
# (their reading depends on the board), nor texts that fail (the reader words each error).
_TEXT_READ: dict[Map, dict[tuple[str, str], tuple[str | None, Order | Waive]]] = {}
_MEMO_LIMIT = 50_000


def canonical_texts_read(m: Map) -> dict[str, Order] | None:
    """The texts in canonical form already read on ``m``, with their orders (None before the
    first): for a reading loop to look up without a call per order. Not to be changed."""
    return _CANONICAL_READ.get(m)


def canonical_movement_order(m: Map, text: str) -> Order | None:
    """The order, if ``text`` is exactly in calhamer's canonical form (``F ADR S A VEN - TRI``).

    Bots and the web judge send canonical text; reading it needs no tokenizer, only exact
    look-ups (and a text seen before on this map, one). Anything else (or an unknown name)
    returns None and goes through the full reader.
    """
    memo = _CANONICAL_READ.get(m)
    if memo is None:
        memo = _CANONICAL_READ[m] = {}
    else:
        order = memo.get(text)
        if order is not None:
            return order
    order = _read_canonical(m, text)
    if order is not None and len(memo) < _MEMO_LIMIT:
        memo[text] = order
    return order


def _read_canonical(m: Map, text: str) -> Order | None:
    """:func:`canonical_movement_order` without the memo: the text read by exact look-ups."""
    match = _CANONICAL.fullmatch(text)
    if match is None:
        return None
    letter, here, hold, to, via, s_letter, s_from, s_to, c_from, c_to = match.groups()
    names = m.canonical_locations
    loc = names.get(here)
    if loc is None:
        return None
    unit_type = UnitType.ARMY if letter == "A" else UnitType.FLEET
    if hold:
        return Hold(unit_type, loc)
    if to is not None:
        dest = names.get(to)
        return None if dest is None else Move(unit_type, loc, dest, via_convoy=bool(via))
    if s_letter is not None:
        target = names.get(s_from)
        dest = names.get(s_to) if s_to is not None else None
        if target is None or (s_to is not None and dest is None):
            return None
        target_type = UnitType.ARMY if s_letter == "A" else UnitType.FLEET
        return Support(unit_type, loc, target_type, target, dest)
    army, dest = names.get(c_from), names.get(c_to)
    if army is None or dest is None:
        return None
    return Convoy(unit_type, loc, army, dest)


def parse_orders(
    m: Map,
    text: str,
    *,
    phase_kind: str = "M",
    position: Position | None = None,
    power: str | None = None,
) -> tuple[list[ParsedOrder], list[OrderError]]:
    """Read one order per line, skipping blank lines and ``#`` comments.

    Returns the orders understood and an error for every other line (all of them, so that a
    player sees every mistake at once); each error message starts with ``line N:``.
    """
    orders: list[ParsedOrder] = []
    errors: list[OrderError] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            orders.append(
                parse_order(m, line, phase_kind=phase_kind, position=position, power=power)
            )
        except OrderError as exc:
            message = f"line {number}: {exc.message}"
            errors.append(
                type(exc)(
                    message, text=exc.text, start=exc.start, end=exc.end, suggestion=exc.suggestion
                )
            )
    return orders, errors


_CANONICAL_UNIT = {"A ": UnitType.ARMY, "F ": UnitType.FLEET}


def parse_unit(m: Map, spec: str, power: str) -> Unit:
    """Read a unit as placed on a board: ``A LVP``, ``F STP/SC``, ``f stp(sc)``."""
    if spec[:2] in _CANONICAL_UNIT and power in m._power_codes:
        loc = m.canonical_locations.get(spec[2:])  # as documents write it: exact look-ups
        if loc is not None:
            return Unit(power, _CANONICAL_UNIT[spec[:2]], loc)
    match = re.fullmatch(r"\s*(a|f|army|fleet)\s+(\S.*?)\s*", spec, re.IGNORECASE)
    if match is None:
        raise PhaseError(
            f'{spec!r} is not a unit; write its type and place, like "A PAR" or "F STP/SC"'
        )
    loc = m.find_location(match[2])
    if loc is None:
        close = [m.describe(c) for c in m.suggest_location(match[2])]
        hint = f"; did you mean {_or(close)}?" if close else ""
        raise PhaseError(f"unit {spec!r}: {match[2]!r} is not a province of this map{hint}")
    code = m.find_power(power)
    if code is None:
        raise PhaseError(
            f"unit {spec!r}: {power!r} is not a power of this map; "
            f"the powers are {', '.join(m.power_codes)}"
        )
    return Unit(code, UnitType.ARMY if match[1][0] in "aA" else UnitType.FLEET, loc)


def _unit_text(m: Map, unit_type: UnitType | None, loc: Location) -> str:
    return f"{'?' if unit_type is None else 'AF'[unit_type]} {m.loc_names[loc]}"


def format_unit(m: Map, unit: Unit) -> str:
    """``F STP/SC``."""
    return _unit_text(m, unit.type, unit.loc)


def format_order(m: Map, order: Order | Waive) -> str:
    """The canonical upper-case text of an order (``F ADR S A VEN - TRI``)."""
    if isinstance(order, Waive):
        return "WAIVE"
    if not isinstance(order, Order):
        raise TypeError(f"not an order: {order!r}")
    unit = _unit_text(m, order.unit_type, order.loc)
    match order:
        case Hold():
            return f"{unit} H"
        case Move():
            if order.path:  # a written path says "convoy" by itself
                return " - ".join([unit, *(m.loc_name(s) for s in (*order.path, order.dest))])
            return f"{unit} - {m.loc_name(order.dest)}" + (" VIA CONVOY" * order.via_convoy)
        case Support():
            target = _unit_text(m, order.target_type, order.target)
            dest = "" if order.dest is None else f" - {m.loc_name(order.dest)}"
            return f"{unit} S {target}{dest}"
        case Convoy():
            return f"{unit} C A {m.loc_name(order.army)} - {m.loc_name(order.dest)}"
        case Retreat():
            return f"{unit} R {m.loc_name(order.dest)}"
        case Disband():
            return f"{unit} D"
        case Build():
            return f"BUILD {unit}"
    raise TypeError(f"no notation for {type(order).__name__}")


class Notation:
    """How a variant writes and reads units and orders: ``Variant.notation``.

    The standard notation by default (the functions of this module). A variant whose units or
    orders carry more (Arpiesse's colours, Superdiplomacy's counted stacks, Kriegsplomacy's
    espionage) subclasses it and overrides what differs; everything that reads or writes an
    order for a position (the intake, reports, documents, pictures, possible orders) asks the
    position's variant's notation, never these functions directly.
    """

    def parse_unit(self, m: Map, spec: str, power: str) -> Unit:
        """A unit as written in a phase document or a map's start (``A PAR``) for ``power``;
        raises :class:`~calhamer.errors.PhaseError` if it is not one."""
        return parse_unit(m, spec, power)

    def format_unit(self, m: Map, unit: Unit) -> str:
        """A unit as shown in documents and reports (``F STP/SC``)."""
        return format_unit(m, unit)

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        """Read one order of a phase of kind ``phase_kind`` for ``power`` (None: the text's
        own ``Power:`` prefix, if any), omitted unit types taken from ``position``; raises
        :class:`~calhamer.errors.OrderError` with the place of the mistake."""
        return parse_order(m, text, phase_kind=phase_kind, position=position, power=power)

    def format_order(self, position: Position, order: Order | Waive) -> str:
        """The canonical text of ``order`` given in ``position`` (``F ADR S A VEN - TRI``)."""
        return format_order(position.map, order)


STANDARD_NOTATION = Notation()
"""The standard game's notation."""
