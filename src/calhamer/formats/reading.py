"""Reading phase documents into positions.

:func:`position_from_json` reads a phase document (checked by hand when plain, else by the
model, :func:`phase_document`) into a position, its orders and its rule edition;
:func:`phase_from_line` does the same from a line of JSON text (``calhamer adjudicate
--jsonl``); :func:`order_text` reads one submitted order line. Names read before (units,
whole centre tables, phases) are looked up in bounded memos.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from itertools import chain
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from calhamer.calendars import SEASON_NAMES
from calhamer.errors import PhaseError
from calhamer.formats.json_text import _check_depth, _parse_json
from calhamer.map import Map, UnitType
from calhamer.notation import Notation
from calhamer.position import Dislodged, Phase, Position, Unit, units_from_specs
from calhamer.rules import find_rules
from calhamer.variants import find_variant

if TYPE_CHECKING:
    from calhamer.documents.phase import PhaseDocument


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
