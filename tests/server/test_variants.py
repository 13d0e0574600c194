"""Every variant the library knows is either playable on the web judge or refused clearly."""

from __future__ import annotations

import pytest

from calhamer.server.service import unservable_reason
from calhamer.variants import VARIANTS

NAMES = [v.name for v in VARIANTS]


@pytest.mark.parametrize("variant", NAMES)
def test_each_variant_plays_a_phase_or_is_refused(judge, variant):
    gm = judge.user("gm")
    r = judge.client.post("/api/games", json={"variant": variant}, headers=gm.headers)
    reason = unservable_reason(variant)
    if reason:
        assert r.status_code == 400 and r.json()["detail"] == reason
        return
    assert r.status_code == 201, r.text
    judge.game = game = r.json()
    gid = game["id"]
    power = game["seats"][0]["power"]
    player = judge.join(power)
    view = judge.client.get(f"/api/games/{gid}", headers=player.headers).json()
    assert "seed" not in view["position"]  # a dice seed stays secret until adjudicated
    doc = judge.client.get(f"/api/games/{gid}/phases/{game['phase']}/document",
                           headers=player.headers).json()
    assert "seed" not in doc
    units = view["position"]["units"].get(power, [])
    r = judge.orders(player, [f"{units[0]} H"] if units else [], phase=game["phase"])
    assert r.status_code == 200, r.text
    assert all(c["ok"] for c in r.json()["checks"]), r.text
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


def test_the_home_page_offers_only_playable_variants(client):
    page = client.get("/").text
    for v in VARIANTS:
        offered = f'<option value="{v.name}">' in page
        assert offered == (unservable_reason(v.name) is None), v.name
