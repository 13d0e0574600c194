"""The live pages' probe: one row per game that changes whenever what a page shows may have
changed (a message, orders saved, a ready mark given and taken back at the same instant, a
phase adjudicated), in a database with several games and phases."""

from __future__ import annotations

from calhamer.server.routes.live import probe
from conftest import Judge


def test_the_probe_follows_every_change(judge: Judge) -> None:
    gm = judge.user("gm")
    other = judge.new_game(gm)["id"]
    judge.process_now(gm, other)  # another game, with two phases: the probe reads its own
    judge.new_game(gm)
    gid = judge.game["id"]
    france, germany = judge.join("FRANCE"), judge.join("GERMANY")
    seen = [probe(judge.database, gid)]

    def changed() -> None:
        now = probe(judge.database, gid)
        assert now not in seen
        seen.append(now)

    r = judge.client.post(f"/api/games/{gid}/messages", headers=france.headers,
                          json={"body": "hello", "to": []})
    assert r.status_code == 201
    changed()
    assert judge.orders(france, ["A Par H"]).status_code == 200
    changed()
    assert judge.orders(germany, ["A Mun H"], ready=True).status_code == 200
    changed()
    # The clock stands still: the same instant, the mark taken back, then given again.
    r = judge.client.post(f"/api/games/{gid}/ready", headers=germany.headers,
                          json={"phase": "S1901M", "ready": False})
    assert r.status_code == 200
    changed()
    assert probe(judge.database, gid) == seen[-1]  # nothing changed, nothing differs
    judge.process_now(gm)
    changed()
    assert probe(judge.database, "nosuchgame00") is None
