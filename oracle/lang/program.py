"""A ruleset's logic as one typed program, and that program compiled.

``Program`` is everything a resolved ruleset declares for the interpreter: the pack,
the parameters, the state layout, the definitions, the actions and, for every
trigger (an action, ``start`` or ``enter <phase>``), its clauses in order.
``compile_program`` turns it into a ``CompiledProgram``: one object per action
(check, legal, domains, sample, when, hint, payload checks) and one per trigger
(the fused effect function and each clause's own function). Everything downstream
uses these attributes; nothing looks a compiled function up by name.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from .. import diskcache
from ..errors import Location, RuleFileError
from ..rulecache import building
from ..yamlpos import PosStr
from . import types as T
from .compiler import GUARD_LINE as GUARD_LINE
from .compiler import Compiler, Define, Env, Fn, Param, Scope, VarDecl, run_module
from .stdlib import DeckShape


@dataclass
class ActionDecl:
    name: str
    rule_id: str
    phase: str
    actor: str
    fields: list[tuple[str, str]]
    choices: dict[str, PosStr]
    sample: PosStr | None
    weight: float = 1.0
    prefer_low: bool = False
    hint: PosStr | None = None
    when: PosStr | None = None
    where: Location | None = None

    @property
    def chance(self) -> bool:
        """Whether the rules draw this action at random (the deal): it has a sample and no choices."""
        return self.sample is not None and not self.choices


@dataclass(eq=False)
class Clause:
    """One named clause of a rule: a guard (``forbid``) or an effect (``do``) on one trigger.

    ``ref`` is its name (``rule/clause``), which overlays, mutants and the sequence use;
    ``rule_id`` is the rule it is charged to: the rule it belongs to, or the overlay that
    replaced it (the text that runs is that overlay's).
    """

    ref: str
    rule_id: str
    on: str
    forbid: PosStr | None
    reason: str | None
    message: str | None
    do: PosStr | None
    where: Location

    @property
    def id(self) -> str:
        return self.ref.rpartition("/")[2]


@dataclass
class Program:
    deck: DeckShape
    params: dict[str, Param]
    vars: dict[str, VarDecl]
    defines: dict[str, Define]
    phases: list[str]
    actions: dict[str, ActionDecl]
    sequence: dict[str, list[Clause]]  # trigger -> its clauses, in the order they run
    marks: set[str]
    logic_rules: set[str]  # rules with clauses, definitions or actions of their own
    phase_rule: dict[str, str] = field(default_factory=dict)  # phase -> the rule that declares it


@dataclass(eq=False)
class Guard:
    clause: Clause
    deps: set[str]  # the rules its condition uses (credited by coverage when it runs)
    dead: bool  # its condition folded to false under this ruleset's parameters: it can never forbid


@dataclass(eq=False)
class CompiledAction:
    decl: ActionDecl
    guards: list[Guard]
    # (st, actor, payload) -> the index of the first guard that forbids it; -2 - j when the j-th choice
    # field is not among its choices; -1 when it is allowed
    check: Callable[..., int]
    legal: Callable[..., list[dict[str, Any]]]  # (st, actor) -> the payloads no guard forbids
    domains: list[tuple[str, Callable[..., Any]]]  # payload field -> (st, actor) -> its choices
    checkers: dict[str, Callable[[Any, int], bool]]  # payload field -> (value, seats) -> well typed?
    sample: Callable[..., Any] | None = None  # (st, actor) -> a drawn payload, for chance actions
    when: Callable[..., bool] | None = None  # (st, actor) -> whether the action exists now
    hint: Callable[..., int] | None = None  # (st, actor, payload) -> how much a simple bot likes it
    guard_deps: set[str] = field(default_factory=set)  # the rules any of its guards use
    # (st, actor, payload) -> as check, and when it gives -1 the action's effects have run as well:
    # the untraced fast path, one call per action. An error on line i + 1 is effect clause i's; past
    # the last effect, the check's.
    step: Callable[..., int] | None = None

    @property
    def name(self) -> str:
        return self.decl.name


@dataclass(eq=False)
class Effect:
    clause: Clause
    fn: Callable[..., None]  # (st, actor, payload)
    deps: set[str]  # rules whose logic or definitions it runs
    writes: set[str]  # state variables it assigns
    # Every state variable it may change (assigned or changed in place), or None when the compiler cannot
    # tell: what is compared, before and after it runs, to tell whether it changed the game.
    changes: tuple[str, ...] | None = None

    @property
    def rule_id(self) -> str:
        return self.clause.rule_id


@dataclass(eq=False)
class Trigger:
    on: str
    effects: list[Effect]
    run: Callable[..., None]  # every effect in one call (the untraced fast path); line i+1 is effect i


@dataclass(frozen=True, eq=False)
class Analysis:
    """A program's functions that only rule coverage and the conformance harness ask for: compiled apart from
    the program, the first time one is asked for (:func:`compile_analysis`), because validating a record
    never runs them and building them with every program made its compile a quarter longer.

    ``triggers``: trigger -> (st, actor, payload, tally), as ``Trigger.run``, adding one to tally[i] when
    effect i changed the game and one to its last item each run (see ``Compiler.counted``); line i + 1 is
    effect i. ``steps``: action -> (st, actor, payload, tally), as ``CompiledAction.step`` with its effects
    counted into its trigger's tally; an action with no effects has none.

    ``outcomes``: action -> (st, actor, values), the set of what its check gives for each payload of the
    product of ``values`` (a set of candidates per payload field, in the action's order): rule coverage
    weighs tens of candidates at every decision of a record. It may raise where the check would not (see
    ``Compiler._outcomes``). ``refusers``: action -> (st, actor, payload), the index of every guard that
    forbids it, in order (the check stops at the first), and -1 - i for a guard i that raised (taken as not
    forbidding). ``decision_keys``: action -> (st, actor), a tuple of the values of every part of the game
    its guards and choices read (see ``Compiler.guard_fns``): equal keys, equal answers for every payload.
    An action whose guards read the game in a way the compiler cannot name has none. Lists come as tuples; a
    map may still be among the values, which no table can be keyed by."""

    triggers: dict[str, Callable[..., None]]
    steps: dict[str, Callable[..., int]]
    outcomes: dict[str, Callable[..., set[int]]]
    refusers: dict[str, Callable[..., list[int]]]
    decision_keys: dict[str, Callable[..., tuple[Any, ...]]]


@dataclass(eq=False)
class CompiledProgram:
    actions: dict[str, CompiledAction]
    triggers: dict[str, Trigger]
    by_phase: dict[str, list[CompiledAction]]


def _actor_scope() -> Scope:
    scope = Scope()
    scope.bind("actor", "local", "actor", "seat")
    return scope


def _payload_scope(a: ActionDecl) -> Scope:
    scope = _actor_scope()
    for f, t in a.fields:
        scope.bind(f, "payload", f"p_{f}", t)
    return scope


def payload_checker(t: str, deck: DeckShape) -> Callable[[Any, int], bool]:
    """A function that tells whether a payload value has the declared type (and range)."""
    b = T.base(t)
    nullable = T.nullable(t)
    limits = {"card": deck.size, "suit": len(deck.suits), "rank": len(deck.ranks)}
    item = T.list_elem(b)
    if item is not None:
        inner = payload_checker(item, deck)
        return lambda v, n: (v is None and nullable) or (type(v) is list and all(inner(x, n) for x in v))
    if b == "bool":
        return lambda v, n: (v is None and nullable) or type(v) is bool
    if b == "seat":
        return lambda v, n: (v is None and nullable) or (type(v) is int and 0 <= v < n)
    if b in limits:
        hi = limits[b]
        return lambda v, n: (v is None and nullable) or (type(v) is int and 0 <= v < hi)
    if b == "int":
        return lambda v, n: (v is None and nullable) or type(v) is int
    if b == "str":
        return lambda v, n: (v is None and nullable) or type(v) is str
    return lambda v, n: True


def compile_program(p: Program, filename: str, cache_key: str | None = None) -> CompiledProgram:
    """Type-check and compile ``p``; with ``cache_key`` (a hash of everything ``p`` is made from), the
    compiled module and what was learnt about it are kept in the disk cache and taken from it."""
    if cache_key is not None:
        raw = diskcache.load_bytes("program", cache_key)
        if raw is not None:
            kept = _from_cache(p, raw)
            if kept is not None:
                return kept
    with building():
        cp, code, meta = _compile(p, filename)
    if cache_key is not None:
        diskcache.store_bytes("program", cache_key, json.dumps(meta).encode() + b"\n" + marshal.dumps(code))
    return cp


def compile_analysis(p: Program, filename: str, cache_key: str | None = None) -> Analysis:
    """The analysis functions of ``p`` (see :class:`Analysis`), kept in the disk cache beside the program
    under the same key. They are made from the same clauses and guards as the program's own, so the program
    is translated again to make them (once, the first time a ruleset is analysed); only they are built into
    the module kept."""
    if cache_key is not None:
        raw = diskcache.load_bytes("analysis", cache_key)
        if raw is not None:
            head, _, code_bytes = raw.partition(b"\n")
            try:
                names = json.loads(head)
                code = marshal.loads(code_bytes)
                if isinstance(code, CodeType) and names["shape"] == _shape(p):
                    ns = run_module(code)
                    return Analysis(*({k: ns[n] for k, n in names[part].items()} for part in _ANALYSIS_PARTS))
            except (ValueError, TypeError, KeyError, EOFError, IndexError):
                pass
    with building():
        code, fns, names = _compile_analysis(p, filename)
    if cache_key is not None:
        diskcache.store_bytes("analysis", cache_key, json.dumps(names).encode() + b"\n" + marshal.dumps(code))
    return fns


_ANALYSIS_PARTS = ("triggers", "steps", "outcomes", "refusers", "decision_keys")  # Analysis's fields, in order


def _shape(p: Program) -> dict[str, list[int]]:
    """What the analysis functions of ``p`` index by position: each trigger's guards and effects, in number. A
    kept entry of another shape is not this program's (a caller that changed a resolved ruleset and kept its
    name, say): it is compiled again rather than have a refusal named by another guard's index."""
    return {on: [sum(c.forbid is not None for c in cs), sum(c.do is not None for c in cs)]
            for on, cs in sorted(p.sequence.items())}


def _from_cache(p: Program, raw: bytes) -> CompiledProgram | None:
    """The compiled program from a cache entry (written by compile_program for this very program)."""
    head, _, code_bytes = raw.partition(b"\n")
    try:
        meta = json.loads(head)
        code = marshal.loads(code_bytes)
        if not isinstance(code, CodeType):
            return None
        ns = run_module(code)
        actions: dict[str, CompiledAction] = {}
        by_phase: dict[str, list[CompiledAction]] = {}
        for aname, a in p.actions.items():
            m = meta["actions"][aname]
            clauses = [c for c in p.sequence.get(aname, []) if c.forbid is not None]
            opt = {k: ns[m[k]] if m[k] is not None else None for k in ("sample", "when", "hint")}
            ca = CompiledAction(
                a, [Guard(c, set(d), bool(dead)) for c, d, dead in zip(clauses, m["deps"], m["dead"], strict=True)],
                ns[m["check"]], ns[m["legal"]], [(f, ns[n]) for f, n in m["domains"]],
                {f: payload_checker(t, p.deck) for f, t in a.fields}, opt["sample"], opt["when"], opt["hint"],
                set(m["guard_deps"]), ns[m["step"]])
            actions[aname] = ca
            by_phase.setdefault(a.phase, []).append(ca)
        triggers: dict[str, Trigger] = {}
        for on, m in meta["triggers"].items():
            dos = [c for c in p.sequence[on] if c.do is not None]
            effects = [Effect(c, ns[e["fn"]], set(e["deps"]), set(e["writes"]),
                              None if e["changes"] is None else tuple(e["changes"]))
                       for c, e in zip(dos, m["effects"], strict=True)]
            triggers[on] = Trigger(on, effects, ns[m["run"]])
        if set(meta["actions"]) != set(p.actions):
            return None
        return CompiledProgram(actions, triggers, by_phase)
    except (ValueError, TypeError, KeyError, EOFError, IndexError):
        return None


_Staged = dict[str, dict[str, Any]]  # action -> its translated functions (handles, built later)
_Effects = dict[str, tuple[list[tuple[Clause, Fn]], Fn, Fn | None]]  # trigger -> its clauses, fused, counted


def _translate(p: Program, analysis: bool) -> tuple[Compiler, _Staged, _Effects]:
    """Every function of the program translated, none built yet; with ``analysis``, the analysis ones too."""
    env = Env(p.deck, p.vars, p.params, p.defines, set(p.phases), marks=p.marks, logic_rules=p.logic_rules)
    comp = Compiler(env)
    staged: _Staged = {}
    for aname, a in p.actions.items():
        for f, _ in a.fields:
            if env.kind_of(f) in ("var", "param"):
                raise RuleFileError(f"payload field {f!r} of action {aname!r} clashes with a "
                                    f"{env.kind_of(f)} of that name", a.where)
        clauses = [c for c in p.sequence.get(aname, []) if c.forbid is not None]
        enumerable = [(f, t) for f, t in a.fields if f in a.choices]
        names = [f for f, _ in a.fields]
        guards = [(c.forbid, c.rule_id) for c in clauses if c.forbid is not None]  # (all of them: the type's sake)
        if a.sample is None or enumerable:
            gf = comp.guard_fns(enumerable, [(a.choices[f], a.rule_id) for f, _ in enumerable], guards,
                                _payload_scope(a), names, analysis)
        else:
            gf = comp.guard_fns([], [], guards, _payload_scope(a), names, analysis)
        entry: dict[str, Any] = {"gf": gf, "clauses": clauses,
                                 "domains": [(f, comp.expr_fn(a.choices[f], a.rule_id, _actor_scope(), T.list_of(t),
                                                              ["st", "actor"])) for f, t in enumerable]}
        if a.when is not None:
            entry["when"] = comp.expr_fn(a.when, a.rule_id, _actor_scope(), "bool", ["st", "actor"])
        if a.hint is not None:
            entry["hint"] = comp.expr_fn(a.hint, a.rule_id, _payload_scope(a), "int", ["st", "actor", "a"],
                                         unpack=names)
        if a.sample is not None:
            entry["sample"] = comp.block_fn(a.sample, a.rule_id, _actor_scope(), ["st", "actor"],
                                            allow_return=True, allow_random=True)
        staged[aname] = entry
    effect_fns: _Effects = {}
    for on, clauses in p.sequence.items():
        dos = [c for c in clauses if c.do is not None]
        if not dos:
            continue
        decl = p.actions.get(on)
        scope = _payload_scope(decl) if decl is not None else Scope()
        fields = [f for f, _ in decl.fields] if decl is not None else []
        parts = [(c, comp.block_fn(c.do, c.rule_id, scope, ["st", "actor", "a"], unpack=fields))
                 for c in dos if c.do is not None]  # (all of them: the type's sake)
        effect_fns[on] = (parts, comp.fuse([f for _, f in parts], ["st", "actor", "a"], fields, often=decl is None),
                          comp.counted([f for _, f in parts], ["st", "actor", "a"], fields) if analysis else None)
    for aname, a in p.actions.items():
        parts_run = effect_fns.get(aname)
        staged[aname]["step"] = comp.step(staged[aname]["gf"].check, parts_run[1] if parts_run else None,
                                          len(a.fields), len(parts_run[0]) if parts_run else 0)
        if parts_run and parts_run[2] is not None:
            staged[aname]["counted_step"] = comp.step(staged[aname]["gf"].check, parts_run[2], len(a.fields),
                                                      len(parts_run[0]), tally=True)
    return comp, staged, effect_fns


def _compile_analysis(p: Program, filename: str) -> tuple[CodeType, Analysis, dict[str, Any]]:
    """The analysis functions compiled: the module holding only them, them, and their names in it."""
    comp, staged, effect_fns = _translate(p, analysis=True)
    handles: dict[str, dict[str, Fn]] = {
        "triggers": {on: c for on, (_, _, c) in effect_fns.items() if c is not None},
        "steps": {aname: e["counted_step"] for aname, e in staged.items() if "counted_step" in e},
        "outcomes": {aname: e["gf"].outcomes for aname, e in staged.items()},
        "refusers": {aname: e["gf"].refusers for aname, e in staged.items()},
        "decision_keys": {aname: e["gf"].key for aname, e in staged.items() if e["gf"].key is not None}}
    code = comp.build(filename, only={h.name for part in handles.values() for h in part.values()})
    names: dict[str, Any] = {part: {k: h.name for k, h in fns.items()} for part, fns in handles.items()}
    names["shape"] = _shape(p)
    return code, Analysis(*({k: h.fn for k, h in handles[part].items()} for part in _ANALYSIS_PARTS)), names


def _compile(p: Program, filename: str) -> tuple[CompiledProgram, CodeType, dict[str, Any]]:
    """The program compiled: its objects, its module, and what the disk cache keeps of them."""
    comp, staged, effect_fns = _translate(p, analysis=False)
    code = comp.build(filename)
    meta: dict[str, Any] = {"actions": {}, "triggers": {}}

    actions: dict[str, CompiledAction] = {}
    by_phase: dict[str, list[CompiledAction]] = {}
    for aname, a in p.actions.items():
        e = staged[aname]
        gf = e["gf"]
        ca = CompiledAction(
            a, [Guard(c, d, dead) for c, d, dead in zip(e["clauses"], gf.deps, gf.dead, strict=True)],
            gf.check.fn, gf.legal.fn, [(f, h.fn) for f, h in e["domains"]],
            {f: payload_checker(t, p.deck) for f, t in a.fields},
            e["sample"].fn if "sample" in e else None, e["when"].fn if "when" in e else None,
            e["hint"].fn if "hint" in e else None, set(gf.check.deps), e["step"].fn)
        actions[aname] = ca
        by_phase.setdefault(a.phase, []).append(ca)
        meta["actions"][aname] = {
            "check": gf.check.name, "legal": gf.legal.name, "step": e["step"].name,
            "deps": [sorted(d) for d in gf.deps],
            "dead": list(gf.dead), "guard_deps": sorted(gf.check.deps),
            "domains": [[f, h.name] for f, h in e["domains"]],
            **{k: e[k].name if k in e else None for k in ("sample", "when", "hint")}}
    triggers: dict[str, Trigger] = {}
    for on, (parts, fused, _) in effect_fns.items():
        # Coverage credits a rule through its own logic and the definitions it lends; a rule
        # that is only data (values, no logic) is credited wherever its parameters are used.
        effects = [Effect(c, h.fn, h.deps | {r for r in h.param_deps if r not in p.logic_rules}, h.writes,
                          None if h.changes is None else tuple(sorted(h.changes)))
                   for c, h in parts]
        triggers[on] = Trigger(on, effects, fused.fn)
        meta["triggers"][on] = {"run": fused.name,
                                "effects": [{"fn": h.name, "deps": sorted(ef.deps), "writes": sorted(ef.writes),
                                             "changes": ef.changes}
                                            for (_, h), ef in zip(parts, effects, strict=True)]}
    return CompiledProgram(actions, triggers, by_phase), code, meta
