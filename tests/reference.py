"""An independent, hand-written model of classic end-of-deal scoring.

The interpreter runs the rule files; this module restates the same rules in plain
Python from the rule texts, so property tests can compare the two deal by deal.
It covers the classic defaults only.
"""

from __future__ import annotations

from typing import Any

PENALTY = 120
THRESHOLD = 880
TARGET = 1000
ATTEMPTS = 3


def expected_row(prev: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    """Given the game state before a deal and the deal's own facts, what the sheet must say."""
    n = len(prev["score"])
    score = list(prev["score"])
    bolts = list(prev["bolts"])
    on_barrel = list(prev["on_barrel"])
    deals = list(prev["barrel_deals"])
    falls = list(prev["barrel_falls"])
    marks = {tuple(m) for m in row["marks"]}
    delta = [0] * n
    if any(m[0] == "exposed-card" for m in marks):
        dealer = row["dealer"]
        delta[dealer] = -PENALTY
        score[dealer] -= PENALTY
        if on_barrel[dealer] and score[dealer] < THRESHOLD:
            on_barrel[dealer] = False  # a penalty outside the scoring drops him off the barrel
        return {"delta": delta, "score": score, "bolts": bolts, "on_barrel": on_barrel, "barrel_falls": falls}
    d, contract, taken = row["declarer"], row["contract"], row["taken_points"]
    made = False
    if row["conceded"]:
        for s in range(n):
            delta[s] = -contract if s == d else 60
    else:
        made = taken[d] >= contract
        for s in range(n):
            delta[s] = (contract if made else -contract) if s == d else taken[s]
        for s in range(n):
            if taken[s] == 0:
                bolts[s] += 1
                if bolts[s] >= 3:
                    delta[s] -= PENALTY
                    bolts[s] = 0
    mounting, falling = [], []
    for s in range(n):
        wins = s == d and not row["conceded"] and made and score[s] + delta[s] >= TARGET
        if on_barrel[s]:
            deals[s] += 1
            if wins:
                on_barrel[s] = False
            else:
                delta[s] = 0
                if deals[s] >= ATTEMPTS:
                    falling.append(s)
        elif score[s] + delta[s] >= THRESHOLD and not wins:
            delta[s] = THRESHOLD - score[s]
            mounting.append(s)
    knocked = []
    if mounting:
        if len(mounting) > 1:
            knocked += mounting
        knocked += [s for s in range(n) if on_barrel[s] and s not in falling]
    for s in mounting:
        if s not in knocked:
            on_barrel[s] = True
    for s in falling + knocked:
        on_barrel[s] = False
        falls[s] += 1
        delta[s] = THRESHOLD - PENALTY - score[s]
    for s in range(n):
        if falls[s] >= 3:
            delta[s] = -score[s]
            falls[s] = 0
    score = [a + b for a, b in zip(score, delta, strict=True)]
    return {"delta": delta, "score": score, "bolts": bolts, "on_barrel": on_barrel, "barrel_falls": falls}
