"""Options of the rules vocabulary tested against the published rules of the variants that
use them (docs/variants.md quotes each rule and says where it is published).

- ``last_year``: the short game of Calhamer's rulebook (1961 and 1971 editions, section III,
  "Short game": the players may agree beforehand to stop the game at a certain time, and to
  regard the player with the most pieces on the board then as the winner);
- ``unplayed``: Calhamer's "Rules for Fewer Than Seven Players" (pre-1971 rulebook, kept in
  the UK Variant Bank): the country of a player who has left stands and defends, raises no
  new units, its routed units leave the board, and its removals begin with the unit farthest
  from home, the fleet before the army.
"""

from __future__ import annotations

from calhamer import Game
from calhamer.map import ARMY, FLEET
from calhamer.options import possible_orders
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.variants import find_variant
from calhamer.victory import Ending

# A game stopped after 1902, as a table agrees before it starts (a name with options).
SHORT_GAME = "standard?last_year=1902"
# Italy's player has left: nobody plays it; removals as the rulebook of the time made them
# (farthest from home, armies by land and fleets by sea; the fleet first: the 1971 edition's).
ITALY_LEFT = "standard?unplayed=italy&civil_disorder=1971"


def test_short_game_calhamers_rulebook_stops_at_the_agreed_year_most_pieces_win() -> None:
    game = Game.new(SHORT_GAME)
    game.set_orders("FRANCE", ["A MAR - SPA", "F BRE - MAO"])
    game.process()
    game.set_orders("FRANCE", ["F MAO - POR"])
    game.process()
    game.set_orders("FRANCE", ["BUILD A MAR", "BUILD F BRE"])  # Spain and Portugal: two
    game.process()
    while not game.is_done():  # 1902: everyone holds
        game.process()
    # The game stops when 1902 is over, not at a solo (France has 5 centres of 18).
    assert game.phase == "S1903M"
    end = game.result()
    assert end is not None and end.ending is Ending.LAST_YEAR
    assert end.winner == "FRANCE" and end.ranking[0] == ("FRANCE", 5)
    # Ranked by centres after the winter's adjustments, which is by pieces on the board, as
    # the rulebook's short game counts them.
    position = game.current
    for power, centres in end.ranking:
        assert len(position.units_of(power)) == centres, power


def test_fewer_than_seven_calhamers_rules_the_country_left_stands_and_defends() -> None:
    # "His units stand in position and defend themselves, but do not support each other.
    # If they have to retreat, they are routed and removed from the board."
    game = Game.new(ITALY_LEFT)
    assert "ITALY" not in game.powers()
    game.set_orders("AUSTRIA", ["A VIE - TYR"])
    game.process()
    game.set_orders("AUSTRIA", ["F TRI - VEN", "A TYR S F TRI - VEN"])
    game.process()  # Venice is taken; Italy's army there is dislodged
    m = game.current.map
    assert game.phase == "F1901R"
    assert [(d.unit.power, m.loc_name(d.unit.loc)) for d in game.current.dislodged] == [
        ("ITALY", "VEN")]
    assert possible_orders(game.current, "ITALY") == {}  # nobody orders its retreat
    game.process()
    # Routed: removed from the board, not retreated anywhere.
    assert game.phase == "W1901A"
    assert {m.loc_name(u.loc) for u in game.current.units_of("ITALY")} == {"ROM", "NAP"}


def test_fewer_than_seven_calhamers_rules_no_new_units_are_raised() -> None:
    # "No new units are raised for this country": Italy owns Tunis too, and builds nothing.
    v = find_variant(ITALY_LEFT)
    start = Position.initial(variant=v)
    m = start.map
    winter = start.replace(phase=Phase(1901, "W", "A"),
                           centers={**start.centers, m.loc("TUN"): "ITALY"})
    after = adjudicate(winter, {}).after
    assert len(after.units_of("ITALY")) == 3


def test_fewer_than_seven_calhamers_rules_the_farthest_unit_from_home_goes_first() -> None:
    # "If the country has to remove units because it has lost supply centres, the unit
    # farthest from home comes off first, and the fleet before the army."
    v = find_variant(ITALY_LEFT)
    m = v.board()
    italy = {"ROM", "NAP"}  # two centres left: one unit of three goes

    def removed(units: dict[str, Unit]) -> str:
        position = Position(m, Phase(1903, "W", "A"),
                            {m.loc(p): u for p, u in units.items()},
                            {m.loc(c): "ITALY" for c in italy}, variant=v)
        gone = set(units) - {m.loc_name(u.loc) for u in
                             adjudicate(position, {}).after.units_of("ITALY")}
        (name,) = gone
        return name

    def unit(kind: object, where: str) -> Unit:
        return Unit("ITALY", kind, m.loc(where))  # type: ignore[arg-type]

    # Bohemia is two moves from Venice, the Ionian Sea one from Naples: the army goes.
    assert removed({"ROM": unit(ARMY, "ROM"), "ION": unit(FLEET, "ION"),
                    "BOH": unit(ARMY, "BOH")}) == "BOH"
    # Tyrolia and the Ionian Sea are both one move from home: the fleet goes first.
    assert removed({"ROM": unit(ARMY, "ROM"), "ION": unit(FLEET, "ION"),
                    "TYR": unit(ARMY, "TYR")}) == "ION"
