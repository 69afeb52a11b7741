"""Dark play (variants/dark/): bidding blind, the dealer's blind 120, the score gate, the hidden discard, marriages
not doubled.
"""

import pytest
from positions import BLIND, BLIND120, GIVE, GIVE_D, HANDS, PLAY_139, TALON_D, auction_passes, give_and_announce, rs
from support import Table

from oracle.errors import RulesetError

TALON = "9D JC JD"  # 4 points: a poor talon, one nine, two jacks


# The declarer takes 99; seat 0 takes 14 and seat 2 takes 7.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


# Defender seat 0 wins a trick with AC and declares the hearts marriage (100): 27 card points + 100;
# the declarer (seat 1) takes 93.
HANDS_D = {0: "AC KH QH 10C KC QC AD", 1: "AS 10S KS QS JS 9S 9C", 2: "JD QD KD 10D AH 10H JH"}


PLAY_D = ["AS", "AH", "10C", "10S", "10H", "KC", "KS", "JH", "QC", "QS", "9H", "JC", "JS", "10D", "AD",
          "9C", "JD", "AC", "KH!", "9S", "QD", "QH", "9D", "KD"]


def dark120(*more, dealer=1, scores=None, **params):
    """Dealer 1 holds the spades; the hundred is seat 2's, the first word seat 0's."""
    return Table(rs(BLIND120, *more, **params), hands=HANDS, talon=TALON, dealer=dealer, scores=scores)


# ================================================================== dark play


def test_dealer_plays_a_blind_120_and_his_result_is_doubled():
    t = dark120()
    t.act(1, "go-dark")
    assert (t.v["bid"], t.v["bidder"], t.v["turn"]) == (120, 1, 0)
    t.act(0, "pass")
    assert t.v["turn"] == 2  # the dark dealer holds the top bid and is not asked
    t.act(2, "pass")
    assert (t.v["declarer"], t.v["contract"]) == (1, 120)
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is False
    t.act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2).act(1, "announce", value=120)
    t.play(*PLAY_139)
    assert t.last["delta"] == [14, 240, 7]
    assert t.last["dark"] == [False, True, False]
    assert ["dark", 1] in t.last["marks"]


def test_a_failed_blind_120_is_doubled_and_everyone_can_be_doubled():
    t = dark120()
    t.act(1, "go-dark").act(0, "pass").act(2, "pass")
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["delta"] == [14, -240, 7]
    t = dark120(dark_doubling="everyone", dark_multiplier=3)
    t.act(1, "go-dark").act(0, "pass").act(2, "pass")
    t.to_play(1, give=GIVE).play(*PLAY_139)
    assert t.last["delta"] == [42, 360, 21]


def test_outbid_dark_play_is_called_off():
    t = dark120()
    t.act(1, "go-dark").act(0, "bid", value=125)
    assert t.v["dark"] == [False, False, False]
    assert t.v["turn"] == 1
    t.act(1, "bid", value=130).act(2, "pass").act(0, "pass")
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is True
    give_and_announce(t, contract=130).play(*PLAY_139)
    assert t.last["delta"] == [14, 130, 7]
    assert ["dark-off", 1] in t.last["marks"]


def test_who_may_go_dark_with_the_blind_120():
    t = dark120()
    assert t.rejects(0, "go-dark").reason == "not-allowed-dark"
    t.act(0, "pass")
    assert t.rejects(1, "go-dark").reason == "too-late"
    t = dark120(dark_who="anyone")
    t.act(0, "go-dark")
    assert t.rejects(2, "go-dark").reason == "already-dark"


def test_dark_play_only_left_of_the_dealer():
    t = dark120("variant.dark.left-of-dealer-only", dealer=0)
    assert t.rejects(0, "go-dark").reason == "not-allowed-dark"
    t.act(1, "go-dark")  # the hundred-holder raises his own obligation to a blind 120
    assert (t.v["bid"], t.v["bidder"], t.v["turn"]) == (120, 1, 2)
    t.act(2, "pass").act(0, "pass")
    t.to_play(1, give=GIVE).play(*PLAY_139)
    assert t.last["delta"] == [14, 240, 7]
    t = Table(rs(BLIND, "variant.dark.left-of-dealer-only"), hands=HANDS, talon=TALON, dealer=2)
    assert t.rejects(1, "go-dark").reason == "not-allowed-dark"
    t.act(0, "go-dark")


def test_dark_rules_conflict_and_modifiers_need_a_dark_rule():
    with pytest.raises(RulesetError, match="incompatible"):
        rs(BLIND120, BLIND)
    with pytest.raises(RulesetError, match="dark_who"):
        rs("variant.dark.left-of-dealer-only")
    with pytest.raises(Exception, match="go-dark"):
        rs("variant.dark.score-gate")


def blind(*more, scores=None, **params):
    return Table(rs(BLIND, *more, **params), hands=HANDS, talon=TALON, dealer=0, scores=scores)


def blind_won(t: Table) -> Table:
    """Seat 1, dark, wins the auction at 110: the talon would normally be shown."""
    t.act(2, "pass").act(0, "bid", value=105).act(1, "bid", value=110).act(0, "pass")
    assert (t.v["declarer"], t.v["contract"]) == (1, 110)
    return t


def test_any_player_may_bid_dark_and_a_dark_winner_is_doubled():
    t = blind()
    t.act(1, "go-dark").act(0, "go-dark")
    blind_won(t)
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is False
    give_and_announce(t).play(*PLAY_139)
    assert t.last["delta"] == [14, 220, 7]
    assert t.last["dark"] == [True, True, False]


def test_blind_bidding_everyone_doubled_and_no_doubling_for_a_seeing_winner():
    t = blind(dark_doubling="everyone")
    t.act(1, "go-dark")
    blind_won(t).to_play(1, give=GIVE, contract=110).play(*PLAY_99)
    assert t.last["delta"] == [28, -220, 14]
    t = blind()
    t.act(0, "go-dark")
    blind_won(t)
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is True
    give_and_announce(t).play(*PLAY_139)
    assert t.last["delta"] == [14, 110, 7]


def test_blind_bidding_is_declared_before_the_auction_once():
    t = blind()
    t.act(2, "go-dark")
    assert t.rejects(2, "go-dark").reason == "already-dark"
    t.act(2, "pass")
    assert t.rejects(0, "go-dark").reason == "too-late"


def test_score_gate():
    t = blind("variant.dark.score-gate", scores=[0, 239, 0])
    assert t.rejects(1, "go-dark").reason == "score-too-low"
    t = blind("variant.dark.score-gate", scores=[0, 240, 0])
    t.act(1, "go-dark")
    blind_won(t).to_play(1, give=GIVE, contract=110).play(*PLAY_139)
    assert t.last["score"] == [14, 460, 7]
    t = blind("variant.dark.score-gate", scores=[0, 1, 0], dark_min_score=1)
    t.act(1, "go-dark")
    t = blind("variant.dark.score-gate", scores=[0, 0, 0], dark_min_score=1)
    assert t.rejects(1, "go-dark").reason == "score-too-low"


def test_score_gate_with_the_blind_120():
    t = dark120("variant.dark.score-gate", scores=[0, 100, 0])
    assert t.rejects(1, "go-dark").reason == "score-too-low"


def test_dark_passed_cards_are_not_shown():
    t = blind("variant.dark.discard-hidden")
    t.act(1, "go-dark")
    blind_won(t).to_play(1, give=GIVE, contract=110).play(*PLAY_139)
    assert t.last["snos_shown"] is False
    assert t.last["delta"] == [14, 220, 7]
    t = blind("variant.dark.discard-hidden")
    blind_won(t).to_play(1, give=GIVE, contract=110).play(*PLAY_139)
    assert t.last["snos_shown"] is True


def test_dark_marriages_are_not_doubled_for_the_declarer():
    t = dark120("variant.dark.marriage-not-doubled")
    t.act(1, "go-dark").act(0, "pass").act(2, "pass")
    t.to_play(1, give=GIVE).play(*PLAY_139)
    assert t.last["marriage_points"] == [0, 40, 0]
    assert t.last["delta"] == [14, 200, 7]
    t = dark120("variant.dark.marriage-not-doubled")
    t.act(1, "go-dark").act(0, "pass").act(2, "pass")
    t.to_play(1, give=GIVE).play(*PLAY_99)
    assert t.last["delta"] == [14, -240, 7]


def test_dark_marriages_are_not_doubled_for_the_defenders():
    def deal(*more):
        t = Table(rs(BLIND, *more, dark_doubling="everyone"), hands=HANDS_D, talon=TALON_D, dealer=0)
        t.act(1, "go-dark")
        auction_passes(t)
        t.to_play(1, give=GIVE_D).play(*PLAY_D)
        assert t.last["taken_points"] == [127, 93, 0]
        return t
    assert deal().last["delta"] == [254, -200, 0]
    assert deal("variant.dark.marriage-not-doubled").last["delta"] == [154, -200, 0]


# ================================================================== variant.dark.no-rospis, variant.dark.not-on-barrel


def test_no_rospis_refuses_a_concession_only_in_a_dark_deal():
    for more, refused in (((), False), (("variant.dark.no-rospis",), True)):
        t = blind(*more)
        t.act(1, "go-dark")
        blind_won(t).act(1, "take-talon")
        if refused:
            assert t.rejects(1, "concede").reason == "rospis-dark"
        else:
            t.act(1, "concede")
            assert t.last["delta"] == [60, -220, 60]
    t = blind("variant.dark.no-rospis")  # a seeing declarer may still concede
    blind_won(t).act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [60, -110, 60]


def test_not_on_barrel_refuses_dark_play_while_anyone_sits_on_the_barrel():
    def table(*more):
        return Table(rs(BLIND, *more), hands=HANDS, talon=TALON, dealer=0, scores=[0, 0, 880],
                     state={"on_barrel": [False, False, True]})
    table().act(1, "go-dark")
    assert table("variant.dark.not-on-barrel").rejects(1, "go-dark").reason == "dark-on-barrel"
    t = blind("variant.dark.not-on-barrel", scores=[0, 0, 870])  # below the barrel: allowed
    t.act(1, "go-dark")
    assert t.v["dark"] == [False, True, False]
