"""Saving orders at once: several saves of one power's first orders, sent together over real
HTTP, are all acknowledged (none refused for racing another) and the orders kept are one of
them, in full; every power's saves at once all land."""

from __future__ import annotations

import threading
from typing import Any

import httpx
from fastapi.testclient import TestClient

from conftest import Judge, serve_on_loopback


def _together(base: str, calls: list[tuple[dict[str, str], dict[str, Any]]],
              url: str) -> list[httpx.Response]:
    start = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def send(n: int) -> None:
        headers, body = calls[n]
        with httpx.Client(base_url=base, timeout=60) as client:
            start.wait()
            answers[n] = client.put(url, headers=headers, json=body)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def test_saves_of_one_power_at_once_all_land(app: Any, client: TestClient,
                                              judge: Judge) -> None:
    gm = judge.user("gm")
    judge.new_game(gm)
    gid = judge.game["id"]
    players = {power: judge.join(power) for power in ("FRANCE", "GERMANY", "ITALY")}
    france = players["FRANCE"]
    sent = [["A Par - Bur", f"# save {n}"] for n in range(8)]
    with serve_on_loopback(app) as base:
        url = f"/api/games/{gid}/orders"
        answers = _together(base, [(france.headers, {"phase": "S1901M", "orders": lines})
                                   for lines in sent], url)
        assert [a.status_code for a in answers] == [200] * len(sent), \
            [a.text for a in answers if a.status_code != 200]
        kept = client.get(url, headers=france.headers).json()["FRANCE"]["orders"]
        assert kept in sent
        # Every power at once, and a ready mark among them: each power's own orders land.
        mine = {"FRANCE": ["A Mar - Spa"], "GERMANY": ["A Mun - Ruh"], "ITALY": ["A Ven H"]}
        answers = _together(base, [(players[p].headers,
                                    {"phase": "S1901M", "orders": lines,
                                     **({"ready": True} if p == "ITALY" else {})})
                                   for p, lines in mine.items()], url)
        assert [a.status_code for a in answers] == [200, 200, 200]
        for power, lines in mine.items():
            got = client.get(url, headers=players[power].headers).json()[power]
            assert got["orders"] == lines
            assert got["ready"] is (power == "ITALY")
