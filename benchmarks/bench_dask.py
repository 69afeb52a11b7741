"""Throughput of `thousand validate --dask` on a local two-worker cluster against `--jobs 2`.

    python benchmarks/bench_dask.py [--deals 4000] [--repeat 3] [--workers 2]

A corpus of classic games (played with the oracle, seeded) is written to a temporary folder;
both commands validate it as a user runs them (a fresh ``thousand`` process each time, wall
clock). The Dask cluster (``LocalCluster``, loopback only, one thread per worker process) is
started once, outside the timings, as a platform's cluster already runs: its first run compiles
the ruleset on each worker and is shown apart ("cold"); the median is over the runs after it,
interleaved with the ``--jobs`` runs.
``--jobs`` starts fresh processes, so each of its runs pays the compile. Needs the dask extra.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oracle.cli import main as thousand  # noqa: E402


def corpus(folder: Path, deals: int) -> tuple[int, int]:
    total, files = 0, 0
    while total < deals:
        out = folder / f"game-{files:05d}.json"
        with contextlib.redirect_stderr(io.StringIO()):
            thousand(["play", "--simple", "--ruleset", "classic", "--seed", str(300_000 + files), "--max-deals",
                      str(min(60, deals - total)), "--out", str(out)])
        total += len(json.loads(out.read_text(encoding="utf-8"))["deals"])
        files += 1
    return total, files


def run(folder: Path, *extra: str) -> tuple[float, str]:
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "oracle", "validate", str(folder), "--format", "json", *extra],
                          capture_output=True, text=True, cwd=ROOT)
    secs = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"thousand validate {' '.join(extra)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    files = json.loads(proc.stdout)["files"]
    return secs, json.dumps(files, sort_keys=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    try:
        from distributed import LocalCluster
    except ImportError:
        print("the dask extra is not installed: pip install '.[dask]'")
        return 1
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        folder = Path(tmp)
        total, files = corpus(folder, args.deals)
        print(f"corpus: {total} deals in {files} files; {args.workers} workers or jobs; wall clock")
        jobs, warm = [], []
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as cluster:
            cold = run(folder, "--dask", cluster.scheduler_address)
            for _ in range(args.repeat):  # interleaved, so that a change in the machine's load hits both
                jobs.append(run(folder, "--jobs", str(args.workers)))
                warm.append(run(folder, "--dask", cluster.scheduler_address))
        same = {out for _, out in [*jobs, cold, *warm]}
        if len(same) != 1:
            print("DIFFERENT verdicts from --jobs and --dask")
            return 1
        t_jobs = statistics.median(t for t, _ in jobs)
        t_dask = statistics.median(t for t, _ in warm)
        print(f"--jobs {args.workers}:          median {t_jobs:.2f}s = {total / t_jobs:.0f} deals/s "
              f"(runs: {', '.join(f'{t:.2f}' for t, _ in jobs)})")
        print(f"--dask (cold workers): {cold[0]:.2f}s = {total / cold[0]:.0f} deals/s")
        print(f"--dask (warm workers): median {t_dask:.2f}s = {total / t_dask:.0f} deals/s "
              f"(runs: {', '.join(f'{t:.2f}' for t, _ in warm)})")
        print(f"throughput --dask / --jobs: {t_jobs / t_dask:.2f}x warm, {t_jobs / cold[0]:.2f}x cold; "
              "verdicts identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
