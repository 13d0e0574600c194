"""Names that say one thing: the worker's ``process_due_phase``, the ``api_game_now`` route and
its ``GameNowOut`` answer; and the worker's pause reported through ``logging``, never printed."""

from __future__ import annotations

import logging
from dataclasses import replace

from calhamer.server.services import adjudication
from calhamer.server.worker import process_due


def test_a_due_phase_is_processed_by_process_due_phase(standard_game, monkeypatch):
    judge, gm, france, _germany = standard_game
    judge.orders(france, ["A Par - Bur"])
    calls: list[str] = []
    real = adjudication.process_due_phase

    def counted(session, game, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(game.id)
        return real(session, game, **kwargs)

    monkeypatch.setattr(adjudication, "process_due_phase", counted)
    assert judge.process_now(gm) == [f"{judge.game['id']} S1901M"]
    assert calls == [judge.game["id"]]
    assert not hasattr(adjudication, "adjudicate_phase")


def test_the_worker_pause_is_logged_not_printed(standard_game, caplog, capsys):
    judge, gm, _france, _germany = standard_game
    r = judge.client.post(f"/api/games/{judge.game['id']}/control",
                          json={"action": "process", "phase": "S1901M"}, headers=gm.headers)
    assert r.status_code == 200
    settings = replace(judge.settings, worker_pause_in_transaction=0.01)
    with caplog.at_level(logging.INFO, logger=adjudication.__name__):
        assert process_due(judge.database, settings, "test-worker") == [
            f"{judge.game['id']} S1901M"]
    said = [r.getMessage() for r in caplog.records if r.name == adjudication.__name__]
    assert said == [f"calhamer worker test-worker: pausing in the transaction of "
                    f"{judge.game['id']} S1901M"]
    out = capsys.readouterr()
    assert "pausing" not in out.out and "pausing" not in out.err


def test_the_current_game_route_is_named_for_what_it_answers(client):
    operation = client.get("/openapi.json").json()["paths"]["/api/games/{game_id}"]["get"]
    assert operation["operationId"].startswith("api_game_now")
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/GameNowOut")
