"""godip's boards drawn in every view (issue 30, item 5).

Each of godip's boards ships with the drawing ``calhamer board draw`` made of it from its map
(godip's artwork is not used). Each board's start, a phase's outcome (orders, results,
dislodged units) and a fog-of-war player's view of it (the board with the fog module) are
drawn as SVG, and the fog view draws no unit the player cannot see.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from calhamer import Game, adjudicate
from calhamer.render import render_svg
from calhamer.variants import shipped_files
from calhamer.views import power_view

pytest.importorskip("networkx")

GODIP = sorted(n for n, p in shipped_files().items() if p.parent.name == "godip")


def _ids(svg: str) -> set[str]:
    return set(re.findall(r'id="unit-([^"]+)"', svg))


def _random_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    return {p: [rng.choice(o) for o in game.possible_order_texts(p).values() if o]
            for p in game.powers()}


@pytest.mark.parametrize("name", GODIP)
def test_item_5_every_godip_board_is_drawn_in_every_view(name: str) -> None:
    game = Game.new(name)
    start = render_svg(game.current)
    ET.fromstring(start)
    m = game.current.map
    assert _ids(start) == {m.provinces[m.province_of(u.loc)].code
                           for u in game.current.units.values()}
    # A phase's outcome: its orders, results and dislodged units.
    rng = random.Random(name)
    if game.current.phase.is_movement:
        outcome = adjudicate(game.current, _random_orders(game, rng))
        ET.fromstring(render_svg(outcome=outcome))
    # Fog of war: a player's view draws its own units and those it sees, nothing more.
    fog = Game.new(f"godip/{name}+fog")
    if fog.current.phase.is_movement:
        fogged = adjudicate(fog.current, _random_orders(fog, rng))
        whole = _ids(render_svg(outcome=fogged))
        for power in fog.powers()[:3]:
            view = power_view(fogged, power)
            mine = render_svg(view=view)
            ET.fromstring(mine)
            assert _ids(mine) <= whole
            own = {m.provinces[m.province_of(u.loc)].code for u in fogged.before.units.values()
                   if u.power == power}
            assert own <= _ids(mine) < whole or len(fog.powers()) == 1, power
