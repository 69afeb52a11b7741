"""The four-handed game (variants/players-4/): the idle dealer, the first word, the observer's score, the dummy,
and the four-handed presets.
"""


import pytest
from positions import random_games
from support import Table, ruleset

from oracle import Action, Game, load_ruleset
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
