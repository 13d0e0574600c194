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

import re
from pathlib import Path

from calhamer import Game
from calhamer.map import ARMY, FLEET
from calhamer.options import possible_orders
from calhamer.orders import Build
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.results import SUCCEEDS
from calhamer.variants import find_variant
from calhamer.victory import Ending

DATA = Path(__file__).parent / "data" / "vocabulary"

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


# -- build_sites = "listed" ----------------------------------------------------------------
# 1897 (Mark Nelson, Josh Smith and Rick Westerman; the UK Variant Bank, rs51): "all centres
# owned after the Winter 1899 adjudication become home supply centres for the duration of the
# game"; "Regular home supply centres that are not captured before Winter 1899 are *not* home
# centres"; "If you hold another player's initial home supply centre at the end of Winter 1899
# it becomes a home supply centre for you and is not a home supply centre for the original
# owner." Its Example 1: England then holds London, Liverpool, Edinburgh and Norway, "these are
# her home centres for the remainder of the game". From 1900 on, each power's build sites are
# a fixed list of its own: the game goes on as a variant file whose board lists them.

_1897_BUILDS = {  # after Winter 1899: England as in Example 1; France lost Paris to Germany
    "ENGLAND": ["EDI", "LON", "LVP", "NWY"],
    "FRANCE": ["BRE", "MAR", "SPA"],
    "GERMANY": ["BER", "KIE", "MUN", "PAR"],
}


def _game_1897_from_1900(tmp_path: Path) -> Position:
    """A Winter 1902 of the 1897 variant, its build sites fixed in 1899, on the standard
    board: England owns its four home centres of Example 1 and Holland (taken in 1901), all
    empty; France has Paris back; each is owed builds."""
    board = (DATA / "listed.toml").read_text()
    for power, sites in _1897_BUILDS.items():
        board = re.sub(rf"(\[powers\.{power}\]\nname = \"[^\"]+\"\nbuilds = )\[[^\]]*\]",
                       lambda m, s=sites: m.group(1) + str(s).replace("'", '"'), board)
    (tmp_path / "b1897.toml").write_text(board)
    (tmp_path / "v1897.variant.toml").write_text(
        'title = "1897, from 1900"\nboard = "b1897.toml"\n\n[options]\n'
        'build_sites = "listed"\n')
    v = find_variant(str(tmp_path / "v1897.variant.toml"))
    m = v.board()
    assert m.power("ENGLAND").builds == tuple(_1897_BUILDS["ENGLAND"])
    start = Position.initial(variant=v)
    england = {m.loc(c) for c in ("EDI", "LON", "LVP", "NWY", "HOL")}
    france = {m.loc(c) for c in ("BRE", "MAR", "SPA", "PAR")}
    centers = {p: o for p, o in start.centers.items() if p not in england | france}
    centers.update(dict.fromkeys(england, "ENGLAND"))
    centers.update(dict.fromkeys(france, "FRANCE"))
    units = {m.loc(w): Unit(p, kind, m.loc(w)) for p, kind, w in (
        ("ENGLAND", FLEET, "NTH"), ("FRANCE", ARMY, "BUR"), ("GERMANY", ARMY, "RUH"))}
    return Position(m, Phase(1902, "W", "A"), units, centers, variant=v)


def _builds_offered(position: Position, power: str) -> set[str]:
    m = position.map
    return {m.loc_name(m.province_of(o.loc))
            for orders in possible_orders(position, power).values()
            for o in orders if isinstance(o, Build)}


def test_1897_the_centres_held_after_winter_1899_are_the_home_centres_for_the_rest_of_the_game(
        tmp_path: Path) -> None:
    position = _game_1897_from_1900(tmp_path)
    # Example 1: England builds in London, Liverpool, Edinburgh and Norway; Holland, taken
    # after Winter 1899, is no home centre of hers
    assert _builds_offered(position, "ENGLAND") == {"EDI", "LON", "LVP", "NWY"}
    norway = adjudicate(position, {"ENGLAND": ["BUILD F NWY"]}).results["ENGLAND"][0]
    assert norway.result is SUCCEEDS
    holland = adjudicate(position, {"ENGLAND": ["BUILD A HOL"]}).results["ENGLAND"][0]
    assert holland.result is not SUCCEEDS
    assert "is not one of ENGLAND's build sites" in holland.reason


def test_1897_a_home_centre_held_by_another_power_in_1899_is_no_longer_the_owners(
        tmp_path: Path) -> None:
    position = _game_1897_from_1900(tmp_path)
    # Germany held Paris at the end of Winter 1899: France, owning it again, cannot build there
    assert _builds_offered(position, "FRANCE") == {"BRE", "MAR", "SPA"}
    outcome = adjudicate(position, {"FRANCE": ["BUILD A PAR"]})
    assert outcome.results["FRANCE"][0].result is not SUCCEEDS
    assert "is not one of FRANCE's build sites" in outcome.results["FRANCE"][0].reason
