"""The end of the game (spec/game-end/): first to the target wins, ties to the higher score, then the declarer."""

from deals import SPLIT, SWEEP, concede, marks, play_deal
from support import Table

NO_BARREL = {"no_barrel": [True, True, True]}


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
