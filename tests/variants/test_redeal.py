"""New deals (variants/redeal/): four nines, a low hand, the deadline, after the discard, three nines or four
jacks, the poor talon.
"""

import pytest
from positions import HANDS, PACK, auction_passes, rs
from support import Table

from oracle.errors import RulesetError

TALON = "9D JC JD"  # 4 points: a poor talon, one nine, two jacks


# A deal where seat 2 holds 13 card points (9S 9C JS JC QS KS JD) and seat 1 is strong.
LOW = {0: "AH 10H KH QH KC QC 9D", 1: "AS 10S AC 10C AD 10D KD", 2: "9S 9C JS JC QS KS JD"}


LOW_TALON = "9H JH QD"


# The same with QD for JD: seat 2 holds exactly 14.
LOW14 = {0: "AH 10H KH QH KC QC 9D", 1: "AS 10S AC 10C AD 10D KD", 2: "9S 9C JS JC QS KS QD"}


LOW14_TALON = "9H JH JD"


def all_cards_kept(t: Table) -> bool:
    return sorted(t.game.st.cards_everywhere()) == PACK


def assert_dealt_again(t: Table, mark: str, seat: int, dealer: int = 0, scores=(0, 0, 0)) -> None:
    """The deal was cancelled: a row with no points, the claim's mark, the same dealer deals again."""
    row = t.last
    assert row["delta"] == [0, 0, 0]
    assert row["score"] == list(scores)
    assert [mark, seat] in row["marks"]
    assert t.v["dealer"] == dealer
    assert t.game.phase == "dealing"
    assert all_cards_kept(t)


# ------------------------------------------------------------------ variant.redeal.four-nines


def test_four_nines_give_a_new_deal_by_the_same_dealer():
    t = Table(rs("variant.redeal.four-nines"), hands={2: "9S 9C 9D 9H AS"}, dealer=0, scores=[50, -20, 100])
    assert "2 redeal-four-nines" in t.legal(2)
    t.act(2, "redeal-four-nines")
    assert_dealt_again(t, "redeal-four-nines", 2, dealer=0, scores=(50, -20, 100))
    assert t.last["declarer"] is None


def test_four_nines_only_for_the_holder_and_only_before_the_auction():
    t = Table(rs("variant.redeal.four-nines"), hands={2: "9S 9C 9D 9H AS"}, dealer=0)
    assert t.rejects(1, "redeal-four-nines").reason == "not-four-nines"
    t.act(2, "pass")
    assert t.rejects(2, "redeal-four-nines").reason == "too-late"


def test_three_nines_are_not_enough_unless_the_house_says_so():
    hands = {2: "9S 9C 9D AS AC"}
    assert Table(rs("variant.redeal.four-nines"), hands=hands).rejects(2, "redeal-four-nines").reason == \
        "not-four-nines"
    t = Table(rs("variant.redeal.four-nines", redeal_nines=3), hands=hands)
    t.act(2, "redeal-four-nines")
    assert_dealt_again(t, "redeal-four-nines", 2)


# ------------------------------------------------------------------ variant.redeal.low-hand


def test_a_hand_of_13_gives_a_new_deal_before_the_auction():
    t = Table(rs("variant.redeal.low-hand"), hands=LOW, talon=LOW_TALON, dealer=0, scores=[10, 20, 30])
    t.act(2, "redeal-low-hand")
    assert_dealt_again(t, "redeal-low-hand", 2, scores=(10, 20, 30))


def test_a_hand_of_14_gives_no_new_deal():
    t = Table(rs("variant.redeal.low-hand"), hands=LOW14, talon=LOW14_TALON, dealer=0)
    assert t.rejects(2, "redeal-low-hand").reason == "not-a-low-hand"
    t = Table(rs("variant.redeal.low-hand", low_hand_limit=15), hands=LOW14, talon=LOW14_TALON, dealer=0)
    t.act(2, "redeal-low-hand")
    assert t.last["marks"] == [["redeal-low-hand", 2]]


def test_by_default_a_poor_hand_is_claimed_before_anybody_speaks():
    t = Table(rs("variant.redeal.low-hand"), hands=LOW, talon=LOW_TALON, dealer=0)
    t.act(2, "pass")
    assert t.rejects(2, "redeal-low-hand").reason == "too-late"
    auction_passes(t)
    t.to_play(1, give=("9H", "JH"))
    assert t.rejects(2, "redeal-low-hand-late").reason == "too-late"


def test_until_the_first_lead_a_poor_hand_is_claimed_later_in_the_auction():
    t = Table(rs("variant.redeal.low-hand", low_hand_window="before-first-lead"), hands=LOW, talon=LOW_TALON,
              dealer=0)
    t.act(2, "pass").act(0, "bid", value=105)
    t.act(2, "redeal-low-hand")
    assert_dealt_again(t, "redeal-low-hand", 2)


def late_low_hand(*overlays):
    """Seat 1 plays the hundred with LOW and gives 9H to seat 0 and JH to seat 2 (13 + 2 = 15)."""
    t = Table(rs("variant.redeal.low-hand", *overlays), hands=LOW, talon=LOW_TALON, dealer=0)
    auction_passes(t)
    t.to_play(1, give=("JH", "9H"))  # seat 2 gets 9H and keeps 13
    return t


# ------------------------------------------------------------------ variant.redeal.deadline


def test_the_deadline_lets_a_defender_claim_after_the_passing_of_cards():
    assert late_low_hand().rejects(2, "redeal-low-hand-late").reason == "too-late"
    t = late_low_hand("variant.redeal.deadline")
    assert t.game.phase == "play"
    assert "2 redeal-low-hand-late" in t.legal(2)
    t.act(2, "redeal-low-hand-late")
    assert_dealt_again(t, "redeal-low-hand", 2)


def test_the_deadline_is_the_first_lead_and_the_declarer_may_not_claim():
    t = late_low_hand("variant.redeal.deadline")
    assert t.rejects(1, "redeal-low-hand-late").reason == "declarer-cannot-claim"
    assert t.rejects(0, "redeal-low-hand-late").reason == "not-a-low-hand"
    t.play("AS")
    assert t.rejects(2, "redeal-low-hand-late").reason == "too-late"


def test_the_deadline_needs_the_low_hand_rule():
    with pytest.raises(RulesetError, match=r"requires overlay 'variant\.redeal\.low-hand'"):
        rs("variant.redeal.deadline")


def after_discard(overlay, hands, talon, give, **params):
    t = Table(rs(overlay, **params), hands=hands, talon=talon, dealer=0)
    auction_passes(t)
    t.to_play(1, give=give)
    return t


NINES = {2: "9S 9C 9D AS AC AD AH"}  # seat 2: three nines; the fourth is in the talon


# ------------------------------------------------------------------ variant.redeal.four-nines-after-discard


def test_a_defender_given_the_fourth_nine_may_claim_before_the_first_lead():
    t = after_discard("variant.redeal.four-nines-after-discard", NINES, "9H JS QS", ("JS", "9H"))
    t.act(2, "redeal-four-nines-after-discard")
    assert_dealt_again(t, "redeal-four-nines-late", 2)


def test_four_nines_after_discard_not_for_the_declarer_nor_three_nines_nor_after_the_lead():
    t = after_discard("variant.redeal.four-nines-after-discard", {1: "9S 9C 9D"}, "9H JS QS", ("JS", "QS"))
    assert sum(c.startswith("9") for c in t.hand(1)) == 4
    assert t.rejects(1, "redeal-four-nines-after-discard").reason == "declarer-cannot-claim"
    t = after_discard("variant.redeal.four-nines-after-discard", NINES, "9H JS QS", ("9H", "JS"))
    assert t.rejects(2, "redeal-four-nines-after-discard").reason == "not-four-nines"
    t = after_discard("variant.redeal.four-nines-after-discard", NINES, "9H JS QS", ("JS", "9H"))
    t.play(t.name(sorted(t.v["hand"][1])[0]))
    assert t.rejects(2, "redeal-four-nines-after-discard").reason == "too-late"


def test_four_nines_after_discard_count_is_a_parameter():
    t = after_discard("variant.redeal.four-nines-after-discard", NINES, "9H JS QS", ("9H", "JS"),
                      late_redeal_nines=3)
    t.act(2, "redeal-four-nines-after-discard")
    assert t.last["marks"] == [["redeal-four-nines-late", 2]]


# ------------------------------------------------------------------ variant.redeal.low-hand-after-discard


def test_a_defender_left_under_14_after_the_passing_may_claim():
    t = after_discard("variant.redeal.low-hand-after-discard", LOW, LOW_TALON, ("JH", "9H"))
    assert t.hand(2) == sorted("9S 9C JS JC QS KS JD 9H".split())
    t.act(2, "redeal-low-hand-after-discard")
    assert_dealt_again(t, "redeal-low-hand-late", 2)


def test_low_hand_after_discard_limits():
    # JH lifts seat 2 from 13 to 15: no claim.
    t = after_discard("variant.redeal.low-hand-after-discard", LOW, LOW_TALON, ("9H", "JH"))
    assert t.rejects(2, "redeal-low-hand-after-discard").reason == "not-a-low-hand"
    # LOW14 with 9H given keeps exactly 14: no claim, unless the limit is 15.
    t = after_discard("variant.redeal.low-hand-after-discard", LOW14, LOW14_TALON, ("JH", "9H"))
    assert t.rejects(2, "redeal-low-hand-after-discard").reason == "not-a-low-hand"
    t = after_discard("variant.redeal.low-hand-after-discard", LOW14, LOW14_TALON, ("JH", "9H"),
                      late_low_hand_limit=15)
    assert "2 redeal-low-hand-after-discard" in t.legal(2)
    assert t.rejects(1, "redeal-low-hand-after-discard").reason == "declarer-cannot-claim"
    t = after_discard("variant.redeal.low-hand-after-discard", LOW, LOW_TALON, ("JH", "9H"))
    t.play("AS")
    assert t.rejects(2, "redeal-low-hand-after-discard").reason == "too-late"


# ------------------------------------------------------------------ variant.redeal.three-nines-or-four-jacks


def test_three_nines_or_four_jacks_any_time_in_the_auction():
    t = Table(rs("variant.redeal.three-nines-or-four-jacks"), hands={2: "9S 9C 9D AS AC AD AH"}, dealer=0)
    t.act(2, "pass").act(0, "bid", value=105)
    t.act(2, "redeal-nines-jacks")
    assert_dealt_again(t, "redeal-nines-jacks", 2)
    t = Table(rs("variant.redeal.three-nines-or-four-jacks"), hands={0: "JS JC JD JH AS AC AD"}, dealer=0)
    t.act(0, "redeal-nines-jacks")
    assert_dealt_again(t, "redeal-nines-jacks", 0)


def test_two_nines_and_three_jacks_give_nothing():
    t = Table(rs("variant.redeal.three-nines-or-four-jacks"), hands={2: "9S 9C JS JC JD AS AC"}, dealer=0)
    assert t.rejects(2, "redeal-nines-jacks").reason == "not-nines-or-jacks"
    t = Table(rs("variant.redeal.three-nines-or-four-jacks", redeal_three_nines=2), hands={2: "9S 9C JS JC JD"})
    t.act(2, "redeal-nines-jacks")
    t = Table(rs("variant.redeal.three-nines-or-four-jacks", redeal_four_jacks=3), hands={2: "9S 9C JS JC JD"})
    t.act(2, "redeal-nines-jacks")
    assert t.last["marks"] == [["redeal-nines-jacks", 2]]


def test_three_nines_even_after_the_talon_cards_are_handed_out():
    hands = {2: "9S 9C AS AC AD AH KS"}
    t = after_discard("variant.redeal.three-nines-or-four-jacks", hands, "9D JS QS", ("JS", "9D"))
    assert t.rejects(1, "redeal-nines-jacks-late").reason == "declarer-cannot-claim"
    assert t.rejects(0, "redeal-nines-jacks-late").reason == "not-nines-or-jacks"
    t.act(2, "redeal-nines-jacks-late")
    assert_dealt_again(t, "redeal-nines-jacks", 2)
    t = after_discard("variant.redeal.three-nines-or-four-jacks", hands, "9D JS QS", ("JS", "9D"))
    t.play(t.name(sorted(t.v["hand"][1])[0]))
    assert t.rejects(2, "redeal-nines-jacks-late").reason == "too-late"


def test_where_the_text_names_no_role_the_declarer_may_claim_three_nines_after_the_talon_too():
    hands = {1: "9S 9C 9D AS AC AD AH"}
    t = after_discard("variant.redeal.three-nines-or-four-jacks", hands, "9H JS QS", ("JS", "QS"))
    assert t.rejects(1, "redeal-nines-jacks-late").reason == "declarer-cannot-claim"
    t = after_discard("variant.redeal.three-nines-or-four-jacks", hands, "9H JS QS", ("JS", "QS"),
                      nines_jacks_late_claimers="anyone")
    t.act(1, "redeal-nines-jacks-late")
    assert_dealt_again(t, "redeal-nines-jacks", 1)


def test_where_the_text_names_no_role_the_declarer_may_claim_a_poor_hand_after_the_talon_too():
    hands = {1: "9S 9C 9D JS JC QS KS"}  # 11 points, and 9H of the talon kept
    overlays = ("variant.redeal.low-hand", "variant.redeal.deadline")
    for claimers, allowed in (("defenders", False), ("anyone", True)):
        t = Table(rs(*overlays, low_hand_late_claimers=claimers), hands=hands, talon="9H JH JD", dealer=0)
        auction_passes(t)
        t.to_play(1, give=("JH", "JD"))
        if allowed:
            t.act(1, "redeal-low-hand-late")
            assert_dealt_again(t, "redeal-low-hand", 1)
        else:
            assert t.rejects(1, "redeal-low-hand-late").reason == "declarer-cannot-claim"


# ------------------------------------------------------------------ variant.redeal.three-nines-on-hundred


def test_three_nines_on_the_hundred():
    t = Table(rs("variant.redeal.three-nines-on-hundred"), hands={1: "9S 9C 9D AS AC AD AH"}, dealer=0,
              scores=[0, 40, 0])
    assert t.v["bidder"] == 1
    t.act(1, "redeal-three-nines-on-hundred")
    assert_dealt_again(t, "redeal-hundred-nines", 1, scores=(0, 40, 0))


def test_three_nines_only_on_the_hundred_and_before_the_auction():
    both = rs("variant.redeal.three-nines-on-hundred", "variant.redeal.four-nines")
    t = Table(both, hands={2: "9S 9C 9D AS AC AD AH"}, dealer=0)
    assert t.rejects(2, "redeal-three-nines-on-hundred").reason == "not-on-the-hundred"
    assert t.rejects(2, "redeal-four-nines").reason == "not-four-nines"
    t = Table(both, hands={1: "9S 9C 10D AS AC AD AH"}, dealer=0)
    assert t.rejects(1, "redeal-three-nines-on-hundred").reason == "not-three-nines"
    t = Table(both, hands={1: "9S 9C 9D AS AC AD AH"}, dealer=0)
    t.act(2, "pass")
    assert t.rejects(1, "redeal-three-nines-on-hundred").reason == "too-late"
    t = Table(rs("variant.redeal.three-nines-on-hundred", hundred_redeal_nines=2),
              hands={1: "9S 9C 10D AS AC AD AH"}, dealer=0)
    t.act(1, "redeal-three-nines-on-hundred")


def poor(mode=None, bid_up=False, **params):
    if mode:
        params["poor_talon_mode"] = mode
    t = Table(rs("variant.redeal.poor-talon", **params), hands=HANDS, talon=TALON, dealer=0, scores=[5, 10, 15])
    if bid_up:
        t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=110).act(2, "pass")
    else:
        auction_passes(t)
    return t


# ------------------------------------------------------------------ variant.redeal.poor-talon


def test_poor_talon_at_the_hundred_is_dealt_again_and_shown():
    t = poor()
    assert "1 redeal-poor-talon" not in t.legal(1)
    t.act(1, "take-talon")
    assert "1 redeal-poor-talon" in t.legal(1)
    t.act(1, "redeal-poor-talon")
    assert_dealt_again(t, "redeal-poor-talon", 1, scores=(5, 10, 15))
    assert t.last["talon_shown"] is True


def test_poor_talon_claims_that_are_refused():
    t = poor()
    assert t.rejects(1, "redeal-poor-talon").reason == "not-the-declarer"  # not taken yet
    t.act(1, "take-talon")
    assert t.rejects(0, "redeal-poor-talon").reason == "not-the-declarer"
    t.act(1, "give", card="JC", to=0)
    assert t.rejects(1, "redeal-poor-talon").reason == "too-late"
    t = poor(bid_up=True)
    t.act(1, "take-talon")
    assert t.rejects(1, "redeal-poor-talon").reason == "bid-was-raised"
    t = poor(poor_talon_limit=4)
    t.act(1, "take-talon")
    assert t.rejects(1, "redeal-poor-talon").reason == "not-a-poor-talon"


def test_poor_talon_always_lets_a_raised_bid_claim():
    t = poor("always", bid_up=True)
    t.act(1, "take-talon").act(1, "redeal-poor-talon")
    assert_dealt_again(t, "redeal-poor-talon", 1, scores=(5, 10, 15))


def test_poor_talon_mandatory_cancels_when_taken():
    t = poor("mandatory")
    rows = len(t.game.sheet)
    t.act(1, "take-talon")
    assert len(t.game.sheet) == rows + 1
    assert_dealt_again(t, "redeal-poor-talon", 1, scores=(5, 10, 15))
    assert t.last["talon_shown"] is True
    # A talon worth 5 or more is played as usual, and the claim is automatic, never asked for.
    t = Table(rs("variant.redeal.poor-talon", poor_talon_mode="mandatory"), hands=LOW, talon=LOW_TALON,
              dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert t.game.phase == "talon"
    assert t.rejects(1, "redeal-poor-talon").reason == "automatic"


# Seat 1 holds JS, so the talon can be three nines or three jacks.
HANDS_9 = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS KH 9S JS", 2: "QD JD AD 10D KD JC JH"}


# ------------------------------------------------------------------ variant.redeal.talon-nines-jacks


def test_two_nines_or_three_jacks_in_the_talon_cancel_the_deal():
    two_nines = {**HANDS_9, 1: "AS 10S KS QS KH 9S 9C"}
    t = Table(rs("variant.redeal.talon-nines-jacks"), hands=two_nines, talon="9D 9H JS", dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert_dealt_again(t, "redeal-talon-nines-jacks", 1)
    hands_j = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS KH 9S 9C", 2: "QD 9D AD 10D KD 9H JS"}
    t = Table(rs("variant.redeal.talon-nines-jacks"), hands=hands_j, talon="JD JC JH", dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert_dealt_again(t, "redeal-talon-nines-jacks", 1)


def test_one_nine_two_jacks_is_played():
    t = Table(rs("variant.redeal.talon-nines-jacks"), hands=HANDS, talon=TALON, dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert t.game.phase == "talon"
    assert t.rejects(1, "redeal-talon-nines-jacks").reason == "automatic"
    t = Table(rs("variant.redeal.talon-nines-jacks", talon_redeal_jacks=2), hands=HANDS, talon=TALON, dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert t.game.phase == "dealing"
    t = Table(rs("variant.redeal.talon-nines-jacks", talon_redeal_nines=1), hands=HANDS, talon=TALON, dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert t.game.phase == "dealing"


def test_talon_nines_jacks_optional():
    t = Table(rs("variant.redeal.talon-nines-jacks", talon_nines_jacks_mode="optional"), hands=HANDS_9,
              talon="9D 9H 9C", dealer=0)
    auction_passes(t)
    assert t.rejects(1, "redeal-talon-nines-jacks").reason == "not-the-declarer"
    t.act(1, "take-talon")
    assert t.game.phase == "talon"
    assert t.rejects(2, "redeal-talon-nines-jacks").reason == "not-the-declarer"
    t.act(1, "redeal-talon-nines-jacks")
    assert_dealt_again(t, "redeal-talon-nines-jacks", 1)
    t = Table(rs("variant.redeal.talon-nines-jacks", talon_nines_jacks_mode="optional"), hands=HANDS,
              talon=TALON, dealer=0)
    auction_passes(t)
    t.act(1, "take-talon")
    assert t.rejects(1, "redeal-talon-nines-jacks").reason == "not-nines-or-jacks"
    t = Table(rs("variant.redeal.talon-nines-jacks", talon_nines_jacks_mode="optional"), hands=HANDS_9,
              talon="9D 9H 9C", dealer=0)
    auction_passes(t)
    t.act(1, "take-talon").act(1, "give", card="9D", to=0)
    assert t.rejects(1, "redeal-talon-nines-jacks").reason == "too-late"


@pytest.mark.parametrize(("first", "second", "mark"), [
    ("variant.redeal.talon-nines-jacks", "variant.redeal.poor-talon", "redeal-talon-nines-jacks"),
    ("variant.redeal.poor-talon", "variant.redeal.talon-nines-jacks", "redeal-poor-talon"),
])
def test_two_compulsory_redeals_on_one_talon_cancel_the_deal_once_for_the_overlay_named_first(first, second, mark):
    both = rs(first, second, poor_talon_mode="mandatory")
    t = Table(both, hands=HANDS_9, talon="9D 9H 9C", dealer=0)
    auction_passes(t)
    rows = len(t.game.sheet)
    t.act(1, "take-talon")
    assert len(t.game.sheet) == rows + 1
    assert t.last["marks"] == [[mark, 1]] and t.last["talon_shown"] is True
    assert all_cards_kept(t)


def test_a_redeal_is_neither_a_bolt_nor_a_barrel_attempt():
    t = Table(rs("variant.redeal.four-nines"), hands={0: "9S 9C 9D 9H"}, dealer=0, scores=[880, 0, 0],
              state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0], "bolts": [0, 2, 2]})
    t.act(0, "redeal-four-nines")
    assert t.v["barrel_deals"] == [2, 0, 0]
    assert t.v["bolts"] == [0, 2, 2]
    assert t.v["on_barrel"] == [True, False, False]
    assert_dealt_again(t, "redeal-four-nines", 0, scores=(880, 0, 0))


# A deal that wrote something before it was called off (the cut's third nine, -120 for seat 2).
CUT_PENALTY = {"delta": [0, 0, -120]}


@pytest.mark.parametrize(("overlay", "claim", "hands"), [
    ("variant.redeal.four-nines", "redeal-four-nines", {0: "9S 9C 9D 9H"}),
    ("variant.redeal.low-hand", "redeal-low-hand", {0: "9S 9C 9D 9H JS JC QS"}),
    ("variant.redeal.three-nines-or-four-jacks", "redeal-nines-jacks", {0: "9S 9C 9D"}),
])
def test_a_redeal_keeps_a_penalty_the_deal_already_wrote(overlay, claim, hands):
    t = Table(rs(overlay), hands=hands, dealer=0, scores=[10, 20, 500], state=dict(CUT_PENALTY))
    t.act(0, claim)
    assert t.last["delta"] == [0, 0, -120]
    assert t.last["score"] == [10, 20, 380] == t.v["score"]
    assert t.v["dealer"] == 0 and t.game.phase == "dealing" and all_cards_kept(t)


def test_a_compulsory_redeal_keeps_the_penalty_too():
    t = Table(rs("variant.redeal.talon-nines-jacks"), hands=HANDS_9, talon="9D 9H 9C", dealer=0,
              scores=[0, 300, 0], state={"delta": [0, -120, 0]})
    auction_passes(t).act(1, "take-talon")
    assert t.last["delta"] == [0, -120, 0] and t.v["score"] == [0, 180, 0]
    assert ["redeal-talon-nines-jacks", 1] in t.last["marks"]


def test_a_penalty_before_a_redeal_drops_a_player_off_the_barrel_but_is_no_barrel_deal():
    t = Table(rs("variant.redeal.four-nines"), hands={0: "9S 9C 9D 9H"}, dealer=0, scores=[0, 0, 880],
              state={"on_barrel": [False, False, True], "barrel_deals": [0, 0, 1], "delta": [0, 0, -120]})
    t.act(0, "redeal-four-nines")
    assert t.v["score"] == [0, 0, 760] and t.v["on_barrel"] == [False, False, False]
    assert t.v["barrel_deals"] == [0, 0, 0] and t.last["delta"] == [0, 0, -120]
    kept = Table(rs("variant.redeal.four-nines"), hands={0: "9S 9C 9D 9H"}, dealer=0, scores=[0, 0, 880],
                 state={"on_barrel": [False, False, True], "barrel_deals": [0, 0, 1]})
    kept.act(0, "redeal-four-nines")
    assert kept.v["on_barrel"] == [False, False, True] and kept.v["barrel_deals"] == [0, 0, 1]
