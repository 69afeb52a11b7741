"""Conformance harness throughput: actions compared per second, in process and through a subprocess.

    python benchmarks/bench_conform.py [--examples 60] [--repeat 3]

Both runs use the oracle as the engine (so nothing disagrees and every example runs to
its end): once in process, once as `thousand engine` speaking the protocol over a pipe.
Medians of several runs; the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle.conform import OracleEngine, SubprocessEngine, run_conformance


def rate(make, examples: int) -> float:
    engine = make()
    try:
        t = time.perf_counter()
        report = run_conformance(engine, "classic", examples=examples, seed=11)
        secs = time.perf_counter() - t
    finally:
        engine.close()
    assert not report.disagreements and report.failure is None, report.format()
    return report.actions_compared / secs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    command = f"{sys.executable} -m oracle.cli engine --ruleset classic"
    for label, make in (("in process", lambda: OracleEngine("classic")),
                        ("subprocess", lambda: SubprocessEngine(command))):
        runs = [rate(make, args.examples) for _ in range(args.repeat)]
        print(f"{label:10}: median {statistics.median(runs):7.0f} actions compared/s "
              f"(runs: {', '.join(f'{r:.0f}' for r in runs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
