"""godip's 22 variants from end to end (issue 30, "Done when" and item 3).

- the command line: ``calhamer simulate --variant NAME`` plays each (random and greedy bots),
  and the game it writes replays and verifies in the library;
- the library: a game of each played through :class:`calhamer.Game` as a program using calhamer
  would, with orders typed as godip writes them (lower-case abbreviations, ``jor/ec``), read and
  adjudicated (the random games to each variant's end or 1950 are
  tests/test_godip_boards.py::test_item_4_each_variant_plays_a_random_game_to_its_end);
- phase documents in godip's notations through ``calhamer adjudicate``, one test per notation:
  coasts (``jor/ec``), power names in several words with and without their spaces, years 0 and
  1, Hundred's phase codes (``Y1425M``, ``Y1425R``, ``Y1430M``, ``Y1430R``, ``W1430A``);
- Western World 901's ``Neutral`` garrisons as a phase document names them, and
  Unconstitutional's, rebuilt as its published rules say.

The web judge's games are tests/server/test_godip_web.py.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from calhamer import Game, Position
from calhamer.cli import main
from calhamer.map import ARMY
from calhamer.phases import adjudicate
from calhamer.pieces import Phase
from calhamer.variants import find_variant, shipped_files

GODIP = sorted(n for n, p in shipped_files().items() if p.parent.name == "godip")
ROOT = Path(__file__).resolve().parent.parent


def _simulate(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
              *extra: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.jsonl"
    code = main(["simulate", "--games", "1", "--variant", name, "--workers", "1", "--seed",
                 "godip", "-q", "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert code == 0, err
    [line] = out.read_text(encoding="utf-8").splitlines()
    return json.loads(line)  # type: ignore[no-any-return]


def _replayed(line: dict[str, Any], name: str) -> Game:
    assert line["variant"] == name
    game = Game.from_json(line["game"])
    assert game.variant == name and game.is_done() and game.result() is not None
    assert all(check.ok for check in game.verify())
    assert line["result"]["ending"] in ("solo", "draw", "last-year")
    return game


# -- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize("name", GODIP)
def test_calhamer_simulate_plays_each_godip_variant(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    name: str) -> None:
    # The default year limit: four movement years after the variant's start.
    game = _replayed(_simulate(tmp_path, capsys, name), name)
    first = Game.new(name)
    assert game.phases[0] == first.phase
    assert len(game.phases) >= 8 or game.result().ending == "solo"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["youngstown-redux", "twenty-twenty", "hundred", "chaos",
                                  "western-world-901", "north-sea-wars"])
def test_calhamer_simulate_plays_godip_variants_with_the_greedy_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    _replayed(_simulate(tmp_path, capsys, name, "--policy", "greedy"), name)


def test_calhamer_simulate_plays_a_godip_variant_to_1950_as_a_command(tmp_path: Path) -> None:
    # The installed command's own process, as a user types it.
    out = tmp_path / "cold-war.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "calhamer", "simulate", "--variant", "cold-war", "--games", "1",
         "--max-year", "1950", "--workers", "1", "-q", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    game = _replayed(json.loads(out.read_text(encoding="utf-8")), "cold-war")
    assert game.result().ending == "solo" or game.current.phase.year > 1950  # type: ignore[union-attr]


# -- the library, with orders as godip writes them ------------------------------------------


@pytest.mark.parametrize("name", GODIP)
def test_the_library_plays_each_godip_variant_with_orders_in_godips_spelling(name: str) -> None:
    game = Game.new(name)
    rng = random.Random(name)
    start_year = game.current.phase.year
    while not game.is_done() and game.current.phase.year < start_year + 3 * _step(name):
        for power in game.powers():
            lines = [rng.choice(orders).lower()
                     for orders in game.possible_order_texts(power).values() if orders]
            if game.current.phase.is_adjustment:
                lines = lines[:abs(game.orders_due(power))]
            game.set_orders(power, lines)
        before = game.phase
        game.process()
        record = game.history[-2]
        assert record.phase == before
        # Every order typed in lower case was read: none is reported as unreadable.
        for power, results in (record.results or {}).items():
            for entry in results:
                assert "not understood" not in str(entry), (before, power, entry)
    assert all(check.ok for check in game.verify())


def _step(name: str) -> int:
    return 5 if name == "hundred" else 1


# -- phase documents in godip's notations, through calhamer adjudicate ----------------------


def _adjudicate(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                doc: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["adjudicate", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_notation_coasts_as_godip_writes_them(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # Western World 901: a fleet on Jorvik's east coast sails to the North Sea.
    out = _adjudicate(tmp_path, capsys, {
        "variant": "western-world-901", "phase": "S901M",
        "units": {"Kingdom of Denmark": ["F jor/ec"]}, "centers": {},
        "orders": {"Kingdom of Denmark": ["F jor/ec - ngs"]}})
    [result] = out["results"]["KINGDOMOFDENMARK"]
    assert (result["canonical"], result["result"]) == ("F JOR/EC - NGS", "succeeds")
    assert out["next"]["units"]["KINGDOMOFDENMARK"] == ["F NGS"]
    # Vietnam War's Mekong: a coast named RIVER.
    out = _adjudicate(tmp_path, capsys, {
        "variant": "vietnam-war", "phase": "S1955M", "centers": {}, **_vietnam_river()})
    [(power, [result])] = out["results"].items()
    assert (result["canonical"], result["result"]) == ("F MEO/RIVER - PAK", "succeeds")
    assert out["next"]["units"][power] == ["F PAK"]


def _vietnam_river() -> dict[str, Any]:
    m = find_variant("vietnam-war").board()
    power = m.powers[0].name
    return {"units": {power: ["F meo/river"]}, "orders": {power: ["F meo/river - pak"]}}


@pytest.mark.parametrize("spelling", ["Kingdom of Denmark", "KingdomofDenmark",
                                      "KINGDOMOFDENMARK", "kingdom of denmark"])
def test_notation_power_names_with_or_without_spaces(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str],
                                                     spelling: str) -> None:
    out = _adjudicate(tmp_path, capsys, {
        "variant": "western-world-901", "phase": "S901M",
        "units": {spelling: ["A vik"], "Eastern Roman Empire": ["F att"]},
        "centers": {spelling: ["vik"]},
        "orders": {spelling: ["A vik H"], "EasternRomanEmpire": ["F att H"]}})
    assert set(out["results"]) == {"KINGDOMOFDENMARK", "EASTERNROMANEMPIRE"}
    assert out["next"]["units"]["KINGDOMOFDENMARK"] == ["A VIK"]


@pytest.mark.parametrize(("variant", "power", "unit", "phase", "following"), [
    ("north-sea-wars", "Norse", "F sor", "S0M", "F0M"),
    ("north-sea-wars", "Norse", "F sor", "F0M", "S1M"),
    ("ancient-mediterranean", "Rome", "F nea", "S1M", "F1M"),
    ("ancient-mediterranean", "Rome", "F nea", "F1M", "S2M"),
])
def test_notation_years_0_and_1(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                variant: str, power: str, unit: str, phase: str,
                                following: str) -> None:
    out = _adjudicate(tmp_path, capsys, {"variant": variant, "phase": phase,
                                         "units": {power: [unit]}, "centers": {},
                                         "orders": {power: [f"{unit} H"]}})
    assert out["phase"] == phase and out["next"]["phase"] == following
    # ("S0000M" and "S0001M" are the same phases.)
    long = phase[0] + phase[1:-1].zfill(4) + phase[-1]
    again = _adjudicate(tmp_path, capsys, {"variant": variant, "phase": long,
                                           "units": {power: [unit]}, "centers": {}})
    assert again["phase"] == phase


# Orders as godip and diplicity write them: the province, a word for the kind of order, the
# provinces it names (no unit type, no arrow), read as calhamer's own on Youngstown Redux.
GODIP_ORDER_WORDS = [
    # phase, units, dislodged, orders, canonical results, the next phase's units
    ("S1901M", {"Britain": ["F not", "A yor", "F hol", "F lon", "F edi"]}, None,
     ["not Convoy yor bel", "yor MoveViaConvoy bel", "hol Support yor bel", "lon Move eng",
      "edi Support not"],
     {"F NOT C A YOR - BEL": "succeeds", "A YOR - BEL VIA CONVOY": "succeeds",
      "F HOL S A YOR - BEL": "succeeds", "F LON - ENG": "succeeds",
      "F EDI S F NOT": "succeeds"},
     ["A BEL", "F EDI", "F ENG", "F HOL", "F NOT"]),
    ("S1901R", {"Britain": ["F not"]}, {"Britain": ["A bel"]}, ["bel Move pic"],
     {"A BEL R PIC": "succeeds"}, ["F NOT", "A PIC"]),
    ("W1901A", {}, None, ["lon Build Fleet", "edi Build Army", "lie Build Army"],
     {"BUILD F LON": "succeeds", "BUILD A EDI": "succeeds", "BUILD A LIE": "succeeds"},
     ["A EDI", "A LIE", "F LON"]),
    ("W1901A", {"Britain": ["F lon", "F edi"]}, None, ["edi Disband"],
     {"F EDI D": "succeeds"}, ["F LON"]),
]


@pytest.mark.parametrize(("phase", "units", "dislodged", "orders", "results", "after"),
                         GODIP_ORDER_WORDS, ids=["movement", "retreats", "builds", "removals"])
def test_notation_godips_order_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     phase: str, units: dict[str, list[str]],
                                     dislodged: dict[str, list[str]] | None,
                                     orders: list[str], results: dict[str, str],
                                     after: list[str]) -> None:
    centres = ["lon"] if orders == ["edi Disband"] else ["lon", "edi", "lie"]
    doc: dict[str, Any] = {"variant": "youngstown-redux", "phase": phase, "units": units,
                           "centers": {"Britain": centres}, "orders": {"Britain": orders}}
    if dislodged is not None:
        doc["dislodged"] = dislodged
    out = _adjudicate(tmp_path, capsys, doc)
    got = {r["canonical"]: r["result"] for r in out["results"]["BRITAIN"]}
    assert got == results
    assert out["next"]["units"]["BRITAIN"] == after


# Hundred's calendar: a year of movement every five years, its retreats, and a winter after
# the years ending in 0 only.
HUNDRED_CODES = [
    # phase, units, dislodged, orders, the next phase
    ("Y1425M", {"England": ["A nom", "A cal"], "France": ["A par"]}, None,
     {"England": ["A nom - par", "A cal S A nom - par"]}, "Y1425R"),
    ("Y1425R", {"England": ["A par", "A cal"]}, {"France": ["A par"]}, {}, "Y1430M"),
    ("Y1430M", {"England": ["A nom", "A cal"], "France": ["A par"]}, None,
     {"England": ["A nom - par", "A cal S A nom - par"]}, "Y1430R"),
    # England takes Paris after the year ending in 0: three centres, two units, a build.
    ("Y1430R", {"England": ["A par", "A cal"]}, {"France": ["A par"]}, {}, "W1430A"),
    ("W1430A", {"England": ["F lon"]}, None, {"England": ["Build A cal"]}, "Y1435M"),
]


@pytest.mark.parametrize(("phase", "units", "dislodged", "orders", "following"), HUNDRED_CODES,
                         ids=[c[0] for c in HUNDRED_CODES])
def test_notation_hundreds_phase_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       phase: str, units: dict[str, list[str]],
                                       dislodged: dict[str, list[str]] | None,
                                       orders: dict[str, list[str]], following: str) -> None:
    doc: dict[str, Any] = {"variant": "hundred", "phase": phase, "units": units,
                           "centers": {"England": ["lon", "cal"]}, "orders": orders}
    if dislodged is not None:
        doc["dislodged"] = dislodged
    out = _adjudicate(tmp_path, capsys, doc)
    assert out["phase"] == phase and out["next"]["phase"] == following
    if phase.endswith("M"):
        [entry] = out["dislodged"]
        assert (entry["unit"], entry["power"]) == ("A PAR", "FRANCE") and entry["retreats"]
    if phase == "Y1430R":
        assert out["next"]["centers"]["ENGLAND"] == ["CAL", "LON", "PAR"]
    if phase == "Y1425R":
        assert out["next"]["centers"]["ENGLAND"] == ["CAL", "LON"]  # no change after 1425
    if phase == "W1430A":
        assert out["next"]["units"]["ENGLAND"] == ["A CAL", "F LON"]


# -- Western World 901's Neutral and Unconstitutional's garrisons ----------------------------


def test_western_world_901_neutral_garrisons_as_phase_documents_name_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An army of Neutral's in Armenia, attacked from Cappadocia with support from Jazira.
    start = Position.initial(variant=find_variant("western-world-901"))
    m = start.map
    assert m.find_power("Neutral") == "NEUTRAL"
    garrisons = [u for u in start.units.values() if u.power == "NEUTRAL"]
    assert len(garrisons) == 28 and all(u.type is ARMY for u in garrisons)
    spring = _adjudicate(tmp_path, capsys, {
        "variant": "western-world-901", "phase": "S901M",
        "units": {"Neutral": ["A arm"], "Abbasid Caliphate": ["A cap", "A jaz"]},
        "centers": {"Neutral": ["arm"]},
        "orders": {"Neutral": ["A arm - cap"],
                   "Abbasid Caliphate": ["A cap - arm", "A jaz S A cap - arm"]}})
    # The order given for it is not played: it holds.
    results = {r["canonical"]: r["result"] for r in spring["results"]["NEUTRAL"]}
    assert (results["A ARM H"], results["A ARM - CAP"]) == ("fails", "invalid")  # dislodged
    [dislodged] = spring["dislodged"]
    assert (dislodged["unit"], dislodged["power"], dislodged["destroyed"]) == (
        "A ARM", "NEUTRAL", True)
    # Gone with no retreat to order: the phase after the spring is the fall.
    assert spring["next"]["phase"] == "F901M" and "NEUTRAL" not in spring["next"]["units"]
    # The centre is Neutral's until the fall's end; the Abbasids leave, and in the winter the
    # army is rebuilt in the empty centre Neutral still owns.
    fall = dict(spring["next"])
    fall["orders"] = {"ABBASIDCALIPHATE": ["A arm - cap"]}
    fall["units"] = {"ABBASIDCALIPHATE": ["A arm"]}
    winter = _adjudicate(tmp_path, capsys, fall)
    assert winter["next"]["phase"] == "W901A"
    assert winter["next"]["centers"]["NEUTRAL"] == ["ARM"]
    after = _adjudicate(tmp_path, capsys, dict(winter["next"]))
    assert "A ARM" in after["next"]["units"]["NEUTRAL"]


def test_unconstitutional_neutrals_are_rebuilt_as_its_published_rules_say() -> None:
    # godip's code for Unconstitutional does not rebuild its neutral armies; its rules text
    # does ("This will be rebuilt if the SC is unowned during adjustment"), and calhamer
    # follows the rules (docs/rules/godip-variants.md).
    start = Position.initial(variant=find_variant("unconstitutional"))
    m = start.map
    assert m.power("NEUTRAL").garrison and m.power("NEUTRAL").rebuild
    garrison = next(u for u in start.units.values() if u.power == "NEUTRAL")
    units = {p: u for p, u in start.units.items() if u is not garrison}
    winter = adjudicate(start.replace(phase=Phase(1805, "F", "M"), units=units), {}).next
    assert winter.phase.is_adjustment
    after = adjudicate(winter, {}).after
    assert after.unit_at(garrison.loc) == garrison


@pytest.mark.parametrize(("phase", "following", "owned"), [
    ("S1901R", "F1901M", ["BUD", "TES", "VNN"]),  # no change after the spring
    ("F1901R", "W1901A", ["BUD", "BUL", "SER", "TES", "VNN"]),  # after the fall's
])
def test_centres_change_hands_after_the_fall_retreats(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      phase: str, following: str,
                                                      owned: list[str]) -> None:
    # Youngstown Redux: Austria's army stands in Serbia, a Turkish army dislodged from Bulgaria
    # retreats to Macedonia.
    out = _adjudicate(tmp_path, capsys, {
        "variant": "youngstown-redux", "phase": phase,
        "units": {"Austria": ["A ser", "A bul"]}, "dislodged": {"Turkey": ["A bul"]},
        "centers": {"Austria": ["bud", "tes", "vnn"], "Turkey": ["bul"]},
        "orders": {"Turkey": ["A bul - mac"]}})
    assert out["next"]["phase"] == following
    assert out["next"]["centers"]["AUSTRIA"] == owned
    assert out["next"]["units"]["TURKEY"] == ["A MAC"]


def test_the_centre_chart_keeps_long_power_names_in_one_column() -> None:
    """Western World 901's powers have names of up to 21 letters: the chart's numbers stay in
    one column, each name followed by at least one space, and the standard chart is as it was."""
    from calhamer.report import position_summary, totals_lines

    variant = find_variant("western-world-901")
    position = Position.initial(variant=variant)
    for lines in (position_summary(position), totals_lines(position)):
        rows = [line for line in lines if line.endswith(("units", "centres"))]
        assert len(rows) >= 9
        columns = {line.index(" centres") for line in rows}
        assert len(columns) == 1, rows
        for line in rows:
            name = line[4:line.index(" centres") - 3]
            assert name.endswith(" ") and not name.startswith(" ")
    standard = position_summary(Position.initial())
    assert "    Austria       3 centres   3 units" in standard
