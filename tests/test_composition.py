"""Tests of variants composed from rule modules: specs and their text, the presets, refusals,
variant files, composed games played and read back, the command line and new boards."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from calhamer import Build, Disband, Game
from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import position_to_json
from calhamer.options import possible_orders
from calhamer.phases import adjudicate
from calhamer.position import Position
from calhamer.records import results_to_json
from calhamer.variant import Variant
from calhamer.variants import all_variants, find_variant
from calhamer.variants.composition import (
    MODULES,
    VariantSpec,
    compose,
    find_module,
    load_variant_file,
    parse_spec,
    spec_of,
)

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

PRESETS = {
    "kriegsplomacy": "kriegsplomacy+fog+flexible-builds",
    "arpiesse": "standard+colours",
    "arpiesse-exchange": "standard+colours?colour_exchange=true",
    "standard-dp": "standard-dp+neutrals",
    "sub-saharan-excerpt": "sub-saharan-excerpt+neutrals?dp_cap=none&dp_per_phase=2",
    "superdiplomacy": "superdiplomacy+stacks",
    "fog-dp": "standard-dp+fog+neutrals",
    "arpiesse-fog": "standard+fog+colours",
}


def refused(text: str) -> str:
    """The reason a spec (or a variant file's path) is refused."""
    with pytest.raises(CalhamerError) as info:
        find_variant(text)
    return str(info.value)


# -- the spec and its text -------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "standard+fog",
    "standard+fog+colours",
    "kriegsplomacy+fog+colours+flexible-builds",
    "standard-dp+fog+neutrals?dp_cap=2",
    "standard-dp+neutrals?buyable=hold,support&dp_cap=none&dp_per_center=2",
    "standard+colours?colour_exchange=true&rules=1971",
    "standard-dp+standard",
])
def test_a_canonical_spec_text_reads_back_to_itself(text: str) -> None:
    spec = parse_spec(text)
    assert spec.text() == text
    assert parse_spec(spec.text()) == spec


def test_the_modules_are_combined_in_one_order_whatever_order_they_are_named_in() -> None:
    names = ["flexible-builds", "colours", "fog"]
    texts = {VariantSpec.of("kriegsplomacy", order).text()
             for order in itertools.permutations(names)}
    assert texts == {"kriegsplomacy+fog+colours+flexible-builds"}
    assert list(MODULES) == ["fog", "neutrals", "garrisons", "colours", "stacks",
                             "flexible-builds"]
    one = find_variant("kriegsplomacy+flexible-builds+colours+fog")
    assert one is find_variant("kriegsplomacy+fog+colours+flexible-builds")
    # The class's bases are the modules in that order: fog outermost.
    assert [m.module_name for m in type(one).modules] == ["fog", "colours", "flexible-builds"]


def test_options_and_their_lists_are_written_in_one_order() -> None:
    a = parse_spec("standard-dp+neutrals?dp_cap=2&buyable=support,hold")
    b = parse_spec("standard-dp+neutrals?buyable=hold,support&dp_cap=2")
    assert a == b
    assert a.text() == "standard-dp+neutrals?buyable=hold,support&dp_cap=2"


def test_other_names_of_modules_are_read_as_the_module() -> None:
    assert parse_spec("standard+colors+fog-of-war").modules == ("fog", "colours")
    assert find_module("Colors") is find_module("colours")


def test_the_standard_rules_on_a_board_are_written_board_plus_standard() -> None:
    assert VariantSpec.of("standard-dp", []).text() == "standard-dp+standard"
    assert find_variant("standard+standard") is find_variant("standard")
    plain = find_variant("standard-dp+standard")
    assert plain.name == "standard-dp+standard" and type(plain).modules == ()
    assert Position.initial(variant=plain).map.name == "standard-dp"


# -- the presets -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_the_composition_of_its_own_spec(name: str) -> None:
    preset = find_variant(name)
    spec = spec_of(preset)
    assert spec is not None and spec.text() == PRESETS[name]
    assert compose(spec, all_variants) is preset
    assert compose(PRESETS[name], all_variants) is preset
    assert find_variant(PRESETS[name]) is preset


def _random_orders(position: Position, rules: str, rng: random.Random) -> dict[str, list]:
    orders: dict[str, list] = {}
    due = position.adjustments() if position.phase.is_adjustment else {}
    for power in position.map.power_codes:
        options = possible_orders(position, power, rules)
        if not position.phase.is_adjustment:
            orders[power] = [rng.choice(found) for found in options.values() if found]
            continue
        n = due.get(power, 0)
        kind = Build if n > 0 else Disband
        places = [loc for loc, found in options.items() if found and isinstance(found[0], kind)]
        picked = rng.sample(places, min(abs(n), len(places)))
        orders[power] = [options[loc][0] for loc in picked]
    return orders


def _document(position: Position, rules: str) -> dict:
    doc = position_to_json(position, rules)
    doc.pop("variant")
    return doc


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_and_the_class_composed_from_its_modules_judge_alike(name: str) -> None:
    """A spec composed without the registry's presets is a class made from the modules; it
    plays each phase exactly as the preset's own class does."""
    preset = find_variant(name)
    spec = spec_of(preset)
    assert spec is not None
    made = compose(spec)  # no presets given: a class of the modules
    assert type(made) is not type(preset) and made.name == spec.text()
    assert [m.module_name for m in type(made).modules] == list(spec.modules)
    assert find_variant(spec.text()) is preset  # the registry still answers with the preset
    rules = preset.default_rules
    seeds = itertools.count()
    seed_a = seed_b = lambda: f"seed-{next(seeds) // 2}"  # both draw one seed in turn
    a = preset.prepare_phase(Position.initial(variant=preset), seed_a)
    b = made.prepare_phase(Position.initial(variant=made), seed_b)
    rng = random.Random(name)
    played = 0
    while played < 9:
        assert _document(a, rules) == _document(b, rules)
        orders = _random_orders(a, rules, rng)
        out_a, out_b = adjudicate(a, orders, rules), adjudicate(b, orders, rules)
        assert results_to_json(out_a) == results_to_json(out_b), a.phase
        a = preset.prepare_phase(out_a.next, seed_a)
        b = made.prepare_phase(out_b.next, seed_b)
        played += 1
    assert played == 9
    assert _document(a, rules) == _document(b, rules)


# -- refusals, each with its reason (docs/rules/composition.md) ---------------------------------


def test_colours_with_stacks_is_refused_with_the_reason() -> None:
    why = refused("superdiplomacy+stacks+colours")
    assert "stacks cannot be played with colours" in why
    assert "colour" in why and "dice" in why


def test_flexible_builds_with_stacks_is_refused_with_the_reason() -> None:
    why = refused("superdiplomacy+stacks+flexible-builds")
    assert "stacks cannot be played with flexible-builds" in why
    assert "production" in why


def test_a_rule_edition_with_stacks_is_refused_with_the_reason() -> None:
    why = refused("superdiplomacy+stacks?rules=alexander")
    assert "stacks cannot be played with a rule edition" in why
    assert "paradox" in why


def test_neutrals_on_a_board_without_minor_powers_is_refused() -> None:
    why = refused("standard+neutrals")
    assert "neutrals cannot be played here" in why and "no minor powers" in why
    # A board with minor powers (the Small Powers) takes them.
    on_super = find_variant("superdiplomacy+stacks+neutrals")
    assert [m.module_name for m in type(on_super).modules] == ["neutrals", "stacks"]


def test_an_unknown_module_is_refused_with_the_modules_there_are() -> None:
    why = refused("standard+fog+weather")
    assert "no rule module 'weather'" in why
    assert all(name in why for name in MODULES)


def test_an_option_no_module_takes_is_refused() -> None:
    why = refused("standard+fog+colours?dp_cap=2")
    assert "no module of this variant takes the option 'dp_cap'" in why
    assert "colour_exchange" in why


@pytest.mark.parametrize(("text", "said"), [
    ("standard-dp+neutrals?dp_cap=-1", "option dp_cap must be a whole number of at least 0"),
    ("standard-dp+neutrals?dp_cap=lots", "not 'lots'"),
    ("standard+colours?colour_exchange=2", "option colour_exchange must be true or false"),
    ("standard-dp+neutrals?buyable=hold,fly", "'fly' is not an order kind"),
    ("standard+colours?rules=1066", "no rule edition '1066'"),
    ("standard+fog?dp_cap", "has no value"),
    ("atlantis+fog", "the board 'atlantis' could not be loaded"),
    ("standard+", "is not a composed variant"),
])
def test_a_bad_option_value_or_spec_is_refused_with_the_reason(text: str, said: str) -> None:
    assert said in refused(text)


# -- variant files -----------------------------------------------------------------------------


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_variant_file_gives_the_variant_of_its_spec(tmp_path: Path) -> None:
    path = write(tmp_path, "fog-colours.toml",
                 'title = "Painted fog"\nboard = "standard"\nmodules = ["colours", "fog"]\n'
                 "[options]\ncolour_exchange = true\n")
    variant = find_variant(path)
    assert variant.name == "standard+fog+colours?colour_exchange=true"
    assert variant is find_variant(variant.name)
    assert load_variant_file(path, all_variants) is variant


def test_a_variant_file_of_a_presets_spec_is_the_preset(tmp_path: Path) -> None:
    path = write(tmp_path, "k.toml",
                 'board = "kriegsplomacy"\nmodules = ["flexible-builds", "fog"]\n')
    assert find_variant(path) is find_variant("kriegsplomacy")


def test_a_variant_file_names_its_map_file_relative_to_itself(tmp_path: Path) -> None:
    (tmp_path / "boards").mkdir()
    board = (ROOT / "src" / "calhamer" / "maps" / "standard-dp.toml").read_text()
    (tmp_path / "boards" / "my-dp.toml").write_text(
        board.replace('name = "standard-dp"', 'name = "my-dp"'), encoding="utf-8")
    path = write(tmp_path, "v.toml", 'board = "boards/my-dp.toml"\nmodules = ["neutrals"]\n')
    variant = find_variant(path)
    resolved = str((tmp_path / "boards" / "my-dp.toml").resolve())
    assert variant.name == f"{resolved}+neutrals"
    assert Position.initial(variant=variant).map.name == "my-dp"


@pytest.mark.parametrize(("text", "said"), [
    ('board = "standard"\nmodules = "fog"\n', '"modules" must be a list of rule module names'),
    ('board = "standard"\nmodules = [3]\n', "modules[0]"),
    ('modules = ["fog"]\n', "has no 'board' field"),
    ('board = 5\nmodules = ["fog"]\n', '"board" must be a map'),
    ('board = "standard"\nmodules = ["fog"]\nspies = 3\n', "unknown fields in a variant file: "
     "spies"),
    ('board = "standard-dp"\nmodules = ["neutrals"]\n[options]\ndp_cap = 2.5\n',
     "options.dp_cap: an option's value must be"),
    ('board = "standard"\nmodules = ["fog"]\noptions = 3\n', '"options" must be a table'),
    ('board = "standard"\nmodules = ["fog"]\nrules = 1971\n', '"rules" must be'),
    ('board = "standard"\nmodules = ["fog"]\ntitle = ["a"]\n', '"title" must be text'),
])
def test_the_variant_files_errors_name_the_field(tmp_path: Path, text: str, said: str) -> None:
    path = write(tmp_path, "bad.toml", text)
    why = refused(path)
    assert why.startswith(f"variant file {path!r}: ")
    assert said in why


def test_a_variant_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.toml", 'board = "standard"\nmodules = ["fog"\n')
    assert f"the variant file {path!r} is not TOML" in refused(path)


def test_a_missing_variant_file_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.toml")
    assert f"the variant file {path!r} could not be read" in refused(path)


def test_a_variant_file_of_a_refused_pair_gives_the_reason(tmp_path: Path) -> None:
    path = write(tmp_path, "sc.toml",
                 'board = "superdiplomacy"\nmodules = ["stacks", "colours"]\n')
    assert "stacks cannot be played with colours" in refused(path)


# -- composed games ------------------------------------------------------------------------------


def play_out(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.is_done():
        for power in game.powers():
            options = game.possible_orders(power)
            due = game.orders_due(power)
            if due == 0:
                lines = [rng.choice(orders) for orders in options.values() if orders]
            else:
                kind = Build if due > 0 else Disband
                places = [loc for loc, orders in options.items()
                          if orders and isinstance(orders[0], kind)]
                lines = [options[loc][0] for loc in rng.sample(places, min(abs(due),
                                                                          len(places)))]
            game.set_orders(power, lines, check=False)
        game.process()


READ_BACK = """
import json, sys
from calhamer import Game
game = Game.load(sys.argv[1])
problems = [p for check in game.verify() for p in check.problems]
print(json.dumps({"variant": game.variant, "phases": len(game.history),
                  "current": game.current.variant.name, "problems": problems,
                  "modules": [m.module_name for m in type(game.current.variant).modules]}))
"""


@pytest.mark.parametrize("text", ["standard+fog+colours?colour_exchange=true",
                                  "kriegsplomacy+fog+flexible-builds+colours"])
def test_a_composed_game_is_played_and_read_back_in_another_process(
        tmp_path: Path, text: str) -> None:
    game = Game.new(text, max_year=1903)
    spec = parse_spec(text)
    assert game.variant == spec.text()
    play_out(game, seed=15)
    assert game.result() is not None
    assert game.current.phase.year >= 1903
    path = tmp_path / "game.json"
    game.save(path)
    assert json.loads(path.read_text())["variant"] == spec.text()
    out = subprocess.run([sys.executable, "-c", READ_BACK, str(path)], capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(SRC)}).stdout
    seen = json.loads(out)
    assert seen == {"variant": spec.text(), "phases": len(game.history),
                    "current": spec.text(), "problems": [], "modules": list(spec.modules)}


def test_a_game_of_a_variant_file_needs_only_its_game_file(tmp_path: Path) -> None:
    path = write(tmp_path, "v.toml", 'board = "standard-dp"\nmodules = ["fog", "neutrals"]\n'
                 "[options]\ndp_cap = 2\n")
    game = Game.new(path, max_year=1902)
    Path(path).unlink()
    play_out(game, seed=3)
    saved = tmp_path / "g.json"
    game.save(saved)
    again = Game.load(saved)
    assert again.variant == "standard-dp+fog+neutrals?dp_cap=2"
    assert type(again.current.variant).dp_cap == 2
    assert all(check.ok for check in again.verify())


def test_a_composed_variant_equals_itself_and_no_preset() -> None:
    a = find_variant("standard+fog+colours")
    assert a == find_variant("standard+colours+fog")
    assert a != find_variant("arpiesse") and a != find_variant("kriegsplomacy")
    assert isinstance(a, Variant)


# -- the command line -------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def user_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line a refused command prints (exit 2, nothing on stdout, no traceback)."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("calhamer: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


EXAMPLES = ROOT / "examples" / "variants"


def test_the_example_variant_files_load() -> None:
    names = {p.name: find_variant(str(p)).name for p in sorted(EXAMPLES.glob("*.toml"))}
    assert names == {
        "fog-dp.toml": "fog-dp",  # these modules on this board are a preset
        "painted-fog.toml": "kriegsplomacy+fog+colours+flexible-builds"
                            "?colour_exchange=true&rules=1971",
    }
    assert find_variant(str(EXAMPLES / "painted-fog.toml")).default_rules == "1971"


def test_game_new_takes_a_variant_file_and_later_commands_need_no_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    variant = tmp_path / "fog-dp.toml"
    variant.write_text((EXAMPLES / "fog-dp.toml").read_text(), encoding="utf-8")
    game = str(tmp_path / "game.json")
    code, out, _ = run(capsys, "game", "new", game, "--variant", str(variant))
    assert code == 0 and "Fog of war with DP neutrals" in out
    assert json.loads(Path(game).read_text())["variant"] == "fog-dp"
    variant.unlink()  # from here on, the game file is all there is
    orders = tmp_path / "france.txt"
    orders.write_text("A PAR - BUR\nA MAR - SPA\n")
    code, _, err = run(capsys, "game", "orders", game, "FRANCE", str(orders))
    assert code == 0, err
    code, out, _ = run(capsys, "game", "process", game)
    assert code == 0
    code, out, _ = run(capsys, "game", "show", game, "--as", "FRANCE")
    assert code == 0 and "A BUR" in out
    svg = tmp_path / "france.svg"
    code, _, _ = run(capsys, "render", game, "--as", "FRANCE", "-o", str(svg))
    assert code == 0 and svg.read_text().startswith("<svg")
    assert Game.load(game).current.phase.code == "S1901R"  # fog: a retreat phase always


def test_new_and_adjudicate_take_a_spec_text(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    code, out, _ = run(capsys, "new", "--variant", "standard+colours+fog?colour_exchange=true")
    assert code == 0
    doc = json.loads(out)
    assert doc["variant"] == "standard+fog+colours?colour_exchange=true"
    assert "Red A PAR" in doc["units"]["FRANCE"]
    doc["orders"] = {"FRANCE": ["Red A PAR - BUR"], "GERMANY": ["Red A MUN - BUR"]}
    path = tmp_path / "phase.json"
    path.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "adjudicate", str(path), "--json")
    assert code == 0
    results = json.loads(out)
    assert results["next"]["variant"] == "standard+fog+colours?colour_exchange=true"
    assert results["next"]["phase"] == "S1901R"


def test_simulate_takes_a_variant_file(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    out_file = tmp_path / "games.jsonl"
    code, _, _ = run(capsys, "simulate", "--games", "1", "--max-year", "1902", "--quiet",
                     "--workers", "1", "--variant", str(EXAMPLES / "painted-fog.toml"),
                     "-o", str(out_file))
    assert code == 0
    line = json.loads(out_file.read_text().splitlines()[0])
    assert line["variant"] == ("kriegsplomacy+fog+colours+flexible-builds"
                               "?colour_exchange=true&rules=1971")
    assert line["result"]["ending"] == "draw" and "(1902)" in line["result"]["reason"]
    assert line["phases"] > 10  # fog: a retreat phase after every movement phase


def test_a_refused_variant_is_one_line_on_the_command_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "stacks cannot be played with colours" in user_error(
        capsys, "new", "--variant", "superdiplomacy+colours+stacks")
    assert "could not be read" in user_error(
        capsys, "game", "new", str(tmp_path / "g.json"), "--variant",
        str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text('board = "standard"\nmodules = ["fog"]\nspies = 2\n')
    assert "unknown fields in a variant file: spies" in user_error(
        capsys, "simulate", "--games", "1", "--variant", str(bad))
    assert not (tmp_path / "g.json").exists()


def test_variants_lists_the_rule_modules_with_options_and_refusals(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    listing, _, modules = out.partition("Rule modules")
    assert "kriegsplomacy" in listing and "superdiplomacy" in listing
    for name in MODULES:
        assert f"\n{name} " in modules
        module = find_module(name)
        for option in module.options:
            assert f"option {option} (default " in modules
    assert "option dp_cap (default 3)" in modules
    assert "option colour_exchange (default false)" in modules
    assert "not with colours: Arpiesse decides a clash" in modules
    assert "not with stacks: Superdiplomacy's production" in modules
    assert "not with a rule edition" in modules
    neutrals = modules.split("\nneutrals ")[1].split("\n\n")[0]
    assert "boards: standard-dp, sub-saharan-excerpt, superdiplomacy" in neutrals


def test_the_help_of_variant_options_says_files_and_specs_are_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["new", "--help"], ["game", "new", "--help"], ["simulate", "--help"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        flat = " ".join(out.split())
        assert "standard-dp+fog+neutrals" in flat and "variant file (.toml)" in flat


# -- the variant file's schema ---------------------------------------------------------------


def test_the_example_variant_files_fit_the_published_schema() -> None:
    import tomllib

    import jsonschema

    schema = json.loads((ROOT / "docs" / "schemas" / "variant-file.json").read_text())
    checker = jsonschema.Draft202012Validator(schema)
    for path in sorted(EXAMPLES.glob("*.toml")):
        checker.validate(tomllib.loads(path.read_text(encoding="utf-8")))
    assert not checker.is_valid({"board": "standard", "modules": ["fog"], "spies": 2})
    assert not checker.is_valid({"modules": ["fog"]})
    assert not checker.is_valid({"board": "standard", "options": {"dp_cap": 2.5}})


def test_none_in_a_variant_file_is_no_value(tmp_path: Path) -> None:
    path = write(tmp_path, "ss.toml", 'board = "sub-saharan-excerpt"\nmodules = ["neutrals"]\n'
                 '[options]\ndp_cap = "none"\ndp_per_phase = 2\n')
    assert find_variant(path) is find_variant("sub-saharan-excerpt")


# -- a new board, as docs/maps.md makes one ---------------------------------------------------


def doc_files(folder: Path) -> dict[str, Path]:
    """The files of docs/maps.md's example board, written into ``folder`` as the page has them:
    each a code block whose first line names it (``# lagoon.toml``, ``<!-- lagoon.svg -->``)."""
    import re

    text = (ROOT / "docs" / "maps.md").read_text(encoding="utf-8")
    out = {}
    for body in re.findall(r"```(?:toml|xml)\n(.*?)```", text, re.S):
        first = body.splitlines()[0]
        named = re.fullmatch(r"(?:# |<!-- )(\S+\.(?:toml|svg))(?: -->)?", first)
        if named:
            path = folder / named[1]
            path.write_text(body, encoding="utf-8")
            out[named[1]] = path
    return out


def test_the_new_board_of_docs_maps_loads_plays_and_is_drawn(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch) -> None:
    from calhamer.render import render_svg
    from calhamer.render.geometry import geometry_for

    files = doc_files(tmp_path)
    assert sorted(files) == ["lagoon-fog.toml", "lagoon-plain.toml", "lagoon.svg",
                             "lagoon.toml"]
    monkeypatch.chdir(ROOT)  # the files are found beside each other, not in the working folder
    code, out, _ = run(capsys, "geometry", str(files["lagoon.toml"]), str(files["lagoon.svg"]),
                       "-o", str(tmp_path / "lagoon.geometry.json"))
    assert code == 0 and "7 provinces of 7" in out
    geometry = json.loads((tmp_path / "lagoon.geometry.json").read_text())
    assert geometry["format"] == "calhamer-geometry/1" and geometry["map"] == "lagoon"
    assert (geometry["width"], geometry["height"]) == (400, 300)
    assert geometry["provinces"]["RAV"]["unit"] == [150, 60]  # the drawing's own marker
    for code_, entry in geometry["provinces"].items():  # found anchors lie inside the shape
        x, y = entry["unit"]
        assert 0 < x < 400 and 0 < y < 300, code_
    assert geometry["provinces"]["BRE"]["unit"][0] > 250  # Brenn is the lower right square
    assert geometry["provinces"]["BRE"]["unit"][1] > 200

    plain = find_variant(str(files["lagoon-plain.toml"]))
    assert plain.name == f"{files['lagoon.toml'].resolve()}+standard"
    fog = find_variant(str(files["lagoon-fog.toml"]))
    assert fog.name == f"{files['lagoon.toml'].resolve()}+fog+flexible-builds?rules=2023"
    assert fog.title == "The Lagoon in the fog" and fog.default_rules == "2023"

    start = Position.initial(variant=fog)
    drawn = geometry_for(start.map)
    assert not drawn.schematic and set(drawn.shapes) == {p.code for p in start.map.provinces}
    svg = render_svg(start)
    assert 'id="prov-RAV"' in svg and 'id="unit-BAY"' in svg

    for variant in (plain, fog):
        game = Game.new(str(files["lagoon-plain.toml" if variant is plain else
                                  "lagoon-fog.toml"]), max_year=1903)
        assert game.variant == variant.name
        play_out(game, seed=7)
        assert game.result() is not None
        saved = tmp_path / "game.json"
        game.save(saved)
        assert all(check.ok for check in Game.load(saved).verify())
    code, _, _ = run(capsys, "render", str(saved), "-o", str(tmp_path / "end.svg"))
    assert code == 0 and 'id="prov-MID"' in (tmp_path / "end.svg").read_text()


@pytest.mark.parametrize(("svg", "said"), [
    ("<svg", "is not SVG"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g transform="scale(2)">'
     '<rect id="RAV" width="5" height="5"/></g></svg>', "'RAV' is moved by a transform"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect id="RAV" width="5" height="5"/></svg>',
     "neither a viewBox nor a width and height"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path id="RAV" d="M1,1 L2"/>'
     "</svg>", "ends in the middle of a 'L' command"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
     '<circle id="XYZ.unit" cx="1" cy="1" r="1"/></svg>',
     "markers for provinces with no shape: XYZ"),
])
def test_a_drawing_the_geometry_cannot_read_is_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, svg: str, said: str) -> None:
    files = doc_files(tmp_path)
    drawing = tmp_path / "bad.svg"
    drawing.write_text(svg)
    err = user_error(capsys, "geometry", str(files["lagoon.toml"]), str(drawing),
                     "-o", str(tmp_path / "out.json"))
    assert said in err
    assert not (tmp_path / "out.json").exists()


def test_a_province_the_drawing_lacks_is_named(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    files = doc_files(tmp_path)
    svg = files["lagoon.svg"].read_text().replace('<rect id="BRE"', '<rect id="bre-not"')
    files["lagoon.svg"].write_text(svg)
    code, out, _ = run(capsys, "geometry", str(files["lagoon.toml"]), str(files["lagoon.svg"]),
                       "-o", str(tmp_path / "lagoon.geometry.json"))
    assert code == 0
    assert "note: BRE has no shape: it is drawn as a round node" in out
    assert "6 provinces of 7" in out


def test_a_map_file_given_as_a_variant_is_told_to_be_one(tmp_path: Path) -> None:
    files = doc_files(tmp_path)
    why = refused(str(files["lagoon.toml"]))
    assert "is a map file, not a variant file" in why and "board = " in why


def test_a_map_file_named_in_a_spec_text_is_written_by_its_full_path(
        tmp_path: Path, monkeypatch) -> None:
    doc_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    variant = find_variant("lagoon.toml+flexible-builds")
    assert variant.name == f"{(tmp_path / 'lagoon.toml').resolve()}+flexible-builds"
    game = Game.new("lagoon.toml+flexible-builds")
    monkeypatch.chdir(ROOT)
    saved = tmp_path / "game.json"
    game.save(saved)
    assert Game.load(saved).current.map.name == "lagoon"
