"""The play of the tricks: first lead, leading, following suit, trumping, beating and winning tricks."""

import copy

import pytest
from positions import OPENING, legal_cards, rejection
from support import Table

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


# One fully chosen deal. Seat 1 holds the forced hundred and plays at 100 (dealer 0), takes QD 9D 10C and
# passes QD to seat 0 and 9D to seat 2. Hands at the first lead:
#   seat 0: 10S 9C JC QC KC AD 10D QD   (void in hearts)
#   seat 1: AS AH 10H KH QH AC KD 10C   (declarer, leads; hearts marriage, diamonds marriage broken)
#   seat 2: KS QS JS 9S JH 9H JD 9D     (void in clubs)
HANDS = {1: "AS AH 10H KH QH AC KD", 2: "KS QS JS 9S JH 9H JD", 0: "10S 9C JC QC KC AD 10D"}


TALON = "QD 9D 10C"


HEARTS_MARRIAGE = ("KH!", "JH", "9C")  # trick 2: hearts become trump, seat 1 wins, 6 card points


RUFF = ("AC", "9H", "JC")  # trick 3: seat 2, void in clubs, trumps and wins, 13 card points


REST = ("KS!", "QD", "KD",  # trick 4: seat 2 declares spades and wins (11)
        "QS", "10D", "10C",  # trick 5: seat 2 (23)
        "JD", "AD", "QH",  # trick 6: seat 0 (16)
        "QC", "10H", "JS",  # trick 7: seat 2 trumps (15)
        "9D", "KC", "AH")  # trick 8: seat 2; the ace of hearts is a discard and cannot win (15)


def deal(**params):
    """The chosen deal, with the contract announced and seat 1 on lead."""
    return Table(hands=HANDS, talon=TALON, dealer=0, **params).to_play(1, give=("QD", "9D"))




def names(t, cards):
    return sorted(t.name(c) for c in cards)


def test_the_chosen_deal_is_dealt_as_intended():
    t = deal()
    assert t.hand(0) == sorted("10S 9C JC QC KC AD 10D QD".split())
    assert t.hand(1) == sorted("AS AH 10H KH QH AC KD 10C".split())
    assert t.hand(2) == sorted("KS QS JS 9S JH 9H JD 9D".split())
    assert t.game.phase == "play" and t.v["declarer"] == 1 and t.v["contract"] == 100


# ---------------------------------------------------------------- play.first-lead


def test_declarer_leads_to_the_first_trick_by_default():
    t = Table(dealer=0).to_play(2)
    assert t.v["declarer"] == 2 and t.v["turn"] == 2
    card = t.hand(0)[0]
    # The rule that gave the lead is named: the first lead is play.first-lead's to decide.
    assert rejection(t, 0, card) == ("play.first-lead", "not-your-turn")
    assert legal_cards(t, 2, False) == set(t.hand(2))
    assert legal_cards(t, 0, False) == set() and legal_cards(t, 1, False) == set()


@pytest.mark.parametrize(("first_lead", "dealer", "declarer", "leader"), [
    ("declarer", 0, 2, 2),
    ("dealer", 0, 2, 0),
    ("left-of-dealer", 0, 2, 1),
    ("dealer", 2, 1, 2),
    ("left-of-dealer", 2, 1, 0),
])
def test_first_lead_parameter_names_the_leader(first_lead, dealer, declarer, leader):
    t = Table(dealer=dealer, first_lead=first_lead).to_play(declarer)
    assert t.v["declarer"] == declarer and t.v["dealer"] == dealer
    assert t.v["turn"] == leader
    t.act(leader, "play", card=t.hand(leader)[0])
    assert t.v["trick_by"] == [leader]


def test_first_lead_by_the_dealer_rejects_the_declarer_leading():
    t = Table(dealer=0, first_lead="dealer").to_play(2)
    assert rejection(t, 2, t.hand(2)[0]) == ("play.first-lead", "not-your-turn")


# ---------------------------------------------------------------- play.lead-any


def test_a_deal_is_played_without_trump_until_a_marriage():
    t = deal()
    assert t.v["trump"] is None and t.v["led"] is None and t.v["trick_by"] == []


def test_the_leader_may_lead_any_card_of_his_hand():
    t = deal()
    assert legal_cards(t, 1, False) == set(t.hand(1))


@pytest.mark.parametrize("card", ["10C", "KD", "QH", "AS"])
def test_leading_sets_the_led_suit_and_moves_the_card_to_the_trick(card):
    t = deal()
    t.act(1, "play", card=card)
    assert t.v["led"] == {"S": SPADES, "C": CLUBS, "D": DIAMONDS, "H": HEARTS}[card[-1]]
    assert names(t, t.v["trick"]) == [card] and card not in t.hand(1)
    assert t.v["trick_by"] == [1]
    assert t.v["turn"] == 2  # the next player clockwise follows


def test_followers_play_in_turn_and_do_not_change_the_led_suit():
    t = deal()
    t.play("AC", "JH")  # seat 2 is void in clubs and discards a heart
    assert t.v["led"] == CLUBS
    assert t.v["trick_by"] == [1, 2] and names(t, t.v["trick"]) == ["AC", "JH"]
    assert t.v["turn"] == 0


def test_a_card_not_in_hand_is_rejected():
    t = deal()
    assert rejection(t, 1, "KS") == ("play.lead-any", "not-in-hand")
    t.play("AS")
    assert rejection(t, 2, "10S") == ("play.lead-any", "not-in-hand")  # seat 0 holds it
    assert rejection(t, 2, "AS") == ("play.lead-any", "not-in-hand")  # already in the trick


def test_an_illegal_play_is_simply_refused_without_penalty():
    t = deal()
    t.play("AS")
    before = copy.deepcopy(t.v)
    assert rejection(t, 2, "QD")[1] == "not-in-hand"
    assert rejection(t, 2, "JH")[1] == "must-follow-suit"
    assert t.v == before and t.game.sheet == []
    t.play("9S", "10S")
    assert t.v["tricks_won"] == [0, 1, 0]


def test_playing_out_of_turn_or_before_the_play_is_rejected():
    t = deal()
    assert rejection(t, 2, "9S") == ("play.first-lead", "not-your-turn")
    t.play("AS")
    # Mid-trick, the turn passes to the left: play.trick-resolution moved it.
    assert rejection(t, 1, "9S") == ("play.trick-resolution", "not-your-turn")
    t2 = Table(hands=HANDS, talon=TALON).win_auction(1)
    # The auction's end moved the game on to the talon: bid.order is named, with its sources.
    assert rejection(t2, 1, "AS") == ("bid.order", "wrong-phase")
    assert t2.rejects(1, "play", card="AS", marriage=False).sources


# ---------------------------------------------------------------- play.follow-suit


def test_a_follower_holding_the_led_suit_must_follow():
    t = deal()
    t.play("AS")
    assert rejection(t, 2, "JH") == ("play.follow-suit", "must-follow-suit")
    assert rejection(t, 2, "9D") == ("play.follow-suit", "must-follow-suit")
    assert legal_cards(t, 2, False) == {"KS", "QS", "JS", "9S"}
    t.play("9S")
    assert rejection(t, 0, "AD") == ("play.follow-suit", "must-follow-suit")
    assert legal_cards(t, 0, False) == {"10S"}


def test_a_follower_void_in_the_led_suit_may_play_any_card_while_there_is_no_trump():
    t = deal()
    t.play("AC")
    # Seat 2 has no club; he holds hearts but no trump is in force, so anything goes.
    assert legal_cards(t, 2, False) == set(t.hand(2))
    t.play("JD")
    assert t.v["trick_by"] == [1, 2]


def test_following_suit_comes_before_trumping():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE)
    assert t.v["trump"] == HEARTS
    t.play("KD")  # seat 2 holds diamonds and a trump (9H)
    assert rejection(t, 2, "9H") == ("play.follow-suit", "must-follow-suit")
    assert legal_cards(t, 2, False) == {"JD", "9D"}


# ---------------------------------------------------------------- play.must-trump


def test_a_follower_void_in_the_led_suit_must_trump():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, "AC")
    assert rejection(t, 2, "JD") == ("play.must-trump", "must-trump")
    assert rejection(t, 2, "KS") == ("play.must-trump", "must-trump")
    assert legal_cards(t, 2, False) == {"9H"}
    t.play("9H")
    assert legal_cards(t, 0, False) == {"JC", "QC", "KC"}  # seat 0 still follows suit


def test_a_follower_void_in_the_led_suit_and_in_trumps_may_play_any_card():
    t = deal()
    t.play(*OPENING, "KH!", "JH")
    assert t.v["trump"] == HEARTS
    # Seat 0 has neither hearts (led) nor hearts (trump).
    assert legal_cards(t, 0, False) == set(t.hand(0))
    t.play("AD")
    assert t.v["tricks_won"] == [0, 2, 0]  # the discarded ace does not win


# ---------------------------------------------------------------- play.no-overtake-obligation


def test_a_follower_need_not_beat_the_trick_by_default():
    t = deal()
    t.play("KD", "9D")
    assert legal_cards(t, 0, False) == {"AD", "10D", "QD"}
    t.play("QD")  # seat 0 could beat the king with AD or 10D but does not have to
    assert t.v["tricks_won"] == [0, 1, 0] and t.v["turn"] == 1


def test_must_beat_forces_a_follower_to_beat_when_a_card_of_his_suit_can():
    t = deal(must_beat=True)
    t.play("KD", "9D")  # seat 2 has nothing that beats the king: any diamond will do
    assert rejection(t, 0, "QD") == ("play.no-overtake-obligation", "must-beat")
    assert legal_cards(t, 0, False) == {"AD", "10D"}
    t.play("10D")
    assert t.v["tricks_won"] == [1, 0, 0] and t.v["turn"] == 0


def test_must_beat_does_not_bind_a_follower_who_cannot_win():
    t = deal(must_beat=True)
    t.play(*OPENING, *HEARTS_MARRIAGE, "AC", "9H")
    # The trick is trumped: no club can win it, so any club may follow.
    assert legal_cards(t, 0, False) == {"JC", "QC", "KC"}
    t.play("JC")
    assert t.v["tricks_won"] == [0, 2, 1]


# ---------------------------------------------------------------- play.trick-resolution


def test_the_highest_card_of_the_led_suit_wins_and_its_player_leads_next():
    t = deal()
    t.play(*OPENING)
    assert t.v["tricks_won"] == [0, 1, 0] and t.v["trick_no"] == 1
    assert names(t, t.v["won"][1]) == ["10S", "9S", "AS"]
    assert t.v["trick"] == [] and t.v["trick_by"] == [] and t.v["led"] is None
    assert t.v["turn"] == 1
    assert legal_cards(t, 1, False) == set(t.hand(1)) and len(t.hand(1)) == 7


def test_the_winner_need_not_be_the_leader():
    t = deal()
    t.play("KD", "9D", "AD")
    assert t.v["tricks_won"] == [1, 0, 0] and t.v["turn"] == 0
    assert names(t, t.v["won"][0]) == ["9D", "AD", "KD"]


def test_a_trump_beats_the_ace_of_the_led_suit():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF)
    assert t.v["trump"] == HEARTS
    assert t.v["tricks_won"] == [0, 2, 1] and t.v["turn"] == 2
    assert names(t, t.v["won"][2]) == ["9H", "AC", "JC"]


def test_a_discard_cannot_win_the_trick_whatever_its_rank():
    t = deal()
    t.play("QH", "9H", "AD")  # seat 0 is void in hearts and there is no trump
    assert t.v["trump"] is None
    assert t.v["tricks_won"] == [0, 1, 0] and t.v["turn"] == 1


def test_eight_tricks_play_out_all_cards_and_score_the_deal():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF)
    for i in range(0, len(REST) - 3, 3):
        t.play(*REST[i:i + 3])
        assert t.game.phase == "play" and t.game.sheet == []
    assert t.v["trick_no"] == 7 and all(len(t.v["hand"][s]) == 1 for s in range(3))
    t.play(*REST[-3:])
    assert len(t.game.sheet) == 1
    row = t.last
    assert row["tricks_won"] == [1, 2, 5] and sum(row["tricks_won"]) == 8
    card_points = [tp - mp for tp, mp in zip(row["taken_points"], row["marriage_points"], strict=True)]
    assert card_points == [16, 27, 77] and sum(card_points) == 120
    assert row["delta"] == [16, 100, 117]  # seat 2 took the last trick: the ace of hearts was only a discard
    assert t.v["deal_no"] == 1 and t.v["dealer"] == 1 and t.game.phase != "play"
