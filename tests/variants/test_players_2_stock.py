"""players-2.stock: nine cards each and a stock of six whose bottom card names the trump, drawn after each
trick, with no duty to follow, beat or trump while it lasts (the two-player configuration A of
mekedron/thousand). Each verdict here changes with one of the overlay's values.
"""

from support import Table, ruleset

SPADES, CLUBS, DIAMONDS, HEARTS = range(4)

STOCK = ["players-2.seating-and-dealing", "players-2.stock"]

# Dealer 0: seat 1 holds the hundred and wins it when seat 0 passes. The stock's top card is QC, its
# bottom card 9D: diamonds are trump. Seat 0 holds one spade and no clubs.
HANDS = {1: "AS 10S KS QS JS 9H AC 10C KC", 0: "9S AH 10H KH QH JH AD 10D KD"}
PILE = "QC JC 9C QD JD 9D"


def table(**params):
    t = Table(ruleset("classic", STOCK, must_beat=True, **params), hands=HANDS, talon=PILE, dealer=0)
    return t.win_auction(1)


def test_the_stock_is_dealt_after_nine_cards_each_and_its_bottom_card_names_the_trump():
    t = table()
    assert [len(h) for h in t.v["hand"]] == [9, 9] and len(t.v["talon"]) == 6
    assert t.v["trump"] == DIAMONDS
    assert table(stock_sets_trump=False).v["trump"] is None


def test_nothing_is_taken_after_the_auction_and_the_declarer_leads():
    t = table()
    assert t.game.phase == "play" and t.v["turn"] == 1 and t.v["declarer"] == 1
    assert t.v["contract"] == 100 and len(t.v["talon"]) == 6


def test_the_winner_draws_the_top_card_and_the_loser_the_next():
    t = table()
    t.play("AS", "AH")  # seat 1 wins: hearts are not trump
    assert "QC" in t.hand(1) and "JC" in t.hand(0) and [len(h) for h in t.v["hand"]] == [9, 9]
    assert [t.name(c) for c in t.v["talon"]] == ["9C", "QD", "JD", "9D"]


def test_while_the_stock_lasts_any_card_may_be_played():
    t = table()
    t.play("AS")
    assert "0 play card=AH marriage=False" in t.legal(0)  # seat 0 holds 9S, yet need not follow
    t = table(free_play_while_stock=False)
    t.play("AS")
    assert t.rejects(0, "play", card="AH").reason == "must-follow-suit"


def test_while_the_stock_lasts_nobody_must_trump_or_beat():
    t = table()
    t.play("AC")  # seat 0 has no clubs but trumps (diamonds)
    assert "0 play card=9S marriage=False" in t.legal(0)
    t = table(free_play_while_stock=False)
    t.play("AC")
    assert t.rejects(0, "play", card="9S").reason == "must-trump"


def test_once_the_stock_is_gone_the_duties_bind():
    t = table()
    # Three tricks won by seat 1 with spades while seat 0 throws hearts; the stock is drawn after each.
    t.play("AS", "AH", "10S", "10H", "KS", "KH")
    assert len(t.v["talon"]) == 0 and [len(h) for h in t.v["hand"]] == [9, 9]
    assert "JD" in t.hand(1) and "9D" in t.hand(0)  # the face-up card is drawn last, by the loser
    t.play("QS")
    assert t.rejects(0, "play", card="QH").reason == "must-follow-suit"
