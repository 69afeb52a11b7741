"""Interpreter throughput on one core: complete deals played and checked, and legal-action queries.

    python benchmarks/bench_engine.py [--ruleset classic] [--deals 2000] [--repeat 5]

Every action of a deal goes through Game.apply, which checks it against every guard
before running its effects, so "played" here means "played and checked". The
machines are shared and noisy: rates are per second of this process's CPU time (one
core, whatever else runs), and the script reports the median of several runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle import Game, load_ruleset, play_random


def deals_per_second(rs, deals: int, hinted: bool) -> float:
    rng = random.Random(1)
    done = 0
    start = time.process_time()
    seed = 0
    while done < deals:
        game = Game(rs, seed=seed)
        play_random(game, rng, hinted=hinted, max_deals=min(50, deals - done))
        done += len(game.sheet)
        seed += 1
    return done / (time.process_time() - start)


def legal_queries_per_second(rs, queries: int) -> tuple[float, float]:
    """Queries per second, over states sampled from random play (all phases)."""
    rng = random.Random(2)
    states = []
    game = Game(rs, seed=3)
    while len(states) < 400:
        if game.over:
            game = Game(rs, seed=len(states))
        if game.chance_action() is not None:
            game.apply(game.sample())
            continue
        legal = game.legal_actions()
        states.append(Game.from_json(game.to_json(), rs))
        game.apply(legal[rng.randrange(len(legal))])
    start = time.process_time()
    n = 0
    total_actions = 0
    while n < queries:
        for g in states:
            total_actions += len(g.legal_actions())
            n += 1
    return n / (time.process_time() - start), total_actions / n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="classic")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--queries", type=int, default=40000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    t0 = time.perf_counter()
    rs = load_ruleset(args.ruleset)
    print(f"ruleset {args.ruleset}: load and compile {time.perf_counter() - t0:.2f}s (first time in this process)")
    for label, hinted in (("uniform random", False), ("hinted bot", True)):
        runs = [deals_per_second(rs, args.deals, hinted) for _ in range(args.repeat)]
        print(f"deals/s, {label:14}: median {statistics.median(runs):7.0f}  (runs: "
              + ", ".join(f"{r:.0f}" for r in runs) + ")")
    runs = [legal_queries_per_second(rs, args.queries) for _ in range(args.repeat)]
    print(f"legal-action queries/s: median {statistics.median(r[0] for r in runs):7.0f}  "
          f"(mean {runs[0][1]:.1f} legal actions per query)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
