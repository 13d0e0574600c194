"""Phase JSON: the interchange format (documented in ``docs/formats.md``).

``read_json`` turns JSON text into a document (every file calhamer reads goes through it);
``position_from_json`` reads a phase document; ``position_to_json`` writes one (without
orders); ``outcome_to_json`` writes the output document of an adjudication.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from itertools import chain
from json.encoder import encode_basestring_ascii as _encode_text
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from calhamer.calendars import SEASON_NAMES
from calhamer.errors import CalhamerError, PhaseError
from calhamer.map import Map, UnitType
from calhamer.notation import Notation
from calhamer.phases.flow import editable
from calhamer.position import Dislodged, Phase, Position, Unit, units_from_specs
from calhamer.results import OrderResult, PhaseOutcome
from calhamer.rules import find_rules
from calhamer.variants import find_variant
from calhamer.victory import VictoryRule
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
    doc = _parse_json(text, name, with_line=with_line)
    _check_depth(text, doc, name)
    return doc


def _parse_json(text: str, name: str | None, *, with_line: bool) -> Any:
    """:func:`read_json` but for the depth of the document."""
    subject = f"{name} is " if name else ""
    try:
        return _loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if with_line else f"column {exc.colno}"
        raise DocumentError(f"{subject}not valid JSON: {exc.msg} ({where})") from None
    except RecursionError:
        raise DocumentError(f"{subject}{_too_deep()}") from None
    except ValueError as exc:  # a number with thousands of digits, lone surrogates...
        reason = "a number is too long" if "digits" in str(exc) else str(exc)
        raise DocumentError(f"{subject}not valid JSON: {reason}") from None


def _check_depth(text: str, doc: Any, name: str | None) -> None:
    """Raise :class:`DocumentError` when ``doc``, parsed from ``text``, nests more than
    :data:`MAX_DEPTH` levels deep."""
    # Nesting deeper than the limit needs more brackets than the limit: most documents have
    # too few to be walked at all.
    if (text.count("[") + text.count("{") > MAX_DEPTH
            and _depth_exceeds(doc, MAX_DEPTH)):
        subject = f"{name} is " if name else ""
        raise DocumentError(f"{subject}{_too_deep()}")


# JSON's own scanner (in C), as json.loads sets it up; and the blanks JSON allows around a value.
# (The decoder sets scan_once up in its __init__; the type stubs do not declare it.)
_scan_once: Callable[[str, int], tuple[Any, int]] = (
    json.JSONDecoder().scan_once)  # type: ignore[attr-defined]
_BLANKS = " \t\n\r"


def _loads(text: str | bytes) -> Any:
    """``json.loads(text)``: read by the scanner straight away when ``text`` holds one value
    and blanks at most (what every good document is), without the Python steps of
    ``json.loads`` around it (a phase of ``--jsonl`` reads one document). Any other text is
    read again by ``json.loads``, which raises its own errors as ever (and decodes bytes)."""
    if not isinstance(text, str):
        return json.loads(text)
    try:
        doc, end = _scan_once(text, len(text) - len(text.lstrip(_BLANKS)))
    except (StopIteration, ValueError, RecursionError):
        return json.loads(text)
    if end != len(text) and text[end:].lstrip(_BLANKS):
        return json.loads(text)  # more than one value: "Extra data"
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


# The keys a phase document of a plain board has: a document holding any other key (a
# variant's options, bids, seed or state) is read through the model.
_PLAIN_KEYS = frozenset(("variant", "rules", "phase", "units", "centers", "dislodged",
                         "contested", "orders"))


class _Fields(NamedTuple):
    """A phase document's fields, its shape checked (by hand or by the model)."""

    variant: str
    rules: str | None
    phase: str | None
    units: Mapping[str, list[str]]
    centers: Mapping[str, list[str]]
    dislodged: list[tuple[str, list[tuple[str, str | None]]]]  # power, (unit, attacker_from)
    contested: list[str]
    orders: Mapping[str, list[str]]


_LIST, _TEXT = frozenset((list,)), frozenset((str,))


def _text_lists_all(lists: list[Any]) -> bool:
    """Whether each of ``lists`` is a JSON list of strings (the types gathered in C,
    not looped; a ``str`` subclass is no JSON string)."""
    return (set(map(type, lists)) <= _LIST
            and set(map(type, chain.from_iterable(lists))) <= _TEXT)


def _plain_fields(doc: object) -> _Fields | None:
    """The fields of a plain phase document, its shape checked here without the model.

    None unless every key is one of a plain board's and every value of exactly the JSON type
    :class:`~calhamer.documents.PhaseDocument` takes, so that the model would accept the
    document as it stands: then the document is read as the model would have read it. Any
    other document (a variant's keys, a wrong type, a single dislodged entry not in a list)
    is left to the model, which alone words errors (field path and hint).
    """
    if type(doc) is not dict or not _PLAIN_KEYS.issuperset(doc):
        return None
    get = doc.get
    variant, rules, phase = get("variant", "standard"), get("rules"), get("phase")
    if (type(variant) is not str or (rules is not None and type(rules) is not str)
            or (phase is not None and type(phase) is not str)):
        return None
    units, centers, orders = get("units", {}), get("centers", {}), get("orders", {})
    contested = get("contested", [])
    if type(units) is not dict or type(centers) is not dict or type(orders) is not dict:
        return None
    # Every list of strings at once: one gathering of the lists' types, one of the items'.
    if not _text_lists_all([*units.values(), *centers.values(), *orders.values(), contested]):
        return None
    raw = get("dislodged", {})
    if type(raw) is not dict:
        return None
    dislodged = []
    for power, entries in raw.items():
        if type(entries) is not list:
            return None
        read: list[tuple[str, str | None]] = []
        for entry in entries:
            if type(entry) is str:
                read.append((entry, None))
                continue
            if type(entry) is not dict or not _DISLODGED_KEYS.issuperset(entry):
                return None
            unit, origin = entry.get("unit"), entry.get("attacker_from")
            if type(unit) is not str or (origin is not None and type(origin) is not str):
                return None
            read.append((unit, origin))
        dislodged.append((power, read))
    return _Fields(variant, rules, phase, units, centers, dislodged, contested, orders)


_DISLODGED_KEYS = frozenset(("unit", "attacker_from"))


def _model_fields(doc: object) -> _Fields:
    """The fields of any phase document, its shape checked by the model (raises
    :class:`PhaseError` with the field path of the first problem)."""
    parsed = phase_document(doc)
    dislodged = [
        (power, [(e, None) if isinstance(e, str) else (e.unit, e.attacker_from)
                 for e in entries])
        for power, entries in parsed.dislodged.items()
    ]
    return _Fields(parsed.variant, parsed.rules, parsed.phase, parsed.units, parsed.centers,
                   dislodged, parsed.contested, parsed.orders)


def position_from_json(doc: Mapping[str, Any]) -> tuple[Position, dict[str, list[str]], str]:
    """Read a phase document: the position, the orders by power, and the rule edition name.

    The document's shape is checked by :class:`PhaseDocument` (or, for a plain document whose
    every value has the right type, by hand: the same reading, faster), the variant's own
    fields by its state model (``Variant.state``), and every name against the map here."""
    fields = _plain_fields(doc)
    if fields is None:
        return _read_fields(doc, _model_fields(doc), direct=False)
    return _read_fields(doc, fields, direct=True)


def phase_from_line(text: str) -> tuple[Position, dict[str, list[str]], str]:
    """A phase document given as JSON text (a line of ``calhamer adjudicate --jsonl``): the
    same position, orders and edition, or the same error, as
    ``position_from_json(read_json(text, with_line=False))``.

    A plain document (:func:`_plain_fields`) nests three levels at most, so its text is not
    counted for depth (two passes over the text, a tenth of the parsing's cost); any other
    document is checked for depth, then read by :func:`position_from_json`."""
    doc = _parse_json(text, None, with_line=False)
    fields = _plain_fields(doc)
    if fields is None:
        _check_depth(text, doc, None)
        return position_from_json(doc)
    return _read_fields(doc, fields, direct=True)


def _read_fields(doc: Mapping[str, Any], fields: _Fields, *, direct: bool
                 ) -> tuple[Position, dict[str, list[str]], str]:
    """The position, orders and edition of a document whose shape is checked.

    ``direct``: units and centres written in canonical form are looked up in memos of those
    read before (units known sound need no :meth:`Position.status`), and a document's whole
    centres met before are their table as read then; otherwise every name is
    read and the board checked, as the model path always did. Both read alike, and fail alike:
    a name the memos do not hold is read, and its error worded, by the same readers."""
    variant = find_variant(fields.variant)
    m = variant.board()  # its map, as the variant's options change it
    rules = fields.rules or variant.default_rules
    find_rules(rules)  # fail early, with the list of editions, on a bad name
    phase = _phase(fields.phase or m.start_phase)
    if phase.season not in m.calendar.letters and phase.season not in SEASON_NAMES:
        raise PhaseError(f"phase {phase.code}: the board {m.name!r} has no season "
                         f"{phase.season!r} (its seasons are "
                         f"{', '.join(sorted(m.calendar.letters))})")
    codes = m._power_codes
    specs = fields.units  # keyed by power codes, as calhamer writes them, or read here
    if not codes.issuperset(specs):
        specs = {p if p in codes else _power(m, p, "units"): v for p, v in specs.items()}
    if direct:
        units, sound = _units(m, specs, variant.notation.parse_unit)
    else:
        units, sound = units_from_specs(m, specs, variant.notation.parse_unit), False
    # A document's whole centres met before are one look-up (see _CENTRE_TABLES).
    centres_key = _table_key(m, fields.centers) if direct else None
    centers = _CENTRE_TABLES.get(centres_key) if centres_key is not None else None
    if centers is None:
        centers = _centres(m, fields.centers, direct=direct)
        if centres_key is not None:
            centers = _keep(_CENTRE_TABLES, centres_key, centers)
    dislodged = []
    for raw_power, entries in fields.dislodged:
        power = _power(m, raw_power, "dislodged")
        for spec, origin in entries:
            # A dislodged unit is written alone ("F ANK") or with where its attacker came from.
            unit = variant.notation.parse_unit(m, spec, power)
            blocked = m.province_of(_location(m, origin, "attacker_from")) if origin else None
            dislodged.append(Dislodged(unit, blocked))
    contested = frozenset(
        m.province_of(_location(m, c, "contested")) for c in fields.contested
    ) if fields.contested else frozenset()
    orders: dict[str, list[str]]
    if codes.issuperset(fields.orders):  # keyed by power codes: one list each
        orders = {power: list(items) for power, items in fields.orders.items()}
    else:
        orders = {}
        for raw_power, items in fields.orders.items():
            power = raw_power if raw_power in codes else _power(m, raw_power, "orders")
            if power in orders:
                orders[power].extend(items)
            else:
                orders[power] = list(items)
    state = variant.state
    extra = {} if state is None else state.read(variant, m, doc)
    position = Position(
        m, phase, units, centers, tuple(dislodged), contested, variant=variant, extra=extra
    )
    if not sound:
        problems = position.status()
        if problems:
            raise PhaseError("; ".join(problems))
    return position, orders, rules


# Phases by code, as read (a phase is a frozen value).
_PHASES: dict[str, Phase] = {}


def _phase(code: str) -> Phase:
    phase = _PHASES.get(code)
    if phase is None:
        phase = Phase.parse(code)
        if len(_PHASES) < 10_000:
            _PHASES[code] = phase
    return phase


def _centres(m: Map, listed: Mapping[str, list[str]], *, direct: bool) -> dict[int, str]:
    """The owner of each centre ``listed`` (raises :class:`PhaseError` for a name that is no
    centre, or a centre listed for two powers). ``direct``: canonical names are looked up in
    a table of the map's centres before being read."""
    codes = m._power_codes
    centers: dict[int, str] = {}
    centre_of = _centre_provinces(m) if direct else {}
    for raw_power, names in listed.items():
        power = raw_power if raw_power in codes else _power(m, raw_power, "centers")
        for code in names:
            province = centre_of.get(code)
            if province is None:
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
    return centers


# A plain document's whole centres, as written (the map, the power keys, each power's list),
# read into their table for the position ({province: owner}). A stream of phases meets the
# same centres all year (they change hands only after Fall), so a table met again is one
# look-up instead of a step a centre; a miss costs building the key. Only tables read without
# error are kept, as read-only views, which a position keeps as they are (nobody can change
# them); bounded like the other memos (a table is a few hundred bytes). Units are not kept
# whole: they change every phase, so a stream would rarely meet the same units again.
T = TypeVar("T")
_CENTRE_TABLES: dict[tuple[object, ...], Mapping[int, str]] = {}
_TABLE_LIMIT = 4_096


def _table_key(m: Map, lists: Mapping[str, list[str]]) -> tuple[object, ...]:
    """The key of ``lists`` (centres by power) in its memo: the map, the
    powers, then each power's list as a tuple (no two documents that differ share a key)."""
    return (m, *lists, *map(tuple, lists.values()))


def _keep(memo: dict[tuple[object, ...], Mapping[int, T]], key: tuple[object, ...],
          table: dict[int, T]) -> Mapping[int, T]:
    """``table`` read-only, kept in ``memo`` under ``key`` while there is room."""
    view = MappingProxyType(table)
    if len(memo) < _TABLE_LIMIT:
        memo[key] = view
    return view


@cache
def _centre_provinces(m: Map) -> dict[str, int]:
    """Each supply centre's province by every canonical name of its locations (``STP``,
    ``STP/SC``), as documents write them."""
    loc_province, provinces = m.loc_province, m.provinces
    return {name: loc_province[loc] for name, loc in m.canonical_locations.items()
            if provinces[loc_province[loc]].is_supply_center}


# Per map and power, the units read from their canonical text ("F STP/SC") that may stand
# where they are: a frozen value each, read once. Bounded as the order memo is.
_UNITS_READ: dict[tuple[Map, str], dict[str, Unit]] = {}
_UNIT_LIMIT = 20_000


def _units(m: Map, specs: Mapping[str, list[str]],
           parse_unit: Callable[[Map, str, str], Unit]) -> tuple[dict[int, Unit], bool]:
    """The unit table of ``specs``, and whether it is known sound (every unit may stand
    where it is, filed under its province: what :meth:`Position.status` checks).

    The standard notation's units are looked up in a memo of units already read and found
    sound; a table holding any other is built by :func:`units_from_specs`, which reads and
    words errors, and left for ``status`` to check."""
    standard = getattr(parse_unit, "__func__", None) is Notation.parse_unit
    if standard:
        loc_province = m.loc_province
        units: dict[int, Unit] = {}
        listed = 0
        for power, unit_specs in specs.items():
            memo = _UNITS_READ.get((m, power))
            if memo is None:
                memo = _UNITS_READ[(m, power)] = {}
            for spec in unit_specs:
                try:  # a subscript, not .get: the look-up that hits is the cheaper
                    unit = memo[spec]
                except KeyError:
                    found = _sound_unit(m, spec, power)
                    if found is None:
                        return units_from_specs(m, specs, parse_unit), False
                    unit = found
                    if len(memo) < _UNIT_LIMIT:
                        memo[spec] = unit
                units[loc_province[unit.loc]] = unit
            listed += len(unit_specs)
        if len(units) < listed:  # two units in one place (counted once): worded by the reader
            return units_from_specs(m, specs, parse_unit), False
        return units, True
    return units_from_specs(m, specs, parse_unit), False


def _sound_unit(m: Map, spec: str, power: str) -> Unit | None:
    """The unit ``spec`` (in canonical form) of ``power``, if it may stand where it is."""
    unit_type = {"A ": UnitType.ARMY, "F ": UnitType.FLEET}.get(spec[:2])
    loc = m.canonical_locations.get(spec[2:]) if unit_type is not None else None
    if unit_type is None or loc is None or power not in m._power_codes:
        return None
    if not m.unit_can_stand(unit_type, loc):
        return None
    return Unit(power, unit_type, loc)


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
# ("A PAR H", "holds"). Emptied when it grows past the limit, as _JSON_TEXTS is.
_JSON_ENTRIES: dict[tuple[str, str, str, str], str] = {}


def _entry_json(key: tuple[str, str, str, str]) -> str:
    text = _json_text
    piece = (f'{{"order":{text(key[0])},"canonical":{text(key[1])},'
             f'"result":{text(key[2])},"reason":{text(key[3])}}}')
    if len(_JSON_ENTRIES) >= _JSON_TEXT_LIMIT:
        _JSON_ENTRIES.clear()
    _JSON_ENTRIES[key] = piece
    return piece


def _compact(doc: Any) -> str:
    return json.dumps(doc, separators=(",", ":"))


# Strings as JSON writes them (quoted, escaped, ASCII), by string: results repeat their
# orders and reasons from phase to phase. Emptied when it grows past the limit.
_JSON_TEXTS: dict[str, str] = {}
_JSON_TEXT_LIMIT = 20_000


def _json_text(value: str) -> str:
    found = _JSON_TEXTS.get(value)
    if found is None:
        found = _encode_text(value)
        if len(_JSON_TEXTS) >= _JSON_TEXT_LIMIT:
            _JSON_TEXTS.clear()
        _JSON_TEXTS[value] = found
    return found


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
