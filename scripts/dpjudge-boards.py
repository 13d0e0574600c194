"""Write calhamer's DPjudge boards from DPjudge's map files.

    python scripts/dpjudge-boards.py [--reference DIR] [--check]

reads every ``*.map`` file of DPjudge's maps folder (``shared/reference/dpjudge/maps``, found
beside the repository or above it; ``--reference`` names another) with calhamer's importer
(``calhamer.boards.dpjudge``) and, for each board the importer carries over whole (no rule or
fact of play left out), writes

- the map file ``src/calhamer/maps/dpjudge/<map>.toml`` (``NOTICE`` beside them carries
  DPjudge's MIT licence and attribution; each file's header names its source), and
- the variant file ``src/calhamer/variants/files/dpjudge/dpjudge-<map>.toml``: the variant
  played by name (``dpjudge-youngstown``, and the bare name where no other variant has it),
  with the options its rules come to.

A board that would lose something is not written; the script prints what. ``--check``
writes nothing and exits 1 if a file differs from what it would write
(``tests/test_dpjudge_boards.py`` checks the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from calhamer.boards import toml  # noqa: E402
from calhamer.boards.dpjudge import Imported, import_map  # noqa: E402

MAPS = Path("src/calhamer/maps/dpjudge")
FILES = Path("src/calhamer/variants/files/dpjudge")
FAMILY = "dpjudge"
SOURCE = "DPjudge's {map} (github.com/serrasqueiro/dpjudge; MIT, (c) 2017 Manus Hand)"

# Each board's title (DPjudge's map files carry none).
TITLES = {
    "1897": "1897", "1898": "1898", "1900": "1900", "aberration": "Aberration",
    "ambition": "Ambition and Empire", "ancmed": "Ancient Mediterranean",
    "brazilian": "Brazilian", "britain": "Britain", "canton": "Canton", "chaos": "Chaos",
    "chromatic": "Chromatic", "classical": "Classical", "crowded": "Crowded",
    "empire": "Empire", "empire-up": "Empire-Up", "fiveman": "Five-Man",
    "fleetrome": "Fleet Rome", "hundred": "Hundred", "imperial": "Imperial",
    "loeb9": "Loeb9", "milan": "Milan", "minorpower": "Minor Power", "modern": "Modern",
    "modern-up": "Modern-Up", "pure": "Pure", "renaissance": "Renaissance",
    "sailho": "Sail Ho!", "sengoku": "Sengoku", "shiftaround": "Shift Around",
    "shiftleft": "Shift Left", "shiftright": "Shift Right", "slovenia": "Slovenia",
    "standard": "Standard", "v8": "V8", "vassal": "Vassal", "void": "Void",
    "youngstown": "Youngstown", "zeus": "Zeus",
}
# Boards that calhamer (or godip's boards, shipped beside these) already has under the bare
# name, or a name of the same board: these are played as dpjudge-<map> only.
TAKEN = {"standard", "ancmed", "canton", "chaos", "crowded", "fleetrome", "hundred", "pure",
         "sengoku", "1900", "classical"}

# What each board is, in a sentence (calhamer's own words).
DESCRIPTIONS = {
    "1898": "The standard map begun in the winter of 1898 with an empty board: every power "
            "builds its first units.",
    "ancmed": "Five powers of antiquity (Carthage, Egypt, Greece, Persia, Rome) around the "
              "Mediterranean.",
    "brazilian": "The standard game with an Italian fleet in Rome, North Africa neutral, "
                 "Clyde cut off from the Norwegian Sea and Helgoland joined to the Baltic.",
    "britain": "The standard game with England's home centres spread over Great Britain: "
               "six armies in York, Clyde, Wales and its cities.",
    "canton": "Seven powers contend for East and South Asia at the start of the twentieth "
              "century.",
    "chaos": "Every one of the standard map's 34 centres is a power of its own; the game "
             "starts with builds in the winter of 1900.",
    "chromatic": "Five powers named after colours on an imaginary map of 56 places.",
    "crowded": "The standard game with four more powers: the Balkans, the Low Countries, "
               "Scandinavia and Iberia.",
    "empire": "Ten powers of the Americas in 1999, from British Columbia to Peru.",
    "empire-up": "Empire with a Cuban fleet in Holguin and a Quebec army in Ungava.",
    "fiveman": "The standard map for five players: Russia and Turkey are gone and Warsaw is "
               "Poland, a neutral centre.",
    "fleetrome": "The standard game with an Italian fleet in Rome instead of an army.",
    "hundred": "England, France and Burgundy in the Hundred Years' War: a year every five, "
               "builds every ten.",
    "milan": "The standard map with Milan as Italy's northern home centre: Tuscany is gone, "
             "Venice is Venetia and Piedmont is Savoy.",
    "minorpower": "The standard map where twelve neutral centres are minor powers of their "
                  "own, starting with builds in the winter of 1900.",
    "modern": "Ten powers of Europe and the Mediterranean in 1995, on a map of 141 places.",
    "modern-up": "Modern with two more places (the Central Sahara and Ulster) and a British "
                 "army in Liverpool.",
    "pure": "Seven capitals, each next to all the others: nothing but diplomacy.",
    "renaissance": "Seven powers of fifteenth-century Europe on the standard map, from 1454.",
    "sailho": "Four powers, named for the points of the compass, around an imaginary sea "
              "whose places bear names from mythology.",
    "shiftaround": "The standard map where each power starts in another power's home "
                   "centres, shifted around the board.",
    "shiftleft": "The standard map where each power starts in its neighbour's home centres, "
                 "shifted one way.",
    "shiftright": "The standard map where each power starts in its neighbour's home centres, "
                  "shifted the other way.",
    "slovenia": "Modern-Up with Slovenia between Austria, Croatia, Hungary and Venice.",
    "standard": "DPjudge's own copy of the standard map, played by DPjudge's rules.",
    "v8": "The standard map for eight: Scandinavia is a power, Iceland and Ireland are "
          "added.",
    "void": "The standard map begun in the fall of 1900 with every non-centre province a "
            "power of its own and every centre neutral.",
    "youngstown": "Ten powers: the standard map with Asia added, from India to Japan.",
}

NOTICE = """\
The board files in this folder were written by calhamer's importer
(scripts/dpjudge-boards.py, calhamer.boards.dpjudge) from the map files of DPjudge,
the Diplomacy judge by Manus Hand, published under the MIT licence below. The facts
of each board (its places, adjacencies, powers, starting positions and rules) and the
province points and power colours of its PostScript drawing come from those files.

"""


def find_reference() -> Path | None:
    """DPjudge's maps folder: shared/reference/dpjudge/maps beside the repository or in a
    folder above it."""
    for folder in (ROOT, *ROOT.parents):
        candidate = folder / "shared" / "reference" / "dpjudge" / "maps"
        if candidate.is_dir():
            return candidate
    return None


def header(path: Path, imported: Imported) -> str:
    used = ", ".join(imported.files)
    drawing = (f"Province points (x, y) and power colours: from DPjudge's {imported.drawing}."
               if imported.drawing else "DPjudge has no drawing of this board.")
    return (f"{TITLES.get(path.stem, path.stem)}: from DPjudge's map files {used}.\n"
            "Written by scripts/dpjudge-boards.py: do not edit by hand.\n"
            "DPjudge's maps: MIT licence, (c) 2017 Manus Hand; see NOTICE in this folder.\n"
            f"{drawing}")


def render_all(reference: Path) -> tuple[dict[Path, str], dict[str, list[str]]]:
    """The files to write (path under the repository -> text) and, for each board left out,
    what it would lose."""
    files: dict[Path, str] = {}
    refused: dict[str, list[str]] = {}
    for path in sorted(reference.glob("*.map")):
        stem = path.stem
        title = TITLES.get(stem, stem)
        imported = import_map(path, name=f"{FAMILY}/{stem}", title=f"{title} (DPjudge)")
        if imported.lost:
            refused[stem] = [str(p) for p in imported.lost]
            continue
        files[MAPS / f"{stem}.toml"] = imported.board_text(header(path, imported))
        variant: dict[str, object] = {
            "title": imported.board["map"]["title"],
            "description": DESCRIPTIONS[stem],
            "source": SOURCE.format(map=path.name),
        }
        if stem not in TAKEN:
            variant["aliases"] = [stem]
        variant["board"] = f"{FAMILY}/{stem}"
        variant["modules"] = []
        if imported.options:
            variant["options"] = imported.options
        files[FILES / f"dpjudge-{stem}.toml"] = toml.dumps(variant, (
            f"{title}: DPjudge's board, played by DPjudge's rules for it.\n"
            f"Written by scripts/dpjudge-boards.py from DPjudge's {path.name}: do not edit by "
            "hand.\nHow each directive and RULE is read: docs/boards.md, \"DPjudge's boards\"."))
    licence = (reference.parent / "LICENSE").read_text(encoding="utf-8")
    files[MAPS / "NOTICE"] = NOTICE + licence
    return files, refused


def stale_files(files: dict[Path, str]) -> list[Path]:
    """Files the script wrote before that it would not write now (the boards' drawings,
    written by scripts/draw-boards.py, are not this script's)."""
    found = [p.relative_to(ROOT) for folder in (MAPS, FILES) if (ROOT / folder).is_dir()
             for p in (ROOT / folder).iterdir() if not p.name.endswith(".geometry.json")]
    return sorted(p for p in found if p not in files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=Path, help="DPjudge's maps folder")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a shipped file differs")
    args = parser.parse_args()
    reference = args.reference or find_reference()
    if reference is None or not reference.is_dir():
        print("DPjudge's maps folder was not found: give --reference DIR", file=sys.stderr)
        return 2
    files, refused = render_all(reference)
    stale = stale_files(files)
    if args.check:
        differ = [p for p, t in files.items()
                  if not (ROOT / p).is_file() or (ROOT / p).read_text(encoding="utf-8") != t]
        for path in differ + stale:
            print(f"{path} differs from what the script writes", file=sys.stderr)
        return 1 if differ or stale else 0
    for path in stale:
        (ROOT / path).unlink()
    for path, text in files.items():
        (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (ROOT / path).write_text(text, encoding="utf-8")
    print(f"wrote {sum(1 for p in files if p.parent == FILES)} boards")
    for stem, lost in refused.items():
        print(f"left out {stem}.map:")
        for line in lost:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
