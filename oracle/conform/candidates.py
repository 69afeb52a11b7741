"""Candidate actions of one kind, legal or not: what the harness offers an engine to see that it refuses.

For each field of the action a small domain is tried: every card, both booleans, every seat,
and for numbers the legal values with near misses around them (one off, a step off, far off).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from ..engine import Action, Game
from ..lang import types as T
from ..ruleset import Ruleset


@functools.lru_cache(maxsize=4096)
def _int_candidates(legal_values: tuple[int, ...]) -> tuple[int, ...]:
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
            dom = list(_int_candidates(tuple(sorted({p[f] for p in legal}))))
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
