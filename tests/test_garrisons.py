"""The garrisons rule module (issue 30, item 1: neutral garrisons without Diplomacy Points):
garrisons hold (and may be supported), are removed when dislodged, are rebuilt by minor power,
``garrison_unowned`` garrisons every centre no power owns with a minor power ``NEUTRAL``, and a
variant with garrisons and no DP speaks of no Diplomacy Points. Each test quotes the published
rule it comes from (``docs/variants.md``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calhamer import Game
from calhamer.cli import main
from calhamer.errors import CalhamerError
from calhamer.formats import outcome_to_json, position_to_json
from calhamer.map import ARMY, FLEET
from calhamer.phases import adjudicate
from calhamer.position import Phase, Position, Unit
from calhamer.report import phase_report, position_report
from calhamer.results import SUCCEEDS
from calhamer.variants import find_variant
from calhamer.variants.garrisons import NEUTRAL, Garrisons

DATA = Path(__file__).parent / "data" / "vocabulary"
GARRISONED = "standard+garrisons?garrison_unowned=true"
YUGOSLAVIA = f"{DATA / 'yugoslavia.toml'}+garrisons"
NEUTRAL_CENTRES = {"BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR", "RUM", "SER", "SPA", "SWE",
                   "TUN"}


def start(variant: str = GARRISONED) -> Position:
    return Position.initial(variant=find_variant(variant))


def placed(position: Position, **units: tuple[str, str]) -> Position:
    """``position`` with units added (``BUR=("FRANCE", "A")``)."""
    m = position.map
    table = dict(position.units)
    for where, (power, kind) in units.items():
        table[m.loc(where)] = Unit(power, ARMY if kind == "A" else FLEET, m.loc(where))
    return position.replace(units=table)


def unit_in(position: Position, where: str) -> Unit | None:
    return position.unit_at(position.map.loc(where))


# Western World 901 and Unconstitutional (godip's published rules): "Neutral SCs get an army
# which always holds and disbands when dislodged. This will be rebuilt if the SC is unowned
# during adjustment." Western World 901 has 28 such armies; on the standard board, 12.


def test_garrison_unowned_neutral_scs_get_an_army() -> None:
    position = start()
    m = position.map
    assert m.minor_power_codes == (NEUTRAL,) and m.power(NEUTRAL).name == "Neutral"
    neutral = {m.loc_name(u.loc) for u in position.units.values() if u.power == NEUTRAL}
    assert neutral == NEUTRAL_CENTRES
    assert {c for c, p in ((m.provinces[q].code, o) for q, o in position.centers.items())
            if p == NEUTRAL} == NEUTRAL_CENTRES
    assert all(u.type is ARMY for u in position.units.values() if u.power == NEUTRAL)
    assert position.map.power_codes == load_standard_powers()


def load_standard_powers() -> tuple[str, ...]:
    return Position.initial("standard").map.power_codes


def test_garrisons_always_hold_an_order_given_for_one_is_a_hold() -> None:
    outcome = adjudicate(start(), {NEUTRAL: ["A BEL - PIC"]})
    lines = [(r.canonical, r.result) for r in outcome.results[NEUTRAL]]
    assert ("A BEL H", SUCCEEDS) in lines
    assert unit_in(outcome.after, "BEL") is not None and unit_in(outcome.after, "PIC") is None


def test_garrisons_bounce_an_attack_and_yield_to_a_supported_one() -> None:
    # godip's test of Western World 901: Paris - Lothairingia bounces off the neutral army;
    # with a support, the move succeeds.
    position = placed(start(), BUR=("FRANCE", "A"), PIC=("FRANCE", "A"))
    bounced = adjudicate(position, {"FRANCE": ["A BUR - BEL"]})
    assert unit_in(bounced.after, "BEL").power == NEUTRAL
    taken = adjudicate(position, {"FRANCE": ["A BUR - BEL", "A PIC S A BUR - BEL"]})
    assert unit_in(taken.after, "BEL").power == "FRANCE"


def test_garrisons_may_receive_support() -> None:
    position = placed(start(), BUR=("FRANCE", "A"), PIC=("FRANCE", "A"), NTH=("ENGLAND", "F"))
    outcome = adjudicate(position, {"FRANCE": ["A BUR - BEL", "A PIC S A BUR - BEL"],
                                    "ENGLAND": ["F NTH S A BEL"]})
    assert unit_in(outcome.after, "BEL").power == NEUTRAL  # 2 against 2: it stands


def test_garrisons_disband_when_dislodged() -> None:
    position = placed(start(), BUR=("FRANCE", "A"), PIC=("FRANCE", "A"))
    outcome = adjudicate(position, {"FRANCE": ["A BUR - BEL", "A PIC S A BUR - BEL"]})
    assert not outcome.next.dislodged  # no retreat: the garrison is gone at once
    assert outcome.next.phase.code == "F1901M"
    assert not any(u.power == NEUTRAL and u.loc == position.map.loc("BEL")
                   for u in outcome.after.units.values())


def test_garrisons_are_rebuilt_if_the_sc_is_unowned_during_adjustment() -> None:
    # godip's test of Western World 901: Esteland given to Kiev but vacant, Novgorod and
    # Bulgar emptied; in the winter Kiev builds Novgorod, the neutral Bulgar is rebuilt and
    # Esteland is not.
    position = start()
    m = position.map
    units = {p: u for p, u in position.units.items()
             if m.loc_name(p) not in ("BUL", "RUM", "SEV")}
    centers = {**position.centers, m.loc("RUM"): "RUSSIA"}
    fall = position.replace(phase=Phase(1901, "F", "M"), units=units, centers=centers)
    winter = adjudicate(fall, {}).next
    assert winter.phase.code == "W1901A"
    outcome = adjudicate(winter, {"RUSSIA": ["BUILD A SEV"]})
    after = outcome.after
    assert unit_in(after, "SEV") == Unit("RUSSIA", ARMY, m.loc("SEV"))
    assert unit_in(after, "BUL") == Unit(NEUTRAL, ARMY, m.loc("BUL"))
    assert unit_in(after, "RUM") is None  # Russia's now: not rebuilt


# Europe 1939 (godip's published rules): "The neutral nation of Yugoslavia gets an army in
# Serbia, which will disband when dislodged and will not be rebuilt."


def test_garrison_minor_powers_of_the_map_yugoslavia_is_not_rebuilt() -> None:
    position = start(YUGOSLAVIA)
    m = position.map
    assert unit_in(position, "SER") == Unit("YUGOSLAVIA", ARMY, m.loc("SER"))
    assert m.power("YUGOSLAVIA").garrison and not m.power("YUGOSLAVIA").rebuild
    attacked = placed(position, ALB=("AUSTRIA", "A"), GRE=("AUSTRIA", "A"))
    spring = adjudicate(attacked, {"AUSTRIA": ["A ALB - SER", "A GRE S A ALB - SER"]})
    assert unit_in(spring.after, "SER").power == "AUSTRIA" and not spring.next.dislodged
    fall = adjudicate(spring.next, {"AUSTRIA": ["A SER - BUL"]})
    # Serbia is Yugoslavia's still, and empty: the winter rebuilds nothing there.
    winter = fall.next
    if winter.phase.is_adjustment:
        winter = adjudicate(winter, {}).after
    assert unit_in(winter, "SER") is None


def test_garrison_minor_powers_of_the_map_yugoslavia_holds() -> None:
    outcome = adjudicate(start(YUGOSLAVIA), {"YUGOSLAVIA": ["A SER - BUD"]})
    assert [r.canonical for r in outcome.results["YUGOSLAVIA"] if r.result is SUCCEEDS] == [
        "A SER H"]


def test_garrisons_a_board_without_garrisons_is_refused_with_the_fix() -> None:
    with pytest.raises(CalhamerError, match="set the option garrison_unowned = true"):
        find_variant("standard+garrisons")
    with pytest.raises(CalhamerError, match="garrisons cannot be played with stacks"):
        find_variant("superdiplomacy+garrisons+stacks?garrison_unowned=true")


def test_garrisons_a_board_with_a_neutral_power_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "neutral.toml"
    path.write_text('[map]\nextends = "standard"\nname = "n"\n\n[minor_powers.NEUTRAL]\n'
                    'name = "Neutral"\n')
    with pytest.raises(CalhamerError, match="has a power NEUTRAL already"):
        find_variant(f"{path}+garrisons?garrison_unowned=true")


def test_garrisons_sit_after_neutrals_in_the_combining_order() -> None:
    v = find_variant("standard+garrisons+fog?garrison_unowned=true")
    assert v.name == "standard+fog+garrisons?garrison_unowned=true"
    assert [m.module_name for m in type(v).modules] == ["fog", "garrisons"]
    assert Garrisons.module_name == "garrisons"


# "Reports, outputs and pages of a variant with garrisons and no DP say nothing of Diplomacy
# Points" (the issue).

def _says_no_dp(text: str) -> None:
    assert "Diplomacy Point" not in text and " DP" not in text and "bid" not in text.lower()


def test_no_dp_in_reports_and_outputs_of_a_garrisons_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(GARRISONED)
    assert game.possible_bids("FRANCE") == (0, {})
    game.set_orders("FRANCE", ["A PAR - BUR"])
    outcome = game.process()
    _says_no_dp(phase_report(outcome))
    _says_no_dp(position_report(game.current))
    _says_no_dp(json.dumps(outcome_to_json(outcome)))
    _says_no_dp(json.dumps(position_to_json(game.current)))
    path = tmp_path / "game.json"
    assert main(["game", "new", str(path), "--variant", GARRISONED]) == 0
    orders = tmp_path / "orders.txt"
    orders.write_text("A PAR - BUR\n", encoding="utf-8")
    assert main(["game", "orders", str(path), "FRANCE", str(orders)]) == 0
    assert main(["game", "process", str(path)]) == 0
    assert main(["game", "show", str(path)]) == 0
    assert main(["game", "reports", str(path), "-o", str(tmp_path / "reports")]) == 0
    _says_no_dp(capsys.readouterr().out)
    for report in (tmp_path / "reports").iterdir():
        _says_no_dp(report.read_text(encoding="utf-8"))
