"""The conformance harness: an engine and the oracle, side by side, through generated games.

Hypothesis draws the games: the first dealer, the starting state (sampled values, or the
state reached after a few warm-up deals the oracle plays alone: players near and on the
barrel, with falls and bolts), a style of play that steers the choices (towards one kind
of action, against the play hints), the deals (from a seed), the action taken at each
step, and now and then an illegal action to offer. At every step the engine's legal
actions are compared with the oracle's; an offered illegal action must be rejected; after
every deal the engine's score sheet (every key it reports) and its end of the game must
match.

A disagreement fails the example; Hypothesis shrinks it, and the minimal game is written
as a record that carries the disagreement (its ``conformance`` field), so `thousand
validate` and `thousand replay` show it. The cause is diagnosed by replaying the deal with
the interpreter's tracer: a different value on the sheet is charged to the rule whose
effect wrote it; a different set of legal actions that a different dealer (or turn…)
explains is charged to the rule that set that dealer. A run is a series of rounds, each
with its own seed (hashed from the run's seed and the round's number), until the examples
budget, the time budget or the cap on disagreements ends it; a round that finds nothing
does not end the run. Disagreements already found are skipped by later rounds and
counted, and a disagreement that only ever follows a known one is filed under it.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from ..candidates import checked, refusals
from ..cards import notation
from ..engine import Action, EffectCounter, Game, IllegalAction, Rejection, play_random
from ..lang import types as T
from ..lang.program import Effect, Trigger
from ..places import seat as seat_words
from ..records import Recorder, dumps, encode_action, encode_value, is_chance
from ..records.blame import Force, Write, trace
from ..rulecounts import RuleCounts
from ..ruleset import Ruleset, load_ruleset
from ..state import Position
from .decision import Decisions, Judge, Observation, Probe
from .engines import EngineAdapter, EngineFailure, check_capabilities, state_keys
from .rare import rarer

PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"]
_AFTER_ACTIONS = 10**6  # event clauses sort after every clause run by an action
EXAMPLES = 200  # the default budget of generated games in a run
ROUND_EXAMPLES = 100  # generated games in one round (one Hypothesis run) at most
MAX_DEALS = 4  # deals per generated game, at most
WARM_DEALS = 3  # deals the oracle may play alone to reach a mid-game starting state
RARE_EVERY = 4  # one drawn deal in this many is made rarer (see rare.py)
RARE_RISES = 6  # ... by at most this many rises of its hint
MAX_DISAGREEMENTS = 20
_RESULT_ONLY = ("deal", "dealer", "marks")  # sheet columns that are the sheet's own, not results
_GAME_END = {"over": "game_over", "winner": "winner"}  # results-reply keys -> the state they report


@dataclass
class Disagreement:
    kind: str  # legal-actions | rejected-legal | accepted-illegal | results | engine
    signature: str  # what makes two disagreements the same root cause (kind + rule + what differs)
    rule: str
    detail: str
    record: dict[str, Any] | None = None
    count: int = 1  # generated examples that showed it
    after: str | None = None  # the known disagreement seen earlier in the same example, if any
    # Other forms of the same root cause: seen only after this one in its example, or the same decision.
    consequences: list[Disagreement] = field(default_factory=list)
    relation: str = ""  # for a consequence: "after" (it followed the root in its game), "same decision"
    deps: frozenset[str] = frozenset()  # the rule and the rules its logic uses (definitions, parameters)
    probe: Probe | None = field(default=None, repr=False)  # the failing game, for the what-if replays
    # The parameters whose other value makes the oracle do what the engine did (see decision.py).
    decided_by: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        """The decision that differs, as `conform --exclude` names it: a parameter, else the rule blamed."""
        return f"parameter:{self.decided_by[0]}" if self.decided_by else f"rule:{self.rule}"

    def keys(self) -> set[str]:
        """Every name this cause answers to: each deciding parameter and the rule, with or without the prefix."""
        return {self.key, self.rule, f"rule:{self.rule}", *self.decided_by,
                *(f"parameter:{p}" for p in self.decided_by)}

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "key": self.key, "decided_by": self.decided_by,
                "detail": self.detail, "signature": self.signature,
                "examples": self.total(), "counterexample": (self.record or {}).get("_file"),
                "consequences": [c.to_json() | {"relation": c.relation} for c in self.consequences]}

    def total(self) -> int:
        return self.count + sum(c.total() for c in self.consequences)


class _Known(Exception):
    """A disagreement already reported: end this example quietly (the two sides have diverged)."""


class _Found(Exception):
    def __init__(self, d: Disagreement) -> None:
        super().__init__(f"{d.kind} [{d.rule}]: {d.detail}")
        self.d = d


class _Unsupported(Exception):
    """Only actions the engine declares unsupported are left: the example ends here."""


@dataclass
class Report:
    engine: str
    ruleset: str
    seed: int = 0
    examples: int = 0  # generated games (the budget counts these)
    shrink_examples: int = 0  # games replayed while shrinking a disagreement
    actions_compared: int = 0
    actions_applied: int = 0
    seconds: float = 0.0
    rounds: int = 0
    stop: str = ""  # why the run ended
    disagreements: list[Disagreement] = field(default_factory=list)  # root causes
    exclude: list[str] = field(default_factory=list)  # the keys of causes the run was told to skip
    excluded: list[Disagreement] = field(default_factory=list)  # disagreements skipped as excluded
    resumed: int = 0  # times a game went on past a known difference of results, the engine put back in step
    cannot_fire: dict[str, str] = field(default_factory=dict)  # rule -> why it cannot fire under this ruleset
    coverage: dict[str, int] = field(default_factory=dict)  # rule -> times its logic fired
    checks: dict[str, tuple[int, int]] = field(default_factory=dict)  # rule -> (checked, fired)
    # rule -> the rule asked before it -> how many offered actions it forbade that the other refused first
    masked: dict[str, dict[str, int]] = field(default_factory=dict)
    declared: dict[str, Any] = field(default_factory=dict)  # the engine's not_supported and projection
    # What was compared and what was not, section by section (see Harness.compared_sections).
    compared: dict[str, Any] = field(default_factory=dict)
    failure: EngineFailure | None = None

    @property
    def actions_per_second(self) -> float:
        return self.actions_compared / self.seconds if self.seconds > 0 else 0.0

    def by_rule(self) -> dict[str, list[Disagreement]]:
        out: dict[str, list[Disagreement]] = {}
        for d in self.disagreements:
            out.setdefault(d.rule, []).append(d)
        return out

    def format(self) -> str:
        lines = [f"engine {self.engine} against ruleset {self.ruleset}, seed {self.seed}: {self.examples} examples "
                 f"in {self.rounds} round(s) (+{self.shrink_examples} while shrinking), {self.actions_compared} "
                 f"actions compared in {self.seconds:.1f} s ({self.actions_per_second:.0f} actions/s)",
                 f"the run ended: {self.stop}"]
        for note in self.declared.get("not_supported", []):
            lines.append(f"the engine does not support (not compared): {_show_unsupported(note)}")
        for topic in self.declared.get("projection", {}):
            lines.append(f"the engine projects its game onto the protocol for: {topic} (see its handshake)")
        lines += [f"{section}: {text}" for section, text in compared_text(self.compared)]
        if self.failure is not None:
            lines.append(f"ENGINE FAILURE ({self.failure.kind}): {self.failure.message}")
        if not self.disagreements and self.failure is None:
            missing = [s for s, c in self.compared.items() if not c.get("compared")]
            lines.append("no disagreement found" + (f" in what was compared (not compared: {', '.join(missing)})"
                                                    if missing else ""))
        if self.disagreements:
            lines.append(f"{len(self.disagreements)} root cause(s):")
        for rule, ds in sorted(self.by_rule().items()):
            lines.append(f"rule {rule}: {len(ds)} root cause(s), in {sum(d.total() for d in ds)} example(s)")
            for d in ds:
                lines.append(f"  {d.kind}: {d.detail} [{d.total()} example(s)]")
                lines.append(f"    key {d.key}: " + (
                    f"the oracle does what the engine did with {_params_text(d.decided_by)} set otherwise"
                    if d.decided_by else "no one parameter set otherwise gives what the engine did"))
                if d.record is not None and d.record.get("_file"):
                    lines.append(f"    counterexample: {d.record['_file']}")
                for c in d.consequences:
                    how = {"after": "then, as a consequence,"}.get(c.relation, "also, by the same decision,")
                    lines.append(f"    {how} {c.kind} [{c.rule}]: {c.detail} [{c.total()} "
                                 f"example(s)]" + (f" ({c.record['_file']})" if c.record and c.record.get("_file")
                                                   else ""))
        if self.resumed:
            lines.append(f"played on past a known difference of results {self.resumed} time(s), the engine put "
                         f"back on the oracle's branch at the next deal")
        if self.exclude:
            lines.append(f"excluded (as asked): {', '.join(self.exclude)}; "
                         + (f"skipped {len(self.excluded)} disagreement(s): "
                            + ", ".join(f"{d.key} ({d.kind} [{d.rule}])" for d in self.excluded)
                            if self.excluded else "none was met"))
        if self.checks:
            fired = sum(1 for _, f in self.checks.values() if f)
            never = sorted(r for r, (_, f) in self.checks.items() if not f and r not in self.cannot_fire)
            cannot = sorted(r for r, (_, f) in self.checks.items() if not f and r in self.cannot_fire)
            lines.append(f"rule checks of the run: {fired}/{len(self.checks)} rules fired"
                         + (f"; never fired: {', '.join(self._never_text(r) for r in never)}" if never else "")
                         + ("; cannot fire under this ruleset: "
                            + "; ".join(f"{r} ({self.cannot_fire[r]})" for r in cannot) if cannot else ""))
        return "\n".join(lines)

    def _never_text(self, rule: str) -> str:
        """A rule that never fired, and, when it forbade offered actions that another rule refused first,
        which: it is never the one to refuse while that one is asked before it."""
        behind = self.masked.get(rule)
        if not behind:
            return rule
        n = sum(behind.values())
        return (f"{rule} (it forbade {n} offered action(s), each refused first by "
                f"{', '.join(sorted(behind))}, asked before it)")

    def to_json(self) -> dict[str, Any]:
        return {"engine": self.engine, "ruleset": self.ruleset, "seed": self.seed, "examples": self.examples,
                "shrink_examples": self.shrink_examples, "rounds": self.rounds, "stop": self.stop,
                "seconds": round(self.seconds, 3), "actions_compared": self.actions_compared,
                "actions_applied": self.actions_applied, "actions_per_second": round(self.actions_per_second, 1),
                "failure": None if self.failure is None else
                {"kind": self.failure.kind, "message": self.failure.message},
                "declared": self.declared, "compared": self.compared,
                "disagreements": [d.to_json() for d in self.disagreements],
                "exclude": self.exclude, "excluded": [d.to_json() for d in self.excluded], "resumed": self.resumed,
                "cannot_fire": self.cannot_fire,
                "checks": {r: {"checked": c, "fired": f} for r, (c, f) in sorted(self.checks.items())},
                "masked": self.masked,
                "coverage": self.coverage}


def compared_text(compared: dict[str, Any]) -> list[tuple[str, str]]:
    """One line per section of a report's ``compared``: what was compared there, or why it was not."""
    out = []
    for section, c in compared.items():
        if not c.get("compared"):
            out.append((section, f"NOT compared ({c.get('why', 'the engine does not offer it')})"))
            continue
        text = f"compared {c['times']} time(s)" if "times" in c else "compared"
        if c.get("keys"):
            text += f" ({', '.join(c['keys'])})"
        if c.get("not_compared"):
            text += f"; not compared: {', '.join(c['not_compared'])}"
        out.append((section, text))
    return out


def _params_text(names: list[str]) -> str:
    return ("parameter " if len(names) == 1 else "any of the parameters ") + ", ".join(names)


def _show_unsupported(x: Any) -> str:
    if isinstance(x, dict):
        return str(x["action"]) + (f" in phase {x['phase']}" if x.get("phase") else "")
    return str(x)


@dataclass
class _Example:
    """What the harness keeps of the game being generated, to diagnose a disagreement by replaying it."""

    dealer: int
    seed: int
    state: dict[str, list[Any]]
    applied: list[Action] = field(default_factory=list)
    deal_starts: list[int] = field(default_factory=lambda: [0])  # index in applied where each deal starts
    positions: list[Position] = field(default_factory=list)  # the game's position at each deal start
    known: list[str] = field(default_factory=list)  # known disagreements seen so far in this example
    # The deal (index in deal_starts) in which each known disagreement was first seen in this example.
    known_in: dict[str, int] = field(default_factory=dict)
    in_step_from: int = 0  # the deal from which the engine was put back in step after a known difference
    # Where the engine's present game began when it was put back in step: its dealer, its state and the
    # index in applied (what a what-if replay starts from).
    resumed: tuple[int, dict[str, list[Any]], int] | None = None

    def diverged(self) -> bool:
        """Whether a known difference has shown since the two sides were last in step."""
        return any(self.known_in.get(k, 0) >= self.in_step_from for k in self.known)


class _WhileCounting(EffectCounter):
    """The harness's generated games' counter: their effects count while the harness counts (not while it
    shrinks a counterexample)."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self._scratch: dict[Trigger, list[int]] = {}  # what the counting code writes while nothing counts

    def tally(self, trigger: Trigger) -> list[int]:
        if self.harness.counting:
            return self.harness.rule_counts.tally(trigger)
        scratch = self._scratch.get(trigger)
        if scratch is None:
            scratch = self._scratch[trigger] = [0] * (len(trigger.effects) + 1)
        return scratch


class Harness:
    def __init__(self, engine: EngineAdapter, ruleset: str = "classic", max_deals: int = MAX_DEALS,
                 illegal_every: int = 4, overlays: list[str] | None = None,
                 params: dict[str, Any] | None = None, warm_deals: int = WARM_DEALS) -> None:
        self.engine = engine
        self.rs: Ruleset = load_ruleset(ruleset, overlays, params)
        self.nt = notation(self.rs)
        # Each legal action's key, by the action's kind, seat and payload: a game offers the same few hundred
        # actions over and over, and every legal action of every step is keyed (see _key).
        self._keys: dict[tuple[Any, ...], str] = {}
        self._their_keys: dict[tuple[Any, ...], str] = {}
        self.ruleset = ruleset
        self.overlays = list(overlays or [])
        self.params = dict(params or {})
        self.max_deals = max_deals
        self.warm_deals = warm_deals
        self.illegal_every = illegal_every
        self._below: dict[int, st.SearchStrategy[int]] = {}  # see _index
        # Per-player variables the rules mark with start samples (scores near the barrel, bolts…).
        self.sampled = {d.name: d.samples for d in self.rs.vars.values()
                        if d.samples and d.scope == "seat" and d.lifetime == "game"}
        # Per-player game variables a record's start state may carry (what set_state can send).
        self.carried = state_keys(self.rs)
        # Totals worth starting from: the ruleset's larger numbers (a reset score, the barrel), each less
        # nothing or one of its smaller numbers (a contract, a marriage): a deal away. The variable is the
        # sampled one that reaches highest (the score).
        self.total_var = max(self.sampled, key=lambda v: max(self.sampled[v]), default="")
        numbers = sorted({v for v in self.rs.resolved.values.values() if type(v) is int and v > 0})
        top = max(numbers, default=0)
        self.targets = [v for v in numbers if top <= 10 * v < 10 * top]
        # Negative totals the rules single out (a negative reset), which a lost contract reaches from above.
        self.below = sorted({v for v in self.rs.resolved.values.values()
                             if type(v) is int and v < 0 and top <= -10 * v < 10 * top})
        self.steps = [0, *(w for w in numbers if 10 * w <= 3 * top)]
        # Of those, the ones a rule sets the total from itself (a reset at exactly 555): met only by a deal's
        # result of just that much, so the rarest, and drawn as often as all the others.
        resetting = {e.rule_id for t in self.rs.compiled.triggers.values() for e in t.effects
                     if e.changes is not None and self.total_var in e.changes}
        own = {self.rs.resolved.values.get(p) for r in resetting for p in (self.rs.rules[r].get("params") or {})}
        self.resets = [v for v in self.targets + self.below if v in own]
        self.known: set[str] = set()
        self.counts: Counter[str] = Counter()
        self.masked: dict[str, Counter[str]] = {}  # see Report.masked
        self.compared = 0
        self.applied = 0
        self.rule_counts = RuleCounts()  # how often each rule's clauses ran and fired (as coverage counts)
        self.counting = True  # off while shrinking: the statistics describe the generated games
        self.capabilities = check_capabilities(engine.hello())
        if self.overlays or self.params:
            engine.configure(self.overlays, self.params)
        caps = self.capabilities
        keys = caps.get("state_keys")
        # An engine that names no state keys is sent the sampled values a plain engine keeps: not those that
        # mean something only under a flag (the deals on the barrel), which it may not keep.
        self.state_keys = set(keys) if isinstance(keys, list) else {
            v for v in self.sampled if not self.rs.vars[v].only_while}
        # The flags the rules set for a player at the highest total short of the end (on the barrel): those a
        # sampled count means something only under. The rules clamp a score to that total and raise the flag
        # together, so a position with the one and not the other is none the rules reach: it is sent only
        # to an engine that can be told every such flag.
        self.sitting = sorted({d.only_while for d in self.rs.vars.values()
                               if d.only_while and d.name in self.sampled and d.only_while in self.carried})
        self.can_sit = all(f in self.state_keys for f in self.sitting)
        self.unsupported: list[tuple[str, str | None]] = []
        for x in caps.get("not_supported", []):
            if isinstance(x, dict) and x["action"] in self.rs.actions:
                self.unsupported.append((x["action"], x.get("phase") or None))
            elif isinstance(x, str) and x in self.rs.actions:
                self.unsupported.append((x, None))
        self.ex: _Example | None = None
        self._rule_deps: dict[str, set[str]] | None = None
        self.decisions = Decisions(self.rs, ruleset, self.overlays, self.params,
                                   Judge(self._alt_key, self._supported, self._same_row))
        # What the engine's answers let the run compare (see compared_sections).
        self.result_keys: set[str] = set()
        self.result_rows = 0
        self.game_end_keys: set[str] = set()
        self.mid_game = 0
        self.rows_before = 0  # the oracle's rows before the engine's game began (it was put back in step)
        self.resumed = 0  # games played on past a known difference of results, the engine put back in step

    def compared_sections(self) -> dict[str, dict[str, Any]]:
        """Section by section, what the run compared and what it did not, and why not."""
        caps = self.capabilities
        sheet = sorted(d.name for d in self.rs.recorded)
        out: dict[str, dict[str, Any]] = {}
        out["legal actions"] = ({"compared": True, "times": self.compared} if caps.get("legal_actions", True) else
                                {"compared": False, "why": "the engine declares legal_actions: false; only its "
                                 "accepting the oracle's moves and refusing illegal ones was checked"})
        if not caps.get("results", True):
            out["results"] = {"compared": False, "why": "the engine declares results: false"}
        else:
            keys = sorted(self.result_keys)
            out["results"] = {"compared": bool(keys), "times": self.result_rows, "keys": keys,
                              "not_compared": [k for k in sheet if k not in self.result_keys],
                              **({} if keys else {"why": "no deal was finished, or the engine reported no value "
                                                  "the rules write"})}
        out["game end"] = ({"compared": True, "keys": sorted(self.game_end_keys)} if self.game_end_keys else
                           {"compared": False, "why": "the engine's results say nothing of the game's end"})
        out["set_state"] = ({"compared": True, "times": self.mid_game} if self.mid_game else
                            {"compared": False, "why": "the engine declares set_state: false" if not
                             caps.get("set_state", True) else "no game started mid-game"})
        return out

    # ------------------------------------------------------------------ one example
    def play(self, draw: st.DrawFn) -> None:
        rs = self.rs
        n = rs.players
        players = PLAYERS[:n]
        dealer = draw(st.integers(0, n - 1))
        # A small seed range: shrinking a seed replaces the whole deal, so fewer seeds shrink faster.
        seed = draw(st.integers(0, 255))
        dealer, state = self._start_state(draw, dealer, seed)
        # Traced only while counting rules: a traced game copies the state around every clause.
        game = self._new_game(dealer, seed, state, traced=self.counting)
        self.ex = _Example(dealer, seed, state, positions=[game.snapshot()])
        rec = Recorder(game, players, overlays=self.overlays or None, params=self.params or None)
        if state:
            rec.record.pop("first_dealer", None)
            rec.record["start"] = {"dealer": players[dealer], "state": state}
        rec.record.pop("deals")
        rec.record["deals"] = []
        self.engine.new_game(self.ruleset, players, dealer)
        self.rows_before = 0
        if state:
            self.engine.set_state(state)
            if self.counting:
                self.mid_game += 1
        deals = draw(st.integers(1, self.max_deals))
        # A style of play for the whole game: favour one kind of action (concede, pass, …), and follow or
        # go against the play hints. Both shrink to plain hinted play.
        kinds = sorted(k for k, d in rs.actions.items() if not is_chance(d))
        favour = draw(st.sampled_from([None, *kinds]))
        contrary = draw(st.booleans())
        try:
            while len(game.sheet) < deals and not game.over:
                decl = game.chance_action()
                if decl is not None:
                    action = game.sample()
                    # Now and then a deal made rarer by the rules' measure (three marriages in a hand, which
                    # a bid above 300 needs, come once in two thousand deals); it shrinks to the deal drawn.
                    if draw(st.integers(0, RARE_EVERY - 1)) == RARE_EVERY - 1:
                        rises = draw(st.integers(1, RARE_RISES))
                        action = rarer(game, action, rises,
                                        random.Random(seed * 1_000 + len(self.ex.applied)))
                    rec(game, action)
                    fields = {f: encode_value(action.payload[f], t, self.nt) for f, t in decl.fields}
                    self._engine_call(partial(self.engine.deal, fields), rec, decl.rule_id)
                    self._apply(game, action)
                    continue
                self._step(game, rec, draw, favour, contrary)
        except _Unsupported:
            pass

    def _start_state(self, draw: st.DrawFn, dealer: int, seed: int) -> tuple[int, dict[str, list[Any]]]:
        """Sampled starting values, and maybe a few deals the oracle plays alone from them: a mid-game state."""
        n = self.rs.players
        state: dict[str, list[Any]] = {}
        if not self.capabilities.get("set_state", True):
            return dealer, state
        for name, samples in self.sampled.items():
            if name not in self.state_keys or self.rs.vars[name].only_while:
                continue  # a value that means something only under a flag is drawn with the flag
            # A flag per variable first, so that shrinking drops a variable the disagreement does not need.
            if draw(st.booleans()):
                values = [draw(st.sampled_from(samples)) for _ in range(n)]
                if any(values):
                    state[name] = values
        if self.targets and self.total_var in self.state_keys and draw(st.booleans()):
            # One player at a total the rules single out (a reset, the barrel), or one contract or marriage
            # short of it.
            values = list(state.get(self.total_var) or [0] * n)
            barrel = self.targets[-1]
            # The highest total is drawn as often as all the others, and there the player is as often on it
            # as a deal short of it: the rarest situations (the last deal on the barrel, a fall, the fall
            # that resets the score) start on it.
            on_top = draw(st.booleans())
            if on_top:
                target = barrel
            elif len(self.resets) > 0 and draw(st.booleans()):
                target = draw(st.sampled_from(self.resets))
            else:
                target = draw(st.sampled_from(self.targets + self.below))
            def short_of(step: int) -> int:  # a deal's result away from the target: below it, or above one below 0
                return target + step if target < 0 else target - step
            total = short_of(0 if on_top and draw(st.booleans()) else draw(st.sampled_from(self.steps)))
            if total >= barrel and not self.can_sit:
                # The engine cannot be told the flags a player there has: a deal short of it instead.
                total = barrel - draw(st.sampled_from([w for w in self.steps if w]))
            seat = draw(st.integers(0, n - 1))
            values[seat] = total
            if target < barrel:
                # A total the rules single out is met exactly only by a deal's result of just that much: the
                # others are put a drawn deal short of it too, each as often as not, to meet it more often
                # (never on it: a reset there is a position the rules do not reach).
                for other in range(n):
                    if other != seat and draw(st.booleans()):
                        values[other] = short_of(draw(st.sampled_from([w for w in self.steps if w])))
            state[self.total_var] = values
            if total >= barrel:
                # On the barrel: the per-player flags the rules keep there, all of them (the rules raise them
                # with the clamp), what the rules count while a flag holds (deals already played on the
                # barrel), and the player's other counts (falls, bolts), drawn for him: what a sitter has
                # behind him decides what a fall costs.
                for name in self.sitting:
                    flags = list(state.get(name) or [False] * n)
                    flags[seat] = True
                    state[name] = flags
                # Each drawn for him, no flag first: a sample shrinks to its first value (none), which drops it.
                # Half the time he is at the end of every count (his last deal on the barrel, his last fall
                # before the reset): the situations the rules single out last, and so the rarest.
                at_end = draw(st.booleans())
                for under, samples in self.sampled.items():
                    if under != self.total_var and under in self.state_keys:
                        counts = list(state.get(under) or [0] * n)
                        counts[seat] = max(samples) if at_end else draw(st.sampled_from(samples))
                        if any(counts):
                            state[under] = counts
        teams = self.rs.teams
        if teams is not None:
            # What a team holds as one starts as one: each partner takes his team's first seat's value.
            for name in set(state) & set(teams.sharing):
                state[name] = [state[name][teams.members(s)[0]] for s in range(n)]
        # A player put on the barrel is where the game should start: deals played alone would spend it.
        warm = 0 if any(any(state.get(f, [])) for f in self.sitting) else draw(st.integers(0, self.warm_deals))
        if not warm:
            return dealer, state
        g = self._new_game(dealer, seed, state)
        play_random(g, random.Random(draw(st.integers(0, 2**16))), hinted=True,
                    max_deals=warm)
        if g.over:
            return dealer, state
        init = self._new_game(0, 0, {}).v
        warmed = {name: list(g.v[name]) for name in self.carried if g.v[name] != init[name]}
        if set(warmed) - self.state_keys:
            return dealer, state  # the engine cannot be told this state
        return g.v["dealer"], warmed

    def _index(self, draw: st.DrawFn, n: int) -> int:
        """A number below ``n``, drawn as ``st.integers(0, n - 1)`` (it shrinks towards 0). Each step draws two
        or three: the strategy of each bound is made once per harness, not looked up in Hypothesis's cache of
        strategies at every draw."""
        strategy = self._below.get(n)
        if strategy is None:
            strategy = self._below[n] = st.integers(0, n - 1)
        return draw(strategy)

    def _new_game(self, dealer: int, seed: int, state: dict[str, list[Any]], traced: bool = False) -> Game:
        return Game(self.rs, dealer=dealer, seed=seed, values=state, tracer=_WhileCounting(self) if traced else None)

    def _step(self, game: Game, rec: Recorder, draw: st.DrawFn, favour: str | None, contrary: bool) -> None:
        legal = [a for a in self._order(game, game.legal_actions(), favour, contrary) if self._supported(game, a)]
        if not legal:
            raise _Unsupported
        mine = {self._key(a) for a in legal}
        if self.capabilities.get("legal_actions", True):
            theirs_list = self._engine_call(self.engine.legal, rec,
                                           self.rs.program.phase_rule.get(game.phase, self._sheet_rule))
            theirs = {self._their_key(a): a for a in theirs_list
                      if isinstance(a, dict) and self._supported_json(game, a)}
            self.compared += 1
            if mine != set(theirs):
                self._legal_mismatch(game, rec, mine, theirs)
                # A known difference: play on with what both sides allow.
                legal = [a for a in legal if self._key(a) in theirs]
                if not legal:
                    raise _Known("no action both sides allow")
        if self.illegal_every and self._index(draw, self.illegal_every) == 0:
            self._offer_illegal(game, rec, draw)
        # Steer away from a move the engine is known to refuse wrongly: the rest of the game may hold
        # another difference.
        if self.known:
            legal = [a for a in legal if f"rejected-legal:{self.rs.action_rule.get(a.kind, a.kind)}:{a.kind}"
                     not in self.known] or legal
        # Index 0 is what the style of play would do, so shrinking (towards 0) gives natural games.
        action = legal[self._index(draw, len(legal))]
        accepted, reason = self._engine_call(lambda: self.engine.apply(self._enc(action)), rec,
                                             self.rs.action_rule[action.kind])
        self.compared += 1
        rec(game, action)
        before = len(game.sheet)
        self._count_checks(action.kind, None)
        self._apply(game, action)
        if not accepted:
            self._fail(rec, "rejected-legal", action.kind, self.rs.action_rule.get(action.kind, action.kind),
                       f"the engine rejected the legal action {self._text(action)} ({reason})",
                       seen=Observation("refuses", action=action), before_last=True)
        if len(game.sheet) > before:
            try:
                self._compare_results(game, rec)
            except _Known:
                if not self._resume(game, rec):
                    raise

    def _resume(self, game: Game, rec: Recorder) -> bool:
        """After a known difference of results: put the engine back in step with the oracle at the start of the
        next deal (a new game from the oracle's position, by set_state) and play on, so that what follows
        is still compared. False when the game is over or the engine cannot be told the position."""
        if game.over or not self.capabilities.get("set_state", True):
            return False
        init = self._new_game(0, 0, {}).v
        state = {name: list(game.v[name]) for name in self.carried if game.v[name] != init[name]}
        if set(state) - self.state_keys:
            return False
        self.engine.new_game(self.ruleset, PLAYERS[:self.rs.players], game.v["dealer"])
        self.engine.set_state(state)
        self.rows_before = len(game.sheet)
        ex = self.ex
        assert ex is not None
        ex.in_step_from = len(ex.deal_starts) - 1
        for k in ex.known:  # what was known so far belongs to the deals before
            ex.known_in[k] = min(ex.known_in.get(k, 0), ex.in_step_from - 1)
        ex.resumed = (game.v["dealer"], state, len(ex.applied))
        if self.counting:
            self.resumed += 1
        return True

    def _apply(self, game: Game, action: Action) -> None:
        assert self.ex is not None
        rows = len(game.sheet)
        rej = game.try_apply(action, typed=True)  # the rules' own legal or drawn action: well typed
        if rej is not None:
            raise IllegalAction(rej)
        self.ex.applied.append(action)
        if self.counting:
            self.applied += 1
        if len(game.sheet) > rows:
            self.ex.deal_starts.append(len(self.ex.applied))
            self.ex.positions.append(game.snapshot())

    def _order(self, game: Game, legal: list[Action], favour: str | None, contrary: bool) -> list[Action]:
        sign = -1 if contrary else 1

        def score(a: Action) -> tuple[int, int]:
            return (0 if a.kind == favour else 1, -sign * game.hint(a))
        return sorted(legal, key=score)

    def _supported(self, game: Game, a: Action) -> bool:
        return self._supported_kind(game, a.kind)

    def _supported_kind(self, game: Game, kind: str) -> bool:
        return not any(kind == k and (p is None or p == game.phase) for k, p in self.unsupported)

    def _supported_json(self, game: Game, a: dict[str, Any]) -> bool:
        return not any(a.get("action") == k and (p is None or p == game.phase) for k, p in self.unsupported)

    # ------------------------------------------------------------------ rule statistics
    def _count_checks(self, kind: str, rejected: Rejection | None) -> None:
        """A check of an action of ``kind``: its guards ran in order, up to the one that rejected it."""
        if self.counting:
            self.rule_counts.check(self.rs.compiled.actions[kind], rejected)

    def _count_masked(self, rules: Sequence[str], times: int = 1) -> None:
        """Of a refused action (``times`` such), the rules whose guards forbid it too (``rules``: of every guard
        that forbids it, in order), behind the one that refused first."""
        if len(rules) < 2:
            return
        for r in dict.fromkeys(rules[1:]):
            if r != rules[0]:
                self.masked.setdefault(r, Counter())[rules[0]] += times

    # ------------------------------------------------------------------ comparisons
    def _legal_mismatch(self, game: Game, rec: Recorder, mine: set[str], theirs: dict[str, Any]) -> None:
        extra = sorted(set(theirs) - mine)
        missing = sorted(mine - set(theirs))
        # Both lists as the protocol writes actions (the keys compared are case-folded).
        ours = {self._key(x): x for x in game.legal_actions()} if missing else {}
        note = {"engine_allows": [theirs[k] for k in extra][:50],
                "engine_lacks": [self._enc(ours[k]) for k in missing if k in ours][:50]}
        assert self.ex is not None
        # Once a known difference has shown in this game, later ones are most likely its echoes: the costly
        # what-if replays are left out.
        cause = None if self.ex.diverged() else self._state_cause(game, {(a["seat"], a["action"]) for a in
                                                                   theirs.values()})
        seen = Observation("legal", legal=frozenset(theirs))
        if cause is not None:
            var, rule, alt = cause
            now = game.v[var]
            self._fail(rec, "legal-actions", var, rule, f"the engine's legal actions are those of a game where "
                       f"{var} is {PLAYERS[alt]} (seat {alt}), not "
                       f"{PLAYERS[now] + f' (seat {now})' if isinstance(now, int) else now}: rule {rule} sets {var} "
                       f"({len(extra)} action(s) allowed, {len(missing)} lacking here)",
                       f"legal-actions:state:{var}", note=note, seen=seen)  # one root cause: the engine's {var} differs
        if extra:
            a = theirs[extra[0]]
            rule, kind = self._rule_of(game, a)
            sig = f"legal-actions:extra:{rule}:{kind}"
            if sig not in self.known:
                rec.record["deals"][-1]["actions"].append(self._as_recorded(a))
            self._fail(rec, "legal-actions", kind, rule, f"the engine allows {self._jtext(a)}, which rule {rule} "
                       f"forbids ({len(extra)} such action(s) here)", sig, note=note, seen=seen)
        if missing:
            a = self._enc(ours[missing[0]])
            kind = a["action"]
            rule = self.rs.action_rule.get(kind, kind)
            sig = f"legal-actions:missing:{kind}:{game.phase}"
            self._fail(rec, "legal-actions", kind, rule, f"the engine does not allow {self._jtext(a)}, which is "
                       f"legal ({len(missing)} such action(s) here)", sig, note=note, seen=seen)

    def _is_seat(self, var: str) -> bool:
        decl = self.rs.vars.get(var)
        return decl is not None and T.parse(decl.type).name == "seat"

    def _state_cause(self, game: Game, theirs: set[tuple[Any, str]]) -> tuple[str, str, int] | None:
        """A seat-valued variable that, set otherwise, makes the oracle list the actions the engine lists (by
        seat and kind): (variable, the rule that last set it, the engine's value).

        From the second deal of a game on, the dealer (and the other seat variables) are tried at the start
        of the deal: a different rotation shows at once in who speaks first. Then the turn, now: a trick
        won by another player, an auction that moved on differently."""
        ex = self.ex
        assert ex is not None
        mine = {(a.seat, a.kind) for a in game.legal_actions()}
        want = {(s, k) for s, k in theirs if type(s) is int}
        if not want or want == mine:
            return None  # the same seats act on both sides: not a matter of who deals or whose turn it is
        start = ex.deal_starts[-1]
        if len(ex.deal_starts) > 1:
            names = ["dealer", *sorted(v for v, d in self.rs.vars.items() if d.scope == "game" and self._is_seat(v))]
            base = ex.positions[-1]
            for var in names:
                for alt in range(self.rs.players):
                    if alt == base.values.get(var):
                        continue
                    g = Game.at(base.with_values({var: alt}))
                    if self._replay_onto(g, ex.applied[start:]) and \
                            {(a.seat, a.kind) for a in g.legal_actions()} == want:
                        return var, self._last_writer(var, start), alt
        for alt in range(self.rs.players):
            if alt == game.v["turn"]:
                continue
            g = Game.at(game.snapshot().with_values({"turn": alt}))
            if {(a.seat, a.kind) for a in g.legal_actions()} == want:
                return "turn", self._last_writer("turn", len(ex.applied)), alt
        return None

    def replayed(self, dealer: int, seed: int, state: dict[str, list[Any]], applied: list[Action]) -> _Example:
        """The example of a game from its start and actions, as if the harness had played it: where each deal
        starts, and its position there."""
        game = self._new_game(dealer, seed, state)
        self.ex = ex = _Example(dealer, seed, state, positions=[game.snapshot()])
        for a in applied:
            self._apply(game, a)
        return ex

    def _replay(self, upto: int) -> Game:
        """The game after the first ``upto`` actions of the example: from the position at the start of the
        deal they end in, so at the cost of one deal."""
        ex = self.ex
        assert ex is not None
        d = bisect_right(ex.deal_starts, upto) - 1
        g = Game.at(ex.positions[d])
        for a in ex.applied[ex.deal_starts[d]:upto]:
            g.apply(a)
        return g

    def _replay_onto(self, g: Game, actions: list[Action]) -> bool:
        for a in actions:
            decl = self.rs.actions[a.kind]
            if decl.actor == "dealer":
                a = Action(a.kind, g.v["dealer"], a.payload)
            if g.try_apply(a) is not None:
                return False
        return True

    def _writes(self, start: int, end: int, to_row: bool = False, force: Force | None = None,
                watch: Collection[str] | None = None) -> tuple[list[Write], Game]:
        """Every value a clause changed while actions start..end were applied, in order (only those of
        ``watch`` when given: the trace then keeps just their values, not the whole state's); with
        ``to_row``, changes made after a row was written on the sheet (the next deal's set-up) are left
        out. ``force`` makes it a what-if replay (see ``records.blame.trace``). Returns the writes and the
        game replayed."""
        ex = self.ex
        assert ex is not None
        return trace(self._replay(start).snapshot(), ex.applied[start:end], after_sheet=not to_row, force=force,
                     watch=watch)

    def _last_writer(self, var: str, upto: int) -> str:
        """The rule that last changed ``var`` in the first ``upto`` actions: traced a deal at a time from the
        deal they end in, back until a deal changed it."""
        ex = self.ex
        assert ex is not None
        d = bisect_right(ex.deal_starts, upto) - 1 if upto else -1
        while d >= 0:
            begin = ex.deal_starts[d]
            writes, _ = trace(ex.positions[d], ex.applied[begin:upto], after_sheet=True, watch=[var])
            found = [w.rule for w in writes if w.var == var]
            if found:
                return found[-1]
            upto, d = begin, d - 1
        decl = self.rs.vars.get(var)
        if decl is not None:
            return decl.rule_id
        writers = sorted(r for r, ws in self.rs.writes.items() if var in ws)
        return writers[0] if writers else self._sheet_rule

    @property
    def _sheet_rule(self) -> str:
        """The rule that keeps the sheet's totals: charged for what no narrower rule decides."""
        return self.rs.vars[self.rs.sheet.total].rule_id

    def _offer_illegal(self, game: Game, rec: Recorder, draw: st.DrawFn) -> None:
        illegal: list[tuple[str, int, dict[str, Any]]] = []
        turn = game.v["turn"]
        counts = self.rule_counts if self.counting else None
        for decl in self.rs.actions.values():
            if decl.phase != game.phase or is_chance(decl) or not self._supported_kind(game, decl.name):
                continue
            compiled = self.rs.compiled.actions[decl.name]
            # Candidates are well typed by construction; only the one offered is worded as a rejection.
            # While counting, every guard that forbids each one is asked at once (see _count_masked).
            judged = (refusals(game, self.rs, decl.name) if counts is not None else
                      ((seat, payload, said, ()) for seat, payload, said in checked(game, self.rs, decl.name)))
            # Tallied by outcome and counted once each: a phase has some dozens of candidates, most refused alike.
            said_times: Counter[tuple[str, str] | None] = Counter()
            masked_times: Counter[tuple[str, ...]] = Counter()
            for seat, payload, said, forbidding in judged:
                if seat != turn and decl.actor == "turn":
                    continue
                said_times[said] += 1
                if said is None:
                    continue
                if len(forbidding) > 1:
                    masked_times[tuple(forbidding)] += 1
                if self.known and f"accepted-illegal:{said[0]}:{decl.name}" in self.known:
                    continue  # the engine is known to accept it: offering it again would only end the game
                # Every candidate is checked and counted: a guard reached only by the last of them (a bid
                # over the cap, after the near misses below it) fires in the run's statistics too.
                illegal.append((decl.name, seat, payload))
            if counts is not None:
                for said, times in said_times.items():
                    counts.refused(compiled, said, times)
                for masking, times in masked_times.items():
                    self._count_masked(masking, times)
        if not illegal:
            return
        kind, seat, payload = illegal[self._index(draw, len(illegal))]
        a = Action(kind, seat, dict(payload))
        rej = game.check(a, typed=True)
        assert rej is not None, "a candidate found refused is refused"
        accepted, _ = self._engine_call(lambda: self.engine.apply(self._enc(a)), rec, self.rs.action_rule[a.kind])
        self.compared += 1
        if accepted:
            rec.record["deals"][-1]["actions"].append(self._enc(a))
            self._fail(rec, "accepted-illegal", a.kind, rej.rule_id,
                       f"the engine accepted {self._text(a)}, which rule {rej.rule_id} forbids [{rej.reason}]",
                       seen=Observation("accepts", action=a))

    def _compare_results(self, game: Game, rec: Recorder) -> None:
        if not self.capabilities.get("results", True):
            return
        theirs = self._engine_call(self.engine.results, rec, self._sheet_rule)
        i = len(game.sheet) - 1 - self.rows_before
        if len(theirs) <= i or not isinstance(theirs[i], dict):
            self._fail(rec, "results", "sheet", "record", f"the engine reports {len(theirs)} finished deal(s), the "
                       f"oracle {i + 1}")
        row = game.sheet[-1]
        wrong: dict[str, tuple[Any, Any]] = {}
        if self.counting:
            self.result_rows += 1
        for key, value in theirs[i].items():
            if key in row and key not in _RESULT_ONLY:
                if self.counting:
                    self.result_keys.add(key)
                mine, theirs_now = self._meaningful(key, row, row[key], value)
                if _norm(theirs_now) != _norm(self._sheet(key, mine)):
                    wrong[key] = (value, self._sheet(key, row[key]))
        end = self._engine_call(self.engine.game_end, rec, self._sheet_rule) if i == len(theirs) - 1 else {}
        for key, var in _GAME_END.items():
            if isinstance(end, dict) and key in end:
                if self.counting:
                    self.game_end_keys.add(key)
                if end[key] != game.v[var]:
                    wrong[key] = (end[key], game.v[var])
        if not wrong:
            return
        key, rule = self._results_cause(wrong, row)
        probe = json.loads(json.dumps(rec.finish()))
        for d in probe["deals"]:
            d.pop("result", None)
        # The root value first: the validator reports the first wrong value of a result.
        probe["deals"][-1]["result"] = {k: v for k, (v, _) in sorted(wrong.items(), key=lambda kv: kv[0] != key)
                                        if k in row}
        shown = "; ".join(f"{k} is {json.dumps(v, ensure_ascii=False)}, the rules give "
                          f"{json.dumps(w, ensure_ascii=False)}" for k, (v, w) in wrong.items())
        ex = self.ex
        assert ex is not None
        writes, _ = self._writes(ex.deal_starts[-2], len(ex.applied), to_row=True)
        vars_wrong = {_GAME_END.get(k, k) for k in wrong}
        writers = tuple(dict.fromkeys(w.rule for w in writes if w.var in vars_wrong))
        self._fail(rec, "results", key, rule, f"after deal {len(game.sheet)} the engine's {shown} "
                   f"(rule {rule} writes {key})",
                   f"results:{rule}", record=probe,
                   note={"results": {k: {"engine": v, "rules": w} for k, (v, w) in wrong.items()}},
                   seen=Observation("results", row=dict(theirs[i]), rows=len(game.sheet)), rules=writers,
                   diffs=_differences(wrong))

    def _alt_key(self, rs: Ruleset, a: Action) -> str:
        """An action's key for comparing, as another ruleset (a what-if replay's) writes it."""
        return _canonical(_norm(encode_action(rs, notation(rs), a)))

    def _same_row(self, rs: Ruleset, row: dict[str, Any], theirs: dict[str, Any]) -> bool:
        """Whether the engine's row of results is ``row`` of another ruleset's sheet, every key compared."""
        for key, value in theirs.items():
            if key in _RESULT_ONLY or key not in row:
                continue
            decl = rs.vars.get(key)
            mine = row[key]
            mine_shown = [encode_value(x, decl.type, self.nt) for x in mine] if decl is not None and \
                decl.scope == "seat" else encode_value(mine, decl.type, self.nt) if decl is not None else mine
            mine_m, theirs_m = self._meaningful(key, row, mine_shown, value)
            if _norm(theirs_m) != _norm(mine_m):
                return False
        return True

    def _meaningful(self, key: str, row: dict[str, Any], mine: Any, theirs: Any) -> tuple[Any, Any]:
        """Both sides' value of ``key``, less the seats for which the rules say it means nothing (a per-player
        value declared ``only_while`` a flag: the deals on the barrel of a player not on it)."""
        decl = self.rs.vars.get(key)
        flag = decl.only_while if decl is not None else None
        if flag is None or not isinstance(mine, list) or not isinstance(theirs, list) or len(mine) != len(theirs):
            return mine, theirs
        held = row.get(flag)
        if not isinstance(held, list):
            return mine, theirs
        return ([m if held[s] else None for s, m in enumerate(mine)],
                [t if held[s] else None for s, t in enumerate(theirs)])

    def _results_cause(self, wrong: dict[str, tuple[Any, Any]], row: dict[str, Any]) -> tuple[str, str]:
        """The differing value that explains the others, and the rule whose effect wrote it.

        For each differing value, the oracle's writes to it in this deal are traced: the rule to blame is
        the one that wrote after the value last equalled the engine's (the engine stopped there, or went on
        differently). A what-if replay then lets that write give the engine's value instead: the value
        whose change makes every other differing value come out as the engine has it is the root. If none
        does, the value fewest rules write (not one explained by another, like a total by the deal's
        points), decided earliest in the deal."""
        ex = self.ex
        assert ex is not None
        start, end = ex.deal_starts[-2], len(ex.applied)
        # Only the differing values' writes are read below (their order among themselves is all that counts).
        writes, _ = self._writes(start, end, to_row=True, watch={_GAME_END.get(k, k) for k in wrong})
        base = self._replay(start)
        blamed: dict[str, tuple[int, str, Force]] = {}
        tries: list[tuple[int, str, str, Force]] = []
        for key, (got, want) in wrong.items():
            var = _GAME_END.get(key, key)
            decl = self.rs.vars.get(var)
            cells: list[tuple[int | None, Any]]
            if isinstance(got, list) and isinstance(want, list) and isinstance(base.v.get(var), list):
                cells = [(j, got[j]) for j in range(min(len(got), len(want))) if _norm(got[j]) != _norm(want[j])]
            else:
                cells = [(None, got)]
            # Per differing cell: its writes, and which of them may be the one that went wrong (the write
            # after the value last equalled the engine's; any of them when it never did).
            per_cell: list[tuple[int | None, Any, list[tuple[int, str, Any]], list[int]]] = []
            for j, value in cells:
                try:
                    mine = self._decode(value, decl.type if decl is not None else "any")
                except (ValueError, TypeError):
                    per_cell = []
                    break
                history = [(p, w.rule, w.value) for p, w in enumerate(writes) if w.var == var and w.seat == j]
                if not history:
                    continue
                initial = base.v[var] if j is None else base.v[var][j]
                equal_at = [-1] if initial == mine else []
                equal_at += [n for n, (_, _, v) in enumerate(history) if v == mine]
                if equal_at and equal_at[-1] + 1 < len(history):
                    options = [equal_at[-1] + 1]
                else:
                    options = list(range(len(history))) if not equal_at else [len(history) - 1]
                per_cell.append((j, mine, history, options))
            depth = max((len(o) for *_, o in per_cell), default=0)
            for k in range(depth):
                force: Force = {}
                first, rule = None, None
                for j, mine, history, options in per_cell:
                    n = options[min(k, len(options) - 1)]
                    p, r, _ = history[n]
                    force[(var, j)] = (n + 1, mine)
                    if first is None or p < first:
                        first, rule = p, r
                if rule is not None and first is not None:
                    tries.append((first, key, rule, force))
                    if k == depth - 1:
                        blamed[key] = (first, rule, force)  # the plain blame: the last candidate write
        # One rule may write several of the values (a reset writes the total and the deal's points): let it
        # give the engine's values for all of them at once.
        together: dict[str, Force] = {}
        for _, rule, force in blamed.values():
            together.setdefault(rule, {}).update(force)
        candidates = [(p, key, rule, f) for p, key, rule, f in tries] + \
            [(p, key, rule, together[rule]) for key, (p, rule, _) in blamed.items()]
        explains: list[tuple[int, str, str]] = []
        for p, key, rule, force in sorted(candidates, key=lambda c: c[0]):
            if explains and p > explains[0][0]:
                break
            # The forced cells' variables are all the what-if must follow; the game it leaves is what counts.
            _, g = self._writes(start, end, to_row=True, force=force, watch={name for name, _ in force})
            if len(g.sheet) <= len(base.sheet):
                continue
            new_row = g.sheet[len(base.sheet)]
            same = all(_norm(self._sheet(k, new_row[k])) == _norm(got) if k in new_row
                       else g.v[_GAME_END[k]] == got for k, (got, _) in wrong.items() if k in new_row or k in _GAME_END)
            if same:
                explains.append((p, key, rule))
        if explains:
            _, key, rule = min(explains)
            return key, rule
        keys = [k for k in wrong if not (k in self.rs.vars and self.rs.vars[k].explained_by in wrong)] or list(wrong)
        writers = {k: sum(1 for ws in self.rs.writes.values() if _GAME_END.get(k, k) in ws) for k in keys}
        key = min(keys, key=lambda k: (k in _GAME_END, writers[k] or 99, self._stage(k), k))
        if key in blamed:
            return key, blamed[key][1]
        decl = self.rs.vars.get(key)
        return key, decl.rule_id if decl is not None else self._last_writer(_GAME_END.get(key, key), end)

    def _decode(self, value: Any, t: str) -> Any:
        from ..records import decode_value

        if t == "any":
            return value
        return decode_value(value, t, self.nt, self.rs.players, "result")

    # ------------------------------------------------------------------ helpers
    def _fail(self, rec: Recorder, kind: str, action_kind: str, rule: str, detail: str, sig: str | None = None,
              record: dict[str, Any] | None = None, note: dict[str, Any] | None = None,
              seen: Observation | None = None, rules: tuple[str, ...] = (), diffs: tuple[int, ...] = (),
              before_last: bool = False) -> None:
        ex = self.ex
        assert ex is not None
        signature = sig or f"{kind}:{rule}:{action_kind}"
        if signature in self.known:
            if signature not in ex.known:
                ex.known.append(signature)
                ex.known_in[signature] = len(ex.deal_starts) - 1
            if kind == "legal-actions":
                return  # play on with what both sides allow, and look for other differences
            # A refused move or a different sheet: playing on would compare games gone different ways.
            raise _Known(signature)
        body = record or _snapshot(rec)
        body["conformance"] = {"engine": self.engine.name, "kind": kind, "rule": rule, "detail": detail,
                               "deal": len(body.get("deals", [])),
                               "action": len((body.get("deals") or [{}])[-1].get("actions", [])),
                               **(note or {})}
        # A known difference of legal actions leaves both games in step (play goes on with what both
        # allow), and a new deal starts afresh: only a difference in the same deal is taken for its echo.
        deal = len(ex.deal_starts) - 1
        echo = next((k for k in ex.known if ex.known_in.get(k) == deal), None)
        deps = self.deps(rule)
        dealer, state, begin = ex.resumed or (ex.dealer, ex.state, 0)
        probe = None if seen is None else Probe(
            dealer, ex.seed, state, tuple(ex.applied[begin:-1] if before_last else ex.applied[begin:]), seen,
            tuple(dict.fromkeys((rule, *sorted(deps - {rule}), *rules))), diffs)
        raise _Found(Disagreement(kind, signature, rule, detail, body, after=echo, deps=frozenset(deps),
                                  probe=probe))

    def deps(self, rule: str) -> set[str]:
        """The rule and the rules its clauses and guards use (its definitions' and parameters' owners),
        without those most rules use (the pack, the notation): what a fix of this rule may be in."""
        if self._rule_deps is None:
            per: dict[str, set[str]] = {}
            for trigger in self.rs.compiled.triggers.values():
                for e in trigger.effects:
                    per.setdefault(e.rule_id, set()).update(e.deps)
            for action in self.rs.compiled.actions.values():
                for g in action.guards:
                    per.setdefault(g.clause.rule_id, set()).update(g.deps)
            used = Counter(r for ds in per.values() for r in ds)
            common = {r for r, n in used.items() if n * 4 > max(1, len(per))}
            self._rule_deps = {r: (ds - common) | {r} for r, ds in per.items()}
        return self._rule_deps.get(rule, {rule})

    def _engine_call(self, fn: Callable[[], Any], rec: Recorder, rule: str) -> Any:
        """Ask the engine; an exception from an in-process engine is a disagreement charged to ``rule``,
        the rule of the step it was asked about (never to a made-up rule called "engine")."""
        try:
            return fn()
        except EngineFailure:
            raise
        except Exception as exc:
            self._fail(rec, "engine", type(exc).__name__, rule, f"the engine raised {type(exc).__name__}: {exc}")

    def _stage(self, var: str) -> int:
        """How early in a deal a variable is decided: 0 during play, then by scoring order."""
        best = 10**9  # never written: last of all
        for on, trigger in self.rs.compiled.triggers.items():
            for i, e in enumerate(trigger.effects):
                if var in e.writes:
                    best = min(best, i if on in self.rs.actions else _AFTER_ACTIONS + i)
        return best

    def _enc(self, a: Action) -> dict[str, Any]:
        return encode_action(self.rs, self.nt, a)

    def _key(self, a: Action) -> str:
        """The action as compared with the engine's: its protocol form, case-folded, as canonical JSON."""
        payload = a.payload
        # The values' types too: True and 1 are equal keys of a dict, but not the same JSON.
        return _kept_key(self._keys, (a.kind, a.seat, *payload.items(), *map(type, payload.values())),
                         lambda: self._enc(a))

    def _their_key(self, a: dict[str, Any]) -> str:
        """An action the engine listed, as :meth:`_key` writes the oracle's: its canonical JSON, case-folded. An
        engine lists the same few dozen actions again and again: the key of each is worked out once."""
        return _kept_key(self._their_keys, (*a.items(), *map(type, a.values())), lambda: a)

    def _sheet(self, key: str, value: Any) -> Any:
        decl = self.rs.vars.get(key)
        if decl is None:
            return value
        if decl.scope == "seat":
            return [encode_value(x, decl.type, self.nt) for x in value]
        return encode_value(value, decl.type, self.nt)

    def _rule_of(self, game: Game, a: dict[str, Any]) -> tuple[str, str]:
        from ..records import decode_value

        kind = a.get("action", "?")
        decl = self.rs.actions.get(kind)
        if decl is None:
            # An action the ruleset does not have: charged, as the oracle charges it, to the rule of the phase.
            return self.rs.program.phase_rule.get(game.phase) or "record", str(kind)
        try:
            payload = {f: decode_value(a[f], t, self.nt, game.v["n_seats"], f) for f, t in decl.fields}
            rej = game.check(Action(kind, int(a["seat"]), payload))
        except (KeyError, ValueError, TypeError):
            return decl.rule_id, kind  # a payload the action's own rule does not allow
        # A refusal names a rule of the ruleset (out of turn: the rule that set the turn); a legal one, the action's.
        return (rej.rule_id if rej is not None and rej.rule_id else decl.rule_id), kind

    def _text(self, a: Action) -> str:
        return self._jtext(self._enc(a))

    @staticmethod
    def _jtext(a: dict[str, Any]) -> str:
        """A protocol action as the validator words one: the seat counted from 1, with its player's name."""
        rest = " ".join(f"{k}={v}" for k, v in a.items() if k not in ("seat", "action"))
        s = a.get("seat")
        who = seat_words(s, PLAYERS[s]) if type(s) is int and 0 <= s < len(PLAYERS) else f"seat {s!r}"
        return f"{who} {a.get('action')} {rest}".strip()

    @staticmethod
    def _as_recorded(a: dict[str, Any]) -> dict[str, Any]:
        """A protocol action (its seat a number from 0) as a record writes it (its seat by the player's name)."""
        s = a.get("seat")
        return {**a, "seat": PLAYERS[s]} if type(s) is int and 0 <= s < len(PLAYERS) else dict(a)

    def cannot_fire(self) -> dict[str, str]:
        """The rules of the run's statistics that can never fire under this ruleset, each with the reason."""
        prog = self.rs.compiled
        effects: dict[str, list[Effect]] = {}
        at_start: set[str] = set()
        for on, trigger in prog.triggers.items():
            for e in trigger.effects:
                effects.setdefault(e.rule_id, []).append(e)
                if on == "start":
                    at_start.add(e.rule_id)
        guards: dict[str, list[bool]] = {}
        for action in prog.actions.values():
            for g in action.guards:
                guards.setdefault(g.clause.rule_id, []).append(g.dead)
        # The phases some live clause can enter: a phase no compiled effect names (its condition folded away
        # under the parameters) is never reached, nor the actions of it.
        named = {r: {c for e in es for c in _constants(e.fn.__code__) if isinstance(c, str)}
                 for r, es in effects.items()}
        start = set(self.rs.program.phases[:1])
        used = {d for es in effects.values() for e in es for d in e.deps} | \
            {d for action in prog.actions.values() for g in action.guards for d in g.deps}
        out: dict[str, str] = {}
        for r in self.stats():
            doc = self.rs.rules.get(r)
            own_actions = [a for a in self.rs.actions.values() if a.rule_id == r and not is_chance(a)]
            if doc is not None and doc.get("normative") is False:
                out[r] = "hints for play, not a rule of the game"
            elif r not in self.rs.logic_rules:
                out[r] = "no clause of its own: what it declares is read by the other rules"
            elif set(effects.get(r, [])) and r in at_start and not guards.get(r) and not own_actions and all(
                    e in prog.triggers["start"].effects for e in effects[r]):
                out[r] = "its clauses run once, when a game is set up, before any deal is compared"
            elif not effects.get(r) and not guards.get(r) and not own_actions and r not in used:
                out[r] = "no clause of its own, and no clause of this ruleset uses its definitions"
            elif own_actions and not any(a.phase in start or any(a.phase in ns for o, ns in named.items() if o != r)
                                         for a in own_actions):
                out[r] = f"its moves belong to phase {own_actions[0].phase}, which this ruleset never enters"
            elif not own_actions and (effects.get(r) or guards.get(r)) and all(guards.get(r, [True])) and \
                    not any(_does_something(e) for e in effects.get(r, [])):
                out[r] = "under this ruleset's parameters its clauses fold away: nothing to forbid or change"
        return out

    def stats(self) -> dict[str, tuple[int, int]]:
        formal = sorted(r for r in self.rs.rules if r in self.rs.logic_rules or self.rs.rules[r].get("params"))
        return {r: (self.rule_counts.ran[r], self.rule_counts.fired[r]) for r in formal}


def _constants(code: Any) -> list[Any]:
    """The constants of a compiled clause, nested functions' (comprehensions) included."""
    out: list[Any] = []
    for c in code.co_consts:
        out.extend(_constants(c) if hasattr(c, "co_consts") else [c])
    return out


def _does_something(e: Effect) -> bool:
    """Whether a compiled effect can change the game: a clause whose every branch that changes something
    folded away under the parameters changes no variable the compiler can name (a loop over the seats may
    be left, doing nothing)."""
    return e.changes is None or bool(e.changes)


def _by_hint(game: Game, legal: list[Action]) -> list[Action]:
    return sorted(legal, key=game.hint, reverse=True)


# An action's text for comparing the two sides: json.dumps(v, sort_keys=True), less the making of an
# encoder at each call (every legal action of every step is keyed, on both sides).
_canonical = json.JSONEncoder(sort_keys=True).encode


# The keys of actions a harness keeps (see Harness._key): far more than a ruleset's actions in a game.
_KEYS_KEPT = 100_000


def _kept_key(kept: dict[tuple[Any, ...], str], memo: tuple[Any, ...],
              protocol_form: Callable[[], dict[str, Any]]) -> str:
    """An action's key (its protocol form, case-folded, as canonical JSON), kept in ``kept`` under ``memo``
    (at most _KEYS_KEPT of them); a memo holding a list, which cannot be a key, is worked out each time."""
    try:
        found = kept.get(memo)
    except TypeError:
        return _canonical(_norm(protocol_form()))
    if found is None:
        found = _canonical(_norm(protocol_form()))
        if len(kept) >= _KEYS_KEPT:
            kept.clear()
        kept[memo] = found
    return found


def _norm(v: Any) -> Any:
    """Card names and the like compare case-insensitively."""
    if isinstance(v, str):
        return v.upper()
    if isinstance(v, list):
        return [_norm(x) for x in v]
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    return v


def _differences(wrong: dict[str, tuple[Any, Any]]) -> tuple[int, ...]:
    """By how much the engine's numbers differ from the rules' (a marriage worth 20 more, a penalty 10 less)."""
    out: set[int] = set()
    for got, want in wrong.values():
        pairs = zip(got, want, strict=False) if isinstance(got, list) and isinstance(want, list) else [(got, want)]
        out |= {abs(g - w) for g, w in pairs if type(g) is int and type(w) is int and g != w}
    return tuple(sorted(out))


def _snapshot(rec: Recorder) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps({k: v for k, v in rec.record.items()}))
    for d in out.get("deals", []):
        d.pop("result", None)
    return out


def round_seed(seed: int, round_no: int) -> int:
    """The seed of one round: hashed from the run's seed and the round's number, so that runs with
    neighbouring seeds share no round."""
    digest = hashlib.sha256(f"thousand-conform:{seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def run_conformance(engine: EngineAdapter, ruleset: str = "classic", examples: int = EXAMPLES, seed: int = 0,
                    max_deals: int = MAX_DEALS, out_dir: Path | None = None, rounds: int | None = None,
                    shrink_seconds: float = 10.0, on_progress: Callable[[str], None] | None = None, *,
                    shrink_examples: int | None = None,
                    time_limit: float | None = None, max_disagreements: int = MAX_DISAGREEMENTS,
                    overlays: list[str] | None = None, params: dict[str, Any] | None = None,
                    round_examples: int = ROUND_EXAMPLES, exclude: list[str] | None = None) -> Report:
    """Drive ``engine`` and the oracle through generated games; return every root cause of disagreement.

    The run ends when ``examples`` games have been generated, when ``time_limit`` seconds have
    passed, when ``max_disagreements`` root causes are found, or after ``rounds`` rounds; the
    report says which. Shrinking a disagreement is given ``shrink_seconds`` and at most ``shrink_examples``
    games (a budget by count makes the counterexample the same on a fast machine and a busy one).
    A cause whose key (or deciding parameter, or rule) is in ``exclude`` is skipped and counted.
    """
    excluded = set(exclude or [])
    report = Report(engine.name, ruleset, seed=seed)
    began = time.monotonic()
    try:
        h = Harness(engine, ruleset, max_deals=max_deals, overlays=overlays, params=params)
    except EngineFailure as exc:
        report.failure = exc
        report.stop = f"the engine failed ({exc.kind})"
        report.seconds = time.monotonic() - began
        return report
    report.declared = {k: h.capabilities[k] for k in ("not_supported", "projection") if h.capabilities.get(k)}
    deadline = began + time_limit if time_limit is not None else None
    groups: dict[str, Disagreement] = {}
    report.exclude = sorted(excluded)
    round_no = 0
    while True:
        if report.examples >= examples:
            report.stop = f"the budget of {examples} examples was spent"
            break
        if deadline is not None and time.monotonic() >= deadline:
            report.stop = f"the time budget of {time_limit:g} s was spent"
            break
        if len(report.disagreements) >= max_disagreements:
            report.stop = f"the cap of {max_disagreements} root causes was reached"
            break
        if rounds is not None and round_no >= rounds:
            report.stop = f"the cap of {rounds} round(s) was reached"
            break
        budget = min(round_examples, examples - report.examples)
        try:
            found = _one_round(h, report, budget, round_seed(seed, round_no), shrink_seconds, deadline,
                               shrink_examples)
        except EngineFailure as exc:
            report.failure = exc
            report.stop = f"the engine failed ({exc.kind})"
            break
        finally:
            round_no += 1
        if on_progress is not None:
            on_progress(f"round {round_no}: {report.examples} examples so far, "
                        f"{len(report.disagreements)} root cause(s)")
        if not found:
            continue  # an empty round: the next one has another seed
        # A game that shows the disagreement with no known one before it proves it is not their echo:
        # such a counterexample is preferred to a smaller one that follows a known difference.
        d = min(found, key=lambda x: (x.after is not None, _size(x)))
        h.known.add(d.signature)
        h.counts[d.signature] += 1
        if d.probe is not None:
            d.decided_by = h.decisions.deciding(d.probe)
        if d.keys() & excluded:
            report.excluded.append(d)  # a cause the author already knows: skipped from now on, and counted
            groups[d.signature] = d
            if on_progress is not None:
                on_progress(f"excluded: {d.key} ({d.kind} [{d.rule}])")
            continue
        parent = groups.get(d.after) if d.after else None
        if parent is not None:
            d.relation = "after"  # seen after a known difference in the same game: filed under it
        else:
            # One cause when one decision explains both: a parameter whose other value gives what the
            # engine did in both games, or, where no parameter does, the same rule blamed. Sharing a
            # parameter or a rule on the way (a penalty unit, a definition) is no reason.
            parent = next((x for x in groups.values() if x not in report.excluded and _same_decision(x, d)), None)
            if parent is not None:
                d.relation = "same decision"
        _write(d, out_dir, len(groups) + 1)
        groups[d.signature] = d
        if parent is not None:
            while parent.relation and parent.after in groups:
                parent = groups[parent.after]
            root = next((r for r in report.disagreements if r is parent or parent in _family(r)), parent)
            root.consequences.append(d)
            if d.relation == "same decision" and d.decided_by:
                # What decides them all is what explains every difference filed together: a parameter
                # that explains one game but not the other (a cap that any marriage lifts, where the
                # marriage's worth also shows in the score) is not their cause.
                for x in (root, parent):
                    x.decided_by = [p for p in x.decided_by if p in d.decided_by] or x.decided_by
        else:
            report.disagreements.append(d)
        if on_progress is not None:
            on_progress(f"found: {d.kind} [{d.rule}] {d.detail}")
    for sig, d in groups.items():
        d.count = max(1, h.counts[sig])
    report.rounds = round_no
    report.seconds = time.monotonic() - began
    report.actions_compared = h.compared
    report.actions_applied = h.applied
    report.resumed = h.resumed
    report.cannot_fire = h.cannot_fire()
    report.checks = h.stats()
    report.masked = {r: dict(sorted(by.items())) for r, by in sorted(h.masked.items())}
    report.compared = h.compared_sections()
    report.coverage = {r: f for r, (_, f) in report.checks.items()}
    return report


def _same_decision(a: Disagreement, b: Disagreement) -> bool:
    if a.decided_by and b.decided_by:
        return bool(set(a.decided_by) & set(b.decided_by))
    return a.rule == b.rule


def _family(d: Disagreement) -> list[Disagreement]:
    return [x for c in d.consequences for x in (c, *_family(c))]


def _write(d: Disagreement, out_dir: Path | None, number: int) -> None:
    if out_dir is None or d.record is None:
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"counterexample-{number}-{d.kind}.json"
    body = {k: v for k, v in d.record.items() if k != "_file"}
    body.pop("result", None)
    path.write_text(dumps(body), encoding="utf-8")
    d.record["_file"] = str(path)


@st.composite
def _played(draw: st.DrawFn, h: Harness) -> None:
    """One generated game, played as it is drawn.

    Inside a strategy, each choice is a plain draw: ``DataObject.draw`` also checks the global random
    state around every draw (two copies of it): three quarters of a draw, a fifth of a run. The choices
    are the same either way (on the twelve mutants: the same disagreements and counterexamples)."""
    h.play(draw)


def _one_round(h: Harness, report: Report, examples: int, seed: int, shrink_seconds: float,
               deadline: float | None, shrink_examples: int | None = None) -> list[Disagreement]:
    """One Hypothesis run: every disagreement seen while generating and shrinking (the smallest is kept)."""
    found: list[Disagreement] = []
    first: list[float] = []
    broken: list[EngineFailure] = []
    crashed: list[Exception] = []
    generated = [0]
    shrunk = [0]  # examples tried while shrinking: a budget by count gives the same result on any machine

    @hseed(seed)
    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate, Phase.shrink], report_multiple_bugs=False)
    @given(st.data())
    def prop(data: st.DataObject) -> None:
        spent = first and (time.monotonic() - first[0] > shrink_seconds
                           or (shrink_examples is not None and shrunk[0] >= shrink_examples))
        if broken or crashed or spent or (not first and (
                generated[0] >= examples or (deadline is not None and time.monotonic() >= deadline))):
            # The engine is broken, the shrinking budget is spent, or the run's time is up: let the rest
            # pass; the caller keeps the engine failure or the smallest disagreement.
            return
        h.counting = not first
        h.ex = None
        if first:
            report.shrink_examples += 1
            shrunk[0] += 1
        else:
            report.examples += 1
            generated[0] += 1
        try:
            data.draw(_played(h))
        except _Known:
            pass
        except EngineFailure as exc:
            broken.append(exc)
            return
        except _Found as f:
            if not first:
                first.append(time.monotonic())
            found.append(f.d)
            raise
        except HypothesisException:
            raise
        except Exception as exc:  # a bug of the oracle or of the rules: never mistaken for agreement
            crashed.append(exc)
            return
        finally:
            if h.counting and h.ex is not None:
                h.counts.update(h.ex.known)

    try:
        prop()
    except Exception:  # _Found, or Hypothesis noticing that the budget cut made the failure flaky
        pass
    h.counting = True
    if broken:
        raise broken[0]
    if crashed:
        raise crashed[0]
    return found


def _size(d: Disagreement) -> tuple[int, int, int]:
    rec = d.record or {}
    deals = rec.get("deals", [])
    start = (rec.get("start") or {}).get("state") or {}
    return len(deals), sum(len(x.get("actions", [])) for x in deals), sum(1 for v in start.values() for x in v if x)


__all__ = ["Disagreement", "Harness", "Report", "round_seed", "run_conformance"]
