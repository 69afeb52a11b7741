"""Rule coverage against validation, on the same records: how many times validate's time coverage takes.

    python benchmarks/bench_coverage.py [--games 100] [--repeat 3] [FILE ...]

The records are FILEs if given, otherwise ``--games`` whole classic games played as ``thousand play
--simple --seed N`` does (N = 1, 2, ...), in process. Each pass reads every record's text to a verdict, as the
commands do: validate as ``thousand validate`` does it (``validate_record``, rulesets cached), coverage as
``thousand coverage`` does it (``cover_record``, every candidate action weighed at each decision). The same
is timed again from records read once beforehand, where only the replays are compared. Times are CPU
seconds, the median of ``--repeat`` passes taken in turn (validate, coverage, validate...) after one pass to
compile and warm up; the ratios printed are coverage's time over validate's (the goal is 2 or less, for
the commands). The machines are shared and noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import interleaved  # noqa: E402

from oracle.coverage import Coverage, cover_record  # noqa: E402
from oracle.engine import Game, play_random  # noqa: E402
from oracle.records import Recorder, dumps, parse_record, validate_record  # noqa: E402
from oracle.ruleset import load_ruleset  # noqa: E402


def played(games: int) -> list[tuple[str, str]]:
    """Whole classic games, as `thousand play --simple --seed N` plays them (the golden games' bot)."""
    rs = load_ruleset("classic")
    out = []
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        game = Game(rs, players=rs.players, dealer=rng.randrange(rs.players), seed=rng.randrange(2**32))
        rec = Recorder(game, [f"P{i + 1}" for i in range(rs.players)], seed, [], {})
        play_random(game, rng, on_action=rec, hinted=True, max_deals=500)
        out.append((f"seed-{seed}.json", dumps(rec.finish())))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="records to use instead of generated games")
    ap.add_argument("--games", type=int, default=100, help="generated classic games (default 100)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes of each (default 3)")
    args = ap.parse_args()
    texts = ([(str(p), Path(p).read_text(encoding="utf-8")) for p in args.files] if args.files
             else played(args.games))
    recs = [parse_record(text, name) for name, text in texts]
    cache: dict = {}

    def validate_text() -> None:
        for name, text in texts:
            validate_record(parse_record(text, name), cache=cache)

    def coverage_text() -> None:
        cov = Coverage()
        for name, text in texts:
            cover_record(parse_record(text, name), cov)

    def validate() -> None:
        for rec in recs:
            validate_record(rec, cache=cache)

    def coverage() -> None:
        cov = Coverage()
        for rec in recs:
            cover_record(rec, cov)

    deals = sum(len(rec.data["deals"]) for rec in recs)
    actions = sum(len(d["actions"]) for rec in recs for d in rec.data["deals"])
    print(f"{len(recs)} records, {deals} deals, {actions} actions; median CPU seconds of {args.repeat} passes")
    validate_text()
    coverage_text()  # compiles the counting functions, fills the caches
    vt, ct, v, c = interleaved([validate_text, coverage_text, validate, coverage], args.repeat)
    print(f"from the records' text: validate {vt:8.3f} s   coverage {ct:8.3f} s   "
          f"coverage / validate: {ct / vt:.2f}x (goal: 2x or less)")
    print(f"records read once:      validate {v:8.3f} s   coverage {c:8.3f} s   coverage / validate: {c / v:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
