"""A long game's pages and views read the phases they show, not the whole game: the game
view (``GET /api/games/ID``) and the game page name the phase before the current one, and
read that phase alone, however many the game has had (a game played to 1950 has some two
hundred; reading them all made every request of a long game slower than the one before).

Counted as phase rows the database hands the server while one request is answered."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from test_pages import join

from calhamer.server.models import PhaseRow
from conftest import Judge


@contextmanager
def phases_read() -> Iterator[list[str]]:
    """The codes of the phase rows loaded from the database inside the block."""
    loaded: list[str] = []

    def on_load(target: PhaseRow, _context: object) -> None:
        loaded.append(target.code)

    event.listen(PhaseRow, "load", on_load)
    try:
        yield loaded
    finally:
        event.remove(PhaseRow, "load", on_load)


def _long_game(judge: Judge) -> tuple[str, object]:
    """A standard game in which nobody orders, twelve phases in (S1901M to F1906M)."""
    gm = judge.user("gm")
    game = judge.new_game(gm)
    for _ in range(11):
        judge.clock.advance(days=2)
        assert judge.process()
    return game["id"], gm


def test_the_game_view_reads_only_the_current_and_the_last_phase(judge: Judge) -> None:
    gid, gm = _long_game(judge)
    with phases_read() as loaded:
        r = judge.client.get(f"/api/games/{gid}", headers=gm.headers)  # type: ignore[attr-defined]
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["game"]["phase"] == "F1906M" and view["last_phase"] == "S1906M"
    assert sorted(loaded) == ["F1906M", "S1906M"]


def test_the_game_page_reads_only_the_phases_it_shows(judge: Judge, app) -> None:  # type: ignore[no-untyped-def]
    gid, _ = _long_game(judge)
    france, _ = join(app, f"/join/{judge.invite('FRANCE')}", "France")
    with phases_read() as loaded:
        page = france.get(f"/games/{gid}")
    assert "S1906M" in page.text  # the last phase's results are shown
    assert set(loaded) <= {"F1906M", "S1906M"}, loaded
