"""The compiler: each piece of logic is compiled on its own, whatever was compiled before it in the ruleset."""

import random
from types import SimpleNamespace

import pytest

from oracle.errors import RuleFileError
from oracle.lang.compiler import Compiler, Env, Param, Scope, VarDecl
from oracle.lang.stdlib import DeckShape

SAMPLE_ARGS, EFFECT_ARGS = ["st", "actor"], ["st", "actor", "a"]


def _compiler() -> Compiler:
    deck = DeckShape(("9", "J", "Q", "K", "10", "A"), ("S", "C", "D", "H"))
    vars_ = {name: VarDecl(name, "int", "game", "game", 0, False, False, f"rule.{name}") for name in ("score", "bonus")}
    params = {"step": Param("step", "int", 5, None, "rule.step")}
    return Compiler(Env(deck, vars_, params, {}, {"play"}))


def _state() -> SimpleNamespace:
    return SimpleNamespace(v={"score": 0, "bonus": 2}, rng=random.Random(1), set_by={})


def test_what_a_piece_depends_on_and_writes_is_its_own_not_the_piece_before():
    comp = _compiler()
    sample = comp.block_fn("score = random_int(0, step)\nreturn score", "rule.sample", Scope(), SAMPLE_ARGS,
                           allow_return=True, allow_random=True)
    unguarded = comp.guard_fns([], [], [], Scope(), [])
    plain = comp.expr_fn("bonus + 1", "rule.plain", Scope(), "int", SAMPLE_ARGS)
    effect = comp.block_fn("bonus = bonus + 1", "rule.effect", Scope(), EFFECT_ARGS)
    comp.build("<test>")

    assert (sample.deps, sample.param_deps, sample.writes) == ({"rule.sample"}, {"rule.step"}, {"score"})
    for fn in (unguarded.check, unguarded.legal):
        assert (fn.deps, fn.param_deps, fn.writes) == (set(), set(), set())
    assert (plain.deps, plain.param_deps, plain.writes) == ({"rule.plain"}, set(), set())
    assert (effect.deps, effect.param_deps, effect.writes) == ({"rule.effect"}, set(), {"bonus"})

    # The expression read 'bonus' into a local; the block after it reads the state itself.
    st = _state()
    assert plain.fn(st, 0) == 3
    effect.fn(st, 0, {})
    assert st.v["bonus"] == 3
    drawn = sample.fn(st, 0)
    assert 0 <= drawn <= 5 and st.v["score"] == drawn


def test_a_sample_that_failed_to_compile_lends_no_permission_to_the_next_piece():
    comp = _compiler()
    with pytest.raises(RuleFileError, match=r"unknown name .nothing.*\(in rule rule.sample\)"):
        comp.block_fn("score = random_int(0, 1)\nscore = nothing", "rule.sample", Scope(), SAMPLE_ARGS,
                      allow_return=True, allow_random=True)
    with pytest.raises(RuleFileError, match=r"draws at random.*\(in rule rule.when\)"):
        comp.expr_fn("random_int(0, 1) > 0", "rule.when", Scope(), "bool", SAMPLE_ARGS)
    with pytest.raises(RuleFileError, match=r"draws at random.*\(in rule rule.guard\)"):
        comp.guard_fns([], [], [("random_int(0, 1) > 0", "rule.guard")], Scope(), [])
    with pytest.raises(RuleFileError, match=r"'return' is only allowed.*\(in rule rule.effect\)"):
        comp.block_fn("return 1", "rule.effect", Scope(), EFFECT_ARGS)
