"""Rule modules: how a variant's collaborators are built from the modules it lists.

The machinery is in :mod:`calhamer.variant` (``Layers``, ``RuleModule``, the building of a
class's collaborators) and :func:`calhamer.documents.state.combine_states`; the variant specs
and files are tested in ``test_composition.py``.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest

from calhamer.bids import BidRule
from calhamer.errors import CalhamerError
from calhamer.formats import position_from_json, position_to_json
from calhamer.notation import STANDARD_NOTATION, Notation
from calhamer.phases.handlers import STANDARD_PHASES, Movement, PhaseHandler
from calhamer.position import Position
from calhamer.variant import STANDARD, Layers, RuleModule, Variant
from calhamer.variants import find_variant
from calhamer.variants.arpiesse import Arpiesse, ArpiesseNotation, ArpiesseResolver, Colours
from calhamer.variants.dp import DPResolver, DPVariant, Neutrals
from calhamer.variants.kriegsplomacy import (
    FlexibleBuilds,
    Fog,
    Kriegsplomacy,
    KriegsplomacyNotation,
    KriegsplomacyVisibility,
)
from calhamer.variants.superdiplomacy import Stacks, Superdiplomacy
from calhamer.views import STANDARD_VISIBILITY


def test_each_variant_lists_the_modules_it_is_built_from() -> None:
    assert Variant.modules == ()
    assert Kriegsplomacy.modules == (Fog, FlexibleBuilds)
    assert Arpiesse.modules == (Colours,)
    assert DPVariant.modules == (Neutrals,)
    assert Superdiplomacy.modules == (Stacks,)


def test_a_preset_keeps_its_modules_own_collaborators() -> None:
    """One module's layer is used as it is: the preset's notation is the module's class."""
    assert type(Kriegsplomacy.notation) is KriegsplomacyNotation
    assert type(Kriegsplomacy.visibility) is KriegsplomacyVisibility
    assert type(Arpiesse.notation) is ArpiesseNotation
    assert Arpiesse.resolver_class is ArpiesseResolver
    assert DPVariant.resolver_class is DPResolver
    # what no module changes stays the standard game's, the very objects
    assert Arpiesse.visibility is STANDARD_VISIBILITY
    assert Kriegsplomacy.phases["A"] is STANDARD_PHASES["A"]
    assert FlexibleBuilds.notation is STANDARD_NOTATION


def test_layers_of_two_modules_combine_in_the_order_of_the_bases() -> None:
    class FogAndColours(Fog, Colours):
        name = "test-fog-and-colours"

    notation = type(FogAndColours.notation)
    assert notation.__mro__[1:4] == (KriegsplomacyNotation, ArpiesseNotation, Notation)
    resolver = FogAndColours.resolver_class
    assert resolver is ArpiesseResolver  # fog has no resolver of its own
    handler = type(FogAndColours.phases["M"])
    assert issubclass(handler, Movement) and handler.__mro__[1].__name__ == "FogMovement"
    assert set(FogAndColours.phases) == {"M", "R", "A", "X"}


def test_hooks_of_two_modules_cooperate_through_super() -> None:
    """Fog's retreat phase after every movement phase, then the colour exchange after it."""

    class FogAndExchange(Fog, Colours):
        name = "test-fog-and-exchange"
        colour_exchange = True

    variant = FogAndExchange()
    spring = Position.initial("standard", variant=variant)
    from calhamer.rules import find_rules

    rules = find_rules("datc")
    after_movement = variant.next_phase(spring, rules)
    assert after_movement is not None and str(after_movement.phase) == "S1901R"
    after_retreats = variant.next_phase(after_movement, rules)
    assert after_retreats is not None and str(after_retreats.phase) == "U1901X"


def test_two_modules_that_refuse_each_other_cannot_make_a_class() -> None:
    with pytest.raises(CalhamerError, match="stacks cannot be played with colours"):

        class Both(Stacks, Colours):
            name = "test-both"


def test_two_modules_replacing_one_phase_kind_are_refused() -> None:
    class OwnMovement(PhaseHandler):
        pass

    class One(RuleModule):
        module_name = "test-one"
        layers = Layers(phases={"M": OwnMovement})

    class Other(RuleModule):
        module_name = "test-other"
        layers = Layers(phases={"M": Movement})

    with pytest.raises(CalhamerError, match="two modules play the 'M' phases"):

        class Clash(One, Other):
            name = "test-clash"


def test_two_modules_taking_bids_are_refused() -> None:
    class OtherBids(RuleModule):
        module_name = "test-other-bids"
        layers = Layers(bids=type("OtherRule", (BidRule,), {}))

    with pytest.raises(CalhamerError, match="two modules take bids"):

        class Clash(Neutrals, OtherBids):
            name = "test-bids-clash"


def test_a_class_setting_a_collaborator_itself_keeps_it() -> None:
    mine = Notation()

    class Own(Fog):
        name = "test-own-notation"
        notation = mine

    assert Own.notation is mine
    assert type(Own.visibility) is KriegsplomacyVisibility


def test_the_module_options_are_class_attributes_with_their_meanings() -> None:
    assert set(Neutrals.options) == {"dp_per_phase", "dp_per_center", "dp_cap", "buyable"}
    assert all(hasattr(Neutrals, name) for name in Neutrals.options)
    assert set(Colours.options) == {"colour_exchange"}
    assert isinstance(Colours.options, MappingProxyType)


def test_a_module_names_the_board_it_cannot_be_played_on() -> None:
    from calhamer.map import load_map

    assert Neutrals.board_problem(load_map("standard")) is not None
    assert Neutrals.board_problem(load_map("standard-dp")) is None
    assert Fog.board_problem(load_map("standard")) is None


def test_two_modules_state_share_a_document_key() -> None:
    """Fog's spies and Superdiplomacy's dice both live under "extra": the combined model
    takes both, each module reads its own keys, and the document is written back whole."""

    class FogAndStacks(Fog, Stacks):
        name = "test-fog-and-stacks"
        map_name = "superdiplomacy"

    state = FogAndStacks.state
    assert state is not None
    extra_model = state.model_fields["extra"].annotation
    assert "spies" in str(state.model_json_schema())
    assert "seed_hash" in str(state.model_json_schema())
    assert extra_model is not None
    variant = FogAndStacks()
    m = Position.initial(variant=variant).map
    doc = {"extra": {"armed": "F1901M", "spies": [
        {"power": "RUSSIA", "unit": "A MOS", "sees": ["STP", "UKR"]}]}}
    extra = state.read(variant, m, doc)
    assert extra["armed"] == "F1901M"
    spies = extra["spies"]
    assert len(spies) == 1 and spies[0].power == "RUSSIA"  # type: ignore[index]
    position = Position.initial(variant=variant).replace(extra=MappingProxyType(dict(extra)))
    written: dict[str, object] = {}
    state.write(variant, position, written)
    assert written["extra"]["armed"] == "F1901M"  # type: ignore[index]
    assert written["extra"]["spies"][0]["sees"] == ["STP", "UKR"]  # type: ignore[index]


def test_a_key_no_module_of_a_combined_state_knows_is_refused() -> None:
    class FogAndStacks(Fog, Stacks):
        name = "test-fog-and-stacks-2"
        map_name = "superdiplomacy"

    variant = FogAndStacks()
    m = Position.initial(variant=variant).map
    with pytest.raises(CalhamerError, match="extra"):
        FogAndStacks.state.read(variant, m, {"extra": {"nonsense": 1}})  # type: ignore[union-attr]


def test_a_composed_position_round_trips_through_its_document() -> None:
    """A composed variant that is no preset is recorded by its spec text; a spec that is a
    preset's is the preset, recorded by its name."""
    assert find_variant("standard-dp+fog+neutrals").name == "fog-dp"
    variant = find_variant("standard+colours+flexible-builds")
    position = Position.initial(variant=variant)
    doc = position_to_json(position)
    assert doc["variant"] == "standard+colours+flexible-builds"
    again, _, _ = position_from_json(doc)
    assert again == position
    assert again.variant is variant


def test_the_standard_game_is_built_from_no_module() -> None:
    assert STANDARD.modules == ()
    assert STANDARD.notation is STANDARD_NOTATION


def test_each_module_checks_its_own_options() -> None:
    """The option's module reads it: true or false, or a whole number, by default; the
    neutrals module's own forms (a list of order kinds, none for no cap)."""
    assert Colours.option_value("colour_exchange", True) is True
    with pytest.raises(CalhamerError, match="colour_exchange must be true or false"):
        Colours.option_value("colour_exchange", 1)
    assert Neutrals.option_value("dp_cap", None) is None
    assert Neutrals.option_value("dp_cap", 2) == 2
    assert Neutrals.option_value("buyable", ["Hold", "move"]) == frozenset({"hold", "move"})
    with pytest.raises(CalhamerError, match="'fly' is not an order kind"):
        Neutrals.option_value("buyable", ["hold", "fly"])
    with pytest.raises(CalhamerError, match="dp_per_center must be a whole number"):
        Neutrals.option_value("dp_per_center", None)
