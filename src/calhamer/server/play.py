"""What the game page tells a player about their play: what a save with invalid lines
leaves each unit doing, the phase their save ended, and the last phase's results as rows
with an icon each. The words are the judge's own (its checks and results); this module only
sorts them for the page."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from calhamer.errors import CalhamerError
from calhamer.game import OrderCheck
from calhamer.position import Phase, Position
from calhamer.server.models import PhaseRow
from calhamer.server.services import games, orders
from calhamer.server.services.common import phase_name
from calhamer.server.views import Viewer
from calhamer.variants import find_variant

# What a unit left without a valid order does, by kind of phase.
_FATE = {"M": "will hold", "R": "will be disbanded"}


@dataclass(frozen=True)
class Fallback:
    """An invalid line of a save: its text, the judge's problem, and what happens instead."""

    text: str
    problem: str
    fate: str


def fallbacks(position: Position, power: str, checks: list[OrderCheck]) -> list[Fallback]:
    """For each invalid line, what the unit it names does instead ("F NAP will hold"), or
    that the line is not carried out when it names no unit of the power's left unordered."""
    notation = find_variant(position.variant).notation
    m = position.map
    units = {u.loc: notation.format_unit(m, u) for u in position.units_of(power)}
    if position.phase.is_retreat:
        units = {d.unit.loc: notation.format_unit(m, d.unit)
                 for d in position.dislodged if d.unit.power == power}
    ordered = {c.canonical.split(" ")[1] for c in checks if c.ok and c.canonical.count(" ")}
    fate = _FATE.get(position.phase.kind)
    out: list[Fallback] = []
    for c in checks:
        if c.ok:
            continue
        text = c.text.strip()
        unit = _named_unit(position, text, units)
        if unit is not None and fate is not None and unit.split(" ")[1] not in ordered:
            what = f"{unit} {fate}"
        elif unit is not None and unit.split(" ")[1] in ordered:
            what = f"{unit} keeps its valid order"
        else:
            what = "This line is not carried out"
        out.append(Fallback(text, c.problem or "", what + "."))
    return out


def _named_unit(position: Position, text: str, units: dict[int, str]) -> str | None:
    """The power's unit an order line starts with, read as leniently as a reader would: an
    optional power prefix and unit type, then the longest run of words naming a place."""
    words = re.split(r"[\s\-–—>]+", re.sub(r"^\s*\w+\s*:", "", text).strip())
    if words and words[0].upper() in ("A", "F", "ARMY", "FLEET"):
        words = words[1:]
    for n in range(min(len(words), 4), 0, -1):
        loc = position.map.find_location(" ".join(words[:n]))
        if loc is None:
            continue
        for where, unit in units.items():
            if position.map.province_of(where) == position.map.province_of(loc):
                return unit
        return None
    return None


@dataclass(frozen=True)
class Judged:
    """The phase a player's save was for, adjudicated since they saved (for the banner)."""

    phase: str
    name: str
    ready: bool


def judged_since(session: Session, viewer: Viewer, saved: str, current: PhaseRow) -> Judged | None:
    """The phase named by the page's ``saved`` mark when it is no longer the current one and
    has been adjudicated, with the player's ready mark in it; None otherwise."""
    if viewer.power is None or not saved:
        return None
    try:
        code = Phase.parse(saved).code
    except CalhamerError:
        return None
    if code == current.code:
        return None
    row = next((p for p in games.phases_of(session, viewer.game) if p.code == code), None)
    if row is None or row.results is None:
        return None
    own = orders.own_orders(session, viewer, row)
    if own is None:
        return None
    return Judged(row.code, phase_name(viewer.game, row.code), bool(own.ready))


# -- results as rows ------------------------------------------------------------------------

_ICONS = {
    "succeeds": "\u2713",  # check mark
    "fails": "\u2717",  # ballot x
    "dislodged": "\u2935",  # arrow curving down: the unit was driven out
    "void": "\u2298",  # circled slash: invalid, so not carried out
    "missed": "\u2205",  # empty set: no order was given
    "unknown": "?",
}


def _unit_of(result: dict[str, Any]) -> str:
    """The unit a result's order is for, as its first two words name it ("F BRE")."""
    return " ".join(str(result.get("canonical") or result.get("order") or "").upper()
                    .split()[:2])


def result_rows(last: dict[str, Any], names: dict[str, str]) -> list[dict[str, Any]]:
    """The last phase's results per power (in the order the judge gives them): each order
    with a kind (succeeds, fails, dislodged, void, missed, unknown), an icon, and the
    judge's reason with its first letter capitalised."""
    out = []
    for power, results in (last.get("results") or {}).items():
        rows = []
        # The units whose order was invalid: their fallback is not a missed order.
        voided = {_unit_of(r) for r in results if str(r.get("result", "")) == "invalid"}
        for r in results:
            reason = str(r.get("reason", ""))
            verdict = str(r.get("result", ""))
            if verdict == "invalid":
                kind = "void"
                reason = f"invalid: {reason}"
            elif not r.get("order"):
                kind = "missed"
            elif "dislodged" in reason:
                kind = "dislodged"
            elif verdict in _ICONS:
                kind = verdict
            else:
                kind = "unknown"
            order = str(r.get("canonical") or r.get("order") or "")
            if kind == "missed":
                given = "its order was invalid" if _unit_of(r) in voided else "no order given"
                order = f"{order} ({given})"
            rows.append({"kind": kind, "icon": _ICONS[kind], "order": order,
                         "reason": reason[:1].upper() + reason[1:]})
        if rows:
            out.append({"code": power, "name": names.get(power, power.title()), "rows": rows})
    return out
