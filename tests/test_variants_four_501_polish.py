"""Overlays and presets: the four-handed game, Пятьсот одно (501), the computer game and Polish Tysiąc."""

import random

import pytest
from support import Table, ruleset

from oracle import Action, Game, load_ruleset
from oracle.engine import play_random
from oracle.errors import RuleRuntimeError, RulesetError

FOUR = ["players-4.dealer-sits-out", "players-4.deal-and-bidding"]
OBSERVER = [*FOUR, "players-4.observer-score"]
DUMMY = [*OBSERVER, "players-4.dummy"]

# The talon tests' deal moved to a table of four: dealer 0 sits out, seat 3 plays seat 0's old hand.
# Seat 1 plays the forced 100 with all the spades; the defenders are seats 2 and 3.
HANDS4 = {1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H", 3: "AC 10C KC QC QH AH 10H"}
TALON4 = "9D JC JD"
# Six spade tricks to the declarer; 9C loses to AC, and seat 3 leads QH to seat 2's KH. The declarer keeps 99.
PLAY4_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
            "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


def four(overlays=FOUR, hands=HANDS4, talon=TALON4, scores=None, state=None, dealer=0, **params) -> Table:
    return Table(ruleset(overlays=overlays, **params), hands=hands, talon=talon, dealer=dealer, scores=scores,
                 state=state)


def play_four(overlays=FOUR, moves=PLAY4_99, **kw) -> Table:
    t = four(overlays, **kw)
    t.to_play(1, give=("JD", "JC"))  # JD to seat 2, JC to seat 3
    t.play(*moves)
    assert t.game.phase == "dealing"
    return t


def concede_four(overlays=OBSERVER, talon=TALON4, hands=HANDS4, **kw) -> Table:
    """Seat 1 plays the forced hundred, takes the talon and concedes: the scoring needs no tricks."""
    t = four(overlays, hands=hands, talon=talon, **kw)
    t.win_auction(1).act(1, "take-talon").act(1, "concede")
    return t


def suit(t: Table, name: str) -> int:
    return t.rs.deck.suits.index(name)


def random_games(name: str, seeds=range(3), **params) -> list[Game]:
    rs = load_ruleset(name, params=params or None)
    games = []
    for s in seeds:
        g = Game(rs, seed=s)
        play_random(g, random.Random(s), hinted=True, max_deals=15)
        assert sorted(g.st.cards_everywhere()) == list(range(24))
        games.append(g)
    return games


# ------------------------------------------------------------------ players-4.dealer-sits-out

def test_four_seats_and_the_dealer_gets_no_cards():
    t = four()
    assert t.v["n_seats"] == 4
    assert t.v["active"] == [1, 2, 3]
    assert t.hand(0) == []
    assert all(len(t.v["hand"][s]) == 7 for s in (1, 2, 3))


def test_a_deal_giving_the_dealer_cards_is_rejected():
    g = Game(ruleset(overlays=FOUR), dealer=0, seed=0)
    assert g.phase == "dealing"
    cards = list(range(24))
    rej = g.check(Action("deal", 0, {"hands": [cards[0:3], cards[3:10], cards[10:17], cards[17:24]],
                                     "talon_cards": []}))
    assert (rej.rule_id, rej.reason) == ("deal.hand-size-3p", "wrong-hand-size")


def test_the_idle_dealer_never_speaks_or_plays():
    t = four()
    assert t.rejects(0, "pass").reason == "not-your-turn"
    t.to_play(1, give=("JC", "JD"))
    assert t.v["turn"] == 1
    assert t.rejects(0, "play", card="AS").reason == "not-your-turn"


def test_tricks_of_three_and_the_four_handed_scores():
    t = play_four()
    assert t.last["tricks_won"] == [0, 6, 1, 1]
    # The declarer keeps 99 of his 100: minus the contract. Seat 3 takes 9C+QD+AC = 14, seat 2 QH+9D+KH = 7.
    assert t.last["delta"] == [0, -100, 7, 14]
    assert t.v["score"] == [0, -100, 7, 14]
    # The deal passes to seat 1, who sits out the next deal.
    assert (t.v["dealer"], t.v["active"]) == (1, [0, 2, 3])


def test_a_deal_sat_out_is_not_a_barrel_attempt():
    # Seat 0 is on the barrel with two failed deals behind him; he deals and sits this one out.
    state = {"on_barrel": [True, False, False, False], "barrel_deals": [2, 0, 0, 0]}
    t = concede_four(overlays=FOUR, scores=[880, 0, 0, 0], state=state, rospis_dealer="next")
    assert t.last["delta"] == [0, -100, 60, 60]
    assert t.v["score"][0] == 880
    assert t.v["on_barrel"][0] and t.v["barrel_deals"][0] == 2
    # In the next deal he plays (as a defender), and it is his third attempt: he falls to 760.
    t.deal({})
    assert t.v["active"] == [0, 2, 3]
    t.win_auction(2).act(2, "take-talon").act(2, "concede")
    assert t.v["score"][0] == 760 and not t.v["on_barrel"][0]


# ------------------------------------------------------------------ players-4.deal-and-bidding

def test_the_hundred_and_the_first_word_go_round_the_three_players():
    t = four()
    assert (t.v["bidder"], t.v["bid"], t.v["turn"]) == (1, 100, 2)
    t.act(2, "pass")
    assert t.v["turn"] == 3
    t.act(3, "bid", value=105).act(1, "pass")
    assert (t.v["declarer"], t.v["contract"]) == (3, 105)


def test_first_lead_left_of_the_dealer_is_the_first_active_player():
    t = four(first_lead="left-of-dealer")
    t.to_play(2, give=("9H", "JH"))
    assert t.v["turn"] == 1


@pytest.mark.parametrize("param", ["forced_bidder", "first_lead"])
def test_a_ruleset_naming_the_idle_dealer_is_refused(param):
    rs = ruleset(overlays=FOUR, **{param: "dealer"})
    with pytest.raises(RuleRuntimeError, match="dealer sits out"):
        Game(rs)


def test_a_four_handed_game_deals_again_after_a_concession_by_the_same_dealer():
    t = concede_four(overlays=FOUR)
    assert t.last["delta"] == [0, -100, 60, 60]
    assert (t.v["dealer"], t.v["active"]) == (0, [1, 2, 3])


# ------------------------------------------------------------------ players-4.observer-score

def test_the_idle_dealer_scores_the_talon_points_after_a_played_deal():
    t = play_four(OBSERVER)
    assert t.last["dealt_talon"] == t.cards(TALON4)
    assert t.last["delta"] == [4, -100, 7, 14]  # 9D + JC + JD = 4
    assert ["observer", 0] in t.last["marks"]


MARRIAGE_TALON = "KD QD 9D"
HANDS_M = {1: "AS 10S KS QS JS 9S 9C", 2: "JD AD 10D JC KH JH 9H", 3: "AC 10C KC QC QH AH 10H"}


@pytest.mark.parametrize(("mode", "points"), [("talon-points-plus-marriage", 87), ("marriage-only", 80),
                                              ("talon-points", 7)])
def test_the_observer_score_versions(mode, points):
    t = concede_four(hands=HANDS_M, talon=MARRIAGE_TALON, observer_score=mode)
    assert t.last["delta"] == [points, -100, 60, 60]
    assert t.last["observer_points"] == [points, 0, 0, 0]


def test_default_observer_score_counts_talon_points_and_marriage():
    t = concede_four(hands=HANDS_M, talon=MARRIAGE_TALON)
    assert t.last["delta"][0] == 87


def test_marriage_only_without_a_marriage_scores_nothing():
    t = concede_four(observer_score="marriage-only")
    assert t.last["delta"] == [0, -100, 60, 60]
    assert ["observer", 0] not in t.last["marks"]


def test_the_observer_score_obeys_the_barrel():
    # 870 + 87 crosses 880: the idle dealer mounts the barrel at exactly 880.
    t = concede_four(hands=HANDS_M, talon=MARRIAGE_TALON, scores=[870, 0, 0, 0])
    assert t.v["score"][0] == 880 and t.v["on_barrel"][0]
    # On the barrel his talon points are not added.
    t2 = concede_four(hands=HANDS_M, talon=MARRIAGE_TALON, scores=[880, 0, 0, 0],
                      state={"on_barrel": [True, False, False, False]})
    assert t2.last["delta"][0] == 0


def test_an_unknown_observer_score_is_refused():
    with pytest.raises(RulesetError, match="observer_score"):
        ruleset(overlays=OBSERVER, observer_score="everything")


def test_the_observer_cannot_take_the_talon():
    t = four(OBSERVER)
    t.win_auction(1)
    assert t.rejects(0, "take-talon").reason == "not-your-turn"


# ------------------------------------------------------------------ players-4.dummy

def test_the_dummy_scores_his_talon_hand_but_not_its_marriage():
    t = concede_four(DUMMY, hands=HANDS_M, talon=MARRIAGE_TALON)
    assert t.last["delta"] == [7, -100, 60, 60]


def test_the_dummy_plays_no_card():
    t = four(DUMMY)
    t.to_play(1, give=("JC", "JD"))
    assert t.hand(0) == []
    assert t.rejects(0, "play", card="AS").reason == "not-your-turn"


def test_the_dummy_needs_the_observer_score():
    with pytest.raises(RulesetError, match="observer_score"):
        ruleset(overlays=[*FOUR, "players-4.dummy"])


# ------------------------------------------------------------------ four-handed presets

@pytest.mark.parametrize("name", ["four-dealer-observes", "four-dummy", "four-computer-game"])
def test_four_handed_presets_play_whole_games(name):
    games = random_games(name)
    assert all(g.rs.players == 4 for g in games)
    for g in games:
        for row in g.sheet:
            idle = row["dealer"]
            assert row["tricks_won"][idle] == 0
            assert row["observer_points"][idle] >= 0


def test_the_dummy_preset_differs_from_the_observer_preset_only_in_the_marriage():
    a = load_ruleset("four-dealer-observes")
    b = load_ruleset("four-dummy")
    assert a.players == b.players == 4
    assert (a.param("observer_score"), b.param("observer_score")) == ("talon-points-plus-marriage", "talon-points")
    assert "players-4.computer" in load_ruleset("four-computer-game").resolved.overlays


# ------------------------------------------------------------------ Пятьсот одно (501)

NAME = ["game-501.trump-by-talon-taker"]
FIXED = [*NAME, "game-501.trump-fixed"]

# Defender seat 0 wins a trick with AC and then declares the hearts marriage; seat 1 holds every spade.
HANDS_D = {0: "AC KH QH 10C KC QC AD", 1: "AS 10S KS QS JS 9S 9C", 2: "JD QD KD 10D AH 10H JH"}
TALON_D = "9D JC 9H"
# Seat 1 names spades: six tricks as in the classic deal, then seat 0 leads KH! (trick 7).
TO_KH = ["AS", "AH", "10C", "10S", "10H", "KC", "KS", "JH", "QC", "QS", "9H", "JC", "JS", "10D", "AD",
         "9C", "JD", "AC", "KH!"]


def named(overlays=FIXED, trump="S", scores=None, **params) -> Table:
    """Seat 1 wins the hundred, takes the talon, names the trump, gives JC and 9H and announces 100."""
    t = Table(ruleset(overlays=overlays, **params), hands=HANDS_D, talon=TALON_D, dealer=0, scores=scores)
    t.win_auction(1).act(1, "take-talon").act(1, "name-trump", named=trump)
    t.act(1, "give", card="JC", to=0).act(1, "give", card="9H", to=2).act(1, "announce", value=100)
    return t


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
    rs = load_ruleset("five-hundred-one")
    assert (rs.param("target"), rs.param("barrel_threshold"), rs.param("trump_changes")) == (501, 381, False)
    t = Table(rs, hands=HANDS_D, talon=TALON_D, dealer=0)
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


# ------------------------------------------------------------------ Polish Tysiąc

TYSIAC = ["polish.tysiac"]
# Seat 1 (the hundred) holds the hearts marriage and no clubs; seat 2 has every club and the ace of hearts;
# seat 0 has no clubs and two small hearts.
HANDS_P = {1: "KH QH 9H AS 10S KS QS", 2: "AH AC 10C KC QC JC 9C", 0: "10H JH JS 9S AD 10D KD"}
TALON_P = "QD JD 9D"


def polish(overlays=None, scores=None, state=None, name="tysiac", **params) -> Table:
    """Seat 1 plays the hundred, takes the talon, gives 9D to seat 0 and JD to seat 2 and announces 100."""
    rs = load_ruleset(name, overlays, params or None)
    t = Table(rs, hands=HANDS_P, talon=TALON_P, dealer=0, scores=scores, state=state)
    t.win_auction(1).act(1, "take-talon").act(1, "give", card="9D", to=0).act(1, "give", card="JD", to=2)
    t.act(1, "announce", value=100)
    return t


def play_first_legal(t: Table) -> Table:
    """Finish the deal, each player playing his first legal card (no declarations)."""
    while t.game.phase == "play":
        seat = t.v["turn"]
        t.game.apply(next(a for a in t.game.legal_actions(seat) if a.kind == "play" and not a.payload["marriage"]))
    return t


def polish_deal(**kw) -> Table:
    """The declarer declares hearts on his first lead, then ruffs seat 2's clubs; he takes 95 + 100."""
    t = polish(**kw)
    t.play("KH!", "AH", "10H", "AC", "JH", "QH")
    return play_first_legal(t)


def test_tysiac_bids_go_up_in_tens():
    t = Table(ruleset(overlays=TYSIAC), dealer=0)
    assert t.rejects(2, "bid", value=105).reason == "bad-step"
    t.act(2, "bid", value=110)
    assert t.v["bid"] == 110


def test_tysiac_caps_bids_only_by_the_marriages_held():
    hands = {2: "KH QH KD QD KC QC AS"}
    t = Table(ruleset(overlays=TYSIAC), hands=hands, dealer=0)
    assert t.rejects(2, "bid", value=370).reason == "over-marriage-cap"  # 120 + 100 + 80 + 60 = 360
    t.act(2, "bid", value=360)
    classic = Table(hands=hands, dealer=0)
    assert classic.rejects(2, "bid", value=360).reason == "over-max-bid"


def test_tysiac_shows_the_musik_taken_at_the_hundred():
    t = polish(TYSIAC, name="classic")
    assert t.v["talon_shown"]
    classic = Table(hands=HANDS_P, talon=TALON_P, dealer=0)
    classic.win_auction(1).act(1, "take-talon")
    assert not classic.v["talon_shown"]


def test_tysiac_followers_must_beat_and_over_trump():
    t = polish(TYSIAC, name="classic")
    t.play("KH!")  # a marriage on the very first lead: hearts are trumps
    assert t.v["trump"] == suit(t, "hearts")
    t.play("AH", "10H", "AC")
    # Seat 0 has no club and must ruff with his last heart; seat 1 must then over-ruff with QH.
    t.play("JH")
    assert t.rejects(1, "play", card="9H").reason == "must-beat"
    t.play("QH")
    assert t.v["tricks_won"] == [0, 1, 1]


def test_tysiac_follower_must_head_the_trick_in_the_suit():
    hands = {1: "QS 9C 9D 9H JH AC 10C", 2: "KS JS 9S AD 10D KD QD", 0: "AS 10S JD JC QC KC QH"}
    t = Table(ruleset(overlays=TYSIAC), hands=hands, talon="KH 10H AH", dealer=0)
    t.to_play(1, give=("AH", "10H"))
    t.play("QS")
    assert t.rejects(2, "play", card="JS").reason == "must-beat"
    t.play("KS")
    t.play("10S")  # 10S beats KS too
    classic = Table(hands=hands, talon="KH 10H AH", dealer=0)
    classic.to_play(1, give=("AH", "10H"))
    classic.play("QS", "JS")


def test_tysiac_rounds_the_defenders_to_ten():
    t = polish_deal(overlays=["polish.no-bolts"], name="classic", **{"bid_step": 10, "must_beat": True,
                                                                        "marriage_timing": "from-first-lead"})
    assert t.last["taken_points"] == [0, 195, 25]
    assert t.last["delta"] == [0, 100, 25]
    t = polish_deal(overlays=TYSIAC, name="classic")
    assert t.last["delta"] == [0, 100, 30]  # 25 rounds up to 30


def test_the_800_lock_stops_a_defender_scoring():
    t = polish_deal(scores=[0, 0, 800])
    assert t.last["delta"] == [0, 100, 0]
    assert ["locked", 2] in t.last["marks"]
    t = polish_deal(scores=[0, 0, 790])
    assert t.last["delta"] == [0, 100, 30]
    assert t.v["score"][2] == 820


def test_the_800_lock_score_is_a_parameter():
    t = polish_deal(scores=[0, 0, 800], lock_score=850)
    assert t.last["delta"] == [0, 100, 30]


def test_the_800_lock_lets_a_declarer_score_and_lose():
    t = polish_deal(scores=[0, 850, 0])
    assert t.last["delta"] == [0, 100, 30]
    t = polish(scores=[0, 850, 0])
    t.play("AS")  # no marriage: the declarer cannot make 100
    play_first_legal(t)
    assert t.last["delta"][1] == -100


def bomb(t: Table, seat: int = 1) -> Table:
    t.win_auction(seat).act(seat, "take-talon").act(seat, "concede")
    return t


def test_the_first_bomb_is_free_and_the_next_pays_60_each():
    t = bomb(Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0))
    assert t.last["delta"] == [0, 0, 0]
    assert t.last["bombs"] == [0, 1, 0]
    # The deal passes on: dealer 1, and seat 2 holds the hundred.
    assert t.v["dealer"] == 1
    t.deal({})
    bomb(t, seat=2)
    assert t.last["delta"] == [0, 0, 0] and t.last["bombs"] == [0, 1, 1]
    t.deal({})
    bomb(t, seat=0)
    t.deal({})
    bomb(t, seat=1)
    assert t.last["delta"] == [60, 0, 60]  # seat 1's second bomb
    assert t.v["score"] == [60, 0, 60]


def test_a_bomb_pays_from_the_first_when_none_is_free():
    t = bomb(Table(load_ruleset("tysiac", params={"bomb_free": 0}), hands=HANDS_P, talon=TALON_P, dealer=0))
    assert t.last["delta"] == [60, 0, 60]


def test_a_bomb_needs_the_musik_and_comes_before_passing_cards():
    t = Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0)
    t.win_auction(1)
    assert t.rejects(1, "concede").reason == "talon-not-taken"
    t.act(1, "take-talon").act(1, "give", card="9D", to=0)
    assert t.rejects(1, "concede").reason == "rospis-timing"


def test_the_number_of_bombs_can_be_limited():
    rs = load_ruleset("tysiac", params={"bomb_limit": 1})
    t = bomb(Table(rs, hands=HANDS_P, talon=TALON_P, dealer=0, state={"bombs": [0, 0, 1]}), seat=1)
    assert t.last["bombs"] == [0, 1, 1]
    t.deal({})
    t.win_auction(2).act(2, "take-talon")
    assert t.rejects(2, "concede").reason == "no-bombs-left"


def test_the_800_lock_holds_back_a_bomb_payment():
    t = bomb(Table(load_ruleset("tysiac"), hands=HANDS_P, talon=TALON_P, dealer=0, scores=[800, 0, 0],
                   state={"bombs": [0, 1, 0]}))
    assert t.last["delta"] == [0, 0, 60]


def test_no_barrel_in_tysiac():
    # The declarer goes from 870 to 970 with nothing to stop him at 880.
    t = polish_deal(scores=[0, 870, 0])
    assert t.v["score"][1] == 970 and not t.v["on_barrel"][1]
    barrel = polish_deal(overlays=[o for o in load_ruleset("tysiac").resolved.overlays if o != "polish.no-barrel"],
                         name="classic", scores=[0, 870, 0])
    assert barrel.v["score"][1] == 880 and barrel.v["on_barrel"][1]


def test_no_bolts_in_tysiac():
    t = polish_deal(state={"bolts": [2, 0, 0]})
    assert t.last["taken_points"][0] == 0
    assert t.last["bolts"] == [2, 0, 0]
    assert not any(m[0].startswith("bolt") for m in t.last["marks"])
    bolts = polish_deal(overlays=["polish.tysiac", "polish.lock-800", "polish.bomb", "polish.no-barrel"],
                        name="classic", state={"bolts": [2, 0, 0]})
    assert bolts.last["delta"][0] == -120


def test_a_defender_below_the_lock_may_pass_it():
    t = polish_deal(scores=[0, 0, 799])
    assert t.v["score"][2] == 829 and not t.game.over


def test_the_tysiac_preset_plays_whole_games():
    for g in random_games("tysiac", seeds=range(4)):
        for row in g.sheet:
            for s in range(3):
                if s != row["declarer"]:
                    assert row["delta"][s] % 10 == 0


# ------------------------------------------------------------------ the computer game

COMPUTER_OPTIONS = ["variant.redeal.four-nines", "variant.redeal.low-hand", "variant.redeal.poor-talon",
                    "variant.ace-marriage", "variant.bolt.window"]


def test_the_computer_game_switches_on_its_options():
    rs = load_ruleset("computer-game")
    assert rs.resolved.overlays == COMPUTER_OPTIONS
    assert (rs.param("bolt_window"), rs.param("bolt_when"), rs.param("poor_talon_mode")) == (
        "consecutive", "zero-points", "always")


def test_the_computer_game_redeals_a_poor_talon_at_any_bid():
    hands = {2: "AS 10S AC 10C AD 10D AH"}
    t = Table(load_ruleset("computer-game"), hands=hands, talon="9S 9C JD", dealer=0)
    t.act(2, "bid", value=110).act(0, "pass").act(1, "pass")
    t.act(2, "take-talon").act(2, "redeal-poor-talon")
    assert t.game.phase == "dealing" and t.v["score"] == [0, 0, 0]
    at_hundred = Table(ruleset(overlays=["variant.redeal.poor-talon"]), hands=hands, talon="9S 9C JD", dealer=0)
    at_hundred.act(2, "bid", value=110).act(0, "pass").act(1, "pass").act(2, "take-talon")
    assert at_hundred.rejects(2, "redeal-poor-talon").reason == "bid-was-raised"


@pytest.mark.parametrize("name", ["computer-game", "four-computer-game"])
def test_the_computer_game_presets_play_whole_games(name):
    random_games(name)
