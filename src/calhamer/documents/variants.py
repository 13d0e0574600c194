"""The variant file (TOML) as one pydantic model: a board, rule modules, options, edition.

The options are the rules vocabulary's (:mod:`calhamer.vocabulary`: build sites, victory,
the powers played...) and the modules'; each is checked by the option itself when the
variant is made, so this model takes any value of the shapes an option may have.

:func:`calhamer.variants.composition.load_variant_file` reads a file through
:class:`VariantFile`; its JSON Schema is published in ``docs/schemas/variant-file.json``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, StrictBool, StrictInt, StrictStr, ValidationError

from calhamer.documents.base import Document, describe_validation_error
from calhamer.errors import CalhamerError

# TOML has no null: "none" (a string) stands for no value, as in a spec's text.
OptionValue = StrictBool | StrictInt | list[str] | StrictStr | None


class VariantFile(Document):
    """A variant as a file: the board it is played on, the rule modules it is built from,
    their options and the rule edition."""

    title: str | None = Field(None, description="the variant's title, shown to players")
    description: str | None = Field(None, description="what the variant is, in a sentence, "
                                    "shown where a variant is chosen")
    source: str | None = Field(None, description="where the variant comes from: its judge, "
                               "its designer")
    aliases: list[str] = Field(default_factory=list, description="other names the variant is "
                               "found by (a variant shipped as a file)")
    board: str = Field(description='a shipped map\'s name ("standard-dp") or a map file\'s '
                       "path, relative to the variant file")
    modules: list[str] = Field(default_factory=list, description='rule modules: "fog", '
                               '"flexible-builds", "colours", "neutrals", "garrisons", "stacks" '
                               "(none: the standard rules on the board)")
    rules: str | None = Field(None, description='the rule edition ("datc", "alexander", ...)')
    options: dict[str, OptionValue] = Field(
        default_factory=dict, description="the options of the rules vocabulary every variant "
        'takes, like build_sites = "owned" or powers = ["FRANCE", "AUSTRIA"] '
        "(docs/variants.md), and the modules' options, like dp_cap = 2 (the string \"none\" "
        "for no value)")


FIELDS = ("title", "description", "source", "aliases", "board", "modules", "rules", "options")

_HINTS = {
    "board": '"board" must be a map\'s name or a map file\'s path',
    "modules": '"modules" must be a list of rule module names, like ["fog", "neutrals"]',
    "options": '"options" must be a table of option = value',
    "options.*": "an option's value must be true or false, a whole number, a list of names "
                 'or "none"',
    "title": '"title" must be text',
    "description": '"description" must be text',
    "source": '"source" must be text',
    "aliases": '"aliases" must be a list of names, like ["Western World 901"]',
    "rules": '"rules" must be a rule edition\'s name, like "datc"',
}


def read_variant_file(data: Mapping[str, Any], where: str) -> VariantFile:
    """The variant file ``data`` (read from ``where``), checked; raises
    :class:`CalhamerError` naming the field of a problem."""
    if "board" not in data and {"map", "provinces"} <= set(data):
        raise CalhamerError(f"{where!r} is a map file, not a variant file: write a variant "
                            f'file that names it as its board (board = "{where}")')
    options = data.get("options")
    if isinstance(options, Mapping):
        for key, value in options.items():
            if not isinstance(value, (bool, int, str, list)) or (
                    isinstance(value, list) and not all(isinstance(v, str) for v in value)):
                raise CalhamerError(f"variant file {where!r}: options.{key}: "
                                    + _HINTS["options.*"] + f", not {value!r}")
    try:
        doc = VariantFile.model_validate(dict(data))
    except ValidationError as exc:
        problem = describe_validation_error(exc, hints=_HINTS,
                                            unknown={"": "fields in a variant file"})
        if problem.startswith("unknown fields"):
            problem += f" (the fields are: {', '.join(FIELDS)})"
        problem = problem.replace("the document has no", "the file has no")
        raise CalhamerError(f"variant file {where!r}: {problem}") from None
    options = {k: (None if isinstance(v, str) and v.lower() == "none" else v)
               for k, v in doc.options.items()}
    return doc.model_copy(update={"options": options})
