"""House rules of the роспись (variants/rospis/): half the bid, free concessions, on the barrel and in the golden
round, limits and penalties, by aces.
"""

import pytest
from positions import R_HANDS, R_TALON, allowed, conceding, reason, rules
from support import Table

from oracle.errors import RulesetError


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


# ====================================================================== роспись


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


GOLDEN = ("variant.rospis.free", "variant.golden-round", "variant.rospis.golden-policy")


# ---------------------------------------------------------------- variant.rospis.golden-policy


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
