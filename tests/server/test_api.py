"""The JSON API: a whole game played by bots, deadlines, readiness, press, GM controls."""

from __future__ import annotations

from conftest import PASSWORD


def test_openapi_lists_the_bot_api(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/games", "/api/join", "/api/games/{game_id}/orders",
                 "/api/games/{game_id}/phases/{code}", "/api/games/{game_id}/messages"):
        assert path in paths
    assert not any(p.startswith("/games") for p in paths)  # pages are not in the API schema


def test_create_game_gives_the_gm_one_invitation_per_power(judge):
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="standard", rules="2023", press="public",
                          deadlines={"movement": 60, "retreat": 10, "adjustment": 0})
    assert game["phase"] == "S1901M" and game["rules"] == "2023" and game["press"] == "public"
    assert game["deadlines"] == {"movement": 60, "retreat": 10, "adjustment": 0}
    assert game["deadline"].endswith("+00:00")
    seats = {s["power"]: s for s in game["seats"]}
    assert len(seats) == 7
    assert all(s["invite_url"].endswith("/join/" + s["invite_token"]) for s in seats.values())
    assert len({s["invite_token"] for s in seats.values()}) == 7


def test_unknown_variant_or_edition_is_a_clear_400(judge):
    gm = judge.user("gm")
    r = judge.client.post("/api/games", json={"variant": "nope"}, headers=gm.headers)
    assert r.status_code == 400 and "there is no variant 'nope'" in r.json()["detail"]
    r = judge.client.post("/api/games", json={"rules": "1066"}, headers=gm.headers)
    assert r.status_code == 400 and "no rule edition" in r.json()["detail"]


def test_orders_are_checked_line_by_line(standard_game):
    judge, _gm, france, _germany = standard_game
    r = judge.orders(france, ["A Par - Bur", "", "# a comment", "A Mar - Tryolia",
                              "F Bre - Kie"])
    assert r.status_code == 200
    body = r.json()
    assert body["orders"] == ["A Par - Bur", "# a comment", "A Mar - Tryolia", "F Bre - Kie"]
    checks = body["checks"]
    assert [c["line"] for c in checks] == [1, 4, 5]
    assert checks[0] == {"line": 1, "text": "A Par - Bur", "canonical": "A PAR - BUR",
                         "ok": True, "problem": None}
    assert not checks[1]["ok"] and "did you mean Tyrolia (TYR)?" in checks[1]["problem"]
    assert not checks[2]["ok"] and checks[2]["problem"]


def test_check_without_saving(standard_game):
    judge, _gm, france, _germany = standard_game
    gid = judge.game["id"]
    r = judge.client.post(f"/api/games/{gid}/orders/check",
                          json={"orders": ["a par-bur", "A Ber - Kie"]}, headers=france.headers)
    assert r.status_code == 200
    first, second = r.json()
    assert first["canonical"] == "A PAR - BUR"
    assert not second["ok"]  # Berlin is not France's
    mine = judge.client.get(f"/api/games/{gid}/orders", headers=france.headers).json()
    assert mine == {}


def test_orders_can_be_revised_until_the_deadline(standard_game):
    judge, _gm, france, _germany = standard_game
    judge.orders(france, ["A Par - Pic"])
    judge.orders(france, ["A Par - Bur"])
    judge.clock.advance(hours=23)
    assert judge.process() == []  # not yet due
    judge.clock.advance(hours=2)
    done = judge.process()
    assert done == [f"{judge.game['id']} S1901M"]
    result = judge.client.get(f"/api/games/{judge.game['id']}/phases/S1901M",
                              headers=france.headers).json()
    assert result["orders"]["FRANCE"] == ["A Par - Bur"]
    assert "A PAR - BUR                 Succeeds" in result["report"]
    assert result["next"] == "F1901M"


def test_all_ready_adjudicates_without_waiting(judge):
    gm = judge.user("gm")
    judge.new_game(gm)
    players = [judge.join(p) for p in
               ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")]
    for p in players[:-1]:
        assert judge.orders(p, [], ready=True).status_code == 200
    assert judge.process() == []
    gid = judge.game["id"]
    r = judge.client.post(f"/api/games/{gid}/ready", json={"phase": "S1901M"},
                          headers=players[-1].headers)
    assert r.status_code == 200 and r.json()["ready"]
    assert judge.process() == [f"{gid} S1901M"]
    view = judge.client.get(f"/api/games/{gid}", headers=players[0].headers).json()
    assert view["game"]["phase"] == "F1901M" and view["last_phase"] == "S1901M"
    assert view["orders"] == {}  # ready marks do not carry over


def test_orders_for_a_finished_phase_are_refused(standard_game):
    judge, gm, france, _germany = standard_game
    judge.process_now(gm)
    r = judge.orders(france, ["A Par - Bur"], phase="S1901M")
    assert r.status_code == 409
    assert "current phase is F1901M" in r.json()["detail"]


def test_retreats_and_adjustments_wait_only_for_the_powers_concerned(judge):
    gm = judge.user("gm")
    judge.new_game(gm, deadlines={"movement": 0, "retreat": 0, "adjustment": 0})
    gid = judge.game["id"]
    assert judge.game["deadline"] is None
    france, germany = judge.join("FRANCE"), judge.join("GERMANY")
    judge.orders(france, ["A Par - Bur"])
    judge.orders(germany, ["A Mun - Ruh", "A Ber - Mun", "F Kie - Den"])
    judge.process_now(gm)
    judge.orders(germany, ["A Ruh - Bur", "A Mun S A Ruh - Bur", "F Den H"], phase="F1901M")
    judge.process_now(gm)

    view = judge.client.get(f"/api/games/{gid}", headers=france.headers).json()
    assert view["game"]["phase"] == "F1901R"
    assert view["position"]["dislodged"] == {"FRANCE": [{"unit": "A BUR",
                                                         "attacker_from": "RUH"}]}
    r = judge.orders(france, ["A Bur - Pic"], phase="F1901R", ready=True)
    assert r.json()["checks"][0]["canonical"] == "A BUR R PIC"
    assert judge.process() == [f"{gid} F1901R"]  # France alone had to retreat

    view = judge.client.get(f"/api/games/{gid}", headers=germany.headers).json()
    assert view["game"]["phase"] == "W1901A"
    r = judge.orders(germany, ["Build A Ber"], phase="W1901A", ready=True)
    assert r.json()["checks"][0]["ok"], r.text
    assert judge.process() == [f"{gid} W1901A"]  # Germany alone had a build
    phases = judge.client.get(f"/api/games/{gid}/phases", headers=gm.headers).json()
    assert [p["phase"] for p in phases] == ["S1901M", "F1901M", "F1901R", "W1901A", "S1902M"]
    result = judge.client.get(f"/api/games/{gid}/phases/W1901A", headers=france.headers).json()
    assert "BUILD A BER" in result["report"]


def test_press_follows_the_press_setting(standard_game):
    judge, gm, france, germany = standard_game
    gid = judge.game["id"]
    send = judge.client.post
    r = send(f"/api/games/{gid}/messages", json={"to": ["GERMANY"], "body": "Bur is mine"},
             headers=france.headers)
    assert r.status_code == 201 and r.json()["sender"] == "FRANCE"
    assert r.json()["to"] == ["GERMANY"]
    r = send(f"/api/games/{gid}/messages", json={"body": "Hello all"}, headers=germany.headers)
    assert r.status_code == 201 and r.json()["to"] == []
    r = send(f"/api/games/{gid}/messages", json={"to": ["italy"], "body": "psst"},
             headers=germany.headers)
    assert r.status_code == 201
    r = send(f"/api/games/{gid}/messages", json={"to": ["Narnia"], "body": "x"},
             headers=germany.headers)
    assert r.status_code == 400 and "not a power" in r.json()["detail"]

    def bodies(player):
        got = judge.client.get(f"/api/games/{gid}/messages", headers=player.headers)
        return [m["body"] for m in got.json()]

    assert bodies(france) == ["Bur is mine", "Hello all"]
    assert bodies(germany) == ["Bur is mine", "Hello all", "psst"]
    assert bodies(gm) == ["Bur is mine", "Hello all", "psst"]


def test_public_press_and_no_press(judge):
    gm = judge.user("gm")
    for press, private, public in (("public", 409, 201), ("none", 409, 409)):
        judge.new_game(gm, press=press)
        france = judge.join("FRANCE")
        gid = judge.game["id"]
        r = judge.client.post(f"/api/games/{gid}/messages",
                              json={"to": ["ENGLAND"], "body": "secret"}, headers=france.headers)
        assert r.status_code == private, r.text
        r = judge.client.post(f"/api/games/{gid}/messages", json={"body": "to all"},
                              headers=france.headers)
        assert r.status_code == public, r.text
        r = judge.client.post(f"/api/games/{gid}/messages", json={"body": "from the GM"},
                              headers=gm.headers)
        assert r.status_code == 201 and r.json()["sender"] == "GM"


def test_gm_pause_resume_extend_end(standard_game):
    judge, gm, france, _germany = standard_game
    gid = judge.game["id"]

    def control(action, **extra):
        return judge.client.post(f"/api/games/{gid}/control", json={"action": action, **extra},
                                 headers=gm.headers)

    assert control("pause").json()["status"] == "paused"
    assert control("pause").status_code == 409
    judge.clock.advance(days=3)
    assert judge.process() == []  # a paused game is never due
    assert judge.orders(france, ["A Par - Bur"]).status_code == 200  # orders still taken
    assert control("process").status_code == 409
    resumed = control("resume").json()
    assert resumed["status"] == "active" and resumed["deadline"]
    before = resumed["deadline"]
    extended = control("extend", minutes=90, phase="S1901M").json()
    assert extended["deadline"] > before
    assert control("extend").status_code == 400
    assert control("end").json()["status"] == "finished"
    assert judge.orders(france, ["A Par - Bur"]).status_code == 409
    assert control("process").status_code == 409


def test_gm_replaces_a_player(standard_game):
    judge, gm, france, _germany = standard_game
    gid = judge.game["id"]
    r = judge.client.post(f"/api/games/{gid}/seats/FRANCE/replace", headers=gm.headers)
    assert r.status_code == 200
    seat = r.json()
    assert seat["player"] is None and seat["invite_token"] != judge.invite("FRANCE")
    assert judge.client.get(f"/api/games/{gid}", headers=france.headers).status_code == 404
    old = judge.client.post("/api/join", json={"invite": judge.invite("FRANCE")})
    assert old.status_code == 404
    new = judge.client.post("/api/join", json={"invite": seat["invite_token"], "name": "Newbie"})
    assert new.status_code == 200 and new.json()["power"] == "FRANCE"


def test_a_taken_power_cannot_be_joined_twice(standard_game):
    judge, _gm, _france, _germany = standard_game
    r = judge.client.post("/api/join", json={"invite": judge.invite("FRANCE")})
    assert r.status_code == 409 and "already been taken" in r.json()["detail"]


def test_one_power_per_player_per_game(standard_game):
    judge, _gm, france, _germany = standard_game
    r = judge.client.post("/api/join", json={"invite": judge.invite("ITALY")},
                          headers=france.headers)
    assert r.status_code == 409 and "already play France" in r.json()["detail"]


def test_history_and_export(standard_game):
    judge, gm, france, germany = standard_game
    gid = judge.game["id"]
    judge.orders(france, ["A Par - Bur"])
    judge.orders(germany, ["A Mun - Bur"])
    judge.process_now(gm)
    phases = judge.client.get(f"/api/games/{gid}/phases", headers=france.headers).json()
    assert phases == [
        {"index": 0, "phase": "S1901M", "name": "Spring 1901 Movement", "adjudicated": True},
        {"index": 1, "phase": "F1901M", "name": "Fall 1901 Movement", "adjudicated": False},
    ]
    doc = judge.client.get(f"/api/games/{gid}/phases/S1901M/document",
                           headers=france.headers).json()
    assert doc["phase"] == "S1901M" and doc["rules"] == "datc"
    assert doc["orders"] == {"FRANCE": ["A Par - Bur"], "GERMANY": ["A Mun - Bur"]}
    # The exported document adjudicates to the same result with the library.
    from calhamer.formats import position_from_json
    from calhamer.phases import adjudicate

    position, orders, rules = position_from_json(doc)
    outcome = adjudicate(position, orders, rules)
    assert outcome.next.phase.code == "F1901M"
    assert judge.client.get(f"/api/games/{gid}/phases/F1901M",
                            headers=france.headers).status_code == 404  # not adjudicated yet


def test_bot_lists_its_games_and_logs_in(judge):
    gm = judge.user("gm")
    judge.new_game(gm)
    france = judge.join("FRANCE")
    assert [g["role"] for g in judge.client.get("/api/games", headers=gm.headers).json()] == [
        "gm"]
    listed = judge.client.get("/api/games", headers=france.headers).json()
    assert [(g["role"], g["power"]) for g in listed] == [("player", "FRANCE")]
    r = judge.client.post("/api/sessions", json={"username": "gm", "password": "wrong one"})
    assert r.status_code == 400 and r.json()["detail"] == "wrong user name or password"
    r = judge.client.post("/api/sessions", json={"username": "GM", "password": PASSWORD})
    assert r.status_code == 200
    me = judge.client.get("/api/me", headers={"Authorization": "Bearer " + r.json()["token"]})
    assert me.json()["username"] == "gm"


def test_log_out_everywhere_ends_every_token(judge):
    gm = judge.user("gm")
    assert judge.client.delete("/api/sessions", headers=gm.headers).status_code == 204
    r = judge.client.get("/api/me", headers=gm.headers)
    assert r.status_code == 401 and "log in again" in r.json()["detail"]


def test_signup_twice_is_a_conflict(judge):
    judge.user("gm")
    r = judge.client.post("/api/users", json={"username": "GM", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
