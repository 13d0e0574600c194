"""A board read by :mod:`.reader` written as calhamer's map file and variant options.

The map file holds the board's facts (provinces, adjacencies, powers, the start, the
calendar); the rules a DPjudge ``RULE`` line switches on become the variant options of the
rules vocabulary (``build_sites``, ``unplayed``, ``draw_vote``...). docs/boards.md lists how
each directive and rule is read.
"""

from __future__ import annotations

from typing import Any

from calhamer.boards.dpjudge.calendar import read_calendar
from calhamer.boards.dpjudge.places import Places, base, read_places, unit_location
from calhamer.boards.dpjudge.reader import PowerDef, Problem, Source, Where

# The RULEs calhamer plays, each as the variant options it sets (applied in this order, so
# that a later rule of the same kind wins, as in DPjudge).
RULE_OPTIONS: dict[str, dict[str, Any]] = {
    "BUILD_ANY": {"build_sites": "owned"},
    "HOME_BUILDS": {"build_sites": "any-home"},
    "NO_DRAW": {"draw_vote": False},
}
# RULEs whose whole effect the board already has, and why.
RULES_HELD = {
    "MOBILIZE": "the game starts with the adjustments before its first movement phase, with "
                "no units on the board",
    "CD_DUMMIES": "a dummy power's units hold (the unplayed powers' rule)",
    "IMMOBILE_DUMMIES": "a dummy power's units hold (the unplayed powers' rule)",
    "DUMMY_FIRE": "a dummy power's units only hold, so they never dislodge one another",
}
# RULEs that change nothing calhamer adjudicates: left out with a note.
RULES_NOTED = {
    "FTF_PRESS": "press is set for each game on calhamer's web judge",
}
# RULEs calhamer cannot play: left out, each with the reason.
RULES_LOST = {
    "CD_BUILDS": "dummy powers and powers in civil disorder building at random is not "
                 "supported (calhamer's unplayed powers never build)",
    "REMOTE_BUILDS": "builds only while a power still owns one of its home centres are not "
                     "supported (calhamer lets it build in any owned centre)",
    "HIBERNATE": "units waiting out a phase where their place is closed are not supported",
    "VASSAL_DUMMIES": "vassal states (dummy powers whose home centres one great power holds) "
                      "are not supported",
    "PAY_DUMMIES": "dummy powers' units bought with Payola bribes are not supported",
}
MARKED_HOMES = {
    "&": "a new home centre claimed by building in an owned centre is not supported",
    "*": "a partisan site (a build site that is no centre, for a power that has lost a home "
         "centre) is not supported; left out",
    "+": "a factory site (a build site that is no centre) is not supported; left out",
    "~": "builds hidden until the next movement phase are not supported; kept as a plain "
         "home centre",
    "@": "an alternative home centre (a build site in place of another) is not supported; "
         "kept as a plain home centre",
}


def convert(source: Source, name: str) -> tuple[dict[str, Any], dict[str, Any],
                                                 list[Problem]]:
    """The map file's tables and the variant options of a board, and its problems."""
    problems = list(source.problems)
    rules = _rules(source, problems)
    mobilize = "MOBILIZE" in rules
    calendar = read_calendar(source.flow, source.begin, problems, mobilize)
    places = read_places(source, problems)
    powers = _powers(source)
    if len(powers) < 2:
        where = Where(source.files[0], 1, "") if source.files else Where(source.path.name, 0, "")
        problems.append(Problem(where, "powers", f"the map gives {len(powers)} powers; a game "
                                "needs two at least"))
    board: dict[str, Any] = {"map": {"name": name, "title": name}}
    if not calendar.is_standard():
        board["calendar"] = calendar.table()
    board["powers"] = powers
    board["provinces"] = places.provinces
    centres = _centres(source, places, problems)
    _adjacency(board, places)
    board["start"] = _start(source, places, powers, centres, problems, mobilize)
    board["map"]["victory_centers"] = _victory(source, centres, problems)
    board["map"]["start_phase"] = calendar.start_phase
    options = _options(source, rules, problems)
    return board, options, problems


def _rules(source: Source, problems: list[Problem]) -> dict[str, Where]:
    """The RULEs in force (a ``!RULE`` turns one off, after all others, as in DPjudge)."""
    on: dict[str, Where] = {}
    off = [(r[1:], w) for r, w in source.rules if r.startswith("!")]
    for rule, where in source.rules:
        if not rule.startswith("!"):
            on.setdefault(rule, where)
    for rule, _ in off:
        on.pop(rule, None)
    for rule, where in on.items():
        if rule in RULES_LOST:
            problems.append(Problem(where, f"RULE {rule}", RULES_LOST[rule],
                                    feature=f"RULE {rule}"))
        elif rule in RULES_NOTED:
            problems.append(Problem(where, f"RULE {rule}", RULES_NOTED[rule], lost=False))
        elif rule not in RULE_OPTIONS and rule not in RULES_HELD:
            problems.append(Problem(where, f"RULE {rule}", "this DPjudge rule is not supported",
                                    feature=f"RULE {rule}"))
    return on


def power_code(power: PowerDef) -> str:
    """calhamer's code for a power: DPjudge's, without the underscores that order it."""
    return power.code.lstrip("_") or power.code


def power_name(raw: str) -> str:
    """A power's name for people: ``U+S+A`` is ``USA``, ``HOLY+ROMAN+EMPIRE`` is ``Holy
    Roman Empire``, ``_INDIA`` is ``India``."""
    words = raw.lstrip("_").split("+")
    if all(len(w) == 1 for w in words):
        return "".join(words)
    return " ".join(w if "." in w else w.title() for w in words)


def _powers(source: Source) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for power in source.powers.values():
        entry: dict[str, Any] = {"name": power_name(power.raw)}
        own = (power.own_word or "").replace("+", " ").strip()
        if own and own.upper() != power.raw.replace("+", " ").upper():
            entry["adjective"] = own.title()
        out[power_code(power)] = entry
    return out


def _centres(source: Source, places: Places, problems: list[Problem]) -> dict[str, str | None]:
    """Every supply centre, with the power whose home it is (None for no power's)."""
    centres: dict[str, str | None] = {}
    for power in source.powers.values():
        for marks, site, where in power.marked:
            label = site if site == "&SC" else f"{marks}{site}"
            problems.append(Problem(where, f"{power.raw} {label}", MARKED_HOMES[marks[0]],
                                    feature="&SC" if site == "&SC" else f"home {marks[0]}"))
        for site in power.homes:
            if site in centres and centres[site] is not None:
                problems.append(Problem(power.where, f"{power.raw} {site}", "a home centre of "
                                        f"two powers ({centres[site]} too) is not supported; "
                                        "kept as the first one's", feature="shared home"))
                continue
            centres[site] = power_code(power)
    for site in source.unowned:
        centres.setdefault(site, None)
    for power in source.powers.values():
        for site in power.centers or []:
            if site not in ("SC!", "SC?"):
                centres.setdefault(site, None)
    for site in list(centres):
        entry = places.provinces.get(site)
        if entry is None:
            where = next(iter(source.powers.values())).where if source.powers else \
                Where(source.path.name, 0, "")
            problems.append(Problem(where, site, "is a supply centre but not a place of the "
                                    "map; left out"))
            del centres[site]
            continue
        entry["sc"] = True
        if centres[site] is not None:
            entry["home"] = centres[site]
    return centres


def _adjacency(board: dict[str, Any], places: Places) -> None:
    """``[army]``, ``[fleet]`` (each edge from both ends) and ``[oneway]``."""
    oneway: dict[str, list[str]] = {}
    for kind, edges in (("army", places.army), ("fleet", places.fleet)):
        both: dict[str, list[str]] = {}
        for a, b in sorted(edges):
            if (b, a) in edges:
                both.setdefault(a, []).append(b)
            else:
                oneway.setdefault(kind, []).append(f"{a} {b}")
        board[kind] = {loc: " ".join(sorted(targets)) for loc, targets in sorted(both.items())}
    if oneway:
        board["oneway"] = oneway


def _start(source: Source, places: Places, powers: dict[str, dict[str, Any]],
           centres: dict[str, str | None], problems: list[Problem],
           mobilize: bool) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    owned: dict[str, list[str]] = {}
    for power in source.powers.values():
        code = power_code(power)
        kept = []
        for unit in power.units:
            why = unit_location(source, unit)
            if why is not None:
                problems.append(Problem(power.where, f"{power.raw} {unit}", f"{why}; left out"))
            else:
                kept.append(unit)
        if kept and not mobilize:
            units[code] = kept
        homes = [c for c in power.homes if c in centres]
        listed = power.centers if power.centers is not None else homes
        owned[code] = [c for c in listed if c in centres]
        for special in [c for c in listed if c in ("SC!", "SC?")]:
            problems.append(Problem(power.where, f"OWNS {special}", "builds in home centres one "
                                    "does not own are not supported"))
    start: dict[str, Any] = {"units": units}
    homes_owned = all(sorted(owned[code]) == sorted(c for c, p in centres.items() if p == code)
                      for code in owned)
    if not homes_owned:
        start["centers"] = {code: sorted(sites) for code, sites in owned.items() if sites}
    return start


def _victory(source: Source, centres: dict[str, str | None], problems: list[Problem]) -> int:
    """The centres needed to win: the map's VICTORY, else DPjudge's default (more than half
    of the centres)."""
    if source.victory is None:
        return len(centres) // 2 + 1
    counts, where = source.victory
    if len(set(counts)) > 1:
        problems.append(Problem(where, "VICTORY", "a victory threshold that changes year by "
                                f"year is not supported; {counts[-1]} is used for every year"))
    return counts[-1] if counts else len(centres) // 2 + 1


def _options(source: Source, rules: dict[str, Where], problems: list[Problem]) -> dict[str, Any]:
    """The variant options: the rules in force, the dummies, and DPjudge's victory rule
    (a win needs the most centres alone)."""
    options: dict[str, Any] = {}
    for rule in RULE_OPTIONS:
        if rule in rules:
            options.update(RULE_OPTIONS[rule])
    dummies = [power_code(p) for p in source.powers.values() if p.dummy]
    if dummies:
        options["unplayed"] = dummies
    options["solo_needs_lead"] = True
    return options


def unit_places(board: dict[str, Any]) -> set[str]:
    """The provinces the start's units stand in (for tests and checks)."""
    return {base(u.split()[1]) for units in board["start"]["units"].values() for u in units}
