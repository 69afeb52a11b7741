"""How often each rule's clauses ran, and how often they fired: one count for coverage and conformance.

A guard (``forbid``) *ran* when its condition was evaluated and *fired* when it forbade the
action; an effect (``do``) ran when it was executed and fired when it changed the state of
the game. A clause is credited to every rule it uses: its own, and the rules whose
definitions or parameters it reads (``Guard.deps``, ``Effect.deps``). A refusal made before
any guard is asked (out of turn, wrong phase, game over) is charged to the rule that made
the situation, which both ran and fired. A rule never fires more often than it runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set as AbstractSet
from typing import Any

from .engine import EffectCounter, Rejection
from .lang.program import CompiledAction, Effect, Guard, Trigger

# The refusal made after every guard allowed the action: a choice outside the action's domain.
OUTSIDE_DOMAIN = "not-available"

# One check's outcome, all the counts need of it: the action checked, and the rule and reason that refused
# it (None and None when it was legal).
Outcome = tuple[CompiledAction, str | None, str | None]


def outcome(action: CompiledAction, rejection: Rejection | None) -> Outcome:
    """The outcome of one check of ``action``: the rule and reason of its refusal, or None and None."""
    return (action, None, None) if rejection is None else (action, rejection.rule_id, rejection.reason)


class RuleCounts(EffectCounter):
    """Per rule id: how often its clauses ran (``ran``) and fired (``fired``).

    What is counted at each effect and each decision is tallied by its kind first (this effect, changed
    or not; this pair of rule sets) and spread over the rule ids only when the counts are read: a record
    makes hundreds of thousands of such counts, but only some hundred kinds of them."""

    def __init__(self) -> None:
        self._ran: Counter[str] = Counter()
        self._fired: Counter[str] = Counter()
        self._effects: Counter[tuple[Effect, bool]] = Counter()  # (effect, whether it changed the game) -> times
        # trigger -> how often each of its effects changed the game, then how often it ran (Ruleset.analysis)
        self._tallies: dict[Trigger, list[int]] = {}
        self._sets: Counter[tuple[frozenset[str], frozenset[str]]] = Counter()  # (rules ran, rules fired) -> times
        # The distinct outcomes of one decision -> the rules that decision ran and fired.
        self._decisions: dict[frozenset[Outcome], tuple[frozenset[str], frozenset[str]]] = {}
        self._deps: dict[Guard | Effect, frozenset[str]] = {}  # compiled clause -> the rules it is credited to
        # (compiled action, refusing rule, reason) -> the rules one such check ran and fired: a check's
        # outcome decides them, and the harness counts tens of checks at every step.
        self._outcomes: dict[tuple[Any, ...], tuple[frozenset[str], frozenset[str]]] = {}

    @property
    def ran(self) -> Counter[str]:
        self._spread()
        return self._ran

    @property
    def fired(self) -> Counter[str]:
        self._spread()
        return self._fired

    def _spread(self) -> None:
        """Turn the tallies into counts per rule id."""
        ran, fired = self._ran, self._fired
        for (effect, changed), n in self._effects.items():
            for r in self._credit(effect, effect.rule_id, effect.deps):
                ran[r] += n
                if changed:
                    fired[r] += n
        self._effects.clear()
        for trigger, tally in self._tallies.items():
            runs = tally[-1]
            if not runs:
                continue
            for effect, n in zip(trigger.effects, tally, strict=False):
                for r in self._credit(effect, effect.rule_id, effect.deps):
                    ran[r] += runs
                    if n:
                        fired[r] += n
            tally[:] = [0] * len(tally)  # spread: emptied in place, as a replay may still hold it
        for (these_ran, these_fired), n in self._sets.items():
            for r in these_ran:
                ran[r] += n
            for r in these_fired:
                fired[r] += n
        self._sets.clear()

    def _credit(self, clause: Guard | Effect, rule_id: str, deps: set[str]) -> frozenset[str]:
        found = self._deps.get(clause)
        if found is None:
            found = self._deps[clause] = frozenset(deps | {rule_id})
        return found

    def effect_ran(self, effect: Effect, changed: bool) -> None:
        """The interpreter's counter (``Game(tracer=...)``): one effect ran, and changed the game or not."""
        self._effects[effect, changed] += 1

    def tally(self, trigger: Trigger) -> list[int]:
        """The counter's side of ``Ruleset.analysis``: the trigger's effects' counts and its runs."""
        tally = self._tallies.get(trigger)
        if tally is None:
            tally = self._tallies[trigger] = [0] * (len(trigger.effects) + 1)
        return tally

    def check(self, action: CompiledAction, rejection: Rejection | None) -> None:
        """One check of an action: its live guards ran in order, up to the one that forbade it, if any."""
        self._sets[self._counted(outcome(action, rejection))] += 1

    def refused(self, action: CompiledAction, said: tuple[str, str] | None, times: int = 1) -> None:
        """:meth:`check` given the rule and the reason that refused the action (None: it was legal), ``times``
        over."""
        self._sets[self._counted((action, None, None) if said is None else (action, *said))] += times

    def decision(self, checks: list[tuple[CompiledAction, Rejection | None]]) -> None:
        """Several checks made at one point of a game (the action taken and those that could have been):
        each rule counts once, as having run if any of its clauses ran, and fired if any forbade."""
        self.decision_of({outcome(action, rejection) for action, rejection in checks})

    def decision_of(self, outcomes: AbstractSet[Outcome]) -> None:
        """:meth:`decision` given the distinct outcomes of the checks made at one point."""
        key = frozenset(outcomes)
        hit = self._decisions.get(key)
        if hit is None:
            ran: set[str] = set()
            fired: set[str] = set()
            for outcome in key:
                these_ran, these_fired = self._counted(outcome)
                ran |= these_ran
                fired |= these_fired
            hit = self._decisions[key] = (frozenset(ran), frozenset(fired))
        self._sets[hit] += 1

    def _counted(self, key: Outcome) -> tuple[frozenset[str], frozenset[str]]:
        hit = self._outcomes.get(key)
        if hit is None:
            ran: set[str] = set()
            fired: set[str] = set()
            _one_check(key, ran, fired, self._credit)
            hit = self._outcomes[key] = (frozenset(ran), frozenset(fired))
        return hit

    def reading(self, rule_id: str) -> None:
        """A rule whose values were used to read a record (the pack, the seats, the card notation) ran."""
        self._ran[rule_id] += 1


def _one_check(outcome: Outcome, ran: set[str], fired: set[str], credit: Any) -> None:
    """The rules one check ran and fired: its live guards in order, up to the one that forbade the action.

    A guard folded to false by the ruleset's parameters (``Guard.dead``) is never evaluated.
    """
    action, rule_id, reason = outcome
    forbidding = None
    if rule_id is not None:
        forbidding = next((i for i, g in enumerate(action.guards)
                           if (g.clause.rule_id, g.clause.reason or "forbidden") == (rule_id, reason)), None)
        if forbidding is None and reason != OUTSIDE_DOMAIN:
            # Refused before any guard was asked: charged to the rule that set the turn, phase or end.
            ran.add(rule_id)
            fired.add(rule_id)
            return
    for i, g in enumerate(action.guards):
        if g.dead:
            continue
        rules = credit(g, g.clause.rule_id, g.deps)
        ran.update(rules)
        if i == forbidding:
            fired.update(rules)
            return
    if rule_id is not None:  # every guard allowed it; the action's own choices did not
        ran.add(rule_id)
        fired.add(rule_id)
