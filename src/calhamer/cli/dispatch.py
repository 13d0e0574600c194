"""Each power's report of a game, ready to send: text, picture and JSON.

The gamemaster of a game played by e-mail sends every power, after each phase, what that power
may know: the results it may read and the board as it knows it, with what it owes next. This
module writes those reports from a :class:`~calhamer.game.Game`, for ``calhamer game show``,
``calhamer game reports`` (every power's report into a folder) and ``calhamer game mail``.

A power's report is made from its view only (:func:`calhamer.game.game_view` and the
variant's ``known_position``): in Kriegsplomacy it tells nothing that power's view hides, and
its "due" lines speak of that power alone. Who else has sent orders is the gamemaster's to know.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calhamer.due import adjustments_due, missing_orders
from calhamer.formats import outcome_to_json, position_to_json, view_to_json
from calhamer.game import Game, game_outcome, game_view, write_atomically
from calhamer.report import phase_report, position_report, power_position_report
from calhamer.results import PhaseOutcome
from calhamer.variants import find_variant
from calhamer.views import gamemaster_view, known_position

GAMEMASTER = "gamemaster"


def _name(game: Game, power: str) -> str:
    m = game.current.map
    try:
        return m.power(power).name
    except KeyError:
        return power.title()


def _ordered(game: Game, keyed: Any) -> list[str]:
    codes = game.current.map.power_codes
    keys = list(keyed)
    return [p for p in codes if p in keys] + sorted(p for p in keys if p not in codes)


def full_report(outcome: PhaseOutcome) -> str:
    """The gamemaster's report: every result, and where the variant hides information from
    the players, also everything the players are told, in the variant's notation."""
    report = phase_report(outcome)
    if outcome.before.variant.visibility.hidden_information:
        told = phase_report(gamemaster_view(outcome))
        report += f"\n======\nAs the players are told it\n\n{told}"
    return report


def due_lines(game: Game, power: str | None = None) -> list[str]:
    """The winter's builds and removals owed, under a heading: for the gamemaster (``power``
    None) every power's, for a power its own (as it knows it). Empty when none are owed."""
    if game.winner:
        return []
    due = adjustments_due(game.current, game.rules, power)
    if not due:
        return []
    lines = ["Builds and removals due:" if power is None else "Due from you:"]
    lines += [f"    {a.describe(_name(game, a.power) if power is None else 'You')}"
              for a in due]
    return lines


def missing_line(game: Game) -> str:
    """``Orders missing: Austria, Italy`` (for the gamemaster only)."""
    missing = missing_orders(game.current, game.orders, game.rules)
    return f"Orders missing: {', '.join(_name(game, p) for p in missing) or 'none'}"


def gamemaster_text(game: Game, label: str, phase: str | None = None) -> str:
    """``calhamer game show``: the whole board, orders received and missing, what is due, and
    the last phase's results; with ``phase``, that processed phase's full report."""
    title = f"Game {label}: {find_variant(game.variant).title}, rules {game.rules}\n"
    if phase is not None:
        return title + full_report(game_outcome(game, phase))
    position = game.current
    last = game.outcome()  # before printing: a bad earlier phase is an error, not half a page
    parts = [title, position_report(position)]
    if not game.winner:
        received = game.orders
        lines = [f"{_name(game, p)} ({len(received[p])})" for p in _ordered(game, received)]
        parts.append(f"\nOrders received: {', '.join(lines) if lines else 'none yet'}\n")
        parts.append(missing_line(game) + "\n")
        due = due_lines(game)
        if due:
            parts.append("\n" + "\n".join(due) + "\n")
    if last is not None:
        parts += ["\n======\nLast phase\n\n", phase_report(last)]
    return "".join(parts)


def power_text(game: Game, label: str, power: str, phase: str | None = None) -> str:
    """What ``power`` may know, for ``calhamer game show --as``: its view of the current
    phase (with what it owes) and of the last one played; with ``phase``, its view of that
    processed phase."""
    parts = [f"Game {label}: {find_variant(game.variant).title}, rules {game.rules}, "
             f"as {_name(game, power)} sees it\n"]
    if phase is not None:
        parts.append(phase_report(game_view(game, power, phase)))
        return "".join(parts)
    parts.append(power_position_report(game.current, power))
    due = due_lines(game, power)
    if due:
        parts.append("\n" + "\n".join(due) + "\n")
    if not game.winner:
        mine = game.orders.get(power, [])
        parts.append(f"\nYour orders received: {len(mine)}\n")
    if len(game.phases) > 1:
        parts += ["\n======\nLast phase\n\n", phase_report(game_view(game, power))]
    return "".join(parts)


def gamemaster_json(game: Game, phase: str | None = None) -> dict[str, Any]:
    """``calhamer game show --json``: the gamemaster's document of the game now (or of a
    processed ``phase``: its results and every power's view)."""
    doc: dict[str, Any] = {"variant": game.variant, "rules": game.rules,
                           "phases": game.phases}
    if phase is not None:
        doc["outcome"] = outcome_to_json(game_outcome(game, phase), game.rules)
        return doc
    position = game.current
    doc["position"] = position_to_json(position, game.rules)
    if game.winner:
        doc["winner"] = game.winner
    else:
        doc["orders_received"] = {p: len(v) for p, v in game.orders.items()}
        doc["orders_missing"] = missing_orders(position, game.orders, game.rules)
        doc["adjustments_due"] = {a.power: {"amount": a.amount, "build_in": list(a.build_in)}
                                  for a in adjustments_due(position, game.rules)}
    last = game.outcome()
    if last is not None:
        doc["last"] = outcome_to_json(game_outcome(game), game.rules)
    return doc


def power_json(game: Game, power: str, phase: str | None = None) -> dict[str, Any]:
    """``calhamer game show --as POWER --json``: what ``power`` may know, as JSON."""
    doc: dict[str, Any] = {"variant": game.variant, "rules": game.rules, "power": power}
    if phase is not None:
        doc["view"] = view_to_json(game_view(game, power, phase), game.rules)
        return doc
    doc["position"] = position_to_json(known_position(game.current, power), game.rules)
    doc["adjustments_due"] = {a.power: {"amount": a.amount, "build_in": list(a.build_in)}
                              for a in adjustments_due(game.current, game.rules, power)}
    if not game.winner:
        doc["orders_received"] = len(game.orders.get(power, []))
    if len(game.phases) > 1:
        doc["last"] = view_to_json(game_view(game, power), game.rules)
    return doc


def power_picture(game: Game, power: str | None, phase: str | None = None) -> str:
    """The SVG picture that goes with a report: the processed ``phase`` with its orders and
    results as ``power`` may see them, else the board now as ``power`` knows it (None: the
    gamemaster, who sees everything)."""
    from calhamer.render.svg import render_svg

    if phase is not None:
        outcome = game_outcome(game, phase)
        if power is None:
            return render_svg(outcome=outcome)
        return render_svg(view=game_view(game, power, phase))
    position = game.current
    return render_svg(position if power is None else known_position(position, power))


@dataclass(frozen=True)
class PowerReport:
    """One recipient's report: ``power`` (a power's code, or :data:`GAMEMASTER`), its name, the
    phase it is about, the text and the SVG picture."""

    power: str
    name: str
    phase: str
    text: str
    picture: str
    results_of: str | None = None  # the phase whose results it tells (None: none yet)

    def subject(self, game: str) -> str:
        """The subject of the e-mail that carries it."""
        if self.results_of is None or self.results_of == self.phase:
            return f"{game}: {self.phase}, report for {self.name}"
        return f"{game}: {self.results_of} results and {self.phase} orders, for {self.name}"

    def file_stem(self) -> str:
        return f"{self.phase}-{self.power.lower()}"


def recipients(game: Game, phase: str | None = None) -> list[str]:
    """The powers that get a report: those in the game before or after ``phase`` (default:
    those in the game now, and those the last phase put out, who learn their fate)."""
    if phase is not None:
        record = game.record(phase)
        index = game.phases.index(record.phase)
        codes = game.phases[index: index + 2]
    else:
        codes = game.phases[-2:]
    alive: set[str] = set()
    for code in codes:
        position, _orders = game.phase_input(code)
        alive |= set(position.powers())
    m = game.current.map
    return [p for p in m.power_codes if p in alive and not m.is_minor(p)]


def reports(game: Game, label: str, phase: str | None = None, *, gamemaster: bool = True,
            pictures: bool = True) -> list[PowerReport]:
    """Every power's report (and the gamemaster's first, unless ``gamemaster`` is false) for
    ``phase`` (default: the game now, with the last phase's results)."""
    code = game.record(phase).phase if phase is not None else game.current.phase.code
    results_of = code if phase is not None else (game.phases[-2] if len(game.phases) > 1
                                                 else None)
    out = []
    if gamemaster:
        out.append(PowerReport(GAMEMASTER, "Gamemaster", code, gamemaster_text(game, label, phase),
                               power_picture(game, None, phase) if pictures else "", results_of))
    for power in recipients(game, phase):
        out.append(PowerReport(power, _name(game, power), code,
                               power_text(game, label, power, phase),
                               power_picture(game, power, phase) if pictures else "",
                               results_of))
    return out


def write_reports(folder: str | os.PathLike[str], items: list[PowerReport]) -> list[Path]:
    """Write each report as ``<phase>-<power>.txt`` and ``.svg`` into ``folder`` (made if
    missing); returns the files written."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for item in items:
        text_file = target / f"{item.file_stem()}.txt"
        write_atomically(text_file, item.text)
        written.append(text_file)
        if item.picture:
            picture_file = target / f"{item.file_stem()}.svg"
            write_atomically(picture_file, item.picture)
            written.append(picture_file)
    return written
