"""Penalties (spec/penalties/): bolts and the penalty unit."""

import pytest
from deals import BARE, NINES, SPLIT, SWEEP, concede, marks, play_deal
from positions import cut_three_nines

# ---------------------------------------------------------------- the deals themselves


def test_fixed_deals_split_the_points_as_designed():
    assert play_deal(SWEEP).last["taken_points"] == [0, 120, 0]
    assert play_deal(SPLIT).last["taken_points"] == [11, 109, 0]
    nines = play_deal(NINES, first_lead="dealer").last
    assert nines["taken_points"] == [0, 120, 0] and nines["tricks_won"] == [1, 7, 0]
    bare = play_deal(BARE).last
    assert bare["taken_points"] == [0, 0, 120] and bare["tricks_won"] == [0, 0, 8]


# ---------------------------------------------------------------- bolts


def test_each_player_who_takes_nothing_gets_a_bolt():
    t = play_deal(SWEEP)
    assert t.v["bolts"] == [1, 0, 1]
    assert marks(t, "bolt") == [0, 2]
    assert marks(t, "bolt-penalty") == []
    assert t.last["delta"] == [0, 100, 0] and t.v["score"] == [0, 100, 0]


def test_bolts_are_recorded_on_the_sheet_row():
    t = play_deal(SWEEP, state={"bolts": [1, 0, 0]})
    assert t.last["bolts"] == [2, 0, 1]


def test_third_bolt_costs_the_penalty_and_the_count_starts_again():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [2, 1, 2]})
    assert t.last["delta"] == [-120, 100, -120]
    assert t.v["score"] == [180, 300, -70]  # scores may go below zero
    assert t.v["bolts"] == [0, 1, 0]
    assert marks(t, "bolt") == [0, 2]
    assert marks(t, "bolt-penalty") == [0, 2]


def test_second_bolt_is_free_by_default():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [1, 0, 1]})
    assert t.last["delta"] == [0, 100, 0]
    assert t.v["bolts"] == [2, 0, 2]
    assert marks(t, "bolt-penalty") == []


def test_house_bolt_limit_of_two_penalises_the_second_bolt():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [1, 0, 0]}, bolt_limit=2)
    assert t.last["delta"] == [-120, 100, 0]
    assert t.v["bolts"] == [0, 0, 1]
    assert marks(t, "bolt-penalty") == [0]


def test_failed_declarer_with_no_points_loses_contract_and_bolt_penalty():
    t = play_deal(BARE, scores=[0, 500, 0], state={"bolts": [0, 2, 0]})
    assert t.last["delta"] == [0, -100 - 120, 120]
    assert t.v["score"] == [0, 280, 120]
    assert t.v["bolts"] == [1, 0, 0]
    assert marks(t, "bolt") == [0, 1]
    assert marks(t, "bolt-penalty") == [1]


@pytest.mark.parametrize("value", [None, "collected", "exempt"])
def test_declarer_bolts_decides_whether_a_declarer_taking_nothing_gets_a_bolt(value):
    t = play_deal(BARE, scores=[0, 500, 0], state={"bolts": [0, 2, 0]},
                  **({} if value is None else {"declarer_bolts": value}))
    exempt = value == "exempt"  # the default: the declarer gets his bolt like anybody
    assert marks(t, "bolt") == ([0] if exempt else [0, 1])
    assert t.last["delta"] == [0, -100 if exempt else -220, 120]
    assert t.v["bolts"] == [1, 2 if exempt else 0, 0]


def test_a_trick_of_three_nines_is_a_bolt_by_default():
    t = play_deal(NINES, first_lead="dealer")
    assert t.v["bolts"] == [1, 0, 1]
    assert marks(t, "bolt") == [0, 2]


def test_no_tricks_reading_spares_a_player_who_won_the_nines():
    t = play_deal(NINES, first_lead="dealer", bolt_when="no-tricks")
    assert t.v["bolts"] == [0, 0, 1]
    assert marks(t, "bolt") == [2]


def test_no_tricks_reading_still_bolts_a_player_without_tricks():
    t = play_deal(NINES, first_lead="dealer", bolt_when="no-tricks", state={"bolts": [2, 0, 2]})
    assert t.last["delta"] == [0, 100, -120]
    assert t.v["bolts"] == [2, 0, 0]


def test_bolts_count_whether_or_not_they_are_consecutive_by_default():
    # Seat 0 scores this deal, yet keeps his two earlier bolts; seat 2 reaches his third.
    t = play_deal(SPLIT, state={"bolts": [2, 0, 2]})
    assert t.v["bolts"] == [2, 0, 0]
    assert t.last["delta"] == [11, 100, -120]


def test_consecutive_window_wipes_bolts_after_a_deal_with_points():
    t = play_deal(SPLIT, state={"bolts": [2, 1, 2]}, bolt_window="consecutive")
    assert t.v["bolts"] == [0, 0, 0]
    assert t.last["delta"] == [11, 100, -120]
    assert marks(t, "bolt-penalty") == [2]


def test_concession_gives_no_bolts():
    t = concede(state={"bolts": [2, 2, 2]})
    assert t.last["conceded"] is True
    assert t.v["bolts"] == [2, 2, 2]
    assert marks(t, "bolt") == [] and marks(t, "bolt-penalty") == []
    assert t.last["delta"] == [60, -100, 60]


# Seat 0 sits on the barrel and takes nothing in SWEEP (seat 2 neither); nothing is written for him either way.
BOLTS_ON_BARREL = {
    "collected": {1: ([2, 0, 1], [["bolt", 0], ["bolt", 2], ["barrel-attempt", 0]]),
                  2: ([0, 0, 1], [["bolt", 0], ["bolt-penalty", 0], ["bolt", 2], ["barrel-attempt", 0]])},
    "not-collected": {1: ([1, 0, 1], [["bolt", 2], ["barrel-attempt", 0]]),
                      2: ([2, 0, 1], [["bolt", 2], ["barrel-attempt", 0]])},
}


# ---------------------------------------------------------------- the penalty unit


@pytest.mark.parametrize("before", [1, 2])
@pytest.mark.parametrize("value", [None, *BOLTS_ON_BARREL])
def test_bolts_on_barrel_decides_whether_a_sitter_collects_bolts(value, before):
    t = play_deal(SWEEP, scores=[880, 0, 0], state={"on_barrel": [True, False, False], "bolts": [before, 0, 0]},
                  **({} if value is None else {"bolts_on_barrel": value}))
    bolts, marked = BOLTS_ON_BARREL[value or "collected"][before]  # the default draws the bar for him too
    assert (t.last["delta"], t.last["score"], t.last["bolts"], t.last["marks"]) == \
        ([0, 100, 0], [880, 100, 0], bolts, marked)


def test_house_penalty_changes_the_bolt_penalty():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [2, 0, 2]}, penalty=50)
    assert t.last["delta"] == [-50, 100, -50]
    assert t.v["score"] == [250, 300, 0]


def test_falling_off_the_barrel_costs_the_penalty_from_880():
    t = concede(scores=[880, 0, 0], state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]})
    assert t.v["score"] == [760, -100, 60]
    t2 = concede(scores=[880, 0, 0], state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]},
                 penalty=100)
    assert t2.v["score"] == [780, -100, 60]


def test_knock_off_costs_the_house_penalty():
    t = concede(scores=[850, 0, 880], state={"on_barrel": [False, False, True]}, penalty=30)
    assert t.v["score"] == [880, -100, 850]


def test_third_nine_of_the_cut_costs_the_cutter_the_penalty():
    assert cut_three_nines().v["delta"] == [0, 0, -120]
    assert cut_three_nines(penalty=70).v["delta"] == [0, 0, -70]
