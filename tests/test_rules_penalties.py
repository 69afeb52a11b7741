"""Bolts, the penalty unit, and the end of the game: first to 1000 wins, ties to the higher score, then the declarer."""


import pytest
from deals import BARE, NINES, SPLIT, SWEEP, concede, marks, play_deal
from support import Table, ruleset

from oracle import Action, Game
from oracle.cards import notation

NO_BARREL = {"no_barrel": [True, True, True]}


# ---------------------------------------------------------------- the deals themselves


def test_fixed_deals_split_the_points_as_designed():
    assert play_deal(SWEEP).last["taken_points"] == [0, 120, 0]
    assert play_deal(SPLIT).last["taken_points"] == [11, 109, 0]
    nines = play_deal(NINES, first_lead="dealer").last
    assert nines["taken_points"] == [0, 120, 0] and nines["tricks_won"] == [1, 7, 0]
    bare = play_deal(BARE).last
    assert bare["taken_points"] == [0, 0, 120] and bare["tricks_won"] == [0, 0, 8]


# ---------------------------------------------------------------- bolts


def test_each_player_who_takes_nothing_gets_a_bolt():
    t = play_deal(SWEEP)
    assert t.v["bolts"] == [1, 0, 1]
    assert marks(t, "bolt") == [0, 2]
    assert marks(t, "bolt-penalty") == []
    assert t.last["delta"] == [0, 100, 0] and t.v["score"] == [0, 100, 0]


def test_bolts_are_recorded_on_the_sheet_row():
    t = play_deal(SWEEP, state={"bolts": [1, 0, 0]})
    assert t.last["bolts"] == [2, 0, 1]


def test_third_bolt_costs_the_penalty_and_the_count_starts_again():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [2, 1, 2]})
    assert t.last["delta"] == [-120, 100, -120]
    assert t.v["score"] == [180, 300, -70]  # scores may go below zero
    assert t.v["bolts"] == [0, 1, 0]
    assert marks(t, "bolt") == [0, 2]
    assert marks(t, "bolt-penalty") == [0, 2]


def test_second_bolt_is_free_by_default():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [1, 0, 1]})
    assert t.last["delta"] == [0, 100, 0]
    assert t.v["bolts"] == [2, 0, 2]
    assert marks(t, "bolt-penalty") == []


def test_house_bolt_limit_of_two_penalises_the_second_bolt():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [1, 0, 0]}, bolt_limit=2)
    assert t.last["delta"] == [-120, 100, 0]
    assert t.v["bolts"] == [0, 0, 1]
    assert marks(t, "bolt-penalty") == [0]


def test_failed_declarer_with_no_points_loses_contract_and_bolt_penalty():
    t = play_deal(BARE, scores=[0, 500, 0], state={"bolts": [0, 2, 0]})
    assert t.last["delta"] == [0, -100 - 120, 120]
    assert t.v["score"] == [0, 280, 120]
    assert t.v["bolts"] == [1, 0, 0]
    assert marks(t, "bolt") == [0, 1]
    assert marks(t, "bolt-penalty") == [1]


def test_a_trick_of_three_nines_is_a_bolt_by_default():
    t = play_deal(NINES, first_lead="dealer")
    assert t.v["bolts"] == [1, 0, 1]
    assert marks(t, "bolt") == [0, 2]


def test_no_tricks_reading_spares_a_player_who_won_the_nines():
    t = play_deal(NINES, first_lead="dealer", bolt_when="no-tricks")
    assert t.v["bolts"] == [0, 0, 1]
    assert marks(t, "bolt") == [2]


def test_no_tricks_reading_still_bolts_a_player_without_tricks():
    t = play_deal(NINES, first_lead="dealer", bolt_when="no-tricks", state={"bolts": [2, 0, 2]})
    assert t.last["delta"] == [0, 100, -120]
    assert t.v["bolts"] == [2, 0, 0]


def test_bolts_count_whether_or_not_they_are_consecutive_by_default():
    # Seat 0 scores this deal, yet keeps his two earlier bolts; seat 2 reaches his third.
    t = play_deal(SPLIT, state={"bolts": [2, 0, 2]})
    assert t.v["bolts"] == [2, 0, 0]
    assert t.last["delta"] == [11, 100, -120]


def test_consecutive_window_wipes_bolts_after_a_deal_with_points():
    t = play_deal(SPLIT, state={"bolts": [2, 1, 2]}, bolt_window="consecutive")
    assert t.v["bolts"] == [0, 0, 0]
    assert t.last["delta"] == [11, 100, -120]
    assert marks(t, "bolt-penalty") == [2]


def test_concession_gives_no_bolts():
    t = concede(state={"bolts": [2, 2, 2]})
    assert t.last["conceded"] is True
    assert t.v["bolts"] == [2, 2, 2]
    assert marks(t, "bolt") == [] and marks(t, "bolt-penalty") == []
    assert t.last["delta"] == [60, -100, 60]


# ---------------------------------------------------------------- the penalty unit



# Seat 0 sits on the barrel and takes nothing in SWEEP (seat 2 neither); nothing is written for him either way.
BOLTS_ON_BARREL = {
    "collected": {1: ([2, 0, 1], [["bolt", 0], ["bolt", 2], ["barrel-attempt", 0]]),
                  2: ([0, 0, 1], [["bolt", 0], ["bolt-penalty", 0], ["bolt", 2], ["barrel-attempt", 0]])},
    "not-collected": {1: ([1, 0, 1], [["bolt", 2], ["barrel-attempt", 0]]),
                      2: ([2, 0, 1], [["bolt", 2], ["barrel-attempt", 0]])},
}


@pytest.mark.parametrize("before", [1, 2])
@pytest.mark.parametrize("value", [None, *BOLTS_ON_BARREL])
def test_bolts_on_barrel_decides_whether_a_sitter_collects_bolts(value, before):
    t = play_deal(SWEEP, scores=[880, 0, 0], state={"on_barrel": [True, False, False], "bolts": [before, 0, 0]},
                  **({} if value is None else {"bolts_on_barrel": value}))
    bolts, marked = BOLTS_ON_BARREL[value or "collected"][before]  # the default draws the bar for him too
    assert (t.last["delta"], t.last["score"], t.last["bolts"], t.last["marks"]) == \
        ([0, 100, 0], [880, 100, 0], bolts, marked)

def test_house_penalty_changes_the_bolt_penalty():
    t = play_deal(SWEEP, scores=[300, 200, 50], state={"bolts": [2, 0, 2]}, penalty=50)
    assert t.last["delta"] == [-50, 100, -50]
    assert t.v["score"] == [250, 300, 0]


def test_falling_off_the_barrel_costs_the_penalty_from_880():
    t = concede(scores=[880, 0, 0], state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]})
    assert t.v["score"] == [760, -100, 60]
    t2 = concede(scores=[880, 0, 0], state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]},
                 penalty=100)
    assert t2.v["score"] == [780, -100, 60]


def test_knock_off_costs_the_house_penalty():
    t = concede(scores=[850, 0, 880], state={"on_barrel": [False, False, True]}, penalty=30)
    assert t.v["score"] == [880, -100, 850]


def _cut_three_nines(**params) -> Game:
    rs = ruleset(cut_modelled=True, **params)
    nt = notation(rs)
    g = Game(rs, dealer=0, seed=0)
    g.apply(Action("shuffle", 0, {"order": sorted(g.v["stock"])}))
    for i in range(3):
        stock = g.v["stock"]
        at = next(k + 1 for k, c in enumerate(stock) if nt.name(c).startswith("9") and k + 1 < len(stock))
        g.apply(Action("cut", g.v["turn"], {"at": at}))
        if i < 2:
            g.apply(Action("recut", 0, {}))
    return g


def test_third_nine_of_the_cut_costs_the_cutter_the_penalty():
    assert _cut_three_nines().v["delta"] == [0, 0, -120]
    assert _cut_three_nines(penalty=70).v["delta"] == [0, 0, -70]


# ---------------------------------------------------------------- game end


def test_declarer_reaching_exactly_1000_wins():
    t = play_deal(SWEEP, scores=[0, 900, 0], state=NO_BARREL)
    assert t.v["score"] == [0, 1000, 0]
    assert t.game.over and t.v["winner"] == 1
    assert marks(t, "win") == [1]
    assert t.game.phase == "over"


def test_990_does_not_win():
    t = play_deal(SWEEP, scores=[0, 890, 0], state=NO_BARREL)
    assert t.v["score"] == [0, 990, 0]
    assert not t.game.over and t.v["winner"] is None
    assert marks(t, "win") == []
    assert t.game.phase == "dealing" and t.v["dealer"] == 1


def test_barrel_player_making_120_reaches_1000_and_wins():
    t = play_deal(SWEEP, contract=120, scores=[0, 880, 0], state={"on_barrel": [False, True, False]})
    assert t.v["score"] == [0, 1000, 0]
    assert t.game.over and t.v["winner"] == 1


def test_more_than_reading_needs_over_1000():
    t = play_deal(SWEEP, scores=[0, 900, 0], state=NO_BARREL, win_comparison="more-than")
    assert t.v["score"] == [0, 1000, 0]
    assert not t.game.over and t.v["winner"] is None
    t2 = play_deal(SWEEP, scores=[0, 901, 0], state=NO_BARREL, win_comparison="more-than")
    assert t2.game.over and t2.v["winner"] == 1


def test_more_than_reading_keeps_a_barrel_player_at_1000_on_the_barrel():
    t = play_deal(SWEEP, contract=120, scores=[0, 880, 0], state={"on_barrel": [False, True, False]},
                  win_comparison="more-than")
    assert not t.game.over
    assert t.last["delta"][1] == 0 and t.v["score"][1] == 880
    assert t.v["on_barrel"] == [False, True, False] and t.v["barrel_deals"][1] == 1


def test_house_target():
    t = play_deal(SWEEP, scores=[0, 400, 0], target=500)
    assert t.game.over and t.v["winner"] == 1
    t2 = play_deal(SWEEP, scores=[0, 400, 0])
    assert not t2.game.over


def test_defender_without_a_barrel_wins_by_reaching_1000():
    t = concede(scores=[950, 0, 0], state=NO_BARREL)
    assert t.v["score"] == [1010, -100, 60]
    assert t.game.over and t.v["winner"] == 0


def test_two_reach_1000_and_the_higher_score_wins():
    t = play_deal(SPLIT, scores=[995, 900, 0], state=NO_BARREL)
    assert t.v["score"] == [1006, 1000, 0]
    assert t.v["winner"] == 0
    assert marks(t, "win") == [0]


def test_equal_scores_over_1000_go_to_the_declarer():
    t = play_deal(SPLIT, scores=[989, 900, 0], state=NO_BARREL)
    assert t.v["score"] == [1000, 1000, 0]
    assert t.v["winner"] == 1


def test_no_win_is_declared_during_play():
    t = Table(hands=SWEEP.hands, talon=SWEEP.talon, scores=[0, 990, 0], state=NO_BARREL)
    t.to_play(1, give=SWEEP.give)
    for trick in SWEEP.tricks[:-1]:
        t.play(*trick.split())
    # Seven tricks hold 98 points, far past 1000 if anything were added now.
    assert not t.game.over and t.v["winner"] is None and t.game.phase == "play"
    t.play(*SWEEP.tricks[-1].split())
    assert t.game.over and t.v["winner"] == 1 and t.v["score"][1] == 1090


def test_finished_game_takes_no_more_actions_and_no_new_deal():
    t = play_deal(SWEEP, scores=[0, 900, 0], state=NO_BARREL)
    assert len(t.game.sheet) == 1 and t.v["deal_no"] == 1
    assert t.v["dealer"] == 0 and t.v["turn"] is None
    assert t.game.legal_actions() == []
    assert t.rejects(2, "bid", value=105).reason == "game-over"
