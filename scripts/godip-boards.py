"""Write godip's boards as calhamer map files and variant files.

    python scripts/godip-boards.py                      # write them into src/calhamer/
    python scripts/godip-boards.py --out /tmp/x         # write them under /tmp/x instead
    python scripts/godip-boards.py --snapshot PATH      # godip's bare git directory

godip (github.com/zond/godip) is the judge of diplicity; its 23 variants are Go code. This
script reads the public definitions of the 22 beyond the classical game (the beta ones
included) from a snapshot of godip's repository and writes, for each, a map file
(``src/calhamer/maps/godip/<name>.toml``: provinces, adjacency per unit type, supply
centres, the start, the powers) and a variant file (``src/calhamer/variants/files/godip/
<name>.toml``: the rules in calhamer's vocabulary). Only facts are taken: godip's province
abbreviations (the codes, so that orders written for godip or diplicity paste in unchanged),
its province and nation names, its graph, its start and its rules as options. Descriptions
are calhamer's own words; no code, text or artwork of godip is copied. How each rule is read
is documented in ``docs/rules/godip-variants.md``; ``tests/test_godip_boards.py`` runs this
script again and compares its output with the committed files.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from godip_boards_out import board_text, variant_text
from godip_convert import READINGS, VARIANTS, convert
from godip_go import Reader, Snapshot

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SNAPSHOT = "/work/.mirror/zond+godip/repo"
MAPS = Path("src/calhamer/maps/godip")
FILES = Path("src/calhamer/variants/files/godip")


def outputs(snapshot: Snapshot) -> dict[Path, str]:
    """Every file the script writes (its path under the tree's root -> its text)."""
    reader = Reader(snapshot)
    commit = snapshot.commit()
    out: dict[Path, str] = {}
    for name, (package, _) in VARIANTS.items():
        board = convert(name, reader.variant(package), READINGS.get(name), snapshot.read)
        out[MAPS / f"{name}.toml"] = board_text(board, commit)
        out[FILES / f"{name}.toml"] = variant_text(board, commit)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshot", default=DEFAULT_SNAPSHOT,
                        help="godip's repository, a bare git directory "
                        f"(default {DEFAULT_SNAPSHOT})")
    parser.add_argument("--out", default=str(ROOT),
                        help="the tree to write into (default: this checkout)")
    args = parser.parse_args(argv)
    if not Path(args.snapshot).is_dir():
        print(f"no godip snapshot at {args.snapshot}: give its path with --snapshot",
              file=sys.stderr)
        return 2
    root = Path(args.out)
    written = outputs(Snapshot(args.snapshot))
    for folder in {p.parent for p in written}:
        (root / folder).mkdir(parents=True, exist_ok=True)
        for stale in (root / folder).glob("*.toml"):
            if stale.relative_to(root) not in written:
                stale.unlink()
    for path, text in sorted(written.items()):
        (root / path).write_text(text, encoding="utf-8")
    print(f"wrote {len(written)} files under {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
