"""Every named ruleset plays: random legal games never fail, keep every card, and score every deal.

THOUSAND_DEEP=1 plays the games to the end (up to 600 deals) instead of 20 deals.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import Game, load_ruleset, play_random
from oracle.compare import diff
from oracle.ruleset import load_library

PRESETS = sorted(load_library().presets)
DEEP = bool(os.environ.get("THOUSAND_DEEP"))
DEALS = 600 if DEEP else 20


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=40 if DEEP else 4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans())
def test_random_games_of_every_preset_keep_every_card(name, seed, hinted):
    rs = load_ruleset(name)
    deck = list(range(rs.deck.size))
    game = Game(rs, dealer=seed % rs.players, seed=seed)

    def check(g: Game, _action: object) -> None:
        assert sorted(g.st.cards_everywhere()) == deck

    play_random(game, random.Random(seed), on_action=check, hinted=hinted, max_deals=DEALS)
    assert len(game.sheet) >= DEALS or game.over
    if game.over:
        w = game.v["winner"]
        assert w is not None and game.sheet[-1]["marks"][-1] == ["win", w]


@pytest.mark.parametrize("name", [p for p in PRESETS if p != "classic"])
def test_every_preset_differs_from_classic_and_diff_says_how(name):
    d = diff("classic", name)
    assert d["parameters"] or d["rules"] or d["overlays"][name], f"{name} is the same ruleset as classic"
    assert diff(name, name)["parameters"] == [] and diff(name, name)["rules"] == []
