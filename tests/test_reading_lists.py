"""A phase document's whole units, and whole centres, met before are one look-up.

The direct path of ``position_from_json`` keeps the tables it read (units by province, owners
by centre) under the lists as written, and reads a document's units or centres met again from
them. Only tables read without error are kept, so any list it cannot take (a name to read, a
unit that may not stand where it is, two units in one province, a centre listed for two
powers) is read, and its error worded, as ever. Random lists, good and bad, must read exactly
as the model path reads them, memos cold or warm: the same position, or the same error.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json, reading
from calhamer.formats.reading import _model_fields, _plain_fields, _read_fields
from calhamer.map import load_map
from calhamer.position import Position

M = load_map("standard")
POWERS = list(M.power_codes)

# Unit texts: sound and canonical, a coast of a split province, ones that cannot stand where
# they are, spellings to read (lower case, full names), and no unit at all.
UNIT_TEXTS = ["A PAR", "A BUR", "F BRE", "F MAO", "F NTH", "A MUN", "F STP/SC", "F STP/NC",
              "A STP", "F SPA/NC", "A SPA", "F PAR", "A NTH", "F MUN", "F STP", "a par",
              "A Paris", "F bre", "Q PAR", "A XYZ", "", "A  PAR", "A PAR "]
# Centre names: canonical, a coast, not a centre, to read, unknown, empty.
CENTRE_TEXTS = ["PAR", "BRE", "MAR", "MUN", "STP", "STP/SC", "SPA/NC", "BUR", "NTH", "par",
                "Paris", "Pqris", "", "XYZ"]
# Power keys: codes, and names to read or refuse.
POWER_KEYS = [*POWERS, "france", "Germany", "ATLANTIS"]


def forget() -> None:
    for memo in (reading._UNITS_READ, reading._CENTRE_TABLES):
        memo.clear()


def model_read(doc: Any) -> Any:
    return _read_fields(doc, _model_fields(doc), direct=False)


def outcome(read: Any, doc: Any) -> tuple[str, Any]:
    try:
        position, orders, rules = read(doc)
    except CalhamerError as exc:
        return type(exc).__name__, str(exc)
    return "read", (position, orders, rules, list(position.units.items()),
                    list(position.centers.items()))


def lists(texts: list[str], keys: list[str]) -> st.SearchStrategy[dict[str, list[str]]]:
    return st.dictionaries(st.sampled_from(keys), st.lists(st.sampled_from(texts), max_size=6),
                           max_size=4)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units=lists(UNIT_TEXTS, POWER_KEYS), centers=lists(CENTRE_TEXTS, POWER_KEYS),
       fresh=st.booleans())
def test_random_lists_read_as_the_model_reads_them(
        units: dict[str, list[str]], centers: dict[str, list[str]], fresh: bool) -> None:
    if fresh:  # memos empty, else warm from the examples before
        forget()
    doc = {"phase": "S1901M", "units": units, "centers": centers}
    assert _plain_fields(doc) is not None
    direct = outcome(position_from_json, doc)
    assert direct == outcome(model_read, doc)
    assert direct == outcome(position_from_json, json.loads(json.dumps(doc)))  # memos warm


@pytest.mark.parametrize(("units", "centers"), [
    ({"FRANCE": ["A PAR", "A PAR"]}, {}),  # one unit twice
    ({"FRANCE": ["A PAR"], "GERMANY": ["A PAR"]}, {}),  # two powers' units in one province
    ({"RUSSIA": ["F STP/SC", "F STP/NC"]}, {}),  # two coasts of one province
    ({"RUSSIA": ["F STP/SC"], "ENGLAND": ["A STP"]}, {}),
    ({"FRANCE": ["F PAR"]}, {}),  # a fleet inland
    ({"FRANCE": ["A NTH"]}, {}),  # an army at sea
    ({"FRANCE": ["F SPA"]}, {}),  # a fleet without its coast
    ({"FRANCE": ["A Paris"]}, {}),
    ({"ATLANTIS": ["A PAR"]}, {}),
    ({}, {"FRANCE": ["PAR", "PAR"]}),  # one centre twice for one power: read once
    ({}, {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}),  # one centre for two powers
    ({}, {"FRANCE": ["PAR", "BRE"], "GERMANY": ["MUN", "BRE"]}),
    ({}, {"RUSSIA": ["STP/SC", "STP"]}),
    ({}, {"RUSSIA": ["STP"], "ENGLAND": ["STP/NC"]}),
    ({}, {"FRANCE": ["BUR"]}),  # no centre
    ({}, {"FRANCE": ["Paris", "PAR"]}),
    ({}, {"FRANCE": ["PAR"], "ATLANTIS": ["BRE"]}),
    ({}, {"ATLANTIS": ["BUR"], "FRANCE": ["PAR"]}),
    ({}, {"FRANCE": ["BUR"], "ATLANTIS": ["PAR"]}),
    ({"FRANCE": ["A PAR", "F PAR"]}, {"FRANCE": ["BUR"]}),  # the units' error comes first
])
def test_malformed_lists_get_the_models_error(units: dict[str, list[str]],
                                              centers: dict[str, list[str]]) -> None:
    doc = {"phase": "S1901M", "units": units, "centers": centers}
    for _ in range(2):  # memos cold (for these lists), then warm
        assert outcome(position_from_json, doc) == outcome(model_read, doc)


def test_a_str_subclass_goes_to_the_model() -> None:
    class Name(str):
        pass

    for doc in ({"units": {"FRANCE": [Name("A PAR")]}},
                {"centers": {"FRANCE": [Name("PAR")]}}):
        assert _plain_fields(doc) is None
        assert outcome(position_from_json, doc) == outcome(model_read, doc)


def test_only_tables_read_without_error_are_kept() -> None:
    forget()
    good = {"units": {"FRANCE": ["A PAR", "A BUR", "F BRE"]}, "centers": {"france": ["PAR"]}}
    position_from_json(good)
    # Units read by the reader ("a bur") are checked by the position, and not kept.
    position_from_json({"units": {"FRANCE": ["a bur"]}})
    for bad in ({"units": {"FRANCE": ["A MAR", "F PAR"]}},
                {"units": {"FRANCE": ["A MAR"], "GERMANY": ["A MAR"]}},
                {"centers": {"FRANCE": ["PAR"], "GERMANY": ["PAR"]}},
                {"centers": {"FRANCE": ["BUR"]}}):
        for _ in range(2):
            with pytest.raises(CalhamerError):
                position_from_json(bad)
    # The centres' table is read and kept; the empty table of the bad documents' other half.
    assert [key[1:] for key in reading._CENTRE_TABLES] == [("france", ("PAR",)), ()]
    first, second = position_from_json(good)[0], position_from_json(good)[0]
    assert first == second
    assert first.centers is second.centers  # one read-only table, as read
    assert first == model_read(good)[0]


def test_the_table_memos_are_bounded(monkeypatch) -> None:
    forget()
    monkeypatch.setattr(reading, "_TABLE_LIMIT", 2)
    places = ["PAR", "BRE", "MAR", "BUR", "PIC"]
    for place in places:
        doc = {"units": {"FRANCE": [f"A {place}"]}, "centers": {"FRANCE": ["PAR"]}}
        assert position_from_json(doc) == model_read(doc)
    assert len(reading._CENTRE_TABLES) == 1


def test_a_variant_with_its_own_unit_reader_reads_alike() -> None:
    forget()
    doc = {"variant": "arpiesse", "units": {"FRANCE": ["A PAR"]}}
    for _ in range(2):
        assert outcome(position_from_json, doc) == outcome(model_read, doc)


def test_the_initial_position_reads_alike() -> None:
    start = Position.initial()
    doc = {"units": {p: [f"{u.type.letter} {M.loc_name(u.loc)}"
                         for u in start.units.values() if u.power == p] for p in POWERS},
           "centers": {p: [M.loc_name(c) for c, o in start.centers.items() if o == p]
                       for p in POWERS}}
    for _ in range(2):
        assert outcome(position_from_json, doc) == outcome(model_read, doc)
        assert position_from_json(doc)[0] == start


class Text(str):
    """A string that is not a JSON string: the model's to read."""


@pytest.mark.parametrize("changes", [
    {"orders": [["A PAR H"]]},
    {"orders": {"FRANCE": "A PAR H"}},
    {"orders": {"FRANCE": [Text("A PAR H")]}},
    {"centers": {"FRANCE": {"PAR": True}}},
    {"centers": {"FRANCE": [Text("PAR")]}},
    {"units": {"FRANCE": ("A PAR",)}},
    {"units": {"FRANCE": [Text("A PAR")]}},
    {"contested": ("BEL",)},
    {"contested": [Text("BEL")]},
    {"contested": None},
    {"units": None},
], ids=repr)
def test_every_list_of_a_wrong_shape_is_the_models(changes: dict[str, Any]) -> None:
    doc = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "centers": {"FRANCE": ["PAR"]},
           "orders": {"FRANCE": ["A PAR H"]}, "contested": [], **changes}
    assert _plain_fields(doc) is None
    assert outcome(position_from_json, doc) == outcome(model_read, doc)
