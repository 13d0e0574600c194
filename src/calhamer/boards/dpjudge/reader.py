"""DPjudge's ``.map`` files read into a :class:`Source`: what DPjudge itself would know.

A map file is a list of directives, one a line, read in order; ``USE`` and ``MAP`` read
another file at that point, so a board is often several files (``standard.map`` uses
``standard.politics``, ``.geography`` and ``.military``). Later lines change what earlier ones
said (``AMEND``, ``DROP``, renames, ``UNPLAYED``), so the reader keeps DPjudge's state as it
goes and hands the result, with every directive it cannot keep, to :mod:`.convert`. The
``diplomacy`` package's maps are the same format with a few liberties (commas between power
names, ``RULES``), which are read here too.

The format is described in docs/boards.md ("DPjudge's boards"); every line kept or not is
traced to its file and line (:class:`Where`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

LOCATION_WORDS = ("AMEND", "WATER", "LAND", "COAST", "PORT", "SHUT")
# Marks before a home centre on a power's line, and what each makes of the centre.
HOME_MARKS = {"-": "remove", "*": "partisan", "+": "factory", "~": "hidden", "@": "alternative"}


@dataclass(frozen=True)
class Where:
    """A line of a map file: its file's name, its number (from 1) and its text."""

    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Problem:
    """Something of a map file that the board does not carry: one line, with its place.

    ``lost`` is true where a rule of play or a fact of the board is left out (``--strict``
    refuses the board then); false for what changes nothing in play as calhamer judges it
    (flags, e-mail notices, spellings, rules of DPjudge's other game types)."""

    where: Where
    directive: str
    message: str
    lost: bool = True
    feature: str | None = None  # what docs/boards.md calls it, when not the directive's word

    def __str__(self) -> str:
        return f"{self.where}: {self.directive}: {self.message}"

    @property
    def limit(self) -> str:
        """The name docs/boards.md lists this problem's directive under (``RULE CD_BUILDS``,
        ``ABUTS *``, ``home @``, ``IN``...)."""
        return self.feature or self.directive.split()[0]


@dataclass
class Loc:
    """A DPjudge location: a province, or one coast of a province (``SPA/NC``)."""

    key: str  # as written: upper case where a fleet may stand, ``spa`` where it may not
    terrain: str  # WATER, LAND, COAST, PORT or SHUT
    abuts: list[str]
    where: Where


@dataclass
class PowerDef:
    """A power as the map files declare it."""

    code: str  # DPjudge's own form of the name (``USA`` for ``U+S+A``, ``_INDIA``)
    raw: str  # the name as written, upper case
    where: Where
    own_word: str | None = None
    homes: list[str] = field(default_factory=list)
    centers: list[str] | None = None  # OWNS / CENTERS; None: its home centres
    units: list[str] = field(default_factory=list)
    dummy: bool = False
    # Home-centre entries with a mark the board cannot carry as it stands: (mark, site, where).
    marked: list[tuple[str, str, Where]] = field(default_factory=list)


@dataclass
class Source:
    """What the files of one board say, read as DPjudge reads them."""

    path: Path
    files: list[str] = field(default_factory=list)
    root_map: str | None = None  # MAP: whose drawing the board uses
    names: dict[str, str] = field(default_factory=dict)  # ABBR (or ABBR/NC) -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)
    name_where: dict[str, Where] = field(default_factory=dict)
    locs: dict[str, Loc] = field(default_factory=dict)  # key as written -> location
    powers: dict[str, PowerDef] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    rules: list[tuple[str, Where]] = field(default_factory=list)
    flow: list[tuple[str, Where]] = field(default_factory=list)
    begin: tuple[str, Where] | None = None
    victory: tuple[list[int], Where] | None = None
    # Adjacency entries with special marks: (location key, entry, marks, where).
    marked_abuts: list[tuple[str, str, str, Where]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def loc(self, name: str) -> Loc | None:
        """The location written ``name`` in any case (DPjudge keeps one case of each)."""
        up = name.upper()
        for key, loc in self.locs.items():
            if key.upper() == up:
                return loc
        return None

    def lost(self, where: Where, directive: str, message: str,
             feature: str | None = None) -> None:
        self.problems.append(Problem(where, directive, message, True, feature))

    def note(self, where: Where, directive: str, message: str) -> None:
        self.problems.append(Problem(where, directive, message, False))


def norm_power(text: str) -> str:
    """A power's name as DPjudge compares it: upper case, no dots, colons, commas, pluses,
    hyphens or spaces (``U+S+A`` is ``USA``)."""
    out = text.upper()
    for junk in ".:,+- ":
        out = out.replace(junk, "")
    return out


def read_source(path: str | Path) -> Source:
    """Every directive of the map file at ``path`` and the files it uses, read in order."""
    path = Path(path)
    source = Source(path=path)
    _Reader(source).read(path, None)
    return source


class _Reader:
    """DPjudge's reading state: the current power, directive blocks, dynamic blocks."""

    def __init__(self, source: Source) -> None:
        self.s = source
        self.power: str | None = None  # the "current power" lines after a power line apply to
        self.block: str | None = None  # a DIRECTIVES block: "ALL" or a game type (PAYOLA)
        self.dynamic: Where | None = None  # inside an IN/FROM block: where it began
        self.inhabits: set[str] = set()

    # -- files -----------------------------------------------------------------------------

    def read(self, path: Path, used_at: Where | None) -> None:
        name = path.name
        if name in self.s.files:
            if used_at is not None:
                self.s.note(used_at, used_at.text.split()[0].upper(),
                            f"{name} is already read; DPjudge reads a file once")
            return
        try:
            text = path.read_bytes().decode("latin-1")
        except OSError as exc:
            where = used_at or Where(name, 0, "")
            self.s.lost(where, "USE", f"{name} cannot be read ({exc.strerror or exc})")
            return
        self.s.files.append(name)
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            self.directive(words, Where(name, number, line.strip()), path.parent)

    def use(self, words: list[str], where: Where, folder: Path) -> None:
        up = words[0].upper()
        if up == "MAP":
            if len(words) != 2:
                self.s.lost(where, "MAP", "MAP names exactly one map")
                return
            self.s.root_map = self.s.root_map or words[1].split(".")[0]
        for name in words[1:]:
            file = name if "." in name else name + ".map"
            self.read(folder / file, where)

    # -- one line ----------------------------------------------------------------------------

    def directive(self, words: list[str], where: Where, folder: Path) -> None:
        up = words[0].upper()
        if words[-1].upper() in ("DIRECTIVE", "DIRECTIVES"):
            self.directive_block(words, where)
        elif self.block is not None and not (self.block == "ALL" and up in ("RULE", "RULES")):
            self.in_block(words, where)
        elif up in ("FROM", "IN"):
            self.dynamic_block(words, where)
        elif self.dynamic is not None:
            self.s.lost(where, up, f"applies only in some phases ({self.dynamic.text}); "
                        "calhamer's boards do not change during a game", feature="IN")
        elif up in ("USE", "USES", "MAP"):
            self.use(words, where, folder)
        elif up in ("RULE", "RULES"):
            self.s.rules += [(w.upper().strip(","), where) for w in words[1:]]
        elif up in ("VICTORY", "FLOW", "BEGIN", "NEWHOMES", "TEXTONLY", "NOTIFY", "FLAGS",
                    "ROTATE"):
            self.game_directive(up, words, where)
        elif "=" in where.text:
            self.place_name(where)
        elif up in ("FLAG", "OWNS", "CENTERS", "INHABITS", "HOME", "HOMES", "UNITS",
                    "RESERVES", "MILITIA", "CONTROL", "LEAGUE"):
            self.power_directive(up, words, where)
        elif up in ("A", "F"):
            self.unit(words, where)
        elif up in ("DUMMY", "DUMMIES"):
            self.dummies(words, where)
        elif up in ("TEAM", "TEAMS"):
            self.power = None
            self.s.lost(where, up, "teams of powers played by one player are not supported")
        elif up == "DROP":
            for place in words[1:]:
                self.drop(place.upper())
        elif len(words) > 1 and up in LOCATION_WORDS:
            self.location(words, where)
        elif up == "UNPLAYED":
            self.unplayed(words, where)
        else:
            self.power_line(words, where)

    def directive_block(self, words: list[str], where: Where) -> None:
        up = words[0].upper()
        if len(words) == 1:
            self.block = "ALL"
        elif up == "END":
            self.block = None
        elif len(words) == 2:
            self.block = up
        else:
            self.s.lost(where, "DIRECTIVES", "a directives block names one game type")

    def in_block(self, words: list[str], where: Where) -> None:
        if self.block == "ALL":
            self.s.lost(where, words[0].upper(), "game settings other than RULE lines are "
                        "not read from a map file")
        else:
            kind = str(self.block)
            self.s.note(where, f"{kind} {words[0].upper()}",
                        f"applies only to DPjudge's {kind.title()} games, a game type "
                        "calhamer does not play")

    def dynamic_block(self, words: list[str], where: Where) -> None:
        rest = " ".join(words[1:])
        phase, colon, line = rest.partition(":")
        if words[0].upper() == "FROM" and phase.strip().upper() == "START":
            self.dynamic = None
            return
        if colon and line.strip():
            self.s.lost(where, f"{words[0].upper()} {phase.strip()}", "map changes during "
                        "the game are not supported: calhamer's boards do not change")
        else:
            self.dynamic = where
            self.s.lost(where, f"{words[0].upper()} {phase.strip()}", "map changes during "
                        "the game are not supported: the lines after it are left out")

    def game_directive(self, up: str, words: list[str], where: Where) -> None:
        if up == "VICTORY":
            try:
                self.s.victory = ([int(w) for w in words[1:]], where)
            except ValueError:
                self.s.lost(where, up, "the centre counts are not whole numbers")
        elif up == "FLOW":
            if len(words) == 1:
                self.s.flow = []
            self.s.flow += [(w.upper(), where) for w in words[1:]]
        elif up == "BEGIN":
            self.s.begin = (" ".join(words[1:]).upper(), where)
        elif up == "NEWHOMES":
            self.s.lost(where, up, "home centres given anew in a later year are not supported "
                        "(the powers keep the home centres the map gives them)")
        elif up == "ROTATE":
            self.s.lost(where, up, "control of dummy powers passed between players is not "
                        "supported")
        elif up == "TEXTONLY":
            self.s.note(where, up, "a board is drawn whenever asked for")
        elif up == "NOTIFY":
            self.s.note(where, up, "e-mail to the board's designer when a game starts is not "
                        "sent")
        else:
            self.s.note(where, up, "DPjudge's flag pictures are not used")

    # -- places ------------------------------------------------------------------------------

    def place_name(self, where: Where) -> None:
        left, _, right = where.text.partition("=")
        names = right.split()
        if not names:
            self.s.lost(where, "=", "a place name needs its abbreviation after '='")
            return
        old = None
        if "->" in left:
            old, _, left = (part.strip() for part in left.partition("->"))
        abbr = names[0].upper()
        if old is not None:
            self.rename(old.upper(), abbr, where)
        # DPjudge joins the words of a name or alias with '+'.
        self.s.names[abbr] = left.strip().replace("+", " ")
        self.s.aliases[abbr] = names[1:]
        self.s.name_where[abbr] = where

    def rename(self, old: str, new: str, where: Where) -> None:
        if old not in self.s.names:
            self.s.lost(where, "->", f"{old} is not a place of the map, so it cannot be renamed")
            return
        for table in (self.s.names, self.s.aliases, self.s.name_where):
            table.pop(old, None)
        if old == new:
            return

        def renamed(text: str) -> str:
            if text.upper() != old:
                return text
            return new.lower() if text.islower() else new.title() if text == old.title() \
                else new

        self.s.locs = {renamed(k): Loc(renamed(k), v.terrain, [renamed(a) for a in v.abuts],
                                       v.where) for k, v in self.s.locs.items()}
        for power in self.s.powers.values():
            power.homes = [new if h == old else h for h in power.homes]
            if power.centers is not None:
                power.centers = [new if c == old else c for c in power.centers]
            power.units = [u[:2] + new if u[2:] == old else u for u in power.units]
        self.s.unowned = [new if c == old else c for c in self.s.unowned]
        self.s.marked_abuts = [(renamed(k), renamed(d), m, w)
                               for k, d, m, w in self.s.marked_abuts]

    def location(self, words: list[str], where: Where) -> None:
        kind, place = words[0].upper(), words[1]
        if len(words) > 2 and words[2].upper() != "ABUTS":
            self.s.lost(where, kind, f'no "ABUTS" after {place}')
            return
        old = self.s.loc(place)
        if old is not None and old.key != place:
            # The same place in another case: DPjudge forgets the old one (AMEND keeps its
            # data); written in upper case it loses its coasts.
            del self.s.locs[old.key]
            if place.isupper():
                for coast in [k for k in self.s.locs if k.upper().startswith(place + "/")]:
                    self.drop(coast.upper(), decoast=True)
        elif old is not None:
            del self.s.locs[old.key]  # re-added at the end, as DPjudge keeps its order
        if kind == "AMEND":
            if old is None:
                self.s.lost(where, kind, f"{place} is not on the map yet, so it cannot be "
                            "amended")
                return
            loc = Loc(place, old.terrain, list(old.abuts), old.where)
        else:
            same = old is not None and old.key == place
            keep = list(old.abuts) if same and old is not None and len(words) == 2 else []
            loc = Loc(place, kind, keep, where)
        self.s.locs[place] = loc
        for entry in words[3:]:
            if entry.startswith("-"):
                gone = entry[1:].upper()
                loc.abuts = [a for a in loc.abuts if not a.upper().startswith(gone)]
                self.s.marked_abuts = [m for m in self.s.marked_abuts
                                       if not (m[0] == place and m[1].upper().startswith(gone))]
                continue
            dest, marks = _abut_marks(entry)
            if not dest:
                self.s.lost(where, f"{kind} {place}", f"the adjacency {entry!r} names no place")
                continue
            if marks:
                self.s.marked_abuts.append((place, dest, marks, where))
            loc.abuts.append(dest)

    def drop(self, place: str, decoast: bool = False) -> None:
        """Forget a place (and its coasts): DPjudge's DROP."""

        def dropped(name: str) -> bool:
            up = name.upper()
            return up == place or up.startswith(place + "/")

        for table in (self.s.names, self.s.aliases, self.s.name_where):
            for abbr in [a for a in table if dropped(a)]:
                del table[abbr]
        self.s.locs = {k: v for k, v in self.s.locs.items() if not dropped(k)}
        for loc in self.s.locs.values():
            kept = [a for a in loc.abuts if not dropped(a)]
            if decoast and len(kept) < len(loc.abuts) and place[:3] not in kept:
                kept.append(place[:3])
            loc.abuts = kept
        self.s.marked_abuts = [m for m in self.s.marked_abuts
                               if not dropped(m[0]) and not dropped(m[1])]
        for power in self.s.powers.values():
            power.homes = [h for h in power.homes if h != place]
            if power.centers is not None:
                power.centers = [c for c in power.centers if c != place]
            power.units = [u for u in power.units if u[2:5] != place[:3]]
            power.marked = [m for m in power.marked if m[1] != place]
        self.s.unowned = [c for c in self.s.unowned if c != place]

    # -- powers --------------------------------------------------------------------------

    def current(self, up: str, where: Where) -> PowerDef | None:
        if self.power is None or self.power not in self.s.powers:
            self.s.lost(where, up, "comes before any power's line")
            return None
        return self.s.powers[self.power]

    def power_line(self, words: list[str], where: Where) -> None:
        first = words[0].upper()
        if first in ("NEUTRAL", "CENTERS"):
            first = "UNOWNED"
        rest = words[1:]
        if len(words) > 2 and words[1] == "->":
            old, first, rest = norm_power(first), words[2].upper(), words[3:]
            if old not in self.s.powers or first in ("UNOWNED", "NEUTRAL"):
                self.s.lost(where, "->", f"there is no power {words[0]} to rename")
                return
            self.rename_power(old, norm_power(first), first)
        if first == "UNOWNED":
            self.power = None
            self.add_homes(None, rest, where, reinit=False)
            return
        code = norm_power(first)
        self.power = code
        power = self.s.powers.get(code)
        if power is None:
            power = self.s.powers[code] = PowerDef(code=code, raw=first, where=where)
        if rest and rest[0].startswith("("):
            own = rest[0][1:-1] if rest[0].endswith(")") else rest[0][1:]
            # After a colon, the power's one-letter abbreviation: calhamer does not use it.
            power.own_word = own.split(":")[0] or None
            rest = rest[1:]
        reinit = code in self.inhabits
        self.inhabits.discard(code)
        self.add_homes(power, rest, where, reinit)

    def rename_power(self, old: str, new: str, raw: str) -> None:
        power = self.s.powers.pop(old)
        power.code, power.raw, power.own_word = new, raw, None
        self.s.powers[new] = power

    def add_homes(self, power: PowerDef | None, sites: list[str], where: Where,
                  reinit: bool) -> None:
        homes = self.s.unowned if power is None else power.homes
        if reinit and power is not None:
            power.homes, power.marked = [], []
            homes = power.homes
        for entry in " ".join(sites).upper().split():
            marks = ""
            while entry and entry[0] in HOME_MARKS:
                marks, entry = marks + entry[0], entry[1:]
            limits = ""
            if "(" in entry and entry.endswith(")"):
                entry, _, limits = entry[:-1].partition("(")
            if not entry:
                continue
            if power is not None:
                power.marked = [m for m in power.marked if m[1] != entry]
            if entry in homes:
                homes.remove(entry)
                if power is not None:
                    self.s.unowned.append(entry)
            if "-" in marks:
                continue
            if power is not None and (marks or entry == "&SC"):
                for mark in marks or "&":
                    power.marked.append((mark + (f"({limits})" if limits else ""), entry, where))
            if "*" in marks or "+" in marks or entry == "&SC":
                continue  # partisan and factory sites are no home centres
            homes.append(entry)

    def power_directive(self, up: str, words: list[str], where: Where) -> None:
        power = self.current(up, where)
        if power is None:
            return
        sites = [w.upper() for w in words[1:]]
        if up == "FLAG":
            self.s.note(where, up, "DPjudge's flag pictures are not used")
        elif up in ("OWNS", "CENTERS"):
            if up == "CENTERS" or power.centers is None:
                power.centers = sites
            else:
                power.centers += [c for c in sites if c not in power.centers]
        elif up == "INHABITS":
            reinit = power.code not in self.inhabits
            self.inhabits.add(power.code)
            self.add_homes(power, words[1:], where, reinit)
        elif up in ("HOME", "HOMES"):
            self.inhabits.add(power.code)
            self.add_homes(power, words[1:], where, reinit=True)
        elif up == "UNITS":
            power.units = []
        elif up in ("RESERVES", "MILITIA"):
            self.s.lost(where, up, "units kept beyond a power's centre count are not "
                        "supported")
        elif up == "CONTROL":
            self.s.lost(where, up, "a dummy power played by another power is not supported")
        else:
            self.s.lost(where, up, "leagues (limits on whose units a power may support or "
                        "convoy) are not supported")

    def unit(self, words: list[str], where: Where) -> None:
        power = self.current(words[0].upper(), where)
        if power is None:
            return
        if len(words) != 2:
            self.s.lost(where, "unit", "a unit is written A or F and its place")
            return
        unit = f"{words[0].upper()} {words[1].upper()}"
        for other in self.s.powers.values():
            other.units = [u for u in other.units if u[2:5] != unit[2:5]]
        power.units.append(unit)

    def dummies(self, words: list[str], where: Where) -> None:
        if len(words) == 1:
            power = self.current(words[0].upper(), where)
            if power is not None:
                power.dummy = True
            return
        self.power = None
        for power in self._named_powers(words, where):
            power.dummy = True

    def _named_powers(self, words: list[str], where: Where) -> list[PowerDef]:
        """The powers a DUMMY or UNPLAYED line names (``ALL``, ``ALL EXCEPT ...``)."""
        names = [norm_power(w) for w in words[1:] if norm_power(w)]
        if names and names[0] == "ALL":
            if len(names) > 1 and names[1] != "EXCEPT":
                self.s.lost(where, words[0].upper(), "ALL may be followed by EXCEPT only")
                return []
            return [p for code, p in self.s.powers.items() if code not in names[2:]]
        found = []
        for name in names:
            if name in self.s.powers:
                found.append(self.s.powers[name])
            else:
                self.s.lost(where, words[0].upper(), f"there is no power {name}")
        return found

    def unplayed(self, words: list[str], where: Where) -> None:
        if len(words) == 1:
            gone = [self.s.powers[self.power]] if self.power in self.s.powers else []
        else:
            gone = self._named_powers(words, where)
        self.power = None
        for power in gone:
            del self.s.powers[power.code]


def _abut_marks(entry: str) -> tuple[str, str]:
    """An adjacency entry split into its place and its special marks: ``EI:NAF`` (only
    these powers' units), ``AEG(CON,SMY)`` (only the owner of these centres), ``naf~`` (a weak
    strait), ``*MAO`` (the Cape of Good Hope rule)."""
    marks = ""
    if entry.count(":") == 1:
        who, entry = entry.split(":")
        marks += f"{who}:"
    if entry.count("(") == 1 and entry.endswith(")"):
        entry, need = entry[:-1].split("(")
        marks += f"({need})"
    while entry and not entry[0].isalnum():
        marks, entry = marks + entry[0], entry[1:]
    while entry and not entry[-1].isalnum():
        marks, entry = marks + entry[-1], entry[:-1]
    return entry, marks
