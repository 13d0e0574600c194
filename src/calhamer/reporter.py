"""What a variant adds to the text reports: :class:`Reporter`, carried as ``Variant.reporter``.

:mod:`calhamer.report` writes every report; it asks the position's variant's reporter for the
parts a variant may lay out its own way. This module imports nothing at run time, so the
variant base (:mod:`calhamer.variant`) can hold a reporter without importing the reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from calhamer.position import Position
    from calhamer.results import PhaseOutcome


class Reporter:
    """The parts of a report a variant may change. The standard game adds nothing.

    Overridden by the DP variants (a movement phase's results as the bids' adjudication) and
    Superdiplomacy (battles and dice after the results, the dice commitment with a position).
    """

    def results(self, outcome: PhaseOutcome, powers: Sequence[str] | None) -> list[str] | None:
        """The report's lines for the results of ``outcome`` (only ``powers``' if given); None
        for the usual blocks (one per power, see :func:`calhamer.report.result_blocks`)."""
        return None

    def phase_notes(self, outcome: PhaseOutcome) -> list[str]:
        """Lines a phase report adds after the results (Superdiplomacy: battles and dice)."""
        return []

    def position_notes(self, position: Position) -> list[str]:
        """Lines shown with a position's summary (Superdiplomacy: the dice commitment)."""
        return []


STANDARD_REPORTER = Reporter()
"""The standard game's reporter."""
