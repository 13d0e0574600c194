"""DP-based variants (the Common Ruleset for DP-based Variants, ``docs/rules/dp.md``).

The ruleset's worked example end to end (the same bids give the same "Resulting Neutral
Orders" and the same adjudication report, line for line), then a case for every rule:
sorties (cutting support, protecting a province, never dislodging, closing a province to
retreats), destroyed and rebuilt neutrals, allotments, overspending, whole numbers, the
Attacking & Allocating rule, ties and defaults, use-it-or-lose-it, secrecy, and whole
``standard-dp`` games through the library and the command line.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from calhamer import variants
from calhamer.cli import main
from calhamer.errors import PhaseError
from calhamer.formats import outcome_to_json, position_from_json, position_to_json
from calhamer.game import Game, GameError
from calhamer.map import MapError, load_map
from calhamer.phases import adjudicate, retreat_options
from calhamer.position import Position
from calhamer.report import phase_report
from calhamer.results import FAILS, INVALID, SUCCEEDS, PhaseOutcome
from calhamer.variants import dp, find_variant, register_variant
from calhamer.variants.dp import DPVariant, check_bids, with_bids

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "sources" / "dp-common-ruleset.txt"

# -- the ruleset's worked example (Sub-Saharan) ---------------------------------------------------

EXAMPLE_ORDERS = {
    "ANGOLA": ["A Lua - Bra", "A Moc - Lun"],
    "MOZAMBIQUE": ["A Tet - Muc"],
    "YEKE": ["A Bun S Mwa - Kas", "A Mwa - Kas"],
    "ZANZIBAR": ["A Mom - Aru", "A Sto - Tab"],
}
# The bids as the source describes them (its table of bids is a picture; the text gives every
# bid but the two on Kampala, which only have to differ: one point each from Toucouleur and
# Zanzibar). Every player has 2 DP and spends them all.
EXAMPLE_BIDS = {
    "ANGOLA": ["1 DP: A Lib S Lua - Bra", "1 DP: A Mwi S Kas H"],
    "MOZAMBIQUE": ["1 DP: A Tab - Aru", "1 DP: A Mwi S Kas H"],
    "TOUCOULEUR": ["1 DP: A Kam - Kas", "1 DP: A Mwi - Lun"],
    "YEKE": ["2 DP: A Kas - Kam"],
    "ZANZIBAR": ["1 DP: A Kas S Sto - Tab", "1 DP: A Kam S Kas H"],
}

RESULTING_NEUTRAL_ORDERS = """\
A Bra H
A Iri H
A Kam H
A Kas S Sto - Tab
A Kis H
A Lib S Lua - Bra
A Mos H
A Mwi S Kas H
A Tab - Aru"""

# Copied from the source (trailing blanks dropped: the source has "    " on some empty lines).
ADJUDICATION_REPORT = """\
------
Angola

    A Lua - Bra             Succeeds
    A Moc - Lun             Succeeds

------
Mozambique

    A Tet - Muc             Succeeds

------
Yeke

    A Bun S Mwa - Kas       Succeeds
    A Mwa - Kas             Bounced 2v2

------
Zanzibar

    A Mom - Aru             Bounced 1v1 (with Tab)
    A Sto - Tab             Bounced 1v1

------
Minor Neutral Powers

    A Bra H                 Dislodged by A Lua (2v1)
    A Iri H                 Succeeds
    A Kam H                 Succeeds

    A Kas S Sto - Tab       Cut by A Mwa
    A Kis H                 Succeeds
    A Lib S Lua - Bra       Succeeds

    A Mos H                 Succeeds
    A Mwi S Kas H           Succeeds
    A Tab - Aru             Bounced 1v1 (with Mom)
"""


def example_start() -> Position:
    return Position.initial("sub-saharan-excerpt", variant=find_variant("sub-saharan-excerpt"))


def example_outcome() -> PhaseOutcome:
    return adjudicate(with_bids(example_start(), EXAMPLE_BIDS), EXAMPLE_ORDERS)


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_example_resulting_neutral_orders() -> None:
    assert dp.resulting_neutral_orders(example_outcome()) == RESULTING_NEUTRAL_ORDERS.split("\n")


def test_example_adjudication_report_line_for_line() -> None:
    report = dp.adjudication_report(example_outcome())
    assert _lines(report) == _lines(ADJUDICATION_REPORT)
    # The full phase report carries the same blocks between its heading and the summary.
    full = phase_report(example_outcome())
    assert "\n".join(_lines(ADJUDICATION_REPORT)) in "\n".join(_lines(full))


@pytest.mark.skipif(not SOURCE.exists(), reason="the source document is not checked out here")
def test_example_matches_the_source_document_itself() -> None:
    text = SOURCE.read_text(encoding="utf-8")
    orders = text.split("Resulting Neutral Orders", 1)[1].split("•", 1)[0]
    assert _lines(orders)[: len(RESULTING_NEUTRAL_ORDERS.split())] == dp.resulting_neutral_orders(
        example_outcome()
    )
    report = text.split("will look like the following.", 1)[1].split("Note that even", 1)[0]
    assert _lines(report) == _lines(dp.adjudication_report(example_outcome()))


def test_example_bids_as_the_gamemaster_sees_them() -> None:
    tally = dp.resolve_bids(
        with_bids(example_start(), EXAMPLE_BIDS),
        dp.given_orders(example_outcome()),
    )
    m = example_start().map
    kas = tally.units[m.province_of(m.loc("KAS"))]
    assert kas.totals == {"A KAS S A STO - TAB": 1}  # Yeke's 2 DP are ignored
    yeke = [j for j in tally.bids if j.bid.power == "YEKE"]
    assert [j.status for j in yeke] == [dp.IGNORED]
    assert "Attacking & Allocating" in yeke[0].reason
    kam = tally.units[m.province_of(m.loc("KAM"))]
    assert sorted(kam.totals.values()) == [1, 1] and not kam.bought  # a tie: hold
    mwi = tally.units[m.province_of(m.loc("MWI"))]
    assert mwi.totals == {"A MWI S A KAS": 2, "A MWI - LUN": 1}  # identical orders add up
    assert tally.allotments == dict.fromkeys(
        ["ANGOLA", "MOZAMBIQUE", "TOUCOULEUR", "YEKE", "ZANZIBAR"], 2
    )
    report = dp.tally_report(example_start(), tally)
    assert "Yeke" in report and "ignored" in report


def test_example_board_after_the_phase() -> None:
    outcome = example_outcome()
    m = outcome.before.map
    bra = m.province_of(m.loc("BRA"))
    # Brazzaville's army is destroyed, not retreated: no retreat phase follows.
    assert outcome.next.phase.code == "F1901M"
    assert outcome.after.dislodged == ()
    assert bra in outcome.removed
    assert outcome.next.units[bra].power == "ANGOLA"
    assert outcome.next.centers[bra] == "BRAZZAVILLE"  # taken only after a fall turn
    # Tabora's sortie did not move it.
    tab = m.province_of(m.loc("TAB"))
    assert outcome.next.units[tab].power == "TABORA"


def test_example_from_a_phase_document_and_the_command_line(tmp_path, capsys) -> None:
    doc = position_to_json(example_start())
    doc["orders"] = EXAMPLE_ORDERS
    doc["bids"] = {
        power: [dp.parse_bid(power, line).to_json() for line in lines]
        for power, lines in EXAMPLE_BIDS.items()
    }
    assert doc["bids"]["ZANZIBAR"][0] == {"order": "A Kas S Sto - Tab", "dp": 1}
    position, orders, rules = position_from_json(doc)
    assert _lines(dp.adjudication_report(adjudicate(position, orders, rules))) == _lines(
        ADJUDICATION_REPORT
    )
    path = tmp_path / "example.json"
    path.write_text(json.dumps(doc))
    assert main(["adjudicate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\n".join(_lines(ADJUDICATION_REPORT)) in "\n".join(_lines(out))
    assert main(["adjudicate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"]["KASONGO"][0]["canonical"] == "A KAS S A STO - TAB"


# -- a board on the standard-dp map --------------------------------------------------------------

NEUTRALS = {
    "BELGIUM": ["A BEL"],
    "HOLLAND": ["A HOL"],
    "DENMARK": ["A DEN"],
    "SWEDEN": ["A SWE"],
    "NORWAY": ["A NWY"],
}


def board(
    units: dict[str, list[str]],
    bids: dict[str, list[str]] | None = None,
    phase: str = "S1901M",
    centers: dict[str, list[str]] | None = None,
    variant: str = "standard-dp",
) -> Position:
    """A standard-dp position: the given units plus five northern neutrals, everyone owning
    the centres they stand on unless ``centers`` says otherwise."""
    m = load_map("standard-dp")
    all_units = {**NEUTRALS, **units}
    if centers is None:
        centers = {}
        for power, specs in all_units.items():
            for spec in specs:
                loc = m.find_location(spec.split()[1])
                if m.provinces[m.province_of(loc)].is_supply_center:
                    centers.setdefault(power, []).append(m.loc_name(m.province_of(loc)))
    doc = {"variant": variant, "phase": phase, "units": all_units, "centers": centers}
    if bids:
        doc["bids"] = bids
    position, _orders, _rules = position_from_json(doc)
    return position


def result(outcome: PhaseOutcome, power: str, canonical: str):
    found = outcome.result_of(power, canonical)
    assert found is not None, (power, canonical, outcome.results.get(power))
    return found


FRANCE_3 = {"FRANCE": ["A PAR", "A MAR", "F BRE"]}  # three centres: 3 DP


def test_sortie_cuts_support() -> None:
    units = {
        "FRANCE": ["A BUR", "A PAR", "A MAR"],
        "GERMANY": ["A MUN", "A RUH", "A KIE"],
    }
    orders = {"GERMANY": ["A Mun - Bur", "A Ruh S A Mun - Bur"]}
    without = adjudicate(board(units), orders)
    assert result(without, "GERMANY", "A MUN - BUR").result == SUCCEEDS
    bought = adjudicate(board(units, {"FRANCE": ["1 DP: A Bel - Ruh"]}), orders)
    assert result(bought, "BELGIUM", "A BEL - RUH").result == FAILS
    support = result(bought, "GERMANY", "A RUH S A MUN - BUR")
    assert (support.result, support.reason) == (FAILS, "support cut by A BEL")
    assert result(bought, "GERMANY", "A MUN - BUR").reason == "bounced 1v1 against A BUR"
    m = bought.before.map
    assert bought.next.units[m.loc("BEL")].power == "BELGIUM"  # the sortie never moves
    assert bought.next.units[m.loc("RUH")].power == "GERMANY"  # nor dislodges
    assert "Cut by A Bel" in dp.adjudication_report(bought)


def test_sortie_protects_an_empty_province() -> None:
    bids = {"ENGLAND": ["1 DP: A Bel - Pic"]}
    units = {**FRANCE_3, "ENGLAND": ["F LON"]}
    outcome = adjudicate(board(units, bids), {"FRANCE": ["A Par - Pic"]})
    assert result(outcome, "FRANCE", "A PAR - PIC").reason == "bounced 1v1 with A BEL"
    assert result(outcome, "BELGIUM", "A BEL - PIC").reason == "bounced 1v1 with A PAR"
    m = outcome.before.map
    assert m.loc("PIC") not in outcome.next.units
    report = dp.adjudication_report(outcome)
    assert "A Par - Pic             Bounced 1v1 (with Bel)" in report
    assert "A Bel - Pic             Bounced 1v1 (with Par)" in report
    # A supported attack gets in all the same: the sortie has only its own strength.
    strong = adjudicate(
        board(units, bids), {"FRANCE": ["A Par - Pic", "F Bre S A Par - Pic"]}
    )
    assert result(strong, "FRANCE", "A PAR - PIC").result == SUCCEEDS


def test_a_stationary_unit_never_moves_nor_dislodges() -> None:
    units = {"FRANCE": ["A PIC", "A PAR", "A MAR"], "ENGLAND": ["F ENG", "F LON", "F EDI"]}
    bids = {"ENGLAND": ["2 DP: A Bel - Pic"]}
    outcome = adjudicate(board(units, bids), {"ENGLAND": ["F Eng S A Bel - Pic"]})
    sortie = result(outcome, "BELGIUM", "A BEL - PIC")
    assert sortie.result == FAILS and sortie.reason.startswith("sortie")
    assert result(outcome, "ENGLAND", "F ENG S A BEL - PIC").result == SUCCEEDS
    m = outcome.before.map
    assert outcome.next.units[m.loc("PIC")].power == "FRANCE"
    assert outcome.next.units[m.loc("BEL")].power == "BELGIUM"
    assert "A Bel - Pic             Bounced (sortie)" in dp.adjudication_report(outcome)


def test_a_sortie_in_a_head_to_head_battle() -> None:
    start = example_start()
    # Equal strengths: both bounce, and Tabora stays.
    bids = {"MOZAMBIQUE": ["1 DP: A Tab - Sto"]}
    outcome = adjudicate(with_bids(start, bids), {"ZANZIBAR": ["A Sto - Tab"]})
    assert result(outcome, "TABORA", "A TAB - STO").reason == "bounced 1v1 with A STO"
    assert result(outcome, "ZANZIBAR", "A STO - TAB").reason == "bounced 1v1 with A TAB"
    # A stronger attack wins the battle and destroys the stationary unit.
    bids = {"MOZAMBIQUE": ["1 DP: A Tab - Sto"], "ANGOLA": ["1 DP: A Kas S Sto - Tab"]}
    outcome = adjudicate(with_bids(start, bids), {"ZANZIBAR": ["A Sto - Tab"]})
    assert result(outcome, "ZANZIBAR", "A STO - TAB").result == SUCCEEDS
    m = start.map
    assert m.province_of(m.loc("TAB")) in outcome.removed
    assert outcome.next.phase.code == "F1901M"
    assert "A Tab - Sto             Bounced 1v2 (with Sto); Dislodged by A Sto (2v1)" in (
        dp.adjudication_report(outcome)
    )


def test_a_lone_sortie_closes_its_province_to_retreats() -> None:
    units = {"FRANCE": ["A BUR", "A PAR", "A MAR"], "GERMANY": ["A MUN", "A RUH", "A KIE"]}
    orders = {"GERMANY": ["A Mun - Bur", "A Ruh S A Mun - Bur"], "FRANCE": ["A Par - Gas"]}
    bids = {"FRANCE": ["1 DP: A Bel - Pic"]}
    outcome = adjudicate(board(units, bids), orders)
    m = outcome.before.map
    pic = m.province_of(m.loc("PIC"))
    assert outcome.next.phase.code == "S1901R"
    assert pic in outcome.next.contested
    (entry,) = outcome.next.dislodged
    options = retreat_options(outcome.next, entry)
    assert pic not in options and m.loc("PAR") in options  # Paris was left empty
    # The phase document says so, and a retreat there is refused.
    assert "PIC" in position_to_json(outcome.next)["contested"]
    retreat = adjudicate(outcome.next, {"FRANCE": ["A Bur R Pic"]})
    assert retreat.results["FRANCE"][0].result == INVALID
    assert "standoff" in retreat.results["FRANCE"][0].reason
    # Without the sortie Picardy is open.
    plain = adjudicate(board(units), orders)
    assert pic not in plain.next.contested
    assert pic in retreat_options(plain.next, plain.next.dislodged[0])


def test_a_dislodged_neutral_is_destroyed_and_rebuilt_in_winter() -> None:
    units = {"FRANCE": ["A PIC", "A BUR", "A PAR"]}
    spring = adjudicate(board(units), {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel"]})
    m = spring.before.map
    bel = m.province_of(m.loc("BEL"))
    assert result(spring, "BELGIUM", "A BEL H").reason == "dislodged by A PIC (2v1)"
    assert spring.next.phase.code == "F1901M" and spring.next.units[bel].power == "FRANCE"
    # France leaves in the fall, so Belgium is still Belgium's in winter, and vacant.
    fall = adjudicate(spring.next, {"FRANCE": ["A Bel - Ruh"]})
    assert fall.next.phase.code == "W1901A"
    assert fall.next.centers[bel] == "BELGIUM" and bel not in fall.next.units
    winter = adjudicate(fall.next, {})
    assert result(winter, "BELGIUM", "BUILD A BEL").result == SUCCEEDS
    assert winter.next.units[bel].power == "BELGIUM"
    assert winter.next.phase.code == "S1902M"


def test_a_captured_minor_centre_is_not_rebuilt() -> None:
    units = {"FRANCE": ["A PIC", "A BUR", "A PAR"]}
    fall = adjudicate(
        board(units, phase="F1901M"), {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel"]}
    )
    m = fall.before.map
    bel = m.province_of(m.loc("BEL"))
    assert fall.next.phase.code == "W1901A"
    assert fall.next.centers[bel] == "FRANCE"
    assert fall.next.adjustments().get("BELGIUM", 0) == 0
    winter = adjudicate(fall.next, {"FRANCE": ["Build A Pic"]})
    assert "BELGIUM" not in winter.results
    assert winter.next.units[bel].power == "FRANCE"


def test_allotments_flat_and_per_centre_with_a_cap() -> None:
    variant = find_variant("standard-dp")
    assert isinstance(variant, DPVariant)
    position = Position.initial("standard-dp", variant=find_variant("standard-dp"))
    assert variant.allotment(position, "RUSSIA") == 3  # 4 centres, capped at 3
    assert variant.allotment(position, "FRANCE") == 3
    assert variant.allotment(position, "BELGIUM") == 0  # minor powers do not bid
    small = board({"FRANCE": ["A PAR"], "GERMANY": ["A MUN", "A KIE"]})
    assert variant.allotment(small, "FRANCE") == 1
    assert variant.allotment(small, "GERMANY") == 2
    assert variant.allotment(small, "ITALY") == 0  # out of the game
    sub = find_variant("sub-saharan-excerpt")
    assert sub.allotment(example_start(), "TOUCOULEUR") == 2  # flat, whatever it owns


def test_overspending_voids_all_of_a_powers_bids() -> None:
    units = {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN", "A KIE", "A BER"]}
    bids = {"FRANCE": ["2 DP: A Bel - Pic", "1 DP: A Hol S A Bel H"]}  # 3 DP, has 2
    position = board(units, bids)
    problems = check_bids(position, "France", bids["FRANCE"])
    assert problems == [
        "France allocated 3 DP but has 2 DP in S1901M, so all its bids are void"
    ]
    outcome = adjudicate(position, {})
    assert result(outcome, "BELGIUM", "A BEL H").result == SUCCEEDS
    assert result(outcome, "HOLLAND", "A HOL H").result == SUCCEEDS
    tally = dp.resolve_bids(position)
    assert {j.status for j in tally.bids} == {dp.VOID}
    assert check_bids(position, "FRANCE", ["2 DP: A Bel - Pic"]) == []


def test_bids_are_whole_numbers_for_neutral_units_only() -> None:
    position = board(FRANCE_3)
    problems = check_bids(
        position,
        "FRANCE",
        [
            "1.5 DP: A Bel H",
            {"order": "A Hol H", "dp": "1"},
            "0 DP: A Den H",
            "A Swe H",
            "1 DP: A Par - Bur",
            "1 DP: A Bel - Mun",
            "1 DP: A Bel - Nowhere",
        ],
    )
    assert len(problems) == 7
    assert "whole numbers" in problems[0] and "whole numbers" in problems[1]
    assert "at least 1 DP" in problems[2]
    assert "gives no DP" in problems[3]
    assert "not a neutral unit" in problems[4]
    assert "BEL" in problems[5] or "Belgium" in problems[5]
    assert "not a province" in problems[6]
    # A whole number written as 2.0 is a whole number.
    assert check_bids(position, "FRANCE", [{"order": "A Bel H", "dp": 2.0}]) == []
    # Void bids count for nothing, so the valid one wins.
    outcome = adjudicate(
        board(FRANCE_3, {"FRANCE": ["1.5 DP: A Bel - Pic", "1 DP: A Bel - Bur"]}), {}
    )
    assert result(outcome, "BELGIUM", "A BEL - BUR").result == FAILS


def test_phase_documents_reject_malformed_bids() -> None:
    doc = position_to_json(board(FRANCE_3))
    for bad in (
        {"FRANCE": "1 DP: A Bel H"},
        {"FRANCE": [["A Bel H", 1]]},
        {"FRANCE": [{"dp": 1}]},
        {"FRANCE": [{"order": "A Bel H", "dp": 1, "who": "me"}]},
        {"NARNIA": []},
        ["1 DP: A Bel H"],
    ):
        with pytest.raises(PhaseError):
            position_from_json({**doc, "bids": bad})


def test_attacking_and_allocating_counts_supports_of_attacks_too() -> None:
    # France (1 DP: only Paris is its) and Germany (2 DP: Munich and Kiel).
    units = {"FRANCE": ["A PIC", "A BUR", "A PAR"], "GERMANY": ["A RUH", "A MUN", "A KIE"]}
    attack = {"FRANCE": ["A Pic - Bel", "A Bur S A Pic - Bel"]}
    # France attacks Belgium but bids on Holland: that bid counts, and Holland's support
    # keeps Belgium's army in place.
    bids = {"FRANCE": ["1 DP: A Hol S A Bel H"]}
    outcome = adjudicate(board(units, bids), attack)
    assert result(outcome, "HOLLAND", "A HOL S A BEL").result == SUCCEEDS
    assert result(outcome, "FRANCE", "A PIC - BEL").reason == "bounced 2v2 against A BEL"
    # Its bid on Belgium itself is ignored.
    bids = {"FRANCE": ["1 DP: A Bel - Bur"]}
    outcome = adjudicate(board(units, bids), attack)
    assert result(outcome, "BELGIUM", "A BEL H").reason == "dislodged by A PIC (2v1)"
    # A power that only supports an attack is "supporting an attack" too.
    bids = {"FRANCE": ["1 DP: A Bel - Ruh"], "GERMANY": ["2 DP: A Bel H"]}
    orders = {"FRANCE": ["A Bur S A Ruh - Bel"], "GERMANY": ["A Ruh - Bel"]}
    outcome = adjudicate(board(units, bids), orders)
    tally = dp.resolve_bids(board(units, bids), dp.given_orders(outcome))
    assert {j.bid.power: j.status for j in tally.bids} == {
        "FRANCE": dp.IGNORED,
        "GERMANY": dp.IGNORED,
    }
    assert tally.attacking == {"FRANCE": {"BELGIUM"}, "GERMANY": {"BELGIUM"}}
    assert result(outcome, "BELGIUM", "A BEL H").reason == "dislodged by A RUH (2v1)"
    # An illegal attack is no attack: the unit holds, and the bid counts.
    bids = {"FRANCE": ["1 DP: A Bel - Ruh"]}
    outcome = adjudicate(board(units, bids), {"FRANCE": ["A Par - Bel"]})
    assert result(outcome, "FRANCE", "A PAR - BEL").result == INVALID
    assert result(outcome, "BELGIUM", "A BEL - RUH").result == FAILS


def test_ties_give_the_default_order_and_identical_orders_add_up() -> None:
    units = {**FRANCE_3, "GERMANY": ["A MUN", "A KIE", "A BER"], "ENGLAND": ["F LON", "F EDI"]}
    tie = {"FRANCE": ["2 DP: A Bel - Bur"], "GERMANY": ["2 DP: A Bel - Pic"]}
    outcome = adjudicate(board(units, tie), {})
    assert result(outcome, "BELGIUM", "A BEL H").result == SUCCEEDS
    joined = {**tie, "ENGLAND": ["1 DP: A Bel-Pic"]}  # written differently, the same order
    outcome = adjudicate(board(units, joined), {})
    assert result(outcome, "BELGIUM", "A BEL - PIC").result == FAILS
    # One power's bids on one order add up too.
    split = {"FRANCE": ["1 DP: A Bel - Bur", "1 DP: A Bel - Bur"], "GERMANY": ["1 DP: A Bel H"]}
    outcome = adjudicate(board(units, split), {})
    assert result(outcome, "BELGIUM", "A BEL - BUR").result == FAILS


def test_a_minor_powers_own_default_order(tmp_path) -> None:
    text = (
        Path(variants.__file__).parent.parent / "maps" / "sub-saharan-excerpt.toml"
    ).read_text(encoding="utf-8")
    text = text.replace(
        '[minor_powers.KASONGO]\nname = "Kasongo"',
        '[minor_powers.KASONGO]\nname = "Kasongo"\ndefault = ["A Kas S Mwi"]',
    )
    path = tmp_path / "excerpt-defaults.toml"
    path.write_text(text, encoding="utf-8")
    position = Position.initial(load_map(str(path)), variant=find_variant("sub-saharan-excerpt"))
    outcome = adjudicate(position, {})
    assert result(outcome, "KASONGO", "A KAS S A MWI").result == SUCCEEDS
    assert "A Kas S Mwi H" in dp.resulting_neutral_orders(outcome)


def test_use_it_or_lose_it() -> None:
    units = {"FRANCE": ["A PAR", "A MAR", "F BRE"], "GERMANY": ["A MUN", "A KIE", "A BER"]}
    spring = adjudicate(board(units, {"FRANCE": ["1 DP: A Bel - Bur"]}), {})
    fall = spring.next
    assert fall.phase.code == "F1901M"
    assert dp.bids_of(fall) == ()  # the bids ended with their phase
    assert "bids" not in position_to_json(fall)
    # The two unspent DP are gone: the fall allotment is 3 again, not 5.
    assert check_bids(fall, "FRANCE", ["4 DP: A Bel - Bur"]) != []
    assert check_bids(fall, "FRANCE", ["3 DP: A Bel - Bur"]) == []
    # Spring's winning bid does not carry over: without new bids Belgium holds.
    assert result(adjudicate(fall, {}), "BELGIUM", "A BEL H").result == SUCCEEDS


def test_only_chosen_order_kinds_may_be_bought(monkeypatch) -> None:
    class HoldAndSupport(DPVariant):
        name = "dp-hold-support"
        aliases = ()
        buyable = frozenset({"hold", "support"})

    # Registered for this test only: the registry is restored afterwards.
    monkeypatch.setattr(variants, "_REGISTERED", dict(variants._REGISTERED))
    monkeypatch.setattr(variants, "_FOUND", variants.RecentlyUsed(16))
    register_variant(HoldAndSupport)
    position = board(FRANCE_3, variant="dp-hold-support")
    problems = check_bids(position, "FRANCE", ["1 DP: A Bel - Pic", "1 DP: A Hol S A Bel"])
    assert len(problems) == 1 and "only hold and support orders" in problems[0]
    outcome = adjudicate(
        board(FRANCE_3, {"FRANCE": ["1 DP: A Bel - Pic"]}, variant="dp-hold-support"), {}
    )
    assert result(outcome, "BELGIUM", "A BEL H").result == SUCCEEDS


def test_players_cannot_order_neutral_units() -> None:
    position = board(FRANCE_3, {"FRANCE": ["1 DP: A Bel - Pic"]})
    outcome = adjudicate(position, {"FRANCE": ["A Bel - Bur"], "BELGIUM": ["A Bel - Ruh"]})
    assert outcome.results["FRANCE"][0].result == INVALID
    assert outcome.results["FRANCE"][0].reason.endswith("is not yours")
    given = [r for r in outcome.results["BELGIUM"] if r.text == "A Bel - Ruh"]
    assert given[0].result == INVALID
    assert result(outcome, "BELGIUM", "A BEL - PIC").result == FAILS
    game = Game.new("standard-dp")
    with pytest.raises(GameError, match="minor power"):
        game.set_orders("BELGIUM", ["A Bel - Ruh"])
    with pytest.raises(GameError, match="minor power"):
        game.set_bids("Belgium", ["1 DP: A Bel - Ruh"])


def test_bids_only_in_dp_variants_and_movement_phases() -> None:
    with pytest.raises(GameError, match="no bids"):
        Game.new().set_bids("FRANCE", ["1 DP: A Bel H"])
    units = {"FRANCE": ["A PAR"]}
    winter = board(units, phase="W1901A")
    assert check_bids(winter, "FRANCE", ["1 DP: A Bel H"]) == [
        "bids are given only in movement phases, and W1901A is not one"
    ]


# -- secrecy -------------------------------------------------------------------------------------


def test_secrecy_results_reports_and_documents_never_show_who_bid() -> None:
    outcome = example_outcome()
    public = json.dumps(outcome_to_json(outcome, "datc"))
    results = json.dumps(outcome_to_json(outcome, "datc")["results"])
    # Toucouleur only bid: it appears in no result, and no bid amount appears anywhere.
    assert "TOUCOULEUR" not in results
    assert not re.search(r"\bDP\b", public) and '"bids"' not in public and '"dp"' not in public
    for power in ("KASONGO", "KAMPALA", "MWIBELE", "TABORA", "LIBREVILLE"):
        for r in outcome.results[power]:
            assert r.text == r.canonical  # the order as the judge writes it, not a bidder's
    report = phase_report(outcome)
    assert "Toucouleur" not in dp.adjudication_report(outcome)
    assert not re.search(r"\bDP\b", report)
    assert "bids" not in position_to_json(outcome.next)
    assert "bids" not in position_to_json(outcome.after)
    assert dp.bids_of(outcome.next) == ()


def test_secrecy_in_a_game_file(tmp_path) -> None:
    game = Game.new("sub-saharan-excerpt")
    for power, lines in EXAMPLE_ORDERS.items():
        game.set_orders(power, lines)
    for power, lines in EXAMPLE_BIDS.items():
        assert game.set_bids(power, lines) == []
    assert game.bids["YEKE"] == ["2 DP: A Kas - Kam"]
    outcome = game.process()
    assert _lines(dp.adjudication_report(outcome)) == _lines(ADJUDICATION_REPORT)
    record = game.history[0]
    assert "TOUCOULEUR" not in json.dumps(record.results)
    assert "bids" not in record.document and "bids" not in game.history[1].document
    # The gamemaster's file keeps them, apart, and the report rebuilt from it is the same.
    game.save(tmp_path / "g.json")
    again = Game.load(tmp_path / "g.json")
    assert again.history[0].bids == record.bids
    assert _lines(dp.adjudication_report(again.outcome())) == _lines(ADJUDICATION_REPORT)
    assert again.phase_document("S1901M")["bids"]["YEKE"] == ["2 DP: A Kas - Kam"]
    position, orders = again.phase_input("S1901M")
    tally = dp.bid_tally(position, orders, again.rules)
    assert [j.status for j in tally.bids if j.bid.power == "YEKE"] == [dp.IGNORED]


# -- maps ----------------------------------------------------------------------------------------


def test_standard_dp_map() -> None:
    m = load_map("standard-dp")
    assert m.power_codes == load_map("standard").power_codes  # minor powers are not players
    assert len(m.minor_powers) == 12
    start = Position.initial(m, variant=find_variant("standard-dp"))
    neutral = dp.neutral_units(start)
    assert sorted(m.provinces[p].code for p in neutral) == sorted(
        ["BEL", "BUL", "DEN", "GRE", "HOL", "NWY", "POR", "RUM", "SER", "SPA", "SWE", "TUN"]
    )
    assert all(u.type.letter == "A" and dp.is_stationary(m, u) for u in neutral.values())
    assert all(start.centers[p] == u.power for p, u in neutral.items())
    assert len({u.power for u in neutral.values()}) == 12
    assert m.find_power("Belgium") == "BELGIUM" and m.is_minor("BELGIUM")


def test_minor_power_map_errors(tmp_path) -> None:
    def load(body: str):
        path = tmp_path / f"m{abs(hash(body))}.toml"
        path.write_text('[map]\nextends = "standard"\nname = "x"\n' + body)
        return load_map(str(path))

    with pytest.raises(MapError, match="no centre"):
        load('[minor_powers.X]\nunits = ["A BUR"]\ncenters = ["BUR"]\n')
    with pytest.raises(MapError, match="both"):
        load('[minor_powers.X]\ncenters = ["PAR"]\n')
    with pytest.raises(MapError, match="not a province"):
        load('[minor_powers.X]\ncenters = ["ZZZ"]\n')
    with pytest.raises(MapError, match="both"):
        load('[minor_powers.FRANCE]\nname = "Frankreich"\n')


# -- whole games ---------------------------------------------------------------------------------


def random_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """An order for every player's unit: a move, a hold, or a support of a move or hold."""
    m = position.map

    def near(province: int, unit) -> list[int]:
        if unit.type.letter == "A":
            return sorted(m.army_adjacent[province])
        return sorted(m.province_of(d) for d in m.fleet_adjacent[unit.loc])

    players = {p: u for p, u in position.units.items() if not m.is_minor(u.power)}
    moves = {}
    for province, unit in players.items():
        if near(province, unit) and rng.random() < 0.5:
            moves[province] = rng.choice(near(province, unit))
    orders: dict[str, list[str]] = {}
    for province, unit in players.items():
        here = f"{unit.type.letter} {m.loc_name(unit.loc)}"
        reach = near(province, unit)
        if province in moves:
            order = f"{here} - {m.provinces[moves[province]].code}"
        else:
            helped = [p for p, dest in moves.items() if dest in reach and dest != province]
            holders = [q for q in reach if q in position.units]
            if helped and rng.random() < 0.7:
                p = rng.choice(helped)
                other = position.units[p]
                order = (
                    f"{here} S {other.type.letter} {m.loc_name(other.loc)} - "
                    f"{m.provinces[moves[p]].code}"
                )
            elif holders and rng.random() < 0.5:
                other = position.units[rng.choice(holders)]
                order = f"{here} S {other.type.letter} {m.loc_name(other.loc)}"
            else:
                order = f"{here} H"
        orders.setdefault(unit.power, []).append(order)
    return orders


def random_bids(position: Position, rng: random.Random) -> dict[str, list[str]]:
    m = position.map
    variant = find_variant(position.variant)
    neutral = sorted(dp.neutral_units(position).items())
    bids: dict[str, list[str]] = {}
    for power in position.powers():
        budget = variant.allotment(position, power)
        while budget > 0 and neutral and rng.random() < 0.8:
            province, unit = rng.choice(neutral)
            near = sorted(m.army_adjacent[province])
            amount = rng.randint(1, budget)
            budget -= amount
            target = rng.choice(near)
            order = f"A {m.loc_name(unit.loc)} - {m.provinces[target].code}"
            if target in position.units and rng.random() < 0.5:
                order = f"A {m.loc_name(unit.loc)} S {m.loc_name(position.units[target].loc)}"
            bids.setdefault(power, []).append(f"{amount} DP: {order}")
    return bids


def retreat_or_build_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    from calhamer.phases import buildable_centres
    from calhamer.rules import find_rules

    m = position.map
    orders: dict[str, list[str]] = {}
    if position.phase.is_retreat:
        for d in position.dislodged:
            options = retreat_options(position, d)
            text = f"{d.unit.type.letter} {m.loc_name(d.unit.loc)}"
            line = f"{text} R {m.loc_name(rng.choice(options))}" if options else f"{text} D"
            orders.setdefault(d.unit.power, []).append(line)
    else:
        for power, amount in position.adjustments().items():
            if m.is_minor(power) or amount <= 0:
                continue  # removals: civil disorder picks them
            for province in buildable_centres(position, power, find_rules("datc"))[:amount]:
                orders.setdefault(power, []).append(f"Build A {m.provinces[province].code}")
    return orders


def test_a_whole_standard_dp_game_through_the_library() -> None:
    rng = random.Random(1901)
    game = Game.new("standard-dp")
    seen_kinds = set()
    for _ in range(40):  # ten years at most
        position = game.current
        if game.winner:
            break
        seen_kinds.add(position.phase.kind)
        if position.phase.is_movement:
            for power, lines in random_orders(position, rng).items():
                game.set_orders(power, lines)
            for power, lines in random_bids(position, rng).items():
                assert game.set_bids(power, lines) == []
        else:
            for power, lines in retreat_or_build_orders(position, rng).items():
                game.set_orders(power, lines)
        outcome = game.process()
        nxt = outcome.next
        assert dp.bids_of(nxt) == () and "bids" not in game.history[-1].document
        for unit in nxt.units.values():  # neutral units never leave home
            if nxt.map.is_minor(unit.power):
                assert nxt.map.provinces[nxt.map.province_of(unit.loc)].home == unit.power
        assert all(not nxt.map.is_minor(d.unit.power) for d in nxt.dislodged)
        phase_report(outcome)  # every phase can be reported
    assert {"M", "R", "A"} <= seen_kinds
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).phases == game.phases


def test_a_standard_dp_game_on_the_command_line(tmp_path, capsys) -> None:
    file = str(tmp_path / "game.json")

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    def write(name: str, text: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    assert run("game", "new", file, "--variant", "standard-dp")[0] == 0
    # Spring 1901: France buys a sortie from Belgium into Picardy, Germany overspends.
    run("game", "orders", file, "FRANCE", write("f.txt", "A Par - Pic\nA Mar - Bur\nF Bre H\n"))
    code, out, err = run("game", "bids", file, "FRANCE", write("fb.txt", "3 DP: A Bel - Pic\n"))
    assert code == 0 and "Stored 1 bid for France" in out and err == ""
    code, out, err = run("game", "bids", file, "GERMANY", write("gb.txt", "4 DP: A Hol - Kie\n"))
    assert code == 0 and "all its bids are void" in out and "warning" in err
    code, out, _ = run("game", "process", file)
    assert code == 0
    assert "A Bel - Pic             Bounced 1v1 (with Par)" in out
    assert "A Hol H                 Succeeds" in out
    assert "FRANCE" not in out and "DP" not in out
    # The gamemaster's tally of the phase just played.
    code, out, _ = run("game", "tally", file, "--phase", "S1901M")
    assert code == 0 and "France" in out and "void" in out
    # Fall 1901 and on: no bids, so neutrals hold; the game goes on into 1902.
    for _ in range(3):
        code, out, _ = run("game", "process", file)
        assert code == 0
    code, out, _ = run("game", "show", file)
    assert code == 0 and "Minor powers: A BEL" in out and "1902" in out
    code, out, _ = run("game", "export", file, "--phase", "S1901M")
    assert json.loads(out)["bids"]["FRANCE"] == ["3 DP: A Bel - Pic"]
    assert run("game", "tally", file, "--phase", "W1901A")[0] == 2
    assert run("game", "bids", file, "BELGIUM", write("x.txt", "1 DP: A Bel H\n"))[0] == 2


def test_an_amount_written_with_a_comma_is_never_guessed() -> None:
    # "1,000" may be a thousands separator or a decimal comma: the bid is void, saying so,
    # rather than read as 1 DP (or 1000) behind the bidder's back.
    position = board(FRANCE_3)
    for amount in ("1,000", "1,5", "2,0"):
        problems = check_bids(position, "FRANCE", [f"{amount} DP: A Bel - Pic"])
        assert len(problems) == 1 and f"whole numbers, not '{amount}'" in problems[0]
    outcome = adjudicate(board(FRANCE_3, {"FRANCE": ["1,000 DP: A Bel - Pic"]}), {})
    assert result(outcome, "BELGIUM", "A BEL H").result == SUCCEEDS
