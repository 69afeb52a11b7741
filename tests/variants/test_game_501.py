"""Пятьсот одно (variants/game-501/): the trump named by the talon taker, the 501 marriage values, the target and
barrel.
"""


import pytest
from positions import TALON_D, random_games, suit
from support import Table, ruleset

from oracle import load_ruleset

NAME = ["game-501.trump-by-talon-taker"]


FIXED = [*NAME, "game-501.trump-fixed"]


# Defender seat 0 wins a trick with AC and then declares the hearts marriage; seat 1 holds every spade.
HANDS_D = {0: "AC KH QH 10C KC QC AD", 1: "AS 10S KS QS JS 9S 9C", 2: "JD QD KD 10D AH 10H JH"}


# Seat 1 names spades: six tricks as in the classic deal, then seat 0 leads KH! (trick 7).
TO_KH = ["AS", "AH", "10C", "10S", "10H", "KC", "KS", "JH", "QC", "QS", "9H", "JC", "JS", "10D", "AD",
         "9C", "JD", "AC", "KH!"]


def named(overlays=FIXED, trump="S", scores=None, **params) -> Table:
    """Seat 1 wins the hundred, takes the talon, names the trump, gives JC and 9H and announces 100."""
    t = Table(ruleset(overlays=overlays, **params), hands=HANDS_D, talon=TALON_D, dealer=0, scores=scores)
    t.win_auction(1).act(1, "take-talon").act(1, "name-trump", named=trump)
    t.act(1, "give", card="JC", to=0).act(1, "give", card="9H", to=2).act(1, "announce", value=100)
    return t


# ------------------------------------------------------------------ Пятьсот одно (501)


def test_the_talon_taker_names_the_trump_before_the_first_trick():
    t = named(NAME, trump="H")
    assert t.v["trump"] == suit(t, "hearts") and t.v["trump_named"]
    assert ("trump-named", 1) in t.game.st.marks


def test_naming_the_trump_needs_the_talon_and_happens_once():
    t = Table(ruleset(overlays=NAME), hands=HANDS_D, talon=TALON_D, dealer=0)
    t.win_auction(1)
    assert t.rejects(1, "name-trump", named="S").reason == "talon-not-taken"
    t.act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="9H", to=2)
    assert t.rejects(1, "announce", value=100).reason == "trump-not-named"
    t.act(1, "name-trump", named="S")
    assert t.rejects(1, "name-trump", named="H").reason == "trump-already-named"
    t.act(1, "announce", value=100)
    assert t.game.phase == "play"


def test_the_named_trump_rules_the_first_trick():
    # Hearts named: seat 2, void in spades, must ruff the ace of spades at once, and wins the trick.
    t = named(NAME, trump="H")
    t.play("AS")
    assert t.rejects(2, "play", card="JD").reason == "must-trump"
    t.play("AH", "QH")  # seat 0, void in spades too, must ruff as well
    assert t.v["tricks_won"] == [0, 0, 1]


def test_a_concession_needs_no_trump():
    t = Table(ruleset(overlays=NAME), hands=HANDS_D, talon=TALON_D, dealer=0)
    t.win_auction(1).act(1, "take-talon").act(1, "concede")
    assert t.last["delta"] == [60, -100, 60]


def test_a_deal_with_a_named_trump_is_scored():
    t = named(FIXED)
    t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    # Declarer: five spade tricks (93) and the ruff of KH (7) make 100. Seat 0: AC trick 13 + hearts 100.
    assert t.last["delta"] == [113, 100, 7]


@pytest.mark.parametrize("keeps", ["game-501.trump-fixed", "game-501.marriage-declaration"])
def test_a_marriage_does_not_change_the_named_trump(keeps):
    t = named([*NAME, keeps])
    t.play(*TO_KH)
    assert t.v["trump"] == suit(t, "spades")
    assert t.v["marriage_points"][0] == 100
    # Spades are still trumps: the declarer, void in hearts, must ruff KH with his last spade.
    assert t.rejects(1, "play", card="9D").reason == "must-trump"


def test_without_the_fixed_trump_a_marriage_replaces_the_named_one():
    t = named(NAME)
    t.play(*TO_KH)
    assert t.v["trump"] == suit(t, "hearts")
    t.play("9D")  # legal now: hearts are trumps and the declarer has none


def test_the_fixed_trump_alone_keeps_the_first_marriage_trump():
    # No trump is named: the hearts marriage sets trump, and it stays for the deal.
    t = Table(ruleset(overlays=["game-501.trump-fixed"]), hands=HANDS_D, talon=TALON_D, dealer=0)
    t.to_play(1, give=("JC", "9H"))
    t.play(*TO_KH)
    assert t.v["trump"] == suit(t, "hearts")
    assert t.v["declared"] == [suit(t, "hearts")]


def test_marriage_declaration_brings_back_the_trick_before_a_marriage():
    hands = {1: "KH QH AS 10S KS QS JS"}
    early = ruleset(overlays=["polish.tysiac", "game-501.marriage-declaration"])
    t = Table(early, hands=hands, dealer=0)
    t.to_play(1)
    assert t.rejects(1, "play", card="KH", marriage=True).reason == "marriage-too-early"
    t2 = Table(ruleset(overlays=["polish.tysiac"]), hands=hands, dealer=0)
    t2.to_play(1)
    t2.play("KH!")
    assert t2.v["marriage_points"][1] == 100


def test_501_marriage_values_score():
    t = named([*FIXED, "game-501.marriage-values"])
    t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    assert t.last["delta"] == [93, 100, 7]  # hearts marriage 80


def test_501_marriage_values_set_the_bidding_cap():
    rs = ruleset(overlays=["game-501.marriage-values"])
    t = Table(rs, hands=HANDS_D, talon=TALON_D, dealer=0)
    t.act(2, "pass")
    # Seat 0 holds the hearts (80) and clubs (20) marriages: 120 + 100 = 220.
    assert t.rejects(0, "bid", value=225).reason == "over-marriage-cap"
    t.act(0, "bid", value=220)
    classic = Table(hands=HANDS_D, talon=TALON_D, dealer=0).act(2, "pass")
    classic.act(0, "bid", value=280)  # 120 + 100 + 60


def test_the_first_to_501_wins():
    t = named([*FIXED, "game-501.target"], scores=[450, 0, 0])
    t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    assert t.v["score"] == [563, 100, 7]
    assert t.game.over and t.v["winner"] == 0
    assert t.rejects(1, "pass").reason == "game-over"
    classic = named(FIXED, scores=[450, 0, 0])
    classic.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    assert not classic.game.over


def test_the_501_barrel_is_120_below_the_target():
    t = named([*FIXED, "game-501.target", "game-501.ruleset"], scores=[300, 0, 0])
    t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    # 300 + 113 would pass 381: a defender stops on the barrel at 381 and cannot jump to 501.
    assert t.last["delta"][0] == 81
    assert t.v["score"][0] == 381 and t.v["on_barrel"][0]
    assert not t.game.over


def test_falling_off_the_501_barrel_costs_the_penalty():
    state = {"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]}
    t = Table(ruleset(overlays=["game-501.ruleset"]), hands=HANDS_D, talon=TALON_D, dealer=0,
              scores=[381, 0, 0], state=state)
    t.win_auction(1).act(1, "take-talon").act(1, "concede")
    assert t.v["score"][0] == 261


def test_the_five_hundred_one_preset():
    # The rules of its article (dealers-hundred): seat 1 deals, holds the hundred and leads; no barrel.
    rs = load_ruleset("five-hundred-one", params={"cut_modelled": False})
    assert (rs.param("target"), rs.param("trump_changes")) == (501, False)
    assert "polish.no-barrel" in rs.resolved.overlays
    t = Table(rs, hands=HANDS_D, talon=TALON_D, dealer=1)
    t.win_auction(1).act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="9H", to=2)
    assert t.rejects(1, "announce", value=100).reason == "trump-not-named"
    t.act(1, "name-trump", named="S").act(1, "announce", value=100)
    t.play(*TO_KH, "9S", "QD", "9D", "KD", "QH")
    assert t.last["delta"] == [93, 100, 7]


def test_the_five_hundred_one_preset_plays_whole_games():
    for g in random_games("five-hundred-one", seeds=range(4)):
        for row in g.sheet:
            assert row["conceded"] or row["trump_named"]
        assert not g.over or max(g.v["score"]) >= 501
