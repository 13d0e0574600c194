"""The migrations make exactly the schema the models describe, and run again harmlessly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from calhamer.server.models import Base


def test_the_migrated_schema_matches_the_models(database):
    with database.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert compare_metadata(context, Base.metadata) == []
        assert context.get_current_revision() == "0001"


def test_migrating_again_changes_nothing(database):
    database.migrate()
    database.migrate()
    with database.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == "0001"
