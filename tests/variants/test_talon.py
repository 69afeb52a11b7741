"""House rules of the talon (variants/talon/): buying the talon out."""

from positions import R_HANDS, R_TALON, reason, rules
from support import Table


def opened(rs, bid=110):
    """Seat 2 opens, seat 1 wins at ``bid``: the talon is shown when he takes it."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0)
    t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=bid).act(2, "pass")
    return t


def buy_prices(t, seat):
    prefix = f"{seat} buy-talon value="
    return [int(a[len(prefix):]) for a in t.legal(seat) if a.startswith(prefix)]


# ====================================================================== variant.talon.buyout


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
