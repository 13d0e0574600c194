"""DPjudge's ``FLOW`` and ``BEGIN`` as calhamer's ``[calendar]`` and first phase.

A DPjudge year is a list of seasons, each with its phases (``SPRING:MOVEMENT,RETREATS``), and
two marks: ``NEWYEAR:n`` (the year moves on by n: 5 in the Hundred Years' War, -1 for the
years before Christ of Classical) and ``IFYEARDIV:d`` (the phases after it are played only in
years divisible by d). calhamer's calendar has the same parts in a fixed shape: movement
seasons in order, each a movement and a retreat phase, then a winter of adjustments after
every ``adjust_every`` movement years (see docs/boards.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from calhamer.boards.dpjudge.reader import Problem, Where

DEFAULT_FLOW = ["SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS"]
KINDS = {"MOVEMENT": "M", "RETREATS": "R", "ADJUSTMENTS": "A"}
# A season named after an era (A.D., B.C.) that holds both the movement and the adjustments
# is written as calhamer's year-long season and a winter.
YEAR = {"code": "Y", "name": "Year"}
WINTER = {"code": "W", "name": "Winter"}


@dataclass
class Calendar:
    """The calendar read from a FLOW, and the first phase's code."""

    seasons: list[dict[str, str]]
    winter: dict[str, str]
    year_step: int = 1
    adjust_every: int = 1
    start_phase: str = "S1901M"
    # DPjudge's season name -> calhamer's season code (for BEGIN).
    codes: dict[str, str] | None = None

    def is_standard(self) -> bool:
        """Whether it is the standard calendar (written as no ``[calendar]`` table)."""
        return (self.seasons == [{"code": "S", "name": "Spring"}, {"code": "F", "name": "Fall"}]
                and self.winter == WINTER and self.year_step == 1 and self.adjust_every == 1)

    def table(self) -> dict[str, object]:
        """The ``[calendar]`` table of the board file."""
        return {"seasons": self.seasons, "winter": self.winter, "year_step": self.year_step,
                "adjust_every": self.adjust_every}


def _season_name(text: str) -> str:
    return text.replace("+", " ").title() if "." not in text else text


def read_calendar(flow: list[tuple[str, Where]], begin: tuple[str, Where] | None,
                  problems: list[Problem], mobilize: bool) -> Calendar:
    """The calendar of a FLOW (DPjudge's default when none is given) and the first phase of
    a BEGIN (``SPRING 1901 MOVEMENT`` when none is given). What calhamer's calendar cannot
    hold is added to ``problems`` and left out."""
    where = flow[0][1] if flow else None
    pairs: list[tuple[str, Where | None]] = (list(flow) if flow else
                                             [(item, None) for item in DEFAULT_FLOW])
    step, divisor, modulo = 1, 0, 0
    moves: list[str] = []  # movement seasons, in order
    adjust: str | None = None
    for item, at in pairs:
        season, colon, phases = item.partition(":")
        if season == "NEWYEAR":
            step = int(phases or 1) if phases.lstrip("-").isdigit() else 1
        elif season == "IFYEARDIV":
            div, _, mod = phases.partition("=")
            if div.isdigit() and int(div) > 0 and (mod or "0").isdigit():
                divisor, modulo = int(div), int(mod or 0)
            elif at is not None:
                problems.append(Problem(at, f"FLOW {item}", "the divisor is not a whole "
                                        "number above 0; left out"))
        elif not colon or not season or not phases:
            if at is not None:
                problems.append(Problem(at, f"FLOW {item}", "not a season with its phases "
                                        "(SPRING:MOVEMENT,RETREATS); left out"))
        else:
            kinds = [KINDS.get(p, p) for p in phases.split(",")]
            if kinds == ["M", "R"]:
                moves.append(season)
            elif kinds == ["A"] and adjust is None:
                adjust = season
            else:
                if where is not None:
                    problems.append(Problem(where, f"FLOW {item}", _why(kinds)))
                if "M" in kinds:
                    moves.append(season)
                elif "A" in kinds and adjust is None:
                    adjust = season
    if not moves:
        if where is not None:
            problems.append(Problem(where, "FLOW", "no season has a movement phase; the "
                                    "standard calendar is used"))
        moves, adjust = ["SPRING", "FALL"], adjust or "WINTER"
    every = _adjust_every(step, divisor, modulo, begin)
    if every is None and where is not None:
        problems.append(Problem(where, "FLOW IFYEARDIV", "adjustments in years that are not "
                                "every Nth year from the start are not supported; imported "
                                "with adjustments every year"))
    calendar = _seasons(moves, adjust)
    calendar.year_step, calendar.adjust_every = step, every or 1
    calendar.start_phase = _start(calendar, begin, problems, mobilize)
    return calendar


def _why(kinds: list[str]) -> str:
    extra = [k for k in kinds if k not in "MRA"]
    if extra:
        return (f"the {', '.join(extra)} phase is not played by calhamer (a phase of "
                "DPjudge's Payola games); imported without it")
    return ("calhamer's seasons are a movement and a retreat phase each, then a winter of "
            "adjustments; imported as that")


def _seasons(moves: list[str], adjust: str | None) -> Calendar:
    if adjust is not None and adjust in moves and len(moves) == 1:
        # A.D. or B.C.: one season for the whole year, adjustments in its winter.
        return Calendar([dict(YEAR)], dict(WINTER), codes={moves[0]: "Y", adjust + "#A": "W"})
    seasons, codes = [], {}
    for season in moves:
        code = season[0]
        seasons.append({"code": code, "name": _season_name(season)})
        codes[season] = code
    winter = {"code": adjust[0], "name": _season_name(adjust)} if adjust else dict(WINTER)
    codes[(adjust or "WINTER") + "#A"] = winter["code"]
    return Calendar(seasons, winter, codes=codes)


def _adjust_every(step: int, divisor: int, modulo: int,
                  begin: tuple[str, Where] | None) -> int | None:
    """N such that the years with adjustments are every Nth movement year from the start
    (DPjudge: the years whose number modulo ``divisor`` is ``modulo``); None if none is."""
    if not divisor:
        return 1
    try:
        first = int(begin[0].split()[1]) if begin else 1901
    except (IndexError, ValueError):
        first = 1901
    hits = [k for k in range(1, 4 * divisor + 1)
            if (first + (k - 1) * step) % divisor == modulo]
    if not hits:
        return None
    every = hits[0]
    return every if hits == list(range(every, 4 * divisor + 1, every)) else None


def _start(calendar: Calendar, begin: tuple[str, Where] | None, problems: list[Problem],
           mobilize: bool) -> str:
    text = begin[0] if begin else "SPRING 1901 MOVEMENT"
    words = text.split()
    codes = calendar.codes or {}
    try:
        season, year, kind = words[0], int(words[1]), KINDS[words[2]]
    except (IndexError, ValueError, KeyError):
        if begin is not None:
            problems.append(Problem(begin[1], "BEGIN", f"{text!r} is not a phase like "
                                    "SPRING 1901 MOVEMENT; the game starts in the first phase"))
        season, year, kind = next(iter(codes), "SPRING"), 1901, "M"
    if mobilize and kind != "A":
        # MOBILIZE: the game starts with the adjustments before the first movement phase.
        first_season = calendar.seasons[0]["code"]
        if codes.get(season) == first_season:
            year, kind = year - calendar.year_step, "A"
    if kind == "A":
        code = codes.get(season + "#A", calendar.winter["code"])
    else:
        code = codes.get(season, calendar.seasons[0]["code"])
    return f"{code}{year}{kind}"
