"""What explaining a wrong result costs, against validating the same game when it is right.

    python benchmarks/bench_blame.py [--deals 40] [--repeat 7] [--seed 1] [--values 1]

A whole classic game of ``--deals`` deals (or more, the first seeded game that long) is played in
process; a copy writes a wrong total in its last deal. Both are judged from their text, as a new user
calls the library (``validate_record(parse_record(text, name))``), interleaved, medians of CPU time.

The figure printed is the invalid record's extra time over the valid one's, in deals of the valid
one's time: what finding the rule that decided the wrong value costs, as a number of deals replayed.
When blame replays the game from its first deal to the one at fault, that number grows with the
deal's place in the game; when it starts from the position kept at that deal's start, it stays about
one deal plus the traced replay of that deal, wherever the deal is.

With ``--values K`` the last deal's row has K values wrong (the total first, then the row's other
numbers per seat), and both records are judged with ``all_errors``, as ``--all-errors`` does: when the
wrong values are blamed together the extra cost stays about that of one; blamed one by one it grows
with K.

It uses only ``validate_record`` and ``parse_record``, so the same file measures an older version of the
oracle (run it with that version's package first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys

from timing import cpu_median

from oracle import Game, load_ruleset, play_random
from oracle.records import Recorder, parse_record, validate_record


def long_game(deals: int, seed: int) -> dict:
    rs = load_ruleset("classic")
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        game = Game(rs, dealer=rng.randrange(3), seed=rng.randrange(2**32))
        rec = Recorder(game, ["Anna", "Boris", "Vera"], s)
        # Uniform random play: games last long, and this one is cut at the wanted length.
        play_random(game, rng, on_action=rec, max_deals=deals)
        record = rec.finish()
        if len(record["deals"]) >= deals:
            return record
    raise SystemExit(f"no seeded game reaches {deals} deals")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--values", type=int, default=1, help="values of the last deal's row written wrong")
    args = ap.parse_args()
    record = long_game(args.deals, args.seed)
    n = len(record["deals"])
    wrong = copy.deepcopy(record)
    last = wrong["deals"][-1]
    numbers = [k for k, x in last["result"].items() if k != "score" and type(x) is list and x
               and all(type(y) is int for y in x)]
    for key in ["score", *numbers][:args.values]:
        last["result"][key][0] += 10
    every = args.values > 1
    valid_text, wrong_text = json.dumps(record), json.dumps(wrong)
    v = validate_record(parse_record(valid_text, "valid.json"), all_errors=every)
    w = validate_record(parse_record(wrong_text, "wrong.json"), all_errors=every)
    assert v.valid and not w.valid and w.violations[0].deal == n, (v.valid, w.violations[:1])
    assert len(w.violations) == (args.values if every else 1), [x.what for x in w.violations]
    print(f"a game of {n} deals; {len(w.violations)} wrong value(s) in deal {n}, charged to "
          f"{', '.join(sorted({x.rule for x in w.violations}))}")
    passes = max(3, 60 // n)

    def judge_valid() -> None:
        for _ in range(passes):
            validate_record(parse_record(valid_text, "valid.json"), all_errors=every)

    def judge_wrong() -> None:
        for _ in range(passes):
            validate_record(parse_record(wrong_text, "wrong.json"), all_errors=every)

    judge_valid(), judge_wrong()  # compiled and warm
    times: dict[str, list[float]] = {"valid": [], "wrong": []}
    for _ in range(args.repeat):
        times["valid"].append(cpu_median(judge_valid, 1) / passes)
        times["wrong"].append(cpu_median(judge_wrong, 1) / passes)
    valid_t, wrong_t = statistics.median(times["valid"]), statistics.median(times["wrong"])
    per_deal = valid_t / n
    extra = wrong_t - valid_t
    print(f"valid record: {valid_t * 1e3:.2f} ms ({per_deal * 1e6:.0f} us a deal); "
          f"with the wrong result: {wrong_t * 1e3:.2f} ms")
    print(f"explaining the wrong value(s) costs {extra * 1e3:.2f} ms = {extra / per_deal:.1f} deals' replay "
          f"(the whole game is {n})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
