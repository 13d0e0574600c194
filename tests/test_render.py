"""Maps as pictures: the SVG's structure, views that hide things, PNG pixels, the schematic."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from calhamer import Position, adjudicate
from calhamer.cli import main
from calhamer.formats import position_from_json
from calhamer.map import load_map
from calhamer.position import Unit
from calhamer.render import Mask, geometry_for, render_svg
from calhamer.render.geometry import Geometry
from calhamer.render.svg import DEFAULT_COLORS
from calhamer.render.svg.palette import mix as _mix
from calhamer.render.svg.primitives import serialise
from calhamer.variants import find_variant, variant_names

SVG = "{http://www.w3.org/2000/svg}"
START = Position.initial("standard")

SPRING = {
    "FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE - MAO"],
    "GERMANY": ["A MUN - BUR", "A BER H", "F KIE - DEN"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "ITALY": ["A VEN - PIE", "A ROM - APU", "F NAP - ION"],
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}g") if cls in (e.get("class") or "").split()]


def translate(element: ET.Element) -> tuple[float, float]:
    match = re.match(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", ""))
    assert match, element.get("transform")
    return float(match[1]), float(match[2])


class TestStructure:
    def test_every_province_is_drawn_once_with_a_title(self):
        root = parse(render_svg(START))
        ids = [e.get("id") for e in root.iter() if (e.get("id") or "").startswith("prov-")]
        codes = [p.code for p in START.map.provinces]
        assert sorted(ids) == sorted(f"prov-{c}" for c in codes)
        for p in START.map.provinces:
            element = by_id(root)[f"prov-{p.code}"]
            title = element.find(f"{SVG}title")
            assert title is not None and p.name in title.text

    def test_units_stand_where_the_position_says(self):
        root = parse(render_svg(START))
        ids = by_id(root)
        geo = geometry_for(START.map)
        m = START.map
        units = [e for e in ids if e.startswith("unit-")]
        assert len(units) == len(START.units) == 22
        for province, unit in START.units.items():
            code = m.provinces[province].code
            x, y = translate(ids[f"unit-{code}"])
            ax, ay = geo.anchor(code, m.loc_coast[unit.loc])
            assert (x, y) == pytest.approx((ax, ay), abs=0.06)
        # St Petersburg's fleet stands on its south coast, not in the middle of the province.
        assert geo.anchor("STP", "SC") != geo.anchor("STP")
        assert translate(ids["unit-STP"]) == pytest.approx(geo.anchor("STP", "SC"), abs=0.06)

    def test_armies_and_fleets_are_different_shapes(self):
        ids = by_id(parse(render_svg(START)))
        army = ids["unit-PAR"].find(f"{SVG}path").get("d")
        fleet = ids["unit-BRE"].find(f"{SVG}path").get("d")
        assert army != fleet

    def test_owners_colour_their_provinces_and_centres(self):
        ids = by_id(parse(render_svg(START)))
        france = START.map.power("FRANCE").color
        assert ids["prov-PAR"].get("fill") == _mix(france, DEFAULT_COLORS["land"], 0.78)
        assert ids["prov-BEL"].get("fill") == DEFAULT_COLORS["land"]  # neutral centre
        assert ids["prov-NTH"].get("fill") == DEFAULT_COLORS["sea"]
        assert ids["sc-PAR"].find(f"{SVG}circle").get("fill") == france
        assert "sc-BUR" not in ids  # not a supply centre

    def test_the_shapes_follow_the_adjacency(self):
        """Adjacent provinces share a border (two or more corners); others meet at most at a
        point. The generator checks border lengths with shapely; this needs none."""
        m = START.map
        geo = geometry_for(m)

        def corners(d: str) -> set[tuple[float, float]]:
            return {tuple(map(float, xy.split(","))) for part in d.split("M")[1:]
                    for xy in part.rstrip("Z").split()}

        shapes = {p.code: corners(geo.shapes[p.code].d) for p in m.provinces}
        need = {frozenset((p.code, m.provinces[q].code)) for p in m.provinces
                for q in m.army_adjacent[p.id] | m.province_fleet_adjacent[p.id] if q != p.id}
        codes = sorted(shapes)
        for i, a in enumerate(codes):
            for b in codes[i + 1:]:
                shared = len(shapes[a] & shapes[b])
                if frozenset((a, b)) in need:
                    assert shared >= 2, f"{a} and {b} are adjacent but do not touch"
                elif "SWI" not in (a, b):
                    assert shared <= 1, f"{a} and {b} touch but are not adjacent"

    def test_switzerland_is_drawn_impassable(self):
        ids = by_id(parse(render_svg(START)))
        assert "impassable" in ids["prov-SWI"].find(f"{SVG}title").text
        assert ids["prov-SWI"].get("fill") == "url(#impassable)"

    def test_one_arrow_per_order_and_failures_look_different(self):
        outcome = adjudicate(START, SPRING)
        root = parse(render_svg(outcome=outcome))
        drawn = groups(root, "o")
        assert len(drawn) == sum(len(v) for v in SPRING.values())
        by_unit = {g.get("data-unit"): g for g in drawn}
        # Munich's move to Burgundy fails against Paris's supported one; the others succeed.
        failed = by_unit["MUN"]
        assert "failed" in failed.get("class")
        assert failed.get("data-result") == "fails"
        colour = START.map.power("GERMANY").color
        assert failed.find(f"{SVG}polygon").get("fill") == _mix(colour, "#ffffff", 0.5)
        assert failed.find(f".//{SVG}path[@class='x']") is not None  # a red cross
        for loc in ("PAR", "MAR", "BRE", "KIE", "LON", "VEN"):
            assert "failed" not in by_unit[loc].get("class")
            assert by_unit[loc].get("data-result") == "succeeds"
            assert by_unit[loc].find(f".//{SVG}path[@class='x']") is None
        kinds = {g.get("data-unit"): g.get("class").split()[1] for g in drawn}
        assert kinds["PAR"] == "move" and kinds["MAR"] == "support" and kinds["BER"] == "hold"
        assert by_unit["PAR"].find(f"{SVG}polygon") is not None  # an arrowhead
        assert by_unit["MAR"].find(f"{SVG}line").get("stroke-dasharray") == "5 3"

    def test_orders_not_yet_adjudicated(self):
        orders = {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY"]}
        position = position_from_json({
            "phase": "F1901M", "units": {"ENGLAND": ["F NTH", "A YOR"]},
        })[0]
        root = parse(render_svg(position, orders=orders))
        drawn = groups(root, "o")
        assert [g.get("class") for g in drawn] == ["o convoy", "o move"]
        dotted = drawn[0].find(f"{SVG}line").get("stroke-dasharray")
        assert dotted == "0.1 4.2"

    def test_an_order_for_a_missing_unit_draws_nothing(self):
        root = parse(render_svg(START, orders={"FRANCE": ["A PIC - BEL", "nonsense"]}))
        assert groups(root, "o") == []

    def test_show_orders_false(self):
        outcome = adjudicate(START, SPRING)
        assert groups(parse(render_svg(outcome=outcome, show_orders=False)), "o") == []

    def test_dislodged_units_are_drawn_aside_with_their_retreats(self):
        position = position_from_json({
            "phase": "S1902M",
            "units": {"FRANCE": ["A BUR", "A RUH"], "GERMANY": ["A MUN"]},
        })[0]
        outcome = adjudicate(position, {"FRANCE": ["A BUR - MUN", "A RUH S A BUR - MUN"]})
        assert outcome.dislodged
        root = parse(render_svg(outcome=outcome))
        ids = by_id(root)
        assert "unit-MUN" not in ids  # no longer drawn in the middle of Munich
        aside = ids["dislodged-MUN"]
        title = aside.find(f"{SVG}title").text
        assert "dislodged" in title and "may retreat to" in title
        assert "KIE" in title and "BUR" not in title  # not where the attack came from
        assert "RUH" not in title  # nor into an occupied province
        # The retreat phase's own picture shows the same.
        after = parse(render_svg(outcome.next))
        assert "dislodged-MUN" in by_id(after) and "unit-MUN" in by_id(after)

    def test_retreats_builds_and_disbands(self):
        winter = position_from_json({
            "phase": "W1901A",
            "units": {"FRANCE": ["A PAR"], "GERMANY": ["A BER", "A MUN", "F KIE", "A SIL"]},
            "centers": {"FRANCE": ["PAR", "BRE", "MAR"], "GERMANY": ["BER", "KIE", "MUN"]},
        })[0]
        outcome = adjudicate(winter, {"FRANCE": ["Build F BRE", "Build A MAR"],
                                      "GERMANY": ["Remove A SIL"]})
        root = parse(render_svg(outcome=outcome))
        kinds = sorted(g.get("class") for g in groups(root, "o"))
        assert kinds == ["o build", "o build", "o disband"]
        assert "build-BRE" in by_id(root)

    def test_size_sets_the_width(self):
        root = parse(render_svg(START, size=500))
        assert root.get("width") == "500"
        width, height = map(float, root.get("viewBox").split()[2:])
        assert float(root.get("height")) == pytest.approx(500 * height / width, abs=0.1)

    def test_colours_can_be_changed(self):
        ids = by_id(parse(render_svg(START, colors={"France": "#123456", "sea": "#000080"})))
        assert ids["sc-PAR"].find(f"{SVG}circle").get("fill") == "#123456"
        assert ids["prov-NTH"].get("fill") == "#000080"

    def test_legend_lists_the_powers_and_their_centres(self):
        legend = by_id(parse(render_svg(START)))["legend"]
        texts = [t.text for t in legend.iter(f"{SVG}text")]
        assert "Russia 4" in texts and "Austria 3" in texts
        assert "Spring 1901 Movement (S1901M)" in texts
        assert "legend" not in by_id(parse(render_svg(START, legend=False)))


class TestVariants:
    def test_a_units_own_colour_shows_as_a_badge(self):
        from calhamer.variants.arpiesse import PURPLE, ColouredUnit

        position = Position.initial(variant=find_variant("arpiesse"))
        paris = position.map.loc("PAR")
        units = dict(position.units)
        units[paris] = ColouredUnit("FRANCE", units[paris].type, paris, colour=PURPLE)
        ids = by_id(parse(render_svg(position.replace(units=units))))
        badge = ids["unit-PAR"].find(f"{SVG}circle")
        assert badge.get("fill") == "purple"
        assert badge.get("fill") != START.map.power("FRANCE").color
        assert "colour purple" in ids["unit-PAR"].find(f"{SVG}title").text
        assert ids["unit-MAR"].find(f"{SVG}circle").get("fill") == "red"

    def test_a_unit_badge_hook_on_the_variant_wins(self):
        from calhamer.render.svg import unit_badge

        class Painted:
            def unit_badge(self, unit):
                return "#00ff00"

        assert unit_badge(Painted(), START.units[START.map.loc("PAR")]) == "#00ff00"
        assert unit_badge(object(), START.units[START.map.loc("PAR")]) is None

    def test_stacks_show_their_size(self):
        from dataclasses import dataclass

        @dataclass(frozen=True)
        class Stack(Unit):
            count: int = 1

        paris = START.map.loc("PAR")
        units = dict(START.units)
        units[paris] = Stack("FRANCE", units[paris].type, paris, count=3)
        unit = by_id(parse(render_svg(START.replace(units=units))))["unit-PAR"]
        assert [t.text for t in unit.iter(f"{SVG}text")] == ["3"]
        assert "3 units" in unit.find(f"{SVG}title").text

    def test_neutral_units_are_grey(self):
        belgium = START.map.loc("BEL")
        units = dict(START.units)
        units[belgium] = Unit("BELGIUM", START.units[START.map.loc("PAR")].type, belgium)
        unit = by_id(parse(render_svg(START.replace(units=units))))["unit-BEL"]
        path = unit.find(f"{SVG}path")
        assert path.get("fill") == DEFAULT_COLORS["neutral_unit"]
        assert path.get("stroke-dasharray")

    def test_superdiplomacy_draws_its_islands_and_switzerland(self):
        m = load_map("superdiplomacy")
        position = Position.initial(m, variant=find_variant("superdiplomacy"))
        ids = by_id(parse(render_svg(position)))
        for code in ("ICE", "IRE", "COR", "SAR", "SIC", "CRE", "CYP", "SWI"):
            assert f"prov-{code}" in ids
            assert ids[f"prov-{code}"].get("fill") != "url(#impassable)"
        assert not geometry_for(m).schematic


class TestViews:
    def test_hidden_provinces_hide_their_units_orders_and_owners(self):
        m = START.map
        french = {m.loc(c) for c in ("PAR", "BRE", "MAR", "BUR", "PIC", "GAS")}
        outcome = adjudicate(START, SPRING)
        svg = render_svg(outcome=outcome, mask=lambda p: p in french)
        ids = by_id(parse(svg))
        assert {i for i in ids if i.startswith("unit-")} == {"unit-PAR", "unit-BRE", "unit-MAR"}
        assert {g.get("data-unit") for g in groups(parse(svg), "o")} == {"PAR", "MAR", "BRE"}
        for hidden in ("MUN", "KIE", "LON", "VEN", "ROM", "NAP", "MOS", "CON"):
            assert f"unit-{hidden}" not in svg
            assert f'data-unit="{hidden}"' not in svg
        assert "German army" not in svg and "Italian" not in svg
        assert ids["prov-MUN"].get("fill") == DEFAULT_COLORS["fog"]
        assert "supply centre of Germany" not in svg
        assert ids["sc-MUN"].find(f"{SVG}circle").get("fill") == DEFAULT_COLORS["unowned_sc"]
        assert "Germany 3" not in svg  # no centre counts under a view

    def test_a_view_object_may_hide_units_and_orders_too(self):
        class NoItalians(Mask):
            def sees_unit(self, unit):
                return unit.power != "ITALY"

            def sees_order(self, power, order):
                return power != "ENGLAND"

        svg = render_svg(outcome=adjudicate(START, SPRING), mask=NoItalians())
        assert "unit-VEN" not in svg and "Italian" not in svg
        assert "unit-LON" in svg and 'data-unit="LON"' not in svg
        assert 'data-unit="PAR"' in svg

    def test_a_power_view_draws_only_what_the_power_knows(self):
        from calhamer.views import power_view

        m = load_map("standard")
        position = Position.initial(m, variant=find_variant("kriegsplomacy"))
        outcome = adjudicate(position, {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]})
        view = power_view(outcome, "FRANCE")
        svg = render_svg(view=view)
        assert "unit-PAR" in svg and "unit-MUN" not in svg
        assert "German army" not in svg and 'data-unit="MUN"' not in svg
        assert "as France sees it" in svg
        # The gamemaster's picture of the same phase shows both.
        truth = render_svg(outcome=outcome)
        assert "unit-MUN" in truth and 'data-unit="MUN"' in truth


    def test_a_known_position_draws_the_totals_its_power_may_know(self):
        from calhamer.views import known_position

        def legend(svg: str) -> list[str]:
            box = by_id(parse(svg))["legend"]
            return [t.text for t in box.iter(f"{SVG}text") if re.search(r" [\d?]+$", t.text)]

        centers = {"FRANCE": ["PAR", "MAR", "BRE", "SPA"], "GERMANY": ["MUN", "KIE"]}
        for phase, others in (("F1901M", None), ("W1901A", "?")):
            position, _, _ = position_from_json({"variant": "kriegsplomacy", "phase": phase,
                                                 "units": {"FRANCE": ["A PAR"]},
                                                 "centers": centers})
            france = known_position(position, "FRANCE")
            for svg in (render_svg(france), render_svg(france, mask=Mask())):
                shown = legend(svg)
                assert "France 4" in shown
                if others:
                    # A winter before its chart: unknown, never the 0 France's board counts.
                    assert "Germany ?" in shown and "Italy ?" in shown
                    assert "centre total unknown" in svg
                else:
                    # Spring and Fall: the totals of the last winter, known to all.
                    assert "Germany 2" in shown and "Italy 0" in shown


class TestSchematic:
    MAP = """
[map]
name = "triangle"
victory_centers = 2

[powers.RED]
name = "Red"
color = "#cc0000"

[powers.BLUE]
name = "Blue"
color = "#0000cc"

[provinces]
AAA = { name = "Alpha", type = "coast", sc = true, home = "RED" }
BBB = { name = "Beta", type = "land", sc = true, home = "BLUE" }
CCC = { name = "Gamma", type = "coast", x = 300, y = 40 }
SSS = { name = "Sea", type = "sea" }
LON = { name = "Lonely", type = "land" }

[army]
AAA = "BBB CCC"
BBB = "CCC"

[fleet]
SSS = "AAA CCC"

[start.units]
RED = ["A AAA"]
BLUE = ["A BBB"]
"""

    def test_a_map_without_geometry_is_drawn_as_nodes_and_links(self, tmp_path: Path):
        """The schematic (what a board with no drawing gets without the draw extra; with
        it, the board is drawn as a map: tests/test_board_draw.py)."""
        from calhamer.render.geometry import schematic

        path = tmp_path / "triangle.toml"
        path.write_text(self.MAP)
        m = load_map(str(path))
        geo = schematic(m)
        assert isinstance(geo, Geometry) and geo.schematic
        root = parse(render_svg(Position.initial(m), geometry=geo))
        ids = by_id(root)
        assert {i for i in ids if i.startswith("prov-")} == {
            "prov-AAA", "prov-BBB", "prov-CCC", "prov-SSS", "prov-LON"}
        assert {"unit-AAA", "unit-BBB"} <= set(ids)
        links = by_id(root)["board"].findall(f"{SVG}line")
        assert len(links) == 5  # AAA-BBB, AAA-CCC, BBB-CCC, SSS-AAA, SSS-CCC
        dashed = [line for line in links if line.get("stroke-dasharray")]
        assert len(dashed) == 2  # the sea's links are for fleets only
        # Nodes sit apart, and a province given x, y keeps its place relative to the others.
        points = [geo.shapes[c].unit for c in ("AAA", "BBB", "CCC", "SSS", "LON")]
        assert len(set(points)) == 5
        assert min(x for x, _ in points) >= 0
        assert max(x for x, _ in points) <= geo.width

    def test_the_layout_is_deterministic(self, tmp_path: Path):
        path = tmp_path / "triangle.toml"
        path.write_text(self.MAP)
        from calhamer.render.geometry import schematic

        m = load_map(str(path))
        assert schematic(m) == schematic(m)


class TestDocument:
    """The SVG is an XML document: whatever a map, a caller or a variant puts into it is
    written as text and read back as the same text, never as markup."""

    POWER = 'R&D <"Red">'
    ADJECTIVE = 'R&D <"Red">ish'
    PLACE = 'Tom & "Jerry" <Isle>'

    def special_map(self, tmp_path: Path):
        text = (TestSchematic.MAP
                .replace('name = "Red"',
                         'name = "R&D <\\"Red\\">"\nadjective = "R&D <\\"Red\\">ish"')
                .replace('name = "Alpha"', 'name = "Tom & \\"Jerry\\" <Isle>"')
                .replace('LON = { name = "Lonely"', '"L&N" = { name = "Lonely"'))
        path = tmp_path / "special.toml"
        path.write_text(text)
        m = load_map(str(path))
        assert m.power("RED").name == self.POWER and m.provinces[0].name == self.PLACE
        return m

    def test_names_with_xml_special_characters_are_escaped(self, tmp_path: Path):
        m = self.special_map(tmp_path)
        title = 'Spring & "Fall" <1901>'
        svg = render_svg(Position.initial(m), title=title)
        assert "<Isle>" not in svg and "<1901>" not in svg  # written as references
        ids = by_id(parse(svg))
        assert ids["prov-AAA"].find(f"{SVG}title").text.startswith(f"{self.PLACE} (AAA)")
        assert ids["prov-L&N"].find(f"{SVG}title").text.startswith("Lonely (L&N)")
        unit = ids["unit-AAA"].find(f"{SVG}title").text
        assert unit.startswith(f"{self.ADJECTIVE} army in {self.PLACE}")
        texts = [t.text for t in ids["legend"].iter(f"{SVG}text")]
        assert title in texts
        assert any(t.startswith(self.POWER) for t in texts)

    def test_colours_are_values_not_markup(self):
        injected = '#c00" onload="alert(1)'
        svg = render_svg(START, colors={"FRANCE": injected, "sea": "a&b<c>"})
        root = parse(svg)
        assert all(e.get("onload") is None for e in root.iter())
        ids = by_id(root)
        assert ids["unit-PAR"].find(f"{SVG}path").get("fill") == injected
        assert ids["prov-NTH"].get("fill") == "a&b<c>"

    @pytest.mark.parametrize("name", variant_names())
    def test_every_variants_start_is_a_well_formed_document(self, name: str):
        position = Position.initial(variant=find_variant(name))
        root = ET.fromstring(render_svg(position))
        assert root.tag == f"{SVG}svg"
        ids = by_id(root)
        assert {f"prov-{p.code}" for p in position.map.provinces} <= set(ids)
        units = {position.map.provinces[p].code for p in position.units}
        assert {i for i in ids if i.startswith("unit-")} == {f"unit-{c}" for c in units}
        assert "legend" in ids

    def test_the_serialiser_writes_what_elementtree_reads_back(self):
        def shape(e: ET.Element) -> tuple:
            return (e.tag, dict(e.attrib), e.text or "", e.tail or "",
                    [shape(c) for c in e])

        root = ET.Element("svg", {"a": 'q"uote & <tag> \n new\tline\r'})
        child = ET.SubElement(root, "g", {"id": "plain"})
        ET.SubElement(child, "title").text = "A & B <c> \"d\" 'e'"
        ET.SubElement(child, "path", {"d": "M0,0L1,1Z"}).tail = "after & <tail>"
        ET.SubElement(root, "empty")
        written = serialise(root)
        assert shape(ET.fromstring(written)) == shape(root)
        assert shape(ET.fromstring(written)) == shape(ET.fromstring(ET.tostring(root)))
        plain = ET.Element("svg", {"width": "10"})
        ET.SubElement(plain, "text", {"x": "1"}).text = "Paris"
        assert serialise(plain) == '<svg width="10"><text x="1">Paris</text></svg>'


class TestCommandLine:
    def game(self, tmp_path: Path) -> Path:
        path = tmp_path / "game.json"
        assert main(["game", "new", str(path)]) == 0
        orders = tmp_path / "orders.txt"
        orders.write_text("A PAR - BUR\nA MAR S A PAR - BUR\n")
        assert main(["game", "orders", str(path), "FRANCE", str(orders)]) == 0
        orders.write_text("A MUN - BUR\n")
        assert main(["game", "orders", str(path), "GERMANY", str(orders)]) == 0
        assert main(["game", "process", str(path)]) == 0
        return path

    def test_render_a_game_phase_with_its_orders(self, tmp_path: Path, capsys):
        game = self.game(tmp_path)
        out = tmp_path / "map.svg"
        assert main(["render", str(game), "--phase", "S1901M", "--orders", "-o", str(out)]) == 0
        root = parse(out.read_text())
        assert len(groups(root, "o")) == 3
        assert main(["render", str(game), "-o", str(out)]) == 0  # the current phase, no orders
        root = parse(out.read_text())
        assert groups(root, "o") == [] and "Fall 1901" in out.read_text()

    def test_render_as_a_power_of_an_unplayed_phase_keeps_others_orders_secret(
        self, tmp_path: Path, capsys
    ):
        game = self.game(tmp_path)
        mine = tmp_path / "mine.txt"
        mine.write_text("A BUR - PIC\n")
        assert main(["game", "orders", str(game), "FRANCE", str(mine)]) == 0
        mine.write_text("A MUN - RUH\n")
        assert main(["game", "orders", str(game), "GERMANY", str(mine)]) == 0
        capsys.readouterr()
        assert main(["render", str(game), "--orders", "--as", "FRANCE"]) == 0
        svg = capsys.readouterr().out
        assert 'data-unit="BUR"' in svg and 'data-unit="MUN"' not in svg

    def test_render_a_phase_document(self, tmp_path: Path, capsys):
        doc = tmp_path / "phase.json"
        doc.write_text('{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, '
                       '"orders": {"FRANCE": ["A PAR - BUR"]}}')
        assert main(["render", str(doc), "--orders"]) == 0
        assert 'class="o move"' in capsys.readouterr().out
        assert main(["render", str(doc), "--phase", "F1901M"]) == 2
        assert "not F1901M" in capsys.readouterr().err

    def test_render_errors(self, tmp_path: Path, capsys):
        game = self.game(tmp_path)
        assert main(["render", str(game), "--as", "Narnia"]) == 2
        assert "not a power" in capsys.readouterr().err
        assert main(["render", str(game), "--phase", "S1905M"]) == 2
        assert main(["render", str(game), "--format", "png"]) == 2  # a PNG needs a file


# -- PNG ------------------------------------------------------------------------------------


def _png_ready() -> bool:
    try:
        import cairosvg  # noqa: F401
        from PIL import Image  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


png = pytest.mark.skipif(not _png_ready(), reason="needs cairosvg, the cairo library and Pillow")


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _close(a, b, tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3], strict=True))


def _polygons(d: str) -> list[list[tuple[float, float]]]:
    rings = []
    for part in d.split("M")[1:]:
        pts = [tuple(map(float, xy.split(","))) for xy in part.rstrip("Z").split()]
        rings.append(pts)
    return rings


def _inside(rings, x: float, y: float) -> bool:
    inside = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def _free_point(geo: Geometry, code: str) -> tuple[float, float]:
    """A point of a province clear of its unit, label and centre, and of its borders."""
    shape = geo.shapes[code]
    rings = _polygons(shape.d)
    busy = [shape.unit, shape.label, *([shape.sc] if shape.sc else []), *shape.coasts.values()]
    xs = [x for r in rings for x, _ in r]
    ys = [y for r in rings for _, y in r]
    best, best_score = None, -1.0
    for i in range(40):
        for j in range(40):
            x = min(xs) + (max(xs) - min(xs)) * (i + 0.5) / 40
            y = min(ys) + (max(ys) - min(ys)) * (j + 0.5) / 40
            if not _inside(rings, x, y):
                continue
            clear = min(((x - bx) ** 2 + (y - by) ** 2) ** 0.5 for bx, by in busy)
            edge = min(((x - px) ** 2 + (y - py) ** 2) ** 0.5 for r in rings for px, py in r)
            score = min(clear - 14, edge - 3)
            if score > best_score:
                best, best_score = (x, y), score
    assert best is not None and best_score > 0, code
    return best


def _image(**kwargs):
    from PIL import Image

    from calhamer.render import render_png

    data = render_png(size=1000, legend=False, **kwargs)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


@png
class TestPng:
    def test_owners_colours_and_units_are_where_they_should_be(self):
        image = _image(position=START)
        geo = geometry_for(START.map)
        assert image.size[0] == 1000
        land = DEFAULT_COLORS["land"]
        for code, power in (("PAR", "FRANCE"), ("VIE", "AUSTRIA"), ("ANK", "TURKEY"),
                            ("MOS", "RUSSIA")):
            colour = START.map.power(power).color
            x, y = _free_point(geo, code)
            assert _close(image.getpixel((round(x), round(y))), _rgb(_mix(colour, land, 0.78)))
            ux, uy = geo.shapes[code].unit
            # The body of the unit, a little below its anchor, is in the power's own colour.
            assert _close(image.getpixel((round(ux), round(uy + 5))), _rgb(colour))
        x, y = _free_point(geo, "BEL")
        assert _close(image.getpixel((round(x), round(y))), _rgb(land))
        x, y = _free_point(geo, "ION")
        assert _close(image.getpixel((round(x), round(y))), _rgb(DEFAULT_COLORS["sea"]))

    def test_units_move_in_the_picture_of_the_next_phase(self):
        outcome = adjudicate(START, {"FRANCE": ["A PAR - PIC"]})
        image = _image(position=outcome.next)
        geo = geometry_for(START.map)
        france = _rgb(START.map.power("FRANCE").color)
        ux, uy = geo.shapes["PIC"].unit
        assert _close(image.getpixel((round(ux), round(uy + 5))), france)
        ux, uy = geo.shapes["PAR"].unit
        assert not _close(image.getpixel((round(ux), round(uy + 5))), france)

    def test_a_schematic_renders_too(self, tmp_path: Path):
        path = tmp_path / "triangle.toml"
        path.write_text(TestSchematic.MAP)
        m = load_map(str(path))
        image = _image(position=Position.initial(m))
        geo = geometry_for(m)
        x, y = geo.shapes["AAA"].unit
        scale = 1000 / geo.width
        assert _close(image.getpixel((round(x * scale), round((y + 5) * scale))),
                      _rgb("#cc0000"))
