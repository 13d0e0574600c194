"""The rules vocabulary, builds (issue 30, item 1): where a power builds (``build_sites``:
home, owned, any-home, listed) and builds owed and not ordered (``missing_builds``), each from
a variant file or a spec alone, with the possible orders listing exactly the legal builds, and
random games that never build outside the sites allowed. Each test quotes the published rule
it comes from (``docs/variants.md``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calhamer import Game
from calhamer.bots import random_policy
from calhamer.map import ARMY, FLEET
from calhamer.options import possible_orders
from calhamer.orders import Build, Waive
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.results import SUCCEEDS
from calhamer.variants import find_variant

DATA = Path(__file__).parent / "data" / "vocabulary"
LISTED = str(DATA / "listed.variant.toml")
CHAOS = str(DATA / "chaos.variant.toml")


def winter(variant: str) -> Position:
    """A winter on the standard board (or the listed one): France owns its home centres,
    Munich (a German home centre) and Belgium (no one's), all empty, with two units; it has
    three builds."""
    v = find_variant(variant)
    m = v.board()
    start = Position.initial(variant=v)
    france = {m.loc(c) for c in ("PAR", "MAR", "BRE", "MUN", "BEL")}
    centers = {p: o for p, o in start.centers.items() if p not in france}
    centers.update(dict.fromkeys(france, "FRANCE"))
    units = {p: u for p, u in start.units.items() if u.power not in ("FRANCE", "GERMANY")}
    units[m.loc("BUR")] = Unit("FRANCE", ARMY, m.loc("BUR"))
    units[m.loc("MAO")] = Unit("FRANCE", FLEET, m.loc("MAO"))
    units[m.loc("BER")] = Unit("GERMANY", ARMY, m.loc("BER"))
    units[m.loc("KIE")] = Unit("GERMANY", FLEET, m.loc("KIE"))
    return Position(m, Phase(1901, "W", "A"), units, centers, variant=v)


def build_sites_listed(position: Position, power: str) -> set[str]:
    m = position.map
    return {m.loc_name(m.province_of(o.loc)) for orders in possible_orders(position, power).values()
            for o in orders if isinstance(o, Build)}


def build_succeeds(position: Position, power: str, where: str) -> bool:
    m = position.map
    outcome = adjudicate(position, {power: [Build(ARMY, m.loc(where))]})
    return outcome.results[power][0].result is SUCCEEDS


def sites_that_build(position: Position, power: str) -> set[str]:
    """The centres ``power`` owns, free, where a build adjudicated alone succeeds."""
    m = position.map
    free = [p for p in position.centers_of(power) if p not in position.units]
    return {m.loc_name(p) for p in free if build_succeeds(position, power, m.loc_name(p))}


def test_build_sites_home_the_standard_game_builds_in_home_centres_only() -> None:
    position = winter("standard")
    assert build_sites_listed(position, "FRANCE") == {"PAR", "MAR", "BRE"}
    assert sites_that_build(position, "FRANCE") == {"PAR", "MAR", "BRE"}
    outcome = adjudicate(position, {"FRANCE": ["BUILD A MUN"]})
    assert "is not one of FRANCE's home centres" in outcome.results["FRANCE"][0].reason


def test_build_sites_owned_units_may_be_built_on_any_owned_sc() -> None:
    # Hundred, Chaos, Western World 901, Unconstitutional (godip's published rules): "Units
    # may be built on any owned SC."
    position = winter("standard+standard?build_sites=owned")
    assert build_sites_listed(position, "FRANCE") == {"PAR", "MAR", "BRE", "MUN", "BEL"}
    assert sites_that_build(position, "FRANCE") == {"PAR", "MAR", "BRE", "MUN", "BEL"}


def test_build_sites_any_home_any_captured_home_sc_but_not_previously_neutral_ones() -> None:
    # Twenty Twenty (godip's published rules): "Units may be built on any captured home SC
    # (but not previously neutral ones)."
    position = winter("standard+standard?build_sites=any-home")
    assert build_sites_listed(position, "FRANCE") == {"PAR", "MAR", "BRE", "MUN"}
    assert sites_that_build(position, "FRANCE") == {"PAR", "MAR", "BRE", "MUN"}
    outcome = adjudicate(position, {"FRANCE": ["BUILD A BEL"]})
    assert "Belgium (BEL) is no great power's home centre" in outcome.results["FRANCE"][0].reason


def test_build_sites_listed_a_power_builds_in_the_sites_the_map_lists_for_it() -> None:
    # The "a list per power": [powers.FRANCE] builds = [BRE, MAR, PAR, BEL, SPA].
    position = winter(LISTED)
    assert position.map.power("FRANCE").builds == ("BRE", "MAR", "PAR", "BEL", "SPA")
    assert build_sites_listed(position, "FRANCE") == {"PAR", "MAR", "BRE", "BEL"}
    assert sites_that_build(position, "FRANCE") == {"PAR", "MAR", "BRE", "BEL"}
    outcome = adjudicate(position, {"FRANCE": ["BUILD A MUN"]})
    assert "is not one of FRANCE's build sites" in outcome.results["FRANCE"][0].reason


def test_build_sites_listed_needs_a_list_for_every_power() -> None:
    with pytest.raises(Exception, match="build_sites = listed needs the map's"):
        find_variant("standard+standard?build_sites=listed")


def test_build_sites_listed_the_map_file_refuses_a_site_that_is_no_centre(
        tmp_path: Path) -> None:
    from calhamer.errors import MapError
    from calhamer.map import load_map

    path = tmp_path / "bad.toml"
    path.write_text((DATA / "listed.toml").read_text().replace('"BEL", "SPA"', '"BUR"'))
    with pytest.raises(MapError, match=r"\[powers.FRANCE\] builds: BUR is not a supply centre"):
        load_map(str(path))


def test_build_sites_the_winter_is_skipped_when_nobody_may_use_a_build() -> None:
    # France is due a build but owns only Belgium free: under home build sites there is no
    # winter; where any owned centre will do, there is one.
    for variant, kind in (("standard", "S"), ("standard+standard?build_sites=owned", "W")):
        v = find_variant(variant)
        m = v.board()
        start = Position.initial(variant=v)
        centers = dict(start.centers)
        centers[m.loc("BEL")] = "FRANCE"  # its home centres all held by its own units
        fall = start.replace(phase=Phase(1901, "F", "M"), centers=centers)
        moved = adjudicate(fall, {})
        assert moved.next.phase.season == kind, variant


# -- missing builds ----------------------------------------------------------------------------
# Chaos (godip's published rules): "The game starts with an adjustment phase where it is
# decided what unit to build. In this phase, all SC without orders build an army."


def test_missing_builds_army_first_winter_every_sc_without_orders_builds_an_army() -> None:
    game = Game.new(CHAOS)
    assert game.phase == "W1900A" and not game.current.units
    game.set_orders("TRIESTE", ["BUILD F TRI"])
    outcome = game.process()
    after = outcome.after
    m = after.map
    assert after.unit_at(m.loc("TRI")) == Unit("TRIESTE", FLEET, m.loc("TRI"))
    assert after.unit_at(m.loc("VIE")) == Unit("VIENNA", ARMY, m.loc("VIE"))
    assert after.unit_at(m.loc("BUD")) == Unit("BUDAPEST", ARMY, m.loc("BUD"))
    defaults = [r for r in outcome.results["VIENNA"] if r.canonical == "BUILD A VIE"]
    assert defaults and defaults[0].result is SUCCEEDS
    assert "built by default" in defaults[0].reason
    assert game.phase == "S1901M"


def test_missing_builds_army_first_winter_a_waive_is_an_order() -> None:
    game = Game.new(CHAOS)
    game.set_orders("BUDAPEST", ["WAIVE"])
    after = game.process().after
    assert after.unit_at(after.map.loc("BUD")) is None
    assert after.unit_at(after.map.loc("VIE")) is not None


def test_missing_builds_army_first_winter_only_in_the_first_winter() -> None:
    v = find_variant(CHAOS)
    m = v.board()
    later = Position(m, Phase(1901, "W", "A"), {}, {m.loc("VIE"): "VIENNA"}, variant=v)
    after = adjudicate(later, {}).after
    assert not after.units  # waived, as in the standard game


def test_missing_builds_waive_is_the_standard_game() -> None:
    position = winter("standard")
    assert len(adjudicate(position, {}).after.units_of("FRANCE")) == 2  # three builds lost


def test_missing_builds_possible_orders_at_the_chaos_start() -> None:
    start = Position.initial(variant=find_variant(CHAOS))
    m = start.map
    assert possible_orders(start, "TRIESTE") == {
        m.loc("TRI"): [Build(ARMY, m.loc("TRI")), Build(FLEET, m.loc("TRI")), Waive()]}


# -- random games: builds only where the rule allows --------------------------------------------

MODES = ["standard", "standard+standard?build_sites=owned",
         "standard+standard?build_sites=any-home", LISTED]


def allowed(position: Position, power: str, province: int, mode: str) -> bool:
    m = position.map
    p = m.provinces[province]
    if mode == "standard":
        return p.home == power
    if mode.endswith("owned"):
        return True
    if mode.endswith("any-home"):
        return p.home in m.power_codes
    return p.code in (m.power(power).builds or ())


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_build_sites_random_games_never_build_outside_the_allowed_sites(mode: str,
                                                                        seed: int) -> None:
    game = Game.new(mode, max_year=1906)
    rng = random.Random(seed)
    while not game.is_done():
        position = game.current
        if position.phase.is_adjustment:
            for power in game.powers():
                listed = {position.map.province_of(o.loc)
                          for orders in possible_orders(position, power).values()
                          for o in orders if isinstance(o, Build)}
                owned_free = [p for p in position.centers_of(power) if p not in position.units]
                legal = {p for p in owned_free if allowed(position, power, p, mode)}
                assert listed == legal if position.adjustments()[power] > 0 else not listed
        for power in game.powers():
            view = game.bot_view(power)
            view.rng = rng
            game.set_orders(power, random_policy(view, game.possible_orders(power)),
                            check=False)
        outcome = game.process()
        for power, entries in outcome.results.items():
            for r in entries:
                if isinstance(r.order, Build) and r.result is SUCCEEDS:
                    province = position.map.province_of(r.order.loc)
                    assert allowed(position, power, province, mode), (mode, r)
