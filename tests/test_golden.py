"""Golden games: each record under tests/golden gets exactly the verdict it expects.

Regenerate them with `thousand golden --out tests/golden` after a deliberate rule change.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle.coverage import Coverage, cover_record
from oracle.golden import play_record, write_all
from oracle.records import dumps, full_schema_errors, load_record, read_record, validate_record
from oracle.rulecounts import RuleCounts
from oracle.ruleset import load_library, load_ruleset

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.rglob("*.json"))


# Resolved rulesets shared by every golden record, as `thousand validate` shares them across files:
# each preset (and each variation's overlays and parameters) is compiled once for the whole module.
RULESETS: dict = {}


def _id(p: Path) -> str:
    return str(p.relative_to(GOLDEN))


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_golden_record_gets_its_expected_verdict(path):
    rec = read_record(path)
    expect = rec.data["expect"]
    verdict = validate_record(rec, cache=RULESETS)
    assert verdict.error is None, str(verdict.error)
    if expect["valid"]:
        assert verdict.valid, "\n".join(v.format() for v in verdict.violations)
        return
    assert not verdict.valid, f"{_id(path)} should be invalid by {expect['rule']} [{expect['reason']}]"
    first = verdict.violations[0]
    got = {"deal": first.deal, "action": first.action, "rule": first.rule, "reason": first.reason}
    want = {"deal": expect["deal"], "action": expect.get("action"), "rule": expect["rule"],
            "reason": expect["reason"]}
    assert got == want, first.format()


def test_every_ruleset_has_valid_and_invalid_golden_games():
    for name in load_library().presets:
        folder = GOLDEN / name
        assert list((folder / "valid").glob("*.json")), f"no valid golden game for ruleset {name}"
        assert list((folder / "invalid").glob("*.json")), f"no invalid golden game for ruleset {name}"


def test_golden_games_reach_every_core_rule():
    cov = Coverage()
    core = set(load_library().rules)
    for path in FILES:
        cover_record(read_record(path), cov, alternatives=False)  # reached: ran on the recorded actions
        # What is reached only grows: once every core rule is, the other records cannot change the verdict.
        if not core.intersection(cov.unreached()):
            break
    assert [r for r in cov.unreached() if r in core] == []


def test_every_overlay_is_used_by_a_golden_game():
    lib = load_library()
    used: set[str] = set()
    for path in FILES:
        head = json.loads(path.read_text(encoding="utf-8"))
        used |= set(head.get("overlays") or [])
        ruleset = head["ruleset"]
        while ruleset:
            preset = lib.presets[ruleset]
            used |= {str(o) for o in preset.get("overlays", [])}
            ruleset = str(preset.get("extends") or "")
    assert sorted(set(lib.overlays) - used) == []


@pytest.mark.parametrize("path", sorted(GOLDEN.rglob("valid/*.json")), ids=_id)
def test_valid_golden_games_conform_to_the_published_schema(path):
    assert full_schema_errors(json.loads(path.read_text(encoding="utf-8"))) == [], path


def test_golden_files_are_written_in_the_stable_format():
    for path in FILES[:5]:
        assert dumps(json.loads(path.read_text(encoding="utf-8"))) == path.read_text(encoding="utf-8")


# One test per ruleset, so that the regeneration (the slowest check of the suite) is shared out among
# the test workers; together they compare every file, and the next test finds folders of no ruleset.
@pytest.mark.parametrize("name", sorted(load_library().presets))
def test_regenerated_golden_games_are_identical(name):
    differ = write_all(GOLDEN, check=True, rulesets=[name])
    assert differ == [], "golden games differ from a fresh generation (run `thousand golden`):\n" + "\n".join(differ)


def test_every_golden_folder_belongs_to_a_ruleset():
    presets = set(load_library().presets)
    assert sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and p.name not in presets) == []


# The generator keeps a game for the rules it fired, counted as the game is played, not by a replay of its
# record: the two counts must be the same, effect by effect, whatever the ruleset and the deal.
@pytest.mark.parametrize("name,seed", [("classic", 3), ("computer-game", 5), ("two-draw-pile", 1),
                                       ("four-dummy", 2), ("dealers-hundred", 4)])
def test_a_game_counted_as_it_is_played_counts_what_its_replay_counts(name, seed):
    rs = load_ruleset(name)
    played = RuleCounts()
    record, _ = play_record(rs, seed, max_deals=12, counts=played)
    replayed = Coverage()
    verdict = cover_record(load_record(record, f"{name}-{seed}.json"), replayed, alternatives=False)
    assert verdict.valid and len(record["deals"]) > 1
    fired = {r: n for r, n in played.fired.items() if n}
    assert fired and fired == {r: n for r, n in replayed.counts.fired.items() if n}
