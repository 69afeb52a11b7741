"""House rules of the contract (variants/contract/): rounding the declarer's count."""

import pytest
from positions import C_HANDS, C_TALON, PLAY_99, PLAY_113, played_c, rules
from support import Table

PLAY_102 = ["KS", "10D", "AH", "QS", "JD", "QC", "9S", "9H", "AC", "10S", "KD", "QH", "JS", "AD", "10C",
            "AS", "QD", "KC", "9C", "KH", "JC", "10H", "9D", "JH"]


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
