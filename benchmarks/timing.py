"""The timing the benchmarks share: CPU time, the garbage collector off, repeated, median.

The machines that run benchmarks are shared, so wall time misleads: every figure is CPU time
(``time.process_time``). The collector is off while a call is timed, as in :mod:`timeit`, so
that a collection the code before left due does not land on the call timed. A call is
repeated, its inputs (if any) prepared untimed before each run, and the median taken.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def cpu(fn: Callable[[], object]) -> float:
    """CPU seconds of one call of ``fn``, the garbage collector off."""
    was = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time()
        fn()
        return time.process_time() - start
    finally:
        if was:
            gc.enable()


def runs(prepare: Callable[[], Callable[[], object]], repeats: int) -> list[float]:
    """CPU seconds of ``repeats`` calls, each of a call ``prepare()`` makes just before it
    (untimed: fresh inputs for every run)."""
    return [cpu(prepare()) for _ in range(repeats)]


def median_cpu(prepare: Callable[[], Callable[[], object]], repeats: int) -> float:
    """The median of :func:`runs`, in CPU seconds."""
    return statistics.median(runs(prepare, repeats))


def timed(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median and best CPU time of ``repeats`` calls of ``fn``, in milliseconds."""
    times = runs(lambda: fn, repeats)
    return statistics.median(times) * 1e3, min(times) * 1e3
