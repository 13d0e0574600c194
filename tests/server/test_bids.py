"""Bids in the DP variants: entry (API and page), the allotment and the overspend error, secrecy
(no other player, answer, report, export or count shows a bid), the gamemaster's tally, and a
phase adjudicated with bids by the worker."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_pages import gm_creates_a_game, join

from conftest import Judge, Player

# France's bids: one that wins (Belgium supports France into Burgundy) and one that loses
# (Germany outbids it on Spain); both must stay secret.
FRANCE_BIDS: list[Any] = ["2 DP: A Bel S A Par - Bur", {"order": "A Spa - Gas", "dp": 1}]
GERMANY_BIDS = ["2 DP: A Spa H"]
SECRET = ("SPA - GAS", "Spa - Gas", "2 DP", "1 DP", '"dp"')


@pytest.fixture
def dp_game(judge: Judge) -> tuple[Judge, Player, Player, Player]:
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard-dp")
    return judge, gm, judge.join("FRANCE"), judge.join("GERMANY")


def put_bids(judge: Judge, player: Player, bids: list[Any], phase: str = "S1901M") -> Any:
    return judge.client.put(f"/api/games/{judge.game['id']}/bids", headers=player.headers,
                            json={"phase": phase, "bids": bids})


def everything_seen_by(judge: Judge, player: Player, phases: list[str]) -> str:
    """Every answer a player gets about the game, API and pages, as one text."""
    gid = judge.game["id"]
    paths = [f"/api/games/{gid}", f"/api/games/{gid}/orders", f"/api/games/{gid}/bids",
             f"/api/games/{gid}/phases", "/api/games"]
    for code in phases:
        paths += [f"/api/games/{gid}/phases/{code}", f"/api/games/{gid}/phases/{code}/document",
                  f"/api/games/{gid}/phases/{code}/tally"]
    return "\n".join(judge.client.get(p, headers=player.headers).text for p in paths)


def test_bids_are_entered_with_the_allotment_shown(dp_game):
    judge, _gm, france, _germany = dp_game
    gid = judge.game["id"]
    mine = judge.client.get(f"/api/games/{gid}/bids", headers=france.headers).json()
    assert mine == {"FRANCE": {"phase": "S1901M", "power": "FRANCE", "bids": [], "problems": [],
                               "allotment": 3, "allocated": 0, "saved_at": None}}
    r = put_bids(judge, france, FRANCE_BIDS)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["bids"] == FRANCE_BIDS and body["problems"] == []
    assert body["allotment"] == 3 and body["allocated"] == 3 and body["saved_at"]
    # stored durably: read back in a new request
    again = judge.client.get(f"/api/games/{gid}/bids", headers=france.headers).json()
    assert again["FRANCE"]["bids"] == FRANCE_BIDS
    # blank lines and comments are dropped; several lines in one string are split
    r = put_bids(judge, france, ["1 DP: A Bel H\n# a comment\n\n1 DP: A Hol H"])
    assert r.json()["bids"] == ["1 DP: A Bel H", "1 DP: A Hol H"]


def test_overspending_and_bad_bids_are_reported_at_submission(dp_game):
    judge, _gm, france, _germany = dp_game
    r = put_bids(judge, france, ["2 DP: A Bel H", {"order": "A Hol H", "dp": 2}])
    assert r.status_code == 200
    body = r.json()
    assert body["allocated"] == 4 and body["allotment"] == 3
    assert body["problems"] == ["France allocated 4 DP but has 3 DP in S1901M, so all its "
                                "bids are void"]
    assert body["bids"] == ["2 DP: A Bel H", {"order": "A Hol H", "dp": 2}]  # kept as given
    problems = put_bids(judge, france, ["1 DP: A Par H", {"order": "A Bel H", "dp": 1.5},
                                        "A Hol H", "1 DP: A Bel - Mun"]).json()["problems"]
    assert len(problems) == 4
    assert "not a neutral unit" in problems[0]
    assert "whole numbers" in problems[1]
    assert "gives no DP" in problems[2]
    assert problems[3].startswith("1 DP: A Bel - Mun")
    for bad in ([{"order": "A Bel H", "dp": "2"}], [{"order": "A Bel H"}],
                [{"order": "A Bel H", "dp": 1, "power": "GERMANY"}], [{"order": "A Bel H",
                                                                       "dp": True}]):
        r = put_bids(judge, france, bad)
        assert r.status_code == 422, bad
    r = put_bids(judge, france, ["1 DP: A Bel H"], phase="F1901M")
    assert r.status_code == 409 and "S1901M" in r.json()["detail"]


def test_bids_only_in_movement_phases_of_dp_games(judge):
    gm = judge.user("gm")
    judge.new_game(gm)
    france = judge.join("FRANCE")
    r = put_bids(judge, france, ["1 DP: A Bel H"])
    assert r.status_code == 409 and "no bids" in r.json()["detail"]
    gid = judge.game["id"]
    assert judge.client.get(f"/api/games/{gid}/bids", headers=france.headers).json() == {}
    assert judge.client.get(f"/api/games/{gid}/phases/S1901M/tally",
                            headers=gm.headers).status_code == 404


def test_bids_stay_secret_and_buy_the_neutral_orders(dp_game):
    judge, gm, france, germany = dp_game
    gid = judge.game["id"]
    assert put_bids(judge, france, FRANCE_BIDS).status_code == 200
    assert put_bids(judge, germany, GERMANY_BIDS).status_code == 200
    judge.orders(france, ["A Par - Bur"])
    judge.orders(germany, ["A Mun - Bur"])
    # Before adjudication: each player reads only their own bids; nobody learns of others'.
    theirs = judge.client.get(f"/api/games/{gid}/bids", headers=germany.headers).json()
    assert list(theirs) == ["GERMANY"]
    seen = everything_seen_by(judge, germany, ["S1901M"])
    for secret in (*SECRET[:2], "A Bel S A Par", "A BEL S A PAR"):
        assert secret not in seen, secret
    # the gamemaster reads every bid, and the tally so far
    assert set(judge.client.get(f"/api/games/{gid}/bids", headers=gm.headers).json()) == {
        "FRANCE", "GERMANY"}
    tally = judge.client.get(f"/api/games/{gid}/phases/S1901M/tally", headers=gm.headers)
    assert tally.status_code == 200
    t = tally.json()
    assert t["adjudicated"] is False and t["allotments"]["FRANCE"] == 3
    assert t["spent"] == {"FRANCE": 3, "GERMANY": 2}
    assert {(b["power"], b["status"]) for b in t["bids"]} == {
        ("FRANCE", "counted"), ("GERMANY", "counted")}
    spain = next(u for u in t["units"] if u["unit"] == "A SPA")
    assert spain["order"] == "A SPA H" and spain["totals"] == {"A SPA H": 2, "A SPA - GAS": 1}
    assert "for the gamemaster only" in t["report"]
    # a player's tally is the nonexistent game's 404
    for path in (f"/api/games/{gid}/phases/S1901M/tally", "/api/games/nosuchgame00/phases/"
                 "S1901M/tally"):
        r = judge.client.get(path, headers=france.headers)
        assert r.status_code == 404 and r.json() == {"detail": "not found"}

    # The worker adjudicates with the bids: Belgium's bought support wins Burgundy for France.
    assert judge.process_now(gm) == [f"{gid} S1901M"]
    result = judge.client.get(f"/api/games/{gid}/phases/S1901M", headers=germany.headers).json()
    assert result["results"]["FRANCE"][0]["result"] == "succeeds"
    assert result["results"]["GERMANY"][0]["result"] == "fails"
    neutral = {r["canonical"] for p in ("BELGIUM", "SPAIN") for r in result["results"][p]}
    assert neutral == {"A BEL S A PAR - BUR", "A SPA H"}  # public: the orders, not the bids
    assert "Minor Neutral Powers" in result["report"]
    # After adjudication nothing of the bids reaches the players, not even their own.
    for player in (germany, france):
        seen = everything_seen_by(judge, player, ["S1901M"])
        for secret in (*SECRET, GERMANY_BIDS[0]):
            assert secret not in seen, (player.name, secret)
    doc = judge.client.get(f"/api/games/{gid}/phases/S1901M/document",
                           headers=france.headers).json()
    assert "bids" not in doc
    gm_doc = judge.client.get(f"/api/games/{gid}/phases/S1901M/document",
                              headers=gm.headers).json()
    assert gm_doc["bids"] == {"FRANCE": FRANCE_BIDS, "GERMANY": GERMANY_BIDS}
    # the gamemaster's tally of the adjudicated phase says what each bid did
    t = judge.client.get(f"/api/games/{gid}/phases/S1901M/tally", headers=gm.headers).json()
    assert t["adjudicated"] is True
    belgium = next(u for u in t["units"] if u["unit"] == "A BEL")
    assert belgium["bought"] and belgium["order"] == "A BEL S A PAR - BUR"
    # The next movement phase starts with no bids: use it or lose it.
    judge.process_now(gm)  # the spring retreats (none)
    assert judge.client.get(f"/api/games/{gid}/bids", headers=france.headers).json()[
        "FRANCE"]["bids"] == []

    # Once the game is over the allocations may be revealed to everyone.
    judge.client.post(f"/api/games/{gid}/control", json={"action": "end"}, headers=gm.headers)
    t = judge.client.get(f"/api/games/{gid}/phases/S1901M/tally", headers=germany.headers)
    assert t.status_code == 200 and "FRANCE" in t.json()["spent"]
    doc = judge.client.get(f"/api/games/{gid}/phases/S1901M/document",
                           headers=germany.headers).json()
    assert doc["bids"]["FRANCE"] == FRANCE_BIDS


def test_secret_bids_leave_no_trace_in_other_players_answers(dp_game):
    """Germany's answers are byte for byte the same whether France bid or not (the bids
    here buy nothing that changes the board: Spain holds either way)."""
    judge, gm, france, germany = dp_game
    first = judge.game
    second = judge.new_game(gm, variant="standard-dp")
    germany2 = Player("Germany", germany.token, "GERMANY")
    france2 = judge.join("FRANCE", game=second)  # joined in the same order as the first game's
    r = judge.client.post("/api/join", headers=germany.headers,
                          json={"invite": judge.invite("GERMANY", second)})
    assert r.status_code == 200
    judge.game = first
    put_bids(judge, france, ["3 DP: A Spa H"])
    judge.orders(france, ["A Par H"], game_id=first["id"])
    judge.orders(france2, ["A Par H"], game_id=second["id"])

    def seen(game: dict[str, Any]) -> str:
        judge.game = game
        text = everything_seen_by(judge, germany2, ["S1901M"])
        return text.replace(first["id"], "GAME").replace(second["id"], "GAME")

    before = seen(first), seen(second)
    assert before[0] == before[1]
    for game in (first, second):
        judge.process_now(gm, game["id"])
    after = seen(first), seen(second)
    assert after[0] == after[1]


def test_bids_through_the_pages(app, judge):
    gm, game_url, links = gm_creates_a_game(app, variant="standard-dp")
    france, page = join(app, links["FRANCE"], "Bob")
    assert 'id="bids-form"' in page.text and "3 DP" in page.text
    page = france.post(f"{game_url}/bids", {"phase": "S1901M",
                                            "bids": "2 DP: A Bel H\n2 DP: A Hol H"})
    assert "Bids saved" in page.text
    assert "France allocated 4 DP but has 3 DP in S1901M" in page.text
    assert "2 DP: A Bel H\n2 DP: A Hol H" in page.text  # the bids as given, back in the form
    germany, page = join(app, links["GERMANY"], "Carol")
    assert "A Hol H" not in page.text and "A Bel H" not in page.text
    gm_page = gm.get(game_url).text
    assert 'id="tally"' in gm_page and "A Hol H" in gm_page  # the gamemaster's tally
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    judge.process()
    result = gm.get(f"{game_url}/phases/S1901M").text
    assert 'id="tally"' in result and "void" in result
    assert 'id="tally"' not in france.get(f"{game_url}/phases/S1901M").text
    export = germany.get(f"{game_url}/phases/S1901M/export").text
    assert "bids" not in json.loads(export) and "A Hol H" not in export


def test_bids_of_a_player_replaced_stay_with_the_power(dp_game):
    """A replaced player loses access to the power's bids along with its orders."""
    judge, gm, france, _germany = dp_game
    gid = judge.game["id"]
    put_bids(judge, france, ["1 DP: A Bel H"])
    judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    r = judge.client.get(f"/api/games/{gid}/bids", headers=france.headers)
    assert r.status_code == 404
    assert put_bids(judge, france, ["1 DP: A Hol H"]).status_code == 404
    gm_view = judge.client.get(f"/api/games/{gid}/bids", headers=gm.headers).json()
    assert gm_view["FRANCE"]["bids"] == ["1 DP: A Bel H"]
