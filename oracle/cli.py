"""The ``thousand`` command line."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO, TypeVar

from .arguments import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_UNREADABLE, EXIT_USAGE, build_parser
from .engine import Game, choose_lookahead, play_random
from .errors import InputError, OracleError, OutputError, RulesetError, UsageError
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
            raise UsageError(f"--set needs name=value, not {p!r}")
        try:  # the rule files' reader: its limits (nesting, aliases, digits) hold for the command line too
            out[name.strip()] = plain(load_yaml_text(raw, f"--set {name}"))
        except RuleFileError as exc:
            raise UsageError(f"--set {name}: cannot read the value {raw!r}: {exc.message}") from None
    return out


STDIN = "-"  # a path that reads one record from standard input
STDIN_NAME = "<stdin>"  # the name a record read from standard input goes by in messages


def locale_lang(env: Any = None) -> str:
    """The language the locale asks for: ru when LC_ALL, LC_MESSAGES or LANG (the first one set) starts with
    ru, else en."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def _lang(args: argparse.Namespace) -> str:
    return str(getattr(args, "lang", None) or locale_lang())


def _ruleset_flag(name: str, what: str = "--ruleset") -> str:
    """A ruleset named on the command line, checked before anything is read: a wrong name is the command
    line's fault, not the record's."""
    from .ruleset import _near

    lib = load_library()
    if not name.strip():
        raise UsageError(f"{what} needs a ruleset name; `thousand rulesets` lists them")
    if name not in lib.presets:
        raise UsageError(f"{what} {name}: no such ruleset{_near(name, lib.presets)} (`thousand rulesets` lists them)")
    return name


def _ruleset_from_flags(name: str, overlays: list[str], params: dict[str, Any]) -> Any:
    """The ruleset the flags ask for; an unknown overlay or a refused parameter is a command-line error."""
    _ruleset_flag(name)
    try:
        return load_ruleset(name, overlays, params)
    except RulesetError as exc:
        load_ruleset(name)  # the ruleset alone loads (or its own error is reported as it is) ...
        raise UsageError(f"--overlay/--set: {exc}") from None  # ... so the flags make it fail


def _stdin_bytes() -> bytes:
    data: bytes = sys.stdin.buffer.read()
    return data


def cmd_play(args: argparse.Namespace) -> int:
    params = _param_pairs(args.set or [])
    overlays = args.overlay or []
    rs = _ruleset_from_flags(args.ruleset, overlays, params)
    seed = args.seed
    rng = random.Random(seed)
    n = rs.players
    players = args.players.split(",") if args.players else [f"P{i + 1}" for i in range(n)]
    if len(players) != n:
        raise UsageError(f"ruleset {rs.name!r} seats {n} players, but --players names {len(players)}")
    # The record names each seat's player; a name written twice, or none, makes a record validate refuses.
    for i, who in enumerate(players):
        if not who.strip():
            raise UsageError(f"--players: player {i + 1} has no name")
        if who in players[:i]:
            raise UsageError(f"--players names {who!r} twice; each player needs a name of his own")
    dealer = rng.randrange(n)  # the lot for the first dealer (deal.first-dealer)
    game = Game(rs, players=n, dealer=dealer, seed=rng.randrange(2**32))
    rec = Recorder(game, players, seed, overlays, params)
    # By default a bot that plays each deal out before it moves, so that games end as a club's do, in tens
    # of deals; --simple is the golden games' bot, --uniform no bot at all.
    bot = None if args.uniform or args.simple else choose_lookahead
    play_random(game, rng, on_action=rec, hinted=not args.uniform, max_deals=args.max_deals, bot=bot)
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
    cut = not res["finished"] and len(record["deals"]) >= args.max_deals
    status = (f"won by {res['winner']}" if res["finished"] else
              f"cut short at --max-deals {args.max_deals}: unfinished, no winner" if cut else "unfinished")
    print(f"{rs.name}: {deals}, {status}; scores "
          + ", ".join(f"{p} {s}" for p, s in zip(players, res["score"], strict=False)), file=sys.stderr)
    return 0


CHECK_DEALS = 200  # deals of the game `check` plays per ruleset (a classic game has about 30)


def cmd_check(args: argparse.Namespace) -> int:
    """Load and compile every preset: the lint for rule files."""
    lib = load_library()
    names = [_ruleset_flag(n, "check") for n in args.ruleset] or sorted(lib.presets)
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
        raise UsageError(f"no docs data folder at {data} (the site's nav, areas and glossary); give --data")
    try:
        written = write_pages(out, data)
    except DocsError as exc:
        raise InputError(str(exc)) from None
    print(f"wrote {count(len(written), 'file')} to {out}", file=sys.stderr)
    return 0


def _record_files(args_paths: list[str]) -> list[Path]:
    """The record files the paths name; ``-`` (standard input) stays where it is, once at most."""
    from .records import record_files

    if STDIN not in args_paths:
        return record_files(args_paths)
    if args_paths.count(STDIN) > 1:
        raise UsageError("- (standard input) can be given once")
    i = args_paths.index(STDIN)
    before, after = args_paths[:i], args_paths[i + 1:]
    return ((record_files(before) if before else []) + [Path(STDIN)]
            + (record_files(after) if after else []))


def _validate_one(job: tuple[str, str | None, bool]) -> dict[str, Any]:
    from .batch import validate_path

    out = validate_path(*job)
    out["_text"] = out.pop("text")
    return out


# One file of `thousand validate`: its path, the --ruleset, --all-errors, the language, and the bytes of a
# record read from standard input (None for a file, which the worker reads itself).
_ValidateJob = tuple[str, str | None, bool, str, bytes | None]


def _validate_job(job: _ValidateJob) -> dict[str, Any]:
    from .batch import validate_bytes, validate_path

    path, ruleset, all_errors, lang, data = job
    out = (validate_bytes(data, STDIN_NAME, ruleset, all_errors, lang) if data is not None
           else validate_path(path, ruleset, all_errors, lang))
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


_Job = TypeVar("_Job")
_Out = TypeVar("_Out")


def _results(jobs: list[_Job], workers: int, one: Callable[[_Job], _Out]) -> Iterator[_Out]:
    """Each file's outcome (``one`` of its job: validate's verdict, coverage's counts) as soon as it is known,
    in the order the files were given."""
    if workers > 1 and len(jobs) > 1:
        import gc
        from concurrent.futures import ProcessPoolExecutor

        # The first file is judged here before the workers start, so that workers forked from this
        # process inherit the ruleset it compiled (others read it from the disk cache).
        yield one(jobs[0])
        rest = jobs[1:]
        # What is alive now (the compiled rules) is left out of garbage collection for good, so the forked
        # workers share its memory pages with this process instead of each copying them as the collector
        # walks them (--jobs 2 took a tenth longer without).
        gc.freeze()
        # Small chunks: the last ones finish close together, so no worker waits long for the others.
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(one, rest, chunksize=max(1, min(16, len(rest) // (workers * 16))))
    else:
        for job in jobs:
            yield one(job)


def _validate_on_dask(args: argparse.Namespace, files: list[Path]) -> list[dict[str, Any]]:
    """The same verdicts as --jobs, computed on a Dask cluster (the workers read the files)."""
    from .batch import validate_with_dask

    if args.jobs > 1:
        raise UsageError("--dask and --jobs do not go together: the cluster's workers are the jobs")
    out = []
    if STDIN in args.paths:
        raise UsageError("--dask reads files on the workers: - (standard input) cannot go there")
    for r in validate_with_dask(args.dask, [str(p) for p in files], args.ruleset, args.all_errors, _lang(args)):
        r["_text"] = r.pop("text")
        out.append(r)
    return out


def cmd_validate(args: argparse.Namespace) -> int:
    import time
    from collections import Counter

    if args.ruleset is not None:
        _ruleset_flag(args.ruleset)
    lang = _lang(args)
    args.jobs = _jobs(args.jobs)
    files = _record_files(args.paths)
    data = _stdin_bytes() if STDIN in args.paths else None
    jobs: list[_ValidateJob] = [(str(p), args.ruleset, args.all_errors, lang, data if str(p) == STDIN else None)
                                for p in files]
    bar = _bar(len(jobs))
    as_json = args.format == "json"
    paint = _paint(sys.stdout)

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
        for r in (_validate_on_dask(args, files) if args.dask else _results(jobs, args.jobs, _validate_job)):
            text = r.pop("_text")
            n += 1
            valid += bool(r["valid"])
            unreadable += "error" in r
            deals += r["deals_scored"]
            rules.update(v["rule"] for v in r["violations"])
            if as_json:
                say(("," if n > 1 else " ") + json.dumps(r, ensure_ascii=False))  # one file per line
            elif not (args.quiet or (args.problems and r["valid"])):
                say(_painted_verdict(text, paint, "error" in r))
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    secs = time.perf_counter() - start
    invalid = n - valid - unreadable
    summary = {"files": n, "valid": valid, "invalid": invalid, "unreadable": unreadable,
               "deals_scored": deals, "seconds": round(secs, 3)}
    if as_json:
        print('], "summary": ' + json.dumps(summary) + "}")
    elif n > 1 or args.quiet:
        heads = [_SUMMARY[k][lang] for k in ("files", "valid", "invalid", "unreadable", "deals", "rate")]
        widths = [max(len(h), 7) for h in heads]
        figures = [n, valid, invalid, unreadable, deals, round(deals / secs) if secs else 0]
        if not args.quiet:
            print()
        print(" ".join(f"{h:>{w}}" for h, w in zip(heads, widths, strict=True)))
        print(" ".join(f"{x:>{w}}" for x, w in zip(figures, widths, strict=True)))
        if rules:
            print(_SUMMARY["by_rule"][lang] + " " + ", ".join(f"{r} {k}" for r, k in rules.most_common()))
    return EXIT_UNREADABLE if unreadable else (1 if invalid else 0)


# The summary table's words.
_SUMMARY: dict[str, dict[str, str]] = {
    "files": {"en": "files", "ru": "файлов"},
    "valid": {"en": "valid", "ru": "верных"},
    "invalid": {"en": "invalid", "ru": "неверных"},
    "unreadable": {"en": "unreadable", "ru": "нечитаемых"},
    "deals": {"en": "deals", "ru": "партий"},
    "rate": {"en": "deals/s", "ru": "партий/с"},
    "by_rule": {"en": "violations by rule:", "ru": "нарушения по правилам:"},
}


def _paint(stream: TextIO) -> Any:
    from .colour import Paint, wants_colour

    return Paint(wants_colour(stream, os.environ))


def _painted_verdict(text: str, paint: Any, unreadable: bool = False) -> str:
    """A file's verdict with its few key words in colour (when ``paint`` is on): the verdict itself, and
    each violation's place and rule."""
    import re

    if not paint.on:
        return text
    if unreadable:
        return str(paint(text, "red"))
    lines = text.split("\n")
    head = re.sub(r": (valid|верна)\b", lambda m: ": " + paint(m.group(1), "green"), lines[0], count=1)
    head = re.sub(r": (INVALID|НЕВЕРНА)\b", lambda m: ": " + paint(m.group(1), "red", "bold"), head, count=1)
    out = [head]
    for line in lines[1:]:
        if not line.startswith(" "):
            out.append(paint(line, "bold"))  # a violation's place and what was done there
            continue
        m = re.match(r"^(    (?:rule|правило) )(\S+)(.*)$", line)
        out.append(m.group(1) + paint(m.group(2), "yellow") + m.group(3) if m else line)
    return "\n".join(out)


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


def cmd_replay(args: argparse.Namespace) -> int:
    from .records import judge, read_record, record_from_bytes
    from .sheet import parse_range, render
    from .sheet import word as sheet_word

    lang = _lang(args)
    if args.ruleset is not None:
        _ruleset_flag(args.ruleset)
    deals = parse_range(args.deals) if args.deals else None
    rec = record_from_bytes(_stdin_bytes(), STDIN_NAME) if args.file == STDIN else read_record(args.file)
    judgement = judge(rec, args.ruleset, all_errors=False)
    verdict, game = judgement.verdict, judgement.game
    if verdict.error is not None:
        raise verdict.error
    assert game is not None
    first = verdict.violations[0] if verdict.violations else None
    # An invalid record's sheet ends where the replay stopped, and says so (not "deals 1–1 of 1").
    stopped = (first.deal, len(rec.data["deals"])) if first is not None and first.deal is not None else None
    out = [render(game.rs, list(rec.data["players"]), game.sheet, lang, deals, stopped)]
    if game.over:
        out.append("\n" + sheet_word("winner", lang, who=rec.data["players"][game.v["winner"]]))
    from .records import conformance_note

    note = conformance_note(rec.data)
    if note:
        out.append("\n" + note)  # a counterexample says what it is evidence of
    if not verdict.valid:
        out.append("\n" + "\n".join(v.format(lang) for v in verdict.violations))
    _show("\n".join(out), args.no_pager)
    return 0 if verdict.valid else 1


def _cover_one(job: tuple[str, str | None, bytes | None]) -> Any:
    from .coverage import cover_path

    path, ruleset, data = job
    return cover_path(STDIN_NAME if data is not None else path, ruleset, data)


def _jobs(n: int) -> int:
    """--jobs as given, checked, and no more than the cores (more workers than cores only costs memory)."""
    if n < 1:
        raise UsageError(f"--jobs needs a number of processes, 1 or more, not {n}")
    return min(n, os.cpu_count() or 1)


def cmd_coverage(args: argparse.Namespace) -> int:
    from .coverage import Coverage

    if args.ruleset is not None:
        _ruleset_flag(args.ruleset)
    lang = _lang(args)
    cov = Coverage()
    workers = _jobs(args.jobs)
    files = _record_files(args.paths)
    data = _stdin_bytes() if STDIN in args.paths else None
    bar = _bar(len(files))
    try:
        for part in _results([(str(p), args.ruleset, data if str(p) == STDIN else None) for p in files], workers,
                             _cover_one):
            cov.add(part)
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    if args.format == "json":
        print(json.dumps(cov.to_json(), ensure_ascii=False, indent=1))
    else:
        print(_coverage_text(cov, lang, table=not args.quiet))
    # The exit code says what the report covers, not whether the records are valid: a record that breaks a
    # rule is counted up to its violation (and named), one that cannot be read is left out (and named).
    if cov.files == len(cov.unreadable):
        return 2  # no record could be read: there is nothing to report
    return 1 if cov.unreadable else 0


# Coverage's own words (rule ids stay as they are).
_COVERAGE: dict[str, dict[str, str]] = {
    "rule": {"en": "rule", "ru": "правило"},
    "ran": {"en": "ran", "ru": "шло"},
    "fired": {"en": "fired", "ru": "сработало"},
    "ruleset": {"en": "ruleset {name}{overlays}: {rules}, the rule ids `thousand check` counts",
                "ru": "набор правил {name}{overlays}: {rules} — те же, что считает `thousand check`"},
    "with": {"en": " with {overlays}", "ru": " с дополнениями {overlays}"},
    "summary": {"en": "in {records}, of the {rules} rules of the game with logic or values: {ran} ran, {fired} fired",
                "ru": "записей: {records}; правил игры с логикой или значениями: {rules}, из них шло {ran}, "
                      "сработало {fired}"},
    "never_ran": {"en": "never ran:", "ru": "ни разу не шли:"},
    "never_fired": {"en": "ran but never fired (never forbade, never changed the game):",
                    "ru": "шли, но ни разу не сработали (ничего не запретили и не изменили в игре):"},
    "informal": {"en": "not formalised (no logic or values to exercise):",
                 "ru": "не формализованы (нет логики или значений, которые можно проверить):"},
    "hints": {"en": "not rules of the game (not counted):", "ru": "не правила игры (не считаются):"},
    "invalid": {"en": "{records} broke a rule, counted up to the violation:",
                "ru": "нарушают правило ({records}), подсчитаны до нарушения:"},
    "unreadable": {"en": "{records} could not be read, not counted:",
                   "ru": "не читаются ({records}), не подсчитаны:"},
}


def _coverage_text(cov: Any, lang: str = "en", table: bool = True) -> str:
    def w(key: str, **fmt: Any) -> str:
        return _COVERAGE[key][lang].format(**fmt)

    ran, fired = cov.counts.ran, cov.counts.fired
    every = cov.every()
    lines: list[str] = []
    if table:
        width = max([len(w("rule")), *map(len, every)]) + 2
        lines.append(f"{w('rule'):{width}} {w('ran'):>9} {w('fired'):>9}")
        lines += [f"{rid:{width}} {ran[rid]:>9} {fired[rid]:>9}" for rid in every]
        lines.append("")
    for seen in cov.rulesets.values():
        with_overlays = w("with", overlays=", ".join(seen.overlays)) if seen.overlays else ""
        lines.append(w("ruleset", name=seen.name, overlays=with_overlays, rules=count(len(seen.rules), "rule", lang)))
    informal, hints = cov.not_formalised(), cov.not_normative()
    formal = len(every) - len(informal) - len(hints)
    never_ran, never_fired = cov.never_ran(), cov.never_fired()
    lines.append(w("summary", records=count(cov.files, "record") if lang == "en" else cov.files, rules=formal,
                   ran=formal - len(never_ran), fired=formal - len(never_ran) - len(never_fired)))
    if never_ran:
        lines.append(w("never_ran") + " " + ", ".join(never_ran))
    if never_fired:
        lines.append(w("never_fired") + " " + ", ".join(never_fired))
    if informal:
        lines.append(w("informal") + " " + ", ".join(informal))
    if hints:
        lines.append(w("hints") + " " + ", ".join(hints))
    if cov.invalid:
        lines.append(w("invalid", records=count(len(cov.invalid), "record", lang)))
        lines += [f"    {v}" for _, v in cov.invalid]
    if cov.unreadable:
        lines.append(w("unreadable", records=count(len(cov.unreadable), "record", lang)))
        lines += [f"    {e}" for _, e in cov.unreadable]
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

    lang = _lang(args)
    print(format_rulesets(list_rulesets(lang), lang))
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from .compare import explain, explain_dossier

    name = _ruleset_flag(args.name, "explain")
    if args.dossier:
        from .dossier import missing
        from .ruleset import load_ruleset

        _show(explain_dossier(name, _lang(args)), args.no_pager)
        return 1 if missing(load_ruleset(name)) else 0
    _show(explain(name, _lang(args)), args.no_pager)
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from .compare import diff, format_diff

    d = diff(_ruleset_flag(args.a, "diff"), _ruleset_flag(args.b, "diff"))
    if args.format == "json":
        print(json.dumps(d, ensure_ascii=False, indent=1))
    else:
        print(format_diff(d, _lang(args)))
    return 0


def cmd_conform(args: argparse.Namespace) -> int:
    import math

    from .conform.engines import OracleEngine, SubprocessEngine
    from .conform.harness import run_conformance

    def seconds(name: str, value: float, zero: bool = False) -> float:
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise UsageError(f"{name} needs a finite number of seconds{'' if zero else ' above 0'}, not {value:g}")
        return value

    if not args.engine.strip():
        raise UsageError("--engine needs a command that starts the engine (or 'oracle'), not an empty string")
    timeout = seconds("--timeout", args.timeout)
    start_timeout = seconds("--start-timeout", args.start_timeout)
    shrink = seconds("--shrink-seconds", args.shrink_seconds, zero=True)
    budget = seconds("--time", args.time) if args.time is not None else None
    for name, value in (("--examples", args.examples), ("--deals", args.deals),
                        ("--max-disagreements", args.max_disagreements),
                        ("--shrink-examples", 1 if args.shrink_examples is None else args.shrink_examples)):
        if value < 1:
            raise UsageError(f"{name} needs a whole number of at least 1, not {value}")
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
    _ruleset_from_flags(args.ruleset, overlays, params)  # a bad ruleset, overlay or parameter: named before any run
    if args.engine == "oracle":
        engine: Any = OracleEngine(args.ruleset, overlays, params)
    else:
        engine = SubprocessEngine(args.engine, timeout=timeout, start_timeout=start_timeout)
    try:
        report = run_conformance(engine, args.ruleset, examples=args.examples, seed=args.seed,
                                 max_deals=args.deals, out_dir=out, shrink_seconds=shrink, time_limit=budget,
                                 shrink_examples=args.shrink_examples,
                                 max_disagreements=args.max_disagreements, overlays=overlays, params=params,
                                 exclude=args.exclude or [], on_progress=None if args.quiet else
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

    return serve_main(args.ruleset, args.mutant, args.overlay or [], _param_pairs(args.set or []))


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
    sys.stdout = _Output(stdout)
    try:
        code = int(COMMANDS[args.command](args))
        sys.stdout.flush()  # a full disk shows here, not as the interpreter exits
        return code
    except UsageError as exc:
        print(f"thousand {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OracleError as exc:
        if isinstance(exc, OutputError):
            _drop_output(stdout)
        print(f"thousand: error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Output piped into `head` and the like: stop quietly.
        _drop_output(stdout)
        sys.stderr.close()
        return 0
    except Exception as exc:
        print(f"thousand: internal error ({type(exc).__name__}: {exc}); please report it with the command line",
              file=sys.stderr)
        return EXIT_INTERNAL
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
