"""The reference interpreter: legal actions, applying actions, scores.

It runs a compiled ruleset. It knows seats, cards, zones, phases and turns in
general terms: an action belongs to a phase, is taken by the seat on turn (or the
dealer, or any seat), has a typed payload whose choices and guards come from the
rules, and its effects are rule logic. Events (``start``, ``enter <phase>``)
run rule logic when the game starts or the phase changes.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import notation
from .errors import OracleError, RuleRuntimeError
from .lang import types as T
from .lang.program import GUARD_LINE, ActionDecl, Clause, CompiledAction, Effect, Guard, Trigger, payload_checker
from .places import seat as seat_words
from .ruleset import Ruleset, load_ruleset
from .runs import EntryShape, QuickAction, Run, build_run_factory
from .state import Position, State

MAX_EVENT_CHAIN = 64


class Action:
    """One action: its kind, the seat taking it, and its payload (field -> value). Immutable and hashable:
    the payload is a read-only view of the action's own copy of the fields given.

    Written out rather than a frozen dataclass: the dataclass's way of setting fields on a frozen object
    cost twice as much, and legal-action lists make many.
    """

    __slots__ = ("kind", "payload", "seat")
    kind: str
    seat: int
    payload: Mapping[str, Any]

    def __init__(self, kind: str, seat: int, payload: Mapping[str, Any] | None = None) -> None:
        _set_kind(self, kind)
        _set_seat(self, seat)
        # Anything but a mapping is kept as it is, for the check to refuse it by name ("bad-payload").
        _set_payload(self, _EMPTY if not payload else
                     MappingProxyType(dict(payload)) if isinstance(payload, Mapping) else payload)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an Action cannot be changed (its {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Action cannot be changed (its {name!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Action:
            return NotImplemented
        assert isinstance(other, Action)
        return (self.kind, self.seat, self.payload) == (other.kind, other.seat, other.payload)

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Action(kind={self.kind!r}, seat={self.seat!r}, payload={dict(self.payload)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.kind, self.seat, dict(self.payload)))

    def key(self) -> tuple[Any, ...]:
        return (self.kind, self.seat, tuple(sorted((k, _freeze(v)) for k, v in self.payload.items())))


_EMPTY: Mapping[str, Any] = MappingProxyType({})


# The slots' own setters: the one way to fill an Action, used by its constructor only. mypy reads
# ``Action.kind`` as the class-level ``str`` the annotation declares, not as the slot's descriptor it is.
_set_kind: Callable[[Action, str], None] = Action.kind.__set__  # type: ignore[attr-defined, misc]
_set_seat: Callable[[Action, int], None] = Action.seat.__set__  # type: ignore[attr-defined, misc]
_set_payload: Callable[[Action, Mapping[str, Any]], None] = Action.payload.__set__  # type: ignore[attr-defined, misc]


def _freeze(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


@dataclass(frozen=True)
class Rejection:
    rule_id: str
    reason: str
    message: str
    sources: tuple[tuple[str, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule_id, "reason": self.reason, "message": self.message,
                "sources": [{"seed": s, "lines": [a, b]} for s, a, b in self.sources]}


class IllegalAction(OracleError):
    def __init__(self, rejection: Rejection) -> None:
        super().__init__(f"{rejection.reason}: {rejection.message} (rule {rejection.rule_id})")
        self.rejection = rejection


# Called after each effect a traced game runs: (the effect, the state before it pickled, the state
# now). It may hand back the state now pickled (pickle.dumps(state, 5)) when it made those bytes and
# left the state as it was, which saves the next effect a pickling; NO_STATE when it keeps what it
# needs itself and does not read the state before, from then on (the game's next effects get NO_STATE,
# in this trigger and the next ones); or None.
Tracer = Callable[[Effect, bytes, dict[str, Any]], bytes | None]
NO_STATE = b""


def _what_it_may_change(v: dict[str, Any], names: tuple[str, ...] | None) -> bytes:
    """The values of the variables an effect may change (the whole state when it cannot say), pickled, not
    copied: equal bytes are equal values, however deep the lists are nested."""
    if names is None:
        return pickle.dumps(v, 5)
    return pickle.dumps([v[n] for n in names], 5) if names else b""


class EffectCounter:
    """A game's other kind of tracer: told after each effect only whether it changed the game, which the
    game finds by comparing just the variables the effect may change (``Effect.changes``) before and after,
    not the whole state. Rule coverage counts with one."""

    def effect_ran(self, effect: Effect, changed: bool) -> None:
        raise NotImplementedError

    def tally(self, trigger: Trigger) -> list[int] | None:
        """Where a run of ``trigger`` counts, instead of an :meth:`effect_ran` call per effect: a list of a
        count per effect and one more, to which the trigger's compiled counting code adds one for each effect
        that changed the game and one for the run (``Ruleset.analysis``). None: tell me effect by effect.
        The same list every time for one trigger: a replay looks it up once per action."""
        return None


class VariableWatcher:
    """A tracer that follows a few state variables (``watched``) and nothing else: called after each effect
    as a :data:`Tracer` is, but only in a trigger one of whose effects may change a watched variable (by the
    compiler's ``Effect.changes``; an effect it cannot tell about counts as one that may). Any other trigger,
    and any action whose own effects are such, runs at full speed, untraced, and the watcher is told once
    that it ran (:meth:`passed`). Blame follows one value through a deal this way: the rules of play that
    never touch a score cost what they cost in a plain replay."""

    def __init__(self, watched: Collection[str], seen: dict[Trigger, bool] | None = None) -> None:
        self.watched = frozenset(watched)
        # Whether each trigger may change a watched variable; ``seen`` shares the answers between the
        # watchers of the same variables in one ruleset (blame makes a watcher per deal it explains).
        self._sees: dict[Trigger, bool] = {} if seen is None else seen
        # Set by the watcher once it wants to hear of nothing more: the game runs untraced from then on.
        self.done = False

    def __call__(self, effect: Effect, before: bytes, after: dict[str, Any]) -> bytes | None:
        """Told after each effect of a trigger it sees, as a :data:`Tracer`, but never of the state before
        (``before`` is NO_STATE): a watcher keeps the few values it follows itself."""
        raise NotImplementedError

    def passed(self, after: dict[str, Any]) -> None:
        """Effects that change none of the watched variables ran, untraced; ``after`` is the state now."""

    def sees(self, trigger: Trigger | None) -> bool:
        """Whether an effect of ``trigger`` may change a watched variable (so it runs traced)."""
        if trigger is None or self.done:
            return False
        seen = self._sees.get(trigger)
        if seen is None:
            seen = self._sees[trigger] = any(e.changes is None or not self.watched.isdisjoint(e.changes)
                                             for e in trigger.effects)
        return seen


class PositionError(OracleError):
    """A stated starting position is not one of the ruleset's: ``var`` names the variable at fault and
    ``index`` the seat whose value is wrong, when one is."""

    def __init__(self, message: str, var: str, index: int | None = None) -> None:
        super().__init__(message)
        self.var = var
        self.index = index


class Game:
    """One game under one ruleset.

    A game's position is a value: :meth:`snapshot` takes it, :meth:`restore` goes back to it, :meth:`fork`
    and :meth:`at` make another game from it. Nothing outside sets a game's variables: a game starts from
    the rules' own start (``values`` may state some per-player scores of the position it starts from) or
    from a position.
    """

    def __init__(self, rs: Ruleset | str = "classic", players: int | None = None, dealer: int = 0,
                 seed: int | None = None, *, values: Mapping[str, Sequence[Any]] | None = None,
                 tracer: Tracer | EffectCounter | None = None) -> None:
        self._bind(load_ruleset(rs) if isinstance(rs, str) else rs, tracer)
        n = players if players is not None else self.rs.players
        if n != self.rs.players:
            raise OracleError(f"ruleset {self.rs.name!r} is for {self.rs.players} players, not {n}")
        if not 0 <= dealer < n:
            raise OracleError(f"first dealer must be a seat from 0 to {n - 1}, not {dealer}")
        self.st = State(self.rs, n, dealer, seed)
        self._fire("start")
        self._settle(None)
        if values:
            self._state_values(values)

    def _bind(self, rs: Ruleset, tracer: Tracer | EffectCounter | None) -> None:
        self.rs = rs
        self.c = rs.compiled
        self._quick = rs.derived(_quick_steps)
        self._chances = rs.derived(_chance_actions)
        # When set, called after each effect with (the effect, the state before pickled, the state
        # now): used to find the rule that decided a result, and for rule coverage. Off in normal play.
        self.tracer = tracer
        # The tracer that said it reads no state before (it handed back NO_STATE), by identity: the
        # game stops pickling the state for it at each trigger.
        self._blind: Tracer | None = None

    def _state_values(self, values: Mapping[str, Sequence[Any]]) -> None:
        """Set the stated per-player game variables of the starting position, each checked: a variable the
        rules carry from deal to deal (not cards), one value per seat, each of the variable's type."""
        v = self.st.v
        n = v["n_seats"]
        checks = self.rs.derived(_start_value_checks)
        for name, given in values.items():
            ok = checks.get(name)
            if ok is None:
                raise PositionError(f"{name!r} is not a per-player game variable of ruleset {self.rs.name!r}", name)
            if not isinstance(given, (list, tuple)) or len(given) != n:
                raise PositionError(f"{name}: give one value per player ({n})", name)
            for i, x in enumerate(given):
                if not ok(x, n):
                    raise PositionError(f"{name}: {x!r} is not a {self.rs.vars[name].type}", name, i)
            teams = self.rs.teams
            if teams is not None and name in teams.sharing:
                for i in range(n):
                    first = teams.members(i)[0]
                    if given[i] != given[first]:
                        raise PositionError(f"{name}: seats {first} and {i} play in one team, which holds one "
                                            f"{name}; give them one value, not {given[first]!r} and {given[i]!r}",
                                            name, i)
            v[name] = list(given)

    @classmethod
    def started(cls, rs: Ruleset, dealer: int) -> tuple[Game, Position]:
        """A game at the rules' own start with ``dealer`` dealing first (seed 0), and that position.

        The start logic runs once per ruleset and first dealer; every later game begins from the
        position it left, which a record's replay also keeps as its first deal's start.
        """
        starts = rs.derived(_start_positions)
        position = starts.get(dealer)
        if position is None:
            position = starts[dealer] = cls(rs, dealer=dealer, seed=0).snapshot()
        return cls.at(position), position

    @classmethod
    def at(cls, position: Position, tracer: Tracer | EffectCounter | None = None) -> Game:
        """A game in ``position`` (no start rule runs)."""
        game = cls.__new__(cls)
        game._bind(position.rules, tracer)
        game.st = State.at(position)
        return game

    def snapshot(self) -> Position:
        """The game's whole position now, as a frozen value."""
        return self.st.snapshot()

    def restore(self, position: Position) -> None:
        """Go back to ``position`` (of this game's ruleset); no rule runs."""
        if position.rules is not self.rs:
            raise OracleError(f"a position of ruleset {position.rules.name!r} cannot be restored in a game of "
                              f"{self.rs.name!r}")
        self.st = State.at(position)

    def fork(self, tracer: Tracer | EffectCounter | None = None) -> Game:
        """Another game in this game's position, to try something on; this one is left as it is."""
        return Game.at(self.snapshot(), tracer)

    # ------------------------------------------------------------------ queries
    @property
    def v(self) -> dict[str, Any]:
        return self.st.v

    @property
    def phase(self) -> str:
        phase: str = self.st.v["phase"]
        return phase

    @property
    def over(self) -> bool:
        return bool(self.st.v["game_over"])

    @property
    def sheet(self) -> list[dict[str, Any]]:
        return self.st.sheet

    def actors(self, a: ActionDecl) -> list[int]:
        v = self.st.v
        if a.actor == "turn":
            return [] if v["turn"] is None else [v["turn"]]
        if a.actor == "dealer":
            return [v["dealer"]]
        return list(v["seats"])

    def chance_action(self) -> ActionDecl | None:
        """The action the dealer draws at random in this phase, if any (the deal)."""
        if self.st.v["game_over"]:
            return None
        for a in self._chances.get(self.phase, ()):
            if self._available(a, self.actors(a)[0]):
                return a
        return None

    def _available(self, a: ActionDecl, seat: int | None) -> bool:
        when = self.c.actions[a.name].when
        if when is None:
            return True
        try:
            return bool(when(self.st, seat))
        except Exception as exc:
            raise self._runtime(a.rule_id, exc, seat=seat) from None

    def hint(self, action: Action) -> int:
        """The rules' play hint for ``action`` (higher is a better move for a simple bot); 0 without one."""
        return self._hint(action.kind, action.seat, action.payload)

    def _hint(self, kind: str, seat: int, payload: Mapping[str, Any]) -> int:
        """:meth:`hint` of an action given by its parts."""
        fn = self.c.actions[kind].hint
        if fn is None:
            return 0
        try:
            return int(fn(self.st, seat, payload))
        except Exception as exc:
            raise self._runtime(self.rs.actions[kind].rule_id, exc, seat=seat) from None

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action now, for one seat or for all; chance actions are not listed."""
        return [Action(*parts) for parts in self.legal_parts(seat)]

    def legal_parts(self, seat: int | None = None) -> list[tuple[str, int, dict[str, Any]]]:
        """:meth:`legal_actions` as their parts (kind, seat, payload), no Action made: for the bots' own play,
        which makes an Action of the one move chosen only, and for what a violation says was allowed."""
        v = self.st.v
        if v["game_over"]:
            return []
        return [(ca.decl.name, s, p) for ca in self.c.by_phase.get(v["phase"], ()) if not ca.decl.chance
                for s in self.actors(ca.decl) if seat is None or s == seat for p in self._legal_payloads(ca, s)]

    def legal_payloads(self, kind: str) -> list[dict[str, Any]]:
        """The payloads of the legal actions of one kind now, of every seat that may take it: what
        :meth:`legal_actions` lists of that kind, without making an action of each."""
        ca = self.c.actions[kind]
        a = ca.decl
        if self.st.v["game_over"] or a.phase != self.st.v["phase"] or a.chance:
            return []
        return [p for s in self.actors(a) for p in self._legal_payloads(ca, s)]

    def _legal_payloads(self, ca: CompiledAction, seat: int) -> list[dict[str, Any]]:
        a = ca.decl
        if ca.when is not None and not self._available(a, seat):
            return []
        try:
            payloads: list[dict[str, Any]] = ca.legal(self.st, seat)
        except Exception as exc:
            raise self._runtime(a.rule_id, exc, self._failed_guard(ca.legal, exc, ca.guards), seat) from None
        return payloads

    def sample(self, decl: ActionDecl | None = None) -> Action:
        """Draw the chance action (the deal) with the game's seeded generator."""
        decl = decl or self.chance_action()
        if decl is None:
            raise OracleError(f"no chance action in phase {self.phase!r}")
        draw = self.c.actions[decl.name].sample
        if draw is None:
            raise OracleError(f"action {decl.name!r} is not a chance action: it has no sample to draw")
        seat = self.actors(decl)[0]
        try:
            payload = draw(self.st, seat)
        except Exception as exc:
            raise self._runtime(decl.rule_id, exc, seat=seat) from None
        return Action(decl.name, seat, payload)

    # ------------------------------------------------------------------ checking
    def check(self, action: Action, typed: bool = False) -> Rejection | None:
        """Why ``action`` is illegal now, or None if it is legal.

        ``typed`` says the payload was built by a reader that already checked every
        field's type (the record reader does), so only the rules are asked.
        """
        rs, st = self.rs, self.st
        v = st.v
        # Refusals before any guard is asked name the rule that made the situation: the one that
        # ended the game, moved it into this phase, or gave the turn (or the deal) to another seat.
        by = st.set_by
        phase_rule = rs.program.phase_rule.get(v["phase"], "")
        if v["game_over"]:
            return self._reject(by.get("game_over", phase_rule), "game-over", "the game is over")
        decl = rs.actions.get(action.kind)
        if decl is None:
            known = ", ".join(sorted(rs.actions))
            return self._reject(phase_rule, "unknown-action",
                                f"no action {action.kind!r} in ruleset {rs.name!r}; known: {known}")
        if decl.phase != v["phase"]:
            return self._reject(by.get("phase", decl.rule_id), "wrong-phase",
                                f"{action.kind!r} belongs to phase {decl.phase!r}, "
                                f"but the game is in phase {v['phase']!r}")
        mode = decl.actor
        seat_ok = (action.seat == v["turn"] if mode == "turn" else action.seat == v["dealer"] if mode == "dealer"
                   else 0 <= action.seat < v["n_seats"])
        if not seat_ok:
            who = self.actors(decl)
            setter = by.get("turn" if mode == "turn" else "dealer", decl.rule_id) if mode != "any" else decl.rule_id
            return self._reject(setter, "not-your-turn", f"{seat_words(action.seat)} cannot {action.kind} now"
                                + (f"; {seat_words(who[0])} is to act" if len(who) == 1 else ""))
        ca = self.c.actions[decl.name]
        if ca.when is not None and not self._available(decl, action.seat):
            return self._reject(decl.rule_id, "not-now", f"{action.kind!r} is not possible at this point")
        problem = None if typed else self._payload_problem(decl, action.payload)
        if problem:
            return self._reject(decl.rule_id, "bad-payload", problem)
        # The rules' own guards speak first, so a rejection names the specific rule;
        # the choices of the action are the last line of defence.
        try:
            i = ca.check(st, action.seat, action.payload)
        except Exception as exc:
            raise self._runtime(decl.rule_id, exc, self._failed_guard(ca.check, exc, ca.guards), action.seat) from None
        if i == -1:
            return None
        if i >= 0:
            g = ca.guards[i].clause
            return self._reject(g.rule_id, g.reason or "forbidden", g.message or self._title(g.rule_id))
        fname = ca.domains[-2 - i][0]  # -2 - j: the j-th field is not among its choices
        return self._reject(decl.rule_id, "not-available",
                            f"{fname} {self._show(action.payload[fname], dict(decl.fields)[fname])} "
                            "is not among the choices now")

    def refusals(self, action: Action) -> list[str]:
        """The rules of every guard that forbids ``action`` now, in the order they are asked (the first is
        the one :meth:`check` names); empty when no guard does (the action may still be refused before the
        guards: out of turn, in another phase). The payload must be well typed."""
        return self.refusals_of(action.kind, action.seat, action.payload)

    def refusals_of(self, kind: str, seat: int, payload: Mapping[str, Any]) -> list[str]:
        """:meth:`refusals` of an action given by its parts."""
        ca = self.c.actions.get(kind)
        if ca is None or ca.decl.phase != self.st.v["phase"]:
            return []
        refusers = self.rs.analysis.refusers[kind]  # compiled the first time a refusal is asked about
        try:
            found = refusers(self.st, seat, payload)
        except Exception:
            return []  # what the guards share raised: check words that error
        return [ca.guards[i].clause.rule_id for i in found if i >= 0]  # -1 - i: guard i raised

    def apply(self, action: Action, typed: bool = False) -> None:
        """Apply a legal action; raise IllegalAction with the rule that forbids it otherwise. ``typed`` as in
        :meth:`try_apply`."""
        rej = self.try_apply(action, typed)
        if rej is not None:
            raise IllegalAction(rej)

    def try_apply(self, action: Action, typed: bool = False) -> Rejection | None:
        """Check once, and apply if legal: the rejection, or None when the action was applied."""
        if not typed:
            quick = self._quick.get(action.kind)
            if quick is None or self._payload_problem(quick.decl, action.payload) is not None:
                rej = self.check(action)  # no quick step, or a payload of the wrong types: the check words it
                if rej is None:
                    self._run(action)
                return rej
        return self.try_apply_typed(action.kind, action.seat, action.payload, action)

    def try_apply_typed(self, kind: str, seat: int, payload: Mapping[str, Any],
                        action: Action | None = None) -> Rejection | None:
        """:meth:`try_apply` for an action given by its parts, its payload already of the right types
        (as a record's reader builds it): the rejection, or None when it was applied.

        The common case takes one call of the action's compiled step and makes no :class:`Action`: a
        payload for the seat on turn, of an action of this phase with no 'when', that no guard forbids.
        Anything else goes the careful way (check, then the effects), which also words the rejection.
        """
        st = self.st
        v = st.v
        quick = self._quick.get(kind)
        tracer = self.tracer
        tally = None
        counted = None
        if quick is not None and tracer is not None and quick.trigger is not None and isinstance(tracer, EffectCounter):
            tally = tracer.tally(quick.trigger)  # a counter that tallies takes the counted step
            if tally is not None:
                counted = self.rs.analysis.steps.get(kind)
        # A watcher that cannot see this action's effects lets it take the quick step, told afterwards.
        passing = (tracer if tracer is not None and quick is not None and isinstance(tracer, VariableWatcher)
                   and not tracer.sees(quick.trigger) else None)
        if (quick is None or (tracer is not None and counted is None and passing is None) or quick.phase != v["phase"]
                or v["game_over"] or seat != v[quick.actor_var]):
            if action is None:
                action = Action(kind, seat, payload)
            rej = self.check(action, True)
            if rej is None:
                self._run(action)
            return rej
        before = quick.phase
        step = quick.step if counted is None else counted
        try:
            i = step(st, seat, payload) if counted is None else counted(st, seat, payload, tally)
        except Exception as exc:
            raise self._step_failed(step, exc, kind, quick.decl.rule_id, seat) from None
        if i != -1:  # refused before any effect ran: say why, the careful way
            return self.check(action if action is not None else Action(kind, seat, payload), True)
        if passing is not None:
            passing.passed(v)
        if v["phase"] != before:
            self._settle(before)
        return None

    def stepper(self) -> Callable[[str, int, Mapping[str, Any]], Rejection | None]:
        """:meth:`try_apply_typed` as one function for a run of actions, with what it looks up bound once:
        valid while the game is not restored nor its tracer changed (a record's replay of one deal). For a
        counter that tallies (rule coverage), each action's counted step and its tally, looked up the first
        time the action comes (a counter keeps a trigger's tally for good); for a :class:`VariableWatcher`
        (blame), the quick step of each action whose effects it cannot see, told afterwards."""
        slow = self.try_apply_typed
        tracer = self.tracer
        counter = tracer if isinstance(tracer, EffectCounter) else None
        watcher = tracer if isinstance(tracer, VariableWatcher) else None
        if tracer is not None and counter is None and watcher is None:
            return slow
        st = self.st
        v = st.v
        quick_of = self._quick
        settle = self._settle
        bound: dict[str, tuple[_QuickStep, Callable[..., int], list[int] | None] | None] = {}

        def bind(kind: str) -> tuple[_QuickStep, Callable[..., int], list[int] | None] | None:
            quick = quick_of.get(kind)
            if quick is None or tracer is None:
                return None if quick is None else (quick, quick.step, None)
            if watcher is not None:
                # An action whose effects the watcher cannot see never comes to be seen (a watcher only
                # ever stops looking), so it is bound to its quick step for good; the others go the way
                # try_apply_typed takes, which asks again each time.
                return None if watcher.sees(quick.trigger) else (quick, quick.step, None)
            assert counter is not None
            tally = counter.tally(quick.trigger) if quick.trigger is not None else None
            fn = self.rs.analysis.steps.get(kind) if tally is not None else None
            return None if fn is None else (quick, fn, tally)

        def step(kind: str, seat: int, payload: Mapping[str, Any]) -> Rejection | None:
            try:
                found = bound[kind]
            except KeyError:
                found = bound[kind] = bind(kind)
            if found is None:
                return slow(kind, seat, payload)
            quick, fn, tally = found
            if quick.phase != v["phase"] or v["game_over"] or seat != v[quick.actor_var]:
                return slow(kind, seat, payload)
            try:
                i = fn(st, seat, payload) if tally is None else fn(st, seat, payload, tally)
            except Exception as exc:
                raise self._step_failed(fn, exc, kind, quick.decl.rule_id, seat) from None
            if i != -1:  # refused before any effect ran: say why, the careful way
                return self.check(Action(kind, seat, payload), True)
            if watcher is not None:
                watcher.passed(v)
            if v["phase"] != quick.phase:
                settle(quick.phase)
            return None

        return step

    def runner(self, shape: EntryShape, seat_of: Mapping[Any, int], cards: Mapping[str, int]) -> Run | None:
        """:meth:`stepper` for whole runs of actions written as mappings of ``shape`` (see :mod:`.runs`):
        a function that applies entries from an index on, in one generated loop, and gives the index of
        the first it did not apply, for the careful path. ``seat_of`` maps the players' names and the
        seat numbers to seats, ``cards`` the notation's spellings to cards. Valid while the game is not
        restored; None when a tracer watches the game (each action is then traced the careful way)."""
        if self.tracer is not None:
            return None
        factories = self.rs.derived(_run_factories)
        make = factories.get(shape)
        if make is None:
            quick = [QuickAction(q.decl.name, q.decl.rule_id, q.phase, q.actor_var, q.step)
                     for q in self._quick.values()]
            make = factories[shape] = build_run_factory(quick, shape)
        return make(self.st, self.st.sheet, seat_of, cards, self._settle, self._step_failed)

    def _step_failed(self, step: Callable[..., Any], exc: Exception, kind: str, rule_id: str,
                     seat: int) -> RuleRuntimeError:
        """An action's compiled step raised: charged to the effect clause or guard on the failing line, else
        to the action's own rule."""
        clause = self._failed_clause(step, exc, kind) or self._failed_guard(step, exc, self.c.actions[kind].guards)
        return self._runtime(rule_id, exc, clause, seat)

    def _run(self, action: Action) -> None:
        v = self.st.v
        before = v["phase"]
        self._fire(action.kind, action)
        if v["phase"] != before:  # most actions stay in their phase
            self._settle(before)

    # ------------------------------------------------------------------ internals
    def _fire(self, on: str, action: Action | None = None) -> None:
        trigger = self.c.triggers.get(on)
        if trigger is None:
            return
        effects = trigger.effects
        st = self.st
        seat = action.seat if action else None
        payload = action.payload if action else None
        tracer = self.tracer
        passing = tracer if isinstance(tracer, VariableWatcher) and not tracer.sees(trigger) else None
        if tracer is None or passing is not None:
            # All of this trigger's clauses in one call; a failure is charged by its line number.
            try:
                trigger.run(st, seat, payload)
            except Exception as exc:
                clause = self._failed_clause(trigger.run, exc, on)
                raise self._runtime(effects[-1].rule_id, exc, clause, seat) from None
            if passing is not None:
                passing.passed(st.v)
            return
        if isinstance(tracer, EffectCounter):
            tally = tracer.tally(trigger)
            if tally is None:
                self._fire_counted(effects, tracer, seat, payload)
                return
            counted = self.rs.analysis.triggers[on]
            try:
                counted(st, seat, payload, tally)
            except Exception as exc:
                clause = self._failed_clause(counted, exc, on)
                raise self._runtime(effects[-1].rule_id, exc, clause, seat) from None
            return
        # A watcher keeps what it follows itself: the whole state is never pickled for it.
        watching = isinstance(tracer, VariableWatcher)
        before: bytes | None = NO_STATE if watching or tracer is self._blind else None
        for effect in effects:
            if before is None:
                before = pickle.dumps(st.v, 5)
            try:
                effect.fn(st, seat, payload)
            except Exception as exc:
                raise self._runtime(effect.rule_id, exc, effect.clause, seat) from None
            # Nothing runs between two effects of a trigger: the state the tracer pickled after this
            # one, if it hands it back, is the next one's state before.
            said = tracer(effect, before, st.v)
            if watching:
                continue
            before = said
            if before is NO_STATE:
                self._blind = tracer

    def _fire_counted(self, effects: list[Effect], counter: EffectCounter, seat: int | None,
                      payload: Mapping[str, Any] | None) -> None:
        st = self.st
        for effect in effects:
            before = _what_it_may_change(st.v, effect.changes)
            try:
                effect.fn(st, seat, payload)
            except Exception as exc:
                raise self._runtime(effect.rule_id, exc, effect.clause, seat) from None
            counter.effect_ran(effect, before != _what_it_may_change(st.v, effect.changes))

    def _failed_clause(self, fn: Callable[..., Any], exc: Exception, on: str) -> Clause | None:
        """The effect clause that raised ``exc`` in fused code ``fn``: line i + 1 is effect clause i of
        trigger ``on``; None for a line past them (a step's own check)."""
        trigger = self.c.triggers.get(on)
        effects = trigger.effects if trigger is not None else []
        index = _failed_line(fn, exc) - 1
        return effects[index].clause if 0 <= index < len(effects) else None

    def _failed_guard(self, fn: Callable[..., Any], exc: Exception, guards: list[Guard]) -> Clause | None:
        """The guard clause that raised ``exc`` in an action's check, step or listing ``fn``: guard i's
        statements are on line GUARD_LINE + i; None for any other line (the action's own code)."""
        index = _failed_line(fn, exc) - GUARD_LINE
        return guards[index].clause if 0 <= index < len(guards) else None

    def _settle(self, before: str | None) -> None:
        # Entering a phase runs its 'enter' logic, which may move on to another phase.
        for _ in range(MAX_EVENT_CHAIN):
            now = self.st.v["phase"]
            if now == before:
                return
            before = now
            self._fire(f"enter {now}")
        raise RuleRuntimeError(f"phases keep changing without an action (last: {self.st.v['phase']!r}); "
                               "the rules loop")

    def _payload_problem(self, decl: ActionDecl, payload: Mapping[str, Any]) -> str | None:
        if type(payload) is not MappingProxyType and not isinstance(payload, Mapping):  # an Action's, at once
            return "the payload must be a mapping"
        checkers = self.c.actions[decl.name].checkers
        if len(payload) != len(checkers) or any(f not in payload for f in checkers):
            missing = [f for f in checkers if f not in payload]
            extra = [f for f in payload if f not in checkers]
            return "; ".join(x for x in ("missing " + ", ".join(missing) if missing else "",
                                         "unknown " + ", ".join(extra) if extra else "") if x)
        n = self.st.v["n_seats"]
        for f, ok in checkers.items():
            if not ok(payload[f], n):
                t = dict(decl.fields)[f]
                return f"{f} should be {t}, not {payload[f]!r}"
        return None

    def _show(self, value: Any, t: str) -> str:
        """A payload value as people write it: a card by the rules' notation, a seat by its number."""
        b = T.base(T.normalize(t))
        if value is None:
            return "none"
        item = T.list_elem(b)
        if item is not None and isinstance(value, list):
            return "[" + ", ".join(self._show(x, item) for x in value) + "]"
        try:
            named = notation(self.rs).named(value, b)
        except (IndexError, TypeError):
            named = None  # not a value of that type after all: shown as it is
        if named is not None:
            return named
        if b == "seat" and isinstance(value, int):
            return seat_words(value)
        return repr(value)

    def _title(self, rule_id: str) -> str:
        doc = self.rs.rules.get(rule_id)
        return str(doc.get("title")["en"]) if doc is not None else rule_id

    def _reject(self, rule_id: str, reason: str, message: str) -> Rejection:
        return Rejection(rule_id, reason, message, self.rs.derived(_source_lines).get(rule_id, ()))

    def _runtime(self, rule_id: str, exc: Exception, clause: Clause | None = None,
                 seat: int | None = None) -> RuleRuntimeError:
        """A rule's failure at run time, at its clause's own line when the clause is known, naming the
        ruleset, the deal and the seat acting, so that a ruleset that cannot be played says where."""
        doc = self.rs.rules.get(clause.rule_id if clause is not None else rule_id)
        where = clause.where if clause is not None else doc.location() if doc is not None else None
        what = f"clause {clause.ref} (rule {clause.rule_id})" if clause is not None else f"rule {rule_id}"
        at = f"ruleset {self.rs.name}, deal {self.st.v['deal_no'] + 1}" + (
            f", {seat_words(seat)}" if isinstance(seat, int) else "")
        return RuleRuntimeError(f"{at}: {what} failed while running: {type(exc).__name__}: {exc}", where)

    # ------------------------------------------------------------------ state
    def to_json(self) -> dict[str, Any]:
        return self.st.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any], rs: Ruleset | None = None) -> Game:
        rs = rs or load_ruleset(data["ruleset"])
        return cls.at(State.from_json(rs, data).snapshot())


@dataclass(frozen=True, slots=True)
class _QuickStep:
    """What the common case of an action needs, looked up once: its compiled step, its phase, and the
    engine variable that names the seat that acts (its turn, or the dealer)."""

    decl: ActionDecl
    step: Callable[..., int]
    phase: str
    actor_var: str
    trigger: Trigger | None  # the trigger its effects are counted in (Ruleset.analysis)


def _chance_actions(rs: Ruleset) -> dict[str, list[ActionDecl]]:
    """Each phase's actions drawn at random by the rules (the deal), looked up once: a replay asks at every
    change of phase, and most phases have none."""
    out: dict[str, list[ActionDecl]] = {}
    for phase, actions in rs.compiled.by_phase.items():
        drawn = [ca.decl for ca in actions if ca.decl.chance]
        if drawn:
            out[phase] = drawn
    return out


def _quick_steps(rs: Ruleset) -> dict[str, _QuickStep]:
    """The actions :meth:`Game.try_apply` can take in one call of their step: those with no 'when', acted
    by the seat on turn or by the dealer."""
    actor_vars = {"turn": "turn", "dealer": "dealer"}
    return {name: _QuickStep(ca.decl, ca.step, ca.decl.phase, actor_vars[ca.decl.actor], rs.compiled.triggers.get(name))
            for name, ca in rs.compiled.actions.items()
            if ca.when is None and ca.step is not None and ca.decl.actor in actor_vars}


def _run_factories(rs: Ruleset) -> dict[EntryShape, Callable[..., Run]]:
    """The generated factories of runs (:meth:`Game.runner`), by entry shape, filled as they are asked for."""
    return {}


def _start_positions(rs: Ruleset) -> dict[int, Position]:
    """The positions at the rules' start by first dealer, filled as games start (see :meth:`Game.started`)."""
    return {}


def _start_value_checks(rs: Ruleset) -> dict[str, Callable[[Any, int], bool]]:
    """The variables a starting position may state, with a check of one seat's value: the per-player game
    variables that hold no cards (scores, bolts, the barrel)."""
    return {d.name: payload_checker(d.type, rs.deck) for d in rs.vars.values()
            if d.lifetime == "game" and d.scope == "seat" and not d.zone}


def _source_lines(rs: Ruleset) -> dict[str, tuple[tuple[str, int, int], ...]]:
    """Each rule's source lines as a rejection carries them: (seed file, first line, last line)."""
    return {rule_id: tuple((s["seed"], s["lines"][0], s["lines"][1]) for s in rs.sources_of(rule_id))
            for rule_id in rs.rules}


def _stuck(game: Game) -> RuleRuntimeError:
    """A game that no action can move on: named by ruleset, deal and seat to act, at the rule that
    brought it into this phase."""
    v = game.v
    rule_id = game.st.set_by.get("phase") or game.rs.program.phase_rule.get(v["phase"], "")
    doc = game.rs.rules.get(rule_id)
    movers = [e.clause for t in game.c.triggers.values() for e in t.effects
              if e.rule_id == rule_id and "phase" in e.writes]  # the clauses of that rule that set the phase
    where = movers[0].where if len(movers) == 1 else doc.location() if doc is not None else None
    turn = v["turn"]
    return RuleRuntimeError(
        f"ruleset {game.rs.name}, deal {v['deal_no'] + 1}"
        + (f", {seat_words(turn)} to act" if isinstance(turn, int) else "")
        + f": no legal action in phase {v['phase']!r} and the game is not over (the phase was entered by "
        f"rule {rule_id}; no action of that phase is allowed now)", where)


def _unplayable(game: Game, action: Action, rej: Rejection) -> RuleRuntimeError:
    """The rules drew a chance action (the deal) that their own guards refuse: hands that cannot be
    dealt with these parameters, say. At the refusing guard's clause, naming ruleset, deal and seat."""
    clause = next((c for c in game.rs.guards.get(action.kind, []) if c.rule_id == rej.rule_id
                   and (c.reason or "forbidden") == rej.reason), None)
    doc = game.rs.rules.get(rej.rule_id)
    where = clause.where if clause is not None else doc.location() if doc is not None else None
    return RuleRuntimeError(
        f"ruleset {game.rs.name}, deal {game.v['deal_no'] + 1}, {seat_words(action.seat)}: the rules' own "
        f"{action.kind!r} is refused by rule {rej.rule_id} [{rej.reason}]: {rej.message} (its parameters do not "
        "fit together)", where)


def _failed_line(fn: Callable[..., Any], exc: Exception) -> int:
    """The line of compiled rule code ``fn`` where ``exc`` was raised (0 when ``fn`` is not on its way)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code is not fn.__code__:
        tb = tb.tb_next
    return tb.tb_lineno if tb is not None else 0


def choose_random(game: Game, legal: list[Action], rng: random.Random) -> Action:
    """Pick a legal action the way the rules' random hints ask.

    An action kind is drawn in proportion to its weight, then a choice of that kind;
    kinds that prefer low choices take the least of three draws, so a random auction
    does not run to the maximum every time.
    """
    return legal[_random_choice(game, [a.kind for a in legal], rng)]


# How often the hinted bot makes the move its hints like best (else a random one).
HINT_GREED = 0.85


def choose_hinted(game: Game, legal: list[Action], rng: random.Random, greed: float = HINT_GREED) -> Action:
    """Mostly the legal action the rules' hints like best; sometimes a random one.

    Hints are rule-language expressions in the rule files, so a ruleset can make its
    random games end without the interpreter knowing anything about the game.
    """
    if rng.random() >= greed:
        return choose_random(game, legal, rng)
    return legal[_best_hinted(list(map(game.hint, legal)), rng)]


# The two bots' choices by position in the list of legal moves, so that they choose alike from Actions
# (choose_random, choose_hinted: any caller's list) and from the moves' parts (their own play, which makes
# an Action of the move chosen only): the same moves, the same draws from the generator.
def _random_choice(game: Game, kinds: list[str], rng: random.Random) -> int:
    by_kind: dict[str, list[int]] = {}
    for i, kind in enumerate(kinds):
        by_kind.setdefault(kind, []).append(i)
    names = list(by_kind)
    decls = game.rs.actions
    weights = [decls[k].weight for k in names]
    kind = rng.choices(names, weights)[0] if len(names) > 1 else names[0]
    options = by_kind[kind]
    i = rng.randrange(len(options))
    if decls[kind].prefer_low:
        i = min(i, rng.randrange(len(options)), rng.randrange(len(options)))
    return options[i]


def _best_hinted(hints: list[int], rng: random.Random) -> int:
    """A move the hints like best, a tie broken by ``rng``."""
    top = max(hints)
    best = [i for i, h in enumerate(hints) if h == top]
    return best[rng.randrange(len(best))]


def _hinted_choice(game: Game, parts: list[tuple[str, int, dict[str, Any]]], rng: random.Random,
                   greed: float) -> int:
    """:func:`choose_hinted` over the moves' parts."""
    if rng.random() >= greed:
        return _random_choice(game, [kind for kind, _, _ in parts], rng)
    return _best_hinted([game._hint(*p) for p in parts], rng)


# The lookahead bot plays out a deal after at most this many moves of each kind, the best by the hints.
LOOKAHEAD_OPTIONS = 3
# It weighs the kinds the random bot makes at least this share as often as its favourite kind: a move
# the rules' hints make rare (exposing a card while dealing: a misdeal) is one no good player makes.
LOOKAHEAD_KINDS = 0.1
# How much winning the game (or seeing another win it) in the deal played out outweighs its points.
_WIN = 1_000_000


def choose_lookahead(game: Game, legal: list[Action], rng: random.Random) -> Action:
    """A stronger bot, for ``thousand play``: it plays out the rest of the deal after each of a few moves
    and makes the one that leaves it best off.

    The seat to act is the one the hints' favourite move belongs to; its candidates are, of each kind it
    may make (but the rare ones, see ``LOOKAHEAD_KINDS``), the ``LOOKAHEAD_OPTIONS`` moves the hints like
    best. After each, the rest of the deal is played on a copy of the game by the hints alone, seeing
    every card (a strong bot, not a fair one), and the move whose deal adds most to the seat's total on
    the score sheet is made; a deal that ends the game counts above any points, for its winner or against
    the others. Like the hints, it knows nothing of the game beyond what the rule files say: only the
    sheet's total column and who won."""
    first = choose_hinted(game, legal, rng, greed=1.0)
    seat = first.seat
    decls = game.rs.actions
    mine = [a for a in legal if a.seat == seat]
    heaviest = max(decls[a.kind].weight for a in mine)
    by_kind: dict[str, list[tuple[int, int, Action]]] = {}
    for i, a in enumerate(mine):
        if decls[a.kind].weight >= LOOKAHEAD_KINDS * heaviest:
            by_kind.setdefault(a.kind, []).append((-game.hint(a), i, a))
    options = [a for moves in by_kind.values() for _, _, a in sorted(moves)[:LOOKAHEAD_OPTIONS]]
    if len(options) <= 1:
        return options[0] if options else first
    total = game.rs.sheet.total
    before = game.v[total][seat]
    deals = len(game.sheet)
    best: tuple[int, Action] | None = None
    for a in options:
        g = game.fork()
        g.apply(a)
        _play_out_deal(g, rng, deals)
        value = g.v[total][seat] - before
        if g.over and g.v["winner"] is not None:
            value += _WIN if g.v["winner"] == seat else -_WIN
        if best is None or value > best[0]:
            best = (value, a)
    assert best is not None
    return best[1]


def _play_out_deal(game: Game, rng: random.Random, deals: int, max_actions: int = 10_000) -> None:
    """Play on by the hints until the deal is scored (the sheet has more than ``deals`` rows) or the game ends:
    the moves ``choose_hinted(greed=1.0)`` makes, with no Action made of any (the lookahead plays out several
    deals a move)."""
    n = 0
    while not game.over and len(game.sheet) <= deals and n < max_actions:
        # The rules' own draw and legal actions: their payloads are of the right types.
        if game.chance_action() is not None:
            game.apply(game.sample(), typed=True)
        else:
            parts = game.legal_parts()
            if not parts:
                raise RuleRuntimeError(f"no legal action in phase {game.phase!r} and the game is not over")
            rej = game.try_apply_typed(*parts[_hinted_choice(game, parts, rng, 1.0)])
            if rej is not None:
                raise IllegalAction(rej)
        n += 1


Chooser = Callable[[Game, list[Action], random.Random], Action]


def play_random(game: Game, rng: random.Random, max_actions: int = 100_000,
                on_action: Callable[[Game, Action], None] | None = None, *, hinted: bool = False,
                max_deals: int | None = None, bot: Chooser | None = None) -> int:
    """Play legal moves chosen by ``rng`` until the game ends; return the number of actions.

    With ``hinted``, choices follow the rules' play hints (see choose_hinted); ``bot``, if given, chooses
    instead (``choose_lookahead``, say).
    """
    n = 0
    while not game.over and n < max_actions:
        if max_deals is not None and len(game.sheet) >= max_deals:
            break
        chance = game.chance_action() is not None
        if chance:
            action = game.sample()
        elif bot is not None:
            legal = game.legal_actions()
            if not legal:
                raise _stuck(game)
            action = bot(game, legal, rng)
        else:  # choose_hinted or choose_random, from the moves' parts: an Action of the one chosen only
            parts = game.legal_parts()
            if not parts:
                raise _stuck(game)
            action = Action(*parts[_hinted_choice(game, parts, rng, HINT_GREED) if hinted else
                                   _random_choice(game, [kind for kind, _, _ in parts], rng)])
        if on_action is not None:
            on_action(game, action)
        # The rules' own draw, or one of their legal actions as our choosers pick it, is well typed; a bot of
        # the caller's own may give anything, and its payload is checked.
        rej = game.try_apply(action, typed=chance or bot is None)
        if rej is not None:
            # The rules' own draw refused by their own guards: they cannot be played as they stand.
            raise _unplayable(game, action, rej) if chance else IllegalAction(rej)
        n += 1
    return n
