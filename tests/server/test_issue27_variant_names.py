"""Issue 27, finding 5: variant names from the web are names of shipped variants, composed texts
on shipped boards and uploaded files, never paths on the server: an answer tells nothing of
the server's files."""

from __future__ import annotations

import json
import re

import pytest
from test_pages import Browser

# -- finding 5: variant names are names, never paths --------------------------------------------


@pytest.mark.parametrize("probe", ["pyproject.toml+fog", "README.md+fog", "../README.md+fog",
                                   "../../etc/hosts.toml+fog", "/etc/hosts.toml+fog",
                                   "src/calhamer/maps/standard.toml+fog",
                                   "pyproject.toml?rules=2000", "./pyproject.toml",
                                   "standard/../standard+fog"])
def test_issue27_5_a_variant_name_tells_nothing_of_the_servers_files(judge, probe):
    gm = judge.user("gm")
    missing = re.sub(r"[A-Za-z]+(?=\.(toml|md))", "zzmissing", probe)
    answers = []
    for name in (probe, missing):
        r = judge.client.post("/api/games", json={"variant": name}, headers=gm.headers)
        assert r.status_code == 400, r.text
        answers.append(r.json()["detail"].replace(json.dumps(name)[1:-1], "NAME")
                       .replace(repr(name), "NAME"))
    assert answers[0] == answers[1]
    detail = answers[0]
    assert "/work" not in detail and "/etc" not in detail and "/src" not in detail
    assert "standard" in detail and "upload" in detail  # which names are accepted


def test_issue27_5_the_form_refuses_a_path_alike(app):
    browser = Browser(app)
    browser.get("/")
    texts = []
    for name in ("pyproject.toml+fog", "zzmissing.toml+fog"):
        r = browser.client.post("/games", data={"csrf_token": browser.csrf, "variant": name})
        assert r.status_code == 400
        texts.append(re.sub(r"zzmissing|pyproject", "X", r.text))
        assert "/work" not in r.text
    assert re.sub(r'value="[^"]*"', "", texts[0]) == re.sub(r'value="[^"]*"', "", texts[1])


def test_issue27_5_shipped_composed_and_uploaded_variants_still_work(judge):
    gm = judge.user("gm")
    for name in ("standard", "Kriegsplomacy", "standard+fog", "standard-dp+neutrals?dp_cap=2",
                 "standard+standard?rules=2000"):
        r = judge.client.post("/api/games", json={"variant": name}, headers=gm.headers)
        assert r.status_code == 201, (name, r.text)
