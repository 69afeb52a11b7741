"""The pack (spec/deck/): composition, players, card points and their total, rank order, notation."""

import pytest
from positions import HANDS, NT, PACK, PLAY_113, TALON, c, deal_action, played_through
from support import Table, ruleset

from oracle import Game, OracleError
from oracle.cards import notation
from oracle.errors import RuleRuntimeError


def rejection(g: Game, payload: dict):
    rej = g.check(deal_action(g, payload))
    assert rej is not None, "the deal was legal"
    return rej.rule_id, rej.reason


# ================================================================== deck.composition


def test_pack_is_24_cards_nine_to_ace_in_four_suits():
    g = Game(ruleset())
    assert g.v["stock"] == PACK
    names = {NT.name(x) for x in g.v["stock"]}
    assert names == {r + s for r in ("9", "10", "J", "Q", "K", "A") for s in "SCDH"}


def test_cards_are_numbered_suit_by_suit_in_rank_order():
    assert [c(n) for n in ("9S", "10S", "JS", "QS", "KS", "AS", "9C", "AH")] == [0, 1, 2, 3, 4, 5, 6, 23]


def test_ranks_are_a_parameter_a_pack_with_eights():
    eights = {"ranks": ["8", "9", "10", "J", "Q", "K", "A"],
              "card_points": {"8": 0, "9": 0, "10": 10, "J": 2, "Q": 3, "K": 4, "A": 11},
              "rank_order": ["A", "10", "K", "Q", "J", "9", "8"],
              "notation_ranks": ["8", "9", "10", "J", "Q", "K", "A"],
              "notation_ranks_alt": ["8", "9", "10", "В", "Д", "К", "Т"],
              "hand_size": 8, "talon_size": 4}
    assert Game(ruleset(**eights)).v["stock"] == list(range(28))
    t = Table(hands={1: "9C AS 10S KS QS JS 9S 8S", 2: "8C", 0: "10C"}, talon="9D 9H JD 8D", **eights)
    assert [len(t.hand(s)) for s in range(3)] == [8, 8, 8] and len(t.v["talon"]) == 4
    t.to_play(1, give=("9D", "9H"))
    t.play("9C", "8C", "10C")
    assert t.v["tricks_won"] == [1, 0, 0]


@pytest.mark.parametrize(("ranks", "winner"), [(None, 1), (["A", "10", "K", "Q", "J", "9"], 2)])
def test_ranks_order_decides_which_rank_a_card_number_is(ranks, winner):
    # Listing the ranks ace first makes card 0 (written 9S) the ace of spades, and it wins.
    params = {"ranks": ranks} if ranks else {}
    t = Table(hands={1: "KS AS 10S QS JS 9C 9D", 2: "9S", 0: "9H"}, talon="JC JD 10H", **params)
    t.to_play(1, give=("JC", "JD"))
    t.play("KS", "9S", "9H")
    assert t.v["turn"] == winner and t.v["tricks_won"][winner] == 1


def test_suits_order_decides_which_marriage_is_which():
    # Default: KS QS is the spades marriage, 40. With hearts listed first, the cards written S are hearts.
    for suits, value in [(None, 40), (["hearts", "diamonds", "clubs", "spades"], 100)]:
        params = {"suits": suits} if suits else {}
        t = Table(hands=HANDS, talon=TALON, **params)
        t.to_play(1, give=("JC", "JD"))
        t.play("AS", "AD", "10C", "KS!")
        assert t.v["marriage_points"][1] == value


def test_suits_are_a_parameter_a_fifth_suit():
    stars = {"suits": ["spades", "clubs", "diamonds", "hearts", "stars"],
             "marriage_values": {"hearts": 100, "diamonds": 80, "clubs": 60, "spades": 40, "stars": 20},
             "notation_suits": ["S", "C", "D", "H", "X"], "notation_suits_alt": ["♠", "♣", "♦", "♥", "★"],
             "deck_total": 150, "hand_size": 9}
    g = Game(ruleset(**stars))
    assert g.v["stock"] == list(range(30))
    t = Table(talon="QX KX AX", **stars)
    assert [len(t.hand(s)) for s in range(3)] == [9, 9, 9]
    assert t.name(29) == "AX"


# ================================================================== deck.player-count, deal.first-dealer


def test_three_seats_by_default():
    g = Game(ruleset())
    assert g.v["seats"] == [0, 1, 2]
    with pytest.raises(OracleError, match="for 3 players, not 4"):
        Game(ruleset(), players=4)


def test_four_seats_as_a_parameter():
    rs = ruleset(players=4, hand_size=5, talon_size=4)
    g = Game(rs)
    assert g.v["seats"] == [0, 1, 2, 3]
    three = {"hands": [PACK[0:5], PACK[5:10], PACK[10:15]], "talon_cards": PACK[15:19]}
    assert rejection(g, three) == ("deal.hand-size-3p", "wrong-number-of-hands")
    t = Table(rs)
    assert [len(t.hand(s)) for s in range(4)] == [5, 5, 5, 5]
    assert t.v["active"] == [0, 1, 2, 3] and t.v["bidder"] == 1 and t.v["turn"] == 2


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_first_dealer_is_an_input_of_the_game(dealer):
    g = Game(ruleset(), dealer=dealer)
    assert g.v["dealer"] == dealer


def test_first_dealer_must_be_a_seat():
    with pytest.raises(OracleError, match="first dealer"):
        Game(ruleset(), dealer=3)


# ================================================================== deck.card-points


def test_card_points_are_11_10_4_3_2_0():
    assert played_through().game.sheet[-1]["taken_points"] == [14, 99, 7]
    # 113 for the declarer when the defenders throw their aces and tens on his spades.
    assert played_through(PLAY_113).game.sheet[-1]["taken_points"] == [7, 113, 0]


def test_card_points_are_a_parameter():
    # Aces 10 and nines 1 (still 30 a suit): the declarer won 3 aces and 2 nines (99 - 3 + 2),
    # seat 2 won 9D (7 + 1), seat 0 won AC and 9C (14 - 1 + 1).
    t = played_through(card_points={"A": 10, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 1})
    assert t.game.sheet[-1]["taken_points"] == [14, 98, 8]


# ================================================================== deck.total-points


def test_default_pack_adds_up_to_120():
    assert Game(ruleset()).phase == "dealing"


def test_wrong_deck_total_stops_the_game_naming_the_rule():
    with pytest.raises(RuleRuntimeError) as err:
        Game(ruleset(deck_total=100))
    assert "deck.total-points" in str(err.value)
    assert "spec/deck/total-points.yaml" in str(err.value)
    assert "do not add up to deck_total" in str(err.value)


def test_card_points_must_agree_with_deck_total():
    aces_12 = {"A": 12, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    with pytest.raises(RuleRuntimeError, match=r"deck\.total-points"):
        Game(ruleset(card_points=aces_12))
    t = played_through(card_points=aces_12, deck_total=124)
    # The declarer won AS AD AH: one point more for each ace.
    assert t.game.sheet[-1]["taken_points"] == [15, 102, 7]


def _trick_kc_10c_9c(**params) -> Table:
    t = Table(hands={1: "KC AS 10S KS QS JS 9S", 2: "10C", 0: "9C"}, talon="9D 9H JD", **params)
    t.to_play(1, give=("9D", "9H"))
    t.play("KC", "10C", "9C")
    return t


# ================================================================== deck.rank-order


def test_ten_beats_king():
    t = _trick_kc_10c_9c()
    assert t.v["tricks_won"] == [0, 0, 1] and t.v["turn"] == 2


def test_rank_order_is_a_parameter():
    t = _trick_kc_10c_9c(rank_order=["A", "K", "Q", "J", "10", "9"])
    assert t.v["tricks_won"] == [0, 1, 0] and t.v["turn"] == 1


# ================================================================== deck.notation


def test_cards_are_written_rank_then_suit():
    assert NT.parse("10H") == 19 and NT.parse("QS") == 3
    assert NT.name(19) == "10H" and NT.name(3) == "QS"
    assert NT.parse("10h") == 19  # case does not matter
    assert NT.parse("H10") is None


def test_russian_rank_letters_and_suit_symbols_are_accepted():
    assert NT.parse("Т♥") == c("AH")
    assert NT.parse("В♠") == c("JS")
    assert NT.parse("ДH") == c("QH")
    assert NT.parse("К♣") == c("KC")
    assert NT.parse("10♦") == c("10D")
    t = Table(hands={1: "Т♠ К♠ Д♠ В♠ 10♠ 9♠ 9♣"})
    assert t.hand(1) == sorted("AS KS QS JS 10S 9S 9C".split())


def test_notation_ranks_are_a_parameter():
    nt = notation(ruleset(notation_ranks=["9", "T", "J", "Q", "K", "A"]))
    assert nt.parse("TH") == 19 and nt.name(19) == "TH"
    assert NT.parse("TH") is None


def test_notation_ranks_alt_is_a_parameter():
    nt = notation(ruleset(notation_ranks_alt=["N", "X", "V", "D", "R", "T"]))
    assert nt.parse("TS") == 5 and nt.parse("V♠") == 2
    assert nt.parse("Т♠") is None
    assert nt.name(5) == "AS"


def test_notation_suits_are_a_parameter():
    t = Table(hands={1: "AП КП ДП ВП 10П 9П 9Т"}, notation_suits=["П", "Т", "Б", "Ч"])
    assert t.hand(1) == sorted("AП KП QП JП 10П 9П 9Т".split())
    assert t.nt.parse("AS") is None and t.nt.parse("A♠") == 5


def test_notation_suits_alt_is_a_parameter():
    nt = notation(ruleset(notation_suits_alt=["x", "y", "z", "w"]))
    assert nt.parse("Ax") == 5 and nt.parse("9w") == 18
    assert nt.parse("A♠") is None
    assert nt.name(5) == "AS"
