"""A Kriegsplomacy player's results are read from the view the worker stored when it
adjudicated the phase, never adjudicated on request: the time an answer takes cannot depend on
the board the player may not see. The answers are those the library's ``game_view`` gives."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

import calhamer.game
import calhamer.phases
import calhamer.server.services.results
from calhamer.formats import view_to_json
from calhamer.game import game_view
from calhamer.render import render_svg
from calhamer.report import phase_report
from calhamer.server.models import GameRow, PowerViewRow
from calhamer.server.services.games import find_phase
from calhamer.server.services.results import library_game
from conftest import Judge

BUILDS = {
    "FRANCE": ["Build A Par", "Build A Mar", "Build F Bre"],
    "GERMANY": ["Build A Mun", "Build A Ber", "Build F Kie"],
}
SPRING = {
    "FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
    "GERMANY": ["A Mun - Bur", "A Ber - Kie", "F Kie - Hol"],
}


def _no_adjudication(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("a player's results were adjudicated on request")


def test_a_kriegsplomacy_players_results_are_read_not_adjudicated(judge: Judge,
                                                                   monkeypatch: pytest.MonkeyPatch):
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="kriegsplomacy")
    gid = game["id"]
    players = {p: judge.join(p) for p in BUILDS}
    for phase, orders in (("W1900A", BUILDS), ("S1901M", SPRING)):
        for power, lines in orders.items():
            assert judge.orders(players[power], lines, phase=phase).status_code == 200
        assert judge.process_now(gm) == [f"{gid} {phase}"]
    france = players["FRANCE"]

    # What the library says France's view of each phase is (adjudicated again here).
    expected: dict[str, Any] = {}
    with judge.database.session() as session:
        row = session.get(GameRow, gid)
        assert row is not None
        for code in ("W1900A", "S1901M"):
            phase = find_phase(session, row, code)
            view = game_view(library_game(session, row, phase), "FRANCE", code)
            expected[code] = (phase_report(view),
                              {p: [r.to_json() for r in e] for p, e in view.results.items()},
                              view_to_json(view, row.rules), render_svg(view=view))

    urls = [f"/api/games/{gid}", f"/api/games/{gid}/phases/S1901M",
            f"/api/games/{gid}/phases/W1900A", f"/api/games/{gid}/phases/S1901M/document",
            f"/api/games/{gid}/phases/S1901M/picture", f"/api/games/{gid}/phases/W1900A/picture"]
    before = {url: judge.client.get(url, headers=france.headers) for url in urls}
    assert all(r.status_code == 200 for r in before.values())
    for code in ("W1900A", "S1901M"):
        report, results, view, picture = expected[code]
        body = before[f"/api/games/{gid}/phases/{code}"].json()
        assert body["report"] == report and body["results"] == results
        assert body["orders"] == {"FRANCE": BUILDS["FRANCE"] if code == "W1900A"
                                  else SPRING["FRANCE"]}
        assert before[f"/api/games/{gid}/phases/{code}/picture"].text == picture
    document = before[f"/api/games/{gid}/phases/S1901M/document"].json()
    assert document["views"] == {"FRANCE": expected["S1901M"][2]}

    # Reading adjudicates nothing: every way to adjudicate or rebuild a phase now fails.
    monkeypatch.setattr(calhamer.phases, "adjudicate", _no_adjudication)
    monkeypatch.setattr(calhamer.game, "adjudicate", _no_adjudication)
    monkeypatch.setattr(calhamer.game.Game, "process", _no_adjudication)
    monkeypatch.setattr(calhamer.server.services.results, "library_game", _no_adjudication)
    monkeypatch.setattr(calhamer.server.services.results, "game_view", _no_adjudication)
    for url, answer in before.items():
        again = judge.client.get(url, headers=france.headers)
        assert again.status_code == 200, again.text
        assert again.content == answer.content, url

    # The gamemaster still gets the whole truth, rebuilt from the stored outcome.
    monkeypatch.undo()
    gm_result = judge.client.get(f"/api/games/{gid}/phases/S1901M", headers=gm.headers).json()
    assert "As the players are told it" in gm_result["report"]


def test_pictures_drawn_after_the_commit_are_each_players_own(judge: Judge,
                                                               monkeypatch: pytest.MonkeyPatch):
    """The worker stores the players' views when it adjudicates a phase and draws their
    pictures after committing it. A picture asked for before they are stored (or after a
    worker stopped in between) is drawn from the phase's record: that player's own picture,
    byte for byte the one stored afterwards, never another player's."""
    import calhamer.server.worker

    gm = judge.user("gm")
    game = judge.new_game(gm, variant="kriegsplomacy")
    gid = game["id"]
    players = {p: judge.join(p) for p in ("FRANCE", "GERMANY", "ITALY")}
    for power, lines in BUILDS.items():
        assert judge.orders(players[power], lines, phase="W1900A").status_code == 200
    assert judge.process_now(gm) == [f"{gid} W1900A"]
    for power, lines in SPRING.items():
        assert judge.orders(players[power], lines).status_code == 200

    # This worker stops after committing the phase, before storing its pictures.
    left: dict[str, Any] = {}

    def stopped(_session: Any, game_id: str, code: str, views: dict[str, Any]) -> None:
        left.update(game_id=game_id, code=code, views=views)

    monkeypatch.setattr(calhamer.server.worker.results, "store_pictures", stopped)
    assert judge.process_now(gm) == [f"{gid} S1901M"]
    monkeypatch.undo()
    assert left["code"] == "S1901M"
    assert set(left["views"]) == {seat["power"] for seat in game["seats"]}
    with judge.database.session() as session:
        row = session.get(GameRow, gid)
        assert row is not None
        phase = find_phase(session, row, "S1901M")
        views = dict(session.execute(
            select(PowerViewRow.power, PowerViewRow.view)
            .where(PowerViewRow.game_id == gid, PowerViewRow.phase == "S1901M")).all())
        assert len(views) == 7 and not any("picture" in v for v in views.values())
        truth = {p: render_svg(view=game_view(library_game(session, row, phase), p, "S1901M"))
                 for p in players}

    def pictures() -> dict[str, tuple[bytes, bytes]]:
        """Each player's picture, asked for twice."""
        url = f"/api/games/{gid}/phases/S1901M/picture"
        return {p: (judge.client.get(url, headers=player.headers).content,
                    judge.client.get(url, headers=player.headers).content)
                for p, player in players.items()}

    drawn = pictures()
    for power, (first, again) in drawn.items():
        assert first == again == truth[power].encode(), power
    assert len({first for first, _ in drawn.values()}) == len(players)  # each their own
    # France's army in Paris is in France's picture, not in Italy's (fog of war)
    assert b'id="unit-PAR"' in drawn["FRANCE"][0]
    assert b'id="unit-PAR"' not in drawn["ITALY"][0]

    # The pictures stored afterwards are the ones drawn meanwhile.
    with judge.database.transaction() as session:
        calhamer.server.services.results.store_pictures(session, gid, "S1901M", left["views"])
    with judge.database.session() as session:
        views = dict(session.execute(
            select(PowerViewRow.power, PowerViewRow.view)
            .where(PowerViewRow.game_id == gid, PowerViewRow.phase == "S1901M")).all())
    for power in players:
        assert views[power]["picture"] == truth[power]
    monkeypatch.setattr(calhamer.server.services.results, "library_game", _no_adjudication)
    assert pictures() == drawn


def test_a_gamemaster_who_played_is_told_no_view_and_nothing_is_adjudicated_for_them(
        judge: Judge, monkeypatch: pytest.MonkeyPatch):
    """The gamemaster took Italy's seat and freed it: until the game is over they are told no
    power's view, and reading adjudicates nothing for them either (no answer's time depends
    on the board)."""
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="kriegsplomacy")
    gid = game["id"]
    r = judge.client.post("/api/join", json={"invite": judge.invite("ITALY")},
                          headers=gm.headers)
    assert r.status_code == 200
    assert judge.client.post(f"/api/games/{gid}/seats/ITALY/replace",
                             headers=gm.headers).status_code == 200
    players = {p: judge.join(p) for p in BUILDS}
    for phase, orders in (("W1900A", BUILDS), ("S1901M", SPRING)):
        for power, lines in orders.items():
            assert judge.orders(players[power], lines, phase=phase).status_code == 200
        assert judge.process_now(gm) == [f"{gid} {phase}"]
    monkeypatch.setattr(calhamer.phases, "adjudicate", _no_adjudication)
    monkeypatch.setattr(calhamer.game, "adjudicate", _no_adjudication)
    monkeypatch.setattr(calhamer.game.Game, "process", _no_adjudication)
    monkeypatch.setattr(calhamer.server.services.results, "library_game", _no_adjudication)
    monkeypatch.setattr(calhamer.server.services.results, "game_view", _no_adjudication)
    for url in (f"/api/games/{gid}", f"/api/games/{gid}/phases/S1901M",
                f"/api/games/{gid}/phases/S1901M/document",
                f"/api/games/{gid}/phases/S1901M/picture", f"/api/games/{gid}/picture"):
        r = judge.client.get(url, headers=gm.headers)
        assert r.status_code == 200, (url, r.text)
        assert b'id="unit-' not in r.content and b"A PAR" not in r.content, url
    result = judge.client.get(f"/api/games/{gid}/phases/S1901M", headers=gm.headers).json()
    assert result["orders"] == {} and result["results"] == {} and result["next"] == "S1901R"
