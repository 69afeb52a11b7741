"""House-rule overlays: роспись payouts and limits, the talon buyout, rounding, marriages, resets and penalties.

Every overlay gets a legal case, an illegal case where it forbids something (or a check that it forbids
nothing new, for pure scoring rules), and a scoring case with exact results on the sheet.
"""

import random

import pytest
from support import Table, ruleset

from oracle import Game, play_random
from oracle.errors import RulesetError

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)


def rules(*overlays, **params):
    return ruleset("classic", list(overlays), **params)


def reason(t, seat, kind, **payload):
    rej = t.rejects(seat, kind, **payload)
    return rej.rule_id, rej.reason


def allowed(t, seat, kind, **payload):
    return t.game.check(t.action(seat, kind, **payload)) is None


# ====================================================================== роспись

# Dealer 0, so seat 1 holds the compulsory hundred and seat 2 speaks first. Seat 1 holds the spades
# marriage and, with the talon, three aces (AS AC AH).
R_HANDS = {0: "10C KC QC QH 10H 9H JH", 1: "AS 10S KS QS JS 9S AC", 2: "QD KH AD 10D KD 9C 9D"}
R_TALON = "AH JC JD"


def conceding(rs, scores=None, state=None, contract=None, concede=True):
    """Seat 1 wins the auction (at the hundred, or at ``contract`` after seat 2 opens), takes the talon, concedes."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0, scores=scores, state=state)
    if contract is None:
        t.win_auction(1)
    else:
        t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=contract).act(2, "pass")
    t.act(1, "take-talon")
    if concede:
        t.act(1, "concede")
    return t


def golden_talon(rs, state=None):
    """The talon taken in the first deal; with the golden round, dealer 0 plays the compulsory 120."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0, state=state)
    if t.game.phase == "bidding":
        t.win_auction(1)
    t.act(t.v["declarer"], "take-talon")
    return t


def concede_again(t):
    """After a concession the same dealer deals again: seat 1 is on the hundred once more."""
    t.deal({})
    t.win_auction(1)
    t.act(1, "take-talon").act(1, "concede")
    return t


def test_core_rospis_for_reference():
    t = conceding(rules())
    assert t.last["delta"] == [60, -100, 60]


# ---------------------------------------------------------------- variant.rospis.half-bid

def test_half_bid_gives_each_opponent_half_the_contract():
    rs = rules("variant.rospis.half-bid")
    t = conceding(rs, scores=[10, 20, 30])
    assert t.last["delta"] == [50, -100, 50]
    assert t.last["score"] == [60, -80, 80]
    assert conceding(rs, contract=120).last["delta"] == [60, -120, 60]


def test_half_of_an_odd_contract_is_rounded_up_by_default():
    assert conceding(rules("variant.rospis.half-bid"), contract=115).last["delta"] == [58, -115, 58]
    down = rules("variant.rospis.half-bid", rospis_half_rounding="down")
    assert conceding(down, contract=115).last["delta"] == [57, -115, 57]


def test_half_bid_forbids_no_concession_and_clashes_with_by_aces():
    t = conceding(rules("variant.rospis.half-bid"), concede=False)
    assert allowed(t, 1, "concede")
    with pytest.raises(RulesetError) as info:
        rules("variant.rospis.half-bid", "variant.rospis.by-aces")
    assert "variant.rospis.half-bid" in str(info.value) and "variant.rospis.by-aces" in str(info.value)


# ---------------------------------------------------------------- variant.rospis.free

def test_free_concession_costs_the_declarer_nothing():
    t = conceding(rules("variant.rospis.free"), scores=[0, 50, 0])
    assert t.last["delta"] == [60, 0, 60]
    assert t.last["score"] == [60, 50, 60]
    half = conceding(rules("variant.rospis.free", "variant.rospis.half-bid"), contract=120)
    assert half.last["delta"] == [60, 0, 60]


def test_free_concession_is_allowed_on_the_barrel_and_in_the_golden_round_by_default():
    rs = rules("variant.rospis.free")
    t = conceding(rs, concede=False, scores=[880, 0, 0], state={"on_barrel": [True, False, False]})
    assert allowed(t, 1, "concede")
    sitter = conceding(rs, concede=False, scores=[0, 880, 0], state={"on_barrel": [False, True, False]})
    assert allowed(sitter, 1, "concede")
    golden = conceding(rs, concede=False, state={"rospis_golden_now": True})
    assert allowed(golden, 1, "concede")
    wired = golden_talon(rules(*GOLDEN, rospis_in_golden_round="allowed"))
    assert wired.v["rospis_golden_now"] is True
    assert allowed(wired, 0, "concede")
    # Without the golden-round wiring the flag stays down, whatever the policy.
    gold = golden_talon(rules("variant.rospis.free", "variant.golden-round", rospis_in_golden_round="forbidden"))
    assert gold.v["golden"] is True and gold.v["rospis_golden_now"] is False
    assert allowed(gold, 0, "concede")


def test_free_concession_barrel_policy_for_the_sitter_only():
    rs = rules("variant.rospis.free", rospis_on_barrel="forbidden-to-sitter")
    other = conceding(rs, concede=False, scores=[880, 0, 0], state={"on_barrel": [True, False, False]})
    assert allowed(other, 1, "concede")
    himself = conceding(rs, concede=False, scores=[0, 880, 0], state={"on_barrel": [False, True, False]})
    assert reason(himself, 1, "concede") == ("variant.rospis.free", "rospis-barrel")


def test_free_concession_clashes_with_by_aces():
    with pytest.raises(RulesetError, match="declared incompatible"):
        rules("variant.rospis.by-aces", "variant.rospis.free")


# ---------------------------------------------------------------- variant.rospis.barrel-policy

def test_barrel_policy_forbids_conceding_while_anyone_sits_on_the_barrel():
    rs = rules("variant.rospis.free", "variant.rospis.barrel-policy")
    t = conceding(rs, concede=False, scores=[880, 0, 0], state={"on_barrel": [True, False, False]})
    assert reason(t, 1, "concede") == ("variant.rospis.free", "rospis-barrel")
    t.act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2).act(1, "announce", value=100)
    assert t.game.phase == "play"


def test_barrel_policy_allows_conceding_with_nobody_on_the_barrel():
    t = conceding(rules("variant.rospis.free", "variant.rospis.barrel-policy"), scores=[870, 0, 0])
    # 870 + 60 reaches the barrel: the score is clamped to 880.
    assert t.last["delta"] == [10, 0, 60]
    assert t.last["score"] == [880, 0, 60]


def test_barrel_policy_needs_free_concessions():
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.rospis.free'"):
        rules("variant.rospis.barrel-policy")


# ---------------------------------------------------------------- variant.rospis.golden-policy

GOLDEN = ("variant.rospis.free", "variant.golden-round", "variant.rospis.golden-policy")


def test_golden_policy_forbids_conceding_in_the_golden_round():
    t = golden_talon(rules(*GOLDEN))
    assert t.v["golden"] is True and t.v["rospis_golden_now"] is True
    assert reason(t, 0, "concede") == ("variant.rospis.free", "rospis-golden-round")
    t.act(0, "give", card="9H", to=1).act(0, "give", card="JH", to=2).act(0, "announce", value=120)
    assert t.game.phase == "play"


def test_golden_policy_allows_conceding_after_the_golden_round():
    t = golden_talon(rules(*GOLDEN), state={"golden_played": 3})
    assert t.v["declarer"] == 1  # an ordinary deal: seat 1 plays the hundred
    t.act(1, "concede")
    assert t.last["rospis_golden_now"] is False
    assert t.last["delta"] == [60, 0, 60]


def test_golden_policy_needs_free_concessions_and_the_golden_round():
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.rospis.free'"):
        rules("variant.golden-round", "variant.rospis.golden-policy")
    with pytest.raises(RulesetError, match=r"requires overlay 'variant.golden-round'"):
        rules("variant.rospis.free", "variant.rospis.golden-policy")


# ---------------------------------------------------------------- variant.rospis.limit-three

def test_limit_three_counts_concessions_and_refuses_the_fourth():
    t = conceding(rules("variant.rospis.limit-three"))
    concede_again(t)
    concede_again(t)
    assert [r["rospis_used"] for r in t.game.sheet] == [[0, 1, 0], [0, 2, 0], [0, 3, 0]]
    assert [r["delta"] for r in t.game.sheet] == [[60, -100, 60]] * 3
    assert t.v["score"] == [180, -300, 180]
    t.deal({})
    t.win_auction(1)
    t.act(1, "take-talon")
    assert reason(t, 1, "concede") == ("variant.rospis.limit-three", "rospis-limit")


def test_limit_three_leaves_other_players_their_own_concessions():
    t = conceding(rules("variant.rospis.limit-three"), state={"rospis_used": [3, 2, 3]})
    assert t.last["rospis_used"] == [3, 3, 3]
    assert t.last["delta"] == [60, -100, 60]


def test_limit_is_a_parameter():
    t = conceding(rules("variant.rospis.limit-three", rospis_limit=4), state={"rospis_used": [0, 3, 0]})
    assert t.last["rospis_used"] == [0, 4, 0]
    t2 = conceding(rules("variant.rospis.limit-three", rospis_limit=2), concede=False,
                   state={"rospis_used": [0, 2, 0]})
    assert reason(t2, 1, "concede") == ("variant.rospis.limit-three", "rospis-limit")


# ---------------------------------------------------------------- variant.rospis.third-penalty

def test_third_concession_costs_the_penalty_on_top():
    rs = rules("variant.rospis.third-penalty")
    t = conceding(rs)
    concede_again(t)
    assert [r["delta"] for r in t.game.sheet] == [[60, -100, 60], [60, -100, 60]]
    concede_again(t)
    assert t.last["delta"] == [60, -220, 60]
    assert t.last["rospis_count"] == [0, 3, 0]
    assert ["rospis-penalty", 1] in t.last["marks"]
    concede_again(t)  # the fourth costs it too
    assert t.last["delta"] == [60, -220, 60]


def test_third_concession_is_still_allowed():
    t = conceding(rules("variant.rospis.third-penalty"), concede=False, state={"rospis_count": [0, 2, 0]})
    assert allowed(t, 1, "concede")


def test_with_free_concessions_only_the_third_costs_anything():
    rs = rules("variant.rospis.free", "variant.rospis.third-penalty", "variant.rospis.limit-three")
    t = conceding(rs)
    concede_again(t)
    concede_again(t)
    assert [r["delta"][1] for r in t.game.sheet] == [0, 0, -120]
    assert t.v["score"] == [180, -120, 180]


def test_third_penalty_count_and_amount_are_parameters():
    later = conceding(rules("variant.rospis.third-penalty", rospis_penalty_from=4), state={"rospis_count": [0, 2, 0]})
    assert later.last["delta"] == [60, -100, 60]
    cheaper = conceding(rules("variant.rospis.third-penalty", "variant.penalty-amount"),
                        state={"rospis_count": [0, 2, 0]})
    assert cheaper.last["delta"] == [60, -200, 60]


# ---------------------------------------------------------------- variant.rospis.by-aces

def test_by_aces_costs_half_the_bid_and_pays_per_ace():
    # Seat 1 holds AS AC and the talon's AH when he concedes: 3 aces.
    t = conceding(rules("variant.rospis.by-aces"), scores=[5, 5, 5])
    assert t.last["delta"] == [33, -50, 33]
    assert t.last["score"] == [38, -45, 38]


def test_by_aces_rounds_half_an_odd_bid_up_and_counts_the_hand_at_the_concession():
    rs = rules("variant.rospis.by-aces", rospis_timing="either")
    assert conceding(rs, contract=115).last["delta"] == [33, -58, 33]
    t = conceding(rs, concede=False)
    t.act(1, "give", card="AH", to=0).act(1, "give", card="JC", to=2).act(1, "concede")
    assert t.last["delta"] == [22, -50, 22]


def test_by_aces_points_are_a_parameter():
    assert conceding(rules("variant.rospis.by-aces", rospis_ace_points=10)).last["delta"] == [30, -50, 30]


def test_by_aces_keeps_the_timing_of_a_concession():
    t = conceding(rules("variant.rospis.by-aces"), concede=False)
    t.act(1, "give", card="JC", to=0)
    assert reason(t, 1, "concede") == ("talon.rospis", "rospis-timing")


# ====================================================================== variant.talon.buyout

def opened(rs, bid=110):
    """Seat 2 opens, seat 1 wins at ``bid``: the talon is shown when he takes it."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0)
    t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=bid).act(2, "pass")
    return t


def buy_prices(t, seat):
    prefix = f"{seat} buy-talon value="
    return [int(a[len(prefix):]) for a in t.legal(seat) if a.startswith(prefix)]


def test_buyout_moves_the_talon_and_the_contract_to_the_buyer():
    t = opened(rules("variant.talon.buyout"))
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is True
    # The next multiple of 120 above 105, and no jump to 240 (the rule's own message).
    assert buy_prices(t, 0) == [120] and buy_prices(t, 2) == [120]
    assert reason(t, 0, "buy-talon", value=240) == ("variant.talon.buyout", "bad-price")
    t.act(0, "buy-talon", value=120)
    assert t.v["declarer"] == 0 and t.v["contract"] == 120 and t.v["turn"] == 0
    assert t.hand(1) == sorted("AS 10S KS QS JS 9S AC".split())
    assert t.hand(0) == sorted("10C KC QC QH 10H 9H JH AH JC JD".split())
    t.act(0, "give", card="JC", to=1).act(0, "give", card="JD", to=2).act(0, "announce", value=120)
    assert t.game.phase == "play" and t.v["turn"] == 0


def test_buyout_scoring_the_buyer_concedes_the_bought_contract():
    t = opened(rules("variant.talon.buyout"))
    t.act(1, "take-talon").act(2, "buy-talon", value=120).act(2, "concede")
    assert t.last["delta"] == [60, 60, -120]
    assert t.last["buyouts"] == 1 and ["talon-bought", 2] in t.last["marks"]


def test_the_seller_may_buy_back_at_the_next_price():
    t = opened(rules("variant.talon.buyout"))
    t.act(1, "take-talon").act(0, "buy-talon", value=120)
    assert buy_prices(t, 1) == [240] and buy_prices(t, 0) == []
    t.act(1, "buy-talon", value=240)
    assert t.v["declarer"] == 1 and t.v["contract"] == 240
    assert len(t.hand(1)) == 10 and len(t.hand(0)) == 7
    assert reason(t, 2, "buy-talon", value=240) == ("variant.talon.buyout", "bad-price")


def test_buyout_is_refused_before_the_turn_up_for_a_hidden_talon_and_after_passing():
    rs = rules("variant.talon.buyout")
    t = opened(rs)
    assert reason(t, 0, "buy-talon", value=120) == ("variant.talon.buyout", "talon-not-taken")
    t.act(1, "take-talon")
    assert reason(t, 1, "buy-talon", value=120) == ("variant.talon.buyout", "not-a-buyer")
    t.act(1, "give", card="JC", to=0)
    assert reason(t, 0, "buy-talon", value=120) == ("variant.talon.buyout", "buyout-too-late")
    hidden = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0).win_auction(1)
    hidden.act(1, "take-talon")
    assert hidden.v["talon_shown"] is False
    assert reason(hidden, 0, "buy-talon", value=120) == ("variant.talon.buyout", "talon-hidden")


def test_buyout_price_must_be_above_the_contract():
    t = opened(rules("variant.talon.buyout"), bid=120)
    t.act(1, "take-talon")
    assert buy_prices(t, 0) == [240]
    assert reason(t, 0, "buy-talon", value=120) == ("variant.talon.buyout", "bad-price")


def test_buyout_step_is_a_parameter():
    t = opened(rules("variant.talon.buyout", buyout_step=60))
    t.act(1, "take-talon")
    assert buy_prices(t, 0) == [120]
    t.act(0, "buy-talon", value=120)
    assert buy_prices(t, 1) == [180]
    t.act(1, "buy-talon", value=180).act(2, "buy-talon", value=240).act(0, "buy-talon", value=300)
    assert buy_prices(t, 1) == [] and t.v["contract"] == 300


# ====================================================================== variant.contract.rounding

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


# ====================================================================== marriages

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


# ---------------------------------------------------------------- variant.ace-marriage

A_HANDS = {1: "AS AC AD AH KH QH 9S", 0: "10C KC QC JC 10D KD QD", 2: "KS QS JS 10H JH 9H JD"}
A_TALON = "10S 9C 9D"
# Seat 1 declares the aces with AS (spades trump), wins nearly everything, declares hearts on the way.
ACE_DEAL = ["AS", "JS", "9C", "10S", "KS", "JC", "AD", "9D", "QD", "AH", "9H", "10C", "KH!", "10H", "KC",
            "QS", "QC", "9S", "JH", "10D", "QH", "AC", "JD", "KD"]


def adeal(rs, contract=None):
    t = Table(rs, hands=A_HANDS, talon=A_TALON, dealer=0)
    return t.to_play(1, give=("9C", "9D"), contract=contract)


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


# ---------------------------------------------------------------- variant.nine-marriage

N_HANDS = {1: "9S 9C 9D 9H AS AC AD", 0: "KC QC 10C KD QD 10D AH", 2: "KS QS JS KH QH 10H JH"}
N_TALON = "10S JC JD"
NINE_DEAL = ["9S", "KS", "KC", "QS", "QC", "AS", "AC", "JS", "10C", "AD", "JD", "KD", "10S", "KH", "QD", "9C",
             "QH", "JC", "10D", "9D", "10H", "AH", "9H", "JH"]


def ndeal(rs):
    return Table(rs, hands=N_HANDS, talon=N_TALON, dealer=0).to_play(1, give=("JC", "JD"))


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


# ---------------------------------------------------------------- variant.bed-marriage

B_HANDS = {1: "AS 10S AH QH JH AC 10C", 0: "KS QS JS KC QC JC 9H", 2: "KH 10H AD 10D KD QD JD"}
B_TALON = "9S 9C 9D"
BED_REST = ["KH", "9H", "10H", "KS", "AH", "10S", "10D", "QS", "QH", "KD", "KC", "AC", "QD", "QC", "10C", "JD",
            "JC", "9S", "9D", "9C"]


def bdeal(rs):
    return Table(rs, hands=B_HANDS, talon=B_TALON, dealer=0).to_play(1, give=("9C", "9D"))


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


# ====================================================================== resets

def test_samosval_resets_exactly_555():
    t = conceding(rules("variant.samosval"), scores=[495, 0, 554])
    assert t.last["score"] == [0, -100, 614]
    assert t.last["delta"] == [-495, -100, 60]
    assert ["samosval", 0] in t.last["marks"]
    assert conceding(rules("variant.samosval", samosval_reset_to=5), scores=[495, 0, 0]).last["score"] == [5, -100, 60]


def test_core_has_no_samosval():
    assert conceding(rules(), scores=[495, 0, 0]).last["score"] == [555, -100, 60]


def test_samosval_negative_resets_exactly_minus_555():
    t = conceding(rules("variant.samosval-negative"), scores=[0, -455, -600])
    assert t.last["score"] == [60, 0, -540]
    assert t.last["delta"] == [60, 455, 60]
    assert ["samosval-negative", 1] in t.last["marks"]


def test_samosval_negative_leaves_plus_555_alone():
    t = conceding(rules("variant.samosval-negative", samosval_negative_reset_to=-5), scores=[495, -455, 0])
    assert t.last["score"] == [555, -5, 60]


def test_reset_at_55_follows_the_printed_text():
    t = conceding(rules("variant.reset-at-55"), scores=[-5, 0, 0])
    assert t.last["score"] == [0, -100, 60]
    assert t.last["delta"] == [5, -100, 60]
    assert ["reset-55", 0] in t.last["marks"]
    both = conceding(rules("variant.reset-at-55", "variant.samosval", reset_score_to=1), scores=[-5, 0, 495])
    assert both.last["score"] == [1, -100, 0]


@pytest.mark.parametrize("overlay", ["variant.samosval", "variant.samosval-negative", "variant.reset-at-55",
                                     "variant.bolt.window", "variant.penalty-amount"])
def test_scoring_overlays_forbid_nothing(overlay):
    t = conceding(rules(overlay), concede=False)
    plain = conceding(rules(), concede=False)
    assert t.legal(1) == plain.legal(1)


# ====================================================================== penalties

def test_bolt_window_consecutive_starts_the_count_again():
    core = played_c(rules(), PLAY_99)
    core_bolts = Table(rules(), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    core_bolts.to_play(1, give=("JC", "JD")).play(*PLAY_99)
    assert core.last["taken_points"][2] == 7 and core_bolts.last["bolts"] == [0, 0, 2]
    t = Table(rules("variant.bolt.window"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_99)
    assert t.last["bolts"] == [0, 0, 0]
    assert t.last["delta"] == [14, -100, 7]


def test_bolt_window_third_in_a_row_costs_the_penalty():
    t = Table(rules("variant.bolt.window"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_113)
    assert t.last["taken_points"] == [7, 113, 0]
    assert t.last["delta"] == [7, 100, -120]
    assert t.last["bolts"] == [0, 0, 0]


def test_penalty_amount_changes_the_bolt_penalty_and_the_barrel_fall():
    t = Table(rules("variant.penalty-amount"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_113)
    assert t.last["delta"] == [7, 100, -100]
    fall = conceding(rules("variant.penalty-amount"), scores=[880, 0, 0],
                     state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]})
    assert fall.last["score"] == [780, -100, 60]


# ====================================================================== composition and random play

ALL_COMPATIBLE = [
    "variant.rospis.half-bid", "variant.rospis.free", "variant.rospis.limit-three", "variant.rospis.third-penalty",
    "variant.rospis.barrel-policy", "variant.golden-round", "variant.rospis.golden-policy", "variant.talon.buyout",
    "variant.contract.rounding", "variant.trump-lead-restriction", "variant.marriage.values-spades-high",
    "variant.marriage.declare-on-first-lead", "variant.ace-marriage", "variant.ace-marriage.consecutive-aces",
    "variant.ace-marriage.bid-cap", "variant.nine-marriage", "variant.bed-marriage", "variant.samosval",
    "variant.samosval-negative", "variant.reset-at-55", "variant.bolt.window", "variant.penalty-amount",
]
OTHERS = ["variant.rospis.by-aces", "variant.marriage.values-spades-high-b", "variant.marriage.declarer-only",
          "variant.ace-marriage.lead-other-first"]


@pytest.mark.parametrize("overlays", [ALL_COMPATIBLE, ["variant.ace-marriage", *OTHERS]])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_the_overlays_keep_every_card(overlays, seed):
    rs = rules(*overlays)
    game = Game(rs, seed=seed)
    play_random(game, random.Random(seed), hinted=True, max_deals=15)
    assert sorted(game.st.cards_everywhere()) == list(range(24))
    assert len(game.sheet) >= 1
