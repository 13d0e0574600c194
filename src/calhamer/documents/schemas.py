"""The JSON Schemas of calhamer's documents, as published in ``docs/schemas/``.

``scripts/write-schemas.py`` writes them; a test fails when the committed files differ from
what the models generate, so the published schemas always describe what calhamer reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from calhamer.documents.game import GameDocument
from calhamer.documents.maps import MapFile
from calhamer.documents.phase import OutputDocument, PhaseDocument

if TYPE_CHECKING:
    from calhamer.variant import Variant

DIALECT = "https://json-schema.org/draft/2020-12/schema"

DOCUMENTS: dict[str, type[BaseModel]] = {
    "phase-document.json": PhaseDocument,
    "output-document.json": OutputDocument,
    "game-document.json": GameDocument,
    "map-file.json": MapFile,
}


def state_file_name(state: type[BaseModel]) -> str:
    """``ArpiesseState`` is published as ``arpiesse-state.json``."""
    stem = re.sub(r"State$", "", state.__name__)
    return f"{re.sub(r'(?<!^)(?=[A-Z][a-z])', '-', stem).lower()}-state.json"


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of ``model``, for documents as calhamer reads them."""
    return {"$schema": DIALECT, **model.model_json_schema()}


def all_schemas(variants: Iterable[Variant]) -> dict[str, dict[str, Any]]:
    """Every published schema by file name: the documents, and the state of each of
    ``variants`` that keeps one (variants sharing a state share its file)."""
    out = {name: schema_of(model) for name, model in DOCUMENTS.items()}
    for variant in variants:
        if variant.state is not None:
            out.setdefault(state_file_name(variant.state), schema_of(variant.state))
    return dict(sorted(out.items()))


def dumps(schema: dict[str, Any]) -> str:
    """A schema as its file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
