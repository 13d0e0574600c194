"""The web judge and the rules vocabulary (issue 30, item 1): a variant with garrisons and no
DP speaks of no Diplomacy Points on its pages and in its API, seats only the powers played,
and names its phases by its board's calendar."""

from __future__ import annotations

from pathlib import Path

from test_pages import gm_creates_a_game, join

from calhamer.server.models import GameRow
from calhamer.server.services.common import phase_name

GARRISONED = "standard+garrisons?garrison_unowned=true"
HUNDRED = Path(__file__).resolve().parents[1] / "data" / "vocabulary" / "hundred.toml"


def _says_no_dp(text: str) -> None:
    assert "Diplomacy Point" not in text and " DP" not in text
    assert "allotment" not in text and 'id="bids"' not in text


def test_a_garrisons_game_speaks_of_no_diplomacy_points(app, judge) -> None:  # type: ignore[no-untyped-def]
    gm, game_url, links = gm_creates_a_game(app, variant=GARRISONED)
    assert "NEUTRAL" not in links  # no seat for the garrisons
    _says_no_dp(gm.get(game_url).text)
    france, page = join(app, links["FRANCE"], "Bob")
    _says_no_dp(page.text)
    france.post(f"{game_url}/orders", {"phase": "S1901M", "action": "save",
                                       "orders": "A Par - Bur"})
    gm.post(f"{game_url}/control", {"action": "process", "phase": "S1901M"})
    assert judge.process()
    for who in (gm, france):
        _says_no_dp(who.get(game_url).text)
        _says_no_dp(who.get(f"{game_url}/phases/S1901M").text)
    # The API says as little.
    api_gm = judge.user("api-gm")
    game = judge.new_game(api_gm, variant=GARRISONED)
    _says_no_dp(judge.client.get(f"/api/games/{game['id']}", headers=api_gm.headers).text)


def test_france_vs_austria_seats_only_the_powers_played(judge) -> None:  # type: ignore[no-untyped-def]
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="standard+standard?powers=austria,france")
    assert sorted(s["power"] for s in game["seats"]) == ["AUSTRIA", "FRANCE"]


def test_powers_nobody_plays_get_no_seat(judge) -> None:  # type: ignore[no-untyped-def]
    gm = judge.user("gm")
    game = judge.new_game(gm, variant="standard+standard?unplayed=italy")
    assert "ITALY" not in {s["power"] for s in game["seats"]}
    assert len(game["seats"]) == 6


def test_pages_name_phases_by_the_boards_calendar() -> None:
    game = GameRow(variant=f"{HUNDRED}+standard")
    assert phase_name(game, "Y1425M") == "Year 1425 Movement"
    assert phase_name(game, "W1430A") == "Winter 1430 Adjustments"
    assert phase_name(GameRow(variant="standard"), "S1901M") == "Spring 1901 Movement"
    assert phase_name(game, "nonsense") == "nonsense"
