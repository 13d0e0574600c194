"""Each of godip's 22 variants played to its end in the web judge (issue 30, "Done when": all
22 load and play to their end in the command line, the library and the web judge).

As a table of players would: a gamemaster creates the game through the API and a player joins
every seat; each phase one player still in the game reads it (``GET /api/games/ID``; the
position is the same for all, none of these variants hiding anything), and every power that
owes orders sends the random bot's (:mod:`calhamer.bots`, chosen from the possible orders of
that position) through the orders route with its own player's token, marked ready; the
worker's own code (:func:`calhamer.server.worker.process_due`) then adjudicates the phase. A
game goes on until the judge ends it (a solo, a variant's last year) or, as the library's games
do (tests/test_godip_boards.py), fifty movement years (to 1950 for a board of 1901): then the
players still in agree to a draw, proposed and voted through the proposals routes, and the
judge ends the game with it.

The requests go to the app in this process through httpx's ASGI transport (an in-process
client like Starlette's TestClient, without its thread hop per request), on SQLite only: the
other tests of godip's variants in the web judge (tests/server/test_godip_web.py) run on both
databases, and running this one (some fifteen thousand requests and two and a half thousand
adjudications) on PostgreSQL as well would double its time without testing anything of the
database that those do not.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from typing import Any

import httpx
import pytest
from test_godip_web import GODIP, NO_DEADLINES, _year

from calhamer.bots import BotView, random_policy
from calhamer.formats import position_from_json
from calhamer.notation import format_order
from calhamer.options import possible_orders
from calhamer.variants import find_variant
from conftest import Judge, Player

# As the library's games: fifty movement years at most (Hundred's are five years apart).
YEARS = 49


def _orders(doc: dict[str, Any], powers: list[str],
            rng: random.Random) -> dict[str, list[str] | None]:
    """Each power's random orders in the position ``doc`` (a phase document as the API shows
    it), as text: None for a power out of the game (no unit, no centre), an empty list for
    one with nothing to order in this phase."""
    position, _, rules = position_from_json(doc)
    out: dict[str, list[str] | None] = {}
    for power in powers:
        if not position.units_of(power) and power not in position.centers.values():
            out[power] = None
            continue
        options = possible_orders(position, power, rules)
        view = BotView(power, position.phase, position, None,
                       position.adjustments().get(power, 0), rules, rng)
        out[power] = [o if isinstance(o, str) else format_order(position.map, o)
                      for o in random_policy(view, options)]  # type: ignore[arg-type]
    return out


async def _draw_by_vote(client: httpx.AsyncClient, players: Mapping[str, Player], gid: str,
                        phase: str) -> None:
    """Every power still in the game agrees to a draw: one proposes it, the others vote."""
    r = await client.get(f"/api/games/{gid}/proposals",
                         headers=next(iter(players.values())).headers)
    first, *others = [players[p] for p in r.json()["voters"]]
    r = await client.post(f"/api/games/{gid}/proposals",
                          json={"kind": "draw", "phase": phase}, headers=first.headers)
    assert r.status_code == 201, r.text
    proposal = r.json()["proposals"][0]["id"]
    for player in others:
        r = await client.post(f"/api/games/{gid}/proposals/{proposal}/vote",
                              json={"agree": True}, headers=player.headers)
        assert r.status_code == 200, r.text


async def _play(judge: Judge, name: str, gid: str, players: dict[str, Player],
                last: int) -> tuple[dict[str, Any], int]:
    """Play the game to its end; the game as its last player saw it, and the phases played."""
    transport = httpx.ASGITransport(app=judge.client.app)
    rng = random.Random(name)
    played = 0
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        while True:
            # The position is the same for every player (none of godip's variants hides
            # anything): one player still in the game reads it for the table.
            reader = next(iter(players.values()))
            r = await client.get(f"/api/games/{gid}", headers=reader.headers)
            assert r.status_code == 200, r.text
            view = r.json()
            if view["game"]["status"] != "active":
                return view["game"], played
            phase = view["game"]["phase"]
            if _year(phase) > last:
                await _draw_by_vote(client, players, gid, phase)
                continue
            for power, lines in _orders(view["position"], list(players), rng).items():
                if lines is None:
                    del players[power]  # out of the game: nothing more to order
                    continue
                if not lines:
                    continue  # nothing to order in this phase (the judge does not wait)
                r = await client.put(f"/api/games/{gid}/orders",
                                     headers=players[power].headers,
                                     json={"phase": phase, "orders": lines, "ready": True})
                assert r.status_code == 200, (phase, power, r.text)
                assert all(c["ok"] for c in r.json()["checks"]), (phase, power, r.text)
            done = judge.process()
            assert done and done[0] == f"{gid} {phase}", (phase, done)
            # (a phase that waits for nobody, like a Twenty Twenty winter where nobody
            # adjusts, is adjudicated at once after it)
            played += len(done)
            assert played < 1000, "the game does not end"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("name", GODIP)
def test_each_godip_variant_plays_to_its_end_through_the_routes(judge: Judge,
                                                                name: str) -> None:
    assert not find_variant(name).visibility.hidden_information  # one position for all
    gm = judge.user("gm")
    game = judge.new_game(gm, variant=name, deadlines=NO_DEADLINES)
    gid = game["id"]
    players = {s["power"]: judge.join(s["power"]) for s in game["seats"]}
    step = 5 if name == "hundred" else 1
    last = _year(game["phase"]) + YEARS * step
    end, played = asyncio.run(_play(judge, name, gid, dict(players), last))
    assert end["status"] == "finished" and played >= 3
    reason = end["end_reason"]
    if _year(end["phase"]) > last:  # fifty years played: a draw agreed
        assert reason.startswith("a draw agreed by"), reason
        assert end["winner"] is None
    else:  # the judge ended it sooner: a solo
        assert reason.endswith("has won"), reason
        assert end["winner"] in players
    # The web judge's record agrees: its phases, in order, the last one the game's end.
    phases = judge.client.get(f"/api/games/{gid}/phases", headers=gm.headers).json()
    assert [p["phase"] for p in phases][-1] == end["phase"]
    assert all(p["adjudicated"] for p in phases[:-1]) and len(phases) == played + 1
