"""Make a new migration by comparing the models with a database migrated to head.

    python -m calhamer.server.migrations.make "add a column"
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from alembic import command
from alembic.config import Config

from calhamer.server.db import Database


def main(message: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'make.db'}")
        db.migrate()
        config = Config()
        config.set_main_option("script_location", "calhamer.server:migrations")
        with db.engine.connect() as connection:
            config.attributes["connection"] = connection
            command.revision(config, message=message, autogenerate=True)
        db.dispose()


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "change")
