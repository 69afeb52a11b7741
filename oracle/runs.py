"""Runs of actions written as mappings, read and applied by one function generated per ruleset.

A record's replay spends most of its time on ordinary actions in the middle of a deal: the seat on
turn plays a card of the current phase and no guard forbids it. Read generically, each such action
pays for a loop over its fields, a tuple of its parts, a lookup of its compiled step and the checks
around it: more than the step itself. This module writes, once per ruleset and entry shape, one
function whose every action kind is a branch with its fields read in line and its compiled step
called directly; a run of such entries costs little more than its steps.

It takes only what it can take for sure. Anything else (a field of another type, a card the notation
does not know, a seat not on turn, a payload the step refuses, an unknown action) ends the run at that entry,
left unapplied, for the careful path to read, check and word: the generated function never decides
anything the interpreter would decide otherwise, it only skips the detours when there is nothing to
decide. A step refuses before any effect runs, so an entry handed back leaves the state as it was.

The code is built as a syntax tree from our own template, the ruleset's names and values put in as
constants, never as text: a field or action name from a rule file cannot become code.
"""

from __future__ import annotations

import ast
import enum
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class FieldType(enum.Enum):
    """The payload types a run reads in line."""

    CARD = "card"  # a card as the notation writes it, in any case
    BOOL = "bool"
    INT = "int"
    SEAT = "seat"  # a player's name or a seat number in range


@dataclass(frozen=True)
class EntryShape:
    """How an action is written as a mapping: the keys of its kind and seat, and, for each action that
    may be taken in a run, its payload fields and their types (an entry has exactly these keys, but that a
    flag left out is not raised)."""

    kind_key: str
    seat_key: str
    fields: tuple[tuple[str, tuple[tuple[str, FieldType], ...]], ...]

    def __hash__(self) -> int:
        # Asked at every deal a record replays (the key of its run factory): worked out once, as hashing
        # the fields' types is a Python call each.
        got: int | None = self.__dict__.get("_hash")
        if got is None:
            got = hash((self.kind_key, self.seat_key, self.fields))
            object.__setattr__(self, "_hash", got)
        return got

    def __getstate__(self) -> dict[str, Any]:
        # A text's hash differs from process to process: the one kept is not carried to another.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass(frozen=True)
class QuickAction:
    """An action a run may apply: its phase, the variable naming the seat that acts, and its compiled step
    (which returns -1 when it applied the action, else the index of the guard that refused it, with no
    effect run)."""

    kind: str
    rule_id: str
    phase: str
    actor_var: str
    step: Callable[..., int]


# A run: (entries, index of the first entry, list the applied actions are added to as (kind, seat, payload))
# -> index of the first entry not applied.
Run = Callable[[list[Any], int, list[tuple[str, int, Mapping[str, Any]]]], int]

# The template of the generated code. Placeholders in capitals are replaced by constants (STEP by the name
# of the step's global, PAYLOAD by the mapping of the fields read); FIELDS stands for the statements that
# read the fields, BRANCHES for one branch of _BRANCH per action.
_TEMPLATE = '''
def make(st, sheet, seat_of, cards, settle, failed):
    V = st.v

    def run(entries, ai, applied):
        n_sheet = len(sheet)
        end = len(entries)
        while ai < end:
            a = entries[ai]
            if type(a) is not dict:
                return ai
            kind = a.get(KIND_KEY)
            BRANCHES
            return ai
        return ai

    return run
'''

_BRANCH = '''
if kind == KIND:
    if len(a) != N_KEYS or V['phase'] != PHASE or V['game_over']:
        return ai
    try:
        seat = a[SEAT_KEY]
        if type(seat) is not str and type(seat) is not int:
            return ai
        seat = seat_of[seat]
        FIELDS
    except (KeyError, TypeError):
        return ai
    if seat != V[ACTOR]:
        return ai
    payload = PAYLOAD
    try:
        refused = STEP(st, seat, payload)
    except Exception as exc:
        raise failed(STEP, exc, KIND, RULE_ID, seat) from None
    if refused != -1:
        return ai
    applied.append((KIND, seat, payload))
    ai += 1
    if V['phase'] != PHASE:
        settle(PHASE)
        return ai
    if len(sheet) != n_sheet:
        return ai
    continue
'''

# Each reads field NAME of entry ``a`` into local VALUE, or ends the run (returns, or raises the KeyError or
# TypeError the branch catches: a key missing, a value that is not a key of ``cards`` or ``seat_of``). The
# types are checked where a lookup would let another type through (``True`` finds seat 1).
_READERS: dict[FieldType, str] = {
    FieldType.CARD: '''
VALUE = a[NAME]
try:
    VALUE = cards[VALUE]
except KeyError:
    if type(VALUE) is not str:
        return ai
    VALUE = cards[VALUE.upper()]
''',
    FieldType.BOOL: '''
VALUE = a.get(NAME, False)
if type(VALUE) is not bool:
    return ai
''',
    FieldType.INT: '''
VALUE = a[NAME]
if type(VALUE) is not int:
    return ai
''',
    FieldType.SEAT: '''
VALUE = a[NAME]
if type(VALUE) is not str and type(VALUE) is not int:
    return ai
VALUE = seat_of[VALUE]
''',
}


# All the generated code calls or names beside its own locals and the steps.
_BUILTINS = {"type": type, "dict": dict, "str": str, "int": int, "bool": bool, "len": len, "Exception": Exception,
             "KeyError": KeyError, "TypeError": TypeError}


class _Fill(ast.NodeTransformer):
    """Puts constants, names and statements in the places of a template's placeholders."""

    def __init__(self, constants: Mapping[str, Any], names: Mapping[str, str],
                 expressions: Mapping[str, ast.expr], blocks: Mapping[str, list[ast.stmt]]) -> None:
        self.constants, self.names, self.expressions, self.blocks = constants, names, expressions, blocks

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        if node.id in self.expressions:
            return ast.copy_location(self.expressions[node.id], node)
        if node.id in self.names:
            return ast.copy_location(ast.Name(self.names[node.id], node.ctx), node)
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | list[ast.stmt]:
        if isinstance(node.value, ast.Name) and node.value.id in self.blocks:
            return self.blocks[node.value.id]
        return self.generic_visit(node)


def _parsed(template: str) -> list[ast.stmt]:
    return ast.parse(textwrap.dedent(template)).body


def _branch(action: QuickAction, fields: tuple[tuple[str, FieldType], ...], seat_key: str, step_name: str) -> ast.If:
    reading: list[ast.stmt] = []
    for i, (name, ftype) in enumerate(fields):
        reading += [_Fill({"NAME": name}, {"VALUE": f"x{i}"}, {}, {}).visit(s) for s in _parsed(_READERS[ftype])]
    payload = ast.Dict([ast.Constant(name) for name, _ in fields], [ast.Name(f"x{i}", ast.Load())
                                                                     for i in range(len(fields))])
    # The keys an entry has: its kind, its seat, every field, but a flag may be left out (it is not raised, as
    # the careful path reads it): a key more or less than that ends the run.
    flags = [name for name, ftype in fields if ftype is FieldType.BOOL]
    n_keys: ast.expr = ast.Constant(len(fields) + 2 - len(flags))
    for name in flags:
        n_keys = ast.BinOp(n_keys, ast.Add(), ast.Compare(ast.Constant(name), [ast.In()], [ast.Name("a", ast.Load())]))
    fill = _Fill({"KIND": action.kind, "RULE_ID": action.rule_id, "PHASE": action.phase, "ACTOR": action.actor_var,
                  "SEAT_KEY": seat_key},
                 {"STEP": step_name}, {"PAYLOAD": payload, "N_KEYS": n_keys}, {"FIELDS": reading})
    (branch,) = [fill.visit(s) for s in _parsed(_BRANCH)]
    assert isinstance(branch, ast.If)
    return branch


def build_run_factory(actions: list[QuickAction], shape: EntryShape) -> Callable[..., Run]:
    """The generated factory ``make(st, sheet, seat_of, cards, settle, failed)`` of runs over one game's state:
    ``seat_of`` maps the players' names and the seat numbers to seats, ``cards`` the notation's spellings
    to cards, ``settle(phase)`` runs what entering the phases after ``phase`` runs, and ``failed(step,
    exc, kind, rule_id, seat)`` is the error to raise when a step itself fails."""
    by_kind = {a.kind: a for a in actions}
    branches: list[ast.stmt] = []
    steps: dict[str, Callable[..., int]] = {}
    for kind, fields in shape.fields:
        action = by_kind.get(kind)
        if action is None:
            continue
        name = f"step{len(steps)}"
        steps[name] = action.step
        branches.append(_branch(action, fields, shape.seat_key, name))
    fill = _Fill({"KIND_KEY": shape.kind_key}, {}, {}, {"BRANCHES": branches})
    module = ast.Module([fill.visit(s) for s in _parsed(_TEMPLATE)], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace: dict[str, Any] = {"__builtins__": dict(_BUILTINS), **steps}
    # The module holds one function definition, built from our template.
    exec(compile(module, "<runs of recorded actions>", "exec"), namespace)
    make: Callable[..., Run] = namespace["make"]
    return make
