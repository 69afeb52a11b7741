"""The test suite's first run on a fresh clone, timed as the README's 2-minute goal is stated.

    python benchmarks/bench_suite.py [--runs 1] [--against REF] [--split]

What a newcomer pays: the committed code of this checkout's HEAD (and of ``REF``) cloned into a
temporary folder, given a virtual environment of its own (``pip install -e '.[test,docs,dask]'``, not
timed), and then, for each run, the README's own test command (read from the README, so the two
cannot drift) with ``HYPOTHESIS_PROFILE=ci``, on a clone left as a fresh one is: every byte-compiled
file, ``.hypothesis`` and ``.pytest_cache`` removed before each run, and the suite's scratch cache of
compiled rulesets new (the tests make it). Each run has a new temporary folder (``TMPDIR``), as a new
machine's first run has: pytest finds no folders of earlier runs there to delete (on this machine, with
``--machine-tmp``, it deletes those of the run three before after the last test, some 18 000 files,
about 2.5 s). Runs of the two commits take turns, so a change in the machine's load falls on both alike.

The source texts and the mekedron engine are found as the tests find them from this checkout
(``shared/`` beside it or above) and handed to the clone by ``THOUSAND_SOURCES`` and
``MEKEDRON_THOUSAND_DIR``, so the clone skips no more tests than this checkout does.

Printed per commit: the median wall time of the runs against the 120 s goal, the CPU time of the run
(pytest and everything it started), and what pytest counted. With ``--split``, where the time went:
the rulesets compiled (how many, CPU seconds) and the test files that took longest, summed over both
workers (``suite_split.py``, a pytest plugin handed to the workers by ``-p``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL = 120.0  # seconds: the README's goal for a fresh clone's first run on two cores


def readme_test_command(readme: Path) -> list[str]:
    """The test command the README opens with (the first line of its first code block that runs pytest)."""
    text = readme.read_text(encoding="utf-8")
    block = re.search(r"```(?:sh|bash)?\n(.*?)```", text, re.S)
    lines = [ln.strip() for ln in (block.group(1) if block else "").splitlines() if "pytest" in ln]
    if not lines:
        raise SystemExit(f"bench_suite: no pytest command in the first code block of {readme}")
    return shlex.split(lines[0])


def shared_env() -> dict[str, str]:
    """Where this checkout's tests find the source texts and the mekedron engine, for a clone elsewhere."""
    env: dict[str, str] = {}
    for folder in ROOT.parents:
        shared = folder / "shared"
        if (shared / "sources").is_dir():
            env["THOUSAND_SOURCES"] = str(shared / "sources")
            engine = shared / "engines" / "mekedron-thousand"
            if engine.is_dir():
                env["MEKEDRON_THOUSAND_DIR"] = str(engine)
            break
    return env


def clone(ref: str, into: Path) -> None:
    steps = [["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(into)],
             ["git", "-C", str(into), "checkout", "--quiet", "--detach", ref],
             [sys.executable, "-m", "venv", str(into / ".venv")]]
    pip = [str(into / ".venv" / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    steps += [[*pip, "--upgrade", "pip"], [*pip, "-e", ".[test,docs,dask]"]]
    for step in steps:  # quiet unless a step fails: pip's warnings are not the benchmark's output
        done = subprocess.run(step, cwd=into if into.is_dir() else None, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            raise SystemExit(f"bench_suite: {shlex.join(step)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def as_fresh(tree: Path) -> None:
    """The clone as a fresh one is: nothing byte-compiled, no Hypothesis database, no pytest cache."""
    subprocess.run(["git", "-C", str(tree), "clean", "-xdfq", "-e", ".venv"], check=True)
    for cache in tree.rglob("__pycache__"):
        if ".venv" not in cache.relative_to(tree).parts:
            shutil.rmtree(cache, ignore_errors=True)


def run_once(tree: Path, command: list[str], split: Path | None, tmp: Path | None) -> dict[str, Any]:
    """One run of the suite; with ``tmp``, in that new temporary folder (``TMPDIR``), removed afterwards."""
    as_fresh(tree)
    env = {**os.environ, **shared_env(), "HYPOTHESIS_PROFILE": "ci"}
    if tmp is not None:
        tmp.mkdir()
        env["TMPDIR"] = str(tmp)
    env.pop("THOUSAND_DEEP", None)
    env.pop("THOUSAND_TESTS_CACHE_DIR", None)
    argv = list(command)
    if split is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent), env.get("PYTHONPATH")]))
        env["SUITE_SPLIT_LOG"] = str(split)
        split.unlink(missing_ok=True)
        argv += ["-p", "suite_split"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench_suite: the suite failed in {tree} (exit {proc.returncode}):\n"
                         f"{proc.stdout[-3000:]}\n{proc.stderr[-2000:]}")
    return {"wall": wall, "cpu": cpu, "summary": tail, "split": _read_split(split) if split else None}


def _read_split(log: Path) -> dict[str, Any]:
    compiles = 0
    compile_cpu = 0.0
    files: dict[str, float] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["kind"] == "compile":
            compiles += 1
            compile_cpu += entry["cpu"]
        else:
            files[entry["file"]] = files.get(entry["file"], 0.0) + entry["seconds"]
    return {"compiles": compiles, "compile_cpu": compile_cpu, "files": files}


def report(label: str, runs: list[dict[str, Any]]) -> float:
    wall = statistics.median(r["wall"] for r in runs)
    cpu = statistics.median(r["cpu"] for r in runs)
    each = ", ".join(f"{r['wall']:.1f}" for r in runs)
    print(f"{label}: median of {len(runs)} first run(s) {wall:6.1f} s wall = {wall / GOAL:.2f}x the {GOAL:.0f} s goal; "
          f"CPU {cpu:6.1f} s (runs: {each} s)")
    print(f"  pytest: {runs[-1]['summary']}")
    split = runs[-1]["split"]
    if split is not None:
        total = sum(split["files"].values())
        print(f"  last run: {split['compiles']} rulesets compiled, {split['compile_cpu']:.1f} CPU s; "
              f"tests {total:.1f} s over the workers, the longest files:")
        for f, s in sorted(split["files"].items(), key=lambda kv: -kv[1])[:12]:
            print(f"    {s:6.1f} s  {s / total:5.1%}  {f}")
    return wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="first runs per commit (each on a clone made fresh again)")
    ap.add_argument("--against", help="another commit to time in turn with this checkout's HEAD")
    ap.add_argument("--split", action="store_true", help="say where the time went (compiles, test files)")
    ap.add_argument("--machine-tmp", action="store_true",
                    help="run in the machine's own temporary folder, as a developer's later runs do: pytest then "
                         "deletes, after the last test, the temporary folders it kept from the run three before")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    refs = {"HEAD": "HEAD", **({args.against: args.against} if args.against else {})}
    scratch = Path(tempfile.mkdtemp(prefix="bench-suite-"))
    try:
        trees = {}
        for label, ref in refs.items():
            trees[label] = scratch / f"clone-{len(trees)}"
            clone(ref, trees[label])
        command = readme_test_command(ROOT / "README.md")
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in refs}
        for n in range(args.runs):
            for label, tree in trees.items():
                log = scratch / f"split-{label}.jsonl" if args.split else None
                tmp = None if args.machine_tmp else scratch / f"tmp-{label}-{n}"
                runs[label].append(run_once(tree, command, log, tmp))
        print(f"command: {shlex.join(command)} (HYPOTHESIS_PROFILE=ci, {os.cpu_count()} cores)")
        walls = {label: report(label, r) for label, r in runs.items()}
        if args.against:
            print(f"{args.against} over HEAD: {walls[args.against] / walls['HEAD']:.2f}x (above 1: HEAD is faster)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
