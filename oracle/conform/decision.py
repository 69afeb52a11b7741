"""Which decision of the rules differs: the parameter whose other value makes the oracle do what the engine did.

A disagreement shows where the two sides part, not why: the rule whose effect wrote a differing
value, or whose guard refused an action, is often only on the way (a total is written by the
contract's rule whatever decided the barrel). To name the decision, the failing game is replayed
by the oracle under the same ruleset with one parameter set otherwise: a parameter whose other value
makes the oracle list the engine's legal actions, accept or refuse what the engine did, or write the
engine's row on the sheet is the decision that differs. Two disagreements are one cause when one
such parameter explains both; two that only use the same parameter on the way (a penalty unit read
by the bolt and by the barrel) are not.

The parameters tried are those of the rules involved (the rule blamed, the rules its logic uses, the
rules that wrote the differing values), each with the values other presets give it, the other
choices of an enum, the other truth value of a flag, and a number moved by the differences seen or to
another number of its size that the rules use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Action, Game
from ..errors import OracleError
from ..ruleset import Ruleset, load_library, load_ruleset, resolve

MAX_TRIES = 48  # rulesets compiled and replayed for one disagreement, at most
_PER_NUMBER = 6  # values tried for one number (or one entry of a map of numbers)


@dataclass(frozen=True)
class Observation:
    """What the engine did where the two sides part."""

    kind: str  # legal (its legal actions) | accepts | refuses (one action) | results (its row on the sheet)
    legal: frozenset[str] = frozenset()  # its legal actions, each keyed as the harness keys them
    action: Action | None = None  # the action it accepted or refused
    row: dict[str, Any] = field(default_factory=dict)  # its row of results, as the protocol writes it
    rows: int = 0  # the rows on the oracle's sheet then (the engine's row is the last of them)


@dataclass(frozen=True)
class Probe:
    """A failing game, as the oracle replays it: its start, every action applied, and what the engine did then."""

    dealer: int
    seed: int
    state: dict[str, list[Any]]
    applied: tuple[Action, ...]
    seen: Observation
    rules: tuple[str, ...]  # the rules involved, the one blamed first: whose parameters are tried
    diffs: tuple[int, ...] = ()  # by how much the engine's numbers differ from the oracle's


@dataclass
class Judge:
    """How the harness compares: an action's key, whether an action is compared at all, and a row's match."""

    key: Callable[[Ruleset, Action], str]
    compared: Callable[[Game, Action], bool]
    same_row: Callable[[Ruleset, dict[str, Any], dict[str, Any]], bool]


class Decisions:
    """The what-if replays of one harness, with the rulesets they compile kept for the next disagreement."""

    def __init__(self, rs: Ruleset, ruleset: str, overlays: list[str], params: dict[str, Any],
                 judge: Judge) -> None:
        self.rs = rs
        self.ruleset, self.overlays, self.params = ruleset, overlays, params
        self.judge = judge
        self._others: dict[str, list[Any]] | None = None

    def deciding(self, probe: Probe) -> list[str]:
        """The parameters, each set to one other value, that make the oracle do what the engine did."""
        found: list[str] = []
        tries = 0
        for name, values in self.alternatives(probe):
            for value in values:
                if tries >= MAX_TRIES:
                    return found
                tries += 1
                if self._reproduces(name, value, probe):
                    found.append(name)
                    break
        return found

    def alternatives(self, probe: Probe) -> list[tuple[str, list[Any]]]:
        res = self.rs.resolved
        owned: dict[str, list[str]] = {}
        for name, decl in res.params.items():
            owned.setdefault(decl.rule_id, []).append(name)
        out: list[tuple[str, list[Any]]] = []
        seen: set[str] = set()
        for rule in probe.rules:
            for name in sorted(owned.get(rule, [])):
                if name in seen:
                    continue
                seen.add(name)
                values = self._values(name, probe.diffs)
                if values:
                    out.append((name, values))
        return out

    def _values(self, name: str, diffs: Sequence[int]) -> list[Any]:
        decl = self.rs.resolved.params[name]
        now = self.rs.resolved.values.get(name)
        others = [v for v in self._presets().get(name, []) if v != now]
        if decl.type == "bool":
            return [not now]
        if decl.choices:
            return [c for c in decl.choices if c != now]
        numbers = {v for v in self.rs.resolved.values.values() if type(v) is int}
        if type(now) is int:
            near = {v for v in others if type(v) is int} | {now + d for d in diffs} | {now - d for d in diffs} | \
                {v for v in numbers if abs(now) <= 2 * abs(v) <= 4 * abs(now)}
            near = {v for v in near if v != now and (decl.min is None or v >= decl.min)
                    and (decl.max is None or v <= decl.max)}
            return sorted(near, key=lambda v: (abs(v - now), v))[:_PER_NUMBER]
        if isinstance(now, dict) and all(type(v) is int for v in now.values()):
            # A map of numbers (the marriages' values): one entry moved at a time, to another entry's value,
            # by a difference seen, or to a number of the same size the rules use; then the maps other
            # presets have.
            moved: list[Any] = []
            for k, v in now.items():
                near = ({x for x in now.values()} | {v + d for d in diffs} | {v - d for d in diffs}
                        | {x for x in numbers if abs(v) <= 2 * abs(x) <= 4 * abs(v)}) - {v}
                moved += [{**now, k: x} for x in sorted(near, key=lambda x: (abs(x - v), x))[:_PER_NUMBER]]
            return moved + [o for o in others if o not in moved]
        return others

    def _presets(self) -> dict[str, list[Any]]:
        """Every value some preset of the library gives each parameter."""
        if self._others is None:
            lib = load_library()
            others: dict[str, list[Any]] = {}
            for pid in sorted(lib.presets):
                try:
                    values = resolve(pid).values
                except OracleError:
                    continue
                for name, value in values.items():
                    if value not in others.setdefault(name, []):
                        others[name].append(value)
            self._others = others
        return self._others

    def _reproduces(self, name: str, value: Any, probe: Probe) -> bool:
        try:
            alt = load_ruleset(self.ruleset, self.overlays or None, {**self.params, name: value})
            g = Game(alt, dealer=probe.dealer, seed=probe.seed, values=probe.state)
            for a in probe.applied:
                if alt.actions[a.kind].actor == "dealer":
                    a = Action(a.kind, g.v["dealer"], a.payload)  # the deal is dealt by whoever deals there
                if g.try_apply(a) is not None:
                    return False
        except OracleError:
            return False  # that value makes another game of it (another sheet, a state it cannot start from)
        seen = probe.seen
        if seen.kind == "legal":
            return {self.judge.key(alt, a) for a in g.legal_actions() if self.judge.compared(g, a)} == seen.legal
        if seen.kind in ("accepts", "refuses"):
            assert seen.action is not None
            return (g.check(seen.action) is None) == (seen.kind == "accepts")
        return len(g.sheet) == seen.rows > 0 and self.judge.same_row(alt, g.sheet[-1], seen.row)


__all__ = ["Decisions", "Judge", "Observation", "Probe"]
