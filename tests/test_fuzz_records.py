"""Bad records never crash the oracle and never exhaust the machine.

First one test per family a fuzzing campaign found (each once ended in "internal error",
a hang, or gigabytes of memory), then a Hypothesis fuzz that mutates real records:
structure, types, values, cards, seats, unicode, sizes, encodings, truncation and byte
flips. Briefly in CI; with THOUSAND_DEEP=1 it mutates 100,000 records and prints its figures.
Every outcome must be a verdict or an error that names the file, line and column, and
the input file must be unchanged.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml
from bad_input import CEILING, ROOT, assert_user_error, digest, run
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from oracle import cli
from oracle.cli import main
from oracle.limits import MAX_FILES, MAX_PARAM_INT
from oracle.records import JsonLocator, parse_record, read_record, validate_record
from oracle.records.locator import bracket_skeleton

GOLDEN = ROOT / "tests" / "golden"
GAME = json.loads((ROOT / "examples" / "classic-game.json").read_text(encoding="utf-8"))
DEEP = bool(os.environ.get("THOUSAND_DEEP"))
EXAMPLES = int(os.environ.get("THOUSAND_FUZZ_RECORDS") or (100_000 if DEEP else 60))  # how many mutated inputs


def game(deals: int = 3) -> dict:
    rec = json.loads(json.dumps(GAME))
    rec["deals"] = rec["deals"][:deals]
    rec.pop("result", None)
    return rec


def put(tmp_path: Path, rec: dict | str | bytes, name: str = "game.json") -> Path:
    p = tmp_path / name
    if isinstance(rec, dict):
        rec = json.dumps(rec, ensure_ascii=False, indent=1)
    p.write_bytes(rec if isinstance(rec, bytes) else rec.encode("utf-8"))
    return p


def validate(capsys, *args: str) -> tuple[int, str]:
    code = main(["validate", *args])
    out = capsys.readouterr()
    return code, out.out + out.err


# --------------------------------------------------------------------------- the families

YAML_HEADER = "format: thousand-record\nversion: 1\nruleset: classic\nplayers: [Anna, Boris, Vera]\n"


@pytest.mark.parametrize(("name", "text"), [
    ("int.json", json.dumps(game(1)).replace('"version": 1', '"version": ' + "9" * 5000)),
    ("int.yaml", YAML_HEADER + "first_dealer: Anna\nseed: " + "7" * 5000 + "\ndeals: []\n"),
    ("key-list.yaml", YAML_HEADER + "first_dealer: Anna\n? [a]\n: 1\ndeals: []\n"),
    ("key-flow.yaml", YAML_HEADER + "first_dealer: Anna\nx: {[1]: 2}\ndeals: []\n"),
    ("timestamp.yaml", YAML_HEADER.replace("classic", "!!timestamp x") + "first_dealer: Anna\ndeals: []\n"),
    ("tag-int.yaml", YAML_HEADER + "first_dealer: Anna\nseed: !!int x\ndeals: []\n"),
    ("tag-float.yaml", YAML_HEADER + "first_dealer: Anna\nseed: !!float x\ndeals: []\n"),
    ("tag-bool.yaml", YAML_HEADER + "first_dealer: Anna\nseed: !!bool maybe\ndeals: []\n"),
    ("tag-binary.yaml", YAML_HEADER + "first_dealer: Anna\nseed: !!binary aGk=\ndeals: []\n"),
    ("nan.json", json.dumps(game(1)).replace('"version": 1', '"version": NaN')),
    ("alias.yaml", YAML_HEADER + "first_dealer: &d Anna\nx: *d\ndeals: []\n"),
])
def test_unreadable_values_are_located(tmp_path, capsys, name, text):
    p = put(tmp_path, text, name)
    code, out = validate(capsys, str(p))
    assert code == 2
    assert_user_error(code, out, name)


@pytest.mark.parametrize(("label", "mutate"), [
    ("deal is a number", lambda r: r.__setitem__("deals", [5])),
    ("deal is a list", lambda r: r.__setitem__("deals", ["dealer"])),
    ("result is text", lambda r: r["deals"][0].__setitem__("result", "x")),
    ("marks is a number", lambda r: r["deals"][0].setdefault("result", {}).__setitem__("marks", 5)),
    ("a mark is not a pair", lambda r: r["deals"][0].setdefault("result", {}).__setitem__("marks", [["x"]])),
    ("an action is a number", lambda r: r["deals"][0]["actions"].__setitem__(0, 7)),
    ("hands is text", lambda r: r["deals"][0].__setitem__("hands", {"Anna": 5})),
])
@pytest.mark.parametrize("command", ["validate", "replay", "coverage"])
def test_wrong_types_inside_deals_are_located_by_every_command(tmp_path, capsys, label, mutate, command):
    rec = game(2)
    mutate(rec)
    p = put(tmp_path, rec)
    code = main([command, str(p)])
    out = capsys.readouterr()
    assert code == 2, (label, out)
    assert_user_error(code, out.out + out.err, p.name)


def test_all_errors_goes_past_a_rejected_deal_into_later_deals_without_echoing_it(tmp_path, capsys):
    rec = game(4)
    hands = rec["deals"][1]["hands"]
    hands[0][0] = hands[1][0]  # a card twice: the deal itself is refused
    rec["deals"][3]["result"]["delta"] = [1, 2, 3]
    code, out = validate(capsys, "--all-errors", str(put(tmp_path, rec)))
    assert code == 1, out
    # The refused deal is reported once; the next deal starts from the position the record states, so
    # deal 3 is clean and deal 4's own error is found.
    assert "not-the-pack" in out and "deal 3" not in out and "deal 4" in out and "internal error" not in out
    assert out.count("the rest of this deal (") == 1


def test_a_lone_surrogate_prints_under_a_strict_encoding(tmp_path):
    rec = game(1)
    rec["players"] = ["\ud800", "Boris", "Vera"]
    p = put(tmp_path, json.dumps(rec))  # ensure_ascii: the file is ASCII, the string is not text
    code, out, _ = run("validate", "--format", "json", str(p), env={"PYTHONIOENCODING": "utf-8:strict"})
    assert code == 2 and "internal error" not in out and "Traceback" not in out
    assert json.loads(out)["files"][0]["error"]["line"] == 1


def test_a_file_name_that_is_not_utf8_prints_under_a_strict_encoding(tmp_path):
    name = os.fsdecode(b"\xff.json")
    (tmp_path / name).write_bytes(b"{not json")
    code, out, _ = run("validate", name, cwd=tmp_path, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert code == 2 and "internal error" not in out and "Traceback" not in out and "not valid JSON" in out


def test_not_utf8_is_reported_at_its_line_and_column(tmp_path, capsys):
    text = json.dumps(game(1), indent=1).encode("utf-8")
    cut = text.index(b'"Boris"') + 2
    p = put(tmp_path, text[:cut] + b"\xff" + text[cut:])
    code, out = validate(capsys, str(p))
    assert code == 2 and "not UTF-8" in out
    line = text[:cut].count(b"\n") + 1
    assert f"{p}:{line}:" in out


@pytest.mark.parametrize("value", [100_000_000, 1_000_000_000, "x", -(10**20)])
def test_a_bad_record_parameter_is_reported_at_the_records_line(tmp_path, capsys, value):
    rec = game(1)
    rec["params"] = {"max_bid": value}
    p = put(tmp_path, rec)
    code, out = validate(capsys, str(p))
    assert code == 2
    assert_user_error(code, out, p.name)
    line = next(i for i, t in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if '"max_bid"' in t)
    assert f"{p}:{line}:" in out and "<command line>" not in out and "spec/" not in out


def test_every_integer_parameter_is_bounded_when_the_ruleset_is_resolved():
    from oracle.errors import RulesetError
    from oracle.ruleset import load_ruleset

    with pytest.raises(RulesetError, match=f"within ±{MAX_PARAM_INT}"):
        load_ruleset("classic", params={"max_bid": MAX_PARAM_INT + 1})
    assert load_ruleset("classic", params={"max_bid": 400}).params["max_bid"].value == 400


def test_tab_indented_json_keeps_lines_and_columns(tmp_path):
    rec = game(2)
    rec["deals"][1]["actions"][2]["card"] = "ZZ"
    rec["deals"][1]["actions"][2]["action"] = "play"
    text = json.dumps(rec, indent="\t")
    p = put(tmp_path, text)
    verdict = validate_record(read_record(p))
    loc = verdict.error.location if verdict.error else verdict.violations[0].location
    want_line = next(i for i, t in enumerate(text.splitlines(), 1) if '"ZZ"' in t)
    assert loc.line == want_line


def test_the_json_locator_walks_to_any_value():
    rec = {"a": [1, {"b": "x\t\"y", "c": [True, None, {"d": 5}]}], "e": {}}
    for indent in (None, 1, "\t"):
        text = json.dumps(rec, indent=indent)
        loc = JsonLocator("f.json", text)
        off = loc.offset("a", 1, "c", 2, "d")
        assert text[off] == "5"
        assert text[loc.offset("a", 1, "b")] == '"'
        assert loc.offset("a", 9) == loc.offset("a")  # no such index: the nearest value found
        assert loc.offset("a", [1], "b") == loc.offset("a")  # nor such a key (one that cannot be kept, too)
        line = text.count("\n", 0, off) + 1
        assert loc.locate("a", 1, "c", 2, "d").line == line
    # A key is matched by its text, whatever the caller's type: one that cannot key the walks kept is walked.
    text = json.dumps({"a": {"[1]": 5}})
    assert text[JsonLocator("f.json", text).offset("a", [1])] == "5"


# Text that a record's strings may hold, the characters the locator's quick paths look for among them.
_TRICKY = st.text(alphabet=st.sampled_from('ab {}[],:"\\\t\u00e9'), max_size=6)
# Few names, so that one key stands in several objects, nested or not, and as a string value too; none that
# JSON escapes (so the locator's searches of the text are tried), and an escaped one added in some examples.
_NAMES = st.sampled_from(["a", "b", "deals", "x y", "{", "]", ""]) | st.text(alphabet="ab {}[],:", max_size=5)
_SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
_FLAT = st.dictionaries(_NAMES, _SCALARS | _NAMES, max_size=4)  # an action entry's shape
_JSON_VALUES = st.recursive(
    _SCALARS | _NAMES | _FLAT,
    lambda inner: (st.lists(inner, max_size=6) | st.lists(_FLAT, max_size=8)
                   | st.dictionaries(_NAMES, inner, max_size=5)),
    max_leaves=40)


def _written(value, space, path=(), out=None, where=None):
    """JSON text of ``value`` with white space drawn from ``space`` around every token, and the offset at
    which the value of every path starts: written here, apart from the locator, to check it against."""
    out = [] if out is None else out
    where = {} if where is None else where
    at = sum(map(len, out))
    where[path] = at
    gap = lambda: out.append(space.draw(st.sampled_from(["", " ", "\n", "\t ", "\r\n  "])))  # noqa: E731
    if isinstance(value, dict):
        out.append("{")
        for n, (k, x) in enumerate(value.items()):
            gap()
            out.append(("," if n else "") + json.dumps(k))
            gap()
            out.append(":")
            gap()
            _written(x, space, (*path, k), out, where)
            gap()
        out.append("}")
    elif isinstance(value, list):
        out.append("[")
        for n, x in enumerate(value):
            gap()
            if n:
                out.append(",")
                gap()
            _written(x, space, (*path, n), out, where)
            gap()
        out.append("]")
    else:
        out.append(json.dumps(value))
    return "".join(out), where


@given(value=st.dictionaries(_NAMES, _JSON_VALUES, max_size=6), escaped=st.none() | _TRICKY, space=st.data())
@settings(deadline=None)  # the profile's examples: 25 in CI, 1 000 with THOUSAND_DEEP=1
def test_the_json_locator_finds_every_value_of_generated_json_however_it_is_spaced(value, escaped, space):
    if escaped is not None:
        value[escaped] = [escaped, {escaped: escaped}]
    text, where = _written(value, space)
    assert json.loads(text) == value
    # Walking the text alone, and with the data read from it (which lets a list's items be skipped undecoded).
    for loc in (JsonLocator("f.json", text), JsonLocator("f.json", text, json.loads(text))):
        for path, off in where.items():
            assert loc.offset(*path) == off, (path, text)


# Deals as the locator meets them: objects that share their first key, which objects nested in them (an action
# entry, a result) may have as their first key too. Their strings hold no bracket, so the locator may skip
# the deals by counting braces; with ``odd``, one string somewhere in the text holds one, and it may not.
_WORDS = st.sampled_from(["dealer", "a", "b", "x y", ""]) | st.text(alphabet="ab ,:", max_size=4)
_LEAF = st.none() | st.booleans() | st.integers(-99, 99) | _WORDS
_ENTRY = st.builds(lambda first, rest: {first: 1, **rest}, _WORDS, st.dictionaries(_WORDS, _LEAF, max_size=3))
_INNER = st.recursive(_LEAF | _ENTRY, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(_WORDS, inner, max_size=3), max_leaves=12)
_DEAL = st.builds(lambda first, lead, rest: {first: lead, **rest}, st.sampled_from(["dealer", "a"]), _INNER,
                  st.dictionaries(_WORDS, _INNER | st.lists(_ENTRY, max_size=4), max_size=3))


def _paths(value, path=()):
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, x in items:
        yield from _paths(x, (*path, k))


@given(deals=st.lists(_DEAL, min_size=1, max_size=8), before=_INNER, odd=st.none() | _TRICKY,
       layout=st.sampled_from([(None, (",", ":")), (None, None), (1, None), ("\t", None), (3, (" ,", " : "))]))
@settings(deadline=None)
def test_the_items_of_a_list_of_objects_sharing_their_first_key_are_found_with_or_without_the_data(
        deals, before, odd, layout):
    value = {"before": before if odd is None else [before, odd], "deals": deals, "after": {"x": [deals[0]]}}
    indent, separators = layout
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=False)
    data = json.loads(text)
    walked = JsonLocator("f.json", text)  # the walk the test above checks against every value's true place
    paths = list(_paths(data["deals"], ("deals",)))
    for structural in (None, bracket_skeleton(text.encode()) is not None):
        loc = JsonLocator("f.json", text, data, structural=structural)
        for path in paths:
            assert loc.offset(*path) == walked.offset(*path), (path, text)
        # A locator keeps what it found for the next call: asked again in another order (deepest first, so a
        # path's beginning was walked for another path, and positions go back as well as forward), each
        # value's line and column are those of its place in the text.
        fresh = JsonLocator("f.json", text, data, structural=structural)
        for path in [*reversed(paths), *paths[::2]]:
            off = walked.offset(*path)
            where = fresh.locate(*path)
            assert (where.line, where.column) == (text.count("\n", 0, off) + 1,
                                                  off - text.rfind("\n", 0, off)), (path, text)


# Action entries as they mostly are: flat objects in text whose every bracket is structure (no string holds a
# bracket, a quote or a backslash), so the locator takes the entries before one in a single match; items that
# are not flat objects (nested values, scalars) stand among them too, where that match must fail.
_PLAIN_WORDS = st.sampled_from(["seat", "action", "card", "x y", ""]) | st.text(alphabet="ab ,:-", max_size=4)
_PLAIN_LEAF = st.none() | st.booleans() | st.integers(-99, 99) | _PLAIN_WORDS
_PLAIN_ENTRY = st.dictionaries(_PLAIN_WORDS, _PLAIN_LEAF, max_size=4)
_PLAIN_ITEM = _PLAIN_ENTRY | _PLAIN_LEAF | st.recursive(
    _PLAIN_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_PLAIN_WORDS, inner, max_size=3),
    max_leaves=6)


@given(entries=st.lists(st.one_of(_PLAIN_ENTRY, _PLAIN_ENTRY, _PLAIN_ITEM), min_size=1, max_size=12),
       space=st.data())
@settings(deadline=None)
def test_action_entries_in_text_whose_every_bracket_is_structure_are_found_where_they_start(entries, space):
    value = {"deals": [{"dealer": 0, "actions": entries}]}
    text, where = _written(value, space)
    data = json.loads(text)
    assert data == value and bracket_skeleton(text.encode()) is not None
    for loc in (JsonLocator("f.json", text, data, structural=True), JsonLocator("f.json", text)):
        for path, off in where.items():
            assert loc.offset(*path) == off, (path, text)


class _Tallied(str):
    """JSON text that tallies how many characters its ``count`` scans (the locator counts brackets and quotes)."""

    scanned = 0

    def count(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        self.scanned += max(0, end - start)
        return str.count(self, sub, start, end)


def test_the_locators_counting_scans_each_stretch_of_text_once_however_many_places_it_tries():
    # A key written last in its object, after thousands of nested objects holding a key of that name; a deal after
    # thousands of nested objects whose first key is the deals' first key. Counting each candidate's stretch from
    # the start again took time growing with the square of the file (4 s for 20 000 nested keys).
    shapes = [({"x": [{"k": i} for i in range(3000)], "k": 1}, ("k",)),
              ({"deals": [{"dealer": 0, "actions": [{"dealer": i} for i in range(3000)]}, {"dealer": 1}]},
               ("deals", 1, "dealer"))]
    for value, path in shapes:
        plain = json.dumps(value)
        text = _Tallied(plain)
        loc = JsonLocator("f.json", text, json.loads(plain), structural=True)
        off = loc.offset(*path)
        assert plain[off] == "1"
        assert 0 < text.scanned <= 5 * len(plain), (path, text.scanned, len(plain))  # five characters counted


def test_a_deal_deep_in_a_game_is_located_without_decoding_the_deals_before_it(monkeypatch):
    """The reader's locator finds the last deal's written result by the deals' first key: nothing decoded."""
    import oracle.records.locator as locator

    rec = game(40)
    text = json.dumps(rec, indent=1)
    last = len(rec["deals"]) - 1
    assert last > 30
    want = JsonLocator("g.json", text).locate("deals", last, "result", "score", 0)

    def no_decoding(*a, **k):
        raise AssertionError("a deal was decoded to be skipped")
    monkeypatch.setattr(locator._SKIP, "raw_decode", no_decoding)
    assert parse_record(text, "g.json").locate("deals", last, "result", "score", 0) == want
    assert (want.line, want.column) == (text.count("\n", 0, text.rindex('"score"')) + 2, 1 + 5)  # its first total


def test_an_error_deep_in_a_big_json_record_is_located_without_parsing_it_as_yaml(tmp_path, monkeypatch):
    rec = game(38)
    rec["deals"] = rec["deals"] * 8  # ~ 3 MB; the game is over after the first copy
    p = put(tmp_path, json.dumps(rec, indent="\t"))

    def no_yaml(*a, **k):
        raise AssertionError("a JSON record was parsed as YAML")
    monkeypatch.setattr(yaml, "compose", no_yaml)
    verdict = validate_record(read_record(p))
    v = verdict.violations[0]
    assert v.reason == "game-over" and v.location.line > 1000


# --------------------------------------------------------------------------- files, folders, patterns

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused_before_reading(capsys, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    code, out = validate(capsys, device)
    assert code == 2 and "not a regular file" in out


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    code, out, _ = run("validate", str(fifo), timeout=60)
    assert code == 2 and "not a regular file" in out


def test_a_folder_named_as_a_file_pattern_is_walked_and_links_are_not_followed(tmp_path, capsys):
    d = tmp_path / "games"
    (d / "a").mkdir(parents=True)
    put(d / "a", game(1), "one.json")
    put(d, game(1), "two.json")
    os.symlink(d, d / "loop")  # a folder that contains itself
    os.symlink(d / "a", d / "a" / "again")
    os.symlink("missing", d / "dangling.json")
    for pattern, found in ((d, ["a/one.json", "two.json"]), (d / "**" / "*.json", ["a/one.json", "two.json"]),
                           (d / "*" / "*.json", ["a/one.json"])):
        code, out = validate(capsys, str(pattern))
        assert code == 0, out
        assert sorted(line.split(": valid")[0] for line in out.splitlines() if ": valid (" in line) == \
            [str(d / f) for f in found]


def test_the_number_of_files_is_bounded(tmp_path, monkeypatch, capsys):
    import oracle.records.reading as reading

    monkeypatch.setattr(reading, "MAX_FILES", 3)
    for i in range(5):
        put(tmp_path, game(1), f"g{i}.json")
    code, out = validate(capsys, str(tmp_path))
    assert code == 2 and "more than 3" in out
    assert MAX_FILES >= 100_000


@pytest.mark.parametrize("jobs", ["150", "100000", "99999999999999999999999"])
def test_jobs_are_capped_at_the_cpu_count(tmp_path, capsys, monkeypatch, jobs):
    import concurrent.futures

    seen = []
    real = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers=None, **kw):
        seen.append(max_workers)
        return real(max_workers=max_workers, **kw)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    paths = [str(put(tmp_path, game(1), f"g{i}.json")) for i in range(3)]
    code, out = validate(capsys, "--jobs", jobs, *paths)
    assert code == 0, out
    assert all(n <= (os.cpu_count() or 1) for n in seen)


def test_jobs_below_one_are_refused(tmp_path, capsys):
    code, out = validate(capsys, "--jobs", "0", str(put(tmp_path, game(1))))
    assert code == 64 and "--jobs" in out  # a command-line error: nothing was read


# --------------------------------------------------------------------------- other commands

def test_explain_without_a_name_is_a_usage_error(capsys):
    assert main(["explain", ""]) == 64
    assert "needs a ruleset name" in capsys.readouterr().err


def test_check_with_a_missing_rules_root_fails(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("THOUSAND_RULES_ROOT", str(tmp_path / "nonexistent"))
    assert main(["check"]) == 2
    assert "no rule files" in capsys.readouterr().err


def test_coverage_exit_code_says_what_the_report_covers_and_the_output_names_the_files_left_out(tmp_path, capsys):
    good = put(tmp_path, game(1), "good.json")
    bad = game(1)
    next(a for a in bad["deals"][0]["actions"] if a["action"] == "bid")["value"] = 104
    invalid = put(tmp_path, bad, "invalid.json")
    unreadable = put(tmp_path, "{", "broken.json")
    assert main(["coverage", str(good)]) == 0
    capsys.readouterr()
    # A record that breaks a rule is counted up to the violation: the report is whole, and says so.
    assert main(["coverage", str(good), str(invalid)]) == 0
    out = capsys.readouterr().out
    assert "1 record broke a rule, counted up to the violation:" in out and "invalid.json" in out
    assert "bid value=104" in out
    # One that cannot be read is left out of the report: 1, and named.
    assert main(["coverage", str(good), str(invalid), str(unreadable)]) == 1
    out = capsys.readouterr().out
    assert "1 record could not be read, not counted:" in out and "broken.json" in out
    assert main(["coverage", str(unreadable)]) == 2  # nothing to report
    capsys.readouterr()
    assert main(["coverage", str(good), str(invalid), str(unreadable), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [f["file"] for f in data["invalid"]] == [str(invalid)]
    assert [f["file"] for f in data["unreadable"]] == [str(unreadable)] and data["files"] == 3


@pytest.mark.parametrize(("value", "words"), [("9" * 5000, "30 digits"), ("&a [*a]", "refers to"),
                                              ("[" * 5000, "levels deep"), ("!!int x", "cannot be read")])
def test_a_bad_set_value_on_the_command_line_is_refused(capsys, value, words):
    assert main(["play", "--set", f"max_bid={value}"]) == 64
    err = capsys.readouterr().err
    assert words in err and "internal error" not in err


# --------------------------------------------------------------------------- memory and time

def test_a_yaml_alias_bomb_record_is_refused_in_little_memory(tmp_path):
    lines = [YAML_HEADER + "first_dealer: Anna\ndeals: []\n", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    p = put(tmp_path, "\n".join(lines) + "\n", "bomb.yaml")
    code, out, peak = run("validate", str(p))
    assert code == 2 and "aliases" in out
    assert_user_error(code, out, "bomb.yaml")
    assert peak < CEILING, peak


def test_dev_zero_and_a_huge_sparse_file_stay_under_the_memory_ceiling(tmp_path):
    sparse = tmp_path / "huge.json"
    with sparse.open("wb") as f:
        f.seek(4 * 1024**3)
        f.write(b"}")
    code, out, peak = run("validate", "/dev/zero", str(sparse))
    assert code == 2 and "not a regular file" in out and "are refused" in out
    assert peak < CEILING, peak


def test_a_full_size_record_stays_under_the_memory_ceiling(tmp_path):
    from oracle.limits import MAX_RECORD_BYTES

    rec = game(38)
    one = len(json.dumps(rec["deals"]))
    rec["deals"] = rec["deals"] * max(1, int(MAX_RECORD_BYTES * 0.95) // one)
    p = put(tmp_path, json.dumps(rec))
    assert p.stat().st_size <= MAX_RECORD_BYTES
    code, out, peak = run("validate", "--all-errors", str(p), timeout=300)
    assert code == 1 and "game-over" in out
    assert peak < CEILING, peak


# --------------------------------------------------------------------------- the fuzz

def _bases() -> list[tuple[str, bytes, str]]:
    """Short real records (the fuzz must be quick per example): the examples, and golden records cut early."""
    out = [("first-deal.yaml", (ROOT / "examples" / "first-deal.yaml").read_bytes()),
           ("three-deals.json", json.dumps(game(3), indent=1).encode())]
    # CI compiles one ruleset; the deep run mutates records of five.
    for ruleset in ("classic", "tysiac", "two-bank", "four-dummy", "1k") if DEEP else ("classic",):
        files = sorted((GOLDEN / ruleset / "invalid").glob("*.json"))
        for p in files[:: max(1, len(files) // 6)]:
            rec = json.loads(p.read_text(encoding="utf-8"))
            rec.pop("expect", None)
            if sum(len(d.get("actions", [])) for d in rec["deals"]) <= 120:
                out.append((f"{ruleset}-{p.name}", json.dumps(rec, ensure_ascii=False).encode()))
    # Each base also as JSON text of its content, to copy it quickly (YAML is parsed once, here).
    return [(name, raw, json.dumps(yaml.safe_load(raw) if name.endswith(".yaml") else json.loads(raw)))
            for name, raw in out]


BASES = _bases()
CARDISH = ["10H", "QS", "AD", "9C", "JJ", "11H", "", "Q", "♠A", "Т♥", "10h", "KD KD", "QS QS QS"]
NAMES = ["Anna", "P1", "P2", "P3", "Vera", "", "P9", "Ω", "\ud800", "Anna\x00"]
# Parameters and rulesets come from short lists: each new combination compiles a ruleset (seconds, memory).
PARAMS = [{}, {"max_bid": 400}, {"max_bid": 10**9}, {"max_bid": "x"}, {"nope": 1}, {"target": -5},
          {"ranks": []}, {"players": 9}, {"bid_step": 0}, {"max_bid": None}, {"cut_modelled": True}]
RULESETS = ["classic", *(["tysiac", "1k", "two-bank"] if DEEP else []), "no-such", "", "../../etc/passwd",
            "classic\x00"]
SNIPPETS = [b"? [a]\n: 1\n", b"x: !!timestamp x\n", b"x: !!int x\n", b"x: !!bool maybe\n", b"{[1]: 2}",
            b"&a [*a]", b"*a", b"x: &a [1]\ny: [*a, *a]\n", b"\t", b"\xff", b"\xef\xbb\xbf", b"\x00", b"[" * 200,
            b"{" * 50, b'"\\ud800"', b"9" * 5000, b"1e999999", b"NaN", b"---\n", b"...\n", b"%YAML 1.1\n",
            b"!!python/object:os.system ls\n", b"\r\n", "é♠Т".encode()]
KINDS = ["value", "value", "delete", "insert", "card", "seat", "header", "bytes", "truncate", "snippet", "format",
         "encoding", "size"]


def random_value(rng: random.Random, depth: int = 0) -> object:
    """A JSON-ish value: the scalars that break readers most often, and small lists and mappings of them."""
    pick = rng.randrange(16 if depth < 2 else 13)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick in (2, 3):
        return rng.randint(-3, 400)
    if pick == 4:
        return rng.randint(-(10**40), 10**40)
    if pick == 5:
        return rng.choice([0.5, -0.0, 1e308, float("inf"), float("nan"), 1e-300])
    if pick in (6, 7):
        return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x400, 0x450), rng.randrange(0, 32),
                                       rng.randrange(0xD800, 0xE000), rng.randrange(0x1F000, 0x1F100)]))
                       for _ in range(rng.randrange(7)))
    if pick in (8, 9):
        return rng.choice(CARDISH + NAMES)
    if pick == 10:
        return "9" * 5000
    if pick == 11:
        return "x" * 100_000
    if pick == 12:
        return rng.choice(["deal", "play", "bid", "pass", "hands", "result", "marks", "seat", "action"])
    if pick in (13, 14):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {str(random_value(rng, 2)): random_value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _paths(v: object, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(v, dict):
        for k, x in v.items():
            if k != "params":
                out += _paths(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _paths(x, (*path, i))
    return out


def _get(v: object, path: tuple) -> object:
    for k in path:
        v = v[k]  # type: ignore[index]
    return v


def mutate(name: str, raw: bytes, data: str, kind: str, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of a base record (``data`` is its content as JSON text, to copy quickly)."""
    suffix = name.rsplit(".", 1)[1]
    if kind in ("bytes", "truncate", "snippet", "encoding"):
        buf = bytearray(raw)
        if kind == "bytes":
            for _ in range(rng.randint(1, 8)):
                buf[rng.randrange(len(buf))] = rng.randrange(256)
        elif kind == "truncate":
            buf = buf[: rng.randint(0, len(buf))]
        elif kind == "snippet":
            i = rng.randint(0, len(buf))
            buf[i:i] = rng.choice(SNIPPETS)
        else:
            codec = rng.choice(["utf-16", "latin-1", "utf-8-sig", "cp1251"])
            buf = bytearray(raw.decode("utf-8").encode(codec, errors="replace"))
        return f"m.{suffix}", bytes(buf)
    rec = json.loads(data)
    if kind == "header":
        field = rng.choice(["params", "ruleset", "overlays", "players", "first_dealer", "version", "format",
                            "start", "result", "seed"])
        if field == "params":
            rec["params"] = rng.choice(PARAMS)
        elif field == "ruleset":
            rec["ruleset"] = rng.choice(RULESETS)
        elif field == "overlays":
            rec["overlays"] = rng.choice([[], ["variant.no-such"], [5], "x", ["variant.two-bank"]])
        else:
            rec[field] = random_value(rng)
    elif kind == "size":
        rec["deals"] = (rec.get("deals") or [{}]) * rng.randint(2, 6)
    else:
        paths = _paths(rec)
        if kind == "card":
            paths = [p for p in paths if isinstance(_get(rec, p), str) and _get(rec, p)[-1:] in "HSDC"] or paths
        if kind == "seat":
            paths = [p for p in paths if p and p[-1] in ("seat", "to", "dealer", "first_dealer")] or paths
        path = rng.choice(paths)
        parent = _get(rec, path[:-1]) if path else None
        new = (rng.choice(CARDISH) if kind == "card" else rng.choice([*NAMES, 0, 1, 2, 3, -1]) if kind == "seat"
               else random_value(rng))
        if not path:
            rec = new
        elif kind == "delete":
            del parent[path[-1]]  # type: ignore[union-attr]
        elif kind == "insert" and isinstance(parent, list):
            parent.insert(path[-1], new)
        elif kind == "insert" and isinstance(parent, dict):
            parent[rng.choice(["extra", "seat", "action", "result", "hands", "marks", "value"])] = new
        else:
            parent[path[-1]] = new  # type: ignore[index]
    # YAML is read by a slower reader: it stays a small share of the mutations.
    fmt = rng.choice(["json", "json-tab", "json", "yaml"]) if kind == "format" else suffix
    if fmt == "yaml":
        try:
            return "m.yaml", yaml.safe_dump(rec, allow_unicode=True).encode("utf-8", errors="surrogatepass")
        except yaml.YAMLError:
            fmt = "json"
    text = json.dumps(rec, ensure_ascii=rng.random() < 0.5, indent="\t" if fmt == "json-tab" else None)
    return f"m.{'json' if fmt != 'yaml' else 'yaml'}", text.encode("utf-8", errors="surrogatepass")


@st.composite
def mutated_records(draw: st.DrawFn) -> tuple[str, bytes]:
    """A base record, a kind of mutation, and the seed of its details (few draws: the deep run is long)."""
    name, raw, data = draw(st.sampled_from(BASES))
    kind = draw(st.sampled_from(KINDS))
    return mutate(name, raw, data, kind, random.Random(draw(st.integers(0, 2**64 - 1))))


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


def judge(tmp: Path, name: str, data: bytes, all_errors: bool) -> None:
    """One mutated record through the validator as the command line runs it."""
    p = tmp / name
    p.write_bytes(data)
    before = digest(p)
    out = cli._validate_one((str(p), None, all_errors))
    assert "internal error" not in out["_text"], out["_text"]
    json.dumps(out, ensure_ascii=False).encode("utf-8", errors="backslashreplace")
    if "error" in out:
        err = out["error"]
        assert err["file"] == str(p), out
        # Only whole-file refusals (size) may lack a line; the fuzz never makes a file that large.
        assert err["line"] is not None and err["column"] is not None, out["_text"]
        FIGURES["unreadable"] += 1
    elif out["valid"]:
        FIGURES["valid"] += 1
    else:
        assert all(v["line"] is not None and v["file"] == str(p) for v in out["violations"]), out["_text"]
        FIGURES["invalid"] += 1
    assert digest(p) == before
    FIGURES["records"] += 1


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    """Where each mutated record is written: in memory where the system offers it (the deep run writes 100,000)."""
    import shutil
    import tempfile

    shm = Path("/dev/shm")
    d = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path_factory.mktemp("f")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module", autouse=True)
def _report_figures():
    """Print what the fuzz did after the module's tests (shown with ``pytest -s``)."""
    yield
    if FIGURES["records"]:
        print(f"\nrecord fuzz: {FIGURES['records']} mutated records, {FIGURES['valid']} valid, "
              f"{FIGURES['invalid']} invalid (every violation located), {FIGURES['unreadable']} unreadable "
              "(every error located), 0 internal errors, every input unchanged"
              + (f"; {FIGURES['not judged (time budget)']} drawn past the time budget"
                 if FIGURES["not judged (time budget)"] else ""))


@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=not DEEP,
          phases=[Phase.generate, Phase.shrink] if DEEP else [Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(mutated_records(), st.booleans())
def test_mutated_records_get_a_verdict_or_a_located_error(fuzz_dir, case, all_errors):
    if over_budget():
        return
    name, data = case
    judge(fuzz_dir, name, data, all_errors)


def test_the_unmutated_bases_get_a_verdict():
    """The fuzz starts from real records: each one, as it is, is read and judged without error."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for name, raw, _ in BASES:
            (Path(d) / name).write_bytes(raw)
            out = cli._validate_one((str(Path(d) / name), None, False))
            assert "error" not in out, out["_text"]


def test_a_childs_peak_memory_is_its_own_not_the_test_processs():
    # Linux carries a forking process's peak into its child at exec: measured naively, a test worker grown
    # large would make every child look as large (how the ceilings above once failed in the full suite).
    ballast = b"x" * (CEILING + 64 * 1024 * 1024)
    code, out, peak = run("validate", "/dev/zero")
    assert code == 2 and "not a regular file" in out
    assert peak < 200 * 1024 * 1024 < len(ballast), peak
