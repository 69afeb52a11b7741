"""Reading and validating records: bad input always gets a clear, located error, never a traceback."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle.cli import main
from oracle.errors import InputError
from oracle.records import (
    JsonLocator,
    Replayer,
    decided_by,
    load_record,
    parse_record,
    read_record,
    reading,
    refused_by,
    traced_writes,
    validate_record,
)
from oracle.records.allowed import NOTHING
from oracle.records.locator import bracket_skeleton

GOLDEN = Path(__file__).resolve().parent / "golden" / "classic"
VALID = json.loads((GOLDEN / "valid" / "seed-0.json").read_text(encoding="utf-8"))


def small(deals: int = 2) -> dict:
    rec = json.loads(json.dumps(VALID))
    rec["deals"] = rec["deals"][:deals]
    rec.pop("result", None)
    rec.pop("expect", None)
    return rec


def write(tmp_path: Path, rec: dict, name: str = "game.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
    return p


def verdict_of(tmp_path: Path, rec: dict, **kw):
    return validate_record(read_record(write(tmp_path, rec)), **kw)


def test_a_valid_prefix_of_a_game_is_valid(tmp_path):
    v = verdict_of(tmp_path, small())
    assert v.valid and v.deals == 2 and v.error is None


def test_not_json_or_yaml(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_record(p)
    assert info.value.location.line == 1 and "not valid JSON" in info.value.message


def test_truncated_file(tmp_path):
    text = json.dumps(small(), indent=1)
    p = tmp_path / "cut.json"
    p.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_record(p)
    assert info.value.location.line > 1


def test_malformed_yaml_has_a_position(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("format: thousand-record\nplayers: [A, B\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_record(p)
    assert info.value.location.line is not None


def test_wrong_types_and_unknown_fields_in_the_header(tmp_path):
    rec = small()
    rec["players"] = "A,B,C"
    with pytest.raises(InputError, match="players"):
        read_record(write(tmp_path, rec))
    rec = small()
    rec["colour"] = "red"
    with pytest.raises(InputError, match="unknown field"):
        read_record(write(tmp_path, rec))


def test_unknown_card_is_located(tmp_path):
    rec = small()
    rec["deals"][0]["actions"][-1]["card"] = "11H"
    v = verdict_of(tmp_path, rec)
    assert v.error is not None and "'11H' is not a card" in v.error.message
    text = (tmp_path / "game.json").read_text(encoding="utf-8").splitlines()
    assert '"11H"' in text[v.error.location.line - 1]


def test_duplicate_card_in_the_deal_breaks_the_pack_rule(tmp_path):
    rec = small()
    hands = rec["deals"][0]["hands"]
    hands[0][0] = hands[1][0]
    v = verdict_of(tmp_path, rec)
    assert not v.valid and v.violations[0].rule == "deal.hand-size-3p"
    assert v.violations[0].reason == "not-the-pack"


def test_wrong_hand_size(tmp_path):
    rec = small()
    rec["deals"][0]["hands"][0] = rec["deals"][0]["hands"][0][:-1]
    v = verdict_of(tmp_path, rec)
    assert v.violations[0].reason == "wrong-hand-size"


def test_unknown_seat_and_ruleset(tmp_path):
    rec = small()
    rec["deals"][0]["actions"][0]["seat"] = "Nobody"
    v = verdict_of(tmp_path, rec)
    assert "unknown player 'Nobody'" in v.error.message
    rec = small()
    rec["ruleset"] = "klassik"
    v = verdict_of(tmp_path, rec)
    assert v.error is not None and "unknown ruleset 'klassik'" in v.error.message


def test_unknown_action_field(tmp_path):
    rec = small()
    rec["deals"][0]["actions"][0]["colour"] = "red"
    v = verdict_of(tmp_path, rec)
    assert v.error is not None and "has no field 'colour'" in v.error.message


def test_oversized_file_is_refused_before_reading(tmp_path):
    p = tmp_path / "big.json"
    with p.open("wb") as f:
        f.seek(50 * 1024 * 1024)
        f.write(b"\0")
    with pytest.raises(InputError, match="records over 17 MB are refused"):
        read_record(p)


def test_deeply_nested_document(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_record(p)
    p2 = tmp_path / "deep2.json"
    rec = small()
    rec["params"] = {"x": json.loads("[" * 60 + "]" * 60)}
    p2.write_text(json.dumps(rec), encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        read_record(p2)


def _nested(depth: int, inner: object, keyed: list[bool]) -> object:
    for as_map in keyed[:depth]:
        inner = {"k": inner} if as_map else [inner]
    return inner


@given(st.integers(25, 36), st.sampled_from([None, 1, "x", "[{", '"]\\', [], {}]),
       st.lists(st.booleans(), min_size=36, max_size=36))
def test_the_quick_depth_check_of_json_text_agrees_with_walking_the_value(depth, inner, keyed):
    # The text's brackets decide most records without walking them; a string that holds brackets, quotes
    # or backslashes, and anything near the limit, is walked. The verdict must be the walk's either way.
    rec = small(1)
    rec["params"] = {"x": _nested(depth, inner, keyed)}
    text = json.dumps(rec, ensure_ascii=False)
    walked = reading._deeper_than(json.loads(text))
    if walked:
        with pytest.raises(InputError, match="nested too deeply"):
            parse_record(text, "deep.json")
    else:
        assert parse_record(text, "deep.json").data == rec
    if reading._surely_shallow(text.encode()):
        assert not walked


def test_an_ordinary_record_needs_no_walk_for_its_depth():
    assert reading._surely_shallow(json.dumps(VALID, ensure_ascii=False).encode())
    assert not reading._surely_shallow(b'{"a": "[", "b": []}')  # a bracket in a string: not sure, walked


# JSON text written by hand from a tree whose objects are lists of pairs, so a key can be written twice, with
# strings that hold the characters the reader counts (or escape them), long lists of objects (counted whole)
# and nesting up to past the limit.
_TEXTS = st.text(st.sampled_from(['a', ':', '{', '[', '}', ']', '"', '\\', 'я']), max_size=4)


def _json_tree(depth: int = 0) -> st.SearchStrategy[object]:
    leaf = st.one_of(st.integers(-5, 5), st.booleans(), st.none(), _TEXTS)
    if depth >= 6:
        return leaf
    inner = st.deferred(lambda: _json_tree(depth + 1))
    pairs = st.lists(st.tuples(st.sampled_from(["a", "b", "c:", "{d"]), inner), max_size=4)
    flat = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), leaf), max_size=3)
    objects = st.one_of(flat, pairs).map(lambda p: ("obj", p))
    # A long list that begins with a flat object: the rest objects, or now and then anything else.
    long = st.tuples(flat.map(lambda p: ("obj", p)),
                     st.lists(st.one_of(objects, objects, objects, inner), min_size=4, max_size=6))
    return st.one_of(leaf, pairs.map(lambda p: ("obj", p)), st.lists(inner, max_size=4),
                     long.map(lambda fr: [fr[0], *fr[1]]))


def _written(tree: object, escaped: bool, spaced: bool) -> str:
    colon = " : " if spaced else ":"
    if isinstance(tree, tuple):
        return "{" + ", ".join(_string(k, escaped) + colon + _written(v, escaped, spaced) for k, v in tree[1]) + "}"
    if isinstance(tree, list):
        return "[" + ", ".join(_written(x, escaped, spaced) for x in tree) + "]"
    return _string(tree, escaped) if isinstance(tree, str) else json.dumps(tree)


def _string(s: str, escaped: bool) -> str:
    out = json.dumps(s, ensure_ascii=False)
    return out.replace(":", "\\u003a").replace("{", "\\u007b").replace("[", "\\u005b") if escaped else out


@given(_json_tree(), st.booleans(), st.booleans(), st.integers(0, 34), st.sampled_from(["", "a:{[", "]}"]))
def test_the_count_of_brackets_and_colons_never_passes_a_key_written_twice_or_a_deep_record(
        tree, escaped, spaced, wrap, header):
    # The reader's quick proof (every object, list and colon of the text accounted for by a walk of the
    # value) must only ever say yes where the careful reader finds no key twice and no nesting too deep.
    for _ in range(wrap):
        tree = [tree]
    # A string the walk reads (in the top object), with or without the characters it counts.
    text = _written(("obj", [("x", tree), ("s", header)]), escaped, spaced)
    twice: list[bool] = []

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        if len(dict(pairs)) != len(pairs):
            twice.append(True)
        return dict(pairs)

    value = json.loads(text, object_pairs_hook=unique)
    containers = reading._accounted_for(value, text.encode())
    proved = containers is not None
    if proved:
        assert not twice and not reading._deeper_than(value)
    if containers:  # the count the locator is handed: with it, the closing brackets alone say what all do
        hinted = JsonLocator("r.json", text, value, containers=containers)._structural
        assert hinted == ("\\" not in text and bracket_skeleton(text.encode()) is not None)
    if not twice and "\\" not in text and not _hidden_from_the_walk(value):
        # Nothing hidden: an object at the top with no key twice is proved, unless it nests near the limit
        # (with a backslash in the text, the strings read cannot stand for the text's, as one does here).
        assert proved or reading._deeper_than(value, reading.MAX_DEPTH - 4)


def _hidden_from_the_walk(value: object) -> bool:
    """Whether the walk cannot see all of a value: a key or a string holding a counted character, or a list
    whose first item is no container while a later one is (the walk opens a list only by its first item)..."""
    if isinstance(value, dict):
        return any(_hidden_from_the_walk(k) or _hidden_from_the_walk(v) for k, v in value.items())
    if isinstance(value, list):
        containers = [isinstance(v, (dict, list)) for v in value]
        # ... and a long list of objects, the first flat (counted whole), another not
        whole = len(value) >= 5 and all(isinstance(v, dict) for v in value) and not any(
            isinstance(x, (dict, list)) for x in value[0].values())
        return ((any(containers) and not containers[0]) or any(_hidden_from_the_walk(v) for v in value)
                or (whole and any(isinstance(x, (dict, list)) for v in value for x in v.values())))
    return isinstance(value, str) and any(c in value for c in ":{[") and value != "a:{["


@pytest.mark.parametrize("text, proved", [
    ('{"a": 1, "s": ":"}', True),
    ('{"a": 1, "a": 2, "s": "\\u003a"}', False),  # the escape is a colon read, not written: it hides the key twice
    ('{"a": 1, "a": 2, "s": "\\n:"}', False),
    ('{"l": [1, {"a": 1, "a": 2}], "s": "{:"}', False),  # an object behind a number, unseen, its key twice
    ('{"l": [{}, {}, {}, {}, {"a": [], "a": 1}], "s": "["}', False),  # counted whole, a list inside
    ('{"l": [{}, {}, {}, {}, "xy"], "a": 1, "a": 1, "a": 1, "a": 1}', False),  # a text among objects: no object
])
def test_what_the_walk_reads_in_strings_never_stands_in_for_a_key_or_a_bracket(text, proved):
    value = json.loads(text)
    assert (reading._accounted_for(value, text.encode()) is not None) is proved


def test_an_ordinary_record_is_proved_whole_by_its_counts_and_a_key_twice_is_not():
    text = json.dumps(VALID, indent=1)
    assert reading._accounted_for(json.loads(text), text.encode()) is not None
    # A key twice in an action entry deep in the (long) list of actions: counted whole, and found.
    spoilt = text.replace('"action": "pass"', '"action": "pass", "seat": "x"', 1)
    assert spoilt != text and reading._accounted_for(json.loads(spoilt), spoilt.encode()) is None
    with pytest.raises(InputError, match="duplicate key 'seat'"):
        parse_record(spoilt, "r.json")
    # Colons in the header's strings are the strings' own, and do not stop the proof.
    dated = dict(VALID, date="2026-12-05T10:00:00", source="https://example.org/{game}[1]")
    text = json.dumps(dated)
    assert reading._accounted_for(json.loads(text), text.encode()) is not None


@pytest.mark.parametrize("digits", [31, 5000])
def test_a_number_with_too_many_digits_is_refused_at_its_place(tmp_path, digits):
    rec = small(1)
    rec["deals"][0]["actions"][0]["value"] = 0
    text = json.dumps(rec, indent=1).replace('"value": 0', '"value": -' + "7" * digits, 1)
    p = tmp_path / "long.json"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="more than 30 digits") as err:
        read_record(p)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "7777" in x)
    assert err.value.location.line == line


def test_thirty_digits_are_still_a_number():
    rec = small(1)
    rec["seed"] = 10 ** 30 - 1
    assert load_record(rec).data["seed"] == 10 ** 30 - 1
    rec["seed"] = -(10 ** 30)
    with pytest.raises(InputError, match="more than 30 digits"):
        load_record(rec)


def test_a_recorded_wrong_score_is_charged_to_the_scoring_rule(tmp_path):
    rec = small(1)
    rec["deals"][0]["result"]["delta"][0] += 5
    rec["deals"][0]["result"]["score"][0] += 5
    v = verdict_of(tmp_path, rec)
    first = v.violations[0]
    assert first.reason == "wrong-result" and first.rule in ("scoring.defenders", "contract.made")
    assert first.sources and first.location.line is not None


def test_wrong_dealer_is_charged_to_the_rotation_rule(tmp_path):
    rec = small()
    rec["deals"][1]["dealer"] = rec["deals"][0]["dealer"]
    v = verdict_of(tmp_path, rec)
    assert (v.violations[0].rule, v.violations[0].reason) == ("deal.rotation", "wrong-dealer")


def test_marks_are_compared_as_a_set_of_pairs_by_name_or_seat_number(tmp_path):
    """A deal's marks may be written in any order, the players by name or by seat number; a mark that is not
    the rules' is a wrong result of the record's own (the sheet's marks are what the rules gave)."""
    rec = small(10)
    deal = rec["deals"][9]["result"]
    assert len(deal["marks"]) == 3  # a marriage and two bolts
    players = rec["players"]
    deal["marks"] = [[what, players.index(who)] for what, who in reversed(deal["marks"])]
    assert verdict_of(tmp_path, rec).valid
    deal["marks"][0][1] = (deal["marks"][0][1] + 1) % 3
    v = verdict_of(tmp_path, rec)
    assert not v.valid
    assert (v.violations[0].deal, v.violations[0].reason) == (10, "wrong-marks")
    deal["marks"] = deal["marks"][1:]
    assert verdict_of(tmp_path, rec).violations[0].reason == "wrong-marks"


def test_all_errors_goes_on(tmp_path):
    rec = small()
    rec["deals"][0]["result"]["delta"][0] += 5
    rec["deals"][1]["result"]["delta"][1] += 5
    assert len(verdict_of(tmp_path, rec).violations) == 1
    assert len(verdict_of(tmp_path, rec, all_errors=True).violations) >= 2


def test_yaml_record_written_by_hand(tmp_path):
    rec = small(1)
    deal = rec["deals"][0]
    lines = ["format: thousand-record", "version: 1", "ruleset: classic", f"players: {rec['players']}",
             f"first_dealer: {rec['first_dealer']}", "deals:", f"  - dealer: {deal['dealer']}", "    hands:"]
    for name, hand in zip(rec["players"], deal["hands"], strict=True):
        lines.append(f"      {name}: {' '.join(hand)}")
    lines.append(f"    talon_cards: {' '.join(deal['talon_cards'])}")
    lines.append("    actions:")
    for a in deal["actions"]:
        lines.append("      - {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in a.items() if v is not False) + "}")
    p = tmp_path / "hand.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert validate_record(read_record(p)).valid


def test_symbols_and_russian_letters_are_accepted(tmp_path):
    rec = small(1)
    ru = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
    sym = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
    rec["deals"][0]["hands"][0] = [ru.get(c[:-1], c[:-1]) + sym[c[-1]] for c in rec["deals"][0]["hands"][0]]
    assert verdict_of(tmp_path, rec).valid


def test_hands_in_any_case_are_read_and_odd_items_are_located(tmp_path):
    # A hand written as the notation writes it is looked up in one pass; anything else card by card.
    rec = small(1)
    rec["deals"][0]["hands"][1] = [c.lower() for c in rec["deals"][0]["hands"][1]]
    rec["deals"][0]["talon_cards"] = " ".join(rec["deals"][0]["talon_cards"]).lower()
    assert verdict_of(tmp_path, rec).valid
    for odd in (["9S"], 9, None, {"card": "9S"}):
        rec = small(1)
        rec["deals"][0]["hands"][2][3] = odd
        v = verdict_of(tmp_path, rec)
        assert v.error is not None and v.error.location.line is not None, odd
        assert "hands" in v.error.message and "card" in v.error.message, v.error.message


def test_validation_never_modifies_its_input(tmp_path, capsys):
    p = write(tmp_path, small())
    before = hashlib.sha256(p.read_bytes()).hexdigest()
    assert main(["validate", str(p)]) == 0
    assert main(["replay", str(p)]) == 0
    assert hashlib.sha256(p.read_bytes()).hexdigest() == before


def test_cli_exit_codes(tmp_path, capsys):
    good = write(tmp_path, small(), "good.json")
    bad = small()
    bad["deals"][0]["result"]["delta"][0] += 5
    bad_path = write(tmp_path, bad, "bad.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["validate", str(good)]) == 0
    assert main(["validate", str(bad_path)]) == 1
    assert main(["validate", str(broken)]) == 2
    assert main(["validate", str(tmp_path / "missing.json")]) == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert main(["validate", str(tmp_path), "--format", "json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == {**report["summary"], "files": 3, "valid": 1, "invalid": 1, "unreadable": 1}


def test_parallel_validation_gives_the_same_verdicts(tmp_path, capsys):
    for i in range(4):
        write(tmp_path, small(1 + i % 2), f"g{i}.json")
    assert main(["validate", str(tmp_path), "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)["files"]
    assert main(["validate", str(tmp_path), "--format", "json", "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)["files"]
    assert one == two


MUTATIONS = st.sampled_from(["drop", "retype", "card", "truncate", "seat", "number"])


@given(data=st.data(), kind=MUTATIONS)
def test_mutated_records_get_a_verdict_or_a_clean_error(data, kind):
    rec = small(2)
    text = json.dumps(rec)
    if kind == "truncate":
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut]
    else:
        deal = rec["deals"][data.draw(st.integers(0, 1))]
        acts = deal["actions"]
        a = acts[data.draw(st.integers(0, len(acts) - 1))]
        key = data.draw(st.sampled_from(sorted(a)))
        if kind == "drop":
            del a[key]
        elif kind == "retype":
            a[key] = data.draw(st.one_of(st.none(), st.booleans(), st.integers(-5, 400), st.text(max_size=4),
                                         st.lists(st.integers(), max_size=2)))
        elif kind == "card":
            deal["hands"][0][0] = data.draw(st.text(min_size=1, max_size=3))
        elif kind == "seat":
            a["seat"] = data.draw(st.one_of(st.integers(-2, 5), st.text(max_size=3)))
        else:
            a["value"] = data.draw(st.integers(-1000, 1000))
        text = json.dumps(rec)
    try:
        rec_file = parse_record(text, "mutant.json")
    except InputError as exc:
        assert exc.location is not None and exc.message
        return
    verdict = validate_record(rec_file)
    assert verdict.valid or verdict.violations or verdict.error is not None
    if verdict.error is not None:
        assert verdict.error.message


def test_missing_hands_and_unknown_action_fields_are_located_in_json_output(tmp_path, capsys):
    rec = small()
    del rec["deals"][0]["hands"]
    p = write(tmp_path, rec, "nohands.json")
    assert main(["validate", str(p), "--format", "json"]) == 2
    err = json.loads(capsys.readouterr().out)["files"][0]["error"]
    assert "the deal needs hands" in err["message"] and err["line"] is not None
    rec = small()
    rec["deals"][0]["actions"][0]["bogus"] = 1
    p = write(tmp_path, rec, "bogus.json")
    assert main(["validate", str(p), "--format", "json"]) == 2
    err = json.loads(capsys.readouterr().out)["files"][0]["error"]
    assert "has no field 'bogus'" in err["message"] and err["line"] is not None


def test_every_input_error_of_the_validator_names_a_position():
    import ast
    import inspect

    from oracle.records import codec, reading, replay

    calls = 0
    for module in (codec, reading, replay):
        tree = ast.parse(inspect.getsource(module))
        for fn in ast.walk(tree):
            # Expanding the command line's paths has no file to point into yet.
            if not isinstance(fn, ast.FunctionDef) or fn.name in ("record_files", "_walk", "add"):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "InputError":
                    calls += 1
                    assert len(node.args) == 2 and not isinstance(node.args[1], ast.Tuple), \
                        f"{module.__name__} line {node.lineno}"
    assert calls > 20


def test_validate_record_takes_data_without_a_round_trip_through_text(tmp_path):
    rec = small()
    rec["deals"][1]["result"]["delta"][1] += 5
    from_file = verdict_of(tmp_path, rec)
    from_data = validate_record(rec, name="probe.json")
    assert [(v.rule, v.reason, v.deal) for v in from_data.violations] == \
        [(v.rule, v.reason, v.deal) for v in from_file.violations]
    assert from_data.file == "probe.json" and from_data.violations[0].location.line is None
    text = json.dumps(rec, indent=1)
    located = validate_record(json.loads(text), locator=JsonLocator("game.json", text))
    got, want = located.violations[0].location, from_file.violations[0].location
    assert (got.file, got.line, got.column) == ("game.json", want.line, want.column)


def test_data_that_is_not_a_record_gets_an_error_verdict():
    v = validate_record([1, 2], name="x.json")
    assert v.error is not None and v.exit_code == 2 and "must be a mapping" in v.error.message


def test_an_unknown_action_read_before_the_replay_starts_is_a_violation_that_allows_nothing():
    rp = Replayer(load_record(small(1), "game.json"), all_errors=True)
    assert rp.read_action({"seat": 0, "action": "dance"}, 0, 0) is None
    (v,) = rp.violations
    assert (v.reason, v.what, v.deal, v.action) == ("unknown-action", "dance", 1, 1)
    assert v.allowed == NOTHING


def test_blame_names_the_rule_that_decided_a_value_and_the_rule_that_refuses_an_action():
    rp = Replayer(load_record(small(1), "game.json"))
    rp.run()
    assert not rp.violations
    writes = traced_writes(rp.rs, rp.deal_start(0))
    assert {w.var for w in writes} >= {"delta", "score"}
    assert all(w.rule in rp.rs.rules for w in writes)
    decider = decided_by(rp.rs, rp.deal_start(0), "delta", 0)
    assert decider in {w.rule for w in writes if w.var == "delta"}
    # Watching some variables lists their writes exactly as the full trace does, in the same order (kept
    # as copies: numbers, flags, flat lists; or pickled: the engine's variables, hands).
    for names in (["delta"], ["score", "delta"], ["turn", "talon", "score"], ["hand", "tricks_won"]):
        want = [w for w in writes if w.var in names]
        assert want and traced_writes(rp.rs, rp.deal_start(0), watch=names) == want
    game = rp.new_game()
    from oracle.engine import Action

    assert refused_by(game, Action("play", 0, {"card": 0, "marriage": False})) is not None
    legal = game.legal_actions()
    assert not legal or refused_by(game, legal[0]) is None


@pytest.mark.parametrize("folder", ["classic", "mekedron-polish", "two-trading", "four-dummy"])
def test_watching_any_variables_lists_the_writes_the_full_trace_lists_in_every_golden_deal(folder):
    # A watcher lets the triggers that cannot change what it watches run untraced (by the compiler's
    # account of what each effect may change): its writes must still be the full trace's, in every deal.
    rnd = random.Random(folder)
    paths = sorted((GOLDEN.parent / folder / "valid").glob("*.json"))[:2]
    assert paths
    for path in paths:
        rp = Replayer(load_record(json.loads(path.read_text(encoding="utf-8")), path.name))
        rp.run()
        names = sorted(rp.rs.vars)
        for di in range(min(rp.deals_reached, 4)):
            start = rp.deal_start(di)
            for after_sheet in (False, True):
                writes = traced_writes(rp.rs, start, after_sheet)
                changed = sorted({w.var for w in writes})
                for _ in range(3):
                    watched = rnd.sample(changed, min(len(changed), rnd.randint(1, 3))) + rnd.sample(names, 1)
                    want = [w for w in writes if w.var in watched]
                    assert traced_writes(rp.rs, start, after_sheet, watch=watched) == want, (path.name, di, watched)


@pytest.mark.parametrize("folder", ["classic", "two-trading"])
def test_a_stepper_tells_a_watcher_what_applying_each_action_tells_it(folder):
    """A watcher hears of each traced effect and is told of each action let through untraced, in the same
    order, whether the actions go one by one (try_apply_typed) or through a stepper bound once (blame)."""
    from oracle.engine import Game, VariableWatcher

    class Log(VariableWatcher):
        def __init__(self, watched):
            super().__init__(watched)
            self.heard: list = []

        def __call__(self, effect, before, after):
            self.heard.append(("effect", effect.rule_id, after["phase"]))
            return before

        def passed(self, after):
            self.heard.append(("passed", after["phase"], len(after["hand"][0])))

    path = sorted((GOLDEN.parent / folder / "valid").glob("*.json"))[0]
    rp = Replayer(load_record(json.loads(path.read_text(encoding="utf-8")), path.name))
    rp.run()
    for di in range(min(rp.deals_reached, 3)):
        start = rp.deal_start(di)
        heard = []
        for stepped in (False, True):
            game = Game.at(start.position, Log(["score", "bolts"]))
            step = game.stepper() if stepped else game.try_apply_typed
            for parts in start.applied:
                assert step(*parts) is None
            heard.append(game.tracer.heard)
        assert heard[0] == heard[1]
        assert any(h[0] == "passed" for h in heard[0]) and any(h[0] == "effect" for h in heard[0])


@pytest.mark.parametrize("folder", ["classic", "two-trading"])
def test_a_watcher_keeps_its_own_values_and_shares_what_it_sees_within_a_ruleset(folder):
    """Blame's watcher is never handed the whole state pickled (it keeps the few values it follows), and
    what it learns of each trigger (may it change a watched variable?) is kept per ruleset and watched set,
    so the next deal explained asks nothing again: each answer kept is the one the trigger's effects give."""
    from oracle.engine import NO_STATE, Game, VariableWatcher
    from oracle.records.blame import _sees_tables, decided_by_each

    class Strict(VariableWatcher):
        def __call__(self, effect, before, after):
            assert before is NO_STATE, "a watcher is never handed the state before"
            return NO_STATE

    path = sorted((GOLDEN.parent / folder / "valid").glob("*.json"))[0]
    rp = Replayer(load_record(json.loads(path.read_text(encoding="utf-8")), path.name))
    rp.run()
    watched = frozenset({"score", "delta"} & set(rp.rs.vars))
    start = rp.deal_start(0)
    game = Game.at(start.position, Strict(watched))
    for parts in start.applied:
        assert game.try_apply_typed(*parts) is None
    decided_by_each(rp.rs, start, [(name, 0) for name in sorted(watched)])
    table = rp.rs.derived(_sees_tables)[watched]
    assert any(table.values()), "the deal's scoring was seen"
    for trigger, sees in table.items():
        assert sees == any(e.changes is None or not watched.isdisjoint(e.changes) for e in trigger.effects)
    kept = dict(table)
    for di in range(1, rp.deals_reached):
        decided_by_each(rp.rs, rp.deal_start(di), [(name, 0) for name in sorted(watched)])
    assert rp.rs.derived(_sees_tables)[watched] is table and all(table[t] == s for t, s in kept.items())


def test_values_derived_from_a_ruleset_are_kept_per_ruleset():
    from oracle.cards import notation
    from oracle.ruleset import load_ruleset

    plain = load_ruleset("classic")
    russian = load_ruleset("classic", params={"notation_suits": ["П", "Т", "Б", "Ч"]})
    assert notation(plain) is notation(plain)  # worked out once
    assert notation(plain).parse("QS") is not None and notation(plain).name(0)[-1] == "S"
    assert notation(russian).name(0)[-1] == "П"  # another ruleset, its own notation
