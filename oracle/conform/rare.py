"""Rare deals for the harness: a drawn deal made rarer by the rules' own measure of it.

Some rules act only on hands that come about once in thousands of deals (three marriages in one hand, which
a bid above 300 needs), too rarely for a run of a few hundred games. A chance action's hint says how rare
its outcome is; here cards are swapped between the piles of a drawn deal (the hands, the talon) for as long
as that hint rises, a given number of times. What the rules call rare lives in the rule files: this module
knows only piles of cards.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine import Action, Game
from ..lang import types as T

PILE = T.normalize("cards")
PILES = T.normalize("list[cards]")

# Evaluations of the hint at most, for one deal: enough to climb eight times (a rise is one swap in about
# a dozen), little enough that a rare deal costs milliseconds.
BUDGET = 600


def _piles(fields: list[tuple[str, str]], payload: Mapping[str, Any]) -> tuple[dict[str, Any], list[list[Any]]]:
    """A copy of the payload, and its card piles: the very lists inside that copy, to swap in place."""
    copy = dict(payload)
    piles: list[list[Any]] = []
    for name, t in fields:
        if t == PILE:
            copy[name] = list(payload[name])
            piles.append(copy[name])
        elif t == PILES:
            copy[name] = [list(p) for p in payload[name]]
            piles.extend(copy[name])
    return copy, piles


def rarer(game: Game, action: Action, rises: int, rng: random.Random) -> Action:
    """``action`` (a drawn chance action) with cards swapped between its piles, each swap kept only if the
    rules' hint for the action rises, until it has risen ``rises`` times or no swap helps. The action as
    drawn if it has no piles, or if what the swaps made is not a legal outcome of it."""
    decl = game.rs.actions[action.kind]
    payload, piles = _piles(decl.fields, action.payload)
    if len(piles) < 2 or rises <= 0:
        return action
    candidate = Action(action.kind, action.seat, payload)
    best = game.hint(candidate)
    spots = [(i, j) for i, pile in enumerate(piles) for j in range(len(pile))]
    pairs = [(a, b) for k, a in enumerate(spots) for b in spots[k + 1:] if a[0] != b[0]]
    tries = 0
    while rises > 0 and tries < BUDGET:
        rng.shuffle(pairs)
        risen = False
        for (p, i), (q, j) in pairs:
            piles[p][i], piles[q][j] = piles[q][j], piles[p][i]
            tries += 1
            value = game.hint(candidate)
            if value > best:
                best, risen = value, True
                rises -= 1
                break
            piles[p][i], piles[q][j] = piles[q][j], piles[p][i]
            if tries >= BUDGET:
                break
        if not risen:
            break
    return candidate if game.check(candidate) is None else action
