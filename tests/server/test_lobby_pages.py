"""Finding 3 of issue 27: the lobby pages its lists, so that its cost does not grow with the
number of games (``lobby_page_size`` games a page; ``GET /api/lobby?page=N``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from calhamer.server.app import create_app
from conftest import Judge, Player, empty_tables, make_settings

SIZE = 3
UNTIMED = {"movement": 0, "retreat": 0, "adjustment": 0}
OPEN_GAME = re.compile(r'<div class="open-game" data-game="([^"]+)">\s*<strong>([^<]+)</strong>')


@pytest.fixture
def paged(database: Any, database_url: str, clock: Any) -> Iterator[Judge]:
    empty_tables(database)
    settings = make_settings(database_url, clock, lobby_page_size=SIZE)
    with TestClient(create_app(settings, db=database)) as client:
        yield Judge(client, database, settings, clock)


def _listed_games(judge: Judge, gm: Player, count: int) -> list[str]:
    names = []
    for n in range(count):
        judge.clock.advance(seconds=1)  # newest first: each a second younger
        judge.new_game(gm, name=f"Open {n}", listed=True, deadlines=UNTIMED)
        names.append(f"Open {n}")
    return names


def _open_names(html: str) -> list[str]:
    section = html.split('id="open-games"')[1].split("</section>")[0]
    return [name for _gid, name in OPEN_GAME.findall(section)]


def _link(html: str, rel: str, list_name: str) -> str | None:
    pager = re.search(rf'<nav class="pager" aria-label="pages" data-list="{list_name}">(.*?)'
                      r"</nav>", html, re.S)
    if pager is None:
        return None
    found = re.search(rf'<a rel="{rel}" href="([^"]+)"', pager[1])
    return found[1].replace("&amp;", "&") if found else None


def test_finding3_the_lobby_pages_its_open_games(paged: Judge) -> None:
    gm = paged.user("gm")
    names = _listed_games(paged, gm, 7)
    newest_first = names[::-1]
    stranger = paged.client
    page = stranger.get("/lobby").text
    assert _open_names(page) == newest_first[:3]
    assert _link(page, "prev", "open") is None
    seen = []
    url: str | None = "/lobby"
    while url is not None:
        page = stranger.get(url).text
        seen += _open_names(page)
        url = _link(page, "next", "open")
    assert seen == newest_first  # every game once, in order, over three pages
    assert _open_names(stranger.get("/lobby?open=3").text) == newest_first[6:]
    previous = _link(stranger.get("/lobby?open=3").text, "prev", "open")
    assert previous == "/lobby?open=2#open"
    assert "No more listed games" in stranger.get("/lobby?open=9").text
    assert _open_names(stranger.get("/lobby?open=x").text) == newest_first[:3]  # page 1


def test_finding3_the_api_lobby_pages_too(paged: Judge) -> None:
    gm = paged.user("gm")
    names = _listed_games(paged, gm, 7)[::-1]
    seen, page = [], 1
    while True:
        r = paged.client.get("/api/lobby", params={"page": page})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["page"] == page and body["page_size"] == SIZE
        assert len(body["games"]) <= SIZE
        seen += [g["name"] for g in body["games"]]
        if body["next_page"] is None:
            break
        assert body["next_page"] == page + 1
        page += 1
    assert seen == names and page == 3
    first = paged.client.get("/api/lobby").json()["games"][0]
    assert first["phase"] == "S1901M" and len(first["free"]) == 7
    invite = first["free"][0]["invite"]
    r = paged.client.post("/api/join", json={"invite": invite})  # what the invitation is for
    assert r.status_code == 200, r.text
    assert paged.client.get("/api/lobby", params={"page": 0}).status_code == 422
    # The gamemaster is not offered their own games.
    assert paged.client.get("/api/lobby", headers=gm.headers).json()["games"] == []


def test_finding3_the_lobby_pages_ones_own_games_and_counts_the_whole_record(
        paged: Judge) -> None:
    gm = paged.user("gm")
    bob = paged.user("bob")
    for n in range(5):
        paged.clock.advance(seconds=1)
        paged.new_game(gm, name=f"Mine {n}", deadlines=UNTIMED)
        r = paged.client.post("/api/join", json={"invite": paged.invite("FRANCE")},
                              headers=bob.headers)
        assert r.status_code == 200, r.text
        if n < 4:
            r = paged.client.post(f"/api/games/{paged.game['id']}/control",
                                  json={"action": "end"}, headers=gm.headers)
            assert r.status_code == 200, r.text
    browser = TestClient(paged.client.app)
    browser.get("/")
    r = browser.post("/login", data={
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"',
                                browser.get("/login").text)[1],  # type: ignore[index]
        "username": "bob", "password": "correct horse battery"})
    page = browser.get("/lobby").text
    finished = page.split('id="finished"')[1].split("</section>")[0]
    assert re.findall(r">(Mine \d)</a>", finished) == ["Mine 3", "Mine 2", "Mine 1"]
    older = _link(page, "next", "finished")
    assert older == "/lobby?finished=2#finished"
    finished = browser.get(older).text.split('id="finished"')[1].split("</section>")[0]
    assert re.findall(r">(Mine \d)</a>", finished) == ["Mine 0"]
    assert "5 games played: 0 won, 4 finished, 1 in progress" in page  # the whole record
