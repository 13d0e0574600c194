"""What every document model shares: unknown keys refused, only given keys written back, and
a validation error told in one line with its field path.

This package is the one place calhamer imports pydantic; ``import calhamer`` does not load it
(the edges that read documents do, on first use).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    GetJsonSchemaHandler,
    SerializationInfo,
    Tag,
    ValidationError,
    model_serializer,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails


class Document(BaseModel):
    """A JSON object with known keys. Written back, it holds the keys it was given (or was
    built with) and no others, so a document read and written again is the same JSON."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        # Written back, a document has the keys it was read with, so it is described alike
        # both ways; without this, the serializer below would leave the web API's OpenAPI
        # schema an arbitrary object.
        if handler.mode == "serialization" and "serialization" in core_schema:
            core_schema = cast(CoreSchema, {k: v for k, v in core_schema.items()
                                            if k != "serialization"})
        return handler(core_schema)

    @model_serializer(mode="wrap")
    def _only_given(self, handler: Any, info: SerializationInfo) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            given = self.model_fields_set
            by_alias = {
                (f.alias or name): name for name, f in type(self).model_fields.items()
            }
            return {k: v for k, v in data.items() if by_alias.get(k, k) in given}
        return data


def by_json_type(value: Any) -> str:
    """The member of a text-or-object union a value is read as (see ``TEXT`` and ``OBJECT``):
    chosen by its JSON type, so that an error names one member only."""
    return "~text" if isinstance(value, str) else "~object"


# The tags of a union of a string and an object, as in
# ``Annotated[Annotated[str, TEXT] | Annotated[Entry, OBJECT], BY_JSON_TYPE]``.
TEXT, OBJECT, BY_JSON_TYPE = Tag("~text"), Tag("~object"), Discriminator(by_json_type)


# -- errors ---------------------------------------------------------------------------------------


def field_path(loc: Sequence[int | str]) -> str:
    """A pydantic location as calhamer writes a field path: ``units.FRANCE[0]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _matches(pattern: tuple[str, ...], loc: Sequence[int | str]) -> bool:
    if len(pattern) > len(loc):
        return False
    return all(p == "*" or p == str(part) for p, part in zip(pattern, loc, strict=False))


def describe_validation_error(
    exc: ValidationError,
    *,
    hints: Mapping[str, str] | None = None,
    unknown: Mapping[str, str] | None = None,
) -> str:
    """One line for a failed validation: the field path of the first problem and what is
    wrong there, never a traceback.

    ``hints`` maps a field path pattern (``units``, ``dislodged.*``; ``*`` stands for one
    key or index) to the sentence shown for any problem at or below it; the longest pattern
    that matches wins, and ``{key}`` in it is the key its last part matched. ``unknown``
    maps the path of an object (``""``: the document itself) to how its unknown keys are
    named (``keys in the phase document``); all unknown keys of that object are listed.
    """
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = _clean(first)
    if first["type"] == "extra_forbidden":
        parent = loc[:-1]
        names = sorted(
            str(_clean(e)[-1]) for e in errors
            if e["type"] == "extra_forbidden" and _clean(e)[:-1] == parent
        )
        noun = (unknown or {}).get(field_path(parent))
        if noun is None:
            noun = f"keys in {field_path(parent)}" if parent else "keys"
        return f"unknown {noun}: {', '.join(names)}"
    # A missing field is told with the hint of the object that lacks it.
    missing = first["type"] == "missing" and bool(loc)
    at = loc[:-1] if missing else loc
    best: tuple[str, ...] | None = None
    for pattern in hints or {}:
        parts = tuple(pattern.split(".")) if pattern else ()
        if not parts and at:
            continue  # the document's own hint is for the document as a whole
        if _matches(parts, at) and (best is None or len(parts) > len(best)):
            best = parts
    text = None
    if best is not None:
        assert hints is not None
        text = hints[".".join(best)].format(key=at[len(best) - 1] if best else "")
    if missing:
        absent = f"{field_path(at) or 'the document'} has no {str(loc[-1])!r} field"
        return f"{absent}: {text}" if text else absent
    where = field_path(loc)
    if text is not None:
        text += _given(first.get("input"))
        # A hint that names its field itself ('"units" must map...') is shown alone.
        if not where or text.startswith((f'"{where}"', where)):
            return text
        return f"{where}: {text}"
    message = first["msg"]
    message = message[:1].lower() + message[1:]
    more = len({tuple(_clean(e)) for e in errors}) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more > 0 else ""
    return f"{where}: {message}{tail}" if where else f"{message}{tail}"


def _given(value: Any) -> str:
    """What was written instead, when it is short enough to quote (a scalar)."""
    if isinstance(value, str | int | float | bool) or value is None:
        shown = repr(value) if not isinstance(value, bool) else str(value).lower()
        if value is None:
            shown = "null"
        if len(shown) <= 40:
            return f", not {shown}"
    return ""


def _clean(error: ErrorDetails) -> list[int | str]:
    """The error's location less pydantic's names of union members and function validators,
    which are not keys of the document."""
    return [part for part in error["loc"]
            if not (isinstance(part, str) and _is_tag(part))]


def _is_tag(part: str) -> bool:
    # The documents' unions name their members with tags that start with "~" (see
    # ``either``); pydantic names a dict's key check "[key]" and a validator
    # "function-after[...]". Document keys are never written so.
    return part.startswith("~") or "[" in part
