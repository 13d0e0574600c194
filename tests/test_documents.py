"""Typed documents: the pydantic models of phase documents, game files, each variant's own
state and map files; their JSON Schemas published in docs/schemas/; clear errors with the
field path for documents and map files that do not fit."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from calhamer.cli import main
from calhamer.documents.phase import PhaseDocument
from calhamer.documents.schemas import all_schemas
from calhamer.documents.state import VariantState
from calhamer.errors import MapError, PhaseError
from calhamer.formats import outcome_to_json, position_from_json, position_to_json
from calhamer.game import Game, GameError
from calhamer.map import load_map
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.variant import Variant
from calhamer.variants import all_variants, find_variant
from calhamer.variants.arpiesse import ArpiesseState
from calhamer.variants.dp import DPState, bids_of, with_bids
from calhamer.variants.kriegsplomacy import KriegsplomacyState
from calhamer.variants.superdiplomacy import SuperdiplomacyState

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
MAPS = ROOT / "src" / "calhamer" / "maps"


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def conforms(doc: Any, name: str) -> None:
    jsonschema.validate(doc, schema(name), cls=jsonschema.Draft202012Validator)


def _script():
    spec = importlib.util.spec_from_file_location("write_schemas", ROOT / "scripts" /
                                                  "write-schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- pydantic stays out of ``import calhamer`` ---------------------------------------------------


def test_import_calhamer_loads_no_pydantic() -> None:
    script = "import sys, calhamer\nprint(any(m.split('.')[0] == 'pydantic' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_pydantic_is_the_one_core_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [d.split(">")[0] for d in project["dependencies"]] == ["pydantic"]


# -- the published schemas -----------------------------------------------------------------------


def test_the_committed_schemas_are_what_the_models_generate() -> None:
    wanted = _script().shipped_schemas()
    present = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.json")}
    assert sorted(present) == sorted(wanted)
    stale = [name for name in wanted if present[name] != wanted[name]]
    assert stale == [], "run: python scripts/write-schemas.py"


def test_the_schemas_cover_the_documents_and_each_variant_state() -> None:
    names = set(all_schemas(all_variants()))
    assert {"phase-document.json", "output-document.json", "game-document.json",
            "map-file.json", "arpiesse-state.json", "dp-state.json",
            "kriegsplomacy-state.json", "superdiplomacy-state.json"} <= names


def test_the_example_documents_fit_the_schema() -> None:
    for path in sorted((ROOT / "examples").glob("*.json")):
        conforms(json.loads(path.read_text(encoding="utf-8")), "phase-document.json")


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    good = position_to_json(Position.initial(), "datc")
    conforms(good, "phase-document.json")
    for bad in ({**good, "colour": "red"}, {**good, "units": ["A PAR"]},
                {**good, "dislodged": {"FRANCE": [{"attacker_from": "BUR"}]}}):
        with pytest.raises(jsonschema.ValidationError):
            conforms(bad, "phase-document.json")
        with pytest.raises(PhaseError):
            position_from_json(bad)


BOUNCE: dict[str, Any] = {
    "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A BUR", "A MUN"]},
    "centers": {"FRANCE": ["PAR", "MAR"], "GERMANY": ["MUN"]},
    "orders": {"FRANCE": ["A Par - Bur", "A Mar S A Par - Bur"], "GERMANY": ["A Mun H"]},
}


def test_documents_the_library_writes_fit_the_schemas() -> None:
    # The standard game through a dislodgement: output documents, retreat phase documents.
    start, orders, _ = position_from_json(BOUNCE)
    spring = adjudicate(start, orders)
    assert spring.next.phase.code == "S1901R"
    conforms(position_to_json(spring.next, "datc"), "phase-document.json")
    conforms(outcome_to_json(spring, "datc"), "output-document.json")
    conforms(outcome_to_json(spring, "datc", views=True), "output-document.json")
    conforms(position_to_json(start, "datc"), "phase-document.json")
    # Every shipped variant's start, and a game file of each, played for one phase.
    for variant in all_variants():
        if not type(variant).__module__.startswith("calhamer."):
            continue
        position = Position.initial(load_map(variant.map_name), variant=variant)
        doc = position_to_json(position, variant.default_rules)
        conforms(doc, "phase-document.json")
        game = Game.new(variant=variant.name)
        game.process()
        conforms(game.to_json(), "game-document.json")


def test_each_variants_state_as_written_fits_its_schema() -> None:
    arpiesse = position_from_json({"variant": "arpiesse",
                                   "options": {"colour_exchange": True}})[0]
    written = position_to_json(arpiesse)
    assert written["options"] == {"colour_exchange": True}
    conforms({"options": written["options"]}, "arpiesse-state.json")

    kp = position_from_json(KRIEG_RETREAT)[0]
    written = position_to_json(kp, "datc")
    assert written["extra"] == KRIEG_RETREAT["extra"]
    conforms({"extra": written["extra"]}, "kriegsplomacy-state.json")

    game = Game.new(variant="superdiplomacy")
    game.process()
    entry = game.to_json()["phases"][0]["position"]
    assert entry["seed"] and entry["extra"]["seed_hash"]
    conforms({k: entry[k] for k in ("seed", "extra")}, "superdiplomacy-state.json")
    after = game.to_json()["phases"][1]["position"]
    assert after["extra"]["dice"]["phase"] == "S1901M"
    conforms({"extra": after["extra"]}, "superdiplomacy-state.json")

    conforms({"bids": {"ZANZIBAR": [{"order": "A KAS H", "dp": 1}, "2 DP: A KAM H"]}},
             "dp-state.json")


def test_map_files_fit_the_map_schema() -> None:
    for path in sorted(MAPS.glob("*.toml")):
        conforms(tomllib.loads(path.read_text(encoding="utf-8")), "map-file.json")
    with pytest.raises(jsonschema.ValidationError):
        conforms({"provinces": {"XXX": {"type": "swamp"}}}, "map-file.json")


# -- the phase document model ---------------------------------------------------------------------

KRIEG_RETREAT: dict[str, Any] = {
    "variant": "kriegsplomacy", "rules": "datc", "phase": "S1901R",
    "units": {"GERMANY": ["F SPA/SC"]}, "centers": {},
    "dislodged": {}, "contested": [],
    "extra": {"spies": [{"power": "GERMANY", "unit": "F SPA/SC",
                         "sees": ["LYO", "MAO", "MAR", "POR", "SPA", "WES"]}]},
}


def test_documents_written_by_the_library_read_back_unchanged() -> None:
    start, orders, _ = position_from_json(BOUNCE)
    spring = adjudicate(start, orders)
    for doc in (position_to_json(start, "datc"), position_to_json(spring.next, "datc"),
                KRIEG_RETREAT, json.loads((ROOT / "examples" / "spring-1901.json").read_text())):
        assert PhaseDocument.model_validate(doc).model_dump(mode="json") == doc
    retreat = position_to_json(spring.next, "datc")
    assert retreat["dislodged"] == {"GERMANY": [{"unit": "A BUR", "attacker_from": "PAR"}]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"units": {"FRANCE": ["A PAR", 3]}},
         "units.FRANCE[1]: units of FRANCE must be a list of strings"),
        ({"centers": {"FRANCE": "PAR"}}, "centers.FRANCE: centers of FRANCE must be a list"),
        ({"orders": {"FRANCE": [{"order": "A Par H"}]}}, "orders.FRANCE[0]: orders of FRANCE"),
        ({"dislodged": {"FRANCE": [{"unit": "A PAR", "from": "BUR"}]}},
         "unknown keys in dislodged.FRANCE[0]: from"),
        ({"dislodged": {"FRANCE": [{"attacker_from": "BUR"}]}},
         "dislodged.FRANCE[0] has no 'unit' field"),
        ({"contested": "BUR"}, "contested must be a list of strings"),
        ({"phase": 1901}, '"phase" must be a phase code'),
        ({"colour": "red", "flavour": 1}, "unknown keys in the phase document: colour, flavour"),
    ],
)
def test_a_bad_phase_document_names_the_field(change: dict[str, Any], message: str) -> None:
    doc = {**position_to_json(Position.initial(), "datc"), **change}
    with pytest.raises(PhaseError) as caught:
        position_from_json(doc)
    assert message in str(caught.value)


def test_the_command_line_tells_a_bad_document_in_one_line(tmp_path: Path, capsys) -> None:
    doc = position_to_json(Position.initial(), "datc")
    doc["units"]["FRANCE"] = ["A PAR", ["F BRE"]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    code = main(["adjudicate", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "units.FRANCE[1]" in err
    lines = tmp_path / "many.jsonl"
    lines.write_text(json.dumps(position_to_json(Position.initial())) + "\n" + json.dumps(doc))
    code = main(["adjudicate", str(lines), "--jsonl"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and "units.FRANCE[1]" in json.loads(out[1])["error"]


# -- each variant's state ------------------------------------------------------------------------


def test_the_variant_has_one_state_hook() -> None:
    for old in ("read_extra", "write_extra", "extra_after_phase"):
        assert not hasattr(Variant, old)
    assert Variant.state is None
    states = {v.name: v.state for v in all_variants()}
    assert states["arpiesse"] is ArpiesseState and states["arpiesse-exchange"] is ArpiesseState
    assert states["standard-dp"] is DPState
    assert states["kriegsplomacy"] is KriegsplomacyState
    assert states["superdiplomacy"] is SuperdiplomacyState
    assert all(issubclass(s, VariantState) for s in states.values() if s is not None)


def test_arpiesse_options_are_read_checked_and_written_through_the_model() -> None:
    plain = find_variant("arpiesse")
    on = position_from_json({"variant": "arpiesse", "options": {"colour_exchange": True}})[0]
    assert dict(on.extra) == {"colour_exchange": True}
    assert ArpiesseState.lasting(on.extra) == on.extra  # options outlive every phase
    assert "options" not in position_to_json(Position.initial(variant=plain))
    with pytest.raises(PhaseError, match=r'unknown options .*: colour$'):
        position_from_json({"variant": "arpiesse", "options": {"colour": True}})
    with pytest.raises(PhaseError, match=r"options\.colour_exchange: .*true or false"):
        position_from_json({"variant": "arpiesse", "options": {"colour_exchange": 1}})


def test_dp_bids_are_read_through_the_model_and_end_with_their_phase() -> None:
    doc = {"variant": "standard-dp",
           "bids": {"FRANCE": [{"order": "A Bel - Bur", "dp": 1}, "2 DP: A Hol H"]}}
    position = position_from_json(doc)[0]
    assert [(b.power, b.order, b.dp) for b in bids_of(position)] == [
        ("FRANCE", "A Bel - Bur", 1), ("FRANCE", "A Hol H", 2)]
    assert "bids" not in position_to_json(position)  # secret: never written
    assert "bids" not in DPState.lasting(position.extra)
    assert bids_of(adjudicate(position, {}).next) == ()
    with pytest.raises(PhaseError, match=r"bids\.FRANCE\[0\] has no 'order' field"):
        position_from_json({"variant": "standard-dp", "bids": {"FRANCE": [{"dp": 1}]}})
    with pytest.raises(PhaseError, match=r"unknown keys in bids\.FRANCE"):
        position_from_json({"variant": "standard-dp",
                            "bids": {"FRANCE": [{"order": "A Hol H", "dp": 1, "x": 0}]}})
    again = with_bids(position, {"FRANCE": ["1 DP: A Bel H"]})
    assert [b.order for b in bids_of(again)] == ["A Bel H"]


def test_superdiplomacy_state_is_checked_field_by_field() -> None:
    game = Game.new(variant="superdiplomacy")
    doc = game.phase_document()
    assert "seed" not in doc  # secret until the phase is processed
    bad = copy.deepcopy(doc)
    bad["extra"] = {**bad.get("extra", {}), "dice": {"phase": "S1901M"}}
    with pytest.raises(PhaseError, match=r"extra\.dice has no 'scheme' field"):
        position_from_json(bad)
    bad["extra"] = {"weather": "fine"}
    with pytest.raises(PhaseError, match='unknown Superdiplomacy fields in "extra": weather'):
        position_from_json(bad)
    with pytest.raises(PhaseError, match='"seed" must be a non-empty string'):
        position_from_json({**doc, "seed": ""})


# -- game files ----------------------------------------------------------------------------------


def test_a_bad_game_file_names_the_phase_entry_and_field(tmp_path: Path) -> None:
    game = Game.new()
    game.set_orders("FRANCE", ["A Par - Bur"])
    game.process()
    doc = copy.deepcopy(game.to_json())
    doc["phases"][0]["results"]["FRANCE"][0]["result"] = "wins"
    with pytest.raises(GameError, match=r"phase entry 1 \(S1901M\): results\.FRANCE\[0\]\."
                                        r"result: a result is one of succeeds, fails, "
                                        r"invalid, not 'wins'$"):
        Game.from_json(doc)
    doc = copy.deepcopy(game.to_json())
    doc["phases"][1]["position"]["centers"] = {"FRANCE": "PAR"}
    with pytest.raises(GameError, match=r"phase entry 2 \(F1901M\): position\.centers\."
                                        r"FRANCE: centers of FRANCE must be a list"):
        Game.from_json(doc)
    doc = copy.deepcopy(game.to_json())
    doc["phases"][0]["notes"] = "x"
    with pytest.raises(GameError, match=r"unknown keys in phases\[0\]: notes"):
        Game.from_json(doc)


# -- map files -----------------------------------------------------------------------------------

TINY = """
[map]
name = "tiny"
victory_centers = 1

[powers.RED]
name = "Red"

[provinces]
AAA = { name = "Alpha", type = "land", sc = true, home = "RED" }
BBB = { name = "Beta", type = "land" }

[army]
AAA = "BBB"

[start.units]
RED = ["A AAA"]
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('type = "land", sc', 'type = "swamp", sc',
         "provinces.AAA.type: the type of a province is land, coast, sea or impassable"),
        ("victory_centers = 1", 'victory_centers = "many"', "map.victory_centers: "),
        ('AAA = "BBB"', "AAA = 2", 'army.AAA: adjacencies are written LOC = "LOC LOC ..."'),
        ('RED = ["A AAA"]', 'RED = "A AAA"', "start.units.RED: "),
        ('name = "Red"', 'name = "Red"\nmotto = "onward"', "unknown keys in powers.RED: motto"),
        ('sc = true, home', 'sc = "yes", home', "provinces.AAA.sc: "),
    ],
)
def test_a_broken_map_file_gives_a_clear_error(tmp_path: Path, old: str, new: str,
                                               message: str) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    assert load_map(str(path)).province_count == 2
    broken = tmp_path / "broken.toml"
    assert old in TINY
    broken.write_text(TINY.replace(old, new))
    with pytest.raises(MapError) as caught:
        load_map(str(broken))
    assert str(caught.value).startswith(f"map {str(broken)!r}: ")
    assert message in str(caught.value)


def test_a_broken_extended_map_names_its_own_file(tmp_path: Path) -> None:
    parent = tmp_path / "parent.toml"
    parent.write_text(TINY.replace('type = "land", sc', 'type = "swamp", sc'))
    child = tmp_path / "child.toml"
    child.write_text(f'[map]\nextends = "{parent}"\nname = "child"\n')
    with pytest.raises(MapError, match=rf"map {str(parent)!r}: provinces\.AAA\.type"):
        load_map(str(child))
    child.write_text(f'[map]\nextends = "{tmp_path / "tiny.toml"}"\n[remove]\narmy = ["AAA"]\n')
    (tmp_path / "tiny.toml").write_text(TINY)
    with pytest.raises(MapError, match=r"remove\.army: 'AAA' must name two places"):
        load_map(str(child))


def test_a_minor_powers_default_orders_are_checked_with_the_map(tmp_path: Path) -> None:
    text = (MAPS / "sub-saharan-excerpt.toml").read_text(encoding="utf-8").replace(
        '[minor_powers.KASONGO]\nname = "Kasongo"',
        '[minor_powers.KASONGO]\nname = "Kasongo"\ndefault = 3')
    path = tmp_path / "excerpt.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError, match=r"minor_powers\.KASONGO\.default"):
        load_map(str(path))


def test_the_renderer_reads_node_positions_from_the_checked_file(tmp_path: Path) -> None:
    from calhamer.render.geometry import geometry_for

    path = tmp_path / "placed.toml"
    path.write_text(TINY.replace('name = "Beta", type = "land"',
                                 'name = "Beta", type = "land", x = 300, y = 40'))
    m = load_map(str(path))
    assert m.file.provinces["BBB"].x == 300
    assert geometry_for(m).shapes["BBB"].unit != geometry_for(m).shapes["AAA"].unit
