"""One module per resource, each with an ``api`` router (JSON under /api) and a ``pages``
router (HTML forms)."""

from __future__ import annotations

from calhamer.server.routes import (
    accounts,
    bids,
    boards,
    games,
    live,
    lobby,
    notices,
    orders,
    phases,
    pictures,
    press,
    proposals,
    seats,
)

_MODULES = (accounts, games, seats, orders, bids, phases, pictures, press, live, lobby,
            boards, proposals, notices)

# The documentation's order of the API's sections (the ``tags`` of the api routers).
TAGS = [str(tag) for module in _MODULES for tag in module.api.tags]

# A request is matched against the routers in turn, each router's routes one by one: the
# busiest route (saving orders) is looked for first. No two routers share a path, so the order
# changes nothing else (the documentation keeps its sections' order, ``TAGS``).
ROUTERS = [orders.api] + [
    router
    for module in _MODULES
    for router in (module.api, module.pages)
    if router is not orders.api
]
