"""Orders are listed in the order of the powers, whatever order the database returns rows in.

PostgreSQL hands rows back in no promised order: after an update a row usually comes back
last. A phase's document (which the export downloads), pages and API answers must not
depend on which power saved or changed its orders last (twin games compared answer for
answer, as the role tests do, would differ).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, text

from calhamer.server.models import PhaseRow
from calhamer.server.services.bids import bid_sets
from calhamer.server.services.orders import order_sets


def test_a_phases_orders_are_listed_by_power_whoever_saved_last(standard_game: Any) -> None:
    judge, gm, france, germany = standard_game
    italy = judge.join("ITALY")
    for player, lines in ((france, ["A Par - Bur"]), (germany, ["A Mun - Ruh"]),
                          (italy, ["A Ven H"])):
        assert judge.orders(player, lines).status_code == 200
    # France changes its orders: its row is written again, after the others.
    assert judge.orders(france, ["A Par - Pic"]).status_code == 200
    gid = judge.game["id"]
    current = judge.client.get(f"/api/games/{gid}/phases/S1901M/document", headers=gm.headers)
    assert current.status_code == 200, current.text
    assert list(current.json()["orders"]) == ["FRANCE", "GERMANY", "ITALY"]
    judge.process_now(gm)
    for answer in (judge.client.get(f"/api/games/{gid}/phases/S1901M/document", headers=h)
                   for h in (gm.headers, france.headers, germany.headers)):
        assert answer.status_code == 200, answer.text
        assert list(answer.json()["orders"]) == ["FRANCE", "GERMANY", "ITALY"]



def test_order_sets_come_in_power_order_whatever_plan_the_database_picks(
        standard_game: Any) -> None:
    """The same, at the query: on PostgreSQL with index scans off (a plan the database may
    pick as a table grows), rows come back in the order they were last written."""
    judge, _gm, france, germany = standard_game
    italy = judge.join("ITALY")
    for player, lines in ((france, ["A Par - Bur"]), (germany, ["A Mun - Ruh"]),
                          (italy, ["A Ven H"]), (france, ["A Par - Pic"])):
        assert judge.orders(player, lines).status_code == 200
    with judge.database.session() as session:
        _plans_without_indexes(session)
        phase = session.scalars(select(PhaseRow).where(PhaseRow.game_id == judge.game["id"],
                                                       PhaseRow.code == "S1901M")).one()
        assert list(order_sets(session, phase)) == ["FRANCE", "GERMANY", "ITALY"]


def test_bid_sets_come_in_power_order_whatever_plan_the_database_picks(judge: Any) -> None:
    gm = judge.user("gm")
    judge.new_game(gm, variant="standard-dp")
    gid = judge.game["id"]
    bidders = [judge.join(power) for power in ("FRANCE", "GERMANY", "ITALY")]
    for player, bid in ((bidders[0], "1 DP: A Bel H"), (bidders[1], "1 DP: A Bel H"),
                        (bidders[2], "1 DP: A Bel H"), (bidders[0], "1 DP: A Hol H")):
        r = judge.client.put(f"/api/games/{gid}/bids", headers=player.headers,
                             json={"phase": "S1901M", "bids": [bid]})
        assert r.status_code == 200, r.text
    with judge.database.session() as session:
        _plans_without_indexes(session)
        phase = session.scalars(select(PhaseRow).where(PhaseRow.game_id == gid,
                                                       PhaseRow.code == "S1901M")).one()
        assert list(bid_sets(session, phase)) == ["FRANCE", "GERMANY", "ITALY"]


def _plans_without_indexes(session: Any) -> None:
    """On PostgreSQL, no index scans for the rest of the transaction: rows come back as the
    table holds them, the last written last."""
    if session.get_bind().dialect.name == "postgresql":
        for kind in ("indexscan", "bitmapscan", "indexonlyscan"):
            session.execute(text(f"SET LOCAL enable_{kind} = off"))
