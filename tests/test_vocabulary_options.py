"""The rules vocabulary as options (issue 30, item 1): the standard game's own options, carried
in a variant's canonical text like a module's, taken by variant files, checked with one-line
errors, listed by ``calhamer variants``, with defaults that leave every variant as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.variant import STANDARD, Variant
from calhamer.variants import BUILT_IN, find_variant
from calhamer.variants.composition import compose, parse_spec, spec_of
from calhamer.vocabulary import OPTIONS


@pytest.mark.parametrize("text", [
    "standard+standard?build_sites=owned",
    "standard+standard?powers=austria,france",
    "standard+standard?lead_margin=20&lead_margin_year=2001&solo_centres=49"
    "&solo_needs_lead=true&victory_phase=a",
    "standard+standard?draw_vote=false&last_year=1910&unplayed=italy",
    "standard-dp+neutrals?build_sites=any-home&dp_cap=2",
    "standard+garrisons?garrison_unowned=true&missing_builds=army-first-winter",
])
def test_options_are_carried_in_the_canonical_text(text: str) -> None:
    assert parse_spec(text).text() == text
    variant = find_variant(text)
    assert variant.name == text
    assert spec_of(variant) is not None and spec_of(variant).text() == text


def test_options_the_defaults_are_the_standard_games() -> None:
    for option in OPTIONS.values():
        assert getattr(Variant, option.name) == option.default, option.name
    for name in BUILT_IN:  # every variant built for calhamer plays as it did (boards shipped
        variant = find_variant(name)  # as files, godip's and DPjudge's, set their own)
        for option in OPTIONS.values():
            assert getattr(variant, option.name) == option.default, (variant.name, option.name)
    assert find_variant("standard+standard") is STANDARD


def test_options_a_variant_file_sets_every_kind_of_value(tmp_path: Path) -> None:
    path = tmp_path / "fva.toml"
    path.write_text('title = "France vs Austria, to 1910"\nboard = "standard"\n\n[options]\n'
                    'powers = ["FRANCE", "Austria"]\nbuild_sites = "owned"\nlast_year = 1910\n'
                    'draw_vote = false\nsolo_centres = "none"\n', encoding="utf-8")
    variant = find_variant(str(path))
    assert variant.powers == ("AUSTRIA", "FRANCE")
    assert (variant.build_sites, variant.last_year, variant.draw_vote) == ("owned", 1910, False)
    assert variant.solo_centres is None and variant.title == "France vs Austria, to 1910"
    assert variant is compose(variant.name)


def test_options_a_python_variant_sets_them_in_its_class_body() -> None:
    class FranceAustria(Variant):
        name = "france-austria-test"
        powers = ("AUSTRIA", "FRANCE")

    spec = spec_of(FranceAustria())
    assert spec is not None and spec.text() == "standard+standard?powers=austria,france"
    assert FranceAustria().board().power_codes == ("AUSTRIA", "FRANCE")


@pytest.mark.parametrize(("text", "said"), [
    ("standard+standard?build_sites=anywhere",
     "option build_sites must be one of home, owned, any-home, listed, not 'anywhere'"),
    ("standard+standard?missing_builds=fleets",
     "option missing_builds must be one of waive, army-first-winter"),
    ("standard+standard?solo_centres=-1", "option solo_centres must be a whole number"),
    ("standard+standard?solo_needs_lead=2", "option solo_needs_lead must be true or false"),
    ("standard+standard?victory_phase=r", "option victory_phase must be one of any, M, A"),
    ("standard+standard?powers=", "option powers must name at least one power"),
    ("standard+standard?powers=narnia", "option powers: 'NARNIA' is not a power"),
    ("standard+standard?weather=rain", "no module of this variant takes the option 'weather'"),
])
def test_options_bad_values_are_refused_in_one_line(text: str, said: str) -> None:
    with pytest.raises(CalhamerError) as info:
        find_variant(text)
    assert said in str(info.value) and "\n" not in str(info.value)


def test_options_unknown_option_lists_the_vocabulary_too() -> None:
    with pytest.raises(CalhamerError) as info:
        find_variant("standard+fog?weather=rain")
    assert "build_sites" in str(info.value) and "solo_centres" in str(info.value)


def test_options_a_variant_file_with_a_bad_value_names_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('board = "standard"\n[options]\nbuild_sites = 3\n', encoding="utf-8")
    with pytest.raises(CalhamerError, match="option build_sites must be one of"):
        find_variant(str(path))


def test_options_calhamer_variants_lists_the_vocabulary_with_meanings(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    assert "Options every variant takes" in out
    for option in OPTIONS.values():
        assert f"option {option.name} (default " in out
        assert option.meaning in out
    assert "garrisons" in out and "option garrison_unowned (default false)" in out


def test_calhamer_variants_says_why_a_module_fits_no_shipped_board_as_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    """No shipped map has a garrison of its own, so the garrisons module plays on none of them
    with its defaults: the listing says so and names the option that makes it playable,
    instead of an empty list of boards."""
    assert main(["variants"]) == 0
    out = capsys.readouterr().out
    garrisons = out.split("\ngarrisons", 1)[1].split("\n\n", 1)[0]
    assert "boards: none as shipped" in garrisons
    assert "set the option garrison_unowned = true" in garrisons
    assert "boards:  (" not in out  # no module is listed with an empty list of boards
