"""How fast calhamer draws a full standard position, as SVG and as PNG.

Four pictures are timed: the 1901 start, a crowded mid-game phase with every unit ordered
(its adjudicated outcome: arrows, failures, a dislodged unit), the seven players' views of a
Kriegsplomacy phase (what the web judge's worker draws after adjudicating one), and the PNG of
the mid-game outcome.
The geometry is loaded once (it is cached per map), as in a running judge; the first,
uncached call is reported on its own. Times are the process's CPU time, so that other work on
a shared machine does not blur them.

    python benchmarks/bench_render.py [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from calhamer import Position, adjudicate
from calhamer.formats import position_from_json
from calhamer.game import Game, PhaseRecord
from calhamer.views import power_view

MID_GAME = {
    "phase": "F1903M",
    "units": {
        "ENGLAND": ["F NTH", "F NWY", "A BEL", "F ENG", "F NWG"],
        "FRANCE": ["A BUR", "A PIC", "F MAO", "A SPA", "F POR"],
        "GERMANY": ["A MUN", "A RUH", "F HOL", "A KIE", "F DEN", "A SIL"],
        "ITALY": ["A VEN", "F TYS", "F ION", "A TUN", "A PIE"],
        "AUSTRIA": ["A VIE", "A BUD", "F GRE", "A SER", "A GAL"],
        "RUSSIA": ["A WAR", "F SWE", "A UKR", "F STP/NC", "A RUM", "F SEV"],
        "TURKEY": ["F BLA", "A BUL", "A ARM", "F AEG", "A CON"],
    },
}
ORDERS = {
    "ENGLAND": ["F NTH S A BEL - HOL", "A BEL - HOL", "F ENG S A BEL", "F NWY S F NWG - BAR",
                "F NWG - BAR"],
    "FRANCE": ["A BUR - BEL", "A PIC S A BUR - BEL", "F MAO - IRI", "A SPA - GAS",
               "F POR - MAO"],
    "GERMANY": ["A MUN - BUR", "A RUH S A MUN - BUR", "F HOL H", "A KIE S F HOL",
                "F DEN - SWE", "A SIL - WAR"],
    "ITALY": ["A VEN - TRI", "F TYS - WES", "F ION C A TUN - GRE", "A TUN - GRE",
              "A PIE - MAR"],
    "AUSTRIA": ["A VIE S A GAL", "A BUD - RUM", "F GRE H", "A SER S A BUD - RUM",
                "A GAL S A BUD - RUM"],
    "RUSSIA": ["A WAR S A UKR - GAL", "F SWE S F STP/NC - NWY", "A UKR - GAL",
               "F STP/NC - NWY", "A RUM H", "F SEV S A RUM"],
    "TURKEY": ["F BLA - RUM", "A BUL S F BLA - RUM", "A ARM - SEV", "F AEG - GRE",
               "A CON - BUL"],
}


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and best CPU time of ``repeat`` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    return statistics.median(times), min(times)


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
