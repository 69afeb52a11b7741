"""Blame: which rule decided a value on the score sheet, and which rule refused an action.

A value is charged to the last clause that changed it while the deal was replayed with
clause tracing. Tracing costs time, so a deal is traced only when something must be
explained: from a :class:`DealStart` (the state before the deal, and the deal's actions).
"""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import NO_STATE, Action, Game, IllegalAction, VariableWatcher
from ..lang import types as T
from ..lang.program import Trigger
from ..ruleset import Ruleset
from ..state import Position

RECORD_RULE = "record"  # rejections about the record itself, not about a rule of the game


@dataclass(frozen=True)
class Write:
    rule: str  # the rule whose clause changed the value
    var: str  # the state variable
    seat: int | None  # the seat, for a per-seat variable whose one entry changed
    value: Any = None  # the value it was given (of that seat's entry, for a per-seat variable)


# A what-if: (variable, seat or None) -> (n, value): the n-th change of that cell gives ``value`` instead.
Force = dict[tuple[str, int | None], tuple[int, Any]]


@dataclass(frozen=True)
class DealStart:
    """The position at the start of a deal (a value, so it can be replayed more than once) and the deal's
    actions, as a replay keeps them: (kind, seat, payload), each applied once already (so of the right types)."""

    position: Position
    applied: tuple[tuple[str, int, Mapping[str, Any]], ...]

    @property
    def actions(self) -> list[Action]:
        return [Action(*parts) for parts in self.applied]


def refused_by(game: Game, action: Action) -> str | None:
    """The rule that refuses ``action`` in the game's present state, or None when it is legal."""
    rej = game.check(action)
    return None if rej is None else rej.rule_id


def traced_writes(rs: Ruleset, start: DealStart, after_sheet: bool = False,
                  watch: Collection[str] | None = None) -> list[Write]:
    """Replay a deal with clause tracing: every value a clause changed, in order (with ``watch``,
    only the values of those variables).

    Changes made after the deal's row was written on the sheet (the next deal being set
    up) are left out, unless ``after_sheet`` asks for them: they explain the next dealer,
    not this deal's results.
    """
    return trace(start.position, start.applied, after_sheet=after_sheet, watch=watch, typed=True)[0]


def trace(position: Position, actions: Sequence[Action] | Sequence[tuple[str, int, Mapping[str, Any]]], *,
          after_sheet: bool = False,
          watch: Collection[str] | None = None, force: Force | None = None,
          typed: bool = False) -> tuple[list[Write], Game]:
    """Apply ``actions`` from ``position`` with clause tracing: every value a clause changed, in order, and
    the game they leave. ``watch`` keeps to those variables; ``after_sheet`` as in :func:`traced_writes`;
    ``force`` makes it a what-if replay (the n-th change of a cell gives another value, and play goes on
    from there). Actions refused on the way raise :class:`IllegalAction`. ``typed`` says the actions'
    payloads are of the right types already (a replay's applied actions, which may be given as their parts:
    kind, seat, payload), so only the rules are asked."""
    g = Game.at(position)
    v = g.v
    writes: list[Write] = []
    rows = len(g.sheet)
    started = [False]
    seen: Counter[tuple[str, int | None]] = Counter()

    def changed(rule: str, name: str, old: Any, after: dict[str, Any]) -> bool:
        """Note the cells of ``name`` that a clause changed; True when a what-if gave one another value."""
        forced = False
        for i in changed_cells(old, after[name]):
            if force:
                seen[(name, i)] += 1
                n_value = force.get((name, i))
                if n_value is not None and n_value[0] == seen[(name, i)]:
                    if i is None:
                        after[name] = n_value[1]
                    else:
                        after[name][i] = n_value[1]
                    forced = True
            writes.append(Write(rule, name, i, after[name] if i is None else after[name][i]))
        return forced

    def tracer(clause: Any, before_bytes: bytes, after: dict[str, Any]) -> bytes | None:
        # A clause that began after the deal's row was written belongs to the next deal.
        if not after_sheet and started[0]:
            return NO_STATE  # nothing more is read: no need to pickle the state for the next clause
        # The state after, pickled once: the interpreter takes it as the next clause's state before, and
        # a clause that changed nothing (the same bytes) needs no unpickling to say so.
        now: bytes | None = pickle.dumps(after, 5)
        if now != before_bytes:
            for name, old in pickle.loads(before_bytes).items():
                # Most variables are as they were: compared here, at C speed, before anything is noted.
                if old != after[name] and changed(clause.rule_id, name, old, after):
                    now = None  # the state changed since it was pickled
        started[0] = len(g.sheet) > rows
        return now

    # Watching a few variables, the tracer keeps their values itself and the interpreter need not pickle
    # the whole state around every clause: a number, a flag or a flat list of them as a copy, compared
    # as it is; anything else pickled. Only the triggers that may change one of them are traced.
    watched = frozenset(watch or ())
    flat = {name for name in watched if _flat(position.rules, name)}
    kept = {name: _shallow_copy(value) if name in flat else pickle.dumps(value, 5)
            for name, value in v.items() if name in watched}  # in the state's order

    def watcher(clause: Any, before_bytes: bytes, after: dict[str, Any]) -> bytes:
        if not after_sheet and watching.started:
            return NO_STATE
        for name, was in kept.items():
            value = after[name]
            if name in flat:
                if value != was:
                    changed(clause.rule_id, name, was, after)
                    kept[name] = _shallow_copy(after[name])
                continue
            now = pickle.dumps(value, 5)
            if now != was:
                changed(clause.rule_id, name, pickle.loads(was), after)
                kept[name] = pickle.dumps(after[name], 5)
        watching.passed(after)
        return NO_STATE

    watching = _Watch(watched, position.rules.derived(_sees_tables).setdefault(watched, {}), watcher,
                      g.st.sheet, after_sheet)
    g.tracer = tracer if watch is None else watching
    if typed:
        step = g.stepper()  # bound to this tracer; the quick step for what a watcher cannot see
        for a in actions:
            rej = step(a.kind, a.seat, a.payload) if isinstance(a, Action) else step(*a)
            if rej is not None:
                raise IllegalAction(rej)
    else:
        for a in actions:
            assert isinstance(a, Action), "parts are typed"
            rej = g.try_apply(a)
            if rej is not None:
                raise IllegalAction(rej)
    g.tracer = None
    return writes, g


class _Watch(VariableWatcher):
    """The tracer of :func:`trace` when it watches a few variables: ``seen`` hears of each traced effect,
    and the watcher itself notes when the deal's row is on ``sheet`` (the game's), after which it has
    nothing more to hear unless ``after_sheet``. Told of every action and trigger let through untraced,
    it is kept to a length test."""

    def __init__(self, watched: Collection[str], sees: dict[Trigger, bool],
                 seen: Callable[[Any, bytes, dict[str, Any]], bytes], sheet: list[dict[str, Any]],
                 after_sheet: bool) -> None:
        super().__init__(watched, sees)
        self._seen = seen
        self._sheet = sheet
        self._rows = len(sheet)
        self._after_sheet = after_sheet
        self.started = False  # the deal's row is written: what comes next is the next deal's

    def __call__(self, effect: Any, before: bytes, after: dict[str, Any]) -> bytes:
        return self._seen(effect, before, after)

    def passed(self, after: dict[str, Any]) -> None:
        if len(self._sheet) > self._rows:
            self.started = True
            if not self._after_sheet:
                self.done = True


def _sees_tables(rs: Ruleset) -> dict[frozenset[str], dict[Trigger, bool]]:
    """Per set of watched variables, whether each trigger of the ruleset may change one of them: worked
    out once per ruleset, not once per deal explained."""
    return {}


_IMMUTABLE = T.SCALARS - {"any", "record"}  # what a value of "any" or "record" holds may change in place


def _flat(rs: Ruleset, name: str) -> bool:
    """Whether a variable's value is an immutable scalar, or a list of them (a per-seat scalar, a list of
    cards held by no seat): a shallow copy of it is a faithful copy."""
    decl = rs.vars.get(name)
    if decl is None:
        return False
    t = T.normalize(decl.type)
    if T.is_list(t):
        return decl.scope != "seat" and T.base(T.elem(t)) in _IMMUTABLE
    return T.base(t) in _IMMUTABLE


def _shallow_copy(value: Any) -> Any:
    return list(value) if type(value) is list else value


def changed_cells(old: Any, new: Any) -> list[int | None]:
    """What a clause changed in one variable: each entry of a per-seat list that changed, or the whole
    value (None); nothing if it is the same."""
    if old == new:
        return []
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [i for i in range(len(old)) if old[i] != new[i]]
    return [None]


def decided_by(rs: Ruleset, start: DealStart, key: str, seat: int | None, after_sheet: bool = False) -> str:
    """The rule that decided the value ``key`` (of ``seat``) in the deal that begins at ``start``."""
    return decided_by_each(rs, start, [(key, seat)], after_sheet)[0]


def decided_by_each(rs: Ruleset, start: DealStart, asked: Sequence[tuple[str, int | None]],
                    after_sheet: bool = False) -> list[str]:
    """For each value ``(key, seat)`` asked, the rule that decided it in the deal that begins at ``start``
    (as :func:`decided_by` names it), from one traced replay of the deal watching all of them: a deal with
    several wrong values on its row is replayed once, not once per value."""
    if not asked:
        return []
    # A value can be "explained by" another (a total by the deal's points): that link is followed first.
    chains = []
    for key, _ in asked:
        decl = rs.vars.get(key)
        chains.append(([decl.explained_by] if decl is not None and decl.explained_by else []) + [key])
    writes = traced_writes(rs, start, after_sheet, watch={name for chain in chains for name in chain})
    return [_last_writer(rs, writes, chain, key, seat) for (key, seat), chain in zip(asked, chains, strict=True)]


def _last_writer(rs: Ruleset, writes: list[Write], chain: list[str], key: str, seat: int | None) -> str:
    """The rule of the last write of the first variable of ``chain`` written at all (of ``seat``'s entry, or
    the whole value); else the rule declaring ``key``."""
    for name in chain:
        found = [w.rule for w in writes if w.var == name and (seat is None or w.seat in (seat, None))]
        if found:
            return found[-1]
    decl = rs.vars.get(key)
    return decl.rule_id if decl is not None else RECORD_RULE
