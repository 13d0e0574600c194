"""Kriegsplomacy on the web judge: every player's pictures, board and reports give the centre
totals the rules let that player know (all of them after each winter's chart, only their own
in a winter before it), never a 0 for a total they are not told, and no heading over nothing.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from typing import Any

from fastapi.testclient import TestClient

from calhamer.server.security import COOKIE, SessionData
from conftest import Judge, Player

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
NAMES = {p: p.title() for p in POWERS}
SVG = "{http://www.w3.org/2000/svg}"
BUILDS = {
    "AUSTRIA": ["Build A Vie", "Build A Tri", "Build A Bud"],
    "ENGLAND": ["Build F Lon", "Build F Edi", "Build A Lvp"],
    "FRANCE": ["Build A Par", "Build A Mar", "Build F Bre"],
    "GERMANY": ["Build A Mun", "Build A Ber", "Build F Kie"],
    "ITALY": ["Build A Ven", "Build A Rom", "Build F Nap"],
    "RUSSIA": ["Build A War", "Build A Mos", "Build F Sev", "Build F StP/SC"],
    "TURKEY": ["Build A Con", "Build A Smy", "Build F Ank"],
}
# The totals after the winter of 1900 (home centres), as a legend writes them.
HOME = {"Austria": "3", "England": "3", "France": "3", "Germany": "3", "Italy": "3",
        "Russia": "4", "Turkey": "3"}


def browser(judge: Judge, player: Player) -> TestClient:
    client = TestClient(judge.client.app, follow_redirects=False)
    cookie = judge.client.app.state.signer.cookie(
        SessionData(player.user_id, 0, f"csrf-{player.user_id}"))
    client.cookies.set(COOKIE, cookie)
    return client


def get(judge: Judge, who: Player, path: str) -> Any:
    if path.startswith("/api"):
        return judge.client.get(path, headers=who.headers)
    return browser(judge, who).get(path)


def picture_paths(gid: str, code: str | None = None) -> list[str]:
    tail = "/picture" if code is None else f"/phases/{code}/picture"
    return [f"/api/games/{gid}{tail}", f"/games/{gid}{tail}"]


def legend(svg: str) -> dict[str, str]:
    """The legend's entry for each power: ``{"Austria": "3", "England": "?"}``."""
    box = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == "legend")
    found = (re.fullmatch(r"(\w+) (\S+)", t.text or "") for t in box.iter(f"{SVG}text"))
    return {m[1]: m[2] for m in found if m and m[1] in HOME}


def board(page: str) -> dict[str, str]:
    """The totals the game page's board report states."""
    text = html.unescape(re.search(r"<pre>(.*?)</pre>", page, re.DOTALL)[1])  # type: ignore[index]
    found = re.findall(r"^    (\w+) +(\S+) centres", text, re.MULTILINE)
    return {name: total for name, total in found if name in HOME}


def empty_headings(text: str) -> list[str]:
    """Lines ending in ``:`` with no indented line under them."""
    lines = text.rstrip("\n").split("\n")
    return [line for i, line in enumerate(lines) if line.endswith(":")
            and not (i + 1 < len(lines) and lines[i + 1].startswith("    "))]


def test_every_players_pictures_and_board_give_the_totals_the_rules_allow(judge: Judge) -> None:
    gm = judge.user("gm")
    judge.new_game(gm, variant="kriegsplomacy")
    gid = judge.game["id"]
    players = {p: judge.join(p) for p in POWERS}
    for power, lines in BUILDS.items():
        assert judge.orders(players[power], lines, phase="W1900A").status_code == 200
    judge.process_now(gm)
    # Spring 1901, after the winter's chart: every player knows every total (the issue: each
    # player's picture said every other power had 0).
    for power, player in players.items():
        for path in (*picture_paths(gid), *picture_paths(gid, "W1900A")):
            assert legend(get(judge, player, path).text) == HOME, (power, path)
        assert board(get(judge, player, f"/games/{gid}").text) == HOME, power
    # Germany takes Holland; nobody is told until the chart after the winter.
    judge.orders(players["GERMANY"], ["F Kie - Hol"], phase="S1901M")
    judge.process_now(gm)  # S1901M
    judge.process_now(gm)  # S1901R
    judge.process_now(gm)  # F1901M (F Hol holds)
    judge.process_now(gm)  # F1901R
    truth = {**HOME, "Germany": "4"}
    assert legend(get(judge, gm, f"/api/games/{gid}/picture").text) == truth
    for power, player in players.items():
        own = NAMES[power]
        winter = {name: (truth[name] if name == own else "?") for name in HOME}
        for path in picture_paths(gid):
            assert legend(get(judge, player, path).text) == winter, (power, path)
        assert board(get(judge, player, f"/games/{gid}").text) == winter, power
        # Each stored phase picture of the year: the totals of the last winter, still true
        # until this one (ownership changes only as the winter begins).
        for code in ("S1901M", "S1901R", "F1901M", "F1901R"):
            for path in picture_paths(gid, code):
                assert legend(get(judge, player, path).text) == HOME, (power, path)
    # After the winter everyone is told the new totals.
    judge.process_now(gm)  # W1901A
    for power, player in players.items():
        for path in (*picture_paths(gid), *picture_paths(gid, "W1901A")):
            assert legend(get(judge, player, path).text) == truth, (power, path)
        assert board(get(judge, player, f"/games/{gid}").text) == truth, power


def test_no_report_on_the_web_has_an_empty_heading(judge: Judge) -> None:
    """The gamemaster's report of a movement phase said "Retreats due:" over nothing."""
    gm = judge.user("gm")
    judge.new_game(gm, variant="kriegsplomacy")
    gid = judge.game["id"]
    france = judge.join("FRANCE")
    judge.orders(france, BUILDS["FRANCE"], phase="W1900A")
    judge.process_now(gm)
    judge.process_now(gm)  # S1901M: nothing is dislodged
    for who in (gm, france):
        report = get(judge, who, f"/api/games/{gid}/phases/S1901M").json()["report"]
        assert "Retreats due:" not in report
        assert empty_headings(report) == [], report
        page = html.unescape(get(judge, who, f"/games/{gid}").text)
        assert "Retreats due:" not in page


def test_superdiplomacy_under_fog_on_the_web_tells_each_player_only_its_own(
    judge: Judge,
) -> None:
    """The composed preset superdiplomacy-fog: a player's report of a movement phase holds
    its own stacks' lines (with their numbers) and its battles, never another power's."""
    gm = judge.user("gm")
    judge.new_game(gm, variant="superdiplomacy-fog")
    gid = judge.game["id"]
    players = {p: judge.join(p) for p in ("FRANCE", "GERMANY")}
    judge.orders(players["FRANCE"], ["2A Par - Bur", "2F Bre E"], phase="S1901M")
    judge.orders(players["GERMANY"], ["2A Ber - Pru"], phase="S1901M")
    judge.process_now(gm)
    reports = {p: get(judge, player, f"/api/games/{gid}/phases/S1901M").json()["report"]
               for p, player in players.items()}
    assert "2A Par-Bur*" in reports["FRANCE"] and "Ber" not in reports["FRANCE"]
    assert "2A Ber-Pru*" in reports["GERMANY"] and "Par" not in reports["GERMANY"]
    for power, report in reports.items():
        assert empty_headings(report) == [], (power, report)
    gm_report = get(judge, gm, f"/api/games/{gid}/phases/S1901M").json()["report"]
    assert "2A BER - PRU" in gm_report.upper() and "2A PAR - BUR" in gm_report.upper()
    for path in picture_paths(gid, "S1901M"):
        assert get(judge, players["FRANCE"], path).status_code == 200
