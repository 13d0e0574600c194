"""The gamemaster's phase controls name their phase: a "process" (or "extend") meant for a
phase that has just been adjudicated is refused, never applied to the next one."""

from __future__ import annotations

import re

from sqlalchemy import select
from test_pages import Browser, gm_creates_a_game, join

from calhamer.server.models import GameRow, OrderSet, PhaseRow


def control(judge, gm, **body):  # type: ignore[no-untyped-def]
    return judge.client.post(f"/api/games/{judge.game['id']}/control", json=body,
                             headers=gm.headers)


def current(judge, gm) -> str:  # type: ignore[no-untyped-def]
    view = judge.client.get(f"/api/games/{judge.game['id']}", headers=gm.headers).json()
    return str(view["game"]["phase"])


def test_a_late_process_request_does_not_adjudicate_the_next_phase(standard_game):
    judge, gm, france, germany = standard_game
    assert judge.orders(france, ["A Par - Bur"]).status_code == 200
    assert control(judge, gm, action="process", phase="S1901M").status_code == 200
    assert judge.process() == [f"{judge.game['id']} S1901M"]
    # A second "process S1901M" (a double click, or one sent as everyone got ready) arrives
    # after S1901M was adjudicated: F1901M, which nobody has ordered yet, is left alone.
    r = control(judge, gm, action="process", phase="S1901M")
    assert r.status_code == 409, r.text
    assert r.json()["detail"] == (
        "S1901M has been adjudicated: the phase being played is F1901M, so nothing was done; "
        "process F1901M if that is what you mean")
    assert judge.process() == []
    assert current(judge, gm) == "F1901M"
    with judge.database.session() as session:
        game = session.get(GameRow, judge.game["id"])
        assert game is not None and not game.process_requested
    # the phase being played is processed when named
    assert judge.orders(germany, ["A Mun - Ruh"], phase="F1901M").status_code == 200
    assert control(judge, gm, action="process", phase="f1901m").status_code == 200
    assert judge.process() == [f"{judge.game['id']} F1901M"]


def test_a_phase_control_must_say_which_phase(standard_game):
    judge, gm, _france, _germany = standard_game
    for action, extra in (("process", {}), ("extend", {"minutes": 30})):
        r = control(judge, gm, action=action, **extra)
        assert r.status_code == 400, r.text
        assert r.json()["detail"] == (f'say which phase to {action}: send "phase" with the '
                                      "phase being played (S1901M)")
        r = control(judge, gm, action=action, phase="Spring", **extra)
        assert r.status_code == 400 and "Spring" in r.json()["detail"], r.text
        r = control(judge, gm, action=action, phase="S1903M", **extra)
        assert r.status_code == 409, r.text
        assert r.json()["detail"].startswith("S1903M is not the phase being played: the phase "
                                             "being played is S1901M, so nothing was done")
    assert judge.process() == []  # nothing was asked for
    # the controls that act on the whole game take no phase
    assert control(judge, gm, action="pause").json()["status"] == "paused"
    assert control(judge, gm, action="resume").json()["status"] == "active"


def test_a_late_extend_does_not_move_the_next_deadline(standard_game):
    judge, gm, _france, _germany = standard_game
    judge.process_now(gm)
    before = judge.client.get(f"/api/games/{judge.game['id']}", headers=gm.headers).json()
    r = control(judge, gm, action="extend", minutes=600, phase="S1901M")
    assert r.status_code == 409 and "S1901M has been adjudicated" in r.json()["detail"]
    after = judge.client.get(f"/api/games/{judge.game['id']}", headers=gm.headers).json()
    assert after["game"]["deadline"] == before["game"]["deadline"]
    r = control(judge, gm, action="extend", minutes=600, phase="F1901M")
    assert r.status_code == 200 and r.json()["deadline"] > before["game"]["deadline"]


def test_the_game_page_sends_the_phase_with_the_controls(app, judge):
    gm, game_url, links = gm_creates_a_game(app)
    _france, _ = join(app, links["FRANCE"], "Bob")
    page = gm.get(game_url)
    form = re.search(r'<form [^>]*id="controls">(.*?)</form>', page.text, re.S)
    assert form and '<input type="hidden" name="phase" value="S1901M">' in form[1]
    stale = Browser(app)  # the same gamemaster in a second tab, still showing S1901M
    stale.client.cookies = gm.client.cookies
    stale.csrf = gm.csrf
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert judge.process()
    page = stale.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"},
                      status=409)
    assert "S1901M has been adjudicated: the phase being played is F1901M" in page.text
    assert f'href="{game_url}"' in page.text  # back to the game, not the start page
    assert judge.process() == []
    page = gm.get(game_url)
    assert '<input type="hidden" name="phase" value="F1901M">' in page.text
    with judge.database.session() as session:
        phases = list(session.scalars(select(PhaseRow.code).order_by(PhaseRow.index)))
        assert phases == ["S1901M", "F1901M"]
        assert list(session.scalars(select(OrderSet))) == []
