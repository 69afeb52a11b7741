"""Every preset's dossier: each parameter it sets and each overlay it adds is cited or marked as our decision,
and (oracle.dossier) every rule of the resolved ruleset that can change a verdict and every parameter is answered.

The cited lines are checked against the source texts themselves, which live beside the
repository (``../shared/sources/`` in CI; any ancestor folder's ``shared/sources`` here, or
$THOUSAND_SOURCES). Without them the line checks are skipped, with a message.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_tree import copy_rules, edit
from support import sources_dir

from oracle import dossier
from oracle.errors import RuleFileError
from oracle.ruleset import load_library, load_ruleset, resolve
from oracle.yamlpos import plain

LIB = load_library()
PRESETS = sorted(LIB.presets)

# Presets that follow an engine's code, not one of the four texts: their dossiers cite the engine's
# files, and the completeness test (which asks for a text's lines) does not hold them.
ENGINE_PRESETS = {"1k", "tysiac", "mekedron-four-player-a", "mekedron-four-player-b", "mekedron-polish",
                  "mekedron-russian", "mekedron-two-player-a", "mekedron-two-player-b", "mekedron-ukrainian"}

# Presets whose dossiers do not yet answer for every point (issue 24). This list only shrinks: when a
# preset is done, take it out (test_an_expected_incomplete_dossier_is_still_incomplete says so).
EXPECTED_INCOMPLETE: set[str] = set()  # every preset that cites a source is complete
COMPLETE = sorted(n for n in PRESETS if n not in ENGINE_PRESETS | EXPECTED_INCOMPLETE)


SOURCES = sources_dir()


def _lines(seed: str) -> list[str]:
    assert SOURCES is not None
    return (SOURCES / seed).read_text(encoding="utf-8").splitlines()


def _citations(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every citation in a preset file, each with where it is (for the failure message)."""
    out = [("sources", s) for s in doc.get("sources") or []]
    for key, entry in (doc.get("dossier") or {}).items():
        out += [(f"dossier.{key}", s) for s in [*entry.get("sources", []), *entry.get("kept", [])]]
    for i, group in enumerate(doc.get("silent") or []):
        out += [(f"silent[{i}]", s) for s in [*group["sources"], *group.get("kept", [])]]
    for i, entry in enumerate(doc.get("not_modelled") or []):
        out += [(f"not_modelled[{i}]", s) for s in entry["sources"]]
    return out


def uncited(doc: dict[str, Any]) -> list[str]:
    """What is wrong with a preset's dossier: choices of its own without an entry of their own."""
    dossier = doc.get("dossier") or {}
    answered = set(dossier) | {a for e in dossier.values() for a in e.get("also", [])}
    choices = [*doc.get("set", {}), *doc.get("overlays", [])]
    errors = [f"no dossier entry for {c!r}" for c in choices if c not in answered]
    errors += [f"dossier entry {k!r} neither cites nor decides" for k, e in dossier.items()
               if not (e.get("sources") or e.get("decision"))]
    return errors


def bad_lines(doc: dict[str, Any]) -> list[str]:
    """Citations that point at no file, past the end of a file, or at empty lines only."""
    errors = []
    for where, s in _citations(doc):
        seed, (a, b) = s["seed"], s["lines"]
        if not (SOURCES / seed).is_file():
            errors.append(f"{where}: no source file {seed}")
            continue
        text = _lines(seed)
        if not 1 <= a <= b <= len(text):
            errors.append(f"{where}: {seed} has {len(text)} lines, not {a}-{b}")
        elif not any(line.strip() for line in text[a - 1:b]):
            errors.append(f"{where}: {seed} lines {a}-{b} are empty")
    return errors


def _doc(name: str) -> dict[str, Any]:
    return plain(LIB.presets[name].data)


@pytest.mark.parametrize("name", PRESETS)
def test_every_choice_of_the_preset_is_cited_or_a_decision(name):
    assert uncited(_doc(name)) == []


@pytest.mark.parametrize("name", PRESETS)
def test_the_preset_sets_real_parameters_and_adds_real_overlays(name):
    doc, res = _doc(name), resolve(name)
    assert [k for k in doc.get("set", {}) if k not in res.params] == []
    assert [o for o in doc.get("overlays", []) if o not in LIB.overlays] == []


@pytest.mark.parametrize("name", PRESETS)
def test_cited_lines_exist_in_the_sources(name):
    if SOURCES is None:
        pytest.skip("the source texts (shared/sources beside the repository) are not here; set THOUSAND_SOURCES")
    assert bad_lines(_doc(name)) == []


def test_an_uncited_value_is_caught():
    doc = _doc("declarer-leads")
    first = next(iter(doc["set"]))
    dossier = {k: v for k, v in doc["dossier"].items() if k != first}
    assert uncited({**doc, "dossier": dossier}) == [f"no dossier entry for {first!r}"]


# --------------------------------------------------------------------------- completeness (issue 24)

@pytest.mark.parametrize("name", COMPLETE)
def test_the_dossier_answers_for_every_rule_that_can_change_a_verdict_and_every_parameter(name):
    problems = dossier.missing(load_ruleset(name))
    assert problems == [], f"preset {name}: " + "; ".join(problems)


@pytest.mark.parametrize("name", sorted(EXPECTED_INCOMPLETE))
def test_an_expected_incomplete_dossier_is_still_incomplete(name):
    assert dossier.missing(load_ruleset(name)), (
        f"the dossier of {name} is complete now: take it out of EXPECTED_INCOMPLETE")


def test_every_preset_is_held_by_the_completeness_test_or_named_as_following_an_engine():
    assert EXPECTED_INCOMPLETE <= set(PRESETS) and ENGINE_PRESETS <= set(PRESETS)
    assert sorted(n for n in PRESETS if not dossier.cites_source(LIB, n)) == sorted(ENGINE_PRESETS | {"classic"})
    assert "classic" in COMPLETE


def test_the_list_holds_the_rules_that_refuse_or_write_and_every_parameter():
    rs = load_ruleset("classic")
    pts = {p.key: p for p in dossier.points(rs)}
    assert "refuses: must-trump" in pts["play.must-trump"].why
    assert any(w.startswith("writes:") and "delta" in w for w in pts["penalties.bolt"].why)
    assert pts["deck.card-points"].why == ("used by: contract.made",)
    assert {n for n, p in pts.items() if p.is_param} == {
        n for n, d in rs.resolved.params.items() if rs.rules[d.rule_id].get("normative", True) is not False}
    # the play hints never change a verdict; a rule switched off by its parameter answers through it
    assert "hints.simple-bot" not in pts and "barrel.auto-talon" not in pts and "barrel_auto_talon" in pts
    assert "barrel.auto-talon" in {p.key for p in dossier.points(load_ruleset("left-leads"))}


def _without(doc: Any, *keys: str) -> Any:
    from oracle.rulefile import RuleDoc

    data = dict(doc.data)
    data["dossier"] = {k: v for k, v in (doc.get("dossier") or {}).items() if str(k) not in keys}
    return RuleDoc(doc.id, doc.path, data)


def test_a_missing_rule_and_a_missing_parameter_are_named():
    rs = load_ruleset("left-leads")
    doc = LIB.presets["left-leads"]
    before = dossier.missing(rs, [doc])
    after = dossier.missing(rs, [_without(doc, "variant.samosval", "first_lead", "play.first-lead")])
    # the samosval's own parameters were answered through the rule's entry, and now are not
    assert set(after) - set(before) == {"no dossier entry for rule 'variant.samosval'",
                                        "no dossier entry for parameter 'samosval_score' (rule variant.samosval)",
                                        "no dossier entry for parameter 'samosval_reset_to' (rule variant.samosval)",
                                        "no dossier entry for rule 'play.first-lead'",
                                        "no dossier entry for parameter 'first_lead' (rule play.first-lead)"}


def test_an_entry_answers_through_also_and_silent_and_an_overlay_through_its_own_entry():
    from oracle.rulefile import RuleDoc

    rs = load_ruleset("left-leads")
    doc = LIB.presets["left-leads"]
    cite = [{"seed": "003_6bdcd0fbd49a2f68.txt", "lines": [38, 38]}]
    why = {"en": "silent", "ru": "молчит"}
    kept = {k: v for k, v in _without(doc, "play.follow-suit", "deck.rank-order", "game-end.target").data[
        "dossier"].items()}
    data = {**doc.data, "dossier": {**kept, "play.must-trump": {"sources": cite, "also": ["play.follow-suit"]}},
            "silent": [{"for": ["deck.rank-order", "target"], "sources": cite, "decision": why}]}
    rows = {r.point.key: r.answer for r in dossier.rows(rs, [RuleDoc(doc.id, doc.path, data)])}
    assert rows["play.follow-suit"] == dossier.Answer(dossier.How.SOURCES, "left-leads", "play.must-trump",
                                                      data["dossier"]["play.must-trump"])
    assert rows["deck.rank-order"].how is dossier.How.DECISION and rows["target"].key == "silent[0]"
    assert rows["rank_order"].how is dossier.How.DECISION  # a rule's entry answers for its parameters
    # a parameter set by an overlay is answered by the overlay's entry, and not without it
    assert rows["low_hand_limit"].key == "variant.redeal.low-hand"
    assert rows["variant.redeal.deadline"].how is dossier.How.SOURCES


def test_a_decision_must_cite_the_presets_side():
    from oracle.rulefile import RuleDoc

    rs = load_ruleset("left-leads")
    doc = LIB.presets["left-leads"]
    data = {**_without(doc, "deck.rank-order").data,
            "silent": [{"for": ["deck.rank-order"], "decision": {"en": "x", "ru": "x"}}]}
    problems = dossier.missing(rs, [RuleDoc(doc.id, doc.path, data)])
    assert ("rule 'deck.rank-order': the decision (left-leads: silent[0]) cites none of the preset's own lines"
            in problems)


def test_a_parent_answers_only_for_a_child_that_keeps_its_source():
    assert [d.id for d in dossier.dossier_chain(LIB, "four-computer-game")] == ["four-computer-game",
                                                                                 "computer-game"]
    assert [d.id for d in dossier.dossier_chain(LIB, "five-hundred-one")] == ["five-hundred-one", "dealers-hundred"]
    assert [d.id for d in dossier.dossier_chain(LIB, "four-dealer-observes")] == ["four-dealer-observes"]
    assert [d.id for d in dossier.dossier_chain(LIB, "tysiac")] == ["tysiac"]


def test_a_dossier_entry_naming_no_rule_or_parameter_is_a_located_error(tmp_path):
    root = copy_rules(tmp_path)
    edit(root, "variants/presets/left-leads.yaml", "  first_lead: {sources:", "  first_leed: {sources:")
    with pytest.raises(RuleFileError) as err:
        resolve("left-leads", root=root)
    assert "'first_leed', which is no rule, overlay or parameter of this ruleset; did you mean 'first_lead'?" in str(
        err.value)
    line = next(i for i, t in enumerate((root / "variants/presets/left-leads.yaml").read_text().splitlines(), 1)
                if "first_leed" in t)
    assert err.value.location is not None and (err.value.location.line, err.value.location.column) == (line, 3)


def test_a_line_past_the_end_of_a_source_and_an_unknown_file_are_caught():
    if SOURCES is None:
        pytest.skip("the source texts (shared/sources beside the repository) are not here; set THOUSAND_SOURCES")
    n = len(_lines("002_54c07b41b96fc5f3.txt"))
    doc = {"sources": [{"seed": "002_54c07b41b96fc5f3.txt", "lines": [n, n + 1]},
                       {"seed": "009_0000000000000000.txt", "lines": [1, 1]},
                       {"seed": "002_54c07b41b96fc5f3.txt", "lines": [2, 2]}]}
    assert bad_lines(doc) == [f"sources: 002_54c07b41b96fc5f3.txt has {n} lines, not {n}-{n + 1}",
                              "sources: no source file 009_0000000000000000.txt",
                              "sources: 002_54c07b41b96fc5f3.txt lines 2-2 are empty"]


def test_classic_answers_through_the_rule_files_and_a_rule_citing_nothing_is_missing(tmp_path):
    rows = {r.point.key: r.answer for r in dossier.rows(load_ruleset("classic"))}
    assert rows["deck.rank-order"] == dossier.Answer(dossier.How.RULE_FILE, None, None, {})
    root = copy_rules(tmp_path)
    text = (root / "spec/deck/rank-order.yaml").read_text(encoding="utf-8")
    start = text.index("sources:\n")
    end = text.index("\n", text.index("lines: [88, 88]}")) + 1
    edit(root, "spec/deck/rank-order.yaml", text[start:end], "sources: []\n")
    assert dossier.missing(load_ruleset("classic", root=root)) == [
        "no dossier entry for rule 'deck.rank-order'",
        "no dossier entry for parameter 'rank_order' (rule deck.rank-order)"]
