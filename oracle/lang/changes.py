"""What a compiled effect clause writes, and which of its statements certainly change the game.

Rule coverage counts an effect clause as having *fired* when it changed the game: it keeps the
variables the clause may change before it runs and compares them after (``Compiler.counted``). Most
clauses run at every action, and keeping a hand or the tricks won is most of what counting costs.
This module reads a clause's translated statements (before their variables are read into locals, so
every state variable is ``V['name']``) to keep less:

- a statement that certainly changes a variable nothing else in the clause touches (one more bid
  spoken, a card added to the trick) settles that the clause changed the game, with nothing kept;
- a branch of an ``if`` keeps only what that branch writes.

It is used only for clauses whose every change the compiler can name (``Fn.changes`` is not None):
no local is then a state variable's list under another name.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from . import types as T

# A method that certainly changes the list it is called on: a list grows by one or loses one (or the call
# raises, and the action fails).
_SURE_METHODS = frozenset({"append", "remove"})


def var_of(node: ast.expr) -> str | None:
    """The state variable ``node`` is, or is a part of (``V['hand'][seat]`` is part of ``hand``)."""
    while isinstance(node, ast.Subscript):
        if isinstance(node.value, ast.Name) and node.value.id == "V" and isinstance(node.slice, ast.Constant):
            return str(node.slice.value)
        node = node.value
    return None


@dataclass(frozen=True)
class _Site:
    """One place that writes a state variable: which, and the type of the list it changes in place (None
    when it gives the variable a new value rather than changing a list)."""

    var: str
    changed_list: str | None


class ClauseWrites:
    """Every place in one clause that writes a state variable.

    ``procedures`` maps a generated procedure's name to the positions of the arguments it changes in
    place; ``var_type`` gives a state variable's type (a per-seat variable's as a list)."""

    def __init__(self, clause: list[ast.stmt], procedures: dict[str, tuple[int, ...]],
                 var_type: Callable[[str], str]) -> None:
        self.procedures = procedures
        self.var_type = var_type
        sites = [site for stmt in clause for node in ast.walk(stmt) for site in self._writes(node)]
        self.count: Counter[str] = Counter(s.var for s in sites)  # variable -> places that write it
        # type of a list -> places that change a list of that type in place
        self.changed_lists: Counter[str] = Counter(s.changed_list for s in sites if s.changed_list is not None)

    def _type_of(self, node: ast.expr) -> str | None:
        """The type of a state variable or of a part of it, as the clause reaches it."""
        depth = 0
        while isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name) and node.value.id == "V" and isinstance(node.slice, ast.Constant):
                t = self.var_type(str(node.slice.value))
                for _ in range(depth):
                    if not T.is_list(t):
                        return None
                    t = T.elem(t)
                return T.normalize(t)
            node, depth = node.value, depth + 1
        return None

    def _site(self, target: ast.expr, in_place: ast.expr | None) -> list[_Site]:
        var = var_of(target)
        if var is None:
            return []
        return [_Site(var, None if in_place is None else (self._type_of(in_place) or "?"))]

    def _writes(self, node: ast.AST) -> list[_Site]:
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            # V['x'] = ... gives x a new value; V['x'][i] = ... changes the list V['x'] in place.
            sites = [s for t in targets
                     for s in self._site(t, t.value if isinstance(t, ast.Subscript) and var_of(t.value) else None)]
            # V['x'] = V['y'] (or an item of it): y's list is now x's too, and changes with it.
            return sites + [_Site(var, None) for part in ast.walk(node.value) if isinstance(part, ast.Subscript)
                            and (var := var_of(part)) is not None and T.is_list(self._type_of(part) or "")]
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                return self._site(f.value, f.value)  # any method of a state list is taken to change it
            if isinstance(f, ast.Name) and f.id in self.procedures:
                return [s for i in self.procedures[f.id] if i < len(node.args)
                        for s in self._site(node.args[i], node.args[i])]
        return []

    def written(self, stmts: list[ast.stmt]) -> set[str]:
        """The state variables some statement of ``stmts`` writes."""
        return {s.var for stmt in stmts for node in ast.walk(stmt) for s in self._writes(node)}

    def certainly_changes(self, stmts: list[ast.stmt]) -> bool:
        """Whether running ``stmts`` one after another (none of them skipped) certainly leaves some state
        variable unequal to what it was: one of them adds a non-zero number to a number, or appends to or
        removes from a list, and nothing else in the whole clause writes that variable or changes a list of
        the same type in place (which could be the same list under another name)."""
        return any(self._sure(stmt) for stmt in stmts)

    def _sure(self, stmt: ast.stmt) -> bool:
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, (ast.Add, ast.Sub)):
            value = stmt.value
            if not (isinstance(value, ast.Constant) and type(value.value) is int and value.value != 0):
                return False
            target = stmt.target
            var = var_of(target)
            if var is None or self.count[var] != 1:
                return False
            if isinstance(target, ast.Subscript) and var_of(target.value) is not None:
                return self._alone(target.value)  # an item of a list of numbers, changed in place
            return T.normalize(self.var_type(var)) == "int"  # a number given a new value: nothing aliases it
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            f = stmt.value.func
            if isinstance(f, ast.Attribute) and f.attr in _SURE_METHODS and len(stmt.value.args) == 1:
                var = var_of(f.value)
                return var is not None and self.count[var] == 1 and self._alone(f.value)
        return False

    def _alone(self, changed: ast.expr) -> bool:
        """No other place in the clause changes a list of this one's type in place."""
        t = self._type_of(changed)
        return t is not None and self.changed_lists[t] == 1
