"""The rules vocabulary, the start (issue 30, item 1): units anywhere, centres owned by no one,
home centres not owned at the start, the powers played on a board they share (France vs
Austria), powers nobody plays, and the civil-disorder rule carried to the edition; each from a
map file or a variant file alone. Each test quotes the published rule it comes from
(``docs/variants.md``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from calhamer import Game
from calhamer.due import owing_orders
from calhamer.errors import CalhamerError
from calhamer.map import ARMY, FLEET, load_map
from calhamer.options import possible_orders
from calhamer.orders import Build
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.records import GameError
from calhamer.results import INVALID, SUCCEEDS
from calhamer.rules import DisorderDistance, find_rules
from calhamer.variants import find_variant
from calhamer.victory import STANDARD_VICTORY

DATA = Path(__file__).parent / "data" / "vocabulary"
FRANCE_AUSTRIA = "standard+standard?powers=france,austria"
UNPLAYED = "standard+standard?unplayed=italy"


def owners(position: Position) -> dict[str, str]:
    m = position.map
    return {m.provinces[p].code: power for p, power in position.centers.items()}


# Empires and Coalitions (godip's published rules): "The four smallest nations (minor powers)
# start with only two units but can build on a third SC after they capture it. [...] The
# British fleet from Liverpool starts in Gibraltar, but this not an SC and Britain cannot build
# here."


def test_start_units_anywhere_the_british_fleet_starts_in_gibraltar() -> None:
    start = Position.initial(load_map(str(DATA / "coalitions.toml")))
    m = start.map
    assert start.unit_at(m.loc("GIB")) == Unit("BRITAIN", FLEET, m.loc("GIB"))
    assert not m.provinces[m.loc("GIB")].is_supply_center


def test_start_a_home_centre_not_owned_at_the_start_is_built_in_once_captured() -> None:
    start = Position.initial(load_map(str(DATA / "coalitions.toml")))
    m = start.map
    assert m.provinces[m.loc("COP")].home == "SWEDEN"
    assert "COP" not in owners(start)  # owned by no one at the start
    fall = start.replace(phase=Phase(1800, "F", "M"))
    taken = adjudicate(fall, {"SWEDEN": ["A STO - GOT", "F GOT - COP"]})
    assert owners(taken.next)["COP"] == "SWEDEN" and taken.next.phase.code == "W1800A"
    # Three centres, two units: one build, in Stockholm (Copenhagen is held by the fleet).
    builds = {m.loc_name(o.loc) for orders in possible_orders(taken.next, "SWEDEN").values()
              for o in orders if isinstance(o, Build)}
    assert builds == {"STO"}
    assert not possible_orders(taken.next, "BRITAIN")  # nothing to build: Gibraltar is no SC


def test_start_centres_owned_by_no_one_stay_so_until_taken() -> None:
    start = Position.initial("standard")
    m = start.map
    assert {"BEL", "HOL", "DEN", "SWE", "NWY", "SPA", "POR", "TUN", "GRE", "SER", "BUL",
            "RUM"} == {m.provinces[p].code for p in m.supply_centers} - set(owners(start))


# France vs Austria (godip's published rules): "The first to 18 supply centers is the winner.
# The game only has two nations: France and Austria."


def test_powers_the_game_only_has_two_nations_france_and_austria() -> None:
    game = Game.new(FRANCE_AUSTRIA)
    start = game.current
    assert start.map.power_codes == ("AUSTRIA", "FRANCE")
    assert game.powers() == ["AUSTRIA", "FRANCE"]
    assert sorted(start.map.loc_name(u.loc) for u in start.units.values()) == [
        "BRE", "BUD", "MAR", "PAR", "TRI", "VIE"]
    assert sorted(owners(start)) == ["BRE", "BUD", "MAR", "PAR", "TRI", "VIE"]
    assert start.map.victory_centers == 18
    with pytest.raises(GameError, match="'GERMANY' is not a power of this game"):
        game.set_orders("GERMANY", ["A MUN H"])


def test_powers_the_others_home_centres_are_owned_by_no_one_and_no_ones_home() -> None:
    v = find_variant(FRANCE_AUSTRIA)
    m = v.board()
    assert m.provinces[m.loc("MUN")].home is None
    assert m.provinces[m.loc("MUN")].is_supply_center
    # Taken by France, Munich counts but is no French home centre to build in.
    start = Position.initial(variant=v)
    fall = start.replace(phase=Phase(1901, "F", "M"),
                         units={**start.units, m.loc("BUR"): Unit("FRANCE", ARMY, m.loc("BUR"))})
    fall = fall.replace(units={p: u for p, u in fall.units.items() if p != m.loc("PAR")})
    winter = adjudicate(fall, {"FRANCE": ["A BUR - MUN"]}).next
    assert owners(winter)["MUN"] == "FRANCE" and winter.phase.is_adjustment
    builds = {m.loc_name(o.loc) for orders in possible_orders(winter, "FRANCE").values()
              for o in orders if isinstance(o, Build)}
    assert builds == {"PAR"}


def test_powers_the_board_left_travels_and_is_read_back() -> None:
    game = Game.new(FRANCE_AUSTRIA)
    game.set_orders("FRANCE", ["A PAR - BUR"])
    game.process()
    again = Game.from_json(game.to_json())
    assert again.current == game.current
    assert again.current.map is find_variant(FRANCE_AUSTRIA).board()
    assert pickle.loads(pickle.dumps(game.current)) == game.current


def test_powers_a_power_not_on_the_board_is_refused() -> None:
    with pytest.raises(CalhamerError, match="option powers: 'PRUSSIA' is not a power"):
        find_variant("standard+standard?powers=france,prussia")


# Powers nobody plays, in the issue's words: "powers on the board that nobody plays; their
# units hold and they never build", and they still count for their centres.


def test_unplayed_no_orders_are_due_from_them_and_their_units_hold() -> None:
    game = Game.new(UNPLAYED)
    assert "ITALY" not in game.powers()
    assert "ITALY" not in owing_orders(game.current)
    assert possible_orders(game.current, "ITALY") == {}
    with pytest.raises(GameError, match="nobody plays Italy"):
        game.set_orders("ITALY", ["A VEN - TYR"])
    before = {u for u in game.current.units.values() if u.power == "ITALY"}
    game.process()
    assert {u for u in game.current.units.values() if u.power == "ITALY"} == before


def test_unplayed_they_never_build() -> None:
    v = find_variant(UNPLAYED)
    m = v.board()
    start = Position.initial(variant=v)
    centers = {**start.centers, m.loc("TUN"): "ITALY"}
    fall = start.replace(phase=Phase(1901, "F", "M"), centers=centers)
    # Italy is due a build (Tunis), and only Italy: no winter is played.
    assert adjudicate(fall, {}).next.phase.code == "S1902M"
    winter = start.replace(phase=Phase(1901, "W", "A"), centers=centers,
                           units={p: u for p, u in start.units.items()
                                  if m.loc_name(p) != "ROM"})
    outcome = adjudicate(winter, {"ITALY": ["BUILD A ROM"]})
    (result,) = outcome.results["ITALY"]
    assert result.result is INVALID and "Italy never builds" in result.reason


def test_unplayed_they_still_count_for_their_centres() -> None:
    v = find_variant(UNPLAYED + "&solo_centres=10&solo_needs_lead=true")
    m = v.board()
    centres = iter(m.supply_centers)
    owned = {next(centres): p for p, n in (("FRANCE", 10), ("ITALY", 10)) for _ in range(n)}
    position = Position(m, Phase(1905, "S", "M"), {}, owned, variant=v)
    assert position.center_counts()["ITALY"] == 10
    assert STANDARD_VICTORY.solo(position) is None  # France does not lead Italy
    assert STANDARD_VICTORY.contenders(position) == ["FRANCE"]


def test_unplayed_their_removals_are_made_by_civil_disorder() -> None:
    v = find_variant(UNPLAYED)
    m = v.board()
    start = Position.initial(variant=v)
    centers = {p: o for p, o in start.centers.items() if m.loc_name(p) != "NAP"}
    winter = start.replace(phase=Phase(1901, "W", "A"), centers=centers)
    outcome = adjudicate(winter, {})
    assert len(outcome.after.units_of("ITALY")) == 2
    (removal,) = outcome.results["ITALY"]
    assert removal.result is SUCCEEDS and "civil-disorder" in removal.reason


def test_unplayed_must_be_a_power_played() -> None:
    with pytest.raises(CalhamerError, match="ITALY is not among the powers played"):
        find_variant(FRANCE_AUSTRIA + "&unplayed=italy")


# The civil-disorder rule, carried as a string option to the edition (the rule editions'
# own names for it: calhamer.rules.DisorderDistance).


def test_civil_disorder_the_option_is_passed_to_the_edition() -> None:
    v = find_variant("standard+standard?civil_disorder=1971")
    assert v.phase_rules(find_rules("datc")).civil_disorder is \
        DisorderDistance.HOME_CENTRE_BY_TYPE
    assert find_variant("standard").phase_rules(find_rules("1971")).civil_disorder is \
        DisorderDistance.HOME_CENTRE_BY_TYPE
    with pytest.raises(CalhamerError, match="option civil_disorder must be one of"):
        find_variant("standard+standard?civil_disorder=nearest")
