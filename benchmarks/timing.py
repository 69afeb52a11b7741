"""What the benchmarks time by: the median of CPU time over repeated passes (a loaded machine moves wall
time far more than CPU time)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
