"""The ``thousand`` command line."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from .engine import Game, play_random
from .errors import InputError, OracleError
from .record import Recorder
from .ruleset import load_library, load_ruleset


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _param_pairs(pairs: list[str]) -> dict[str, Any]:
    """--set name=value, with the value read as YAML (numbers, true/false, lists)."""
    import yaml

    out: dict[str, Any] = {}
    for p in pairs:
        name, sep, raw = p.partition("=")
        if not sep or not name:
            raise InputError(f"--set needs name=value, not {p!r}")
        try:
            out[name.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError:
            raise InputError(f"--set {name}: cannot read the value {raw!r}") from None
    return out


def cmd_play(args: argparse.Namespace) -> int:
    params = _param_pairs(args.set or [])
    overlays = args.overlay or []
    rs = load_ruleset(args.ruleset, overlays, params)
    seed = args.seed
    rng = random.Random(seed)
    n = rs.players
    players = args.players.split(",") if args.players else [f"P{i + 1}" for i in range(n)]
    if len(players) != n:
        raise InputError(f"ruleset {rs.name!r} seats {n} players, but --players names {len(players)}")
    dealer = rng.randrange(n)  # the lot for the first dealer (deal.first-dealer)
    game = Game(rs, players=n, dealer=dealer, seed=rng.randrange(2**32))
    rec = Recorder(game, players, seed, overlays, params)
    play_random(game, rng, on_action=rec, hinted=not args.uniform, max_deals=args.max_deals)
    record = rec.finish()
    text = json.dumps(record, ensure_ascii=False, indent=1 if args.pretty else None)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    res = record["result"]
    status = (f"won by {res['winner']}" if res["finished"]
              else f"unfinished after {len(record['deals'])} deals")
    print(f"{rs.name}: {len(record['deals'])} deals, {status}; scores "
          + ", ".join(f"{p} {s}" for p, s in zip(players, res["score"], strict=False)), file=sys.stderr)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Load and compile every preset: the lint for rule files."""
    lib = load_library()
    names = args.ruleset or sorted(lib.presets)
    for name in names:
        rs = load_ruleset(name)
        print(f"{name}: {len(rs.rules)} rules, {len(rs.params)} parameters, {len(rs.actions)} actions — ok")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    """Regenerate the rulebook site's Markdown pages from the rule files."""
    from .docgen import DocsError, write_pages

    out = Path(args.out)
    data = Path(args.data) if args.data else out.parent / "_data"
    if not data.is_dir():
        raise InputError(f"no docs data folder at {data} (the site's nav, areas and glossary); give --data")
    try:
        written = write_pages(out, data)
    except DocsError as exc:
        raise InputError(str(exc)) from None
    print(f"wrote {len(written)} files to {out}", file=sys.stderr)
    return 0


RECORD_SUFFIXES = (".json", ".yaml", ".yml")


def _record_files(args_paths: list[str]) -> list[Path]:
    """Expand files, folders (recursively) and glob patterns into record files."""
    import glob

    out: list[Path] = []
    for raw in args_paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in RECORD_SUFFIXES and q.is_file()))
        elif p.exists():
            out.append(p)
        elif any(ch in raw for ch in "*?["):
            hits = sorted(Path(h) for h in glob.glob(raw, recursive=True) if Path(h).is_file())
            if not hits:
                raise InputError(f"no file matches {raw!r}")
            out.extend(hits)
        else:
            raise InputError(f"{raw}: no such file or folder")
    if not out:
        raise InputError("no record files found in " + ", ".join(args_paths))
    return out


_RULESETS: dict[Any, Any] = {}  # rulesets resolved in this run (a worker process keeps its own)


def _validate_one(job: tuple[str, str | None, bool]) -> dict[str, Any]:
    from .transcript import read_record
    from .validate import Verdict, validate_record

    path, ruleset, all_errors = job
    try:
        rec = read_record(path)
    except InputError as exc:
        return Verdict(path, False, ruleset, error=exc).to_json() | {"_text": f"{exc}"}
    try:
        verdict = validate_record(rec, ruleset, all_errors, cache=_RULESETS)
        out = verdict.to_json()
    except Exception as exc:
        err = InputError(f"internal error while validating ({type(exc).__name__}: {exc}); please report it")
        return Verdict(path, False, ruleset, error=err).to_json() | {"_text": f"{path}: {err}"}
    if verdict.error is not None:
        out["_text"] = str(verdict.error)
    elif verdict.valid:
        out["_text"] = f"{path}: valid ({verdict.deals} deals, {verdict.actions} actions, ruleset {verdict.ruleset})"
    else:
        out["_text"] = f"{path}: INVALID under ruleset {verdict.ruleset}\n" + "\n".join(
            v.format() for v in verdict.violations)
    from .conform.note import conformance_note

    note = conformance_note(rec.data)
    if note:
        out["_text"] += "\n" + note  # a counterexample says what it is evidence of
        out["conformance"] = rec.data["conformance"]
    return out


def _progress(done: int, total: int) -> None:
    if total > 1 and sys.stderr.isatty():
        width = 30
        fill = int(width * done / total)
        sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_validate(args: argparse.Namespace) -> int:
    import time
    from collections import Counter

    files = _record_files(args.paths)
    jobs = [(str(p), args.ruleset, args.all_errors) for p in files]
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    if args.jobs > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for r in pool.map(_validate_one, jobs, chunksize=max(1, len(jobs) // (args.jobs * 8))):
                results.append(r)
                _progress(len(results), len(jobs))
    else:
        for job in jobs:
            results.append(_validate_one(job))
            _progress(len(results), len(jobs))
    secs = time.perf_counter() - start
    valid = sum(1 for r in results if r["valid"])
    unreadable = sum(1 for r in results if "error" in r)
    invalid = len(results) - valid - unreadable
    deals = sum(r["deals"] for r in results)
    summary = {"files": len(results), "valid": valid, "invalid": invalid, "unreadable": unreadable,
               "deals": deals, "seconds": round(secs, 3)}
    if args.format == "json":
        print(json.dumps({"summary": summary, "files": [{k: v for k, v in r.items() if k != "_text"}
                                                        for r in results]}, ensure_ascii=False, indent=1))
    else:
        for r in results:
            if not (args.quiet and r["valid"]):
                print(r["_text"])
        if len(results) > 1:
            rules = Counter(v["rule"] for r in results for v in r["violations"])
            print()
            print(f"{'files':>10} {'valid':>7} {'invalid':>8} {'unreadable':>11} {'deals':>8} {'deals/s':>9}")
            print(f"{len(results):>10} {valid:>7} {invalid:>8} {unreadable:>11} {deals:>8} "
                  f"{deals / secs if secs else 0:>9.0f}")
            if rules:
                print("violations by rule: " + ", ".join(f"{r} {n}" for r, n in rules.most_common()))
    return 2 if unreadable else (1 if invalid else 0)


def cmd_replay(args: argparse.Namespace) -> int:
    from .sheet import render
    from .transcript import read_record
    from .validate import validate_record

    rec = read_record(args.file)
    holder: dict[str, Any] = {}
    verdict = validate_record(rec, args.ruleset, all_errors=False, tracer=None, keep=holder)
    if verdict.error is not None:
        raise verdict.error
    game = holder["game"]
    print(render(game.rs, list(rec.data["players"]), game.sheet, args.lang))
    if game.over:
        print(f"\nwinner: {rec.data['players'][game.v['winner']]}")
    from .conform.note import conformance_note

    note = conformance_note(rec.data)
    if note:
        print("\n" + note)
    if not verdict.valid:
        print("\n" + "\n".join(v.format() for v in verdict.violations))
        return 1
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    from .coverage import Coverage, cover_record
    from .transcript import read_record

    cov = Coverage()
    unreadable = 0
    for path in _record_files(args.paths):
        try:
            cover_record(read_record(path), cov, args.ruleset)
        except InputError as exc:
            print(f"thousand: warning: {exc}", file=sys.stderr)
            unreadable += 1
    if args.format == "json":
        print(json.dumps(cov.to_json(), ensure_ascii=False, indent=1))
    else:
        every = sorted(set().union(*cov.rules.values())) if cov.rules else []
        print(f"{'rule':48} hits")
        for rid in every:
            print(f"{rid:48} {cov.hits[rid]}")
        missing = cov.unreached()
        informal = cov.not_formalised()
        formal = len(every) - len(informal)
        print(f"\n{formal - len(missing)}/{formal} rules reached in {cov.files} records")
        if missing:
            print("never reached: " + ", ".join(missing))
        if informal:
            print("not formalised (no logic or values to exercise): " + ", ".join(informal))
    return 2 if unreadable else 0


def cmd_golden(args: argparse.Namespace) -> int:
    from .golden import write_all

    differ = write_all(Path(args.out), check=args.check, rulesets=args.ruleset or None)
    if args.check:
        for d in differ:
            print(f"differs: {d}")
        return 1 if differ else 0
    print(f"golden games written under {args.out}")
    return 0


def cmd_rulesets(args: argparse.Namespace) -> int:
    from .compare import list_rulesets

    rows = list_rulesets(args.lang)
    width = max(len(r[0]) for r in rows)
    print(f"{'ruleset':<{width}}  overlays  changed parameters  title")
    for name, title, overlays, changed in rows:
        print(f"{name:<{width}}  {overlays:>8}  {changed:>18}  {title}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from .compare import explain

    print(explain(args.name, args.lang))
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from .compare import diff, format_diff

    d = diff(args.a, args.b)
    if args.format == "json":
        print(json.dumps(d, ensure_ascii=False, indent=1))
    else:
        print(format_diff(d, args.lang))
    return 0


def cmd_conform(args: argparse.Namespace) -> int:
    import math

    from .conform.engines import OracleEngine, SubprocessEngine
    from .conform.harness import run_conformance

    def seconds(name: str, value: float, zero: bool = False) -> float:
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise InputError(f"{name} needs a finite number of seconds{'' if zero else ' above 0'}, not {value:g}")
        return value

    if not args.engine.strip():
        raise InputError("--engine needs a command that starts the engine (or 'oracle'), not an empty string")
    timeout = seconds("--timeout", args.timeout)
    start_timeout = seconds("--start-timeout", args.start_timeout)
    shrink = seconds("--shrink-seconds", args.shrink_seconds, zero=True)
    budget = seconds("--time", args.time) if args.time is not None else None
    for name, value in (("--examples", args.examples), ("--deals", args.deals),
                        ("--max-disagreements", args.max_disagreements)):
        if value < 1:
            raise InputError(f"{name} needs a whole number of at least 1, not {value}")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".thousand-write-test"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise InputError(f"--out {args.out}: cannot write counterexamples there ({exc.strerror or exc})") from None
    params = _param_pairs(args.set or [])
    overlays = args.overlay or []
    load_ruleset(args.ruleset, overlays, params)  # a bad ruleset, overlay or parameter is named before anything runs
    if args.engine == "oracle":
        engine: Any = OracleEngine(args.ruleset, overlays, params)
    else:
        engine = SubprocessEngine(args.engine, timeout=timeout, start_timeout=start_timeout)
    try:
        report = run_conformance(engine, args.ruleset, examples=args.examples, seed=args.seed,
                                 max_deals=args.deals, out_dir=out, shrink_seconds=shrink, time_limit=budget,
                                 max_disagreements=args.max_disagreements, overlays=overlays, params=params,
                                 on_progress=None if args.quiet else
                                 lambda m: print(m, file=sys.stderr, flush=True))
    finally:
        engine.close()
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    else:
        print(report.format())
    if report.failure is not None:
        return 2
    return 1 if report.disagreements else 0


def cmd_engine(args: argparse.Namespace) -> int:
    from .conform.serve import main as serve_main

    return serve_main(args.ruleset, args.mutant)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="thousand", description="The executable rulebook and conformance oracle of Тысяча.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    play = sub.add_parser("play", help="play a whole game with seeded random legal moves and print its record")
    play.add_argument("--ruleset", default="classic", help="named ruleset (default: classic)")
    play.add_argument("--overlay", action="append", metavar="ID", help="add an overlay (repeatable)")
    play.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    play.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    play.add_argument("--players", help="comma-separated player names, clockwise")
    play.add_argument("--max-deals", type=int, default=500, help="stop an unfinished game after this many deals")
    play.add_argument("--uniform", action="store_true",
                      help="choose uniformly among legal moves instead of following the rules' play hints")
    play.add_argument("--out", help="write the record to this file instead of standard output")
    play.add_argument("--pretty", action="store_true", help="indent the JSON")
    play.set_defaults(func=cmd_play)

    val = sub.add_parser("validate", help="check game records against a ruleset: every action and recorded result")
    val.add_argument("paths", nargs="+", metavar="FILE|DIR|GLOB", help="records (.json, .yaml), folders or patterns")
    val.add_argument("--ruleset", help="judge by this ruleset instead of the one each record names")
    val.add_argument("--all-errors", action="store_true", help="go on past a violation where possible")
    val.add_argument("--format", choices=["text", "json"], default="text")
    val.add_argument("--jobs", type=int, default=1, help="validate files in parallel processes")
    val.add_argument("--quiet", action="store_true", help="print only invalid or unreadable files")
    val.set_defaults(func=cmd_validate)

    rep = sub.add_parser("replay", help="print a record's score sheet as players keep it on paper")
    rep.add_argument("file")
    rep.add_argument("--ruleset")
    rep.add_argument("--lang", choices=["en", "ru"], default="en", help="language of the legend")
    rep.set_defaults(func=cmd_replay)

    cov = sub.add_parser("coverage", help="which rules a set of records exercises, and which it never reaches")
    cov.add_argument("paths", nargs="+", metavar="FILE|DIR|GLOB")
    cov.add_argument("--ruleset")
    cov.add_argument("--format", choices=["text", "json"], default="text")
    cov.set_defaults(func=cmd_coverage)

    gold = sub.add_parser("golden", help="regenerate (or --check) the golden games of every ruleset")
    gold.add_argument("--out", default="tests/golden", help="folder of the golden games (default: tests/golden)")
    gold.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    gold.add_argument("--ruleset", action="append", help="only this ruleset (repeatable)")
    gold.set_defaults(func=cmd_golden)

    rsets = sub.add_parser("rulesets", help="list the named rulesets")
    rsets.add_argument("--lang", choices=["en", "ru"], default="en")
    rsets.set_defaults(func=cmd_rulesets)

    expl = sub.add_parser("explain", help="a ruleset's parameters, overlays and the sources it follows")
    expl.add_argument("name")
    expl.add_argument("--lang", choices=["en", "ru"], default="en")
    expl.set_defaults(func=cmd_explain)

    dif = sub.add_parser("diff", help="how two rulesets differ, rule by rule and parameter by parameter")
    dif.add_argument("a")
    dif.add_argument("b")
    dif.add_argument("--format", choices=["text", "json"], default="text")
    dif.add_argument("--lang", choices=["en", "ru"], default="en")
    dif.set_defaults(func=cmd_diff)

    conf = sub.add_parser("conform", help="drive another engine and the oracle side by side through generated games")
    conf.add_argument("--engine", required=True,
                      help="command that starts the engine (protocol on stdin/stdout), or 'oracle'")
    conf.add_argument("--ruleset", default="classic")
    conf.add_argument("--overlay", action="append", help="add a variant overlay to the ruleset (repeatable)")
    conf.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    conf.add_argument("--examples", type=int, default=200,
                      help="generated games in the whole run, at most (default 200)")
    conf.add_argument("--time", type=float, help="seconds the run may take, at most (default: no limit)")
    conf.add_argument("--max-disagreements", type=int, default=20,
                      help="stop after this many root causes (default 20)")
    conf.add_argument("--seed", type=int, default=0, help="reproduce a run exactly")
    conf.add_argument("--deals", type=int, default=4, help="deals per generated game, at most (default 4)")
    conf.add_argument("--timeout", type=float, default=5.0, help="seconds the engine has to answer a request")
    conf.add_argument("--start-timeout", type=float, default=30.0, help="seconds the engine has to start")
    conf.add_argument("--shrink-seconds", type=float, default=10.0, help="time to shrink each disagreement")
    conf.add_argument("--out", default="conformance-failures", help="folder for the counterexample records")
    conf.add_argument("--format", choices=["text", "json"], default="text")
    conf.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    conf.set_defaults(func=cmd_conform)

    eng = sub.add_parser("engine", help="serve the oracle as an engine speaking the protocol on stdin/stdout")
    eng.add_argument("--ruleset", default="classic")
    eng.add_argument("--mutant", help="serve a deliberately broken engine (see oracle/conform/mutants.py)")
    eng.set_defaults(func=cmd_engine)

    check = sub.add_parser("check", help="load and compile rulesets, reporting any error in the rule files")
    check.add_argument("ruleset", nargs="*", help="rulesets to check (default: all)")
    check.set_defaults(func=cmd_check)

    docs = sub.add_parser("docs", help="write the rulebook site's Markdown pages from the rule files")
    docs.add_argument("--out", default="docs/generated",
                      help="folder to replace with the generated pages (default: docs/generated)")
    docs.add_argument("--data", help="the site's data folder: nav skeleton, areas, glossary (default: OUT/../_data)")
    docs.set_defaults(func=cmd_docs)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except OracleError as exc:
        print(f"thousand: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        sys.stderr.close()
        return 0
    except Exception as exc:
        print(f"thousand: internal error ({type(exc).__name__}: {exc}); please report it with the command line",
              file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
