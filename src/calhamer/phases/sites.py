"""Where each power may build in a winter: the variant's ``build_sites`` option on its board.

A power builds in a supply centre it owns and nobody stands in; which of those it may use is
the rule of build sites (``docs/variants.md``):

- ``home``: its own home centres (the standard game);
- ``owned``: any centre it owns (Chaos, Hundred, Western World 901; also any variant whose
  edition says builds are not limited to home centres, as the flexible-builds module does);
- ``any-home``: any great power's home centre it owns (Twenty Twenty);
- ``listed``: the centres the map lists as its own (``[powers.X] builds``).

Minor powers build (rebuild) in their own home centres under every rule but ``owned``; a
garrison that does not rebuild, and a power nobody plays (``unplayed``), never build. The
winter's flow, the adjudication of builds and the possible orders all ask :func:`build_sites`,
so that the three never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calhamer.board import Map
    from calhamer.position import Position
    from calhamer.rules import Rules

__all__ = ["BuildSites", "build_sites"]


class BuildSites:
    """Which owned centres each power may build in, on one board under one rule."""

    __slots__ = ("_limits", "_map", "_never", "mode")

    def __init__(self, m: Map, mode: str, limits: Mapping[str, frozenset[int]],
                 never: frozenset[str] = frozenset()) -> None:
        self._map = m
        self.mode = mode
        # power -> the provinces it may build in; a power not listed: any centre it owns.
        self._limits = dict(limits)
        for power in never:
            self._limits[power] = frozenset()
        self._never = never  # the powers that never build

    def allows(self, power: str, province: int) -> bool:
        """Whether ``power`` may build in ``province`` (a centre it owns and nobody holds)."""
        limit = self._limits.get(power)
        return limit is None or province in limit

    def problem(self, power: str, province: int) -> str | None:
        """Why ``power`` may not build in ``province`` (owned and free), or None if it may."""
        if self.allows(power, province):
            return None
        m = self._map
        where = m.describe(province)
        if power in self._never:
            return f"{m.power(power).name} never builds"
        if self.mode == "any-home":
            return f"{where} is no great power's home centre"
        if self.mode == "listed" and not m.is_minor(power):
            return f"{where} is not one of {power}'s build sites"
        return f"{where} is not one of {power}'s home centres"


def build_sites(position: Position, rules: Rules) -> BuildSites:
    """The build sites of ``position``'s board under its variant's ``build_sites`` option
    (``home`` read as ``owned`` where the edition does not limit builds to home centres), made
    once for each board, rule and set of unplayed powers."""
    variant = position.variant
    mode = variant.build_sites
    if mode == "home" and not rules.builds_in_home_centres_only:
        mode = "owned"
    key = (position.map, mode, variant.unplayed)
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= 64:
            _MADE.clear()  # boards made on the fly (tests): keep the table small
        found = _MADE[key] = _made(position.map, mode, variant.unplayed)
    return found


_MADE: dict[tuple[Map, str, tuple[str, ...]], BuildSites] = {}


def _made(m: Map, mode: str, unplayed: tuple[str, ...]) -> BuildSites:
    limits: dict[str, frozenset[int]] = {}
    great = set(m.power_codes)
    any_home = frozenset(p.id for p in m.provinces if p.is_supply_center and p.home in great)
    for power in m.powers:
        if mode == "home":
            limits[power.code] = frozenset(m.home_centers(power.code))
        elif mode == "any-home":
            limits[power.code] = any_home
        elif mode == "listed":
            codes = set(power.builds or ())
            limits[power.code] = frozenset(p.id for p in m.provinces if p.code in codes)
    never = set(unplayed)
    for minor in m.minor_powers:
        if minor.garrison and not minor.rebuild:
            never.add(minor.code)
        elif mode != "owned":
            limits[minor.code] = frozenset(m.home_centers(minor.code))
    return BuildSites(m, mode, limits, frozenset(never))
