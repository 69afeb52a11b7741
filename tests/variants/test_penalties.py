"""House rules of penalties (variants/bolt/, variants/penalties/): the bolt window and the penalty amount."""

from support import Table, ruleset


def rules(*overlays, **params):
    return ruleset("classic", list(overlays), **params)


# Dealer 0, so seat 1 holds the compulsory hundred and seat 2 speaks first. Seat 1 holds the spades
# marriage and, with the talon, three aces (AS AC AH).
R_HANDS = {0: "10C KC QC QH 10H 9H JH", 1: "AS 10S KS QS JS 9S AC", 2: "QD KH AD 10D KD 9C 9D"}


R_TALON = "AH JC JD"


def conceding(rs, scores=None, state=None, contract=None, concede=True):
    """Seat 1 wins the auction (at the hundred, or at ``contract`` after seat 2 opens), takes the talon, concedes."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0, scores=scores, state=state)
    if contract is None:
        t.win_auction(1)
    else:
        t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=contract).act(2, "pass")
    t.act(1, "take-talon")
    if concede:
        t.act(1, "concede")
    return t


# The talon tests' deal: seat 1 at the hundred, with all the spades.
C_HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}


C_TALON = "9D JC JD"


PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]


PLAY_113 = ["AS", "AD", "AC", "10S", "10D", "10C", "KS", "KD", "KC", "QS", "QD", "QC", "JS", "KH", "AH",
            "9S", "JD", "10H", "9C", "9H", "JC", "QH", "9D", "JH"]


def played_c(rs, moves, contract=100):
    t = Table(rs, hands=C_HANDS, talon=C_TALON, dealer=0)
    t.to_play(1, give=("JC", "JD"), contract=contract)
    t.play(*moves)
    assert t.game.phase == "dealing"
    return t


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
