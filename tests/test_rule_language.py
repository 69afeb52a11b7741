"""The rule language: parse errors, type errors and unknown names are reported at file:line:col."""

import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rules_tree import copy_rules, edit

from oracle.errors import RuleFileError
from oracle.lang import types as T
from oracle.lang.parser import parse
from oracle.ruleset import load_ruleset

FOLLOW = "spec/play/follow-suit.yaml"
GUARD = "forbid: len(trick) > 0 and suit(card) != led and holds_suit(actor, led)"


@pytest.fixture
def tree(tmp_path):
    return copy_rules(tmp_path)


def load_error(tree) -> RuleFileError:
    with pytest.raises(RuleFileError) as info:
        load_ruleset("classic", root=tree)
    return info.value


def guard_column(tree, fragment: str) -> tuple[int, int]:
    """Line and column (1-based) of a fragment of the follow-suit guard in the scratch file."""
    lines = (tree / FOLLOW).read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines, 1):
        if fragment in line:
            return i, line.index(fragment) + 1
    raise AssertionError(fragment)


def test_grammar_parses_expressions_and_blocks():
    assert parse("a + b * 2 == c and not x in y", "expr").data == "and_"
    block = parse("let x = 1\nif x > 0 then y = [c for c in h where c != x] else z += 1 end", "block")
    assert [c.data for c in block.children] == ["let_stmt", "if_stmt"]


def test_python_code_is_not_rule_code():
    with pytest.raises(RuleFileError):
        parse('__import__("os").system("true")', "expr")
    with pytest.raises(RuleFileError):
        parse("lambda x: x", "expr")


def test_syntax_error_points_into_the_yaml_file(tree):
    edit(tree, FOLLOW, GUARD, GUARD.replace("suit(card) != led", "suit(card) !=! led"))
    err = load_error(tree)
    line, col = guard_column(tree, "!=! led")
    assert err.location.file == FOLLOW
    assert (err.location.line, err.location.column) == (line, col + 2)
    assert "unexpected" in err.message


def test_unknown_function_is_named_with_a_suggestion(tree):
    edit(tree, FOLLOW, "holds_suit(actor, led)", "hold_suit(actor, led)")
    err = load_error(tree)
    line, col = guard_column(tree, "hold_suit(")
    assert (err.location.file, err.location.line, err.location.column) == (FOLLOW, line, col)
    assert "unknown function 'hold_suit'" in err.message and "holds_suit" in err.message
    assert "play.follow-suit" in err.message


def test_unknown_name_or_parameter(tree):
    edit(tree, FOLLOW, "suit(card) != led", "suit(card) != lead_suit")
    err = load_error(tree)
    assert "unknown name 'lead_suit'" in err.message
    assert err.location.line == guard_column(tree, "lead_suit")[0]


def test_type_error_comparing_a_suit_with_a_rank(tree):
    edit(tree, FOLLOW, "suit(card) != led", "suit(card) != rank(card)")
    err = load_error(tree)
    assert "cannot compare suit with rank" in err.message
    assert err.location.file == FOLLOW


def test_type_error_arithmetic_on_a_card_list(tree):
    edit(tree, FOLLOW, "len(trick) > 0", "trick + 1 > 0")
    err = load_error(tree)
    assert "needs numbers" in err.message


def test_unknown_rank_in_a_literal(tree):
    edit(tree, "spec/marriage/definition.yaml", 'rank(card) in marriage_ranks', 'rank(card) in ["K", "Z"]')
    err = load_error(tree)
    assert "unknown rank 'Z'" in err.message


def test_unknown_choice_of_an_enum_parameter(tree):
    edit(tree, "spec/play/first-lead.yaml", 'first_lead == "dealer"', 'first_lead == "dealr"')
    err = load_error(tree)
    assert "'dealr' is not one of the choices" in err.message


def test_unknown_phase_in_an_assignment(tree):
    edit(tree, "spec/talon/raise.yaml", 'phase = "play"', 'phase = "plya"')
    err = load_error(tree)
    assert "unknown phase 'plya'" in err.message and "play" in err.message


def test_a_forbid_condition_must_be_boolean(tree):
    edit(tree, FOLLOW, GUARD, "forbid: len(trick)")
    err = load_error(tree)
    assert "must be true or false" in err.message


def test_procedures_cannot_be_used_as_values(tree):
    edit(tree, FOLLOW, "len(trick) > 0", "move_all(trick, trick)")
    err = load_error(tree)
    assert "use it as a statement" in err.message


def test_random_functions_only_in_samples(tree):
    edit(tree, FOLLOW, "len(trick) > 0", "len(shuffled(trick)) > 0")
    err = load_error(tree)
    assert "only allowed in an action's 'sample'" in err.message


def test_cannot_assign_to_a_parameter(tree):
    edit(tree, "spec/talon/raise.yaml", "contract = value", "max_bid = value")
    err = load_error(tree)
    assert "cannot assign to 'max_bid': it is a parameter" in err.message


def test_block_errors_point_at_the_right_line(tree):
    edit(tree, "spec/play/trick-resolution.yaml", "tricks_won[w] += 1", "tricks_won[w] += true")
    err = load_error(tree)
    text = (tree / "spec/play/trick-resolution.yaml").read_text(encoding="utf-8").splitlines()
    assert "+= true" in text[err.location.line - 1]


def test_recursive_definitions_are_rejected(tree):
    edit(tree, "spec/deck/card-points.yaml", "expr: card_points[rank(c)]", "expr: card_value(c)")
    err = load_error(tree)
    assert "calls itself" in err.message


def test_a_choice_outside_its_choices_is_refused_with_or_without_a_guard_saying_so(tree):
    # The compiled check leaves out the test of the choices when a guard already refuses a value
    # outside them ('card not in hand[actor]'); take that guard away and the test must be back.
    from support import Table

    def refusal(rs):
        t = Table(rs, hands={0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C"}, talon="9D JC JD")
        t.to_play(1, give=("JC", "JD"))
        return t.rejects(1, "play", card="AC", marriage=False)

    held = refusal(load_ruleset("classic", root=tree))
    assert (held.rule_id, held.reason) == ("play.lead-any", "not-in-hand")
    edit(tree, "spec/play/lead-any.yaml", "forbid: card not in hand[actor]", "forbid: len(hand[actor]) > 99")
    bare = refusal(load_ruleset("classic", root=tree))
    assert bare.reason == "not-available" and bare.message.startswith("card AC is not among")


def test_same_items_compares_lists_of_any_items():
    from oracle.lang.stdlib import same_items

    assert same_items([3, 1, 2, 1], [1, 2, 1, 3]) and not same_items([1, 1, 2], [1, 2, 2])
    assert same_items([None, 1], [1, None]) and not same_items([None, 1], [1, 1])  # unorderable items
    assert not same_items([1], [1, 1])


@given(st.integers(0, 5), st.lists(st.integers(0, 5), max_size=6))
def test_next_in_goes_clockwise_from_the_seat_after(s, group):
    # Seats are numbered clockwise: the next one is the nearest going round from s + 1; s itself only
    # after a full round, when it is alone in the list.
    from oracle.lang.stdlib import next_in

    want = min(group, key=lambda x: (x - s - 1) % 6) if group else None
    assert next_in(s, group) == want


def test_a_procedure_reading_a_changing_place_twice_is_not_inlined(tree):
    # move(x, src, dst) runs as src.remove(x) then dst.append(x); an x read from src itself must be read
    # once, before the removal, or the next card would be appended instead.
    import random

    from oracle import Game, play_random

    def sheet(rs):
        g = Game(rs, dealer=0, seed=5)
        play_random(g, random.Random(5), max_deals=3)
        return g.sheet, g.v["won"]

    plain = sheet(load_ruleset("classic", root=tree))
    edit(tree, "spec/play/lead-any.yaml", "move(card, hand[actor], trick)",
         "move(hand[actor][position(hand[actor], card)], hand[actor], trick)")
    assert sheet(load_ruleset("classic", root=tree)) == plain


def test_list_procedures_are_inlined_only_where_a_second_read_reads_the_same():
    import ast

    from oracle.lang.stdlib import REGISTRY

    def arg(text):
        return ast.parse(text, mode="eval").body

    move, move_all = REGISTRY["move"].inline, REGISTRY["move_all"].inline
    assert move(None, [arg("p_card"), arg("V['hand'][actor]"), arg("V['trick']")]) is not None
    assert move(None, [arg("V['hand'][actor][0]"), arg("V['hand'][actor]"), arg("V['trick']")]) is None
    assert move_all(None, [arg("V['hand'][s]"), arg("V['stock']")]) is not None
    assert move_all(None, [arg("V['hand'][len(V['trick'])]"), arg("V['trick']")]) is None


@pytest.mark.parametrize(("rel", "old", "new", "charged"), [
    # an effect's error: its own rule, though the action's check and effects run as one function
    ("spec/play/trick-resolution.yaml", "let w = trick_winner()", "let w = trick_by[7 - len(trick)]",
     "play.trick-resolution"),
    # a guard's error: the guard's own rule and clause, not the rule declaring the action
    ("spec/play/follow-suit.yaml", "forbid: len(trick) > 0 and", "forbid: len(trick) > 0 and trick_by[5] == 0 and",
     "play.follow-suit"),
])
def test_a_rule_that_fails_while_an_action_runs_is_named(tree, rel, old, new, charged):
    from support import Table

    from oracle.errors import RuleRuntimeError

    edit(tree, rel, old, new)
    t = Table(load_ruleset("classic", root=tree), hands={1: "AS 10S KS QS JS 9S 9C"}, talon="9D JC JD")
    t.to_play(1, give=("JC", "JD"))
    failed = rf"clause {charged}/\S+ \(rule {charged}\) failed while running"
    with pytest.raises(RuleRuntimeError, match=failed) as info:
        for card in ("AS", "AD", "10C", "10S"):
            t.act(t.game.v["turn"], "play", card=card, marriage=False)
    # At the failing clause's own line in its own file, with the ruleset, the deal and the seat named.
    where = info.value.location
    assert where is not None and where.file == rel
    assert (tree / rel).read_text(encoding="utf-8").splitlines()[where.line - 1].strip().startswith("- id:")
    assert "ruleset classic, deal 1, seat " in info.value.message


def test_every_expression_form_of_the_grammar_has_its_compiler_and_no_other():
    import re
    from importlib.resources import files

    from oracle.lang.compiler import EXPRESSION_FORMS

    grammar = files("oracle.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    statements = grammar[grammar.index("?stmt:"):grammar.index("elif_part:")]
    forms = set(re.findall(r"->\s*(\w+)", grammar)) - set(re.findall(r"->\s*(\w+)", statements))
    assert forms and set(EXPRESSION_FORMS) == forms


def _guard_texts():
    atom = st.sampled_from(["x", "y", "k in xs", "len(xs) > k"])
    quantified = st.builds(
        "{}([{} for c in xs{}])".format,
        st.sampled_from(["any", "all"]), st.sampled_from(["c > k", "c == k", "c // 2 == k"]),
        st.sampled_from(["", " if c != 1", " if c > 0 if c < 4"]))
    return st.recursive(atom | quantified, lambda inner: st.one_of(
        st.builds("(not {})".format, inner),
        st.builds("({} and {})".format, inner, inner),
        st.builds("({} or {} or {})".format, inner, inner, inner)), max_leaves=8)


@given(_guard_texts(), st.lists(st.lists(st.integers(0, 4), max_size=4), min_size=1, max_size=4),
       st.booleans(), st.booleans(), st.integers(0, 4))
def test_a_guard_lowered_to_loops_refuses_exactly_when_its_condition_holds(text, hands, x, y, k):
    # Guards are compiled to nested ifs and loops that stop at the first item that settles an any/all;
    # whatever the shape of and, or, not and quantifiers, they must refuse exactly when the condition holds.
    import ast

    from oracle.lang.compiler import _when

    test = ast.parse(text, mode="eval").body
    args = ast.arguments([], [ast.arg(n) for n in ("xs", "x", "y", "k")], None, [], [], None, [])
    refuse, allow = [ast.Return(ast.Constant(0))], ast.Return(ast.Constant(-1))
    fns = ast.Module([ast.FunctionDef("plain", args, [ast.If(test, refuse, []), allow], [], None),
                      ast.FunctionDef("lowered", args, [*_when(test, refuse), allow], [], None)], [])
    namespace: dict = {}
    exec(compile(ast.fix_missing_locations(fns), "<guard>", "exec"), namespace)
    for xs in hands:
        assert namespace["lowered"](xs, x, y, k) == namespace["plain"](xs, x, y, k), (text, xs)


# Parts of guards over the fields: numbers chosen from lists that may be empty (a, b), a flag (its two values,
# a fixed list), a number of fixed choices (g) and one with none (e); some raise where an earlier part would
# have settled the guard first (an index out of range, a division by zero).
_LISTING_PARTS = {"a": ["p_a > k", "ds[p_a] > 1", "1 // (p_a - k) > 0"], "b": ["len(ds) > p_b", "ds[p_b] == k"],
                  "f": ["p_f", "(not p_f)"], "g": ["p_g == k", "ds[p_g] > 0"], "e": ["p_e > 0"],
                  "": ["k > 2", "ds[k] > 0"]}
_FIELD_DOMAINS = {"a": "dom_a", "b": "dom_b", "f": "(False, True)", "g": "(0, 1, 2)", "e": "()"}


@st.composite
def _listings(draw):
    fields = draw(st.permutations(list(_FIELD_DOMAINS)))[:draw(st.integers(1, 3))]
    part = st.sampled_from([p for f in ["", *fields] for p in _LISTING_PARTS[f]])
    return fields, draw(st.lists(st.lists(part, min_size=1, max_size=3), max_size=4))


@example((["b", "a", "f"], [["p_f", "(not p_f)"], ["ds[p_a] > 1"]]), [], 0, [0], [0])  # the flag's guard first
@settings(max_examples=1000 if os.environ.get("THOUSAND_DEEP") else 300)  # a few thousandths of a second each
@given(_listings(), st.lists(st.integers(0, 4), max_size=4), st.integers(0, 4),
       st.lists(st.integers(0, 5), max_size=3), st.lists(st.integers(0, 5), max_size=3))
def test_the_listing_asks_a_guard_part_in_the_outermost_loop_it_may_and_lists_what_the_innermost_would(
        listing, ds, k, dom_a, dom_b):
    # A part that reads only outer fields is asked once per outer choice where the loops inside are over
    # fixed choices; what the listing gives (or the error it raises) must be what asking every guard for
    # every payload in the innermost loop gives.
    import ast

    from oracle.lang.compiler import Compiler

    fields, guards = listing
    live = [ast.parse(" or ".join(g), mode="eval").body for g in guards]
    keep = ast.parse("out.append((" + ", ".join(f"p_{f}" for f in fields) + ",))").body[0]
    domains = [ast.parse(_FIELD_DOMAINS[f], mode="eval").body for f in fields]
    loops = Compiler._listing_loops(live, [(f, "int") for f in fields], domains, keep)
    naive: list[ast.stmt] = [keep]
    if live:
        naive.insert(0, ast.If(ast.BoolOp(ast.Or(), live) if len(live) > 1 else live[0], [ast.Continue()], []))
    for f, dom in reversed(list(zip(fields, domains, strict=True))):
        naive = [ast.For(ast.Name(f"p_{f}", ast.Store()), dom, naive, [])]
    args = ast.arguments([], [ast.arg(n) for n in ("ds", "k", "dom_a", "dom_b")], None, [], [], None, [])
    start, end = ast.parse("out = []").body[0], ast.parse("return out").body[0]
    fns = ast.Module([ast.FunctionDef(name, args, [start, *code, end], [], None)
                      for name, code in (("hoisted", loops), ("naive", naive))], [])
    namespace: dict = {}
    exec(compile(ast.fix_missing_locations(fns), "<listing>", "exec"), namespace)

    def outcome(fn):
        try:
            return fn(ds, k, dom_a, dom_b)
        except (IndexError, ZeroDivisionError) as exc:
            return type(exc).__name__
    assert outcome(namespace["hoisted"]) == outcome(namespace["naive"]), ast.unparse(ast.Module(loops, []))


_SIMPLE_STATEMENTS = [
    "V['n'] = V['n'] + 1", "V['n'] += V['m']", "V['xs'] = [V['n']]", "V['xs'].append(V['m'])",
    "V['xs'] += [V['n']]", "V['m'] = len(V['xs'])", "log.append((V['n'], V['m'], list(V['xs'])))",
    "log.append([x + V['n'] for x in V['xs']])", "renew(st)", "note(st, V['n'])", "st.set_by['n'] = 'r'",
]


def _bodies():
    simple = st.sampled_from(_SIMPLE_STATEMENTS).map(lambda s: [s])

    def compound(inner):
        block = st.lists(inner, min_size=1, max_size=3).map(lambda bs: [line for b in bs for line in b])
        indent = block.map(lambda lines: ["    " + line for line in lines])
        return st.one_of(
            st.builds(lambda body, other: ["if V['n'] % 2 == 0:", *body, "else:", *other], indent, indent),
            st.builds(lambda body: ["for i in range(2):", "    if V['m'] > 3:", "        break", *body], indent))
    stmt = st.recursive(simple, compound, max_leaves=6)
    return st.lists(stmt, min_size=1, max_size=6).map(lambda bs: [line for b in bs for line in b])


@given(_bodies(), st.sets(st.sampled_from(["n", "m", "xs"])))
def test_effects_reading_variables_once_behave_as_reading_them_each_time(lines, bound):
    # Effects keep the variables they read in locals; whatever the writes, branches, loops and calls
    # that renew the state in between, they must do what the plain reads do.
    import ast

    from oracle.lang.reads import read_once

    class State:
        def __init__(self) -> None:
            self.v = {"n": 1, "m": 2, "xs": [3]}
            self.set_by: dict = {}

    def renew(s: State) -> None:  # what reset and end_deal do: new values behind the body's back
        s.v.update(n=s.v["n"] + 10, xs=[*s.v["xs"], 0])

    body = ast.parse("\n".join(lines)).body
    preamble = [ast.parse(f"v_{n} = V['{n}']").body[0] for n in sorted(bound)]
    fast = read_once(body, {n: f"v_{n}" for n in bound}, {"note"}, lambda n: f"v_{n}")
    args = ast.arguments([], [ast.arg("st"), ast.arg("log")], None, [], [], None, [])
    start = ast.parse("V = st.v").body
    mod = ast.Module([ast.FunctionDef("plain", args, [*start, *body], [], None),
                      ast.FunctionDef("fast", args, [*start, *preamble, *fast], [], None)], [])
    namespace: dict = {"renew": renew, "note": lambda s, x: None}
    exec(compile(ast.fix_missing_locations(mod), "<effects>", "exec"), namespace)
    results = []
    for name in ("plain", "fast"):
        state, log = State(), []
        namespace[name](state, log)
        results.append((state.v, log))
    assert results[0] == results[1], "\n".join(lines)
    assert ast.dump(ast.Module(body, [])) == ast.dump(ast.parse("\n".join(lines))), "the statements were changed"


def test_a_variable_read_after_a_reset_is_read_afresh(tree):
    # The deal's seats are read before and after reset("deal") in one fused body: after it, the
    # rules must see the new, empty list, not the one kept from before.
    import random

    from oracle import Game, play_random

    edit(tree, "spec/deal/structure.yaml", '      reset("deal")\n',
         '      if len(active) > 4 then\n        fail("more seats than players")\n      end\n      reset("deal")\n'
         '      if len(active) > 0 then\n        fail("the seats of the last deal are still there")\n      end\n')
    game = Game(load_ruleset("classic", root=tree), seed=3)
    play_random(game, random.Random(3), max_deals=3)
    assert len(game.sheet) == 3


@given(st.recursive(st.sampled_from(sorted(T.SCALARS - {"none"})),
                    lambda inner: st.one_of(inner.map(lambda t: f"list[{t}]"),
                                            inner.filter(lambda t: not t.endswith("?")).map(lambda t: f"{t}?")),
                    max_leaves=3))
def test_a_type_is_taken_apart_once_and_agrees_with_the_helpers(t):
    # One reader of type strings (types.parse): its parts say what the old string helpers said.
    parsed = T.parse(t)
    assert parsed.text == T.normalize(t)
    assert parsed.nullable == T.normalize(t).endswith("?")
    assert (parsed.name == "list") == T.base(T.normalize(t)).startswith("list[")
    if parsed.name == "list":
        assert parsed.elem is not None and parsed.elem.text == T.elem(t) == T.list_elem(t)
    else:
        assert T.list_elem(t) is None
    assert T.parse("map[rank,int]").key == T.parse("rank") and T.parse("map[rank, int]").elem == T.parse("int")
