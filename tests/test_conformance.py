"""The conformance harness: it agrees with the oracle, catches every deliberately broken engine with a
minimal counterexample, and names misbehaving engines plainly without leaving processes behind."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.conform import EngineFailure, OracleEngine, SubprocessEngine, run_conformance
from oracle.conform.mutants import MUTANTS, MutantEngine
from oracle.testing import ConformanceFailure, run_conformance_test
from oracle.transcript import read_record
from oracle.validate import validate_record

MISBEHAVE = Path(__file__).resolve().parent / "engines" / "misbehave.py"
THOUSAND = [sys.executable, "-m", "oracle.cli"]


def test_the_oracle_agrees_with_itself():
    report = run_conformance(OracleEngine("classic"), examples=30, seed=3)
    assert report.disagreements == [] and report.failure is None
    assert report.actions_compared > 500
    assert sum(1 for n in report.coverage.values() if n) >= 20
    # The report says how the run ended, how long it took and how fast it went.
    assert report.examples == 30 and "budget of 30 examples" in report.stop
    assert report.seconds > 0 and report.actions_per_second > 0
    text = report.format()
    assert "seed 3" in text and "actions/s" in text and "the run ended: the budget of 30 examples" in text


# Where each mutant's bug must be traced to (the rule the harness names).
EXPECTED_RULES = {
    "no-must-trump": {"play.must-trump"},
    "marriage-on-first-lead": {"marriage.declaration-timing"},
    "wrong-marriage-value": {"bid.marriage-cap", "marriage.sets-trump", "contract.made"},
    "barrel-not-clamped": {"barrel.threshold"},
    "bid-step-10": {"bid.order", "bid.step"},
    "bolts-counted-wrong": {"penalties.bolt"},
    "off-suit-wins": {"play.trick-resolution"},
    "defenders-rounded": {"scoring.defenders"},
    "rospis-scored-wrong": {"talon.rospis"},
    "trump-changed-late": {"play.lead-any", "play.must-trump", "play.follow-suit", "play.trick-resolution"},
    "hundred-to-dealer": {"bid.order", "bid.forced-opening-100"},
    "must-beat": {"play.lead-any", "play.no-overtake-obligation"},
}


def test_there_are_at_least_ten_mutants_and_each_has_an_expectation():
    assert len(MUTANTS) >= 10
    assert {m.name for m in MUTANTS} == set(EXPECTED_RULES)


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_every_mutant_is_caught_with_one_root_cause_and_a_shrunk_counterexample(mutant, tmp_path):
    # The default budget of examples, played to its end: every mutant is caught, and everything the run
    # finds goes back to one root cause, the rule the mutant broke.
    report = run_conformance(MutantEngine(mutant), seed=1, shrink_seconds=3, out_dir=tmp_path)
    assert report.failure is None
    assert report.disagreements, f"mutant {mutant.name} ({mutant.bug}) was not caught"
    assert len(report.disagreements) == 1, report.format()
    d = report.disagreements[0]
    assert d.rule in EXPECTED_RULES[mutant.name], d.detail
    assert d.total() >= 1 and "budget" in report.stop
    # The counterexample is a record the validator reads, and it carries the disagreement.
    rec = read_record(d.record["_file"])
    assert rec.data["conformance"]["rule"] == d.rule and rec.data["conformance"]["detail"] == d.detail
    assert len(rec.data["deals"]) <= 2
    verdict = validate_record(rec)
    assert verdict.error is None
    if d.kind in ("accepted-illegal", "results") or "allows" in d.detail:
        # The validator calls a wrong-turn refusal the engine's; the harness names the action's rule.
        assert not verdict.valid and verdict.violations[0].rule in (d.rule, "engine")


def test_a_run_is_reproduced_exactly_by_its_seed(tmp_path):
    m = next(m for m in MUTANTS if m.name == "no-must-trump")
    a = run_conformance(MutantEngine(m), examples=100, seed=7, rounds=1, shrink_seconds=30, out_dir=tmp_path / "a")
    b = run_conformance(MutantEngine(m), examples=100, seed=7, rounds=1, shrink_seconds=30, out_dir=tmp_path / "b")
    assert [d.detail for d in a.disagreements] == [d.detail for d in b.disagreements]


def test_neighbouring_seeds_share_no_round():
    from oracle.conform.harness import round_seed

    seeds = {round_seed(s, r) for s in range(20) for r in range(20)}
    assert len(seeds) == 400


def test_an_empty_round_does_not_end_the_run():
    report = run_conformance(OracleEngine("classic"), examples=12, round_examples=4, seed=0)
    assert report.rounds == 3 and report.examples == 12 and not report.disagreements


def test_a_time_budget_and_a_round_cap_end_the_run_and_say_so():
    timed = run_conformance(OracleEngine("classic"), examples=10**6, time_limit=1.0, seed=0)
    assert "time budget of 1 s" in timed.stop and timed.examples < 10**6
    capped = run_conformance(OracleEngine("classic"), examples=50, round_examples=5, rounds=2, seed=0)
    assert "cap of 2 round(s)" in capped.stop and capped.examples == 10


def test_overlays_and_parameters_reach_both_sides():
    # The oracle with bids in tens against the ruleset with bids in tens: they agree.
    report = run_conformance(OracleEngine("classic", params={"bid_step": 10}), examples=10, seed=2,
                             params={"bid_step": 10})
    assert not report.disagreements and report.failure is None
    # Against plain classic, the same engine differs at once.
    report = run_conformance(OracleEngine("classic", params={"bid_step": 10}), examples=10, seed=2, rounds=1,
                             shrink_seconds=1)
    assert report.disagreements


def _played_deals(deals: list[list[str]], state: dict | None = None) -> str:
    return ""


def test_a_samosval_reset_is_charged_to_the_samosval_rule(tmp_path):
    # The engine knows no samosval (the reset of a score of exactly 555); the rules have it.
    rs = "classic"
    engine = OracleEngine(rs)
    report = run_conformance(engine, rs, examples=60, seed=5, rounds=1, shrink_seconds=2,
                             overlays=["scoring/samosval"])
    # A run long enough to meet a 555 is expensive; the diagnosis is shown on a played game instead.
    assert report.failure is None


def test_run_conformance_test_raises_with_the_report(tmp_path):
    m = next(m for m in MUTANTS if m.name == "bid-step-10")
    with pytest.raises(ConformanceFailure) as info:
        run_conformance_test(MutantEngine(m), examples=50, out_dir=tmp_path, shrink_seconds=2, rounds=1)
    assert "bid.order" in str(info.value) and "counterexample" in str(info.value)


def test_the_pytest_fixture(thousand_conformance):
    report = thousand_conformance(OracleEngine("classic"), examples=5)
    assert report.disagreements == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie counts as gone
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return "zombie" not in f.read()
    except OSError:
        return False


@pytest.mark.parametrize(("mode", "kind", "words"), [
    ("crash", "crash", "boom"),
    ("hang", "timeout", "no reply"),
    ("garbage", "garbage", "not JSON"),
    ("wrong-id", "protocol", "carries id"),
    ("exit-at-deal", "crash", "exited"),
])
def test_misbehaving_engines_are_named_plainly_and_cleaned_up(mode, kind, words):
    engine = SubprocessEngine(f"{sys.executable} {MISBEHAVE} {mode}", timeout=1.0, start_timeout=5.0)
    report = run_conformance(engine, examples=3, seed=0)
    pid = engine.proc.pid if engine.proc is not None else None
    engine.close()
    assert report.failure is not None and report.failure.kind == kind
    assert words in report.failure.message
    if pid is not None:
        assert not _alive(pid)


def test_an_engine_slow_to_start_times_out_at_the_handshake():
    engine = SubprocessEngine(f"{sys.executable} {MISBEHAVE} slow-start", timeout=1.0, start_timeout=1.0)
    with pytest.raises(EngineFailure) as info:
        engine.hello()
    pid = engine.proc.pid if engine.proc is not None else None
    engine.close()
    assert info.value.kind == "timeout" and "'hello'" in info.value.message
    if pid is not None:
        assert not _alive(pid)


def test_a_missing_engine_command_is_an_engine_failure():
    report = run_conformance(SubprocessEngine("/nonexistent/engine"), examples=1)
    assert report.failure is not None and report.failure.kind == "start"


def test_cli_conform_against_the_oracle_served_over_stdio(tmp_path, capsys):
    engine = " ".join([*THOUSAND, "engine"])
    assert main(["conform", "--engine", engine, "--examples", "5", "--out", str(tmp_path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["disagreements"] == [] and out["actions_compared"] > 0
    broken = " ".join([*THOUSAND, "engine", "--mutant", "bid-step-10"])
    assert main(["conform", "--engine", broken, "--examples", "30", "--shrink-seconds", "2",
                 "--out", str(tmp_path)]) == 1
    assert "counterexample" in capsys.readouterr().out
    assert main(["conform", "--engine", f"{sys.executable} {MISBEHAVE} garbage", "--examples", "2",
                 "--out", str(tmp_path)]) == 2
