"""The two-handed game (variants/players-2/): seating and dealing, two talons, the talon choice, the discard, the
second talon, роспись, contracts, the barrel, and the two-handed presets.
"""

import random

import pytest
from support import Table, ruleset

from oracle import Action, Game, load_ruleset, play_random
from oracle.errors import RuleRuntimeError, RulesetError

PRESETS = ["two-trading", "two-bank", "two-one-card", "two-last-trick", "two-talon-to-opponent", "two-first-way",
           "two-dead-hand", "two-draw-pile"]


# The overlays of a ten-card game, every parameter left at its default.
BASE = ["players-2.seating-and-dealing", "players-2.deal-10-two-talons", "players-2.talon-choice",
        "players-2.talon-points", "players-2.discard", "players-2.second-talon", "players-2.rospis",
        "players-2.contract-scoring"]


# Ten cards each, dealer 0: seat 1 holds the hundred and wins it when seat 0 passes. Stack 0 is 10D 9D,
# stack 1 is JC 9C. Seat 1 takes stack 0 and gets rid of 10D and 9D.
HANDS = {1: "AS 10S KS QS JS 9S AC 10C KC 9H", 0: "AH 10H KH QH JH QC AD JD KD QD"}


TALON = "10D 9D JC 9C"


# Seat 1 wins nine tricks (97 card points) and declares spades (40) on the second lead; seat 0 takes the
# last trick, 9H under AH (11).
PLAY = ["AS", "QD", "KS!", "KD", "QS", "JD", "10S", "AD", "JS", "JH", "9S", "QH", "AC", "QC", "10C", "KH",
        "KC", "10H", "9H", "AH"]


def base(**params):
    return ruleset("classic", BASE, **params)


def at_talon(rs, hands=HANDS, talon=TALON, scores=None, state=None):
    """Seat 0 (the dealer) passes at once: seat 1 plays the hundred and is about to take his stack."""
    t = Table(rs, hands=hands, talon=talon, dealer=0, scores=scores, state=state)
    t.win_auction(1)
    assert t.game.phase == "talon"
    return t


def ten(rs, contract=100, lay=("10D", "9D"), stack=0, scores=None, state=None, moves=PLAY):
    """The standard ten-card deal: seat 1 takes a stack, lays two cards away, announces and plays out."""
    t = at_talon(rs, scores=scores, state=state)
    t.act(1, "take-talon", stack=stack)
    for c in lay:
        t.act(1, "discard", card=c)
    t.act(1, "announce", value=contract)
    t.play(*moves)
    assert t.game.phase in ("dealing", "over"), "the deal should be over"
    return t


def row(t):
    return t.last["delta"], t.last["taken_points"]


# ------------------------------------------------------------------ players-2.seating-and-dealing


def test_two_seats_the_non_dealer_holds_the_hundred_and_the_dealer_speaks_first():
    t = Table(base(), hands=HANDS, talon=TALON, dealer=0)
    assert t.v["n_seats"] == 2
    assert (t.v["bid"], t.v["bidder"], t.v["turn"]) == (100, 1, 0)
    t.act(0, "bid", value=105)
    assert t.v["turn"] == 1
    t.act(1, "pass")
    assert (t.v["declarer"], t.v["contract"], t.game.phase) == (0, 105, "talon")


def test_bids_stop_at_300():
    t = Table(base(), hands=HANDS, talon=TALON, dealer=0)
    # Seat 0 holds the hearts and diamonds marriages: 120 + 180 lets him bid 300, but never 305.
    assert t.rejects(0, "bid", value=305).reason == "over-max-bid"
    t.act(0, "bid", value=300)
    assert t.v["bid"] == 300


def test_a_trick_is_two_cards_and_no_marriage_on_the_first_lead():
    t = at_talon(base())
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    t.act(1, "announce", value=100)
    assert t.v["turn"] == 1, "the declarer leads"
    assert t.rejects(1, "play", card="KS", marriage=True).reason == "marriage-too-early"
    t.play("AS", "QD")
    assert t.v["trick"] == [] and len(t.v["won"][1]) == 2 and t.v["turn"] == 1


def test_the_deal_alternates():
    t = ten(base())
    assert t.v["dealer"] == 1
    assert t.v["stock"] and len(t.v["stock"]) == 24


# ------------------------------------------------------------------ players-2.deal-10-two-talons


def test_ten_cards_each_and_four_in_the_talon():
    t = at_talon(base())
    assert [len(h) for h in t.v["hand"]] == [10, 10] and len(t.v["talon"]) == 4


def test_a_deal_of_seven_cards_is_rejected():
    g = Game(base(), dealer=0, seed=0)
    cards = sorted(g.v["stock"])
    bad = Action("deal", 0, {"hands": [cards[:7], cards[7:14]], "talon_cards": cards[14:]})
    assert g.check(bad).reason == "wrong-hand-size"
    good = Action("deal", 0, {"hands": [cards[:10], cards[10:20]], "talon_cards": cards[20:]})
    assert g.check(good) is None


# ------------------------------------------------------------------ players-2.talon-choice


def test_the_declarer_chooses_a_stack_and_shows_it():
    t = at_talon(base())
    assert [x for x in t.legal(1) if "take-talon" in x] == ["1 take-talon stack=0", "1 take-talon stack=1"]
    assert t.game.chance_action() is None
    t.act(1, "take-talon", stack=1)
    assert {"JC", "9C"} <= set(t.hand(1)) and len(t.hand(1)) == 12
    assert [t.name(c) for c in t.v["talon"]] == ["10D", "9D"]
    # Taken at the bare hundred, and still shown (F0 91).
    assert t.v["talon_shown"] is True and t.v["stack_taken"] == 1 and t.v["took"] == 2


def test_a_stack_is_taken_once_and_must_exist():
    t = at_talon(base())
    rej = t.rejects(1, "take-talon", stack=2)
    assert (rej.rule_id, rej.reason) == ("talon.to-winner", "no-such-stack")
    t.act(1, "take-talon", stack=0)
    assert t.rejects(1, "take-talon", stack=1).reason == "talon-already-taken"


def test_the_hidden_hundred_can_be_restored():
    t = at_talon(base(hundred_talon_hidden=True))
    t.act(1, "take-talon", stack=0)
    assert t.v["talon_shown"] is False


def test_a_random_stack_is_a_chance_action():
    t = at_talon(base(talon_choice="random"))
    assert t.rejects(1, "take-talon", stack=0).reason == "stack-drawn-at-random"
    assert t.game.chance_action().name == "draw-stack"
    assert t.rejects(1, "draw-stack", stack=5).reason == "no-such-stack"
    drawn = t.game.sample()
    assert drawn.kind == "draw-stack" and drawn.payload["stack"] in (0, 1)
    t.act(1, "draw-stack", stack=1)
    assert {"JC", "9C"} <= set(t.hand(1)) and t.v["stack_taken"] == 1
    assert t.game.chance_action() is None


def test_no_random_draw_when_the_declarer_chooses():
    t = at_talon(base())
    assert t.rejects(1, "draw-stack", stack=0).reason == "not-now"


# ------------------------------------------------------------------ players-2.discard and talon-points


def test_the_declarer_lays_away_as_many_cards_as_he_took():
    t = at_talon(base())
    assert t.rejects(1, "discard", card="9H").reason == "talon-not-taken"
    t.act(1, "take-talon", stack=0)
    assert t.rejects(1, "announce", value=100).reason == "cards-not-laid-away"
    t.act(1, "discard", card="10D").act(1, "discard", card="9D")
    assert sorted(t.name(c) for c in t.v["laid_away"]) == ["10D", "9D"]
    assert t.rejects(1, "discard", card="9H").reason == "nothing-to-lay-away"
    t.act(1, "announce", value=100)
    assert t.game.phase == "play" and [len(h) for h in t.v["hand"]] == [10, 10]


def test_the_laid_away_cards_count_for_the_declarer():
    # 97 in tricks + 40 + 10 laid away = 147; seat 0 takes 11 and the last trick's stack JC 9C (2).
    t = ten(base(), contract=140)
    assert row(t) == ([13, 140], [13, 147])
    assert t.last["tricks_won"] == [1, 9]


def test_the_laid_away_cards_can_count_for_nobody():
    t = ten(base(laid_away_points="nobody"), contract=140)
    assert row(t) == ([13, -140], [13, 137])


def test_cards_out_of_play_go_back_to_the_pack():
    t = ten(base(unused_talon="nobody"))
    assert t.v["laid_away"] == [] and t.v["talon"] == [] and len(t.v["stock"]) == 24


@pytest.mark.parametrize(("mode", "talon", "laid"), [
    ("onto-other-talon", ["JC", "9C", "10D", "9D"], []),
    ("one-into-remaining-talon", ["JC", "9C", "10D"], ["9D"]),
])
def test_cards_laid_onto_the_other_talon(mode, talon, laid):
    t = at_talon(base(two_discard=mode))
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    assert [t.name(c) for c in t.v["talon"]] == talon
    assert [t.name(c) for c in t.v["laid_away"]] == laid


def test_one_card_to_the_opponent_and_nothing_laid_away():
    t = at_talon(base(two_discard="one-to-opponent", cards_to_each_opponent=1))
    t.act(1, "take-talon", stack=0)
    assert t.rejects(1, "discard", card="9D").reason == "nothing-to-lay-away"
    t.act(1, "give", card="9D", to=0).act(1, "announce", value=100)
    assert [len(h) for h in t.v["hand"]] == [11, 11]


def test_settings_that_leave_the_hands_unequal_are_stopped():
    t = at_talon(base(two_discard="none"))
    t.act(1, "take-talon", stack=0)
    with pytest.raises(RuleRuntimeError, match="unequal"):
        t.act(1, "announce", value=100)


# ------------------------------------------------------------------ players-2.second-talon


def test_the_unused_talon_goes_to_the_last_trick():
    t = ten(base())
    assert row(t) == ([13, 100], [13, 147])


def test_the_unused_talon_can_count_for_nobody():
    t = ten(base(unused_talon="nobody"))
    assert row(t) == ([11, 100], [11, 147])


def test_the_unused_talon_can_go_to_the_opponent():
    t = at_talon(base(unused_talon="opponent", two_discard="none"))
    t.act(1, "take-talon", stack=0).act(1, "announce", value=100)
    assert t.v["talon"] == [] and {"JC", "9C"} <= set(t.hand(0))
    assert [len(h) for h in t.v["hand"]] == [12, 12]


# ------------------------------------------------------------------ players-2.rospis


def test_conceding_before_laying_away():
    t = at_talon(base(), scores=[0, 200])
    t.act(1, "take-talon", stack=0).act(1, "concede")
    assert t.last["delta"] == [60, -100] and t.v["score"] == [60, 100]
    assert t.v["dealer"] == 0, "the same dealer deals again"


def test_too_late_to_concede_after_laying_a_card_away():
    t = at_talon(base())
    t.act(1, "take-talon", stack=0).act(1, "discard", card="9D")
    rej = t.rejects(1, "concede")
    assert (rej.rule_id, rej.reason) == ("players-2.rospis", "rospis-timing")


def test_conceding_after_laying_away_when_the_house_says_so():
    t = at_talon(base(rospis_timing="after-passing"))
    t.act(1, "take-talon", stack=0).act(1, "discard", card="9D")
    assert t.rejects(1, "concede").reason == "rospis-timing"
    t.act(1, "discard", card="10D").act(1, "concede")
    assert t.last["delta"] == [60, -100]


# ------------------------------------------------------------------ players-2.contract-scoring


def test_a_failed_contract_costs_the_whole_contract():
    t = ten(base(), contract=150)
    assert row(t) == ([13, -150], [13, 147])


def test_the_first_way_costs_only_the_shortfall():
    # The laid-away cards lie on the other stack, which seat 0 takes with the last trick: 11 + 2 + 10.
    t = ten(load_ruleset("two-first-way"), contract=140)
    assert row(t) == ([23, -3], [23, 137])


def barrel_state(seat):
    return {"on_barrel": [s == seat for s in (0, 1)], "barrel_deals": [0, 0]}


# ------------------------------------------------------------------ players-2.barrel


def test_more_than_120_wins_from_the_barrel():
    t = ten(load_ruleset("two-first-way"), contract=125, scores=[0, 880], state=barrel_state(1))
    assert t.v["winner"] == 1 and t.v["score"] == [23, 1005]
    assert ["barrel-exit", 1] in t.last["marks"]


def test_exactly_120_does_not_win_from_the_barrel():
    t = ten(load_ruleset("two-first-way"), contract=120, scores=[0, 880], state=barrel_state(1))
    assert t.v["winner"] is None and t.v["score"] == [23, 880]
    assert t.v["on_barrel"] == [False, True] and t.v["barrel_deals"] == [0, 1]


def test_the_core_barrel_would_let_120_win():
    core = base(two_discard="onto-other-talon", failed_contract="minus-shortfall")
    t = ten(core, contract=120, scores=[0, 880], state=barrel_state(1))
    assert t.v["winner"] == 1


def test_mounting_and_falling_off_the_two_player_barrel():
    t = ten(load_ruleset("two-first-way"), contract=100, scores=[0, 800])
    assert t.v["score"] == [23, 880] and t.v["on_barrel"] == [False, True]
    t = ten(load_ruleset("two-first-way"), contract=100, scores=[0, 880],
            state={"on_barrel": [False, True], "barrel_deals": [0, 2]})
    assert t.v["score"] == [23, 760] and ["barrel-fall", 1] in t.last["marks"]


# ------------------------------------------------------------------ the presets


def trading(**params):
    """two-trading with the deal given as hands: the ruleset models F0 8's cut, the positions skip it."""
    return ruleset("two-trading", cut_modelled=False, **params)


def test_two_trading_leaves_the_unused_stack_to_nobody():
    rs = trading()
    assert rs.param("cards_to_each_opponent") == 0 and rs.param("unused_talon") == "nobody"
    t = at_talon(rs)
    t.act(1, "take-talon", stack=0)
    assert t.rejects(1, "give", card="9D", to=0).reason == "already-given"
    t = ten(rs, contract=140)
    assert row(t) == ([11, 140], [11, 147])
    assert t.last["stack_taken"] == 0 and t.last["talon_shown"] is True


def test_two_last_trick_draws_the_stack_and_splits_the_cards_laid_away():
    t = at_talon(load_ruleset("two-last-trick"))
    t.act(1, "draw-stack", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    assert [t.name(c) for c in t.v["talon"]] == ["JC", "9C", "10D"]
    t.act(1, "announce", value=100).play(*PLAY)
    # Seat 0 takes the last trick and the talon with 10D (11 + 12); 9D (0) stays with the declarer.
    assert row(t) == ([23, 100], [23, 137])


# Seat 1 takes stack 0 and gives 9D to seat 0: eleven cards each. Seat 0 beats 10D with AD, then leads AH
# to the last trick and takes the unused stack JC 9C.
PLAY_11 = ["AS", "QD", "KS!", "KD", "QS", "JD", "10S", "9D", "JS", "JH", "9S", "QH", "AC", "QC", "10C", "KH",
           "KC", "10H", "10D", "AD", "AH", "9H"]


def test_two_one_card():
    t = at_talon(load_ruleset("two-one-card"))
    t.act(1, "take-talon", stack=0)
    assert t.rejects(1, "announce", value=100).reason == "cards-not-passed"
    t.act(1, "give", card="9D", to=0).act(1, "announce", value=100).play(*PLAY_11)
    assert row(t) == ([34, 100], [34, 126])


# Both play twelve cards: seat 0 gets JC 9C when the contract is announced.
PLAY_12 = ["AS", "QD", "KS!", "KD", "QS", "JD", "10S", "JH", "JS", "QH", "9S", "KH", "AC", "QC", "10C", "JC",
           "KC", "9C", "9D", "AD", "AH", "9H", "10H", "10D"]


def f2(**params):
    """two-talon-to-opponent with the deal given as hands: the ruleset models F2 15's cut, the positions skip it."""
    return ruleset("two-talon-to-opponent", cut_modelled=False, **params)


def test_two_talon_to_opponent():
    t = at_talon(f2())
    t.act(1, "take-talon", stack=0).act(1, "announce", value=100)
    assert [len(h) for h in t.v["hand"]] == [12, 12]
    t.play(*PLAY_12)
    assert row(t) == ([42, 100], [42, 118])


BANK_HANDS = {1: "AS 10S KS QS JS 9S AC 10C 9H", 0: "AH 10H KH QH JH AD JD KD QD"}


BANK_TALON = "10D 9D KC QC JC 9C"


PLAY_BANK = ["AS", "QD", "KS!", "KD", "QS", "JD", "10S", "9D", "JS", "JH", "9S", "QH", "AC", "KH", "10C", "10H",
             "KC", "AD", "9H", "AH"]


def test_two_bank():
    t = at_talon(load_ruleset("two-bank"), hands=BANK_HANDS, talon=BANK_TALON)
    assert [len(h) for h in t.v["hand"]] == [9, 9] and len(t.v["talon"]) == 6
    t.act(1, "take-talon", stack=0).act(1, "give", card="9D", to=0).act(1, "discard", card="10D")
    assert t.rejects(1, "discard", card="9H").reason == "nothing-to-lay-away"
    assert [t.name(c) for c in t.v["talon"]] == ["QC", "JC", "9C", "10D"]
    t.act(1, "announce", value=100).play(*PLAY_BANK)
    # Seat 0 takes the last trick (11) and the bank QC JC 9C 10D (15).
    assert row(t) == ([26, 100], [26, 134])


DEAD_HANDS = {1: "AS 10S KS QS JS 9S 9H", 0: "AH 10H KH QH JH AD KD"}


DEAD_TALON = "AC 10C KC QC JC 9C QD JD 10D 9D"


PLAY_DEAD = ["AS", "KD", "KS!", "JH", "QS", "QH", "10S", "KH", "JS", "AD", "9S", "10H", "AC", "10C", "9H", "AH"]


def test_two_dead_hand():
    t = at_talon(load_ruleset("two-dead-hand"), hands=DEAD_HANDS, talon=DEAD_TALON)
    assert [t.name(c) for c in t.v["talon"]] == ["AC", "10C", "KC"] and len(t.v["dead_hand"]) == 7
    assert [x for x in t.legal(1) if "take-talon" in x] == ["1 take-talon stack=0"]
    t.act(1, "take-talon", stack=0).act(1, "give", card="10C", to=0).act(1, "discard", card="KC")
    assert t.rejects(1, "discard", card="9H").reason == "nothing-to-lay-away"
    assert len(t.v["dead_hand"]) == 8
    t.act(1, "announce", value=100)
    assert [len(h) for h in t.v["hand"]] == [8, 8]
    t.play(*PLAY_DEAD)
    # The dead hand (QC JC 9C QD JD 10D 9D and KC: 24) counts for nobody.
    assert row(t) == ([11, 100], [11, 125])
    assert t.v["dead_hand"] == [] and len(t.v["stock"]) == 24


def dead_hand_taken(**params):
    """The dead-hand deal with the talon taken: seat 1 holds AC 10C KC besides his seven cards."""
    t = at_talon(load_ruleset("two-dead-hand", params=params or None), hands=DEAD_HANDS, talon=DEAD_TALON)
    return t.act(1, "take-talon", stack=0)


def test_giving_and_laying_away_come_in_any_order_by_default():
    t = dead_hand_taken()
    t.act(1, "discard", card="KC").act(1, "give", card="10C", to=0).act(1, "announce", value=100)
    assert t.game.phase == "play"


def test_the_card_to_the_opponent_can_be_required_first():
    t = dead_hand_taken(give_discard_order="give-first")
    assert t.rejects(1, "discard", card="KC").reason == "give-before-laying-away"
    assert not [x for x in t.legal(1) if "discard" in x]
    t.act(1, "give", card="10C", to=0).act(1, "discard", card="KC").act(1, "announce", value=100)
    assert t.game.phase == "play"


def test_the_surplus_can_be_required_laid_away_first():
    t = dead_hand_taken(give_discard_order="discard-first")
    assert t.rejects(1, "give", card="10C", to=0).reason == "lay-away-before-giving"
    t.act(1, "discard", card="KC").act(1, "give", card="10C", to=0).act(1, "announce", value=100)
    assert t.game.phase == "play"


# Seat 1 gives KC and lays 10C onto the dead hand; seat 0 follows AC with KC where PLAY_DEAD has 10C.
PLAY_DEAD_KC = [("KC" if c == "10C" else c) for c in PLAY_DEAD]


@pytest.mark.parametrize("whose, delta, taken", [("nobody", [11, -125], [11, 119]),
                                                 ("declarer", [11, 125], [11, 129])])
def test_the_card_laid_onto_the_dead_hand_can_count_for_the_declarer(whose, delta, taken):
    t = dead_hand_taken(dead_hand_discard_points=whose)
    t.act(1, "give", card="KC", to=0).act(1, "discard", card="10C").act(1, "announce", value=125)
    t.play(*PLAY_DEAD_KC)
    # 119 in tricks and marriages; the ten laid away makes 129, enough for 125.
    assert row(t) == (delta, taken)
    assert t.v["dead_hand"] == [] and len(t.v["stock"]) == 24


DRAW_HANDS = {1: "AS 10S KS QS JS 9S", 0: "AH 10H KH QH JH 9H"}


DRAW_PILE = "AC 10C KC QC JC 9C AD 10D KD QD JD 9D"


PLAY_DRAW = ["AS", "9H", "KS!", "JH", "QS", "QH", "10S", "KH", "JS", "10H", "9S", "AH", "AC", "9C", "KC", "QC",
             "JC", "10C", "10D", "AD", "KD", "QD", "JD", "9D"]


def draw_table(rs=None, scores=None, state=None, hands=DRAW_HANDS, pile=DRAW_PILE):
    return Table(rs or load_ruleset("two-draw-pile"), hands=hands, talon=pile, dealer=0, scores=scores,
                 state=state)


def test_draw_pile_has_no_auction_and_the_non_dealer_leads():
    t = draw_table()
    assert t.game.phase == "play" and t.v["turn"] == 1 and t.v["declarer"] is None
    assert t.rejects(1, "bid", value=105).reason == "wrong-phase"


def test_draw_pile_the_winner_draws_first():
    t = draw_table()
    t.play("AS", "9H")
    assert t.hand(1) == sorted("10S KS QS JS 9S AC".split())
    assert t.hand(0) == sorted("AH 10H KH QH JH 10C".split())
    assert len(t.v["talon"]) == 10 and t.v["turn"] == 1


def test_draw_pile_scoring():
    t = draw_table()
    t.play(*PLAY_DRAW)
    assert t.game.phase == "dealing"
    assert row(t) == ([12, 148], [12, 148])
    assert t.last["contract"] == 0 and t.last["tricks_won"] == [1, 11] and t.v["dealer"] == 1


def test_draw_pile_with_one_card_each_goes_on_after_the_first_trick():
    rs = ruleset("two-draw-pile", hand_size=1, talon_size=22)
    t = Table(rs, hands={1: "AS", 0: "9H"}, dealer=0)
    t.play("AS", "9H")
    assert t.game.phase == "play" and [len(h) for h in t.v["hand"]] == [1, 1]


def test_draw_pile_barrel_is_won_by_points():
    t = draw_table(scores=[0, 880], state=barrel_state(1))
    t.play(*PLAY_DRAW)
    assert t.v["winner"] == 1 and t.v["score"] == [12, 1028]


def test_draw_pile_crosses_the_barrel_with_more_than_120():
    t = draw_table(scores=[0, 860])
    t.play(*PLAY_DRAW)
    assert t.v["winner"] == 1 and t.v["score"] == [12, 1008]
    t = draw_table(scores=[0, 860], rs=ruleset("two-draw-pile", barrel_exit_points=150))
    t.play(*PLAY_DRAW)
    assert t.v["winner"] is None and t.v["score"] == [12, 880] and t.v["on_barrel"] == [False, True]


def test_draw_pile_plays_with_the_core_barrel_too():
    rs = ruleset("classic", ["players-2.seating-and-dealing", "players-2.draw-pile"])
    t = draw_table(rs, scores=[0, 880], state=barrel_state(1))
    t.play(*PLAY_DRAW)
    assert t.v["winner"] is None and t.v["score"] == [12, 880], "nobody can win the core barrel without a contract"


# ------------------------------------------------------------------ overlay composition


@pytest.mark.parametrize("other", ["players-2.nine-card-bank", "players-2.dead-hand", "players-2.draw-pile"])
def test_two_deals_cannot_be_combined(other):
    with pytest.raises(RulesetError, match="incompatible"):
        ruleset("two-trading", [other])


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_keep_the_pack(name, seed):
    game = Game(load_ruleset(name), seed=seed)
    play_random(game, random.Random(seed), hinted=True, max_deals=15)
    assert sorted(game.st.cards_everywhere()) == list(range(24))
    assert game.rs.players == 2 and len(game.sheet) >= 1


# ------------------------------------------------------------------ each preset against its own page
# A position the preset's source judges one way is judged that way by the preset, and the other way by the
# setting it inherited before (the same ruleset with that one parameter back at its old value).


# F2 (two-talon-to-opponent): seat 0 holds only the spades marriage (cap 160 by the sum of marriages), seat 1
# the hearts; stacks 10D 9D and JC 9C.
F2_HANDS = {0: "KS QS AH 10H JH AD 10D JD 9D 9S", 1: "KH QH AS 10S JS AC 10C KC QC 9H"}
F2_TALON = "KD QD JC 9C"


def f2_bidding(**params):
    return Table(f2(**params), hands=F2_HANDS, talon=F2_TALON, dealer=0)


def test_f2_bids_go_up_by_exactly_five():
    assert f2_bidding().rejects(0, "bid", value=110).rule_id == "bid.step"
    f2_bidding(bid_step_mode="multiple").act(0, "bid", value=110)


def test_f2_any_marriage_opens_the_bidding():
    def up_to_165(t):
        for value in range(105, 165, 5):
            t.act(t.v["turn"], "bid", value=value)
        assert t.v["turn"] == 0
        return t
    t = up_to_165(f2_bidding())
    t.act(0, "bid", value=165)
    assert t.v["bid"] == 165, "F2 21: with a marriage in hand the bid may go above 120"
    rej = up_to_165(f2_bidding(marriage_cap_mode="sum-of-marriages")).rejects(0, "bid", value=165)
    assert rej.reason == "over-marriage-cap"


def test_f2_has_no_concession():
    t = at_talon(f2())
    t.act(1, "take-talon", stack=0)
    rej = t.rejects(1, "concede")
    assert (rej.rule_id, rej.reason) == ("talon.rospis", "no-rospis")
    t = at_talon(f2(rospis_allowed=True))
    t.act(1, "take-talon", stack=0).act(1, "concede")
    assert t.last["delta"] == [60, -100]


def f2_deal(rs, contract=100, scores=None, state=None):
    """F2 9's way: seat 1 takes stack 0, seat 0 gets the other, both play twelve cards (118 to 42)."""
    t = at_talon(rs, scores=scores, state=state)
    t.act(1, "take-talon", stack=0).act(1, "announce", value=contract).play(*PLAY_12)
    assert t.last["taken_points"] == [42, 118]
    return t


def test_f2_the_barrel_is_at_900():
    t = f2_deal(f2(), scores=[0, 850])
    assert t.v["score"][1] == 900 and t.v["on_barrel"] == [False, True]
    assert f2_deal(f2(barrel_threshold=880), scores=[0, 850]).v["score"][1] == 880


def test_f2_the_barrel_player_takes_a_talon_without_an_auction():
    t = Table(f2(), hands=HANDS, talon=TALON, dealer=0, scores=[0, 900], state=barrel_state(1))
    assert (t.game.phase, t.v["declarer"], t.v["contract"]) == ("talon", 1, 121)
    t = Table(f2(barrel_auto_talon=False), hands=HANDS, talon=TALON, dealer=0, scores=[0, 900],
              state=barrel_state(1))
    assert t.game.phase == "bidding"


# Seat 0 sits on the barrel; seat 1 (850) makes 100 as declarer and reaches it in the same deal.
def test_f2_nobody_is_knocked_off_the_barrel():
    t = f2_deal(f2(barrel_auto_talon=False), scores=[900, 850], state=barrel_state(0))
    assert t.v["on_barrel"] == [True, True] and t.v["score"] == [900, 900]
    t = f2_deal(f2(barrel_auto_talon=False, knock_off=True), scores=[900, 850], state=barrel_state(0))
    assert t.v["on_barrel"] == [False, True] and t.v["score"] == [780, 900]


# Seat 1's third deal on the barrel: he plays 121 without an auction, takes 118 and falls, for the third time.
def third_try(seat, falls=2):
    """Seat `seat` is on the barrel for his third deal, with `falls` falls behind him."""
    return {"on_barrel": [s == seat for s in (0, 1)], "barrel_deals": [2 if s == seat else 0 for s in (0, 1)],
            "barrel_falls": [falls if s == seat else 0 for s in (0, 1)]}


def test_f2_falls_never_reset_the_score():
    t = f2_deal(f2(), contract=121, scores=[0, 900], state=third_try(1))
    assert t.v["score"][1] == 780 and ["barrel-fall", 1] in t.last["marks"]
    assert f2_deal(f2(falls_limit=3), contract=121, scores=[0, 900], state=third_try(1)).v["score"][1] == 0


def test_f2_a_dark_winner_is_doubled():
    t = Table(f2(), hands=HANDS, talon=TALON, dealer=0)
    t.act(1, "go-dark").act(0, "pass")
    t.act(1, "take-talon", stack=0)
    assert t.v["talon_shown"] is False, "F2 41: the dark winner does not show the talon"
    t.act(1, "announce", value=100).play(*PLAY_12)
    assert t.last["delta"] == [42, 200]


ACES = {1: "AS AC AH AD KS QS JS 9S 10C 9H", 0: "10H KH QH JH QC JD KD QD 10S KC"}


def test_f2_four_aces_are_a_marriage_of_200():
    t = Table(f2(), hands=ACES, talon=TALON, dealer=0)
    t.win_auction(1)
    t.act(1, "take-talon", stack=0).act(1, "announce", value=100)
    t.act(1, "declare-aces").play("AS")
    assert t.v["marriage_points"] == [0, 200]


# F3 164-211 (two-first-way, two-dead-hand, two-draw-pile): the barrel of F3 204 knows only the three rounds.
def test_f3_two_player_barrel_knocks_nobody_off():
    t = ten(load_ruleset("two-first-way"), contract=100, scores=[880, 800], state=barrel_state(0))
    assert t.v["on_barrel"] == [True, True] and t.v["score"] == [880, 880]
    t = ten(ruleset("two-first-way", knock_off=True), contract=100, scores=[880, 800], state=barrel_state(0))
    assert t.v["on_barrel"] == [False, True] and t.v["score"] == [760, 880]


def test_f3_two_player_barrel_never_resets_after_falls():
    t = ten(load_ruleset("two-first-way"), contract=100, scores=[0, 880], state=third_try(1))
    assert t.v["score"][1] == 760 and t.v["barrel_falls"][1] == 3
    t = ten(ruleset("two-first-way", falls_limit=3), contract=100, scores=[0, 880], state=third_try(1))
    assert t.v["score"][1] == 0


def test_f3_the_declarer_may_concede_after_laying_away():
    t = at_talon(load_ruleset("two-first-way"))
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D").act(1, "concede")
    assert t.last["delta"] == [60, -100]
    t = at_talon(ruleset("two-first-way", rospis_timing="before-passing"))
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D")
    assert t.rejects(1, "concede").reason == "rospis-timing"


def test_f3_dead_hand_concedes_after_passing_too():
    t = at_talon(load_ruleset("two-dead-hand"), hands=DEAD_HANDS, talon=DEAD_TALON)
    t.act(1, "take-talon", stack=0).act(1, "give", card="10C", to=0).act(1, "concede")
    assert t.last["delta"] == [60, -100]


# F3 172: four aces are a marriage of 200, declared like the others (F3 200): after a trick, not on the first lead.
F3_ACES = {1: "AS AC AH AD KS QS JS 9S 10C 9H", 0: "10H KH QH JH QC JD KD QD 10S KC"}


def test_f3_four_aces_are_a_marriage_declared_after_a_trick():
    t = at_talon(load_ruleset("two-first-way"), hands=F3_ACES)
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    t.act(1, "announce", value=100)
    assert t.rejects(1, "declare-aces").reason == "marriage-too-early"
    t.play("10C", "KC")
    t.act(1, "declare-aces").play("AC")
    assert t.v["marriage_points"][1] == 200
    t = at_talon(ruleset("two-first-way", ace_marriage_timing="own-first-lead"), hands=F3_ACES)
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    t.act(1, "announce", value=100).play("10C", "KC")
    assert t.rejects(1, "declare-aces").rule_id == "variant.ace-marriage"


# F0 1-35 (the traditional rules two-trading plays by, F0 91).
def test_f0_the_dealer_holds_the_hundred():
    t = Table(trading(), hands=HANDS, talon=TALON, dealer=0)
    assert (t.v["bid"], t.v["bidder"], t.v["turn"]) == (100, 0, 1)
    t = Table(trading(forced_bidder="left-of-dealer"), hands=HANDS, talon=TALON, dealer=0)
    assert (t.v["bid"], t.v["bidder"], t.v["turn"]) == (100, 1, 0)


def test_f0_bids_are_capped_by_the_marriages_only():
    # Seat 1 holds the hearts, diamonds and clubs marriages: 120 + 240 = 360.
    hands = {1: "KH QH KD QD KC QC AS 10S 9H JS", 0: "AH 10H JH AD JD AC 10C 9S QS KS"}
    t = Table(trading(), hands=hands, talon=TALON, dealer=0)
    assert t.rejects(1, "bid", value=365).reason == "over-marriage-cap"
    t.act(1, "bid", value=355)
    assert t.v["bid"] == 355
    t = Table(trading(max_bid=300), hands=hands, talon=TALON, dealer=0)
    assert t.rejects(1, "bid", value=355).reason == "over-max-bid"


def test_f0_the_declarer_may_concede_after_laying_away():
    t = Table(trading(), hands=HANDS, talon=TALON, dealer=0).win_auction(1)
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D").act(1, "concede")
    assert t.last["delta"] == [60, -105]
    t = Table(trading(rospis_timing="before-passing"), hands=HANDS, talon=TALON, dealer=0).win_auction(1)
    t.act(1, "take-talon", stack=0).act(1, "discard", card="10D")
    assert t.rejects(1, "concede").reason == "rospis-timing"


def test_f0_a_fall_from_the_barrel_resets_the_score():
    t = Table(trading(), hands=HANDS, talon=TALON, dealer=0, scores=[0, 880], state=third_try(1, falls=0))
    t.win_auction(1).act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    t.act(1, "announce", value=150).play(*PLAY)
    assert t.v["score"][1] == 0 and ["barrel-fall", 1] in t.last["marks"]
    t = Table(trading(barrel_failure="minus-penalty"), hands=HANDS, talon=TALON, dealer=0, scores=[0, 880],
              state=third_try(1, falls=0))
    t.win_auction(1).act(1, "take-talon", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
    t.act(1, "announce", value=150).play(*PLAY)
    assert t.v["score"][1] == 760


# Seat 1 wins the auction at 105 with a weak hand; seat 0 (870) takes every trick and the hearts marriage: 213.
CROSS_HANDS = {1: "9S JS QS 9C JC QC 9H JH 9D JD", 0: "AS 10S KS AC 10C KC AH 10H KH QH"}
CROSS_TALON = "AD 10D KD QD"
CROSS_PLAY = ["JS", "AS", "KH!", "9H", "QH", "JH", "AH", "9D", "10H", "JD", "10S", "QS", "KS", "JC", "AC", "QC",
              "10C", "10D", "KC", "AD"]


def crossing(rs):
    t = Table(rs, hands=CROSS_HANDS, talon=CROSS_TALON, dealer=0, scores=[870, 0]).win_auction(1)
    t.act(1, "take-talon", stack=0).act(1, "discard", card="9S").act(1, "discard", card="9C")
    t.act(1, "announce", value=105).play(*CROSS_PLAY)
    assert t.last["taken_points"] == [213, 0]
    return t


def test_f0_whoever_reaches_1000_first_wins():
    assert crossing(trading()).v["winner"] == 0
    t = crossing(trading(cross_barrel="declarer"))
    assert t.v["winner"] is None and t.v["score"][0] == 880


# Seat 1 takes one trick, two nines (0 points), and loses the other nine: a bolt only if a bolt is "no points".
BOLT_HANDS = {1: "9H JH QH KH 9C 9D JC QC JS QS", 0: "9S AS 10S KS AC 10C KC AD 10D KD"}
BOLT_TALON = "AH 10H QD JD"
BOLT_PLAY = ["9H", "9S", "JS", "AS", "10S", "QS", "KS", "JH", "AC", "JC", "10C", "QC", "KC", "QH", "AD", "JD",
             "10D", "QD", "KD", "KH"]


def one_empty_trick(rs):
    t = Table(rs, hands=BOLT_HANDS, talon=BOLT_TALON, dealer=0).win_auction(1)
    t.act(1, "take-talon", stack=1).act(1, "discard", card="9C").act(1, "discard", card="9D")
    t.act(1, "announce", value=105).play(*BOLT_PLAY)
    assert t.last["taken_points"] == [99, 0] and t.last["tricks_won"] == [9, 1]
    return t


def test_f0_a_bolt_is_a_deal_without_a_trick():
    assert one_empty_trick(trading()).v["bolts"] == [0, 0]
    assert one_empty_trick(trading(bolt_when="zero-points")).v["bolts"] == [0, 1]


# F0 108-118 (two-bank, two-one-card): F0 118's concession is tied to nothing but the winner seeing he cannot make it.
def test_f0_118_the_winner_may_concede_after_giving_his_card():
    t = at_talon(load_ruleset("two-one-card"))
    t.act(1, "take-talon", stack=0).act(1, "give", card="9D", to=0).act(1, "concede")
    assert t.last["delta"] == [60, -100]
    t = at_talon(ruleset("two-one-card", rospis_timing="before-passing"))
    t.act(1, "take-talon", stack=0).act(1, "give", card="9D", to=0)
    assert t.rejects(1, "concede").reason == "rospis-timing"


def test_f0_118_the_nine_card_game_concedes_after_the_bank_too():
    t = at_talon(load_ruleset("two-bank"), hands=BANK_HANDS, talon=BANK_TALON)
    t.act(1, "take-talon", stack=0).act(1, "give", card="9D", to=0).act(1, "discard", card="10D").act(1, "concede")
    assert t.last["delta"] == [60, -100]


# F3 80-146 (two-last-trick): the talon at the hundred is not shown (F3 108), a bolt is a deal without a trick
# (F3 120), and only more than 1000 wins (F3 122).
def test_f3_p4_the_stack_taken_at_the_hundred_is_not_shown():
    t = at_talon(load_ruleset("two-last-trick"))
    t.act(1, "draw-stack", stack=0)
    assert t.v["talon_shown"] is False
    t = at_talon(ruleset("two-last-trick", hundred_talon_hidden=False))
    t.act(1, "draw-stack", stack=0)
    assert t.v["talon_shown"] is True


def last_trick_empty_trick(rs):
    t = Table(rs, hands=BOLT_HANDS, talon=BOLT_TALON, dealer=0).win_auction(1, bid=105)
    t.act(1, "draw-stack", stack=1).act(1, "discard", card="9C").act(1, "discard", card="9D")
    t.act(1, "announce", value=105).play(*BOLT_PLAY)
    assert t.last["taken_points"] == [120, 0] and t.last["tricks_won"] == [9, 1]
    return t


def test_f3_p4_a_bolt_is_a_deal_without_a_trick():
    assert last_trick_empty_trick(load_ruleset("two-last-trick")).v["bolts"] == [0, 0]
    assert last_trick_empty_trick(ruleset("two-last-trick", bolt_when="zero-points")).v["bolts"] == [0, 1]


def test_f3_p4_only_more_than_1000_wins():
    def from_barrel(rs):
        t = at_talon(rs, scores=[0, 880], state=barrel_state(1))
        t.act(1, "draw-stack", stack=0).act(1, "discard", card="10D").act(1, "discard", card="9D")
        return t.act(1, "announce", value=120).play(*PLAY)
    t = from_barrel(load_ruleset("two-last-trick"))
    assert t.v["winner"] is None and t.v["score"][1] == 880
    assert from_barrel(ruleset("two-last-trick", win_comparison="at-least")).v["winner"] == 1


def test_f2_bids_have_no_maximum_but_the_marriage():
    # Both hold a marriage; they bid five by five up to 305, past the 300 of the two-player pages.
    t = Table(f2(), hands=HANDS, talon=TALON, dealer=0)
    for value in range(105, 310, 5):
        t.act(t.v["turn"], "bid", value=value)
    assert t.v["bid"] == 305
    t = Table(f2(max_bid=300), hands=HANDS, talon=TALON, dealer=0)
    for value in range(105, 305, 5):
        t.act(t.v["turn"], "bid", value=value)
    assert t.rejects(t.v["turn"], "bid", value=305).reason == "over-max-bid"


# Seat 1 plays 100 with a weak hand; seat 0 (850), with the other stack, takes 92 and the hearts marriage.
F2_CROSS_PLAY = ["JS", "AS", "KH!", "9H", "QH", "JH", "AH", "9D", "10H", "JD", "10S", "QS", "KS", "9S", "AC", "9C",
                 "10C", "JC", "KC", "QC", "KD", "AD", "10D", "QD"]


def test_f2_whoever_reaches_1000_first_wins():
    def crossing(rs):
        t = at_talon(rs, hands=CROSS_HANDS, talon=CROSS_TALON, scores=[850, 0])
        t.act(1, "take-talon", stack=0).act(1, "announce", value=100).play(*F2_CROSS_PLAY)
        assert t.last["taken_points"] == [192, 28]
        return t
    assert crossing(f2()).v["winner"] == 0
    t = crossing(f2(cross_barrel="declarer"))
    assert t.v["winner"] is None and t.v["score"][0] == 900
