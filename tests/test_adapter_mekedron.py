"""mekedron/thousand (Lua 5.1), driven through its protocol driver (examples/adapters/mekedron).

docs/reference/mekedron-findings.md says, configuration by configuration, where the engine and our
presets agree and where they differ. These tests hold the page to it: the harness must find the
documented differences and name their rules, every counterexample kept with the page must still show
its difference on both sides, and games that avoid the differences must agree move for move and score
for score. They skip, saying why, where lua5.1 or the engine's folder is missing.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from oracle.cards import notation
from oracle.conform import OracleEngine, SubprocessEngine, run_conformance
from oracle.conform.engines import EngineFailure
from oracle.conform.harness import _by_hint
from oracle.engine import Game
from oracle.records import encode_action, encode_value, judge, load_record, read_record, sheet_value, validate_record
from oracle.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "examples" / "adapters" / "mekedron" / "thousand_engine.lua"
EXAMPLES = ROOT / "docs" / "reference" / "mekedron-counterexamples"
PLAYERS = ["P1", "P2", "P3"]


def _engine_dir() -> Path:
    """$MEKEDRON_THOUSAND_DIR, else shared/engines/mekedron-thousand beside the repository or any folder above
    it (a worktree sits deeper than the main checkout)."""
    given = os.environ.get("MEKEDRON_THOUSAND_DIR")
    if given:
        return Path(given)
    for folder in ROOT.parents:
        candidate = folder / "shared" / "engines" / "mekedron-thousand"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "engines" / "mekedron-thousand"


@pytest.fixture(scope="module")
def command() -> Any:
    """A function giving the command that starts the driver for one configuration."""
    lua = shutil.which("lua5.1")
    if lua is None:
        pytest.skip("lua5.1 is not installed (apt-get install lua5.1): the mekedron driver cannot run")
    folder = _engine_dir()
    if not (folder / "app" / "session.lua").is_file():
        pytest.skip(f"no mekedron/thousand engine at {folder} (set MEKEDRON_THOUSAND_DIR to its folder)")

    def make(config: str) -> str:
        return f"{shlex.quote(lua)} {shlex.quote(str(DRIVER))} {config} --engine-dir {shlex.quote(str(folder))}"
    return make


def _key(action: dict[str, Any]) -> str:
    return json.dumps({k: v.upper() if isinstance(v, str) else v for k, v in action.items()}, sort_keys=True)


# --------------------------------------------------------------------------- the handshake

def test_the_handshake_says_what_the_driver_projects_and_cannot_do(command: Any) -> None:
    engine = SubprocessEngine(command("russian"), timeout=10)
    try:
        caps = engine.hello()
    finally:
        engine.close()
    assert caps["explicit_deal"] and caps["legal_actions"] and caps["results"] and caps["set_state"]
    assert caps["players"] == [3] and "d52da93886f3fd57ad73ef9b49c2f5de4f2e266c" in caps["library"]
    assert {"deal", "seats", "announce", "concede", "play", "set_state", "results"} <= set(caps["projection"])
    assert "expose-card" in caps["not_supported"]


def test_an_unknown_configuration_is_refused_before_the_handshake(command: Any) -> None:
    engine = SubprocessEngine(command("klondike"), timeout=10)
    try:
        with pytest.raises(Exception) as err:
            engine.hello()
    finally:
        engine.close()
    assert "exited (code 2)" in str(err.value) and "no built-in configuration klondike" in str(err.value)


def test_a_set_state_on_the_barrel_is_refused_by_name(command: Any) -> None:
    engine = SubprocessEngine(command("russian"), timeout=10)
    try:
        engine.hello()
        engine.new_game("mekedron-russian", PLAYERS, 0)
        with pytest.raises(Exception) as err:
            engine.set_state({"score": [880, 0, 0]})
    finally:
        engine.close()
    assert "on the barrel" in str(err.value)


# --------------------------------------------------------------------------- the harness finds the findings

# The differences docs/reference/mekedron-findings.md lists for each configuration, by the rule the
# harness names: two engine bugs, both rare in generated play.
# bid.max-300 is our decision, not a bug: the engine takes a raise above 400, which it does not limit, and
# the harness offers one (every illegal candidate is offered).
DOCUMENTED = {
    "russian": {"play.no-overtake-obligation", "barrel.three-falls", "bid.max-300"},
    "ukrainian": {"play.no-overtake-obligation", "bid.max-300"},
    "four_player_b": {"play.no-overtake-obligation", "bid.order", "bid.max-300"},
    "four_player_a": {"play.no-overtake-obligation", "bid.order"},
    "two_player_b": {"play.no-overtake-obligation", "bid.order", "bid.max-300"},
    # players-2.stock restates the must-beat clause (beating binds once the stock is gone), so bug 1 is
    # named by it here.
    "two_player_a": {"players-2.stock", "bid.order"},
}


@pytest.mark.parametrize("config", ["russian", "ukrainian", "four_player_b", "four_player_a", "two_player_b",
                                    "two_player_a"])
def test_the_harness_finds_nothing_but_the_documented_differences(command: Any, config: str,
                                                                 tmp_path: Path) -> None:
    engine = SubprocessEngine(command(config), timeout=10)
    try:
        report = run_conformance(engine, f"mekedron-{config.replace('_', '-')}", examples=12, seed=1, rounds=2,
                                 shrink_seconds=2, out_dir=tmp_path)
    finally:
        engine.close()
    assert report.failure is None, report.format()
    assert report.actions_compared > 500, report.format()
    assert {d.rule for d in report.disagreements} <= DOCUMENTED[config], report.format()
    for d in report.disagreements:
        assert d.record is not None and d.record.get("_file"), d.detail
        read_record(Path(d.record["_file"]))  # a record `thousand validate` reads
        if d.rule == "players-2.stock":
            game = judge(load_record({k: v for k, v in d.record.items() if k != "_file"})).game
            assert game is not None
            # bug 1 only: a trump led, with the stock gone (while it lasts nothing is refused)
            assert game.v["led"] == game.v["trump"] and not game.v["talon"], d.detail


def test_polish_agrees_but_for_the_auction_and_trick_bugs(command: Any) -> None:
    engine = SubprocessEngine(command("polish"), timeout=10)
    try:
        report = run_conformance(engine, "mekedron-polish", examples=12, seed=1, rounds=2, shrink_seconds=1)
    finally:
        engine.close()
    assert report.failure is None, report.format()
    assert report.actions_compared > 500, report.format()
    # The talon passed without taking it agrees; what is left is bug 3 (the last player not asked) and
    # bug 1 (a trump lead need not be beaten), which also shows as "play your highest" when the follower
    # could beat the trump led with a lower trump than his highest.
    assert {d.rule for d in report.disagreements} <= {"bid.order", "play.no-overtake-obligation",
                                                      "mekedron.polish-play-highest"}, report.format()
    for d in report.disagreements:
        if d.rule == "mekedron.polish-play-highest":
            game = judge(load_record(d.record)).game
            assert game is not None
            assert game.v["led"] == game.v["trump"], d.detail  # bug 1: only a trump lead


# --------------------------------------------------------------------------- the kept counterexamples

def _replay(record: dict[str, Any], ruleset: str, cmd: str,
            params: dict[str, Any] | None = None) -> tuple[list[str], list[dict[str, Any]]]:
    """Play a record on the oracle (the ruleset with ``params`` set) and the engine; return the differences
    seen and the engine's sheet."""
    players = record["players"]
    start = record.get("start") or {}
    dealer = players.index(start.get("dealer") or record["first_dealer"])

    def seat(x: Any) -> int:
        return players.index(x) if isinstance(x, str) else int(x)

    oracle, engine = OracleEngine(ruleset, params=params), SubprocessEngine(cmd, timeout=10)
    seen: list[str] = []
    try:
        engine.hello()
        for e in (oracle, engine):
            e.new_game(ruleset, players, dealer)
            if start.get("state"):
                e.set_state(start["state"])
        for deal in record["deals"]:
            for e in (oracle, engine):
                e.deal({"hands": deal["hands"], "talon_cards": deal["talon_cards"]})
            for raw in deal["actions"]:
                a = {k: seat(v) if k in ("seat", "to") else v for k, v in raw.items()}
                mine = {_key(x) for x in oracle.legal()}
                if _key(a) not in mine:
                    seen.append(f"oracle forbids {a['action']} {a.get('card', a.get('value', ''))}")
                    accepted, _ = engine.apply(dict(a))
                    seen.append("engine accepts" if accepted else "engine rejects")
                    break
                assert engine.apply(dict(a))[0], a
                oracle.apply(dict(a))
        theirs = engine.results()
        for i, row in enumerate(oracle.results()):
            for key, value in (theirs[i] if i < len(theirs) else {}).items():
                if key in row and value != row[key]:
                    seen.append(f"deal {i + 1} {key}: engine {value}, oracle {row[key]}")
        return seen, theirs
    finally:
        engine.close()


def _load(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_the_engine_sets_no_maximum_contract(command: Any) -> None:
    record = _load("russian-raise-above-300.json")
    # Under the preset (max_bid 400) the record's raise to 310 is legal on both sides...
    assert _replay(record, "mekedron-russian", command("russian"))[0] == []
    # ...but the engine takes a raise to 1000 as well, which no hand can make (finding 1).
    for action in record["deals"][-1]["actions"]:
        if action["action"] == "announce":
            action["value"] = 1000
    seen, _ = _replay(record, "mekedron-russian", command("russian"))
    assert seen[:2] == ["oracle forbids announce 1000", "engine accepts"], seen


@pytest.mark.parametrize("name, config, check", [
    # A defender from 860 takes 145 with a marriage: 1005, the game is won, no stop on the barrel.
    ("russian-barrel-jumped-over.json", "russian", lambda rows: rows[0]["score"][0] == 1005),
    # P3 climbs on the barrel and knocks P1 off: 760, and still two falls (a knock-off is no fall).
    ("russian-knock-off-is-no-fall.json", "russian",
     lambda rows: rows[1]["score"][0] == 760 and rows[1]["barrel_falls"][0] == 2),
    # Two defenders reach 880 at once: the lower seat, P2, stays; P3 is knocked off to 760.
    ("ukrainian-two-mount-at-once.json", "ukrainian",
     lambda rows: rows[0]["on_barrel"] == [False, True, False] and rows[0]["score"][2] == 760),
    # The same in the Polish game (found by the harness once illegal offers reached every candidate): P1 stays.
    ("polish-two-mount-at-once.json", "polish",
     lambda rows: rows[0]["on_barrel"] == [True, False, False] and rows[0]["score"][2] == 760),
])
def test_the_engines_barrel_is_stated_by_the_preset(command: Any, name: str, config: str, check: Any) -> None:
    seen, theirs = _replay(_load(name), f"mekedron-{config}", command(config))
    assert seen == [], seen
    assert check(theirs), theirs


def test_bug_a_trump_lead_need_not_be_beaten(command: Any) -> None:
    record = _load("russian-no-beat-on-trump-lead.json")
    verdict = validate_record(read_record(EXAMPLES / "russian-no-beat-on-trump-lead.json"))
    assert [v.rule for v in verdict.violations] == ["play.no-overtake-obligation"]
    seen, _ = _replay(record, "mekedron-russian", command("russian"))
    assert seen == ["oracle forbids play 9H", "engine accepts"], seen


def test_bug_a_trump_lead_need_not_be_beaten_with_the_stock_gone(command: Any) -> None:
    # Spades are trump from the stock's bottom card (QS); the stock is gone after three tricks, in which P1
    # trumped a diamond he could follow (no duty while it lasts). P1 leads 10S, and the engine lets P2 play
    # 9S though he holds AS.
    name = "two-player-a-no-beat-on-trump-lead.json"
    verdict = validate_record(read_record(EXAMPLES / name))
    assert [v.rule for v in verdict.violations] == ["players-2.stock"]
    seen, _ = _replay(_load(name), "mekedron-two-player-a", command("two_player_a"))
    assert seen == ["oracle forbids play 9S", "engine accepts"], seen
    # With the duties binding from the first trick (not the engine's rule), P1's JS on AD is refused.
    seen, _ = _replay(_load(name), "mekedron-two-player-a", command("two_player_a"),
                      params={"free_play_while_stock": False})
    assert seen == ["oracle forbids play JS", "engine accepts"], seen


def test_bug_a_fall_during_a_write_off_is_not_counted(command: Any) -> None:
    seen, theirs = _replay(_load("russian-write-off-fall-not-counted.json"), "mekedron-russian",
                           command("russian"))
    # P1, with two falls, runs out his barrel in the deal he writes off: his third fall.
    assert theirs[3]["conceded"] is True and theirs[3]["declarer"] == 0
    assert theirs[3]["score"][0] == 760 and theirs[3]["barrel_falls"][0] == 2
    assert "deal 4 barrel_falls: engine [2, 0, 0], oracle [0, 0, 0]" in seen, seen
    assert "deal 4 score: engine [760, 10, -385], oracle [0, 10, -385]" in seen, seen


@pytest.mark.parametrize("name, config, last", [("polish-dealer-not-asked.json", "polish", 0),
                                               ("four-player-b-last-player-not-asked.json", "four_player_b", 3),
                                               ("two-player-b-last-player-not-asked.json", "two_player_b", 0),
                                               ("two-player-a-last-player-not-asked.json", "two_player_a", 0)])
def test_bug_the_last_player_is_not_asked_when_nobody_has_bid(command: Any, name: str, config: str,
                                                             last: int) -> None:
    record = _load(name)
    ruleset = f"mekedron-{config.replace('_', '-')}"
    seen, theirs = _replay(record, ruleset, command(config))
    # The engine has ended the deal as "all pass": a row with no declarer.
    assert seen == [] and theirs and theirs[0]["declarer"] is None, (seen, theirs)
    # The oracle still asks the last player, who has not spoken.
    players = record["players"]
    oracle = OracleEngine(ruleset)
    oracle.new_game(ruleset, players, players.index(record["first_dealer"]))
    deal = record["deals"][0]
    oracle.deal({"hands": deal["hands"], "talon_cards": deal["talon_cards"]})
    for raw in deal["actions"]:
        assert oracle.apply({**raw, "seat": players.index(raw["seat"])})[0], raw
    assert {"seat": last, "action": "bid", "value": 100} in oracle.legal()


def test_four_player_b_partners_pool_their_scores(command: Any) -> None:
    # P2 plays 100 and takes 82 himself; with his partner P4's points the side has made it: +100 for both
    # (the oracle once wrote -100 to P2 and 140 to P4; players-4.partners states the teams).
    seen, theirs = _replay(_load("four-player-b-partners-pool.json"), "mekedron-four-player-b",
                           command("four_player_b"))
    assert seen == [], seen
    assert theirs[0]["score"] == [0, 100, 0, 100] and theirs[0]["delta"] == [0, 100, 0, 100], theirs
    alone = load_ruleset("mekedron-four-player-b", params={"team_contract": False, "team_score": False})
    assert alone.teams is not None and alone.teams.sharing == ("bolts", "on_barrel", "barrel_deals", "barrel_falls")


def test_two_player_b_counts_the_discard_for_the_declarer(command: Any) -> None:
    record = _load("two-player-b-discard-counts.json")
    # P1 gives QD, discards 10D and takes 73 in tricks: the preset counts the ten for him, as the engine does.
    seen, theirs = _replay(record, "mekedron-two-player-b", command("two_player_b"))
    assert seen == [] and theirs[0]["taken_points"] == [83, 10], (seen, theirs)
    # The card laid onto the dead hand counting for nobody (two-dead-hand's reading) is what differed.
    seen, _ = _replay(record, "mekedron-two-player-b", command("two_player_b"),
                      params={"dead_hand_discard_points": "nobody"})
    assert "deal 1 taken_points: engine [83, 10], oracle [73, 10]" in seen, seen


def test_two_player_b_gives_the_card_before_the_discard(command: Any) -> None:
    record = _load("two-player-b-discard-counts.json")
    deal = record["deals"][0]
    taken = [a["action"] for a in deal["actions"]].index("take-talon") + 1
    engine = SubprocessEngine(command("two_player_b"), timeout=10)
    try:
        engine.hello()
        engine.new_game("mekedron-two-player-b", record["players"], 1)
        engine.deal({"hands": deal["hands"], "talon_cards": deal["talon_cards"]})
        for raw in deal["actions"][:taken]:
            assert engine.apply({**raw, "seat": record["players"].index(raw["seat"])})[0], raw
        theirs = {a["action"] for a in engine.legal()}
    finally:
        engine.close()
    assert theirs == {"give"}, theirs

    def after_taking(params: dict[str, Any] | None) -> set[str]:
        oracle = OracleEngine("mekedron-two-player-b", params=params)
        oracle.new_game("mekedron-two-player-b", record["players"], 1)
        oracle.deal({"hands": deal["hands"], "talon_cards": deal["talon_cards"]})
        for raw in deal["actions"][:taken]:
            assert oracle.apply({**raw, "seat": record["players"].index(raw["seat"])})[0], raw
        return {a["action"] for a in oracle.legal()}

    assert after_taking(None) == theirs
    # Our dead-hand game lets the declarer discard first: the order is the preset's give_discard_order.
    assert after_taking({"give_discard_order": "any"}) == {"give", "discard"}


# --------------------------------------------------------------------------- everything else agrees

# Start values that reach the rules the page says agree: bolts one short of the penalty, scores a deal
# from the dump truck or the barrel.
STARTS = [
    {},
    {"bolts": [2, 2, 2]},
    {"score": [535, 545, 550], "bolts": [0, 2, 0]},
    {"score": [600, 860, 0], "barrel_falls": [2, 2, 0]},
    {"score": [550, 545, 540]},
    {"score": [-435, -450, -445], "bolts": [1, 1, 1]},
    {"rospis_count": [2, 2, 2], "no_win": [2, 2, 2]},
]


@pytest.mark.parametrize("config", ["russian", "ukrainian"])
def test_games_that_avoid_the_differences_agree_move_for_move_and_score_for_score(command: Any,
                                                                                 config: str) -> None:
    rs = load_ruleset(f"mekedron-{config}")
    nt = notation(rs)
    engine = SubprocessEngine(command(config), timeout=10)
    seen: Counter[str] = Counter()
    try:
        engine.hello()
        for seed in range(24):
            _one_game(engine, rs, nt, config, seed, seen)
        # The dump truck needs a deal that ends exactly on 555: games from just below it until one does.
        for seed in range(100, 160):
            if seen["mark samosval"] or config != "russian":
                break
            _one_game(engine, rs, nt, config, seed, seen, {"score": [550, 545, 540]})
    finally:
        engine.close()
    wanted = ["deal scored", "mark marriage", "contract raised", "raise in tens", "illegal rejected"]
    if config == "russian":
        wanted += ["mark rospis", "mark rospis-penalty", "mark bolt", "mark bolt-penalty", "mark no-win-penalty",
                   "mark samosval"]
    wanted += ["mark barrel-mount"]
    for what in wanted:
        assert seen[what] > 0, f"never exercised: {what} ({dict(seen)})"


# Partners on one score, near the barrel and the target, so that a side climbs on, sits out and wins.
STARTS_4 = [{}, {"score": [760, 0, 760, 0]}, {"score": [860, 840, 860, 840]}, {"score": [0, 870, 0, 870]},
            {"score": [600, 700, 600, 700]}]


@pytest.mark.parametrize("config", ["four_player_b", "four_player_a"])
def test_four_players_agree_move_for_move_and_score_for_score(command: Any, config: str) -> None:
    rs = load_ruleset(f"mekedron-{config.replace('_', '-')}")
    nt = notation(rs)
    engine = SubprocessEngine(command(config), timeout=10)
    seen: Counter[str] = Counter()
    try:
        engine.hello()
        for seed in range(30):
            _one_game(engine, rs, nt, config, seed, seen, STARTS_4[seed % len(STARTS_4)])
    finally:
        engine.close()
    wanted = ["deal scored", "mark marriage", "illegal rejected", "mark barrel-mount", "mark barrel-attempt"]
    # Configuration A has no talon, and so no raise.
    wanted += ["contract raised"] if config == "four_player_b" else []
    for what in wanted:
        assert seen[what] > 0, f"never exercised: {what} ({dict(seen)})"


# Two players from nothing, near the barrel and on either side of it.
STARTS_2 = [{}, {"score": [760, 0]}, {"score": [860, 840]}, {"score": [0, 870]}, {"score": [870, 860]}]


def test_two_players_agree_move_for_move_and_score_for_score(command: Any) -> None:
    rs = load_ruleset("mekedron-two-player-b")
    nt = notation(rs)
    engine = SubprocessEngine(command("two_player_b"), timeout=10)
    seen: Counter[str] = Counter()
    try:
        engine.hello()
        for seed in range(40):
            _one_game(engine, rs, nt, "two_player_b", seed, seen, STARTS_2[seed % len(STARTS_2)])
    finally:
        engine.close()
    wanted = ["deal scored", "mark marriage", "illegal rejected", "mark barrel-mount", "mark barrel-attempt",
              "contract raised", "discard with points", "last not asked"]
    for what in wanted:
        assert seen[what] > 0, f"never exercised: {what} ({dict(seen)})"


def test_two_players_with_a_stock_agree_move_for_move_and_score_for_score(command: Any) -> None:
    rs = load_ruleset("mekedron-two-player-a")
    nt = notation(rs)
    engine = SubprocessEngine(command("two_player_a"), timeout=10)
    seen: Counter[str] = Counter()
    try:
        engine.hello()
        for seed in range(30):
            _one_game(engine, rs, nt, "two_player_a", seed, seen, STARTS_2[seed % len(STARTS_2)])
    finally:
        engine.close()
    wanted = ["deal scored", "mark marriage", "illegal rejected", "mark barrel-mount", "free play", "last not asked"]
    for what in wanted:
        assert seen[what] > 0, f"never exercised: {what} ({dict(seen)})"


def test_bug_a_deal_without_a_talon_is_scored_from_a_talon_record_never_made(command: Any) -> None:
    record = _load("four-player-a-no-talon-record.json")
    # P2 plays 110 and takes nothing himself; his partner P4 takes 133 with a marriage: the side has made it.
    seen, theirs = _replay(record, "mekedron-four-player-a", command("four_player_a"))
    assert seen == [], seen
    assert theirs[0]["score"] == [65, 110, 65, 110] and theirs[0]["taken_points"] == [51, 0, 16, 133], theirs
    # As the engine is, the deal's last card fails: app/session.lua:1783 reads the talon it never made.
    with pytest.raises(EngineFailure, match=r"session.lua:1783: attempt to index field '_talon' \(a nil value\)"):
        _replay(record, "mekedron-four-player-a", command("four_player_a") + " --as-is")


def _one_game(engine: SubprocessEngine, rs: Any, nt: Any, config: str, seed: int, seen: Counter[str],
              start: dict[str, list[int]] | None = None) -> None:
    rng = random.Random(seed)
    n = rs.players
    dealer = seed % n
    engine.new_game(f"mekedron-{config.replace('_', '-')}", [f"P{i + 1}" for i in range(n)], dealer)
    start = STARTS[seed % len(STARTS)] if start is None else start
    start = {k: list(v) for k, v in start.items() if k in rs.vars}
    game = Game(rs, dealer=dealer, seed=seed, values=start)
    if start:
        engine.set_state(start)
    compared = 0
    while len(game.sheet) < 3 and not game.over:
        decl = game.chance_action()
        if decl is not None:
            action = game.sample()
            engine.deal({f: encode_value(action.payload[f], t, nt) for f, t in decl.fields})
            game.apply(action)
        elif not _one_step(engine, rs, nt, game, rng, seen, 0.6 if "rospis_count" in start else 0.2):
            return  # a documented difference was met: the two sides may now go different ways
        if len(game.sheet) > compared:
            theirs = engine.results()
            assert len(theirs) == len(game.sheet), f"seed {seed}: {len(theirs)} rows, the rules {len(game.sheet)}"
            for i in range(compared, len(game.sheet)):
                row = game.sheet[i]
                if row["conceded"] and any(m[0] == "barrel-fall" for m in row["marks"]):
                    return  # finding 4: a fall during a write-off is not counted
                for key, value in theirs[i].items():
                    want = sheet_value(rs, nt, key, row[key], list(range(n)))
                    assert value == want, f"seed {seed}, deal {i + 1}: {key} is {value}, the rules give {want}"
                seen["deal scored"] += 1
                seen.update(f"mark {m[0]}" for m in row["marks"])
            compared = len(game.sheet)


def _trump_led_unbeaten(game: Game, nt: Any, extra: set[str]) -> bool:
    """Finding 3: when trumps are led the engine lets a follower play a lower trump."""
    trick, trump = game.v["trick"], game.v["trump"]
    if not trick or trump is None or encode_value(trick[0], "card", nt)[-1] != encode_value(trump, "suit", nt):
        return False
    return all(json.loads(k)["action"] == "PLAY" for k in extra)


def _one_step(engine: SubprocessEngine, rs: Any, nt: Any, game: Game, rng: random.Random,
              seen: Counter[str], concede_rate: float) -> bool:
    legal = game.legal_actions()
    mine = {_key(encode_action(rs, nt, a)): a for a in legal}
    theirs = {_key(a) for a in engine.legal()}
    extra, missing = theirs - set(mine), set(mine) - theirs
    if missing and game.phase == "bidding" and game.v["bidder"] is None and not theirs:
        seen["last not asked"] += 1  # bug 3: with nobody's bid standing, the engine has ended the auction
        return False
    assert not missing, (missing, game.phase)
    if extra:
        if _trump_led_unbeaten(game, nt, extra):
            seen["trump lead unbeaten"] += 1
        else:
            raise AssertionError(f"the engine allows {sorted(extra)[:4]}")
    turn = game.v["turn"]
    if game.phase == "bidding" and rng.random() < 0.3:
        bad = {"seat": turn, "action": "bid", "value": 125}
        assert engine.apply(bad)[0] is False, bad
        seen["illegal rejected"] += 1
    choices = list(legal)
    if game.phase == "talon" and rng.random() < 0.5:
        raises = [a for a in choices if a.kind == "announce" and a.payload["value"] >= 200]
        choices = raises or choices
    if game.phase == "talon" and any(a.kind == "concede" for a in choices):
        conceding = rng.random() < concede_rate
        choices = [a for a in choices if (a.kind == "concede") == conceding] or choices
    action = _by_hint(game, choices)[0] if game.phase == "play" and rng.random() < 0.7 else rng.choice(choices)
    encoded = encode_action(rs, nt, action)
    if action.kind == "play" and game.v["trick"] and game.v.get("talon") and game.v["led"] is not None:
        # players-2.stock: while the stock lasts a follower may leave the suit led that he holds.
        def suit_of(c: Any) -> str:
            return str(encode_value(c, "card", nt))[-1]
        led = str(encode_value(game.v["led"], "suit", nt))
        held = {suit_of(c) for c in game.v["hand"][action.seat]}
        seen["free play"] += led in held and suit_of(action.payload["card"]) != led
    if action.kind == "discard":
        seen["discard with points"] += not str(encoded["card"]).startswith("9")  # a nine is worth nothing
    if action.kind == "announce" and action.payload["value"] > game.v["contract"]:
        seen["contract raised"] += 1
        seen["raise in tens"] += action.payload["value"] >= 200
    accepted, reason = engine.apply(encoded)
    assert accepted, f"the engine rejected the legal {encoded}: {reason}"
    game.apply(action)
    return True
