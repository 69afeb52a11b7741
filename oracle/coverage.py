"""Rule coverage: which rules a set of records exercised, and which it never reached.

Each rule's clauses are counted twice (see :mod:`.rulecounts`): how often they *ran* (a guard
evaluated, an effect executed) and how often they *fired* (a guard forbade, an effect changed
the game). Every rule id of each ruleset involved is listed: the same set ``thousand check``
counts, so the two commands agree on the number of rules.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from .candidates import BEFORE_PAYLOAD, candidates, domains, fixed_domains, int_candidates, payloads_of
from .cards import NOTATION_PARAMS
from .engine import Action, Game, Rejection
from .lang import types as T
from .lang.program import CompiledAction
from .records import RecordFile, Verdict, is_chance, judge
from .rulecounts import Outcome, RuleCounts, outcome
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
    invalid: list[tuple[str, str]] = field(default_factory=list)  # (file, its first violation): counted up to it
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (file, why): nothing of it counted

    def add(self, part: CoveredFile) -> None:
        """One file's counts, as :func:`cover_path` gives them (in this process or another)."""
        self.files += 1
        if part.unreadable:
            self.unreadable.append((part.file, part.problem or ""))
            return
        if part.problem is not None:
            self.invalid.append((part.file, part.problem))
        self.counts.ran.update(part.ran)
        self.counts.fired.update(part.fired)
        for key, seen in part.rulesets.items():
            self.rulesets.setdefault(key, seen)

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
                "not_formalised": self.not_formalised(), "not_normative": self.not_normative(),
                "invalid": [{"file": f, "violation": v} for f, v in self.invalid],
                "unreadable": [{"file": f, "error": e} for f, e in self.unreadable]}

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


# Every payload of some candidate values, whether every value is of its field's type, and the values (a set
# of them per field, as the compiled outcomes take them).
Payloads = tuple[list[dict[str, Any]], bool, tuple[frozenset[Any], ...]]


@functools.lru_cache(maxsize=4096)
def _payloads(ca: CompiledAction, doms: tuple[tuple[str, tuple[Any, ...]], ...], n_seats: int) -> Payloads:
    """Every payload of the candidate values (the same few lists at most decisions, so made once), and
    whether every value is of its field's type: a value its type refuses makes a payload ``Game.check``
    words as malformed, and such payloads go the careful way (no candidate of today's types is one).
    The values themselves, per field, are what the action's compiled ``outcomes`` takes."""
    values = tuple(d for _, d in doms)
    payloads = list(payloads_of(tuple(f for f, _ in doms), values))
    typed = all(ca.checkers[f](x, n_seats) for f, dom in doms for x in dom)
    return payloads, typed, tuple(frozenset(d) for d in values)


@dataclass(frozen=True, eq=False)
class _Weigher:
    """What weighing one action's candidates needs beside the game, made once per action of a ruleset:
    whether its candidates depend on the legal actions (a number's legal values and near misses), else
    the candidates themselves (the same at every decision), and the outcome each result of its compiled
    check stands for."""

    ca: CompiledAction
    outcomes: Callable[..., set[int]]  # its compiled outcomes (Ruleset.analysis)
    decision_key: Callable[..., tuple[Any, ...]] | None  # its compiled decision key, when it has one
    by_legal: bool
    fixed: Payloads  # the candidates, when no field is a number; empty otherwise
    outcome_of: dict[int, Outcome]  # -1: allowed; i: guard i forbade it; -2 - j: field j outside its choices
    actor_var: str | None  # the engine variable naming the one seat that may act; None: any seat may
    # No 'when' and well-typed candidates: a seat the action is open to goes straight to the compiled outcomes.
    direct: bool
    # An action of one number, no 'when', taken by one seat: its candidates are made from its compiled listing
    # of that seat's legal payloads straight away (what ``domains`` asks the game for).
    number: str | None
    known: _Known | None  # its outcomes kept by the key of what its guards read, when it has one
    plain: bool  # fixed candidates (some), weighed straight through its outcomes, for the one seat to act
    # What each set of results of its compiled outcomes stands for: a few sets come back at every decision.
    named: dict[frozenset[int], frozenset[Outcome]] = field(default_factory=dict)

    def outcomes_of(self, found: set[int]) -> frozenset[Outcome]:
        """The outcomes the compiled ``outcomes`` gave (its results, see ``outcome_of``)."""
        key = frozenset(found)
        hit = self.named.get(key)
        if hit is None:
            if len(self.named) >= _Known.LIMIT:
                self.named.clear()
            hit = self.named[key] = frozenset(map(self.outcome_of.__getitem__, key))
        return hit


@dataclass(frozen=True, eq=False)
class _Weighing:
    """Every action's weigher of one ruleset: by phase (chance actions have no candidates), by name, and
    the phases where one plain action is all there is to weigh (a card played), which go a short way."""

    by_phase: dict[str, tuple[_Weigher, ...]]
    by_name: dict[str, _Weigher]
    solo: dict[str, _Weigher]


def _weighers(rs: Ruleset) -> _Weighing:
    """Every action's weigher, made once per ruleset."""
    by_phase: dict[str, list[_Weigher]] = {}
    by_name: dict[str, _Weigher] = {}
    analysis = rs.analysis
    for name, ca in rs.compiled.actions.items():
        decl = ca.decl
        by_legal = any(T.base(t) == "int" for _, t in decl.fields)
        doms = None if by_legal else fixed_domains(rs, name, rs.players)
        fixed: Payloads = (([], True, ()) if doms is None else
                           _payloads(ca, tuple((f, tuple(d)) for f, d in doms), rs.players))
        outside = (ca, decl.rule_id, "not-available")
        outcome_of: dict[int, Outcome] = {-1: (ca, None, None), **{-2 - j: outside for j in range(len(decl.fields))}}
        outcome_of.update({i: (ca, g.clause.rule_id, g.clause.reason or "forbidden") for i, g in enumerate(ca.guards)})
        actor_var = {"turn": "turn", "dealer": "dealer"}.get(decl.actor)
        number = (decl.fields[0][0] if len(decl.fields) == 1 and T.base(decl.fields[0][1]) == "int"
                  and ca.when is None and actor_var is not None and (decl.sample is None or decl.choices) else None)
        decision_key = analysis.decision_keys.get(name)
        keyed = decision_key is not None and ca.when is None and (number is not None or not by_legal)
        direct = ca.when is None and fixed[1]
        w = _Weigher(ca, analysis.outcomes[name], decision_key, by_legal, fixed, outcome_of, actor_var, direct, number,
                     _Known() if keyed else None,
                     not by_legal and direct and actor_var is not None and bool(fixed[0]))
        by_name[name] = w
        if not is_chance(decl):
            by_phase.setdefault(decl.phase, []).append(w)
    solo = {phase: ws[0] for phase, ws in by_phase.items() if len(ws) == 1 and ws[0].plain}
    return _Weighing({phase: tuple(ws) for phase, ws in by_phase.items()}, by_name, solo)


def _taken(game: Game, kind: str, seat: int, payload: Mapping[str, Any], w: _Weigher | None) -> Outcome:
    """The outcome of the action a record took: straight from its compiled check when nothing before the
    guards refuses it (its phase, the seat to act, no 'when'), else as ``Game.check`` words it."""
    v = game.st.v
    if (w is not None and w.ca.when is None and w.ca.decl.phase == v["phase"] and not v["game_over"]
            and (seat == v[w.actor_var] if w.actor_var is not None else 0 <= seat < v["n_seats"])):
        try:
            return w.outcome_of[w.ca.check(game.st, seat, payload)]
        except Exception:
            pass  # the check words the rule's runtime error
    return outcome(game.rs.compiled.actions[kind], game.check(Action(kind, seat, payload), typed=True))


def decision_outcomes(game: Game, action: Action) -> set[Outcome]:
    """What :func:`decision_checks` finds, as the distinct outcomes the counts need (the action checked,
    and the rule and reason that refused it, or None for a legal one), without wording a rejection for
    each of the tens of candidates at every action of a record.

    The same candidates are weighed. For an action with a 'when', or a candidate its type refuses, the
    first of each seat's goes through ``Game.check``; when that refuses the seat before reading the payload,
    the seat's other payloads are refused the same way. Otherwise they go straight to the action's compiled
    ``outcomes`` (what ``Game.check`` asks last), all in one call. The action taken is checked on its own
    (a record's replay takes its outcome from its own check instead, see :class:`_Decisions`).
    An action's legal payloads are listed only where a number's candidates are made from them."""
    return outcomes_at(game, action.kind, action.seat, action.payload)


def outcomes_at(game: Game, kind: str, seat: int, payload: Mapping[str, Any]) -> set[Outcome]:
    """:func:`decision_outcomes` of the action of these parts (a record's replay makes no action of them):
    the outcomes of the candidates (:func:`weighed`) and of the action itself."""
    weighing = game.rs.derived(_weighers)
    out = set(weighed(game, weighing))
    out.add(_taken(game, kind, seat, payload, weighing.by_name.get(kind)))
    return out


_NOTHING: frozenset[Outcome] = frozenset()


def weighed(game: Game, weighing: _Weighing) -> AbstractSet[Outcome]:
    """The outcomes of every candidate at this point of the game, of each action of its phase (not those of
    the action taken, which a replay's own check gives).

    An action whose guards and choices read only parts of the game the compiler can name
    (``Analysis.decision_keys``) gives, for a seat, the same outcomes wherever those parts have the
    same values: they are kept by that key, and asked again only for a key not seen yet (a bid over 120
    with no marriage in hand, say). See :class:`_Known`."""
    st = game.st
    v = st.v
    if v["game_over"]:
        return _NOTHING
    phase = v["phase"]
    w = weighing.solo.get(phase)
    if w is not None and (w.known is None or w.known.off):
        return _plain(game, w)  # the common case (a card played): nothing else to weigh
    out: set[Outcome] = set()
    n_seats = v["n_seats"]
    for w in weighing.by_phase.get(phase, ()):
        ca = w.ca
        known = w.known if w.known is not None and not w.known.off else None
        if w.plain and known is None:
            out |= _plain(game, w)
            continue
        if w.actor_var is not None:
            seat = v[w.actor_var]
            seats: Any = () if seat is None else (seat,)
        else:
            seats = sorted(set(v["seats"]))
        keys: dict[int, Any] = {}
        if known is not None:
            unknown = []
            for seat in seats:
                key, hit = known.find(w, st, seat, n_seats)
                if hit is None:
                    unknown.append(seat)
                    if key is not None:
                        keys[seat] = key
                else:
                    out |= hit
            if not unknown:
                continue
            seats = unknown
        if not w.by_legal:
            payloads, typed, values = w.fixed
            direct = w.direct
        else:
            found = None
            number_seat = v[w.actor_var] if w.number is not None and w.actor_var is not None else None
            if w.number is not None and number_seat is not None:
                try:
                    legal = ca.legal(st, number_seat)
                    found = _number_payloads(ca, w.number, tuple(sorted({p[w.number] for p in legal})), n_seats)
                except Exception:
                    pass  # asked again the careful way, which words the rule's runtime error
            if found is None:
                doms = domains(game, game.rs, ca.decl.name)
                if doms is None:
                    continue
                found = _payloads(ca, tuple((f, tuple(dom)) for f, dom in doms), n_seats)
            payloads, typed, values = found
            direct = typed and ca.when is None
        for seat in seats:
            if not payloads:
                if seat in keys:
                    known.keep(keys[seat], _NOTHING)  # type: ignore[union-attr]  # keys only with a table
                continue
            if direct:
                these = w.outcomes_of(_found(game, w, seat, values, payloads))
                out |= these
                if seat in keys:
                    known.keep(keys[seat], these)  # type: ignore[union-attr]
                continue
            # A seat the action is not open to now is refused before its payload is read; the action's
            # seats are those that may act, so nothing else refuses a seat before its payload.
            first = game.check(Action(ca.decl.name, seat, payloads[0]), typed=typed)
            out.add(outcome(ca, first))
            if first is not None and first.reason in BEFORE_PAYLOAD:
                continue  # every other payload of this seat is refused the same way
            rest = payloads[1:]
            if not typed:
                for p in rest:
                    r = game.check(Action(ca.decl.name, seat, p))
                    out.add(outcome(ca, r))
                continue
            out |= w.outcomes_of(_found(game, w, seat, values, rest))
    return out


def _plain(game: Game, w: _Weigher) -> frozenset[Outcome]:
    """The outcomes of a plain action's candidates (the same at every decision) for the one seat to act."""
    seat = game.st.v[w.actor_var]  # type: ignore[index]  # plain: one seat acts
    return _NOTHING if seat is None else w.outcomes_of(_found(game, w, seat, w.fixed[2], w.fixed[0]))


class _Known:
    """One action's outcomes by the key of the game its guards and choices read, for one ruleset: the
    outcomes weighed for a seat, and the candidates they were weighed over.

    Only actions weighed straight through their compiled outcomes are kept (no 'when', well-typed
    candidates). The table is bounded; an action whose keys hold what cannot key a table (a map), or
    whose keys seldom come back (a hand of cards is part of every key of a card played), stops being
    kept after a trial, which costs it nothing but the trial."""

    LIMIT = 4096  # keys kept at most; the table starts again past it
    TRIAL = 512  # keys asked before telling whether they come back often enough
    __slots__ = ("asked", "hits", "off", "table")

    def __init__(self) -> None:
        self.table: dict[Any, frozenset[Outcome]] = {}
        self.asked = 0
        self.hits = 0
        self.off = False

    def find(self, w: _Weigher, st: Any, seat: int, n_seats: int) -> tuple[Any, frozenset[Outcome] | None]:
        """The seat's key now (None when there is none to use: the key function raised), and the outcomes kept
        for it (None when there are none yet)."""
        try:
            key = (seat, n_seats, w.decision_key(st, seat))  # type: ignore[misc]  # only actions with a key
        except Exception:
            return None, None  # the careful way words the rule's runtime error
        self.asked += 1
        try:
            hit = self.table.get(key)
        except TypeError:  # a value that cannot key a table
            self._stop()
            return None, None
        if hit is not None:
            self.hits += 1
        elif self.asked == self.TRIAL and self.hits * 2 < self.asked:
            self._stop()
        return key, hit

    def keep(self, key: Any, outs: frozenset[Outcome]) -> None:
        if self.off:
            return
        if len(self.table) >= self.LIMIT:
            self.table.clear()
        self.table[key] = outs

    def _stop(self) -> None:
        self.off = True
        self.table.clear()


@functools.lru_cache(maxsize=4096)
def _number_payloads(ca: CompiledAction, field: str, legal: tuple[int, ...], n_seats: int) -> Payloads:
    """The candidates of an action of one number, from its legal values (a few lists come back again and
    again: a bid's, a contract's), as :func:`domains` makes them."""
    return _payloads(ca, ((field, int_candidates(legal)),), n_seats)


def _found(game: Game, w: _Weigher, seat: int, values: tuple[frozenset[Any], ...],
           payloads: list[dict[str, Any]]) -> set[int]:
    """What the compiled check gives for each payload (the first, again, if it was asked already: the same
    outcome), all at once through the action's ``outcomes``."""
    st = game.st
    ca = w.ca
    try:
        return w.outcomes(st, seat, values)
    except Exception:
        # Outcomes may raise where the check does not (an any() over a list is not cut short).
        try:
            return {ca.check(st, seat, p) for p in payloads}
        except Exception:
            for p in payloads:
                game.check(Action(ca.decl.name, seat, p))  # raises the rule's runtime error
            raise


def counted_replay(rec: RecordFile, counts: RuleCounts, ruleset: str | None,
                   decide: Callable[[Game, str, int, Mapping[str, Any]], None],
                   checked: Callable[[Rejection | None], None] | None = None) -> Verdict:
    """The one replay coverage makes of a record: every effect counted, ``decide`` called with the parts of
    each action (kind, seat, payload) before it is checked, and ``checked`` with what the check found. Up
    to its first violation, as validation stops there."""
    return judge(rec, ruleset, all_errors=False, counts=counts, decision_parts=decide, checked=checked).verdict


class _Decisions:
    """What coverage counts at each decision of one record's replay: the outcomes of the candidates weighed
    before the action is checked, with the action's own outcome from the replay's check of it (so it is
    never checked twice); with no alternatives, that outcome alone."""

    __slots__ = ("actions", "alternatives", "counts", "kind", "pending", "rs", "weighing")

    def __init__(self, counts: RuleCounts, alternatives: bool) -> None:
        self.counts = counts
        self.alternatives = alternatives
        self.rs: Ruleset | None = None
        self.weighing: _Weighing | None = None
        self.actions: dict[str, CompiledAction] = {}
        self.kind = ""
        self.pending: AbstractSet[Outcome] = _NOTHING

    def before(self, game: Game, kind: str, seat: int, payload: Mapping[str, Any]) -> None:
        if game.rs is not self.rs:
            self.rs = game.rs
            self.weighing = game.rs.derived(_weighers)
            self.actions = game.rs.compiled.actions
        self.kind = kind
        if self.alternatives:
            self.pending = weighed(game, self.weighing)  # type: ignore[arg-type]  # set just above

    def after(self, rejection: Rejection | None) -> None:
        taken = outcome(self.actions[self.kind], rejection)
        outs = self.pending
        if taken not in outs:
            outs = outs | {taken}
        self.counts.decision_of(outs)


def cover_record(rec: RecordFile, cov: Coverage, ruleset: str | None = None, alternatives: bool = True) -> Verdict:
    """Replay a record, counting what its rules did; with ``alternatives``, also what they would have
    forbidden at each decision (see ``decision_checks``). Without, only the recorded actions are checked."""
    from .ruleset import load_ruleset

    data = rec.data
    overlays = list(data.get("overlays") or [])
    try:
        rs = load_ruleset(ruleset or data["ruleset"], overlays, data.get("params") or None)
    except Exception:
        rs = None
    decisions = _Decisions(cov.counts, alternatives)
    verdict = counted_replay(rec, cov.counts, ruleset, decisions.before, decisions.after)
    cov.files += 1
    if rs is not None and verdict.error is None:
        cov.add_ruleset(rs, overlays)
        # Reading any record uses the pack's shape, the number of seats and the card notation.
        for pname in (*DECK_PARAMS, SEATS_PARAM, *NOTATION_PARAMS):
            if pname in rs.resolved.params:
                cov.counts.reading(rs.resolved.params[pname].rule_id)
    return verdict


@dataclass
class CoveredFile:
    """One file's part of a coverage run, as plain data a worker process hands back."""

    file: str
    ran: Counter[str]
    fired: Counter[str]
    rulesets: dict[Any, RulesetSeen]
    problem: str | None = None  # the first violation, or why the file could not be read
    unreadable: bool = False  # nothing of it was counted


def cover_path(path: str, ruleset: str | None = None, data: bytes | None = None) -> CoveredFile:
    """Read one record file (or take its bytes, named ``path``) and count what its rules did: one file of
    ``thousand coverage``."""
    from .errors import InputError
    from .records import read_record, record_from_bytes

    cov = Coverage()
    try:
        verdict = cover_record(record_from_bytes(data, path) if data is not None else read_record(path), cov, ruleset)
    except InputError as exc:
        return CoveredFile(path, Counter(), Counter(), {}, str(exc), unreadable=True)
    if verdict.error is not None:
        return CoveredFile(path, Counter(), Counter(), {}, str(verdict.error), unreadable=True)
    problem = None if verdict.valid else verdict.violations[0].format().splitlines()[0]
    return CoveredFile(path, cov.counts.ran, cov.counts.fired, cov.rulesets, problem)
