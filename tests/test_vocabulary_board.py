"""The rules vocabulary, the board and the calendar (issue 30, item 1): coasts whose fleets
convoy, one-way edges, edges for one unit type, canals and land bridges as the standard board
and Superdiplomacy write them, a board's own calendar, years 0 and 1, and the map file's
errors. Each test quotes the published rule it comes from (``docs/variants.md``); the boards
are small corners of the variants, in ``tests/data/vocabulary/``."""

from __future__ import annotations

from pathlib import Path

import pytest

from calhamer import Game
from calhamer.errors import MapError
from calhamer.formats import position_from_json, position_to_json
from calhamer.map import ARMY, FLEET, load_map
from calhamer.options import possible_order_texts, possible_orders
from calhamer.orders import Move, Support
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.report import phase_report
from calhamer.results import INVALID, SUCCEEDS

DATA = Path(__file__).parent / "data" / "vocabulary"


def board(name: str):  # type: ignore[no-untyped-def]
    return load_map(str(DATA / f"{name}.toml"))


def results(outcome) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each order's canonical text and its result."""
    return {r.canonical: r.result.value for rs in outcome.results.values() for r in rs}


def owners(position: Position) -> dict[str, str]:
    m = position.map
    return {m.provinces[p].code: power for p, power in position.centers.items()}


# -- coasts whose fleets convoy --------------------------------------------------------------
# Ancient Mediterranean (godip's published rules): "Baleares is an archipelago that can be
# occupied by armies or fleets. Armies can't move directly from the mainland to Baleares, and
# a fleet in Baleares can form part of a convoy chain."


def test_convoys_a_fleet_in_baleares_forms_part_of_a_convoy_chain() -> None:
    start = Position.initial(board("baleares"))
    outcome = adjudicate(start, {
        "ROME": ["A MAS - CAR", "F LIG C A MAS - CAR"],
        "CARTHAGE": ["F BAL C A MAS - CAR", "F BER C A MAS - CAR"],
    })
    assert results(outcome)["F BAL C A MAS - CAR"] == SUCCEEDS.value
    assert results(outcome)["A MAS - CAR"] == SUCCEEDS.value
    assert outcome.after.unit_at(outcome.after.map.loc("CAR")).power == "ROME"


def test_convoys_a_coast_not_marked_convoys_cannot_convoy(tmp_path: Path) -> None:
    text = (DATA / "baleares.toml").read_text().replace(", convoys = true", "")
    path = tmp_path / "no-convoys.toml"
    path.write_text(text)
    start = Position.initial(load_map(str(path)))
    outcome = adjudicate(start, {"ROME": ["A MAS - CAR", "F LIG C A MAS - CAR"],
                                 "CARTHAGE": ["F BAL C A MAS - CAR", "F BER C A MAS - CAR"]})
    found = {r.canonical or r.text: r for rs in outcome.results.values() for r in rs}
    assert found["F BAL C A MAS - CAR"].result is INVALID
    assert "only fleets at sea" in found["F BAL C A MAS - CAR"].reason
    assert outcome.after.unit_at(start.map.loc("MAS")).power == "ROME"  # no route: it stays


def test_convoys_possible_orders_list_the_convoy_from_baleares_and_the_move_by_it() -> None:
    start = Position.initial(board("baleares"))
    carthage = [t for _, texts in possible_order_texts(start, "CARTHAGE") for t in texts]
    assert "F BAL C A MAS - CAR" in carthage
    rome = [t for _, texts in possible_order_texts(start, "ROME") for t in texts]
    assert "A MAS - CAR" in rome  # through Ligurian, Baleares and Iberian fleets
    assert "F LIG C A MAS - CAR" in rome


def test_convoys_armies_reach_baleares_only_by_sea_and_its_fleet_still_moves_as_a_fleet() -> None:
    m = board("baleares")
    start = Position.initial(m)
    # "Armies can't move directly from the mainland to Baleares": no army edge, so an army
    # goes there by convoy only.
    assert m.loc("BAL") not in m.army_adjacent[m.loc("TAR")]
    fleet_orders = [o for o in possible_orders(start, "CARTHAGE")[m.loc("BAL")]
                    if isinstance(o, Move)]
    assert {m.loc_name(o.dest) for o in fleet_orders} == {"BER", "LIG", "SAG", "TAR"}
    units = {**start.units, m.loc("TAR"): Unit("ROME", ARMY, m.loc("TAR"))}
    del units[m.loc("MAS")]
    units.pop(m.loc("BAL"))
    moved = adjudicate(start.replace(units=units),
                       {"ROME": ["A TAR - BAL", "F LIG C A TAR - BAL"]})
    assert results(moved)["A TAR - BAL"] == SUCCEEDS.value


# -- one-way edges -----------------------------------------------------------------------------
# North Sea Wars (godip's published rules): "Units can move from Central North Sea to three
# trade provinces containing SCs – Wood, Iron and Grain. Units in the trade provinces can move
# freely between them, but can't return back to Central North Sea."


def test_oneway_a_fleet_moves_from_the_central_north_sea_to_wood_but_not_back() -> None:
    m = board("trade")
    start = Position.initial(m)
    there = adjudicate(start, {"NORSE": ["F CNS - WOO"]})
    assert results(there)["F CNS - WOO"] == SUCCEEDS.value
    back = adjudicate(there.next, {"NORSE": ["F WOO - CNS"]})
    found = {r.text: r for rs in back.results.values() for r in rs}
    assert found["F WOO - CNS"].result is INVALID
    between = adjudicate(there.next, {"NORSE": ["F WOO - GRA"]})
    assert results(between)["F WOO - GRA"] == SUCCEEDS.value


def test_oneway_possible_orders_follow_the_direction() -> None:
    m = board("trade")
    start = Position.initial(m)
    cns = {m.loc_name(o.dest) for o in possible_orders(start, "NORSE")[m.loc("CNS")]
           if isinstance(o, Move)}
    assert {"WOO", "IRO", "GRA"} <= cns
    units = dict(start.units)
    del units[m.loc("CNS")]
    units[m.loc("GRA")] = Unit("NORSE", FLEET, m.loc("GRA"))
    at_grain = start.replace(units=units)
    gra = {m.loc_name(o.dest) for o in possible_orders(at_grain, "NORSE")[m.loc("GRA")]
           if isinstance(o, Move)}
    assert gra == {"WOO", "IRO"}  # not the Central North Sea


def test_oneway_supports_follow_the_direction() -> None:
    # godip's own reading: a fleet in the Central North Sea supports a move into Wood; a
    # fleet in Grain may support the Central North Sea's fleet into Wood, but a fleet in
    # Wood cannot support anything into the Central North Sea.
    m = board("trade")
    start = Position.initial(m)
    units = dict(start.units)
    units[m.loc("GRA")] = Unit("NORSE", FLEET, m.loc("GRA"))
    units[m.loc("WOO")] = Unit("FRYSIANS", FLEET, m.loc("WOO"))
    position = start.replace(units=units)
    listed = possible_orders(position, "NORSE")
    assert Support(FLEET, m.loc("GRA"), FLEET, m.loc("CNS"), m.loc("WOO")) in \
        listed[m.loc("GRA")]
    outcome = adjudicate(position, {"FRYSIANS": ["F WOO S F ENS - CNS"],
                                    "NORSE": ["F CNS - WOO", "F GRA S F CNS - WOO"]})
    found = {r.text: r for rs in outcome.results.values() for r in rs}
    assert found["F WOO S F ENS - CNS"].result is INVALID
    assert found["F CNS - WOO"].result is SUCCEEDS  # 2 against a holding fleet: dislodged


def test_oneway_retreats_follow_the_direction() -> None:
    m = board("trade")
    start = Position.initial(m)
    units = dict(start.units)
    units[m.loc("WOO")] = Unit("FRYSIANS", FLEET, m.loc("WOO"))
    units[m.loc("GRA")] = Unit("NORSE", FLEET, m.loc("GRA"))
    position = start.replace(units=units)
    outcome = adjudicate(position, {"NORSE": ["F CNS - WOO", "F GRA S F CNS - WOO"]})
    assert outcome.next.phase.kind == "R"
    (entry,) = outcome.next.dislodged
    choices = outcome.next.variant.retreat_choices(outcome.next, entry)
    assert [m.loc_name(c) for c in choices] == ["IRO"]  # never back to the open sea


def test_oneway_an_army_is_convoyed_into_a_trade_province() -> None:
    # godip's test of the board: an army of Amsivaria reaches Wood through the East and
    # Central North Seas, and the listing offers the move.
    m = board("trade")
    start = Position.initial(m)
    units = dict(start.units)
    units[m.loc("CNS")] = Unit("FRYSIANS", FLEET, m.loc("CNS"))
    position = start.replace(units=units)
    listed = possible_orders(position, "FRYSIANS")
    assert Move(ARMY, m.loc("AMS"), m.loc("WOO")) in listed[m.loc("AMS")]
    outcome = adjudicate(position, {"FRYSIANS": ["A AMS - WOO", "F ENS C A AMS - WOO",
                                                 "F CNS C A AMS - WOO"]})
    assert results(outcome)["A AMS - WOO"] == SUCCEEDS.value


def test_oneway_edges_are_checked_in_the_map_file(tmp_path: Path) -> None:
    text = (DATA / "trade.toml").read_text()
    for n, (bad, said) in enumerate([('fleet = ["CNS WOO", "CNS IRO", "CNS GRA"]', None),
                      ('fleet = ["CNS"]', 'oneway.fleet: \'CNS\' must name two places'),
                      ('fleet = ["CNS ATL"]', "names 'ATL', which is not a province"),
                      ('army = ["CNS WOO"]', "[army] gives CNS army neighbours, but it is sea")]):
        path = tmp_path / f"t{n}.toml"  # a file of its own each: boards are loaded once
        path.write_text(text.replace('fleet = ["CNS WOO", "CNS IRO", "CNS GRA"]', bad))
        if said is None:
            load_map(str(path))
            continue
        with pytest.raises(MapError) as info:
            load_map(str(path))
        assert said in str(info.value) and "\n" not in str(info.value)


# -- edges for one unit type -------------------------------------------------------------------
# Year 1908 (godip's published rules): "Movement, support and convoys (only by fleets) are
# allowed between Mid-Atlantic Ocean and Cairo. Movement and support (by both armies and
# fleets) are allowed between Casablanca and Spain." The separate [army] and [fleet] tables.


def test_unit_type_edges_an_edge_written_for_fleets_only_is_closed_to_armies() -> None:
    m = board("baleares")  # Tarraco-Baleares: a fleet edge, and no army edge
    assert m.can_reach(FLEET, m.loc("TAR"), m.loc("BAL"))
    assert not m.can_reach(ARMY, m.loc("TAR"), m.loc("BAL"))
    start = Position.initial(m)
    units = {**start.units, m.loc("TAR"): Unit("ROME", ARMY, m.loc("TAR")),
             m.loc("SAG"): Unit("CARTHAGE", FLEET, m.loc("SAG"))}
    units.pop(m.loc("BAL"))
    units.pop(m.loc("LIG"))  # no fleet at sea next to Tarraco: no convoy either
    outcome = adjudicate(start.replace(units=units),
                         {"ROME": ["A TAR - BAL"], "CARTHAGE": ["F SAG - BAL"]})
    found = {r.text: r for rs in outcome.results.values() for r in rs}
    assert found["A TAR - BAL"].result is INVALID
    assert "is not next to Tarraco" in found["A TAR - BAL"].reason
    assert found["F SAG - BAL"].result is SUCCEEDS


# -- canals and land bridges, as the standard board and Superdiplomacy write them ---------------
# The standard board (godip's published rules): "Kiel and Constantinople have a canal, so
# fleets can exit on either side." A canal is a coastal province with fleet edges to the seas
# on both sides; a land bridge is an army edge across water ("Armies & fleets can move between
# London & Calais", Hundred; Superdiplomacy's Corsica-Sardinia and Sicily-Naples).


def test_canals_a_fleet_passes_through_kiel_from_the_north_sea_side_to_the_baltic() -> None:
    game = Game.new("standard")
    game.set_orders("GERMANY", ["F KIE - HEL"])
    game.process()
    game.set_orders("GERMANY", ["F HEL - KIE"])
    game.process()
    game.set_orders("GERMANY", ["F KIE - BAL"])
    outcome = game.process()
    assert results(outcome)["F KIE - BAL"] == SUCCEEDS.value


def test_land_bridges_london_and_calais_are_joined_for_armies_and_fleets() -> None:
    m = board("hundred")
    assert m.loc("CAL") in m.army_adjacent[m.loc("LON")]
    assert m.loc("CAL") in m.fleet_adjacent[m.loc("LON")]
    start = Position.initial(m)
    outcome = adjudicate(start, {"ENGLAND": ["A CAL - LON"]})
    assert results(outcome)["A CAL - LON"] == SUCCEEDS.value


def test_land_bridges_as_superdiplomacy_writes_them() -> None:
    m = load_map("superdiplomacy")
    assert m.loc("SAR") in m.army_adjacent[m.loc("COR")]  # Bonifacio
    assert m.loc("NAP") in m.army_adjacent[m.loc("SIC")]  # Messina
    standard = load_map("standard")
    assert standard.loc("SWE") in standard.army_adjacent[standard.loc("DEN")]


# -- the calendar ------------------------------------------------------------------------------
# Hundred (godip's published rules): "Yearly cycles of Spring & Fall are renamed to decade
# cycles with years ending with 5 and 0 respectively." One season a year, years five apart,
# adjustments after years ending in 0 (DPjudge: FLOW NEWYEAR:5, IFYEARDIV:10).


def _hundred_game() -> list:  # type: ignore[type-arg]
    """Hundred's first decade, with a dislodgement in each year: the phases' outcomes."""
    position = Position.initial(board("hundred"))
    played = []
    for orders in ({"ENGLAND": ["A CAL - PIC", "F ENG S A CAL - PIC"], "FRANCE": ["A PIC H"]},
                   {"FRANCE": ["A PIC - NOM"]},
                   {"ENGLAND": ["A PIC - NOM", "F ENG S A PIC - NOM"]},
                   {"FRANCE": ["A NOM - ORL"]},
                   {"ENGLAND": ["BUILD F LON"]}):
        outcome = adjudicate(position, orders)
        played.append(outcome)
        position = outcome.next
    return played


def test_calendar_hundreds_phases_are_year_seasons_with_winters_after_years_ending_in_0() -> None:
    played = _hundred_game()
    codes = [o.before.phase.code for o in played] + [played[-1].next.phase.code]
    assert codes == ["Y1425M", "Y1425R", "Y1430M", "Y1430R", "W1430A", "Y1435M"]


def test_calendar_centres_change_hands_only_before_the_winter() -> None:
    played = _hundred_game()
    after_1425 = played[1].next  # Y1430M: France's army stands in Normandy since 1425
    assert after_1425.unit_at(after_1425.map.loc("NOM")).power == "FRANCE"
    assert "NOM" not in owners(after_1425)
    winter = played[3].next  # W1430A: England took Normandy in 1430
    assert owners(winter)["NOM"] == "ENGLAND"
    assert results(played[4])["BUILD F LON"] == SUCCEEDS.value


def test_calendar_phases_are_named_by_the_boards_calendar() -> None:
    played = _hundred_game()
    assert played[0].before.map.phase_name(played[0].before.phase) == "Year 1425 Movement"
    assert phase_report(played[0]).startswith("Year 1425 Movement (Y1425M)")
    assert "Next: Winter 1430 Adjustments (W1430A)" in phase_report(played[3])


def test_calendar_phase_documents_read_and_write_the_boards_seasons() -> None:
    played = _hundred_game()
    doc = position_to_json(played[1].next)
    assert doc["phase"] == "Y1430M"
    doc["variant"] = str(DATA / "hundred.toml") + "+standard"
    again, _, _ = position_from_json(doc)
    assert again.phase == Phase(1430, "Y", "M")
    doc["phase"] = "Q1430M"
    with pytest.raises(Exception, match="has no season 'Q'"):
        position_from_json(doc)


def test_calendar_the_game_keeps_hundreds_calendar() -> None:
    # Nobody orders: nothing changes hands, nobody adjusts, and the winter is skipped.
    game = Game.new(str(DATA / "hundred.toml") + "+standard")
    seen = [game.phase]
    for _ in range(3):
        game.process()
        seen.append(game.phase)
    assert seen == ["Y1425M", "Y1430M", "Y1435M", "Y1440M"]
    assert game.current.map.phase_name(game.current.phase) == "Year 1440 Movement"


# Ancient Mediterranean starts in year 1 (DPjudge: BEGIN SPRING 1 MOVEMENT), North Sea Wars in
# year 0 (godip's board).


@pytest.mark.parametrize(("name", "first", "later"), [
    ("baleares", "S1M", ["F1M", "S2M"]),
    ("trade", "S0M", ["F0M", "S1M"]),
])
def test_calendar_years_0_and_1_are_years_like_any_other(name: str, first: str,
                                                         later: list[str]) -> None:
    game = Game.new(str(DATA / f"{name}.toml") + "+standard")
    assert game.phase == first
    seen = []
    while len(seen) < 2:
        game.process()
        if game.current.phase.is_movement:
            seen.append(game.phase)
    assert seen == later
    assert Phase.parse("S0001M") == Phase.parse("S1M") == Phase(1, "S", "M")


@pytest.mark.parametrize(("change", "said"), [
    ('seasons = [{ code = "Y", name = "Year" }]', None),
    ('seasons = [{ code = "y", name = "Year" }]', "the season code 'y' must be one capital"),
    ('seasons = [{ code = "W", name = "Year" }]', "two seasons have one code"),
    ('seasons = []', "a year needs at least one season"),
    ('seasons = "Y"', "calendar.seasons"),
])
def test_calendar_the_map_files_calendar_is_checked(tmp_path: Path, change: str,
                                                     said: str | None) -> None:
    text = (DATA / "hundred.toml").read_text().replace(
        'seasons = [{ code = "Y", name = "Year" }]', change)
    path = tmp_path / "cal.toml"
    path.write_text(text)
    if said is None:
        assert load_map(str(path)).calendar.year_step == 5
        return
    with pytest.raises(MapError) as info:
        load_map(str(path))
    assert said in str(info.value) and "\n" not in str(info.value)


def test_calendar_a_start_phase_in_a_season_the_calendar_lacks_is_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "cal.toml"
    path.write_text((DATA / "hundred.toml").read_text().replace('"Y1425M"', '"S1425M"'))
    with pytest.raises(MapError, match="which is not a season of the calendar"):
        load_map(str(path))


def test_convoys_the_map_file_refuses_convoys_on_land(tmp_path: Path) -> None:
    path = tmp_path / "land.toml"
    path.write_text((DATA / "baleares.toml").read_text().replace(
        'TAR = { name = "Tarraco", type = "coast" }',
        'TAR = { name = "Tarraco", type = "land", convoys = true }'))
    with pytest.raises(MapError, match=r"province TAR: convoys = true is for a coast"):
        load_map(str(path))


def test_convoys_the_standard_boards_coasts_still_cannot_convoy() -> None:
    start = Position.initial("standard")
    outcome = adjudicate(start, {"ENGLAND": ["F LON C A LVP - BRE"]})
    found = {r.text: r for rs in outcome.results.values() for r in rs}
    assert found["F LON C A LVP - BRE"].result is INVALID


def test_calendar_years_that_count_down_end_after_the_last_year() -> None:
    """A negative year step (DPjudge's Classical counts B.C. years down): a smaller year is
    the later one, so a game's last year is passed going down; a step of 0 is refused."""
    from calhamer.calendars import Calendar

    down = Calendar(year_step=-1, first_year=273)
    assert down.past(259, 260) and not down.past(261, 260) and not down.past(260, 260)
    assert Calendar().past(1916, 1915) and not Calendar().past(1914, 1915)
    assert down.adjusts_after(273) and down.adjusts_after(272)
