"""The web judge checks winter orders as adjudication will judge them (issue 11)."""

from __future__ import annotations


def test_winter_checks_refuse_builds_beyond_the_allowance(judge):
    gm = judge.user("gm")
    judge.new_game(gm, deadlines={"movement": 0, "retreat": 0, "adjustment": 0})
    gid = judge.game["id"]
    germany = judge.join("GERMANY")
    # Germany takes Denmark, so it has one build in the winter of 1901.
    judge.orders(germany, ["F Kie - Den"])
    judge.process_now(gm)
    judge.orders(germany, ["F Den H"], phase="F1901M")
    judge.process_now(gm)
    view = judge.client.get(f"/api/games/{gid}", headers=germany.headers).json()
    assert view["game"]["phase"] == "W1901A"

    lines = ["Build A Kie", "Build A Kie", "Waive"]
    beyond = "GERMANY may build only 1 this winter"  # what adjudication says of both
    problems = [None, beyond, beyond]
    r = judge.client.post(f"/api/games/{gid}/orders/check", json={"orders": lines},
                          headers=germany.headers)
    assert r.status_code == 200, r.text
    assert [c["problem"] for c in r.json()] == problems
    assert [c["ok"] for c in r.json()] == [True, False, False]
    r = judge.orders(germany, lines, phase="W1901A")
    assert [c["problem"] for c in r.json()["checks"]] == problems
    # ...and adjudication says the same.
    judge.process_now(gm)
    result = judge.client.get(f"/api/games/{gid}/phases/W1901A", headers=germany.headers).json()
    assert beyond in result["report"]
