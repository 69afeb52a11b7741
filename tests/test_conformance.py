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
from oracle.records import read_record, validate_record
from oracle.testing import ConformanceFailure, run_conformance_test

MISBEHAVE = Path(__file__).resolve().parent / "engines" / "misbehave.py"
THOUSAND = [sys.executable, "-m", "oracle.cli"]


def test_the_oracle_agrees_with_itself():
    report = run_conformance(OracleEngine("classic"), examples=30, seed=3)
    assert report.disagreements == [] and report.failure is None
    assert report.actions_compared > 500
    assert sum(1 for n in report.coverage.values() if n) >= 20


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
def test_every_mutant_is_caught_with_a_shrunk_counterexample(mutant, tmp_path):
    report = run_conformance(MutantEngine(mutant), examples=100, seed=1, rounds=1, shrink_seconds=5,
                             out_dir=tmp_path)
    assert report.failure is None
    assert report.disagreements, f"mutant {mutant.name} ({mutant.bug}) was not caught"
    d = report.disagreements[0]
    assert d.rule in EXPECTED_RULES[mutant.name], d.detail
    # The counterexample is a record the validator reads; a single short game.
    rec = read_record(d.record["_file"])
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
