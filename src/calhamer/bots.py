"""What a bot is given, and the simplest bot there is.

A bot (a *policy*) is a callable ``policy(view, options)`` returning the orders of one power
for the phase being played: ``view`` is a :class:`BotView`, what that power may know now, and
``options`` its possible orders by location (:meth:`calhamer.Game.possible_orders`: ``Order``
values; text works as well in what it returns). ``view.rng`` is the bot's random generator,
seeded by the game so that a simulation gives the same games for the same seed however many
processes or machines play them (:mod:`calhamer.simulate`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from calhamer.orders import AnyOrder, Build, Disband, Waive
from calhamer.pieces import Phase
from calhamer.position import Position
from calhamer.views import PowerView

__all__ = ["BotView", "Policy", "random_policy"]


@dataclass
class BotView:
    """What ``power`` may know when it orders: nothing a human player of it would not.

    ``position`` is the board as the power knows it (in Kriegsplomacy its own units and
    centres and what it has seen); ``last`` its view of the phase just played (results it may
    read, notes such as espionage reports), when the game has it; ``orders_due`` the builds
    (positive) or removals (negative) due in winter.
    """

    power: str
    phase: Phase
    position: Position
    last: PowerView | None
    orders_due: int
    rules: str
    rng: random.Random = field(default_factory=random.Random)


Policy = Callable[[BotView, Mapping[str, list[AnyOrder]]], Iterable[AnyOrder | str]]


def random_policy(view: BotView, options: Mapping[str, list[AnyOrder]]) -> list[AnyOrder]:
    """A uniformly random legal order for each unit; in winter, as many random builds (or
    removals) as are due, each in its own place."""
    rng = view.rng
    if view.phase.is_adjustment:
        due = abs(view.orders_due)
        kind = Build if view.orders_due > 0 else Disband
        places = [loc for loc, orders in options.items()
                  if any(isinstance(o, kind) for o in orders)]
        chosen = rng.sample(places, min(due, len(places)))
        picks: list[AnyOrder] = []
        for loc in chosen:
            picks.append(rng.choice([o for o in options[loc]
                                     if isinstance(o, kind) and not isinstance(o, Waive)]))
        return picks
    return [rng.choice(orders) for orders in options.values() if orders]
