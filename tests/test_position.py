"""A game's position is a value: taken, restored, forked, stated at the start; and a replay's positions."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import Game, load_ruleset, play_random
from oracle.engine import PositionError
from oracle.errors import OracleError
from oracle.records import judge, load_record
from oracle.records.recorder import Recorder

CLASSIC = load_ruleset("classic")


def test_a_position_is_not_changed_by_the_game_it_was_taken_from_nor_by_a_what_if() -> None:
    game = Game(CLASSIC, seed=3)
    play_random(game, random.Random(3), hinted=True, max_deals=1)
    pos = game.snapshot()
    frozen = json.dumps(pos.values, sort_keys=True)
    play_random(game, random.Random(4), hinted=True, max_deals=2)
    what_if = pos.with_values({"score": [500, 0, 0]})
    assert json.dumps(pos.values, sort_keys=True) == frozen
    assert what_if.values["score"] == [500, 0, 0] and pos.values["score"] != [500, 0, 0]
    changed = pos.values
    changed["score"][0] = 999  # a copy to read: the position keeps its own
    assert pos.values["score"][0] != 999
    with pytest.raises(KeyError, match="no state variable 'scroe'"):
        pos.with_values({"scroe": [1, 2, 3]})


def test_restoring_runs_no_rule_and_refuses_another_rulesets_position() -> None:
    game = Game(CLASSIC, seed=5)
    pos = game.snapshot()
    play_random(game, random.Random(5), max_actions=30)
    game.restore(pos)
    assert game.to_json() == Game.at(pos).to_json()
    other = Game(load_ruleset("classic", params={"bid_step": 10}), seed=5)
    with pytest.raises(OracleError, match="cannot be restored"):
        other.restore(pos)


@pytest.mark.parametrize("values, message, var, index", [
    ({"hand": [[], [], []]}, "not a per-player game variable", "hand", None),
    ({"trump": [0, 0, 0]}, "not a per-player game variable", "trump", None),
    ({"score": [0, 0]}, "one value per player", "score", None),
    ({"score": 5}, "one value per player", "score", None),
    ({"score": [0, "a lot", 0]}, "'a lot' is not a int", "score", 1),
    ({"on_barrel": [False, 1, False]}, "1 is not a bool", "on_barrel", 1),
])
def test_a_stated_starting_position_is_checked(values, message, var, index) -> None:
    with pytest.raises(PositionError, match=message) as err:
        Game(CLASSIC, values=values)
    assert (err.value.var, err.value.index) == (var, index)


def test_a_records_bad_start_state_is_an_error_at_its_line() -> None:
    text = json.dumps({"format": "thousand-record", "version": 1, "ruleset": "classic",
                       "players": ["A", "B", "C"], "start": {"dealer": "A", "state": {"score": [0, 10, "x"]}},
                       "deals": []}, indent=1)
    verdict = judge(json.loads(text), locator=None, name="start.json").verdict
    assert verdict.error is not None
    assert "start, state, score" in verdict.error.message and "'x'" in verdict.error.message


def _recorded_game(seed: int, deals: int) -> dict:
    game = Game(CLASSIC, seed=seed)
    rec = Recorder(game, ["A", "B", "C"])
    play_random(game, random.Random(seed), hinted=True, max_deals=deals, on_action=rec)
    return rec.record


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**16), data=st.data())
def test_the_game_at_any_point_of_a_replay_is_the_game_replayed_to_that_point(seed, data) -> None:
    record = _recorded_game(seed, 4)
    replay = judge(load_record(record, "g.json")).replay
    assert replay is not None and replay.deals_reached == len(record["deals"])
    di = data.draw(st.integers(0, replay.deals_reached - 1))
    k = data.draw(st.integers(0, len(replay.applied_in(di))))
    # From move 0, the slow way: every action of every deal before, then k of this one.
    slow = replay.new_game()
    for d in range(di):
        for a in replay.applied_in(d):
            slow.apply(a)
    for a in replay.applied_in(di)[:k]:
        slow.apply(a)
    assert replay.game_at(di, k).to_json() == slow.to_json()


def test_a_position_keeps_values_marshal_cannot_write_and_lists_two_variables_share() -> None:
    # Positions are marshalled (the state's plain values), with pickle for anything else: both must give the
    # values back as they were, a list held by two variables still one list.
    from fractions import Fraction

    from oracle.state import State

    rs = load_ruleset("classic")
    game = Game(rs, seed=3)
    odd = game.snapshot().with_values({"winner": Fraction(1, 3)})
    assert odd.values["winner"] == Fraction(1, 3) and type(odd.values["winner"]) is Fraction
    assert Game.at(odd).v["winner"] == Fraction(1, 3)
    st_ = State.at(game.snapshot())
    shared: list[int] = []
    st_.v["trick"] = st_.v["won"][0] = shared  # as rule logic's `pile = other` leaves two names on one list
    back = State.at(st_.snapshot())
    assert back.v["trick"] is back.v["won"][0] and back.v["trick"] is not shared
    back.v["trick"].append(5)
    assert back.v["won"][0] == [5] and State.at(st_.snapshot()).v["won"][0] == []
