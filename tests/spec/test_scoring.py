"""Scoring (spec/scoring/): exact points, the defenders' points, every player recorded."""

import pytest
from positions import GIVE_D, TALON_D, played

# A deal where seat 1 (dealer 0, so seat 1 holds the forced 100) plays with all the spades.
# He takes the talon, gives JC to seat 0 and JD to seat 2 and keeps AS 10S KS QS JS 9S 9C 9D.
HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}


# Six spade tricks to the declarer; 9C loses to AC (seat 0: 9C+QD+AC = 14); seat 0 leads QH and
# seat 2 wins it with KH (QH+9D+KH = 7). The declarer keeps 99.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


# The defenders throw their high cards on the spades: seat 0 ends with JC and QH (2 + 3 + JH 2 = 7),
# seat 2 with nothing. The declarer takes 113.
PLAY_113 = ["AS", "AD", "AC", "10S", "10D", "10C", "KS", "KD", "KC", "QS", "QD", "QC", "JS", "KH", "AH",
            "9S", "JD", "10H", "9C", "9H", "JC", "QH", "9D", "JH"]


# A deal where defender seat 0 wins a trick with AC and then declares the hearts marriage (100).
HANDS_D = {0: "AC KH QH 10C KC QC AD", 1: "AS 10S KS QS JS 9S 9C", 2: "JD QD KD 10D AH 10H JH"}


# Seat 0 takes 9C+JD+AC, KH+9S+QD, QH+9D+KD = 27 card points and 100 for the marriage; declarer 93.
PLAY_D = ["AS", "AH", "10C", "10S", "10H", "KC", "KS", "JH", "QC", "QS", "9H", "JC", "JS", "10D", "AD",
          "9C", "JD", "AC", "KH!", "9S", "QD", "QH", "9D", "KD"]


# ------------------------------------------------------------------ scoring.exact-points


def test_declarer_points_are_exact_by_default():
    # 99 is not 100.
    assert played(PLAY_99).last["delta"][1] == -100


def test_declarer_rounding_to_five_makes_99_a_hundred():
    assert played(PLAY_99, declarer_rounding=5).last["delta"][1] == 100
    # 93 rounds to 95: still failed; with the shortfall option he loses 5 instead of 7.
    d = {"hands": HANDS_D, "talon": TALON_D, "give": GIVE_D}
    assert played(PLAY_D, **d, declarer_rounding=5).last["delta"][1] == -100
    assert played(PLAY_D, **d, failed_contract="minus-shortfall").last["delta"][1] == -7
    assert played(PLAY_D, **d, failed_contract="minus-shortfall", declarer_rounding=5).last["delta"][1] == -5


def test_declarer_rounding_does_not_touch_the_defenders():
    assert played(PLAY_99, declarer_rounding=5).last["delta"] == [14, 100, 7]


# ------------------------------------------------------------------ scoring.defenders


def test_defenders_score_their_card_points_exactly():
    assert played(PLAY_99).last["delta"] == [14, -100, 7]


def test_defenders_score_their_declared_marriages():
    t = played(PLAY_D, hands=HANDS_D, talon=TALON_D, give=GIVE_D)
    assert t.last["taken_points"] == [127, 93, 0]
    assert t.last["delta"] == [127, -100, 0]
    assert t.last["marriage_points"] == [100, 0, 0]


def test_defender_rounding_to_five():
    assert played(PLAY_99, defender_rounding=5).last["delta"] == [15, -100, 5]
    t = played(PLAY_D, hands=HANDS_D, talon=TALON_D, give=GIVE_D, defender_rounding=5)
    assert t.last["delta"] == [125, -100, 0]


def test_defender_rounding_to_ten():
    assert played(PLAY_99, defender_rounding=10).last["delta"] == [10, -100, 10]


def test_defender_rounding_does_not_touch_the_declarer():
    assert played(PLAY_113, defender_rounding=5).last["delta"] == [5, 100, 0]


# PLAY_99: seat 1 fails his 100 with 99 points; the defenders took 14 and 7.
FAILED_CONTRACT_DEFENDERS = {"own-points": [14, -100, 7], "as-concession": [60, -100, 60]}


@pytest.mark.parametrize("value", [None, *FAILED_CONTRACT_DEFENDERS])
def test_failed_contract_defenders_decides_what_the_defenders_score_on_a_failure(value):
    t = played(PLAY_99, scores=[10, 20, 30], **({} if value is None else {"failed_contract_defenders": value}))
    delta = FAILED_CONTRACT_DEFENDERS[value or "own-points"]  # the default: their own points
    assert (t.last["delta"], t.last["score"], t.last["marks"]) == \
        (delta, [10 + delta[0], -80, 30 + delta[2]], [])


@pytest.mark.parametrize("value", FAILED_CONTRACT_DEFENDERS)
def test_failed_contract_defenders_leaves_a_made_contract_alone(value):
    t = played(PLAY_113, failed_contract_defenders=value)
    assert (t.last["delta"], t.last["marks"]) == ([7, 100, 0], [["bolt", 2]])


# ------------------------------------------------------------------ scoring.all-players-recorded


def test_every_players_result_is_added_to_his_score():
    t = played(PLAY_99, scores=[10, 20, 30])
    assert t.last["score"] == [24, -80, 37]
    assert t.v["score"] == [24, -80, 37]


def test_scores_may_go_below_zero_and_accumulate_over_deals():
    t = played(PLAY_99)
    assert t.v["score"] == [14, -100, 7]
    # Next deal: dealer 1, seat 2 on the hundred; everybody passes and he concedes.
    t.deal({})
    t.win_auction(2)
    t.act(2, "take-talon").act(2, "concede")
    assert t.last["delta"] == [60, 60, -100]
    assert t.v["score"] == [74, -40, -93]
    assert [r["score"] for r in t.game.sheet] == [[14, -100, 7], [74, -40, -93]]
