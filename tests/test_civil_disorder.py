"""Civil-disorder removals by the ``home-distance`` rule (godip's and vDiplomacy's), offered as
the rule option ``Rules.civil_disorder`` and the flat variant option ``civil_disorder``
(``docs/rules/editions.md``, "Civil disorder").

The rule: a power that owes removals and ordered too few loses the units farthest from its
home centres (owned or not) by plain graph distance (edges of any kind, whatever the unit's
type); at equal distance fleets first, then by province code.
"""

from __future__ import annotations

import json
import os
import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json
from calhamer.notation import format_unit
from calhamer.phases import adjudicate
from calhamer.phases.adjustments import home_distance
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


# -- the distance on godip's graph, as its boards keep it -----------------------------------


def test_home_distance_counts_a_split_provinces_coasts_apart_as_godip_does() -> None:
    # Youngstown Redux: France owns Paris and Brest and must remove one of A Par, A Ara,
    # A Ade. Arabia's land is next to the Levant's land, whose coasts touch the Eastern
    # Mediterranean, but the Levant's land has no edge out to that sea in godip's graph (the
    # sea has one into it): Arabia is 7 from a French home centre, Aden 6. Counted with the
    # coasts merged into their province (Ara-Lev-Ems-...), both would be 6 and Aden, first by
    # code, would go.
    m = find_variant("youngstown-redux").board()
    homes = set(m.home_centers("FRANCE"))
    code = {p.code: p.id for p in m.provinces}
    assert (home_distance(m, code["ARA"], homes), home_distance(m, code["ADE"], homes)) == (7, 6)
    doc = winter({"FRANCE": ["A PAR", "A ARA", "A ADE"]}, {"FRANCE": ["PAR", "BRE"]},
                 "youngstown-redux")
    assert removed(doc) == ["A ARA"]


def test_home_distance_is_0_where_no_home_centre_can_be_reached_as_godip_counts_it() -> None:
    # North Sea Wars: the trade provinces are entered from the Central North Sea only, and
    # lead nowhere but to each other. godip finds no path home from them and counts 0, so the
    # Britons' fleet in Wood is kept and the army in Batavia, 2 from Cymru, goes.
    m = find_variant("north-sea-wars").board()
    code = {p.code: p.id for p in m.provinces}
    assert home_distance(m, code["WOO"], set(m.home_centers("BRITONS"))) == 0
    doc = winter({"BRITONS": ["F WOO", "A BAT", "A CYM"]}, {"BRITONS": ["CYM", "SBR"]},
                 "north-sea-wars")
    assert removed(doc) == ["A BAT"]


def test_home_distance_edges_no_unit_moves_by_are_read_from_the_map_file(tmp_path: Path
                                                                         ) -> None:
    from calhamer.map import MapError, load_map

    # A split province whose north coast is on the Sea, next to Home by land; the Sea reaches
    # Home by fleet through two more seas.
    base = ('[map]\nname = "t"\n[powers.A]\nname = "A"\n[provinces]\n'
            'HOM = { name = "Home", type = "coast", sc = true, home = "A" }\n'
            'SPL = { name = "Split", type = "coast", coasts = ["NC", "SC"] }\n'
            'SEA = { name = "Sea", type = "sea" }\n'
            'ONE = { name = "One", type = "sea" }\n'
            'TWO = { name = "Two", type = "sea" }\n'
            '[army]\nHOM = "SPL"\n[fleet]\nSEA = "SPL/NC ONE"\nONE = "TWO"\nTWO = "HOM"\n')
    plain = tmp_path / "plain.toml"
    plain.write_text(base)
    m = load_map(str(plain))
    code = {p.code: p.id for p in m.provinces}
    # The Split's north coast leads back to the Sea only: the way home is by the seas, 3.
    assert m.distance_edges == ()
    assert home_distance(m, code["SEA"], {code["HOM"]}) == 3
    # An edge from the Sea to the Split's land, which no unit moves by, makes it 2.
    with_edge = tmp_path / "edge.toml"
    with_edge.write_text(base + '[distance]\nedges = ["SEA SPL"]\n')
    m = load_map(str(with_edge))
    assert m.distance_edges == ((code["SEA"], code["SPL"]),)
    assert home_distance(m, code["SEA"], {code["HOM"]}) == 2
    assert m.province_fleet_adjacent == load_map(str(plain)).province_fleet_adjacent
    bad = tmp_path / "bad.toml"
    bad.write_text(base + '[distance]\nedges = ["SPL XXX"]\n')
    with pytest.raises(MapError, match=r"distance.edges 'SPL XXX' names 'XXX'"):
        load_map(str(bad))
    bad.write_text(base + '[distance]\nedges = ["SPL"]\n')
    with pytest.raises(MapError, match=r"must name two places"):
        load_map(str(bad))


def _godip_distance(graph: Any, province: str, homes: set[str]) -> int:
    """The distance godip's removals count on its graph (nodes: a province's land and each of
    its coasts): from any node of ``province`` to any node of one of ``homes``, by the edges
    going out of each node whatever their flags; 0 in a home centre or with no such path."""
    if province in homes:
        return 0
    nodes: dict[str, list[str]] = {}
    for name, node in graph.nodes.items():
        nodes.setdefault(node.province, []).append(name)
    goal = {n for h in homes for n in nodes[h]}
    seen = set(nodes[province])
    queue = deque((n, 0) for n in nodes[province])
    while queue:
        here, d = queue.popleft()
        for there in graph.nodes[here].edges:
            if there in goal:
                return d + 1
            if there not in seen:
                seen.add(there)
                queue.append((there, d + 1))
    return 0


GODIP_SNAPSHOT = os.environ.get("GODIP_SNAPSHOT", "/work/.mirror/zond+godip/repo")


@pytest.mark.skipif(not Path(GODIP_SNAPSHOT).is_dir(),
                    reason=f"godip's snapshot is not on this machine ({GODIP_SNAPSHOT}; set "
                    "GODIP_SNAPSHOT to its path)")
def test_home_distance_is_godips_on_each_of_its_22_boards_and_the_classical_one() -> None:
    # Every power's distance from every province, counted on the shipped board, is the one
    # godip counts on its own graph as scripts/godip-boards.py reads it from godip's
    # definitions: from any node of the unit's province to any node of a home centre's, by
    # the edges going out of each node whatever their flags, 0 when there is no such path.
    # The standard board is godip's classical one, four of its seas named otherwise.
    scripts = str(Path(__file__).resolve().parent.parent / "scripts")
    sys.path.insert(0, scripts)
    try:
        from godip_convert import VARIANTS, power_code
        from godip_go import Reader, Snapshot
    finally:
        sys.path.remove(scripts)
    reader = Reader(Snapshot(GODIP_SNAPSHOT))
    classical = {"LYO": "gol", "MAO": "mid", "NAO": "nat", "NWG": "nrg"}
    boards = [(name, package, {}) for name, (package, _) in VARIANTS.items()]
    for name, package, renamed in [*boards, ("standard", "classical", classical)]:
        graph = reader.variant(package).graph
        m = find_variant(name).board()
        godips = {p.id: renamed.get(p.code, p.code.lower()) for p in m.provinces}
        for power in m.power_codes:
            homes = set(m.home_centers(power))
            codes = {godips[h] for h in homes}
            assert codes == {p for p, n in graph.centres.items() if power_code(n) == power}
            for p in m.provinces:
                if godips[p.id] in graph.nodes:  # not the standard board's Switzerland
                    assert home_distance(m, p.id, homes) == _godip_distance(
                        graph, godips[p.id], codes), (name, power, p.code)
