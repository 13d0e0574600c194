"""Issue 27, finding 6: numbers that reach the database are bounded: bids are finite amounts in
range, extensions cannot push a deadline (or a paused game's remaining time) past what its
column holds, and every number of the request models has both bounds."""

from __future__ import annotations

from typing import Any

import pytest

# -- finding 6: numbers that reach the database ---------------------------------------------------


@pytest.mark.parametrize("amount", ["NaN", "Infinity", "-Infinity", "1e400", "1e30",
                                    "-5", "123456789012345678901234567890"])
def test_issue27_6_a_bid_of_no_finite_amount_is_422(judge, amount):
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard-dp")
    france = judge.join("FRANCE")
    gid = judge.game["id"]
    body = (f'{{"phase": "S1901M", "bids": [{{"order": "A Hol H", "dp": {amount}}}]}}').encode()
    r = judge.client.put(f"/api/games/{gid}/bids", content=body,
                         headers={**france.headers, "content-type": "application/json"})
    assert r.status_code == 422, (amount, r.status_code, r.text)
    assert r.json()["errors"][0]["loc"].startswith("bids.0")
    assert "dp" in r.json()["detail"]
    mine = judge.client.get(f"/api/games/{gid}/bids", headers=france.headers).json()
    assert mine["FRANCE"]["bids"] == []  # nothing stored


def test_issue27_6_a_bid_line_with_a_huge_amount_is_named(judge):
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard-dp")
    france = judge.join("FRANCE")
    gid = judge.game["id"]
    line = "123456789012345678901234567890 DP: A Hol H"
    r = judge.client.put(f"/api/games/{gid}/bids", headers=france.headers,
                         json={"phase": "S1901M", "bids": [line]})
    assert r.status_code == 200, r.text
    assert any("123456789012345678901234567890" in p and "at most" in p
               for p in r.json()["problems"]), r.json()["problems"]


def test_issue27_6_extending_a_paused_game_without_end_is_refused_clearly(judge):
    gm = judge.user("gm")
    judge.new_game(gm)
    gid = judge.game["id"]
    url = f"/api/games/{gid}/control"
    assert judge.client.post(url, json={"action": "pause"}, headers=gm.headers).status_code \
        == 200
    refused = None
    for n in range(500):
        r = judge.client.post(url, json={"action": "extend", "minutes": 86400,
                                          "phase": "S1901M"}, headers=gm.headers)
        assert r.status_code < 500, (n, r.text)
        if r.status_code != 200:
            refused = (n, r)
            break
    assert refused is not None, "500 extensions of 60 days were all taken"
    n, r = refused
    assert n < 415 and r.status_code == 409 and "at most" in r.json()["detail"], r.text
    resumed = judge.client.post(url, json={"action": "resume"}, headers=gm.headers)
    assert resumed.status_code == 200
    # and not paused: the deadline is bounded the same way
    for _ in range(500):
        r = judge.client.post(url, json={"action": "extend", "minutes": 86400,
                                          "phase": "S1901M"}, headers=gm.headers)
        assert r.status_code < 500, r.text
        if r.status_code != 200:
            break
    assert r.status_code == 409 and "at most" in r.json()["detail"]


def test_issue27_6_integers_of_the_requests_are_bounded(standard_game):
    judge, _gm, france, _germany = standard_game
    gid = judge.game["id"]
    for last in (2 ** 31, 2 ** 63, 10 ** 30):
        r = judge.client.post(f"/api/games/{gid}/threads/read", headers=france.headers,
                              json={"thread": "ALL", "last": last})
        assert r.status_code == 422, (last, r.status_code, r.text)
    r = judge.client.post(f"/games/{gid}/threads/read", headers=france.headers,
                          data={"thread": "ALL", "last": str(10 ** 19)})
    assert r.status_code < 500


def test_issue27_6_every_number_of_the_request_models_is_bounded():
    """Every integer and float field of every request model has a lower and an upper bound
    (a number reaching a column must fit it), and no float takes NaN or infinities."""
    from pydantic import BaseModel

    from calhamer.server import schemas

    unbounded = []
    for name in dir(schemas):
        model = getattr(schemas, name)
        if not (isinstance(model, type) and issubclass(model, schemas.In)):
            continue
        for field, info in model.model_json_schema()["properties"].items():
            for kind in _number_kinds(info, model.model_json_schema()):
                if not {"minimum", "exclusiveMinimum"} & set(kind) or \
                        not {"maximum", "exclusiveMaximum"} & set(kind):
                    unbounded.append(f"{name}.{field}")
    assert issubclass(schemas.In, BaseModel)
    assert not unbounded, unbounded


def _number_kinds(info: dict[str, Any], root: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    if "$ref" in info:
        info = root["$defs"][info["$ref"].split("/")[-1]]
    if info.get("type") in ("integer", "number"):
        found.append(info)
    for key in ("anyOf", "oneOf", "allOf"):
        for part in info.get(key, []):
            found += _number_kinds(part, root)
    if "items" in info:
        found += _number_kinds(info["items"], root)
    for sub in info.get("properties", {}).values():
        found += _number_kinds(sub, root)
    return found
