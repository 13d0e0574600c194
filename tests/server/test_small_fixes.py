"""Smaller mistakes of the web judge, each pinned: press after the end, extending an untimed
phase, loose booleans, unreadable bid amounts, the documented error answers, and error
pages that lose what the player typed."""

from __future__ import annotations

import html
import re
from typing import Any

import jsonschema
import pytest
from test_pages import gm_creates_a_game, join

UNTIMED = {"movement": 0, "retreat": 0, "adjustment": 0}


# -- press after the end ---------------------------------------------------------------------------


def test_no_press_once_the_game_is_over(standard_game):
    judge, gm, france, _germany = standard_game
    gid = judge.game["id"]
    url = f"/api/games/{gid}/messages"
    assert judge.client.post(url, json={"body": "still here"},
                             headers=france.headers).status_code == 201
    r = judge.client.post(f"/api/games/{gid}/control", json={"action": "end"},
                          headers=gm.headers)
    assert r.status_code == 200
    for who in (france, gm):
        r = judge.client.post(url, json={"body": "after the end"}, headers=who.headers)
        assert r.status_code == 409, r.text
        assert r.json() == {"detail": "the game is over: no more messages are taken"}
    bodies = [m["body"] for m in judge.client.get(url, headers=gm.headers).json()]
    assert bodies == ["still here"]


def test_a_refused_message_comes_back_on_the_error_page(app):
    gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    gm.post(f"{game_url}/control", {"action": "end"})
    page = france.post(f"{game_url}/messages", {"body": "Good game, all <3", "to": "GERMANY"},
                       status=409)
    assert "the game is over: no more messages are taken" in page.text
    assert "Good game, all &lt;3" in page.text  # what they typed, escaped, to copy
    assert f'<a href="{game_url}" id="back">' in page.text


# -- extend --------------------------------------------------------------------------------------


def test_extend_does_not_give_an_untimed_phase_a_deadline(judge):
    gm = judge.user("gm")
    game = judge.new_game(gm, deadlines=UNTIMED)
    gid = game["id"]
    assert game["deadline"] is None

    def control(**body: Any) -> Any:
        return judge.client.post(f"/api/games/{gid}/control", json=body, headers=gm.headers)

    expected = ("this phase has no deadline to extend: it waits until every power is ready "
                "or you process it")
    r = control(action="extend", minutes=60, phase="S1901M")
    assert r.status_code == 409 and r.json()["detail"] == expected
    assert control(action="pause").status_code == 200
    r = control(action="extend", minutes=60, phase="S1901M")
    assert r.status_code == 409 and r.json()["detail"] == expected
    resumed = control(action="resume").json()
    assert resumed["deadline"] is None  # still waits for everyone, as it was created


# -- strict booleans ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["yes", "true", 1, 0, "1", None])
def test_ready_takes_only_true_or_false(standard_game, value):
    judge, _gm, france, _germany = standard_game
    gid = judge.game["id"]
    r = judge.client.put(f"/api/games/{gid}/orders", headers=france.headers,
                         json={"phase": "S1901M", "orders": ["A Par H"], "ready": value})
    if value is None:  # null: leave the mark as it is
        assert r.status_code == 200 and r.json()["ready"] is False
        return
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["loc"] == "ready"
    r = judge.client.post(f"/api/games/{gid}/ready", headers=france.headers,
                          json={"phase": "S1901M", "ready": value})
    assert r.status_code == 422, r.text
    mine = judge.client.get(f"/api/games/{gid}/orders", headers=france.headers).json()
    assert mine == {}  # nothing was saved, and nobody was marked ready


# -- bid amounts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "amount"), [("1e3 DP: A Hol H", "1e3"),
                                              ("1E3: A Hol H", "1E3"),
                                              ("0x3 DP: A Hol H", "0x3"),
                                              ("2e0DP A Hol H", "2e0")])
def test_an_unreadable_bid_amount_is_named(judge, line, amount):
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard-dp")
    france = judge.join("FRANCE")
    r = judge.client.put(f"/api/games/{judge.game['id']}/bids", headers=france.headers,
                         json={"phase": "S1901M", "bids": [line, "1 DP: A Bel H"]})
    assert r.status_code == 200, r.text
    assert r.json()["problems"] == [
        f"{line}: the amount {amount!r} is not a whole number of DP; write it in digits, "
        'like "3 DP: A Hol H"'
    ]
    assert r.json()["bids"] == [line, "1 DP: A Bel H"]  # kept as typed


# -- the documented error answers -----------------------------------------------------------------


def _resolved(schema: Any, document: dict[str, Any]) -> Any:
    """``schema`` with every ``$ref`` into ``document`` replaced by what it points to."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _resolved(target, document)
        return {k: _resolved(v, document) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_resolved(v, document) for v in schema]
    return schema


def _documented(openapi: dict[str, Any], method: str, path: str, status: int) -> Any:
    responses = openapi["paths"][path][method.lower()]["responses"]
    assert str(status) in responses, f"{method} {path} does not document {status}"
    return _resolved(responses[str(status)]["content"]["application/json"]["schema"], openapi)


def test_openapi_documents_every_error_answer(client):
    openapi = client.get("/openapi.json").json()
    text = str(openapi)
    assert "HTTPValidationError" not in text  # FastAPI's 422 model, which we never send
    schemas = openapi["components"]["schemas"]
    assert schemas["ValidationErrorOut"]["properties"]["detail"]["type"] == "string"
    assert schemas["ValidationErrorOut"]["properties"]["errors"]["type"] == "array"
    assert schemas["ErrorOut"]["properties"]["detail"]["type"] == "string"
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"400", "405", "413"} <= codes, (method, path)
            if "{game_id}" in path:
                assert {"401", "404"} <= codes, (method, path)
            # 422 where the body, a parameter that is not plain text, or a required query
            # parameter (a missing one is refused) can be refused
            checked = [p for p in operation.get("parameters", ())
                       if p["in"] in ("path", "query")
                       and (_resolved(p["schema"], openapi).get("type") != "string"
                            or (p["in"] == "query" and p.get("required")))]
            if "requestBody" in operation or checked:
                assert _documented(openapi, method, path, 422)["title"] == "ValidationErrorOut"
            else:
                assert "422" not in codes, (method, path)
    for method, path in (("PUT", "/api/games/{game_id}/orders"),
                         ("POST", "/api/games/{game_id}/ready"),
                         ("PUT", "/api/games/{game_id}/bids"),
                         ("POST", "/api/games/{game_id}/control"),
                         ("POST", "/api/games/{game_id}/messages"),
                         ("POST", "/api/join"), ("POST", "/api/users")):
        assert "409" in openapi["paths"][path][method.lower()]["responses"], (method, path)
    for method, path in (("GET", "/api/games/{game_id}"), ("GET", "/api/games"),
                         ("GET", "/api/games/{game_id}/phases/{code}")):
        assert "409" not in openapi["paths"][path][method.lower()]["responses"], (method, path)
    control = openapi["paths"]["/api/games/{game_id}/control"]["post"]
    body = _resolved(control["requestBody"]["content"]["application/json"]["schema"], openapi)
    assert "phase" in body["properties"]


def test_error_bodies_match_the_documented_schema(standard_game):
    judge, _gm, france, _germany = standard_game
    gid = judge.game["id"]
    api = judge.client
    openapi = api.get("/openapi.json").json()
    orders = f"/api/games/{gid}/orders"
    tries: list[tuple[str, str, Any, int]] = [
        ("PUT", orders, api.put(orders, json={"phase": "S1901M", "orders": "x"},
                                headers=france.headers), 422),
        ("PUT", orders, api.put(orders, json={"phase": "Spring", "orders": []},
                                headers=france.headers), 400),
        ("PUT", orders, api.put(orders, json={"phase": "S1901M", "orders": []}), 401),
        ("PUT", "/api/games/{game_id}/orders",
         api.put("/api/games/nosuchgame00/orders", json={"phase": "S1901M", "orders": []},
                 headers=france.headers), 404),
        ("PUT", orders, api.put(orders, json={"phase": "F1901M", "orders": []},
                                headers=france.headers), 409),
        ("PUT", orders, api.put(orders, content=b"[" * (70 * 1024),
                                headers={**france.headers,
                                         "content-type": "application/json"}), 413),
        ("POST", "/api/users", api.post("/api/users", json={"username": "gm",
                                                             "password": "a long password"}),
         409),
        ("POST", "/api/join", api.post("/api/join", json={"invite": "nosuchinvite"}), 404),
    ]
    for method, path, r, status in tries:
        assert r.status_code == status, (method, path, r.status_code, r.text)
        template = path.replace(gid, "{game_id}")
        jsonschema.validate(r.json(), _documented(openapi, method, template, status))
    # 405: the path exists, the method does not; every operation of the path documents it
    r = api.patch(orders, headers=france.headers)
    assert r.status_code == 405
    for method in openapi["paths"]["/api/games/{game_id}/orders"]:
        jsonschema.validate(r.json(), _documented(openapi, method, "/api/games/{game_id}/orders",
                                                  405))


# -- error pages ---------------------------------------------------------------------------------


def _textarea(page: str) -> str:
    found = re.search(r'<textarea id="typed" name="(\w+)"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert found, "no form with the typed text on the error page"
    return html.unescape(found[2])


def test_refused_orders_come_back_on_the_error_page(app, judge):
    gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert judge.process()
    typed = "A Par - Bur\nA Mar - Spa\nF Bre - Mao"
    # a page still showing S1901M: the phase is over
    page = france.post(f"{game_url}/orders", {"phase": "S1901M", "action": "ready",
                                              "orders": typed}, status=409)
    assert "S1901M is not the phase being played; the current phase is F1901M" in page.text
    assert _textarea(page.text) == typed
    assert "The phase being played is now F1901M" in page.text
    assert '<input type="hidden" name="phase" value="F1901M">' in page.text
    assert f'<a href="{game_url}" id="back">Back to the game</a>' in page.text
    assert 'href="/">Back to the start page' not in page.text
    # sending the form of the error page saves them, for the phase being played
    page = france.post(f"{game_url}/orders", {"phase": "F1901M", "action": "save",
                                              "orders": _textarea(page.text)})
    assert "Orders saved" in page.text and "A Par - Bur\nA Mar - Spa" in page.text


def test_orders_refused_as_too_long_come_back_too(app):
    _gm, game_url, links = gm_creates_a_game(app)
    france, _ = join(app, links["FRANCE"], "Bob")
    typed = "A Par - Bur\n" + "A Mar H " * 80
    page = france.post(f"{game_url}/orders", {"phase": "S1901M", "action": "save",
                                              "orders": typed}, status=400)
    assert "an order line is longer than 500 characters" in page.text
    assert _textarea(page.text) == typed
    assert "The phase being played is now" not in page.text
    assert f'<a href="{game_url}" id="back">' in page.text


def test_refused_bids_come_back_on_the_error_page(app, judge):
    gm, game_url, links = gm_creates_a_game(app, variant="standard-dp")
    france, _ = join(app, links["FRANCE"], "Bob")
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert judge.process()  # S1901M is over (the retreats, if any, or F1901M follow)
    page = france.post(f"{game_url}/bids", {"phase": "S1901M", "bids": "2 DP: A Hol H"},
                       status=409)
    assert _textarea(page.text) == "2 DP: A Hol H"
    assert f'<a href="{game_url}" id="back">' in page.text


def test_a_404_page_still_says_nothing_of_the_game(app):
    _gm, _game_url, links = gm_creates_a_game(app)
    stranger = join(app, links["FRANCE"], "Bob")[0]
    other_game = gm_creates_a_game(app)[1]
    page = stranger.post(f"{other_game}/orders", {"phase": "S1901M", "orders": "A Par H"},
                         status=404)
    assert 'href="/">Back to the start page' in page.text
    assert other_game not in page.text and 'id="typed"' not in page.text
