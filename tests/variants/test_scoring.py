"""Resets of the score (variants/scoring/): samosval at 555, its negative form, the reset at 55."""

import pytest
from positions import conceding, rules

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
