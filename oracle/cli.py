"""The ``thousand`` command line."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from .arguments import build_parser
from .engine import Game, play_random
from .errors import InputError, OracleError, OutputError
from .plural import count
from .records import Recorder
from .ruleset import load_library, load_ruleset


def _param_pairs(pairs: list[str]) -> dict[str, Any]:
    """--set name=value, with the value read as YAML (numbers, true/false, lists)."""
    from .errors import RuleFileError
    from .yamlpos import load_yaml_text, plain

    out: dict[str, Any] = {}
    for p in pairs:
        name, sep, raw = p.partition("=")
        if not sep or not name:
            raise InputError(f"--set needs name=value, not {p!r}")
        try:  # the rule files' reader: its limits (nesting, aliases, digits) hold for the command line too
            out[name.strip()] = plain(load_yaml_text(raw, f"--set {name}"))
        except RuleFileError as exc:
            raise InputError(f"--set {name}: cannot read the value {raw!r}: {exc.message}") from None
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
    # The record names each seat's player; a name written twice, or none, makes a record validate refuses.
    for i, who in enumerate(players):
        if not who.strip():
            raise InputError(f"--players: player {i + 1} has no name")
        if who in players[:i]:
            raise InputError(f"--players names {who!r} twice; each player needs a name of his own")
    dealer = rng.randrange(n)  # the lot for the first dealer (deal.first-dealer)
    game = Game(rs, players=n, dealer=dealer, seed=rng.randrange(2**32))
    rec = Recorder(game, players, seed, overlays, params)
    play_random(game, rng, on_action=rec, hinted=not args.uniform, max_deals=args.max_deals)
    record = rec.finish()
    if args.compact:
        text = json.dumps(record, ensure_ascii=False) + "\n"
    else:
        from .records import dumps  # one action per line, so a position reads "deal's line:column"

        text = dumps(record)
    if args.out:
        try:
            Path(args.out).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"--out {args.out}: cannot write the record there ({exc.strerror or exc})") from None
    else:
        sys.stdout.write(text)
    res = record["result"]
    deals = count(len(record["deals"]), "deal")
    status = f"won by {res['winner']}" if res["finished"] else "unfinished"
    print(f"{rs.name}: {deals}, {status}; scores "
          + ", ".join(f"{p} {s}" for p, s in zip(players, res["score"], strict=False)), file=sys.stderr)
    return 0


CHECK_DEALS = 200  # deals of the game `check` plays per ruleset (a classic game has about 30)


def cmd_check(args: argparse.Namespace) -> int:
    """Load and compile every preset: the lint for rule files."""
    lib = load_library()
    names = args.ruleset or sorted(lib.presets)
    for name in names:
        rs = load_ruleset(name)
        # Compiling finds what is wrong in each text; playing one seeded game to its end finds what is
        # wrong between them (hands the pack cannot deal, a phase no action can leave, a clause that fails).
        rng = random.Random(0)
        play_random(Game(rs, players=rs.players, dealer=0, seed=0), rng, hinted=True, max_deals=CHECK_DEALS)
        print(f"{name}: {count(len(rs.rules), 'rule')}, {count(len(rs.params), 'parameter')}, "
              f"{count(len(rs.actions), 'action')} — ok")
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
    print(f"wrote {count(len(written), 'file')} to {out}", file=sys.stderr)
    return 0


def _record_files(args_paths: list[str]) -> list[Path]:
    from .records import record_files

    return record_files(args_paths)


def _validate_one(job: tuple[str, str | None, bool]) -> dict[str, Any]:
    from .batch import validate_path

    out = validate_path(*job)
    out["_text"] = out.pop("text")
    return out


def wants_progress(stream: TextIO, total: int) -> bool:
    """A progress bar only for a person watching a terminal, and only when there is more than one file."""
    try:
        return total > 1 and stream.isatty()
    except (AttributeError, ValueError):
        return False


def _bar(total: int) -> Any:
    """A tqdm bar on standard error (files done, files per second, time left), or None off a terminal."""
    if not wants_progress(sys.stderr, total):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True, leave=False)


def _results(jobs: list[tuple[str, str | None, bool]], workers: int) -> Iterator[dict[str, Any]]:
    """Each file's verdict as soon as it is known, in the order the files were given."""
    if workers > 1 and len(jobs) > 1:
        import gc
        from concurrent.futures import ProcessPoolExecutor

        # The first file is judged here before the workers start, so that workers forked from this
        # process inherit the ruleset it compiled (others read it from the disk cache).
        yield _validate_one(jobs[0])
        rest = jobs[1:]
        # What is alive now (the compiled rules) is left out of garbage collection for good, so the forked
        # workers share its memory pages with this process instead of each copying them as the collector
        # walks them (--jobs 2 took a tenth longer without).
        gc.freeze()
        # Small chunks: the last ones finish close together, so no worker waits long for the others.
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(_validate_one, rest, chunksize=max(1, min(16, len(rest) // (workers * 16))))
    else:
        for job in jobs:
            yield _validate_one(job)


def _validate_on_dask(args: argparse.Namespace, files: list[Path]) -> list[dict[str, Any]]:
    """The same verdicts as --jobs, computed on a Dask cluster (the workers read the files)."""
    from .batch import validate_with_dask

    if args.jobs > 1:
        raise InputError("--dask and --jobs do not go together: the cluster's workers are the jobs")
    out = []
    for r in validate_with_dask(args.dask, [str(p) for p in files], args.ruleset, args.all_errors):
        r["_text"] = r.pop("text")
        out.append(r)
    return out


def cmd_validate(args: argparse.Namespace) -> int:
    import time
    from collections import Counter

    files = _record_files(args.paths)
    jobs = [(str(p), args.ruleset, args.all_errors) for p in files]
    if args.jobs < 1:
        raise InputError(f"--jobs needs a number of processes, 1 or more, not {args.jobs}")
    args.jobs = min(args.jobs, os.cpu_count() or 1)  # more workers than cores only costs memory
    bar = _bar(len(jobs))
    as_json = args.format == "json"

    def say(text: str) -> None:
        # Above the bar when there is one, so the bar stays at the bottom of the terminal.
        if bar is not None:
            bar.write(text, file=sys.stdout)
        else:
            print(text, flush=True)

    # Only counts are kept, so a run over millions of records needs no more memory than one.
    n = valid = unreadable = deals = 0
    rules: Counter[str] = Counter()
    start = time.perf_counter()
    if as_json:
        say('{"files": [')
    try:
        for r in (_validate_on_dask(args, files) if args.dask else _results(jobs, args.jobs)):
            text = r.pop("_text")
            n += 1
            valid += bool(r["valid"])
            unreadable += "error" in r
            deals += r["deals"]
            rules.update(v["rule"] for v in r["violations"])
            if as_json:
                say(("," if n > 1 else " ") + json.dumps(r, ensure_ascii=False))  # one file per line
            elif not (args.quiet and r["valid"]):
                say(text)
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    secs = time.perf_counter() - start
    invalid = n - valid - unreadable
    summary = {"files": n, "valid": valid, "invalid": invalid, "unreadable": unreadable,
               "deals": deals, "seconds": round(secs, 3)}
    if as_json:
        print('], "summary": ' + json.dumps(summary) + "}")
    elif n > 1:
        print()
        print(f"{'files':>10} {'valid':>7} {'invalid':>8} {'unreadable':>11} {'deals':>8} {'deals/s':>9}")
        print(f"{n:>10} {valid:>7} {invalid:>8} {unreadable:>11} {deals:>8} "
              f"{deals / secs if secs else 0:>9.0f}")
        if rules:
            print("violations by rule: " + ", ".join(f"{r} {k}" for r, k in rules.most_common()))
    return 2 if unreadable else (1 if invalid else 0)


def wants_pager(stream: TextIO, disabled: bool = False) -> bool:
    """Page long output only for a person at a terminal, never into a pipe or a file."""
    if disabled:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _show(text: str, no_pager: bool) -> None:
    """Print ``text``, through $PAGER (or less) when a person reads it on a terminal."""
    import shutil

    command = os.environ.get("PAGER") or ("less" if shutil.which("less") else "")
    if not (wants_pager(sys.stdout, no_pager) and command.strip()):
        print(text)
        return
    import subprocess

    # less: quit at once when the text fits the screen, leave it on the screen, pass colours through.
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX")}
    sys.stdout.flush()
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env, encoding="utf-8")
    except OSError:
        print(text)
        return
    try:
        assert pager.stdin is not None
        pager.stdin.write(text + "\n")
        pager.stdin.close()
    except BrokenPipeError:
        pass  # the reader quit the pager before the end
    while True:
        try:
            code = pager.wait()
            break
        except KeyboardInterrupt:
            continue  # Ctrl-C belongs to the pager (less uses it to stop a search)
    if code == 127:  # the shell found no such pager: print the text after all
        print(text)


_REPLAY_WORDS: dict[str, dict[str, str]] = {
    "rule": {"en": "rule", "ru": "правило"},
    "sources": {"en": "sources:", "ru": "источники:"},
    "allowed": {"en": "allowed:", "ru": "можно:"},
}


def _violation_text(v: Any, rs: Any, lang: str) -> str:
    """A violation as the validator prints it, with its words (and the rule's title) in ``lang``."""
    if lang == "en":
        return str(v.format())
    from .places import in_game

    where = in_game(v.deal, v.action, v.seat, v.seat_name, lang)
    doc = rs.rules.get(v.rule)
    title = doc.get("title", {}).get(lang) if doc is not None else None
    lines = [f"{v.location}: " + where + (": " if where else "") + v.what,
             f"    {_REPLAY_WORDS['rule'][lang]} {v.rule} [{v.reason}]: {title or v.message}",
             f"    {_REPLAY_WORDS['allowed'][lang]} {v.allowed.text(v.seat_name, lang)}"]
    # The source lines are printed exactly as the validator prints them; only the label is translated.
    for line in v.format().splitlines()[3:]:
        lines.append(line.replace(_REPLAY_WORDS["sources"]["en"], _REPLAY_WORDS["sources"][lang], 1))
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    from .records import read_record, validate_record
    from .sheet import parse_range, render
    from .sheet import word as sheet_word

    deals = parse_range(args.deals) if args.deals else None
    rec = read_record(args.file)
    holder: dict[str, Any] = {}
    verdict = validate_record(rec, args.ruleset, all_errors=False, keep=holder)
    if verdict.error is not None:
        raise verdict.error
    game = holder["game"]
    out = [render(game.rs, list(rec.data["players"]), game.sheet, args.lang, deals)]
    if game.over:
        out.append("\n" + sheet_word("winner", args.lang, who=rec.data["players"][game.v["winner"]]))
    from .records import conformance_note

    note = conformance_note(rec.data)
    if note:
        out.append("\n" + note)  # a counterexample says what it is evidence of
    if not verdict.valid:
        out.append("\n" + "\n".join(_violation_text(v, game.rs, args.lang) for v in verdict.violations))
    _show("\n".join(out), args.no_pager)
    return 0 if verdict.valid else 1


def cmd_coverage(args: argparse.Namespace) -> int:
    from .coverage import Coverage, cover_record
    from .records import read_record

    cov = Coverage()
    unreadable = invalid = 0
    files = _record_files(args.paths)
    bar = _bar(len(files))

    def warn(text: str) -> None:
        if bar is not None:
            bar.write(f"thousand: warning: {text}", file=sys.stderr)
        else:
            print(f"thousand: warning: {text}", file=sys.stderr)

    try:
        for path in files:
            try:
                verdict = cover_record(read_record(path), cov, args.ruleset)
            except InputError as exc:
                warn(str(exc))
                unreadable += 1
                verdict = None
            # The same exit codes as validate: a record validate rejects is not silently counted.
            if verdict is not None and verdict.error is not None:
                warn(str(verdict.error))
                unreadable += 1
            elif verdict is not None and not verdict.valid:
                warn(f"{path}: INVALID under ruleset {verdict.ruleset}: "
                     + "; ".join(v.format().splitlines()[0] for v in verdict.violations))
                invalid += 1
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    if args.format == "json":
        print(json.dumps(cov.to_json(), ensure_ascii=False, indent=1))
    else:
        print(_coverage_text(cov))
    return 2 if unreadable else (1 if invalid else 0)


def _coverage_text(cov: Any) -> str:
    ran, fired = cov.counts.ran, cov.counts.fired
    every = cov.every()
    width = max([len("rule"), *map(len, every)]) + 2
    lines = [f"{'rule':{width}} {'ran':>9} {'fired':>9}"]
    lines += [f"{rid:{width}} {ran[rid]:>9} {fired[rid]:>9}" for rid in every]
    lines.append("")
    for seen in cov.rulesets.values():
        with_overlays = f" with {', '.join(seen.overlays)}" if seen.overlays else ""
        lines.append(f"ruleset {seen.name}{with_overlays}: {count(len(seen.rules), 'rule')}, the rule ids "
                     f"`thousand check` counts")
    informal, hints = cov.not_formalised(), cov.not_normative()
    formal = len(every) - len(informal) - len(hints)
    never_ran, never_fired = cov.never_ran(), cov.never_fired()
    lines.append(f"in {count(cov.files, 'record')}, of the {count(formal, 'rule')} of the game with logic or "
                 f"values: {formal - len(never_ran)} ran, {formal - len(never_ran) - len(never_fired)} fired")
    if never_ran:
        lines.append("never ran: " + ", ".join(never_ran))
    if never_fired:
        lines.append("ran but never fired (never forbade, never changed the game): " + ", ".join(never_fired))
    if informal:
        lines.append("not formalised (no logic or values to exercise): " + ", ".join(informal))
    if hints:
        lines.append("not rules of the game (not counted): " + ", ".join(hints))
    return "\n".join(lines)


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
    from .compare import format_rulesets, list_rulesets

    print(format_rulesets(list_rulesets(args.lang), args.lang))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from .compare import explain

    _show(explain(args.name, args.lang), args.no_pager)
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
                        ("--max-disagreements", args.max_disagreements),
                        ("--shrink-examples", 1 if args.shrink_examples is None else args.shrink_examples)):
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
                                 shrink_examples=args.shrink_examples,
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


# The command each subcommand runs (the parser itself is in oracle.arguments, which the docs read too).
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": cmd_play,
    "validate": cmd_validate,
    "replay": cmd_replay,
    "coverage": cmd_coverage,
    "golden": cmd_golden,
    "rulesets": cmd_rulesets,
    "explain": cmd_explain,
    "diff": cmd_diff,
    "conform": cmd_conform,
    "engine": cmd_engine,
    "check": cmd_check,
    "docs": cmd_docs,
}


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A file name with an undecodable byte, or a lone surrogate in a record, must print, not crash.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # A bare `thousand` is a request for help, as with git or pip.
        parser.print_help()
        return 0
    stdout = sys.stdout
    sys.stdout = _Output(stdout)  # type: ignore[assignment]
    try:
        code = int(COMMANDS[args.command](args))
        sys.stdout.flush()  # a full disk shows here, not as the interpreter exits
        return code
    except OracleError as exc:
        if isinstance(exc, OutputError):
            _drop_output(stdout)
        print(f"thousand: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        _drop_output(stdout)
        sys.stderr.close()
        return 0
    except Exception as exc:
        print(f"thousand: internal error ({type(exc).__name__}: {exc}); please report it with the command line",
              file=sys.stderr)
        return 70
    finally:
        sys.stdout = stdout


class _Output:
    """Standard output whose write failures (a full disk, a device that refuses) are reported as the
    output's fault, with a message and exit code 2; a closed pipe stays a BrokenPipeError."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_output(stream: TextIO) -> None:
    """Forget what standard output still holds: the interpreter's last flush would fail on it again."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass


if __name__ == "__main__":
    sys.exit(main())
