"""Names that come from the web: the variant a game is played under, and the names people
choose (display names, game names).

A variant name from the web is only ever a name: a shipped variant's (or alias), a variant
composed from rule modules on one of the judge's own boards (``standard+fog?rules=2000``),
or the name an uploaded variant file was turned into. The library also takes paths of
variant and map files; the web judge never lets one reach it, so no answer can tell whether
a file exists on the server (:func:`variant_name_problem`).

A name someone chooses is shown to others beside their power, in the seat table and the
game's notices, so it must read as what it is (:func:`clean_name`): NFC, no
bidirectional controls (U+202E would turn "Bob" and what follows around), no invisible
format characters, no control characters, one space between words, and a length limit.
"""

from __future__ import annotations

import re

# -- variant names -----------------------------------------------------------------------------

_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def accepted_variants() -> str:
    """What the web accepts as a variant, in one sentence (the shipped names and boards)."""
    from calhamer.map import available_maps
    from calhamer.variants import variant_names
    from calhamer.variants.composition import module_names

    return (f"a variant is one of the judge's own ({', '.join(variant_names())}), a variant "
            f"composed on one of its boards as board+module+... ({', '.join(available_maps())}; "
            f"modules: {', '.join(module_names())}), or a variant file uploaded on the "
            "new-game form")


def variant_name_problem(text: str) -> str | None:
    """Why ``text`` is not a variant name the web may give (None when it may be one).

    A plain name must look like a variant's name (letters, digits, ``-`` and ``_``); a
    composed one must start with one of the judge's boards, named exactly. Anything else (a
    path, a ``.toml`` file, a board that is not shipped) gets the same sentence, which
    repeats only what was given, so that the answer does not depend on the server's files."""
    from calhamer.map import available_maps

    name = text.strip()
    if "+" not in name:
        if _PLAIN_NAME.fullmatch(name):
            return None  # looked up in the registry only (unknown: the registry says so)
        return f"{name!r} is not a variant name: {accepted_variants()}"
    # The board as the library reads it (composition.parse_spec), before it is ever read.
    board = name.partition("?")[0].split("+")[0].strip()
    if board in available_maps():
        return None
    return f"{name!r} is not a variant name: {accepted_variants()}"
