"""Compile checked rule-language trees into Python functions.

The rule text is parsed by Lark into a tree; this module type-checks the tree and
builds a Python ``ast`` module from it, which is compiled once per ruleset. The
rule text itself is never handed to ``eval`` or ``exec``: only trees we built,
node by node, from a grammar we control.

Parameters are known when a ruleset is compiled, so they become constants and
branches on them fold away: a ruleset pays only for the rules it enables.
Expression definitions (``define:``) are inlined at their call sites.

Each piece of logic (a guard, a clause's effects, a sample...) is translated by a :class:`Translator`
made for it alone: its :class:`Mode` says what the piece may do, and its :class:`Found` records the
rules it depends on and the variables it reads and writes as they are met. The :class:`Compiler`
holds only what a ruleset's pieces share (the module's names, the functions emitted so far) and
makes functions of the pieces: it reads hoisted variables into locals, fuses a trigger's clauses and
joins an action's check with its effects.
"""

from __future__ import annotations

import ast
import copy
import itertools
import marshal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from lark import Token, Tree

from ..errors import Location, RuleFileError
from ..limits import MAX_RULESET_NODES, MAX_TEXT_NODES
from ..yamlpos import PosStr
from . import types as T
from .changes import ClauseWrites
from .parser import parse
from .reads import children, read_once
from .stdlib import REGISTRY, Builtin, DeckShape

# Engine variables whose last writer the state remembers: when an action is refused because
# it is not that seat's turn, not this phase, or the game is over, the rule that set the
# turn, the phase, the dealer or the end of the game is the rule that is named.
BLAMED_VARS = ("turn", "phase", "dealer", "game_over")

# Names the engine maintains for every game, whatever the rules.
ENGINE_VARS: dict[str, str] = {
    "seats": "list[seat]",
    "n_seats": "int",
    "phase": "phase",
    "turn": "seat?",
    "dealer": "seat",
    "deal_no": "int",
    "game_over": "bool",
    "winner": "seat?",
    "teams": "list[int]",
}

KEYWORDS = {"let", "if", "then", "elif", "else", "end", "for", "in", "do", "return", "and", "or", "not",
            "true", "false", "none", "where"}


@dataclass
class VarDecl:
    name: str
    type: str
    scope: str  # game | seat
    lifetime: str  # deal | game | engine
    init: Any
    record: bool
    zone: bool
    rule_id: str
    explained_by: str | None = None
    samples: list[Any] | None = None
    only_while: str | None = None  # a per-seat flag: this per-seat value means something only where it holds


@dataclass
class Param:
    name: str
    type: str  # the rule-language type of its compiled value
    value: Any  # the compiled value (indices for suits/ranks, tuples for lists)
    choices: tuple[str, ...] | None
    rule_id: str


@dataclass
class Define:
    name: str
    args: list[tuple[str, str]]
    returns: str
    text: PosStr
    rule_id: str
    block: bool
    tree: Tree | None = None


@dataclass
class Env:
    """Everything a rule may name, resolved for one ruleset."""

    deck: DeckShape
    vars: dict[str, VarDecl]
    params: dict[str, Param]
    defines: dict[str, Define]
    phases: set[str]
    events: set[str] = field(default_factory=set)
    marks: set[str] = field(default_factory=set)
    logic_rules: set[str] = field(default_factory=set)  # rules with clauses or definitions of their own

    def kind_of(self, name: str) -> str | None:
        if name in self.params:
            return "param"
        if name in self.vars or name in ENGINE_VARS:
            return "var"
        if name in self.defines:
            return "define"
        if name in REGISTRY:
            return "builtin"
        return None

    def var_type(self, name: str) -> str:
        if name in ENGINE_VARS:
            return ENGINE_VARS[name]
        d = self.vars[name]
        return T.list_of(d.type) if d.scope == "seat" else d.type


@dataclass
class Val:
    node: ast.expr
    type: str
    choices: tuple[str, ...] | None = None
    var: str | None = None  # the state variable this value is, or is a part of (a procedure may change it)

    @property
    def const(self) -> bool:
        return isinstance(self.node, ast.Constant) or (
            isinstance(self.node, (ast.Tuple,)) and all(isinstance(e, ast.Constant) for e in self.node.elts))

    @property
    def value(self) -> Any:
        if isinstance(self.node, ast.Constant):
            return self.node.value
        return tuple(e.value for e in self.node.elts)  # type: ignore[attr-defined]  # const: a tuple of constants


def _c(v: Any) -> ast.expr:
    if isinstance(v, tuple):
        return ast.Tuple(elts=[_c(x) for x in v], ctx=ast.Load())
    return ast.Constant(value=v)


def _name(n: str, store: bool = False) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Store() if store else ast.Load())


def _sub(value: ast.expr, key: ast.expr, store: bool = False) -> ast.Subscript:
    return ast.Subscript(value=value, slice=key, ctx=ast.Store() if store else ast.Load())


class Scope:
    def __init__(self, parent: Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, tuple[str, Any, str]] = {}

    def lookup(self, name: str) -> tuple[str, Any, str] | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def bind(self, name: str, kind: str, data: Any, type_: str) -> None:
        self.names[name] = (kind, data, type_)


@dataclass
class Unit:
    """One piece of rule text being compiled, for error locations."""

    text: PosStr | str
    rule_id: str

    def loc(self, meta_or_token: Any) -> Location:
        line = getattr(meta_or_token, "line", None) or 1
        col = getattr(meta_or_token, "column", None) or 1
        if isinstance(self.text, PosStr):
            return self.text.location_at(line, col)
        return Location(f"<{self.rule_id}>", line, col)


@dataclass(eq=False)
class Fn:
    """A handle on one compiled function: what it reads and writes, and, once built, the function itself.

    The compiler names the generated Python functions itself; callers hold handles, never names.
    """

    deps: set[str]  # rules whose logic or definitions it runs
    param_deps: set[str]  # rules whose parameters it reads
    writes: set[str]  # state variables it assigns
    name: str = ""
    changes: set[str] | None = None  # every state variable it may change; None: it cannot tell (Found.changes)
    fn: Callable[..., Any] = field(default=None, repr=False)  # type: ignore[assignment]  # set when compiled


@dataclass(eq=False)
class GuardFns:
    """The two functions guarding one action, and what each of its guards depends on."""

    check: Fn  # (st, actor, payload) -> the first forbidding guard, -2 - j for a choice j outside its choices, or -1
    legal: Fn  # (st, actor) -> every payload no guard forbids, over the action's choices
    deps: list[set[str]]  # per guard, in order
    dead: list[bool]  # per guard: its condition folded to false under this ruleset's parameters
    # What only rule coverage and the conformance harness ask for, made when asked (``analysis``):
    outcomes: Fn | None = None  # (st, actor, payloads) -> the set of what check gives for each of them
    refusers: Fn | None = None  # (st, actor, payload) -> every guard that forbids it, in order (-1 - i: guard i raised)
    # (st, actor) -> the values of everything the guards and the choices read of the game: the same key, the
    # same answers for every payload. None when a guard reads the game in a way it cannot name.
    key: Fn | None = None


def _global(b: Builtin) -> str:
    """The generated module's name for a builtin's implementation."""
    return f"b_{b.name}"


def _local(var: str) -> str:
    """The generated code's local holding a state variable read once."""
    return f"v_{var}"


def _set_line(nodes: list[Any], line: int, only_missing: bool = False) -> None:
    """Give every node under ``nodes`` the line number ``line`` and column 0 (with ``only_missing``,
    those that have none yet). One pass over the nodes' own dictionaries, the walk written out here:
    ``ast.walk`` and ``ast.fix_missing_locations`` were most of a compile, and a call per node to list
    its children a fifth of what was left."""
    where = {"lineno": line, "end_lineno": line, "col_offset": 0, "end_col_offset": 0}
    stack = list(nodes)
    pop, push, node_type = stack.pop, stack.append, ast.AST
    while stack:
        node = pop()
        d = node.__dict__
        if only_missing and "lineno" in d:
            continue  # placed by an earlier pass, with everything under it (a shared clause, say)
        if "lineno" in node._attributes:
            d.update(where)
        for name in node._fields:
            v = d.get(name)
            if v.__class__ is list:
                for x in v:
                    if isinstance(x, node_type):
                        push(x)
            elif isinstance(v, node_type):
                push(v)


# Guard i of an action is on line GUARD_LINE + i of the functions that check and list it; effect clause
# i of a fused trigger is on line i + 1 (an action has far fewer effects than this).
GUARD_LINE = 100_000

KEPT_NAME = "_kept"  # the generated module's name for a value kept pickled (see Compiler._kept)
KEY_NAME = "_key"  # the generated module's name for a tuple of values, lists made tuples (see GuardFns.key)


def _call(fn: str, args: list[ast.expr]) -> ast.expr:
    return ast.Call(func=_name(fn), args=args, keywords=[])


def _key(*values: Any) -> tuple[Any, ...]:
    """The values as one tuple that can key a table: a list (of lists) made a tuple (of tuples)."""
    for x in values:
        if x.__class__ is list:
            return tuple(_frozen(x) if isinstance(x, list) else x for x in values)
    return values


def _frozen(value: list[Any]) -> tuple[Any, ...]:
    return tuple(_frozen(x) if isinstance(x, list) else x for x in value)


def _pickled(value: Any) -> bytes:
    """A value as bytes that compare equal exactly when the values do, however deep its lists. Marshal's
    version 2 writes every list out in full: one list under two names is two equal lists, where pickle would
    write a reference, and bytes of equal values would differ by where a list is shared."""
    return marshal.dumps(value, 2)


_RANGE = _global(REGISTRY["range"])  # the library's range, which the generated code calls by this name
UNSET_NAME = "_unset"  # the generated module's marker of a memo not worked out yet
_UNSET = object()
_SCOPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)


class _Memo(ast.NodeTransformer):
    """Loop-invariant parts of the guards in a ``legal`` loop, worked out at most once per call.

    A part that reads no payload field and calls something (the marriages in a hand, "holds the led
    suit") gives the same value for every candidate: guards change nothing. Each such part, taken as
    large as it goes, becomes ``(m if m is not _unset else (m := part))``: it is still worked out where
    and only when the guard first reaches it, so what it raises, it raises at the same point.
    Comprehensions are not entered (a memo there would bind in the wrong scope).
    """

    def __init__(self, counter: Iterator[int], payload: set[str]) -> None:
        self.counter = counter
        self.payload = payload  # the loop variables: the payload's fields
        self.names: list[str] = []
        # Per node (by id), whether anything under it is costly and whether anything reads the payload:
        # learnt once, bottom up, where asking each node visited about its whole subtree was quadratic.
        self._facts: dict[int, tuple[bool, bool]] = {}

    def _learnt(self, node: ast.AST) -> tuple[bool, bool]:
        """Whether ``node`` is worth a memo (it holds a comprehension, or a call of anything but ``len``,
        which is cheaper than the memo's test) and whether it reads the payload; for every node under it too."""
        got = self._facts.get(id(node))
        if got is None:
            costly = isinstance(node, _SCOPES) or (isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id == "len"))
            reads = isinstance(node, ast.Name) and node.id in self.payload
            for part in children(node):
                c, r = self._learnt(part)
                costly, reads = costly or c, reads or r
            got = self._facts[id(node)] = (costly, reads)
        return got

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and self._learnt(node) == (True, False):
            name = f"m_{next(self.counter)}"
            self.names.append(name)
            return ast.IfExp(test=ast.Compare(left=_name(name), ops=[ast.IsNot()], comparators=[_name(UNSET_NAME)]),
                             body=_name(name), orelse=ast.NamedExpr(target=_name(name, True), value=node))
        if isinstance(node, _SCOPES):
            return node
        return self._rebuilt(node)

    def _rebuilt(self, node: ast.AST) -> ast.AST:
        # The guards' nodes are the check's too: a node is copied only where something under it
        # changes, and the rest is shared (a deep copy of every guard was a twelfth of a compile).
        changed: dict[str, Any] = {}
        for name, value in ast.iter_fields(node):
            if isinstance(value, list):
                new = [self.visit(x) if isinstance(x, ast.AST) else x for x in value]
                if any(a is not b for a, b in zip(new, value, strict=True)):
                    changed[name] = new
            elif isinstance(value, ast.AST):
                got = self.visit(value)
                if got is not value:
                    changed[name] = got
        if not changed:
            return node
        out = copy.copy(node)
        for name, value in changed.items():
            setattr(out, name, value)
        line = out.__dict__.get("lineno")
        if line is not None:  # a guard's line: the memo's new nodes under the copy take it too
            _set_line([x for v in changed.values() for x in (v if isinstance(v, list) else [v])
                       if isinstance(x, ast.AST)], line, only_missing=True)
        return out


def _uncycle(*fns: Callable[..., Any]) -> None:
    """Empty the cells through which nested functions, done with, call themselves or each other.

    Such a function holds the cell that holds it: a cycle, which keeps whatever else the function holds
    (the nodes of a chain of guards, say) until a collection finds it, walking every object a compile made.
    With the cells emptied, the nodes are freed as soon as nothing uses them."""
    for fn in fns:
        for cell in fn.__closure__ or ():
            try:
                held = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if any(held is f for f in fns):
                del cell.cell_contents


def _reads(node: ast.expr, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _within(test: ast.expr, fields: set[str]) -> tuple[str, ast.expr] | None:
    """``p_f not in E`` with ``E`` reading no payload field: (``p_f``, ``E``); else None."""
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn)
            and isinstance(test.left, ast.Name) and test.left.id in fields
            and not _reads(test.comparators[0], fields)):
        return test.left.id, test.comparators[0]
    return None


# The few Python builtins the generated module may call.
_MODULE_BUILTINS: dict[str, Any] = {
    "list": list, "range": range, "len": len, "sum": sum, "any": any, "all": all, "min": min, "max": max,
    "sorted": sorted, "abs": abs,
    "tuple": tuple, "map": map,  # a clause's variables kept (Compiler._kept)
    "Exception": Exception,  # caught in an action's refusers (see guard_fns)
    "set": set}  # the outcomes an action's candidates give (Compiler._outcomes)


def _reads_game(name: str) -> bool:
    """Whether a name in a guard reads the game: a state variable read into its local, the state's mapping,
    the seat."""
    return name.startswith("v_") or name in ("V", "actor")


def _same_everywhere(name: str) -> bool:
    """Whether a name stands for the same thing wherever it is: the library's functions, the builtins."""
    return name.startswith("b_") or name in _MODULE_BUILTINS or name == UNSET_NAME


def _game_reads(exprs: list[ast.expr]) -> list[ast.expr] | None:
    """The largest parts of ``exprs`` that read the game and nothing else (no payload field, no loop's
    item): what they read is all of the game the expressions depend on, so equal values mean equal answers.
    None when something reads the game another way (the state object handed to a function)."""
    found: dict[str, ast.expr] = {}

    def free(node: ast.AST) -> set[str] | None:
        """The names ``node`` reads that it does not bind itself; None if it reads ``st``."""
        if isinstance(node, ast.Name):
            return None if node.id == "st" else {node.id}
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            names: set[str] = set()
            bound: set[str] = set()
            for gen in node.generators:
                inner = free(gen.iter)
                if inner is None:
                    return None
                names |= inner - bound
                bound |= {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
                for cond in gen.ifs:
                    inner = free(cond)
                    if inner is None:
                        return None
                    names |= inner - bound
            elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for elt in elts:
                inner = free(elt)
                if inner is None:
                    return None
                names |= inner - bound
            return names
        if isinstance(node, (ast.Lambda, ast.NamedExpr)):
            return None
        names = set()
        for child in ast.iter_child_nodes(node):
            inner = free(child)
            if inner is None:
                return None
            names |= inner
        return names

    def visit(node: ast.AST) -> bool:
        names = free(node)
        if names is None:
            return False
        reads = {n for n in names if _reads_game(n)}
        if not reads:
            return True  # a constant, a function: the same everywhere
        if isinstance(node, ast.expr) and all(n in reads or _same_everywhere(n) for n in names):
            found.setdefault(ast.dump(node), node)
            return True
        return all(visit(child) for child in ast.iter_child_nodes(node))

    complete = all(visit(e) for e in exprs)
    _uncycle(free, visit)
    if not complete:
        return None
    # A part made only of variables that are parts themselves (a range from the bid) adds nothing to the key.
    alone = {p.id for p in found.values() if isinstance(p, ast.Name)} | {"actor"}
    return [p for p in found.values() if isinstance(p, ast.Name)
            or not {n.id for n in ast.walk(p) if isinstance(n, ast.Name)
                    and _reads_game(n.id)} <= alone]


def _as_condition(test: ast.expr, name: str) -> bool:
    """Whether ``name`` is read in ``test`` only as an operand of ``and``/``or``/``not`` (as true or false)."""
    ok: set[int] = set()
    for node in ast.walk(test):
        if isinstance(node, ast.BoolOp):
            ok.update(id(v) for v in node.values)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            ok.add(id(node.operand))
    ok.add(id(test))
    return all(id(n) in ok for n in ast.walk(test) if isinstance(n, ast.Name) and n.id == name)


def _fold(test: ast.expr, name: str, value: bool) -> ast.expr | None:
    """``test`` with ``name`` standing for ``value`` (read only as a condition), folded: None when it is false
    whatever the rest, ``True`` when true whatever the rest. The other parts keep their nodes."""
    def fold(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Name) and node.id == name:
            return ast.Constant(value=value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = fold(node.operand)
            if isinstance(inner, ast.Constant):
                return ast.Constant(value=not inner.value)
            return node if inner is node.operand else ast.UnaryOp(op=ast.Not(), operand=inner)
        if isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            kept: list[ast.expr] = []
            for v in node.values:
                x = fold(v)
                if isinstance(x, ast.Constant):
                    if bool(x.value) != is_and:
                        return ast.Constant(value=not is_and)  # false in an 'and', true in an 'or': settled
                    continue  # true in an 'and', false in an 'or': says nothing
                kept.append(x)
            if not kept:
                return ast.Constant(value=is_and)
            return kept[0] if len(kept) == 1 else ast.BoolOp(op=node.op, values=kept)
        return node

    if not any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(test)):
        return test
    folded = fold(test)
    if isinstance(folded, ast.Constant):
        return None if not folded.value else folded
    return folded


def _outside_tests(test: ast.expr) -> list[ast.expr]:
    """The ``x not in E`` parts of a guard that refuses whenever any of them holds (the whole test,
    or a disjunct of it). Guards have no side effects, so past that guard ``x`` is in ``E``."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
    return [p for p in parts if isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], ast.NotIn)]


def _quantifier(node: ast.expr) -> tuple[str, ast.comprehension, ast.expr] | None:
    """``any``/``all`` over a one-loop comprehension: (which, its loop, its item), else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all")
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.ListComp)
            and len(node.args[0].generators) == 1):
        return node.func.id, node.args[0].generators[0], node.args[0].elt
    return None


def _when(test: ast.expr, leave: list[ast.stmt], holds: bool = True) -> list[ast.stmt]:
    """Statements that run ``leave`` (which returns from the function) exactly when ``test`` is ``holds``.

    A guard reads as one condition, but ``any``/``all`` over a comprehension builds the whole list before
    looking at it (a call and a list per guard, most of a guard's cost). Here they become loops that stop
    at the first item that settles them, as ``any``/``all`` over a generator would, and ``and``/``or``/
    ``not`` become nested ``if``s. ``leave`` returns, so the statements for one disjunct can follow
    another's; it is repeated only where it is the guard's own small return, never a nested block.
    """
    small = len(leave) == 1 and isinstance(leave[0], ast.Return)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _when(test.operand, leave, not holds)
    if isinstance(test, ast.BoolOp):
        conjunction = isinstance(test.op, ast.And) == holds  # not (a or b) is (not a) and (not b)
        if conjunction:
            inner = leave
            for value in reversed(test.values):
                inner = _when(value, inner, holds)
            return inner
        if small:
            return [st for value in test.values for st in _when(value, leave, holds)]
    q = _quantifier(test)
    if q is not None:
        which, loop, item = q
        # any holds / all fails at the first item that settles it; any fails / all holds when none does.
        settles_early = (which == "any") == holds
        cond = item if which == "any" else ast.UnaryOp(ast.Not(), item)
        if settles_early:
            body = _when(item, leave, which == "any")
            for f in reversed(loop.ifs):
                body = [ast.If(test=f, body=body, orelse=[])]
            return [ast.For(target=loop.target, iter=loop.iter, body=body, orelse=[])]
        found = ast.BoolOp(ast.And(), [*loop.ifs, cond]) if loop.ifs else cond
        return [ast.For(target=loop.target, iter=loop.iter, body=[ast.If(test=found, body=[ast.Break()], orelse=[])],
                        orelse=leave)]
    return [ast.If(test=test if holds else ast.UnaryOp(ast.Not(), test), body=leave, orelse=[])]


@dataclass(frozen=True)
class Mode:
    """How one piece of logic is translated; fixed for the whole piece."""

    hoist: bool = False  # state variables are read once, into locals, at the top of its function
    allow_random: bool = False  # an action's 'sample' may draw at random
    allow_return: bool = False  # a definition's or a sample's block may return


@dataclass
class Found:
    """What translating one piece of logic found, recorded as it is found."""

    deps: set[str]  # rules whose logic or definitions it runs
    param_deps: set[str] = field(default_factory=set)  # rules whose parameters it reads
    writes: set[str] = field(default_factory=set)  # state variables it assigns
    hoisted: set[str] = field(default_factory=set)  # state variables it reads from locals (with Mode.hoist)
    changed: set[str] = field(default_factory=set)  # state variables a procedure changes in place
    # It may change state the compiler cannot name: a procedure given a local or a computed list, an
    # assignment into a local's items, an engine procedure that renews variables.
    opaque: bool = False

    def absorb(self, part: Found) -> None:
        """Take in what a part of this piece, translated apart, found."""
        self.deps |= part.deps
        self.param_deps |= part.param_deps
        self.writes |= part.writes
        self.hoisted |= part.hoisted
        self.changed |= part.changed
        self.opaque |= part.opaque

    def changes(self) -> set[str] | None:
        """Every state variable the piece may change, or None when it may change one it cannot name. A
        variable changed in place and given a new value too may have changed a list the game also holds
        under another name, which its own value after no longer shows."""
        return None if self.opaque or self.writes & self.changed else self.writes | self.changed

    @staticmethod
    def union(parts: list[Found]) -> Found:
        whole = Found(set())
        for part in parts:
            whole.absorb(part)
        return whole


@dataclass
class _RulesetSize:
    nodes: int = 0


@dataclass
class _Size:
    """Nodes of logic built for one text and, shared by every text, for the whole ruleset: what the
    compiled code costs to build. Each inlined definition is counted at every call and each argument
    wherever it is used, since a chain of definitions each calling the last twice doubles it at every link."""

    ruleset: _RulesetSize
    nodes: int = 0

    def grow(self, n: int) -> str | None:
        """Count ``n`` nodes more; past a bound, what went past it."""
        self.nodes += n
        self.ruleset.nodes += n
        if self.nodes > MAX_TEXT_NODES:
            return f"this logic grows to more than {MAX_TEXT_NODES:,} nodes"
        if self.ruleset.nodes > MAX_RULESET_NODES:
            return f"the ruleset's logic grows to more than {MAX_RULESET_NODES:,} nodes"
        return None


class _TooLarge(Exception):
    """Inlining went past a bound; the outermost call of a definition reports it at its place."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True)
class _Emitted:
    """What the compiler keeps of one function it emitted, for the functions later made of it."""

    tree: ast.FunctionDef
    hoisted: dict[str, str]  # state variable -> the local its first statements read it into
    plain: list[ast.stmt] | None = None  # a fused function: its clauses' statements, before read_once


def _hoisting(hoisted: set[str]) -> tuple[list[ast.stmt], dict[str, str]]:
    """The first statements of a function whose logic was translated with ``Mode(hoist=True)``: the
    state's variables, then each hoisted variable read into its local; and which local holds which."""
    locals_ = {n: _local(n) for n in sorted(hoisted)}
    pre = [_load_state()]
    pre += [ast.Assign(targets=[_name(local, True)], value=_sub(_name("V"), _c(n))) for n, local in locals_.items()]
    return pre, locals_


def _load_state() -> ast.stmt:
    """``V = st.v``: every function's first statement."""
    return ast.Assign(targets=[_name("V", True)], value=ast.Attribute(_name("st"), "v", ast.Load()))


def _unpacked(fields: list[str]) -> list[ast.stmt]:
    """The payload's fields, each read into its local."""
    return [ast.Assign(targets=[_name(f"p_{f}", True)], value=_sub(_name("a"), _c(f))) for f in fields]


class Compiler:
    """Compile one ruleset's logic: each piece is translated on its own (:class:`Translator`), and the
    functions made of the pieces are emitted into one module."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.counter = itertools.count()  # the generated module's names, unique across it
        self.functions: list[tuple[ast.FunctionDef, Fn]] = []
        self._emitted: dict[Fn, _Emitted] = {}
        # What the generated code may hand the state without its variables getting new values.
        self._harmless = frozenset(_global(b) for b in REGISTRY.values() if not b.renews_vars)
        # The generated procedures that change some of their arguments in place, and which.
        self._procedures = {_global(b): b.changes for b in REGISTRY.values() if b.changes}
        self._size = _RulesetSize()

    def _translator(self, text: PosStr | str, rule_id: str, mode: Mode, deps: set[str]) -> Translator:
        return Translator(self.env, self.counter, Unit(text, rule_id), mode, Found(deps), _Size(self._size))

    # ----- entry points -------------------------------------------------------
    def expr_fn(self, text: PosStr | str, rule_id: str, scope: Scope, want: str | None,
                args: list[str], unpack: list[str] | None = None) -> Fn:
        """def f(st, *args): V = st.v; return <expr>"""
        tr = self._translator(text, rule_id, Mode(hoist=True), {rule_id})
        tree = parse(text, "expr")
        v = tr.expr(tree, scope)
        if want is not None:
            v = tr.coerce(v, want, tree)
            if not T.compatible(want, v.type):
                raise tr.error(tree.meta, f"this should give {want}, but gives {v.type}")
        pre, hoisted = _hoisting(tr.found.hoisted)
        return self._emit(args, [*pre, *_unpacked(unpack or []), ast.Return(value=v.node)], tr.found, hoisted)

    def block_fn(self, text: PosStr | str, rule_id: str, scope: Scope, args: list[str],
                 allow_return: bool = False, allow_random: bool = False, unpack: list[str] | None = None) -> Fn:
        tr = self._translator(text, rule_id, Mode(allow_random=allow_random, allow_return=allow_return), {rule_id})
        stmts = tr.block(parse(text, "block"), Scope(scope))
        return self._emit(args, [_load_state(), *_unpacked(unpack or []), *stmts], tr.found, {})

    def guard_fns(self, fields: list[tuple[str, str]], domains: list[tuple[PosStr, str]],
                  guards: list[tuple[PosStr, str]], scope: Scope, payload: list[str] | None = None,
                  analysis: bool = False) -> GuardFns:
        """Two functions per action: check one payload, and list the legal payloads; with ``analysis``, the
        three that only rule coverage and the harness ask for too (outcomes, refusers, the decision key).

        All inline every guard, so listing legal actions costs one Python function
        call however many rules constrain the action.
        """
        tests: list[ast.expr] = []
        guard_deps: list[set[str]] = []
        found: list[Found] = []
        for text, rule_id in guards:
            tr = self._translator(text, rule_id, Mode(hoist=True), {rule_id})
            tree = parse(text, "expr")
            v = tr.expr(tree, scope)
            if not T.compatible("bool", v.type):
                raise tr.error(tree.meta, f"a 'forbid' condition must be true or false, but this gives {v.type}")
            tests.append(v.node)
            guard_deps.append(tr.found.deps | {r for r in tr.found.param_deps if r not in self.env.logic_rules})
            found.append(tr.found)
        dom_nodes: list[ast.expr] = []
        for (text, rule_id), (fname, ftype) in zip(domains, fields, strict=False):
            # The choices are the action's own, not a guard's: only the rules they borrow join the check's.
            tr = self._translator(text, rule_id, Mode(hoist=True), set())
            tree = parse(text, "expr")
            v = tr.expr(tree, scope)
            v = tr.coerce(v, T.list_of(ftype), tree)
            if not T.compatible(T.list_of(ftype), v.type):
                raise tr.error(tree.meta, f"the choices for '{fname}' should be a list of {ftype}, not {v.type}")
            dom_nodes.append(v.node)
            found.append(tr.found)
        whole = Found.union(found)
        dead = [isinstance(t, ast.Constant) and not t.value for t in tests]
        pre, hoisted = _hoisting(whole.hoisted)
        names = payload if payload is not None else [f for f, _ in fields]
        unpack = _unpacked(names)
        check_body: list[ast.stmt] = [*pre, *unpack]
        for i, t in enumerate(tests):
            if isinstance(t, ast.Constant) and not t.value:
                continue
            stmts = _when(t, [ast.Return(_c(i))])
            # Guard i's own line, in the check and in the listing (which shares its nodes): an error is
            # charged to that guard's clause, not to the rule that declares the action.
            _set_line(stmts, GUARD_LINE + i)
            check_body.extend(stmts)
        # Then each choice must be among its choices (-2 for the first field, -3 for the next...),
        # unless a live guard already refuses a value outside them ('forbid: card not in hand[actor]').
        # A flag's choices being both values, its type says it all (payloads are type-checked first).
        implied = {ast.dump(x) for t in tests for x in _outside_tests(t)}
        outside_tests: list[tuple[ast.expr, int]] = []
        for j, ((f, ftype), dom) in enumerate(zip(fields, dom_nodes, strict=False)):
            outside = ast.Compare(left=_name(f"p_{f}"), ops=[ast.NotIn()], comparators=[_walked(dom)])
            both_flags = (T.normalize(ftype) == "bool" and isinstance(dom, (ast.Tuple, ast.List))
                          and {type(e.value) for e in dom.elts if isinstance(e, ast.Constant)} == {bool}
                          and {e.value for e in dom.elts if isinstance(e, ast.Constant)} == {False, True})
            if ast.dump(outside) not in implied and not both_flags:
                check_body.append(ast.If(test=outside, body=[ast.Return(_c(-2 - j))], orelse=[]))
                outside_tests.append((outside, -2 - j))
        check_body.append(ast.Return(_c(-1)))
        check = self._emit(["st", "actor", "a"], check_body, whole, hoisted)
        flags = {f"p_{f}" for f, t in fields if T.normalize(t) == "bool"}
        outcomes = self._outcomes(tests, outside_tests, names, pre, whole, hoisted, flags) if analysis else None

        live = [t for t in tests if not (isinstance(t, ast.Constant) and not t.value)]
        record = ast.Dict(keys=[_c(f) for f, _ in fields], values=[_name(f"p_{f}") for f, _ in fields])
        memos: list[str] = []
        if live and fields:  # the loops ask the guards once per candidate: what no candidate changes, once
            memo = _Memo(self.counter, {f"p_{f}" for f, _ in fields})
            visited = [memo.visit(t) for t in live]
            live = [v for v in visited if isinstance(v, ast.expr)]  # each an expression's rebuilt copy, or itself
            assert len(live) == len(visited)
            memos = memo.names
        loop = self._listing_loops(live, fields, dom_nodes,
                                   ast.Expr(ast.Call(ast.Attribute(_name("out"), "append", ast.Load()), [record], [])))
        leg_body = [*list(pre), ast.Assign(targets=[_name("out", True)], value=ast.List([], ast.Load())),
                    *[ast.Assign(targets=[_name(m, True)], value=_name(UNSET_NAME)) for m in memos], *loop]
        leg_body.append(ast.Return(_name("out")))
        legal = self._emit(["st", "actor"], leg_body, whole, hoisted)
        if not analysis:
            return GuardFns(check, legal, guard_deps, dead)
        # Every guard that forbids a payload, not only the first: a guard always behind another that
        # forbids first can never be the one that refuses, and the harness says so rather than "never
        # fired". A later guard may rely on an earlier one (it indexes what that one checked), so one that
        # raises is taken as not forbidding, and listed as -1 - i: where it comes before the first that
        # forbids, the check would raise there, not refuse (see candidates.refusals).
        ref_body: list[ast.stmt] = [*pre, *unpack, ast.Assign(targets=[_name("out", True)],
                                                                value=ast.List([], ast.Load()))]

        def noted(index: int) -> ast.stmt:
            return ast.Expr(ast.Call(ast.Attribute(_name("out"), "append", ast.Load()), [_c(index)], []))
        for i, t in enumerate(tests):
            if isinstance(t, ast.Constant) and not t.value:
                continue
            ref_body.append(ast.Try(body=[ast.If(test=t, body=[noted(i)], orelse=[])],
                                    handlers=[ast.ExceptHandler(type=_name("Exception"), name=None,
                                                                body=[noted(-1 - i)])],
                                    orelse=[], finalbody=[]))
        ref_body.append(ast.Return(_name("out")))
        refusers = self._emit(["st", "actor", "a"], ref_body, whole, hoisted)
        read = _game_reads([t for t in tests if not (isinstance(t, ast.Constant) and not t.value)]
                           + [t for t, _ in outside_tests] + dom_nodes)
        key = None if read is None else self._emit(["st", "actor"], [*pre, ast.Return(_call(KEY_NAME, read))],
                                                   whole, hoisted)
        return GuardFns(check, legal, guard_deps, dead, outcomes, refusers, key)

    @staticmethod
    def _listing_loops(live: list[ast.expr], fields: list[tuple[str, str]], domains: list[ast.expr],
                       keep: ast.stmt) -> list[ast.stmt]:
        """The loops of the listing over each field's choices, with ``keep`` innermost for every payload no
        guard forbids.

        A part of a guard (a disjunct) that reads only the outer fields is asked in the loop of the last
        field it reads, once for all the values of the fields inside, where each of those loops is over a
        fixed list of choices that is never empty (a flag's two values): then it is asked for exactly the
        payloads it was asked for in the innermost loop. The parts keep their order (a later one may rely on
        an earlier one not holding), so each is asked no further out than the one before it."""
        n = len(fields)
        fixed = [isinstance(d, (ast.Tuple, ast.List)) and bool(d.elts)
                 and all(isinstance(e, ast.Constant) for e in d.elts) for d in domains]
        outermost = n  # the outermost depth a part may be asked at: every loop inside it is over fixed choices
        while outermost > 0 and fixed[outermost - 1]:
            outermost -= 1
        at: list[list[ast.expr]] = [[] for _ in range(n + 1)]  # the parts asked at each depth (0: before any loop)
        depth = outermost
        for part in (p for t in live for p in (t.values if isinstance(t, ast.BoolOp) and isinstance(t.op, ast.Or)
                                                else [t])):
            reads = [k + 1 for k, (f, _) in enumerate(fields) if _reads(part, {f"p_{f}"})]
            depth = max([depth, *reads])
            at[depth].append(part)

        def asked(k: int, then: list[ast.stmt]) -> list[ast.stmt]:
            if not at[k]:
                return then
            test = at[k][0] if len(at[k]) == 1 else ast.BoolOp(op=ast.Or(), values=at[k])
            return [ast.If(test=test, body=[ast.Continue() if k else ast.Return(_name("out"))], orelse=[]), *then]

        loop = asked(n, [keep])
        for k in range(n - 1, -1, -1):
            loop = asked(k, [ast.For(target=_name(f"p_{fields[k][0]}", True), iter=_walked(domains[k]), body=loop,
                                     orelse=[])])
        return loop

    def _outcomes(self, tests: list[ast.expr], outside: list[tuple[ast.expr, int]], names: list[str],
                  pre: list[ast.stmt], whole: Found, hoisted: dict[str, str], flags: set[str] | None = None) -> Fn:
        """The check asked of every payload of a product of candidate values, in one call (rule coverage
        weighs tens of candidates at every decision): ``(st, actor, values)``, ``values`` a set of candidates
        per payload field, in the action's order, gives the set of what the check gives for each payload.

        Only the set is wanted, so the product is never walked whole. The check's tests are asked in the
        check's order, each as soon as the fields it reads have a value: a test that reads no field is asked
        once, one that reads the card once per card, and one that holds gives its refusal to every payload
        below it at once (every field has a candidate, so there is one). A field no later test reads is
        never looped over. A test ``f not in E`` (the card is not in the hand) splits the candidates of
        ``f`` at once, as a set's intersection with ``E``: those outside give its refusal together, and only
        those inside go on. A part of a
        guard that reads no field and calls something is worked out once (the listing's memo). A flag read
        only as a condition ('marriage and ...') is looped over as two branches, the rest of the chain
        folded for each: a flag that is down leaves nothing of a test it must hold for.

        Its conditions are the check's own, but ``any``/``all`` over a list are not cut short: a condition
        that raises on an item the check would not reach raises here, and the caller asks the check."""
        fields = [f"p_{f}" for f in names]
        memo = _Memo(self.counter, set(fields))
        chain: list[tuple[ast.expr, int]] = []
        for i, test in enumerate(tests):
            if isinstance(test, ast.Constant) and not test.value:
                continue
            visited = memo.visit(test) if names else test
            assert isinstance(visited, ast.expr)  # an expression's rebuilt copy, or itself
            # A guard refuses when any part of a disjunction holds: each part is a test of its own with the
            # guard's outcome, so a part that reads fewer fields is asked outside the loops over the rest.
            parts = visited.values if isinstance(visited, ast.BoolOp) and isinstance(visited.op, ast.Or) else [visited]
            chain += [(part, i) for part in parts]
        for test, code in outside:
            visited = memo.visit(test) if names else test
            assert isinstance(visited, ast.expr)
            chain.append((visited, code))
        found = f"n_found_{next(self.counter)}"
        candidates = {f: _sub(_name("values"), _c(k)) for k, f in enumerate(fields)}

        def refused(code: int) -> ast.stmt:
            return ast.Expr(ast.Call(ast.Attribute(_name(found), "add", ast.Load()), [_c(code)], []))

        def asked(rest: list[tuple[ast.expr, int]], bound: frozenset[str], leave: ast.stmt) -> list[ast.stmt]:
            out: list[ast.stmt] = []
            for at, (test, code) in enumerate(rest):
                unbound = [f for f in fields if f not in bound and _reads(test, {f})]
                if not unbound:
                    out.append(ast.If(test=test, body=[refused(code), leave], orelse=[]))
                    continue
                f = unbound[0]
                split = _within(test, {f}) if len(unbound) == 1 else None
                if split is not None and not _reads(split[1], set(fields) - bound):
                    inside = f"n_inside_{next(self.counter)}"
                    # The candidates are a set: those in the list are found walking the list (a hand), not
                    # asking the list of each candidate (every card of the pack).
                    splitting: list[ast.stmt] = [
                        ast.Assign(targets=[_name(inside, True)], value=ast.Call(
                            ast.Attribute(candidates[f], "intersection", ast.Load()), [split[1]], []))]
                    if bound and not _reads(split[1], set(fields)):
                        # Inside a loop over another field, but the same list for all of its values: split once.
                        once.append(inside)
                        not_yet = ast.Compare(left=_name(inside), ops=[ast.Is()], comparators=[_name(UNSET_NAME)])
                        splitting = [ast.If(test=not_yet, body=splitting, orelse=[])]
                    out += [*splitting,
                            ast.If(test=ast.Compare(left=ast.Call(_name("len"), [_name(inside)], []), ops=[ast.Lt()],
                                                    comparators=[ast.Call(_name("len"), [candidates[f]], [])]),
                                   body=[refused(code)], orelse=[])]
                    after = rest[at + 1:]
                    if any(_reads(t, {f}) for t, _ in after):
                        out.append(ast.For(target=_name(f, True), iter=_name(inside),
                                           body=asked(after, bound | {f}, ast.Continue()), orelse=[]))
                    else:  # which of them is in the list matters no more: one of them does for all
                        out.append(ast.If(test=_name(inside), body=asked(after, bound, leave), orelse=[]))
                    return out
                body: list[ast.stmt]
                if f in (flags or ()) and all(_as_condition(t, f) for t, _ in rest[at:]):
                    # Each value of the flag its own branch, the tests folded for it.
                    branches = []
                    for value in (True, False):
                        folded = [(t, c) for t, c in ((_fold(t, f, value), c) for t, c in rest[at:]) if t is not None]
                        branches.append(asked(folded, bound | {f}, ast.Continue()))
                    body = [ast.If(test=_name(f), body=branches[0], orelse=branches[1])]
                else:
                    body = asked(rest[at:], bound | {f}, ast.Continue())
                out.append(ast.For(target=_name(f, True), iter=candidates[f], body=body, orelse=[]))
                return out
            out.append(refused(-1))
            return out

        body: list[ast.stmt] = [*pre, ast.Assign(targets=[_name(found, True)], value=_call("set", []))]
        if names:  # an empty product has no payload, so no outcome
            body.append(ast.If(test=ast.UnaryOp(ast.Not(), _call("all", [_name("values")])),
                               body=[ast.Return(_name(found))], orelse=[]))
        once: list[str] = []
        loops = asked(chain, frozenset(), ast.Return(_name(found)))
        _uncycle(asked, refused)
        body += [ast.Assign(targets=[_name(m, True)], value=_name(UNSET_NAME)) for m in [*memo.names, *once]]
        body += loops
        body.append(ast.Return(_name(found)))
        return self._emit(["st", "actor", "values"], body, whole, hoisted)

    def _function(self, args: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
        extra: dict[str, Any] = {"type_params": []} if sys.version_info >= (3, 12) else {}
        return ast.FunctionDef(
            name=f"f{next(self.counter)}",
            args=ast.arguments(posonlyargs=[], args=[ast.arg(a) for a in args], vararg=None, kwonlyargs=[],
                               kw_defaults=[], kwarg=None, defaults=[]),
            body=body or [ast.Pass()], decorator_list=[], returns=None, **extra)

    def _emit(self, args: list[str], body: list[ast.stmt], found: Found, hoisted: dict[str, str]) -> Fn:
        fn = self._function(args, body)
        handle = Fn(set(found.deps), set(found.param_deps), set(found.writes), fn.name, found.changes())
        self._add(handle, _Emitted(fn, hoisted))
        return handle

    def _add(self, handle: Fn, emitted: _Emitted) -> None:
        self.functions.append((emitted.tree, handle))
        self._emitted[handle] = emitted

    def fuse(self, parts: list[Fn], args: list[str], unpack: list[str], often: bool = True) -> Fn:
        """One function running several compiled effect clauses in order (the untraced fast path).

        Each clause's statements keep its position as their line number, so an error in the
        fused code can still be charged to the right rule. When it runs ``often``, a variable read
        more than once is read once into a local (:mod:`.reads`); an action's effects run often
        in its :meth:`step`, which does that, and seldom here.
        """
        body = [_load_state(), *_unpacked(unpack)]
        plain: list[ast.stmt] = []
        for i, part in enumerate(parts):
            # The clause's own nodes, not copies: its line number means nothing in its own function
            # (the tracer charges that function's errors to its rule), so they can carry i + 1 everywhere.
            stmts = self._emitted[part].tree.body[1 + len(unpack):]
            _set_line(stmts, i + 1)
            plain.extend(stmts or [ast.Pass()])
        return self._joined(self._function(args, body + (self._read_once(plain, {}) if often else plain)), parts,
                            plain)

    def counted(self, parts: list[Fn], args: list[str], unpack: list[str]) -> Fn:
        """:meth:`fuse` for rule coverage: the same clauses in one function that also takes a tally
        (``C``, a list of a count per clause and one more) and adds one to clause i's count when it changed
        the game, and one to the last count each time it runs.

        What clause i may change (``Fn.changes``) is kept before it and compared after it, each variable
        the cheapest way its type allows (:meth:`_kept`): no call, no copy of the whole state, for each
        clause. A clause that can change nothing is not compared. The clauses keep their line numbers."""
        ran = ast.AugAssign(target=_sub(_name("C"), _c(len(parts)), True), op=ast.Add(), value=_c(1))
        _set_line([ran], 1)
        body: list[ast.stmt] = [ran]  # the trigger's runs, after its clauses' counts
        for i, part in enumerate(parts):
            stmts = self._emitted[part].tree.body[1 + len(unpack):]
            _set_line(stmts, i + 1)  # as in fuse, whose nodes these are too
            if self._kept(part.changes) is None:
                body.extend(stmts or [ast.Pass()])
                continue
            counted = self._counted_clause(stmts, i, part.changes)
            _set_line(counted, i + 1, only_missing=True)
            body.extend(counted)
        head = [_load_state(), *_unpacked(unpack)]
        return self._joined(self._function([*args, "C"], head + self._read_once(body, {})), parts, body)

    def _counted_clause(self, stmts: list[ast.stmt], i: int, changes: set[str] | None) -> list[ast.stmt]:
        """Clause ``i``'s statements, adding one to its count when they changed the game.

        What they may change is kept before them and compared after. Where the compiler names every change
        (:mod:`.changes`), less is kept: statements that certainly change the game count at once, and each
        branch of a clause that is one ``if`` keeps only what it writes (a condition changes nothing, and a
        clause whose condition fails and that has no ``else`` changed nothing). The clause's own nodes are
        shared, never changed."""
        count = ast.AugAssign(target=_sub(_name("C"), _c(i), True), op=ast.Add(), value=_c(1))
        writes = (ClauseWrites(stmts, self._procedures, self.env.var_type) if changes is not None else None)

        def block(run: list[ast.stmt]) -> list[ast.stmt]:
            if not run:
                return []
            if writes is not None and writes.certainly_changes(run):
                return [*run, count]
            if writes is not None and len(run) == 1 and isinstance(run[0], ast.If):
                branch = run[0]
                return [ast.If(test=branch.test, body=block(branch.body), orelse=block(branch.orelse))]
            kept = self._kept(changes if writes is None or changes is None else writes.written(run) & changes)
            if kept is None:
                return run
            before = _name(f"k_{i}", True)
            differs = ast.Compare(left=_name(before.id), ops=[ast.NotEq()], comparators=[copy.deepcopy(kept)])
            return [ast.Assign(targets=[before], value=kept), *run, ast.If(test=differs, body=[count], orelse=[])]

        return block(stmts)

    def _kept(self, changes: set[str] | None) -> ast.expr | None:
        """An expression of the variables in ``changes`` whose value stays as it is while the game goes on:
        equal before and after a clause means the clause changed none of them. None when nothing can change."""
        if changes is not None and not changes:
            return None
        if changes is None:
            return _call(KEPT_NAME, [_name("V")])
        items = [self._kept_var(n) for n in sorted(changes)]
        return items[0] if len(items) == 1 else ast.Tuple(elts=items, ctx=ast.Load())

    def _kept_var(self, name: str) -> ast.expr:
        """A number, a card or a seat as it is (nothing changes one in place); a list of them as a tuple, one
        level deeper as tuples of tuples; anything else (maps, values that may be none) pickled."""
        value = _sub(_name("V"), _c(name))
        t = self.env.var_type(name)
        depth = 0
        while T.is_list(t) and not T.nullable(t):  # a list that may be none is not walked ('any' may be)
            t, depth = T.elem(t), depth + 1
        if T.is_list(t) or T.base(t) not in T.SCALARS or T.base(t) in ("any", "record") or depth > 2:
            return _call(KEPT_NAME, [value])
        if depth == 0:
            return value  # a number, a card, a seat, or none
        if depth == 1:
            return _call("tuple", [value])
        return _call("tuple", [_call("map", [_name("tuple"), value])])

    def step(self, check: Fn, run: Fn | None, n_unpacked: int, n_effects: int, tally: bool = False) -> Fn:
        """One function that checks an action and, when no guard forbids it, runs its effects: the
        check's statements, then the fused effects' (``run``, from :meth:`fuse`), then ``return -1``.

        A refusal returns before any effect ran, so the state is as it was. The effects keep their
        line numbers (1 for the first effect clause...); the check's statements are put after the last
        of them, so an error is charged to an effect's rule or, past them, to the action's. The
        effects read the variables the check already holds in locals from those locals. With ``tally``,
        ``run`` is the effects' :meth:`counted` function and the step takes its tally too.
        """
        # Shared nodes again: the check's lines mean nothing in the check itself (its errors are the
        # action's), and the fused effects' nodes already carry their clause's line.
        emitted = self._emitted[check]
        checking = emitted.tree.body[:-1]  # up to its closing 'return -1'
        _set_line(checking, n_effects + 1, only_missing=True)  # the guards keep their own lines
        running = []
        if run is not None:
            plain = self._emitted[run].plain
            assert plain is not None, "step runs effects fused by fuse() or counted()"
            running = self._read_once(plain, emitted.hoisted)
        fn = self._function(["st", "actor", "a", *(["C"] if tally else [])], [*checking, *running, ast.Return(_c(-1))])
        return self._joined(fn, [check] + ([run] if run is not None else []))

    def _read_once(self, stmts: list[ast.stmt], bound: dict[str, str]) -> list[ast.stmt]:
        return read_once(stmts, bound, self._harmless, _local)

    def _joined(self, fn: ast.FunctionDef, parts: list[Fn], plain: list[ast.stmt] | None = None) -> Fn:
        """The handle of a function made of ``parts``: it reads and writes what they all do."""
        changes = [p.changes for p in parts if p.changes is not None]
        handle = Fn(set().union(*(p.deps for p in parts)), set().union(*(p.param_deps for p in parts)),
                    set().union(*(p.writes for p in parts)), fn.name,
                    set().union(*changes) if len(changes) == len(parts) else None)
        self._add(handle, _Emitted(fn, {}, plain))
        return handle

    def build(self, filename: str, only: set[str] | None = None) -> CodeType:
        """Compile every function emitted so far (or those named in ``only``: no generated function calls
        another) and hand each to its handle; the module's code."""
        functions = [(f, h) for f, h in self.functions if only is None or f.name in only]
        mod = ast.Module(body=[f for f, _ in functions], type_ignores=[])
        _set_line(mod.body, 1, only_missing=True)  # Python wants a place for every node; any will do
        code = compile(mod, filename, "exec")
        namespace = run_module(code)
        for f, handle in functions:
            handle.fn = namespace[f.name]
        return code


@dataclass(frozen=True)
class Translator:
    """Type-check one piece of logic (an expression or a block) and translate it into Python nodes.

    One is made for each piece and dropped after it: its mode and its unit are fixed, and what it
    finds (:class:`Found`) is its own, never left over from the piece compiled before.
    """

    env: Env
    counter: Iterator[int]  # the ruleset's: names of locals are unique across the module
    unit: Unit
    mode: Mode
    found: Found
    size: _Size  # of this piece's text, inlined definitions included
    inlining: tuple[str, ...] = ()  # the definitions being inlined, outermost first

    def apart(self) -> Translator:
        """A translator for a part of this piece whose findings are wanted on their own."""
        return Translator(self.env, self.counter, self.unit, self.mode, Found(set()), self.size, self.inlining)

    def error(self, where: Any, message: str) -> RuleFileError:
        return RuleFileError(f"{message} (in rule {self.unit.rule_id})", self.unit.loc(where))

    # ----- statements --------------------------------------------------------
    def block(self, tree: Tree, scope: Scope) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in tree.children:
            out.extend(self.stmt(st, scope))
        return out

    def stmt(self, t: Tree, scope: Scope) -> list[ast.stmt]:
        k = t.data
        if k == "let_stmt":
            name, value = t.children
            assert isinstance(name, Token)
            self._check_new_name(name, scope)
            v = self.expr(value, scope)
            if v.type == "none":
                raise self.error(name, f"'{name}' needs a value with a type; give it one instead of none")
            py = f"l_{name}_{next(self.counter)}"
            scope.bind(str(name), "local", py, v.type)
            return [ast.Assign(targets=[_name(py, True)], value=v.node)]
        if k in ("assign", "aug_assign"):
            target = t.children[0]
            node, ttype = self.target(target, scope)
            if k == "assign":
                value = self.apart()  # the rules the value alone depends on name who decides it
                v = value.coerce(value.expr(t.children[1], scope), ttype, t.children[1])
                value_deps = value.found.deps
                self.found.absorb(value.found)
                if not T.compatible(ttype, v.type):
                    raise self.error(target.meta, f"cannot store {v.type} in '{_target_text(target)}' of type {ttype}")
                if T.is_list(ttype):
                    # The list stored may be one the game holds under another name, which a change in place
                    # through this name then changes too: that name may change, or, unnamed (a local's list
                    # or an item of it), anything may. A list built here (a literal, a sum, a sorted copy)
                    # is nobody else's.
                    if v.var is not None:
                        self.found.changed.add(v.var)
                    elif isinstance(v.node, (ast.Name, ast.Subscript)) and not _a_field(t.children[1], scope):
                        self.found.opaque = True
                out: list[ast.stmt] = [ast.Assign(targets=[node], value=v.node)]
                name = str(target.children[0])
                if len(target.children) == 1 and name in BLAMED_VARS and scope.lookup(name) is None:
                    # The rule that decides the value is to blame: the one whose definition computes it
                    # (turn = first_leader() is play.first-lead's decision), else the clause's own rule.
                    others = value_deps - {self.unit.rule_id}
                    who = next(iter(others)) if len(others) == 1 else self.unit.rule_id
                    out.append(ast.Assign(targets=[_sub(ast.Attribute(_name("st"), "set_by", ast.Load()),
                                                        _c(name), True)], value=_c(who)))
                return out
            op = t.children[1]
            v = self.expr(t.children[2], scope)
            if not (T.is_int_like(ttype) and T.is_int_like(v.type)):
                raise self.error(target.meta, f"'{op}' needs numbers, not {ttype} and {v.type}")
            return [ast.AugAssign(target=node, op=ast.Add() if op == "+=" else ast.Sub(), value=v.node)]
        if k == "if_stmt":
            cond, body, *rest = t.children
            elifs = [r for r in rest if isinstance(r, Tree) and r.data == "elif_part"]
            els = [r for r in rest if isinstance(r, Tree) and r.data == "else_part"]
            branches = [(cond, body)] + [(e.children[0], e.children[1]) for e in elifs]
            else_body = els[0].children[0] if els else None
            return self._if_chain(branches, else_body, scope)
        if k == "for_stmt":
            name, iterable, body = t.children
            assert isinstance(name, Token)
            self._check_new_name(name, scope)
            it = self.expr(iterable, scope)
            if not T.is_list(it.type):
                raise self.error(iterable.meta, f"'for' needs a list, not {it.type}")
            inner = Scope(scope)
            py = f"l_{name}_{next(self.counter)}"
            inner.bind(str(name), "local", py, T.elem(it.type))
            stmts = self.block(body, inner) or [ast.Pass()]
            return [ast.For(target=_name(py, True), iter=_walked(it.node), body=stmts, orelse=[])]
        if k == "call_stmt":
            name, args = t.children
            assert isinstance(name, Token)
            b = REGISTRY.get(str(name))
            if b is None or b.kind not in ("procedure", "engine"):
                if b is None and str(name) not in self.env.defines:
                    raise self.error(name, f"unknown procedure '{name}'{_suggest(str(name), _procedures())}")
                raise self.error(name, f"'{name}' computes a value; a statement must change something "
                                       f"(use it in an expression)")
            v = self._call_builtin(b, name, args, scope, t)
            # A procedure inlined as several calls (move: remove, then append) is one statement each:
            # the same calls in the same order, without a tuple built of their results.
            steps = v.node.elts if isinstance(v.node, ast.Tuple) else [v.node]
            return [ast.Expr(value=step) for step in steps]
        if k == "return_stmt":
            if not self.mode.allow_return:
                raise self.error(t.meta, "'return' is only allowed in a definition or a sample")
            v = self.expr(t.children[0], scope)
            return [ast.Return(value=v.node)]
        raise self.error(t.meta, f"unsupported statement {k}")  # pragma: no cover

    def _if_chain(self, branches: list[tuple[Tree, Tree]], else_body: Tree | None, scope: Scope) -> list[ast.stmt]:
        if not branches:
            return self.block(else_body, Scope(scope)) if else_body is not None else []
        cond, body = branches[0]
        c = self.expr(cond, scope)
        if not T.compatible("bool", c.type):
            raise self.error(cond.meta, f"'if' needs a condition, not {c.type}")
        if c.const:
            if c.value:
                return self.block(body, Scope(scope))
            return self._if_chain(branches[1:], else_body, scope)
        then = self.block(body, Scope(scope)) or [ast.Pass()]
        orelse = self._if_chain(branches[1:], else_body, scope)
        return [ast.If(test=c.node, body=then, orelse=orelse)]

    def target(self, t: Tree, scope: Scope) -> tuple[ast.Name | ast.Subscript, str]:
        name, *indexes = t.children
        b = scope.lookup(str(name))
        if b is not None and b[0] == "local":
            node: ast.Name | ast.Subscript = _name(b[1])
            ttype = b[2]
            if indexes:  # the local may be a state variable's list: its items are the game's
                self.found.opaque = True
        elif b is not None:
            raise self.error(name, f"cannot assign to '{name}': it is a {_kind_word(b[0])}")
        else:
            kind = self.env.kind_of(str(name))
            if kind != "var":
                if kind is None:
                    raise self.error(name, f"unknown state variable '{name}'{_suggest(str(name), self.env.vars)}")
                raise self.error(name, f"cannot assign to '{name}': it is a {_kind_word(kind)}")
            node = _sub(_name("V"), _c(str(name)))
            ttype = self.env.var_type(str(name))
            self.found.writes.add(str(name))
        if not indexes:
            if isinstance(node, ast.Name):
                return _name(node.id, True), ttype
            return _sub(_name("V"), _c(str(name)), True), ttype
        for i, ix in enumerate(indexes):
            iv = self.expr(ix, scope)
            if not T.is_list(ttype):
                raise self.error(ix.meta, f"'{name}' is {ttype}; it cannot be indexed")
            if not (T.is_int_like(iv.type) or T.base(iv.type) in T.NAMED):
                raise self.error(ix.meta, f"an index must be a number, a seat, a suit or a rank, not {iv.type}")
            ttype = T.elem(ttype)
            node = _sub(node, iv.node, store=(i == len(indexes) - 1))
        return node, ttype

    def _check_new_name(self, name: Token, scope: Scope) -> None:
        n = str(name)
        if self.env.kind_of(n) in ("var", "param") or scope.lookup(n) is not None:
            raise self.error(name, f"'{n}' is already a name here; choose another")

    # ----- expressions -------------------------------------------------------
    def expr(self, t: Tree | Token, scope: Scope) -> Val:
        self._grow(1, t)
        form = EXPRESSION_FORMS.get(t.data) if isinstance(t, Tree) else None
        if form is None:  # pragma: no cover - every expression form of the grammar has one (tested)
            raise self.error(getattr(t, "meta", t), f"unsupported expression {getattr(t, 'data', t)}")
        assert isinstance(t, Tree)  # only a tree has a form
        return form(self, t, scope)

    def e_number(self, t: Tree, scope: Scope) -> Val:
        return Val(_c(int(str(t.children[0]))), "int")

    def e_string(self, t: Tree, scope: Scope) -> Val:
        return Val(_c(str(t.children[0])[1:-1]), "str")

    def e_true(self, t: Tree, scope: Scope) -> Val:
        return Val(_c(True), "bool")

    def e_false(self, t: Tree, scope: Scope) -> Val:
        return Val(_c(False), "bool")

    def e_none(self, t: Tree, scope: Scope) -> Val:
        return Val(_c(None), "none")

    def e_name(self, t: Tree, scope: Scope) -> Val:
        tok = t.children[0]
        n = str(tok)
        b = scope.lookup(n)
        if b is not None:
            bound, data, ty = b
            if bound in ("local", "payload"):
                return Val(_name(data), ty)
            if bound == "inline":
                val, size = data  # an inlined definition's argument, as large as it was built
                self._grow(size - 1, tok)  # in place of this name, counted already
                assert isinstance(val, Val)
                return val
        kind = self.env.kind_of(n)
        if kind == "param":
            p = self.env.params[n]
            self.found.param_deps.add(p.rule_id)
            return Val(_c(p.value), p.type, p.choices)
        if kind == "var":
            ty = self.env.var_type(n)
            if self.mode.hoist:
                self.found.hoisted.add(n)
                return Val(_name(_local(n)), ty, var=n)
            return Val(_sub(_name("V"), _c(n)), ty, var=n)
        if kind in ("define", "builtin"):
            raise self.error(tok, f"'{n}' is a function; call it as {n}(…)")
        known = set(self.env.vars) | set(self.env.params) | set(ENGINE_VARS) | _scope_names(scope)
        raise self.error(tok, f"unknown name '{n}'{_suggest(n, known)}")

    def e_list(self, t: Tree, scope: Scope) -> Val:
        args = t.children[0]
        if args is None:
            return Val(ast.List([], ast.Load()), "list[any]")
        vals = [self.expr(a, scope) for a in args.children]
        ty = vals[0].type
        for v in vals[1:]:
            ty = T.unify(ty, v.type)
        if all(v.const for v in vals):
            return Val(_c(tuple(v.value for v in vals)), T.list_of(ty))
        return Val(ast.List([v.node for v in vals], ast.Load()), T.list_of(ty))

    def e_record(self, t: Tree, scope: Scope) -> Val:
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        for f in t.children:
            if f is None:
                continue
            name, value = f.children
            keys.append(_c(str(name)))
            values.append(self.expr(value, scope).node)
        return Val(ast.Dict(keys=keys, values=values), "record")

    def e_comprehension(self, t: Tree, scope: Scope) -> Val:
        elt, name, iterable, cond = t.children
        it = self.expr(iterable, scope)
        if not T.is_list(it.type):
            raise self.error(iterable.meta, f"'for … in' needs a list, not {it.type}")
        inner = Scope(scope)
        py = f"l_{name}_{next(self.counter)}"
        inner.bind(str(name), "local", py, T.elem(it.type))
        e = self.expr(elt, inner)
        ifs = []
        if cond is not None:
            c = self.expr(cond, inner)
            if not T.compatible("bool", c.type):
                raise self.error(cond.meta, f"'where' needs a condition, not {c.type}")
            if not (c.const and c.value):
                ifs.append(c.node)
        source = it.node
        picked = _filtered(source)
        if picked is not None:
            # [f(y) for y in [x for x in xs if p(x)]] as [f(y) for y in xs if p(y)]: one loop, no list
            # between. Nothing changes while an expression is worked out, so the order of reads is free.
            source, tests = picked.iter, [_renamed(c, _target(picked), py) for c in picked.ifs]
            ifs = tests + ifs
        gen = ast.comprehension(target=_name(py, True), iter=_walked(source), ifs=ifs, is_async=0)
        return Val(ast.ListComp(elt=e.node, generators=[gen]), T.list_of(e.type))

    def e_if_expr(self, t: Tree, scope: Scope) -> Val:
        c, a, b = (self.expr(x, scope) for x in t.children)
        if not T.compatible("bool", c.type):
            raise self.error(t.children[0].meta, f"'if' needs a condition, not {c.type}")
        ty = T.unify(a.type, b.type)
        if c.const:
            chosen = a if c.value else b
            return Val(chosen.node, ty, chosen.choices)
        return Val(ast.IfExp(test=c.node, body=a.node, orelse=b.node), ty)

    def _bools(self, t: Tree, scope: Scope, word: str) -> list[Val]:
        vals = [self.expr(x, scope) for x in t.children]
        for x, v in zip(t.children, vals, strict=False):
            if not T.compatible("bool", v.type):
                raise self.error(x.meta, f"'{word}' needs conditions, not {v.type}")
        return vals

    def e_and_(self, t: Tree, scope: Scope) -> Val:
        a, b = self._bools(t, scope, "and")
        for x, y in ((a, b), (b, a)):
            if x.const:
                return y if x.value else Val(_c(False), "bool")
        return Val(ast.BoolOp(op=ast.And(), values=[a.node, b.node]), "bool")

    def e_or_(self, t: Tree, scope: Scope) -> Val:
        a, b = self._bools(t, scope, "or")
        for x, y in ((a, b), (b, a)):
            if x.const:
                return Val(_c(True), "bool") if x.value else y
        return Val(ast.BoolOp(op=ast.Or(), values=[a.node, b.node]), "bool")

    def e_not_(self, t: Tree, scope: Scope) -> Val:
        (a,) = self._bools(t, scope, "not")
        if a.const:
            return Val(_c(not a.value), "bool")
        return Val(ast.UnaryOp(op=ast.Not(), operand=a.node), "bool")

    def e_compare(self, t: Tree, scope: Scope) -> Val:
        left, op, right = t.children
        assert isinstance(op, Token)
        a, b = self.expr(left, scope), self.expr(right, scope)
        a, b = self.coerce(a, b.type, left), self.coerce(b, a.type, right)
        self._check_choice(a, b, right)
        self._check_choice(b, a, left)
        if op in ("==", "!="):
            if not T.comparable(a.type, b.type):
                raise self.error(t.meta, f"cannot compare {a.type} with {b.type}")
        elif not (T.is_int_like(a.type) and T.is_int_like(b.type)) and not _int_lists(a.type, b.type):
            raise self.error(t.meta, f"'{op}' compares numbers (or lists of numbers), not {a.type} and {b.type}")
        pyop = {"==": ast.Eq(), "!=": ast.NotEq(), "<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(), ">=": ast.GtE()}[op]
        if a.const and b.const:
            x, y = a.value, b.value
            res = {"==": x == y, "!=": x != y}.get(op)
            if res is None:
                res = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
            return Val(_c(res), "bool")
        if op in ("==", "!=") and (_is_none(a) or _is_none(b)):
            pyop = ast.Is() if op == "==" else ast.IsNot()
        return Val(ast.Compare(left=a.node, ops=[pyop], comparators=[b.node]), "bool")

    def _check_choice(self, param_side: Val, literal: Val, where: Any) -> None:
        if param_side.choices and literal.const and isinstance(literal.value, str):
            if literal.value not in param_side.choices:
                raise self.error(where.meta if isinstance(where, Tree) else where,
                                 f"{literal.value!r} is not one of the choices {', '.join(param_side.choices)}")

    def _membership(self, t: Tree, scope: Scope, negate: bool) -> Val:
        left, right = t.children
        a, b = self.expr(left, scope), self.expr(right, scope)
        if not T.is_list(b.type):
            raise self.error(right.meta, f"'in' needs a list on its right, not {b.type}")
        b = self.coerce(b, T.list_of(a.type), right)
        a = self.coerce(a, T.elem(b.type), left)
        if a.choices and b.const:
            for item in b.value:
                self._check_choice(a, Val(_c(item), "str"), right)
        if not T.comparable(a.type, T.elem(b.type)):
            raise self.error(t.meta, f"cannot look for {a.type} in a list of {T.elem(b.type)}")
        if a.const and b.const:
            return Val(_c((a.value in b.value) != negate), "bool")
        return Val(ast.Compare(left=a.node, ops=[ast.NotIn() if negate else ast.In()],
                               comparators=[_walked(b.node)]), "bool")

    def e_in_(self, t: Tree, scope: Scope) -> Val:
        return self._membership(t, scope, False)

    def e_not_in(self, t: Tree, scope: Scope) -> Val:
        return self._membership(t, scope, True)

    def e_binop(self, t: Tree, scope: Scope) -> Val:
        left, op, right = t.children
        a, b = self.expr(left, scope), self.expr(right, scope)
        if op == "+" and T.is_list(a.type) and T.is_list(b.type) and not (T.base(a.type) == "any"):
            return Val(ast.BinOp(left=_as_list(a.node), op=ast.Add(), right=_as_list(b.node)),
                       T.unify(a.type, b.type))
        if not (T.is_int_like(a.type) and T.is_int_like(b.type)):
            raise self.error(t.meta, f"'{op}' needs numbers, not {a.type} and {b.type}")
        pyop = {"+": ast.Add(), "-": ast.Sub(), "*": ast.Mult(), "//": ast.FloorDiv(), "%": ast.Mod()}[str(op)]
        if a.const and b.const:
            x, y = a.value, b.value
            if op in ("//", "%") and y == 0:
                raise self.error(t.meta, "division by zero")
            return Val(_c({"+": x + y, "-": x - y, "*": x * y, "//": x // y if y else 0,
                           "%": x % y if y else 0}[str(op)]), "int")
        return Val(ast.BinOp(left=a.node, op=pyop, right=b.node), "int")

    def e_neg(self, t: Tree, scope: Scope) -> Val:
        a = self.expr(t.children[0], scope)
        if not T.is_int_like(a.type):
            raise self.error(t.meta, f"'-' needs a number, not {a.type}")
        if a.const:
            return Val(_c(-a.value), "int")
        return Val(ast.UnaryOp(op=ast.USub(), operand=a.node), "int")

    def e_index(self, t: Tree, scope: Scope) -> Val:
        base, ix = t.children
        a, i = self.expr(base, scope), self.expr(ix, scope)
        if not T.is_list(a.type):
            raise self.error(base.meta, f"only lists can be indexed, not {a.type}")
        if not (T.is_int_like(i.type) or T.base(i.type) in T.NAMED):
            raise self.error(ix.meta, f"an index must be a number, a seat, a suit or a rank, not {i.type}")
        if a.const and i.const:
            try:
                return Val(_c(a.value[i.value]), T.elem(a.type))
            except (IndexError, TypeError):
                raise self.error(ix.meta, f"index {i.value} is outside the list") from None
        return Val(_sub(a.node, i.node), T.elem(a.type), var=a.var)

    def e_attr(self, t: Tree, scope: Scope) -> Val:
        base, name = t.children
        a = self.expr(base, scope)
        if T.base(a.type) not in ("record", "any"):
            raise self.error(name, f"'.{name}' reads a field of a record, not of {a.type}")
        return Val(_sub(a.node, _c(str(name))), "any")

    def e_call(self, t: Tree, scope: Scope) -> Val:
        name, args = t.children
        assert isinstance(name, Token)
        n = str(name)
        if n in self.env.defines:
            return self._call_define(self.env.defines[n], name, args, scope)
        b = REGISTRY.get(n)
        if b is None:
            known = set(self.env.defines) | set(REGISTRY)
            raise self.error(name, f"unknown function '{n}'{_suggest(n, known)}")
        if b.kind in ("procedure", "engine"):
            raise self.error(name, f"'{n}' changes the state; use it as a statement, not in an expression")
        if b.kind == "random" and not self.mode.allow_random:
            raise self.error(name, f"'{n}' draws at random; it is only allowed in an action's 'sample'")
        return self._call_builtin(b, name, args, scope, t)

    def _args(self, args: Tree | None, scope: Scope) -> list[tuple[Tree, Val]]:
        if args is None:
            return []
        return [(a, self.expr(a, scope)) for a in args.children]

    def _call_builtin(self, b: Builtin, name: Token, args: Tree | None, scope: Scope, t: Tree) -> Val:
        vals = self._args(args, scope)
        lo, hi = len(b.params) - b.optional, len(b.params)
        if not lo <= len(vals) <= hi:
            want = str(hi) if lo == hi else f"{lo} to {hi}"
            raise self.error(name, f"'{b.name}' takes {want} argument(s), got {len(vals)}")
        checked: list[Val] = []
        for (node, v), ptype in zip(vals, b.params, strict=False):
            v = self.coerce(v, ptype, node)
            if not T.compatible(ptype, v.type):
                raise self.error(node.meta, f"argument of '{b.name}' should be {ptype}, not {v.type}")
            checked.append(v)
        for i in b.changes:
            var = checked[i].var
            if var is None:
                self.found.opaque = True  # a local or a computed list: it may be a part of the state
            else:
                self.found.changed.add(var)
        if b.renews_vars:
            self.found.opaque = True
        rtype = b.returns
        item_of: Val | None = None
        if rtype.startswith("elem:"):
            item_of = checked[int(rtype[5:])]
            rtype = T.elem(item_of.type)
            if T.is_list(rtype) and item_of.var is None:
                self.found.opaque = True  # a list out of a list not named: it may be one the game holds
        elif rtype.startswith("arg:"):
            rtype = checked[int(rtype[4:])].type
        if b.kind == "pure" and b.impl is not None and checked and all(v.const for v in checked) \
                and b.name not in ("all_cards",):
            # A pure function of constants is a constant: fold it now (len of a parameter list, say).
            try:
                value = b.impl(*[list(v.value) if isinstance(v.value, tuple) else v.value for v in checked])
            except Exception:  # leave it to run time, which reports it with the rule
                value = None
            else:
                if isinstance(value, (int, bool, str)) or value is None:
                    return Val(_c(value), rtype)
        if b.inline is not None:
            inlined = b.inline(self.env.deck, [_as_list(v.node) if isinstance(v.node, ast.Tuple) else v.node
                                               for v in checked])
            if inlined is not None:
                return Val(inlined, rtype, var=item_of.var if item_of is not None else None)
        if b.name == "mark" and checked and checked[0].const and checked[0].value not in self.env.marks:
            raise self.error(args.children[0].meta if args else name,
                             f"mark {checked[0].value!r} is not declared in any rule's 'marks'"
                             + _suggest(str(checked[0].value), self.env.marks))
        call_args = [v.node for v in checked]
        if b.kind in ("engine", "random"):
            call_args = [_name("st"), *call_args]
        # An item of a list is a part of the variable the list is (the first pile of tricks is the piles').
        return Val(ast.Call(func=_name(_global(b)), args=call_args, keywords=[]), rtype,
                   var=item_of.var if item_of is not None else None)

    def _call_define(self, d: Define, name: Token, args: Tree | None, scope: Scope) -> Val:
        vals: list[tuple[Tree, Val, int]] = []
        for a in args.children if args is not None else []:
            before = self.size.nodes
            vals.append((a, self.expr(a, scope), self.size.nodes - before))
        if len(vals) != len(d.args):
            raise self.error(name, f"'{d.name}' takes {len(d.args)} argument(s), got {len(vals)}")
        if d.name in self.inlining:
            raise self.error(name, f"'{d.name}' calls itself; definitions cannot be recursive")
        inner = Scope(None)
        for (node, v, size), (aname, atype) in zip(vals, d.args, strict=False):
            v = self.coerce(v, atype, node)
            if not T.compatible(atype, v.type):
                raise self.error(node.meta, f"argument '{aname}' of '{d.name}' should be {atype}, not {v.type}")
            inner.bind(aname, "inline", (Val(v.node, atype, v.choices), size), atype)
        if d.block:
            raise self.error(name, f"'{d.name}' is a block definition; only 'sample' may call it")
        self.found.deps.add(d.rule_id)
        # Its text is translated as part of this piece (what it finds is this piece's), with its own
        # text for error locations.
        body = Translator(self.env, self.counter, Unit(d.text, d.rule_id), self.mode, self.found, self.size,
                          (*self.inlining, d.name))
        if d.tree is None:
            d.tree = parse(d.text, "expr")
        try:
            v = body.coerce(body.expr(d.tree, inner), d.returns, d.tree)
        except _TooLarge as exc:
            if self.inlining:
                raise
            # The outermost call, in the text being compiled, is the place to name.
            raise self.error(name, f"{exc.what}, once the definitions called here (and the ones they call) "
                             "are written out at every call; call fewer definitions, or each fewer times (a "
                             "'let' in the caller computes a value once)") from None
        if not T.compatible(d.returns, v.type):
            raise body.error(d.tree.meta, f"'{d.name}' should give {d.returns}, but gives {v.type}")
        return Val(v.node, d.returns, v.choices)

    def _grow(self, n: int, where: Any) -> None:
        """Count ``n`` nodes more, within MAX_TEXT_NODES for the text and MAX_RULESET_NODES for the ruleset."""
        what = self.size.grow(n)
        if what is None:
            return
        if self.inlining:
            raise _TooLarge(what)
        raise self.error(_meta(where), what + "; split it or simplify it")

    # ----- literals of named things ----------------------------------------------
    def coerce(self, v: Val, want: str, where: Any) -> Val:
        """Turn string literals into suits, ranks or phases where those are expected."""
        want_b = T.base(T.normalize(want))
        if v.const and isinstance(v.node, ast.Constant) and isinstance(v.value, str):
            if want_b in ("suit", "rank"):
                return Val(_c(self._named(v.value, want_b, where)), want_b)
            if want_b == "phase":
                if v.value not in self.env.phases:
                    raise self.error(_meta(where), f"unknown phase {v.value!r}{_suggest(v.value, self.env.phases)}")
                return Val(v.node, "phase")
        inner = T.list_elem(want_b)
        if inner is not None and v.const and isinstance(v.node, ast.Tuple):
            if inner in ("suit", "rank") and all(isinstance(x, str) for x in v.value):
                return Val(_c(tuple(self._named(x, inner, where) for x in v.value)), want_b)
        return v

    def _named(self, name: str, kind: str, where: Any) -> int:
        names = self.env.deck.suits if kind == "suit" else self.env.deck.ranks
        deck_rule = self.env.params.get("suits" if kind == "suit" else "ranks")
        if deck_rule is not None:
            self.found.deps.add(deck_rule.rule_id)
        if name not in names:
            raise self.error(_meta(where), f"unknown {kind} {name!r}; the {kind}s are {', '.join(names)}")
        return names.index(name)


# Each expression form of the grammar (its alias in grammar.lark) and the method that compiles it.
EXPRESSION_FORMS: dict[str, Callable[[Translator, Tree, Scope], Val]] = {
    "number": Translator.e_number, "string": Translator.e_string, "true": Translator.e_true,
    "false": Translator.e_false, "none": Translator.e_none, "name": Translator.e_name, "list": Translator.e_list,
    "record": Translator.e_record, "comprehension": Translator.e_comprehension, "if_expr": Translator.e_if_expr,
    "and_": Translator.e_and_, "or_": Translator.e_or_, "not_": Translator.e_not_, "compare": Translator.e_compare,
    "in_": Translator.e_in_, "not_in": Translator.e_not_in, "binop": Translator.e_binop, "neg": Translator.e_neg,
    "index": Translator.e_index, "attr": Translator.e_attr, "call": Translator.e_call,
}


def _meta(where: Any) -> Any:
    return where.meta if isinstance(where, Tree) else where


def _int_lists(a: str, b: str) -> bool:
    # Lists of numbers compare item by item, as strengths of cards do.
    ea, eb = T.list_elem(a), T.list_elem(b)
    return ea is not None and eb is not None and T.is_int_like(ea) and T.is_int_like(eb)


def _is_none(v: Val) -> bool:
    return isinstance(v.node, ast.Constant) and v.node.value is None


def _walked(node: ast.expr) -> ast.expr:
    """A list only looked in or walked through: ``range(a, b)`` itself rather than the library's
    ``range``, which builds the list (membership in a range is arithmetic). Only for a step the list
    and Python's range agree on, none or a positive constant (the library's is empty otherwise)."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == _RANGE
            and not node.keywords and 2 <= len(node.args) <= 3
            and (len(node.args) == 2 or (isinstance(step := node.args[2], ast.Constant)
                                         and type(step.value) is int and step.value > 0))):
        return ast.Call(func=_name("range"), args=node.args, keywords=[])
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list"
            and len(node.args) == 1 and not node.keywords and isinstance(arg := node.args[0], ast.Call)
            and isinstance(arg.func, ast.Name) and arg.func.id == "range"):
        return arg  # the pack, list(range(24)), walked
    return node


def _filtered(node: ast.expr) -> ast.comprehension | None:
    """The one loop of ``[x for x in xs if ...]``, a comprehension that only picks items."""
    if (isinstance(node, ast.ListComp) and len(node.generators) == 1 and isinstance(node.elt, ast.Name)
            and isinstance(node.generators[0].target, ast.Name) and node.elt.id == node.generators[0].target.id):
        return node.generators[0]
    return None


def _target(gen: ast.comprehension) -> str:
    assert isinstance(gen.target, ast.Name)
    return gen.target.id


def _renamed(node: ast.expr, old: str, new: str) -> ast.expr:
    """A copy of ``node`` reading ``new`` where it read ``old`` (generated names, unique in a module)."""
    out = copy.deepcopy(node)
    for sub in ast.walk(out):
        if isinstance(sub, ast.Name) and sub.id == old:
            sub.id = new
    return out


def _as_list(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Tuple):
        return ast.List(elts=node.elts, ctx=ast.Load())
    return node


def _py(name: str) -> str:
    return name.replace("-", "_")


def _kind_word(kind: str) -> str:
    return {"param": "parameter", "payload": "field of the action", "define": "definition",
            "builtin": "library function", "inline": "argument", "var": "state variable"}.get(kind, kind)


def _target_text(t: Tree) -> str:
    return str(t.children[0])


def _procedures() -> list[str]:
    return [n for n, b in REGISTRY.items() if b.kind in ("procedure", "engine")]


def _a_field(t: Any, scope: Scope) -> bool:
    """Whether an expression is a field of the action's payload, named alone (the caller's, not the game's)."""
    if not (isinstance(t, Tree) and t.data == "name"):
        return False
    b = scope.lookup(str(t.children[0]))
    return b is not None and b[0] == "payload"


def _scope_names(scope: Scope) -> set[str]:
    out: set[str] = set()
    s: Scope | None = scope
    while s is not None:
        out |= set(s.names)
        s = s.parent
    return out


def _suggest(name: str, known: Any) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def run_module(code: CodeType) -> dict[str, Any]:
    """The functions of a compiled rule module (built by :meth:`Compiler.build`), by their generated names."""
    namespace: dict[str, Any] = {_global(b): b.impl for b in REGISTRY.values() if b.impl is not None}
    namespace[UNSET_NAME] = _UNSET
    namespace[KEPT_NAME] = _pickled
    namespace[KEY_NAME] = _key
    namespace["__builtins__"] = dict(_MODULE_BUILTINS)
    # The module holds only function definitions built from checked trees.
    exec(code, namespace)
    return namespace
