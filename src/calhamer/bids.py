"""Secret bids for orders: :class:`BidRule`, carried as ``Variant.bids`` (None: no bids).

In the DP variants players spend Diplomacy Points on orders for units no player commands.
A game (the library's :class:`~calhamer.game.Game`, the command line, the web judge) takes
bids only when the variant has a bid rule, and checks each power's bids with it when they
are given; the bids stored for a phase are read back by the variant's own ``unit_orders``.
This module imports nothing at run time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calhamer.map import Location
    from calhamer.orders import AnyOrder
    from calhamer.position import Position
    from calhamer.rules import Rules

Bids = Sequence[Mapping[str, object] | str]
"""One power's bids: ``{"order": "A Bel - Pic", "dp": 2}`` objects, ``2 DP: A Bel - Pic`` lines."""


class BidRule:
    """How a variant takes secret bids. A variant with bids supplies a subclass (the DP
    variants); the standard game has none (``Variant.bids`` is None)."""

    def check(self, position: Position, power: str, bids: Bids) -> list[str]:
        """Problems with ``power``'s ``bids`` for the phase of ``position``, in words a player
        understands; empty when they may be stored."""
        raise NotImplementedError

    def options(
        self, position: Position, power: str, rules: Rules
    ) -> tuple[int, dict[Location, list[AnyOrder]]]:
        """What ``power`` may bid for in the phase of ``position``: what it may spend, and the
        orders it may buy for each unit, by the unit's location (what a bot chooses from).
        ``(0, {})`` by default: nothing to bid for."""
        return 0, {}
