"""Civil-disorder removals by the ``home-distance`` rule (godip's and vDiplomacy's), offered as
the rule option ``Rules.civil_disorder`` and the flat variant option ``civil_disorder``
(``docs/rules/editions.md``, "Civil disorder").

The rule: a power that owes removals and ordered too few loses the units farthest from its
home centres (owned or not) by plain graph distance (edges of any kind, whatever the unit's
type); at equal distance fleets first, then by province code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.notation import format_unit
from calhamer.phases import adjudicate
from calhamer.results import SUCCEEDS
from calhamer.rules import DATC, DisorderDistance, Rules, find_rules
from calhamer.variants import find_variant

HOME = DATC.with_options(civil_disorder=DisorderDistance.HOME_DISTANCE)


def winter(units: dict[str, list[str]], centers: dict[str, list[str]],
           variant: str = "standard") -> dict[str, Any]:
    return {"variant": variant, "phase": "W1901A", "units": units, "centers": centers}


def removed(doc: dict[str, Any], rules: Rules | str | None = None) -> list[str]:
    """The units the civil-disorder rule removes in the winter ``doc`` (no orders given)."""
    position, orders, named = position_from_json(doc)
    out = adjudicate(position, orders, rules if rules is not None else named)
    m = position.map
    gone = []
    for results in out.results.values():
        for r in results:
            if "civil-disorder" in r.reason:
                assert r.result == SUCCEEDS
                gone.append(r.canonical.removesuffix(" D"))
    # Each removal is gone from the board after the winter.
    after = {format_unit(m, u) for u in out.next.units.values()}
    assert not after & set(gone)
    return gone


def test_home_distance_removes_the_units_farthest_from_the_home_centres() -> None:
    # England owns Norway only, so it must remove two of its three units. Counted to its home
    # centres: Finland 3 (Fin-Nwy-Nth-Edi), the North Sea 1, London 0: Finland and the North
    # Sea go. Counted to the centre it owns (the 2023 rule), London is the farthest (2).
    doc = winter({"ENGLAND": ["A LON", "F NTH", "A FIN"]}, {"ENGLAND": ["NWY"]})
    assert removed(doc, HOME) == ["A FIN", "F NTH"]
    assert removed(doc, "datc") == ["A LON", "F NTH"]


def test_home_distance_breaks_a_tie_by_removing_fleets_first() -> None:
    # A Bel and F Pic are both two edges from London (by the Channel): the fleet goes, though
    # BEL comes before PIC. (Counted to the centres England owns, London and Brest, the 2023
    # rule finds Picardy one edge from Brest and removes the army.)
    doc = winter({"ENGLAND": ["A LON", "A BEL", "F PIC"]}, {"ENGLAND": ["LON", "BRE"]})
    assert removed(doc, HOME) == ["F PIC"]
    assert removed(doc, "datc") == ["A BEL"]


def test_home_distance_breaks_a_tie_of_one_type_by_province_code() -> None:
    # Two fleets one edge from St Petersburg: BOT comes before FIN by code, though Finland
    # comes before the Gulf of Bothnia by name (the order the 2023 rule uses).
    doc = winter({"RUSSIA": ["A MOS", "F BOT", "F FIN"]}, {"RUSSIA": ["MOS", "STP"]})
    assert removed(doc, HOME) == ["F BOT"]
    assert removed(doc, "datc") == ["F FIN"]


def test_home_distance_ignores_the_unit_type_where_the_1971_rule_counts_it() -> None:
    # F Pie is one edge from Venice by land but two from a home centre by sea (Pie-Tus-Rom);
    # A Boh is two edges from Venice (Boh-Tyr-Ven). The 1971 rule counts the fleet by sea: a
    # tie of two, the fleet first. Here the fleet is one away, so the army goes. (The 2023
    # rule counts to the centres Italy owns, Rome and Munich: the army is one from Munich.)
    doc = winter({"ITALY": ["A VEN", "F PIE", "A BOH"]}, {"ITALY": ["ROM", "MUN"]})
    assert removed(doc, "1971") == ["F PIE"]
    assert removed(doc, "datc") == ["F PIE"]
    assert removed(doc, HOME) == ["A BOH"]


def test_home_distance_is_a_flat_variant_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    units, centers = {"RUSSIA": ["A MOS", "F BOT", "F FIN"]}, {"RUSSIA": ["MOS", "STP"]}
    file = tmp_path / "godip-removals.toml"
    file.write_text('board = "standard"\n\n[options]\ncivil_disorder = "home-distance"\n')
    spec = "standard+standard?civil_disorder=home-distance"
    for name in (str(file), spec):
        variant = find_variant(name)
        assert variant.phase_rules(find_rules("datc")).civil_disorder is (
            DisorderDistance.HOME_DISTANCE)
        assert variant.phase_rules(find_rules("1971")).civil_disorder is (
            DisorderDistance.HOME_DISTANCE)
        assert removed(winter(units, centers, variant.name)) == ["F BOT"]
    assert find_variant(str(file)).name == spec
    # Through the command line, on a phase document of that variant.
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(winter(units, centers, spec)))
    assert main(["adjudicate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["canonical"] for r in out["results"]["RUSSIA"]] == ["F BOT D"]
    assert out["next"]["units"]["RUSSIA"] == ["F FIN", "A MOS"]  # by province code
    # With modules too, and over flexible builds' own rule (Kriegsplomacy 2.3).
    flexible = tmp_path / "flexible.toml"
    flexible.write_text('board = "kriegsplomacy"\nmodules = ["fog", "flexible-builds"]\n\n'
                        '[options]\ncivil_disorder = "home-distance"\n')
    rules = find_variant(str(flexible)).phase_rules(find_rules("datc"))
    assert rules.civil_disorder is DisorderDistance.HOME_DISTANCE
    assert not rules.builds_in_home_centres_only
    assert find_variant("kriegsplomacy").phase_rules(find_rules("1971")).civil_disorder is (
        DisorderDistance.OWNED_CENTRE_ANY_ROUTE)
    # A bad value is refused with what the option takes.
    with pytest.raises(CalhamerError, match="civil_disorder must be one of"):
        find_variant("standard+standard?civil_disorder=nearest")
