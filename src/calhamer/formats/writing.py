"""Writing positions and adjudications as documents, and as ``--jsonl`` lines.

:func:`position_to_json` writes a phase document (without orders); :func:`outcome_to_json`
the output document of an adjudication, with :func:`dislodged_entries` and, for hidden
information, each power's view (:func:`view_to_json`); :func:`canonical_results` puts each
power's results in their defined order. :func:`outcome_to_line` writes the output document as
one line of compact JSON, straight from the map's JSON pieces for a plain board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from json.encoder import encode_basestring_ascii as _encode_text
from typing import Any

from calhamer.formats.json_text import _JSON_TEXT_LIMIT, _compact, _json_text
from calhamer.map import Map
from calhamer.notation import Notation
from calhamer.phases.flow import editable
from calhamer.position import Dislodged, Position, Unit
from calhamer.results import OrderResult, PhaseOutcome
from calhamer.victory import VictoryRule
from calhamer.views import PowerView, power_views


def position_to_json(position: Position, rules: str | None = None) -> dict[str, Any]:
    """A phase document for ``position`` (no orders)."""
    m = position.map
    variant = position.variant
    format_unit = variant.notation.format_unit
    units: dict[str, list[str]] = {}
    by_code = m.code_rank.__getitem__  # provinces in the order of their codes
    placed = position.units
    standard = type(variant.notation).format_unit is Notation.format_unit
    names = m.loc_names
    for province in sorted(placed, key=by_code):
        unit = placed[province]
        # The standard notation's units written here ("F STP/SC"), a variant's by its notation.
        text = (f"{'AF'[unit.type]} {names[unit.loc]}" if standard and type(unit) is Unit
                else format_unit(m, unit))
        if unit.power in units:
            units[unit.power].append(text)
        else:
            units[unit.power] = [text]
    centers: dict[str, list[str]] = {}
    owners = position.centers
    codes = m.loc_names  # a province's id is its own location: its name is its code
    for province in sorted(owners, key=by_code):
        owner = owners[province]
        if owner in centers:
            centers[owner].append(codes[province])
        else:
            centers[owner] = [codes[province]]
    doc: dict[str, Any] = {"variant": variant.name}
    if rules:
        doc["rules"] = rules
    doc["phase"] = position.phase.code
    doc["units"] = {p: units[p] for p in _power_order(m, units)}
    doc["centers"] = {p: centers[p] for p in _power_order(m, centers)}
    if position.phase.is_retreat:
        dislodged: dict[str, list[dict[str, str]]] = {}
        for d in _dislodged_in_order(position):
            entry = {"unit": format_unit(m, d.unit)}
            if d.attacker_from is not None:
                entry["attacker_from"] = m.provinces[d.attacker_from].code
            dislodged.setdefault(d.unit.power, []).append(entry)
        doc["dislodged"] = {p: dislodged[p] for p in _power_order(m, dislodged)}
        doc["contested"] = sorted(m.provinces[p].code for p in position.contested)
    if variant.state is not None:
        variant.state.write(variant, position, doc)
    return doc


def _dislodged_in_order(position: Position) -> list[Dislodged]:
    """The position's dislodged units in the order of their provinces' codes: the order the
    adjudicator finds them in follows the units' order in the position, which differs between
    a position read from a document and one carried over from the phase before, and a
    document must be the same for the same position (a game's replay compares them)."""
    m = position.map
    rank, province_of = m.code_rank, m.province_of
    return sorted(position.dislodged, key=lambda d: rank[province_of(d.unit.loc)])


def _power_order(m: Map, keyed: Mapping[str, object]) -> list[str]:
    known = [p for p in m.power_codes if p in keyed]
    if len(known) < len(keyed):  # keys that are no power of the map go last, sorted
        known += sorted(p for p in keyed if p not in known)
    return known


def outcome_to_json(
    outcome: PhaseOutcome, rules: str | None = None, *, views: bool | None = None
) -> dict[str, Any]:
    """The output document: each order's result, and the next phase.

    With ``views`` (by default: when the variant hides information, as Kriegsplomacy does) it
    also holds ``"views"``: what each power may see (:mod:`calhamer.views`), the only part to
    show a player.
    """
    m = outcome.before.map
    results = canonical_results(
        {power: [r.to_json() for r in outcome.results[power]]
         for power in _power_order(m, outcome.results)}
    )
    doc: dict[str, Any] = {
        "phase": outcome.before.phase.code,
        "results": results,
        "dislodged": dislodged_entries(outcome.after, outcome.dislodged,
                                       outcome.destroyed_units()),
        "next": position_to_json(outcome.next, rules),
    }
    winner = outcome.next.winner()
    if winner:
        doc["winner"] = winner
    if views is None:
        views = bool(outcome.before.variant.visibility.hidden_information)
    if views:
        doc["views"] = {p: view_to_json(v, rules) for p, v in power_views(outcome).items()}
    return doc


def dislodged_entries(position: Position, dislodged: Iterable[Dislodged],
                      destroyed: Iterable[Unit] = (), *, retreats: bool = True
                      ) -> list[dict[str, Any]]:
    """The ``"dislodged"`` entries of an output document or a view (``docs/formats.md``):
    each unit that must retreat, with the places open to it in ``position`` (the retreat
    phase that follows: the variant's ``retreat_choices``, as the text report lists them),
    then each unit destroyed at once. Without ``retreats`` (a view that does not tell them)
    the entries leave ``"retreats"`` out."""
    m = position.map
    variant = position.variant
    format_unit = variant.notation.format_unit
    open_to = position.phase.is_retreat
    entries: list[dict[str, Any]] = []
    for d in dislodged:
        entry: dict[str, Any] = {"unit": format_unit(m, d.unit), "power": d.unit.power}
        if retreats:
            choices = variant.retreat_choices(position, d) if open_to else []
            entry["retreats"] = [m.loc_name(loc) for loc in choices]
        entry["destroyed"] = False
        entries.append(entry)
    for unit in destroyed:
        entry = {"unit": format_unit(m, unit), "power": unit.power}
        if retreats:
            entry["retreats"] = []
        entry["destroyed"] = True
        entries.append(entry)
    return entries


def outcome_to_line(outcome: PhaseOutcome, rules: str | None = None) -> str:
    """:func:`outcome_to_json` as one line of compact JSON (``calhamer adjudicate --jsonl``).

    The same text as ``json.dumps(outcome_to_json(outcome, rules), separators=(",", ":"))``,
    byte for byte, written here without building the document first: each result's JSON form
    is made once and looked up after, units and centres are written from the map's own JSON
    pieces (:class:`_MapJson`). A variant that writes more than a plain board (hidden
    information's views, its own state, its own unit notation, its own kind of unit or
    result) gets the document written out and encoded as ever.
    """
    before, nxt = outcome.before, outcome.next
    variant = before.variant
    if (variant.visibility.hidden_information or variant.state is not None
            or type(variant.notation).format_unit is not Notation.format_unit):
        return _compact(outcome_to_json(outcome, rules))
    m = before.map
    pieces = _map_json(m)
    results = outcome.results
    known = _JSON_ENTRIES
    entries: dict[str, list[str]] = {}  # each power's results as JSON text
    for power in _power_order(m, results):
        given: list[str] = []
        added: list[OrderResult] | None = None
        for r in results[power]:
            if type(r) is not OrderResult:
                return _compact(outcome_to_json(outcome, rules))
            if r.text:
                key = (r.text, r.canonical, r.result, r.reason)
                try:  # a subscript, not .get: the look-up that hits is the cheaper
                    given.append(known[key])
                except KeyError:
                    given.append(_entry_json(key))
            elif added is None:
                added = [r]
            else:
                added.append(r)
        if added:  # after the orders given, in the order canonical_results gives them
            added.sort(key=_added_key)
            for r in added:
                key = (r.text, r.canonical, r.result, r.reason)
                given.append(known.get(key) or _entry_json(key))
        entries[power] = given
    dislodged = _dislodged_line(outcome, pieces) if outcome.dislodged or outcome.removed else ""
    if dislodged is None:
        return _compact(outcome_to_json(outcome, rules))
    board = _board_line(nxt, rules, pieces)
    if board is None:
        return _compact(outcome_to_json(outcome, rules))
    position, centers = board
    winner = _solo(nxt, centers)
    end = f',"winner":{_json_text(winner)}}}' if winner else "}"
    return (f'{{"phase":{_json_text(before.phase.code)},"results":'
            f'{_json_lists(entries, pieces.heads, empty=True)},'
            f'"dislodged":[{dislodged}],"next":{position}{end}')


def _dislodged_line(outcome: PhaseOutcome, pieces: _MapJson) -> str | None:
    """:func:`dislodged_entries` of ``outcome`` as compact JSON, without the brackets (None
    for a unit that is not a plain one, which :func:`outcome_to_json` writes)."""
    after = outcome.after
    variant = after.variant
    unit_text, locs, text = pieces.units, pieces.locs, _json_text
    open_to = after.phase.is_retreat
    out = []
    for d in outcome.dislodged:
        unit = d.unit
        if type(unit) is not Unit:
            return None
        choices = variant.retreat_choices(after, d) if open_to else []
        out.append(f'{{"unit":{unit_text[unit.type][unit.loc]},"power":{text(unit.power)},'
                   f'"retreats":[{",".join(locs[loc] for loc in choices)}],'
                   '"destroyed":false}')
    for unit in outcome.destroyed_units():
        if type(unit) is not Unit:
            return None
        out.append(f'{{"unit":{unit_text[unit.type][unit.loc]},"power":{text(unit.power)},'
                   '"retreats":[],"destroyed":true}')
    return ",".join(out)


def _added_key(r: OrderResult) -> tuple[str, str]:
    canonical = r.canonical
    return canonical.partition(" ")[2], canonical


class _MapJson:
    """A map's names as the JSON text documents hold them, made once per map: every
    location's army and fleet (``"A PAR"``, by unit type's number and location), every
    location's name (``"STP/SC"``), each power's key opening its list (``"FRANCE":[``), the
    supply centres in the order documents list them (by code), and each province's place in
    that order (a list: its ``__getitem__`` is a cheaper sort key than a tuple's)."""

    __slots__ = ("centre_set", "centres", "heads", "locs", "rank", "units")

    def __init__(self, m: Map) -> None:
        names = m.loc_names
        self.units = ([_encode_text(f"A {name}") for name in names],
                      [_encode_text(f"F {name}") for name in names])
        self.locs = [_encode_text(name) for name in names]
        self.heads = {p: _encode_text(p) + ":[" for p in m.power_codes}
        self.rank = list(m.code_rank)
        self.centres = sorted((p.id for p in m.provinces if p.is_supply_center),
                              key=self.rank.__getitem__)
        self.centre_set = frozenset(self.centres)


_map_json = cache(_MapJson)


def _json_lists(groups: dict[str, list[str]], heads: dict[str, str], *, empty: bool = False
                ) -> str:
    """A JSON object of lists, from each key's list of items already JSON text: ``{"AUSTRIA":
    ["A BUD","F TRI"],...}``, in the order of ``groups``. Keys with no items are left out
    unless ``empty``."""
    return "{" + ",".join([
        f'{heads.get(key) or _json_text(key) + ":["}{",".join(items)}]'
        for key, items in groups.items() if empty or items
    ]) + "}"


def _solo(position: Position, centers: dict[str, list[str]]) -> str | None:
    """:meth:`Position.winner` of a position whose centres :func:`_board_line` listed as
    ``centers``: under the standard victory rule, every centre counting one and owned by the
    map's players, the first power in the map's order listing the centres a solo needs (the
    lists are counted, not the centres again); else the position is asked."""
    m = position.map
    rule = type(position.variant.victory)
    if (rule.solo is not VictoryRule.solo or rule.centres_needed is not VictoryRule.centres_needed
            or not m.single_centres or len(centers) != len(m.power_codes)
            or not position.variant.victory.counts_alone(position)):
        return position.winner()
    need = m.victory_centers
    if need:
        for power, listed in centers.items():
            if len(listed) >= need:
                return power
    return None


def _position_line(position: Position, rules: str | None, pieces: _MapJson) -> str | None:
    """:func:`position_to_json` of a plain board as compact JSON (None for any other)."""
    board = _board_line(position, rules, pieces)
    return None if board is None else board[0]


def _board_line(position: Position, rules: str | None, pieces: _MapJson
                ) -> tuple[str, dict[str, list[str]]] | None:
    """:func:`_position_line`, and the centres it listed by power (each power of the map
    first, in the map's order, with the centres it owns; then any other owner)."""
    m = position.map
    text = _json_text
    codes = m.power_codes
    # The tables are read from copies: a read-only view's look-ups each go through the
    # dict's method by name, a copy of the dict behind it is one call.
    placed, owners = editable(position.units), editable(position.centers)
    if not owners.keys() <= pieces.centre_set:
        return None  # a centre where the map has none: written by position_to_json
    # Lists for every power of the map, in the map's order; one the map does not know (a
    # minor power's) is put after them, and then they are sorted as _power_order sorts them.
    # (A power the map does not know is the rare case: met as a missing key.)
    units: dict[str, list[str]] = {p: [] for p in codes}
    unit_text = pieces.units
    for province in sorted(placed, key=pieces.rank.__getitem__):
        unit = placed[province]
        if type(unit) is not Unit:
            return None
        try:
            units[unit.power].append(unit_text[unit.type][unit.loc])
        except KeyError:
            units[unit.power] = [unit_text[unit.type][unit.loc]]
    if len(units) > len(codes):
        units = {p: units[p] for p in _power_order(m, units)}
    # The map's supply centres in the order of their codes, each asked for its owner: no sort.
    centers: dict[str, list[str]] = {p: [] for p in codes}
    owner_of, names = owners.get, pieces.locs
    for province in pieces.centres:
        owner = owner_of(province)
        if owner is not None:
            try:
                centers[owner].append(names[province])
            except KeyError:
                centers[owner] = [names[province]]
    if len(centers) > len(codes):
        centers = {p: centers[p] for p in _power_order(m, centers)}
    heads = pieces.heads
    out = [f'{{"variant":{text(position.variant.name)}']
    if rules:
        out.append(f'"rules":{text(rules)}')
    out.append(f'"phase":{text(position.phase.code)}')
    out.append(f'"units":{_json_lists(units, heads)}')
    out.append(f'"centers":{_json_lists(centers, heads)}')
    if position.phase.is_retreat:
        dislodged: dict[str, list[str]] = {}
        for d in _dislodged_in_order(position):
            if type(d.unit) is not Unit:
                return None
            entry = f'{{"unit":{unit_text[d.unit.type][d.unit.loc]}'
            if d.attacker_from is not None:
                entry += f',"attacker_from":{text(m.provinces[d.attacker_from].code)}'
            dislodged.setdefault(d.unit.power, []).append(entry + "}")
        dislodged = {p: dislodged[p] for p in _power_order(m, dislodged)}
        out.append(f'"dislodged":{_json_lists(dislodged, heads)}')
        contested = sorted(m.provinces[p].code for p in position.contested)
        out.append(f'"contested":[{",".join(map(text, contested))}]')
    return ",".join(out) + "}", centers


# Results as JSON text, by their four fields: a game's results repeat from phase to phase
# ("A PAR H", "holds"). Emptied when it grows past the limit, as json_text._JSON_TEXTS is.
_JSON_ENTRIES: dict[tuple[str, str, str, str], str] = {}


def _entry_json(key: tuple[str, str, str, str]) -> str:
    text = _json_text
    piece = (f'{{"order":{text(key[0])},"canonical":{text(key[1])},'
             f'"result":{text(key[2])},"reason":{text(key[3])}}}')
    if len(_JSON_ENTRIES) >= _JSON_TEXT_LIMIT:
        _JSON_ENTRIES.clear()
    _JSON_ENTRIES[key] = piece
    return piece


def canonical_results(results: Mapping[str, list[Any]]) -> dict[str, list[Any]]:
    """Each power's results in their defined order: the orders it gave, as given, then what
    the judge decided for units given no valid order (an entry whose ``"order"`` is empty: a
    hold, a disbanded retreat, a civil-disorder removal) by the unit's location code, the
    order in which a phase document lists units.

    The judge meets those units in whatever order it holds them in memory, which differs
    between a game played on and the same game read back from its file; with this order the
    results of a phase judged again compare equal to the recorded ones.
    """

    def added_key(entry: Any) -> tuple[str, str]:
        canonical = str(entry.get("canonical", ""))
        return canonical.partition(" ")[2], canonical  # "F STP/SC H": "STP/SC H" first

    ordered: dict[str, list[Any]] = {}
    for power, entries in results.items():
        given: list[Any] = []
        added: list[Any] = []
        for e in entries:
            if (type(e) is dict or isinstance(e, Mapping)) and not e.get("order"):
                added.append(e)
            else:
                given.append(e)
        if added:
            added.sort(key=added_key)
            given += added
        ordered[power] = given
    return ordered


def view_to_json(view: PowerView, rules: str | None = None) -> dict[str, Any]:
    """A power's view of a phase as a JSON object (the shape is in ``docs/formats.md``)."""
    m = view.before.map
    order = [p for p in m.power_codes if p in view.results]
    order += sorted(p for p in view.results if p not in order)
    doc: dict[str, Any] = {
        "power": view.power,
        "phase": view.before.phase.code,
        "complete": view.complete,
        "results": {p: [r.to_json() for r in view.results[p]] for p in order},
        # Retreat options only in a view that is the whole truth: where a unit may go tells
        # what stands around it (Kriegsplomacy rule 3.6 tells a power neither).
        "dislodged": dislodged_entries(view.next, view.dislodged, view.destroyed,
                                       retreats=view.complete),
    }
    if view.notes:
        doc["notes"] = [n.to_json() for n in view.notes]
    if view.counts is not None:
        doc["centre_counts"] = dict(view.counts)
    doc["next"] = position_to_json(view.next, rules)
    return doc
