"""A variant's own state: the fields it adds to a phase document, as one typed model.

A variant that keeps state beyond the board (Arpiesse's options, the DP variants' secret
bids, Kriegsplomacy's spies, Superdiplomacy's dice) names a :class:`VariantState` subclass as
its ``Variant.state``. The model's fields are the phase document's keys it owns (``options``,
``bids``, ``seed``, ``extra``); its three class methods are the whole contract:

- :meth:`VariantState.read`: a document's fields, validated, as ``Position.extra`` holds them;
- :meth:`VariantState.write`: ``Position.extra`` written back into a phase document;
- :meth:`VariantState.lasting`: the part of ``Position.extra`` that outlives a phase.

``Position.extra`` stays the carrier in memory (a mapping of plain values that hashes with
the position); the model is the one gate between it and JSON, and its JSON Schema is
published in ``docs/schemas/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import ValidationError

from calhamer.documents.base import Document, describe_validation_error
from calhamer.errors import PhaseError

if TYPE_CHECKING:
    from typing import Self

    from calhamer.map import Map
    from calhamer.position import Position
    from calhamer.variant import Variant


class VariantState(Document):
    """The variant's fields of a phase document. Subclasses declare the fields (each a key
    of the phase document) and override the methods below where the default does not fit."""

    # How a problem in the state's fields is told (see ``describe_validation_error``).
    hints: ClassVar[Mapping[str, str]] = {}
    unknown: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def read(cls, variant: Variant, m: Map, doc: Mapping[str, Any]) -> Mapping[str, object]:
        """The state's fields of phase document ``doc``, checked, as ``Position.extra``
        holds them; raises :class:`PhaseError` naming the field path of a problem."""
        given = {key: doc[key] for key in cls.model_fields if key in doc}
        if not given:
            return {}
        try:
            state = cls.model_validate(given)
        except ValidationError as exc:
            raise PhaseError(describe_validation_error(
                exc, hints=cls.hints, unknown=cls.unknown)) from None
        return state.to_extra(variant, m)

    def to_extra(self, variant: Variant, m: Map) -> dict[str, object]:
        """The checked fields as ``Position.extra`` holds them: by default each given field
        as its plain JSON value. A subclass checks names against the map here."""
        return dict(self.model_dump(mode="json"))

    @classmethod
    def from_extra(cls, variant: Variant, position: Position) -> Self | None:
        """The state of ``position`` as it is written in a phase document (None: nothing to
        write). By default the fields found in ``Position.extra`` under their own names."""
        given = {k: v for k in cls.model_fields
                 if (v := position.extra.get(k)) is not None}
        return cls.model_validate(given) if given else None

    @classmethod
    def write(cls, variant: Variant, position: Position, doc: dict[str, Any]) -> None:
        """Add the state of ``position`` to its phase document ``doc``."""
        state = cls.from_extra(variant, position)
        if state is not None:
            doc.update(state.model_dump(mode="json"))

    @classmethod
    def lasting(cls, extra: Mapping[str, object]) -> Mapping[str, object]:
        """The part of ``Position.extra`` that outlives its phase: all of it by default; a
        variant drops the inputs of one phase here (DP bids), so that they are neither used
        again nor written into the next phase's document."""
        return extra


def combine_states(states: list[type[VariantState]], name: str) -> type[VariantState]:
    """One state model for a variant built from several modules that each keep state.

    Its fields are every module's (a field two modules share, like ``"extra"``, holds both
    modules' keys: a model with the fields of each); reading, writing and what outlives a
    phase go to each module's own model in turn, each seeing only its own keys.
    """
    from pydantic import create_model

    fields: dict[str, Any] = {}
    shared: dict[str, list[type[Document]]] = {}
    for state in states:
        for key, info in state.model_fields.items():
            sub = info.annotation
            inner = _document_in(sub)
            if inner is not None:
                shared.setdefault(key, []).append(inner)
            if key not in fields:
                fields[key] = (sub, info)
    for key, models in shared.items():
        if len(models) > 1:
            merged: dict[str, Any] = {}
            for model in models:
                for sub_key, sub_info in model.model_fields.items():
                    merged.setdefault(sub_key, (sub_info.annotation, sub_info))
            both = create_model(f"{name}{key.title()}", __base__=Document, **merged)
            fields[key] = (both | None, None)
    hints = {k: v for state in states for k, v in state.hints.items()}
    unknown = {k: v for state in states for k, v in state.unknown.items()}
    parts = tuple(states)

    def _own(state: type[VariantState], doc: Mapping[str, Any]) -> dict[str, Any]:
        # ``doc`` with, under a shared key, only the keys ``state``'s own model declares
        out: dict[str, Any] = {}
        for key, info in state.model_fields.items():
            if key not in doc:
                continue
            value = doc[key]
            inner = _document_in(info.annotation)
            if key in shared and len(shared[key]) > 1 and isinstance(value, Mapping) \
                    and inner is not None:
                value = {k: v for k, v in value.items() if k in inner.model_fields}
            out[key] = value
        return out

    class Combined(VariantState):
        @classmethod
        def read(cls, variant: Variant, m: Map, doc: Mapping[str, Any]) -> Mapping[str, object]:
            # the whole document is checked first, so that a key no module knows is refused
            given = {key: doc[key] for key in cls.model_fields if key in doc}
            if given:
                try:
                    cls.model_validate(given)
                except ValidationError as exc:
                    raise PhaseError(describe_validation_error(
                        exc, hints=cls.hints, unknown=cls.unknown)) from None
            extra: dict[str, object] = {}
            for part in parts:
                extra.update(part.read(variant, m, _own(part, doc)))
            return extra

        @classmethod
        def write(cls, variant: Variant, position: Position, doc: dict[str, Any]) -> None:
            for part in parts:
                written: dict[str, Any] = {}
                part.write(variant, position, written)
                for key, value in written.items():
                    if isinstance(value, dict) and isinstance(doc.get(key), dict):
                        doc[key] = {**doc[key], **value}
                    else:
                        doc[key] = value

        @classmethod
        def lasting(cls, extra: Mapping[str, object]) -> Mapping[str, object]:
            for part in parts:
                extra = part.lasting(extra)
            return extra

    model = create_model(name, __base__=Combined, **fields)
    model.hints = hints
    model.unknown = unknown
    model.__doc__ = "The fields of a phase document kept by " + ", ".join(
        s.__name__ for s in states) + "."
    return model


def _document_in(annotation: Any) -> type[Document] | None:
    """The document model in a field's annotation (``Model`` or ``Model | None``), if any."""
    import types
    import typing

    candidates = (typing.get_args(annotation)
                  if isinstance(annotation, types.UnionType)
                  or typing.get_origin(annotation) is typing.Union else (annotation,))
    for c in candidates:
        if isinstance(c, type) and issubclass(c, Document):
            return c
    return None
