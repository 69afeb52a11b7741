"""Mutation check: are the rules load-bearing?

Each mutant is a copy of the rules tree with one change: a rule file deleted, one
logic clause deleted, or one parameter's default changed. The test suite is run
against each mutant (THOUSAND_RULES_ROOT points at the copy); a mutant is killed
when at least one test fails. Survivors are rules or values no test depends on.

    python tools/mutation.py                 # every mutant, summary at the end
    python tools/mutation.py --kind param    # only parameter mutants
    python tools/mutation.py --match barrel  # only mutants whose name contains 'barrel'
    python tools/mutation.py --core          # only the core rules of spec/
    python tools/mutation.py --list          # print the mutants without running them

Runs for tens of minutes; it is not part of the CI suite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from oracle.ruleset import _plain
from oracle.yamlpos import load_yaml_text

ROOT = Path(__file__).resolve().parent.parent
# Not rules of the game: play hints and card notation have no legality to test.
SKIP_FILES = {"spec/hints/simple-bot.yaml"}
TIME_LIMIT = 150  # seconds a mutant's test run may take


@dataclass
class Mutant:
    kind: str  # file | clause | param
    name: str
    path: str
    apply: Any  # callable(Path root) -> None


def _load(path: Path) -> Any:
    # The oracle's own loader: YAML 1.2 booleans, so the key 'on' stays a string.
    return _plain(load_yaml_text(path.read_text(encoding="utf-8"), str(path)))


def _dump(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _changed(p: dict[str, Any]) -> list[Any]:
    """Other values for a parameter, each a plausible mistake."""
    t, d = str(p["type"]), p["default"]
    if "choices" in p:
        return [c for c in p["choices"] if c != d]
    if t == "bool":
        return [not d]
    if t == "int":
        return [d + 5 if d >= 5 else d + 1]
    if t.startswith("list[") and isinstance(d, list) and len(d) > 1:
        return [list(reversed(d))]
    if t.startswith("map[") and isinstance(d, dict):
        k = next(k for k, v in d.items() if v)
        return [{**d, k: d[k] + 10}]
    return []


def rule_files() -> list[Path]:
    """Core rules and overlays; presets are lists of names, covered by their own tests."""
    files = sorted((ROOT / "spec").rglob("*.yaml"))
    files += sorted(p for p in (ROOT / "variants").rglob("*.yaml") if p.parent.name != "presets")
    return files


def mutants() -> Iterator[Mutant]:
    for path in rule_files():
        rel = str(path.relative_to(ROOT))
        if rel in SKIP_FILES:
            continue
        data = _load(path)
        rid = data["id"]
        yield Mutant("file", f"delete {rid}", rel, lambda root, rel=rel: (root / rel).unlink())
        for i, clause in enumerate(data.get("logic") or []):
            label = clause.get("reason") or f"do {clause['on']}"

            def drop(root: Path, rel: str = rel, i: int = i, ref: str = f"{rid}/{clause['id']}") -> None:
                d = _load(root / rel)
                del d["logic"][i]
                _dump(root / rel, d)
                # A core clause is also named in the sequence; take it out there too, or the
                # mutant would only test that a clause missing from the sequence is an error.
                seq_path = root / "spec" / "sequence.yaml"
                seq = _load(seq_path)
                for refs in seq["sequence"].values():
                    if ref in refs:
                        refs.remove(ref)
                _dump(seq_path, seq)
            yield Mutant("clause", f"{rid}: drop clause {i} ({label})", rel, drop)
        for pname, value in (data.get("set") or {}).items():
            decl = {"type": "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str",
                    "default": value}
            for other in _changed(decl) if not isinstance(value, str) else []:
                def setv(root: Path, rel: str = rel, pname: str = pname, other: Any = other) -> None:
                    d = _load(root / rel)
                    d["set"][pname] = other
                    _dump(root / rel, d)
                yield Mutant("param", f"{rid}: set {pname} = {json.dumps(other)}", rel, setv)
        for pname, p in (data.get("params") or {}).items():
            if pname.startswith("notation_"):
                continue
            for value in _changed(p):
                def setp(root: Path, rel: str = rel, pname: str = pname, value: Any = value) -> None:
                    d = _load(root / rel)
                    d["params"][pname]["default"] = value
                    _dump(root / rel, d)
                yield Mutant("param", f"{rid}: {pname} = {json.dumps(value, ensure_ascii=False)}", rel, setp)


def run(m: Mutant, pytest_args: list[str]) -> tuple[Mutant, bool, str, float]:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        root = Path(tmp)
        for folder in ("spec", "variants"):
            shutil.copytree(ROOT / folder, root / folder)
        m.apply(root)
        env = {**os.environ, "THOUSAND_RULES_ROOT": str(root), "HYPOTHESIS_PROFILE": "ci"}
        # Rule tests first, so most mutants die within seconds; the tests that break
        # scratch copies of the real tree on purpose say nothing about a mutant.
        files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "spec").glob("test_*.py"))
        files += sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "variants").glob("test_*.py"))
        files += [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").glob("test_*.py"))
                  if p.name.startswith(("test_properties", "test_records", "test_golden"))]
        try:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                   *files, *pytest_args],
                                  cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIME_LIMIT)
        except subprocess.TimeoutExpired:
            # A mutant that makes the suite hang (an auction that never ends) is caught too: CI would time out.
            return m, True, f"TIMEOUT after {TIME_LIMIT}s (the suite hangs)", time.perf_counter() - start
    killed = proc.returncode != 0
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("FAILED") or ln.startswith("ERROR")]
    return m, killed, lines[0] if lines else "", time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description="Mutation check of the rule files against the test suite.")
    ap.add_argument("--kind", choices=["file", "clause", "param"], action="append")
    ap.add_argument("--match", help="only mutants whose name contains this text")
    ap.add_argument("--core", action="store_true", help="only the core rules (spec/), not the overlays")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("pytest_args", nargs="*", help="extra arguments for pytest (after --)")
    args = ap.parse_args()
    chosen = [m for m in mutants() if (not args.kind or m.kind in args.kind)
              and (not args.match or args.match in m.name) and (not args.core or m.path.startswith("spec/"))]
    if args.list:
        try:
            for m in chosen:
                print(f"{m.kind:6} {m.name}")
            print(f"{len(chosen)} mutants")
        except BrokenPipeError:
            pass
        return 0
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, killed, why, secs in pool.map(lambda m: run(m, args.pytest_args), chosen):
            results.append((m, killed, why))
            print(f"{'killed  ' if killed else 'SURVIVED'} {secs:5.1f}s {m.kind:6} {m.name}  {why[:100]}", flush=True)
    by_kind: dict[str, list[bool]] = {}
    for m, killed, _ in results:
        by_kind.setdefault(m.kind, []).append(killed)
    print()
    for kind, ks in sorted(by_kind.items()):
        print(f"{kind:6} {sum(ks)}/{len(ks)} killed")
    total = sum(k for _, k, _ in results)
    print(f"mutation score: {total}/{len(results)}")
    survivors = [m.name for m, k, _ in results if not k]
    if survivors:
        print("survivors:\n  " + "\n  ".join(survivors))
    if args.json:
        Path(args.json).write_text(json.dumps({"killed": total, "total": len(results), "survivors": survivors},
                                              indent=1, ensure_ascii=False), encoding="utf-8")
    return 0 if not survivors else 1


if __name__ == "__main__":
    sys.exit(main())
