"""Runs of recorded actions (oracle.runs): the generated loop decides nothing the careful path would decide
otherwise.

A replay takes plain entries through one generated function per ruleset and hands anything else to the
careful path. The property: for played records of several rulesets, spoilt at random in the ways a record
goes wrong entry by entry (types, spellings, seats, fields, order), the verdict, the replayed actions and
the final position are the same with the runs as without them (a hook that sees each action turns them
off). Then the generated code itself: what it hands back, and that names from rule files stay data.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.cards import notation
from oracle.engine import Game, play_random
from oracle.records import judge, load_record
from oracle.records.codec import Codec
from oracle.records.recorder import Recorder
from oracle.ruleset import load_ruleset
from oracle.runs import EntryShape, FieldType, QuickAction, build_run_factory

RULESETS = ["classic", "four-dummy", "two-bank", "tysiac", "1k", "trading-three"]


@cache
def played(name: str, seed: int) -> str:
    """A whole game of ruleset ``name`` played by the hinted bot, as record text (made once per test run)."""
    game = Game(load_ruleset(name), seed=seed)
    rec = Recorder(game, seed=seed)
    play_random(game, random.Random(seed), on_action=rec, hinted=True, max_deals=4)
    return json.dumps(rec.finish())


def spoil(entry: dict, how: int, rng: random.Random, players: list[str]) -> None:
    """One thing wrong with one entry, of the kinds the careful path words."""
    fields = [k for k in entry if k not in ("action", "seat")]
    if how == 0 and "card" in entry:  # spelt in lower case: the same card
        entry["card"] = str(entry["card"]).lower()
    elif how == 1:  # another player
        entry["seat"] = rng.choice([p for p in players if p != entry.get("seat")])
    elif how == 2:  # the seat by its number, or a flag where a seat goes
        seat = entry.get("seat")
        number = players.index(seat) if seat in players else 0
        entry["seat"] = rng.choice([number, True, 1.0, len(players), -1])
    elif how == 3:  # a field too many
        entry["note"] = 1
    elif how == 4 and fields:  # a field left out
        del entry[rng.choice(fields)]
    elif how == 5 and fields:  # a value of another type
        entry[rng.choice(fields)] = rng.choice([None, "x", 0, True, [], "9S", "AH"])
    elif how == 6:  # an action of another kind, or none the ruleset has
        entry["action"] = rng.choice(["play", "bid", "pass", "give", "announce", "no-such-action"])
    elif how in (7, 8):  # a flag left out, as people write records (with a field it has not, in its place)
        flags = [k for k in fields if type(entry[k]) is bool]
        if flags:
            del entry[rng.choice(flags)]
            if how == 8:
                entry["note"] = False


def verdict_and_end(text: str, careful: bool) -> tuple[object, object, object]:
    rec = load_record(json.loads(text), "spoilt.json")
    judged = judge(rec, checked=(lambda rejection: None) if careful else None)
    v = judged.verdict
    seen = (v.valid, v.deals, v.actions, v.finished, v.to_the_end, repr(v.error),
            [(x.deal, x.action, x.seat, x.what, x.rule, x.reason, x.message) for x in v.violations])
    replay = judged.replay
    applied = replay.applied_by_deal if replay is not None else None
    end = (replay.game.snapshot().values, replay.game.sheet) if replay is not None and replay.game else None
    return seen, applied, end


@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(0, 3), spoilt=st.lists(
    st.tuples(st.integers(0, 10**6), st.integers(0, 8)), max_size=3), cut=st.integers(0, 10**6))
@settings(deadline=None)
def test_a_replay_with_runs_gives_what_the_careful_path_gives(ruleset, seed, spoilt, cut):
    data = json.loads(played(ruleset, seed))
    rng = random.Random(cut)
    entries = [(d, i) for d in data["deals"] for i in range(len(d["actions"]))]
    for where, how in spoilt:
        deal, i = entries[where % len(entries)]
        spoil(deal["actions"][i], how, rng, data["players"])
    if cut % 3 == 0:  # the record stops inside a deal
        deal = data["deals"][-1]
        del deal["actions"][cut % (len(deal["actions"]) + 1):]
        deal.pop("result", None)
        data.pop("result", None)
    text = json.dumps(data)
    assert verdict_and_end(text, careful=False) == verdict_and_end(text, careful=True)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_kind_of_spoilt_entry_gets_the_careful_verdict(ruleset):
    """The property's cases swept in turn, so that each CI run sees each kind of fault in each ruleset: every
    way of spoiling an entry, at entries spread over the record (the first, the last, and between)."""
    data = json.loads(played(ruleset, 0))
    entries = [(di, i) for di, d in enumerate(data["deals"]) for i in range(len(d["actions"]))]
    rng = random.Random(ruleset)
    spots = {0, len(entries) - 1, *rng.sample(range(len(entries)), 6)}
    for how in range(9):
        for spot in sorted(spots):
            spoilt = copy.deepcopy(data)
            di, i = entries[spot]
            spoil(spoilt["deals"][di]["actions"][i], how, rng, spoilt["players"])
            text = json.dumps(spoilt)
            assert verdict_and_end(text, careful=False) == verdict_and_end(text, careful=True), (how, spot)


def codec_of(rs, players):
    return Codec(rs, notation(rs), list(players), lambda *path: None)


@pytest.fixture
def taken(monkeypatch) -> list[int]:
    """How many entries each run took, as the replays of the test make them."""
    counts: list[int] = []
    made = Game.runner

    def counting(game, shape, seat_of, cards):
        run = made(game, shape, seat_of, cards)

        def counted(entries, ai, applied):
            went = run(entries, ai, applied)
            counts.append(went - ai)
            return went
        return counted

    monkeypatch.setattr(Game, "runner", counting)
    return counts


def test_runs_take_most_entries_of_every_ruleset_played_here(taken):
    """The property above compares something: the unspoilt records are valid, and runs apply most of their
    entries (were the runs to take nothing, it would hold as well)."""
    for name in RULESETS:
        taken.clear()
        verdict = judge(load_record(json.loads(played(name, 0)), "game.json")).verdict
        assert verdict.valid, (name, verdict.violations[:1])
        assert sum(taken) >= 0.8 * verdict.actions, (name, sum(taken), verdict.actions)


def test_a_record_written_by_hand_leaving_its_flags_out_goes_through_runs(taken):
    """examples/first-deal.yaml writes a play without 'marriage' (a flag left out is not raised): its entries
    are taken by runs all the same, and it is valid; so they are with every card spelt in lower case."""
    from oracle.records import read_record

    record = read_record(Path(__file__).resolve().parent.parent / "examples" / "first-deal.yaml")
    actions = record.data["deals"][0]["actions"]
    assert any("marriage" not in a for a in actions if a["action"] == "play")
    for lower in (False, True):
        if lower:
            for a in actions:
                if "card" in a:
                    a["card"] = a["card"].lower()
        taken.clear()
        verdict = judge(record).verdict
        assert verdict.valid and sum(taken) == verdict.actions, lower


# ------------------------------------------------------------------ the generated function itself


def dealt(seed: int) -> tuple[Game, list[dict], Codec, list]:
    """Classic's first deal of a played game: the game just dealt, the deal's entries, the codec, and the
    actions the replay applied after the deal."""
    data = json.loads(played("classic", seed))
    replay = judge(load_record(data, "game.json")).replay
    assert replay is not None
    game = replay.game_at(0, 1)
    return game, copy.deepcopy(data["deals"][0]["actions"]), codec_of(game.rs, data["players"]), \
        [(a.kind, a.seat, dict(a.payload)) for a in replay.applied_in(0)[1:]]


def run_until_stopped(run, actions, ai, applied) -> int:
    while True:
        went = run(actions, ai, applied)
        if went == ai:
            return ai
        ai = went


def test_a_run_stops_at_the_first_entry_it_cannot_take_and_leaves_it_unapplied():
    game, actions, codec, careful = dealt(1)
    odd = [i for i, a in enumerate(actions) if a["action"] == "play"][3]
    actions[odd]["card"] = "ZZ"  # no card of the notation: the careful path words it, a run does not
    run = game.runner(codec.shape, codec.seat_of, codec.card_of)
    assert run is not None
    applied: list = []
    assert run_until_stopped(run, actions, 0, applied) == odd
    before = game.snapshot().values
    assert run(actions, odd, applied) == odd  # asked again, it takes nothing and changes nothing
    assert game.snapshot().values == before
    assert [(k, s, dict(p)) for k, s, p in applied] == careful[:odd]


def test_a_refused_entry_is_handed_back_with_the_state_as_it_was():
    game, actions, codec, careful = dealt(2)
    first_play = next(i for i, a in enumerate(actions) if a["action"] == "play")
    run = game.runner(codec.shape, codec.seat_of, codec.card_of)
    assert run_until_stopped(run, actions[:first_play], 0, []) == first_play  # the auction and the talon
    # A card the player on lead does not hold: the step refuses it, the run hands it back.
    hand = game.v["hand"][game.v["turn"]]
    other = next(card for spelt, card in codec.card_of.items() if card not in hand)
    actions[first_play]["card"] = next(spelt for spelt, card in codec.card_of.items() if card == other)
    before = game.snapshot().values
    assert run(actions, first_play, []) == first_play
    assert game.snapshot().values == before
    assert game.try_apply_typed(*careful[first_play]) is None


def test_a_game_watched_by_a_tracer_has_no_runs():
    game, _, codec, _ = dealt(0)
    watched = game.fork(tracer=lambda effect, before, now: before)
    assert watched.runner(codec.shape, codec.seat_of, codec.card_of) is None


@pytest.mark.parametrize("odd", ['x"); import os; ("', "a\nb", "__import__", "k' or 1 or '"])
def test_names_from_rule_files_are_constants_in_the_generated_code(odd):
    """An action, field, phase or variable name is data in the code a run is made of, however it is spelt."""
    calls = []

    def step(st, seat, payload):
        calls.append((seat, dict(payload)))
        st.v["phase"] = "after"
        return -1

    shape = EntryShape(odd + "kind", odd + "seat", ((odd, ((odd + "f", FieldType.INT),)),))
    make = build_run_factory([QuickAction(odd, "rule", odd + "phase", odd + "turn", step)], shape)
    state = SimpleNamespace(v={"phase": odd + "phase", "game_over": False, odd + "turn": 1})
    settled: list = []
    run = make(state, [], {"Anna": 0, "Boris": 1}, {}, settled.append, lambda *a: RuntimeError())
    applied: list = []
    assert run([{odd + "kind": odd, odd + "seat": "Boris", odd + "f": 7}], 0, applied) == 1
    assert calls == [(1, {odd + "f": 7})]
    assert applied == [(odd, 1, {odd + "f": 7})]
    assert settled == [odd + "phase"]


def test_a_run_stops_after_an_entry_that_ends_the_deal_even_in_the_same_phase():
    """The replay judges what follows the end of a deal itself ('the deal is over, but the record goes on'):
    a run hands back the entry after one whose step wrote the sheet, whatever the phase."""
    sheet: list = []

    def step(st, seat, payload):
        sheet.append({"deal": len(sheet)})
        st.v["turn"] = (seat + 1) % 2
        return -1

    shape = EntryShape("action", "seat", (("score", ()),))
    make = build_run_factory([QuickAction("score", "rule", "play", "turn", step)], shape)
    state = SimpleNamespace(v={"phase": "play", "game_over": False, "turn": 0})
    run = make(state, sheet, {"A": 0, "B": 1}, {}, lambda phase: None, lambda *a: RuntimeError())
    entries = [{"action": "score", "seat": "A"}, {"action": "score", "seat": "B"}]
    assert run(entries, 0, []) == 1
    assert run(entries, 1, []) == 2
    assert len(sheet) == 2


def test_a_step_that_fails_is_reported_as_the_engine_reports_it():
    """A rule that fails at run time is charged by the engine's own hook, given what it needs to find the clause."""

    def step(st, seat, payload):
        return 1 // payload["n"]

    told: list = []

    def failed(fn, exc, kind, rule_id, seat):
        told.append((fn, type(exc), kind, rule_id, seat))
        return ValueError("charged")

    shape = EntryShape("action", "seat", (("divide", (("n", FieldType.INT),)),))
    make = build_run_factory([QuickAction("divide", "play.divide", "play", "turn", step)], shape)
    state = SimpleNamespace(v={"phase": "play", "game_over": False, "turn": 1})
    run = make(state, [], {"A": 0, "B": 1}, {}, lambda phase: None, failed)
    with pytest.raises(ValueError, match="charged"):
        run([{"action": "divide", "seat": "B", "n": 0}], 0, [])
    assert told == [(step, ZeroDivisionError, "divide", "play.divide", 1)]


def test_an_entry_shape_keys_its_factory_like_an_equal_one_even_after_a_copy_to_another_process():
    """A shape keeps its hash once worked out; an equal shape finds the same factory, and a shape carried
    to another process (pickled) works its hash out there, as a text's hash differs between processes."""
    import pickle

    def fields(kind: str) -> tuple:
        return ((kind, (("card", FieldType.CARD), ("marriage", FieldType.BOOL))),)

    shape = EntryShape("action", "seat", fields("play"))
    table = {shape: "play factory"}
    assert table[EntryShape("action", "seat", fields("play"))] == "play factory"
    assert EntryShape("action", "seat", fields("give")) not in table
    object.__setattr__(shape, "_hash", 12345)  # as another process's hash would be
    carried = pickle.loads(pickle.dumps(shape))
    assert carried == shape and hash(carried) == hash(EntryShape("action", "seat", fields("play")))
