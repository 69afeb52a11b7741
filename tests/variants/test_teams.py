"""Teams in the rule language (a rule's `teams:`), as players-4.partners states them: partners across the
table share one contract, one score, one count of bolts and one barrel, each by a parameter."""

import random

import pytest
from rules_tree import copy_rules, edit
from support import Table, ruleset

from oracle import Game, load_ruleset, play_random
from oracle.errors import ParamError, RuleFileError, RuleRuntimeError
from oracle.sheet import render
from variants.test_players_4 import FOUR, HANDS4, PLAY4_99, TALON4, four, play_four

PARTNERS = [*FOUR, "players-4.partners"]


def test_the_declarer_makes_the_contract_with_his_partners_points():
    # Seat 1 keeps 99 of his own against 100; his partner, seat 3, took 14 as a defender would.
    t = play_four(PARTNERS)
    row = t.game.sheet[-1]
    assert row["taken_points"] == [0, 99, 7, 14]
    # The team of seats 1 and 3 writes +100 once, for both; seats 0 (the idle dealer) and 2 write seat 2's 7.
    assert row["delta"] == [7, 100, 7, 100] and row["score"] == [7, 100, 7, 100]
    alone = play_four(FOUR).game.sheet[-1]
    assert alone["delta"] == [0, -100, 7, 14]


def test_each_sharing_is_a_parameter():
    no_contract = play_four(PARTNERS, team_contract=False).game.sheet[-1]
    assert no_contract["delta"] == [7, -86, 7, -86]  # -100 for the declarer, 14 for his partner, one score
    no_score = play_four(PARTNERS, team_score=False).game.sheet[-1]
    assert no_score["delta"] == [0, 100, 7, 0]  # the contract made together, each writing his own


def test_the_teams_come_from_a_parameter():
    # Seats 1 and 2 together: seat 1's 99 and seat 2's 7 make the contract; seat 3 and the dealer are the others.
    row = play_four(PARTNERS, partnerships=[0, 1, 1, 0]).game.sheet[-1]
    assert row["delta"] == [14, 100, 100, 14]


def test_partners_climb_onto_the_barrel_together():
    t = four(PARTNERS, scores=[0, 800, 0, 800])
    t.to_play(1, give=("JD", "JC"))
    t.play(*PLAY4_99)
    row = t.game.sheet[-1]
    assert row["score"] == [7, 880, 7, 880]
    assert t.v["on_barrel"] == [False, True, False, True]
    assert ["barrel-mount", 1] in row["marks"] and ["barrel-mount", 3] in row["marks"]
    assert not any(m == "barrel-knocked-off" for m, _ in row["marks"])


def test_an_idle_partner_sits_out_the_deal_but_not_the_barrel():
    # Seats 0 and 2 sit on the barrel; seat 0 deals and sits out, seat 2 plays for both.
    state = {"on_barrel": [True, False, True, False], "barrel_deals": [1, 0, 1, 0]}
    t = four(PARTNERS, scores=[880, 0, 880, 0], state=state)
    t.to_play(1, give=("JD", "JC"))
    t.play(*PLAY4_99)
    assert t.v["barrel_deals"][0] == t.v["barrel_deals"][2] == 2
    alone = four(FOUR, scores=[880, 0, 880, 0], state=state)
    alone.to_play(1, give=("JD", "JC"))
    alone.play(*PLAY4_99)
    assert alone.v["barrel_deals"][0] == 1 and alone.v["barrel_deals"][2] == 2


def _games(rs, n=12, deals=12):
    out = []
    for seed in range(n):
        g = Game(rs, seed=seed)
        play_random(g, random.Random(seed), hinted=True, max_deals=deals)
        out.append(g)
    return out


def test_partners_have_one_count_of_bolts():
    shared = kept_apart = 0
    for g in _games(ruleset(overlays=PARTNERS)):
        for row in g.sheet:
            assert row["bolts"][0] == row["bolts"][2] and row["bolts"][1] == row["bolts"][3]
            assert row["score"][0] == row["score"][2] and row["score"][1] == row["score"][3]
            shared += any(m == "bolt" for m, _ in row["marks"])
    for g in _games(ruleset(overlays=PARTNERS, team_bolts=False)):
        kept_apart += any(row["bolts"][0] != row["bolts"][2] or row["bolts"][1] != row["bolts"][3] for row in g.sheet)
    assert shared > 0 and kept_apart > 0


def test_without_teams_every_seat_is_a_team_of_its_own():
    g = Game(ruleset(), seed=0)
    assert g.v["teams"] == [0, 1, 2] and ruleset().teams is None
    assert Game(ruleset(overlays=PARTNERS), seed=0).v["teams"] == [0, 1, 0, 1]


def test_the_sheet_shows_a_column_for_each_team():
    t = play_four(PARTNERS)
    text = render(t.rs, ["Ann", "Bob", "Cy", "Dee"], t.game.sheet)
    head, _, line = text.splitlines()[:3]
    assert head.split()[-2:] == ["Ann+Cy", "Bob+Dee"]
    assert line.split()[-4:] == ["+7", "7", "+100", "100"]
    apart = play_four(PARTNERS, team_score=False)
    assert "Ann+Cy" not in render(apart.rs, ["Ann", "Bob", "Cy", "Dee"], apart.game.sheet)


# ------------------------------------------------------------------ the declaration, checked

@pytest.fixture
def tree(tmp_path):
    return copy_rules(tmp_path)


PARTNERS_FILE = "variants/players-4/partners.yaml"


def _load(tree, **params):
    return load_ruleset("classic", overlays=PARTNERS, params=params or None, root=tree)


def test_the_teams_parameter_must_be_a_list_of_numbers(tree):
    edit(tree, PARTNERS_FILE, "seats: partnerships", "seats: team_score")
    with pytest.raises(RuleFileError) as info:
        _load(tree)
    assert "'team_score' is not a parameter of type list[int]" in info.value.message
    assert (info.value.location.file, info.value.location.line) == (PARTNERS_FILE, 43)


def test_a_shared_variable_must_be_per_player_and_its_switch_yes_or_no(tree):
    edit(tree, PARTNERS_FILE, "    bolts: team_bolts", "    contract: team_bolts")
    with pytest.raises(RuleFileError) as info:
        _load(tree)
    assert "'contract' is not a per-player state variable" in info.value.message
    assert info.value.location.file == PARTNERS_FILE and info.value.location.column == 5
    edit(tree, PARTNERS_FILE, "    contract: team_bolts", "    bolts: partnerships")
    with pytest.raises(RuleFileError) as info:
        _load(tree)
    assert "teams.shared.bolts: 'partnerships' is not a yes/no parameter" in info.value.message


def test_one_team_for_each_seat(tree):
    with pytest.raises(ParamError) as info:
        _load(tree, partnerships=[0, 1, 0])
    assert "gives 3 seat(s) a team, but the game has 4 players (set by override)" in info.value.message
    assert info.value.location.file == PARTNERS_FILE


def test_a_team_that_does_not_share_what_it_declares_is_a_rule_fault(tree):
    # Without the pooling clause, partners write apart what the declaration says they hold as one.
    edit(tree, PARTNERS_FILE, "      if team_score then\n        let pooled", "      if false then\n        let pooled")
    table = Table(_load(tree), hands=HANDS4, talon=TALON4, dealer=0)
    table.to_play(1, give=("JD", "JC"))
    with pytest.raises(RuleRuntimeError) as info:
        table.play(*PLAY4_99)
    assert "rule players-4.partners: the team of seats 0, 2 shares 'score', but the deal ends with [0, 7]" \
        in info.value.message
    assert PARTNERS_FILE in info.value.message


def test_a_start_position_gives_partners_one_score():
    from oracle.engine import PositionError
    with pytest.raises(PositionError) as info:
        Game(ruleset(overlays=PARTNERS), values={"score": [0, 100, 0, 90]})
    assert "seats 1 and 3 play in one team, which holds one score; give them one value, not 100 and 90" \
        in info.value.message
    assert Game(ruleset(overlays=PARTNERS, team_score=False), values={"score": [0, 100, 0, 90]}).v["score"][3] == 90
