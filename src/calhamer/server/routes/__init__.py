"""One module per resource, each with an ``api`` router (JSON under /api) and a ``pages``
router (HTML forms)."""

from __future__ import annotations

from calhamer.server.routes import (
    accounts,
    bids,
    games,
    live,
    lobby,
    orders,
    phases,
    pictures,
    press,
    seats,
)

ROUTERS = [
    router
    for module in (accounts, games, seats, orders, bids, phases, pictures, press, live, lobby)
    for router in (module.api, module.pages)
]
