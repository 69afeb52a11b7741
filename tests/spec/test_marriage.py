"""Marriages: what one is, when it may be declared, its value, and the trump and points it brings."""

import pytest
from positions import OPENING, legal_cards, rejection
from support import Table

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


# One fully chosen deal. Seat 1 holds the forced hundred and plays at 100 (dealer 0) and takes QD 9D 10C.
# deal() passes QD to seat 0 and 9D to seat 2, breaking the diamonds marriage. Hands at the first lead:
#   seat 0: 10S 9C JC QC KC AD 10D QD   (clubs marriage, void in hearts)
#   seat 1: AS AH 10H KH QH AC KD 10C   (declarer, leads; hearts marriage)
#   seat 2: KS QS JS 9S JH 9H JD 9D     (spades marriage, void in clubs)
# deal_keeping_diamonds() passes 10C and 9D instead, so the declarer keeps KD QD and seat 0 holds 10C
# instead of QD.
HANDS = {1: "AS AH 10H KH QH AC KD", 2: "KS QS JS 9S JH 9H JD", 0: "10S 9C JC QC KC AD 10D"}


TALON = "QD 9D 10C"


HEARTS_MARRIAGE = ("KH!", "JH", "9C")  # trick 2: seat 1 declares hearts and wins, 6 card points


RUFF = ("AC", "9H", "JC")  # trick 3: seat 2 trumps and wins, 13 card points


SPADES_MARRIAGE = ("KS!", "QD", "KD")  # trick 4: seat 2 declares spades and wins, 11 card points


MIDDLE = ("QS", "10D", "10C",  # trick 5: seat 2 (23)
          "JD", "AD", "QH")  # trick 6: seat 0 (16)


ENDING = ("QC", "10H", "JS",  # trick 7: seat 2 trumps (15)
          "9D", "KC", "AH")  # trick 8: seat 2 (15)


# With QC! in trick 7 seat 0 declares clubs and takes both last tricks (15 and 15).
ENDING_WITH_CLUBS = ("QC!", "10H", "JS", "KC", "AH", "9D")


FULL_DEAL = (*OPENING, *HEARTS_MARRIAGE, *RUFF, *SPADES_MARRIAGE, *MIDDLE, *ENDING)


DEFAULT_VALUES = {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40}


REVERSED_VALUES = {"hearts": 40, "diamonds": 60, "clubs": 80, "spades": 100}


def deal(**params):
    return Table(hands=HANDS, talon=TALON, dealer=0, **params).to_play(1, give=("QD", "9D"))


def deal_keeping_diamonds(**params):
    return Table(hands=HANDS, talon=TALON, dealer=0, **params).to_play(1, give=("10C", "9D"))






def test_the_chosen_deals_are_dealt_as_intended():
    t = deal()
    assert t.hand(0) == sorted("10S 9C JC QC KC AD 10D QD".split())
    assert t.hand(1) == sorted("AS AH 10H KH QH AC KD 10C".split())
    assert t.hand(2) == sorted("KS QS JS 9S JH 9H JD 9D".split())
    t2 = deal_keeping_diamonds()
    assert {"KD", "QD"} <= set(t2.hand(1)) and "10C" in t2.hand(0)


# ---------------------------------------------------------------- marriage.definition


def test_leading_the_king_while_holding_the_queen_declares_a_marriage():
    t = deal()
    t.play(*OPENING, "KH!")
    assert t.v["declared"] == [HEARTS] and t.v["trump"] == HEARTS
    assert t.v["marriage_points"] == [0, 100, 0]
    assert t.v["trick_by"] == [1]  # the declared card starts the trick


def test_leading_the_queen_while_holding_the_king_declares_a_marriage():
    t = deal()
    t.play(*OPENING, "QH!")
    assert t.v["declared"] == [HEARTS] and t.v["trump"] == HEARTS
    assert t.v["marriage_points"] == [0, 100, 0]


def test_only_the_king_or_queen_of_a_held_marriage_can_declare():
    t = deal()
    t.play(*OPENING)
    assert legal_cards(t, 1, True) == {"KH", "QH"}  # KD lost its queen when it was passed away
    for card in ("AH", "10H", "AC", "10C"):
        assert rejection(t, 1, card, marriage=True) == ("marriage.definition", "not-a-marriage")


def test_a_card_passed_away_with_the_talon_breaks_the_marriage():
    t = deal()
    t.play(*OPENING)
    assert rejection(t, 1, "KD", marriage=True) == ("marriage.definition", "not-a-marriage")
    kept = deal_keeping_diamonds()
    kept.play(*OPENING, "KD!")
    assert kept.v["trump"] == DIAMONDS and kept.v["marriage_points"] == [0, 80, 0]


def test_a_card_played_earlier_without_declaring_breaks_the_marriage():
    t = deal()
    t.play(*OPENING, "KH", "JH", "9C")
    assert t.v["trump"] is None and t.v["marriage_points"] == [0, 0, 0] and t.v["declared"] == []
    assert t.v["turn"] == 1
    assert rejection(t, 1, "QH", marriage=True) == ("marriage.definition", "not-a-marriage")
    assert legal_cards(t, 1, True) == set()


def test_a_declared_marriage_cannot_be_declared_again_with_its_other_card():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE)
    assert t.v["turn"] == 1 and "QH" in t.hand(1)
    assert rejection(t, 1, "QH", marriage=True) == ("marriage.definition", "not-a-marriage")
    t.play("QH")
    assert t.v["marriage_points"] == [0, 100, 0] and t.v["declared"] == [HEARTS]


@pytest.mark.parametrize("timing", ["after-trick", "from-first-lead"])
def test_a_marriage_cannot_be_declared_when_following(timing):
    t = deal(marriage_timing=timing)
    t.play("AS")
    # Seat 2 holds KS QS, but only a lead declares.
    assert rejection(t, 2, "KS", marriage=True) == ("marriage.definition", "not-a-marriage")
    assert legal_cards(t, 2, True) == set()
    t.play("KS")
    assert t.v["marriage_points"] == [0, 0, 0] and t.v["trump"] is None


def test_a_player_may_declare_several_marriages_in_a_deal():
    t = deal_keeping_diamonds()
    t.play(*OPENING, *HEARTS_MARRIAGE, "QD!")
    assert t.v["declared"] == [HEARTS, DIAMONDS] and t.v["trump"] == DIAMONDS
    assert t.v["marriage_points"] == [0, 180, 0]
    t.play("JD", "AD")  # he loses that trick and keeps the points
    assert t.v["tricks_won"] == [1, 2, 0] and t.v["marriage_points"] == [0, 180, 0]


def test_holding_a_marriage_without_declaring_it_scores_nothing():
    t = deal()
    t.play(*FULL_DEAL)  # seat 0 held KC QC all deal and led the queen in trick 7 without declaring
    row = t.last
    assert row["marriage_points"] == [0, 100, 40] and row["declared"] == [HEARTS, SPADES]
    assert row["taken_points"][0] == 16 and row["delta"][0] == 16


def test_marriage_ranks_can_be_changed():
    t = deal(marriage_ranks=["A", "K"])
    t.play(*OPENING)
    assert legal_cards(t, 1, True) == {"AH", "KH"}
    assert rejection(t, 1, "QH", marriage=True) == ("marriage.definition", "not-a-marriage")
    t.play("AH!")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 100, 0]


# Each scenario: who declares which suit, and the marriage points of seats 0, 1, 2 afterwards.
SCENARIOS = {
    "hearts": (deal, (*OPENING, "KH!"), lambda v: [0, v["hearts"], 0]),
    "diamonds": (deal_keeping_diamonds, (*OPENING, "QD!"), lambda v: [0, v["diamonds"], 0]),
    "spades": (deal, (*OPENING, *HEARTS_MARRIAGE, *RUFF, "KS!"), lambda v: [0, v["hearts"], v["spades"]]),
    "clubs": (deal, ("KD", "9D", "AD", "QC!"), lambda v: [v["clubs"], 0, 0]),
}


# ---------------------------------------------------------------- marriage.values


@pytest.mark.parametrize("suit", SCENARIOS)
def test_default_marriage_values(suit):
    make, moves, expected = SCENARIOS[suit]
    t = make()
    t.play(*moves)
    assert t.v["marriage_points"] == expected(DEFAULT_VALUES)
    assert t.v["trump"] == ["spades", "clubs", "diamonds", "hearts"].index(suit)


@pytest.mark.parametrize("suit", SCENARIOS)
def test_marriage_values_can_be_changed(suit):
    make, moves, expected = SCENARIOS[suit]
    t = make(marriage_values=REVERSED_VALUES)
    t.play(*moves)
    assert t.v["marriage_points"] == expected(REVERSED_VALUES)
    assert t.v["trump"] == ["spades", "clubs", "diamonds", "hearts"].index(suit)


def test_declared_marriages_reach_the_score_sheet():
    t = deal()
    t.play(*FULL_DEAL)
    row = t.last
    assert row["declared"] == [HEARTS, SPADES]
    assert row["marriage_points"] == [0, 100, 40]
    # The declarer has only 27 card points: his hearts make the contract.
    assert row["taken_points"] == [16, 127, 117]
    assert row["delta"] == [16, 100, 117] and row["score"] == [16, 100, 117]
    assert ["marriage", 1] in row["marks"] and ["marriage", 2] in row["marks"]


def test_a_cheaper_marriage_no_longer_makes_the_contract():
    t = deal(marriage_values={"hearts": 50, "diamonds": 80, "clubs": 60, "spades": 70})
    t.play(*FULL_DEAL)
    row = t.last
    assert row["marriage_points"] == [0, 50, 70]
    assert row["taken_points"] == [16, 77, 147]
    assert row["delta"] == [16, -100, 147]


def test_every_player_scores_his_own_marriages():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, *SPADES_MARRIAGE, *MIDDLE, *ENDING_WITH_CLUBS)
    row = t.last
    assert row["declared"] == [HEARTS, SPADES, CLUBS]
    assert row["marriage_points"] == [60, 100, 40]
    assert row["taken_points"] == [106, 127, 87]
    assert row["delta"] == [106, 100, 87]


# ---------------------------------------------------------------- marriage.declaration-timing


def test_no_marriage_on_the_first_lead_by_default():
    t = deal()
    assert legal_cards(t, 1, True) == set()
    assert rejection(t, 1, "KH", marriage=True) == ("marriage.declaration-timing", "marriage-too-early")
    assert rejection(t, 1, "QH", marriage=True) == ("marriage.declaration-timing", "marriage-too-early")


def test_leading_a_king_to_the_first_trick_is_allowed_but_is_no_declaration():
    t = deal()
    t.play("KH", "JH", "9C")
    assert t.v["trump"] is None and t.v["declared"] == [] and t.v["marriage_points"] == [0, 0, 0]
    assert t.v["tricks_won"] == [0, 1, 0]


def test_a_marriage_may_be_declared_after_winning_a_trick():
    t = deal()
    t.play(*OPENING)
    assert t.v["tricks_won"][1] == 1
    assert legal_cards(t, 1, True) == {"KH", "QH"}


def test_no_marriage_on_the_first_lead_whoever_leads():
    t = deal(first_lead="dealer")
    assert t.v["turn"] == 0
    assert rejection(t, 0, "QC", marriage=True) == ("marriage.declaration-timing", "marriage-too-early")


def test_a_marriage_may_be_declared_on_the_first_lead_if_the_house_allows():
    t = deal(marriage_timing="from-first-lead")
    assert legal_cards(t, 1, True) == {"KH", "QH"}
    t.play("KH!")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 100, 0]
    t2 = deal(marriage_timing="from-first-lead", first_lead="dealer")
    t2.play("QC!")
    assert t2.v["trump"] == CLUBS and t2.v["marriage_points"] == [60, 0, 0]


# ---------------------------------------------------------------- marriage.sets-trump


def test_the_new_trump_is_in_force_at_once_by_default():
    t = deal()
    t.play(*OPENING, "KH!")
    assert t.v["trump"] == HEARTS and t.v["pending_trump"] is None


def test_a_later_marriage_replaces_the_trump_for_its_own_trick_by_default():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, "KS!")
    assert t.v["trump"] == SPADES and t.v["declared"] == [HEARTS, SPADES]
    assert t.v["marriage_points"] == [0, 100, 40]
    t.play("QD")
    # Hearts are trump no more: seat 1, void in spades, may play anything, and his heart does not win.
    assert legal_cards(t, 1, False) == {"AH", "10H", "QH", "KD", "10C"}
    t.play("QH")
    assert t.v["tricks_won"] == [0, 2, 2] and t.v["turn"] == 2
    assert t.v["trump"] == SPADES


def test_the_trump_persists_until_the_next_marriage_and_ends_with_the_deal():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF)
    assert t.v["trump"] == HEARTS
    t.play(*SPADES_MARRIAGE, *MIDDLE)
    assert t.v["trump"] == SPADES
    t.play(*ENDING)
    assert len(t.game.sheet) == 1
    assert t.v["trump"] is None and t.v["declared"] == [] and t.v["marriage_points"] == [0, 0, 0]


def test_the_first_marriage_sets_trump_even_when_trump_does_not_change():
    t = deal(trump_changes=False)
    t.play(*OPENING, "KH!")
    assert t.v["trump"] == HEARTS


def test_without_trump_changes_the_first_trump_stays_for_the_deal():
    t = deal(trump_changes=False)
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, "KS!", "QD")
    assert t.v["trump"] == HEARTS and t.v["declared"] == [HEARTS, SPADES]
    assert t.v["marriage_points"] == [0, 100, 40]  # the later marriage still scores
    assert rejection(t, 1, "KD") == ("play.must-trump", "must-trump")
    t.play("QH")
    assert t.v["tricks_won"] == [0, 3, 1] and t.v["turn"] == 1
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 100, 40]


def test_with_next_trick_timing_the_trump_waits_for_the_trick_to_end():
    t = deal(trump_timing="next-trick")
    t.play(*OPENING, "KH!")
    assert t.v["trump"] is None and t.v["pending_trump"] == HEARTS
    assert t.v["marriage_points"] == [0, 100, 0]
    t.play("JH")
    assert t.v["trump"] is None
    t.play("9C")
    assert t.v["trump"] == HEARTS and t.v["pending_trump"] is None


def test_with_next_trick_timing_the_old_trump_rules_the_declaring_trick():
    t = deal(trump_timing="next-trick")
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, "KS!", "QD")
    assert t.v["trump"] == HEARTS and t.v["pending_trump"] == SPADES
    assert rejection(t, 1, "KD") == ("play.must-trump", "must-trump")
    t.play("QH")  # the heart still trumps the declared king
    assert t.v["tricks_won"] == [0, 3, 1] and t.v["turn"] == 1
    assert t.v["trump"] == SPADES and t.v["pending_trump"] is None
    assert t.v["marriage_points"] == [0, 100, 40]  # points do not depend on winning the trick


def test_any_player_scores_his_marriage_by_default():
    t = deal()
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, "KS!")
    assert t.v["marriage_points"][2] == 40


def test_declarer_only_scorers_give_defenders_nothing_for_marriages():
    t = deal(marriage_scorers="declarer-only")
    t.play(*OPENING, *HEARTS_MARRIAGE)
    assert t.v["marriage_points"] == [0, 100, 0]
    t.play(*RUFF, "KS!")
    assert t.v["marriage_points"] == [0, 100, 0]
    assert t.v["trump"] == SPADES and t.v["declared"] == [HEARTS, SPADES]  # the trump still changes
    t.play("QD", "KD", *MIDDLE, *ENDING)
    row = t.last
    assert row["marriage_points"] == [0, 100, 0]
    assert row["taken_points"] == [16, 127, 77] and row["delta"] == [16, 100, 77]
