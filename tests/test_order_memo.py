"""Order texts read once per map: a text read again is looked up, and reads exactly as before.

The memo may hold only what holds on any board of the map: texts that name every unit's type
and were read without error. A text that leaves a type out depends on where units stand, and
a text that fails must fail again with its own message, each time.
"""

from __future__ import annotations

import random

import pytest

from calhamer import notation
from calhamer.errors import OrderError
from calhamer.map import ARMY, load_map
from calhamer.notation import format_order, parse_order
from calhamer.orders import Move, Retreat
from calhamer.phases import adjudicate
from calhamer.pieces import Unit
from calhamer.position import Position
from calhamer.results import INVALID

M = load_map("standard")


@pytest.fixture(autouse=True)
def empty_memos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notation, "_TEXT_READ", {})
    monkeypatch.setattr(notation, "_CANONICAL_READ", {})


def read(text: str, **kwargs: object) -> object:
    """The reading of ``text`` (its ParsedOrder, or its error's type and message)."""
    try:
        return parse_order(M, text, **kwargs)  # type: ignore[arg-type]
    except OrderError as exc:
        return type(exc), str(exc)


SPELLINGS = [
    "A Par - Bur", "a par-bur", "Army Paris -> Burgundy", "A PAR-BUR", "F Lon - Nth",
    "England: F Lon - Nth", "France: F Lon - Nth", "F Mid-Atlantic Ocean S A Bre - Gas",
    "A Bre - ENG - Lon", "A Bre - Lon via convoy", "F NTH C A Lon - Nwy", "A Par H",
    "A Par R Bur", "A Par D", "Build A Par", "WAIVE", "Par - Bur", "F Bre S Par - Gas",
    "A Par - Xyz", "A Munchen -> Ruhr", "", "A Par Bur", "F Stp/sc - Bot", "F StP(SC) H",
]


@pytest.mark.parametrize("phase_kind", ["M", "R", "A"])
@pytest.mark.parametrize("power", [None, "FRANCE", "ENGLAND"])
def test_a_text_reads_the_same_the_second_time(phase_kind: str, power: str | None) -> None:
    position = Position.initial()
    for text in SPELLINGS:
        first = read(text, phase_kind=phase_kind, position=position, power=power)
        again = read(text, phase_kind=phase_kind, position=position, power=power)
        assert again == first, text


def test_random_sequences_read_as_a_fresh_reader_would(monkeypatch) -> None:
    rng = random.Random(5)
    positions = [Position.initial(), Position.initial().replace(units={})]
    for _ in range(400):
        text = rng.choice(SPELLINGS)
        kwargs = {"phase_kind": rng.choice("MRA"), "position": rng.choice(positions),
                  "power": rng.choice([None, "FRANCE", "ENGLAND", "england"])}
        memoized = read(text, **kwargs)
        monkeypatch.setattr(notation, "_TEXT_READ", {})
        assert read(text, **kwargs) == memoized, (text, kwargs)


def test_a_text_marked_for_one_power_is_refused_for_another_after_a_good_read() -> None:
    assert parse_order(M, "England: F Lon - Nth", power="ENGLAND").power == "ENGLAND"
    assert parse_order(M, "England: F Lon - Nth").power == "ENGLAND"
    for _ in range(2):
        with pytest.raises(OrderError, match="marked ENGLAND, but the orders are FRANCE's"):
            parse_order(M, "England: F Lon - Nth", power="FRANCE")


def test_an_omitted_type_is_read_from_each_board_anew() -> None:
    fleet = Position.initial()  # F BRE
    army = fleet.replace(units={M.province_of(M.loc("BRE")): Unit("FRANCE", ARMY, M.loc("BRE"))})
    assert parse_order(M, "Bre - Pic", position=fleet).order.unit_type.letter == "F"
    assert parse_order(M, "Bre - Pic", position=army).order.unit_type.letter == "A"
    assert parse_order(M, "Bre - Pic", position=fleet).order.unit_type.letter == "F"
    assert ("M", "Bre - Pic") not in notation._TEXT_READ.get(M, {})


def test_phase_kinds_are_kept_apart() -> None:
    assert isinstance(parse_order(M, "A Par-Bur", phase_kind="M").order, Move)
    assert isinstance(parse_order(M, "A Par-Bur", phase_kind="R").order, Retreat)
    with pytest.raises(OrderError, match="not moves"):
        parse_order(M, "A Par-Bur", phase_kind="A")


def test_errors_are_worded_every_time() -> None:
    for _ in range(3):
        with pytest.raises(OrderError, match=r"did you mean Munich \(MUN\)"):
            parse_order(M, "A Munchen -> Ruhr")
    assert not notation._TEXT_READ.get(M)


def test_the_memo_stops_growing_at_its_limit(monkeypatch) -> None:
    monkeypatch.setattr(notation, "_MEMO_LIMIT", 2)
    texts = ["A Par - Bur", "A Par - Pic", "A Par - Gas"]
    for text in texts * 2:
        assert format_order(M, parse_order(M, text).order) == text.upper()
    assert len(notation._TEXT_READ[M]) == 2


def test_orders_in_everyday_spelling_are_judged_alike_when_memoized() -> None:
    position = Position.initial()
    orders = {"FRANCE": ["a par-bur", "A Mar - Bur", "F Bre - Mid-Atlantic"],
              "GERMANY": ["a mun-bur", "Kie - Hol", "Ber h"], "ENGLAND": ["France: A Par H"]}
    first = adjudicate(position, orders).results
    again = adjudicate(position, orders).results
    assert first == again
    assert [r.result for r in again["ENGLAND"] if r.text] == [INVALID]
