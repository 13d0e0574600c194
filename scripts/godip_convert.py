"""godip's variants as calhamer boards: the conversion, used by godip-boards.py.

A godip variant (read by godip_go.py) becomes a :class:`Board`: calhamer's provinces and
adjacency per unit type, the powers, the start, and the variant's rules as options of the
vocabulary in docs/variants.md. What godip's code says is read from it (the order parser's
build order, ``SCCountWinner``, the neutral units and whether they are rebuilt); the few
rules written in code of a variant's own are stated in :data:`READINGS`, each with why, and
the script checks that the code still has the shape the reading was made from.
"""

from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass, field
from typing import Any

from godip_go import CONVOYABLE, LAND, NEUTRAL, SEA, GodipVariant, GoShapeError

# calhamer's name -> (godip's package, a short description in calhamer's own words).
VARIANTS: dict[str, tuple[str, str]] = {
    "ancient-mediterranean": ("ancientmediterranean", "Rome, Carthage, Greece, Persia and "
                              "Egypt fight over the Mediterranean of antiquity."),
    "canton": ("canton", "Seven powers contend for East and South Asia at the start of the "
               "twentieth century."),
    "chaos": ("chaos", "The standard map with 34 players, one for each supply centre, who "
              "begin by building their first unit."),
    "classical-crowded": ("classicalcrowded", "The standard map with four more powers "
                          "(Balkans, Benelux, Iberia, Scandinavia) and a centre in the Ruhr."),
    "cold-war": ("coldwar", "Two players, NATO and the USSR, on a map of the world in 1960."),
    "empires-and-coalitions": ("empiresandcoalitions", "Europe in the Napoleonic wars: five "
                               "great powers and four small ones that start with two units."),
    "europe-1939": ("europe1939", "Eight powers of Europe and the Mediterranean at the outbreak "
                    "of the Second World War."),
    "fleet-rome": ("fleetrome", "The standard game, but Italy starts with a fleet in Rome "
                   "instead of an army."),
    "france-austria": ("franceaustria", "Two players, France and Austria, on the standard map; "
                       "the other powers' home centres are neutral."),
    "hundred": ("hundred", "England, Burgundy and France in the Hundred Years' War; each "
                "movement phase is five years."),
    "italy-germany": ("italygermany", "Two players, Italy and Germany, on the standard map; "
                      "the other powers' home centres are neutral."),
    "north-sea-wars": ("northseawars", "Britons, Romans, Frisians and Norse fight for the "
                       "trade centres of the North Sea."),
    "pure": ("pure", "Seven powers of one province each, every province next to all the "
             "others: armies only."),
    "sengoku": ("sengoku", "Seven clans fight to unite Japan in the warring states period of "
                "the sixteenth century."),
    "twenty-twenty": ("twentytwenty", "Twenty nations of today race for a lead over the "
                      "world that the year 2020 makes ever smaller."),
    "unconstitutional": ("unconstitutional", "North America in 1805 as it might have been "
                         "without the constitution: states and Native confederacies at war."),
    "vietnam-war": ("vietnamwar", "The five states of Indochina in 1955, with the Mekong "
                    "navigable by fleets."),
    "western-world-901": ("westernworld901", "Nine realms of Europe, North Africa and the "
                          "Near East around the year 901, among neutral armies."),
    "year-1908": ("year1908", "The great powers of Europe in 1908, on a map reaching into "
                  "Africa and the Near East."),
    "youngstown-redux": ("youngstownredux", "The standard powers with China, India and Japan "
                         "on a map that reaches across Asia."),
    "gateway-west": ("beta/gatewaywest", "Seven Native nations on the Missouri frontier in "
                     "1826 (a board godip still calls beta)."),
    "three-kingdoms": ("beta/threekingdoms", "Wei, Shu and Wu fight for China from the year "
                       "220 (a board godip still calls beta)."),
}


@dataclass(frozen=True)
class Reading:
    """A rule of a variant that godip writes in code of its own, read into the vocabulary:
    the options it sets, the map tables it adds, and why (shown in the variant file)."""

    why: str
    options: dict[str, Any] = field(default_factory=dict)
    calendar: dict[str, Any] | None = None
    victory_centers: int | None = None
    rebuild: bool | None = None  # the garrisons' rebuild, where the rules and code differ
    code_says: tuple[str, str] = ("", "")  # (file, text) the reading was made from


READINGS: dict[str, Reading] = {
    "chaos": Reading(
        "Chaos starts with a winter in which every power may build in its one centre; "
        "godip gives an army to every centre left without a build order "
        "(chaosPhase.PreProcess).",
        options={"missing_builds": "army-first-winter"},
        code_says=("chaos/chaos.go", "orders.BuildAnywhere(prov, godip.Army")),
    "hundred": Reading(
        "Hundred plays one movement phase per five years, called Year, and adjusts only "
        "after years ending in 0 (hundredphase.go); centres change hands then too.",
        calendar={"seasons": [{"code": "Y", "name": "Year"}],
                  "winter": {"code": "W", "name": "Winter"}, "year_step": 5,
                  "adjust_every": 2},
        code_says=("hundred/hundredphase.go", "self.Year()+5")),
    "twenty-twenty": Reading(
        "Twenty Twenty is won in an adjustment phase by the sole leader with 49 centres, or "
        "with a lead over the second power of 20 centres in 2001, one fewer each year after "
        "and never under 1 (TwentyTwentyWinner and the published rules).",
        options={"victory_phase": "A", "lead_margin": 20, "lead_margin_year": 2001},
        victory_centers=49,
        code_says=("twentytwenty/twentytwenty.go", "highestSCCount >= 49")),
    "unconstitutional": Reading(
        "The published rules rebuild a neutral army in every empty centre the neutrals still "
        "own and let units be built in any owned centre; godip's code builds anywhere but "
        "never rebuilds the neutrals. The published rules are followed "
        "(docs/rules/godip-variants.md).",
        rebuild=True,
        code_says=("unconstitutional/unconstitutional.go", "This will be rebuilt if the SC "
                   "is unowned during adjustment")),
}

PHASE_SEASONS = {"Spring": "S", "Fall": "F", "Year": "Y"}
PHASE_KINDS = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}
NEUTRAL_CODE = "NEUTRAL"


@dataclass
class Province:
    code: str
    name: str
    type: str  # land, coast, sea, impassable
    sc: bool = False
    home: str | None = None
    coasts: list[str] = field(default_factory=list)
    convoys: bool = False


@dataclass
class Power:
    code: str
    name: str
    aliases: list[str]
    color: str


@dataclass
class Board:
    """One godip variant as calhamer's map file and variant file hold it."""

    name: str
    title: str
    package: str
    description: str
    created_by: str
    aliases: list[str]
    powers: list[Power]
    provinces: list[Province]
    army: dict[str, list[str]]
    fleet: dict[str, list[str]]
    oneway: dict[str, list[str]]  # "army"/"fleet" -> ["AAA BBB", ...]
    distance: list[str]  # edges no unit moves by that godip's distance counts: "AAA BBB"
    units: dict[str, list[str]]
    start_centres: dict[str, list[str]] | None
    victory_centers: int
    start_phase: str
    calendar: dict[str, Any] | None
    neutral: dict[str, Any] | None  # the NEUTRAL minor power's entry, if godip has one
    modules: list[str]
    options: dict[str, Any]
    notes: list[str]


def power_code(nation: str) -> str:
    """A nation's code: its name upper case, without spaces (``OTTOMANEMPIRE``)."""
    return re.sub(r"[^A-Za-z0-9]", "", nation).upper()


def colours(count: int) -> list[str]:
    """``count`` distinct colours, spread round the colour wheel (calhamer's own)."""
    out = []
    for i in range(count):
        hue = (i * 0.618033988749895) % 1.0
        r, g, b = colorsys.hls_to_rgb(hue, 0.55 if i % 2 else 0.45, 0.65)
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def location(node: str) -> str:
    return node.upper()


def province_name(code: str, long_names: dict[str, str]) -> str:
    """godip's long name of a province, without a trailing ``(CODE)`` some of them carry."""
    name = long_names.get(code, code.upper()).strip()
    return re.sub(rf"\s*\({re.escape(code)}\)$", "", name, flags=re.I)


def provinces(v: GodipVariant, codes: dict[str, str]) -> list[Province]:
    """Each province of godip's graph, with its type, coasts and centre."""
    out = []
    for p in v.graph.provinces():
        main = v.graph.nodes.get(p)
        if main is None:
            raise GoShapeError(f"{v.package}: {p} has coasts but no node of its own")
        coasts = v.graph.coasts(p)
        flags = main.flags
        if coasts:
            for c in coasts:
                if v.graph.nodes[f"{p}/{c}"].flags != {SEA}:
                    raise GoShapeError(f"{v.package}: coast {p}/{c} is not a sea node")
            if flags != {LAND}:
                raise GoShapeError(f"{v.package}: {p} has coasts and flags {flags}")
            kind = "coast"
        elif flags >= {LAND, SEA}:
            kind = "coast"
        elif flags == {LAND}:
            kind = "land"
        elif flags == {SEA}:
            kind = "sea"
        else:
            raise GoShapeError(f"{v.package}: {p} has flags {flags}")
        owner = v.graph.centres.get(p)
        out.append(Province(
            code=p.upper(), name=province_name(p, v.long_names), type=kind,
            sc=owner is not None, home=codes[owner] if owner and owner != NEUTRAL else None,
            coasts=[c.upper() for c in coasts], convoys=CONVOYABLE in flags))
    return out


def adjacency(v: GodipVariant) -> tuple[dict[str, set[tuple[str, str]]], list[str]]:
    """The moves godip's graph allows, per unit type, as directed pairs of locations, and
    the edges that allow none, ``"FROM TO"`` (an edge between a split province's land node
    and a sea: a fleet moves to one of its coasts, by an edge of its own). No unit moves by
    those, but godip's graph distance counts them (its civil-disorder removals), so the map
    file keeps them under ``[distance]``."""
    moves: dict[str, set[tuple[str, str]]] = {"army": set(), "fleet": set()}
    unused = []
    for name, node in v.graph.nodes.items():
        for target, edge in node.edges.items():
            dest = v.graph.nodes[target]
            army = not node.sub and not dest.sub and LAND in node.flags & edge & dest.flags
            fleet = SEA in node.flags & edge & dest.flags
            if army:
                moves["army"].add((location(name), location(target)))
            if fleet:
                moves["fleet"].add((location(name), location(target)))
            if not army and not fleet:
                unused.append(f"{location(name)} {location(target)}")
                check_unused(v, name, target)
    return moves, sorted(unused)


def check_unused(v: GodipVariant, a: str, b: str) -> None:
    """An edge no unit may use joins the land node of a split province to a sea that one
    of the province's coasts touches, both ways (so that a convoy through that sea lands in
    the province in calhamer as in godip); refuse any other."""
    nodes = v.graph.nodes
    land, sea = (a, b) if v.graph.coasts(nodes[a].province) else (b, a)
    province = nodes[land].province
    touching = [c for c in v.graph.coasts(province)
                if sea in nodes[f"{province}/{c}"].edges and f"{province}/{c}" in nodes[sea].edges]
    if nodes[land].sub or not v.graph.coasts(province) or nodes[sea].flags != {SEA} \
            or not touching:
        raise GoShapeError(f"{v.package}: the edge {a}->{b} is one no unit may use, and not "
                           "one between a split province's land and a sea its coasts touch")


def split_edges(pairs: set[tuple[str, str]]) -> tuple[dict[str, list[str]], list[str]]:
    """Edges both ways, listed from both ends, and one-way edges as ``"FROM TO"``."""
    both: dict[str, list[str]] = {}
    oneway = []
    for a, b in sorted(pairs):
        if (b, a) in pairs:
            both.setdefault(a, []).append(b)
        else:
            oneway.append(f"{a} {b}")
    return {k: sorted(v) for k, v in sorted(both.items())}, oneway


def unit_text(kind: str, loc: str) -> str:
    return f"{kind[0]} {location(loc)}"


def start(v: GodipVariant, codes: dict[str, str]
          ) -> tuple[dict[str, list[str]], dict[str, list[str]] | None, str]:
    """Each power's units, its centres at the start when they are not its home centres,
    and the first phase's code."""
    units: dict[str, list[str]] = {}
    for loc, (kind, nation) in v.units.items():
        units.setdefault(codes[nation], []).append(unit_text(kind, loc))
    owned: dict[str, list[str]] = {}
    for prov, nation in v.owners.items():
        if nation != NEUTRAL:
            owned.setdefault(codes[nation], []).append(prov.upper())
    homes: dict[str, list[str]] = {}
    for prov, nation in v.graph.centres.items():
        if nation != NEUTRAL:
            homes.setdefault(codes[nation], []).append(prov.upper())
    tidy = {k: sorted(x) for k, x in sorted(owned.items())}
    centres = None if tidy == {k: sorted(x) for k, x in sorted(homes.items())} else tidy
    year, season, kind = v.start
    letter = "W" if kind == "Adjustment" else PHASE_SEASONS[season]
    return ({k: sorted(x) for k, x in sorted(units.items()) if k != NEUTRAL_CODE}, centres,
            f"{letter}{year}{PHASE_KINDS[kind]}")


def rules(v: GodipVariant, reading: Reading | None) -> tuple[dict[str, Any], list[str]]:
    """The variant's options, and notes on how they were read."""
    options: dict[str, Any] = {}
    notes = []
    if v.builds == "anywhere":
        options["build_sites"] = "owned"
        if "Anywhere" not in v.state_flags:
            notes.append("godip's order parser builds in any owned centre (its "
                         "BuildAnywhereParser), though the variant's state is made without "
                         "the flag that says so; the parser's rule is followed.")
    elif v.builds == "any-home":
        options["build_sites"] = "any-home"
    if v.solo is not None or (reading and reading.victory_centers):
        # common.SCCountWinner and TwentyTwentyWinner name a winner only when one power
        # has more centres than every other.
        options["solo_needs_lead"] = True
    elif not reading:
        raise GoShapeError(f"{v.package}: SoloWinner {v.solo_rule} has no reading")
    # godip removes the units a power owes and did not remove by their distance from its
    # home centres (phase.go SortedUnits), in every variant.
    options["civil_disorder"] = "home-distance"
    if reading:
        options.update(reading.options)
        notes.append(reading.why)
    return dict(sorted(options.items())), notes


def neutral_power(v: GodipVariant, reading: Reading | None) -> dict[str, Any] | None:
    """godip's ``Neutral`` units as a garrison minor power: they only hold, and whether a
    winter rebuilds them is whether the variant's state gives them orders (NeutralOrders)."""
    units = sorted(unit_text(kind, loc) for loc, (kind, nation) in v.units.items()
                   if nation == NEUTRAL)
    if not units:
        return None
    rebuild = v.neutral_orders if reading is None or reading.rebuild is None else reading.rebuild
    return {"name": "Neutral", "garrison": True, "rebuild": rebuild, "units": units,
            "centers": sorted(p.upper() for p, n in v.owners.items() if n == NEUTRAL)}


def check_reading(v: GodipVariant, reading: Reading | None, read: Any) -> None:
    """Stop when the code a reading was made from has changed."""
    if reading is None or not reading.code_says[0]:
        return
    path, text = reading.code_says
    if text not in read(f"variants/{path}"):
        raise GoShapeError(f"{path} no longer says {text!r}: read its rule again")


def convert(name: str, v: GodipVariant, reading: Reading | None, read: Any = None) -> Board:
    """godip's variant ``v`` as calhamer's board ``name``."""
    if read is not None:
        check_reading(v, reading, read)
    nations = sorted(set(v.nations), key=power_code)
    codes = {n: power_code(n) for n in nations} | {NEUTRAL: NEUTRAL_CODE}
    powers = [Power(codes[n], n, [n.replace(" ", "")] if " " in n else [], c)
              for n, c in zip(nations, colours(len(nations)), strict=True)]
    moves, unused = adjacency(v)
    army, army_oneway = split_edges(moves["army"])
    fleet, fleet_oneway = split_edges(moves["fleet"])
    units, centres, first = start(v, codes)
    options, notes = rules(v, reading)
    neutral = neutral_power(v, reading)
    package, description = VARIANTS[name]
    aliases = [a for a in dict.fromkeys([v.name, package.rsplit("/", 1)[-1]])
               if a.lower() != name]
    return Board(
        name=name, title=v.name, package=package, description=description,
        created_by="" if v.created_by in ("", "Unknown") else v.created_by, aliases=aliases,
        powers=powers, provinces=provinces(v, codes), army=army, fleet=fleet,
        oneway={k: x for k, x in (("army", army_oneway), ("fleet", fleet_oneway)) if x},
        distance=unused,
        units=units, start_centres=centres,
        victory_centers=v.solo or (reading.victory_centers if reading else 0) or 0,
        start_phase=first, calendar=reading.calendar if reading else None, neutral=neutral,
        modules=["garrisons"] if neutral else [], options=options, notes=notes)
