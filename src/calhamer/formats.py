"""Phase JSON: the interchange format (documented in ``docs/formats.md``).

``read_json`` turns JSON text into a document (every file calhamer reads goes through it);
``position_from_json`` reads a phase document; ``position_to_json`` writes one (without
orders); ``outcome_to_json`` writes the output document of an adjudication.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from calhamer.errors import CalhamerError, PhaseError
from calhamer.map import Map, load_map
from calhamer.notation import Notation
from calhamer.position import Dislodged, Phase, Position, Unit, units_from_specs
from calhamer.results import PhaseOutcome
from calhamer.rules import find_rules
from calhamer.variants import find_variant
from calhamer.views import PowerView, power_views

if TYPE_CHECKING:
    from calhamer.documents.phase import PhaseDocument

# How deeply a document may nest. calhamer's own documents are a few levels deep (a game file
# about six); the limit leaves room for variants and keeps every reader, and every error
# message that shows part of a document, far from Python's recursion limit.
MAX_DEPTH = 100


class DocumentError(CalhamerError):
    """JSON text that is not a document calhamer can read (invalid, or absurdly nested)."""


def read_json(text: str, name: str | None = None, *, with_line: bool = True) -> Any:
    """Parse ``text`` as JSON, for any document calhamer reads.

    Raises :class:`DocumentError` with a one-line message, starting with ``name`` (a file
    name, ``standard input``) when given: for invalid JSON (with the line and column, or only
    the column without ``with_line``), a number too long to read, or a document nested more
    than :data:`MAX_DEPTH` levels deep (which would otherwise exhaust Python's recursion).
    """
    subject = f"{name} is " if name else ""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if with_line else f"column {exc.colno}"
        raise DocumentError(f"{subject}not valid JSON: {exc.msg} ({where})") from None
    except RecursionError:
        raise DocumentError(f"{subject}{_too_deep()}") from None
    except ValueError as exc:  # a number with thousands of digits, lone surrogates...
        reason = "a number is too long" if "digits" in str(exc) else str(exc)
        raise DocumentError(f"{subject}not valid JSON: {reason}") from None
    # Nesting deeper than the limit needs more brackets than the limit: most documents have
    # too few to be walked at all.
    if (text.count("[") + text.count("{") > MAX_DEPTH
            and _depth_exceeds(doc, MAX_DEPTH)):
        raise DocumentError(f"{subject}{_too_deep()}")
    return doc


def _too_deep() -> str:
    return (f"nested too deeply (more than {MAX_DEPTH} levels) to be a calhamer document; "
            "check that it is the right file")


def _depth_exceeds(doc: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` deep (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(doc, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def order_text(line: str) -> str:
    """The order in one submitted line, as the judge reads it: the line as written, less a
    ``#`` comment (the whole line, or its end with the blanks before it). Blank when the line
    holds no order."""
    text, comment, _ = line.partition("#")
    return text.rstrip() if comment else text


def _power(m: Map, raw: str, where: str) -> str:
    power = m.find_power(str(raw))
    if power is None:
        known = ", ".join(m.power_codes)
        raise PhaseError(f"{where}: {raw!r} is not a power of this map; the powers are {known}")
    return power


def _location(m: Map, raw: str, where: str) -> int:
    loc = m.canonical_locations.get(raw) if type(raw) is str else None  # "PAR", "STP/SC"
    if loc is not None:
        return loc
    loc = m.find_location(str(raw))
    if loc is None:
        hint = m.suggest_location(str(raw))
        extra = f"; did you mean {m.describe(hint[0])}?" if hint else ""
        raise PhaseError(f"{where}: {raw!r} is not a province of this map{extra}")
    return loc


def phase_document(doc: object) -> PhaseDocument:
    """``doc`` checked as a phase document (:class:`calhamer.documents.PhaseDocument`): the
    keys known and each value of the right JSON type. Raises :class:`PhaseError` with the
    field path of the first problem."""
    # The models (and pydantic) are loaded by the first document read, so that the command
    # line's start and ``calhamer --help`` stay light.
    from pydantic import ValidationError

    from calhamer.documents.base import describe_validation_error
    from calhamer.documents.phase import PHASE_HINTS, PHASE_UNKNOWN, PhaseDocument

    if not isinstance(doc, Mapping):
        raise PhaseError("a phase document must be a JSON object")
    try:
        return PhaseDocument.model_validate(doc if isinstance(doc, dict) else dict(doc))
    except ValidationError as exc:
        raise PhaseError(describe_validation_error(
            exc, hints=PHASE_HINTS, unknown=PHASE_UNKNOWN)) from None


def position_from_json(doc: Mapping[str, Any]) -> tuple[Position, dict[str, list[str]], str]:
    """Read a phase document: the position, the orders by power, and the rule edition name.

    The document's shape is checked by :class:`PhaseDocument`, the variant's own fields by
    its state model (``Variant.state``), and every name against the map here."""
    parsed = phase_document(doc)
    variant = find_variant(parsed.variant)
    m = load_map(variant.map_name)
    rules = parsed.rules or variant.default_rules
    find_rules(rules)  # fail early, with the list of editions, on a bad name
    phase = Phase.parse(parsed.phase or m.start_phase)
    specs = {_power(m, p, "units"): v for p, v in parsed.units.items()}
    units = units_from_specs(m, specs, variant.notation.parse_unit)
    centers: dict[int, str] = {}
    for raw_power, codes in parsed.centers.items():
        power = _power(m, raw_power, "centers")
        for code in codes:
            province = m.province_of(_location(m, code, f"centers of {power}"))
            if not m.provinces[province].is_supply_center:
                raise PhaseError(
                    f"centers of {power}: {m.describe(province)} is not a supply centre"
                )
            owner = centers.setdefault(province, power)
            if owner != power:
                raise PhaseError(
                    f"centers: {m.describe(province)} is listed for both {owner} and {power}; "
                    "a centre has one owner, so list it for one power only"
                )
    dislodged = []
    for raw_power, entries in parsed.dislodged.items():
        power = _power(m, raw_power, "dislodged")
        for entry in entries:
            # A dislodged unit is written alone ("F ANK") or with where its attacker came from.
            spec, origin = (entry, None) if isinstance(entry, str) else \
                (entry.unit, entry.attacker_from)
            unit = variant.notation.parse_unit(m, spec, power)
            blocked = m.province_of(_location(m, origin, "attacker_from")) if origin else None
            dislodged.append(Dislodged(unit, blocked))
    contested = frozenset(
        m.province_of(_location(m, c, "contested")) for c in parsed.contested
    )
    orders: dict[str, list[str]] = {}
    for raw_power, items in parsed.orders.items():
        orders.setdefault(_power(m, raw_power, "orders"), []).extend(items)
    state = variant.state
    extra = {} if state is None else state.read(variant, m, doc)
    position = Position(
        m, phase, units, centers, tuple(dislodged), contested, variant=variant, extra=extra
    )
    problems = position.status()
    if problems:
        raise PhaseError("; ".join(problems))
    return position, orders, rules


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
        for d in position.dislodged:
            entry = {"unit": format_unit(m, d.unit)}
            if d.attacker_from is not None:
                entry["attacker_from"] = m.provinces[d.attacker_from].code
            dislodged.setdefault(d.unit.power, []).append(entry)
        doc["dislodged"] = dislodged
        doc["contested"] = sorted(m.provinces[p].code for p in position.contested)
    if variant.state is not None:
        variant.state.write(variant, position, doc)
    return doc


def _power_order(m: Map, keyed: Mapping[str, object]) -> list[str]:
    known = [p for p in m.power_codes if p in keyed]
    return known + sorted(p for p in keyed if p not in known)


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
        "dislodged": [
            outcome.before.variant.notation.format_unit(m, d.unit) for d in outcome.dislodged
        ],
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


def describe_error(exc: Exception) -> str:
    """A one-line message for any error reading a document (never a traceback)."""
    if isinstance(exc, CalhamerError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"missing field {exc}"
    return f"{type(exc).__name__}: {exc}"


def view_to_json(view: PowerView, rules: str | None = None) -> dict[str, Any]:
    """A power's view of a phase as a JSON object (the shape is in ``docs/formats.md``)."""
    m = view.before.map
    variant = view.before.variant
    order = [p for p in m.power_codes if p in view.results]
    order += sorted(p for p in view.results if p not in order)
    doc: dict[str, Any] = {
        "power": view.power,
        "phase": view.before.phase.code,
        "complete": view.complete,
        "results": {p: [r.to_json() for r in view.results[p]] for p in order},
        "dislodged": [variant.notation.format_unit(m, d.unit) for d in view.dislodged],
    }
    if view.notes:
        doc["notes"] = [n.to_json() for n in view.notes]
    if view.counts is not None:
        doc["centre_counts"] = dict(view.counts)
    doc["next"] = position_to_json(view.next, rules)
    return doc
