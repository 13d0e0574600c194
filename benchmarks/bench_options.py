"""How fast calhamer lists every possible order, beside ``diplomacy``'s ``get_all_possible_orders``.

The positions are the standard start and a crowded Fall 1905 board; each is timed in CPU time
(the machines are shared, so wall time misleads), interleaved with the ``diplomacy`` package
when it is installed (``pip install -e '.[bench]'``), and reported as a ratio.

    python benchmarks/bench_options.py --repeats 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from calhamer.formats import position_from_json
from calhamer.options import possible_orders
from calhamer.position import Position

CROWDED = {
    "phase": "F1905M",
    "units": {
        "ENGLAND": ["F NTH", "F NWG", "F ENG", "A LON", "A NWY", "F BAR", "A EDI"],
        "FRANCE": ["F MAO", "A BRE", "A PAR", "A BUR", "F WES", "A SPA", "F LYO"],
        "GERMANY": ["A KIE", "A MUN", "A BER", "F BAL", "F DEN", "A HOL", "A RUH"],
        "ITALY": ["F TYS", "F ION", "A ROM", "A VEN", "A TUN", "F NAP"],
        "AUSTRIA": ["A VIE", "A BUD", "F TRI", "A SER", "A GAL"],
        "TURKEY": ["F BLA", "A CON", "A SMY", "F AEG", "A BUL"],
        "RUSSIA": ["A MOS", "A WAR", "F SEV", "F STP/SC", "A UKR"],
    },
}


def _cpu(fn: Callable[[], object], loops: int) -> float:
    start = time.process_time()
    for _ in range(loops):
        fn()
    return (time.process_time() - start) / loops


def _calhamer(position: Position) -> Callable[[], object]:
    powers = position.powers()
    return lambda: [possible_orders(position, p) for p in powers]


def _diplomacy(doc: dict[str, object] | None) -> Callable[[], object] | None:
    try:
        from diplomacy import Game
    except ImportError:
        return None
    game = Game()
    if doc is not None:
        game.set_current_phase(str(doc["phase"]))
        game.clear_units()
        for power, units in doc["units"].items():  # type: ignore[attr-defined]
            game.set_units(power, list(units))
    return game.get_all_possible_orders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--loops", type=int, default=20)
    args = parser.parse_args()
    boards = {"start": (Position.initial(), None), "F1905 crowded": (
        position_from_json(CROWDED)[0], CROWDED)}
    for name, (position, doc) in boards.items():
        ours, theirs = _calhamer(position), _diplomacy(doc)
        ours()
        mine, other = [], []
        for _ in range(args.repeats):  # interleaved, so a busy moment hurts both alike
            mine.append(_cpu(ours, args.loops))
            if theirs is not None:
                other.append(_cpu(theirs, args.loops))
        line = f"{name:>14}: calhamer {statistics.median(mine) * 1e3:7.2f} ms CPU"
        if other:
            ratio = statistics.median(other) / statistics.median(mine)
            line += f", diplomacy {statistics.median(other) * 1e3:7.2f} ms ({ratio:.2f}x)"
        print(line)


if __name__ == "__main__":
    main()
