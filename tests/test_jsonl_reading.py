"""Every document is parsed by ``formats._loads``: JSON's own scanner called straight away, and
``json.loads`` again for any text that is not one value with blanks around it at most. It must
read every text as ``json.loads`` reads it: the same value, or the same error (and so the same
one-line message from ``read_json``). Texts are random JSON, spaced and indented in the ways
JSON allows, then now and then spoiled (a character dropped, doubled or replaced, two values,
a byte-order mark, blanks JSON does not allow)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from calhamer.errors import CalhamerError
from calhamer.formats import _loads, read_json

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

    from calhamer import formats

    with mock.patch.object(formats, "_loads", json.loads):
        return read_json(text)


def test_texts_json_loads_refuses_are_refused_alike() -> None:
    for text in ["", " ", "{", '{"a": 1} {"b": 2}', "\ufeff{}", "[1,]", "{} x", "1" * 5000,
                 "[" * 5000 + "]" * 5000, '"\\ud800"', '{"a": NaN}', b"{}"]:
        assert parsed(_loads, text) == parsed(json.loads, text), text  # type: ignore[arg-type]
