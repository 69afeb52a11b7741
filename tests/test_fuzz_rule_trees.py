"""Rule trees, rulesets and output targets held to the records' standard.

One test per family the second fuzzing campaign found (rule side, compile size, output errors),
then Hypothesis generators: overlays and presets written from scratch and laid over a copy of
spec/ + variants/ (resolution errors, parameter values and shapes, changes, chains of
definitions, clauses generated from the rule grammar), and command-line output targets. Each
generated tree is resolved and compiled, and when it compiles one deal is played: either it
works, or the error names the generated file, line and column (a run-time error: the failing
clause's). Briefly in CI; with THOUSAND_DEEP=1 it runs hundreds of trees and prints its figures.
"""

from __future__ import annotations

import errno
import io
import os
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from bad_input import ROOT, THOUSAND, run
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rules_tree import copy_rules, edit, write

from oracle import rulecache
from oracle.arguments import EXIT_USAGE
from oracle.cli import main
from oracle.engine import Game, play_random
from oracle.errors import OracleError, RuleFileError, RuleRuntimeError
from oracle.limits import MAX_RULESET_NODES, MAX_TEXT_NODES, MAX_YAML_RECORD_VALUES
from oracle.records.reading import read_record
from oracle.ruleset import load_ruleset

DEEP = bool(os.environ.get("THOUSAND_DEEP"))
EXAMPLES = int(os.environ.get("THOUSAND_FUZZ_TREES") or (600 if DEEP else 8))
OVERLAY = "variants/fuzz/overlay.yaml"
PRESET = "variants/presets/fz.yaml"
HEAD = "title: {en: t, ru: t}\ntext: {en: t, ru: t}\nsources: []\n"


@pytest.fixture
def tree(tmp_path):
    return copy_rules(tmp_path)


def cli(tree: Path, monkeypatch, capsys, *argv: str) -> tuple[int, str]:
    monkeypatch.setenv("THOUSAND_RULES_ROOT", str(tree))
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def overlay(tree: Path, body: str, oid: str = "variant.fuzz") -> None:
    write(tree, OVERLAY, f"id: {oid}\n{HEAD}{body}")


def preset(tree: Path, body: str, pid: str = "fz", rel: str = PRESET) -> None:
    write(tree, rel, f"id: {pid}\n{HEAD}{body}\ndossier: {{}}\n")


def at(out: str, rel: str, line: int) -> None:
    """The message is a user error located at ``rel``, on ``line``."""
    assert "internal error" not in out and "Traceback" not in out, out
    assert f"{rel}:{line}:" in out, out


# --------------------------------------------------------------------------- resolution, located

@pytest.mark.parametrize(("body", "line", "words"), [
    ("extends: no-such\noverlays: []\nset: {}", 5, "unknown ruleset 'no-such'"),
    ("extends: fz\noverlays: []\nset: {}", 5, "extends itself"),
    ("overlays: [variant.no-such]\nset: {}", 5, "unknown overlay 'variant.no-such'"),
    ("overlays: [variant.ace-marriage, variant.ace-marriage]\nset: {}", 5, "listed twice"),
    ("overlays: []\nset: {max_bid: banana}", 6, "needs a whole number"),
    ("overlays: []\nset:\n  notation_suits: [C, D, H]", 7, "one item for each suit"),
])
def test_resolution_errors_are_located_in_check_play_and_validate(tree, monkeypatch, capsys, body, line, words):
    preset(tree, body)
    for argv in (["check", "fz"], ["play", "--ruleset", "fz", "--seed", "1"]):
        code, out = cli(tree, monkeypatch, capsys, *argv)
        assert code == 2 and words in out
        at(out, PRESET, line)
    # A record of that ruleset: the fault is the preset's, not the record's 'ruleset' line.
    rec = tree / "game.yaml"
    rec.write_text((ROOT / "examples/first-deal.yaml").read_text(encoding="utf-8").replace("ruleset: classic",
                                                                                           "ruleset: fz"))
    code, out = cli(tree, monkeypatch, capsys, "validate", str(rec))
    assert code == 2 and words in out
    at(out, PRESET, line)


def test_an_unknown_ruleset_named_by_a_record_is_the_records_fault(tree, monkeypatch, capsys):
    rec = tree / "game.yaml"
    rec.write_text((ROOT / "examples/first-deal.yaml").read_text(encoding="utf-8").replace("ruleset: classic",
                                                                                           "ruleset: no-such"))
    code, out = cli(tree, monkeypatch, capsys, "validate", str(rec))
    assert code == 2 and "unknown ruleset 'no-such'" in out
    at(out, "game.yaml", 6)


def test_a_preset_cycle_through_another_is_located_where_it_closes(tree, monkeypatch, capsys):
    preset(tree, "extends: fz-b\noverlays: []\nset: {}")
    preset(tree, "extends: fz\noverlays: []\nset: {}", "fz-b", "variants/presets/fz-b.yaml")
    code, out = cli(tree, monkeypatch, capsys, "check", "fz")
    assert code == 2 and "extends itself (through fz → fz-b)" in out
    at(out, "variants/presets/fz-b.yaml", 5)


@pytest.mark.parametrize("value", ["[C, D, H]", "[]", "[S, s, D, H]"])
def test_the_notations_shape_is_checked_in_a_rule_file_and_on_the_command_line(tree, monkeypatch, capsys, value):
    code, out = cli(tree, monkeypatch, capsys, "play", "--set", f"notation_suits={value}", "--seed", "1")
    assert code == EXIT_USAGE and "internal error" not in out and "notation_suits" in out
    edit(tree, "spec/deck/notation.yaml", "default: [S, C, D, H]", f"default: {value}")
    code, out = cli(tree, monkeypatch, capsys, "check", "classic")
    assert code == 2
    at(out, "spec/deck/notation.yaml", 28)


@pytest.mark.parametrize("change", ["replace: {}", "drop: []", "define: {}"])
def test_a_change_that_changes_nothing_is_refused_at_its_line(tree, monkeypatch, capsys, change):
    overlay(tree, f"change:\n  bid.order:\n    {change}\n")
    code, out = cli(tree, monkeypatch, capsys, "check", "classic")
    assert code == 2 and "should be non-empty" in out
    at(out, OVERLAY, 7)


def test_symbolic_link_loops_in_the_rules_root_are_not_followed_round(tree, monkeypatch, capsys):
    (tree / "variants" / "bolt" / "loop").symlink_to("..")  # a folder that contains itself
    (tree / "variants" / "self.yaml").symlink_to("self.yaml")  # a file that is a link to itself
    rulecache.refresh(tree)
    code, out = cli(tree, monkeypatch, capsys, "check", "classic")
    assert code == 0, out


# --------------------------------------------------------------------------- run time, located

def test_a_clause_of_an_overlay_that_fails_is_named_at_its_own_line(tree, monkeypatch, capsys):
    overlay(tree, "logic:\n  - id: boom\n    on: bid\n    after: bid.order/record-bid\n"
                  "    forbid: speeches // (speeches - speeches) > 0\n    reason: boom\n")
    code, out = cli(tree, monkeypatch, capsys, "play", "--overlay", "variant.fuzz", "--seed", "1")
    assert code == 2 and "ZeroDivisionError" in out and "clause variant.fuzz/boom" in out
    assert "ruleset classic, deal 1, seat " in out
    at(out, OVERLAY, 6)


def test_hands_the_pack_cannot_deal_are_found_by_check(tree, monkeypatch, capsys):
    preset(tree, "overlays: []\nset: {hand_size: 8}")
    code, out = cli(tree, monkeypatch, capsys, "check", "fz")
    assert code == 2 and "ruleset fz, deal 1" in out and "wrong-hand-size" in out
    # Located at the hand-size clause, wherever the file has it.
    rel = "spec/deal/hand-size-3p.yaml"
    lines = (tree / rel).read_text(encoding="utf-8").splitlines()
    at(out, rel, 1 + next(i for i, t in enumerate(lines) if t.endswith("- id: wrong-hand-size")))


def test_a_phase_no_action_can_leave_is_found_by_check(tree, monkeypatch, capsys):
    overlay(tree, "change:\n  deal.hand-size-3p:\n    replace:\n      on-deal:\n        do: |\n"
                  "          phase = \"over\"\n")
    preset(tree, "overlays: [variant.fuzz]\nset: {}")
    code, out = cli(tree, monkeypatch, capsys, "check", "fz")
    assert code == 2 and "no legal action in phase 'over'" in out and "ruleset fz, deal 1" in out
    at(out, OVERLAY, 8)


# --------------------------------------------------------------------------- compile size

def chain(links: int, calls: int = 2) -> str:
    """Definitions each calling the one before ``calls`` times: written out, 2**links copies of the first."""
    defs = "".join(f"  d{i}:\n    args: {{x: int}}\n    returns: int\n    expr: "
                   + " + ".join([f"d{i - 1}(x)"] * calls) + "\n" for i in range(1, links + 1))
    return ("define:\n  d0:\n    args: {x: int}\n    returns: int\n    expr: x + 1\n" + defs
            + f"logic:\n  - id: c\n    on: enter bidding\n    after: bid.forced-opening-100/at-bidding\n"
              f"    do: |\n      let y = d{links}(deal_no)\n")


def test_a_chain_of_definitions_is_refused_at_its_call_in_little_time_and_memory(tree):
    overlay(tree, chain(19))
    code, out, peak = run("play", "--overlay", "variant.fuzz", "--seed", "1",
                          env={"THOUSAND_RULES_ROOT": str(tree), "THOUSAND_CACHE": "0"})
    assert code == 2 and f"more than {MAX_TEXT_NODES:,} nodes" in out, out
    at(out, OVERLAY, 5 + 4 * 20 + 6)  # the call in the clause's text, not a definition
    assert peak < 200 * 1024 * 1024


def test_a_short_chain_still_compiles_and_runs(tree):
    overlay(tree, chain(6))
    load_ruleset("classic", ["variant.fuzz"], root=tree)


def test_many_texts_each_under_the_bound_are_bounded_as_a_ruleset(tree):
    # Each clause writes out 2**11 copies: under the bound of one text, over that of a ruleset together.
    clauses = "".join(f"  - id: c{i}\n    on: enter bidding\n    after: bid.forced-opening-100/at-bidding\n"
                      f"    do: |\n      let y = d10(deal_no)\n" for i in range(MAX_RULESET_NODES // 2**11))
    overlay(tree, chain(10).split("logic:")[0] + "logic:\n" + clauses)
    with pytest.raises(RuleFileError, match="the ruleset's logic grows to more than") as info:
        load_ruleset("classic", ["variant.fuzz"], root=tree)
    assert info.value.location is not None and info.value.location.file == OVERLAY


# --------------------------------------------------------------------------- records' shapes

@pytest.mark.parametrize("shape", ["flow", "lists"])
def test_a_yaml_record_just_under_the_limit_is_refused_early_whatever_its_shape(tmp_path, shape):
    head = (ROOT / "examples/first-deal.yaml").read_text(encoding="utf-8")
    pad = ("padding: [" + ",".join(["1"] * 990_000) + "]\n" if shape == "flow"
           else "padding:\n" + "- [1, 2]\n" * 77_000)
    p = tmp_path / "big.yaml"
    p.write_text(head + pad, encoding="utf-8")
    assert p.stat().st_size < 2 * 1024 * 1024
    if shape == "flow":  # in a process of its own, to measure its memory
        code, out, peak = run("validate", str(p))
        assert code == 2 and f"more than {MAX_YAML_RECORD_VALUES:,} values" in out, out
        assert "aliases" not in out
        assert peak < 200 * 1024 * 1024
    else:
        with pytest.raises(OracleError, match=f"more than {MAX_YAML_RECORD_VALUES:,} values") as info:
            read_record(p)
        assert "aliases" not in str(info.value) and info.value.location is not None


def test_duplicate_json_keys_are_refused_at_their_line(tmp_path):
    p = tmp_path / "dup.json"
    p.write_text('{"format": "thousand-record", "version": 1, "ruleset": "classic",\n'
                 ' "players": ["A", "B", "C"], "first_dealer": "A", "deals": [{"actions": [\n'
                 '  {"seat": "A", "seat": "B", "action": "pass"}]}]}\n', encoding="utf-8")
    with pytest.raises(OracleError, match="duplicate key 'seat'") as info:
        read_record(p)
    assert info.value.location is not None and (info.value.location.line, info.value.location.column) == (3, 17)


@given(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(-10**9, 10**9), min_size=1),
       st.sampled_from(["a", "b", "c", "d"]), st.integers(0, 3), st.booleans())
@settings(max_examples=60 if DEEP else 15, deadline=None)
def test_a_key_written_twice_anywhere_in_json_is_found(tmp_path_factory, inner, dup, depth, spaced):
    import json

    colon = " : " if spaced else ":"
    obj = "{" + ", ".join(f'"{k}"{colon}{v}' for k, v in inner.items())
    twice = dup in inner
    obj += (f', "{dup}"{colon}1' if twice else "") + "}"
    for _ in range(depth):
        obj = '{"x": [' + obj + ', "a\\":"]}'  # a quote escaped before a colon, inside a text, is not a key
    text = '{"format": "thousand-record", "version": 1, "ruleset": "classic", "players": ["A", "B", "C"], ' \
           f'"first_dealer": "A", "note": {obj}, "deals": []}}'
    json.loads(text)
    p = tmp_path_factory.mktemp("dup") / "r.json"
    p.write_text(text, encoding="utf-8")
    try:
        read_record(p)
    except OracleError as exc:  # the note is no field of a record: refused for that when no key is twice
        assert ("duplicate key" in exc.message) == twice, exc.message
        assert not twice or f"duplicate key {dup!r}" in exc.message
    else:
        raise AssertionError("an unknown field was accepted")


# --------------------------------------------------------------------------- output targets

def test_play_refuses_a_player_named_twice(monkeypatch, capsys):
    assert main(["play", "--seed", "1", "--players", "a,a,a"]) == EXIT_USAGE
    assert "'a' twice" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["play", "--seed", "1", "--out", "/dev/full"],
    ["validate", "examples/classic-game.json"],
])
def test_a_full_disk_is_a_clean_exit_with_a_message(argv):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*THOUSAND, *argv], stdout=full, stderr=subprocess.PIPE, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "No space left on device" in err and "internal error" not in err and "Traceback" not in err


def test_a_closed_pipe_stops_quietly():
    proc = subprocess.Popen([*THOUSAND, "play", "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and "Traceback" not in err and "Exception ignored" not in err


class _Refusing(io.StringIO):
    """A standard output that fails as a device does: after ``after`` characters, with ``error``."""

    def __init__(self, after: int, error: OSError) -> None:
        super().__init__()
        self.after = after
        self.error = error

    def write(self, s: str) -> int:
        if self.tell() + len(s) > self.after:
            raise self.error
        return super().write(s)


class _Kept(io.StringIO):
    """Standard error that keeps its text when closed (the command closes it after a closed pipe)."""

    def close(self) -> None:
        pass


TARGETS = st.sampled_from(["folder", "full", "missing-folder", "read-only", "file", "null"])


@given(TARGETS, st.sampled_from([["rulesets"], ["validate", "examples/first-deal.yaml"], ["explain", "classic"],
                                 ["play", "--seed", "3", "--max-deals", "1"]]),
       st.integers(0, 4000), st.sampled_from([errno.ENOSPC, errno.EIO, errno.EPIPE]))
@settings(max_examples=200 if DEEP else 12, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not DEEP)
def test_output_targets_never_end_in_an_internal_error(tmp_path_factory, monkeypatch, target, argv, after, code):
    tmp = tmp_path_factory.mktemp("out")
    monkeypatch.chdir(ROOT)
    if argv[0] == "play":
        ro = tmp / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        out = {"folder": str(tmp), "full": "/dev/full", "missing-folder": str(tmp / "no" / "r.json"),
               "read-only": str(ro / "r.json"), "file": str(tmp / "r.json"), "null": "/dev/null"}[target]
        argv = [*argv, "--out", out]
    error = BrokenPipeError(code, os.strerror(code)) if code == errno.EPIPE else OSError(code, os.strerror(code))
    stdout = _Refusing(after, error)
    monkeypatch.setattr(sys, "stdout", stdout)
    err = _Kept()
    monkeypatch.setattr(sys, "stderr", err)
    result = main(argv)
    text = err.getvalue()
    assert result in (0, 2), text
    assert "internal error" not in text
    if result == 2 and code != errno.EPIPE and "--out" not in text:
        assert "cannot write the output" in text


# --------------------------------------------------------------------------- generated rule trees

SEQUENCE_REFS = ["bid.order/record-bid", "bid.order/next-bidder", "bid.forced-opening-100/at-bidding",
                 "play.follow-suit/follow-suit", "deal.hand-size-3p/on-deal", "no.such/clause"]
ONS = ["bid", "pass", "play", "deal", "enter bidding", "enter scoring", "start", "enter nowhere", "jump"]
INT_NAMES = ["speeches", "bid", "contract", "deal_no", "n_seats", "max_bid", "hand_size", "trick_no", "value"]
LIST_NAMES = ["trick", "stock", "active", "seats", "score", "hand[actor]", "passed"]
PARAMS = {"max_bid": st.integers(-10**6, 10**6), "hand_size": st.integers(-2, 12), "talon_size": st.integers(-1, 6),
          "notation_suits": st.lists(st.sampled_from(["S", "C", "D", "H", "s", ""]), max_size=6),
          "notation_ranks": st.lists(st.sampled_from(["9", "10", "J", "Q", "K", "A"]), max_size=7),
          "rank_order": st.lists(st.sampled_from(["9", "10", "J", "Q", "K", "A", "X"]), max_size=7),
          "marriage_ranks": st.lists(st.sampled_from(["K", "Q", "A"]), max_size=3),
          "card_points": st.dictionaries(st.sampled_from(["A", "10", "K", "Q", "J", "9", "X"]), st.integers(-5, 20)),
          "players": st.integers(0, 6), "bid_step": st.integers(-5, 20), "target": st.integers(-5, 2000),
          "cards_per_pass": st.integers(0, 8), "no_such_param": st.integers()}


def _int_expr(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.integers(-3, 400).map(str), st.sampled_from(INT_NAMES))
    if depth <= 0:
        return leaf
    sub = _int_expr(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "//", "%"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.sampled_from(LIST_NAMES).map(lambda n: f"len({n})"),
        st.tuples(st.sampled_from(LIST_NAMES), sub).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(_bool_expr(depth - 1), sub, sub).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(sub, sub).map(lambda t: f"sum([{t[0]}, {t[1]}])"),
        st.sampled_from(["first(trick)", "max([])", "min(score)", "position(seats, 7)"]),
    )


def _bool_expr(depth: int) -> st.SearchStrategy[str]:
    leaf = st.sampled_from(["true", "false", "game_over", "len(trick) > 0", "bidder == none"])
    if depth <= 0:
        return leaf
    ints = _int_expr(depth - 1)
    sub = _bool_expr(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(ints, st.sampled_from(["==", "!=", "<", ">=", "in"]), ints).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        st.tuples(sub, st.sampled_from(["and", "or"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        sub.map(lambda s: f"not {s}"),
        st.tuples(ints, st.sampled_from(LIST_NAMES)).map(lambda t: f"any([x == {t[0]} for x in {t[1]}])"),
    )


def _stmt() -> st.SearchStrategy[str]:
    ints = _int_expr(2)
    return st.one_of(
        ints.map(lambda e: f"let v = {e}"),
        ints.map(lambda e: f"speeches = {e}"),
        st.tuples(_bool_expr(1), ints).map(lambda t: f"if {t[0]} then\n  speeches = {t[1]}\nend"),
        st.tuples(st.sampled_from(LIST_NAMES), ints).map(lambda t: f"for x in {t[0]} do\n  speeches += {t[1]}\nend"),
        st.sampled_from(['phase = "over"', 'phase = "nowhere"', "turn = none", 'fail("a check of the rules")',
                         "move(first(stock), stock, trick)", "end_deal()"]),
    )


def _yaml(text: str) -> str:
    return "|\n" + "".join(f"      {line}\n" for line in text.splitlines())


@st.composite
def clauses(draw: st.DrawFn) -> str:
    out = []
    for i in range(draw(st.integers(0, 3))):
        cid = draw(st.sampled_from([f"c{i}", "c0", "record-bid"]))
        where = draw(st.sampled_from(["after", "before", None]))
        anchor = f"    {where}: {draw(st.sampled_from(SEQUENCE_REFS))}\n" if where else ""
        if draw(st.booleans()):
            body = f"    forbid: {_yaml(draw(_bool_expr(3)))}    reason: fuzz\n"
        else:
            body = f"    do: {_yaml(chr(10).join(draw(st.lists(_stmt(), min_size=1, max_size=3))))}"
        out.append(f"  - id: {cid}\n    on: {draw(st.sampled_from(ONS))}\n{anchor}{body}")
    return "logic:\n" + "".join(out) if out else ""


def _value(v: object) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)


@st.composite
def overlays(draw: st.DrawFn) -> str:
    parts = []
    if draw(st.booleans()):
        sets = draw(st.dictionaries(st.sampled_from(sorted(PARAMS)), st.just(0), max_size=3))
        parts.append("set:\n" + "".join(f"  {k}: {_value(draw(PARAMS[k]))}\n" for k in sets) if sets else "set: {}\n")
    if draw(st.integers(0, 4)) == 0:  # a chain of definitions, each calling the last once to three times
        parts.append(chain(draw(st.integers(0, 22)), draw(st.integers(1, 3))))
    else:
        logic = draw(clauses())
        if logic:
            parts.append(logic)
    if draw(st.integers(0, 3)) == 0:
        rid = draw(st.sampled_from(["bid.order", "deal.hand-size-3p", "no.such"]))
        cid = draw(st.sampled_from(["next-bidder", "on-deal", "record-pass", "nope"]))
        what = draw(st.sampled_from([f"replace: {{{cid}: {{do: 'speeches = 1'}}}}", "replace: {}", f"drop: [{cid}]",
                                     "drop: []", f"replace: {{{cid}: {{forbid: 'true', reason: x}}}}"]))
        parts.append(f"change:\n  {rid}:\n    {what}\n")
    for key in ("requires", "conflicts", "after"):
        if draw(st.integers(0, 5)) == 0:
            other = draw(st.sampled_from(["variant.ace-marriage", "variant.fuzz", "variant.nope"]))
            parts.append(f"{key}: [{other}]\n")
    if draw(st.integers(0, 6)) == 0:
        parts.append(f"overrides: {draw(st.sampled_from(['bid.order', 'no.such']))}\n")
    return "".join(parts)


@st.composite
def presets(draw: st.DrawFn) -> str:
    names = ["variant.fuzz", "variant.ace-marriage", "variant.dark.blind-bidding", "variant.no-such"]
    listed = draw(st.lists(st.sampled_from(names), max_size=4))
    body = ""
    if draw(st.integers(0, 3)) == 0:
        body += f"extends: {draw(st.sampled_from(['classic', 'fz', 'no-such', 'tysiac']))}\n"
    body += f"overlays: [{', '.join(listed)}]\n"
    sets = draw(st.dictionaries(st.sampled_from(sorted(PARAMS)), st.just(0), max_size=3))
    body += ("set:\n" + "".join(f"  {k}: {_value(draw(PARAMS[k]))}\n" for k in sets)) if sets else "set: {}\n"
    return body


FIGURES: Counter[str] = Counter()
# A deep run goes on past a problem, to count them all; the module fails at its end if there was one.
PROBLEMS: list[str] = []
SLOWEST: list[tuple[float, str]] = [(0.0, "")]
GENERATED = {OVERLAY, PRESET}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return copy_rules(tmp_path_factory.mktemp("trees"))


@pytest.fixture(scope="module", autouse=True)
def _report_figures():
    yield
    if FIGURES["trees"]:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"\nrule-tree fuzz: {FIGURES['trees']} generated trees, {FIGURES['compiled']} compiled and played "
              f"({FIGURES['played']} deals ran clean, {FIGURES['runtime']} stopped by a located run-time error), "
              f"{FIGURES['refused']} refused with a located error; {FIGURES['internal']} internal errors, "
              f"{FIGURES['unlocated']} unlocated, {FIGURES['mislocated']} mislocated; slowest {SLOWEST[0][0]:.2f} s "
              f"({SLOWEST[0][1]}); peak memory of the process {peak:.0f} MB")
        for problem in sorted(set(PROBLEMS))[:20]:
            print("  " + problem.replace("\n", "\n  "))
    assert not PROBLEMS, f"{len(PROBLEMS)} problem(s) in generated rule trees"


def _problem(kind: str, text: str) -> None:
    FIGURES[kind] += 1
    PROBLEMS.append(f"{kind}: {text}")
    if not DEEP:
        raise AssertionError(f"{kind}: {text}")


def _judge(exc: OracleError, generated: bool, case: str) -> None:
    loc = exc.location
    if loc is None or (loc.line is None and loc.file not in ("spec", "<command line>")):
        _problem("unlocated", f"{exc}\n{case}")
    elif generated and loc.file not in GENERATED and not isinstance(exc, RuleRuntimeError) \
            and not loc.file.startswith("spec/"):
        _problem("mislocated", f"{exc}\n{case}")


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not DEEP,
          phases=[Phase.generate, Phase.shrink] if DEEP else [Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(overlays(), presets(), st.integers(0, 2**32 - 1))
def test_generated_rule_trees_compile_and_play_or_get_a_located_error(scratch, ov, pr, seed):
    overlay(scratch, ov)
    preset(scratch, pr)
    FIGURES["trees"] += 1
    case = f"--- overlay\n{ov}--- preset\n{pr}"
    started = time.perf_counter()
    try:
        try:
            rs = load_ruleset("fz", root=scratch)
        except OracleError as exc:
            FIGURES["refused"] += 1
            _judge(exc, True, case)
            return
        FIGURES["compiled"] += 1
        rng = random.Random(seed)
        try:
            game = Game(rs, players=rs.players, dealer=rng.randrange(rs.players), seed=seed)
            play_random(game, rng, hinted=True, max_deals=1)
            FIGURES["played"] += 1
        except OracleError as exc:
            FIGURES["runtime"] += 1
            _judge(exc, False, case)
    except AssertionError:
        raise
    except Exception as exc:  # what the campaign counts
        _problem("internal", f"{type(exc).__name__}: {exc}\n{case}")
    finally:
        took = time.perf_counter() - started
        if took > SLOWEST[0][0]:
            SLOWEST[0] = (took, f"{len(ov)} + {len(pr)} bytes")
