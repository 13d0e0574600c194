"""The direct path of phase documents: read without the pydantic model, written as JSON text.

``position_from_json`` reads a plain, well-formed document by hand (its shape checked value by
value, its units and centres looked up in memos) and leaves every other document to the model;
``outcome_to_line`` writes the output document of ``calhamer adjudicate --jsonl`` straight to
text. Both must agree with the model path exactly: the same position and orders, the same
error for a bad document, the same bytes out. Games are random (seeded), their orders written
in several spellings, good and bad.
"""

from __future__ import annotations

import io
import json
import random
import sys
from typing import Any

import pytest

from calhamer import notation
from calhamer.cli.phase import _adjudicate_lines
from calhamer.errors import CalhamerError, PhaseError
from calhamer.formats import (
    json_text,
    outcome_to_json,
    outcome_to_line,
    position_from_json,
    position_to_json,
)
from calhamer.formats.reading import _model_fields, _plain_fields, _read_fields
from calhamer.map import load_map
from calhamer.notation import format_order, parse_order
from calhamer.options import possible_orders
from calhamer.orders import Move
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.rules import find_rules
from calhamer.variants import find_variant

M = load_map("standard")


def model_read(doc: Any) -> tuple[Position, dict[str, list[str]], str]:
    """A phase document read as before the direct path: the model checks its shape, and every
    name is read and the board checked."""
    return _read_fields(doc, _model_fields(doc), direct=False)


def model_line(doc: Any) -> str:
    """The output line ``--jsonl`` wrote for ``doc`` before the direct path."""
    position, orders, rules = model_read(doc)
    rules = find_rules(rules).name
    outcome = adjudicate(position, orders, rules)
    return json.dumps(outcome_to_json(outcome, rules), separators=(",", ":"))


def spelled(position: Position, order: Any, rng: random.Random) -> str:
    """An order's text in one of the ways players write it, now and then mistaken."""
    text = position.variant.notation.format_order(position, order)
    roll = rng.random()
    if roll < 0.55:
        return text
    if roll < 0.7:
        return text.lower()
    if roll < 0.8 and isinstance(order, Move) and not order.path:
        return text.replace(" - ", "-")
    if roll < 0.88:
        return f"{order.__class__.__name__} {text}"  # mostly unreadable: "Hold A PAR H"
    if roll < 0.94:
        return text.replace("A ", "F ", 1) if text.startswith("A ") else text
    return rng.choice(["", "A XYZ - PAR", "F NTH C A LON", "A PAR - BUR VIA", "WAIVE"])


def random_game(seed: int, years: int, variant: str = "standard") -> list[dict[str, Any]]:
    """Every phase document (with orders as text) of a random game."""
    rng = random.Random(seed)
    rules = find_rules(find_variant(variant).default_rules)
    position = Position.initial(variant=find_variant(variant))
    docs = []
    while position.phase.year < 1901 + years and position.winner() is None:
        orders: dict[str, list[Any]] = {}
        for power in position.powers():
            found = possible_orders(position, power, rules)
            orders[power] = [rng.choice(choices) for choices in found.values() if choices]
        doc = position_to_json(position, rules.name)
        doc["orders"] = {p: [spelled(position, o, rng) for o in os] for p, os in orders.items()}
        docs.append(doc)
        position = adjudicate(position, orders, rules).next
    return docs


def jsonl_output(lines: list[str], monkeypatch: pytest.MonkeyPatch,
                 capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(lines)))
    code = _adjudicate_lines("-", None)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("seed", range(16))
def test_random_games_read_and_write_alike_on_both_paths(seed: int, monkeypatch, capsys) -> None:
    docs = random_game(seed, years=6)
    kinds = {doc["phase"][-1] for doc in docs}
    assert kinds >= {"M", "A"}  # movement and adjustments at least; retreats most games
    for doc in docs:
        fields = _plain_fields(doc)
        assert fields is not None, doc  # calhamer's own documents are plain
        assert fields == _model_fields(doc)
        direct, model = position_from_json(doc), model_read(doc)
        assert direct == model
        assert position_to_json(direct[0]) == position_to_json(model[0])
    lines = [json.dumps(doc) + "\n" for doc in docs]
    code, out = jsonl_output(lines, monkeypatch, capsys)
    assert code == 0
    assert out == "".join(model_line(doc) + "\n" for doc in docs)


def greedy_game(seed: int, years: int) -> list[dict[str, Any]]:
    """Every phase document (orders in canonical text) of a game of the greedy player:
    supports, convoys, cuts and bounces on a crowded board, as coordinated play looks."""
    from calhamer.bots import BotView, greedy_policy
    from calhamer.orders import Order

    rng = random.Random(seed)
    rules = find_rules(None)
    position = Position.initial("standard")
    docs = []
    while position.phase.year < 1901 + years and position.winner() is None:
        due = position.adjustments() if position.phase.kind == "A" else {}
        orders: dict[str, list[Any]] = {}
        for power in position.powers():
            options = possible_orders(position, power, rules)
            view = BotView(power, position.phase, position, None, due.get(power, 0),
                           rules.name, random.Random(rng.random()))
            orders[power] = [o for o in greedy_policy(view, options) if isinstance(o, Order)]
        doc = position_to_json(position, rules.name)
        doc["orders"] = {p: [format_order(M, o) for o in os] for p, os in orders.items()}
        docs.append(doc)
        position = adjudicate(position, orders, rules).next
    return docs


@pytest.mark.parametrize("seed", range(2))
def test_coordinated_games_write_the_lines_the_document_path_writes(seed: int, monkeypatch,
                                                                     capsys) -> None:
    docs = greedy_game(seed, years=8)
    lines = [json.dumps(doc) + "\n" for doc in docs]
    code, out = jsonl_output(lines, monkeypatch, capsys)
    assert code == 0
    written = out.splitlines()
    results = [r for line in written for rs in json.loads(line)["results"].values() for r in rs]
    # The phases hold what coordinated play is made of, each written as the document path does.
    assert {r["order"].split(" ")[2] for r in results if r["order"]} >= {"-", "S", "C", "H"}
    assert any(r["reason"].startswith("bounced") for r in results)
    assert written == [model_line(doc) for doc in docs]


@pytest.mark.parametrize("variant", ["arpiesse", "kriegsplomacy", "superdiplomacy"])
def test_variants_write_the_same_lines(variant: str, monkeypatch, capsys) -> None:
    docs = random_game(3, years=2, variant=variant)
    code, out = jsonl_output([json.dumps(doc) + "\n" for doc in docs], monkeypatch, capsys)
    assert code == 0
    assert out == "".join(model_line(doc) + "\n" for doc in docs)


def test_a_retreat_phase_writes_its_dislodged_units_and_contested_provinces() -> None:
    doc = {"phase": "F1901R", "rules": "datc",
           "units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A MUN"]},
           "centers": {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN"]},
           "dislodged": {"GERMANY": [{"unit": "A RUH", "attacker_from": "BUR"}, "F HOL"]},
           "contested": ["BEL"],
           "orders": {"GERMANY": ["A RUH R KIE", "F HOL D"]}}
    position, orders, rules = position_from_json(doc)
    assert (position, orders, rules) == model_read(doc)
    outcome = adjudicate(position, orders, rules)
    assert outcome_to_line(outcome, rules) == model_line(doc)
    # And a movement phase that leaves a unit dislodged writes the retreat phase's document.
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A BUR", "A PIC", "F ENG"],
                                        "GERMANY": ["A BEL"]},
           "centers": {"FRANCE": ["PAR"]},
           "orders": {"FRANCE": ["A PIC - BEL", "A BUR S A PIC - BEL", "F ENG S A PIC - BEL"]}}
    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    assert outcome.next.phase.code == "S1901R"
    assert outcome_to_line(outcome, rules) == model_line(doc)


def test_a_winner_is_written_as_before() -> None:
    centres = ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN",
               "LON", "LVP", "EDI", "NWY", "SWE", "ROM", "NAP"]
    doc = {"phase": "F1905M", "units": {"FRANCE": ["A PAR"], "ITALY": ["A VEN"]},
           "centers": {"FRANCE": centres, "ITALY": ["VEN"]},
           "orders": {"FRANCE": ["A PAR H"]}}
    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    line = outcome_to_line(outcome, rules)
    assert json.loads(line)["winner"] == "FRANCE"
    assert line == model_line(doc)


def test_strings_that_json_escapes_are_written_as_json_writes_them() -> None:
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]},
           "orders": {"FRANCE": ['A Päris – "Bur"\t\\ é', "A PAR - BUR 🐉"]}}
    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    assert outcome_to_line(outcome, rules) == model_line(doc)


# -- malformed documents ------------------------------------------------------------------------


def start() -> dict[str, Any]:
    doc = position_to_json(Position.initial(), "datc")
    doc["orders"] = {"FRANCE": ["A PAR - BUR"]}
    return doc


def changed(**changes: Any) -> dict[str, Any]:
    doc = start()
    for key, value in changes.items():
        if value is ...:
            del doc[key]
        else:
            doc[key] = value
    return doc


# Documents the model refuses for their shape: the direct path leaves every one to it.
BAD_SHAPES = [
    changed(variant=None),
    changed(variant=7),
    changed(rules=["datc"]),
    changed(phase=1901),
    changed(units=[]),
    changed(units={"FRANCE": "A PAR"}),
    changed(units={"FRANCE": ["A PAR", 3]}),
    changed(units={"FRANCE": [None]}),
    changed(centers={"FRANCE": [["PAR"]]}),
    changed(centers="PAR"),
    changed(orders={"FRANCE": [{"order": "A PAR H"}]}),
    changed(orders={"FRANCE": [True]}),
    changed(contested="BEL"),
    changed(contested=[1]),
    changed(dislodged=[]),
    changed(dislodged={"FRANCE": [{"unit": 3}]}),
    changed(dislodged={"FRANCE": [{"attacker_from": "BUR"}]}),
    changed(dislodged={"FRANCE": [{"unit": "A PAR", "attacker": "BUR"}]}),
    changed(dislodged={"FRANCE": [{"unit": "A PAR", "attacker_from": 5}]}),
    changed(dislodged={"FRANCE": [7]}),
    changed(surprise=True),
    changed(seed=5),
    changed(extra=[]),
]


@pytest.mark.parametrize("doc", BAD_SHAPES, ids=lambda d: json.dumps(d)[-60:])
def test_a_bad_shape_gets_the_models_error(doc: dict[str, Any]) -> None:
    assert _plain_fields(doc) is None
    with pytest.raises(PhaseError) as direct:
        position_from_json(doc)
    with pytest.raises(PhaseError) as model:
        model_read(doc)
    assert str(direct.value) == str(model.value)
    assert "\n" not in str(direct.value)


@pytest.mark.parametrize("doc", [None, [], "S1901M", 3], ids=repr)
def test_what_is_no_object_gets_the_models_error(doc: Any) -> None:
    assert _plain_fields(doc) is None
    with pytest.raises(PhaseError, match="a phase document must be a JSON object"):
        position_from_json(doc)


# Documents of the right shape with something wrong that only the map knows.
BAD_NAMES = [
    changed(variant="chess"),
    changed(rules="1066"),
    changed(phase="X1901M"),
    changed(units={"FRANCE": ["A PAR", "A Pqris"]}),
    changed(units={"FRANCE": ["A PAR"], "ATLANTIS": ["F NTH"]}),
    changed(units={"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}),
    changed(units={"FRANCE": ["F PAR"]}),
    changed(units={"FRANCE": ["A NTH"]}),
    changed(units={"FRANCE": ["Q PAR"]}),
    changed(centers={"FRANCE": ["PAR", "BUR"]}),
    changed(centers={"FRANCE": ["PAR"], "GERMANY": ["PAR"]}),
    changed(centers={"FRANCE": ["Pqris"]}),
    changed(centers={"FRANCE": [""]}),
    changed(contested=["NOWHERE"]),
    changed(dislodged={"FRANCE": [{"unit": "A GAS", "attacker_from": "XXX"}]}),
    changed(dislodged={"FRANCE": ["A ATL"]}),
    changed(orders={"NOBODY": ["A PAR H"]}),
]


@pytest.mark.parametrize("doc", BAD_NAMES, ids=lambda d: json.dumps(d)[-60:])
def test_a_bad_name_gets_the_same_error_on_the_direct_path(doc: dict[str, Any]) -> None:
    assert _plain_fields(doc) is not None
    with pytest.raises(CalhamerError) as direct:
        position_from_json(doc)
    with pytest.raises(CalhamerError) as model:
        model_read(doc)
    assert type(direct.value) is type(model.value)
    assert str(direct.value) == str(model.value)


def test_a_bad_unit_is_refused_after_a_good_read_of_the_same_text() -> None:
    # The memo of units read holds only sound units: "F PAR" stays refused however often a
    # good document was read before it.
    position_from_json(start())
    for _ in range(2):
        with pytest.raises(PhaseError, match="a fleet cannot stand in Paris"):
            position_from_json(changed(units={"FRANCE": ["F PAR"]}))


def test_jsonl_gives_error_lines_for_malformed_documents(monkeypatch, capsys) -> None:
    docs = [start(), *BAD_SHAPES[:5], *BAD_NAMES[:5], start()]
    code, out = jsonl_output([json.dumps(d) + "\n" for d in docs], monkeypatch, capsys)
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(docs)
    assert "next" in lines[0] and "next" in lines[-1]
    for number, (doc, line) in enumerate(zip(docs[1:-1], lines[1:-1], strict=True), start=2):
        try:
            model_line(doc)
        except CalhamerError as exc:
            assert line == {"error": f"line {number}: {exc}"}
        else:
            raise AssertionError(f"the model path read {doc}")


def test_a_single_dislodged_entry_is_read_by_the_model() -> None:
    doc = {"phase": "F1901R", "units": {"FRANCE": ["A BUR"]}, "centers": {},
           "dislodged": {"GERMANY": {"unit": "A RUH", "attacker_from": "BUR"}}}
    assert _plain_fields(doc) is None
    position, _orders, _rules = position_from_json(doc)
    assert [M.loc_name(d.unit.loc) for d in position.dislodged] == ["RUH"]


# -- the memos ------------------------------------------------------------------------------------


def test_order_texts_are_read_once_and_the_memo_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(notation, "_CANONICAL_READ", {})
    monkeypatch.setattr(notation, "_MEMO_LIMIT", 2)
    texts = ["A PAR - BUR", "F BRE H", "A MAR S A PAR - BUR", "F LON C A YOR - NWY"]
    for _ in range(2):
        for text in texts:
            read = parse_order(M, text).order
            assert format_order(M, read) == text
    assert list(notation._CANONICAL_READ[M]) == texts[:2]
    assert parse_order(M, "A PAR - BUR").order is parse_order(M, "A PAR - BUR").order
    # A text that is not canonical is never kept, and still read (and refused) as ever.
    assert format_order(M, parse_order(M, "a par-bur").order) == "A PAR - BUR"
    with pytest.raises(CalhamerError, match="is not a province"):
        parse_order(M, "A PAR - XYZ")


def test_the_json_text_memo_is_emptied_when_full(monkeypatch) -> None:
    monkeypatch.setattr(json_text, "_JSON_TEXTS", {})
    monkeypatch.setattr(json_text, "_JSON_TEXT_LIMIT", 3)
    for word in ["a", "b", "c", "d", "é"]:
        assert json_text._json_text(word) == json.dumps(word)
    assert len(json_text._JSON_TEXTS) <= 3
