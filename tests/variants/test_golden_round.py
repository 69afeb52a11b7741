"""The golden round (variants/golden-round/): doubled points, the raise, the restart."""

import pytest
from positions import GIVE, GOLDEN, HANDS, PLAY_139, rs
from support import Table

from oracle.errors import RulesetError

TALON = "9D JC JD"  # 4 points: a poor talon, one nine, two jacks


# The declarer takes 99; seat 0 takes 14 and seat 2 takes 7.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


def golden(*more, dealer=1, scores=None, state=None, **params):
    return Table(rs(GOLDEN, *more, **params), hands=HANDS, talon=TALON, dealer=dealer, scores=scores, state=state)


# ================================================================== golden round


def test_golden_deal_has_no_auction_and_the_dealer_plays_120():
    t = golden()
    assert t.game.phase == "talon"
    assert (t.v["declarer"], t.v["contract"]) == (1, 120)
    assert t.rejects(1, "bid", value=125).reason == "wrong-phase"
    t = golden(dealer=0, golden_forced="hundred-holder")
    assert (t.v["declarer"], t.v["contract"]) == (1, 120)
    t = golden(dealer=0)
    assert t.v["declarer"] == 0


def test_golden_deal_made_doubles_every_score():
    t = golden()
    t.to_play(1, give=GIVE).play(*PLAY_139)
    assert t.last["taken_points"] == [14, 139, 7]
    assert t.last["delta"] == [28, 240, 14]
    assert t.last["score"] == [28, 240, 14]
    assert t.last["golden"] is True
    assert ["golden", 1] in t.last["marks"]


def test_golden_deal_failed_and_conceded_are_doubled():
    t = golden()
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["delta"] == [28, -240, 14]
    t = golden()
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [120, -240, 120]


def test_golden_contract_cannot_be_raised_unless_the_house_allows():
    t = golden()
    t.act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2)
    assert t.rejects(1, "announce", value=125).reason == "golden-contract-fixed"
    t = golden("variant.golden-round.raise")
    t.to_play(1, give=GIVE, contract=130).play(*PLAY_139)
    assert t.last["contract"] == 130
    assert t.last["delta"] == [28, 260, 14]


def test_the_golden_round_is_the_first_three_scored_deals():
    t = golden(state={"golden_played": 2})
    assert t.game.phase == "talon"
    t.act(1, "take-talon").act(1, "concede")
    assert t.v["golden_played"] == 3
    assert t.game.phase == "dealing" and t.v["dealer"] == 1  # same dealer after a concession
    t.deal({})
    assert t.game.phase == "bidding"
    t = golden(golden_deals=2, state={"golden_played": 2})
    assert t.game.phase == "bidding"


def test_golden_restart_when_nobody_made_120():
    state = {"golden_played": 2, "bolts": [1, 0, 0]}
    t = golden("variant.golden-round.restart", scores=[-100, 50, 30], state=state)
    t.to_play(1, give=GIVE).play(*PLAY_99)
    # The restart is the deal's result, so the row adds up: -100 + 100, 50 - 50, 30 - 30.
    assert t.last["delta"] == [100, -50, -30]
    assert t.last["score"] == [0, 0, 0]
    assert t.v["bolts"] == [0, 0, 0] and t.v["golden_played"] == 0
    assert ["golden-restart", 0] in t.last["marks"]
    t.deal({})
    assert t.game.phase == "talon"  # a new golden round


def test_no_restart_without_the_house_rule_or_when_a_golden_contract_was_made():
    t = golden(scores=[-100, 50, 30], state={"golden_played": 2})
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["score"] == [-72, -190, 44]
    t = golden("variant.golden-round.restart", scores=[-100, 50, 30],
               state={"golden_played": 2, "golden_made": True})
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["score"] == [-72, -190, 44]
    t = golden("variant.golden-round.restart", scores=[-100, 50, 30], state={"golden_played": 1})
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["score"] == [-72, -190, 44]


def test_golden_sub_rules_need_the_golden_round():
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.golden-round'"):
        rs("variant.golden-round.raise")
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.golden-round'"):
        rs("variant.golden-round.restart")


# ================================================================== variant.golden-round.no-rospis


def test_no_rospis_forbids_a_paid_concession_in_the_golden_round_only():
    t = golden()
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [120, -240, 120]
    t = golden("variant.golden-round.no-rospis")
    t.act(1, "take-talon")
    assert t.rejects(1, "concede").reason == "rospis-golden-round"
    t = golden("variant.golden-round.no-rospis", golden_deals=1, state={"golden_played": 1})
    assert t.v["golden"] is False
    t.win_auction(2).act(2, "take-talon").act(2, "concede")
    assert t.last["delta"][2] == -100
    with pytest.raises(RulesetError, match="requires"):
        rs("variant.golden-round.no-rospis")
