"""The battles and dice of a movement phase in words, for phase reports and power views: the
seed to check them by, then every battle and every throw with the units it killed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calhamer.map import Map
from calhamer.results import PhaseOutcome


def dice_lines(m: Map, record: Mapping[str, Any]) -> list[str]:
    """The battles of a movement phase and every throw, with the seed to check them by."""
    seed = record.get("seed")
    if seed:
        lines = [f"Seed {seed}",
                 f"(SHA-256 {record.get('seed_hash')}; orders {record['orders_digest']})"]
    else:
        lines = ["No seed was given: these throws are not verifiable."]
    battles = record.get("battles", [])
    if not battles:
        lines += ["", "No battles."]
    for b in battles:
        heading = f"Battle for {b['battle']}"
        if b["kind"] != "battle":
            heading += f", to the death (round {b['round']})"
        lines += ["", heading]
        for t in b["throws"]:
            try:
                name = m.power(t["power"]).name
            except KeyError:
                name = str(t["power"]).title()
            faces = " ".join(str(d) for d in t["dice"]) or "-"
            kills = ", ".join(f"{k['unit']} ({k['as']})" for k in t["kills"])
            lines.append(
                f"    {name} {t['role']}: {t['direct']} direct + {t['supporting']} "
                f"supporting, {len(t['dice'])} dice: {faces}"
                + (f"; kills {kills}" if kills else "")
            )
    return lines


def dice_report(m: Map, record: Mapping[str, Any]) -> list[str]:
    """:func:`dice_lines` as a block of a phase report."""
    body = [f"    {line}" if line else "" for line in dice_lines(m, record)]
    return ["------", "Battles and dice", "", *body, ""]


def _dice_record(outcome: PhaseOutcome) -> Mapping[str, Any] | None:
    before = outcome.before
    if not before.phase.is_movement:
        return None
    record = outcome.after.extra.get("dice") or outcome.next.extra.get("dice")
    if not isinstance(record, Mapping) or record.get("phase") != before.phase.code:
        return None
    return record
