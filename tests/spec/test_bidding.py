"""The auction: the compulsory hundred, steps, passing, the marriage cap, the maximum."""

import pytest
from support import Table


def test_forced_hundred_is_left_of_dealer_and_next_player_speaks_first():
    t = Table(dealer=0)
    assert t.v["bid"] == 100 and t.v["bidder"] == 1
    assert t.v["turn"] == 2


def test_forced_hundred_can_be_the_dealer():
    t = Table(dealer=0, forced_bidder="dealer")
    assert t.v["bidder"] == 0 and t.v["turn"] == 1


def test_forced_bid_value_is_a_parameter():
    t = Table(forced_bid=120)
    assert t.v["bid"] == 120
    assert t.legal(2)[0] == "2 bid value=125"


def test_everyone_passes_and_the_hundred_plays_at_100():
    t = Table(dealer=0)
    t.act(2, "pass").act(0, "pass")
    assert t.v["declarer"] == 1 and t.v["contract"] == 100 and t.game.phase == "talon"


def test_pass_is_final_and_passed_players_are_skipped():
    t = Table(dealer=0)
    t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=110)
    assert t.v["turn"] == 2
    t.act(2, "pass")
    assert t.v["declarer"] == 1 and t.v["contract"] == 110
    t2 = Table(dealer=0)
    t2.act(2, "pass")
    rej = t2.rejects(2, "bid", value=105)
    assert rej.reason == "not-your-turn"


def test_step_multiple_allows_jumps_of_five():
    t = Table()
    t.act(2, "bid", value=120)
    assert t.v["bid"] == 120
    rej = t.rejects(0, "bid", value=122)
    assert (rej.rule_id, rej.reason) == ("bid.step", "bad-step")


def test_step_exactly_forbids_jumps():
    t = Table(bid_step_mode="exactly")
    assert [x for x in t.legal(2) if "bid" in x] == ["2 bid value=105"]
    rej = t.rejects(2, "bid", value=110)
    assert (rej.rule_id, rej.reason) == ("bid.step", "bad-step")


def test_house_step_of_ten():
    t = Table(bid_step=10)
    assert t.legal(2)[0] == "2 bid value=110"
    assert t.rejects(2, "bid", value=105).reason == "bad-step"


def test_cannot_bid_at_or_below_the_current_bid():
    t = Table()
    assert t.rejects(2, "bid", value=100).reason == "bad-step"


def test_no_marriage_caps_bids_at_120():
    t = Table(hands={2: "KS 9S 9C 9D 9H 10S 10C"})
    t.act(2, "bid", value=120)
    t2 = Table(hands={2: "KS 9S 9C 9D 9H 10S 10C"})
    rej = t2.rejects(2, "bid", value=125)
    assert (rej.rule_id, rej.reason) == ("bid.marriage-cap", "over-marriage-cap")


def test_sum_of_marriages_caps_bids():
    # A spades marriage (40) lets him bid up to 160, not further.
    t = Table(hands={2: "KS QS 9C 9D 9H 10S 10C"})
    assert "2 bid value=160" in t.legal(2)
    assert "2 bid value=165" not in t.legal(2)
    assert t.rejects(2, "bid", value=165).reason == "over-marriage-cap"


def test_two_marriages_add_up():
    t = Table(hands={2: "KS QS KH QH 9H 10S 10C"})
    assert "2 bid value=260" in t.legal(2) and "2 bid value=265" not in t.legal(2)


def test_any_marriage_unlocks_the_maximum():
    t = Table(hands={2: "KS QS 9C 9D 9H 10S 10C"}, marriage_cap_mode="any-marriage")
    assert "2 bid value=300" in t.legal(2)


def test_deck_total_is_the_cap_without_marriages():
    # The cap comes from the pack's points: change them and the cap follows.
    t = Table(hands={2: "9S 9C 9D 9H 10S 10C JS"}, deck_total=120)
    assert max(int(x.split("=")[1]) for x in t.legal(2) if "bid" in x) == 120


def test_max_bid_300():
    t = Table(hands={2: "KS QS KH QH KD QD KC"}, marriage_cap_mode="any-marriage")
    assert t.rejects(2, "bid", value=305).reason in ("over-max-bid", "not-available")
    assert t.rejects(2, "bid", value=305).rule_id == "bid.max-300"


def test_max_bid_is_a_parameter():
    t = Table(hands={2: "KS QS KH QH KD QD KC"}, marriage_cap_mode="any-marriage", max_bid=250)
    assert max(int(x.split("=")[1]) for x in t.legal(2) if "bid" in x) == 250


def test_a_max_bid_of_400_leaves_only_the_marriage_cap():
    # Texts that cap a bid at 120 plus the marriages held and name no other maximum set max_bid to 400
    # (120 and all four marriages), which never binds: 360 with three marriages, not 365.
    hands = {2: "KH QH KD QD KC QC AS"}
    t = Table(hands=hands, dealer=0, max_bid=400)
    t.act(2, "bid", value=360)
    t = Table(hands=hands, dealer=0, max_bid=400)
    assert t.rejects(2, "bid", value=365).rule_id == "bid.marriage-cap"
    assert Table(hands=hands, dealer=0).rejects(2, "bid", value=360).rule_id == "bid.max-300"


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_rotation_of_the_forced_seat_with_the_dealer(dealer):
    t = Table(dealer=dealer)
    assert t.v["bidder"] == (dealer + 1) % 3
