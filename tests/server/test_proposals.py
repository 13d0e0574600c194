"""Draw and pause proposals (issue 29, item 8): unanimous among the surviving powers, votes
secret until decided, only where the victory rule allows draws, recorded in the history; in a
game that hides information a vote tells nothing beyond the rules. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from conftest import Judge, Player

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def _table(judge: Judge, **options: Any) -> tuple[Player, dict[str, Player]]:
    gm = judge.user("gm")
    judge.new_game(gm, **options)
    return gm, {p: judge.join(p) for p in POWERS}


def _proposals(judge: Judge, who: Player) -> Any:
    r = judge.client.get(f"/api/games/{judge.game['id']}/proposals", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()


def _propose(judge: Judge, who: Player, kind: str, phase: str = "S1901M") -> Any:
    return judge.client.post(f"/api/games/{judge.game['id']}/proposals",
                             json={"kind": kind, "phase": phase}, headers=who.headers)


def _vote(judge: Judge, who: Player, proposal: int, agree: bool) -> Any:
    return judge.client.post(f"/api/games/{judge.game['id']}/proposals/{proposal}/vote",
                             json={"agree": agree}, headers=who.headers)


def _log(judge: Judge) -> list[tuple[str, str]]:
    from sqlalchemy import select

    from calhamer.server.models import Event

    with judge.database.session() as session:
        return [(e.kind, e.detail) for e in session.scalars(
            select(Event).where(Event.game_id == judge.game["id"]).order_by(Event.id))]


def _status(judge: Judge, gm: Player) -> dict[str, Any]:
    r = judge.client.get(f"/api/games/{judge.game['id']}", headers=gm.headers)
    return dict(r.json()["game"])


def test_a_unanimous_draw_ends_the_game_and_is_recorded(judge):
    gm, players = _table(judge)
    r = _propose(judge, players["FRANCE"], "draw")
    assert r.status_code == 201, r.text
    proposal = r.json()["proposals"][0]
    assert proposal["status"] == "open" and proposal["my_vote"] is True
    pid = proposal["id"]
    for power in POWERS[:-1]:
        if power != "FRANCE":
            assert _vote(judge, players[power], pid, True).status_code == 200
    # Six of seven agreed: still open, the game goes on.
    assert _proposals(judge, gm)["proposals"][0]["status"] == "open"
    assert _status(judge, gm)["status"] == "active"
    r = _vote(judge, players["TURKEY"], pid, True)
    assert r.status_code == 200, r.text
    decided = r.json()["proposals"][0]
    assert decided["status"] == "accepted"
    assert {v["power"]: v["agree"] for v in decided["votes"]} == dict.fromkeys(POWERS, True)
    game = _status(judge, gm)
    assert game["status"] == "finished"
    assert "draw" in game["end_reason"]
    # Recorded in the game's log, and a finished game takes no more votes or orders.
    assert any(kind == "proposal-accepted" and "draw" in detail and "Turkey" in detail
               for kind, detail in _log(judge))
    assert _propose(judge, players["FRANCE"], "pause").status_code == 409
    r = judge.orders(players["FRANCE"], ["A PAR H"])
    assert r.status_code == 409


def test_one_refusal_rejects_and_reveals_the_votes_only_then(judge):
    gm, players = _table(judge)
    pid = _propose(judge, players["ENGLAND"], "draw").json()["proposals"][0]["id"]
    assert _vote(judge, players["ITALY"], pid, True).status_code == 200
    # While open: nobody, the gamemaster included, reads who proposed it or how anyone
    # voted; each reads their own vote only.
    for who in (gm, players["RUSSIA"], players["ITALY"]):
        seen = _proposals(judge, who)["proposals"][0]
        assert seen["votes"] == [] and seen["proposer"] is None, seen
    assert _proposals(judge, players["ITALY"])["proposals"][0]["my_vote"] is True
    assert _proposals(judge, players["RUSSIA"])["proposals"][0]["my_vote"] is None
    assert _proposals(judge, gm)["proposals"][0]["my_vote"] is None
    r = _vote(judge, players["RUSSIA"], pid, False)
    decided = r.json()["proposals"][0]
    assert decided["status"] == "rejected"
    votes = {v["power"]: v["agree"] for v in decided["votes"]}
    assert votes["RUSSIA"] is False and votes["ENGLAND"] is True and votes["ITALY"] is True
    assert votes["TURKEY"] is None
    assert decided["proposer"] == "ENGLAND"
    assert _status(judge, gm)["status"] == "active"
    # Decided: no more votes on it; a new one may be proposed.
    assert _vote(judge, players["TURKEY"], pid, True).status_code == 409
    assert _propose(judge, players["TURKEY"], "draw").status_code == 201


def test_an_accepted_pause_pauses_the_game_and_the_gm_resumes_it(judge):
    gm, players = _table(judge)
    pid = _propose(judge, players["AUSTRIA"], "pause").json()["proposals"][0]["id"]
    assert _propose(judge, players["TURKEY"], "pause").status_code == 409  # already open
    for power in POWERS[1:]:
        assert _vote(judge, players[power], pid, True).status_code == 200
    game = _status(judge, gm)
    assert game["status"] == "paused"
    assert _propose(judge, players["FRANCE"], "pause").status_code == 409
    r = judge.client.post(f"/api/games/{judge.game['id']}/control", json={"action": "resume"},
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    assert _status(judge, gm)["status"] == "active"


def test_only_survivors_vote_and_strangers_see_nothing(judge):
    gm, players = _table(judge)
    stranger = judge.user("stranger")
    assert _propose(judge, stranger, "draw").status_code == 404
    assert judge.client.get(f"/api/games/{judge.game['id']}/proposals",
                            headers=stranger.headers).status_code == 404
    # The gamemaster who plays no power has no vote.
    assert _propose(judge, gm, "draw").status_code == 404
    pid = _propose(judge, players["FRANCE"], "draw").json()["proposals"][0]["id"]
    assert _vote(judge, gm, pid, True).status_code == 404
    assert _vote(judge, stranger, pid, True).status_code == 404
    # Bad input gets a clear answer.
    r = _propose(judge, players["FRANCE"], "surrender")
    assert r.status_code == 422 and "kind" in r.json()["detail"]
    r = judge.client.post(f"/api/games/{judge.game['id']}/proposals/{pid}/vote",
                          json={"agree": "perhaps"}, headers=players["FRANCE"].headers)
    assert r.status_code == 422 and "agree" in r.json()["detail"]
    r = judge.client.post(f"/api/games/{judge.game['id']}/proposals/99999/vote",
                          json={"agree": True}, headers=players["FRANCE"].headers)
    assert r.status_code == 404


def test_a_proposal_lapses_when_its_phase_ends(judge):
    gm, players = _table(judge)
    pid = _propose(judge, players["FRANCE"], "draw").json()["proposals"][0]["id"]
    assert judge.process_now(gm) == [f"{judge.game['id']} S1901M"]
    seen = _proposals(judge, players["GERMANY"])["proposals"][0]
    assert seen["status"] == "lapsed"
    assert any(kind == "proposal-lapsed" for kind, _ in _log(judge))
    assert _vote(judge, players["GERMANY"], pid, True).status_code == 409
    # A proposal names the phase being played.
    assert _propose(judge, players["FRANCE"], "draw", "S1901M").status_code == 409
    assert _propose(judge, players["FRANCE"], "draw", "F1901M").status_code == 201


def test_no_draw_where_the_victory_rule_allows_none(judge):
    # The standard game with the rules vocabulary's draw_vote switched off.
    no_draws = "standard+standard?draw_vote=false"
    gm = judge.user("gm")
    game = judge.new_game(gm, variant=no_draws)
    power = game["seats"][0]["power"]
    player = judge.join(power)
    phase = _status(judge, gm)["phase"]
    r = _propose(judge, player, "draw", phase)
    assert r.status_code == 409 and "no draws" in r.json()["detail"], r.text
    state = _proposals(judge, player)
    assert state["can_propose"] == ["pause"]


def test_in_fog_the_voters_are_the_powers_everyone_knows(judge):
    """Kriegsplomacy: the voters are every power the phase waits for (all those alive at the
    start of the year), so a proposal or a vote cannot tell who was dislodged or is out; the
    answers of a power that is still in the game do not depend on the hidden board."""
    gm, players = _table(judge, variant="standard+fog")
    pid = _propose(judge, players["FRANCE"], "draw").json()["proposals"][0]["id"]
    seen = _proposals(judge, players["ENGLAND"])
    assert sorted(seen["voters"]) == sorted(POWERS)
    assert seen["proposals"][0]["votes"] == [] and seen["proposals"][0]["proposer"] is None
    # Into Fall's retreats: every power is waited for, dislodged or not, and every one votes.
    players_orders = {"GERMANY": ["A MUN - BUR"], "FRANCE": ["A PAR H", "A MAR H"]}
    for power, lines in players_orders.items():
        assert judge.orders(players[power], lines).status_code == 200
    judge.process_now(gm)  # to Spring's retreats, which a fog game always has
    judge.process_now(gm)
    assert _status(judge, gm)["phase"] == "F1901M"
    judge.orders(players["FRANCE"], ["A MAR - BUR", "A PAR S A MAR - BUR"], phase="F1901M")
    judge.orders(players["GERMANY"], ["A BUR H"], phase="F1901M")
    judge.process_now(gm)
    assert _status(judge, gm)["phase"] == "F1901R"
    assert _vote(judge, players["ENGLAND"], pid, True).status_code == 409  # lapsed
    r = _propose(judge, players["ITALY"], "draw", "F1901R")
    assert r.status_code == 201, r.text
    assert sorted(r.json()["voters"]) == sorted(POWERS)
    pid = r.json()["proposals"][0]["id"]
    # The dislodged power and one that was not answer alike.
    answers = [_vote(judge, players[p], pid, True) for p in ("GERMANY", "TURKEY")]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json()["voters"] == answers[1].json()["voters"]
    assert answers[0].json()["proposals"][0]["votes"] == []
