"""``calhamer serve`` and ``calhamer worker``: the web judge, imported only when used.

The web judge's packages are the ``server`` extra (``pip install 'calhamer[server]'``); the
library and the other commands need none of them.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from calhamer.cli.io import (
    OK,
    UserError,
)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from calhamer.server.app import create_app
        from calhamer.server.config import Settings
    except ImportError as exc:
        raise UserError(f"the web judge needs {exc.name}, which is in the server extra: "
                        "pip install 'calhamer[server]'") from None
    overrides: dict[str, Any] = {"embedded_worker": not args.no_worker}
    if args.database:
        overrides["database_url"] = args.database
    settings = Settings.from_env(**overrides)
    if args.workers > 1:
        # Each process makes its own app from the environment (uvicorn's factory); the
        # schema is brought up to date once, here, before they start.
        import os

        os.environ["CALHAMER_DATABASE_URL"] = settings.resolved_database_url()
        os.environ["CALHAMER_EMBEDDED_WORKER"] = "0" if args.no_worker else "1"
        db = settings.open_database()
        db.migrate()
        db.dispose()
        print(f"calhamer: serving on http://{args.host}:{args.port}/ with {args.workers} "
              f"processes (database {_safe_url(settings.resolved_database_url())})",
              file=sys.stderr)
        uvicorn.run("calhamer.server.app:app_from_env", factory=True, workers=args.workers,
                    host=args.host, port=args.port, log_level=args.log_level,
                    proxy_headers=args.proxy_headers)
        return OK
    app = create_app(settings)
    print(f"calhamer: serving on http://{args.host}:{args.port}/ "
          f"(database {_safe_url(settings.resolved_database_url())})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                proxy_headers=args.proxy_headers)
    return OK


def cmd_worker(args: argparse.Namespace) -> int:
    import logging
    import time

    try:
        from calhamer.server.config import Settings
        from calhamer.server.worker import Worker, process_due, sweep_ready, sweep_unplayed
    except ImportError as exc:
        raise UserError(f"the worker needs {exc.name}, which is in the server extra: "
                        "pip install 'calhamer[server]'") from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = Settings.from_env(worker_poll_seconds=args.poll)
    if args.database:
        settings.database_url = args.database
    db = settings.open_database()
    db.migrate()
    if args.once:
        sweep_ready(db)
        for done in process_due(db, settings):
            print(f"adjudicated {done}", flush=True)
        for game_id in sweep_unplayed(db, settings):
            print(f"deleted game {game_id}: nobody played it", flush=True)
        Worker(db, settings).tell()
        return OK
    worker = Worker(db, settings)
    print(f"calhamer: worker polling {_safe_url(db.url)} every {args.poll} s", file=sys.stderr)
    worker.start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        worker.stop()
    return OK


def _processes(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 64:
        raise argparse.ArgumentTypeError("--workers takes a whole number from 1 to 64")
    return n


def _safe_url(url: str) -> str:
    """A database URL without its password, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def add_parsers(sub: Any) -> None:
    """``calhamer serve`` and ``calhamer worker``: the web judge (the server extra)."""
    p = sub.add_parser("serve", help="run the web judge (with one embedded worker)",
                       description="Run the web judge. The database is SQLite in your data "
                       "directory unless CALHAMER_DATABASE_URL (or --database) names another, "
                       "like postgresql://user@host/db. See docs/server.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument("--database", metavar="URL", help="database URL (overrides the environment)")
    p.add_argument("--workers", type=_processes, default=1, metavar="N",
                   help="web processes (1); each runs its own worker unless --no-worker")
    p.add_argument("--no-worker", action="store_true",
                   help="do not adjudicate here; leave it to 'calhamer worker' processes")
    p.add_argument("--proxy-headers", action="store_true",
                   help="trust X-Forwarded-* headers (behind a reverse proxy)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("worker", help="adjudicate due phases of the web judge's games",
                       description="Adjudicate due phases, each exactly once however many "
                       "workers run against one database. See docs/server.md.")
    p.add_argument("--database", metavar="URL", help="database URL (overrides the environment)")
    p.add_argument("--poll", type=float, default=1.0, metavar="SECONDS",
                   help="how often to look for due phases (1)")
    p.add_argument("--once", action="store_true",
                   help="adjudicate what is due now, then stop")
    p.set_defaults(run=cmd_worker)
