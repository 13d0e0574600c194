"""Pictures of the board (SVG) and the possible orders on the order page.

The picture routes follow the results pages' authority: members only (everyone else gets the
404 of a game that does not exist), a phase's picture only once it is adjudicated (before, the
404 of a phase that never was), and where the variant hides information a player's picture
holds nothing of what they may not know.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from calhamer.server.security import COOKIE, SessionData
from conftest import Judge, Player

SVG = "image/svg+xml"


def browser(judge: Judge, player: Player | None) -> TestClient:
    """A browser logged in as ``player`` (None: nobody)."""
    client = TestClient(judge.client.app, follow_redirects=False)
    if player is not None:
        cookie = judge.client.app.state.signer.cookie(
            SessionData(player.user_id, 0, f"csrf-{player.user_id}"))
        client.cookies.set(COOKIE, cookie)
    return client


def get(judge: Judge, who: Player | None, path: str) -> Any:
    """``path`` as ``who`` asks for it: with the bearer token under /api, else the cookie."""
    if path.startswith("/api"):
        return judge.client.get(path, headers=who.headers if who else {})
    return browser(judge, who).get(path)


def units_in(svg: str) -> set[str]:
    return set(re.findall(r'id="unit-([A-Z]+)', svg))


def orders_in(svg: str) -> set[str]:
    return set(re.findall(r'<g class="o [^"]*" data-unit="([A-Z]+)', svg))


def possible_listing(page: str) -> str:
    """The order page's list of possible orders (up to the end of the orders section)."""
    start = page.index('<details id="possible-orders">')
    return page[start:page.index("</section>", start)]


def picture_paths(gid: str, code: str | None = None) -> list[str]:
    tail = "/picture" if code is None else f"/phases/{code}/picture"
    return [f"/api/games/{gid}{tail}", f"/games/{gid}{tail}"]


# -- the standard game ----------------------------------------------------------------------------


def test_pictures_for_the_gamemaster_and_the_players(standard_game):
    judge, gm, a, b = standard_game
    gid = judge.game["id"]
    judge.orders(a, ["A Par - Bur", "F Bre - Mao"])
    judge.orders(b, ["A Mun - Ruh"])
    for path in picture_paths(gid):
        for who in (gm, a, b):
            r = get(judge, who, path)
            assert r.status_code == 200, (path, who.name, r.text)
            assert r.headers["content-type"].startswith(SVG)
            assert "private" in r.headers["cache-control"]
            assert r.text.startswith("<svg") and "prov-PAR" in r.text
            assert len(units_in(r.text)) == 22
        # The current picture draws the orders the viewer may read: a player's own only.
        assert orders_in(get(judge, a, path).text) == {"PAR", "BRE"}
        assert orders_in(get(judge, b, path).text) == {"MUN"}
        assert orders_in(get(judge, gm, path).text) == {"PAR", "BRE", "MUN"}
    judge.process_now(gm)
    for path in picture_paths(gid, "S1901M"):
        pictures = {who.name: get(judge, who, path) for who in (gm, a, b)}
        for r in pictures.values():
            assert r.status_code == 200 and r.headers["content-type"].startswith(SVG)
            assert orders_in(r.text) == {"PAR", "BRE", "MUN"}  # results are public
            assert 'data-result="succeeds"' in r.text
        assert pictures["gm"].text == pictures["France"].text == pictures["Germany"].text
    # The next phase's current picture starts with no orders drawn.
    assert orders_in(get(judge, a, f"/api/games/{gid}/picture").text) == set()


def test_outsiders_and_hidden_phases_get_the_404_of_nothing(standard_game):
    judge, gm, a, _b = standard_game
    gid = judge.game["id"]
    outsider = judge.user("outsider")
    judge.orders(a, ["A Par - Bur"])
    judge.process_now(gm)  # S1901M adjudicated; F1901M is being played
    for real in (*picture_paths(gid), *picture_paths(gid, "S1901M")):
        fake = real.replace(gid, "nosuchgame00")
        for who in (outsider, None):
            mine, none = get(judge, who, real), get(judge, who, fake)
            expected = 401 if who is None and real.startswith("/api") else 404
            assert mine.status_code == none.status_code == expected, (real, who)
            assert mine.headers["content-type"] == none.headers["content-type"]
            assert mine.text == none.text
    for who in (gm, a):
        for prefix in (f"/api/games/{gid}", f"/games/{gid}"):
            answers = [get(judge, who, f"{prefix}/phases/{code}/picture")
                       for code in ("F1901M", "S1999M", "not-a-phase")]
            assert {r.status_code for r in answers} == {404}
            assert len({r.text for r in answers}) == 1
            results_page = get(judge, who, f"{prefix}/phases/F1901M")
            assert results_page.status_code == 404 and results_page.text == answers[0].text


def test_the_pages_show_the_pictures(standard_game):
    judge, gm, a, _b = standard_game
    gid = judge.game["id"]
    for who in (gm, a):
        page = get(judge, who, f"/games/{gid}").text
        assert f'<img src="/games/{gid}/picture"' in page
    judge.process_now(gm)
    for who in (gm, a):
        page = get(judge, who, f"/games/{gid}/phases/S1901M").text
        assert f'<img src="/games/{gid}/phases/S1901M/picture"' in page


def test_the_order_page_lists_the_possible_orders(standard_game):
    judge, gm, a, _b = standard_game
    gid = judge.game["id"]
    page = get(judge, a, f"/games/{gid}").text
    listing = possible_listing(page)
    units = re.findall(r"<summary>(.*?) \((\d+)\)</summary>", listing)
    assert units == [("F BRE", "9"), ("A MAR", "10"), ("A PAR", "11")]
    for order in ("A PAR H", "A PAR - BUR", "A PAR S A MAR - BUR", "F BRE - MAO",
                  "A MAR S A MUN - BUR"):
        assert f"<li>{order}</li>" in listing
    # The gamemaster (who plays no power) gets no list.
    assert 'id="possible-orders"' not in get(judge, gm, f"/games/{gid}").text
    # In winter: builds, each with a waive.
    judge.orders(a, ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"])
    judge.process_now(gm)
    judge.orders(a, ["A Spa - Por", "A Bur - Bel"], phase="F1901M")
    judge.process_now(gm)
    assert judge.client.get(f"/api/games/{gid}", headers=a.headers).json()["game"]["phase"] \
        == "W1901A"
    page = get(judge, a, f"/games/{gid}").text
    assert "Build in Paris (PAR)" in page and "<li>BUILD A PAR</li>" in page
    assert "<li>BUILD F MAR</li>" in page and "<li>WAIVE</li>" in page


# -- hidden information ---------------------------------------------------------------------------


def test_a_kriegsplomacy_player_sees_no_hidden_unit(judge):
    gm = judge.user("gm")
    judge.new_game(gm, variant="kriegsplomacy")
    gid = judge.game["id"]
    france, germany = judge.join("FRANCE"), judge.join("GERMANY")
    builds = [(france, ["Build A Par", "Build A Mar", "Build F Bre"]),
              (germany, ["Build A Mun", "Build A Ber", "Build F Kie"])]
    for player, lines in builds:
        assert judge.orders(player, lines, phase="W1900A").status_code == 200
    # Before adjudication: nothing to see of anyone's builds but one's own (as orders).
    for path in picture_paths(gid):
        assert orders_in(get(judge, france, path).text) <= {"PAR", "MAR", "BRE"}
    judge.process_now(gm)
    mine = {"PAR", "MAR", "BRE"}
    theirs = {"MUN", "BER", "KIE"}
    for path in (*picture_paths(gid), *picture_paths(gid, "W1900A")):
        truth = get(judge, gm, path)
        seen = get(judge, france, path)
        assert truth.status_code == seen.status_code == 200
        if "/phases/" not in path:
            assert units_in(truth.text) == mine | theirs
            assert units_in(seen.text) == mine
        for code in theirs:  # nothing of a German unit: no unit, order or title
            for mark in (f'id="unit-{code}', f'id="dislodged-{code}', f'data-unit="{code}"',
                         f"A {code}", f"F {code}"):
                assert mark not in seen.text, (path, mark)
        assert "Germany:" not in seen.text
    judge.orders(france, ["A Par - Bur", "A Mar - Pie", "F Bre - Mao"], phase="S1901M")
    judge.orders(germany, ["A Mun - Ruh", "F Kie - Hol", "A Ber - Sil"], phase="S1901M")
    for path in picture_paths(gid):
        assert orders_in(get(judge, france, path).text) == mine
        assert orders_in(get(judge, gm, path).text) == mine | theirs
    judge.process_now(gm)
    for path in picture_paths(gid, "S1901M"):
        truth = get(judge, gm, path).text
        seen = get(judge, france, path).text
        assert orders_in(truth) == mine | theirs and orders_in(seen) == mine
        assert theirs <= units_in(truth)
        for code in ("MUN", "KIE", "BER", "RUH", "HOL", "SIL"):
            assert f"A {code}" not in seen and f"F {code}" not in seen
            assert f'data-unit="{code}"' not in seen and f'id="unit-{code}"' not in seen
    # The current picture of the next phase: France's units where they went, nobody else's.
    seen = get(judge, france, f"/api/games/{gid}/picture").text
    assert units_in(seen) == {"BUR", "PIE", "MAO"}
    assert units_in(get(judge, gm, f"/api/games/{gid}/picture").text) == {
        "BUR", "PIE", "MAO", "RUH", "HOL", "SIL"}
    # The order page lists France's units only (in the movement phase after the retreats).
    judge.process_now(gm)
    listing = possible_listing(get(judge, france, f"/games/{gid}").text)
    assert re.findall(r"<summary>(.*?) \(\d+\)</summary>", listing) == [
        "A BUR", "F MAO", "A PIE"]
    for code in ("RUH", "HOL", "SIL"):
        assert f"A {code}" not in listing and f"F {code}" not in listing
