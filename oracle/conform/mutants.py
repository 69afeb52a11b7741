"""Deliberately broken engines: the oracle with one classic rule wrong.

They prove the harness catches real bugs: each must be found, with a shrunk
counterexample, in the default number of examples (tests/test_conformance.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from ..ruleset import RuleDoc, Ruleset, compile_resolved, resolve
from .engines import OracleEngine


@dataclass(frozen=True)
class Mutant:
    name: str
    bug: str
    params: dict[str, Any] = field(default_factory=dict)
    drop: tuple[tuple[str, int], ...] = ()  # (rule id, clause index) removed
    define: tuple[tuple[str, str, str], ...] = ()  # (rule id, definition, new expression)


MUTANTS = [
    Mutant("no-must-trump", "a player void in the led suit may discard instead of trumping",
           drop=(("play.must-trump", 0),)),
    Mutant("marriage-on-first-lead", "a marriage may be declared on the first lead",
           params={"marriage_timing": "from-first-lead"}),
    Mutant("wrong-marriage-value", "the hearts marriage is worth 120",
           params={"marriage_values": {"hearts": 120, "diamonds": 80, "clubs": 60, "spades": 40}}),
    Mutant("barrel-not-clamped", "reaching 880 neither stops the score nor puts the player on the barrel",
           drop=(("barrel.threshold", 0),)),
    Mutant("bid-step-10", "bids go up in tens", params={"bid_step": 10}),
    Mutant("bolts-counted-wrong", "the second bolt is already penalised", params={"bolt_limit": 2}),
    Mutant("off-suit-wins", "the highest card wins whatever its suit",
           define=(("play.trick-resolution", "card_strength",
                    "[if trump != none and suit(c) == trump then 2 else 0, rank_power(c)]"),)),
    Mutant("defenders-rounded", "defenders' points are rounded to tens", params={"defender_rounding": 10}),
    Mutant("rospis-scored-wrong", "on a concession each opponent gets 50", params={"rospis_opponent_points": 50}),
    Mutant("trump-changed-late", "a new trump takes effect only from the next trick",
           params={"trump_timing": "next-trick"}),
    Mutant("hundred-to-dealer", "the dealer holds the compulsory hundred", params={"forced_bidder": "dealer"}),
    Mutant("must-beat", "followers must beat the trick when they can", params={"must_beat": True}),
]


def mutant_ruleset(m: Mutant, base: str = "classic") -> Ruleset:
    res = resolve(base, params=m.params or None)
    res.name = f"{base}~{m.name}"
    for rid, index in m.drop:
        doc = res.rules[rid]
        data = dict(doc.data)
        data["logic"] = [c for i, c in enumerate(doc.data.get("logic") or []) if i != index]
        res.rules[rid] = RuleDoc(rid, doc.path, data, origin=f"mutant {m.name}")
    for rid, name, expr in m.define:
        doc = res.rules[rid]
        data = copy.copy(doc.data)
        defines = dict(data["define"])
        defines[name] = {**defines[name], "expr": expr}
        data["define"] = defines
        res.rules[rid] = RuleDoc(rid, doc.path, data, origin=f"mutant {m.name}")
    return compile_resolved(res)


class MutantEngine(OracleEngine):
    def __init__(self, m: Mutant, base: str = "classic") -> None:
        super().__init__(mutant_ruleset(m, base), name=f"mutant:{m.name}")
        self.mutant = m


def by_name(name: str) -> Mutant:
    for m in MUTANTS:
        if m.name == name:
            return m
    raise KeyError(name)
