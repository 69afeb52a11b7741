"""Issue 24: a named ruleset judges as its own source does, for the rules it inherits too.

Each test is a small position that the preset's source judges one way: the preset must judge it that
way, and the same preset with the inherited (core) value judges it the other way, so the test notices
when the preset's switch is lost.
"""

from __future__ import annotations

from deals import BARE, marks, play_deal
from support import Table

from oracle import load_ruleset
from oracle.ruleset import Ruleset
from variants.test_game_501 import FIXED, HANDS_D, TO_KH


def preset(name: str, **params: object) -> Ruleset:
    return load_ruleset(name, params=params or None)


def sitting(*seats: int) -> list[bool]:
    return [s in seats for s in range(3)]


# ---------------------------------------------------------------- dealers-hundred (F0 1-36)
# Dealer 1 holds the hundred (F0 10), so seat 1 is the declarer when seats 2 and 0 pass. The positions give the
# hands themselves, so the cut is left out.


def dh(**params: object) -> Ruleset:
    return preset("dealers-hundred", cut_modelled=False, **params)


def hundred_conceded(rs: Ruleset, scores: list[int], state: dict | None = None) -> Table:
    t = Table(rs, dealer=1, scores=scores, state=state)
    t.win_auction(1)
    t.act(1, "take-talon").act(1, "concede")
    return t


def test_dealers_hundred_lets_a_defender_jump_the_barrel_to_1000():
    # F0 35: only a score between 880 and 1000 is held at 880; the first to 1000 or more wins.
    t = hundred_conceded(dh(), scores=[950, 0, 0])
    assert t.v["score"] == [1010, -100, 60] and t.game.over and t.v["winner"] == 0
    held = hundred_conceded(dh(cross_barrel="declarer"), scores=[950, 0, 0])
    assert held.v["score"][0] == 880 and not held.game.over


def test_dealers_hundred_has_no_joint_roll_off():
    # F0 1 announces only the knock-off of a sitter; the joint roll-off is the house rule F0 77.
    t = hundred_conceded(dh(), scores=[850, 0, 830])
    assert t.v["score"] == [880, -100, 880] and t.v["on_barrel"] == sitting(0, 2)
    joint = hundred_conceded(dh(simultaneous_fall=True), scores=[850, 0, 830])
    assert joint.v["score"] == [760, -100, 760] and joint.v["on_barrel"] == sitting()


def test_dealers_hundred_counts_no_falls():
    # Seat 0, on the barrel with two falls behind him, is knocked off by seat 2: 760, and no reset (F0 75 is
    # a house rule).
    state = {"on_barrel": sitting(0), "barrel_falls": [2, 0, 0]}
    t = hundred_conceded(dh(), scores=[880, 0, 830], state=state)
    assert t.v["score"] == [760, -100, 880] and marks(t, "barrel-reset") == []
    counted = hundred_conceded(dh(falls_limit=3), scores=[880, 0, 830], state=state)
    assert counted.v["score"][0] == 0 and marks(counted, "barrel-reset") == [0]


# Seat 1 holds the hearts, diamonds and clubs marriages: 120 + 240 = 360 is his cap (F0 10).
MARRIAGES = {1: "KH QH KD QD KC QC AS"}


def announcing(rs: Ruleset, value: int) -> Table:
    t = Table(rs, hands=MARRIAGES, talon="AH 10H 9S", dealer=1)
    t.win_auction(1)
    t.act(1, "take-talon")
    for to, card in ((2, "9S"), (0, "AS")):
        t.act(1, "give", card=card, to=to)
    return t


def test_dealers_hundred_caps_a_contract_only_by_the_marriages():
    t = announcing(dh(), 305)
    t.act(1, "announce", value=305)
    assert t.v["contract"] == 305
    capped = announcing(dh(max_bid=300), 305)
    assert capped.rejects(1, "announce", value=305).reason == "over-max-bid"
    over = announcing(dh(), 365)
    assert over.rejects(1, "announce", value=365).reason == "over-marriage-cap"


def test_dealers_hundred_allows_a_concession_after_passing_the_cards():
    # F0 28: after taking the talon; nothing ties it to the moment before the passing.
    t = announcing(dh(), 100)
    t.act(1, "concede")
    assert t.last["delta"] == [60, -100, 60]
    before = announcing(dh(rospis_timing="before-passing"), 100)
    assert before.rejects(1, "concede").reason == "rospis-timing"


# ---------------------------------------------------------------- trading-three (F0 93-95 on F0 1-36)


def trading_to_play(rs: Ruleset) -> Table:
    """Dealer 0; seat 1 opens at 100 and wins, takes the shown talon, gives two cards and announces."""
    t = Table(rs, hands={1: "AS 10S KS QS JS 9S AC"}, talon="9D JC JD", dealer=0)
    t.act(1, "bid", value=100).act(2, "pass").act(0, "pass")
    t.act(1, "take-talon").act(1, "give", card="JC", to=2).act(1, "give", card="JD", to=0)
    t.act(1, "announce", value=100)
    return t


def test_trading_three_keeps_the_articles_lead_by_the_dealer():
    # F0 95 changes the auction only; the traditional rule of its article gives the first lead to the dealer (F0 30).
    t = trading_to_play(preset("trading-three", cut_modelled=False))
    assert t.v["turn"] == 0
    assert t.game.check(t.action(1, "play", card="AS")) is not None
    t.act(0, "play", card=t.hand(0)[0])
    classic_lead = trading_to_play(preset("trading-three", cut_modelled=False, first_lead="declarer"))
    assert classic_lead.v["turn"] == 1


# ---------------------------------------------------------------- five-hundred-one (F0 97-106 on F0 1-36)


def test_five_hundred_one_has_no_barrel():
    # F0 106: the first to 501 wins; the text has no barrel. Seat 0, a defender at 300, takes 93: 393, not held
    # at a barrel of 381 as the 381 reading (game-501.ruleset on classic) would hold him.
    def play(rs: Ruleset, dealer: int) -> Table:
        t = Table(rs, hands=HANDS_D, talon="9D JC 9H", dealer=dealer, scores=[300, 0, 0])
        t.win_auction(1).act(1, "take-talon").act(1, "name-trump", named="S")
        t.act(1, "give", card="JC", to=0).act(1, "give", card="9H", to=2).act(1, "announce", value=100)
        return t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")

    t = play(preset("five-hundred-one", cut_modelled=False), dealer=1)
    assert t.v["score"][0] == 393 and t.v["on_barrel"] == sitting()
    barrel = play(load_ruleset("classic", [*FIXED, "game-501.target", "game-501.ruleset"]), dealer=0)
    assert barrel.v["score"][0] == 381 and barrel.v["on_barrel"] == sitting(0)


# ---------------------------------------------------------------- online-service (F0 166-215)


def test_online_service_has_no_concession():
    # F0 203-205 go from the talon to the contract and its result: there is no роспись.
    t = Table(preset("online-service"), dealer=0)
    t.win_auction(1).act(1, "take-talon")
    assert t.rejects(1, "concede").reason == "no-rospis"
    conceding = Table(preset("online-service", rospis_allowed=True), dealer=0)
    conceding.win_auction(1).act(1, "take-talon").act(1, "concede")
    assert conceding.last["delta"] == [60, -100, 60]


def test_online_service_pays_each_opponent_60_on_a_failed_contract():
    # F0 205: the declarer loses his contract and "the opponents get 60 each"; seat 2 took all 120 card points.
    t = play_deal(BARE, rs=preset("online-service"))
    assert t.last["delta"] == [60, -100, 60]
    own = play_deal(BARE, rs=preset("online-service", failed_contract_defenders="own-points"))
    assert own.last["delta"] == [0, -100, 120]


def test_online_service_knows_no_exposed_card():
    # The computer deals (F0 172): nobody can claim a card shown in the deal.
    assert "expose-card" not in preset("online-service").actions
    assert "expose-card" in load_ruleset("classic").actions


# ---------------------------------------------------------------- computer-game (F0 120-162)


def test_the_computer_game_has_no_concession():
    # F0 146 goes from the talon to the lead and the scoring, and the settings (F0 148-154) offer no concession.
    for name in ("computer-game", "four-computer-game"):
        t = Table(preset(name), dealer=0)
        seat = t.v["turn"]
        t.win_auction(seat).act(seat, "take-talon")
        assert t.rejects(seat, "concede").reason == "no-rospis"
        assert "expose-card" not in t.rs.actions  # the program deals: no exposed card to claim
    t = Table(preset("computer-game", rospis_allowed=True), dealer=0)
    t.win_auction(2).act(2, "take-talon").act(2, "concede")
    assert t.last["conceded"]


# ---------------------------------------------------------------- four-dummy (F3 5 on F3 7-78)


def test_four_dummy_plays_the_rules_of_its_article():
    # F3 5 opens the article of F3 7-78: bids strictly by five (F3 30) and no concession (the rules go from the
    # talon to the passing and the play). Dealer 0 sits out; seat 1 holds the hundred, seat 2 speaks first.
    t = Table(preset("four-dummy", cut_modelled=False), dealer=0)
    assert t.v["active"] == [1, 2, 3]
    assert t.rejects(2, "bid", value=110).reason == "bad-step"
    t.act(2, "pass").act(3, "pass").act(1, "take-talon")
    assert t.rejects(1, "concede").reason == "no-rospis"
    free = Table(preset("four-dummy", cut_modelled=False, bid_step_mode="multiple", rospis_allowed=True), dealer=0)
    free.act(2, "bid", value=110).act(3, "pass").act(1, "pass").act(2, "take-talon").act(2, "concede")
    assert free.last["conceded"]
