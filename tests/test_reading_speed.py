"""Reading an order takes time linear in its length, and an over-long order is refused unread.

No test here measures time. The reader's inner matching routines (the map's name look-ups)
are counted instead: the characters handed to them grow with the order's length when the
reader is linear, and with its square when it tries every run of words as a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from calhamer import notation
from calhamer.errors import InvalidOrderError, OrderError
from calhamer.formats import position_from_json
from calhamer.game import check_orders
from calhamer.map import Map, load_map
from calhamer.notation import MAX_ORDER_LENGTH, parse_order, parse_orders
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.results import INVALID
from calhamer.variants import find_variant

M = load_map("standard")

# Orders of one pattern repeated: each made the old reader quadratic, or could have.
SHAPES: dict[str, Callable[[int], str]] = {
    "repeated name": lambda n: "A " + "Par " * n,
    "repeated coast": lambda n: "F Spa" + "/nc" * n,
    "repeated coast in brackets": lambda n: "F Spa" + "(sc)" * n,
    "repeated word": lambda n: "A " + "Gulf " * n,
    "repeated two-word name": lambda n: "F " + "St Petersburg " * n,
    "glued dashes": lambda n: "A " + "Mid-" * n,
    "convoy path": lambda n: "A Bre - " + "ENG - " * n,
    "one long word": lambda n: "A " + "x" * n,
    "repeated via": lambda n: "A Par - Bur VIA " * n,
    "repeated support word": lambda n: "A Par S " * n,
    "brackets": lambda n: "A " + "(" * n + "Par",
    "long power prefix": lambda n: "Fra" * n + ": A Par H",
    "spaces": lambda n: "A Par" + " " * n + "H",
}

# The error each shape gets when it just fits: the fragment the error points at, and words
# of the message.
JUST_UNDER = {
    "repeated name": ("Par", '"Par" is out of place here'),
    "repeated coast": ("/", '"/" is out of place here'),
    "repeated coast in brackets": ("(", '"(" is out of place here'),
    "repeated word": ("Gulf Gulf Gulf Gulf Gulf Gulf Gulf", "is not a province"),
    "repeated two-word name": ("St Petersburg", "is out of place here"),
    "glued dashes": ("-", 'the destination is missing after "-"'),
    "convoy path": ("-", 'the destination is missing after "-"'),
    "one long word": (None, "is not a province"),
    "repeated via": ("VIA", 'expected "convoy" after "VIA"'),
    "repeated support word": ("S", '"S" is out of place here'),
    "brackets": ("(", "expected the unit's province after \"A\", found \"(\""),
    "long power prefix": (None, "is not a power"),
    "spaces": (None, None),  # a good order: "A PAR H"
}


def longest(shape: Callable[[int], str], limit: int = MAX_ORDER_LENGTH) -> str:
    """The longest text of ``shape`` that is at most ``limit`` characters long."""
    n = 1
    while len(shape(n + 1)) <= limit:
        n += 1
    return shape(n)


@contextmanager
def looked_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Count the characters of every name the map is asked to find: [calls, characters]."""
    seen = [0, 0]
    with monkeypatch.context() as patch:
        for name in ("find_location", "suggest_location", "find_power"):
            original = getattr(Map, name)

            def counted(self: Map, text: str, _original=original) -> object:
                seen[0] += 1
                seen[1] += len(text)
                return _original(self, text)

            patch.setattr(Map, name, counted)
        yield seen


def read(text: str, m: Map = M, kind: str = "M") -> str:
    """The order's canonical form, or its error with the fragment it points at."""
    try:
        return notation.format_order(m, parse_order(m, text, phase_kind=kind).order)
    except OrderError as exc:
        return f"{exc.message} [{text[exc.start:exc.end]}]"


# -- the limit ------------------------------------------------------------------------------


def refusal(length: int) -> str:
    return (f"the order is {length} characters long, more than the {MAX_ORDER_LENGTH} an order "
            "may have; write one order per line")


def test_the_limit_is_a_few_hundred_characters() -> None:
    assert 200 <= MAX_ORDER_LENGTH <= 1000
    docs = (Path(__file__).parent.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    assert f"at most {MAX_ORDER_LENGTH} characters" in docs.replace("\n", " ")


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("size", ["just over", "32 kB"])
def test_over_long_orders_are_refused_unread(
    shape: str, size: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make = SHAPES[shape]
    if size == "just over":
        text = make(1)
        n = 1
        while len(text) <= MAX_ORDER_LENGTH:
            n += 1
            text = make(n)
    else:
        text = longest(make, 32 * 1024)
    with looked_up(monkeypatch) as seen, pytest.raises(InvalidOrderError) as info:
        parse_order(M, text)
    assert info.value.message == refusal(len(text))
    assert info.value.start == MAX_ORDER_LENGTH
    assert seen == [0, 0]  # no name was looked at


def test_an_order_at_the_limit_is_read() -> None:
    text = "A Par" + " " * (MAX_ORDER_LENGTH - 7) + "H"
    assert len(text) == MAX_ORDER_LENGTH - 1
    assert read(text) == "A PAR H"
    text += " "
    assert len(text) == MAX_ORDER_LENGTH and read(text) == "A PAR H"
    assert read(text + " ").startswith(refusal(MAX_ORDER_LENGTH + 1))


def test_parse_orders_refuses_the_long_line_only() -> None:
    long_line = "A " + "Par " * 8000
    orders, errors = parse_orders(M, f"A Par H\n{long_line}\nA Mar - Bur", power="FRANCE")
    assert [notation.format_order(M, o.order) for o in orders] == ["A PAR H", "A MAR - BUR"]
    assert [e.message for e in errors] == [f"line 2: {refusal(len(long_line))}"]


def test_a_long_order_in_a_phase_document_is_judged_invalid() -> None:
    long_order = "A " + "Par " * 8192
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A MAR"]},
           "orders": {"FRANCE": [long_order, "A Mar - Bur"]}}
    position, orders, rules = position_from_json(doc)
    france = adjudicate(position, orders, rules).results["FRANCE"]
    assert (france[0].result, france[0].reason) == (
        INVALID, f"{refusal(len(long_order))} (column {MAX_ORDER_LENGTH + 1})"
    )
    assert france[1].canonical == "A MAR - BUR"
    check = check_orders(position, orders, rules)["FRANCE"]
    assert check[0].problem == france[0].reason and check[1].ok


# -- linear reading -------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_orders_just_under_the_limit_are_read_to_the_right_error(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = longest(SHAPES[shape])
    fragment, says = JUST_UNDER[shape]
    with looked_up(monkeypatch) as seen:
        got = read(text)
    if says is None:
        assert got == "A PAR H"
    else:
        assert says in got, got
        if fragment is not None:
            assert got.endswith(f"[{fragment}]"), got
    # Linear: every character is handed to a look-up a bounded number of times. The old
    # reader handed each run of n words over n times, some 10 000 characters for these.
    assert seen[1] <= 4 * len(text) + 100, seen


@pytest.mark.parametrize("shape", SHAPES)
def test_the_reader_itself_is_linear(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit lifted, 32 kB of each shape costs 4 kB's look-ups times eight at most."""
    monkeypatch.setattr(notation, "MAX_ORDER_LENGTH", 10**6)
    counts = []
    for size in (4 * 1024, 32 * 1024):
        text = longest(SHAPES[shape], size)
        with looked_up(monkeypatch) as seen:
            read(text)
        counts.append((len(text), seen[1]))
    (short, short_chars), (long, long_chars) = counts
    assert long_chars <= 4 * long + 100, counts
    assert long_chars <= (long / short) * short_chars + 100, counts


# -- variants -------------------------------------------------------------------------------

VARIANT_SHAPES: dict[str, tuple[str, Callable[[int], str], str]] = {
    # variant: (phase kind, shape, what the order just under the limit gets)
    "arpiesse": ("M", lambda n: "Red A " + "Par " * n, '"Par" is out of place here'),
    "arpiesse-exchange": ("X", lambda n: "F Adr X " + "Tri " * n, "is not a province"),
    "kriegsplomacy": ("M", lambda n: "A Par " + "Par " * n + "E", '"Par" is out of place here'),
    "superdiplomacy": ("M", lambda n: "2A " + "Par " * n, '"Par" is out of place here'),
    "standard-dp": ("M", lambda n: "A " + "Par " * n, '"Par" is out of place here'),
    "sub-saharan-excerpt": ("M", lambda n: "A " + "Kas " * n, '"Kas" is out of place here'),
}


def _variant_read(name: str, kind: str, text: str) -> str:
    variant = find_variant(name)
    m = load_map(variant.map_name)
    position = Position.initial(m, variant=variant)
    try:
        order = variant.notation.parse_order(m, text, phase_kind=kind, position=position,
                                             power=None).order
    except OrderError as exc:
        return exc.message
    return repr(order)


@pytest.mark.parametrize("name", VARIANT_SHAPES)
def test_variant_readers_refuse_over_long_orders(name: str) -> None:
    kind, shape, _ = VARIANT_SHAPES[name]
    text = longest(shape, 32 * 1024)
    assert _variant_read(name, kind, text) == refusal(len(text))


@pytest.mark.parametrize("name", VARIANT_SHAPES)
def test_variant_readers_read_long_orders_under_the_limit(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    kind, shape, says = VARIANT_SHAPES[name]
    text = longest(shape)
    with looked_up(monkeypatch) as seen:
        got = _variant_read(name, kind, text)
    assert says in got, got
    assert seen[1] <= 4 * len(text) + 100, seen


def test_dp_bids_with_over_long_orders_are_void() -> None:
    variant = find_variant("standard-dp")
    m = load_map(variant.map_name)
    position = Position.initial(m, variant=variant)
    power = m.power_codes[0]
    rule = variant.bids
    assert rule is not None
    long_order = "A " + "Par " * 8192
    for bid in (f"1 DP: {long_order}", {"order": long_order, "dp": 1},
                "1 DP: A" + " " * 32 * 1024 + "H"):
        problems = rule.check(position, power, [bid])
        assert len(problems) == 1 and re.search(r"the order is \d+ characters long", problems[0])


# -- the fast paths give what the full reader and writer give ------------------------------------


def _some_movement_positions() -> list[Position]:
    """The standard start and a few later movement phases of a seeded game of holds and moves."""
    import random

    from calhamer.options import possible_orders

    rng = random.Random(13)
    position = Position.initial("standard")
    found = [position]
    while len(found) < 4:
        orders = {power: [rng.choice(choices) for choices in possible_orders(position, power)
                          .values()] for power in position.powers()}
        position = adjudicate(position, orders).next  # type: ignore[arg-type]
        if position.phase.kind == "M":
            found.append(position)
    return found


def test_canonical_text_reads_back_to_itself() -> None:
    """Every possible movement order written canonically reads (by the exact look-ups) to the
    same order, and is written back as the very same text: the intake keeps such text as its
    canonical form without writing it again."""
    from calhamer.options import possible_orders

    checked = 0
    for position in _some_movement_positions():
        for power in position.powers():
            for choices in possible_orders(position, power).values():
                for order in choices:
                    text = notation.format_order(M, order)
                    fast = notation.canonical_movement_order(M, text)
                    assert fast == parse_order(M, text, phase_kind="M").order == order
                    assert notation.format_order(M, fast) == text
                    checked += 1
    assert checked > 1000


def test_results_read_from_text_match_results_from_order_values() -> None:
    """A phase adjudicated from canonical text, from free-form text and from order values gives
    the same results: the same canonical forms, verdicts and reasons."""
    import random

    from calhamer.options import possible_orders

    rng = random.Random(5)
    for position in _some_movement_positions():
        values = {power: [rng.choice(choices) for choices in possible_orders(position, power)
                          .values()] for power in position.powers()}
        texts = {p: [notation.format_order(M, o) for o in os] for p, os in values.items()}
        loose = {p: [t.lower().replace(" - ", "-") for t in ts] for p, ts in texts.items()}
        # A short "VIA" and a wrong unit letter: read, then written out in full.
        first, second = list(texts)[:2]
        texts[first] = [t[:-7] if t.endswith(" CONVOY") else t for t in texts[first]]
        flipped = texts[second][0]
        texts[second][0] = ("F" if flipped[0] == "A" else "A") + flipped[1:]

        def summary(orders: dict, position: Position = position
                    ) -> dict[str, list[tuple[str, str, str]]]:
            results = adjudicate(position, orders).results
            return {p: [(r.canonical, r.result, r.reason) for r in rs]
                    for p, rs in results.items()}

        expected = summary(values)
        assert summary(texts) == expected
        assert summary(loose) == expected
