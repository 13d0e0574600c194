"""Orders read out of a whole message, as players send them by e-mail.

A player's message holds more than orders: a greeting ("Hi GM, my orders for Spring 1901:"),
a closing ("Thanks"), a signature after ``-- ``, the quoted message it answers. A gamemaster
pasting the whole message must not have those stored as orders, nor flagged as orders that
fail ("Thanks" is no province). :func:`read_message` sorts every line into one of two kinds:

- **order lines**: every line the variant's notation reads, and every line that *looks like*
  an order but fails, so that its error and suggestion are shown as for any bad order
  ("A Munchen -> Ruhr": did you mean Munich?);
- **lines set aside**, each with the reason: e-mail headers, quoted text (``>``, and all of a
  quoted reply after "On ... wrote:" or "-----Original Message-----"), the signature after a
  ``--`` line, and lines of prose that are plainly not orders.

Whether a failing line looks like an order is decided from its words, never from where the
units stand, so the answer tells a player of a game with hidden information nothing: its
first word names a unit, a place or an order ("Army", "Build", "Waive"), or the variant's
reader understood its beginning (a colour in Arpiesse, a power's prefix) and stumbled later.
Blank lines belong to neither kind; ``#`` comments are order lines (the judge skips them, as
in any order file).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from calhamer.errors import OrderError
from calhamer.formats import order_text

if TYPE_CHECKING:
    from calhamer.map import Map
    from calhamer.position import Position

# Why a line was set aside, as listed back to the gamemaster.
HEADER = "e-mail header"
QUOTED = "quoted text"
SIGNATURE = "signature"
NOT_AN_ORDER = "not an order"

# The headers that mark a pasted message as a whole e-mail (RFC 5322) rather than a body.
_HEADER_NAMES = ("from", "to", "cc", "subject", "date", "reply-to", "message-id", "sender",
                 "mime-version", "content-type", "received", "return-path", "delivered-to")
_HEADER = re.compile(r"^(?P<name>[A-Za-z][A-Za-z0-9-]*):[ \t]")
# Where the message it answers begins: everything from here on is quoted.
_REPLY_START = re.compile(
    r"^\s*(?:On\b.{0,200}\bwrote:\s*$|-{2,}\s*Original Message\s*-{2,}"
    r"|-{2,}\s*Forwarded message\s*-{2,}|Le\b.{0,200}\ba écrit\s*:\s*$"
    r"|Am\b.{0,200}\bschrieb\b.{0,80}:\s*$)",
    re.IGNORECASE,
)
# A list marker before an order: "- ", "* ", "• ", "1. ", "2) ".
_MARKER = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
_WORD = re.compile(r"[^\W_][\w'’]*")
# An arrow, or a dash standing alone between words ("A Mun - Ruh", "A Mun -> Ruh").
_ARROW = re.compile(r"->|=>|→|(?:^|\s)[-–—]+(?:\s|$)|\w[-–—]\w")
# Words that begin an order whatever follows them.
_ORDER_WORDS = frozenset({
    "ARMY", "FLEET", "BUILD", "BUILDS", "REMOVE", "REMOVES", "DISBAND", "DISBANDS", "WAIVE",
    "WAIVES", "RETREAT", "RETREATS",
})


@dataclass(frozen=True)
class MessageLine:
    """One non-blank line of a message: its number (1-based, in the message's text, or in its
    body for a whole e-mail), the text, and why it was set aside (None: an order line)."""

    number: int
    text: str
    set_aside: str | None = None
    # The order line to store: the text, less a list marker ("- ", "1. ") the notation
    # does not read but reads the order without.
    order: str = ""

    @property
    def is_order(self) -> bool:
        return self.set_aside is None


@dataclass(frozen=True)
class ReadMessage:
    """A message sorted into order lines and lines set aside (:func:`read_message`)."""

    lines: tuple[MessageLine, ...]
    headers: dict[str, str] = field(default_factory=dict)  # a whole e-mail's From, Subject...

    @property
    def orders(self) -> list[MessageLine]:
        return [line for line in self.lines if line.is_order]

    @property
    def ignored(self) -> list[MessageLine]:
        return [line for line in self.lines if not line.is_order]

    def order_texts(self) -> list[str]:
        """The order lines to store, in the message's order."""
        return [line.order or line.text for line in self.orders]


def message_body(text: str) -> tuple[str, dict[str, str]]:
    """The text of a message to read orders from, and its headers if it is a whole e-mail.

    A text whose first line is an e-mail header (``From: ...``, ``Subject: ...``) is read as an
    e-mail: its plain-text body (decoded, the first text part of a multipart message) is what
    holds the orders. Anything else is a body already.
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    match = _HEADER.match(first)
    if match is None or match["name"].lower() not in _HEADER_NAMES:
        return text, {}
    # The e-mail reader is loaded only for a text that is a mail (the command line's start
    # stays light).
    import email
    import email.policy
    from email.message import EmailMessage

    parsed = email.message_from_string(text.lstrip(), policy=email.policy.default)
    if not isinstance(parsed, EmailMessage) or not parsed.keys():
        return text, {}
    headers = {name: str(value) for name, value in parsed.items()
               if name.lower() in ("from", "to", "subject", "date")}
    part = parsed.get_body(preferencelist=("plain",))
    if part is None:
        return "", headers
    try:
        content = part.get_content()
    except (LookupError, ValueError):  # an unknown charset: read what can be read
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return (content if isinstance(content, str) else ""), headers


def read_message(position: Position, text: str, power: str | None = None) -> ReadMessage:
    """Sort the lines of ``text`` (a message, or a whole e-mail) into order lines and lines set
    aside, for a phase of ``position`` and the orders of ``power`` (see the module's doc)."""
    body, headers = message_body(text)
    m = position.map
    variant = position.variant
    kind = position.phase.kind

    def reads(line: str) -> OrderError | None:
        try:
            variant.notation.parse_order(m, line, phase_kind=kind, position=position, power=power)
        except OrderError as exc:
            return exc
        return None

    return ReadMessage(tuple(_sort_lines(m, body, reads)), headers)


def _sort_lines(m: Map, body: str, reads: Callable[[str], OrderError | None]
                ) -> list[MessageLine]:
    lines: list[MessageLine] = []
    rest: str | None = None  # once set, every later line is set aside for this reason
    for number, line in enumerate(body.splitlines(), start=1):
        if not line.strip():
            continue
        stripped = line.strip()
        if rest is None and stripped in ("--", "-- ", "—"):
            rest = SIGNATURE
        elif rest is None and _REPLY_START.match(line):
            rest = QUOTED
        if rest is not None:
            lines.append(MessageLine(number, line, rest))
        elif stripped.startswith(">"):
            lines.append(MessageLine(number, line, QUOTED))
        elif not order_text(line).strip():  # a "#" comment: kept, and skipped by the judge
            lines.append(MessageLine(number, line))
        else:
            error = reads(order_text(line))
            unmarked = _MARKER.sub("", line, count=1)
            if error is not None and unmarked != line and reads(order_text(unmarked)) is None:
                lines.append(MessageLine(number, line, None, unmarked.strip()))
                continue
            order_like = error is None or looks_like_order(m, order_text(line), error)
            lines.append(MessageLine(number, line, None if order_like else NOT_AN_ORDER))
    return lines


def looks_like_order(m: Map, text: str, error: OrderError | None = None) -> bool:
    """Whether a line that the notation could not read still looks like an order.

    Judged from the words alone: an order word or a unit first ("Army", "Build", "A Mun",
    "F Stp"), a place first ("Munich holds"), an arrow after a unit letter ("A Munchen ->
    Ruhr"), a unit after a word or two ("Purple A Mar H"); or, given the reader's ``error``,
    a reader that got past the first word ("Red A Zzz H" in Arpiesse) unless that word is the
    article "A" before a word that is no place. A line ending in ":" is a heading.
    """
    words = _order_words(m, text)
    if not words or text.rstrip().endswith(":"):  # a heading: "Builds:", "My orders:"
        return False
    first = words[0].upper()
    if first in _ORDER_WORDS:
        return True
    if first in ("A", "F"):
        return len(words) > 1 and (_is_place(m, words[1:]) or _ARROW.search(text) is not None)
    if _is_place(m, words):
        return True
    # A unit after a word or two the notation may put first (a colour, a count): "Purple A
    # Mar H" is an order, whatever its colour claim is worth.
    if any(words[i].upper() in ("A", "F", "ARMY", "FLEET") and _is_place(m, words[i + 1:])
           for i in range(1, min(3, len(words) - 1))):
        return True
    if error is not None and error.start > 0 and error.text.strip():
        head = error.text[: error.start]
        understood = _WORD.findall(head)
        return bool(understood) and understood[0].upper() not in ("A", "F")
    return False


def _order_words(m: Map, text: str) -> list[str]:
    """The words of a line after a list marker and a ``Power:`` prefix."""
    text = _MARKER.sub("", text, count=1)
    head, colon, tail = text.partition(":")
    if colon and m.find_power(head.strip()) is not None:
        text = tail
    words = _WORD.findall(text)
    if len(words) > 1 and m.find_power(words[0]) is not None and m.find_location(words[0]) is None:
        words = words[1:]  # "England A Lon - Nth"
    return words


def _is_place(m: Map, words: list[str]) -> bool:
    """Whether the first one, two or three words name a place of the map."""
    return any(m.find_location(" ".join(words[:n])) is not None for n in (1, 2, 3)
               if n <= len(words))
