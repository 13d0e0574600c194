"""The composed presets: variants made of several rule modules, shipped by name.

Each is exactly a board, its modules and options (``spec_of`` gives it back, and composing
that spec returns the preset); what happens where its modules meet is decided in
``docs/rules/composition.md``.
"""

from __future__ import annotations

from calhamer.variants.arpiesse import Colours
from calhamer.variants.dp import Neutrals
from calhamer.variants.kriegsplomacy import Fog
from calhamer.variants.superdiplomacy import Stacks


class FogWithNeutrals(Fog, Neutrals):
    """Fog of war with DP neutrals on the standard board."""

    name = "fog-dp"
    aliases = ("kriegsplomacy-dp", "fog-neutrals")
    title = "Fog of war with DP neutrals"
    map_name = "standard-dp"


class ColoursUnderFog(Fog, Colours):
    """Arpiesse's colours under fog of war, on the standard board."""

    name = "arpiesse-fog"
    aliases = ("colours-fog", "fog-arpiesse")
    title = "Arpiesse colours under fog of war"
    map_name = "standard"


class SuperdiplomacyWithNeutrals(Neutrals, Stacks):
    """DP neutrals on the Superdiplomacy board: the Small Powers' armies take the orders that
    bids buy."""

    name = "superdiplomacy-dp"
    aliases = ("super-dp",)
    title = "Superdiplomacy with DP neutrals"
    map_name = "superdiplomacy"


class SuperdiplomacyUnderFog(Fog, Stacks):
    """Fog of war on the Superdiplomacy board."""

    name = "superdiplomacy-fog"
    aliases = ("super-fog",)
    title = "Superdiplomacy under fog of war"
    map_name = "superdiplomacy"
