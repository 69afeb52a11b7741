"""The oracle against a hand-written referee of classic, on the same records; then the CLI corpus.

    python benchmarks/bench_validate.py [--one-deal 1000] [--games 20] [--repeat 3] [--corpus-deals 10000] [--no-cli]

1. Records: one-deal games and whole games played with ``thousand play --simple --ruleset classic --seed N``
   (in process, into a temporary folder), the plain-classic golden records (valid and invalid,
   ``tests/golden/classic/``), ``examples/classic-game.json``, and invalid copies of generated
   records (a card played out of turn or out of hand, a changed bid, a wrong total), so both
   referees see plenty of violations.
2. Agreement: the baseline (``baseline_referee.py``) and the oracle must give every record the same
   verdict (valid, unreadable, or invalid at the same deal and action); the run stops otherwise.
3. Speed, as medians of CPU time over ``--repeat`` passes, each referee reading the record's text
   to a verdict: the oracle through the public library API as a new user calls it
   (``validate_record(parse_record(text, name))``, which asks for the ruleset on every call) and with
   the resolved rulesets passed in (``cache=``, as ``thousand validate`` does), and the baseline
   (``json.loads`` and the hand-written referee). The ratio printed is the oracle's speed over the
   baseline's (1.0 means as fast as hand-written Python).
   The **ceiling** is the most the oracle could reach if its replay were exactly as fast as the
   hand-written referee: that referee timed on what the oracle must do beside the replay and the
   baseline does not. Every record is read as the record format requires (``parse_record``: no key
   written twice, the header checked against its schema, runs of digits bounded) rather than by
   ``json.loads`` alone, and an invalid record's violation is placed in the file (line and column,
   ``RecordFile.locate``). Still left out of it, so the true ceiling of invalid records is lower: the
   actions that were allowed, the rule's source lines and which rule decided a wrong value.
4. The share of reading and hashing the rule tree in the new user's ``validate_record`` time.
5. Start-up: ``thousand validate examples/first-deal.yaml`` in a new process (wall clock, median;
   the oracle byte-compiled first, as an install does, see ``byte_compiled``),
   twice warm (the disk cache of compiled rulesets filled) and once cold (``THOUSAND_CACHE=0``), over
   the bare ``python -c "import yaml, lark, jsonschema"``.
6. Unless ``--no-cli``: ``thousand validate DIR --jobs 1`` and ``--jobs 2`` on a corpus (wall clock,
   Python start and compile included, as a user sees them), and the peak memory of ``--jobs 2``
   (resident, the main process and its workers summed; Linux).
7. With ``--instructions`` (needs valgrind): the same ratios counted in machine instructions, which a
   neighbour's load does not change. Each referee's pass over the records runs in a new process under
   ``valgrind --tool=callgrind``, once with the pass and once without it (start-up, reading the records
   and a first pass to compile and warm up are in both); the difference is the pass. Instructions are
   not time (a cache miss costs more than an addition), so this is the steady figure to compare two
   versions by, and the CPU times above are the figure a user sees.

The machines are shared and noisy: read ratios, not absolute figures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from baseline_referee import referee  # noqa: E402
from timing import interleaved  # noqa: E402

import oracle.ruleset  # noqa: E402
from oracle.cli import main as thousand  # noqa: E402

# The oracle's public records API, in one place (the records code may move to a package).
from oracle.records import (  # noqa: E402
    Verdict,
    parse_record,
    validate_record,
)

Records = list[tuple[str, str]]  # (name, text)


def play(folder: Path, seed: int, max_deals: int | None = None) -> tuple[str, str]:
    out = folder / (f"game-{seed:05d}.json" if max_deals is None else f"deal-{seed:05d}.json")
    argv = ["play", "--ruleset", "classic", "--seed", str(seed), "--out", str(out)]
    if max_deals is not None:
        argv += ["--max-deals", str(max_deals)]
    with contextlib.redirect_stderr(io.StringIO()):
        if thousand(argv) != 0:
            raise SystemExit(f"thousand {' '.join(argv)} failed")
    return out.name, out.read_text(encoding="utf-8")


def spoil(name: str, text: str, rng: random.Random) -> tuple[str, str]:
    """An invalid copy of a generated record: one action or one written result made wrong."""
    data = json.loads(text)
    deals = [d for d in data["deals"] if d.get("actions")]
    deal = rng.choice(deals)
    acts = deal["actions"]
    kind = rng.randrange(4)
    if kind == 0:  # a card somebody else holds, or one already played
        plays = [a for a in acts if a["action"] == "play"] or acts
        a = rng.choice(plays)
        if "card" in a:
            a["card"] = rng.choice([x["card"] for x in plays if "card" in x and x is not a] or ["9S"])
    elif kind == 1:  # the wrong seat speaks
        a = rng.choice(acts)
        names = [p for p in data["players"] if p != a["seat"]]
        a["seat"] = rng.choice(names)
    elif kind == 2:  # an impossible bid or contract
        vals = [a for a in acts if "value" in a]
        if vals:
            rng.choice(vals)["value"] += rng.choice([1, 5, 200, -5])
    elif "result" in deal:  # a wrong written total
        s = deal["result"]["score"]
        s[rng.randrange(len(s))] += rng.choice([5, 10, -10])
    return "spoilt-" + name, json.dumps(data)


def build(folder: Path, one_deal: int, games: int) -> tuple[Records, Records]:
    rng = random.Random(14)
    singles = [play(folder, s, 1) for s in range(one_deal)]
    wholes = [play(folder, 100_000 + s) for s in range(games)]
    classic = ROOT / "tests" / "golden" / "classic"
    golden = [*sorted(classic.glob("*/*.json")), ROOT / "examples" / "classic-game.json"]
    for p in golden:
        text = p.read_text(encoding="utf-8")
        data = json.loads(text)
        (singles if len(data["deals"]) == 1 else wholes).append((p.name, text))
    singles += [spoil(n, t, rng) for n, t in singles[: one_deal // 4]]
    wholes += [spoil(n, t, rng) for n, t in wholes[: max(1, games // 2)]]
    return singles, wholes


def oracle_key(v: Verdict) -> tuple[Any, ...]:
    if v.error is not None:
        return ("unreadable",)
    if v.valid:
        return ("valid",)
    return ("invalid", v.violations[0].deal, v.violations[0].action)


def agree(records: Records) -> tuple[dict[str, Records], dict[str, int]]:
    """The records the baseline judges, by verdict, after checking that both referees agree on each."""
    judged: dict[str, Records] = {"valid": [], "invalid": [], "unreadable": []}
    tally = {"valid": 0, "invalid": 0, "unreadable": 0, "declined": 0}
    cache: dict[Any, Any] = {}
    for name, text in records:
        b = referee(json.loads(text))
        if b is None:
            tally["declined"] += 1
            continue
        o = oracle_key(validate_record(parse_record(text, name), cache=cache))
        if o != b.key():
            raise SystemExit(f"DISAGREEMENT on {name}: oracle {o}, baseline {b.key()} ({b.reason})")
        tally[o[0]] += 1
        judged[o[0]].append((name, text))
    return judged, tally


def deals_in(records: Records) -> int:
    return sum(len(json.loads(t)["deals"]) for _, t in records)


def measure(label: str, records: Records, repeat: int) -> None:
    deals = deals_in(records)
    cache: dict[Any, Any] = {}

    def new_user() -> None:
        for name, text in records:
            validate_record(parse_record(text, name))

    def passed_in() -> None:
        for name, text in records:
            validate_record(parse_record(text, name), cache=cache)

    def baseline() -> None:
        for _, text in records:
            referee(json.loads(text))

    def ceiling() -> None:
        # The hand-written referee given what the oracle owes every record before and beside its replay:
        # the record read as the format requires, and the place in the file of the violation found.
        for name, text in records:
            rec = parse_record(text, name)
            b = referee(rec.data)
            if b is not None and not b.valid and not b.unreadable and b.deal is not None:
                rec.locate("deals", b.deal - 1, *(("actions", b.action - 1) if b.action else ()))

    passed_in()  # resolve and compile outside the timing
    t_new, t_in, t_base, t_ceil = interleaved([new_user, passed_in, baseline, ceiling], repeat)
    print(f"{label}: {len(records)} records, {deals} deals; medians of {repeat} passes, CPU time")
    print(f"  baseline (hand-written)           {deals / t_base:>9.0f} deals/s")
    for what, t in (("oracle, validate_record as is", t_new), ("oracle, rulesets passed in", t_in)):
        print(f"  {what:<33} {deals / t:>9.0f} deals/s   oracle/baseline = {t_base / t:.2f}x")
    print(f"  {'ceiling (see the docstring, 3.)':<33} {deals / t_ceil:>9.0f} deals/s   at most {t_base / t_ceil:.2f}x")


def digest_share(records: Records, repeat: int) -> None:
    """How much of validate_record's time (no rulesets passed in) goes to reading and hashing the rule tree."""
    try:
        import oracle.rulecache as owner  # the rule tree is read once per process (oracle/rulecache.py)
        name = "_read_tree"
    except ImportError:  # before it: tree_digest stat-ed (and hashed) the tree on every call
        owner, name = oracle.ruleset, "tree_digest"
    real = getattr(owner, name)
    spent, calls = [0.0], [0]

    def timed(*a: Any, **k: Any) -> Any:
        calls[0] += 1
        t = time.process_time()
        try:
            return real(*a, **k)
        finally:
            spent[0] += time.process_time() - t

    shares = []
    setattr(owner, name, timed)
    try:
        for _ in range(repeat):
            spent[0] = 0.0
            t = time.process_time()
            for name_, text in records:
                validate_record(parse_record(text, name_))
            shares.append(spent[0] / (time.process_time() - t))
    finally:
        setattr(owner, name, real)
    print(f"reading the rule tree ({owner.__name__}.{name}): {100 * statistics.median(shares):.0f}% of "
          f"validate_record's CPU time on one-deal records as a new user calls it (median); "
          f"{calls[0]} calls for {repeat * len(records)} records")


def wall(argv: list[str], repeat: int, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv)}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return statistics.median(times)


def byte_compiled() -> None:
    """Write the oracle's bytecode (``__pycache__``), as an install or a first run does.

    New processes then start as they do for a user. Where PYTHONDONTWRITEBYTECODE is set (on this
    machine it is), Python never writes it itself, and every new process would compile the oracle's
    modules from source: a tenth of a second of each start-up that no user pays.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "oracle")], check=True)


def startup(repeat: int) -> None:
    """One small record in a new process, against the bare import of the libraries it needs."""
    byte_compiled()
    bare_argv = [sys.executable, "-c", "import yaml, lark, jsonschema"]
    argv = [sys.executable, "-m", "oracle", "validate", "examples/first-deal.yaml", "--quiet"]
    env = dict(os.environ)
    wall(argv, 1, env)  # fills the disk cache, if there is one
    # The bare import and the warm start take turns, so that a neighbour's load falls on both.
    pairs = [(wall(bare_argv, 1), wall(argv, 1, env)) for _ in range(repeat)]
    bare = statistics.median(b for b, _ in pairs)
    warm = statistics.median(w for _, w in pairs)
    cold = wall(argv, max(1, repeat // 2), env | {"THOUSAND_CACHE": "0"})
    print(f"start-up (wall clock, medians): bare import {bare:.3f}s; thousand validate first-deal.yaml "
          f"warm {warm:.3f}s = {warm / bare:.1f}x the bare import, cold {cold:.3f}s = {cold / bare:.1f}x")


def cli(corpus_deals: int, repeat: int) -> None:
    byte_compiled()
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        folder = Path(tmp)
        total, seed = 0, 0
        while total < corpus_deals:
            _, text = play(folder, 200_000 + seed, min(60, corpus_deals - total))
            total += len(json.loads(text)["deals"])
            seed += 1
        print(f"corpus: {total} deals in {seed} files")
        # The two settings take turns, so that a neighbour's load on this shared machine falls on both.
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(repeat):
            for jobs in (1, 2):
                t = time.perf_counter()
                proc = subprocess.run([sys.executable, "-m", "oracle", "validate", str(folder), "--jobs", str(jobs),
                                       "--quiet"], capture_output=True, text=True, cwd=ROOT)
                times[jobs].append(time.perf_counter() - t)
                if proc.returncode != 0:
                    raise SystemExit(proc.stdout[-2000:] + proc.stderr[-2000:])
        medians = {jobs: statistics.median(ts) for jobs, ts in times.items()}
        for jobs, ts in times.items():
            print(f"thousand validate --jobs {jobs}: median {medians[jobs]:.2f}s = {total / medians[jobs]:.0f} deals/s "
                  f"(runs: {', '.join(f'{x:.2f}' for x in ts)})")
        print(f"scaling --jobs 2 / --jobs 1: {medians[1] / medians[2]:.2f}x")
        peak = peak_rss([sys.executable, "-m", "oracle", "validate", str(folder), "--jobs", "2", "--quiet"])
        if peak is None:
            print("memory: needs Linux's /proc; skipped")
        else:
            print(f"memory, thousand validate --jobs 2: peak {peak / 2**20:.0f} MB resident, summed over the "
                  f"process and its workers (sampled every 20 ms)")


def _tree(pid: int) -> list[int]:
    """A process and all its descendants, from /proc."""
    out = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as f:
                for child in f.read().split():
                    out += _tree(int(child))
    except OSError:  # gone in the meantime
        pass
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peak_rss(argv: list[str]) -> int | None:
    """The largest resident memory (bytes) of a command and its worker processes together, sampled as it
    runs: the sum over processes that one process's own peak (``ru_maxrss``) does not give."""
    if not os.path.isdir("/proc/self/task"):
        return None
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_rss(p) for p in _tree(proc.pid)))
        time.sleep(0.02)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
    return peak


def counted_pass(who: str, file: str, passes: int) -> None:
    """One referee over the records in ``file`` (written by :func:`instructions`): a first pass to
    warm up, then ``passes`` more; run by :func:`instructions` under callgrind."""
    records: Records = [(n, t) for n, t in json.loads(Path(file).read_text(encoding="utf-8"))]
    cache: dict[Any, Any] = {}

    def once() -> None:
        for name, text in records:
            if who == "oracle":
                validate_record(parse_record(text, name), cache=cache)
            else:
                referee(json.loads(text))

    for _ in range(1 + passes):
        once()


def instructions(sets: list[tuple[str, Records]]) -> None:
    """Oracle/baseline in instructions: each referee's pass counted by callgrind (see the docstring)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("instructions: valgrind is not installed (Debian: apt-get install valgrind); skipped")
        return
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as tmp:
        for label, records in sets:
            file = Path(tmp) / "records.json"
            file.write_text(json.dumps(records), encoding="utf-8")
            per_pass = {}
            for who in ("baseline", "oracle"):
                counts = []
                for passes in (0, 1):
                    proc = subprocess.run(
                        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                         str(Path(__file__).resolve()), "--counted-pass", who, str(file), str(passes)],
                        capture_output=True, text=True, cwd=ROOT)
                    found = re.search(r"Collected : (\d+)", proc.stderr)
                    if proc.returncode != 0 or found is None:
                        raise SystemExit(f"callgrind failed for the {who}: {proc.stderr[-2000:]}")
                    counts.append(int(found.group(1)))
                per_pass[who] = counts[1] - counts[0]
            deals = deals_in(records)
            print(f"{label}, in instructions: baseline {per_pass['baseline'] / deals:,.0f} per deal, oracle "
                  f"{per_pass['oracle'] / deals:,.0f}; oracle/baseline = "
                  f"{per_pass['baseline'] / per_pass['oracle']:.2f}x")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one-deal", type=int, default=1000, help="generated one-deal records")
    ap.add_argument("--games", type=int, default=20, help="generated whole games")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--corpus-deals", type=int, default=10000)
    ap.add_argument("--no-cli", action="store_true", help="skip the thousand validate --jobs timings")
    ap.add_argument("--only-startup", action="store_true", help="measure the start-up only")
    ap.add_argument("--only-cli", action="store_true", help="measure the thousand validate --jobs timings only")
    ap.add_argument("--instructions", action="store_true",
                    help="also count each referee's instructions per deal under valgrind (slow, steady)")
    ap.add_argument("--counted-pass", nargs=3, metavar=("WHO", "FILE", "PASSES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.counted_pass:
        who, file, passes = args.counted_pass
        counted_pass(who, file, int(passes))
        return 0
    if args.only_startup:
        startup(max(5, args.repeat))
        return 0
    if args.only_cli:
        cli(args.corpus_deals, args.repeat)
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        singles, wholes = build(Path(tmp), args.one_deal, args.games)
    singles_by, t1 = agree(singles)
    wholes_by, t2 = agree(wholes)
    print("verdicts agree on every record: "
          f"one-deal {t1}, whole games {t2} (declined: not plain classic, judged by the oracle only)")
    # Valid records are the throughput figure; on an invalid one the oracle also works out which rule
    # decided a wrong value (a traced replay), which the baseline does not, so it is shown apart.
    measure("valid one-deal records", singles_by["valid"], args.repeat)
    measure("valid whole games", wholes_by["valid"], args.repeat)
    measure("invalid records (one-deal and whole games)", singles_by["invalid"] + wholes_by["invalid"], args.repeat)
    digest_share(singles_by["valid"], args.repeat)
    if args.instructions:
        instructions([("valid one-deal records", singles_by["valid"]), ("valid whole games", wholes_by["valid"]),
                      ("invalid records", singles_by["invalid"] + wholes_by["invalid"])])
    startup(max(5, args.repeat))
    if not args.no_cli:
        cli(args.corpus_deals, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
