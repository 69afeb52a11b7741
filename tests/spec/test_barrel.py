"""The barrel: mounting at 880, three attempts, falling off, knock-offs, three falls and the auto talon."""

import pytest
from deals import HEARTS, SPLIT, SWEEP, concede, marks, play_deal
from positions import cut_three_nines
from support import Table

from oracle import Action


def sitting(*seats: int) -> list[bool]:
    return [s in seats for s in range(3)]


# ---------------------------------------------------------------- mounting


def test_fixed_deals_split_the_points_as_designed():
    assert play_deal(SWEEP).last["taken_points"] == [0, 120, 0]
    assert play_deal(SPLIT).last["taken_points"] == [11, 109, 0]
    hearts = play_deal(HEARTS).last
    assert hearts["taken_points"] == [0, 220, 0] and hearts["declared"] == [3]


def test_defender_passing_880_mounts_and_is_clamped_to_880():
    t = concede(scores=[850, 0, 0])
    assert t.last["delta"] == [30, -100, 60]
    assert t.v["score"] == [880, -100, 60]
    assert t.v["on_barrel"] == sitting(0)
    assert t.v["barrel_deals"] == [0, 0, 0]
    assert marks(t, "barrel-mount") == [0]
    assert t.last["on_barrel"] == sitting(0)


def test_exactly_880_mounts():
    t = concede(scores=[820, 0, 0])
    assert t.v["score"][0] == 880 and t.v["on_barrel"] == sitting(0)


def test_879_does_not_mount():
    t = concede(scores=[819, 0, 0])
    assert t.v["score"][0] == 879 and t.v["on_barrel"] == sitting()
    assert marks(t, "barrel-mount") == []


def test_house_threshold_of_900():
    t = concede(scores=[830, 0, 850], barrel_threshold=900)
    assert t.v["score"] == [890, -100, 900]
    assert t.v["on_barrel"] == sitting(2)
    assert marks(t, "barrel-mount") == [2]


def test_declarer_making_a_contract_short_of_1000_mounts():
    t = play_deal(SWEEP, scores=[0, 800, 0])
    assert t.last["delta"] == [0, 80, 0]
    assert t.v["score"] == [0, 880, 0] and t.v["on_barrel"] == sitting(1)
    assert not t.game.over


def test_declarer_making_a_contract_can_jump_from_below_880_to_1000():
    t = play_deal(HEARTS, contract=130, scores=[0, 870, 0])
    assert t.v["score"] == [0, 1000, 0]
    assert t.v["on_barrel"] == sitting() and marks(t, "barrel-mount") == []
    assert t.game.over and t.v["winner"] == 1


def test_defender_cannot_jump_over_the_barrel():
    t = concede(scores=[950, 0, 0])
    assert t.v["score"] == [880, -100, 60]
    assert t.v["on_barrel"] == sitting(0)
    assert not t.game.over


# ---------------------------------------------------------------- sitting on the barrel


def test_nothing_is_added_to_a_defender_on_the_barrel():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0)})
    assert t.last["delta"] == [0, -100, 60]
    assert t.v["score"] == [880, -100, 60]
    assert t.v["barrel_deals"] == [1, 0, 0] and t.v["on_barrel"] == sitting(0)
    assert marks(t, "barrel-mount") == []


def test_made_contract_short_of_1000_adds_nothing_on_the_barrel():
    t = play_deal(SWEEP, scores=[0, 880, 0], state={"on_barrel": sitting(1)})
    assert t.last["delta"] == [0, 0, 0]
    assert t.v["score"] == [0, 880, 0] and t.v["barrel_deals"] == [0, 1, 0]


def test_failed_contract_costs_nothing_on_the_barrel():
    t = play_deal(SPLIT, contract=110, scores=[0, 880, 0], state={"on_barrel": sitting(1)})
    assert t.last["delta"] == [11, 0, 0]
    assert t.v["score"] == [11, 880, 0] and t.v["barrel_deals"] == [0, 1, 0]


def test_bolt_penalty_is_not_taken_on_the_barrel():
    t = play_deal(SWEEP, scores=[880, 0, 0], state={"on_barrel": sitting(0), "bolts": [2, 0, 2]})
    assert t.v["bolts"] == [0, 0, 0]
    assert marks(t, "bolt-penalty") == [0, 2]
    assert t.last["delta"] == [0, 100, -120]
    assert t.v["score"] == [880, 100, -120]


def test_making_a_contract_that_reaches_1000_gets_off_the_barrel_and_wins():
    t = play_deal(SWEEP, contract=120, scores=[0, 880, 0], state={"on_barrel": sitting(1), "barrel_deals": [0, 2, 0]})
    assert t.last["delta"] == [0, 120, 0]
    assert t.v["score"] == [0, 1000, 0]
    assert t.v["on_barrel"] == sitting() and marks(t, "barrel-exit") == [1]
    assert marks(t, "barrel-fall") == []  # the third deal is won, not failed
    assert t.game.over and t.v["winner"] == 1


def test_concession_on_the_barrel_costs_nothing_but_counts_as_an_attempt():
    t = concede(scores=[0, 880, 0], state={"on_barrel": sitting(1), "barrel_deals": [0, 1, 0]})
    assert t.last["delta"] == [60, 0, 60]
    assert t.v["score"] == [60, 880, 60] and t.v["barrel_deals"] == [0, 2, 0]


# ---------------------------------------------------------------- attempts and falling


def test_second_failed_deal_costs_nothing():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [1, 0, 0]})
    assert t.v["score"][0] == 880 and t.v["on_barrel"] == sitting(0)
    assert t.v["barrel_deals"] == [2, 0, 0] and t.v["barrel_falls"] == [0, 0, 0]
    assert marks(t, "barrel-fall") == []


def test_third_failed_deal_falls_off_with_the_penalty():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0]})
    assert t.last["delta"] == [-120, -100, 60]
    assert t.v["score"] == [760, -100, 60]
    assert t.v["on_barrel"] == sitting() and t.v["barrel_falls"] == [1, 0, 0]
    assert t.v["barrel_deals"] == [3, 0, 0]
    assert marks(t, "barrel-fall") == [0]
    assert t.last["barrel_falls"] == [1, 0, 0]


def test_house_single_attempt_falls_after_the_first_deal():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0)}, barrel_attempts=1)
    assert t.v["score"][0] == 760 and t.v["on_barrel"] == sitting()
    assert marks(t, "barrel-fall") == [0]


def test_reset_zero_failure_wipes_the_score():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0]},
                barrel_failure="reset-zero")
    assert t.last["delta"][0] == -880
    assert t.v["score"][0] == 0 and t.v["barrel_falls"] == [1, 0, 0]


def test_fall_is_the_penalty_below_the_house_threshold():
    t = concede(scores=[900, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0]}, barrel_threshold=900)
    assert t.v["score"][0] == 780


def test_mounting_deal_is_not_an_attempt_and_a_fallen_player_gets_three_new_deals():
    # He fell once before (3 deals used); mounting again starts a fresh count.
    t = concede(scores=[850, 0, 0], state={"barrel_deals": [3, 0, 0], "barrel_falls": [1, 0, 0]})
    assert t.v["on_barrel"] == sitting(0) and t.v["barrel_deals"] == [0, 0, 0]
    for used in (1, 2):
        concede(t)
        assert t.v["on_barrel"] == sitting(0) and t.v["barrel_deals"][0] == used and t.v["score"][0] == 880
    concede(t)
    assert t.v["on_barrel"] == sitting() and t.v["score"][0] == 760
    assert t.v["barrel_falls"] == [2, 0, 0]
    assert [len(t.game.sheet), t.v["score"][1:]] == [4, [-400, 240]]


# ---------------------------------------------------------------- knock-off


def test_newcomer_knocks_the_sitting_player_off_with_the_penalty():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2), "barrel_deals": [0, 0, 1]})
    assert t.last["delta"] == [30, -100, -120]
    assert t.v["score"] == [880, -100, 760]
    assert t.v["on_barrel"] == sitting(0)
    assert t.v["barrel_falls"] == [0, 0, 1]
    assert marks(t, "barrel-knocked-off") == [2] and marks(t, "barrel-mount") == [0]
    assert marks(t, "barrel-fall") == []


def test_knock_off_without_penalty_keeps_the_score():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)}, knock_off_to="none")
    assert t.last["delta"] == [30, -100, 0]
    assert t.v["score"] == [880, -100, 880]
    assert t.v["on_barrel"] == sitting(0) and t.v["barrel_falls"] == [0, 0, 1]
    assert marks(t, "barrel-knocked-off") == [2]


def test_knocked_off_at_880_without_penalty_sits_again_at_the_next_scoring_and_knocks_the_other_off():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)}, knock_off_to="none")
    concede(t)
    assert t.v["on_barrel"] == sitting(2)
    assert marks(t, "barrel-mount") == [2] and marks(t, "barrel-knocked-off") == [0]
    assert t.v["score"][0] == 880 and t.v["barrel_falls"] == [1, 0, 1]


def test_knock_off_to_zero_wipes_the_score():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)}, knock_off_to="zero")
    assert t.v["score"] == [880, -100, 0]
    assert marks(t, "barrel-knocked-off") == [2] and t.v["barrel_falls"] == [0, 0, 1]


def test_a_fall_to_zero_does_not_make_a_knock_off_wipe_the_score():
    # barrel_failure prices the fall only: the knock-off keeps its own price (knock_off_to).
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)}, barrel_failure="reset-zero")
    assert t.v["score"] == [880, -100, 760]
    fell = concede(scores=[0, 0, 880], state={"on_barrel": sitting(2), "barrel_deals": [0, 0, 2]},
                   barrel_failure="reset-zero")
    assert fell.v["score"][2] == 0 and marks(fell, "barrel-fall") == [2]


def test_simultaneous_arrivals_roll_off_at_the_knock_off_price():
    t = concede(scores=[850, 0, 830], knock_off_to="zero")
    assert t.v["score"] == [0, -100, 0] and t.v["on_barrel"] == sitting()
    kept = concede(scores=[850, 0, 830], knock_off_to="none")
    assert kept.v["score"] == [880, -100, 880] and kept.v["on_barrel"] == sitting()


def test_without_knock_off_several_players_sit_on_the_barrel():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)}, knock_off=False)
    assert t.v["score"] == [880, -100, 880]
    assert t.v["on_barrel"] == sitting(0, 2)
    assert t.v["barrel_deals"] == [0, 0, 1] and t.v["barrel_falls"] == [0, 0, 0]
    assert marks(t, "barrel-knocked-off") == []


def test_two_reaching_the_barrel_in_one_deal_both_roll_off():
    t = concede(scores=[850, 0, 830])
    assert t.v["on_barrel"] == sitting()
    assert t.v["score"] == [760, -100, 760]
    assert t.v["barrel_falls"] == [1, 0, 1]
    assert marks(t, "barrel-knocked-off") == [0, 2] and marks(t, "barrel-mount") == []


def test_simultaneous_arrivals_also_knock_off_the_sitting_player():
    t = concede(scores=[850, 880, 830], state={"on_barrel": sitting(1)})
    assert t.v["on_barrel"] == sitting()
    assert t.v["score"] == [760, 760, 760]
    assert t.v["barrel_falls"] == [1, 1, 1]


def test_without_simultaneous_fall_both_newcomers_sit():
    t = concede(scores=[850, 0, 830], simultaneous_fall=False)
    assert t.v["on_barrel"] == sitting(0, 2)
    assert t.v["score"] == [880, -100, 880]
    assert marks(t, "barrel-mount") == [0, 2]


def test_without_simultaneous_fall_newcomers_still_knock_off_the_sitter():
    t = concede(scores=[850, 880, 830], state={"on_barrel": sitting(1)}, simultaneous_fall=False)
    assert t.v["on_barrel"] == sitting(0, 2)
    assert t.v["score"] == [880, 760, 880]


def test_without_knock_off_simultaneous_arrivals_both_sit():
    t = concede(scores=[850, 0, 830], knock_off=False)
    assert t.v["on_barrel"] == sitting(0, 2)
    assert t.v["score"] == [880, -100, 880]


def test_sitter_falling_in_the_same_deal_falls_once_and_is_not_knocked_off():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2), "barrel_deals": [0, 0, 2]})
    assert t.v["score"] == [880, -100, 760]
    assert t.v["barrel_falls"] == [0, 0, 1]
    assert marks(t, "barrel-fall") == [2] and marks(t, "barrel-knocked-off") == []
    assert t.v["on_barrel"] == sitting(0)


# ---------------------------------------------------------------- three falls


def test_third_fall_resets_the_score_to_zero():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [2, 0, 0]})
    assert t.last["delta"][0] == -880
    assert t.v["score"] == [0, -100, 60]
    assert t.v["barrel_falls"] == [0, 0, 0]
    assert marks(t, "barrel-fall") == [0] and marks(t, "barrel-reset") == [0]
    assert t.v["no_barrel"] == [False, False, False]


def test_second_fall_does_not_reset():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [1, 0, 0]})
    assert t.v["score"][0] == 760 and t.v["barrel_falls"] == [2, 0, 0]
    assert marks(t, "barrel-reset") == []


def test_house_falls_limit_of_two():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [1, 0, 0]}, falls_limit=2)
    assert t.v["score"][0] == 0 and t.v["barrel_falls"] == [0, 0, 0]
    assert marks(t, "barrel-reset") == [0]


def test_falls_limit_zero_never_resets_the_score():
    # The engines that have no three-falls rule (mekedron's configurations) set falls_limit to 0.
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [5, 0, 0]}, falls_limit=0)
    assert t.v["score"][0] == 760 and t.v["barrel_falls"] == [6, 0, 0]
    assert marks(t, "barrel-reset") == []


def test_house_reset_to_five():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [2, 0, 0]}, falls_reset_to=5)
    assert t.v["score"][0] == 5


def test_knock_off_counts_as_a_fall_towards_the_reset():
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2), "barrel_falls": [0, 0, 2]})
    assert t.v["score"] == [880, -100, 0]
    assert t.v["barrel_falls"] == [0, 0, 0]
    assert marks(t, "barrel-knocked-off") == [2] and marks(t, "barrel-reset") == [2]


def test_falls_end_barrel_takes_the_barrel_away_after_the_reset():
    t = concede(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [2, 0, 0],
                                           "barrel_falls": [2, 0, 0]}, falls_end_barrel=True)
    assert t.v["score"][0] == 0
    assert t.v["no_barrel"] == [True, False, False]


def test_player_without_a_barrel_passes_880_freely():
    t = concede(scores=[850, 0, 0], state={"no_barrel": [True, False, False]})
    assert t.v["score"] == [910, -100, 60]
    assert t.v["on_barrel"] == sitting() and marks(t, "barrel-mount") == []


# ---------------------------------------------------------------- the auto talon


def test_barrel_player_must_win_the_auction_by_default():
    t = Table(scores=[0, 0, 880], state={"on_barrel": sitting(2)})
    assert t.game.phase == "bidding" and t.v["declarer"] is None
    assert t.v["bid"] == 100 and t.v["bidder"] == 1 and t.v["turn"] == 2
    t.act(2, "pass").act(0, "pass")
    assert t.v["declarer"] == 1 and t.v["contract"] == 100


def test_auto_talon_gives_the_barrel_player_the_talon_at_121_when_1000_is_not_enough():
    t = Table(scores=[0, 0, 880], state={"on_barrel": sitting(2)}, barrel_auto_talon=True,
              win_comparison="more-than")
    assert t.game.phase == "talon"
    assert (t.v["declarer"], t.v["bidder"], t.v["bid"], t.v["contract"], t.v["turn"]) == (2, 2, 121, 121, 2)
    assert ("barrel-auto-talon", 2) in t.game.st.marks
    assert t.rejects(2, "bid", value=125).reason == "wrong-phase"
    assert t.rejects(2, "announce", value=121).reason == "cards-not-passed"
    t.act(2, "take-talon")
    for to in (0, 1):
        t.act(2, "give", card=t.name(sorted(t.v["hand"][2])[0]), to=to)
    assert t.rejects(2, "announce", value=120).reason == "cannot-lower"
    t.act(2, "announce", value=121)
    assert t.game.phase == "play" and t.v["contract"] == 121


def test_auto_talon_contract_is_the_sources_121_even_when_reaching_1000_wins():
    # Every source that gives the auto talon gives 121; a house wanting 120 sets barrel_required.
    t = Table(state={"on_barrel": sitting(2)}, barrel_auto_talon=True)
    assert t.rs.param("win_comparison") == "at-least"
    assert t.v["contract"] == 121


def test_house_barrel_required_of_120():
    t = Table(state={"on_barrel": sitting(2)}, barrel_auto_talon=True, barrel_required=120)
    assert t.v["contract"] == 120 and t.v["declarer"] == 2


def test_auto_talon_does_nothing_when_nobody_sits_on_the_barrel():
    t = Table(barrel_auto_talon=True)
    assert t.game.phase == "bidding" and t.v["declarer"] is None and t.v["bid"] == 100


@pytest.mark.parametrize(("dealer", "expected"), [(0, 2), (1, 2), (2, 0)])
def test_auto_talon_goes_to_the_first_barrel_player_from_the_dealers_left(dealer, expected):
    t = Table(dealer=dealer, state={"on_barrel": sitting(0, 2)}, barrel_auto_talon=True, knock_off=False)
    assert t.v["declarer"] == expected


def test_auto_talon_deal_made_wins_the_game():
    t = play_deal(HEARTS, scores=[0, 880, 0], state={"on_barrel": sitting(1)}, barrel_auto_talon=True,
                  win_comparison="more-than")
    assert t.last["contract"] == 121 and ["barrel-auto-talon", 1] in t.last["marks"]
    assert t.last["delta"] == [0, 121, 0]
    assert t.v["score"] == [0, 1001, 0]
    assert t.game.over and t.v["winner"] == 1


def test_auto_talon_contract_of_120_is_not_enough_when_1000_does_not_win():
    t = play_deal(HEARTS, scores=[0, 880, 0], state={"on_barrel": sitting(1)}, barrel_auto_talon=True,
                  barrel_required=120, win_comparison="more-than")
    assert t.last["contract"] == 120
    assert t.last["delta"] == [0, 0, 0]
    assert t.v["score"] == [0, 880, 0] and t.v["on_barrel"] == sitting(1) and t.v["barrel_deals"] == [0, 1, 0]
    assert not t.game.over


# ---------------------------------------------------------------- penalties outside the scoring


def test_exposed_card_penalty_applies_on_the_barrel_and_drops_the_dealer_off():
    t = Table(scores=[880, 0, 0], state={"on_barrel": sitting(0), "barrel_deals": [1, 0, 0]})
    t.act(2, "expose-card")
    assert marks(t, "exposed-card") == [0]
    assert t.v["score"][0] == 760 and not t.v["on_barrel"][0] and t.v["barrel_deals"][0] == 0


def test_three_nines_penalty_is_part_of_the_deal_and_not_taken_on_the_barrel():
    g = cut_three_nines({"on_barrel": sitting(2), "score": [0, 0, 880]})
    assert ("three-nines", 2) in g.st.marks
    assert g.v["delta"][2] == -120 and g.v["score"][2] == 880 and g.v["on_barrel"][2]
    g.apply(g.sample())
    for kind, seat in [("pass", 2), ("pass", 0), ("take-talon", 1), ("concede", 1)]:
        g.apply(Action(kind, seat))
    assert g.sheet[-1]["delta"][2] == 0 and g.v["score"][2] == 880  # the barrel takes nothing off


def sheet(t: Table) -> tuple[list[int], list[int], list[list]]:
    return t.last["delta"], t.last["score"], t.last["marks"]


CROSS = {
    # Seat 0, a defender at 950, gets 60 for seat 1's concession: 1010 in one deal.
    "declarer": (([-70, -100, 60], [880, -100, 60], [["rospis", 1], ["barrel-mount", 0]]), False),
    "anyone": (([60, -100, 60], [1010, -100, 60], [["rospis", 1], ["win", 0]]), True),
    "nobody": (([-70, -100, 60], [880, -100, 60], [["rospis", 1], ["barrel-mount", 0]]), False),
}


# ---------------------------------------------------------------- the barrel's open points, value by value


@pytest.mark.parametrize("value", [None, *CROSS])
def test_cross_barrel_decides_whether_a_defender_jumps_from_below_880_to_1000(value):
    t = concede(scores=[950, 0, 0], **({} if value is None else {"cross_barrel": value}))
    row, over = CROSS[value or "declarer"]  # the default: a defender is stopped on the barrel
    assert sheet(t) == row
    assert t.game.over is over
    assert t.v["on_barrel"] == (sitting() if over else sitting(0))


def test_cross_barrel_stops_a_declarer_making_his_contract_only_when_nobody_crosses():
    for value in ("declarer", "anyone"):
        t = play_deal(HEARTS, contract=130, scores=[0, 870, 0], cross_barrel=value)
        assert sheet(t) == ([0, 130, 0], [0, 1000, 0], [["marriage", 1], ["bolt", 0], ["bolt", 2], ["win", 1]])
    t = play_deal(HEARTS, contract=130, scores=[0, 870, 0], cross_barrel="nobody")
    assert sheet(t) == ([0, 10, 0], [0, 880, 0], [["marriage", 1], ["bolt", 0], ["bolt", 2], ["barrel-mount", 1]])
    assert not t.game.over and t.v["on_barrel"] == sitting(1)


SIMULTANEOUS = {
    # Seats 0 and 2 reach the barrel together (910 and 890) with two falls each behind them.
    True: ([-850, -100, -830], [0, -100, 0], [0, 0, 0],
           [["rospis", 1], ["barrel-knocked-off", 0], ["barrel-knocked-off", 2], ["barrel-reset", 0],
            ["barrel-reset", 2]]),
    False: ([-90, -100, -70], [760, -100, 760], [2, 0, 2],
            [["rospis", 1], ["barrel-knocked-off", 0], ["barrel-knocked-off", 2]]),
}


@pytest.mark.parametrize("value", [None, *SIMULTANEOUS])
def test_simultaneous_is_fall_decides_whether_rolling_off_together_is_the_third_fall(value):
    t = concede(scores=[850, 0, 830], state={"barrel_falls": [2, 0, 2]},
                **({} if value is None else {"simultaneous_is_fall": value}))
    delta, score, falls, marked = SIMULTANEOUS[True if value is None else value]  # the default counts it
    assert sheet(t) == (delta, score, marked)
    assert t.last["barrel_falls"] == falls and t.v["on_barrel"] == sitting()


def test_simultaneous_is_fall_does_not_spare_a_sitter_knocked_off():
    # Only a player who reached the barrel in this deal is spared the count; the sitter fell from it.
    t = concede(scores=[850, 880, 830], state={"on_barrel": sitting(1)}, simultaneous_is_fall=False)
    assert t.last["barrel_falls"] == [0, 1, 0] and t.v["score"] == [760, 760, 760]


KNOCK_OFF = {
    # Seat 0 mounts (850 + 30), and seat 2, sitting at 880, is knocked off.
    "minus-penalty": ([30, -100, -120], [880, -100, 760]),
    "zero": ([30, -100, -880], [880, -100, 0]),
    "none": ([30, -100, 0], [880, -100, 880]),
}


@pytest.mark.parametrize("value", [None, *KNOCK_OFF])
def test_knock_off_to_decides_what_the_knocked_off_player_is_written(value):
    t = concede(scores=[850, 0, 880], state={"on_barrel": sitting(2)},
                **({} if value is None else {"knock_off_to": value}))
    delta, score = KNOCK_OFF[value or "minus-penalty"]  # the default: the threshold less the penalty
    assert sheet(t) == (delta, score, [["rospis", 1], ["barrel-attempt", 2], ["barrel-mount", 0],
                                       ["barrel-knocked-off", 2]])
    assert t.last["barrel_falls"] == [0, 0, 1] and t.v["on_barrel"] == sitting(0)
