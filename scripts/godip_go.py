"""Reading godip's variant definitions (Go source) as facts: used by godip-boards.py.

godip (github.com/zond/godip) defines each variant in Go: a graph built by chained calls
(``Prov("x").Conn("y", godip.Land).Flag(godip.Coast...).SC(Nation)``), a start (units and
supply centres set on a state), and a ``common.Variant`` literal (name, nations, solo rule,
order parser, creator, rules text). This module reads those few shapes with regular
expressions, from a bare git directory (``git show HEAD:path``), and refuses any shape it
does not know, so that a change in godip stops the script rather than yielding a wrong
board. Nothing here runs or copies godip's code: it reads the facts the code states.

godip's graph, as its ``graph`` package defines it: every node is a province or one of its
coasts (``spa/nc``); ``Conn`` adds a one-way edge from the current node with flags (``Land``,
``Sea``; ``Coast...`` is both); ``Flag`` gives the node its flags (``Archipelago...`` is
both plus ``Convoyable``); ``SC`` makes the province a supply centre of a nation
(``godip.Neutral``: owned by no nation at the start of the graph). An army may move from A
to B when A and B carry ``Land`` and the edge A->B does; a fleet when A and B carry ``Sea``
and the edge does (orders/move.go ``HasEdge``, ``movePossible``).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field

# godip's own nations (godip.go), which a variant names as ``godip.England``.
GODIP_NATIONS = {"England": "England", "France": "France", "Germany": "Germany",
                 "Russia": "Russia", "Austria": "Austria", "Italy": "Italy",
                 "Turkey": "Turkey", "Neutral": "Neutral"}
NEUTRAL = "Neutral"
LAND, SEA, CONVOYABLE = "Land", "Sea", "Convoyable"
_FLAG_SETS = {"godip.Land": {LAND}, "godip.Sea": {SEA}, "godip.Coast...": {LAND, SEA},
              "godip.Archipelago...": {LAND, SEA, CONVOYABLE},
              "godip.Convoyable": {CONVOYABLE}}


class GoShapeError(Exception):
    """A definition in a shape this reader does not know."""


class Snapshot:
    """godip's source files, read from a bare git directory at its HEAD."""

    def __init__(self, git_dir: str) -> None:
        self.git_dir = git_dir
        self._cache: dict[str, str] = {}

    def read(self, path: str) -> str:
        if "/games/" in path or path.endswith("games_test.go"):
            raise GoShapeError(f"{path}: godip's recorded games are never read")
        if path not in self._cache:
            out = subprocess.run(["git", "-C", self.git_dir, "show", f"HEAD:{path}"],
                                 capture_output=True, text=True, check=False)
            if out.returncode != 0:
                raise GoShapeError(f"{path}: {out.stderr.strip()}")
            self._cache[path] = out.stdout
        return self._cache[path]

    def commit(self) -> str:
        out = subprocess.run(["git", "-C", self.git_dir, "rev-parse", "HEAD"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()


# -- Go text --------------------------------------------------------------------------------


def strip_comments(text: str) -> str:
    """The Go text without ``//`` comments (none of the strings read holds ``//``)."""
    return re.sub(r"//[^\n]*", "", text)


def block_after(text: str, start: int) -> str:
    """The text inside the braces that open at or after ``start`` (strings respected)."""
    open_at = text.index("{", start)
    depth, i, quote = 0, open_at, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"`":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[open_at + 1:i]
        i += 1
    raise GoShapeError("unbalanced braces")


def func_body(text: str, name: str) -> str:
    """The body of the top-level function ``name``."""
    m = re.search(rf"^func {re.escape(name)}\(", text, re.M)
    if not m:
        raise GoShapeError(f"no function {name}")
    return block_after(text, m.end())


def field_text(literal: str, key: str) -> str | None:
    """The value of ``Key: value,`` in a struct literal, up to the end of its line or of its
    braces/back-quoted string."""
    m = re.search(rf"^\s*{key}:\s*", literal, re.M)
    if not m:
        return None
    rest = literal[m.end():]
    if rest.startswith("`"):
        return rest[:rest.index("`", 1) + 1]
    if rest.startswith('"'):
        return re.match(r'"(?:[^"\\]|\\.)*"', rest).group(0)  # type: ignore[union-attr]
    line = rest.split("\n", 1)[0]
    if line.rstrip().endswith("{"):
        return line + block_after(rest, 0) + "}"
    return line.rstrip().rstrip(",")


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'"}


def go_string(value: str) -> str:
    """A Go string literal's text (interpreted or raw)."""
    if value.startswith("`"):
        return value[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES[m.group(1)], value[1:-1])


def nation_constants(text: str) -> dict[str, str]:
    """``Rome godip.Nation = "Rome"``: Go identifier -> nation name."""
    found = dict(re.findall(r'(\w+)\s+godip\.Nation\s*=\s*"([^"]+)"', text))
    found.update({f"godip.{k}": v for k, v in GODIP_NATIONS.items()})
    return found


def nation_of(expr: str, nations: dict[str, str]) -> str:
    expr = expr.strip()
    if expr in nations:
        return nations[expr]
    if "." in expr and expr.split(".", 1)[1] in nations:  # another package's constant
        return nations[expr.split(".", 1)[1]]
    raise GoShapeError(f"unknown nation {expr!r}")


# -- the graph ------------------------------------------------------------------------------


@dataclass
class Node:
    """One node of godip's graph: a province (``sub`` empty) or one of its coasts."""

    province: str
    sub: str
    flags: set[str] = field(default_factory=set)
    edges: dict[str, set[str]] = field(default_factory=dict)  # target node -> edge flags
    declared: bool = False


@dataclass
class Graph:
    nodes: dict[str, Node] = field(default_factory=dict)  # "spa" or "spa/nc" -> node
    centres: dict[str, str] = field(default_factory=dict)  # province -> nation (or Neutral)

    def node(self, name: str) -> Node:
        if name not in self.nodes:
            province, _, sub = name.partition("/")
            self.nodes[name] = Node(province, sub)
        return self.nodes[name]

    def provinces(self) -> list[str]:
        return sorted({n.province for n in self.nodes.values()})

    def coasts(self, province: str) -> list[str]:
        return sorted(n.sub for n in self.nodes.values() if n.province == province and n.sub)


_CALL = re.compile(r"\.\s*(Prov|Conn|Flag|SC)\(([^()]*)\)")


def flags_of(args: list[str]) -> set[str]:
    out: set[str] = set()
    for arg in args:
        if arg not in _FLAG_SETS:
            raise GoShapeError(f"unknown flag {arg!r}")
        out |= _FLAG_SETS[arg]
    return out


def read_graph(body: str, nations: dict[str, str]) -> Graph:
    """The graph a ``graph.New().Prov(...)...Done()`` chain builds."""
    body = strip_comments(body)
    chain = body[body.index("graph.New()"):]
    graph = Graph()
    current: Node | None = None
    for call, raw in _CALL.findall(chain):
        args = [a.strip() for a in raw.split(",") if a.strip()]
        if call == "Prov":
            current = graph.node(args[0].strip('"'))
            current.declared = True
            continue
        if current is None:
            raise GoShapeError(f"{call} before any Prov")
        if call == "Conn":
            target = args[0].strip('"')
            graph.node(target)
            current.edges[target] = flags_of(args[1:])
        elif call == "Flag":
            current.flags |= flags_of(args)
        else:
            graph.centres[current.province] = nation_of(args[0], nations)
    undeclared = sorted(n for n, node in graph.nodes.items() if not node.declared)
    if undeclared:
        raise GoShapeError(f"edges to nodes never declared: {', '.join(undeclared)}")
    return graph


# -- maps of the start ----------------------------------------------------------------------

_UNIT = re.compile(r'"([a-z0-9/]+)":\s*godip\.Unit\{\s*(?:Type:\s*)?godip\.(Army|Fleet),\s*'
                   r'(?:Nation:\s*)?([\w.]+),?\s*\}')
_CENTRE = re.compile(r'"([a-z0-9/]+)":\s*([\w.]+),')


def unit_map(literal: str, nations: dict[str, str]) -> dict[str, tuple[str, str]]:
    """``map[godip.Province]godip.Unit{...}``: location -> (Army|Fleet, nation)."""
    return {loc: (kind, nation_of(nat, nations)) for loc, kind, nat in _UNIT.findall(literal)}


def centre_map(literal: str, nations: dict[str, str]) -> dict[str, str]:
    """``map[godip.Province]godip.Nation{...}``: province -> nation."""
    return {prov: nation_of(nat, nations) for prov, nat in _CENTRE.findall(literal)}


def long_names(literal: str) -> dict[str, str]:
    """``map[godip.Province]string{...}``: node -> long name."""
    return {k: go_string(v) for k, v in re.findall(r'"([a-z0-9/]+)":\s*("(?:[^"\\]|\\.)*")',
                                                    literal)}


# -- a variant ------------------------------------------------------------------------------


@dataclass
class GodipVariant:
    """What one godip variant states: its graph, start and rules, as facts."""

    package: str  # "hundred", "beta/gatewaywest"
    name: str  # godip's display name, its key in godip and diplicity
    nations: list[str]
    graph: Graph
    long_names: dict[str, str]
    units: dict[str, tuple[str, str]]  # location -> (Army|Fleet, nation) at the start
    owners: dict[str, str]  # province -> nation at the start (godip.Neutral included)
    start: tuple[int, str, str]  # year, season, phase type
    solo: int | None  # common.SCCountWinner(N); None for a rule of the variant's own
    solo_rule: str  # the SoloWinner expression as written
    builds: str  # "home", "anywhere" (orders.BuildAnywhereOrder), "any-home"
    state_flags: set[str]  # the flags the variant's Blank state carries (Anywhere...)
    neutral_orders: bool  # whether its Blank state rebuilds and holds godip.Neutral units
    unit_types: list[str]
    created_by: str
    version: str
    rules: str
    files: list[str]  # the Go files read


class Package:
    """The Go files of one godip package, with look-ups of its declarations."""

    def __init__(self, snapshot: Snapshot, path: str) -> None:
        out = subprocess.run(["git", "-C", snapshot.git_dir, "ls-tree", "--name-only",
                              "HEAD", f"{path}/"], capture_output=True, text=True, check=True)
        names = [n for n in out.stdout.split() if n.endswith(".go")
                 and not n.endswith("_test.go") and not n.endswith("bindata.go")]
        self.path = path
        self.files = sorted(names)
        self.text = {n: snapshot.read(n) for n in self.files}

    def find(self, pattern: str) -> tuple[str, re.Match[str]]:
        for name in self.files:
            m = re.search(pattern, self.text[name], re.M)
            if m:
                return self.text[name], m
        raise GoShapeError(f"{self.path}: nothing matches {pattern!r}")

    def func(self, name: str) -> str:
        text, m = self.find(rf"^func {re.escape(name)}\(")
        return block_after(text, m.end())

    def var_block(self, name: str) -> str:
        text, m = self.find(rf"^\s*(?:var )?{re.escape(name)}\s*=\s*[^\n{{]*\{{")
        return block_after(text, m.start())


class Reader:
    """godip's variants read from a snapshot: ``Reader(snapshot).variant("hundred")``."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self._packages: dict[str, Package] = {}

    def package(self, alias: str, home: str) -> Package:
        """The package a Go identifier's prefix names (``classical``, ``start``, ``hundred``),
        seen from package ``home``."""
        path = {"": home, "classical": "classical", "start": "classical/start",
                "hundred": "hundred", "westernworld901": "westernworld901"}.get(alias)
        if path is None:
            raise GoShapeError(f"unknown package {alias!r}")
        if path not in self._packages:
            self._packages[path] = Package(self.snapshot, f"variants/{path}")
        return self._packages[path]

    def resolve(self, ident: str, home: str) -> tuple[Package, str]:
        alias, _, name = ident.rpartition(".")
        return self.package(alias, home), name

    def variant(self, path: str) -> GodipVariant:
        """The variant defined in ``variants/<path>/``."""
        pkg = self.package("", path)
        text, m = pkg.find(r"^var \w+Variant = common\.Variant\{")
        literal = block_after(text, m.start())
        nations = self._constants(pkg)

        def text_field(key: str) -> str:
            value = field_text(literal, key)
            return go_string(value) if value else ""

        solo_rule = field_text(literal, "SoloWinner") or ""
        solo = re.fullmatch(r"common\.SCCountWinner\((\d+)\)", solo_rule)
        graph = self._graph(field_text(literal, "Graph") or "", path, nations)
        flags, neutral_orders = self._blank(field_text(literal, "Blank") or "", path)
        units, owners, start = self._start(field_text(literal, "Start") or "", path, nations,
                                           graph)
        return GodipVariant(
            package=path, name=text_field("Name"),
            nations=self._nations(field_text(literal, "Nations") or "", path, nations),
            graph=graph,
            long_names=self._long_names(field_text(literal, "ProvinceLongNames") or "", path),
            units=units, owners=owners, start=start,
            solo=int(solo.group(1)) if solo else None, solo_rule=solo_rule,
            builds=self._builds(field_text(literal, "Parser") or "", path),
            state_flags=flags, neutral_orders=neutral_orders,
            unit_types=re.findall(r"godip\.(Army|Fleet)",
                                  self._expr(field_text(literal, "UnitTypes") or "", path)),
            created_by=text_field("CreatedBy"), version=text_field("Version"),
            rules=text_field("Rules"), files=sorted({f for p in self._packages.values()
                                                     for f in p.files}))

    def _constants(self, pkg: Package) -> dict[str, str]:
        nations: dict[str, str] = {}
        for text in pkg.text.values():
            nations.update(nation_constants(text))
        return nations

    def _expr(self, expr: str, home: str) -> str:
        """An expression, or the block a ``pkg.Var`` names (``classical.UnitTypes``)."""
        if "{" in expr or not expr:
            return expr
        pkg, name = self.resolve(expr, home)
        return pkg.var_block(name)

    def _nations(self, expr: str, home: str, nations: dict[str, str]) -> list[str]:
        block = self._expr(expr, home)
        if "{" in block:
            block = block[block.index("{") + 1:]
        return [nation_of(n, nations) for n in re.findall(r"[\w.]+", block)]

    def _long_names(self, expr: str, home: str) -> dict[str, str]:
        if not expr:  # 1800: Empires and Coalitions names none
            return {}
        if expr.startswith("map["):
            return long_names(expr)
        pkg, name = self.resolve(expr.replace("ClassicalVariant.ProvinceLongNames",
                                              "provinceLongNames"), home)
        return long_names(pkg.var_block(name))

    def _builds(self, expr: str, home: str) -> str:
        pkg, name = self.resolve(expr, home)
        parser = pkg.var_block(name)
        kinds = set(re.findall(r"orders\.(Build\w*Order)", parser))
        if len(kinds) != 1:
            raise GoShapeError(f"{expr}: builds {kinds}")
        return {"BuildOrder": "home", "BuildAnywhereOrder": "anywhere",
                "BuildAnyHomeCenterOrder": "any-home"}[kinds.pop()]

    def _blank(self, expr: str, home: str) -> tuple[set[str], bool]:
        """The flags and the neutral orders the variant's blank state is made with."""
        pkg, name = self.resolve(expr, home)
        body = pkg.func(name)
        m = re.search(r"state\.New\([^,]+,[^,]+,[^,]+,\s*(nil|map\[godip\.Flag\]bool\{[^}]*\})"
                      r",\s*([\w.]+)\)", body)
        if not m:
            raise GoShapeError(f"{expr}: no state.New")
        return set(re.findall(r"godip\.(\w+):\s*true", m.group(1))), m.group(2) != "nil"

    def _graph(self, expr: str, home: str, nations: dict[str, str]) -> Graph:
        """The graph the variant's ``Graph`` field returns; a closure that keeps some
        nations' centres (``okNations``, France vs Austria) makes the others' neutral."""
        call = re.search(r"([\w.]+)\(\)", expr[expr.index("{"):] if "{" in expr else expr)
        if not call:
            raise GoShapeError(f"Graph: {expr!r}")
        pkg, name = self.resolve(call.group(1), home)
        graph = read_graph(pkg.func(name), {**self._constants(pkg), **nations})
        if "okNations" in expr:
            keep = {nation_of(n, nations)
                    for n in re.findall(r"([\w.]+):\s*true", block_after(expr, expr.index(
                        "okNations")))}
            graph.centres = {p: (n if n in keep else NEUTRAL) for p, n in graph.centres.items()}
        return graph

    def _start(self, expr: str, home: str, nations: dict[str, str], graph: Graph
               ) -> tuple[dict[str, tuple[str, str]], dict[str, str], tuple[int, str, str]]:
        """The units, the centres' owners and the phase of the variant's start."""
        if expr.startswith("func("):
            body = block_after(expr, 0)
            pkg = self.package("", home)
        else:
            pkg, name = self.resolve(expr, home)
            body = pkg.func(name)
        return self._run_start(body, pkg, nations, graph)

    _STEPS = re.compile(
        r"(?P<inherit>(?:\w+\.)?Start\(\))"
        r"|(?:NewPhase|Phase)\((?P<year>\d+),\s*(?P<season>[\w.]+),\s*godip\.(?P<type>\w+)\)"
        r"|SetUnits\((?P<units>[^\n]*)"
        r"|SetSupplyCenters\((?P<owners>[^\n]*)"
        r'|RemoveUnit\(godip\.Province\("(?P<removed>[a-z/]+)"\)\)'
        r'|SetUnit\(godip\.Province\("(?P<one>[a-z/]+)"\),\s*godip\.Unit\{'
        r"|range \w+\(\)\.SCs\(godip\.Neutral\)")

    def _run_start(self, body: str, pkg: Package, nations: dict[str, str], graph: Graph
                   ) -> tuple[dict[str, tuple[str, str]], dict[str, str], tuple[int, str, str]]:
        """The start function's statements, played in order on an empty state."""
        units: dict[str, tuple[str, str]] = {}
        owners: dict[str, str] = {}
        phase: tuple[int, str, str] | None = None
        for m in self._STEPS.finditer(body):
            if m.group("inherit"):
                parent, name = self.resolve(m.group("inherit")[:-2], pkg.path[9:])
                units, owners, phase = self._run_start(parent.func(name), parent, nations,
                                                       graph)
            elif m.group("year"):
                season = m.group("season").replace("godip.", "").replace("YearSeason", "Year")
                phase = (int(m.group("year")), season, m.group("type"))
            elif m.group("units") is not None:
                units = unit_map(self._literal(m.group("units"), body, m.end("units"), pkg),
                                 nations)
            elif m.group("owners") is not None:
                arg = m.group("owners").strip()
                if arg.startswith("scMap"):  # Chaos: every centre owned by its graph nation
                    owners = dict(graph.centres)
                else:
                    owners = centre_map(self._literal(arg, body, m.end("owners"), pkg), nations)
            elif m.group("removed"):
                del units[m.group("removed")]
            elif m.group("one"):
                unit = unit_map(f'"{m.group("one")}": ' + body[m.end() - len("godip.Unit{"):]
                                .split(")", 1)[0], nations)
                units.update(unit)
            else:  # an army of godip.Neutral on every neutral centre of the graph
                for province, nation in graph.centres.items():
                    if nation == NEUTRAL:
                        units[province] = ("Army", NEUTRAL)
        if phase is None:
            raise GoShapeError(f"{pkg.path}: no start phase")
        return units, owners, phase

    def _literal(self, arg: str, body: str, end: int, pkg: Package) -> str:
        """The map literal a ``SetUnits``/``SetSupplyCenters`` argument gives: written in
        place, or returned by a function (``start.Units()``, ``ClassicalCrowdedUnits()``)."""
        arg = arg.strip()
        if arg.startswith("map["):
            return block_after(body, end - len(arg) + arg.index("{"))
        call = re.match(r"([\w.]+)\(\)", arg)
        if not call:
            raise GoShapeError(f"{pkg.path}: cannot read {arg!r}")
        owner, name = self.resolve(call.group(1), pkg.path[9:])
        return owner.func(name)
