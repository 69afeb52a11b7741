"""The quick yes-or-no schema check (oracle/schemacheck.py) agrees with jsonschema on every record and rule file."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle.places import place
from oracle.records.reading import full_schema_errors, record_schema
from oracle.schemacheck import compile_check

ROOT = Path(__file__).resolve().parent.parent
RECORDS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "tests" / "golden").rglob("*.json"))]
SCHEMA = record_schema()
FULL = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)
QUICK = compile_check(SCHEMA)


def _exclusive_as_one_of(schema):
    """The record schema with its exclusive alternatives written as oneOf, as it was: a seat is a
    name or a number, cards a list or a string, hands a list or a map, a payload value one of five
    types. The schema says anyOf there (and a list of types), which jsonschema checks several times
    faster, as anyOf stops at the first alternative that fits; the two must judge every record alike."""
    s = copy.deepcopy(schema)
    d = s["$defs"]
    for node in (d["seat"], d["cards"], d["deal"]["properties"]["hands"]):
        node["oneOf"] = node.pop("anyOf")
    d["action"]["additionalProperties"] = {"oneOf": [{"type": t} for t in d["action"]["additionalProperties"]["type"]]}
    return s


ONE_OF = jsonschema.validators.validator_for(SCHEMA)(_exclusive_as_one_of(SCHEMA))

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False, width=16)
                    | st.sampled_from(["", "P1", "P2", "classic", "thousand-record", "9S", "x" * 3]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                        ["seat", "action", "card", "value", "dealer", "deal", "rule", "reason", "score", "x"]),
                        inner, max_size=3), max_leaves=8)


def test_the_record_schema_gets_a_quick_check():
    assert QUICK is not None


def test_golden_records_are_judged_alike_whole_and_as_headers():
    assert RECORDS
    for rec in RECORDS[::3]:
        assert QUICK(rec) == FULL.is_valid(rec)
        header = {k: v for k, v in rec.items() if k != "deals"} | {"deals": []}
        assert QUICK(header) is True and FULL.is_valid(header)


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, (*path, i))


def _spoil(data, where, value, delete, add=False):
    """Change ``data`` at the path ``where`` picks: that item deleted, given ``value``, or (with ``add``) a
    new field beside it named by ``value`` (a field it may not have, or a name the schema refuses)."""
    paths = [p for p in _paths(data) if p]
    path = paths[where % len(paths)]
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    elif add and isinstance(parent, dict):
        parent[value if isinstance(value, str) else "x"] = value
    else:
        parent[path[-1]] = value
    return path


@given(st.integers(0, len(RECORDS) - 1), st.integers(0, 10_000), JSON, st.booleans())
def test_a_changed_record_is_judged_alike(which, where, value, delete):
    rec = copy.deepcopy(RECORDS[which])
    rec["deals"] = rec["deals"][:1]
    _spoil(rec, where, value, delete)
    assert QUICK(rec) == FULL.is_valid(rec) == ONE_OF.is_valid(rec)
    # The errors told by `--strict-schema` (the schema with its references written out) are the published
    # schema's, every one, in order.
    assert full_schema_errors(rec) == [f"{place(e.absolute_path)}: {e.message}" for e in FULL.iter_errors(rec)]


def test_the_schemas_alternatives_exclude_each_other():
    for rec in RECORDS[::3]:
        # Two deals hold every kind of seat, cards and payload value a record has: the schema as it
        # was is slow on a whole game.
        rec = rec | {"deals": rec["deals"][:2]}
        assert ONE_OF.is_valid(rec) == FULL.is_valid(rec)
    # Where two alternatives both fit, anyOf and oneOf part: the checks above and below would see it.
    both = {"anyOf": [{"type": "string"}, {"minLength": 1}]}
    assert jsonschema.Draft202012Validator(both).is_valid("P1")
    assert not jsonschema.Draft202012Validator({"oneOf": both["anyOf"]}).is_valid("P1")


def test_a_definition_that_refers_to_itself_keeps_its_reference():
    from oracle.records.reading import _inlined

    tree = {"$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array",
                                                                         "items": {"$ref": "#/$defs/node"}}}}},
            "type": "object", "properties": {"root": {"$ref": "#/$defs/node"}}}
    flat = _inlined(tree)
    assert flat["properties"]["root"]["properties"]["kids"]["items"] == {"$ref": "#/$defs/node"}
    bad = {"root": {"kids": [{"kids": [{"kids": 3}]}]}}
    want = [(list(e.absolute_path), e.message) for e in jsonschema.Draft202012Validator(tree).iter_errors(bad)]
    assert want and [(list(e.absolute_path), e.message)
                     for e in jsonschema.Draft202012Validator(flat).iter_errors(bad)] == want


def test_unknown_keywords_get_no_quick_check():
    assert compile_check({"type": "object", "maxProperties": 2}) is None
    assert compile_check({"$ref": "https://elsewhere.invalid/x.json"}) is None
    small = {"type": "array", "items": {"type": ["integer", "boolean"]}, "uniqueItems": True}
    check = compile_check(small)
    full = jsonschema.Draft202012Validator(small)
    cases = [[1, 2], [1, 1.0], [True, 1], [1.5], [True, True], [], "x"]
    assert [check(c) for c in cases] == [full.is_valid(c) for c in cases] == [True, False, True, False, False,
                                                                                True, False]
    assert compile_check({"$ref": "other.schema.json#/$defs/x"}) is None  # a document it was not given


# --------------------------------------------------------------------------- rule files

def _rule_docs():
    from oracle.ruleset import load_library

    lib = load_library()
    return [("rule", d) for d in (*lib.rules.values(), *lib.overlays.values())] + [
        ("preset", d) for d in lib.presets.values()]


DOCS = _rule_docs()
RULE_WORDS = ["id", "title", "text", "en", "ru", "sources", "seed", "lines", "params", "type", "default", "scope",
              "game", "seat", "deal", "lifetime", "doc", "state", "logic", "forbid", "reason", "do", "on", "x",
              "set", "overlays", "extends", "choices", "decisions", "covers"]
RULE_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False, width=16)
                         | st.sampled_from(["", "classic", "bid.step", "play.must-trump", "A", "x" * 3, *RULE_WORDS]),
                         lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(RULE_WORDS),
                                                                                     inner, max_size=3),
                         max_leaves=8)


def test_every_rule_and_preset_file_passes_the_quick_check():
    # The quick check is the common path of reading a rule tree: a file it refuses that jsonschema takes
    # would cost jsonschema's time again (and a difference the other way, a file taken that is wrong).
    from oracle.rulefile import _quick, _validator

    assert _quick("rule") is not None and _quick("preset") is not None
    assert len(DOCS) > 100
    for kind, doc in DOCS:
        assert _quick(kind)(doc.data) is True and _validator(kind).is_valid(doc.data), doc.path


@given(st.integers(0, len(DOCS) - 1), st.integers(0, 10_000), RULE_JSON, st.booleans())
def test_a_changed_rule_file_is_judged_alike(which, where, value, delete):
    from oracle.rulefile import _quick, _validator

    kind, doc = DOCS[which]
    data = copy.deepcopy(doc.data)
    path = _spoil(data, where, value, delete, add=where % 5 == 0)
    assert _quick(kind)(data) == _validator(kind).is_valid(data), (doc.path, path, value)


KEYWORDS = [{"type": "array", "maxItems": 2}, {"maximum": 3}, {"exclusiveMinimum": 1},
            {"type": "object", "minProperties": 1}, {"propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1},
            {"type": "object", "propertyNames": {"enum": ["en", "ru"]}}]
EDGES = [[], [1], [1, 2], [1, 2, 3], 0, 1, 1.0, 1.5, 2, 3, 3.0, 3.5, True, False, None, "x", {}, {"a": 1},
         {"A": 1}, {"en": 1}, {"en": 1, "de": 2}]


@pytest.mark.parametrize("schema", KEYWORDS, ids=lambda s: "+".join(k for k in s if k != "type"))
def test_the_keywords_of_the_rule_schemas_are_judged_as_jsonschema_does_at_their_edges(schema):
    check, full = compile_check(schema), jsonschema.Draft202012Validator(schema)
    assert [check(v) for v in EDGES] == [full.is_valid(v) for v in EDGES]
    assert len({check(v) for v in EDGES}) == 2  # each schema takes some and refuses some


@given(st.sampled_from(KEYWORDS), RULE_JSON)
def test_the_keywords_of_the_rule_schemas_are_judged_as_jsonschema_does(schema, value):
    assert compile_check(schema)(value) == jsonschema.Draft202012Validator(schema).is_valid(value)


def test_a_reference_to_another_document_is_checked_in_that_document():
    # The preset schema borrows the rule schema's definitions, which refer to their own document in turn.
    other = {"$defs": {"name": {"type": "string", "pattern": "^[a-z]+$"},
                       "names": {"type": "array", "items": {"$ref": "#/$defs/name"}}}}
    mine = {"$defs": {"name": {"type": "integer"}}, "type": "object",
            "properties": {"a": {"$ref": "other.json#/$defs/names"}, "b": {"$ref": "#/$defs/name"}}}
    check = compile_check(mine, {"other.json": other})
    assert check({"a": ["ab", "c"], "b": 3}) and not check({"a": ["A"]}) and not check({"b": "ab"})
