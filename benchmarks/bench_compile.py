"""Resolving and compiling rulesets: this checkout against another commit, in one interleaved run.

    python benchmarks/bench_compile.py --against REF [--variants 12] [--repeat 5]

A test suite and a cold start pay these, not validation: the suite asks for some 700 rulesets and
resolves some 5 500 times (the composition tests find which overlays each preset allows), and a
user's first ``thousand validate`` compiles the ruleset it names. ``REF`` (a commit, branch or tag)
is checked out into a temporary worktree, removed afterwards. Each pass runs one fresh Python
process per checkout, in turn (this, the other, this...), with the disk cache off, so both compile
everything; each process reports its CPU time for:

- **read**: the rule tree read cold (every file parsed and checked against its schema), once;
- **resolve**: every preset of the library, resolved once after a first untimed resolve of each;
- **compile**: classic with ``--variants`` values of ``bid_step`` (each a ruleset of its own), after
  one untimed compile of classic;
- **edited**: the library of a copy of the rule tree with one file edited, ``--variants`` times (an edit
  each), with the disk cache on in a scratch directory: what a test or a user changing a rule file pays
  each time (reading the tree again and keeping its entry), after one untimed read of the copy.

The ratio printed is the other commit's time over this checkout's (above 1: this one is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh process with the checkout to time on sys.path first: prints one JSON line.
_CHILD = """
import json, os, shutil, sys, tempfile, time
from pathlib import Path
os.environ["THOUSAND_CACHE"] = "0"
from oracle.ruleset import load_library, load_ruleset, resolve
variants = int(sys.argv[1])
t = time.process_time()
presets = sorted(load_library().presets)
read = time.process_time() - t
for p in presets:
    resolve(p)
t = time.process_time()
for p in presets:
    resolve(p)
res = time.process_time() - t
load_ruleset("classic")
t = time.process_time()
for i in range(variants):
    load_ruleset("classic", params={"bid_step": 5 * (i + 2)})
comp = time.process_time() - t
from oracle import rulecache
scratch = Path(tempfile.mkdtemp())
os.environ["THOUSAND_CACHE"] = "1"
os.environ["THOUSAND_CACHE_DIR"] = str(scratch / "cache")
os.environ["THOUSAND_CACHE_KEEP"] = "1000"
for folder in ("spec", "variants"):
    shutil.copytree(Path(os.environ["THOUSAND_RULES_ROOT"]) / folder, scratch / folder)
step = scratch / "spec" / "bidding" / "step.yaml"
text = step.read_text(encoding="utf-8")
load_library(scratch)
edited = 0.0
for i in range(variants):
    step.write_text(text + f"# edit {i}\\n", encoding="utf-8")
    rulecache.refresh(scratch)
    t = time.process_time()
    load_library(scratch)
    edited += time.process_time() - t
shutil.rmtree(scratch, ignore_errors=True)
print(json.dumps({"read": read, "resolve": res / len(presets), "compile": comp / variants,
                  "edited": edited / variants, "presets": len(presets)}))
"""


def _measure(tree: Path, variants: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "THOUSAND_RULES_ROOT": str(tree)}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(variants)], cwd=tree, env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench_compile: the run in {tree} failed:\n{out.stderr[-2000:]}")
    loaded: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", required=True, help="the commit to compare with (a ref git knows)")
    ap.add_argument("--variants", type=int, default=12, help="rulesets compiled per pass")
    ap.add_argument("--repeat", type=int, default=5, help="passes per checkout")
    args = ap.parse_args(argv)
    if args.variants < 1 or args.repeat < 1:
        ap.error("--variants and --repeat must be at least 1")
    scratch = Path(tempfile.mkdtemp(prefix="bench-compile-"))
    other = scratch / "tree"
    added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.against],
                           capture_output=True, text=True, check=False)
    if added.returncode != 0:
        shutil.rmtree(scratch, ignore_errors=True)
        raise SystemExit(f"bench_compile: cannot check out {args.against!r}: {added.stderr.strip()}")
    try:
        runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
        for _ in range(args.repeat):
            runs["this"].append(_measure(ROOT, args.variants))
            runs["other"].append(_measure(other, args.variants))
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], capture_output=True,
                       check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{args.against} against this checkout: medians of {args.repeat} interleaved passes, CPU time")
    for what, unit in (("read", "per tree"), ("resolve", "per preset"), ("compile", "per ruleset"),
                       ("edited", "per tree")):
        if any(what not in r for r in runs["other"]):
            continue  # a commit from before this measure
        this = statistics.median(r[what] for r in runs["this"])
        then = statistics.median(r[what] for r in runs["other"])
        print(f"  {what:8s} {unit:12s} {args.against}: {then * 1e3:8.2f} ms   this: {this * 1e3:8.2f} ms   "
              f"ratio {then / this:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
