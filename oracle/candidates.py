"""Candidate actions of one kind, legal or not: what the conformance harness offers an engine to see that it
refuses, and what coverage weighs at each decision of a record. It sits with the interpreter, not with either
user, so that coverage does not load the harness (and Hypothesis with it) to read a record.

For each field of the action a small domain is tried: every card, both booleans, every seat,
and for numbers the legal values with near misses around them (one off, a step off, far off).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from typing import Any

from .engine import Action, Game
from .lang import types as T
from .ruleset import Ruleset


@functools.lru_cache(maxsize=4096)
def int_candidates(legal_values: tuple[int, ...]) -> tuple[int, ...]:
    """The legal values' near misses (the same few lists of legal values come back at most decisions)."""
    out: set[int] = {0, 1}
    for x in legal_values or (0,):
        for d in (-10, -5, -1, 1, 2, 5, 10, 200):
            out.add(x + d)
    return tuple(sorted(out))


def domains(game: Game, rs: Ruleset, kind: str) -> list[tuple[str, list[Any]]] | None:
    """Each field of ``kind`` with the values tried for it now; None for an action with a field of a type
    that has no candidates. A number's are made from its legal values, asked only when there is one."""
    return _domains(rs, kind, game.v["n_seats"], game)


def fixed_domains(rs: Ruleset, kind: str, n_seats: int) -> list[tuple[str, list[Any]]] | None:
    """:func:`domains` of an action with no number among its fields, whose values tried are the same at every
    point of a game of ``n_seats``; None for one with a number (or a field with no candidates)."""
    return _domains(rs, kind, n_seats, None)


def _domains(rs: Ruleset, kind: str, n_seats: int, game: Game | None) -> list[tuple[str, list[Any]]] | None:
    decl = rs.actions[kind]
    legal: list[dict[str, Any]] | None = None
    out: list[tuple[str, list[Any]]] = []
    for f, t in decl.fields:
        b = T.base(t)
        if b == "card":
            dom: list[Any] = list(range(rs.deck.size))
        elif b == "bool":
            dom = [False, True]
        elif b == "seat":
            dom = list(range(n_seats))
        elif b == "int" and game is not None:
            if legal is None:
                legal = game.legal_payloads(kind)
            dom = list(int_candidates(tuple(sorted({p[f] for p in legal}))))
        else:
            return None
        out.append((f, dom))
    return out


def candidates(game: Game, rs: Ruleset, kind: str) -> Iterator[Action]:
    """Every combination of candidate field values, for each seat that may take ``kind`` now."""
    decl = rs.actions[kind]
    seats = sorted(set(game.actors(decl)))
    found = domains(game, rs, kind)
    if found is None:
        return
    doms = found

    def product(i: int, acc: dict[str, Any]) -> Iterator[dict[str, Any]]:
        if i == len(doms):
            yield dict(acc)
            return
        f, dom = doms[i]
        for x in dom:
            acc[f] = x
            yield from product(i + 1, acc)
    for s in seats:
        for payload in product(0, {}):
            yield Action(kind, s, payload)


# The refusals made before the payload is read: every payload of that seat is refused the same way.
BEFORE_PAYLOAD = frozenset({"game-over", "unknown-action", "wrong-phase", "not-your-turn", "not-now"})


@functools.lru_cache(maxsize=4096)
def payloads_of(names: tuple[str, ...], doms: tuple[tuple[Any, ...], ...]) -> tuple[dict[str, Any], ...]:
    """Every payload of the candidate values, in :func:`candidates`' order (made once for each list of values)."""
    return tuple(dict(zip(names, values, strict=True)) for values in itertools.product(*doms))


def checked(game: Game, rs: Ruleset, kind: str) -> Iterator[tuple[int, dict[str, Any], tuple[str, str] | None]]:
    """What :func:`candidates` gives, each with what ``Game.check`` says of it: the rule and the reason that
    refuse it, or None for a legal one, worded by neither (a Rejection is made for one in a thousand).

    A seat's first candidate goes through ``Game.check``; when that refuses it before reading the payload
    (out of turn, another phase), every other payload of that seat is refused the same way, and otherwise
    the rest go straight to the action's compiled check, which is what ``Game.check`` asks last. The payloads
    are shared between calls: read them, never change them."""
    for seat, payload, said, _ in _judged(game, rs, kind, False):
        yield seat, payload, said


def refusals(game: Game, rs: Ruleset, kind: str) -> Iterator[tuple[int, dict[str, Any], tuple[str, str] | None,
                                                                   list[str]]]:
    """What :func:`checked` gives, each with the rules of every guard that forbids the candidate, in the order
    they are asked, as ``Game.refusals_of`` gives them (the first is the one that refuses it, when a guard
    does): what the conformance harness counts of each candidate, rule by rule.

    Past a seat's first candidate, one call of the action's compiled ``refusers`` answers both questions where
    the check and then the refusers took two; the check is still asked of a candidate no guard forbids (its
    choices), and of one where a guard before the first that forbids raised, so that the check words it."""
    yield from _judged(game, rs, kind, True)


def _judged(game: Game, rs: Ruleset, kind: str, every: bool) -> Iterator[tuple[int, dict[str, Any],
                                                                                tuple[str, str] | None, list[str]]]:
    decl = rs.actions[kind]
    found = domains(game, rs, kind)
    if found is None:
        return
    payloads = payloads_of(tuple(f for f, _ in found), tuple(tuple(d) for _, d in found))
    if not payloads:
        return
    ca = rs.compiled.actions[kind]
    guards = [(g.clause.rule_id, g.clause.reason or "forbidden") for g in ca.guards]
    rules = [g.clause.rule_id for g in ca.guards]
    outside = (decl.rule_id, "not-available")
    none: list[str] = []
    refusers = rs.analysis.refusers[kind] if every else None
    st = game.st
    for seat in sorted(set(game.actors(decl))):
        first = game.check(Action(kind, seat, payloads[0]), typed=True)
        said = None if first is None else (first.rule_id, first.reason)
        if first is not None and first.reason in BEFORE_PAYLOAD:
            for p in payloads:
                yield seat, p, said, game.refusals_of(kind, seat, p) if every else none
            continue
        yield seat, payloads[0], said, game.refusals_of(kind, seat, payloads[0]) if every and said else none
        for p in payloads[1:]:
            if refusers is not None:
                try:
                    forbid = refusers(st, seat, p)
                except Exception:
                    forbid = None  # what the guards share raised: the check below words it
                # A guard that raised is listed as -1 - i; the check raises there, so it is asked.
                if forbid and forbid[0] >= 0:
                    yield seat, p, guards[forbid[0]], [rules[i] for i in forbid if i >= 0]
                    continue
            try:
                i = ca.check(st, seat, p)
            except Exception:
                game.check(Action(kind, seat, p), typed=True)  # words the rule's runtime error
                raise
            yield seat, p, None if i == -1 else guards[i] if i >= 0 else outside, none
