"""The contract (spec/contract/): made or failed, and what the declarer writes."""

from positions import played

# A deal where seat 1 (dealer 0, so seat 1 holds the forced 100) plays with all the spades.
# He takes the talon, gives JC to seat 0 and JD to seat 2 and keeps AS 10S KS QS JS 9S 9C 9D.
HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}


# Six spade tricks to the declarer; 9C loses to AC (seat 0: 9C+QD+AC = 14); seat 0 leads QH and
# seat 2 wins it with KH (QH+9D+KH = 7). The declarer keeps 99.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


# As PLAY_99, but the second trick declares the spades marriage (40): 99 + 40 = 139.
PLAY_139 = ["AS", "AD", "10C", "KS!", "10D", "KC", "10S", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
            "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


# The defenders throw their high cards on the spades: seat 0 ends with JC and QH (2 + 3 + JH 2 = 7),
# seat 2 with nothing. The declarer takes 113.
PLAY_113 = ["AS", "AD", "AC", "10S", "10D", "10C", "KS", "KD", "KC", "QS", "QD", "QC", "JS", "KH", "AH",
            "9S", "JD", "10H", "9C", "9H", "JC", "QH", "9D", "JH"]


# ------------------------------------------------------------------ contract.made


def test_card_points_and_declared_marriages_are_counted_for_everyone():
    assert played(PLAY_99).last["taken_points"] == [14, 99, 7]
    assert played(PLAY_139).last["taken_points"] == [14, 139, 7]
    assert played(PLAY_113).last["taken_points"] == [7, 113, 0]


def test_made_contract_scores_exactly_the_contract():
    t = played(PLAY_113)
    assert t.last["delta"][1] == 100
    assert t.last["score"][1] == 100


def test_made_raised_contract_scores_the_raise():
    assert played(PLAY_113, contract=110).last["delta"][1] == 110


def test_contract_equal_to_the_points_is_made():
    # 139 made at 135 (the marriage counts); 140 is one point too many.
    assert played(PLAY_139, contract=135).last["delta"][1] == 135
    assert played(PLAY_139, contract=140).last["delta"][1] == -140


def test_failed_contract_loses_the_whole_contract_by_default():
    t = played(PLAY_99)
    assert t.last["delta"][1] == -100
    assert played(PLAY_113, contract=115).last["delta"][1] == -115


def test_failed_contract_loses_only_the_shortfall_as_an_option():
    assert played(PLAY_99, failed_contract="minus-shortfall").last["delta"][1] == -1
    assert played(PLAY_113, contract=115, failed_contract="minus-shortfall").last["delta"][1] == -2
    # A made contract still scores the contract.
    assert played(PLAY_113, failed_contract="minus-shortfall").last["delta"][1] == 100
