"""Kriegsplomacy (Allen Wells and Don Woods, rd07): Diplomacy where nobody sees the board.

A power learns which of its orders succeeded, which of its units were attacked, which of its
moves were opposed, its dislodgements and whether each retreat worked, its own centres before
each winter and every power's centre count after it; anything else only through espionage.
The rules as implemented, and every reading of the source, are in ``docs/rules/kriegsplomacy.md``.

What the variant changes:

- the board (``maps/kriegsplomacy.toml``) starts in Winter 1900 with home centres and no units,
  and builds go in any owned, vacant centre (rule 2);
- two more movement orders, espionage (``A VIE E``) and counter-espionage (``F NWY CE``), which
  adjudicate as holds (rule 5);
- orders are read and checked against what their power knows (its own units), so that no
  error message reveals a foreign unit; a retreat to a place it may not go is a legal order
  that fails and disbands the unit (rule 3.6);
- every movement phase is followed by a retreat phase and every Fall by a Winter, needed or
  not, so that silence tells nothing (the staged release);
- :meth:`Kriegsplomacy.power_view` builds each power's view in the source's notation
  (``F Sev*-Bla [opp]``, ``Ita A ???-Tyo*``, ``Austria: (4) + 1;``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from calhamer import notation
from calhamer.adjudicator import EMPTY, MOVE, SUPPORT, MovementResolver, OrderTable
from calhamer.errors import InvalidOrderError, OrderError, PhaseError
from calhamer.map import ARMY, Location, Map, ProvinceId, UnitType
from calhamer.notation import ParsedOrder
from calhamer.orders import AnyOrder, Convoy, Disband, Hold, Move, Order, Retreat, Support
from calhamer.phases import update_centers
from calhamer.position import Dislodged, Phase, Position, Unit
from calhamer.results import FAILS, INVALID, SUCCEEDS, OrderResult, PhaseOutcome
from calhamer.rules import DisorderDistance, Rules
from calhamer.validation import Illegal, check_movement_order, sea_route_exists
from calhamer.variant import Variant
from calhamer.views import KNOWN_TOTALS, UNKNOWN, Note, PowerView, centre_totals

# -- the spying orders (rule 5) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Espionage(Hold):
    """``A VIE E``: the unit holds and learns what happens in its range (rule 6)."""


@dataclass(frozen=True, slots=True)
class CounterEspionage(Hold):
    """``F NWY CE``: the unit holds and hides its range from other powers' espionage (rule 7)."""


_SPY_WORDS = {
    "E": Espionage,
    "ESP": Espionage,
    "ESPIONAGE": Espionage,
    "SPY": Espionage,
    "CE": CounterEspionage,
    "C-E": CounterEspionage,
    "COUNTERESPIONAGE": CounterEspionage,
    "COUNTER-ESPIONAGE": CounterEspionage,
    "COUNTER ESPIONAGE": CounterEspionage,
}
_SPY_TAIL = re.compile(
    r"^(?P<head>.*?\S)(?P<gap>\s+)(?P<word>e|esp|espionage|spy|c-e|ce|"
    r"counter[- ]?espionage)\s*$",
    re.IGNORECASE,
)


def spy_range(m: Map, unit: Unit) -> frozenset[ProvinceId]:
    """The places a unit spies on (rule 5.3): where it could support into, and its own place.

    Rule 6.4 names the centre a spy sits on, and the source's Fall 1901 shows a CE hiding the
    province of the CE unit itself, so the unit's own province is part of its range.
    """
    here = m.province_of(unit.loc)
    if unit.type is ARMY:
        return frozenset(m.army_adjacent[here]) | {here}
    return frozenset(m.province_of(loc) for loc in m.fleet_adjacent[unit.loc]) | {here}


# -- names as the source writes them ----------------------------------------------------------

# The source's own abbreviations where they differ from the map's codes (all of them are also
# names the map accepts, so a player may copy a report line back into an order).
_SHORT = {"STP": "StP", "TYR": "Tyo", "TYS": "Tyh", "MAO": "Mid", "WES": "Wmd", "NAO": "Nat"}


def short(m: Map, loc: Location) -> str:
    """``Bud``, ``StP(NC)``, ``Bul(SC)``: a place as the source writes it."""
    code = m.provinces[m.loc_province[loc]].code
    name = _SHORT.get(code, code[:1] + code[1:].lower())
    coast = m.loc_coast[loc]
    return f"{name}({coast})" if coast else name


def power_abbreviation(m: Map, power: str | None) -> str:
    """``Aus``, ``Eng``, ``Fre``: the first three letters of the power's adjective."""
    if power is None:
        return "???"
    try:
        p = m.power(power)
    except KeyError:
        return power[:3].title()
    return (p.adjective or p.name)[:3]


def _letter(unit_type: UnitType | None) -> str:
    return "?" if unit_type is None else unit_type.letter


# -- spies remembered from the movement phase until its retreats are told -------------------------


@dataclass(frozen=True, slots=True)
class SpyRecord:
    """A spy whose espionage succeeded, and the places it saw (``Position.extra["spies"]``)."""

    power: str
    unit: Unit
    sees: frozenset[ProvinceId]


# -- the facts of a movement phase -------------------------------------------------------------


class MovementFacts:
    """What Kriegsplomacy tells about one adjudicated movement phase, worked out once.

    ``attacked`` (rule 3.3), ``opposed`` (rule 3.4), spies and their ranges (rules 5 to 7), and
    the lines each power and spy is shown.
    """

    def __init__(self, outcome: PhaseOutcome) -> None:
        resolver = outcome.detail.get("resolver")
        if not isinstance(resolver, MovementResolver):
            raise PhaseError(
                "a Kriegsplomacy view needs the adjudication itself (adjudicate the phase "
                "again rather than rebuilding it from stored results)"
            )
        self.outcome = outcome
        self.before: Position = outcome.before
        self.m: Map = self.before.map
        self.r: MovementResolver = resolver
        self.t: OrderTable = resolver.table
        m = self.m
        self.orders: dict[ProvinceId, Order] = {}
        for results in outcome.results.values():
            for res in results:
                if res.result != INVALID and isinstance(res.order, Order):
                    self.orders.setdefault(m.province_of(res.order.loc), res.order)
        self.dislodged = {m.province_of(d.unit.loc) for d in outcome.dislodged}
        self.attacked = {p: self._attacked(p) for p in self.before.units}
        self.spies = [
            p for p in sorted(self.before.units, key=self._code)
            if isinstance(self.orders.get(p), Espionage | CounterEspionage)
        ]

    @classmethod
    def of(cls, outcome: PhaseOutcome) -> MovementFacts:
        """The facts of ``outcome``, worked out once however many views are built from it."""
        facts = outcome.detail.get("kriegsplomacy")
        if not isinstance(facts, cls) or facts.outcome is not outcome:
            facts = outcome.detail["kriegsplomacy"] = cls(outcome)
        return facts

    def _code(self, p: ProvinceId) -> str:
        return self.m.provinces[p].code

    # -- rules 3.3 and 3.4 ------------------------------------------------------------------------

    def _attacked(self, q: ProvinceId) -> bool:
        """Rule 3.3: a foreign move reached for ``q`` and its unit did not leave."""
        t, r = self.t, self.r
        if t.kind[q] == MOVE and r.resolution[q]:
            return False  # a move into the place it left is no attack
        return any(t.owner[a] != t.owner[q] and r.path(a) for a in t.movers_to[q])

    def opposed(self, p: ProvinceId) -> bool:
        """Rule 3.4: whether the move of the unit in ``p`` met opposition (own units count)."""
        t, r = self.t, self.r
        q = t.dest[p]
        if t.kind[q] != EMPTY:
            if t.kind[q] != MOVE or not r.resolution[q]:
                return True  # a unit holding there, or trying and failing to leave
            if t.dest[q] == p and not r.convoyed[p] and not r.convoyed[q]:
                return True  # a unit moving the other way, neither move convoyed
        return any(a != p and r.path(a) for a in t.movers_to[q])

    def support_cut(self, s: ProvinceId) -> bool:
        """Whether the support ordered in ``s`` (given or void) was cut or dislodged (6.3)."""
        if s in self.dislodged:
            return True
        if self.t.kind[s] == SUPPORT:
            return not self.r.resolution[s]
        return any(self.r.cuts_support(a, s) for a in self.t.movers_to[s])

    # -- rules 5 to 7 -----------------------------------------------------------------------------

    def is_cut(self, p: ProvinceId) -> bool:
        """Rule 5.1: an attack on a spying unit cuts the spying."""
        return self.attacked[p]

    def sees(self, spy: ProvinceId) -> frozenset[ProvinceId]:
        """The places an espionage order learns about: its range less every other power's
        uncut counter-espionage (rules 7 and 7.2); empty when the espionage is cut."""
        if self.is_cut(spy):
            return frozenset()
        unit = self.before.units[spy]
        hidden: set[ProvinceId] = set()
        for p in self.spies:
            other = self.before.units[p]
            if (
                isinstance(self.orders[p], CounterEspionage)
                and other.power != unit.power
                and not self.is_cut(p)
            ):
                hidden |= spy_range(self.m, other)
        return spy_range(self.m, unit) - hidden

    def spy_records(self) -> tuple[SpyRecord, ...]:
        records = []
        for p in self.spies:
            if isinstance(self.orders[p], Espionage) and not self.is_cut(p):
                unit = self.before.units[p]
                records.append(SpyRecord(unit.power, unit, self.sees(p)))
        return tuple(records)

    # -- a power's own orders (rules 3.3 to 3.6) ---------------------------------------------------

    def own_results(self, power: str, prefix: bool = False) -> list[OrderResult]:
        """``power``'s orders as it is told them, each line in the source's notation: the
        orders given (invalid ones with the reason), then its units that held for want of a
        valid order."""
        out: list[OrderResult] = []
        m = self.m
        abbreviation = f"{power_abbreviation(m, power)} " if prefix else ""
        for res in self.outcome.results.get(power, []):
            if res.result == INVALID:
                out.append(OrderResult(power, res.text, res.canonical, INVALID, res.reason))
            elif isinstance(res.order, Order):
                line, verdict, reason = self.own_line(m.province_of(res.order.loc), res.order)
                out.append(
                    OrderResult(power, res.text, abbreviation + line, verdict, reason, res.order)
                )
        for p in sorted(self.before.units, key=self._code):
            if self.before.units[p].power == power and p not in self.orders:
                line, verdict, reason = self.own_line(p, None)
                out.append(OrderResult(power, "", abbreviation + line, verdict, reason))
        return out

    def own_line(self, p: ProvinceId, order: Order | None) -> tuple[str, str, str]:
        """The line, verdict and reason a power is told about its unit in ``p``."""
        m, t, r = self.m, self.t, self.r
        unit = self.before.units[p]
        dislodged = p in self.dislodged
        flags: list[str] = []
        words: list[str] = []
        kind = t.kind[p]
        where = short(m, unit.loc)
        letter = _letter(unit.type)
        if kind == MOVE:
            moved = r.resolution[p]
            dest = short(m, t.exact[p])
            if moved:
                dest += "*"
            elif not dislodged:
                where += "*"
            line = f"{letter} {where}-{dest}"
            verdict = SUCCEEDS if moved else FAILS
            words.append("moves" if moved else "fails")
            if self.opposed(p):
                flags.append("opp")
                words.append("opposed")
        else:
            star = "" if dislodged else "*"
            verdict = FAILS if dislodged else SUCCEEDS
            if isinstance(order, Espionage | CounterEspionage):
                code = "E" if isinstance(order, Espionage) else "CE"
                line = f"{letter} {where}{star} {code}"
                what = "espionage" if code == "E" else "counter-espionage"
                if self.is_cut(p):
                    verdict = FAILS
                    words.append(f"{what} cut by an attack")
                else:
                    words.append(what)
            elif isinstance(order, Support):
                target = f"{_letter(order.target_type)} {short(m, order.target)}"
                if order.dest is not None:
                    target += f"-{short(m, order.dest)}"
                line = f"{letter} {where}{star} S {target}"
                verdict = UNKNOWN  # rules 4.2 to 4.4: whether it was given is not told
                words.append("whether the support was given is not told")
            elif isinstance(order, Convoy):
                line = f"{letter} {where}{star} C A {short(m, order.army)}-{short(m, order.dest)}"
                verdict = UNKNOWN
                words.append("whether the convoy was used is not told")
            else:
                line = f"{letter} {where}{star} H"
                words.append("holds" if not dislodged else "dislodged")
        if self.attacked[p]:
            flags.append("att")
            words.append("attacked")
        if dislodged:
            flags.append("dislodged")
            if "dislodged" not in words:
                words.append("dislodged")
        if flags:
            line += f" [{'; '.join(flags)}]"
        return line, verdict, "; ".join(words)

    # -- what a spy learns (rule 6) ----------------------------------------------------------------

    def spy_title(self, spy: ProvinceId, prefix: bool) -> str:
        unit = self.before.units[spy]
        line, _, _ = self.own_line(spy, self.orders[spy])
        if prefix:
            line = f"{power_abbreviation(self.m, unit.power)} {line}"
        return f"Espionage: {line}"

    def spy_lines(self, spy: ProvinceId) -> list[str]:
        """What the espionage in ``spy`` learns: centre owners, then orders, in the source's
        notation, with ``???`` for every place it does not see."""
        sees = self.sees(spy)
        if not sees:
            return []
        m, before = self.m, self.before
        lines = []
        for p in sorted(sees, key=self._code):
            if m.provinces[p].is_supply_center:
                owner = before.centers.get(p)
                lines.append(
                    f"{short(m, p)} = {power_abbreviation(m, owner) if owner else 'unowned'}"
                )
        for p in sorted(before.units, key=self._code):
            if p != spy:
                line = self.seen(p, sees)
                if line:
                    lines.append(line)
        return lines

    def seen(self, p: ProvinceId, sees: frozenset[ProvinceId]) -> str | None:
        """The line a spy seeing ``sees`` gets about the unit in ``p``, if any."""
        m, t, r = self.m, self.t, self.r
        unit = self.before.units[p]
        order = self.orders.get(p)
        here = p in sees
        dislodged = here and p in self.dislodged
        who = f"{power_abbreviation(m, unit.power)} {_letter(unit.type)}"
        where = short(m, unit.loc) if here else "???"
        tag = " [dislodged]" if dislodged else ""
        star = "*" if here and not dislodged else ""
        if t.kind[p] == MOVE:
            q = t.dest[p]
            there = q in sees
            if not here and not there:
                return None
            dest = short(m, t.exact[p]) if there else "???"
            if r.resolution[p]:
                dest += "*" if there else ""
            else:
                where += star
            return f"{who} {where}-{dest}{tag}"
        if isinstance(order, Support):
            target = m.province_of(order.target)
            into = target if order.dest is None else m.province_of(order.dest)
            if not (here or target in sees or into in sees):
                return None
            if not here and self.support_cut(p):
                return None  # rule 6.3
            other = self.before.units.get(target)
            if other is not None:
                them = f"{power_abbreviation(m, other.power)} {_letter(other.type)}"
                at = short(m, other.loc) if target in sees else "???"
            else:
                them = f"??? {_letter(order.target_type)}"
                at = short(m, order.target) if target in sees else "???"
            line = f"{who} {where}{star} S {them} {at}"
            if order.dest is not None:
                line += "-" + (short(m, order.dest) if into in sees else "???")
            if p in t.void:
                line += " [nso]"  # rule 6.2
            return line + tag
        if not here:
            return None
        if isinstance(order, Convoy):
            army = m.province_of(order.army)
            to = m.province_of(order.dest)
            other = self.before.units.get(army)
            them = power_abbreviation(m, other.power) if other is not None else "???"
            frm = short(m, order.army) if army in sees else "???"
            dst = short(m, order.dest) if to in sees else "???"
            line = f"{who} {where}{star} C {them} A {frm}-{dst}"
            if p in t.void:
                line += " [nso]"
            return line + tag
        if isinstance(order, Espionage):
            return f"{who} {where}{star} E{tag}"
        if isinstance(order, CounterEspionage) and self.is_cut(p):
            return f"{who} {where}{star} CE{tag}"  # rule 7.1
        if dislodged:
            return f"{who} {where}{tag}"  # a unit in range was driven out
        return None


# -- retreats (rule 3.6 and the staged release) --------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fate:
    unit: Unit
    dest: Location | None  # the retreat ordered, if any
    arrived: bool


def retreat_fates(outcome: PhaseOutcome) -> dict[ProvinceId, _Fate]:
    """What became of each dislodged unit of a retreat phase, by the province it left."""
    before = outcome.before
    m = before.map
    chosen: dict[ProvinceId, OrderResult] = {}
    for results in outcome.results.values():
        for res in results:
            if res.result != INVALID and isinstance(res.order, Retreat | Disband):
                chosen.setdefault(m.province_of(res.order.loc), res)
    fates = {}
    for d in before.dislodged:
        p = m.province_of(d.unit.loc)
        given = chosen.get(p)
        if given is not None and isinstance(given.order, Retreat):
            fates[p] = _Fate(d.unit, given.order.dest, given.result == SUCCEEDS)
        else:
            fates[p] = _Fate(d.unit, None, False)
    return fates


def retreat_line(m: Map, fate: _Fate, sees: Iterable[ProvinceId] | None = None) -> str | None:
    """``F Aeg [r-Gre*]`` (retreated), ``[r-Gre]`` (failed: disbanded), ``[d]`` (disbanded).

    With ``sees`` (a spy's places), names out of them are ``???`` and the line is None when
    the retreat neither starts nor ends in them.
    """
    here = m.province_of(fate.unit.loc)
    seen = None if sees is None else frozenset(sees)
    visible_from = seen is None or here in seen
    where = short(m, fate.unit.loc) if visible_from else "???"
    letter = _letter(fate.unit.type)
    if fate.dest is None:
        return f"{letter} {where} [d]" if visible_from else None
    visible_to = seen is None or m.province_of(fate.dest) in seen
    if not visible_from and not visible_to:
        return None
    dest = short(m, fate.dest) if visible_to else "???"
    return f"{letter} {where} [r-{dest}{'*' if fate.arrived else ''}]"


def known_totals(position: Position, power: str) -> dict[str, int | None]:
    """Every power's centre total as ``power`` knows it in ``position`` (None: not told).

    Rule 3.2 tells every power the totals after each winter, and ownership changes only as a
    winter begins (rule 6.4), so through Spring and Fall the totals on the board are the ones
    last told (or the game's start, which the rules make public: home centres, rule 2.1). In
    a winter the new totals are not told until after it: a power then knows its own (rule
    3.1, its centres) and no one else's. The reading is in ``docs/rules/kriegsplomacy.md``.
    """
    totals = centre_totals(position)  # already a power's knowledge if known before
    if position.phase.is_adjustment and position.phase.code != position.map.start_phase:
        return {p: (n if p == power else None) for p, n in totals.items()}
    return totals


def centre_chart(outcome: PhaseOutcome) -> list[str]:
    """``Austria: (4) + 1;``: every power's centres after a winter and its change in units."""
    before, after = outcome.before, outcome.after
    m = before.map
    centres = before.center_counts()
    units_before, units_after = before.unit_counts(), after.unit_counts()
    lines = []
    for power in m.power_codes:
        count = centres.get(power, 0)
        had, has = units_before.get(power, 0), units_after.get(power, 0)
        if not (count or had or has):
            continue
        change = has - had
        text = "No Change" if change == 0 else f"{'+' if change > 0 else '-'} {abs(change)}"
        lines.append(f"{m.power(power).name}: ({count}) {text};")
    return lines


# -- the variant ---------------------------------------------------------------------------------


class Kriegsplomacy(Variant):
    """Kriegsplomacy rd07: fog of war, espionage and counter-espionage, flexible builds."""

    name = "kriegsplomacy"
    aliases = ("krieg", "kriegsplomacy-rd07", "rd07")
    title = "Kriegsplomacy"
    map_name = "kriegsplomacy"
    hidden_information = True
    blocked_retreat_fails = True

    # -- phase documents: the spies whose retreat news is still to come -------------------------

    def read_extra(self, m: Any, doc: Mapping[str, Any]) -> Mapping[str, object]:
        extra = doc.get("extra") or {}
        if not isinstance(extra, Mapping):
            raise PhaseError('"extra" must be an object')
        entries = extra.get("spies", [])
        if not isinstance(entries, list):
            raise PhaseError('"extra.spies" must be a list of {"power", "unit", "sees"} objects')
        spies = []
        for entry in entries:
            if not isinstance(entry, Mapping) or not {"power", "unit", "sees"} <= set(entry):
                raise PhaseError('each of "extra.spies" is written {"power": "ENGLAND", '
                                 '"unit": "F NTH", "sees": ["BEL", ...]}')
            power = m.find_power(str(entry["power"]))
            if power is None:
                raise PhaseError(f"extra.spies: {entry['power']!r} is not a power of this map")
            unit = self.parse_unit(m, str(entry["unit"]), power)
            sees = set()
            for code in entry["sees"]:
                loc = m.find_location(str(code))
                if loc is None:
                    raise PhaseError(f"extra.spies: {code!r} is not a province of this map")
                sees.add(m.province_of(loc))
            spies.append(SpyRecord(power, unit, frozenset(sees)))
        return {"spies": tuple(spies)} if spies else {}

    def write_extra(self, position: Any, doc: dict[str, Any]) -> None:
        spies = position.extra.get("spies")
        if not spies:
            return
        m = position.map
        doc["extra"] = {
            "spies": [
                {
                    "power": s.power,
                    "unit": self.format_unit(m, s.unit),
                    "sees": sorted(m.provinces[p].code for p in s.sees),
                }
                for s in spies
            ]
        }

    # -- orders ------------------------------------------------------------------------------------

    def known_position(self, position: Position, power: str) -> Position:
        """What ``power`` knows: its own units, dislodged units and centres, and the centre
        totals of every power it has been told (:func:`known_totals`); nothing else foreign."""
        return position.replace(
            units={p: u for p, u in position.units.items() if u.power == power},
            centers={p: o for p, o in position.centers.items() if o == power},
            dislodged=tuple(
                Dislodged(d.unit, None) for d in position.dislodged if d.unit.power == power
            ),
            contested=frozenset(),
            extra={KNOWN_TOTALS: known_totals(position, power)},
        )

    def parse_order(
        self, m: Map, text: str, *, phase_kind: str, position: Position | None, power: str | None
    ) -> ParsedOrder:
        """Orders are read against the power's own units only (an omitted unit type is never
        taken from a foreign unit); ``E`` and ``CE`` end a movement order."""
        notation.check_order_length(text)  # before the espionage words are looked for
        if position is not None:
            position = self.known_position(position, m.find_power(power or "") or "")
        match = _SPY_TAIL.match(text) if phase_kind == "M" else None
        if match is None:
            return notation.parse_order(
                m, text, phase_kind=phase_kind, position=position, power=power
            )
        word = match["word"]
        kind = _SPY_WORDS[re.sub(r"\s+", " ", word.upper())]
        held = f"{match['head']}{match['gap']}H{' ' * (len(word) - 1)}"
        start = len(match["head"]) + len(match["gap"])
        try:
            parsed = notation.parse_order(
                m, held, phase_kind=phase_kind, position=position, power=power
            )
        except OrderError as exc:
            if exc.start <= start < max(exc.end, exc.start + 1):
                message = (
                    f'"{word}" is out of place here: espionage (E) and counter-espionage (CE) '
                    'are ordered to a unit by itself, like "A VIE E" or "F NWY CE"'
                )
                raise InvalidOrderError(
                    message, text=text, start=start, end=start + len(word)
                ) from None
            raise type(exc)(
                exc.message, text=text, start=exc.start, end=exc.end, suggestion=exc.suggestion
            ) from None
        order = parsed.order
        if type(order) is not Hold:
            raise InvalidOrderError(
                'espionage (E) and counter-espionage (CE) are ordered to a unit by itself, like '
                '"A VIE E"', text=text, start=start, end=start + len(word),
            )
        return ParsedOrder(parsed.power, kind(order.unit_type, order.loc), text.strip())

    def format_order(self, position: Position, order: AnyOrder) -> str:
        if isinstance(order, Espionage | CounterEspionage):
            unit = notation.format_order(position.map, Hold(order.unit_type, order.loc))[:-2]
            return f"{unit} {'E' if isinstance(order, Espionage) else 'CE'}"
        return super().format_order(position, order)

    def no_unit_message(
        self,
        position: Position,
        power: str | None,
        province: ProvinceId,
        *,
        dislodged: bool = False,
    ) -> str:
        """Said alike whether a foreign unit stands there or none (nothing foreign is told)."""
        m = position.map
        name = m.power(power).name if power and m.find_power(power) else (power or "you")
        what = "dislodged unit" if dislodged else "unit"
        return f"{name} has no {what} in {m.describe(province)}"

    def check_movement_order(self, position: Position, power: str | None, order: Order) -> Order:
        """Legality judged on what the power knows: its own units and the map.

        An army may be ordered anywhere a convoy could take it, whatever fleets stand at sea
        (players cannot see them); a support or convoy may name any unit, or none (rule 4.3).
        """
        m = position.map
        here = m.loc_province[order.loc]
        unit = position.units.get(here)
        if unit is None or (power is not None and unit.power != power):
            raise Illegal(self.no_unit_message(position, power, here))
        known = self.known_position(position, unit.power)
        if isinstance(order, Move) and unit.type is ARMY:
            target = m.province_of(order.dest)
            if (
                target != here
                and target not in m.army_adjacent[here]
                and m.is_coastal(here)
                and sea_route_exists(m, here, target)
            ):
                return replace(order, unit_type=ARMY, loc=unit.loc, dest=target)
        return check_movement_order(known, power, order)

    # -- phases ------------------------------------------------------------------------------------

    def phase_rules(self, rules: Rules) -> Rules:
        """Rule 2.2 (build in any owned, vacant centre) and 2.3 (civil disorder) in any edition."""
        if (
            not rules.builds_in_home_centres_only
            and rules.civil_disorder is DisorderDistance.OWNED_CENTRE_ANY_ROUTE
        ):
            return rules
        return rules.with_options(
            builds_in_home_centres_only=False,
            civil_disorder=DisorderDistance.OWNED_CENTRE_ANY_ROUTE,
        )

    def next_phase(self, position: Position, rules: Rules) -> Position | None:
        """A retreat phase after every movement phase and a winter after every Fall."""
        phase = position.phase
        if phase.is_movement:
            return position.replace(phase=Phase(phase.year, phase.season, "R"), dislodged=())
        if phase.is_retreat and phase.season == "F":
            return position.replace(
                phase=Phase(phase.year, "W", "A"),
                centers=update_centers(position),
                contested=frozenset(),
            )
        return None

    def finish_outcome(self, outcome: PhaseOutcome, rules: Rules) -> PhaseOutcome:
        """Remember each movement phase's spies in its retreat phase (whose news they get)."""
        nxt = outcome.next
        if outcome.before.phase.is_movement:
            spies = MovementFacts.of(outcome).spy_records()
            extra = {k: v for k, v in nxt.extra.items() if k != "spies"}
            if spies:
                extra["spies"] = spies
        elif "spies" in nxt.extra:
            extra = {k: v for k, v in nxt.extra.items() if k != "spies"}
        else:
            return outcome
        new = nxt.replace(extra=extra)
        if outcome.after is nxt:
            outcome.after = new
        outcome.next = new
        return outcome

    # -- views -------------------------------------------------------------------------------------

    def power_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        kind = outcome.before.phase.kind
        if kind == "M":
            return self._movement_view(outcome, power)
        if kind == "R":
            return self._retreat_view(outcome, power)
        if kind == "A":
            return self._winter_view(outcome, power)
        return super().power_view(outcome, power)

    def _known(self, position: Position, power: str | None) -> Position:
        return position if power is None else self.known_position(position, power)

    def _movement_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        facts = MovementFacts.of(outcome)
        before = outcome.before
        gm = power is None
        powers = [p for p in before.map.power_codes if p in outcome.results] if gm else [power]
        results = {p: facts.own_results(p) for p in powers if p in outcome.results}
        notes = []
        for spy in facts.spies:
            unit = before.units[spy]
            if (
                isinstance(facts.orders[spy], Espionage)
                and not facts.is_cut(spy)
                and (gm or unit.power == power)
            ):
                # An uncut spy always reports, if only that it saw nothing (a CE, rule 7.3).
                notes.append(Note(facts.spy_title(spy, gm), tuple(facts.spy_lines(spy))))
        dislodged = tuple(d for d in outcome.dislodged if gm or d.unit.power == power)
        return PowerView(
            power,
            self._known(before, power),
            self._known(outcome.next, power),
            results,
            dislodged,
            tuple(notes),
            complete=gm,
        )

    def _retreat_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        before = outcome.before
        m = before.map
        gm = power is None
        fates = retreat_fates(outcome)
        results: dict[str, list[OrderResult]] = {}
        for p in sorted(fates, key=lambda q: m.provinces[q].code):
            fate = fates[p]
            owner = fate.unit.power
            if not gm and owner != power:
                continue
            line = retreat_line(m, fate) or ""
            if fate.dest is None:
                verdict, reason = SUCCEEDS, "disbanded"
            elif fate.arrived:
                verdict, reason = SUCCEEDS, "retreats"
            else:
                verdict, reason = FAILS, "the retreat fails, so the unit is disbanded"
            text = next(
                (r.text for r in outcome.results.get(owner, [])
                 if isinstance(r.order, Retreat | Disband) and r.result != INVALID
                 and m.province_of(r.order.loc) == p),
                "",
            )
            results.setdefault(owner, []).append(OrderResult(owner, text, line, verdict, reason))
        for owner, entries in outcome.results.items():
            if gm or owner == power:
                for res in entries:
                    if res.result == INVALID:
                        results.setdefault(owner, []).append(
                            OrderResult(owner, res.text, res.canonical, INVALID, res.reason)
                        )
        notes = []
        spies = before.extra.get("spies", ())
        if not isinstance(spies, tuple):  # SpyRecords, as remember_facts leaves them
            raise TypeError(f'extra["spies"] must be a tuple of SpyRecord, not {spies!r}')
        for spy in spies:
            if not gm and spy.power != power:
                continue
            lines = [
                f"{power_abbreviation(m, fate.unit.power)} {seen}"
                for fate in (fates[p] for p in sorted(fates, key=lambda q: m.provinces[q].code))
                if (seen := retreat_line(m, fate, spy.sees))
            ]
            if lines:
                who = f"{power_abbreviation(m, spy.power)} " if gm else ""
                title = f"Espionage: {who}{self._spy_unit(m, spy.unit)} E (retreats)"
                notes.append(Note(title, tuple(lines)))
        if before.phase.season == "F":
            # Rule 3.1, released only now: the centres owned as the winter begins.
            centres = outcome.next.centers
            for owner in m.power_codes:
                if gm or owner == power:
                    owned = sorted(short(m, p) for p, o in centres.items() if o == owner)
                    if owned or not gm:
                        title = f"Supply centres of {m.power(owner).name} ({len(owned)})"
                        notes.append(Note(title, (", ".join(owned) or "none",)))
        return PowerView(
            power,
            self._known(before, power),
            self._known(outcome.next, power),
            results,
            (),
            tuple(notes),
            complete=gm,
        )

    @staticmethod
    def _spy_unit(m: Map, unit: Unit) -> str:
        return f"{_letter(unit.type)} {short(m, unit.loc)}"

    def _winter_view(self, outcome: PhaseOutcome, power: str | None) -> PowerView:
        gm = power is None
        results = {
            p: list(entries) for p, entries in outcome.results.items() if gm or p == power
        }
        chart = Note("Supply centres after the winter (rule 3.2)", tuple(centre_chart(outcome)))
        return PowerView(
            power,
            self._known(outcome.before, power),
            self._known(outcome.next, power),
            results,
            (),
            (chart,),
            complete=gm,
            counts=outcome.before.center_counts(),
        )
