"""Reading each state variable once in a generated effect body.

The compiler writes a state variable read as ``V['trick']``, a dictionary lookup each time. In
a step's effects the same few variables are read again and again (the trick, the hand, the
trump), so this pass keeps each in a local, ``v_trick``, and reads the local instead, where it is
sure to hold what ``V['trick']`` holds:

- every assignment to the variable assigns the local too (``V['x'] = v_x = ...``), so a write
  in one branch of an ``if`` leaves both equal whichever way it went;
- lists are changed in place (``append``, ``remove``), which the local sees, being the same list;
- anything that could give variables new values behind the body's back, a call handed the state
  (``reset``, ``end_deal``) or ``V`` or ``st`` used any other way, makes every local suspect from
  that statement on (nothing is replaced in it), until the variable is assigned again. A loop
  with such a thing anywhere in it is entered with every local suspect.

What a body raises, and where, is unchanged: only loads are replaced, and a new statement carries
the line of the one it came from (the line tells which rule's clause failed).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Mapping
from typing import Any

STATE = "V"  # the generated code's name for the state's variables (st.v)
GAME = "st"  # and for the state itself
# The attribute of the state a body may write without touching the variables: who set them.
_SET_BY = "set_by"


def read_once(stmts: list[ast.stmt], bound: Mapping[str, str], harmless: Collection[str],
              local_of: Callable[[str], str]) -> list[ast.stmt]:
    """``stmts`` reading variables through locals where that is safe: new nodes where they change,
    the input's own elsewhere (it is never changed).

    ``bound``: variable -> its local, already assigned at the top of the function (the check's
    hoisted reads). ``local_of(variable)``: the local for any other variable read at least twice,
    which is assigned at the top of the returned statements. ``harmless``: the
    names of functions that may be handed the state but never give a variable a new value
    (``mark`` notes an event).
    """
    pass_ = _Pass(frozenset(harmless))
    for st in stmts:
        pass_.learn(st)
    extra = {n: local_of(n) for n, k in pass_.counts.items() if k >= 2 and n not in bound}
    head: list[ast.stmt] = []
    line = getattr(stmts[0], "lineno", 1) if stmts else 1  # the first clause's
    for n in sorted(extra):
        read = ast.Assign(targets=[ast.Name(extra[n], ast.Store())], value=_var(n))
        _place(read, line)
        head.append(read)
    pass_.locals = {**bound, **extra}
    out, _ = pass_.block(stmts, set(bound) | set(extra))
    return head + out


def _var(name: str, store: bool = False) -> ast.Subscript:
    return ast.Subscript(value=ast.Name(STATE, ast.Load()), slice=ast.Constant(name),
                         ctx=ast.Store() if store else ast.Load())


def _is_var(node: ast.AST, ctx: type[ast.expr_context]) -> str | None:
    """The variable ``node`` is, if it is ``V['name']`` in the context ``ctx``."""
    if (type(node) is ast.Subscript and type(node.ctx) is ctx and type(node.value) is ast.Name
            and node.value.id == STATE and type(node.slice) is ast.Constant and type(node.slice.value) is str):
        return node.slice.value
    return None


def _read_var(node: ast.AST) -> str | None:
    return _is_var(node, ast.Load)


def _stored_var(node: ast.AST) -> str | None:
    return _is_var(node, ast.Store)


def children(node: ast.AST) -> list[ast.AST]:
    """The nodes right under ``node`` (``ast.iter_child_nodes``, at a third of its cost)."""
    out: list[ast.AST] = []
    d = node.__dict__
    for field in node._fields:
        v = d.get(field)
        if type(v) is list:
            out.extend(x for x in v if isinstance(x, ast.AST))
        elif isinstance(v, ast.AST):
            out.append(v)
    return out


def _place(node: ast.AST, line: int) -> None:
    for n in ast.walk(node):
        if "lineno" in n._attributes:
            placed: Any = n  # a node with a "lineno" has all four places, but no one type says so to mypy
            placed.lineno, placed.end_lineno, placed.col_offset, placed.end_col_offset = line, line, 0, 0


def _copy(node: ast.AST) -> ast.AST:
    """A shallow copy: the pass shares every part it does not change, as the compiler does."""
    out = node.__class__.__new__(node.__class__)
    out.__dict__.update(node.__dict__)
    return out


# The statements the pass follows; any other kind (a try, a del...) counts as suspect.
_FOLLOWED = (ast.If, ast.For, ast.While, ast.Assign, ast.AugAssign, ast.Expr, ast.Return, ast.Pass, ast.Break,
             ast.Continue)


class _Pass:
    def __init__(self, harmless: frozenset[str]) -> None:
        self.harmless = harmless
        self.locals: Mapping[str, str] = {}
        # Per node of the input (by id), learnt once: whether it is suspect, and whether it reads a
        # variable (the parts that read none are not looked into again).
        self.facts: dict[int, tuple[bool, bool]] = {}
        self.counts: dict[str, int] = {}  # variable -> reads of it

    def learn(self, n: ast.AST) -> tuple[bool, bool]:
        """Whether running ``n`` may give a variable a new value other than by a plain assignment to
        ``V[name]``, which the pass sees (suspect); and whether it reads a variable."""
        t = type(n)
        name = _read_var(n)
        if name is not None:
            self.counts[name] = self.counts.get(name, 0) + 1
            got = (False, True)
        elif isinstance(n, ast.Name):
            got = (n.id in (STATE, GAME), False)  # the state or its variables, handed on or used otherwise
        else:
            suspect = ((isinstance(n, ast.stmt) and not isinstance(n, _FOLLOWED))
                       or (isinstance(n, ast.For) and type(n.target) is not ast.Name))
            reads = False
            for part in children(n):
                s, r = self.learn(part)
                # The state where the rules may hand it: V['x'] = ..., st.set_by[...] = ..., mark(st, ...).
                if type(part) is ast.Name and (
                        (t is ast.Subscript and _stored_var(n) is not None)
                        or (isinstance(n, ast.Attribute) and n.attr == _SET_BY and part.id == GAME)
                        or (isinstance(n, ast.Call) and type(n.func) is ast.Name and n.func.id in self.harmless
                            and part.id == GAME)):
                    s = False
                suspect = suspect or s
                reads = reads or r
            got = (suspect, reads)
        self.facts[id(n)] = got
        return got

    def suspect(self, node: ast.AST) -> bool:
        return self.facts[id(node)][0]

    def expr(self, node: ast.AST, fresh: set[str]) -> Any:
        return self._replaced(node, {n: self.locals[n] for n in fresh}) if fresh else node

    def _replaced(self, node: ast.AST, fresh: Mapping[str, str]) -> ast.AST:
        """``node`` with each read of a variable in ``fresh`` made a read of its local; the parts
        with nothing to replace are ``node``'s own."""
        if not self.facts[id(node)][1]:
            return node
        name = _read_var(node)
        if name is not None:
            return ast.copy_location(ast.Name(fresh[name], ast.Load()), node) if name in fresh else node
        changed: dict[str, Any] = {}
        d = node.__dict__
        for field in node._fields:
            value = d.get(field)
            if type(value) is list:
                new = [self._replaced(x, fresh) if isinstance(x, ast.AST) else x for x in value]
                if any(x is not y for x, y in zip(new, value, strict=True)):
                    changed[field] = new
            elif isinstance(value, ast.AST):
                got = self._replaced(value, fresh)
                if got is not value:
                    changed[field] = got
        if not changed:
            return node
        out = _copy(node)
        out.__dict__.update(changed)
        return out

    def block(self, stmts: list[ast.stmt], fresh: set[str]) -> tuple[list[ast.stmt], set[str]]:
        out: list[ast.stmt] = []
        for s in stmts:
            new, fresh = self.stmt(s, fresh)
            out.extend(new)
        return out, fresh

    def stmt(self, original: ast.stmt, fresh: set[str]) -> tuple[list[ast.stmt], set[str]]:
        s: Any = original  # copied only where its fields are given new values (a branch, a loop)
        if isinstance(s, ast.If):
            s = _copy(original)
            if self.suspect(s.test):
                fresh = set()
            else:
                s.test = self.expr(s.test, fresh)
            s.body, f1 = self.block(s.body, fresh)
            s.orelse, f2 = self.block(s.orelse, fresh)
            return [s], f1 & f2
        if isinstance(s, (ast.For, ast.While)):
            s = _copy(original)
            if self.suspect(original):
                fresh = set()
            elif isinstance(s, ast.For):
                s.iter = self.expr(s.iter, fresh)
            else:
                s.test = self.expr(s.test, fresh)
            # Nothing in the loop makes a local suspect and assignments only add to what holds, so
            # what holds before it holds at every turn and after it.
            s.body, _ = self.block(s.body, set(fresh))
            s.orelse, _ = self.block(s.orelse, set(fresh))
            return [s], fresh
        if not isinstance(s, _FOLLOWED) or self.suspect(original):
            fresh = set()
            if not isinstance(s, ast.Assign):
                return [original], fresh
        elif isinstance(s, ast.AugAssign) and _stored_var(s.target) in self.locals:
            # V['x'] += e  ->  v_x += e; V['x'] = v_x: the same for numbers (a new value) and for
            # lists (the same list, extended).
            name = _stored_var(s.target)
            assert name is not None
            local = self.locals[name]
            value = self.expr(s.value, fresh)
            new: list[ast.stmt] = []
            if name not in fresh:
                new.append(ast.Assign(targets=[ast.Name(local, ast.Store())], value=_var(name)))
            new.append(ast.Assign(targets=[_var(name, True)], value=ast.Name(local, ast.Load())))
            for n in new:
                _place(n, s.lineno)
            add = ast.AugAssign(target=ast.Name(local, ast.Store()), op=s.op, value=value)
            for part in (add, add.target):  # not its value, which is the input's
                part.lineno, part.end_lineno, part.col_offset, part.end_col_offset = s.lineno, s.lineno, 0, 0
            new.insert(-1, add)
            return new, fresh | {name}
        else:
            s = self.expr(original, fresh)
        if isinstance(s, ast.Assign):
            names = sorted({n for n in map(_stored_var, s.targets) if n is not None and n in self.locals})
            if names:  # V['x'] = v_x = e: both hold the new value, whichever branch this is in
                extra = [ast.Name(self.locals[n], ast.Store()) for n in names]
                for t in extra:
                    _place(t, s.lineno)
                s = _copy(s)
                s.targets = s.targets + extra
                return [s], fresh | set(names)
        return [s], fresh
