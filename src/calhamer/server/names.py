"""Names that come from the web: the variant a game is played under, and the names people
choose (display names, game names).

A variant name from the web is only ever a name: a shipped variant's (or alias), perhaps with
options (``standard?draw_vote=false``), a variant composed from rule modules on one of the
judge's own boards (``standard+fog?rules=2000``), or the name an uploaded variant file was
turned into. The library also takes paths of
variant and map files; the web judge never lets one reach it, so no answer can tell whether
a file exists on the server (:func:`variant_name_problem`).

A name someone chooses is shown to others beside their power, in the seat table and the
game's notices, so it must read as what it is (:func:`clean_name`): NFC, no
bidirectional controls (U+202E would turn "Bob" and what follows around), no invisible
format characters, no control characters, one space between words, and a length limit.
"""

from __future__ import annotations

import re
import unicodedata

# -- variant names -----------------------------------------------------------------------------

_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def accepted_variants() -> str:
    """What the web accepts as a variant, in one sentence (the shipped names and boards)."""
    from calhamer.boards import shipped_boards
    from calhamer.variants import variant_names
    from calhamer.variants.composition import module_names

    return (f"a variant is one of the judge's own ({', '.join(variant_names())}), a variant "
            f"composed on one of its boards as board+module+... ({', '.join(shipped_boards())}; "
            f"modules: {', '.join(module_names())}), either followed by options "
            "(standard?draw_vote=false), or a variant file uploaded on the new-game form")


def variant_name_problem(text: str) -> str | None:
    """Why ``text`` is not a variant name the web may give (None when it may be one).

    A plain name must look like a variant's name (letters, digits, ``-`` and ``_``); a
    composed one must start with one of the judge's boards, named exactly. Anything else (a
    path, a ``.toml`` file, a board that is not shipped) gets the same sentence, which
    repeats only what was given, so that the answer does not depend on the server's files."""
    from calhamer.boards import shipped_boards

    name = text.strip()
    if "+" not in name:
        # A plain name, or one with options (standard?draw_vote=false): the options are the
        # library's to check, and name no file.
        if _PLAIN_NAME.fullmatch(name.partition("?")[0].strip()):
            return None  # looked up in the registry only (unknown: the registry says so)
        return f"{name!r} is not a variant name: {accepted_variants()}"
    # The board as the library reads it (composition.parse_spec), before it is ever read.
    board = name.partition("?")[0].split("+")[0].strip()
    if board in shipped_boards():
        return None
    return f"{name!r} is not a variant name: {accepted_variants()}"


# -- names people choose -----------------------------------------------------------------------

# Refused outright (the schema's pattern says so too): NUL, and the bidirectional controls,
# which reorder what follows them on the page (U+202E shows "Bob\u202eecnarF" as "BobFrance").
_REFUSED = "\x00\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
NAME_PATTERN = f"^[^{_REFUSED.encode('unicode_escape').decode('ascii')}]*$"
_BIDI = re.compile(f"[{_REFUSED[1:]}]")
_KEPT_JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: part of how some scripts and emoji are written
_MAX_MARKS = 4  # combining marks on one letter: more only stacks ink over the page


def clean_name(text: str, *, limit: int, what: str = "a name", required: bool = True) -> str:
    """A name as it is stored and shown: NFC; invisible format characters (zero-width spaces,
    word joiners, byte-order marks, ...) and control characters removed, ZWJ and ZWNJ kept
    between two letters of a script that needs them; every run of white space one space; no
    space at either end. ValueError, saying why, for NUL, a bidirectional control, more than
    ``_MAX_MARKS`` combining marks on one letter, more than ``limit`` characters, or (when
    ``required``) nothing visible at all."""
    if "\x00" in text:
        raise ValueError("text may not contain NUL characters")
    found = _BIDI.search(text)
    if found:
        raise ValueError(f"{what} may not contain U+{ord(found[0]):04X}, a control of the "
                         "writing direction (it would turn the text after it around)")
    text = unicodedata.normalize("NFC", text)
    kept = []
    for i, char in enumerate(text):
        kind = unicodedata.category(char)
        if char in _KEPT_JOINERS:
            if 0 < i < len(text) - 1 and not text[i - 1].isascii() and not text[i + 1].isascii():
                kept.append(char)
        elif kind == "Cc" and char.isspace():
            kept.append(" ")
        elif kind not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(char)
    name = " ".join("".join(kept).split())
    if re.search(f"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
                 f"{{{_MAX_MARKS + 1},}}", name):
        raise ValueError(f"{what} may have at most {_MAX_MARKS} accents on one letter")
    if len(name) > limit:
        raise ValueError(f"{what} may be at most {limit} characters long")
    if required and not name:
        raise ValueError(f"{what} is empty once invisible characters are left out; write "
                         "at least one letter")
    return name
