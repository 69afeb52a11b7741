"""A pytest plugin for ``bench_suite.py --split``: where a run of the suite spends its time.

Each worker appends JSON lines to ``$SUITE_SPLIT_LOG``: one per ruleset compiled (the CPU seconds of
``oracle.lang.program._compile``, which a disk-cache hit never reaches) and one per test (its file and
the seconds its setup, call and teardown took). Loaded with ``-p suite_split``, the benchmarks folder
on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Generator
from typing import Any

import pytest

_LOG = os.environ.get("SUITE_SPLIT_LOG")


def _write(entry: dict[str, Any]) -> None:
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as f:  # one short line per write: workers do not interleave
            f.write(json.dumps(entry) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    import oracle.lang.program as program

    real: Callable[..., Any] = program._compile

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            _write({"kind": "compile", "cpu": time.process_time() - start})

    program._compile = timed  # type: ignore[assignment]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    start = time.perf_counter()
    yield
    _write({"kind": "test", "file": item.nodeid.split("::")[0], "seconds": time.perf_counter() - start})
