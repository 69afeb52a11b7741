"""Rule coverage: which rules a set of records exercised, and which it never reached.

A rule is exercised when a clause that uses it (its own clause, or one that calls its
definitions or reads its parameters) changed the state of a game, or when one of its
guards rejected an action. Counts are per rule id, across every ruleset involved.
"""

from __future__ import annotations

import pickle
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import NOTATION_PARAMS
from .lang.program import Effect
from .ruleset import DECK_PARAMS, SEATS_PARAM
from .transcript import RecordFile
from .validate import Verdict, validate_record


@dataclass
class Coverage:
    hits: Counter[str] = field(default_factory=Counter)
    rules: dict[str, set[str]] = field(default_factory=dict)  # ruleset -> its rule ids
    files: int = 0

    formal: dict[str, set[str]] = field(default_factory=dict)  # ruleset -> rules with logic or values

    def unreached(self) -> list[str]:
        every = set().union(*self.formal.values()) if self.formal else set()
        return sorted(r for r in every if not self.hits[r])

    def not_formalised(self) -> list[str]:
        every = set().union(*self.rules.values()) if self.rules else set()
        formal = set().union(*self.formal.values()) if self.formal else set()
        return sorted(every - formal)

    def to_json(self) -> dict[str, Any]:
        return {"files": self.files, "hits": dict(sorted(self.hits.items())), "unreached": self.unreached(),
                "not_formalised": self.not_formalised()}


def cover_record(rec: RecordFile, cov: Coverage, ruleset: str | None = None) -> Verdict:
    def tracer(effect: Effect, before: bytes, after: dict[str, Any]) -> None:
        # An effect counts when it changed the game; a pure check (it assigns nothing) counts when it ran.
        if not effect.writes or before != pickle.dumps(after, 5):
            for rid in effect.deps:
                cov.hits[rid] += 1

    from .ruleset import load_ruleset

    data = rec.data
    try:
        rs = load_ruleset(ruleset or data["ruleset"], list(data.get("overlays") or []), data.get("params") or None)
    except Exception:
        rs = None
    if rs is not None:
        normative = {r for r, d in rs.rules.items() if d.get("normative", True) is not False}
        # Keyed by the resolved ruleset, so a ruleset with extra overlays brings its own rules.
        cov.rules.setdefault(rs.key, normative)
        cov.formal.setdefault(rs.key, {r for r in normative if r in rs.logic_rules or rs.rules[r].get("params")})
        # Reading any record uses the pack's shape, the number of seats and the card notation.
        for pname in (*DECK_PARAMS, SEATS_PARAM, *NOTATION_PARAMS):
            if pname in rs.resolved.params:
                cov.hits[rs.resolved.params[pname].rule_id] += 1
    verdict = validate_record(rec, ruleset, all_errors=False, tracer=tracer)
    cov.files += 1
    if rs is not None:
        for v in verdict.violations:
            for action in rs.compiled.actions.values():
                for g in action.guards:
                    if g.clause.rule_id == v.rule and g.clause.reason == v.reason:
                        for rid in g.deps:
                            cov.hits[rid] += 1
            if v.reason in ("wrong-result", "wrong-dealer") and v.rule in rs.rules:
                cov.hits[v.rule] += 1
    return verdict
