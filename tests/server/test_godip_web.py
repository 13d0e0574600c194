"""Each of godip's 22 variants played in the web judge (issue 30, "Done when": all 22 load and
play to their end in the command line, the library and the web judge).

A gamemaster creates the game through the API, a player joins every seat, and each phase every
power owing orders submits random legal orders (chosen from the possible orders of the position
the API shows it) through the orders route, marked ready; the worker then adjudicates. Games
play until the judge ends them or two years in (the library plays each to its end or 1950:
tests/test_godip_boards.py and tests/test_godip_end_to_end.py), and the web judge's record of
every phase is adjudicated again by the library, which must agree (each game to its end, a
solo or 1950: tests/server/test_godip_web_to_the_end.py). Three games are played
through the routes to their solo (one power plays the greedy bot, the others hold). A second
game of each variant leaves every order to the worker's civil disorder, with deadlines that
pass.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from calhamer import Game
from calhamer.bots import BotView, Policy, greedy_policy, random_policy
from calhamer.formats import position_from_json
from calhamer.notation import format_order
from calhamer.options import possible_orders
from calhamer.orders import AnyOrder
from calhamer.phases import adjudicate
from calhamer.variants import shipped_files
from conftest import Judge, Player

GODIP = sorted(n for n, p in shipped_files().items() if p.parent.name == "godip")
# Movement years each game is played through the routes (the library plays each to its end or
# 1950); the games won through the routes are test_a_godip_game_is_won_through_the_routes.
YEARS = 2
NO_DEADLINES = {"movement": 0, "retreat": 0, "adjustment": 0}


def _year(phase: str) -> int:
    return int(phase[1:-1])


def _bot_orders(doc: dict[str, Any], power: str, rng: random.Random,
                policy: Policy = random_policy) -> list[str]:
    """Legal orders chosen by ``policy`` (random ones by default) for ``power`` in the
    position ``doc`` (a phase document as the API shows the power), as text."""
    position, _, rules = position_from_json(doc)
    options = possible_orders(position, power, rules)
    view = BotView(power, position.phase, position, None,
                   position.adjustments().get(power, 0), rules, rng)
    return [o if isinstance(o, str) else format_order(position.map, o)
            for o in policy(view, options)]


def _holds(view: BotView, options: Mapping[str, list[AnyOrder]]) -> list[AnyOrder]:
    """A power that only holds (and, in winter, builds nothing and removes as it must)."""
    if view.phase.is_movement:
        return [orders[0] for orders in options.values() if orders]
    return random_policy(view, options) if view.orders_due < 0 or view.phase.is_retreat else []


def _view(judge: Judge, who: Player, gid: str) -> dict[str, Any]:
    r = judge.client.get(f"/api/games/{gid}", headers=who.headers)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _last(first: str, step: int, years: int) -> int:
    return _year(first) + years * step


def _play_through_routes(judge: Judge, name: str, years: int,
                         policies: Mapping[str, Policy] | None = None) -> dict[str, Any]:
    """Play ``name`` in the web judge for ``years`` movement years at most (or to its end),
    each power by its policy in ``policies`` (random orders for those not named); return the
    game as the gamemaster last sees it."""
    gm = judge.user("gm")
    game = judge.new_game(gm, variant=name, deadlines=NO_DEADLINES)
    gid = game["id"]
    assert game["variant"] == name and game["status"] == "active"
    players = {s["power"]: judge.join(s["power"]) for s in game["seats"]}
    first = game["phase"]
    step = 5 if name == "hundred" else 1
    last = _last(first, step, years)
    rng = random.Random(name)
    played = 0
    while True:
        view = _view(judge, gm, gid)
        phase = view["game"]["phase"]
        if view["game"]["status"] != "active" or _year(phase) > last:
            view["_gm"] = gm
            return view
        for power, player in players.items():
            mine = _view(judge, player, gid)
            lines = _bot_orders(mine["position"], power, rng,
                                (policies or {}).get(power, random_policy))
            r = judge.orders(player, lines, phase=phase, ready=True, game_id=gid)
            if r.status_code == 409 and "no orders" in r.text:
                continue  # this power owes nothing in this phase
            assert r.status_code == 200, (phase, power, r.text)
            assert all(c["ok"] for c in r.json()["checks"]), (phase, power, r.text)
        # (a phase that waits for nobody, like a Twenty Twenty winter where nobody adjusts,
        # is adjudicated at once after it)
        done = judge.process()
        assert done and done[0] == f"{gid} {phase}", (phase, done)
        played += 1
        assert played < 400, "the game does not end"


def _replays_in_the_library(judge: Judge, who: Player, gid: str) -> list[str]:
    """The game's phases as the API lists them; each adjudicated one's exported document is
    adjudicated again by the library, which must reach the phase the web judge went on to."""
    phases = judge.client.get(f"/api/games/{gid}/phases", headers=who.headers).json()
    codes = [p["phase"] for p in phases]
    for entry, following in zip(phases, codes[1:], strict=False):
        assert entry["adjudicated"], entry
        doc = judge.client.get(f"/api/games/{gid}/phases/{entry['phase']}/document",
                               headers=who.headers).json()
        position, orders, rules = position_from_json(doc)
        assert adjudicate(position, orders, rules).next.phase.code == following
    return codes


@pytest.mark.parametrize("name", GODIP)
def test_each_godip_variant_plays_through_the_routes(judge: Judge, name: str) -> None:
    years = 1 if name == "chaos" else YEARS  # 34 seats: one year (W1900A to W1901A)
    view = _play_through_routes(judge, name, years)
    game = view["game"]
    gm = view["_gm"]
    codes = _replays_in_the_library(judge, gm, game["id"])
    assert codes[0] == Game.new(name).phase and codes[-1] == game["phase"]
    assert len(codes) >= 3
    if game["status"] == "finished":
        assert game["winner"] in {s["power"] for s in game["seats"]}
        assert game["end_reason"].endswith("has won")
    else:
        first, step = _year(codes[0]), (5 if name == "hundred" else 1)
        assert _year(game["phase"]) > first + years * step


@pytest.mark.parametrize(("name", "winner"), [("cold-war", "USSR"), ("hundred", "ENGLAND"),
                                                  ("france-austria", "FRANCE")])
def test_a_godip_game_is_won_through_the_routes(judge: Judge, name: str, winner: str) -> None:
    # One power plays the greedy bot, the others only hold: the game ends with its solo,
    # which the web judge records as the game's end.
    others = {s: _holds for s in Game.new(name).powers() if s != winner}
    view = _play_through_routes(judge, name, 60, {winner: greedy_policy, **others})
    game = view["game"]
    assert game["status"] == "finished", game["phase"]
    assert game["winner"] == winner and game["end_reason"].endswith("has won")
    codes = _replays_in_the_library(judge, view["_gm"], game["id"])
    assert codes[-1] == game["phase"]


@pytest.mark.parametrize("name", GODIP)
def test_each_godip_variant_plays_a_year_by_the_workers_civil_disorder(judge: Judge,
                                                                       name: str) -> None:
    # Nobody orders: each deadline passes and the worker adjudicates the phase with the
    # civil-disorder rule (units hold, builds are waived, or Chaos's armies are built).
    gm = judge.user("gm")
    game = judge.new_game(gm, variant=name)
    gid = game["id"]
    first = game["phase"]
    processed: list[str] = []
    while len(processed) < 4:
        judge.clock.advance(days=2)
        done = judge.process()
        assert done, "a passed deadline is adjudicated"
        processed += done
    view = _view(judge, gm, gid)
    assert view["game"]["status"] == "active" and view["game"]["phase"] != first
    codes = _replays_in_the_library(judge, gm, gid)
    assert codes[0] == first and [f"{gid} {c}" for c in codes[:-1]] == processed


def test_a_phase_that_waits_for_nobody_is_adjudicated_at_once(judge: Judge) -> None:
    # Twenty Twenty plays every winter, so that each year's victory is checked; after a first
    # year in which nobody moved nobody adjusts, and the winter is adjudicated as soon as the
    # fall is, not at the end of its own deadline (nor never, with no deadline).
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="twenty-twenty")
    gid = game["id"]
    judge.clock.advance(days=2)
    assert judge.process() == [f"{gid} S2001M"]
    judge.clock.advance(days=2)
    assert judge.process() == [f"{gid} F2001M", f"{gid} W2001A"]
    assert _view(judge, gm, gid)["game"]["phase"] == "S2002M"


def test_a_variant_with_a_last_year_ends_in_the_web_judge_ranked_by_centres(judge: Judge
                                                                           ) -> None:
    # The vocabulary's last_year, set in the variant's text: after 1901 the game is over and
    # the powers with the most centres share the top (nobody moved: each keeps its three or
    # four home centres, Russia alone has four).
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="standard+standard?last_year=1901")
    gid = game["id"]
    for _ in range(2):
        judge.clock.advance(days=2)
        judge.process()
    view = _view(judge, gm, gid)["game"]
    assert view["status"] == "finished" and view["phase"] == "S1902M"
    assert view["winner"] == "RUSSIA"
    assert view["end_reason"] == "the last year (1901) is over: Russia leads with 4 centres"
