"""Every document is parsed by ``formats.json_text._loads``: JSON's own scanner called
straight away, and ``json.loads`` again for any text that is not one value with blanks around
it at most. It must read every text as ``json.loads`` reads it: the same value, or the same
error (and so the same one-line message from ``read_json``). Texts are random JSON, spaced and
indented in the ways JSON allows, then now and then spoiled (a character dropped, doubled or
replaced, two values, a byte-order mark, blanks JSON does not allow).

And a phase document's orders and units keyed by power codes are taken as they stand: they
must read as when every key was read and the lists of two spellings of one power joined. A
line of ``--jsonl`` (``phase_from_line``, which counts no brackets in a plain document) reads
as its document reads: the same position, or the same error."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from calhamer.cli.io import DOCUMENT_ERRORS
from calhamer.errors import CalhamerError
from calhamer.formats import phase_from_line, position_from_json, position_to_json, read_json
from calhamer.formats.json_text import _loads
from calhamer.formats.reading import _power
from calhamer.map import load_map
from calhamer.position import Position, units_from_specs
from calhamer.variants import find_variant

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=4),
    max_leaves=20,
)
BLANKS = st.text(alphabet=" \t\n\r", max_size=3)
SPOILERS = ["", "x", "}", "]", ",", '"', "\ufeff", "\x0b", "\u00a0", " 1", "[", "{}", "\\"]


def parsed(read: Any, text: str) -> tuple[str, Any]:
    try:
        value = read(text)
    except (ValueError, RecursionError) as exc:
        return type(exc).__name__, str(exc)
    return "value", json.dumps(value)  # floats as text: -0.0 and 0.0 told apart


def document(read: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", json.dumps(read(text))
    except CalhamerError as exc:
        return type(exc).__name__, str(exc)


@settings(max_examples=500, deadline=None)
@given(value=VALUES, before=BLANKS, after=BLANKS, indent=st.sampled_from([None, 0, 2]),
       spoil=st.sampled_from(["none", "drop", "double", "replace", "before", "after"]),
       spoiler=st.sampled_from(SPOILERS), at=st.integers(min_value=0))
def test_texts_read_as_json_loads_reads_them(value: Any, before: str, after: str,
                                             indent: int | None, spoil: str, spoiler: str,
                                             at: int) -> None:
    text = before + json.dumps(value, indent=indent) + after
    i = at % (len(text) + 1)
    if spoil == "drop":
        text = text[:i] + text[i + 1:]
    elif spoil == "double":
        text = text[:i] + text[i:i + 1] + text[i:]
    elif spoil == "replace":
        text = text[:i] + spoiler + text[i + 1:]
    elif spoil == "before":
        text = spoiler + text
    elif spoil == "after":
        text = text + spoiler
    assert parsed(_loads, text) == parsed(json.loads, text)
    assert document(read_json, text) == document(lambda t: read_json_by_loads(t), text)


def read_json_by_loads(text: str) -> Any:
    """``read_json`` as it read before, through ``json.loads``."""
    from unittest import mock

    from calhamer.formats import json_text

    with mock.patch.object(json_text, "_loads", json.loads):
        return read_json(text)


def test_texts_json_loads_refuses_are_refused_alike() -> None:
    for text in ["", " ", "{", '{"a": 1} {"b": 2}', "\ufeff{}", "[1,]", "{} x", "1" * 5000,
                 "[" * 5000 + "]" * 5000, '"\\ud800"', '{"a": NaN}', b"{}"]:
        assert parsed(_loads, text) == parsed(json.loads, text), text  # type: ignore[arg-type]


# -- a phase document's lists keyed by power ----------------------------------------------------

M = load_map("standard")
POWER_KEYS = [*M.power_codes, "france", "Germany", "ATLANTIS"]
ORDER_TEXTS = ["A PAR H", "A PAR - BUR", "F BRE - MAO", "", "WAIVE"]
UNIT_TEXTS = ["A PAR", "F BRE", "A MUN", "F STP/SC", "A VIE"]


def keyed_the_long_way(listed: dict[str, list[str]], where: str) -> dict[str, list[str]]:
    """Lists keyed by power as read before lists keyed by power codes were taken as they
    stand: every key read, the lists of two spellings of one power joined."""
    read: dict[str, list[str]] = {}
    for raw, items in listed.items():
        power = _power(M, raw, where)
        read.setdefault(power, []).extend(items)
    return read


@settings(max_examples=300, deadline=None)
@given(orders=st.dictionaries(st.sampled_from(POWER_KEYS),
                              st.lists(st.sampled_from(ORDER_TEXTS), max_size=3), max_size=4),
       units=st.dictionaries(st.sampled_from(POWER_KEYS),
                             st.lists(st.sampled_from(UNIT_TEXTS), max_size=2, unique=True),
                             max_size=3))
def test_lists_keyed_by_power_read_as_every_key_read(orders: dict[str, list[str]],
                                                      units: dict[str, list[str]]) -> None:
    doc = {"phase": "S1901M", "units": units, "orders": orders}
    assert read_now(doc) == read_the_long_way(doc)


def read_now(doc: dict[str, Any]) -> tuple[object, ...]:
    try:
        position, orders, _ = position_from_json(doc)
    except CalhamerError:
        return ("refused",)
    return "read", orders, list(position.units.items())


def read_the_long_way(doc: dict[str, Any]) -> tuple[object, ...]:
    """The orders and units of ``doc`` with every power key read (a name to read or refuse, a
    unit that cannot be read, two units in one province: refused)."""
    try:
        orders = keyed_the_long_way(doc["orders"], "orders")
        specs = {_power(M, raw, "units"): items for raw, items in doc["units"].items()}
        units = units_from_specs(M, specs, find_variant("standard").notation.parse_unit)
        if Position(M, Position.initial().phase, units, {}).status():
            return ("refused",)
    except CalhamerError:
        return ("refused",)
    return "read", orders, list(units.items())


# -- a line of --jsonl ---------------------------------------------------------------------------


def read_both_ways(text: str) -> tuple[tuple[object, ...], tuple[object, ...]]:
    def outcome(read: Any) -> tuple[object, ...]:
        try:
            position, orders, rules = read(text)
        except (CalhamerError, *DOCUMENT_ERRORS) as exc:
            return type(exc).__name__, str(exc)
        return "read", position, orders, rules, list(position.units.items())

    return (outcome(phase_from_line),
            outcome(lambda t: position_from_json(read_json(t, with_line=False))))


def nested(depth: int, inner: Any = "A PAR") -> Any:
    for _ in range(depth):
        inner = [inner]
    return inner


def test_a_line_reads_as_its_document_reads() -> None:
    rng = random.Random(5)
    docs: list[Any] = []
    for variant in ("standard", "standard-dp", "arpiesse", "kriegsplomacy"):
        position = Position.initial(variant=find_variant(variant))
        doc = position_to_json(position, find_variant(variant).default_rules)
        doc["orders"] = {p: ["A PAR H", "F BRE - MAO"] for p in position.powers()[:2]}
        docs.append(doc)
    start = docs[0]
    docs += [
        {**start, "units": {"FRANCE": nested(depth)}} for depth in (1, 50, 99, 100, 101, 300)
    ]
    docs += [{**start, "orders": {"FRANCE": nested(150, {"a": "A PAR H"})}},
             {**start, "extra": nested(120)}, {**start, "phase": 1901}, nested(101), nested(5),
             [], 5, "S1901M", None, {**start, "units": {"FRANCE": ["A PAR", "A PAR"]}},
             {**start, "centers": {"FRANCE": ["BUR"]}}, {**start, "rules": "no such edition"}]
    texts = [json.dumps(doc) for doc in docs]
    texts += ["", " ", "{", '{"phase": "S1901M"} x', "\ufeff{}", "[" * 2000 + "]" * 2000,
              '{"units": ' + "{" * 150 + "}" * 150 + "}"]
    texts += [t[:rng.randrange(len(t) + 1)] for t in texts[:4] for _ in range(5)]
    for text in texts:
        now, before = read_both_ways(text)
        assert now == before, text[:80]
