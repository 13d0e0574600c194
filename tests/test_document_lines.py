"""The next position of ``calhamer adjudicate --jsonl`` written as JSON text directly
(``formats.writing._position_line``) holds to ``position_to_json``, byte for byte, on boards
the random games do not reach: powers the map does not know, and a centre where the map has
none."""

from __future__ import annotations

import json

from calhamer.formats import position_to_json
from calhamer.formats.writing import _map_json, _position_line
from calhamer.map import UnitType, load_map
from calhamer.position import Position, Unit

M = load_map("standard")


def compact(position: Position, rules: str | None) -> str:
    return json.dumps(position_to_json(position, rules), separators=(",", ":"))


def test_powers_the_map_does_not_know_are_written_after_its_own_sorted() -> None:
    units = {M.province_of(M.loc("PAR")): Unit("ZZZ", UnitType.ARMY, M.loc("PAR")),
             M.province_of(M.loc("BRE")): Unit("FRANCE", UnitType.FLEET, M.loc("BRE")),
             M.province_of(M.loc("STP/SC")): Unit("AAA", UnitType.FLEET, M.loc("STP/SC")),
             M.province_of(M.loc("MOS")): Unit("AAA", UnitType.ARMY, M.loc("MOS"))}
    centres = {M.province_of(M.loc(code)): power for code, power in
               [("PAR", "ZZZ"), ("BRE", "FRANCE"), ("MOS", "AAA"), ("STP", "AAA"),
                ("LON", "ENGLAND")]}
    position = Position(M, Position.initial().phase, units, centres)
    for rules in (None, "datc"):
        assert _position_line(position, rules, _map_json(M)) == compact(position, rules)


def test_a_centre_where_the_map_has_none_is_left_to_position_to_json() -> None:
    centres = {M.province_of(M.loc("BUR")): "FRANCE"}
    position = Position(M, Position.initial().phase, {}, centres)
    assert _position_line(position, "datc", _map_json(M)) is None


def test_the_starting_board_is_written_as_position_to_json_writes_it() -> None:
    position = Position.initial()
    assert _position_line(position, "datc", _map_json(M)) == compact(position, "datc")
