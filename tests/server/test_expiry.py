"""Finding 3 of issue 27: games nobody plays expire; games people play never do.

A game that is not over is deleted once nothing has happened in it (no one joined, saved
orders, bids or a ready mark, or wrote press) for ``unplayed_game_hours``, if nothing was
ever written in it, or if nobody but its gamemaster ever took part. The clock is the
settings' (moved by hand).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from calhamer.server.models import Event, GameRow, PhaseRow, Seat, User
from calhamer.server.services.expiry import expire_unplayed, unplayed_games
from calhamer.server.worker import sweep_unplayed
from conftest import Judge, Player

UNTIMED = {"movement": 0, "retreat": 0, "adjustment": 0}


def _game(judge: Judge, gm: Player, **options: Any) -> str:
    return str(judge.new_game(gm, deadlines=UNTIMED, **options)["id"])


def _gm_takes(judge: Judge, gm: Player, power: str) -> None:
    r = judge.client.post("/api/join", json={"invite": judge.invite(power)},
                          headers=gm.headers)
    assert r.status_code == 200, r.text


def _left(judge: Judge) -> set[str]:
    with judge.database.session() as session:
        return set(session.scalars(select(GameRow.id)))


def test_finding3_an_unstarted_game_expires_and_a_started_one_does_not(judge: Judge) -> None:
    hours = judge.settings.unplayed_game_hours
    gm = judge.user("gm")
    games: dict[str, str] = {}

    games["nobody came"] = _game(judge, gm)
    games["gm announced, nobody came"] = _game(judge, gm)
    r = judge.client.post(f"/api/games/{games['gm announced, nobody came']}/messages",
                          json={"body": "welcome"}, headers=gm.headers)
    assert r.status_code == 201, r.text
    games["gm alone with orders"] = _game(judge, gm)
    _gm_takes(judge, gm, "ITALY")
    assert judge.orders(gm, ["A Rom H"], phase="S1901M").status_code == 200
    games["joined, nobody wrote"] = _game(judge, gm)
    joined_idle = [judge.join("FRANCE"), judge.join("GERMANY")]
    games["timed, nobody came"] = judge.new_game(gm)["id"]  # deadlines pass: phases go on

    games["played"] = _game(judge, gm)
    played = judge.join("FRANCE")
    assert judge.orders(played, ["A Par - Bur"]).status_code == 200
    games["a ready mark only"] = _game(judge, gm)
    r = judge.client.post(f"/api/games/{games['a ready mark only']}/ready",
                          json={"phase": "S1901M"}, headers=judge.join("ENGLAND").headers)
    assert r.status_code == 200, r.text
    games["press only"] = _game(judge, gm)
    r = judge.client.post(f"/api/games/{games['press only']}/messages",
                          json={"body": "shall we?"}, headers=judge.join("RUSSIA").headers)
    assert r.status_code == 201, r.text
    games["played, then replaced"] = _game(judge, gm)
    replaced = judge.join("TURKEY")
    assert judge.orders(replaced, ["A Con - Bul"]).status_code == 200
    r = judge.client.post(f"/api/games/{games['played, then replaced']}/seats/TURKEY/replace",
                          headers=gm.headers)
    assert r.status_code == 200, r.text
    games["over, never played"] = _game(judge, gm)
    r = judge.client.post(f"/api/games/{games['over, never played']}/control",
                          json={"action": "end"}, headers=gm.headers)
    assert r.status_code == 200, r.text
    games["joined late"] = _game(judge, gm)

    judge.clock.advance(hours=hours - 1)
    assert sweep_unplayed(judge.database, judge.settings) == []  # not yet
    judge.process()  # the timed game's deadlines passed: it went on with nobody's orders
    judge.game = {"id": games["joined late"], "seats": judge.client.get(
        f"/api/games/{games['joined late']}/admin", headers=gm.headers).json()["seats"]}
    late = judge.join("AUSTRIA")  # joins just before the game would expire
    judge.clock.advance(hours=2)

    expired = {"nobody came", "gm announced, nobody came", "gm alone with orders",
               "joined, nobody wrote", "timed, nobody came"}
    deleted = set(sweep_unplayed(judge.database, judge.settings))
    assert deleted == {games[name] for name in expired}
    assert _left(judge) == {games[name] for name in games if name not in expired}
    with judge.database.session() as session:
        for model in (Seat, PhaseRow, Event):
            column = model.game_id  # type: ignore[attr-defined]
            assert session.scalar(select(func.count()).select_from(model)
                                  .where(column.in_(deleted))) == 0
        # The guests whose only game that was are gone; players of kept games stay.
        users = set(session.scalars(select(User.id)))
    # (Turkey's replaced guest too: they hold no seat and run no game any more.)
    assert {p.user_id for p in [*joined_idle, replaced]}.isdisjoint(users)
    assert {gm.user_id, played.user_id, late.user_id} <= users
    assert judge.client.get("/api/me", headers=gm.headers).status_code == 200

    # The late joiner's game expires once it too has been left alone long enough.
    judge.clock.advance(hours=hours)
    assert sweep_unplayed(judge.database, judge.settings) == [games["joined late"]]
    assert sweep_unplayed(judge.database, judge.settings) == []


def test_finding3_the_played_game_keeps_everything(judge: Judge) -> None:
    gm = judge.user("gm")
    gid = _game(judge, gm)
    france = judge.join("FRANCE")
    judge.orders(france, ["A Par - Bur"], ready=True)
    judge.process_now(gm)
    judge.clock.advance(hours=judge.settings.unplayed_game_hours * 3)
    assert sweep_unplayed(judge.database, judge.settings) == []
    r = judge.client.get(f"/api/games/{gid}/phases/S1901M", headers=france.headers)
    assert r.status_code == 200 and r.json()["orders"]["FRANCE"] == ["A Par - Bur"]


def test_finding3_expiry_is_decided_again_under_the_games_lock(judge: Judge) -> None:
    """A player who joins between the sweep's look and its delete keeps the game: the delete
    decides again under the row's lock, which joining takes too."""
    gm = judge.user("gm")
    gid = _game(judge, gm)
    judge.clock.advance(hours=judge.settings.unplayed_game_hours + 1)
    now, hours = judge.clock(), judge.settings.unplayed_game_hours
    with judge.database.session() as session:
        assert list(session.scalars(unplayed_games(now, hours))) == [gid]
    judge.join("FRANCE")  # joined meanwhile
    with judge.database.transaction() as session:
        assert not expire_unplayed(session, gid, now=now, hours=hours)
    assert _left(judge) == {gid}


def test_finding3_no_expiry_when_it_is_switched_off(judge: Judge) -> None:
    gm = judge.user("gm")
    gid = _game(judge, gm)
    judge.settings.unplayed_game_hours = 0
    judge.clock.advance(days=365)
    assert sweep_unplayed(judge.database, judge.settings) == []
    assert _left(judge) == {gid}


def test_finding3_worker_once_deletes_the_unplayed_games(judge: Judge, database_url: str,
                                                         monkeypatch: Any) -> None:
    """``calhamer worker --once`` (cron) sweeps too, on the real clock: the game is made a
    year old by hand."""
    from datetime import timedelta

    from calhamer.cli import main

    gm = judge.user("gm")
    gid = _game(judge, gm)
    with judge.database.transaction() as session:
        game = session.get(GameRow, gid)
        assert game is not None
        game.created_at -= timedelta(days=365)
    monkeypatch.setenv("CALHAMER_SECRET_KEY", "test-secret-key-not-for-production")
    assert main(["worker", "--once", "--database", database_url]) == 0
    assert gid not in _left(judge)
