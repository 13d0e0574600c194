"""How fast calhamer draws a full standard position, as SVG and as PNG.

Five pictures are timed: the 1901 start, a crowded mid-game phase with every unit ordered
(its adjudicated outcome: arrows, failures, a dislodged unit), the seven players' views of a
Kriegsplomacy phase (what the web judge's worker draws after adjudicating one), the start of
a made-up board of 200 provinces drawn from its map (its geometry made once, beforehand), and
the PNG of the mid-game outcome.
The geometry is loaded once (it is cached per map), as in a running judge; the first,
uncached call is reported on its own. Times are the process's CPU time, so that other work on
a shared machine does not blur them.

    python benchmarks/bench_render.py [--repeat R]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from timing import timed  # (benchmarks/timing.py: run as a script, its folder is on the path)

from calhamer import Position, adjudicate
from calhamer.formats import position_from_json
from calhamer.game import Game, PhaseRecord
from calhamer.views import power_view

# A mid-game position with an order for every unit, shared with the picture tests.
MID_GAME = json.loads(
    (Path(__file__).resolve().parents[1] / "examples" / "fall-1903.json").read_text())
ORDERS: dict[str, list[str]] = MID_GAME.pop("orders")


def _large_drawn_board() -> tuple[Position, object] | None:
    """A made-up board of 200 provinces and its drawing (drawn once, not timed): how long a
    large board's picture takes once its geometry exists (issue 28: under 200 ms)."""
    import tempfile

    try:
        import networkx  # noqa: F401  (the draw extra)
    except ImportError:
        print("(the drawn board is not timed: pip install 'calhamer[draw]')")
        return None
    from calhamer.map import load_map
    from calhamer.render.draw import draw_board
    from calhamer.render.draw.sample import sample_board
    from calhamer.render.geometry import _from_doc

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "large.toml"
        path.write_text(sample_board(200, seed=7), encoding="utf-8")
        board = load_map(str(path))
        return Position.initial(board), _from_doc(draw_board(board))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="calls timed per picture (15)")
    args = parser.parse_args()

    t = time.process_time()
    from calhamer.render import render_png, render_svg

    start = Position.initial("standard")
    svg = render_svg(start)
    first = (time.process_time() - t) * 1000
    position, _orders, _rules = position_from_json(MID_GAME)
    outcome = adjudicate(position, ORDERS)

    fog = Game.new("kriegsplomacy")
    board = fog.current
    holds = {p: [f"{'A' if u.type.name == 'ARMY' else 'F'} {board.map.loc_name(u.loc)} H"
                 for u in board.units.values() if u.power == p] for p in board.powers()}
    record = fog.history[-1]
    fog_outcome = Game(fog.variant, fog.rules,
                       [PhaseRecord(record.phase, record.document, holds)]).process()
    views = [power_view(fog_outcome, p) for p in board.map.power_codes]

    rows = [
        ("first SVG (imports, geometry loaded)", (first, first), len(svg)),
        ("SVG, 1901 start", timed(lambda: render_svg(start), args.repeat), len(svg)),
        ("SVG, F1903M with 37 orders", timed(lambda: render_svg(outcome=outcome), args.repeat),
         len(render_svg(outcome=outcome))),
        ("SVG, 7 Kriegsplomacy views (S1901M)",
         timed(lambda: [render_svg(view=v) for v in views], args.repeat),
         sum(len(render_svg(view=v)) for v in views)),
    ]
    large = _large_drawn_board()
    if large is not None:
        board_position, geometry = large
        rows.append((f"SVG, drawn board of {len(board_position.map.provinces)} provinces",
                     timed(lambda: render_svg(board_position, geometry=geometry), args.repeat),
                     len(render_svg(board_position, geometry=geometry))))
    try:
        png = render_png(outcome=outcome)
        rows.append(("PNG 1400 px, F1903M with orders",
                     timed(lambda: render_png(outcome=outcome), max(3, args.repeat // 3)),
                     len(png)))
    except Exception as exc:  # no cairo here: report it and time the rest
        print(f"(PNG not timed: {exc})")
    print(f"{'picture (CPU time)':<40}{'median ms':>11}{'best ms':>10}{'bytes':>10}")
    for name, (median, best), size in rows:
        print(f"{name:<40}{median:>11.1f}{best:>10.1f}{size:>10}")


if __name__ == "__main__":
    main()
