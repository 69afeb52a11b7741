"""House rules: new deals, the lockout at minus 120, the golden round, dark play and the trading game for three."""

import random

import pytest
from support import Table, ruleset

from oracle import Game, load_ruleset, play_random
from oracle.errors import RulesetError

# Seat 1 (dealer 0, so seat 1 holds the forced 100) plays with all the spades; see test_rules_talon.py.
HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}
TALON = "9D JC JD"  # 4 points: a poor talon, one nine, two jacks
GIVE = ("JC", "JD")
# The declarer takes 99; seat 0 takes 14 and seat 2 takes 7.
PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]
# As PLAY_99, but the second trick declares the spades marriage (40): the declarer has 99 + 40 = 139.
PLAY_139 = ["AS", "AD", "10C", "KS!", "10D", "KC", "10S", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
            "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]

# Defender seat 0 wins a trick with AC and declares the hearts marriage (100): 27 card points + 100;
# the declarer (seat 1) takes 93.
HANDS_D = {0: "AC KH QH 10C KC QC AD", 1: "AS 10S KS QS JS 9S 9C", 2: "JD QD KD 10D AH 10H JH"}
TALON_D = "9D JC 9H"
GIVE_D = ("JC", "9H")
PLAY_D = ["AS", "AH", "10C", "10S", "10H", "KC", "KS", "JH", "QC", "QS", "9H", "JC", "JS", "10D", "AD",
          "9C", "JD", "AC", "KH!", "9S", "QD", "QH", "9D", "KD"]

# A deal where seat 2 holds 13 card points (9S 9C JS JC QS KS JD) and seat 1 is strong.
LOW = {0: "AH 10H KH QH KC QC 9D", 1: "AS 10S AC 10C AD 10D KD", 2: "9S 9C JS JC QS KS JD"}
LOW_TALON = "9H JH QD"
# The same with QD for JD: seat 2 holds exactly 14.
LOW14 = {0: "AH 10H KH QH KC QC 9D", 1: "AS 10S AC 10C AD 10D KD", 2: "9S 9C JS JC QS KS QD"}
LOW14_TALON = "9H JH JD"

PACK = list(range(24))


def rs(*overlays, **params):
    return ruleset("classic", overlays=list(overlays), **params)


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


def auction_passes(t: Table) -> Table:
    """Everybody passes, so the forced hundred (seat 1 with dealer 0) wins."""
    while t.game.phase == "bidding":
        t.act(t.v["turn"], "pass")
    return t


def give_and_announce(t: Table, seat: int = 1, give=GIVE, contract=None) -> Table:
    """After take-talon: one card to each opponent, then the contract."""
    for to, card in zip([s for s in t.v["active"] if s != seat], give, strict=True):
        t.act(seat, "give", card=card, to=to)
    t.act(seat, "announce", value=contract or t.v["contract"])
    return t


def finish(t: Table) -> Table:
    """Play out the deal with the first legal card, never declaring a marriage."""
    while t.game.phase == "play":
        seat = t.v["turn"]
        card = next(a.split("card=")[1].split()[0] for a in t.legal(seat) if a.endswith("marriage=False"))
        t.act(seat, "play", card=card, marriage=False)
    return t


# ================================================================== redeals

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


# ------------------------------------------------------------------ variant.redeal.deadline

def late_low_hand(*overlays):
    """Seat 1 plays the hundred with LOW and gives 9H to seat 0 and JH to seat 2 (13 + 2 = 15)."""
    t = Table(rs("variant.redeal.low-hand", *overlays), hands=LOW, talon=LOW_TALON, dealer=0)
    auction_passes(t)
    t.to_play(1, give=("JH", "9H"))  # seat 2 gets 9H and keeps 13
    return t


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


# ------------------------------------------------------------------ variant.redeal.four-nines-after-discard

def after_discard(overlay, hands, talon, give, **params):
    t = Table(rs(overlay, **params), hands=hands, talon=talon, dealer=0)
    auction_passes(t)
    t.to_play(1, give=give)
    return t


NINES = {2: "9S 9C 9D AS AC AD AH"}  # seat 2: three nines; the fourth is in the talon


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


# ------------------------------------------------------------------ variant.redeal.poor-talon

def poor(mode=None, bid_up=False, **params):
    if mode:
        params["poor_talon_mode"] = mode
    t = Table(rs("variant.redeal.poor-talon", **params), hands=HANDS, talon=TALON, dealer=0, scores=[5, 10, 15])
    if bid_up:
        t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=110).act(2, "pass")
    else:
        auction_passes(t)
    return t


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


# ------------------------------------------------------------------ variant.redeal.talon-nines-jacks

# Seat 1 holds JS, so the talon can be three nines or three jacks.
HANDS_9 = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS KH 9S JS", 2: "QD JD AD 10D KD JC JH"}


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


# ================================================================== variant.bid.negative-lockout

def test_a_player_at_minus_120_may_only_pass():
    t = Table(rs("variant.bid.negative-lockout"), dealer=0, scores=[0, 0, -120])
    assert t.rejects(2, "bid", value=105).reason == "locked-out"
    assert all(" bid " not in a for a in t.legal(2))
    assert "2 pass" in t.legal(2)
    t.act(2, "pass")
    assert t.v["turn"] == 0


def test_the_limit_itself_may_bid_when_the_boundary_is_strict():
    t = Table(rs("variant.bid.negative-lockout", lockout_boundary="below"), dealer=0, scores=[0, 0, -120])
    t.act(2, "bid", value=105)
    t = Table(rs("variant.bid.negative-lockout", lockout_boundary="below"), dealer=0, scores=[0, 0, -125])
    assert t.rejects(2, "bid", value=105).reason == "locked-out"
    t = Table(rs("variant.bid.negative-lockout", lockout_limit=-200), dealer=0, scores=[0, 0, -120])
    t.act(2, "bid", value=105)


def test_the_hundred_moves_on_from_a_barred_player_and_is_scored():
    t = Table(rs("variant.bid.negative-lockout"), dealer=0, scores=[10, -130, 20])
    assert t.v["bidder"] == 2 and t.v["turn"] == 0
    t.act(0, "pass")
    assert t.rejects(1, "bid", value=105).reason == "locked-out"
    t.act(1, "pass")
    assert t.v["declarer"] == 2 and t.v["contract"] == 100
    t.act(2, "take-talon").act(2, "concede")
    assert t.last["delta"] == [60, 60, -100]
    assert t.last["score"] == [70, -70, -80]
    assert ["locked-out", 1] in t.last["marks"]


def test_nobody_is_barred_when_everybody_is_under_the_limit():
    t = Table(rs("variant.bid.negative-lockout"), dealer=0, scores=[-200, -130, -150])
    assert t.v["bidder"] == 1
    t.act(2, "bid", value=105)


# ================================================================== golden round

GOLDEN = "variant.golden-round"


def golden(*more, dealer=1, scores=None, state=None, **params):
    return Table(rs(GOLDEN, *more, **params), hands=HANDS, talon=TALON, dealer=dealer, scores=scores, state=state)


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


# ================================================================== dark play

BLIND120 = "variant.dark.dealer-blind-120"
BLIND = "variant.dark.blind-bidding"


def dark120(*more, dealer=1, scores=None, **params):
    """Dealer 1 holds the spades; the hundred is seat 2's, the first word seat 0's."""
    return Table(rs(BLIND120, *more, **params), hands=HANDS, talon=TALON, dealer=dealer, scores=scores)


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


# ================================================================== variant.trading-three

TRADING = "variant.trading-three"


def test_trading_three_the_first_speaker_opens():
    t = Table(rs(TRADING), hands=HANDS, talon=TALON, dealer=0)
    assert (t.v["bidder"], t.v["turn"]) == (None, 1)
    assert t.rejects(1, "pass").reason == "must-open"
    assert t.rejects(1, "bid", value=95).reason == "below-opening"
    t.act(1, "bid", value=100).act(2, "pass").act(0, "pass")
    assert (t.v["declarer"], t.v["contract"]) == (1, 100)
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is True  # shown even at 100
    give_and_announce(t).play(*PLAY_139)
    assert t.last["delta"] == [14, 100, 7]


def test_trading_three_later_players_may_pass_and_outbid():
    t = Table(rs(TRADING), hands=HANDS, talon=TALON, dealer=0)
    t.act(1, "bid", value=100).act(2, "bid", value=110)
    t.act(0, "pass").act(1, "pass")
    assert (t.v["declarer"], t.v["contract"]) == (2, 110)


def test_trading_three_with_a_barred_opener():
    t = Table(rs(TRADING, "variant.bid.negative-lockout"), hands=HANDS, talon=TALON, dealer=0,
              scores=[0, -150, 0])
    assert t.v["turn"] == 2
    t.act(2, "bid", value=100).act(0, "pass")
    assert t.rejects(1, "bid", value=105).reason == "locked-out"
    t.act(1, "pass")
    assert t.v["declarer"] == 2


def test_trading_three_preset_doubles_everybody_in_the_dark():
    t = Table(load_ruleset("trading-three"), hands=HANDS, talon=TALON, dealer=0)
    t.act(1, "go-dark")
    t.act(1, "bid", value=100).act(2, "pass").act(0, "pass")
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is False
    give_and_announce(t).play(*PLAY_139)
    assert t.last["delta"] == [28, 200, 14]


# ================================================================== random play

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_trading_three_preset_plays_whole_games(seed):
    game = Game(load_ruleset("trading-three"), seed=seed)
    play_random(game, random.Random(seed), hinted=True, max_deals=15)
    assert sorted(game.st.cards_everywhere()) == PACK
    assert len(game.sheet) >= 1


ALL_REDEALS = ["variant.redeal.four-nines", "variant.redeal.low-hand", "variant.redeal.deadline",
               "variant.redeal.four-nines-after-discard", "variant.redeal.low-hand-after-discard",
               "variant.redeal.three-nines-or-four-jacks", "variant.redeal.three-nines-on-hundred",
               "variant.redeal.poor-talon", "variant.redeal.talon-nines-jacks"]


@pytest.mark.parametrize(("overlays", "params"), [
    ([*ALL_REDEALS, "variant.bid.negative-lockout", GOLDEN, "variant.golden-round.raise",
      "variant.golden-round.restart", BLIND120, "variant.dark.score-gate", "variant.dark.discard-hidden",
      "variant.dark.marriage-not-doubled"],
     {"poor_talon_mode": "always", "dark_min_score": 0}),
    ([TRADING, BLIND, "variant.dark.left-of-dealer-only", "variant.dark.discard-hidden",
      "variant.dark.marriage-not-doubled", "variant.bid.negative-lockout", *ALL_REDEALS],
     {"poor_talon_mode": "mandatory"}),
])
@pytest.mark.parametrize("seed", [4, 5])
def test_the_house_rules_together_play_whole_games(overlays, params, seed):
    game = Game(rs(*overlays, **params), seed=seed)
    play_random(game, random.Random(seed), hinted=False, max_deals=25)
    assert sorted(game.st.cards_everywhere()) == PACK
