"""Issue 27, finding 7: the OpenAPI schema declares every error answer the server gives (429
where limits apply) and the no-NUL rule; a 405 lists every method of its path; /docs loads
nothing from another site; names users choose are normalised."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import jsonschema
import pytest
from test_pages import Browser, gm_creates_a_game

# -- finding 7: the schema agrees with the server; /docs; names -----------------------------------


def test_issue27_7_too_many_requests_is_declared_where_limits_apply(client):
    openapi = client.get("/openapi.json").json()
    for path in ("/api/users", "/api/sessions"):
        answer = openapi["paths"][path]["post"]["responses"]["429"]
        assert "Retry-After" in answer["headers"], path


def test_issue27_7_the_no_nul_rule_is_in_the_schema(client):
    openapi = client.get("/openapi.json").json()
    texts = []
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            texts += [(f"{method} {path}", s) for s in _strings(body["schema"], openapi)]
    assert len(texts) > 10
    for where, string in texts:
        assert "pattern" in string, (where, string)
        assert re.search(string["pattern"], "a\x00b") is None, where
        assert re.search(string["pattern"], "Ab") is not None or string.get("minLength", 0) > 2


def _strings(schema: Any, document: dict[str, Any], seen: tuple[str, ...] = ()) -> list[Any]:
    if isinstance(schema, list):
        return [s for part in schema for s in _strings(part, document, seen)]
    if not isinstance(schema, dict):
        return []
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        if name in seen:
            return []
        return _strings(document["components"]["schemas"][name], document, (*seen, name))
    found = [schema] if schema.get("type") == "string" and "enum" not in schema \
        and "const" not in schema else []
    for key in ("anyOf", "oneOf", "allOf", "items"):
        if key in schema:
            found += _strings(schema[key], document, seen)
    for sub in schema.get("properties", {}).values():
        found += _strings(sub, document, seen)
    return found


@pytest.mark.parametrize(("path", "methods"), [
    ("/api/sessions", {"GET", "POST", "DELETE"}), ("/api/games", {"GET", "POST"}),
    ("/api/games/abc/orders", {"GET", "PUT"}), ("/api/games/abc/messages", {"GET", "POST"}),
    ("/login", {"GET", "POST"}), ("/join/abc", {"GET", "POST"}),
])
def test_issue27_7_a_405_lists_every_method_the_path_takes(client, path, methods):
    r = client.patch(path)
    assert r.status_code == 405
    allowed = {m.strip() for m in r.headers["allow"].split(",")}
    assert methods <= allowed, allowed
    assert allowed <= methods | {"HEAD"}


def test_issue27_7_the_api_browser_loads_only_from_this_server(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "content-security-policy" in page.headers
    csp = page.headers["content-security-policy"]
    assert "script-src" not in csp or "cdn" not in csp
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources, page.text
    for source in sources:
        assert source.startswith("/"), source  # nothing from another site
        asset = client.get(source)
        assert asset.status_code == 200, source
    assert "<script>" not in page.text  # no inline script: the CSP allows none
    assert re.search(r"<script(?![^>]*\bsrc=)", page.text) is None
    assert client.get("/openapi.json").status_code == 200


BIDI = "\u202e"


@pytest.mark.parametrize(("given", "problem"), [
    (f"Bob{BIDI}ecnarF", "direction"), ("\u2066Bob", "direction"),
    ("x" * 61, "at most 60"), ("\u200b\u2060 ", "empty"), ("a\x00b", "NUL"),
])
def test_issue27_7_a_display_name_with_controls_is_refused(client, given, problem):
    r = client.post("/api/users", json={"username": "bob", "password": "a long password",
                                        "display_name": given})
    assert r.status_code == 422, r.text
    assert problem in r.json()["detail"], r.json()["detail"]


def test_issue27_7_display_names_are_normalised(judge):
    gm = judge.user("gm")
    judge.new_game(gm, name="  Friday \t\n game\u200b  ")
    assert judge.game["name"] == "Friday game"
    decomposed = unicodedata.normalize("NFD", "Zoë   Ångström\u200b")
    r = judge.client.post("/api/join", json={"invite": judge.invite("FRANCE"),
                                             "name": decomposed})
    assert r.status_code == 200, r.text
    assert r.json()["user"]["display_name"] == "Zoë Ångström"
    assert unicodedata.is_normalized("NFC", r.json()["user"]["display_name"])
    r = judge.client.post("/api/join", json={"invite": judge.invite("GERMANY"),
                                             "name": f"Eve{BIDI}"})
    assert r.status_code == 422 and "direction" in r.json()["detail"]
    r = judge.client.post("/api/games", json={"name": f"Game {BIDI}"}, headers=gm.headers)
    assert r.status_code == 422 and "direction" in r.json()["detail"]


def test_issue27_7_names_on_the_pages_are_normalised_too(app):
    browser = Browser(app)
    browser.get("/")
    r = browser.client.post("/games", data={"csrf_token": browser.csrf, "name": "x",
                                            "gm_name": f"Al{BIDI}ice", "variant": "standard"})
    assert r.status_code == 400 and "direction" in r.text
    _gm, _game_url, links = gm_creates_a_game(app)
    guest = Browser(app)
    guest.get(links["FRANCE"].replace("http://testserver", ""))
    r = guest.client.post(links["FRANCE"].replace("http://testserver", ""),
                          data={"csrf_token": guest.csrf, "name": f"Bob{BIDI}"})
    assert r.status_code == 400 and "direction" in r.text
    signup = Browser(app)
    signup.get("/signup")
    r = signup.client.post("/signup", data={"csrf_token": signup.csrf, "username": "eve",
                                            "password": "a long password",
                                            "display_name": f"Eve{BIDI}"})
    assert r.status_code == 400 and "direction" in r.text


def test_issue27_7_names_reach_no_page_with_a_direction_control(app):
    # A name is checked as it comes in, so no page shows one; the schema says so too.
    from calhamer.server.schemas import GameIn, JoinIn, SignupIn

    for model, field in ((SignupIn, "display_name"), (JoinIn, "name"), (GameIn, "name")):
        schema = model.model_json_schema()
        text = json.dumps(schema["properties"][field])
        assert "pattern" in text, (model.__name__, text)
        found = [s for s in _strings(schema["properties"][field], {"components": {
            "schemas": schema.get("$defs", {})}})]
        assert found and all(re.search(s["pattern"], f"a{BIDI}b") is None for s in found)
    jsonschema.validate("plain", {"type": "string"})


def test_issue27_7_a_real_429_is_as_the_schema_declares_it(client):
    from schema_check import undeclared

    openapi = client.get("/openapi.json").json()
    answers = [client.post("/api/users", json={"username": f"user{n}",
                                               "password": "a long password"})
               for n in range(12)]
    refused = [r for r in answers if r.status_code == 429]
    assert refused, [r.status_code for r in answers]
    assert undeclared(openapi, "POST", "/api/users", refused[0]) is None
    for n in range(25):
        r = client.post("/api/sessions", json={"username": "user0", "password": f"wrong{n}"})
        if r.status_code == 429:
            break
    assert r.status_code == 429
    assert undeclared(openapi, "POST", "/api/sessions", r) is None
