"""House rules of the auction (variants/bidding/): the lockout at minus 120."""

from positions import rs
from support import Table

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


def test_lockout_hundred_kept_leaves_the_hundred_with_the_barred_player():
    t = Table(rs("variant.bid.negative-lockout", lockout_hundred="kept"), dealer=0, scores=[10, -130, 20])
    assert t.v["bidder"] == 1 and t.v["turn"] == 2
    t.act(2, "pass").act(0, "pass")
    assert t.v["declarer"] == 1 and t.v["contract"] == 100
    t.act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [60, -100, 60]
    assert ["locked-out", 1] in t.last["marks"]


def test_nobody_is_barred_when_everybody_is_under_the_limit():
    t = Table(rs("variant.bid.negative-lockout"), dealer=0, scores=[-200, -130, -150])
    assert t.v["bidder"] == 1
    t.act(2, "bid", value=105)
