"""The compiler: each piece of logic is compiled on its own, whatever was compiled before it in the ruleset."""

import ast
import itertools
import random
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle.errors import RuleFileError
from oracle.lang.compiler import Compiler, Env, Param, Scope, VarDecl, _Memo
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


# Library calls the compiler writes in line (or walks without building the list), each with what the
# library's own function gives; xs and k are state variables, so nothing is worked out at compile time.
_INLINED = [
    ("position(xs, k)", lambda xs, k: xs.index(k) if k in xs else -1),
    ("position([3, 1, 4, 1], k)", lambda xs, k: [3, 1, 4, 1].index(k) if k in (3, 1, 4, 1) else -1),
    ("position(xs, k % 3 + 1)", lambda xs, k: xs.index(k % 3 + 1) if k % 3 + 1 in xs else -1),
    # A remainder's position in constants: a table by remainder (absent values, repeats, a negative k).
    ("position([3, 1, 4, 1, -2], k % 5)", lambda xs, k: [3, 1, 4, 1, -2].index(k % 5) if k % 5 in (3, 1, 4) else -1),
    ("position([5, 1, 4, 3, 2, 0], k % 6)", lambda xs, k: [5, 1, 4, 3, 2, 0].index(k % 6)),
    ("position([2, 0], k % 65)", lambda xs, k: [2, 0].index(k % 65) if k % 65 in (2, 0) else -1),  # no table
    ("first(xs) + last(xs) * 10", lambda xs, k: xs[0] + xs[-1] * 10),
    ("min([k, 3]) + max([k, 1, len(xs)])", lambda xs, k: min(k, 3) + max(k, 1, len(xs))),
    ("min([k]) + max(xs)", lambda xs, k: k + max(xs)),
    ("k in range(1, len(xs) + 2, 2)", lambda xs, k: k in list(range(1, len(xs) + 2, 2))),
    ("k not in range(len(xs), 3)", lambda xs, k: k not in list(range(len(xs), 3))),
    ("sum([c for c in range(k, 9, 3)])", lambda xs, k: sum(range(k, 9, 3))),
    ("k in range(5, 0, -1) or k in range(len(xs), 9, 0)", lambda xs, k: False),  # the library: no such list
    ("[c * 10 + k for c in [x for x in xs where x > k] where c != 2]",
     lambda xs, k: [c * 10 + k for c in xs if c > k and c != 2]),
    ("len([c for c in [x for x in [y for y in xs where y > 0] where x < k]])",
     lambda xs, k: len([c for c in xs if 0 < c < k])),
]


def test_library_calls_written_in_line_give_what_the_library_gives():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    deck = DeckShape(("9", "J", "Q", "K", "10", "A"), ("S", "C", "D", "H"))
    vars_ = {"xs": VarDecl("xs", "list[int]", "game", "game", [], False, False, "rule.xs"),
             "k": VarDecl("k", "int", "game", "game", 0, False, False, "rule.k")}
    comp = Compiler(Env(deck, vars_, {}, {}, {"play"}))
    fns = [(text, comp.expr_fn(text, "rule.x", Scope(), None, SAMPLE_ARGS), want) for text, want in _INLINED]
    comp.build("<test>")
    assert not any("b_position" in f.fn.__code__.co_names for _, f, _ in fns[:6])  # written in line
    assert ["index" in f.fn.__code__.co_names for _, f, _ in fns[3:6]] == [False, False, True]  # tables

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.integers(-1, 5), max_size=5), st.integers(-70, 140))
    def agree(xs, k):
        state = SimpleNamespace(v={"xs": xs, "k": k}, rng=random.Random(1), set_by={})
        for text, handle, want in fns:
            try:
                expected = want(xs, k)
            except (IndexError, ValueError) as exc:  # first, last, max of nothing: the same error
                with pytest.raises(type(exc)):
                    handle.fn(state, 0)
                continue
            assert handle.fn(state, 0) == expected, (text, xs, k)

    agree()


# ------------------------------------------------------------------ the legal loop's memos

def _expressions():
    names = st.sampled_from(["p_card", "p_to", "hand", "actor", "len", "sum"]).map(lambda n: ast.Name(n, ast.Load()))
    return st.recursive(names | st.integers(0, 3).map(ast.Constant), lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: ast.BinOp(t[0], ast.Add(), t[1])),
        st.tuples(names, st.lists(inner, max_size=2)).map(lambda t: ast.Call(t[0], t[1], [])),
        st.tuples(inner, inner).map(lambda t: ast.ListComp(t[0], [ast.comprehension(
            ast.Name("x", ast.Store()), t[1], [], 0)])),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: ast.Tuple(xs, ast.Load()))), max_leaves=12)


@given(_expressions())
def test_a_part_of_a_guard_is_memoised_exactly_when_it_calls_something_and_reads_no_payload(expr):
    # What the memo pass learns of each node bottom up, once, against the definition asked of every node's
    # whole subtree: a comprehension or a call of anything but len, and no read of a payload field.
    payload = {"p_card", "p_to"}

    def costly(n):
        return any(isinstance(x, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda))
                   or (isinstance(x, ast.Call) and not (isinstance(x.func, ast.Name) and x.func.id == "len"))
                   for x in ast.walk(n))

    def reads(n):
        return any(isinstance(x, ast.Name) and x.id in payload for x in ast.walk(n))

    def reached(n):  # what the pass looks at: it does not enter a comprehension (a memo would bind there)
        yield n
        if not isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            for x in ast.iter_child_nodes(n):
                yield from reached(x)

    memo = _Memo(itertools.count(), payload)
    for node in ast.walk(expr):
        assert memo._learnt(node) == (costly(node), reads(node)), ast.dump(node)
    out = memo.visit(expr)
    assert (out is not expr) == any(costly(n) and not reads(n) for n in reached(expr)
                                    if isinstance(n, ast.expr)), ast.dump(expr)


@pytest.mark.parametrize("name", ["classic", "four-dummy", "1k"])
def test_a_compile_leaves_no_syntax_tree_for_the_cyclic_collector(name, monkeypatch):
    # A compile makes tens of thousands of nodes; those it drops must be freed as it drops them. Held in a
    # cycle (a nested function that calls itself holds its own cell), they would wait for a collection that
    # walks them all, and be kept for good by a cache that moves what is alive out of the collector's way.
    import gc

    from oracle.ruleset import compile_resolved, resolve

    monkeypatch.setenv("THOUSAND_CACHE", "0")
    res = resolve(name, [], {"bid_step": 15})
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        compile_resolved(res)
        gc.collect()
        kept = [type(o).__name__ for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert kept == []
