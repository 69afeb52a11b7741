"""Records validated per second: one file in process, and a corpus through the CLI with --jobs 1 and 2.

    python benchmarks/bench_validate.py [--deals 10000] [--repeat 3]

The corpus is generated once (hinted games, seeded) into a temporary folder. The CLI
timings include starting Python and compiling the ruleset, as a user would see them.
Medians of several runs; the machines are shared and noisy. The in-process figure is per
second of CPU time (one core); the CLI figures are wall-clock, which is what --jobs changes.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle import Game, load_ruleset, play_random
from oracle.record import Recorder
from oracle.transcript import read_record
from oracle.validate import validate_record


def make_corpus(folder: Path, deals: int) -> tuple[int, int]:
    rs = load_ruleset("classic")
    total, files, seed = 0, 0, 0
    while total < deals:
        rng = random.Random(seed)
        game = Game(rs, dealer=seed % 3, seed=seed)
        rec = Recorder(game, ["A", "B", "C"], seed)
        play_random(game, rng, on_action=rec, hinted=True, max_deals=min(60, deals - total))
        (folder / f"game-{seed:05d}.json").write_text(json.dumps(rec.finish()), encoding="utf-8")
        total += len(game.sheet)
        files += 1
        seed += 1
    return total, files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--file", default=str(Path(__file__).resolve().parent.parent / "examples" / "classic-game.json"))
    args = ap.parse_args()

    rec = read_record(args.file)
    validate_record(rec)  # compile the ruleset outside the timing
    runs = []
    for _ in range(max(5, args.repeat)):
        t = time.process_time()
        v = validate_record(rec)
        runs.append(v.deals / (time.process_time() - t))
    print(f"single file {Path(args.file).name} ({v.deals} deals), in process: median {statistics.median(runs):.0f} "
          f"deals per CPU-second")

    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        folder = Path(tmp)
        total, files = make_corpus(folder, args.deals)
        print(f"corpus: {total} deals in {files} files")
        medians = {}
        for jobs in (1, 2):
            times = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "oracle.cli", "validate", str(folder), "--jobs", str(jobs),
                                       "--quiet"], capture_output=True, text=True)
                times.append(time.perf_counter() - t)
                if proc.returncode != 0:
                    print(proc.stdout[-2000:], proc.stderr[-2000:])
                    return 1
            medians[jobs] = statistics.median(times)
            print(f"thousand validate --jobs {jobs}: median {medians[jobs]:.2f}s = {total / medians[jobs]:.0f} deals/s "
                  f"(runs: {', '.join(f'{x:.2f}' for x in times)})")
        print(f"scaling --jobs 2 / --jobs 1: {medians[1] / medians[2]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
