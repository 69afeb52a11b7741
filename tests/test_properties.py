"""Property tests: random legal play never breaks the game's invariants."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import expected_row

from oracle import Game, load_ruleset, play_random
from oracle.engine import Action

CLASSIC = load_ruleset("classic")
DECK = sorted(range(CLASSIC.deck.size))

# Every enum and boolean parameter of the core, with all its values: random games
# run under any combination the sources allow.
CONTESTED = {
    name: list(decl.choices) if decl.choices else [True, False]
    for name, decl in CLASSIC.resolved.params.items()
    if decl.choices or decl.type == "bool"
}


def invariants_hold(game: Game, _action=None) -> None:
    assert sorted(game.st.cards_everywhere()) == DECK, "a card was lost or duplicated"
    v = game.v
    if v["phase"] == "play":
        sizes = [len(v["hand"][s]) for s in v["active"]]
        assert max(sizes) - min(sizes) <= 1


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans())
def test_random_classic_deals_keep_every_card_and_120_points(seed, hinted):
    game = Game(CLASSIC, seed=seed)
    play_random(game, random.Random(seed), on_action=invariants_hold, hinted=hinted, max_deals=6)
    for row in game.sheet:
        if row["declarer"] is not None and not row["conceded"]:
            assert sum(row["taken_points"]) - sum(row["marriage_points"]) == CLASSIC.param("deck_total")
            assert sum(row["tricks_won"]) == 8


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans(), data=st.data())
def test_random_play_under_any_combination_of_contested_parameters(seed, hinted, data):
    params = {name: data.draw(st.sampled_from(values), label=name) for name, values in CONTESTED.items()}
    rs = load_ruleset("classic", params=params)
    game = Game(rs, seed=seed)
    play_random(game, random.Random(seed), on_action=invariants_hold, hinted=hinted, max_deals=4)
    assert len(game.sheet) >= 4 or game.over


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans())
def test_per_deal_results_match_the_reference_model(seed, hinted):
    game = Game(CLASSIC, seed=seed)
    play_random(game, random.Random(seed), hinted=hinted, max_deals=12)
    prev = {"score": [0] * 3, "bolts": [0] * 3, "on_barrel": [False] * 3, "barrel_deals": [0] * 3,
            "barrel_falls": [0] * 3}
    for row in game.sheet:
        want = expected_row(prev, row)
        got = {k: row[k] for k in want}
        assert got == want, f"deal {row['deal']}: {row}"
        prev = {k: row[k] for k in prev}


@given(seed=st.integers(0, 2**32 - 1))
def test_results_match_the_reference_model_near_the_barrel(seed):
    # Start everybody close to the barrel so that mounting, falls and wins happen.
    rng = random.Random(seed)
    start = [rng.choice([700, 760, 820, 860, 880]) for _ in range(3)]
    game = Game(CLASSIC, seed=seed, values={"score": list(start), "on_barrel": [s == 880 for s in start]})
    play_random(game, rng, hinted=True, max_deals=15)
    prev = {"score": start, "bolts": [0] * 3, "on_barrel": [s == 880 for s in start], "barrel_deals": [0] * 3,
            "barrel_falls": [0] * 3}
    for row in game.sheet:
        want = expected_row(prev, row)
        assert {k: row[k] for k in want} == want, f"deal {row['deal']}: {row}"
        prev = {k: row[k] for k in prev}
    if game.over:
        w = game.v["winner"]
        assert game.v["score"][w] >= 1000 and game.v["score"][w] == max(game.v["score"])


@given(seed=st.integers(0, 2**32 - 1), cut=st.booleans(), steps=st.integers(1, 120))
def test_state_round_trips_through_json(seed, cut, steps):
    rs = load_ruleset("classic", params={"cut_modelled": cut})
    a = Game(rs, seed=seed)
    play_random(a, random.Random(seed), max_actions=steps)
    b = Game.from_json(json.loads(json.dumps(a.to_json())), rs)
    assert b.to_json() == a.to_json()
    ra, rb = random.Random(seed + 1), random.Random(seed + 1)
    play_random(a, ra, max_actions=60)
    play_random(b, rb, max_actions=60)
    assert a.to_json() == b.to_json()


def test_whole_hinted_games_reach_1000_with_rotation_bolts_and_barrel():
    finished = 0
    seen = set()
    for seed in range(6):
        game = Game(CLASSIC, seed=seed)
        play_random(game, random.Random(seed), hinted=True, max_deals=500)
        for row, nxt in zip(game.sheet, game.sheet[1:], strict=False):
            # The deal passes to the left, except that after a concession the same dealer deals again.
            assert nxt["dealer"] == (row["dealer"] if row["conceded"] else (row["dealer"] + 1) % 3)
        seen |= {m[0] for row in game.sheet for m in row["marks"]}
        if game.over:
            finished += 1
            w = game.v["winner"]
            assert game.v["score"][w] >= 1000
            assert game.sheet[-1]["marks"][-1] == ["win", w]
    assert finished >= 4
    assert {"bolt", "barrel-mount", "win", "marriage"} <= seen


def _allowed_by_check(game: Game) -> list:
    """Every action the one-at-a-time check allows, over the action's choices: what legal_actions must list."""
    import itertools

    from oracle import Action

    out = []
    for ca in game.c.by_phase.get(game.phase, ()):
        decl = ca.decl
        if decl.sample is not None and not decl.choices:
            continue
        for seat in game.actors(decl):
            if ca.when is not None and not ca.when(game.st, seat):
                continue
            names = [f for f, _ in ca.domains]
            for values in itertools.product(*(list(dom(game.st, seat)) for _, dom in ca.domains)):
                action = Action(decl.name, seat, dict(zip(names, values, strict=True)))
                if game.check(action) is None:
                    out.append(action.key())
    return sorted(out)


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans(), data=st.data())
def test_legal_actions_are_exactly_what_the_check_allows(seed, hinted, data):
    # The listing works guards out once per call where no candidate changes them; the check asks them
    # afresh for one action. Both must agree at every point of random games, under any parameters.
    params = {name: data.draw(st.sampled_from(values), label=name) for name, values in CONTESTED.items()}
    game = Game(load_ruleset("classic", params=params), seed=seed)

    def same(g: Game, _action=None) -> None:
        assert sorted(a.key() for a in g.legal_actions()) == _allowed_by_check(g)
    play_random(game, random.Random(seed), on_action=same, hinted=hinted, max_deals=2)


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans(), data=st.data())
def test_the_fused_steps_do_what_the_effects_do_one_by_one(seed, hinted, data):
    # Untraced, an action runs as one compiled step (its guards, then every effect, the variables
    # read once into locals); traced, each effect runs on its own, as the rule files list them. The
    # two games must stay identical, action by action, under any parameters.
    params = {name: data.draw(st.sampled_from(values), label=name) for name, values in CONTESTED.items()}
    rs = load_ruleset("classic", params=params)
    game, twin = Game(rs, seed=seed), Game(rs, seed=seed, tracer=lambda effect, before, now: None)

    def same(g: Game, action) -> None:
        assert (g.st.v, g.sheet, g.st.marks, g.st.set_by) == (twin.st.v, twin.sheet, twin.st.marks, twin.st.set_by)
        twin.apply(action)
    play_random(game, random.Random(seed), on_action=same, hinted=hinted, max_deals=2)
    assert (game.st.v, game.sheet, game.st.marks) == (twin.st.v, twin.sheet, twin.st.marks)


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans(), data=st.data())
def test_an_action_given_by_its_parts_is_judged_and_applied_as_an_action_is(seed, hinted, data):
    # A record's reader hands the engine each action as (kind, seat, payload), with no Action made on
    # the quick path. At every point of random games, under any parameters, the twin so driven must
    # refuse what try_apply refuses (same rule and reason, nothing changed) and end in the same state.
    params = {name: data.draw(st.sampled_from(values), label=name) for name, values in CONTESTED.items()}
    rs = load_ruleset("classic", params=params)
    game, twin = Game(rs, seed=seed), Game(rs, seed=seed)
    rng = random.Random(seed)

    def same(g: Game, action) -> None:
        wrong = [Action(action.kind, (action.seat + 1) % rs.players, action.payload)]
        legal = g.legal_actions()
        if legal:
            other = rng.choice(legal)
            wrong.append(Action(other.kind, other.seat, {**other.payload, **{
                f: rng.choice(DECK) for f, t in rs.actions[other.kind].fields if t == "card"}}))
        for w in wrong:
            want = g.check(w, typed=True)
            if want is None:
                continue  # legal after all (a card drawn at random may be a right one): not offered
            before = json.dumps(twin.st.to_json(), sort_keys=True)
            got = twin.try_apply_typed(w.kind, w.seat, w.payload)
            assert got is not None and (got.rule_id, got.reason) == (want.rule_id, want.reason)
            assert json.dumps(twin.st.to_json(), sort_keys=True) == before, "a refused action changed the state"
        assert twin.try_apply_typed(action.kind, action.seat, action.payload) is None
    play_random(game, rng, on_action=same, hinted=hinted, max_deals=2)
    assert (game.st.v, game.sheet, game.st.marks) == (twin.st.v, twin.sheet, twin.st.marks)


def _probes(g: Game, rng: random.Random) -> list[Action]:
    """Actions to put to a game: every legal one of every seat, each also by the wrong seat, and some with a
    card drawn at random (most of them refused, by one rule or another)."""
    out: list[Action] = []
    for a in g.legal_actions():
        out.append(a)
        out.append(Action(a.kind, (a.seat + 1) % g.rs.players, a.payload))
        cards = [f for f, t in g.rs.actions[a.kind].fields if t == "card"]
        if cards:
            out.append(Action(a.kind, a.seat, {**a.payload, **{f: rng.choice(DECK) for f in cards}}))
    for kind in sorted(g.rs.actions):  # actions of other phases: refused by the rule that set the phase
        decl = g.rs.actions[kind]
        if not decl.fields:
            out.append(Action(kind, rng.randrange(g.rs.players), {}))
    return out


@given(seed=st.integers(0, 2**32 - 1), hinted=st.booleans(), moves=st.integers(0, 80), data=st.data())
def test_a_forked_game_names_the_same_rule_for_every_refusal(seed, hinted, moves, data):
    # A fork is the game's whole position (its variables, sheet, marks, who set what, the random state):
    # every action put to both gets the same answer, rule and reason alike, and both go on alike.
    params = {name: data.draw(st.sampled_from(values), label=name) for name, values in CONTESTED.items()}
    game = Game(load_ruleset("classic", params=params), seed=seed)
    rng = random.Random(seed)
    play_random(game, rng, hinted=hinted, max_actions=moves)
    fork = game.fork()
    for a in _probes(game, rng):
        assert game.check(a) == fork.check(a), a
    assert fork.to_json() == game.to_json()
    # Chance included: the fork draws the next deal as the game does.
    play_random(game, random.Random(seed + 1), max_actions=40)
    play_random(fork, random.Random(seed + 1), max_actions=40)
    assert fork.to_json() == game.to_json()


@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(1, 80))
def test_a_restored_position_undoes_what_was_played_after_it(seed, moves):
    game = Game(CLASSIC, seed=seed)
    rng = random.Random(seed)
    play_random(game, rng, hinted=True, max_actions=moves)
    pos = game.snapshot()
    before = game.to_json()
    play_random(game, rng, hinted=True, max_actions=60)
    game.restore(pos)
    assert game.to_json() == before
    # The position is a value: playing on from it twice gives the same game twice, and leaves it as it was.
    a, b = Game.at(pos), Game.at(pos)
    play_random(a, random.Random(seed + 2), max_actions=30)
    play_random(b, random.Random(seed + 2), max_actions=30)
    assert a.to_json() == b.to_json()
    assert Game.at(pos).to_json() == before


def test_a_tracer_is_handed_the_state_before_each_effect_until_it_says_it_reads_none():
    # A tracer that hands back NO_STATE keeps what it needs itself: from then on the game gives it
    # NO_STATE as the state before (no pickling of the whole state per trigger); one that hands back
    # the state's bytes, or None, gets the true state before every time.
    import pickle

    from oracle.engine import NO_STATE

    rs = load_ruleset("classic")
    seen: dict[str, list[bool]] = {"blind": [], "reading": []}

    def blind(effect, before, after):
        seen["blind"].append(before == NO_STATE)
        return NO_STATE

    def reading(effect, before, after):
        seen["reading"].append(before != NO_STATE and isinstance(pickle.loads(before), dict))
        return None

    for tracer in (blind, reading):
        game = Game(rs, seed=3, tracer=tracer)
        play_random(game, random.Random(3), max_actions=40)
    assert len(seen["blind"]) > 10 and seen["blind"][0] is False and all(seen["blind"][1:])
    assert len(seen["reading"]) > 10 and all(seen["reading"])


def test_a_bots_own_action_is_checked_for_its_types_and_the_rules_own_are_taken_as_they_are():
    """play_random takes the rules' draw and its own choosers' legal actions as well typed; an action a
    caller's bot makes up is checked like any other: a card given by its name is a bad payload, not a card
    the player does not hold."""
    from oracle.engine import IllegalAction, choose_hinted, play_random

    def spelling_bot(game, legal, rng):
        a = choose_hinted(game, legal, rng)
        if a.kind == "play":
            return Action("play", a.seat, {**a.payload, "card": "QS"})
        return a

    game = Game(load_ruleset("classic"), seed=5)
    with pytest.raises(IllegalAction) as raised:
        play_random(game, random.Random(5), bot=spelling_bot)
    assert raised.value.rejection.reason == "bad-payload", raised.value.rejection
    played = Game(load_ruleset("classic"), seed=5)
    assert play_random(played, random.Random(5), hinted=True, max_deals=2) > 0 and len(played.sheet) == 2


@pytest.mark.parametrize("ruleset", ["classic", "four-dummy", "two-bank", "1k"])
def test_the_bots_own_play_picks_from_the_moves_parts_what_they_pick_from_actions(ruleset):
    """play_random and the lookahead's play-out choose from the legal moves' parts, with no Action made of
    each: at every position of a game they pick what choose_random and choose_hinted (at the bots' greed and
    at 1.0) pick from legal_actions(), and leave the generator as those do."""
    from oracle.engine import HINT_GREED, _hinted_choice, _random_choice, choose_hinted, choose_random

    game = Game(load_ruleset(ruleset), seed=11)
    rng = random.Random(11)
    picked = 0
    while not game.over and picked < 300:
        if game.chance_action() is not None:
            assert game.try_apply(game.sample(), typed=True) is None
            continue
        legal = game.legal_actions()
        parts = game.legal_parts()
        assert [(k, s, dict(p)) for k, s, p in parts] == [(a.kind, a.seat, dict(a.payload)) for a in legal]
        kinds = [k for k, _, _ in parts]
        for greed in (None, HINT_GREED, 1.0):  # None: the random bot
            state = rng.getstate()
            mine = choose_random(game, legal, rng) if greed is None else choose_hinted(game, legal, rng, greed)
            after = rng.getstate()
            rng.setstate(state)
            index = _random_choice(game, kinds, rng) if greed is None else _hinted_choice(game, parts, rng, greed)
            assert legal[index] is mine, greed
            assert rng.getstate() == after
        assert game.try_apply(legal[picked % len(legal)], typed=True) is None
        picked += 1
    assert picked > 50
