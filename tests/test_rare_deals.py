"""Rare deals: the harness makes a drawn deal rarer by the rules' own measure (the deal's hint in
spec/hints/simple-bot.yaml), so that hands which come once in thousands of deals (three marriages, which a bid
above 300 needs) are played in a run of a few hundred games."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from rules_tree import copy_rules, edit

from oracle.conform import harness as H
from oracle.conform.engines import OracleEngine
from oracle.conform.rare import rarer
from oracle.engine import Action, Game
from oracle.ruleset import load_ruleset

# Presets whose deal is drawn as hands (not a shuffled pack cut by a player).
DIRECT = ["classic", "1k", "mekedron-russian", "mekedron-ukrainian", "mekedron-two-player-b",
          "mekedron-four-player-b"]


def _first_deal(name: str, seed: int) -> tuple[Game, Action]:
    rs = load_ruleset(name)
    g = Game(rs, dealer=seed % rs.players, seed=seed)
    while (decl := g.chance_action()) is None or decl.name != "deal":
        g.apply(g.sample() if decl is not None else g.legal_actions()[0])
    return g, g.sample()


def _cards(a: Action) -> Counter[int]:
    return Counter([c for h in a.payload["hands"] for c in h] + list(a.payload["talon_cards"]))


@pytest.mark.parametrize("name", DIRECT)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 500), rises=st.integers(0, 8))
def test_a_rarer_deal_is_a_legal_deal_of_the_same_cards_whose_hint_rose(name, seed, rises):
    g, a = _first_deal(name, seed)
    b = rarer(g, a, rises, random.Random(seed))
    assert g.check(b) is None and _cards(b) == _cards(a)
    assert [len(h) for h in b.payload["hands"]] == [len(h) for h in a.payload["hands"]]
    if rises == 0:
        assert b is a
    else:
        # Every swap kept raised the hint, so it rose at least once, unless the hand was already as rich as
        # seven cards can be (three marriages and one king or queen more: 19).
        assert g.hint(b) > g.hint(a) or g.hint(a) == 19


def test_the_drawn_deal_is_left_as_it_is_when_the_swaps_would_make_an_illegal_deal():
    """With the cut played (left-leads), a deal must be the pack as cut: swapped cards are not."""
    g, a = _first_deal("left-leads", 3)
    assert rarer(g, a, 6, random.Random(0)) is a


def test_three_marriages_in_one_hand_come_from_the_rule_files_measure(tmp_path, monkeypatch):
    g, a = _first_deal("classic", 7)
    b = rarer(g, a, 6, random.Random(7))
    # deal_rarity is 18 or more only with three marriages in one hand (4 each, and their six cards).
    assert g.hint(b) >= 18 > g.hint(a)
    # The measure is data: a spec that rates nothing makes no deal rarer.
    tree = copy_rules(tmp_path)
    edit(tree, "spec/deal/hand-size-3p.yaml", "random: {hint: deal_rarity(hands)}", "random: {hint: '0'}")
    monkeypatch.setenv("THOUSAND_RULES_ROOT", str(tree))
    g2 = Game(load_ruleset("classic"), dealer=g.v["dealer"], seed=7)
    a2 = g2.sample()
    assert a2 == a and rarer(g2, a2, 6, random.Random(7)) == a2


def test_bids_above_300_are_generated_where_the_rules_allow_them():
    """Classic with the maximum at 400: a bid above 300 needs three marriages in the bidder's hand, which
    the harness's games reach mostly through a rarer deal (measured in 2 000 games: 4 with such a bid as
    dealt, 41 with rarer deals)."""
    h = H.Harness(OracleEngine("classic"), "classic", params={"max_bid": 400})
    bids: list[int] = []

    @settings(max_examples=150, database=None, deadline=None, derandomize=True, phases=[Phase.generate])
    @given(st.data())
    def play(data):
        h.play(data.draw)
        assert h.ex is not None
        bids.extend(a.payload["value"] for a in h.ex.applied if a.kind == "bid")
    play()
    assert max(bids) > 300


def test_a_reset_the_rules_make_at_an_exact_total_is_a_start_target_drawn_often():
    """mekedron's samosval sets the score itself at exactly 555 (and -555): those two are the resets, drawn
    as often as every other total together; the barrel is not one (it is reached, not met exactly)."""
    h = H.Harness(OracleEngine("mekedron-russian"), "mekedron-russian")
    assert sorted(h.resets) == [-555, 555] and 880 not in h.resets
    assert H.Harness(OracleEngine("classic"), "classic").resets == []

    def near(resets: list[int]) -> int:
        h.resets = resets
        hits = Counter[bool]()

        @settings(max_examples=300, database=None, deadline=None, derandomize=True)
        @given(st.data())
        def collect(data):
            s = h._start_state(data.draw, 0, 0)[1]
            hits[any(v in (555 - w for w in h.steps) for v in s.get("score", []))] += 1
        collect()
        return hits[True]
    assert 2 * near([-555, 555]) > 3 * near([])
