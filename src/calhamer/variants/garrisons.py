"""Neutral garrisons without Diplomacy Points: units no player commands that only hold.

The rule of many boards (Western World 901, Unconstitutional, Sengoku, Europe 1939): "Neutral
SCs get an army which always holds and disbands when dislodged. This will be rebuilt if the
SC is unowned during adjustment" (Unconstitutional's published rules). As a rule module
(``docs/variants.md``, "Neutral garrisons"):

- the garrisons are the units of the map's minor powers marked ``garrison = true``
  (``[minor_powers.X]``, ``docs/maps.md``), and, with the option ``garrison_unowned``, of a
  minor power ``NEUTRAL`` ("Neutral") that this module adds to the board, owning every centre
  no power owns at the start, with an army in each (:mod:`calhamer.derived_maps`);
- a garrison only holds: an order given for it is replaced by a hold (it may be supported to
  hold, as any unit);
- dislodged, it is removed at once (no retreat);
- each winter, a garrison whose minor power ``rebuild``\\s (the default) is rebuilt as an army
  in every empty home centre that minor power still owns.

Its minor powers, and what the DP module's neutrals share with them (removal when dislodged,
the winter's rebuilds), are read in :mod:`calhamer.variants.minors`. A variant with
garrisons and no DP speaks of no Diplomacy Points: it takes no bids, and the standard
reports name the garrisons as minor powers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import ClassVar

from calhamer.derived_maps import NEUTRAL, derived_map
from calhamer.map import Map
from calhamer.orders import AnyOrder, Hold, Order
from calhamer.position import Position, Unit
from calhamer.rules import Rules
from calhamer.variant import RuleModule
from calhamer.variants.minors import garrison_rebuilds, is_garrison

__all__ = ["NEUTRAL", "Garrisons"]


class Garrisons(RuleModule):
    """Neutral garrisons that hold, are removed when dislodged and (by minor power) are
    rebuilt each winter; no Diplomacy Points.

    Option: ``garrison_unowned``, which garrisons every centre no power owns at the start
    with an army of a minor power ``NEUTRAL``.
    """

    module_name = "garrisons"
    module_title = "Neutral garrisons that only hold"
    options = MappingProxyType({
        "garrison_unowned": "garrison every centre no power owns at the start with an army "
                            "of a minor power NEUTRAL (\"Neutral\") that rebuilds",
    })
    refuses = MappingProxyType({
        "stacks": "Superdiplomacy's Small Powers are its own neutral units, armed when "
                  "attacked, and its winters are its own",
    })

    garrison_unowned: ClassVar[bool] = False

    @classmethod
    def board_problem(cls, m: Map) -> str | None:
        if not cls.garrison_unowned and not any(p.garrison for p in m.minor_powers):
            return (f"the board {m.name!r} has no garrison ([minor_powers.X] garrison = "
                    "true): set the option garrison_unowned = true to garrison the centres "
                    "no power owns")
        return super().board_problem(m)

    def make_board(self, m: Map) -> Map:
        """The board as the other options make it, with the centres no power owns garrisoned
        when ``garrison_unowned`` is set."""
        m = super().make_board(m)
        return derived_map(m, ("garrison-unowned",)) if self.garrison_unowned else m

    def unit_orders(
        self, position: Position, given: Mapping[int, Order], rules: Rules
    ) -> Mapping[str, Sequence[AnyOrder | str]]:
        """A garrison given any order but a hold holds instead (movement); each garrison that
        rebuilds builds its armies (winter)."""
        found = dict(super().unit_orders(position, given, rules))
        m = position.map
        if position.phase.is_movement:
            for province, order in given.items():
                unit = position.units.get(province)
                if unit is not None and is_garrison(m, unit) and type(order) is not Hold:
                    held: list[AnyOrder | str] = [*found.get(unit.power, ()),
                                                  Hold(unit.type, unit.loc)]
                    found[unit.power] = held
        elif position.phase.is_adjustment:
            for code, builds in garrison_rebuilds(position).items():
                found[code] = [*found.get(code, ()), *builds]
        return found

    def may_retreat(self, position: Position, unit: Unit) -> bool:
        """A garrison is removed when dislodged."""
        return not is_garrison(position.map, unit) and super().may_retreat(position, unit)
