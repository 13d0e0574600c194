"""Phase JSON: the interchange format (documented in ``docs/formats.md``).

``read_json`` turns JSON text into a document (every file calhamer reads goes through it);
``position_from_json`` reads a phase document; ``position_to_json`` writes one (without
orders); ``outcome_to_json`` writes the output document of an adjudication.

The package, by concern (each module imports only those above it, never this one):

- :mod:`~calhamer.formats.json_text`: JSON text read with limits (``read_json``,
  ``DocumentError``) and written (strings escaped once and kept);
- :mod:`~calhamer.formats.reading`: phase documents read into positions
  (``position_from_json``, ``phase_from_line``, ``phase_document``, ``order_text``);
- :mod:`~calhamer.formats.writing`: positions and adjudications written as documents and as
  ``--jsonl`` lines (``position_to_json``, ``outcome_to_json``, ``outcome_to_line``,
  ``view_to_json``, ``dislodged_entries``, ``canonical_results``).

Every public name is importable from this package.
"""

from __future__ import annotations

from calhamer.formats.json_text import MAX_DEPTH, DocumentError, describe_error, read_json
from calhamer.formats.reading import (
    order_text,
    phase_document,
    phase_from_line,
    position_from_json,
)
from calhamer.formats.writing import (
    canonical_results,
    dislodged_entries,
    outcome_to_json,
    outcome_to_line,
    position_to_json,
    view_to_json,
)

__all__ = [
    "MAX_DEPTH",
    "DocumentError",
    "canonical_results",
    "describe_error",
    "dislodged_entries",
    "order_text",
    "outcome_to_json",
    "outcome_to_line",
    "phase_document",
    "phase_from_line",
    "position_from_json",
    "position_to_json",
    "read_json",
    "view_to_json",
]
