"""For engine authors: put the conformance check in your own test suite.

    from oracle.testing import run_conformance_test

    def test_my_engine_plays_classic_thousand():
        run_conformance_test(MyAdapter(), ruleset="classic")            # a Python engine
        run_conformance_test("node my-engine.js", ruleset="classic")    # or any program speaking the protocol

It fails with the report (each disagreement, its rule and the path of a minimal game
record) when the engine and the oracle disagree. The pytest fixture `thousand_conformance`
(registered by this package's pytest plugin) does the same with the fixture's defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conform.engines import EngineAdapter, SubprocessEngine
from .conform.harness import EXAMPLES, Report, run_conformance


class ConformanceFailure(AssertionError):
    def __init__(self, report: Report) -> None:
        super().__init__(report.format())
        self.report = report


def run_conformance_test(engine: EngineAdapter | str, ruleset: str = "classic", examples: int = EXAMPLES,
                         seed: int = 0, out_dir: str | Path | None = "conformance-failures",
                         **kw: Any) -> Report:
    """Run the harness; raise ConformanceFailure (an AssertionError) on any disagreement or engine failure.

    ``examples`` is the budget of generated games for the whole run; other keywords (``time_limit``,
    ``overlays``, ``params``, ``max_deals``, ``shrink_seconds``…) go to run_conformance.
    """
    adapter = SubprocessEngine(engine) if isinstance(engine, str) else engine
    try:
        report = run_conformance(adapter, ruleset, examples=examples, seed=seed,
                                 out_dir=Path(out_dir) if out_dir else None, **kw)
    finally:
        adapter.close()
    if report.disagreements or report.failure is not None:
        raise ConformanceFailure(report)
    return report
