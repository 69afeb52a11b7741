"""The talon (spec/talon/): taking it, passing its cards, announcing the contract, the роспись."""

import pytest
from positions import TALON, played
from support import Table

# A deal where seat 1 (dealer 0, so seat 1 holds the forced 100) plays with all the spades.
# He takes the talon, gives JC to seat 0 and JD to seat 2 and keeps AS 10S KS QS JS 9S 9C 9D.
HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}


# Six spade tricks to the declarer; 9C loses to AC (seat 0: 9C+QD+AC = 14); seat 0 leads QH and
# seat 2 wins it with KH (QH+9D+KH = 7). The declarer keeps 99.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


def at_talon(scores=None, **params):
    """Everybody passes: seat 1 plays the forced 100 and is about to take the talon."""
    t = Table(hands=HANDS, talon=TALON, dealer=0, scores=scores, **params)
    t.win_auction(1)
    assert t.game.phase == "talon"
    return t


def given(**params):
    """Talon taken and one card passed to each opponent."""
    t = at_talon(**params)
    t.act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2)
    return t


# ------------------------------------------------------------------ talon.to-winner (take-talon)


def test_declarer_takes_the_talon_into_his_hand():
    t = at_talon()
    t.act(1, "take-talon")
    assert t.v["taken"] is True
    assert t.v["talon"] == []
    assert t.hand(1) == sorted("AS 10S KS QS JS 9S 9C 9D JC JD".split())
    assert t.legal(1)[0].startswith("1 give")


def test_talon_cannot_be_taken_twice():
    t = at_talon()
    t.act(1, "take-talon")
    rej = t.rejects(1, "take-talon")
    assert (rej.rule_id, rej.reason) == ("talon.to-winner", "talon-already-taken")
    assert len(t.hand(1)) == 10


def test_only_the_declarer_takes_the_talon():
    t = at_talon()
    assert t.rejects(0, "take-talon").reason == "not-your-turn"


def test_talon_taken_at_the_forced_hundred_stays_hidden():
    t = at_talon()
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is False


def test_talon_is_shown_after_a_real_auction():
    t = Table(hands=HANDS, talon=TALON, dealer=0)
    t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=110).act(2, "pass")
    t.act(1, "take-talon")
    assert t.v["contract"] == 110 and t.v["talon_shown"] is True


def test_talon_at_the_hundred_is_shown_when_the_house_says_so():
    t = at_talon(hundred_talon_hidden=False)
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is True


def test_talon_shown_is_written_on_the_sheet():
    t = played()
    assert t.last["talon_shown"] is False
    t2 = played(hundred_talon_hidden=False)
    assert t2.last["talon_shown"] is True


# ------------------------------------------------------------------ talon.pass-cards (give)


def test_give_before_taking_the_talon_is_refused():
    t = at_talon()
    rej = t.rejects(1, "give", card="AS", to=0)
    assert (rej.rule_id, rej.reason) == ("talon.pass-cards", "talon-not-taken")


def test_give_moves_one_card_to_each_opponent():
    t = at_talon()
    t.act(1, "take-talon").act(1, "give", card="JC", to=0)
    assert "JC" in t.hand(0) and "JC" not in t.hand(1)
    assert t.v["received"] == [1, 0, 0]
    t.act(1, "give", card="JD", to=2)
    assert [len(t.hand(s)) for s in range(3)] == [8, 8, 8]
    assert t.v["received"] == [1, 0, 1]


def test_one_card_per_opponent_by_default():
    t = at_talon()
    t.act(1, "take-talon").act(1, "give", card="JC", to=0)
    rej = t.rejects(1, "give", card="JD", to=0)
    assert (rej.rule_id, rej.reason) == ("talon.pass-cards", "already-given")


def test_declarer_cannot_give_to_himself():
    t = at_talon()
    t.act(1, "take-talon")
    rej = t.rejects(1, "give", card="JC", to=1)
    assert (rej.rule_id, rej.reason) == ("talon.pass-cards", "not-available")
    assert rej.message.startswith("to seat 2 is not among")  # the seat as people count, not an index


def test_two_cards_to_each_opponent_as_a_house_rule():
    t = at_talon(cards_to_each_opponent=2)
    t.act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2)
    assert t.rejects(1, "announce", value=100).reason == "cards-not-passed"
    t.act(1, "give", card="9D", to=0).act(1, "give", card="9C", to=2)
    assert t.rejects(1, "give", card="9S", to=0).reason == "already-given"
    assert [len(t.hand(s)) for s in range(3)] == [9, 6, 9]
    t.act(1, "announce", value=100)
    assert t.game.phase == "play"


def test_no_cards_passed_as_a_house_rule():
    t = at_talon(cards_to_each_opponent=0)
    t.act(1, "take-talon")
    assert t.rejects(1, "give", card="JC", to=0).reason == "already-given"
    t.act(1, "announce", value=100)
    assert t.game.phase == "play"


# ------------------------------------------------------------------ talon.raise (announce)


def test_announce_before_taking_the_talon_is_refused():
    t = at_talon()
    rej = t.rejects(1, "announce", value=100)
    assert (rej.rule_id, rej.reason) == ("talon.pass-cards", "cards-not-passed")


@pytest.mark.parametrize("gives", [0, 1])
def test_announce_before_passing_both_cards_is_refused(gives):
    t = at_talon()
    t.act(1, "take-talon")
    for card, to in [("JC", 0)][:gives]:
        t.act(1, "give", card=card, to=to)
    rej = t.rejects(1, "announce", value=100)
    assert (rej.rule_id, rej.reason) == ("talon.pass-cards", "cards-not-passed")


def test_announce_the_bid_starts_the_play_with_the_declarer_leading():
    t = given()
    t.act(1, "announce", value=100)
    assert t.game.phase == "play" and t.v["contract"] == 100 and t.v["turn"] == 1


def test_contract_may_be_raised():
    t = given()
    t.act(1, "announce", value=120)
    assert t.v["contract"] == 120 and t.game.phase == "play"


def test_contract_cannot_be_lowered():
    t = given()
    rej = t.rejects(1, "announce", value=95)
    assert (rej.rule_id, rej.reason) == ("talon.raise", "cannot-lower")


def test_raise_goes_in_bidding_steps():
    t = given()
    rej = t.rejects(1, "announce", value=102)
    assert (rej.rule_id, rej.reason) == ("talon.raise", "bad-step")
    t2 = given(bid_step=10)
    assert t2.rejects(1, "announce", value=105).reason == "bad-step"
    t2.act(1, "announce", value=110)
    assert t2.v["contract"] == 110


# ------------------------------------------------------------------ talon.rospis (concede)


def test_concede_before_taking_the_talon_is_refused():
    t = at_talon()
    rej = t.rejects(1, "concede")
    assert (rej.rule_id, rej.reason) == ("talon.rospis", "talon-not-taken")


def test_rospis_costs_the_contract_and_gives_each_opponent_60():
    t = at_talon(scores=[10, 20, 30])
    t.act(1, "take-talon").act(1, "concede")
    row = t.last
    assert row["conceded"] is True
    assert row["delta"] == [60, -100, 60]
    assert row["score"] == [70, -80, 90]
    assert ["rospis", 1] in row["marks"]
    assert t.game.phase == "dealing"


def test_rospis_loses_the_whole_winning_bid():
    t = Table(hands=HANDS, talon=TALON, dealer=0)
    t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=125).act(2, "pass")
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [60, -125, 60]
    assert t.last["contract"] == 125


def test_rospis_points_for_the_opponents_are_a_parameter():
    t = at_talon(rospis_opponent_points=50)
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [50, -100, 50]


def test_rospis_scores_no_card_points_and_no_bolts():
    t = at_talon()
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["taken_points"] == [0, 0, 0]
    assert t.last["bolts"] == [0, 0, 0]


def test_rospis_by_default_only_before_passing():
    t = at_talon()
    t.act(1, "take-talon").act(1, "give", card="JC", to=0)
    rej = t.rejects(1, "concede")
    assert (rej.rule_id, rej.reason) == ("talon.rospis", "rospis-timing")


def test_no_concession_at_all_where_the_rules_have_none():
    t = at_talon()
    t.act(1, "take-talon")
    assert "1 concede" in t.legal(1)
    t = at_talon(rospis_allowed=False)
    t.act(1, "take-talon")
    rej = t.rejects(1, "concede")
    assert (rej.rule_id, rej.reason) == ("talon.rospis", "no-rospis")
    assert "1 concede" not in t.legal(1)


def test_rospis_after_passing_as_a_house_rule():
    t = at_talon(rospis_timing="after-passing")
    t.act(1, "take-talon")
    assert t.rejects(1, "concede").reason == "rospis-timing"
    t.act(1, "give", card="JC", to=0)
    assert t.rejects(1, "concede").reason == "rospis-timing"
    t.act(1, "give", card="JD", to=2).act(1, "concede")
    assert t.last["delta"] == [60, -100, 60]


@pytest.mark.parametrize("gives", [0, 1, 2])
def test_rospis_either_time_as_a_house_rule(gives):
    t = at_talon(rospis_timing="either")
    t.act(1, "take-talon")
    for card, to in [("JC", 0), ("JD", 2)][:gives]:
        t.act(1, "give", card=card, to=to)
    t.act(1, "concede")
    assert t.last["delta"] == [60, -100, 60]


def test_rospis_is_not_possible_once_the_contract_is_announced():
    t = given(rospis_timing="either")
    t.act(1, "announce", value=100)
    assert t.rejects(1, "concede").reason == "wrong-phase"
