"""House rules of penalties (variants/bolt/, variants/penalties/): the bolt window and the penalty amount."""

from positions import C_HANDS, C_TALON, PLAY_99, PLAY_113, conceding, played_c, rules
from support import Table

# ====================================================================== penalties


def test_bolt_window_consecutive_starts_the_count_again():
    core = played_c(rules(), PLAY_99)
    core_bolts = Table(rules(), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    core_bolts.to_play(1, give=("JC", "JD")).play(*PLAY_99)
    assert core.last["taken_points"][2] == 7 and core_bolts.last["bolts"] == [0, 0, 2]
    t = Table(rules("variant.bolt.window"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_99)
    assert t.last["bolts"] == [0, 0, 0]
    assert t.last["delta"] == [14, -100, 7]


def test_bolt_window_third_in_a_row_costs_the_penalty():
    t = Table(rules("variant.bolt.window"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_113)
    assert t.last["taken_points"] == [7, 113, 0]
    assert t.last["delta"] == [7, 100, -120]
    assert t.last["bolts"] == [0, 0, 0]


def test_penalty_amount_changes_the_bolt_penalty_and_the_barrel_fall():
    t = Table(rules("variant.penalty-amount"), hands=C_HANDS, talon=C_TALON, dealer=0, state={"bolts": [0, 0, 2]})
    t.to_play(1, give=("JC", "JD")).play(*PLAY_113)
    assert t.last["delta"] == [7, 100, -100]
    fall = conceding(rules("variant.penalty-amount"), scores=[880, 0, 0],
                     state={"on_barrel": [True, False, False], "barrel_deals": [2, 0, 0]})
    assert fall.last["score"] == [780, -100, 60]
