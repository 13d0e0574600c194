"""The output document's ``dislodged`` entries: each dislodged unit with its power, the
retreats open to it and whether it was destroyed at once (issue 32 item 2: a destroyed neutral
is listed, so that a tool can tell it from a unit never attacked; issue 30: the retreat options
in ``adjudicate --json`` and ``--jsonl``, hidden in fog-of-war views as the units are)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from calhamer.cli import main
from calhamer.formats import outcome_to_json, outcome_to_line, position_from_json, view_to_json
from calhamer.phases import adjudicate
from calhamer.report import phase_report
from calhamer.results import PhaseOutcome
from calhamer.views import gamemaster_view, power_view

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"


def conforms(doc: Any) -> None:
    schema = json.loads((SCHEMAS / "output-document.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)


def run(doc: dict[str, Any]) -> PhaseOutcome:
    position, orders, rules = position_from_json(doc)
    return adjudicate(position, orders, rules)


def cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict[str, Any],
             *args: str) -> dict[str, Any]:
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(doc))
    assert main(["adjudicate", str(path), *args]) == 0
    return json.loads(capsys.readouterr().out)


def cli_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: dict[str, Any]
              ) -> dict[str, Any]:
    path = tmp_path / "phases.jsonl"
    path.write_text(json.dumps(doc) + "\n")
    assert main(["adjudicate", str(path), "--jsonl"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    return json.loads(line)


# docs/formats.md's example: France dislodges the German army in Burgundy.
BURGUNDY: dict[str, Any] = {
    "units": {"ENGLAND": ["F LON"], "FRANCE": ["A PAR", "A MAR", "F BRE"],
              "GERMANY": ["A BUR", "A MUN"]},
    "centers": {"ENGLAND": ["LON"], "FRANCE": ["BRE", "MAR", "PAR"],
                "GERMANY": ["BER", "KIE", "MUN"]},
    "orders": {"FRANCE": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Picardy"],
               "GERMANY": ["A Bur H", "A Mun - Ruh"]},
}
BURGUNDY_ENTRY = {"unit": "A BUR", "power": "GERMANY", "retreats": ["BEL", "GAS", "MUN"],
                  "destroyed": False}

# standard-dp: France dislodges the neutral army in Belgium (destroyed at once), and Germany
# the French army in Holland, which must retreat but has nowhere to go (Belgium and the Ruhr
# are occupied, Kiel is where the attacker came from): two entries with no retreats, one
# destroyed and one not.
NEUTRAL: dict[str, Any] = {
    "variant": "standard-dp",
    "units": {"FRANCE": ["A PIC", "A BUR", "A HOL"], "GERMANY": ["A KIE", "A RUH"],
              "BELGIUM": ["A BEL"], "DENMARK": ["A DEN"]},
    "orders": {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel", "A Hol H"],
               "GERMANY": ["A Kie - Hol", "A Ruh S A Kie - Hol"]},
}


def test_issue_30_retreat_options_are_in_the_output_documents_dislodged_entries(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(BURGUNDY)
    doc = outcome_to_json(out, "datc")
    assert doc["dislodged"] == [BURGUNDY_ENTRY]
    conforms(doc)
    # --jsonl writes the same document, byte for byte, with the entries.
    assert outcome_to_line(out, "datc") == json.dumps(doc, separators=(",", ":"))
    assert cli_json(tmp_path, capsys, BURGUNDY, "--json")["dislodged"] == [BURGUNDY_ENTRY]
    assert cli_jsonl(tmp_path, capsys, BURGUNDY)["dislodged"] == [BURGUNDY_ENTRY]
    # The text report gives the same options.
    assert "A BUR (Germany): BEL, GAS, MUN" in phase_report(gamemaster_view(out))


def test_issue_30_a_fleets_retreat_options_name_its_coasts() -> None:
    doc = {"units": {"FRANCE": ["F MAO", "F GAS"], "ENGLAND": ["F BRE"]},
           "orders": {"FRANCE": ["F Gas - Bre", "F Mao S F Gas - Bre"]}}
    out = run(doc)
    (entry,) = outcome_to_json(out)["dislodged"]
    assert entry == {"unit": "F BRE", "power": "ENGLAND", "retreats": ["ENG", "PIC"],
                     "destroyed": False}
    doc = {"units": {"FRANCE": ["F MAO", "F WES"], "ENGLAND": ["F SPA/SC"]},
           "orders": {"FRANCE": ["F Wes - Spa/sc", "F Mao S F Wes - Spa/sc"]}}
    out = run(doc)
    (entry,) = outcome_to_json(out)["dislodged"]
    assert entry["retreats"] == ["LYO", "MAR", "POR"]
    assert outcome_to_line(out) == json.dumps(outcome_to_json(out), separators=(",", ":"))


def test_issue_32_a_destroyed_neutral_is_listed_in_the_output_as_destroyed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(NEUTRAL)
    doc = outcome_to_json(out, "datc")
    entries = doc["dislodged"]
    by_unit = {e["unit"]: e for e in entries}
    # The neutral army is destroyed at once: listed, with no retreat and the marker.
    assert by_unit["A BEL"] == {"unit": "A BEL", "power": "BELGIUM", "retreats": [],
                                "destroyed": True}
    # The French army in Holland must retreat, with nowhere to go: listed, not destroyed.
    assert by_unit["A HOL"] == {"unit": "A HOL", "power": "FRANCE", "retreats": [],
                                "destroyed": False}
    # A unit never attacked (Denmark's) is not listed.
    assert set(by_unit) == {"A BEL", "A HOL"}
    # The retreat phase's own list holds the units due to retreat alone (docs/formats.md).
    assert doc["next"]["dislodged"] == {"FRANCE": [{"unit": "A HOL", "attacker_from": "KIE"}]}
    conforms(doc)
    assert outcome_to_line(out, "datc") == json.dumps(doc, separators=(",", ":"))
    assert cli_json(tmp_path, capsys, NEUTRAL, "--json")["dislodged"] == entries
    assert cli_jsonl(tmp_path, capsys, NEUTRAL)["dislodged"] == entries
    # The gamemaster's text report says so too.
    assert "Belgium: A BEL (destroyed: it may not retreat)" in phase_report(gamemaster_view(out))


def test_issue_30_views_give_retreat_options_where_the_view_is_the_whole_truth(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(BURGUNDY)
    for power in ("GERMANY", "FRANCE"):
        assert view_to_json(power_view(out, power))["dislodged"] == [BURGUNDY_ENTRY]
    assert cli_json(tmp_path, capsys, BURGUNDY, "--json", "--as", "Germany")["dislodged"] == [
        BURGUNDY_ENTRY]
    # In standard-dp the destroyed neutral is in every view, as everything is.
    views = outcome_to_json(run(NEUTRAL), views=True)["views"]
    for view in views.values():
        assert {"unit": "A BEL", "power": "BELGIUM", "retreats": [], "destroyed": True} in (
            view["dislodged"])


# Under fog: England dislodges the German army in Belgium; France stands in Burgundy.
FOG: dict[str, Any] = {
    "variant": "kriegsplomacy", "phase": "S1901M",
    "units": {"ENGLAND": ["A PIC", "F NTH"], "GERMANY": ["A BEL"], "FRANCE": ["A BUR"]},
    "orders": {"ENGLAND": ["A Pic - Bel", "F Nth S A Pic - Bel"]},
}


def test_issue_30_retreat_options_are_hidden_in_fog_views_as_the_units_are(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(FOG)
    doc = outcome_to_json(out, "datc")
    # The gamemaster's document and view: the whole truth (Picardy is the attacker's origin,
    # Burgundy is occupied).
    truth = {"unit": "A BEL", "power": "GERMANY", "retreats": ["HOL", "RUH"],
             "destroyed": False}
    assert doc["dislodged"] == [truth]
    assert view_to_json(gamemaster_view(out))["dislodged"] == [truth]
    conforms(doc)
    # Germany knows its army was dislodged, not where it may go (rule 3.6): no options.
    assert doc["views"]["GERMANY"]["dislodged"] == [
        {"unit": "A BEL", "power": "GERMANY", "destroyed": False}]
    # Nobody else is told of the unit, nor of its options.
    assert set(doc["views"]) == {"ENGLAND", "FRANCE", "GERMANY"}
    for power in ("ENGLAND", "FRANCE"):
        assert doc["views"][power]["dislodged"] == []
    told = cli_json(tmp_path, capsys, FOG, "--json", "--as", "Germany")
    assert told["dislodged"] == [{"unit": "A BEL", "power": "GERMANY", "destroyed": False}]
    assert cli_json(tmp_path, capsys, FOG, "--json", "--as", "France")["dislodged"] == []


def test_issue_32_a_destroyed_neutral_under_fog_is_told_only_to_the_gamemaster() -> None:
    doc = {**NEUTRAL, "variant": "fog-dp"}
    out = run(doc)
    written = outcome_to_json(out, "datc")
    assert {"unit": "A BEL", "power": "BELGIUM", "retreats": [], "destroyed": True} in (
        written["dislodged"])
    assert {"unit": "A BEL", "power": "BELGIUM", "retreats": [], "destroyed": True} in (
        view_to_json(gamemaster_view(out))["dislodged"])
    for power, view in written["views"].items():
        assert all(e["unit"] != "A BEL" for e in view["dislodged"]), power
    # France's own dislodged army in Holland: told, without its options.
    assert written["views"]["FRANCE"]["dislodged"] == [
        {"unit": "A HOL", "power": "FRANCE", "destroyed": False}]
    conforms(written)
