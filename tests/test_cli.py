"""The ``thousand`` command line as a person meets it: help, version, numbering, output, paging, languages."""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import termios
import time
import tomllib
from pathlib import Path

import pytest

import oracle
from oracle import cli
from oracle.arguments import build_parser
from oracle.cli import main, wants_pager, wants_progress
from oracle.compare import list_rulesets
from oracle.places import place
from oracle.plural import count
from oracle.records import read_record, validate_record
from oracle.ruleset import load_ruleset
from oracle.sheet import parse_range

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "classic-game.json"
FIRST_DEAL = ROOT / "examples" / "first-deal.yaml"
MUST_TRUMP = ROOT / "tests" / "golden" / "classic" / "invalid" / "play.must-trump--must-trump.json"
BAD_STEP = ROOT / "tests" / "golden" / "classic" / "invalid" / "bid.step--bad-step.json"


def run(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess[str]:
    """The command line as a separate process, with this checkout's oracle first on the path."""
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "oracle", *args], capture_output=True, text=True, env=full,
                          timeout=120, cwd=ROOT, **kw)


def run_on_pty(args: list[str], stream: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run with ``stream`` ("stdout" or "stderr") on a pseudo-terminal and the other on a pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 columns wide
    full = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "dumb", **(env or {})}
    kw = {"stdout": slave, "stderr": subprocess.PIPE} if stream == "stdout" else \
        {"stdout": subprocess.PIPE, "stderr": slave}
    proc = subprocess.Popen([sys.executable, "-m", "oracle", *args], stdin=subprocess.DEVNULL, env=full, cwd=ROOT,
                            **kw)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the other end closed
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    other = (proc.stderr if stream == "stdout" else proc.stdout).read().decode()  # type: ignore[union-attr]
    proc.wait(timeout=30)
    return proc.returncode, b"".join(chunks).decode(errors="replace"), other


# --------------------------------------------------------------------------- help and version

def test_bare_command_prints_the_help_and_succeeds() -> None:
    r = run()
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: thousand")
    for command in ("validate", "replay", "play", "rulesets", "explain"):
        assert re.search(rf"^\s+{command}\s", r.stdout, re.M), command
    assert r.stderr == ""


def test_version_is_the_package_version() -> None:
    r = run("--version")
    assert r.returncode == 0
    assert r.stdout.strip() == f"thousand {oracle.__version__}"
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["version"] == oracle.__version__


def test_bad_usage_is_an_error_with_the_usage() -> None:
    r = run("no-such-command")
    assert r.returncode == 64  # a usage error, as in sysexits.h: apart from 2, a record that cannot be read
    assert "usage: thousand" in r.stderr and "invalid choice" in r.stderr


def test_every_option_of_every_subcommand_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    missing = []
    for name, p in sub.choices.items():
        if name == "conform":
            continue  # its options belong to the conformance harness's own work
        for act in p._actions:
            if act.dest != "help" and not (act.help or "").strip():
                missing.append(f"{name} {'/'.join(act.option_strings) or act.dest}")
    assert not missing, missing


# --------------------------------------------------------------------------- plurals

@pytest.mark.parametrize(("n", "en", "ru"), [
    (0, "0 deals", "0 партий"), (1, "1 deal", "1 партия"), (2, "2 deals", "2 партии"), (4, "4 deals", "4 партии"),
    (5, "5 deals", "5 партий"), (11, "11 deals", "11 партий"), (12, "12 deals", "12 партий"),
    (21, "21 deals", "21 партия"), (22, "22 deals", "22 партии"), (101, "101 deals", "101 партия"),
    (111, "111 deals", "111 партий"), (114, "114 deals", "114 партий"), (1024, "1024 deals", "1024 партии"),
])
def test_plural_forms(n: int, en: str, ru: str) -> None:
    assert count(n, "deal") == en
    assert count(n, "deal", "ru") == ru


def test_one_deal_is_not_one_deals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(FIRST_DEAL)]) == 0
    out = capsys.readouterr().out
    assert "(1 deal, 31 actions," in out and "1 deals" not in out


# --------------------------------------------------------------------------- one numbering for people

def test_a_violation_counts_deals_actions_and_seats_from_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(MUST_TRUMP)]) == 1
    doc = json.loads(capsys.readouterr().out)
    (v,) = doc["files"][0]["violations"]
    record = json.loads(MUST_TRUMP.read_text(encoding="utf-8"))
    assert (v["deal"], v["action"], v["rule"], v["reason"]) == (
        record["expect"]["deal"], record["expect"]["action"], record["expect"]["rule"], record["expect"]["reason"])
    # The seat is counted from 1, like the deal and the action, and agrees with the player's name.
    assert v["seat"] == record["players"].index(v["player"]) + 1
    acting = record["deals"][v["deal"] - 1]["actions"][v["action"] - 1]
    assert acting["seat"] == v["player"]
    assert main(["validate", str(MUST_TRUMP)]) == 1
    text = capsys.readouterr().out
    assert f"{MUST_TRUMP}:{v['line']}:{v['column']}: deal {v['deal']}, action {v['action']}, " \
           f"seat {v['seat']} ({v['player']}): play card=" in text


def test_seat_fields_of_an_action_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    bad = ROOT / "tests" / "golden" / "classic" / "invalid" / "talon.pass-cards--already-given.json"
    main(["validate", str(bad)])
    out = capsys.readouterr().out
    assert re.search(r"give card=\w+ to=P\d", out), out


def _first_deal_with(tmp_path: Path, old: str, new: str) -> tuple[Path, int, int]:
    text = FIRST_DEAL.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = text[:text.index(old)]
    return bad, before.count("\n") + 1, len(before) - before.rfind("\n")


def test_a_bad_value_names_deal_and_action_from_one_with_line_and_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = "{seat: Vera, action: announce, value: 105}"  # the 7th action of the 1st deal
    bad, line, col = _first_deal_with(tmp_path, old, "{seat: Vera, action: play, card: ZZ}")
    assert main(["validate", str(bad)]) == 2
    msg = capsys.readouterr().out
    assert re.search(rf"{re.escape(str(bad))}:{line}:\d+: deal 1, action 7, card: 'ZZ' is not a card", msg), msg
    assert "deals/" not in msg
    bad, line, col = _first_deal_with(tmp_path, old, "[announce]")
    assert main(["validate", str(bad)]) == 2
    msg = capsys.readouterr().out
    assert f"{bad}:{line}:{col}: deal 1, action 7: an action is a mapping" in msg, msg


def test_a_seat_number_out_of_range_says_how_records_count(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad, line, _ = _first_deal_with(tmp_path, "{seat: Boris, action: pass}", "{seat: 5, action: pass}")
    assert main(["validate", str(bad)]) == 2
    msg = capsys.readouterr().out
    assert re.search(rf":{line}:\d+: deal 1, action 1, seat: there is no seat number 5: a record numbers its "
                     r"seats from 0 \(0 to 2 here\)", msg), msg


def test_a_header_schema_error_is_said_the_same_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad, line, _ = _first_deal_with(tmp_path, "players: [Anna, Boris, Vera]", "players: [Anna, 7, Vera]")
    assert main(["validate", str(bad)]) == 2
    msg = capsys.readouterr().out
    assert re.search(rf"{re.escape(str(bad))}:{line}:\d+: player 2: 7 is not of type 'string'", msg), msg


@pytest.mark.parametrize(("path", "said"), [
    (("deals", 0, "actions", 6, "card"), "deal 1, action 7, card"),
    (("deals", 2, "result", "score", 1), "deal 3, result, score, seat 2"),
    (("deals", 0, "hands", 1, 3), "deal 1, hand 2, card 4"),
    (("deals", 0, "talon_cards", 0), "deal 1, talon_cards, card 1"),
    (("players", 0), "player 1"),
    ((), "the header"),
])
def test_places_count_from_one(path: tuple, said: str) -> None:
    assert place(path) == said


# --------------------------------------------------------------------------- play

def test_play_writes_one_action_per_line(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    r = run("play", "--seed", "3", "--max-deals", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    record = json.loads(text)
    actions = sum(len(d["actions"]) for d in record["deals"])
    # Indented: every action on a line of its own.
    assert sum(1 for line in text.splitlines() if line.strip().startswith('{"seat": ')) == actions
    compact = run("play", "--seed", "3", "--max-deals", "3", "--compact")
    assert compact.stdout.count("\n") == 1 and json.loads(compact.stdout) == record
    assert re.search(r"^classic: 3 deals, cut short at --max-deals 3: unfinished, no winner; scores ", r.stderr,
                     re.M), r.stderr
    # A violation in the written record points at a line of its own, not at column 2860 of line 1.
    second = text.index('"dealer"', text.index('"dealer"', text.index('"deals"')) + 1)
    at = text.index('"action": "', second) + len('"action": "')
    (tmp_path / "bad.json").write_text(text[:at] + "no-such-" + text[at:], encoding="utf-8")
    v = run("validate", "--format", "json", str(tmp_path / "bad.json"))
    (viol,) = json.loads(v.stdout)["files"][0]["violations"]
    assert (viol["deal"], viol["action"], viol["reason"]) == (2, 1, "unknown-action")
    assert viol["line"] == text[:at].count("\n") + 1 and viol["column"] < 60


def test_play_by_default_plays_games_that_end_in_tens_of_deals_as_a_clubs_do(tmp_path: Path) -> None:
    """The default bot plays each deal out before it moves: over a handful of seeded games the median game is
    won in tens of deals (the golden games' bot, --simple, needs over a hundred for these seeds), every game
    is won, and every record is valid."""
    lengths = []
    for seed in range(1, 6):
        out = tmp_path / f"{seed}.json"
        assert main(["play", "--seed", str(seed), "--out", str(out)]) == 0
        record = json.loads(out.read_text(encoding="utf-8"))
        assert record["result"]["finished"] and record["result"]["winner"] is not None, seed
        assert validate_record(read_record(out)).valid, seed
        lengths.append(len(record["deals"]))
    assert 10 <= statistics.median(lengths) < 100, lengths


# --------------------------------------------------------------------------- validate

def test_validate_prints_each_file_as_it_finishes(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    real = cli._validate_job
    seen: list[str] = []

    def spy(job: tuple) -> dict:
        # By the time the second file is validated, the first file's verdict is already printed.
        seen.append(capsys.readouterr().out)
        return real(job)

    monkeypatch.setattr(cli, "_validate_job", spy)
    assert main(["validate", str(FIRST_DEAL), str(MUST_TRUMP), str(BAD_STEP)]) == 1
    assert seen[0] == ""
    assert f"{FIRST_DEAL}: valid" in seen[1]
    assert f"{MUST_TRUMP}: INVALID" in seen[2]


def test_validate_json_is_one_document_with_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(FIRST_DEAL), str(MUST_TRUMP)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [f["valid"] for f in doc["files"]] == [True, False]
    assert doc["summary"]["files"] == 2 and doc["summary"]["invalid"] == 1
    assert all("_text" not in f for f in doc["files"])


def test_validate_in_parallel_gives_the_same_verdicts() -> None:
    files = [str(FIRST_DEAL), str(MUST_TRUMP), str(BAD_STEP)]
    one = json.loads(run("validate", "--format", "json", *files).stdout)["files"]
    two = json.loads(run("validate", "--format", "json", "--jobs", "2", *files).stdout)["files"]
    assert one == two


def test_progress_only_on_a_terminal() -> None:
    assert not wants_progress(io.StringIO(), 100)
    r, w = os.pipe()
    with os.fdopen(w, "w") as pipe:
        assert not wants_progress(pipe, 100)
    os.close(r)
    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as tty:
        assert wants_progress(tty, 100)
        assert not wants_progress(tty, 1)  # one file needs no bar
    os.close(master)


def test_progress_bar_shows_rate_and_time_left_on_a_terminal() -> None:
    files = sorted(str(p) for p in (ROOT / "tests" / "golden" / "classic" / "invalid").glob("*.json"))[:4]
    code, bar, out = run_on_pty(["validate", *files], "stderr")
    assert code == 1
    # tqdm's meter: "3/4 [00:01<00:00, 2.50file/s]", elapsed < remaining, and a rate.
    assert re.search(r"\d+/4 \[\d\d:\d\d<\d\d:\d\d, +[\d.?]+(file/s|s/file)\]", bar), bar
    assert "\r" not in out and "file/s" not in out and out.count("INVALID") == 4
    # On a pipe, no bar at all.
    piped = run("validate", *files)
    assert "file/s" not in piped.stderr and "\r" not in piped.stderr


def test_coverage_shows_the_same_bar_on_a_terminal() -> None:
    files = sorted(str(p) for p in (ROOT / "tests" / "golden" / "classic" / "invalid").glob("*.json"))[:3]
    code, bar, out = run_on_pty(["coverage", *files], "stderr")
    assert code == 0  # the records are invalid, but counted up to their violations: the report is whole
    assert "3 records broke a rule, counted up to the violation:" in out
    assert re.search(r"\d+/3 \[\d\d:\d\d<\d\d:\d\d, +[\d.?]+(file/s|s/file)\]", bar), bar
    assert "in 3 records, of the" in out


# --------------------------------------------------------------------------- replay

def test_replay_deal_range(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GAME), "--deals", "3-5"]) == 0
    out = capsys.readouterr().out
    numbers = [int(m) for m in re.findall(r"^\s*(\d+)  ", out, re.M)]
    assert numbers == [3, 4, 5]
    assert "deals 3–5 of 37" in out
    assert main(["replay", str(GAME), "--deals", "36-"]) == 0
    assert [int(m) for m in re.findall(r"^\s*(\d+)  ", capsys.readouterr().out, re.M)] == [36, 37]


def test_replay_deal_range_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GAME), "--deals", "5-3"]) == 64
    assert "--deals 5-3: write a deal number or a range" in capsys.readouterr().err
    assert main(["replay", str(GAME), "--deals", "100-200"]) == 64
    assert "the record scores 37 deals" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "got"), [("3-7", (3, 7)), ("12", (12, 12)), ("100-", (100, None)),
                                           ("-4", (1, 4))])
def test_parse_range(text: str, got: tuple) -> None:
    assert parse_range(text) == got


@pytest.mark.parametrize("text", ["0", "a-b", "7-3", "3-x", ""])
def test_parse_range_refuses(text: str) -> None:
    with pytest.raises(oracle.OracleError):
        parse_range(text)


def test_replay_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GAME), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    head = out.splitlines()[0].split()
    assert head[:3] == ["№", "сдаёт", "заказ"]
    assert "победитель: Boris" in out
    assert "★ выиграл игру" in out and "партию" not in out
    for english in ("dealer", "contract", "winner", "deals", "won"):
        assert english not in out


def test_replay_violation_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(MUST_TRUMP), "--lang", "ru"]) == 1
    out = capsys.readouterr().out
    title = load_ruleset("classic").rules["play.must-trump"].get("title")["ru"]
    assert re.search(r":\d+:\d+: партия 2, ход 26, игрок 2 \(P2\): play card=", out), out
    assert f"правило play.must-trump [must-trump]: {title}" in out
    assert "    источники: " in out and "sources:" not in out


def test_pager_only_on_a_terminal() -> None:
    assert not wants_pager(io.StringIO())
    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as tty:
        assert wants_pager(tty)
        assert not wants_pager(tty, disabled=True)
    os.close(master)


def test_replay_goes_through_the_pager_on_a_terminal_only() -> None:
    pager = {"PAGER": "sed s/^/PAGED:/"}
    code, screen, _ = run_on_pty(["replay", str(FIRST_DEAL)], "stdout", env=pager)
    assert code == 0
    assert "PAGED:  1  Vera" in screen, screen
    _, screen, _ = run_on_pty(["replay", str(FIRST_DEAL), "--no-pager"], "stdout", env=pager)
    assert "PAGED:" not in screen and "  1  Vera" in screen
    piped = run("replay", str(FIRST_DEAL), env=pager)
    assert "PAGED:" not in piped.stdout and "  1  Vera" in piped.stdout


def test_a_missing_pager_still_shows_the_text() -> None:
    code, screen, _ = run_on_pty(["replay", str(FIRST_DEAL)], "stdout", env={"PAGER": "no-such-pager-here"})
    assert code == 0 and "  1  Vera" in screen


# --------------------------------------------------------------------------- rulesets, explain, diff

def test_rulesets_have_a_players_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["ruleset", "players"]
    shown = {ln.split()[0]: int(ln.split()[1]) for ln in lines[1:] if ln and ln.split()[1].isdigit()}
    assert len(shown) == len(list_rulesets())
    for name in ("classic", "two-bank", "four-dummy"):
        assert shown[name] == load_ruleset(name).players
    assert {shown["classic"], shown["two-bank"], shown["four-dummy"]} == {2, 3, 4}
    assert lines[-1] == f"{len(shown)} rulesets"


def test_rulesets_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:2] == ["набор", "игроков"]
    assert re.search(r"^\d+ набор(а|ов)? правил$", out.splitlines()[-1])


def test_explain_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "two-bank", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "параметры (* — не по умолчанию):" in out and "дополнения:" in out
    assert "(правило bid.step; по умолчанию 5)" in out
    for english in ("parameters", "overlays", "default", "(rule ", "replaces", "set by", "follows", "extends"):
        assert english not in out, english
    # Each parameter's meaning, in Russian, under its line.
    assert "Шаг торговли." in out


def test_explain_in_english_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "classic"]) == 0
    out = capsys.readouterr().out
    assert "parameters (* = not the default):" in out and "(rule bid.step; default 5)" in out


def test_explain_dossier_lists_what_the_dossier_must_answer_for(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["explain", "classic", "--dossier", "--no-pager"]) == 0
    out = capsys.readouterr().out
    assert "0 unanswered)" in out and "MISSING" not in out
    assert "play.must-trump" in out and "[refuses: must-trump]" in out and "the rule file" in out
    # A preset whose dossier leaves a rule out: exit 1, the rule and its parameter named.
    from rules_tree import copy_rules, edit

    tree = copy_rules(tmp_path)
    edit(tree, "variants/presets/left-leads.yaml", "  play.first-lead: {sources:", "  # play.first-lead: {sources:")
    edit(tree, "variants/presets/left-leads.yaml", "  first_lead: {sources:", "  # first_lead: {sources:")
    monkeypatch.setenv("THOUSAND_RULES_ROOT", str(tree))
    assert main(["explain", "left-leads", "--dossier", "--no-pager", "--lang", "ru"]) == 1
    out = capsys.readouterr().out
    assert "без ответа: 2)" in out and "недочёты:" in out
    assert re.search(r"параметр +first_lead \(play.first-lead\) +НЕТ ОТВЕТА", out)
    assert re.search(r"правило +play.first-lead +НЕТ ОТВЕТА", out)
    assert "источник (talon_placement)" in out


def test_diff_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "classic", "two-bank", "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("classic и two-bank")
    assert "дополнение только в two-bank" in out and "параметр" in out
    assert " vs " not in out and "overlay only" not in out


# --------------------------------------------------------------------------- the test runner itself

def test_pytest_is_not_told_to_be_quiet() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "-q" not in str(cfg.get("addopts", "")).split()


def test_progress_library_is_a_declared_dependency() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert any(re.match(r"tqdm\b", d) for d in deps)


# --------------------------------------------------------------------------- conventions (issue 28)

def test_a_wrong_ruleset_flag_is_a_usage_error_before_any_record_is_read(tmp_path: Path) -> None:
    for command in (["validate", str(GAME)], ["coverage", str(GAME)], ["replay", str(GAME), "--no-pager"]):
        r = run(*command, "--ruleset", "klassik")
        assert r.returncode == 64, (command, r.stderr)
        assert "--ruleset klassik: no such ruleset; did you mean 'classic'?" in r.stderr
        assert str(GAME) not in r.stderr  # not charged to the record's line 4
    assert run("validate", "--no-such-flag", str(GAME)).returncode == 64
    assert run("validate", str(tmp_path / "missing.json")).returncode == 2  # input, not usage


def test_a_dash_reads_the_record_from_standard_input() -> None:
    text = MUST_TRUMP.read_text(encoding="utf-8")
    r = run("validate", "-", input=text)
    assert r.returncode == 1 and r.stdout.startswith("<stdin>: INVALID under ruleset classic"), r.stdout
    r = run("replay", "-", "--no-pager", input=text)
    assert r.returncode == 1 and "<stdin>:" in r.stdout and "the sheet stops before deal" in r.stdout
    assert run("coverage", "-", input=GAME.read_text(encoding="utf-8")).returncode == 0


def test_quiet_prints_only_the_summary() -> None:
    r = run("validate", "-q", str(GAME), str(MUST_TRUMP))
    assert r.returncode == 1 and "INVALID" not in r.stdout and "valid (" not in r.stdout
    assert re.search(r"^\s+2\s+1\s+1\s+0\s", r.stdout, re.M), r.stdout


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    code, out, _ = run_on_pty(["validate", str(MUST_TRUMP)], "stdout", env={"TERM": "xterm"})
    assert code == 1 and "\033[31;1mINVALID\033[0m" in out
    code, out, _ = run_on_pty(["validate", str(MUST_TRUMP)], "stdout", env={"TERM": "xterm", "NO_COLOR": "1"})
    assert code == 1 and "\033[" not in out and "INVALID" in out
    assert "\033[" not in run("validate", str(MUST_TRUMP), env={"TERM": "xterm"}).stdout  # a pipe


def test_the_locale_or_lang_gives_russian_prose_for_every_command_that_prints_it() -> None:
    ru = {"LANG": "ru_RU.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    assert "НЕВЕРНА по набору правил classic" in run("validate", str(MUST_TRUMP), env=ru).stdout
    assert "можно:" in run("validate", str(MUST_TRUMP), "--lang", "ru").stdout
    assert "записей: 1" in run("coverage", str(GAME), env=ru).stdout
    assert "правило" in run("coverage", str(GAME), "--lang", "ru").stdout
    assert "сдаёт" in run("replay", str(GAME), "--no-pager", env=ru).stdout
    en = run("replay", str(GAME), "--no-pager", "--lang", "en", env=ru).stdout
    assert not re.search("[\u0400-\u04ff]", en.split("\n\n")[-1]), en  # the English legend: no Cyrillic «М»
    assert cli.locale_lang({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US"}) == "ru"
    assert cli.locale_lang({"LC_ALL": "", "LANG": "C"}) == "en"


def test_json_keys_say_what_they_hold(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(MUST_TRUMP)]) == 1
    f = json.loads(capsys.readouterr().out)["files"][0]
    assert f["judged_to_the_end"] is False and f["record_deals"] >= f["deals_scored"]
    assert {"deals", "finished"}.isdisjoint(f) and "game_over" in f
    src = f["violations"][0]["sources"][0]
    assert "seed" not in src and src["source_file"].endswith(".txt") and src["label"].startswith("F")


def test_a_game_cut_at_max_deals_says_so_in_play_and_in_validate(tmp_path: Path) -> None:
    out = tmp_path / "cut.json"
    r = run("play", "--seed", "3", "--max-deals", "3", "--out", str(out))
    assert r.returncode == 0 and "cut short at --max-deals 3: unfinished" in r.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["result"]["finished"] is False
    v = run("validate", str(out))
    assert v.returncode == 0 and "the game is not finished" in v.stdout
