"""Alembic environment: migrate the connection ``Database.migrate`` hands over.

To make a new revision during development::

    alembic -x url=sqlite:///dev.db -c /dev/null revision --autogenerate -m "..."

is awkward from a package, so ``python -m calhamer.server.migrations.make "message"`` does it.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from calhamer.server.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the command line: a URL from -x url=...
        url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///calhamer-dev.db")
        with create_engine(url).connect() as conn:
            context.configure(connection=conn, target_metadata=target_metadata,
                              render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    sqlite = connection.dialect.name == "sqlite"
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=sqlite)
    # A batch migration on SQLite copies a table and drops the old one; with foreign keys
    # enforced, dropping ``games`` would delete every row that refers to it (ON DELETE
    # CASCADE). They are switched off around the migrations, outside any transaction (SQLite
    # ignores the pragma inside one), and on again after.
    if sqlite and not connection.in_transaction():
        connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
    try:
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if sqlite and not connection.in_transaction():
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")


run()
