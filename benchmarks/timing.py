"""What the benchmarks time by: the median of CPU time over repeated passes (a loaded machine moves wall
time far more than CPU time)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def cpu_median(fn: Callable[[], object], repeat: int, warm: bool = False) -> float:
    """Median CPU seconds of ``repeat`` calls of ``fn``; with ``warm``, one untimed call first (compiling
    rulesets and filling caches)."""
    if warm:
        fn()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def interleaved(fns: list[Callable[[], Any]], repeat: int) -> list[float]:
    """Each function's median CPU time, the passes taken in turn (a, b, c, a, b, c...), so a change in
    the machine's load falls on every one alike rather than on whichever ran then."""
    runs: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, times in zip(fns, runs, strict=True):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
    return [statistics.median(times) for times in runs]
