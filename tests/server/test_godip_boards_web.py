"""godip's boards in the web judge (issue 30, item 4): the new-game form offers them by family
with a sentence and their board's size; a game of one is created through the form and through
the API, and a phase of it is adjudicated."""

from __future__ import annotations

import html
import re

from test_new_game_modules import first_phase, game_rows, post_form
from test_pages import Browser

from calhamer.variants import shipped_files
from calhamer.variants.catalogue import catalogue

GODIP = sorted(n for n, p in shipped_files().items() if p.parent.name == "godip")


def test_item_4_the_new_game_form_offers_godips_boards_with_their_size(client) -> None:
    page = client.get("/").text
    group = re.search(r'<optgroup label="godip&#39;s boards">(.*?)</optgroup>', page, re.S)
    assert group, "no group of godip's boards"
    offered = dict(re.findall(r'<option value="([^"]+)">([^<]*)</option>', group[1]))
    assert sorted(offered) == GODIP
    for e in catalogue():
        if e.family == "godip":
            label = html.unescape(offered[e.name])
            assert label == f"{e.title} ({e.size}): {e.description}"
    assert "Hundred (3 powers, 41 provinces, 17 centres): " in html.unescape(group[1])
    # The variants built for calhamer come first, in their own group.
    assert page.index('<optgroup label="Built for calhamer">') < group.start()


def test_item_4_a_gamemaster_creates_a_godip_game_on_the_form(app, database) -> None:
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "preset", "variant": "pure", "name": "Pure"})
    assert r.status_code == 200, r.text
    [game] = game_rows(database)
    assert (game.variant, game.name) == ("pure", "Pure")
    position = first_phase(database, game.id)
    assert position["variant"] == "pure" and position["phase"] == "S1901M"
    assert position["units"]["FRANCE"] == ["A PAR"]


def test_item_4_a_phase_of_hundred_is_adjudicated_through_the_api(judge) -> None:
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="hundred")
    assert game["phase"] == "Y1425M"
    assert sorted(s["power"] for s in game["seats"]) == ["BURGUNDY", "ENGLAND", "FRANCE"]
    england = judge.join("ENGLAND")
    # London and Calais touch: godip's abbreviations are read as they are written.
    r = judge.orders(england, ["A cal - lon", "F lon - str"], phase="Y1425M")
    assert r.status_code == 200, r.text
    assert all(c["ok"] for c in r.json()["checks"]), r.text
    judge.process_now(gm)
    view = judge.client.get(f"/api/games/{game['id']}", headers=england.headers).json()
    assert view["game"]["phase"] in ("Y1425R", "Y1430M")
    assert "A LON" in view["position"]["units"]["ENGLAND"]
    result = judge.client.get(f"/api/games/{game['id']}/phases/Y1425M",
                              headers=england.headers)
    assert result.status_code == 200 and result.json()["report"]
