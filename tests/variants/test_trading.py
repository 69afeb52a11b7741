"""The trading game for three (variants/trading/)."""

from positions import HANDS, PLAY_139, TRADING, give_and_announce, rs
from support import Table

from oracle import load_ruleset

TALON = "9D JC JD"  # 4 points: a poor talon, one nine, two jacks


# ================================================================== variant.trading-three


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
    # Seat 1 deals, so he leads (the article's rule, F0 30); seat 2 must open, seat 1 outbids him dark.
    t = Table(load_ruleset("trading-three", params={"cut_modelled": False}), hands=HANDS, talon=TALON, dealer=1)
    t.act(1, "go-dark")
    t.act(2, "bid", value=100).act(0, "pass").act(1, "bid", value=105).act(2, "pass")
    t.act(1, "take-talon")
    assert t.v["talon_shown"] is False
    give_and_announce(t).play(*PLAY_139)
    assert t.last["delta"] == [28, 210, 14]
