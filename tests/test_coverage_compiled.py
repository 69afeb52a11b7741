"""What the compiler makes for rule coverage, checked against the interpreter's plain answers.

- What an effect may change (``Effect.changes``): coverage compares only those variables before and after an
  effect, so a variable an effect changes and the compiler missed would make a rule that changed the game look
  as if it never fired.
- An action's ``outcomes`` (its check over a product of candidate values in one call): what coverage weighs at
  every decision, which must be what the check gives for each payload on its own."""

from __future__ import annotations

import itertools
import pickle
import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import GOLDEN, TRADING

from oracle import Game, load_ruleset, play_random
from oracle.candidates import candidates, checked, domains, refusals
from oracle.engine import Action, EffectCounter
from oracle.lang.compiler import Compiler, Env, Scope, VarDecl
from oracle.lang.program import Effect
from oracle.lang.stdlib import DeckShape
from oracle.rulecounts import RuleCounts
from oracle.ruleset import load_library

PRESETS = sorted(load_library().presets)
# Rulesets beside the presets whose effects reach the rarer procedures (redeals, the golden round, trading).
TOGETHER = [("classic", [GOLDEN, "variant.golden-round.raise", "variant.golden-round.restart",
                         "variant.redeal.four-nines", "variant.redeal.poor-talon"]),
            ("classic", [TRADING, "variant.bid.negative-lockout", "variant.redeal.low-hand"])]


class _Changed:
    """A whole-state tracer: for each effect, the variables whose values differ after it."""

    def __init__(self) -> None:
        self.seen: list[tuple[Effect, set[str]]] = []

    def __call__(self, effect: Effect, before: bytes, after: dict[str, Any]) -> None:
        old = pickle.loads(before)
        self.seen.append((effect, {n for n in after if old.get(n) != after[n]} | (set(old) - set(after))))


@settings(max_examples=len(PRESETS) + len(TOGETHER))
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_every_variable_an_effect_changes_is_among_those_it_may_change(which, seed):
    name, overlays = which
    rs = load_ruleset(name, overlays)
    tracer = _Changed()
    game = Game(rs, seed=seed, tracer=tracer)
    play_random(game, random.Random(seed), hinted=seed % 2 == 0, max_deals=6)
    named = 0
    for effect, changed in tracer.seen:
        if effect.changes is not None:
            named += 1
            assert changed <= set(effect.changes), f"{effect.rule_id} changed {sorted(changed)} beyond {effect.changes}"
    assert named > len(tracer.seen) // 2  # most effects name what they change: the comparison is a narrow one


class _Counted(EffectCounter):
    def __init__(self) -> None:
        self.changed: list[bool] = []

    def effect_ran(self, effect: Effect, changed: bool) -> None:
        self.changed.append(changed)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_counted_game_sees_each_effect_change_the_game_as_a_whole_state_comparison_does(seed):
    """The narrow comparison and the whole state's agree effect by effect (values compared, not bytes)."""
    rs = load_ruleset("classic")
    whole, counted = _Changed(), _Counted()
    for tracer in (whole, counted):
        play_random(Game(rs, seed=seed, tracer=tracer), random.Random(seed), hinted=True, max_deals=8)
    assert [bool(c) for _, c in whole.seen] == counted.changed
    assert any(counted.changed) and not all(counted.changed)


class _EffectByEffect(RuleCounts):
    """Rule counts told effect by effect (each effect run on its own, its variables pickled before and after),
    not through the compiled counting code: the way the test above checks against the whole state."""

    def tally(self, trigger):
        return None


@settings(max_examples=len(PRESETS) + len(TOGETHER))
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_the_compiled_counting_of_effects_counts_what_counting_effect_by_effect_does(which, seed):
    """Coverage counts effects through each trigger's and each action's compiled counting code (the variables
    an effect may change kept by their type, inline): per rule, the same runs and the same changes as one
    effect at a time compared by pickling, in the same games."""
    name, overlays = which
    rs = load_ruleset(name, overlays)
    compiled, by_effect = RuleCounts(), _EffectByEffect()
    for counts in (compiled, by_effect):
        play_random(Game(rs, seed=seed, tracer=counts), random.Random(seed), hinted=seed % 2 == 0, max_deals=4)
    assert compiled.ran == by_effect.ran and compiled.fired == by_effect.fired
    assert sum(compiled.fired.values()) > 0 and compiled.fired != compiled.ran  # some changed, some did not


def test_an_action_counted_in_its_step_counts_its_effects_and_its_run_once():
    """The counted step runs an action's check and its effects in one call; an action its guards refuse
    runs no effect and is not counted as a run."""
    rs = load_ruleset("classic")
    counts = RuleCounts()
    game = Game(rs, seed=3, tracer=counts)
    while game.phase != "bidding":
        game.apply(game.sample() if game.chance_action() is not None else game.legal_actions()[0])
    trigger = rs.compiled.triggers["bid"]
    seat = game.v["turn"]
    assert game.try_apply_typed("bid", seat, {"value": 3}) is not None  # below the opening: refused
    assert counts.tally(trigger)[-1] == 0
    assert game.try_apply_typed("bid", seat, {"value": 105}) is None
    tally = counts.tally(trigger)
    assert tally[-1] == 1 and tally[0] == 1  # ran once; its first effect (the bid itself) changed the game


def _effect(text: str) -> set[str] | None:
    deck = DeckShape(("9", "J", "Q", "K", "10", "A"), ("S", "C", "D", "H"))
    vars_ = {"score": VarDecl("score", "int", "game", "game", 0, False, False, "rule.score"),
             "pile": VarDecl("pile", "list[card]", "deal", "deal", [], False, False, "rule.pile"),
             "hand": VarDecl("hand", "list[list[card]]", "deal", "deal", [], False, False, "rule.hand")}
    comp = Compiler(Env(deck, vars_, {}, {}, {"play"}))
    return comp.block_fn(text, "rule.effect", Scope(), ["st", "actor", "a"]).changes


@pytest.mark.parametrize(("text", "changes"), [
    ("score = score + 1", {"score"}),
    ("append(pile, 3)", {"pile"}),
    ("move(3, hand[0], pile)", {"hand", "pile"}),
    ("for s in [0, 1] do clear(hand[s]) end", {"hand"}),
    ("if score > 2 then fill(pile, 0) end", {"pile"}),
    ("let h = hand[0]\nappend(h, 3)", None),  # a local may be the state's own list
    ("let h = hand\nh[0] = pile", None),
    ("reset(\"deal\")", None),  # an engine procedure renews variables the text does not name
    ("let x = score + 1", set()),
])
def test_the_compiler_names_what_an_effect_may_change(text, changes):
    assert _effect(text) == changes


@settings(max_examples=len(PRESETS) + len(TOGETHER))
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_an_actions_outcomes_are_its_check_of_each_payload(which, seed):
    name, overlays = which
    rs = load_ruleset(name, overlays)
    weighed: set[int] = set()

    def weigh(game: Game, _action: Action) -> None:
        for ca in game.c.by_phase.get(game.phase, ()):
            doms = domains(game, rs, ca.name)
            if doms is None:
                continue
            values = [d for _, d in doms]
            payloads = [dict(zip([f for f, _ in doms], p, strict=True)) for p in itertools.product(*values)]
            for seat in range(game.v["n_seats"]):
                want = {ca.check(game.st, seat, p) for p in payloads}
                got = rs.analysis.outcomes[ca.name](game.st, seat, [frozenset(d) for d in values])
                assert got == want, (ca.name, seat)
                weighed.update(want)

    play_random(Game(rs, seed=seed), random.Random(seed), on_action=weigh, hinted=seed % 2 == 0, max_deals=3)
    assert -1 in weighed and any(i >= 0 for i in weighed)  # both allowed and forbidden payloads were weighed


@settings(max_examples=len(PRESETS) + len(TOGETHER))
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_every_refusing_guard_is_listed_and_the_first_is_the_one_the_check_names(which, seed):
    """``refusers`` lists every guard that forbids a payload (the harness tells a rule that only ever forbids
    behind another from one that never forbids): the first is the check's, and none when the check allows.
    A guard behind it may raise (mekedron-polish has one): it is listed as -1 - i, in its place."""
    name, overlays = which
    rs = load_ruleset(name, overlays)

    def weigh(game: Game, _action: Action) -> None:
        for ca in game.c.by_phase.get(game.phase, ()):
            doms = domains(game, rs, ca.name)
            if doms is None:
                continue
            for p in itertools.product(*[d for _, d in doms]):
                payload = dict(zip([f for f, _ in doms], p, strict=True))
                for seat in range(game.v["n_seats"]):
                    first = ca.check(game.st, seat, payload)
                    every = rs.analysis.refusers[ca.name](game.st, seat, payload)
                    # Guards in order, each once; one that raised (-1 - i) only behind the first that forbids, as
                    # the check, which got this far, raised at none before it.
                    order = [i if i >= 0 else -1 - i for i in every]
                    assert order == sorted(set(order)) and every[:1] == [first] if first >= 0 else every == [], \
                        (ca.name, seat, payload, every)

    play_random(Game(rs, seed=seed), random.Random(seed), on_action=weigh, hinted=seed % 2 == 0, max_deals=2)


@settings(max_examples=len(PRESETS) + len(TOGETHER))
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_the_candidates_checked_at_once_are_those_game_check_refuses_in_the_same_order(which, seed):
    """The harness offers engines illegal candidates checked through the compiled check (``checked``): each
    one, in ``candidates``' order, with the rule and reason ``Game.check`` gives it. While it counts, it asks
    ``refusals``: the same, each refused one with the rules of every guard that forbids it, as
    ``Game.refusals_of`` names them."""
    name, overlays = which
    rs = load_ruleset(name, overlays)
    refused: set[str] = set()

    def weigh(game: Game, _action: Action) -> None:
        for kind, decl in rs.actions.items():
            if decl.phase != game.phase or (decl.sample is not None and not decl.choices):
                continue
            careful = []
            for a in candidates(game, rs, kind):
                rej = game.check(a, typed=True)
                careful.append((a.seat, a.payload, None if rej is None else (rej.rule_id, rej.reason)))
            assert list(checked(game, rs, kind)) == careful, kind
            every = [(seat, payload, said, game.refusals_of(kind, seat, payload) if said is not None else [])
                     for seat, payload, said in careful]
            assert [(s, p, said, list(rules)) for s, p, said, rules in refusals(game, rs, kind)] == every, kind
            refused.update(said[1] for _, _, said in careful if said is not None)
            weighed.append(kind)

    weighed: list[str] = []
    play_random(Game(rs, seed=seed), random.Random(seed), on_action=weigh, hinted=seed % 2 == 0, max_deals=2)
    # Guards' refusals and refusals before the guards, at least, unless both deals were dealt again at once.
    assert not weighed or len(refused) >= 2


def test_a_guard_behind_another_forbids_on_its_own_once_the_first_is_gone():
    """mekedron's bid of 125 before the talon: its cap of 120 refuses first, the marriage cap forbids it too
    (no marriage in hand), and with the first clause dropped the marriage cap is the one that refuses."""
    from oracle.ruleset import compile_resolved, resolve

    def bidding(rs):
        g = Game(rs, dealer=0, seed=1)
        while g.phase != "bidding":
            g.apply(g.sample() if g.chance_action() is not None else g.legal_actions()[0])
        return g

    g = bidding(load_ruleset("mekedron-russian"))
    bid = Action("bid", g.v["turn"], {"value": 125})
    assert g.refusals(bid) == ["mekedron.pre-talon-max", "bid.marriage-cap"]
    res = resolve("mekedron-russian")
    res.sequence.drop(res.sequence.find("mekedron.pre-talon-max/over-pre-talon-max", None))
    g2 = bidding(compile_resolved(res))
    assert g2.check(bid).rule_id == "bid.marriage-cap" and g2.refusals(bid) == ["bid.marriage-cap"]
    assert g.refusals(Action("bid", g.v["turn"], {"value": 100})) == []


def test_a_guard_that_raises_before_the_first_that_forbids_is_raised_as_the_check_raises_it(tmp_path):
    """``refusers`` takes a guard that raises as not forbidding, and lists it as -1 - i. Where such a guard
    comes before the first that forbids, the check raises rather than refuses, and so does ``refusals`` (which
    answers from ``refusers`` alone otherwise), with the candidates before it as ``checked`` gives them."""
    from rules_tree import copy_rules, edit
    from support import Table

    from oracle.errors import RuleRuntimeError

    tree = copy_rules(tmp_path)
    # Follow-suit now reads a sixth card of the trick, which is never there: it raises once a card is led.
    edit(tree, "spec/play/follow-suit.yaml", "forbid: len(trick) > 0 and",
         "forbid: len(trick) > 0 and trick_by[5] == 0 and")
    rs = load_ruleset("classic", root=tree)
    t = Table(rs, hands={1: "AS 10S KS QS JS 9S 9C"}, talon="9D JC JD")
    t.to_play(1, give=("JC", "JD"))
    t.act(1, "play", card="AS", marriage=False)
    game = t.game
    seat = game.v["turn"]
    ca = rs.compiled.actions["play"]
    raising = next(i for i, g in enumerate(ca.guards) if g.clause.rule_id == "play.follow-suit")
    held, other = game.v["hand"][seat][0], next(c for c in range(rs.deck.size) if c not in game.v["hand"][seat])
    # Not held: the first guard forbids it, the one behind raises and is listed as such (and named by no rule).
    refusers = rs.analysis.refusers["play"]
    assert -1 - raising in refusers(game.st, seat, {"card": other, "marriage": False})
    assert "play.follow-suit" not in game.refusals_of("play", seat, {"card": other, "marriage": False})
    assert refusers(game.st, seat, {"card": held, "marriage": False})[0] == -1 - raising
    before: list[Any] = []
    with pytest.raises(RuleRuntimeError) as careful:
        for item in checked(game, rs, "play"):
            before.append(item)
    fused: list[Any] = []
    with pytest.raises(RuleRuntimeError) as counted:
        for seat_, payload, said, _ in refusals(game, rs, "play"):
            fused.append((seat_, payload, said))
    assert fused == before and before, "the candidates before the one that raises are judged alike"
    assert str(counted.value) == str(careful.value)


# Parts of guards over a play-like action (a card, a flag, a seat) and a little state: each reads some of the
# fields or none, and none can raise, so the outcomes must give exactly the check's answers. Together they make
# the forms the outcomes take apart: a test of no field, of one, of two; 'x not in E' over the state or over
# another field; disjunctions that mix them.
_PARTS = ["card not in hand", "card in hand", "suit(card) == trump", "rank(card) == rank(first(hand))",
          "flag", "not flag", "to == first(xs)", "k > 2", "to in xs", "len(hand) > k", "flag and card in hand",
          "to not in xs", "card not in [c for c in hand where suit(c) != trump or to == first(xs)]",
          "any([suit(c) == trump for c in hand])", "flag and k == 0", "len(xs) == 0", "to != last(xs) and not flag"]


@settings(max_examples=60, deadline=None)
@given(guards=st.lists(st.lists(st.sampled_from(_PARTS), min_size=1, max_size=3), min_size=1, max_size=5),
       joins=st.lists(st.sampled_from([" or ", " and "]), min_size=8, max_size=8),
       chosen=st.sampled_from([{}, {"to": "[s for s in xs where s != first(xs)]"}, {"card": "hand"},
                               {"flag": "[true, false]"}, {"card": "hand", "flag": "[false, true]"}]),
       data=st.data())
def test_generated_guard_chains_give_the_same_outcomes_as_checking_each_payload(guards, joins, chosen, data):
    """The outcomes are worked out test by test as soon as the fields a test reads have a value, a test
    'f not in E' splits the candidates of f at once, and a flag with choices is two branches of folded
    tests. Chains of guards made of random parts, over random states and lists of candidates (some empty,
    some with repeats), give what the check gives payload by payload."""
    deck = DeckShape(("9", "J", "Q", "K", "10", "A"), ("S", "C", "D", "H"))
    vars_ = {"hand": VarDecl("hand", "list[card]", "game", "game", [], False, False, "rule.hand"),
             "xs": VarDecl("xs", "list[seat]", "game", "game", [], False, False, "rule.xs"),
             "k": VarDecl("k", "int", "game", "game", 0, False, False, "rule.k"),
             "trump": VarDecl("trump", "suit", "game", "game", 0, False, False, "rule.trump")}
    comp = Compiler(Env(deck, vars_, {}, {}, {"play"}))
    scope = Scope()
    scope.bind("actor", "local", "actor", "seat")
    fields = [("card", "card"), ("flag", "bool"), ("to", "seat")]
    for f, t in fields:
        scope.bind(f, "payload", f"p_{f}", t)
    texts = [" ".join(f"({p}){joins[i]}" for i, p in enumerate(parts)).rsplit(" ", 2)[0] for parts in guards]
    enumerable = [(f, t) for f, t in fields if f in chosen]
    fns = comp.guard_fns(enumerable, [(chosen[f], "rule.choice") for f, _ in enumerable],
                         [(text, f"rule.g{i}") for i, text in enumerate(texts)], scope, [f for f, _ in fields],
                         analysis=True)
    assert fns.outcomes is not None
    comp.build("<test>")
    for _ in range(5):
        # first(xs), last(xs) and first(hand) raise on an empty list: both lists always hold something.
        state = SimpleNamespace(v={"hand": data.draw(st.lists(st.integers(0, 23), min_size=1, max_size=6,
                                                                unique=True)),
                                   "xs": data.draw(st.lists(st.integers(0, 2), min_size=1, max_size=3)),
                                   "k": data.draw(st.integers(0, 5)), "trump": data.draw(st.integers(0, 3))},
                                set_by={})
        values = [data.draw(st.lists(st.integers(0, 23), max_size=5)),
                  data.draw(st.lists(st.booleans(), max_size=2)),
                  data.draw(st.lists(st.integers(0, 2), max_size=3))]
        want = {fns.check.fn(state, 0, dict(zip(("card", "flag", "to"), p, strict=True)))
                for p in itertools.product(*values)}
        assert fns.outcomes.fn(state, 0, [frozenset(d) for d in values]) == want, (texts, state.v, values)


# Statements of effect clauses over a little state: numbers, lists of cards (which a state may hold as one list
# under two names), a list of lists and a list of flags. Some certainly change the game, some may, some undo
# what another did.
_STATEMENTS = ["score += 1", "score -= 2", "score = score + 0", "score = len(pile)", "append(pile, 3)",
               "move(3, pile, other)", "move(3, other, pile)", "clear(pile)", "move_all(pile, other)",
               "append(hand[0], 2)", "move(2, hand[0], hand[1])", "fill(flags, true)", "flags[0] = true",
               "counts[1] += 1", "counts[0] = counts[0] + 1", "append(other, 3)", "clear(other)", "pile = other",
               "pile = hand[0]", "hand[1] = other", "pile = first(hand)",
               "if score >= 0 then let l = other\npile = l end",
               "if score > 1 then append(other, 4) else score += 1 end", "if len(pile) > 0 then clear(pile) end",
               "if flags[0] then counts[0] += 1 end", "for s in [0, 1] do clear(hand[s]) end"]


def _counted_clause(clause: list[str]) -> Any:
    """One effect clause over the state of ``_STATEMENTS``, compiled for counting: (st, actor, a, tally)."""
    deck = DeckShape(("9", "J", "Q", "K", "10", "A"), ("S", "C", "D", "H"))
    types = {"score": "int", "pile": "list[card]", "other": "list[card]", "hand": "list[list[card]]",
             "flags": "list[bool]", "counts": "list[int]"}
    vars_ = {n: VarDecl(n, t, "game", "game", None, False, False, f"rule.{n}") for n, t in types.items()}
    comp = Compiler(Env(deck, vars_, {}, {}, {"play"}))
    args = ["st", "actor", "a"]
    counted = comp.counted([comp.block_fn("\n".join(clause), "rule.effect", Scope(), args)], args, [])
    comp.build("<test>")
    return counted.fn


def test_a_list_added_to_under_one_name_and_emptied_under_another_did_not_change():
    """One list under two names: an append to one is no sure change when a list of its type is changed
    elsewhere in the clause."""
    fn = _counted_clause(["append(pile, 3)", "clear(other)"])
    shared: list[int] = []
    v = {"score": 0, "pile": shared, "other": shared, "hand": [[], []], "flags": [False], "counts": [0, 0]}
    tally = [0, 0]
    fn(SimpleNamespace(v=v, set_by={}, rng=random.Random(1)), 0, {}, tally)
    assert v["pile"] == [] and tally == [0, 1]
    alone = _counted_clause(["append(pile, 3)", "score = 1"])  # an append nothing else can undo: a sure change
    tally = [0, 0]
    alone(SimpleNamespace(v=dict(v, pile=[]), set_by={}, rng=random.Random(1)), 0, {}, tally)
    assert tally == [1, 1]


def test_a_list_stored_under_a_second_name_and_changed_through_it_changed_the_first():
    """'pile = other' leaves one list under two names: emptying it through the new name changes 'other',
    though 'pile' is as empty after as before (found by the generated clauses below)."""
    for clause in (["pile = other", "clear(pile)"], ["pile = first(hand)", "clear(pile)"]):
        fn = _counted_clause(clause)
        v = {"score": 0, "pile": [], "other": [0], "hand": [[0], []], "flags": [False], "counts": [0, 0]}
        tally = [0, 0]
        fn(SimpleNamespace(v=v, set_by={}, rng=random.Random(1)), 0, {}, tally)
        assert v["pile"] == [] and tally == [1, 1], clause


@settings(max_examples=80, deadline=None)
@given(clause=st.lists(st.sampled_from(_STATEMENTS), min_size=1, max_size=4), data=st.data())
def test_generated_effect_clauses_are_counted_as_changed_exactly_when_the_state_differs(clause, data):
    """An effect clause is counted as having changed the game when the variables it may change differ after
    it: kept before and compared after, or settled at once by a statement that certainly changes one, and a
    branch keeps only what it writes. For random clauses over random states, some holding one list under two
    names, the count is what comparing the whole state before and after says."""
    import copy

    fn = _counted_clause(clause)
    for _ in range(4):
        cards = st.lists(st.integers(0, 5), max_size=3)
        v = {"score": data.draw(st.integers(0, 3)), "pile": data.draw(cards), "other": data.draw(cards),
             "hand": [data.draw(cards), data.draw(cards)], "flags": data.draw(st.lists(st.booleans(), min_size=1,
                                                                                       max_size=2)),
             "counts": data.draw(st.lists(st.integers(0, 2), min_size=2, max_size=2))}
        if data.draw(st.booleans()):
            v["other"] = v["pile"]  # one list under two names, as 'pile = other' leaves it
        before = copy.deepcopy(v)
        tally = [0, 0]
        try:
            fn(SimpleNamespace(v=v, set_by={}, rng=random.Random(1)), 0, {}, tally)
        except ValueError:
            continue  # a card moved from a list without it: the action fails, and nothing is counted
        assert tally == [int(v != before), 1], (clause, before, v)


def _keys_compared(rs: Any, seed: int) -> int:
    """Play a random game, weighing every action with no 'when' at each decision and keeping its candidates
    and outcomes by its decision key; every key seen again gives what it gave before. How many came back."""
    seen: dict[Any, Any] = {}
    repeats = 0

    def weigh(game: Game, _action: Action) -> None:
        nonlocal repeats
        for ca in game.c.by_phase.get(game.phase, ()):
            decision_key = rs.analysis.decision_keys.get(ca.name)
            if ca.when is None:
                assert decision_key is not None, ca.name
            doms = domains(game, rs, ca.name)
            if doms is None or ca.when is not None or decision_key is None:
                continue  # (a 'when' reads the game too, and its legal payloads with it: coverage keeps none)
            values = [frozenset(d) for _, d in doms]
            for seat in game.actors(ca.decl):  # a number's candidates are made from the legal values of its actor
                try:
                    key = (ca.name, seat, decision_key(game.st, seat))
                except Exception:
                    continue  # a part the guards would not reach here (the largest of nothing): no key, none kept
                outcomes = rs.analysis.outcomes[ca.name](game.st, seat, values)
                got = (tuple(sorted(map(sorted, map(list, values)))), outcomes)
                if key in seen:
                    repeats += 1
                    assert seen[key] == got, (ca.name, seat, key)
                seen[key] = got

    play_random(Game(rs, seed=seed), random.Random(seed), on_action=weigh, hinted=seed % 2 == 0, max_deals=3)
    return repeats


@settings(max_examples=len(PRESETS) + len(TOGETHER), deadline=None)
@given(which=st.sampled_from([(p, []) for p in PRESETS] + TOGETHER), seed=st.integers(0, 2**16))
def test_positions_with_the_same_decision_key_give_the_same_outcomes(which, seed):
    """Coverage keeps an action's outcomes by the key of what its guards and choices read of the game
    (``decision_key``). Across random games of every preset, two positions with the same key for a seat give
    the same candidates and the same outcomes for them, for every action with no 'when' (each has a key)."""
    _keys_compared(load_ruleset(*which), seed)


def test_decision_keys_come_back_in_a_game():
    """The comparison above is made: in a classic game, most bids' and passes' keys are seen again."""
    assert _keys_compared(load_ruleset("classic"), 2) > 20
