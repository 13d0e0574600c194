"""Draw every shipped board that has no drawing of its own, and ship the geometry files.

    python scripts/draw-boards.py [BOARD ...] [--check] [--list]

Each board calhamer ships without a drawing (godip's and DPjudge's boards, in
``src/calhamer/maps/godip/`` and ``src/calhamer/maps/dpjudge/``) is drawn from its map by
``calhamer board draw`` (``docs/render.md``: its provinces' ``x``/``y`` as hints where the map
file gives them, as DPjudge's boards do from their PostScript drawings) and the geometry file
is written beside the map file as ``<board>.geometry.json``. Pictures then read it, so at run
time no board is drawn and the ``draw`` extra (networkx) is not needed.

Boards that have a drawing already (the standard board, the maps that extend it, the
Sub-Saharan excerpt) are left alone. Drawing is deterministic: running the script again
writes the same bytes. ``--check`` writes nothing and exits 1 when a file differs from what
it would write (``tests/test_board_pictures.py`` re-draws a few small boards the same way);
``--list`` prints the boards it would draw. A drawing that fails the adjacency checks
(``calhamer board check --geometry``) is reported and the script exits 1.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from calhamer.render.shipped import drawn_boards, geometry_path  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", metavar="BOARD",
                        help="only these boards (map names such as godip/hundred)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a shipped file differs")
    parser.add_argument("--list", action="store_true", help="list the boards and stop")
    args = parser.parse_args(argv)
    names = drawn_boards()
    if args.boards:
        unknown = sorted(set(args.boards) - set(names))
        if unknown:
            parser.error(f"not a board drawn by this script: {', '.join(unknown)}")
        names = [n for n in names if n in args.boards]
    if args.list:
        for name in names:
            print(name)
        return 0
    failed = 0
    for name in names:
        started = time.perf_counter()
        out = geometry_path(name)
        text = draw_text(name)
        took = time.perf_counter() - started
        notes = [line for line in text[1] if line.startswith("note:")]
        if args.check:
            same = out.is_file() and out.read_text(encoding="utf-8") == text[0]
            print(f"{name}: {'same' if same else 'DIFFERS'} ({took:.1f} s)", flush=True)
            failed += not same
        else:
            out.write_text(text[0], encoding="utf-8")
            print(f"{name}: wrote {out.relative_to(ROOT)} ({took:.1f} s)", flush=True)
        for line in notes:
            print(f"  {line}")
        failed += bool(notes)
    return 1 if failed else 0


def draw_text(name: str) -> tuple[str, list[str]]:
    """The geometry file ``calhamer board draw NAME`` writes, and what it prints."""
    import tempfile

    from calhamer.cli import main as calhamer

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "board.geometry.json"
        printed = io.StringIO()
        with redirect_stdout(printed):
            status = calhamer(["board", "draw", name, "-o", str(out)])
        if status != 0:
            raise SystemExit(f"{name}: calhamer board draw failed ({status})")
        return out.read_text(encoding="utf-8"), printed.getvalue().splitlines()


if __name__ == "__main__":
    sys.exit(main())
