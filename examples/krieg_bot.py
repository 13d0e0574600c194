"""A Kriegsplomacy bot that plays from its own view only.

In Kriegsplomacy each power sees its own units and centres, what its spies report and what its
units bump into; nothing else. A bot is given exactly that (``calhamer.BotView``):

- ``view.position``: the board as the power knows it (only its own units; the centre totals
  it has been told, in ``calhamer.views.centre_totals(view.position)``);
- ``view.last``: its view of the phase just played (its results, and ``notes``: espionage
  reports and the like), when there is one;
- ``options``: the orders it may give, by location (espionage ``E`` and counter-espionage
  ``CE`` included), never naming a unit it cannot see.

This bot moves towards supply centres it does not own, sends one unit a turn to spy, and
builds or removes what is due. Run it: ``python examples/krieg_bot.py [LAST-YEAR]``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Mapping

from calhamer import BotView, Build, Disband, Game, Move, Order
from calhamer.variants.kriegsplomacy.spying import Espionage  # Kriegsplomacy's own order
from calhamer.views import centre_totals


def krieg_policy(view: BotView, options: Mapping[str, list[Order]]) -> list[Order]:
    """Orders for one power, chosen from its own view only."""
    rng = view.rng
    position = view.position  # only what this power knows
    m = position.map
    if view.orders_due:  # winter: build (or remove) what is due, in random places
        kind = Build if view.orders_due > 0 else Disband
        places = [loc for loc, orders in options.items() if isinstance(orders[0], kind)]
        chosen = rng.sample(places, min(abs(view.orders_due), len(places)))
        return [options[loc][0] for loc in chosen]
    mine = set(position.centers_of(view.power))
    spy = rng.choice(list(options)) if options else None
    orders = []
    for loc, choices in options.items():
        if loc == spy:
            spying = [o for o in choices if isinstance(o, Espionage)]
            if spying:
                orders.append(spying[0])
                continue
        # Moves into a supply centre this power does not own (that it knows of) first.
        wanted = [o for o in choices if isinstance(o, Move)
                  and m.provinces[m.province_of(o.dest)].is_supply_center
                  and m.province_of(o.dest) not in mine]
        orders.append(rng.choice(wanted or choices))
    return orders


def play(last_year: int = 1903, seed: int = 1) -> Game:
    """A Kriegsplomacy game with every power played by :func:`krieg_policy`."""
    game = Game.new("kriegsplomacy", max_year=last_year)
    while not game.is_done():
        for power in game.powers():
            view = game.bot_view(power)
            view.rng = random.Random(f"{seed}:{game.phase}:{power}")
            game.set_orders(power, krieg_policy(view, game.possible_orders(power)),
                            check=False)
        game.process()
    return game


def main() -> None:
    game = play(int(sys.argv[1]) if len(sys.argv) > 1 else 1903)
    end = game.result()
    print(f"{len(game.phases)} phases; {end.reason if end else 'still going'}")
    france = game.bot_view("FRANCE")
    print("What France knows of the centre totals:", centre_totals(france.position))
    print("The truth:", dict(Counter(game.current.centers.values())))


if __name__ == "__main__":
    main()
