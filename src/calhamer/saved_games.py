"""The ``diplomacy`` package's saved games (its ``to_saved_game_format`` JSON), both ways.

:func:`import_saved_game` reads a saved standard game: each phase's state becomes a phase
record, its orders are kept as written (calhamer reads that notation: ``A PAR B``, ``A PAR R
BUR``, ``A LON - NWY VIA``, ``WAIVE``), and every phase is adjudicated again by calhamer. Where
the two judges disagree on the board that follows, the phase is listed
(:class:`Difference`) with the orders of the units concerned and the DATC section that
decides such cases when one can be named. :func:`export_saved_game` writes a calhamer game
in that format. The field mapping is in ``docs/formats.md``.

Only standard games: the package's other maps have no calhamer variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from calhamer.errors import CalhamerError
from calhamer.formats import order_text
from calhamer.game import Game, PhaseRecord, results_to_json
from calhamer.map import ARMY, FLEET, Location, Map
from calhamer.notation import parse_order
from calhamer.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Retreat,
    Support,
    Waive,
)
from calhamer.phases import adjudicate, retreat_options
from calhamer.pieces import Dislodged, Phase, Unit
from calhamer.position import Position
from calhamer.results import FAILS, INVALID, SUCCEEDS

__all__ = ["Difference", "ImportReport", "export_saved_game", "import_saved_game"]


class SavedGameError(CalhamerError):
    """A saved game calhamer cannot read."""


@dataclass(frozen=True)
class Difference:
    """A phase the two judges decide differently."""

    phase: str
    units: list[str]  # the units whose fate differs, as the board after shows them
    orders: list[str]  # the orders given to those units and to units acting on them
    datc: str | None  # the DATC section that decides such cases, when one can be named
    detail: str

    def text(self) -> str:
        lines = [f"{self.phase}: {self.detail}"]
        if self.datc:
            lines.append(f"  see {self.datc}")
        lines += [f"  {o}" for o in self.orders]
        return "\n".join(lines)


@dataclass
class ImportReport:
    game: Game
    differences: list[Difference] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)


# -- reading -----------------------------------------------------------------------------------


def _unit(m: Map, text: str, power: str) -> Unit:
    kind, _, where = text.strip().lstrip("*").partition(" ")
    loc = m.find_location(where)
    if kind not in ("A", "F") or loc is None:
        raise SavedGameError(f"{text!r} is not a unit on the standard board")
    return Unit(power, ARMY if kind == "A" else FLEET, loc)


def _state_position(m: Map, state: Mapping[str, Any], name: str) -> Position:
    phase = Phase.parse(name)
    units: dict[int, Unit] = {}
    dislodged: list[Dislodged] = []
    for power, texts in (state.get("units") or {}).items():
        code = m.find_power(power)
        if code is None:
            raise SavedGameError(f"{name}: {power!r} is not a power of the standard game")
        for text in texts:
            unit = _unit(m, text, code)
            if text.startswith("*"):
                dislodged.append(Dislodged(unit, None))
            else:
                units[m.province_of(unit.loc)] = unit
    centers = {}
    for power, codes in (state.get("centers") or {}).items():
        code = m.find_power(power)
        for c in codes:
            loc = m.find_location(c)
            if code is None or loc is None:
                raise SavedGameError(f"{name}: bad centre {c!r} of {power!r}")
            centers[m.province_of(loc)] = code
    return Position(m, phase, units, centers, tuple(dislodged))


def _board(position: Position) -> tuple[frozenset[Any], frozenset[Any], frozenset[Any]]:
    return (frozenset(position.units.values()), frozenset(position.centers.items()),
            frozenset(d.unit for d in position.dislodged))


def import_saved_game(doc: Any) -> ImportReport:
    """Read a saved game of the ``diplomacy`` package; replay it through calhamer."""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("phases"), list):
        raise SavedGameError("a saved game of the diplomacy package is a JSON object with "
                             '"phases"')
    if doc.get("map", "standard") != "standard":
        raise SavedGameError(f"only standard games can be imported, not {doc.get('map')!r}")
    phases = doc["phases"]
    if not phases:
        raise SavedGameError("the saved game has no phases")
    start = Position.initial()
    m = start.map
    records: list[PhaseRecord] = []
    differences: list[Difference] = []
    replayed: Position | None = None
    for index, entry in enumerate(phases):
        name = str(entry.get("name", ""))
        if name.upper() == "COMPLETED":
            break
        try:
            stated = _state_position(m, entry.get("state") or {}, name)
        except CalhamerError as exc:
            raise SavedGameError(f"phase {index + 1}: {exc}") from None
        # A retreat phase needs what the saved state does not say (where each attack came
        # from, the standoffs): calhamer's own board after the movement, when it agrees.
        if replayed is not None and _board(replayed) == _board(stated):
            position = replayed
        else:
            position = stated
        orders = {m.find_power(p) or p: [str(o) for o in lines]
                  for p, lines in (entry.get("orders") or {}).items() if lines}
        messages = [dict(msg) for msg in entry.get("messages") or [] if isinstance(msg, Mapping)]
        record = PhaseRecord(position.phase.code, position, orders, rules="datc",
                             messages=messages)
        records.append(record)
        last = index == len(phases) - 1 or str(phases[index + 1].get("name")).upper() \
            == "COMPLETED"
        if last:
            break
        outcome = adjudicate(position, orders, "datc")
        record.results = results_to_json(outcome)
        replayed = outcome.next
        nxt_entry = phases[index + 1]
        try:
            expected = _state_position(m, nxt_entry.get("state") or {},
                                       str(nxt_entry.get("name")))
        except CalhamerError as exc:
            raise SavedGameError(f"phase {index + 2}: {exc}") from None
        if _board(replayed) != _board(expected):
            differences.append(_difference(position, orders, replayed, expected))
    game = Game("standard", "datc", records)
    return ImportReport(game, differences, dict(doc))


def _difference(before: Position, orders: Mapping[str, list[str]], ours: Position,
                theirs: Position) -> Difference:
    m = before.map
    ours_units, theirs_units = _board(ours)[0] | _board(ours)[2], \
        _board(theirs)[0] | _board(theirs)[2]
    differing = (ours_units ^ theirs_units)
    provinces = {m.province_of(u.loc) for u in differing}
    concerned: list[str] = []
    kinds: set[str] = set()
    for power, lines in orders.items():
        for line in lines:
            try:
                order = parse_order(m, order_text(line), phase_kind=before.phase.kind,
                                    position=before, power=power).order
            except CalhamerError:
                continue
            touched = {m.province_of(loc) for loc in _locations(order)}
            if touched & provinces:
                concerned.append(f"{power}: {line}")
                kinds.add(type(order).__name__)
                if isinstance(order, Move) and order.via_convoy:
                    kinds.add("via")
    if ours.phase != theirs.phase:
        detail = f"calhamer goes on to {ours.phase.code}, the package to {theirs.phase.code}"
    else:
        detail = "the boards after differ in " + ", ".join(
            sorted(m.provinces[p].code for p in provinces)) if provinces else \
            "the supply centres after differ"
    return Difference(before.phase.code, sorted(m.loc_names[u.loc] for u in differing),
                      concerned, _datc_section(before, kinds), detail)


def _locations(order: AnyOrder) -> list[Location]:
    if isinstance(order, Waive):
        return []
    found = [order.loc]
    if isinstance(order, Move | Retreat):
        found.append(order.dest)
    elif isinstance(order, Support):
        found.append(order.target)
        if order.dest is not None:
            found.append(order.dest)
    elif isinstance(order, Convoy):
        found += [order.army, order.dest]
    return found


def _datc_section(before: Position, kinds: set[str]) -> str | None:
    """The DATC section where cases like this one are decided."""
    if before.phase.is_retreat:
        return "DATC 6.H (retreating)"
    if before.phase.is_adjustment:
        return "DATC 6.I (building) and 6.J (civil disorder and disbands)"
    if "via" in kinds:
        return "DATC 6.G (convoying to adjacent places) and 4.A.3 (moves written via convoy)"
    if "Convoy" in kinds:
        return "DATC 6.F (convoys) and 6.G (convoying to adjacent places)"
    if "Support" in kinds:
        return "DATC 6.D (supports and dislodges)"
    if "Move" in kinds:
        return "DATC 6.C (circular movement) and 6.E (head-to-head battles)"
    return None


# -- writing -----------------------------------------------------------------------------------


def _dip_unit(m: Map, unit_type: Any, loc: Location) -> str:
    return f"{'A' if unit_type is ARMY else 'F'} {m.loc_names[loc]}"


def dip_order(position: Position, order: AnyOrder) -> str:
    """An order in the ``diplomacy`` package's notation."""
    m = position.map
    if isinstance(order, Waive):
        return "WAIVE"

    def unit_of(loc: Location, written: Any) -> str:
        unit = position.unit_at(loc)
        if unit is None:
            unit = next((d.unit for d in position.dislodged
                         if m.province_of(d.unit.loc) == m.province_of(loc)), None)
        return _dip_unit(m, unit.type if unit is not None else written,
                         unit.loc if unit is not None else loc)

    head = _dip_unit(m, order.unit_type, order.loc) if isinstance(order, Build) \
        else unit_of(order.loc, order.unit_type)
    if isinstance(order, Build):
        return f"{head} B"
    if isinstance(order, Disband):
        return f"{head} D"
    if isinstance(order, Retreat):
        return f"{head} R {m.loc_names[order.dest]}"
    if isinstance(order, Move):
        return f"{head} - {m.loc_names[order.dest]}{' VIA' if order.via_convoy else ''}"
    if isinstance(order, Support):
        target = unit_of(order.target, order.target_type)
        if order.dest is None:
            return f"{head} S {target}"
        return f"{head} S {target} - {m.loc_names[order.dest]}"
    if isinstance(order, Convoy):
        return (f"{head} C A {m.provinces[m.province_of(order.army)].code} - "
                f"{m.provinces[m.province_of(order.dest)].code}")
    if isinstance(order, Hold):
        return f"{head} H"
    raise SavedGameError(f"{order!r} has no form in the diplomacy package's notation")


def _state(position: Position, game_id: str) -> dict[str, Any]:
    m = position.map
    powers = [p for p in m.power_codes if not m.is_minor(p)]
    units: dict[str, list[str]] = {p: [] for p in powers}
    for unit in position.units.values():
        units[unit.power].append(_dip_unit(m, unit.type, unit.loc))
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for entry in position.dislodged:
        text = _dip_unit(m, entry.unit.type, entry.unit.loc)
        units[entry.unit.power].append("*" + text)
        retreats[entry.unit.power][text] = [m.loc_names[d] for d in
                                            retreat_options(position, entry)]
    centers: dict[str, list[str]] = {p: [] for p in powers}
    for province, owner in sorted(position.centers.items()):
        centers[owner].append(m.provinces[province].code)
    homes = {p: [pr.code for pr in m.provinces if pr.home == p and pr.is_supply_center]
             for p in powers}
    builds: dict[str, dict[str, Any]] = {p: {"count": 0, "homes": []} for p in powers}
    if position.phase.is_adjustment:
        for power, due in position.adjustments().items():
            if power in builds:
                free = [h for h in homes[power]
                        if position.centers.get(m.province_of(m.loc(h))) == power
                        and m.province_of(m.loc(h)) not in position.units]
                builds[power] = {"count": due, "homes": free if due > 0 else []}
    influence = {p: sorted({m.provinces[q].code for q, o in position.centers.items() if o == p}
                           | {m.provinces[m.province_of(u.loc)].code
                              for u in position.units.values() if u.power == p})
                 for p in powers}
    return {"timestamp": 0, "zobrist_hash": "0", "note": "", "name": position.phase.code,
            "units": units, "retreats": retreats, "centers": centers, "homes": homes,
            "influence": influence, "civil_disorder": dict.fromkeys(powers, 0),
            "builds": builds, "game_id": game_id, "map": "standard", "rules": []}


def _dip_results(position: Position, results: Mapping[str, list[dict[str, str]]],
                 nxt: Position | None) -> dict[str, list[str]]:
    """Each unit's results as the package writes them: [] for success, else words."""
    m = position.map
    out: dict[str, list[str]] = {}
    # The package gives every unit an entry in movement phases, only ordered ones in winter.
    for unit in position.units.values() if position.phase.is_movement else ():
        out[_dip_unit(m, unit.type, unit.loc)] = []
    for entry in position.dislodged:
        out[_dip_unit(m, entry.unit.type, entry.unit.loc)] = []
    for power, entries in results.items():
        for e in entries:
            if not e.get("canonical"):
                continue
            try:
                order = parse_order(m, e["canonical"], phase_kind=position.phase.kind,
                                    position=position, power=power).order
            except CalhamerError:
                continue
            if isinstance(order, Waive):
                continue
            key = _dip_unit(m, order.unit_type, order.loc)
            out.setdefault(key, [])
            if position.phase.is_adjustment:
                # In winter the package writes [""] for an order carried out, "void" for any
                # other.
                out[key].append("" if e["result"] == SUCCEEDS else "void")
            elif e["result"] == INVALID or (e["result"] == FAILS
                                             and e.get("reason", "").startswith("void")):
                # Illegal, or (calhamer's reason says) a support or convoy of an order not
                # given: "void" to the package.
                out[key].append("void")
            elif e["result"] == FAILS and isinstance(order, Move) \
                    and e.get("reason", "").startswith("no convoy route"):
                out[key].append("no convoy")
            elif e["result"] == FAILS:
                word = "cut" if isinstance(order, Support) else \
                    "disband" if isinstance(order, Retreat) else "bounce"
                out.setdefault(key, []).append(word)
    if nxt is not None and position.phase.is_movement:
        for entry in nxt.dislodged:
            out.setdefault(_dip_unit(m, entry.unit.type, entry.unit.loc), []).append(
                "dislodged")
    return out


def export_saved_game(game: Game, game_id: str = "calhamer") -> dict[str, Any]:
    """``game`` (standard) as the ``diplomacy`` package's saved game."""
    if game.variant != "standard":
        raise SavedGameError(f"only standard games can be exported to the diplomacy package's "
                             f"format, not {game.variant}")
    phases = []
    records = game.history
    for index, record in enumerate(records):
        position = record.position
        m = position.map
        orders: dict[str, list[str]] = {p: [] for p in m.power_codes if not m.is_minor(p)}
        for power, lines in record.orders.items():
            written = []
            for line in lines:
                text = order_text(line)
                if not text.strip():
                    continue
                try:
                    order = parse_order(position.map, text, phase_kind=position.phase.kind,
                                        position=position, power=power).order
                    written.append(dip_order(position, order))
                except CalhamerError:
                    written.append(text.strip())  # as given: the package voids it too
            orders[power] = written
        nxt = records[index + 1].position if index + 1 < len(records) else None
        results = _dip_results(position, record.results or {}, nxt) \
            if record.results is not None else {}
        phases.append({"name": position.phase.code, "state": _state(position, game_id),
                       "orders": orders, "results": results,
                       "messages": [dict(msg) for msg in record.messages]})
    return {"id": game_id, "map": "standard", "rules": [], "phases": phases}
