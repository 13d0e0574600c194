"""Issue 28, item 4: ``calhamer board check`` finds every problem of a board, one line each
with its place (file, table, entry), exits with 1 when there is one, and never shows a
traceback. One small broken board per kind of problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calhamer.cli import main

GOOD = """\
[map]
name = "pond"
title = "The Pond"
victory_centers = 3
start_phase = "S1901M"

[powers.RED]
name = "Redmark"

[powers.BLUE]
name = "Bluemark"

[provinces]
WES = { name = "West Sea", type = "sea" }
LAG = { name = "Lagoon", type = "sea" }
RAV = { name = "Ravel", type = "coast", sc = true, home = "RED" }
RIM = { name = "Rimmon", type = "land", sc = true, home = "RED" }
MID = { name = "Midmoor", type = "coast", sc = true, coasts = ["NC", "SC"] }
BAY = { name = "Baymouth", type = "coast", sc = true, home = "BLUE" }
BRE = { name = "Brenn", type = "land", sc = true, home = "BLUE" }

[army]
RAV = "RIM"
RIM = "RAV MID"
MID = "RIM BRE"
BAY = "BRE"
BRE = "BAY MID"

[fleet]
WES = "RAV LAG BAY"
LAG = "WES RAV MID/NC BAY"
RAV = "WES LAG"
"MID/NC" = "LAG"
"MID/SC" = "BAY"
BAY = "WES LAG MID/SC"

[start.units]
RED = ["F RAV", "A RIM"]
BLUE = ["F BAY", "A BRE"]
"""


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *extra: str
          ) -> tuple[int, list[str]]:
    path = tmp_path / "pond.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["board", "check", str(path), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out.splitlines()


def problems(tmp_path, capsys, text: str, *extra: str) -> list[str]:
    code, lines = check(tmp_path, capsys, text, *extra)
    assert code == 1, lines
    assert lines[-1].endswith(("problem", "problems"))
    for line in lines[:-1]:
        assert line.startswith(str(tmp_path / "pond.toml")) or line.startswith(str(tmp_path))
    return lines[:-1]


def only(lines: list[str], *words: str) -> str:
    hits = [line for line in lines if all(w in line for w in words)]
    assert len(hits) == 1, lines
    return hits[0]


def test_item4_a_good_board_has_no_problems(tmp_path, capsys):
    code, lines = check(tmp_path, capsys, GOOD)
    assert code == 0 and lines == [f"{tmp_path / 'pond.toml'}: no problems (7 provinces, 5 "
                                   "supply centres, 2 powers)"]


def test_item4_every_problem_at_once_each_with_its_place(tmp_path, capsys):
    text = (GOOD.replace('RIM = "RAV MID"', 'RIM = "RAV MID LAG"')
            .replace('type = "land", sc = true, home = "BLUE"', 'type = "mud", home = "BLUE"')
            .replace('RED = ["F RAV", "A RIM"]', 'RED = ["F RAV", "A RIM", "A WES"]'))
    lines = problems(tmp_path, capsys, text)
    assert len(lines) >= 3
    only(lines, "[provinces] BRE.type")
    only(lines, "[army] RIM", "LAG is sea")
    only(lines, "[start.units] RED", "'A WES'")


def test_item4_what_the_model_refuses(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('victory_centers = 3',
                                                    'victory_centers = "three"'))
    assert "[map] victory_centers" in only(lines, "victory_centers")


def test_item4_not_toml_and_no_file(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('[powers.RED]', '[powers.RED'))
    assert "not valid TOML" in only(lines, "TOML")
    code = main(["board", "check", str(tmp_path / "none.toml")])
    assert code == 1 and "no such file" in capsys.readouterr().out


def test_item4_a_place_that_does_not_exist(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('BAY = "BRE"', 'BAY = "BRE ATL"'))
    assert "'ATL' is not a province or coast" in only(lines, "[army] BAY")


def test_item4_an_army_into_a_sea(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('RAV = "RIM"', 'RAV = "RIM WES"'))
    assert "WES is sea, where armies never go" in only(lines, "[army] RAV")


def test_item4_a_fleet_into_land(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('RAV = "WES LAG"', 'RAV = "WES LAG RIM"'))
    assert "RIM is land, where fleets never go" in only(lines, "[fleet] RAV")


def test_item4_a_split_coast_not_named(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('"MID/SC" = "BAY"', 'MID = "BAY"'))
    assert "name the coast" in only(lines, "[fleet] MID")


def test_item4_a_coast_the_province_does_not_have(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('"MID/SC" = "BAY"', '"MID/EC" = "BAY"'))
    assert "'MID/EC' is not a province or coast" in only(lines, "[fleet] MID/EC")


def test_item4_an_edge_listed_one_way(tmp_path, capsys):
    both_ways = GOOD.replace('RAV = "RIM"', 'RAV = "RIM"').replace(
        'MID = "RIM BRE"', 'MID = "RIM BRE"').replace('BAY = "BRE"', 'BAY = "BRE"')
    # Every army edge of GOOD is written both ways; drop one side of RIM-MID.
    lines = problems(tmp_path, capsys, both_ways.replace('MID = "RIM BRE"', 'MID = "BRE"'))
    assert "lacks RIM" in only(lines, "[army] MID", "listed only as RIM -> MID")


def test_item4_an_unreachable_province(tmp_path, capsys):
    text = GOOD.replace('BRE = { name', 'ISL = { name = "Isle", type = "land" }\nBRE = { name')
    lines = problems(tmp_path, capsys, text)
    assert "cannot be reached" in only(lines, "[provinces] ISL")


def test_item4_a_home_centre_that_is_not_a_centre(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace(
        'type = "land", sc = true, home = "BLUE"', 'type = "land", home = "BLUE"'))
    assert "not a supply centre" in only(lines, "[provinces] BRE")


def test_item4_a_home_of_no_power(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('home = "BLUE" }\nBRE', 'home = "BLU" }\nBRE'))
    assert "'BLU' is not a power" in only(lines, "[provinces] BAY")


@pytest.mark.parametrize(("unit", "why"), [
    ("A WES", "an army cannot stand on WES"),
    ("F RIM", "a fleet cannot stand in RIM"),
    ("F MID", "name the fleet's coast"),
    ("A XYZ", "XYZ is not a province"),
    ("A BRE", "BRE already holds a unit"),
    ("Army RIM", 'a unit is written "A PAR"'),
    ("2A WES", "an army cannot stand on WES"),  # a stack's count is the variant's to read
])
def test_item4_a_start_unit_where_it_cannot_stand(tmp_path, capsys, unit, why):
    text = GOOD.replace('BLUE = ["F BAY", "A BRE"]', f'BLUE = ["F BAY", "A BRE", "{unit}"]')
    lines = problems(tmp_path, capsys, text)
    assert why in only(lines, "[start.units] BLUE", unit)


def test_item4_start_units_of_no_power(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD + 'GREEN = ["A MID"]\n')
    only(lines, "[start.units] GREEN", "not a power")


def test_item4_start_centres_that_are_no_centres(tmp_path, capsys):
    text = GOOD + '\n[start.centers]\nRED = ["RAV", "WES"]\nBLUE = ["BAY", "RAV"]\n'
    lines = problems(tmp_path, capsys, text)
    only(lines, "[start.centers] RED", "WES is not a supply centre")
    only(lines, "[start.centers] BLUE", "RAV is owned by RED too")


def test_item4_a_coast_no_fleet_reaches(tmp_path, capsys):
    text = GOOD.replace('"MID/SC" = "BAY"\n', "").replace('BAY = "WES LAG MID/SC"',
                                                         'BAY = "WES LAG"')
    lines = problems(tmp_path, capsys, text)
    only(lines, "[fleet] MID/SC", "a coast with no neighbours")


def test_item4_more_centres_to_win_than_the_board_has(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace("victory_centers = 3",
                                                    "victory_centers = 9"))
    only(lines, "[map] victory_centers", "more than the board's 5 centres")


def test_item4_lower_case_codes(tmp_path, capsys):
    lines = problems(tmp_path, capsys, GOOD.replace('BRE = { name', 'bre = { name'))
    assert any("codes are upper case" in line for line in lines), lines


def test_item4_a_geometry_that_misdraws_the_board(tmp_path, capsys):
    """Adjacency both ways: RAV and RIM are adjacent but drawn apart; RIM and BRE are not
    adjacent but drawn touching; MID's split coasts have no fleet places."""
    square = {"RAV": (0, 0), "RIM": (200, 0), "WES": (0, 100), "LAG": (100, 100),
              "MID": (200, 100), "BAY": (100, 200), "BRE": (200, 200)}
    provinces = {}
    for code, (x, y) in square.items():
        w = 90 if code == "RAV" else 100  # RAV stops short of RIM
        provinces[code] = {"d": f"M{x},{y} {x + w},{y} {x + w},{y + 100} {x},{y + 100}Z",
                           "unit": [x + 50, y + 50], "sc": [x + 50, y + 70]}
    provinces["BRE"]["d"] = "M200,200 300,200 300,300 200,300Z"
    provinces["RIM"]["d"] = "M200,0 300,0 300,100 200,100Z"
    provinces["RIM"]["d"] = "M200,0 300,0 300,200 200,200Z"  # reaches down to BRE
    doc = {"format": "calhamer-geometry/1", "map": "pond", "width": 300, "height": 300,
           "provinces": provinces}
    geometry = tmp_path / "pond.geometry.json"
    geometry.write_text(json.dumps(doc))
    lines = problems(tmp_path, capsys, GOOD, "--geometry", str(geometry))
    only(lines, "RAV and RIM are adjacent but their shapes do not touch")
    only(lines, "BRE and RIM touch but are not adjacent")
    only(lines, "MID/NC has no place for a fleet")


def test_item4_the_standard_drawing_passes_and_a_bad_file_is_one_line(tmp_path, capsys):
    from calhamer.render.geometry import _packaged  # noqa: F401  (the file shipped)

    standard = Path(__file__).resolve().parents[1] / "src/calhamer/maps/standard.geometry.json"
    assert main(["board", "check", "standard", "--geometry", str(standard)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "calhamer-geometry/1"}')
    assert main(["board", "check", "standard", "--geometry", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "not a calhamer-geometry/1 file" in out and "Traceback" not in out
