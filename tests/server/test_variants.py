"""Every variant the library knows plays at least one phase through the API."""

from __future__ import annotations

import pytest

from calhamer.game import Game
from calhamer.server.services.games import unservable_reason
from calhamer.variants import all_variants, find_variant

NAMES = [v.name for v in all_variants()]


@pytest.mark.parametrize("variant", NAMES)
def test_each_variant_plays_a_phase(judge, variant):
    assert unservable_reason(variant) is None
    gm = judge.user("gm")
    r = judge.client.post("/api/games", json={"variant": variant}, headers=gm.headers)
    assert r.status_code == 201, r.text
    judge.game = game = r.json()
    gid = game["id"]
    power = game["seats"][0]["power"]
    player = judge.join(power)
    view = judge.client.get(f"/api/games/{gid}", headers=player.headers).json()
    assert "seed" not in view["position"]  # a dice seed stays secret until adjudicated
    if find_variant(variant).visibility.hidden_information:  # a player sees only their own
        assert set(view["position"]["units"]) <= {power}
        assert set(view["position"]["centers"]) <= {power}
    doc = judge.client.get(f"/api/games/{gid}/phases/{game['phase']}/document",
                           headers=player.headers).json()
    assert "seed" not in doc
    units = view["position"]["units"].get(power, [])
    # A hold for its first unit; on a board that starts with a winter (DPjudge's Minor
    # Powers, where only the minor powers build at first) nothing is ordered.
    first = [] if game["phase"].endswith("A") or not units else [f"{units[0]} H"]
    r = judge.orders(player, first, phase=game["phase"])
    assert r.status_code == 200, r.text
    assert all(c["ok"] for c in r.json()["checks"]), r.text
    if find_variant(variant).bids is not None:  # a bid for the first neutral unit to hold
        seats = {s["power"] for s in game["seats"]}
        shown = [u for p, us in view["position"]["units"].items() if p not in seats for u in us]
        # Under fog a player sees no neutral unit: it bids for one printed on the board.
        neutral = shown[0] if shown else next(
            o for os in Game.new(variant).possible_bids(power)[1].values() for o in os
        ).removesuffix(" H")
        r = judge.client.put(f"/api/games/{gid}/bids", headers=player.headers,
                             json={"phase": game["phase"], "bids": [f"1 DP: {neutral} H"]})
        assert r.status_code == 200 and r.json()["problems"] == [], r.text
    judge.process_now(gm)
    result = judge.client.get(f"/api/games/{gid}/phases/{game['phase']}",
                              headers=player.headers)
    assert result.status_code == 200 and result.json()["report"]
    if "seed_hash" in view["position"]:  # Superdiplomacy: the seed is revealed with results
        doc = judge.client.get(f"/api/games/{gid}/phases/{game['phase']}/document",
                               headers=player.headers).json()
        assert doc["seed"] and doc["seed_hash"] == view["position"]["seed_hash"]
    page = judge.client.get(f"/games/{gid}")  # no cookie: the same 404 as ever
    assert page.status_code == 404


def test_an_unknown_variant_is_refused(judge):
    gm = judge.user("gm")
    r = judge.client.post("/api/games", json={"variant": "no-such-variant"},
                          headers=gm.headers)
    assert r.status_code == 400 and "there is no variant" in r.json()["detail"]
    assert r.json()["detail"] == unservable_reason("no-such-variant")


def test_the_home_page_offers_every_variant(client):
    page = client.get("/").text
    for v in all_variants():
        assert f'<option value="{v.name}">' in page, v.name
