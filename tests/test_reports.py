"""Reports that tell the truth: coverage counts what ran and what fired, a violation says what was
allowed there, and every refusal names a real rule of the game."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re
from pathlib import Path

import pytest

from oracle.cards import NOTATION_PARAMS, notation
from oracle.cli import main
from oracle.coverage import Coverage, cover_record, decision_checks, decision_outcomes
from oracle.engine import Action, Game, play_random
from oracle.records import RECORD_RULE, judge, load_record, read_record, validate_record
from oracle.rulecounts import RuleCounts
from oracle.ruleset import DECK_PARAMS, SEATS_PARAM, load_library, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
INVALID = GOLDEN / "classic" / "invalid"
SEED = "1"  # a random classic game in which must-trump, follow-suit and the bid step all forbid something
WATCHED = ("play.must-trump", "play.follow-suit", "bid.step")


@pytest.fixture(scope="module")
def game_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("game") / "game.json"
    assert main(["play", "--ruleset", "classic", "--seed", SEED, "--out", str(path)]) == 0
    return path


def _text_counts(out: str) -> dict[str, tuple[int, int]]:
    rows = re.findall(r"^(\S+)\s+(\d+)\s+(\d+)$", out, re.M)
    return {r: (int(a), int(b)) for r, a, b in rows}


def _decisions(path: Path):
    """Every point of the record where an action was taken: (the game before it, the action)."""
    seen: list[tuple[dict, Action]] = []

    def look(game: Game, action: Action) -> None:
        seen.append((pickle.loads(pickle.dumps(game.v)), action))
    verdict = validate_record(read_record(path), decisions=look)
    assert verdict.valid
    return seen


def test_coverage_of_a_whole_random_classic_game_reaches_must_trump_follow_suit_and_the_bid_step(
        game_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["coverage", str(game_record)]) == 0
    text = capsys.readouterr().out
    assert main(["coverage", str(game_record), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    printed = _text_counts(text)
    as_json = {r: (c["ran"], c["fired"]) for r, c in data["rules"].items()}
    assert printed == as_json
    cov = Coverage()
    cover_record(read_record(game_record), cov)
    assert {r: (cov.counts.ran[r], cov.counts.fired[r]) for r in as_json} == as_json
    for rid in WATCHED:
        assert rid not in data["never_ran"] and rid not in data["never_fired"]

    # Counted independently of the oracle's clauses: each is a count of decisions in the record.
    rs = load_ruleset("classic")
    nt = notation(rs)

    def suit(card: int) -> str:
        return nt.name(card)[-1]
    plays = follow = trump = bidding = 0
    for v, action in _decisions(game_record):
        if action.kind in ("bid", "pass"):
            bidding += 1
        if action.kind != "play":
            continue
        plays += 1
        hand = v["hand"][action.seat]
        if not v["trick"]:
            continue
        led = nt.suit_name(v["led"])
        suits = {suit(c) for c in hand}
        if led in suits and len(suits) > 1:
            follow += 1  # he holds the suit led and another: follow-suit forbids the other
        elif led not in suits and v["trump"] is not None:
            tr = nt.suit_name(v["trump"])
            if tr in suits and len(suits) > 1:
                trump += 1  # void in the suit led, with a trump and a card that is not one
    assert as_json["play.follow-suit"] == (plays, follow)
    assert as_json["play.must-trump"] == (plays, trump)
    # Every bid and pass weighed the bid step, and every one of them could have broken it (a near miss).
    assert as_json["bid.step"] == (bidding, bidding)
    assert follow and trump and bidding


def test_a_rule_never_fires_more_often_than_it_runs_and_a_guard_switched_off_never_runs(game_record: Path) -> None:
    cov = Coverage()
    cover_record(read_record(game_record), cov)
    assert all(cov.counts.fired[r] <= cov.counts.ran[r] for r in cov.counts.ran)
    # In classic the overtaking obligation is off: its guard folds to false and is never evaluated.
    assert cov.counts.ran["play.no-overtake-obligation"] == 0
    assert "play.no-overtake-obligation" in cov.never_ran()


def test_coverage_counts_the_same_rule_ids_as_check(game_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["check", "classic"]) == 0
    checked = int(re.search(r"classic: (\d+) rules", capsys.readouterr().out).group(1))
    assert main(["coverage", str(game_record), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rulesets"] == [{"ruleset": "classic", "overlays": [], "rules": checked}]
    assert sorted(data["rules"]) == sorted(load_ruleset("classic").rules) and len(data["rules"]) == checked
    assert main(["coverage", str(game_record)]) == 0
    assert f"ruleset classic: {checked} rules, the rule ids `thousand check` counts" in capsys.readouterr().out


def test_without_alternatives_only_the_recorded_actions_are_checked() -> None:
    cov = Coverage()
    verdict = cover_record(read_record(INVALID / "play.must-trump--must-trump.json"), cov, alternatives=False)
    assert not verdict.valid
    # The one illegal card: must-trump fired once; the legal plays before it passed every guard.
    plays = sum(1 for d in read_record(INVALID / "play.must-trump--must-trump.json").data["deals"]
                for a in d["actions"] if a["action"] == "play")
    assert cov.counts.fired["play.must-trump"] == 1
    assert cov.counts.ran["play.must-trump"] == plays
    assert cov.counts.fired["play.follow-suit"] == 0 and cov.counts.fired["bid.step"] == 0


# ----------------------------------------------------------------------------- what was allowed

def _with_action(data: dict, deal: int, action: int, **fields) -> dict:
    out = copy.deepcopy(data)
    out["deals"][deal - 1]["actions"][action - 1].update(fields)
    return out


def _first_at(data: dict, name: str) -> tuple[int | None, int | None]:
    verdict = validate_record(load_record(data, name))
    assert verdict.error is None
    return (verdict.violations[0].deal, verdict.violations[0].action) if verdict.violations else (None, None)


def test_the_cards_allowed_at_a_wrong_play_are_exactly_those_that_pass_there() -> None:
    rec = read_record(INVALID / "play.must-trump--must-trump.json")
    judgement = judge(rec)
    v, game = judgement.verdict.violations[0], judgement.game
    assert game is not None
    nt = notation(game.rs)
    [group] = v.allowed.to_json()
    assert group["action"] == "play" and group["player"] == v.seat_name and group["field"] == "card"
    assert v.format().splitlines()[2] == f"    allowed: {v.seat_name} play " + ", ".join(group["values"])
    for card in game.v["hand"][v.seat]:
        name = nt.name(card)
        at = _first_at(_with_action(rec.data, v.deal, v.action, card=name), "try.json")
        assert (at != (v.deal, v.action)) == (name in group["values"]), name


def _expanded(groups: list[dict]) -> list[tuple]:
    """Every action a list of allowed groups stands for: (player, action, payload as sorted items)."""
    out = []
    for g in groups:
        if "field" not in g:
            out.append((g["player"], g["action"], ()))
            continue
        for v in g["values"]:
            xs = range(v["from"], v["to"] + 1, v["step"]) if isinstance(v, dict) else [v]
            out += [(g["player"], g["action"], tuple(sorted({**g["with"], g["field"]: x}.items()))) for x in xs]
    return out


@pytest.mark.parametrize("name", ["classic", "1k", "two-trading", "four-dummy", "mekedron-polish"])
def test_the_groups_allowed_are_every_legal_action_once_in_the_fewest_groups_of_one_listed_field(name) -> None:
    """What a violation says was allowed, at every decision of random games: expanded, the groups are the legal
    actions as a record writes them, each once; a player's actions of one kind are listed by the field that
    gives the fewest groups; and each group is written as the record writes its values (names, not numbers)."""
    from oracle.records.allowed import allowed_actions
    from oracle.records.codec import encode_action

    rs = load_ruleset(name)
    nt = notation(rs)
    players = ["Аня", "Boris", "C", "D"][:rs.players]
    seen = [0]

    def weigh(game: Game, action: Action) -> None:
        groups = list(allowed_actions(game, rs, nt, players).groups)
        if any(g.get("drawn") for g in groups):
            return
        legal = [encode_action(rs, nt, a, players) for a in game.legal_actions()]
        want = sorted((j.pop("seat"), j.pop("action"), tuple(sorted(j.items()))) for j in legal)
        assert sorted(_expanded(groups)) == want
        for player, kind in {(g["player"], g["action"]) for g in groups}:
            mine = [dict(p) for pl, k, p in want if (pl, k) == (player, kind)]
            fields = [f for f, _ in rs.actions[kind].fields]  # in the order the action declares them
            counts = [len({tuple(repr(p[f]) for f in fields if f != spread) for p in mine}) for spread in fields]
            theirs = [g for g in groups if (g["player"], g["action"]) == (player, kind)]
            assert len(theirs) == min(counts, default=1)
            if fields:  # the first field that gives the fewest
                assert {g["field"] for g in theirs} == {fields[counts.index(min(counts))]}
        seen[0] += 1

    for seed in range(2):
        play_random(Game(rs, seed=seed), random.Random(seed), on_action=weigh, hinted=seed % 2 == 0, max_deals=1)
    assert seen[0] > 10


def test_the_bids_allowed_are_a_range_with_its_step_and_each_one_passes() -> None:
    rec = read_record(INVALID / "bid.step--bad-step.json")
    v = validate_record(rec).violations[0]
    out = v.to_json()
    bid = next(g for g in out["allowed"] if g["action"] == "bid")
    [run] = bid["values"]
    assert set(run) == {"from", "to", "step"} and run["step"] > 1
    assert f"bid {run['from']}-{run['to']} (step {run['step']})" in out["allowed_text"]
    assert {"player": v.seat_name, "action": "pass"} in out["allowed"]
    for value in range(run["from"] - run["step"], run["to"] + 2 * run["step"], max(1, run["step"] // 5)):
        at = _first_at(_with_action(rec.data, v.deal, v.action, value=value), "try.json")
        inside = run["from"] <= value <= run["to"] and (value - run["from"]) % run["step"] == 0
        assert (at != (v.deal, v.action)) == inside, value


def test_a_wrong_result_is_allowed_only_the_value_the_rules_give() -> None:
    rec = read_record(INVALID / "scoring.defenders--wrong-result.json")
    v = validate_record(rec).violations[0]
    [group] = v.to_json()["allowed"]
    key = group["result"]
    assert group["player"] == v.seat_name and v.what.startswith(key)
    fixed = copy.deepcopy(rec.data)
    fixed["deals"][v.deal - 1]["result"][key][v.seat] = group["value"]
    assert validate_record(load_record(fixed, "fixed.json")).valid
    assert v.format().splitlines()[2] == f"    allowed: {v.seat_name} {key} {group['value']}"


def test_a_refused_deal_is_allowed_the_deal_the_rules_draw() -> None:
    v = validate_record(read_record(INVALID / "deal.hand-size-3p--not-the-pack.json")).violations[0]
    assert v.to_json()["allowed"] == [{"player": v.seat_name, "action": "deal", "drawn": True}]


def test_what_was_allowed_is_printed_in_russian_by_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(INVALID / "bid.step--bad-step.json"), "--lang", "ru", "--no-pager"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^    можно: P\d bid \d+-\d+ \(шаг \d+\); P\d pass", out, re.M), out
    assert "allowed:" not in out and "(step " not in out


def test_every_violation_of_the_classic_golden_games_says_what_was_allowed() -> None:
    for path in sorted(INVALID.glob("*.json")):
        v = validate_record(read_record(path)).violations[0]
        j = v.to_json()
        assert isinstance(j["allowed"], list) and j["allowed_text"] == v.allowed.text(v.seat_name)
        if v.reason not in ("after-end-of-deal", "game-over"):
            assert j["allowed"], path.name  # something was allowed at that point


# ----------------------------------------------------------------------------- real rules

def test_no_golden_record_expects_a_rule_that_is_not_a_rule() -> None:
    lib = load_library()
    known = set(lib.rules) | set(lib.overlays) | {RECORD_RULE}
    for path in GOLDEN.rglob("*.json"):
        expect = json.loads(path.read_text(encoding="utf-8")).get("expect") or {}
        if not expect.get("valid", True):
            assert expect["rule"] != "engine" and expect["rule"] in known, path


def test_every_refusal_at_every_point_of_a_game_names_a_rule_of_the_ruleset(game_record: Path) -> None:
    rs = load_ruleset("classic")
    rules: set[str] = set()

    def look(game: Game, action: Action) -> None:
        rules.update(rej.rule_id for _, rej in decision_checks(game, action) if rej is not None)
    assert validate_record(read_record(game_record), decisions=look).valid
    assert rules and rules <= set(rs.rules), rules - set(rs.rules)


def test_refusals_out_of_turn_out_of_phase_and_after_the_end_blame_the_rule_that_made_the_situation() -> None:
    """The rule charged is one that set the turn, the phase or the end of the game: the clause that last
    changed it, or one that assigned it again since (the same seat), or the rule whose definition that
    clause used to compute it (turn = first_leader() is play.first-lead's decision); seen by watching
    every clause run, not through the interpreter's own bookkeeping."""
    rs = load_ruleset("classic")
    setters: dict[str, set[str]] = {}

    def tracer(effect, before: bytes, after: dict) -> None:
        old = pickle.loads(before)
        for var in ("turn", "phase", "game_over", "dealer"):
            if old[var] != after[var]:
                setters[var] = {effect.rule_id} | effect.deps
            elif var in effect.writes and var in setters:
                setters[var] |= {effect.rule_id} | effect.deps
    game = Game(rs, dealer=0, seed=7, tracer=tracer)
    counted = {"not-your-turn": 0, "wrong-phase": 0}

    def probe(g: Game, action: Action) -> None:
        decl = rs.actions[action.kind]
        if decl.actor == "turn" and "turn" in setters:
            other = (action.seat + 1) % g.v["n_seats"]
            rej = g.check(Action(action.kind, other, action.payload))
            assert rej is not None and rej.reason == "not-your-turn" and rej.rule_id in setters["turn"]
            counted["not-your-turn"] += 1
        for name, d in rs.actions.items():
            if d.phase != g.phase and "phase" in setters:
                rej = g.check(Action(name, action.seat, {f: None for f, _ in d.fields}))
                assert rej is not None and rej.reason == "wrong-phase" and rej.rule_id in setters["phase"]
                counted["wrong-phase"] += 1
                break
    play_random(game, random.Random(7), on_action=probe, hinted=True)
    assert game.over and all(counted.values()), counted
    rej = game.check(Action("pass", 0, {}))
    assert rej is not None and rej.reason == "game-over" and rej.rule_id in setters["game_over"]
    assert set().union(*setters.values()) <= set(rs.rules)


# ----------------------------------------------------------------------------- coverage, quickly

def _outcomes_the_careful_way(game: Game, action: Action) -> set:
    return {(ca, None, None) if rej is None else (ca, rej.rule_id, rej.reason)
            for ca, rej in decision_checks(game, action)}


@pytest.mark.parametrize("ruleset", ["classic", "four-dummy", "computer-game"])
def test_coverage_weighs_every_candidate_as_game_check_does_at_every_decision_of_a_generated_game(
        ruleset: str, tmp_path: Path) -> None:
    """The quick way through the candidates finds the same outcomes as checking each through Game.check."""
    path = tmp_path / "game.json"
    assert main(["play", "--ruleset", ruleset, "--seed", "3", "--max-deals", "6", "--out", str(path)]) == 0
    seen = {"points": 0, "refusals": set()}

    def look(game: Game, action: Action) -> None:
        careful = _outcomes_the_careful_way(game, action)
        assert decision_outcomes(game, action) == careful, (action, game.phase)
        seen["points"] += 1
        seen["refusals"] |= {reason for _, _, reason in careful}
    validate_record(read_record(path), decisions=look)
    assert seen["points"] > 50 and {"not-available", "must-follow-suit", "bad-step"} <= seen["refusals"]


@pytest.mark.parametrize("ruleset", ["classic", "mekedron-polish", "two-trading"])
def test_coverage_counts_each_decision_as_the_careful_checks_of_every_candidate_and_the_action_do(
        ruleset: str, tmp_path: Path) -> None:
    """Coverage takes the action's own outcome from the replay's check of it, after weighing the candidates
    before it: the counts are those of checking every candidate and the action through Game.check at each
    decision, for a whole record and for one cut at a refused action (counted up to it, the refusal too)."""
    path = tmp_path / "game.json"
    assert main(["play", "--ruleset", ruleset, "--seed", "5", "--max-deals", "4", "--out", str(path)]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    wrong = copy.deepcopy(data)
    deal = wrong["deals"][1]
    # The deal's last action taken by the next seat: out of turn.
    last = deal["actions"][-1]
    seats = list(data["players"])
    last["seat"] = seats[(seats.index(last["seat"]) + 1) % len(seats)]
    (tmp_path / "wrong.json").write_text(json.dumps(wrong), encoding="utf-8")
    for record in (path, tmp_path / "wrong.json"):
        careful = RuleCounts()
        verdict = judge(read_record(record), counts=careful,
                        decisions=lambda game, action, counts=careful: counts.decision(decision_checks(game, action))
                        ).verdict
        quick = Coverage()
        assert cover_record(read_record(record), quick).valid == verdict.valid
        rs = load_ruleset(ruleset)
        for pname in (*DECK_PARAMS, SEATS_PARAM, *NOTATION_PARAMS):  # what reading a record uses, as coverage counts
            if pname in rs.resolved.params:
                careful.reading(rs.resolved.params[pname].rule_id)
        assert (quick.counts.ran, quick.counts.fired) == (careful.ran, careful.fired), record.name
    assert not verdict.valid  # the second record was cut at its refusal


def test_coverage_in_parallel_processes_counts_exactly_what_one_process_counts(
        game_record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(game_record), *sorted(str(p) for p in INVALID.glob("*.json"))[:5],
             str(GOLDEN / "classic" / "valid" / "seed-0.json")]
    capsys.readouterr()
    assert main(["coverage", *files, "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["coverage", *files, "--format", "json", "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == one
    assert one["files"] == 7 and len(one["invalid"]) == 5
    assert main(["coverage", *files, "--jobs", "0"]) == 64
