"""The migrations make exactly the schema the models describe, and run again harmlessly."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from calhamer.server.db import Database
from calhamer.server.models import Base

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from conftest import Judge


@contextlib.contextmanager
def sqlite_judge(tmp_path: Path) -> Iterator[tuple[Database, Judge]]:
    """A web judge on a migrated SQLite file of its own (the migrations under test copy
    tables there), its database left open after the app stops."""
    from fastapi.testclient import TestClient

    from calhamer.server.app import create_app
    from conftest import Clock, Judge, make_settings

    url = f"sqlite:///{tmp_path / 'judge.db'}"
    db = Database(url, sqlite_synchronous="NORMAL")
    db.migrate()
    settings = make_settings(url, Clock())
    with TestClient(create_app(settings, db=db)) as client:
        yield db, Judge(client, db, settings, settings.clock)  # type: ignore[arg-type]


@contextlib.contextmanager
def downgraded(db: Database, revision: str) -> Iterator[Connection]:
    """``db`` migrated down to ``revision`` and committed; the connection, to read the old
    schema through."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "calhamer.server:migrations")
    with db.engine.execution_options(calhamer_write=True).connect() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()
        yield connection


def test_the_migrated_schema_matches_the_models(database):
    with database.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, Base.metadata) == []
        assert context.get_current_revision() == "0007"


def test_migrating_again_changes_nothing(database):
    database.migrate()
    database.migrate()
    with database.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0007"


def test_0002_moves_bids_out_of_orders_and_stores_the_views(tmp_path):
    """Down to 0001 (bids back in ``orders`` under "<POWER>:bids", no stored views) and up
    again: the bids move to ``bids`` and every Kriegsplomacy view is made from the record."""
    from sqlalchemy import select

    from calhamer.server.models import BidSet, OrderSet, PowerViewRow

    with sqlite_judge(tmp_path) as (db, judge):
        gm = judge.user("gm")
        judge.new_game(gm, variant="standard-dp")
        france = judge.join("FRANCE")
        bids = ["1 DP: A Bel H", {"order": "A Hol H", "dp": 1}]
        r = judge.client.put(f"/api/games/{judge.game['id']}/bids", headers=france.headers,
                             json={"phase": "S1901M", "bids": bids})
        assert r.status_code == 200, r.text
        judge.new_game(gm, variant="kriegsplomacy")
        judge.join("FRANCE")
        judge.process_now(gm)

    def snapshot() -> tuple[list[tuple[str, str, list[object]]], dict[tuple[str, str], object]]:
        with db.session() as session:
            stored_bids = [(b.phase, b.power, b.bids) for b in session.scalars(select(BidSet))]
            views = {(v.phase, v.power): v.view for v in session.scalars(select(PowerViewRow))}
        return stored_bids, views

    stored_bids, views = snapshot()
    assert stored_bids == [("S1901M", "FRANCE", bids)]
    assert {power for _phase, power in views} == {
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"}

    with downgraded(db, "0001") as connection:
        rows = connection.execute(select(OrderSet.power, OrderSet.lines)).all()
    assert ("FRANCE:bids", bids) in [tuple(r) for r in rows]

    db.migrate()
    assert snapshot() == (stored_bids, views)
    with db.session() as session:
        assert [o.power for o in session.scalars(select(OrderSet))
                if o.power.endswith(":bids")] == []
    db.dispose()


def test_migrating_keeps_every_row_and_leaves_foreign_keys_on(tmp_path):
    """0005 copies ``games`` on SQLite (a wider ``variant``): with foreign keys on, dropping
    the old table would delete every row that refers to a game. Down to 0004 and up again, a
    game's orders stay, and the connections keep enforcing foreign keys."""
    from sqlalchemy import func, select

    from calhamer.server.models import OrderSet

    with sqlite_judge(tmp_path) as (db, judge):
        gm = judge.user("gm")
        judge.new_game(gm, variant="kriegsplomacy+fog+colours+flexible-builds")
        france = judge.join("FRANCE")
        r = judge.client.put(f"/api/games/{judge.game['id']}/orders", headers=france.headers,
                             json={"phase": judge.game["phase"], "orders": []})
        assert r.status_code == 200, r.text

    def orders() -> int:
        with db.session() as session:
            return session.scalar(select(func.count()).select_from(OrderSet)) or 0

    before = orders()
    assert before > 0
    with downgraded(db, "0004") as connection:  # 0005 copies games on the way down too
        assert connection.execute(select(func.count()).select_from(OrderSet)).scalar() == before
    db.migrate()
    assert orders() == before
    for _ in range(3):
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    db.dispose()


def test_0006_upgrades_from_0005_and_logs_nobody_out(database, judge):
    """Down to 0005 (no session rows) and up again, on SQLite and PostgreSQL: the games stay,
    and a token signed before the upgrade keeps working, getting its row when first used."""
    from sqlalchemy import inspect

    gm = judge.user("gm")
    judge.new_game(gm)
    with downgraded(database, "0005") as connection:
        assert "login_sessions" not in inspect(connection).get_table_names()
        assert "ix_games_created" not in {i["name"] for i in
                                          inspect(connection).get_indexes("games")}
    database.migrate()
    with database.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0007"
    r = judge.client.get("/api/sessions", headers=gm.headers)
    assert r.status_code == 200, r.text
    assert [(s["kind"], s["current"]) for s in r.json()] == [("api", True)]
    assert judge.client.get(f"/api/games/{judge.game['id']}", headers=gm.headers).status_code \
        == 200
