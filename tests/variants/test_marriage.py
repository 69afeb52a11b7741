"""House rules of marriages (variants/marriage/): spades high, declaring on the first lead, declarer only, trump-
lead restriction, the ace, nine and bed marriages.
"""

import pytest
from positions import C_HANDS, C_TALON, allowed, reason, rules
from support import Table

from oracle.errors import RulesetError

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


# The marriage tests' deal. Seat 1 at the hundred takes QD 9D 10C and passes QD and 9D away:
#   seat 0: 10S 9C JC QC KC AD 10D QD   (clubs marriage)
#   seat 1: AS AH 10H KH QH AC KD 10C   (declarer, leads; hearts marriage)
#   seat 2: KS QS JS 9S JH 9H JD 9D     (spades marriage)
M_HANDS = {1: "AS AH 10H KH QH AC KD", 2: "KS QS JS 9S JH 9H JD", 0: "10S 9C JC QC KC AD 10D"}


M_TALON = "QD 9D 10C"


OPENING = ("AS", "9S", "10S")


HEARTS_MARRIAGE = ("KH!", "JH", "9C")


RUFF = ("AC", "9H", "JC")


SPADES_MARRIAGE = ("KS!", "QD", "KD")


REST = ("QS", "10D", "10C", "JD", "AD", "QH", "QC", "10H", "JS", "9D", "KC", "AH")


FULL_DEAL = (*OPENING, *HEARTS_MARRIAGE, *RUFF, *SPADES_MARRIAGE, *REST)


def mdeal(rs, contract=None):
    return Table(rs, hands=M_HANDS, talon=M_TALON, dealer=0).to_play(1, give=("QD", "9D"), contract=contract)


# ====================================================================== marriages


def test_core_marriage_deal_for_reference():
    t = mdeal(rules()).play(*FULL_DEAL)
    assert t.last["taken_points"] == [16, 127, 117]
    assert t.last["delta"] == [16, 100, 117]


# ---------------------------------------------------------------- variant.marriage.values-spades-high (A and B)


@pytest.mark.parametrize(("overlay", "hearts", "spades"), [
    ("variant.marriage.values-spades-high", 80, 100),
    ("variant.marriage.values-spades-high-b", 60, 100),
])
def test_spades_high_values_score_the_declarations(overlay, hearts, spades):
    t = mdeal(rules(overlay)).play(*FULL_DEAL)
    assert t.last["taken_points"] == [16, 27 + hearts, 77 + spades]
    # Version B leaves the declarer's hearts at 60: 87 fails the hundred.
    assert t.last["delta"] == [16, 100 if hearts == 80 else -100, 77 + spades]


@pytest.mark.parametrize(("overlay", "cap"), [
    (None, 160),
    ("variant.marriage.values-spades-high", 220),
    ("variant.marriage.values-spades-high-b", 220),
])
def test_spades_high_values_move_the_bidding_cap(overlay, cap):
    # Seat 2 speaks first and holds only the spades marriage.
    t = Table(rules(*([overlay] if overlay else [])), hands=M_HANDS, talon=M_TALON, dealer=0)
    assert allowed(t, 2, "bid", value=cap)
    assert reason(t, 2, "bid", value=cap + 5) == ("bid.marriage-cap", "over-marriage-cap")


def test_the_two_versions_are_incompatible():
    with pytest.raises(RulesetError, match="declared incompatible"):
        rules("variant.marriage.values-spades-high", "variant.marriage.values-spades-high-b")


# ---------------------------------------------------------------- variant.marriage.declare-on-first-lead


def test_first_lead_declaration_is_refused_by_the_core():
    t = mdeal(rules())
    assert reason(t, 1, "play", card="KH", marriage=True) == ("marriage.declaration-timing", "marriage-too-early")


def test_declare_on_first_lead_allows_it_and_scores_it():
    t = mdeal(rules("variant.marriage.declare-on-first-lead"))
    t.play("KH!")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 100, 0]
    t.play("JH")
    # Still only by leading: a follower cannot declare.
    assert reason(t, 0, "play", card="KC", marriage=True) == ("marriage.definition", "not-a-marriage")
    t.play("9C", *OPENING, *RUFF, *SPADES_MARRIAGE, *REST)
    assert t.last["taken_points"] == [16, 127, 117]
    assert t.last["delta"] == [16, 100, 117]


# ---------------------------------------------------------------- variant.marriage.declarer-only


def test_declarer_only_defenders_still_declare_for_trump_without_points():
    t = mdeal(rules("variant.marriage.declarer-only"))
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF)
    assert allowed(t, 2, "play", card="KS", marriage=True)
    t.play(*SPADES_MARRIAGE)
    assert t.v["trump"] == SPADES and t.v["marriage_points"] == [0, 100, 0]
    t.play(*REST)
    assert t.last["taken_points"] == [16, 127, 77]
    assert t.last["delta"] == [16, 100, 77]


def test_declarer_only_keeps_the_rules_of_declaring():
    t = mdeal(rules("variant.marriage.declarer-only"))
    t.play(*OPENING)
    assert reason(t, 1, "play", card="KD", marriage=True) == ("marriage.definition", "not-a-marriage")


# ---------------------------------------------------------------- variant.trump-lead-restriction


def test_trump_namer_may_not_lead_trumps():
    t = mdeal(rules("variant.trump-lead-restriction"))
    t.play(*OPENING, *HEARTS_MARRIAGE)
    for card in ("QH", "AH", "10H"):
        assert reason(t, 1, "play", card=card) == ("variant.trump-lead-restriction", "own-trump-lead")
    t.play(*RUFF, *SPADES_MARRIAGE)
    # Spades are now trump, named by seat 2: he may not lead QS, but hearts are free for everybody.
    assert t.v["turn"] == 2 and t.hand(2) == ["9D", "JD", "JS", "QS"]
    assert reason(t, 2, "play", card="QS") == ("variant.trump-lead-restriction", "own-trump-lead")


def test_restricted_player_leads_another_suit_and_the_deal_scores_as_usual():
    t = mdeal(rules("variant.trump-lead-restriction"))
    t.play(*OPENING, *HEARTS_MARRIAGE, *RUFF, *SPADES_MARRIAGE)
    t.play("JD", "AD", "AH", "QC", "10C", "QS", "9D", "10D", "10H", "KC", "QH", "JS")
    assert t.last["taken_points"] == [44, 127, 89]
    assert t.last["delta"] == [44, 100, 89]


# Seat 1 holds all the hearts but the nine (in the talon) and two aces; he passes 9S and 9D away.
T_HANDS = {1: "AS AC KH QH AH 10H JH", 0: "10S KS QS 10C KC QC JC", 2: "JS 9C AD 10D KD QD JD"}


T_TALON = "9H 9S 9D"


def test_trump_namer_leads_trumps_when_he_has_nothing_else():
    t = Table(rules("variant.trump-lead-restriction"), hands=T_HANDS, talon=T_TALON, dealer=0)
    t.to_play(1, give=("9S", "9D")).play("AS", "JS", "10S", "KH!", "9C", "JC")
    assert reason(t, 1, "play", card="QH") == ("variant.trump-lead-restriction", "own-trump-lead")
    t.play("AC", "9D", "10C")
    assert t.hand(1) == ["10H", "9H", "AH", "JH", "QH"]
    assert allowed(t, 1, "play", card="QH")
    t.play("QH", "AD", "KS", "AH", "10D", "QS", "10H", "KD", "KC", "JH", "QD", "QC", "9H", "JD", "9S")
    assert t.last["taken_points"] == [0, 220, 0]
    assert t.last["delta"] == [0, 100, 0]


def test_without_the_restriction_the_namer_leads_trumps():
    t = mdeal(rules())
    t.play(*OPENING, *HEARTS_MARRIAGE)
    assert allowed(t, 1, "play", card="QH")


A_HANDS = {1: "AS AC AD AH KH QH 9S", 0: "10C KC QC JC 10D KD QD", 2: "KS QS JS 10H JH 9H JD"}


A_TALON = "10S 9C 9D"


# Seat 1 declares the aces with AS (spades trump), wins nearly everything, declares hearts on the way.
ACE_DEAL = ["AS", "JS", "9C", "10S", "KS", "JC", "AD", "9D", "QD", "AH", "9H", "10C", "KH!", "10H", "KC",
            "QS", "QC", "9S", "JH", "10D", "QH", "AC", "JD", "KD"]


def adeal(rs, contract=None):
    t = Table(rs, hands=A_HANDS, talon=A_TALON, dealer=0)
    return t.to_play(1, give=("9C", "9D"), contract=contract)


# ---------------------------------------------------------------- variant.ace-marriage


def test_ace_marriage_on_the_first_lead_scores_200_and_names_the_trump():
    t = adeal(rules("variant.ace-marriage"))
    assert "1 declare-aces" in t.legal(1)
    t.act(1, "declare-aces").play("AS")
    assert t.v["trump"] == SPADES and t.v["marriage_points"] == [0, 200, 0]
    assert t.v["ace_marriage_by"] == 1


def test_ace_marriage_full_deal_scores():
    t = adeal(rules("variant.ace-marriage"))
    t.act(1, "declare-aces").play(*ACE_DEAL)
    assert t.last["taken_points"] == [0, 396, 24]
    assert t.last["delta"] == [0, 100, 24]
    assert ["ace-marriage", 1] in t.last["marks"]


def test_ace_marriage_needs_the_four_aces_and_the_lead():
    t = adeal(rules("variant.ace-marriage"))
    t.play("AS")
    assert reason(t, 2, "declare-aces") == ("variant.ace-marriage", "not-on-lead")
    t.play("JS", "9C")
    assert reason(t, 1, "declare-aces") == ("variant.ace-marriage", "no-four-aces")
    fresh = adeal(rules("variant.ace-marriage"))
    fresh.act(1, "declare-aces")
    assert reason(fresh, 1, "declare-aces") == ("variant.ace-marriage", "already-announced")


def test_ace_marriage_must_come_with_the_holders_first_lead():
    t = adeal(rules("variant.ace-marriage"))
    t.play("10S", "JS", "9C")  # seat 1 wins with the ten and still holds four aces
    assert t.v["turn"] == 1
    assert reason(t, 1, "declare-aces") == ("variant.ace-marriage", "ace-marriage-too-late")


def test_an_announcement_without_an_ace_is_void():
    t = adeal(rules("variant.ace-marriage"))
    t.act(1, "declare-aces").play("KH")
    assert t.v["trump"] is None and t.v["marriage_points"] == [0, 0, 0] and t.v["ace_marriage_by"] is None
    assert t.v["ace_call"] is None


def test_ace_marriage_value_is_a_parameter():
    t = adeal(rules("variant.ace-marriage", ace_marriage_value=150))
    t.act(1, "declare-aces").play("AS")
    assert t.v["marriage_points"] == [0, 150, 0]


@pytest.mark.parametrize(("overlays", "points"), [
    (["variant.ace-marriage"], [200, 0, 0]),
    (["variant.ace-marriage", "variant.marriage.declarer-only"], [0, 0, 0]),
])
def test_a_defenders_ace_marriage_follows_the_marriage_scorers(overlays, points):
    # The dealer leads first here, so defender seat 0 can announce on his first lead.
    hands = {0: "AS AC AD AH KH QH 9S", 1: "10C KC QC JC 10D KD QD", 2: "KS QS JS 10H JH 9H JD"}
    t = Table(rules(*overlays, first_lead="dealer"), hands=hands, talon=A_TALON, dealer=0)
    t.to_play(1, give=("9C", "9D"))
    assert t.v["turn"] == 0
    t.act(0, "declare-aces").play("AS")
    assert t.v["trump"] == SPADES and t.v["marriage_points"] == points


def test_ace_marriage_does_not_lift_the_bidding_cap_alone():
    t = Table(rules("variant.ace-marriage"), hands=A_HANDS, talon=A_TALON, dealer=0)
    t.win_auction(1).act(1, "take-talon").act(1, "give", card="9C", to=0).act(1, "give", card="9D", to=2)
    assert reason(t, 1, "announce", value=250) == ("bid.marriage-cap", "over-marriage-cap")


# ---------------------------------------------------------------- variant.ace-marriage.bid-cap


def test_ace_marriage_bid_cap_counts_four_aces_and_a_big_contract_is_made():
    rs = rules("variant.ace-marriage", "variant.ace-marriage.bid-cap")
    t = adeal(rs, contract=250)
    assert t.v["contract"] == 250
    t.act(1, "declare-aces").play(*ACE_DEAL)
    assert t.last["delta"] == [0, 250, 24]


# Seat 2 speaks first and holds the four aces without a marriage.
CAP_HANDS = {2: "AS AC AD AH 9S 10H JH", 0: "10C KC QC JC 10D KD QD", 1: "KS QS JS KH QH 9H JD"}


def test_ace_marriage_bid_cap_still_limits_the_contract_without_aces():
    # The talon deal: seat 1 holds only the spades marriage, so 160 is his cap.
    t = Table(rules("variant.ace-marriage", "variant.ace-marriage.bid-cap"), hands=C_HANDS, talon=C_TALON, dealer=0)
    t.win_auction(1).act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2)
    assert allowed(t, 1, "announce", value=160)
    assert reason(t, 1, "announce", value=165) == ("bid.marriage-cap", "over-marriage-cap")


@pytest.mark.parametrize("mode", ["sum-of-marriages", "any-marriage"])
def test_ace_marriage_bid_cap_in_the_auction(mode):
    alone = Table(rules("variant.ace-marriage", marriage_cap_mode=mode), hands=CAP_HANDS, talon=A_TALON, dealer=0)
    assert allowed(alone, 2, "bid", value=120)
    assert reason(alone, 2, "bid", value=125) == ("bid.marriage-cap", "over-marriage-cap")
    rs = rules("variant.ace-marriage", "variant.ace-marriage.bid-cap", marriage_cap_mode=mode)
    capped = Table(rs, hands=CAP_HANDS, talon=A_TALON, dealer=0)
    assert allowed(capped, 2, "bid", value=300)
    capped.act(2, "bid", value=200).act(0, "pass")
    # Seat 1 holds the spades and hearts marriages: 120 + 40 + 100 = 260 by the sum, 300 with any marriage.
    assert allowed(capped, 1, "bid", value=260)
    assert allowed(capped, 1, "bid", value=265) == (mode == "any-marriage")


# ---------------------------------------------------------------- variant.ace-marriage.consecutive-aces


def test_after_the_ace_marriage_the_aces_come_first():
    t = adeal(rules("variant.ace-marriage", "variant.ace-marriage.consecutive-aces"))
    t.act(1, "declare-aces").play("AS", "JS", "9C")
    assert t.v["turn"] == 1
    assert reason(t, 1, "play", card="10S") == ("variant.ace-marriage", "must-lead-aces")
    assert reason(t, 1, "play", card="KH", marriage=True) == ("variant.ace-marriage", "must-lead-aces")
    t.play("AD", "JD", "QD")
    assert reason(t, 1, "play", card="9S") == ("variant.ace-marriage", "must-lead-aces")
    # AC is ruffed; seat 1 then plays AH to seat 2's lead, and has no ace left to lead.
    t.play("AC", "QS", "JC", "10H", "KC", "AH")
    assert t.v["turn"] == 1 and allowed(t, 1, "play", card="10S")
    t.play("KH!", "JH", "10C", "QH", "9H", "QC", "10S", "KS", "10D", "9S", "9D", "KD")
    assert t.last["taken_points"] == [0, 404, 16]
    assert t.last["delta"] == [0, 100, 16]


def test_without_consecutive_aces_other_cards_may_come_between():
    t = adeal(rules("variant.ace-marriage"))
    t.act(1, "declare-aces").play("AS", "JS", "9C")
    assert allowed(t, 1, "play", card="10S")


def test_consecutive_aces_needs_the_ace_marriage():
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.ace-marriage'"):
        rules("variant.ace-marriage.consecutive-aces")


# ---------------------------------------------------------------- variant.ace-marriage.lead-other-first


def test_lead_other_first_lets_the_holder_win_a_trick_before_declaring():
    rs = rules("variant.ace-marriage", "variant.ace-marriage.lead-other-first")
    t = adeal(rs)
    assert reason(t, 1, "declare-aces") == ("variant.ace-marriage", "marriage-too-early")
    t.play("10S", "JS", "9C")
    t.act(1, "declare-aces").play("AD")
    assert t.v["trump"] == DIAMONDS and t.v["marriage_points"] == [0, 200, 0]


def test_lead_other_first_with_marriages_from_the_first_lead():
    rs = rules("variant.ace-marriage", "variant.ace-marriage.lead-other-first",
               "variant.marriage.declare-on-first-lead")
    t = adeal(rs)
    t.act(1, "declare-aces").play("AH")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 200, 0]


N_HANDS = {1: "9S 9C 9D 9H AS AC AD", 0: "KC QC 10C KD QD 10D AH", 2: "KS QS JS KH QH 10H JH"}


N_TALON = "10S JC JD"


NINE_DEAL = ["9S", "KS", "KC", "QS", "QC", "AS", "AC", "JS", "10C", "AD", "JD", "KD", "10S", "KH", "QD", "9C",
             "QH", "JC", "10D", "9D", "10H", "AH", "9H", "JH"]


def ndeal(rs):
    return Table(rs, hands=N_HANDS, talon=N_TALON, dealer=0).to_play(1, give=("JC", "JD"))


# ---------------------------------------------------------------- variant.nine-marriage


def test_four_nines_score_360_and_make_a_hopeless_contract():
    t = ndeal(rules("variant.nine-marriage"))
    t.act(1, "declare-nines").play(*NINE_DEAL)
    assert t.last["taken_points"] == [38, 434, 8]
    assert t.last["delta"] == [38, 100, 8]
    assert t.last["nine_marriage_by"] == 1
    plain = ndeal(rules("variant.nine-marriage")).play(*NINE_DEAL)
    assert plain.last["taken_points"] == [38, 74, 8]
    assert plain.last["delta"] == [38, -100, 8]


def test_four_nines_set_no_trump_unless_the_house_says_so():
    t = ndeal(rules("variant.nine-marriage"))
    t.act(1, "declare-nines").play("9S")
    assert t.v["trump"] is None and t.v["marriage_points"] == [0, 360, 0]
    t2 = ndeal(rules("variant.nine-marriage", nine_marriage_sets_trump=True, nine_marriage_value=200))
    t2.act(1, "declare-nines").play("9D")
    assert t2.v["trump"] == DIAMONDS and t2.v["marriage_points"] == [0, 200, 0]


def test_four_nines_need_the_nines_and_the_lead():
    t = ndeal(rules("variant.nine-marriage"))
    t.act(1, "declare-nines")
    assert reason(t, 1, "declare-nines") == ("variant.nine-marriage", "already-announced")
    t.play("AS")  # not a nine: the announcement is void
    assert t.v["marriage_points"] == [0, 0, 0] and t.v["nine_call"] is None
    assert reason(t, 2, "declare-nines") == ("variant.nine-marriage", "not-on-lead")
    t.play("KS", "KC")
    assert t.v["turn"] == 1
    t.act(1, "declare-nines").play("9H")
    assert t.v["marriage_points"] == [0, 360, 0]


def test_four_nines_are_only_for_their_holder():
    t = ndeal(rules("variant.nine-marriage")).play("9H", "KH", "AH")
    assert t.v["turn"] == 0
    assert reason(t, 0, "declare-nines") == ("variant.nine-marriage", "no-four-nines")


B_HANDS = {1: "AS 10S AH QH JH AC 10C", 0: "KS QS JS KC QC JC 9H", 2: "KH 10H AD 10D KD QD JD"}


B_TALON = "9S 9C 9D"


BED_REST = ["KH", "9H", "10H", "KS", "AH", "10S", "10D", "QS", "QH", "KD", "KC", "AC", "QD", "QC", "10C", "JD",
            "JC", "9S", "9D", "9C"]


def bdeal(rs):
    return Table(rs, hands=B_HANDS, talon=B_TALON, dealer=0).to_play(1, give=("9C", "9D"))


# ---------------------------------------------------------------- variant.bed-marriage


def test_bed_marriage_scores_half_and_names_the_trump():
    t = bdeal(rules("variant.bed-marriage"))
    t.play("AS", "AD", "JS")
    assert f"1 declare-bed suit={HEARTS}" in t.legal(1)
    t.act(1, "declare-bed", suit="H").play("JH")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 50, 0] and t.v["bed_declared"] == [HEARTS]
    t.play(*BED_REST)
    assert t.last["taken_points"] == [0, 164, 6]
    assert t.last["delta"] == [0, 100, 6]
    assert ["bed-marriage", 1] in t.last["marks"]


def test_bed_marriage_needs_queen_and_jack_the_lead_and_a_trick():
    t = bdeal(rules("variant.bed-marriage"))
    assert reason(t, 1, "declare-bed", suit="H") == ("variant.bed-marriage", "marriage-too-early")
    t.play("AS", "AD", "JS")
    assert reason(t, 1, "declare-bed", suit="S") == ("variant.bed-marriage", "not-a-bed-marriage")
    t.act(1, "declare-bed", suit="H")
    assert reason(t, 1, "declare-bed", suit="H") == ("variant.bed-marriage", "already-announced")
    t.play("AC")  # not the queen or jack: void
    assert t.v["trump"] is None and t.v["marriage_points"] == [0, 0, 0] and t.v["bed_call"] is None
    assert reason(t, 2, "declare-bed", suit="D") == ("variant.bed-marriage", "not-on-lead")


def test_bed_marriage_on_the_first_lead_with_the_house_rule_and_its_value_parameter():
    t = bdeal(rules("variant.bed-marriage", "variant.marriage.declare-on-first-lead", bed_marriage_divisor=4))
    t.act(1, "declare-bed", suit="H").play("QH")
    assert t.v["trump"] == HEARTS and t.v["marriage_points"] == [0, 25, 0]


def test_bed_marriage_follows_the_marriage_values():
    t = bdeal(rules("variant.bed-marriage", "variant.marriage.values-spades-high-b"))
    t.play("AS", "AD", "JS")
    t.act(1, "declare-bed", suit="H").play("JH")
    assert t.v["marriage_points"] == [0, 30, 0]
