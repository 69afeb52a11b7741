"""House rules of the contract (variants/contract/): rounding the declarer's count."""

import pytest
from support import Table, ruleset


def rules(*overlays, **params):
    return ruleset("classic", list(overlays), **params)


# The talon tests' deal: seat 1 at the hundred, with all the spades.
C_HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}


C_TALON = "9D JC JD"


PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


PLAY_102 = ["KS", "10D", "AH", "QS", "JD", "QC", "9S", "9H", "AC", "10S", "KD", "QH", "JS", "AD", "10C",
            "AS", "QD", "KC", "9C", "KH", "JC", "10H", "9D", "JH"]


PLAY_113 = ["AS", "AD", "AC", "10S", "10D", "10C", "KS", "KD", "KC", "QS", "QD", "QC", "JS", "KH", "AH",
            "9S", "JD", "10H", "9C", "9H", "JC", "QH", "9D", "JH"]


def played_c(rs, moves, contract=100):
    t = Table(rs, hands=C_HANDS, talon=C_TALON, dealer=0)
    t.to_play(1, give=("JC", "JD"), contract=contract)
    t.play(*moves)
    assert t.game.phase == "dealing"
    return t


# ====================================================================== variant.contract.rounding


def test_core_counts_exactly():
    assert played_c(rules(), PLAY_99).last["delta"] == [14, -100, 7]


def test_rounding_to_the_nearest_five_makes_99_a_hundred():
    t = played_c(rules("variant.contract.rounding"), PLAY_99)
    assert t.last["taken_points"] == [14, 99, 7]
    assert t.last["delta"] == [14, 100, 7]
    assert t.last["score"] == [14, 100, 7]


def test_rounding_is_to_five_not_ten():
    # 113 rounds to 115 (to 110 with a unit of ten).
    assert played_c(rules("variant.contract.rounding"), PLAY_113, contract=115).last["delta"] == [7, 115, 0]


def test_rounding_to_the_nearest_five_leaves_102_short_of_105():
    t = played_c(rules("variant.contract.rounding"), PLAY_102, contract=105)
    assert t.last["taken_points"] == [18, 102, 0]
    assert t.last["delta"] == [18, -105, 0]


@pytest.mark.parametrize(("mode", "at_100", "at_105"), [("down", -100, -105), ("up", 100, 105)])
def test_rounding_direction_is_a_parameter(mode, at_100, at_105):
    rs = rules("variant.contract.rounding", declarer_rounding_mode=mode)
    assert played_c(rs, PLAY_99).last["delta"][1] == at_100
    assert played_c(rs, PLAY_102, contract=105).last["delta"][1] == at_105


def test_rounding_forbids_nothing_new():
    t = Table(rules("variant.contract.rounding"), hands=C_HANDS, talon=C_TALON, dealer=0)
    t.to_play(1, give=("JC", "JD"))
    plain = Table(rules(), hands=C_HANDS, talon=C_TALON, dealer=0)
    plain.to_play(1, give=("JC", "JD"))
    assert t.legal(1) == plain.legal(1)
