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
import copy
from collections.abc import Callable, Collection, Mapping

STATE = "V"  # the generated code's name for the state's variables (st.v)
GAME = "st"  # and for the state itself
# The attribute of the state a body may write without touching the variables: who set them.
_SET_BY = "set_by"


def read_once(stmts: list[ast.stmt], bound: Mapping[str, str], harmless: Collection[str],
              local_of: Callable[[str], str]) -> list[ast.stmt]:
    """``stmts`` (copied, not changed) reading variables through locals where that is safe.

    ``bound``: variable -> its local, already assigned at the top of the function (the check's
    hoisted reads). ``local_of(variable)``: the local for any other variable read at least twice,
    which is assigned at the top of the returned statements. ``harmless``: the
    names of functions that may be handed the state but never give a variable a new value
    (``mark`` notes an event).
    """
    body = copy.deepcopy(stmts)
    counts: dict[str, int] = {}
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        name = _read_var(node)
        if name is not None:
            counts[name] = counts.get(name, 0) + 1
    extra = {n: local_of(n) for n, k in counts.items() if k >= 2 and n not in bound}
    head: list[ast.stmt] = []
    line = getattr(stmts[0], "lineno", 1) if stmts else 1  # the first clause's
    for n in sorted(extra):
        read = ast.Assign(targets=[ast.Name(extra[n], ast.Store())], value=_var(n))
        _place(read, line)
        head.append(read)
    out, _ = _Pass({**bound, **extra}, frozenset(harmless)).block(body, set(bound) | set(extra))
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


def _place(node: ast.AST, line: int) -> None:
    for n in ast.walk(node):
        if "lineno" in n._attributes:
            n.lineno, n.end_lineno, n.col_offset, n.end_col_offset = line, line, 0, 0


class _Replace(ast.NodeTransformer):
    def __init__(self, fresh: Mapping[str, str]) -> None:
        self.fresh = fresh

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        name = _read_var(node)
        if name is not None and name in self.fresh:
            return ast.copy_location(ast.Name(self.fresh[name], ast.Load()), node)
        self.generic_visit(node)
        return node


# The statements the pass follows; any other kind (a try, a del...) counts as suspect.
_FOLLOWED = (ast.If, ast.For, ast.While, ast.Assign, ast.AugAssign, ast.Expr, ast.Return, ast.Pass, ast.Break,
             ast.Continue)


class _Pass:
    def __init__(self, locals_: Mapping[str, str], harmless: frozenset[str]) -> None:
        self.locals = locals_
        self.harmless = harmless

    def suspect(self, node: ast.AST) -> bool:
        """Whether running ``node`` may give a variable a new value other than by a plain
        assignment to ``V[name]``, which the pass sees."""
        allowed: set[int] = set()
        nodes = list(ast.walk(node))
        for n in nodes:
            if isinstance(n, ast.stmt) and not isinstance(n, _FOLLOWED):
                return True
            if type(n) is ast.For and type(n.target) is not ast.Name:
                return True
            if type(n) is ast.Subscript and type(n.value) is ast.Name and n.value.id == STATE \
                    and type(n.slice) is ast.Constant and type(n.ctx) is ast.Load:
                allowed.add(id(n.value))
            elif type(n) in (ast.Assign, ast.AugAssign):
                for t in (n.targets if type(n) is ast.Assign else [n.target]):
                    if _stored_var(t) is not None:
                        allowed.add(id(t.value))
            elif type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id == GAME and n.attr == _SET_BY:
                allowed.add(id(n.value))
            elif type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in self.harmless:
                allowed.update(id(a) for a in n.args if type(a) is ast.Name and a.id == GAME)
        return any(type(n) is ast.Name and n.id in (STATE, GAME) and id(n) not in allowed for n in nodes)

    def expr(self, node: ast.AST, fresh: set[str]) -> ast.AST:
        return _Replace({n: self.locals[n] for n in fresh}).visit(node)

    def block(self, stmts: list[ast.stmt], fresh: set[str]) -> tuple[list[ast.stmt], set[str]]:
        out: list[ast.stmt] = []
        for s in stmts:
            new, fresh = self.stmt(s, fresh)
            out.extend(new)
        return out, fresh

    def stmt(self, s: ast.stmt, fresh: set[str]) -> tuple[list[ast.stmt], set[str]]:
        if isinstance(s, ast.If):
            if self.suspect(s.test):
                fresh = set()
            else:
                s.test = self.expr(s.test, fresh)
            s.body, f1 = self.block(s.body, fresh)
            s.orelse, f2 = self.block(s.orelse, fresh)
            return [s], f1 & f2
        if isinstance(s, (ast.For, ast.While)):
            if self.suspect(s):
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
        if not isinstance(s, _FOLLOWED) or self.suspect(s):
            fresh = set()
            if not isinstance(s, ast.Assign):
                return [s], fresh
        elif isinstance(s, ast.AugAssign) and _stored_var(s.target) in self.locals:
            # V['x'] += e  ->  v_x += e; V['x'] = v_x: the same for numbers (a new value) and for
            # lists (the same list, extended).
            name = _stored_var(s.target)
            assert name is not None
            local = self.locals[name]
            s.value = self.expr(s.value, fresh)
            new: list[ast.stmt] = []
            if name not in fresh:
                new.append(ast.Assign(targets=[ast.Name(local, ast.Store())], value=_var(name)))
            new.append(ast.AugAssign(target=ast.Name(local, ast.Store()), op=s.op, value=s.value))
            new.append(ast.Assign(targets=[_var(name, True)], value=ast.Name(local, ast.Load())))
            for n in new:
                _place(n, s.lineno)
            return new, fresh | {name}
        else:
            self.expr(s, fresh)
        if isinstance(s, ast.Assign):
            names = sorted({n for n in map(_stored_var, s.targets) if n is not None and n in self.locals})
            if names:  # V['x'] = v_x = e: both hold the new value, whichever branch this is in
                extra = [ast.Name(self.locals[n], ast.Store()) for n in names]
                for t in extra:
                    _place(t, s.lineno)
                s.targets = s.targets + extra
                return [s], fresh | set(names)
        return [s], fresh
