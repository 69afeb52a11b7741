"""Rule files, overlays and presets: schema, YAML and resolution errors name the file and position."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rules_tree import copy_rules, edit, write

from oracle.errors import RuleFileError, RulesetError
from oracle.ruleset import load_library, load_ruleset, resolve


@pytest.fixture
def tree(tmp_path):
    return copy_rules(tmp_path)


def test_every_rule_file_passes_its_schema_and_has_both_languages():
    lib = load_library()
    assert len(lib.rules) >= 40
    for doc in lib.rules.values():
        for key in ("title", "text"):
            assert doc.get(key)["en"].strip() and doc.get(key)["ru"].strip(), doc.path
        for name, p in (doc.get("params") or {}).items():
            assert p["doc"]["en"] and p["doc"]["ru"], f"{doc.path}: {name}"


def test_malformed_yaml(tree):
    edit(tree, "spec/play/follow-suit.yaml", "reason: must-follow-suit", "reason: [must-follow-suit")
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    assert info.value.location.file == "spec/play/follow-suit.yaml"
    assert info.value.location.line is not None
    assert "malformed YAML" in info.value.message


def test_schema_error_names_the_field(tree):
    edit(tree, "spec/play/follow-suit.yaml", "reason: must-follow-suit", "reasn: must-follow-suit")
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    assert "logic.0" in info.value.message
    assert info.value.location.file == "spec/play/follow-suit.yaml"


def test_missing_russian_text_is_an_error(tree):
    edit(tree, "spec/play/follow-suit.yaml", "  ru: Ходить в масть\n", "")
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    assert "'ru' is a required property" in info.value.message


def test_duplicate_rule_id(tree):
    text = (tree / "spec/play/follow-suit.yaml").read_text(encoding="utf-8")
    write(tree, "spec/play/follow-suit-copy.yaml", text)
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    assert "already used" in info.value.message


def test_duplicate_parameter_name(tree):
    clash = "params:\n  max_bid: {type: int, default: 1, doc: {en: x, ru: x}}\nlogic:"
    edit(tree, "spec/play/follow-suit.yaml", "logic:", clash)
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    assert "already declared by rule bid.max-300" in info.value.message


def test_bad_parameter_value_in_a_preset(tree):
    edit(tree, "variants/presets/classic.yaml", "set: {}", "set: {bid_step: five}")
    with pytest.raises(RulesetError) as info:
        load_ruleset("classic", root=tree)
    assert "needs a whole number" in info.value.message


OVERLAY = """id: variant.test.{name}
title: {{en: Test, ru: Тест}}
text: {{en: Test overlay., ru: Тестовая надстройка.}}
sources: []
{body}
"""


def test_overlay_sets_a_parameter(tree):
    write(tree, "variants/test/step.yaml", OVERLAY.format(name="step", body="set: {bid_step: 10}"))
    rs = load_ruleset("classic", overlays=["variant.test.step"], root=tree)
    assert rs.param("bid_step") == 10


def test_overlay_setting_an_unknown_parameter_is_an_error(tree):
    write(tree, "variants/test/bad.yaml", OVERLAY.format(name="bad", body="set: {bid_stepp: 10}"))
    with pytest.raises(RulesetError) as info:
        load_ruleset("classic", overlays=["variant.test.bad"], root=tree)
    assert "unknown parameter 'bid_stepp'" in info.value.message and "bid_step" in info.value.message
    assert info.value.location.file == "variants/test/bad.yaml"


def test_overriding_a_missing_rule_is_an_error(tree):
    write(tree, "variants/test/ghost.yaml", OVERLAY.format(name="ghost", body="overrides: play.must-trumpp"))
    with pytest.raises(RulesetError) as info:
        load_ruleset("classic", overlays=["variant.test.ghost"], root=tree)
    assert "overrides rule 'play.must-trumpp', which does not exist" in info.value.message
    assert info.value.location.file == "variants/test/ghost.yaml"


def test_override_replaces_the_logic_of_a_rule(tree):
    body = "overrides: play.must-trump\nlogic: []"
    write(tree, "variants/test/notrump.yaml", OVERLAY.format(name="notrump", body=body))
    rs = load_ruleset("classic", overlays=["variant.test.notrump"], root=tree)
    assert not rs.guards["play"] or all(g.rule_id != "play.must-trump" for g in rs.guards["play"])
    assert rs.rules["play.must-trump"].origin == "variant.test.notrump"


def test_two_overrides_of_one_rule_need_an_order(tree):
    for name in ("a", "b"):
        body = "overrides: play.must-trump\nlogic: []"
        write(tree, f"variants/test/{name}.yaml", OVERLAY.format(name=name, body=body))
    with pytest.raises(RulesetError) as info:
        resolve("classic", ["variant.test.a", "variant.test.b"], root=tree)
    assert "'variant.test.a' and 'variant.test.b' both override rule 'play.must-trump'" in info.value.message
    write(tree, "variants/test/b.yaml",
          OVERLAY.format(name="b", body="overrides: play.must-trump\nafter: [variant.test.a]\nlogic: []"))
    res = resolve("classic", ["variant.test.a", "variant.test.b"], root=tree)
    assert res.rules["play.must-trump"].replaced_by == ["variant.test.a", "variant.test.b"]


def test_incompatible_overlays_are_rejected_naming_both(tree):
    body = "set: {bid_step: 10}\nconflicts: [variant.test.b]"
    write(tree, "variants/test/a.yaml", OVERLAY.format(name="a", body=body))
    write(tree, "variants/test/b.yaml", OVERLAY.format(name="b", body="set: {bid_step: 20}"))
    with pytest.raises(RulesetError) as info:
        resolve("classic", ["variant.test.b", "variant.test.a"], root=tree)
    assert "variant.test.a" in info.value.message and "variant.test.b" in info.value.message


def test_unknown_ruleset_and_overlay(tree):
    with pytest.raises(RulesetError, match="unknown ruleset 'klassik'"):
        resolve("klassik", root=tree)
    with pytest.raises(RulesetError, match=r"unknown overlay 'variant\.nope'"):
        resolve("classic", ["variant.nope"], root=tree)


def test_core_files_cannot_carry_overlay_fields(tree):
    edit(tree, "spec/play/follow-suit.yaml", "logic:", "overrides: play.must-trump\nlogic:")
    with pytest.raises(RuleFileError, match="belongs in an overlay"):
        load_ruleset("classic", root=tree)


def test_compiled_rulesets_are_cached_by_content(tree):
    a = load_ruleset("classic", root=tree)
    assert load_ruleset("classic", root=tree) is a
    edit(tree, "spec/bidding/step.yaml", "default: 5", "default: 10")
    b = load_ruleset("classic", root=tree)
    assert b is not a and b.param("bid_step") == 10


def test_yaml_booleans_are_only_true_and_false(tree):
    # 'on' is a key of every clause; YAML 1.1 would read it as a boolean.
    rs = load_ruleset("classic", root=tree)
    assert all(isinstance(c.on, str) for cs in rs.effects.values() for c in cs)


# An overlay's own declarations: a rule it replaces whole (overrides) or changes by name (change) can
# bring marks and state variables of its own, used by its clauses.
MUST_TRUMP_MARKED = """overrides: play.must-trump
state:
  unwilling_trumps: {{type: int, init: 0, lifetime: deal}}
marks:
  {mark}: {{symbol: "U", en: trumps held back, ru: придержал козыри}}
logic:
  - id: counted
    on: play
    do: |
      unwilling_trumps = unwilling_trumps + 1
      mark("trumps-held", actor)
"""


def test_an_override_declares_marks_and_state_its_logic_uses(tree):
    write(tree, "variants/test/held.yaml",
          OVERLAY.format(name="held", body=MUST_TRUMP_MARKED.format(mark="trumps-held")))
    rs = load_ruleset("classic", overlays=["variant.test.held"], root=tree)
    assert rs.marks["trumps-held"]["ru"] == "придержал козыри"
    assert rs.vars["unwilling_trumps"].rule_id == "play.must-trump"
    assert "redeal-all-pass" not in rs.marks  # only what the overlays of this ruleset declare


def test_an_override_using_a_mark_it_does_not_declare_is_located(tree):
    write(tree, "variants/test/held.yaml",
          OVERLAY.format(name="held", body=MUST_TRUMP_MARKED.format(mark="trumps-kept")))
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", overlays=["variant.test.held"], root=tree)
    assert "mark 'trumps-held' is not declared" in info.value.message and "trumps-kept" in info.value.message
    assert info.value.location.file == "variants/test/held.yaml"
    assert (info.value.location.line, info.value.location.column) == (15, 12)


CHANGE_MARKED = """state:
  redeals_seen: {{type: int, init: 0, lifetime: game}}
marks:
  {mark}: {{symbol: "R", en: counted redeal, ru: пересдача учтена}}
change:
  play.must-trump:
    replace:
      must-trump:
        message: {{en: "Trump while you have one.", ru: "Козыряйте, пока есть козыри."}}
logic:
  - id: count
    on: start
    do: |
      redeals_seen = redeals_seen + 1
      mark("counted-redeal", dealer)
"""


def test_a_change_overlay_adds_state_and_marks(tree):
    write(tree, "variants/test/count.yaml",
          OVERLAY.format(name="count", body=CHANGE_MARKED.format(mark="counted-redeal")))
    rs = load_ruleset("classic", overlays=["variant.test.count"], root=tree)
    assert rs.vars["redeals_seen"].rule_id == "variant.test.count"
    assert "counted-redeal" in rs.marks


def test_a_mark_declared_twice_is_an_error_at_the_second(tree):
    write(tree, "variants/test/count.yaml",
          OVERLAY.format(name="count", body=CHANGE_MARKED.format(mark="marriage")))
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", overlays=["variant.test.count"], root=tree)
    assert "mark 'marriage' is also declared by rule marriage.sets-trump" in info.value.message
    assert (info.value.location.file, info.value.location.line, info.value.location.column) == \
        ("variants/test/count.yaml", 8, 3)


def test_a_state_variable_clashing_in_an_override_is_located(tree):
    body = MUST_TRUMP_MARKED.format(mark="trumps-held").replace("unwilling_trumps", "score")
    write(tree, "variants/test/held.yaml", OVERLAY.format(name="held", body=body))
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", overlays=["variant.test.held"], root=tree)
    # Both declarations are named with their places, whichever is read first.
    places = {str(info.value.location).rsplit(":", 2)[0], info.value.message.rsplit("(", 1)[1].split(":")[0]}
    assert places == {"variants/test/held.yaml", "spec/scoring/all-players-recorded.yaml"}
    assert "state variable 'score' is also declared by rule" in info.value.message


def test_an_overlay_of_marks_alone_declares_them(tree):
    body = 'marks:\n  lone-mark: {symbol: "L", en: lone, ru: одинокий}\n'
    write(tree, "variants/test/lone.yaml", OVERLAY.format(name="lone", body=body))
    rs = load_ruleset("classic", overlays=["variant.test.lone"], root=tree)
    assert "lone-mark" in rs.marks


# Two overlays changing one clause or one definition: the later must say it comes after the earlier, so what a
# ruleset means is written in the files, never decided silently by the order of its list. A pool of overlays,
# each changing the must-trump message or the declarer's rounding, some naming others in `after`; any choice
# and order of them either resolves to the last one's version of each part or is refused naming the pair.
_POOL = {  # name -> (part it changes, overlays it names in `after`)
    "m1": ("clause", []), "m2": ("clause", []), "m2a": ("clause", ["m1"]), "m3a": ("clause", ["m2", "m2a"]),
    "r1": ("define", []), "r2a": ("define", ["r1"]), "r3": ("define", ["m1"]),
}


def _pool_overlay(name: str, part: str, after: list[str]) -> str:
    if part == "clause":
        change = (f"change:\n  play.must-trump:\n    replace:\n      must-trump:\n"
                  f"        message: {{en: \"{name}\", ru: \"{name}\"}}")
    else:
        change = (f"change:\n  scoring.exact-points:\n    define:\n      declarer_count:\n"
                  f"        args: {{x: int}}\n        returns: int\n        expr: \"x + {len(name)}\"\n"
                  f"        doc: {{en: \"{name}\", ru: \"{name}\"}}")
    order = f"after: [{', '.join('variant.test.' + a for a in after)}]\n" if after else ""
    return OVERLAY.format(name=name, body=order + change)


@pytest.fixture(scope="module")
def pool_tree(tmp_path_factory):
    root = copy_rules(tmp_path_factory.mktemp("pool"))
    for name, (part, after) in _POOL.items():
        write(root, f"variants/test/{name}.yaml", _pool_overlay(name, part, after))
    return root


@settings(max_examples=40)
@given(st.permutations(list(_POOL)).flatmap(lambda order: st.integers(1, len(order)).map(lambda n: order[:n])))
def test_two_overlays_changing_one_part_resolve_only_when_their_order_is_stated(pool_tree, chosen):
    last: dict[str, str] = {}
    refused = None
    for name in chosen:
        part, after = _POOL[name]
        if part in last and last[part] not in after and refused is None:
            refused = (last[part], name)
        last[part] = name
    overlays = [f"variant.test.{n}" for n in chosen]
    if refused is not None:
        with pytest.raises(RulesetError) as info:
            resolve("classic", overlays, root=pool_tree)
        first, second = refused
        assert f"'variant.test.{first}' and 'variant.test.{second}' both" in info.value.message
        assert f"after: [variant.test.{first}]" in info.value.message
        assert info.value.location.file == f"variants/test/{second}.yaml"
        return
    res = resolve("classic", overlays, root=pool_tree)
    if "clause" in last:
        clause = next(c for c in res.sequence.clauses() if c.ref == "play.must-trump/must-trump")
        assert clause.message == last["clause"]
    if "define" in last:
        assert res.define_owner[("scoring.exact-points", "declarer_count")] == f"variant.test.{last['define']}"


# ------------------------------------------------------------------ what resolution works out once per library

_LIB = load_library()


def _resolved_fresh(name, overlays):
    """``resolve`` with a library read anew (the tree's files as loaded, nothing worked out yet)."""
    from oracle.ruleset import Library
    lib = Library(_LIB.root, _LIB.rules, _LIB.overlays, _LIB.presets, _LIB.digest)
    from unittest import mock
    with mock.patch("oracle.ruleset.load_library", return_value=lib):
        return resolve(name, overlays)


def _shape(res):
    return ({on: [c.ref for c in row] for on, row in res.sequence.by_trigger.items()}, res.params, res.values)


@settings(deadline=None)
@given(name=st.sampled_from(sorted(_LIB.presets)),
       overlays=st.lists(st.sampled_from(sorted(_LIB.overlays)), max_size=3, unique=True),
       drop=st.integers(0, 10**6))
def test_a_library_resolves_as_a_fresh_one_however_often_its_rulesets_were_resolved_and_changed(name, overlays,
                                                                                                drop):
    # The core's sequence and each file's parameters are worked out once per library: a ruleset that
    # changes its own sequence (a mutant drops a clause) leaves the next one whole, and every ruleset,
    # overlays and all, comes out as it does from a library that has worked out nothing yet.
    try:
        fresh = _resolved_fresh(name, overlays)
    except (RuleFileError, RulesetError) as exc:
        with pytest.raises(type(exc)) as again:
            resolve(name, overlays)
        assert str(again.value) == str(exc)
        return
    first = resolve(name, overlays)
    clauses = first.sequence.clauses()
    first.sequence.drop(clauses[drop % len(clauses)])
    assert _shape(resolve(name, overlays)) == _shape(fresh)
    assert _shape(resolve(name)) == _shape(_resolved_fresh(name, []))
