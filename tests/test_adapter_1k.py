"""The npm package 1k (version 0.0.11), driven through its protocol adapter (examples/adapters/1k).

The ruleset 1k agrees with the library everywhere but at the two library bugs documented in
docs/reference/1k-findings.md: a player who has passed gets the turn back in the auction, and the
declarer may "give" a card to himself. The harness must reproduce both, every disagreement it
reports must go back to one of them, and games that avoid them must agree move for move and score
for score. The tests skip, saying why, where node or npm is missing or the package cannot be
installed (no network).
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from oracle.cards import notation
from oracle.conform import OracleEngine, SubprocessEngine, run_conformance
from oracle.conform.harness import _by_hint
from oracle.engine import Game
from oracle.records import encode_action, encode_value, read_record, sheet_value
from oracle.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "examples" / "adapters" / "1k"
PLAYERS = ["P1", "P2", "P3"]
PASSED_PLAYER_SPEAKS = "passed-player-speaks"
GIVE_TO_SELF = "give-to-self"


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The command that starts the adapter, with the package installed (reused, or `npm ci` in a copy)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node or npm is not installed: the 1k adapter (examples/adapters/1k) cannot run")
    folder = ADAPTER
    if not (ADAPTER / "node_modules" / "1k" / "package.json").is_file():
        folder = tmp_path_factory.mktemp("adapter-1k")
        for name in ("package.json", "package-lock.json", "adapter.js"):
            shutil.copy2(ADAPTER / name, folder / name)
        try:
            proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts",
                                   "--fetch-retries=1", "--fetch-timeout=30000"], cwd=folder,
                                  capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            pytest.skip(f"npm ci for the 1k adapter did not finish ({exc}); no network?")
        if proc.returncode != 0:
            tail = " ".join((proc.stderr or proc.stdout).split())[-300:]
            pytest.skip(f"npm ci for the 1k adapter failed (no network?): {tail}")
    installed = json.loads((folder / "node_modules" / "1k" / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == "0.0.11", "package-lock.json must pin 1k 0.0.11"
    return f"{shlex.quote(node)} {shlex.quote(str(folder / 'adapter.js'))}"


def _key(action: dict[str, Any]) -> str:
    return json.dumps({k: v.upper() if isinstance(v, str) else v for k, v in action.items()}, sort_keys=True)


def _is_self_give(key: str) -> bool:
    a = json.loads(key)
    return a["action"] == "GIVE" and a["to"] == a["seat"]


# --------------------------------------------------------------------------- the handshake

def test_the_handshake_says_what_the_adapter_projects_and_cannot_do(adapter: str) -> None:
    engine = SubprocessEngine(adapter, timeout=10)
    try:
        caps = engine.hello()
    finally:
        engine.close()
    assert caps["explicit_deal"] and caps["legal_actions"] and caps["results"] and caps["set_state"]
    assert caps["library"] == "1k@0.0.11" and caps["players"] == [3]
    assert {"deal", "take-talon", "announce", "marriage", "set_state", "results"} <= set(caps["projection"])
    assert any("raising" in x for x in caps["not_supported"])


# --------------------------------------------------------------------------- the harness finds both bugs

def _divergence_shown(record: dict[str, Any], command: str) -> str:
    """Replay a counterexample on the oracle and a fresh adapter; say which bug its last difference is.

    A counterexample ends at the difference it shows; an earlier deal may show the other bug on the way
    (play goes on with what both sides allow), so the last difference is the one it is evidence of."""
    players = record["players"]
    start = record.get("start") or {}
    dealer = players.index(start.get("dealer") or record["first_dealer"])

    def seat(x: Any) -> int:
        return players.index(x) if isinstance(x, str) else int(x)

    oracle, engine = OracleEngine("1k"), SubprocessEngine(command, timeout=10)
    shown = "none"
    try:
        engine.hello()
        for e in (oracle, engine):
            e.new_game("1k", players, dealer)
            if start.get("state"):
                e.set_state(start["state"])
        for deal in record["deals"]:
            for e in (oracle, engine):
                e.deal({"hands": deal["hands"], "talon_cards": deal["talon_cards"]})
            for raw in [*deal["actions"], None]:
                mine = {_key(a) for a in oracle.legal()}
                theirs = {_key(a) for a in engine.legal()}
                here = None
                if mine != theirs:
                    g = oracle.game
                    assert g is not None
                    passed = {s for s in range(3) if g.v["passed"][s]}
                    speakers = {json.loads(k)["seat"] for k in theirs}
                    if any(_is_self_give(k) for k in theirs - mine):
                        here = GIVE_TO_SELF
                    elif g.phase == "bidding" and passed and speakers <= passed:
                        here = PASSED_PLAYER_SPEAKS
                    else:
                        return f"other: engine extra {sorted(theirs - mine)[:3]}, missing {sorted(mine - theirs)[:3]}"
                    shown = here
                if raw is None:
                    break
                a = {k: seat(v) if k in ("seat", "to") else v for k, v in raw.items()}
                ours, their = oracle.apply(dict(a)), engine.apply(dict(a))
                if ours[0] != their[0]:
                    return here or f"other: {a} oracle {ours} engine {their}"
        return shown
    finally:
        engine.close()


@pytest.mark.deep  # the reference run (120 games through node); the next test drives the adapter quickly
def test_the_harness_reproduces_the_two_findings_and_nothing_else(adapter: str, tmp_path: Path) -> None:
    engine = SubprocessEngine(adapter, timeout=10)
    try:
        report = run_conformance(engine, "1k", examples=120, round_examples=20, seed=1, shrink_seconds=600,
                                 shrink_examples=60, out_dir=tmp_path)
    finally:
        engine.close()
    assert report.failure is None, report.format()
    found = {(d.kind, d.rule) for d in report.disagreements}
    # The two bugs, as the harness names them (docs/reference/1k-findings.md).
    assert ("legal-actions", "talon.pass-cards") in found, report.format()
    assert ("legal-actions", "bid.order") in found, report.format()
    self_give = next(d for d in report.disagreements if (d.kind, d.rule) == ("legal-actions", "talon.pass-cards"))
    assert "give" in self_give.detail and "allows" in self_give.detail
    # Two root causes, one per bug; what follows from them is filed under them.
    assert len(report.disagreements) == 2, report.format()
    # The adapter's declared projection and unsupported features are in the report.
    assert "raising the contract" in report.format() and "projects its game" in report.format()
    roots = Counter()
    for d in [x for r in report.disagreements for x in (r, *r.consequences)]:
        assert d.record is not None and d.record.get("_file"), d.detail
        record = json.loads(Path(d.record["_file"]).read_text(encoding="utf-8"))
        read_record(Path(d.record["_file"]))  # a record `thousand validate` reads
        root = _divergence_shown(record, adapter)
        assert root in (PASSED_PLAYER_SPEAKS, GIVE_TO_SELF), f"{d.kind} [{d.rule}] {d.detail}: {root}"
        roots[root] += 1
    assert set(roots) == {PASSED_PLAYER_SPEAKS, GIVE_TO_SELF}, roots


# --------------------------------------------------------------------------- everything else agrees

# Start scores: the 880 lock and the barrel's ban on bombs need a player at 880 or more.
STARTS = [[0, 0, 0], [0, 300, 860], [880, 0, 600], [990, 990, 990], [900, 870, 0], [950, 0, 760]]


def test_games_that_avoid_the_two_bugs_agree_move_for_move_and_score_for_score(adapter: str) -> None:
    rs = load_ruleset("1k")
    nt = notation(rs)
    engine = SubprocessEngine(adapter, timeout=10)
    seen: Counter[str] = Counter()
    try:
        engine.hello()
        for seed in range(12):
            _one_game(engine, rs, nt, seed, seen)
    finally:
        engine.close()
    # The rules this test is about were all exercised (the seeds are fixed, so are the counts).
    for what in ("deal scored", "mark rospis", "mark low-points-redeal", "mark marriage", "mark locked",
                 "contract raised", "contract 300", "trump instead of following", "illegal rejected", "game over"):
        assert seen[what] > 0, f"never exercised: {what} ({dict(seen)})"


def _one_game(engine: SubprocessEngine, rs: Any, nt: Any, seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    dealer = seed % 3
    engine.new_game("1k", PLAYERS, dealer)
    start = STARTS[seed % len(STARTS)]
    game = Game(rs, dealer=dealer, seed=seed, values={"score": list(start)} if any(start) else None)
    if any(start):
        engine.set_state({"score": start})
    compared = 0
    while len(game.sheet) < 4 and not game.over:
        decl = game.chance_action()
        if decl is not None:
            action = game.sample()
            engine.deal({f: encode_value(action.payload[f], t, nt) for f, t in decl.fields})
            game.apply(action)
        else:
            _one_step(engine, rs, nt, game, rng, seen)
        if len(game.sheet) > compared:
            theirs = engine.results()
            assert len(theirs) == len(game.sheet), f"seed {seed}: {len(theirs)} rows, the rules {len(game.sheet)}"
            for i in range(compared, len(game.sheet)):
                row = game.sheet[i]
                for key, value in theirs[i].items():
                    want = sheet_value(rs, nt, key, row[key], [0, 1, 2])
                    assert value == want, f"seed {seed}, deal {i + 1}: {key} is {value}, the rules give {want}"
                seen["deal scored"] += 1
                seen.update(f"mark {m[0]}" for m in row["marks"])
                seen["contract 300"] += row["contract"] == 300
            compared = len(game.sheet)
    if game.over:  # somebody reached 1000: 1k's game is finished too
        assert engine.legal() == []
        seen["game over"] += 1


def _one_step(engine: SubprocessEngine, rs: Any, nt: Any, game: Game, rng: random.Random, seen: Counter[str]) -> None:
    legal = game.legal_actions()
    mine = {_key(encode_action(rs, nt, a)): a for a in legal}
    theirs = {_key(a) for a in engine.legal()}
    extra, missing = theirs - set(mine), set(mine) - theirs
    assert not missing and all(_is_self_give(k) for k in extra), (extra, missing)
    # An illegal action now and then: a bid off the step, or a card that does not follow suit.
    turn = game.v["turn"]
    if game.phase == "bidding" and rng.random() < 0.3:
        bad = {"seat": turn, "action": "bid", "value": game.v["bid"] + 15}
        assert engine.apply(bad)[0] is False, bad
        seen["illegal rejected"] += 1
    if game.phase == "play" and game.v["trick"]:
        wrong = [c for c in game.v["hand"][turn]
                 if _key({"seat": turn, "action": "play", "card": encode_value(c, "card", nt), "marriage": False})
                 not in mine]
        if wrong:
            bad = {"seat": turn, "action": "play", "card": encode_value(rng.choice(wrong), "card", nt),
                   "marriage": False}
            assert engine.apply(bad)[0] is False, bad
            seen["illegal rejected"] += 1
    choices = list(legal)
    if game.phase == "bidding":
        # Once somebody has passed, everybody passes: the auction then never reaches a player who has
        # passed, where 1k goes wrong (finding 1).
        passes = [a for a in choices if a.kind == "pass"]
        bids = sorted((a for a in choices if a.kind == "bid"), key=lambda a: a.payload["value"])
        if any(game.v["passed"]) or rng.random() < 0.5 or not bids:
            choices = passes or choices
        elif rng.random() < 0.7:
            choices = bids[:1]
    # Mostly the simple bot's move in the play, so that contracts are made and games end.
    action = _by_hint(game, choices)[0] if game.phase == "play" and rng.random() < 0.7 else rng.choice(choices)
    encoded = encode_action(rs, nt, action)
    if action.kind == "announce" and action.payload["value"] > game.v["contract"]:
        seen["contract raised"] += 1
    if action.kind == "play" and game.v["trick"] and game.v["trump"] is not None:
        card = encoded["card"]
        led = encode_value(game.v["trick"][0], "card", nt)[-1]
        held = [encode_value(c, "card", nt)[-1] for c in game.v["hand"][action.seat]]
        trump = encode_value(game.v["trump"], "suit", nt)
        if card[-1] == trump != led and led in held:
            seen["trump instead of following"] += 1
    accepted, reason = engine.apply(encoded)
    assert accepted, f"the engine rejected the legal {encoded}: {reason}"
    game.apply(action)
