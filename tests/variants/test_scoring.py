"""Resets of the score (variants/scoring/): samosval at 555, its negative form, the reset at 55."""

import pytest
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


# ====================================================================== resets


def test_samosval_resets_exactly_555():
    t = conceding(rules("variant.samosval"), scores=[495, 0, 554])
    assert t.last["score"] == [0, -100, 614]
    assert t.last["delta"] == [-495, -100, 60]
    assert ["samosval", 0] in t.last["marks"]
    assert conceding(rules("variant.samosval", samosval_reset_to=5), scores=[495, 0, 0]).last["score"] == [5, -100, 60]


def test_core_has_no_samosval():
    assert conceding(rules(), scores=[495, 0, 0]).last["score"] == [555, -100, 60]


def test_samosval_negative_resets_exactly_minus_555():
    t = conceding(rules("variant.samosval-negative"), scores=[0, -455, -600])
    assert t.last["score"] == [60, 0, -540]
    assert t.last["delta"] == [60, 455, 60]
    assert ["samosval-negative", 1] in t.last["marks"]


def test_samosval_negative_leaves_plus_555_alone():
    t = conceding(rules("variant.samosval-negative", samosval_negative_reset_to=-5), scores=[495, -455, 0])
    assert t.last["score"] == [555, -5, 60]


def test_reset_at_55_follows_the_printed_text():
    t = conceding(rules("variant.reset-at-55"), scores=[-5, 0, 0])
    assert t.last["score"] == [0, -100, 60]
    assert t.last["delta"] == [5, -100, 60]
    assert ["reset-55", 0] in t.last["marks"]
    both = conceding(rules("variant.reset-at-55", "variant.samosval", reset_score_to=1), scores=[-5, 0, 495])
    assert both.last["score"] == [1, -100, 0]


@pytest.mark.parametrize("overlay", ["variant.samosval", "variant.samosval-negative", "variant.reset-at-55",
                                     "variant.bolt.window", "variant.penalty-amount"])
def test_scoring_overlays_forbid_nothing(overlay):
    t = conceding(rules(overlay), concede=False)
    plain = conceding(rules(), concede=False)
    assert t.legal(1) == plain.legal(1)
