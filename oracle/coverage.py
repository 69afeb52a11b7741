"""Rule coverage: which rules a set of records exercised, and which it never reached.

Each rule's clauses are counted twice (see :mod:`.rulecounts`): how often they *ran* (a guard
evaluated, an effect executed) and how often they *fired* (a guard forbade, an effect changed
the game). Every rule id of each ruleset involved is listed: the same set ``thousand check``
counts, so the two commands agree on the number of rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import NOTATION_PARAMS
from .conform.candidates import candidates
from .engine import Action, Game, Rejection
from .lang.program import CompiledAction
from .records import RecordFile, Verdict, is_chance, validate_record
from .rulecounts import RuleCounts
from .ruleset import DECK_PARAMS, SEATS_PARAM, Ruleset


@dataclass
class RulesetSeen:
    """One resolved ruleset the records were judged by, and its rule ids."""

    name: str
    overlays: list[str]
    rules: set[str]  # every rule id, as `thousand check` counts them
    formal: set[str]  # rules with logic or values, so something can run
    normative: set[str]  # rules of the game (not play hints or the sequence page)


@dataclass
class Coverage:
    counts: RuleCounts = field(default_factory=RuleCounts)
    rulesets: dict[Any, RulesetSeen] = field(default_factory=dict)  # keyed by the resolved ruleset
    files: int = 0

    def every(self) -> list[str]:
        return sorted(set().union(*(s.rules for s in self.rulesets.values())))

    def _formal(self) -> set[str]:
        return set().union(*(s.formal & s.normative for s in self.rulesets.values()))

    def never_ran(self) -> list[str]:
        return sorted(r for r in self._formal() if not self.counts.ran[r])

    def never_fired(self) -> list[str]:
        """Rules whose clauses ran but never forbade anything or changed the game."""
        return sorted(r for r in self._formal() if self.counts.ran[r] and not self.counts.fired[r])

    def unreached(self) -> list[str]:
        """Rules of the game never reached: none of their clauses ran."""
        return self.never_ran()

    def not_formalised(self) -> list[str]:
        every = set().union(*(s.rules & s.normative for s in self.rulesets.values()))
        return sorted(every - self._formal())

    def not_normative(self) -> list[str]:
        return sorted(set(self.every()) - set().union(*(s.normative for s in self.rulesets.values())))

    def to_json(self) -> dict[str, Any]:
        ran, fired = self.counts.ran, self.counts.fired
        return {"files": self.files,
                "rulesets": [{"ruleset": s.name, "overlays": s.overlays, "rules": len(s.rules)}
                             for s in self.rulesets.values()],
                "rules": {r: {"ran": ran[r], "fired": fired[r]} for r in self.every()},
                "never_ran": self.never_ran(), "never_fired": self.never_fired(),
                "not_formalised": self.not_formalised(), "not_normative": self.not_normative()}

    def add_ruleset(self, rs: Ruleset, overlays: list[str]) -> None:
        if rs.key in self.rulesets:
            return
        rules = set(rs.rules)
        normative = {r for r, d in rs.rules.items() if d.get("normative", True) is not False}
        formal = {r for r in rules if r in rs.logic_rules or rs.rules[r].get("params")}
        self.rulesets[rs.key] = RulesetSeen(rs.name, [str(o) for o in overlays], rules, formal, normative)


def decision_checks(game: Game, action: Action) -> list[tuple[CompiledAction, Rejection | None]]:
    """The checks at one point of a record: the action taken, and every action that could have been tried
    there (the candidates the conformance harness offers engines: every card, both flags, every seat, the
    legal numbers and near misses), of each kind the phase allows. A record holds legal actions, so its
    guards can only be seen forbidding in what the player did not do."""
    compiled = game.rs.compiled.actions
    checks = [(compiled[action.kind], game.check(action, typed=True))]
    if game.over:
        return checks
    for ca in game.c.by_phase.get(game.phase, ()):
        if is_chance(ca.decl):
            continue
        for alt in candidates(game, game.rs, ca.name):
            if alt != action:
                checks.append((ca, game.check(alt)))
    return checks


def cover_record(rec: RecordFile, cov: Coverage, ruleset: str | None = None, alternatives: bool = True) -> Verdict:
    """Replay a record, counting what its rules did; with ``alternatives``, also what they would have
    forbidden at each decision (see ``decision_checks``). Without, only the recorded actions are checked."""
    from .ruleset import load_ruleset

    def decide(game: Game, action: Action) -> None:
        if alternatives:
            cov.counts.decision(decision_checks(game, action))
        else:
            cov.counts.check(game.rs.compiled.actions[action.kind], game.check(action, typed=True))

    data = rec.data
    overlays = list(data.get("overlays") or [])
    try:
        rs = load_ruleset(ruleset or data["ruleset"], overlays, data.get("params") or None)
    except Exception:
        rs = None
    verdict = validate_record(rec, ruleset, all_errors=False, counts=cov.counts, decisions=decide)
    cov.files += 1
    if rs is not None and verdict.error is None:
        cov.add_ruleset(rs, overlays)
        # Reading any record uses the pack's shape, the number of seats and the card notation.
        for pname in (*DECK_PARAMS, SEATS_PARAM, *NOTATION_PARAMS):
            if pname in rs.resolved.params:
                cov.counts.reading(rs.resolved.params[pname].rule_id)
    return verdict
