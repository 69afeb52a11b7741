"""Bad rule files never crash the oracle and never exhaust the machine.

One test per family the fuzzing campaign found, then a Hypothesis fuzz that mutates the
real rule files (structure, types, values, logic, encodings, sizes). Each mutated file
goes through the reader (safe YAML with limits), its JSON Schema and the rule-language
parser; a sample is compiled with the whole ruleset. Briefly in CI; with THOUSAND_DEEP=1
it mutates 10,000 rule files and prints its figures.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest
from bad_input import CEILING, ROOT, assert_user_error, digest, run
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from rules_tree import copy_rules, edit

from oracle import rulecache
from oracle.cli import main
from oracle.errors import OracleError, RuleFileError
from oracle.lang.parser import parse
from oracle.limits import MAX_EXPR_DEPTH, MAX_RULE_FILE_BYTES
from oracle.rulefile import load_doc
from oracle.ruleset import load_ruleset
from oracle.yamlpos import PosStr

DEEP = bool(os.environ.get("THOUSAND_DEEP"))
EXAMPLES = int(os.environ.get("THOUSAND_FUZZ_RECORDS") or (10_000 if DEEP else 40))  # how many mutated inputs
FOLLOW = "spec/play/follow-suit.yaml"
GUARD = "forbid: len(trick) > 0 and suit(card) != led and holds_suit(actor, led)"
TRICK_DO = "spec/play/trick-resolution.yaml"


@pytest.fixture
def tree(tmp_path):
    return copy_rules(tmp_path)


def load_error(tree: Path) -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    return info.value


def check(tree: Path, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setenv("THOUSAND_RULES_ROOT", str(tree))
    code = main(["check", "classic"])
    out = capsys.readouterr()
    return code, out.out + out.err


# --------------------------------------------------------------------------- the families

@pytest.mark.parametrize(("label", "new"), [
    ("an integer of 5,000 digits", "forbid: len(trick) > " + "9" * 5000),
    ("300 chained not", "forbid: " + "not " * 300 + "true"),
    ("a 2,000-term and", "forbid: " + " and ".join(["len(trick) > 0"] * 2000)),
    ("a 1,000-deep bracket", "forbid: " + "(" * 1000 + "true" + ")" * 1000),
])
def test_deep_or_huge_logic_is_refused_with_the_limit_named(tree, monkeypatch, capsys, label, new):
    edit(tree, FOLLOW, GUARD, new)
    code, out = check(tree, monkeypatch, capsys)
    if label == "a 1,000-deep bracket":
        # Brackets do not nest the parsed logic: this one is simply `true`, and compiles; check then plays
        # a game and finds that a guard forbidding every card leaves no action to take.
        load_ruleset("classic", root=tree)
        assert code == 2 and "no legal action in phase 'play'" in out, out
        return
    assert_user_error(code, out, FOLLOW)
    assert "follow-suit.yaml:20:" in out
    assert ("30 digits" in out) if "digits" in label else (f"more than {MAX_EXPR_DEPTH} levels" in out)


def test_a_thousand_nested_for_blocks_are_refused_at_their_line(tree, monkeypatch, capsys):
    text = (tree / TRICK_DO).read_text(encoding="utf-8")
    start = text.index("    do: |\n") + len("    do: |\n")
    nested = "".join("      " + "  " * 0 + "for x in seats do\n" for _ in range(1000)) + "      x = 1\n" + \
        "      end\n" * 1000
    (tree / TRICK_DO).write_text(text[:start] + nested + text[start:], encoding="utf-8")
    code, out = check(tree, monkeypatch, capsys)
    assert_user_error(code, out, TRICK_DO)
    assert f"more than {MAX_EXPR_DEPTH} levels" in out


def test_logic_just_inside_the_limit_compiles(tree):
    edit(tree, FOLLOW, GUARD, "forbid: " + "not " * 90 + "(len(trick) > 0)")
    assert load_ruleset("classic", root=tree).name == "classic"


@pytest.mark.parametrize(("label", "text", "words"), [
    ("an integer of 5,000 digits", "extra: " + "9" * 5000, "30 digits"),
    ("a key that is a list", "? [a]\n: 1", "a key must be"),
    ("a key that is a flow list", "x: {[1]: 2}", "a key must be"),
    ("!!int x", "x: !!int x", "cannot be read as int"),
    ("!!float x", "x: !!float x", "cannot be read as float"),
    ("!!bool maybe", "x: !!bool maybe", "cannot be read as bool"),
    ("!!binary", "x: !!binary aGk=", "not allowed"),
    ("a Python tag", "x: !!python/object/apply:os.system [ls]", "not allowed"),
    ("an alias to itself", "x: &a [*a]", "refers to the list or mapping that contains it"),
    ("5,000-deep YAML", "x: " + "[" * 5000 + "]" * 5000, "levels deep"),
    ("500-deep block YAML", "".join(" " * i + "a:\n" for i in range(500)) + " " * 500 + "a: 1", "levels deep"),
])
def test_unreadable_rule_files_are_located(tree, monkeypatch, capsys, label, text, words):
    p = tree / FOLLOW
    p.write_text(p.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")
    code, out = check(tree, monkeypatch, capsys)
    assert_user_error(code, out, FOLLOW)
    assert words in out, (label, out)


def test_a_timestamp_is_read_as_the_text_written(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("id: x\ndate: 2001-12-14\nwhen: !!timestamp x\n", encoding="utf-8")
    from oracle.yamlpos import RULE_LOADER, load_yaml_text

    assert load_yaml_text(p.read_text(encoding="utf-8"), "x.yaml", RULE_LOADER) == {"id": "x", "date": "2001-12-14",
                                                                                   "when": "x"}


def test_a_yaml_alias_bomb_in_a_rule_file_is_bounded_in_little_memory(tree):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    p = tree / FOLLOW
    p.write_text(p.read_text(encoding="utf-8") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    code, out, peak = run("check", "classic", env={"THOUSAND_RULES_ROOT": str(tree)})
    assert_user_error(code, out, FOLLOW)
    assert "aliases expanded" in out
    assert peak < CEILING, peak


def test_a_few_aliases_in_a_rule_file_are_fine(tmp_path):
    from oracle.yamlpos import load_yaml_text

    assert load_yaml_text("a: &a [1, 2]\nb: *a\n", "f.yaml") == {"a": [1, 2], "b": [1, 2]}


def test_an_oversized_rule_file_is_refused_before_reading(tree, monkeypatch, capsys):
    p = tree / "spec" / "zz-huge.yaml"
    with p.open("wb") as f:
        f.seek(60 * 1024 * 1024)
        f.write(b"\n")
    code, out = check(tree, monkeypatch, capsys)
    assert code == 2 and "zz-huge.yaml" in out and f"over {MAX_RULE_FILE_BYTES / 1e6:.0f} MB are refused" in out


def test_special_files_among_the_rules_are_not_read(tree, monkeypatch, capsys):
    os.mkfifo(tree / "spec" / "pipe.yaml")
    os.symlink("/dev/zero", tree / "spec" / "zero.yaml")
    code, out = check(tree, monkeypatch, capsys)
    assert code == 0, out  # not regular files: not rule files, and never opened


def test_rule_files_are_never_modified(tree, monkeypatch, capsys):
    before = {p: digest(p) for p in sorted(tree.rglob("*.yaml"))}
    edit(tree, FOLLOW, GUARD, "forbid: " + "not " * 300 + "true")
    before[tree / FOLLOW] = digest(tree / FOLLOW)
    check(tree, monkeypatch, capsys)
    assert {p: digest(p) for p in sorted(tree.rglob("*.yaml"))} == before


def test_a_bad_default_beyond_the_parameter_bound_is_located_in_its_file(tree, monkeypatch, capsys):
    edit(tree, "spec/bidding/max-300.yaml", "default: 300", "default: 100000000")
    code, out = check(tree, monkeypatch, capsys)
    assert_user_error(code, out, "max-300.yaml")
    assert "out of bounds" in out


# --------------------------------------------------------------------------- the fuzz

RULE_FILES = sorted(p for folder in ("spec", "variants") for p in (ROOT / folder).rglob("*.yaml"))
SNIPPETS = ["not " * 200 + "true", " and ".join(["x"] * 300), "9" * 5000, "? [a]\n: 1\n", "!!timestamp x",
            "!!int x", "!!bool maybe", "&a [*a]", "*nope", "[" * 100, "{" * 100, "\t", "\x00", "é♠Т", "x: 1",
            "- - -", "'", '"', "|", ">", "---", "...", "#", "for x in seats do", "end", "if", "then", "==",
            "range(0, 100000000)", "len(", ")", "define:", "logic:", "params:", "!!python/object:os.system ls"]
LOGIC_KEYS = {"forbid": "expr", "do": "block", "expr": "any", "when": "expr", "hint": "any", "sample": "any"}


def parse_logic(text: PosStr, start: str) -> None:
    """Parse as the compiler would: a definition, a hint or a sample may be an expression or a block."""
    if start != "any":
        parse(text, start)
        return
    try:
        parse(text, "expr")
    except RuleFileError:
        parse(text, "block")


def logic_texts(v: object, key: str = "") -> list[tuple[PosStr, str]]:
    """The rule-language texts of a loaded rule file, with what each must parse as."""
    out: list[tuple[PosStr, str]] = []
    if isinstance(v, dict):
        for k, x in v.items():
            out += logic_texts(x, str(k))
    elif isinstance(v, list):
        for x in v:
            out += logic_texts(x, key)
    elif isinstance(v, PosStr) and key in LOGIC_KEYS:
        out.append((v, LOGIC_KEYS[key]))
    return out


@st.composite
def mutated_rule_files(draw: st.DrawFn) -> tuple[Path, bytes]:
    path = draw(st.sampled_from(RULE_FILES))
    raw = path.read_bytes()
    data = bytearray(raw)
    lines = raw.split(b"\n")
    kind = draw(st.sampled_from(["bytes", "truncate", "snippet", "line", "value", "indent", "encoding", "size"]))
    if kind == "bytes":
        for _ in range(draw(st.integers(1, 6))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    elif kind == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif kind == "snippet":
        i = draw(st.integers(0, len(data)))
        data[i:i] = draw(st.sampled_from(SNIPPETS)).encode()
    elif kind == "line":  # delete, duplicate or swap whole lines
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        data = bytearray(b"\n".join(lines))
    elif kind == "value":  # replace what follows a key with another value
        keyed = [i for i, line in enumerate(lines) if b": " in line] or [0]
        i = draw(st.sampled_from(keyed))
        head = lines[i].split(b": ", 1)[0]
        value = draw(st.one_of(st.sampled_from(SNIPPETS), st.integers(-(10**40), 10**40).map(str),
                               st.sampled_from(["true", "null", "[]", "{}", "x", "-1", "0", "1.5", "''"])))
        lines[i] = head + b": " + value.encode()
        data = bytearray(b"\n".join(lines))
    elif kind == "indent":
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = draw(st.sampled_from([b" ", b"\t", b"   "])) + lines[i]
        data = bytearray(b"\n".join(lines))
    elif kind == "encoding":
        data = bytearray(raw.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "cp1251", "utf-8-sig"])),
                                                    errors="replace"))
    else:
        data = bytearray(raw * draw(st.integers(2, 20)))
    return path, bytes(data)


FIGURES: Counter[str] = Counter()
# A wall-clock budget for a long run (THOUSAND_FUZZ_SECONDS): examples past it are drawn but not judged,
# and the figures say how many were judged.
BUDGET = float(os.environ.get("THOUSAND_FUZZ_SECONDS") or "inf")
STARTED: list[float] = []


def over_budget() -> bool:
    if not STARTED:
        STARTED.append(time.monotonic())
    if time.monotonic() - STARTED[0] <= BUDGET:
        return False
    FIGURES["not judged (time budget)"] += 1
    return True


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return copy_rules(tmp_path_factory.mktemp("rules"))


@pytest.fixture(scope="module", autouse=True)
def _report_figures():
    yield
    if FIGURES["files"]:
        print(f"\nrule-file fuzz: {FIGURES['files']} mutated rule files, {FIGURES['loaded']} still loaded "
              f"({FIGURES['texts']} logic texts parsed, {FIGURES['bad_logic']} refused), {FIGURES['refused']} "
              f"refused by the reader or schema, {FIGURES['compiled']} compiled with the whole ruleset "
              f"({FIGURES['compile_errors']} refused); every error located, 0 internal errors, inputs unchanged"
              + (f"; {FIGURES['not judged (time budget)']} drawn past the time budget"
                 if FIGURES["not judged (time budget)"] else ""))


def located(exc: OracleError, file: str) -> None:
    assert exc.location is not None and exc.location.line is not None, str(exc)
    assert exc.location.file in (file, "<text>") or exc.location.file.startswith(("spec/", "variants/")), str(exc)


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not DEEP,
          phases=[Phase.generate, Phase.shrink] if DEEP else [Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(mutated_rule_files(), st.randoms(use_true_random=False))
def test_mutated_rule_files_load_or_get_a_located_error(scratch, case, rnd):
    if over_budget():
        return
    original, data = case
    rel = str(original.relative_to(ROOT))
    p = scratch / rel
    p.write_bytes(data)
    rulecache.refresh(scratch)  # the scratch tree is read once per process unless told it changed
    before = digest(p)
    FIGURES["files"] += 1
    kind = "preset" if p.parent.name == "presets" else "rule"
    try:
        try:
            doc = load_doc(p, rel, kind)
        except RuleFileError as exc:
            located(exc, rel)
            FIGURES["refused"] += 1
            return
        FIGURES["loaded"] += 1
        for text, start in logic_texts(doc.data):
            FIGURES["texts"] += 1
            try:
                parse_logic(text, start)
            except RuleFileError as exc:
                located(exc, rel)
                FIGURES["bad_logic"] += 1
        # The whole ruleset is compiled for a sample only: it takes seconds.
        if rnd.random() < (0.01 if DEEP else 0.1) and FIGURES["compiled"] < (30 if DEEP else 3):
            FIGURES["compiled"] += 1
            try:
                load_ruleset("classic", root=scratch)
            except OracleError as exc:
                FIGURES["compile_errors"] += 1
                assert exc.location is not None, str(exc)
    finally:
        assert digest(p) == before
        p.write_bytes(original.read_bytes())
        rulecache.refresh(scratch)


def test_every_rule_file_as_it_is_loads_and_parses():
    for p in RULE_FILES:
        rel = str(p.relative_to(ROOT))
        doc = load_doc(p, rel, "preset" if p.parent.name == "presets" else "rule")
        for text, start in logic_texts(doc.data):
            parse_logic(text, start)
    assert len(RULE_FILES) > 100
