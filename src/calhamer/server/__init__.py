"""The web judge: a FastAPI app, its database, and the workers that adjudicate due phases.

Nothing in :mod:`calhamer` imports this package, so the library works without the server's
dependencies loaded. ``create_app`` builds the app (``app.py``); ``calhamer serve`` and
``calhamer worker`` run it (``docs/server.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

    from calhamer.server.config import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web judge as an ASGI app (``uvicorn 'calhamer.server:create_app' --factory``)."""
    from calhamer.server.app import create_app as build

    return build(settings)
