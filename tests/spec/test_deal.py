"""The deal (spec/deal/): its structure, hands and talon, dealing after the cut, the exposed card, the rotation."""

import pytest
from positions import HANDS, PACK, PLAY_99, PLAY_113, TALON, c, deal_action, played_through
from support import Table, ruleset

from oracle import Action, Game
from oracle.errors import OracleError, RuleRuntimeError


def conceded(dealer=0, **params) -> Table:
    """Everybody passes, the forced hundred takes the talon and concedes."""
    t = Table(dealer=dealer, **params)
    seat = t.v["bidder"]
    t.win_auction(seat)
    t.act(seat, "take-talon").act(seat, "concede")
    return t


def cut_game(dealer=0, **params) -> Game:
    return Game(ruleset(cut_modelled=True, **params), dealer=dealer, seed=0)


def shuffle(g: Game, order=PACK) -> Game:
    g.apply(Action("shuffle", g.v["dealer"], {"order": list(order)}))
    return g


def cut(g: Game, at: int) -> Game:
    g.apply(Action("cut", g.v["turn"], {"at": at}))
    return g


def deal_of(stock, dealer=0, talon_at=(3, 4, 5), per_pass=1) -> dict:
    """The pack dealt in order from the dealer's left, ``per_pass`` cards at a time, the talon set aside."""
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    hands: list[list[int]] = [[], [], []]
    talon = []
    k = 0
    for i, card in enumerate(stock):
        if i in talon_at:
            talon.append(card)
        else:
            hands[order[(k // per_pass) % 3]].append(card)
            k += 1
    return {"hands": hands, "talon_cards": talon}


def rejection(g: Game, payload: dict):
    rej = g.check(deal_action(g, payload))
    assert rej is not None, "the deal was legal"
    return rej.rule_id, rej.reason


def swapped(payload: dict) -> dict:
    """The same cards, with the first cards of seats 0 and 1 exchanged."""
    hands = [list(h) for h in payload["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return {"hands": hands, "talon_cards": list(payload["talon_cards"])}


# ================================================================== deal.structure


def test_game_starts_with_the_whole_pack_ready_to_deal():
    g = Game(ruleset())
    assert g.phase == "dealing"
    assert g.v["stock"] == PACK
    assert g.v["hand"] == [[], [], []] and g.v["talon"] == []
    assert g.v["active"] == [0, 1, 2] and g.v["turn"] is None


def test_every_deal_starts_with_all_cards_back_and_fresh_state():
    t = played_through()
    v = t.v
    assert t.game.phase == "dealing" and len(t.game.sheet) == 1
    assert sorted(v["stock"]) == PACK
    assert v["hand"] == [[], [], []] and v["won"] == [[], [], []] and v["talon"] == [] and v["trick"] == []
    assert v["declarer"] is None and v["contract"] == 0 and v["taken"] is False
    assert v["tricks_won"] == [0, 0, 0] and v["delta"] == [0, 0, 0] and v["received"] == [0, 0, 0]
    assert v["active"] == [0, 1, 2] and v["turn"] is None
    # And the next deal can be dealt.
    t.deal({})
    assert t.game.phase == "bidding" and [len(t.hand(s)) for s in range(3)] == [7, 7, 7]


def test_a_deal_goes_deal_auction_talon_play_scoring():
    t = Table(hands=HANDS, talon=TALON)
    assert t.game.phase == "bidding"
    t.win_auction(1)
    assert t.game.phase == "talon"
    t.act(1, "take-talon").act(1, "give", card="JC", to=0).act(1, "give", card="JD", to=2)
    t.act(1, "announce", value=100)
    assert t.game.phase == "play"
    t.play(*PLAY_99)
    assert t.game.phase == "dealing" and len(t.game.sheet) == 1


# ================================================================== deal.hand-size-3p (the deal)


def test_deal_gives_seven_cards_each_and_three_to_the_talon():
    g = Game(ruleset())
    payload = deal_of(PACK)
    g.apply(deal_action(g, payload))
    assert g.phase == "bidding"
    assert [sorted(h) for h in g.v["hand"]] == [sorted(h) for h in payload["hands"]]
    assert g.v["talon"] == [3, 4, 5] and g.v["stock"] == []


def test_drawn_deal_is_legal():
    for seed in range(5):
        g = Game(ruleset(), seed=seed)
        g.apply(g.sample())
        assert [len(h) for h in g.v["hand"]] == [7, 7, 7] and len(g.v["talon"]) == 3


def test_only_the_dealer_deals():
    g = Game(ruleset(), dealer=1)
    rej = g.check(Action("deal", 0, deal_of(PACK)))
    assert rej is not None and rej.reason == "not-your-turn"
    assert g.check(Action("deal", 1, deal_of(PACK))) is None


def test_deal_needs_one_hand_per_seat():
    g = Game(ruleset())
    p = deal_of(PACK)
    assert rejection(g, {"hands": p["hands"][:2], "talon_cards": p["talon_cards"]}) == \
        ("deal.hand-size-3p", "wrong-number-of-hands")


def test_deal_needs_seven_cards_a_hand():
    g = Game(ruleset())
    p = deal_of(PACK)
    hands = [p["hands"][0] + [p["hands"][1][0]], p["hands"][1][1:], p["hands"][2]]
    assert rejection(g, {"hands": hands, "talon_cards": p["talon_cards"]}) == ("deal.hand-size-3p", "wrong-hand-size")


def test_deal_needs_a_talon_of_three():
    g = Game(ruleset())
    p = deal_of(PACK)
    assert rejection(g, {"hands": p["hands"], "talon_cards": p["talon_cards"][:2]}) == \
        ("deal.hand-size-3p", "wrong-talon-size")


def test_deal_must_use_exactly_the_pack():
    g = Game(ruleset())
    p = deal_of(PACK)
    hands = [list(h) for h in p["hands"]]
    hands[0][0] = hands[1][0]  # one card twice, one missing
    assert rejection(g, {"hands": hands, "talon_cards": p["talon_cards"]}) == ("deal.hand-size-3p", "not-the-pack")


def test_hand_and_talon_sizes_are_parameters():
    g = Game(ruleset(hand_size=6, talon_size=6))
    assert rejection(g, deal_of(PACK)) == ("deal.hand-size-3p", "wrong-hand-size")
    six = {"hands": [PACK[0:6], PACK[6:12], PACK[12:18]], "talon_cards": PACK[18:24]}
    g.apply(deal_action(g, six))
    assert g.phase == "bidding" and len(g.v["talon"]) == 6
    assert rejection(Game(ruleset()), six) == ("deal.hand-size-3p", "wrong-hand-size")
    t = Table(hand_size=6, talon_size=6)
    t.win_auction(1)
    t.act(1, "take-talon")
    assert len(t.hand(1)) == 12


def test_talon_size_alone_is_checked():
    g = Game(ruleset(talon_size=4))
    assert rejection(g, deal_of(PACK)) == ("deal.hand-size-3p", "wrong-talon-size")
    g2 = Game(ruleset(hand_size=8, talon_size=0))
    eight = {"hands": [PACK[0:8], PACK[8:16], PACK[16:24]], "talon_cards": []}
    g2.apply(deal_action(g2, eight))
    assert g2.v["talon"] == [] and g2.phase == "bidding"


def test_without_the_cut_any_arrangement_of_the_pack_is_a_deal():
    g = Game(ruleset())
    g.apply(deal_action(g, swapped(deal_of(PACK, talon_at=(21, 22, 23)))))
    assert g.phase == "bidding"


def _cut_plain(**params) -> Game:
    g = cut_game(**params)
    return cut(shuffle(g), 2)  # 10S at the bottom: nothing to decide


# ------------------------------------------------------------------ dealing after a cut


def test_after_a_cut_the_hands_are_the_pack_dealt_one_card_at_a_time():
    g = _cut_plain()
    assert g.phase == "dealing"
    payload = deal_of(g.v["stock"])
    assert rejection(g, swapped(payload)) == ("deal.hand-size-3p", "not-dealt-from-the-pack")
    assert rejection(g, deal_of(g.v["stock"], per_pass=7)) == ("deal.hand-size-3p", "not-dealt-from-the-pack")
    g.apply(deal_action(g, payload))
    assert g.phase == "bidding"
    # The dealer's last card is the bottom card.
    assert g.v["stock"] == [] and c("10S") in g.v["hand"][0]


def test_the_deal_starts_left_of_the_dealer():
    g = cut_game(dealer=1)
    cut(shuffle(g), 2)
    stock = list(g.v["stock"])
    assert rejection(g, deal_of(stock, dealer=0)) == ("deal.hand-size-3p", "not-dealt-from-the-pack")
    g.apply(deal_action(g, deal_of(stock, dealer=1)))
    assert stock[0] in g.v["hand"][2]


def test_cards_per_pass_is_a_parameter():
    # Seven cards at a time: each player gets a packet of seven in turn.
    g = _cut_plain(cards_per_pass=7)
    stock = list(g.v["stock"])
    assert rejection(g, deal_of(stock)) == ("deal.hand-size-3p", "not-dealt-from-the-pack")
    g.apply(deal_action(g, deal_of(stock, per_pass=7)))
    assert g.phase == "bidding"
    assert sorted(g.v["hand"][1]) == sorted(stock[:3] + stock[6:10])


def test_packets_that_do_not_divide_the_hand_are_refused_at_the_start():

    with pytest.raises(RuleRuntimeError, match="cards_per_pass must divide hand_size") as info:
        _cut_plain(cards_per_pass=2)
    assert "deal.hand-size-3p" in str(info.value)


def test_talon_is_set_aside_during_the_deal_by_default():
    g = _cut_plain()
    last3 = deal_of(g.v["stock"], talon_at=(21, 22, 23))
    assert rejection(g, last3) == ("deal.hand-size-3p", "not-dealt-from-the-pack")


def test_talon_after_the_deal_is_the_last_cards():
    g = _cut_plain(talon_placement="after-deal")
    g.apply(deal_action(g, deal_of(g.v["stock"], talon_at=(21, 22, 23))))
    assert g.phase == "bidding"


def test_talon_after_the_deal_cannot_come_from_the_top():
    g = _cut_plain(talon_placement="after-deal")
    assert rejection(g, deal_of(g.v["stock"], talon_at=(0, 1, 2))) == \
        ("deal.hand-size-3p", "not-dealt-from-the-pack")


@pytest.mark.parametrize(("talon_at", "legal"), [((2, 3, 4), False), ((3, 4, 5), True), ((18, 19, 20), True),
                                                 ((19, 20, 21), False)])
def test_talon_is_never_from_the_first_or_last_three_cards(talon_at, legal):
    g = _cut_plain()
    payload = deal_of(g.v["stock"], talon_at=talon_at)
    if legal:
        assert g.check(deal_action(g, payload)) is None
    else:
        assert rejection(g, payload) == ("deal.hand-size-3p", "not-dealt-from-the-pack")


def test_talon_margin_is_a_parameter():
    g = _cut_plain(talon_margin=0)
    assert g.check(deal_action(g, deal_of(g.v["stock"], talon_at=(0, 1, 23)))) is None
    g4 = _cut_plain(talon_margin=4)
    assert rejection(g4, deal_of(g4.v["stock"], talon_at=(3, 4, 5))) == \
        ("deal.hand-size-3p", "not-dealt-from-the-pack")
    assert g4.check(deal_action(g4, deal_of(g4.v["stock"], talon_at=(4, 5, 6)))) is None


def test_drawn_deal_after_a_cut_deals_the_pack_in_order():
    g = _cut_plain(talon_placement="after-deal")
    assert g.sample().payload == deal_of(g.v["stock"], talon_at=(21, 22, 23))
    g7 = _cut_plain(talon_placement="after-deal", cards_per_pass=7)
    assert g7.sample().payload == deal_of(g7.v["stock"], talon_at=(21, 22, 23), per_pass=7)


def test_only_a_chance_action_is_drawn():
    g = Game(ruleset(), seed=0)
    with pytest.raises(OracleError, match="'bid' is not a chance action"):
        g.sample(g.rs.actions["bid"])
    assert g.sample().kind == "deal"


def test_drawn_deal_after_a_cut_sets_the_talon_aside_within_the_margin():
    for seed in range(5):
        g = Game(ruleset(cut_modelled=True), seed=seed)
        cut(shuffle(g), 2)
        stock = list(g.v["stock"])
        action = g.sample()
        positions = sorted(stock.index(x) for x in action.payload["talon_cards"])
        assert all(3 <= p < 21 for p in positions)
        assert action.payload == deal_of(stock, talon_at=tuple(positions))
        g.apply(action)
        assert g.phase == "bidding"


# ================================================================== deal.cut.method


def test_the_cut_is_not_modelled_by_default():
    g = Game(ruleset())
    assert g.phase == "dealing"
    rej = g.check(Action("shuffle", 0, {"order": PACK}))
    assert rej is not None and rej.reason == "wrong-phase"


def test_modelled_cut_starts_with_the_dealers_shuffle():
    g = cut_game()
    assert g.phase == "cut"
    assert g.check(Action("shuffle", 1, {"order": PACK})).reason == "not-your-turn"
    assert g.check(Action("deal", 0, deal_of(PACK))).reason == "wrong-phase"


@pytest.mark.parametrize("order", [PACK[:23], [*PACK[:23], 0], [*PACK, 0]])
def test_the_shuffle_must_be_the_pack(order):
    g = cut_game()
    rej = g.check(Action("shuffle", 0, {"order": order}))
    assert (rej.rule_id, rej.reason) == ("deal.cut.method", "not-the-pack")


def test_the_shuffle_fixes_the_order_and_the_player_on_the_right_cuts():
    order = PACK[::-1]
    g = shuffle(cut_game(), order)
    assert g.v["stock"] == order and g.v["shuffled_done"] is True
    assert g.v["turn"] == 2
    assert g.check(Action("shuffle", 0, {"order": PACK})).reason == "not-now"
    g1 = shuffle(cut_game(dealer=1))
    assert g1.v["turn"] == 0


def test_cutter_left_of_dealer_is_a_parameter():
    g = shuffle(cut_game(cutter="left-of-dealer"))
    assert g.v["turn"] == 1
    assert g.check(Action("cut", 2, {"at": 2})).reason == "not-your-turn"
    cut(g, 2)
    assert g.phase == "dealing"


def test_the_cut_puts_the_top_packet_under_the_rest():
    g = cut(shuffle(cut_game()), 2)
    assert g.v["stock"] == PACK[2:] + PACK[:2]
    assert g.v["cut_done"] is True and g.phase == "dealing"


@pytest.mark.parametrize("at", [0, 24])
def test_the_cut_leaves_cards_on_both_sides(at):
    g = shuffle(cut_game())
    rej = g.check(Action("cut", 2, {"at": at}))
    assert (rej.rule_id, rej.reason) == ("deal.cut.method", "not-available")


def test_nine_at_the_bottom_lets_the_dealer_ask_for_a_recut():
    g = cut(shuffle(cut_game()), 1)  # 9S at the bottom
    assert g.v["stock"][-1] == c("9S")
    assert g.phase == "cut" and g.v["cut_choice"] == "nine" and g.v["turn"] == 0
    assert g.v["nines_seen"] == 1 and ("nine-at-bottom", 2) in g.st.marks
    assert sorted(a.kind for a in g.legal_actions()) == ["accept-cut", "recut"]
    g.apply(Action("recut", 0))
    assert g.v["cut_choice"] == "" and g.v["turn"] == 2 and g.phase == "cut"
    cut(g, 3)
    assert g.phase == "dealing" and g.v["stock"][-1] == c("QS")


def test_nine_at_the_bottom_may_be_accepted():
    g = cut(shuffle(cut_game()), 1)
    g.apply(Action("accept-cut", 0))
    assert g.phase == "dealing" and g.v["stock"][-1] == c("9S")
    g.apply(deal_action(g, deal_of(g.v["stock"])))
    assert c("9S") in g.v["hand"][0]


def test_nine_recut_mandatory_is_a_parameter():
    g = cut(shuffle(cut_game(nine_recut="mandatory")), 1)
    assert g.phase == "cut" and g.v["cut_choice"] == "" and g.v["turn"] == 2
    assert g.check(Action("accept-cut", 2)).reason == "not-now"
    assert g.check(Action("recut", 2)).reason == "not-now"
    cut(g, 3)  # QS to the bottom
    assert g.phase == "dealing" and g.v["nines_seen"] == 1


def _three_nines(**params) -> Game:
    """9S, then 9C, then 9D at the bottom: the pack in order is cut at 1, then at 6, then at 6."""
    g = cut(shuffle(cut_game(**params)), 1)
    for _ in range(2):
        if g.v["cut_choice"] == "nine":
            g.apply(Action("recut", 0))
        cut(g, 6)
    return g


def test_third_nine_costs_the_cutter_the_penalty():
    g = cut(shuffle(cut_game()), 1)
    g.apply(Action("recut", 0))
    cut(g, 6)
    assert g.v["stock"][-1] == c("9C") and g.v["nines_seen"] == 2
    assert g.v["cut_choice"] == "nine" and g.v["delta"] == [0, 0, 0]
    g.apply(Action("recut", 0))
    cut(g, 6)
    assert g.v["stock"][-1] == c("9D")
    assert g.v["delta"] == [0, 0, -120] and ("three-nines", 2) in g.st.marks
    assert g.phase == "dealing"


def test_third_nine_in_the_mandatory_version():
    g = _three_nines(nine_recut="mandatory")
    assert g.v["nines_seen"] == 3 and g.v["delta"] == [0, 0, -120] and g.phase == "dealing"


@pytest.mark.parametrize(("limit", "cuts_to_penalty"), [(1, 1), (2, 2)])
def test_nines_for_penalty_is_a_parameter(limit, cuts_to_penalty):
    g = cut(shuffle(cut_game(nines_for_penalty=limit)), 1)
    for _ in range(cuts_to_penalty - 1):
        assert g.v["delta"] == [0, 0, 0]
        g.apply(Action("recut", 0))
        cut(g, 6)
    assert g.v["delta"] == [0, 0, -120] and g.phase == "dealing"


def test_the_nine_penalty_is_written_on_the_score_sheet():
    g = cut(shuffle(cut_game(nines_for_penalty=1)), 1)
    g.apply(g.sample())
    for kind, seat in [("pass", 2), ("pass", 0), ("take-talon", 1), ("concede", 1)]:
        g.apply(Action(kind, seat))
    row = g.sheet[-1]
    assert ["three-nines", 2] in row["marks"]
    assert row["score"] == [60, -100, -60]
    assert row["delta"] == [60, -100, -60]


def test_the_nine_penalty_follows_the_cutter():
    g = _three_nines(cutter="left-of-dealer")
    assert g.v["delta"] == [0, -120, 0]


def test_jack_at_the_bottom_may_be_buried():
    g = cut(shuffle(cut_game()), 3)  # JS at the bottom
    assert g.v["cut_choice"] == "jack" and g.v["turn"] == 0 and g.phase == "cut"
    assert {a.kind for a in g.legal_actions()} == {"bury-jack", "accept-cut"}
    before = list(g.v["stock"])
    g.apply(Action("bury-jack", 0, {"at": 10}))
    assert g.v["stock"] == [*before[:10], c("JS"), *before[10:23]]
    assert g.phase == "dealing" and g.v["cut_choice"] == ""


def test_jack_at_the_bottom_may_be_kept():
    g = cut(shuffle(cut_game()), 3)
    g.apply(Action("accept-cut", 0))
    assert g.phase == "dealing" and g.v["stock"][-1] == c("JS")


def test_jack_cannot_be_buried_at_the_ends():
    g = cut(shuffle(cut_game()), 3)
    assert g.check(Action("bury-jack", 0, {"at": 23})).reason == "not-available"
    assert g.check(Action("bury-jack", 0, {"at": 0})).reason == "not-available"


def test_jack_rule_dealer_cuts_once_is_a_parameter():
    g = cut(shuffle(cut_game(jack_rule="dealer-cuts-once")), 3)
    assert g.phase == "cut" and g.v["cut_choice"] == "" and g.v["turn"] == 0
    assert g.check(Action("bury-jack", 0, {"at": 10})).reason == "not-now"
    assert g.check(Action("accept-cut", 0)).reason == "not-now"
    cut(g, 4)  # the dealer's own cut brings 9C to the bottom, and that is final
    assert g.v["stock"][-1] == c("9C")
    assert g.phase == "dealing" and g.v["nines_seen"] == 0


def test_low_ranks_are_a_parameter():
    g = cut(shuffle(cut_game(low_ranks=["10", "Q"])), 1)  # a nine no longer matters
    assert g.phase == "dealing"
    g2 = cut(shuffle(cut_game(low_ranks=["10", "Q"])), 2)  # 10S plays the nine's part
    assert g2.v["cut_choice"] == "nine"
    g3 = cut(shuffle(cut_game(low_ranks=["10", "Q"])), 4)  # QS plays the jack's part
    assert g3.v["cut_choice"] == "jack"
    g4 = cut(shuffle(cut_game()), 4)
    assert g4.phase == "dealing"


def test_every_deal_is_cut_again():
    g = cut(shuffle(cut_game()), 2)
    g.apply(deal_action(g, deal_of(g.v["stock"])))
    g.apply(Action("pass", 2))
    g.apply(Action("pass", 0))
    g.apply(Action("take-talon", 1))
    g.apply(Action("concede", 1))
    assert g.phase == "cut" and g.v["shuffled_done"] is False and g.v["cut_done"] is False
    assert sorted(g.v["stock"]) == PACK


# ================================================================== deal.exposed-card


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_exposed_card_costs_the_dealer_120_and_the_next_player_deals(seat):
    t = Table(dealer=0, scores=[100, 50, 50])
    t.act(seat, "expose-card")
    row = t.last
    assert row["dealer"] == 0 and row["delta"] == [-120, 0, 0] and row["score"] == [-20, 50, 50]
    assert ["exposed-card", 0] in row["marks"]
    assert t.v["score"] == [-20, 50, 50]
    assert t.v["dealer"] == 1 and t.game.phase == "dealing" and t.v["hand"] == [[], [], []]


def test_exposed_card_costs_the_standard_penalty():
    # 000 line 80: a penalty of 100 changes every penalty, the exposed card's included.
    for penalty in (120, 100):
        t = Table(dealer=2, penalty=penalty)
        t.act(0, "expose-card")
        assert t.last["delta"] == [0, 0, -penalty] and t.v["score"] == [0, 0, -penalty]
        assert t.v["dealer"] == 0
    t = Table(ruleset("classic", ["variant.penalty-amount"]), dealer=2)
    t.act(0, "expose-card")
    assert t.last["delta"] == [0, 0, -100]


@pytest.mark.parametrize("first", ["pass", "bid"])
def test_exposed_card_only_before_the_auction(first):
    t = Table(dealer=0)
    if first == "pass":
        t.act(2, "pass")
    else:
        t.act(2, "bid", value=105)
    rej = t.rejects(0, "expose-card")
    assert (rej.rule_id, rej.reason) == ("deal.exposed-card", "too-late")


# ================================================================== deal.rotation


def test_after_a_deal_the_player_on_the_left_deals():
    t = played_through()
    assert t.last["dealer"] == 0
    assert t.v["dealer"] == 1 and t.game.phase == "dealing"


def test_after_a_rospis_the_same_dealer_deals_again():
    t = conceded(dealer=0)
    assert t.last["conceded"] is True
    assert t.v["dealer"] == 0 and t.game.phase == "dealing"


@pytest.mark.parametrize(("dealer", "next_dealer"), [(0, 1), (1, 2), (2, 0)])
def test_rospis_dealer_next_is_a_parameter(dealer, next_dealer):
    t = conceded(dealer=dealer, rospis_dealer="next")
    assert t.v["dealer"] == next_dealer and t.game.phase == "dealing"


def test_the_deal_goes_round_the_table():
    t = Table(dealer=0, rospis_dealer="next")
    dealers = []
    for _ in range(4):
        dealers.append(t.v["dealer"])
        seat = t.v["bidder"]
        t.win_auction(seat)
        t.act(seat, "take-talon").act(seat, "concede")
        t.deal({})
    assert dealers == [0, 1, 2, 0]
    assert [r["dealer"] for r in t.game.sheet] == [0, 1, 2, 0]


def test_no_new_deal_once_the_game_is_won():
    t = played_through(PLAY_113, scores=[0, 900, 0])
    assert t.last["score"][1] == 1000
    assert t.game.over and t.game.phase == "over"
    assert t.v["dealer"] == 0 and len(t.game.sheet) == 1
