"""The language's declarations: what a resolved set of rule files declares, checked and typed.

Resolution (``oracle/ruleset.py``) decides which rule files, clauses and parameter values make a
ruleset; this module reads what they declare — the parameters' typed values, the phases, the state
variables, the definitions, the actions, the marks — and checks it, ready for the type checker and
the compiler (``program.py``). It reads rule files through :class:`RuleText`, what any loaded rule file
offers, so the language does not depend on how files are loaded.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..errors import Location, RuleFileError, RulesetError
from ..limits import MAX_PARAM_INT
from ..yamlpos import PosStr, plain
from . import types as T
from .compiler import ENGINE_VARS, KEYWORDS, Define, Param, VarDecl
from .program import ActionDecl, Clause
from .stdlib import REGISTRY, DeckShape


class RuleText(Protocol):
    """What the declarations read of a loaded rule file: its fields, and where it is."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def location(self) -> Location: ...


@dataclass
class ParamDecl:
    """A parameter as a rule file declares it: its type, default, bounds or choices, and its text."""

    name: str
    type: str
    default: Any
    choices: tuple[str, ...] | None
    min: int | None
    max: int | None
    rule_id: str
    doc: dict[str, str]
    where: Location
    # The shape a list parameter must have (see the rule schema): one item per rank or suit, all
    # different, at least so many; a value that breaks it would fail deep inside the play.
    per: str | None = None
    distinct: bool = False
    min_items: int | None = None


@dataclass(frozen=True)
class Teams:
    """A declared partnership of seats: the parameter that gives each seat's team, and the per-player
    state variables the members of a team share, each while a yes/no parameter of the ruleset holds."""

    seats_param: str
    of_seat: tuple[int, ...]  # each seat's team, as the parameter's value says
    shared: tuple[tuple[str, str], ...]  # (per-player variable, the bool parameter that shares it)
    sharing: tuple[str, ...]  # the variables shared in this ruleset: those whose parameter is true
    rule_id: str
    where: Location

    def members(self, seat: int) -> list[int]:
        return [s for s, t in enumerate(self.of_seat) if t == self.of_seat[seat]]

    def groups(self) -> list[list[int]]:
        """Each team's seats, in the order of their first seat."""
        firsts = [s for s, t in enumerate(self.of_seat) if t not in self.of_seat[:s]]
        return [self.members(s) for s in firsts]


@dataclass
class Declarations:
    """Everything a ruleset's rule files declare, by kind, in the files' order."""

    phases: list[str]
    phase_rule: dict[str, str]  # phase -> the rule that declares it
    vars: dict[str, VarDecl]
    defines: dict[str, Define]
    actions: dict[str, ActionDecl]
    marks: dict[str, dict[str, str]]  # mark -> symbol, en, ru
    teams: Teams | None = None  # None: every seat plays for itself


def near(name: str, known: Any) -> str:
    """A "did you mean" for a name not found among ``known`` (empty when nothing is close)."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def where_of(value: Any, doc: RuleText) -> Location:
    """The place of a value of a rule file: its own line and column when it has one, else the file's."""
    return value.location() if isinstance(value, PosStr) else doc.location()


_Doc = TypeVar("_Doc", bound=RuleText)


def declare_params(rules: Mapping[str, _Doc],
                   of_file: Callable[[str, _Doc], list[ParamDecl]] | None = None) -> dict[str, ParamDecl]:
    """The parameters the rule files declare: each once, under a name no other part of the language uses.
    ``of_file`` gives one file's declarations (:func:`file_params`, or a caller's that keeps them)."""
    declared_by: Callable[[str, _Doc], list[ParamDecl]] = of_file or file_params
    decls: dict[str, ParamDecl] = {}
    for rid, doc in rules.items():
        for decl in declared_by(rid, doc):
            if decl.name in decls and decls[decl.name].rule_id != rid:
                raise RuleFileError(f"parameter {decl.name!r} is already declared by rule "
                                    f"{decls[decl.name].rule_id}", decl.where)
            if decl.name in KEYWORDS or decl.name in ENGINE_VARS or decl.name in REGISTRY:
                raise RuleFileError(f"parameter name {decl.name!r} is reserved", decl.where)
            decls[decl.name] = decl
    return decls


def file_params(rid: str, doc: RuleText) -> list[ParamDecl]:
    """The parameters one rule file declares, as it writes them (:func:`declare_params` checks their names)."""
    out: list[ParamDecl] = []
    for pname, spec in (doc.get("params") or {}).items():
        where = where_of(pname, doc)
        choices = tuple(str(c) for c in spec["choices"]) if "choices" in spec else None
        out.append(ParamDecl(str(pname), str(spec["type"]), plain(spec["default"]), choices,
                             spec.get("min"), spec.get("max"), rid,
                             {k: str(v) for k, v in spec["doc"].items()}, where,
                             str(spec["per"]) if "per" in spec else None, bool(spec.get("distinct")),
                             spec.get("min_items")))
    return out


def encode_param(decl: ParamDecl, value: Any, deck: DeckShape | None) -> Param:
    """Check a parameter value against its declared type and give its compiled form."""
    t = T.parse(decl.type)

    def bad(msg: str) -> RulesetError:
        return RulesetError(f"parameter {decl.name!r} (rule {decl.rule_id}): {msg}", decl.where)

    def named(x: Any, kind: str) -> int:
        assert deck is not None
        names = deck.ranks if kind == "rank" else deck.suits
        if str(x) not in names:
            raise bad(f"{x!r} is not a {kind}; the {kind}s are {', '.join(names)}")
        return names.index(str(x))

    if t.name == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad(f"needs a whole number, not {value!r}")
        if decl.min is not None and value < decl.min:
            raise bad(f"{value} is below the minimum {decl.min}")
        if decl.max is not None and value > decl.max:
            raise bad(f"{value} is above the maximum {decl.max}")
        # A parameter can size an enumeration (bids up to max_bid): without a declared maximum it is bounded.
        if decl.max is None and abs(value) > MAX_PARAM_INT:
            raise bad(f"{value} is out of bounds: parameters without a declared maximum stay within ±{MAX_PARAM_INT}")
        return Param(decl.name, "int", value, None, decl.rule_id)
    if t.name == "bool":
        if not isinstance(value, bool):
            raise bad(f"needs true or false, not {value!r}")
        return Param(decl.name, "bool", value, None, decl.rule_id)
    if t.name in ("str", "enum"):
        if not isinstance(value, str):
            raise bad(f"needs a string, not {value!r}")
        if decl.choices is not None and value not in decl.choices:
            raise bad(f"{value!r} is not one of {', '.join(decl.choices)}")
        return Param(decl.name, "str", value, decl.choices, decl.rule_id)
    if t.name in ("rank", "suit"):
        return Param(decl.name, t.name, named(value, t.name), None, decl.rule_id)
    if t.name == "list" and t.elem is not None:
        inner = t.elem.name
        if not isinstance(value, list):
            raise bad(f"needs a list, not {value!r}")
        _list_shape(decl, value, deck, bad)
        if inner in ("rank", "suit"):
            return Param(decl.name, t.text, tuple(named(x, inner) for x in value), None, decl.rule_id)
        if inner == "int" and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return Param(decl.name, t.text, tuple(value), None, decl.rule_id)
        if inner == "str" and all(isinstance(x, str) for x in value):
            return Param(decl.name, t.text, tuple(value), None, decl.rule_id)
        raise bad(f"needs a list of {inner}, not {value!r}")
    if t.name == "map" and t.key is not None and t.elem is not None:
        key, val = t.key.name, t.elem.name
        if key not in ("rank", "suit") or val != "int" or deck is None:
            raise bad(f"unsupported map type {decl.type!r}")
        if not isinstance(value, dict):
            raise bad(f"needs a mapping from {key} to a number, not {value!r}")
        names = deck.ranks if key == "rank" else deck.suits
        keys = {str(k) for k in value}
        if keys != set(names):
            missing, extra = set(names) - keys, keys - set(names)
            raise bad("needs exactly one value for each " + key
                      + (f"; missing {', '.join(sorted(missing))}" if missing else "")
                      + (f"; unknown {', '.join(sorted(extra))}" if extra else ""))
        vals = {str(k): v for k, v in value.items()}
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals.values()):
            raise bad("every value must be a whole number")
        return Param(decl.name, "list[int]", tuple(vals[n] for n in names), None, decl.rule_id)
    raise bad(f"unknown parameter type {decl.type!r}")


def _list_shape(decl: ParamDecl, value: list[Any], deck: DeckShape | None,
                bad: Callable[[str], RulesetError]) -> None:
    """A list parameter's declared shape: ``per`` (one item per rank or suit), ``distinct``, ``min_items``."""
    if decl.per is not None and deck is not None:
        names = deck.ranks if decl.per == "rank" else deck.suits
        if len(value) != len(names):
            raise bad(f"needs one item for each {decl.per} ({len(names)}: {', '.join(names)}), not {len(value)}")
    if decl.min_items is not None and len(value) < decl.min_items:
        raise bad(f"needs at least {decl.min_items} item(s), not {len(value)}")
    if decl.distinct:
        seen: set[str] = set()
        for x in value:
            key = x.upper() if isinstance(x, str) else repr(x)  # as cards are read: in any case
            if key in seen:
                raise bad(f"lists {x!r} twice; its items must all differ")
            seen.add(key)


def var_init(decl_type: str, init: Any, deck: DeckShape) -> Any:
    """A state variable's start value as the interpreter holds it: a suit or rank by its number."""
    base = T.base(T.normalize(decl_type))
    if init == "none" or init is None:
        # Rule files write "none", as the rule language does.
        return None
    if isinstance(init, str) and base in ("suit", "rank"):
        names = deck.suits if base == "suit" else deck.ranks
        return names.index(init)
    return init


def declare(rules: Mapping[str, RuleText], params: Mapping[str, Param], deck: DeckShape,
            define_owner: Mapping[tuple[str, str], str]) -> Declarations:
    """Read and check what the rule files declare, in their order: ``define_owner`` names the overlay
    whose definition replaced a rule's own (the function is charged to it)."""
    phases: list[str] = []
    phase_rule: dict[str, str] = {}
    vars_: dict[str, VarDecl] = {}
    defines: dict[str, Define] = {}
    actions: dict[str, ActionDecl] = {}
    var_where: dict[str, Location] = {}
    for rid, doc in rules.items():
        for ph in doc.get("phases", []) or []:
            if str(ph) not in phases:
                phases.append(str(ph))
                phase_rule[str(ph)] = rid
        for vname, spec in (doc.get("state") or {}).items():
            where = where_of(vname, doc)
            if str(vname) in vars_:
                # An overlay's rule keeps the place of the rule it replaces: either may be the one read first.
                raise RuleFileError(f"state variable {str(vname)!r} is also declared by rule "
                                    f"{vars_[str(vname)].rule_id} ({var_where[str(vname)]})", where)
            if str(vname) in params or str(vname) in ENGINE_VARS or str(vname) in KEYWORDS:
                raise RuleFileError(f"state variable {str(vname)!r} clashes with another name", where)
            var_where[str(vname)] = where
            vtype = T.normalize(str(spec["type"]))
            if not T.valid(vtype):
                raise RuleFileError(f"unknown type {str(spec['type'])!r}", where_of(spec["type"], doc))
            zone = bool(spec.get("zone", False))
            if zone and vtype != "list[card]":
                raise RuleFileError("a zone must have type cards", where_of(spec["type"], doc))
            vars_[str(vname)] = VarDecl(str(vname), vtype, str(spec.get("scope", "game")),
                                        str(spec.get("lifetime", "deal")),
                                        var_init(vtype, plain(spec.get("init")), deck),
                                        bool(spec.get("record", False)), zone, rid,
                                        str(spec["explained_by"]) if "explained_by" in spec else None,
                                        plain(spec["samples"]) if "samples" in spec else None,
                                        str(spec["only_while"]) if "only_while" in spec else None)
        for dname, spec in (doc.get("define") or {}).items():
            where = where_of(dname, doc)
            if str(dname) in defines or str(dname) in REGISTRY:
                raise RuleFileError(f"definition {str(dname)!r} clashes with another function", where)
            args = [(str(a), T.normalize(str(t))) for a, t in (spec.get("args") or {}).items()]
            for a, t in args:
                if not T.valid(t):
                    raise RuleFileError(f"unknown type {t!r} for argument {a!r}", where)
            ret = T.normalize(str(spec["returns"]))
            if "expr" not in spec:
                raise RuleFileError(f"definition {str(dname)!r} needs an 'expr'", where)
            owner = define_owner.get((rid, str(dname)), rid)
            defines[str(dname)] = Define(str(dname), args, ret, spec["expr"], owner, False)
        for aname, spec in (doc.get("actions") or {}).items():
            where = where_of(aname, doc)
            if str(aname) in actions:
                raise RuleFileError(f"action {str(aname)!r} is already declared by rule "
                                    f"{actions[str(aname)].rule_id}", where)
            fields = [(str(f), T.normalize(str(t))) for f, t in (spec.get("payload") or {}).items()]
            choices = {str(f): c for f, c in (spec.get("choices") or {}).items()}
            for f in choices:
                if f not in dict(fields):
                    raise RuleFileError(f"choices given for {f!r}, which is not in the payload", where)
            if spec.get("sample") is None and set(choices) != {f for f, _ in fields}:
                raise RuleFileError(f"action {str(aname)!r} needs choices for every payload field, or a sample",
                                    where)
            hints = spec.get("random") or {}
            actions[str(aname)] = ActionDecl(str(aname), rid, str(spec["phase"]), str(spec.get("actor", "turn")),
                                             fields, choices, spec.get("sample"), float(hints.get("weight", 1.0)),
                                             hints.get("prefer") == "low", hints.get("hint"), spec.get("when"),
                                             where)
    for doc in rules.values():
        for vname, spec in (doc.get("state") or {}).items():
            flag = vars_.get(str(spec.get("only_while"))) if "only_while" in spec else None
            if "only_while" in spec and (flag is None or flag.scope != "seat" or T.base(flag.type) != "bool"
                                         or vars_[str(vname)].scope != "seat"):
                raise RuleFileError(f"only_while: {str(spec['only_while'])!r} is not a per-player flag, or "
                                    f"{str(vname)!r} is not a per-player value", where_of(spec["only_while"], doc))
    marks: dict[str, dict[str, str]] = {}
    mark_rule: dict[str, str] = {}
    for rid, doc in rules.items():
        for mname, spec in (doc.get("marks") or {}).items():
            if str(mname) in marks:
                raise RuleFileError(f"mark {str(mname)!r} is also declared by rule {mark_rule[str(mname)]}",
                                    where_of(mname, doc))
            marks[str(mname)] = {k: str(v) for k, v in spec.items()}
            mark_rule[str(mname)] = rid
    for decl in actions.values():
        if decl.phase not in phases:
            holder = rules[decl.rule_id]
            raise RuleFileError(f"action {decl.name!r} names unknown phase {decl.phase!r}" + near(decl.phase, phases),
                                where_of((holder.get("actions") or {}).get(decl.name, {}).get("phase"), holder))
    return Declarations(phases, phase_rule, vars_, defines, actions, marks, declare_teams(rules, params, vars_))


def declare_teams(rules: Mapping[str, RuleText], params: Mapping[str, Param],
                  vars_: Mapping[str, VarDecl]) -> Teams | None:
    """The ruleset's partnership, if a rule declares one (``teams:``): checked and typed here; that the
    parameter names one team for each seat is checked where the number of seats is known."""
    holders = [(rid, doc) for rid, doc in rules.items() if doc.get("teams") is not None]
    if not holders:
        return None
    if len(holders) > 1:
        raise RuleFileError("only one rule may declare the teams; they are declared by "
                            + ", ".join(rid for rid, _ in holders), where_of(holders[1][1].get("teams")["seats"],
                                                                             holders[1][1]))
    rid, doc = holders[0]
    spec = doc.get("teams")
    name = spec["seats"]
    param = params.get(str(name))
    if param is None or param.type != "list[int]":
        raise RuleFileError(f"teams.seats: {str(name)!r} is not a parameter of type list[int] (each seat's team)"
                            + near(str(name), [n for n, p in params.items() if p.type == "list[int]"]),
                            where_of(name, doc))
    value = tuple(int(x) for x in param.value)
    if any(x < 0 for x in value):
        raise RuleFileError(f"teams.seats: parameter {str(name)!r} numbers the teams from 0, not {list(value)}",
                            where_of(name, doc))
    shared: list[tuple[str, str]] = []
    for vname, flag in (spec.get("shared") or {}).items():
        var = vars_.get(str(vname))
        if var is None or var.scope != "seat":
            raise RuleFileError(f"teams.shared: {str(vname)!r} is not a per-player state variable"
                                + near(str(vname), [n for n, v in vars_.items() if v.scope == "seat"]),
                                where_of(vname, doc))
        fparam = params.get(str(flag))
        if fparam is None or fparam.type != "bool":
            raise RuleFileError(f"teams.shared.{vname}: {str(flag)!r} is not a yes/no parameter"
                                + near(str(flag), [n for n, p in params.items() if p.type == "bool"]),
                                where_of(flag, doc))
        shared.append((str(vname), str(flag)))
    sharing = tuple(v for v, flag in shared if params[flag].value)
    return Teams(str(name), value, tuple(shared), sharing, rid, where_of(name, doc))


def triggers(by_trigger: Mapping[str, Sequence[Clause]], decl: Declarations) -> dict[str, list[Clause]]:
    """Each trigger's clauses, checked: a clause is on an action, 'start' or 'enter <phase>', and only an
    action's clauses may forbid."""
    out: dict[str, list[Clause]] = {}
    actions, phases = decl.actions, decl.phases
    for on, row in by_trigger.items():
        if not row:
            continue
        valid_on = on in actions or on == "start" or (on.startswith("enter ") and on[6:] in phases)
        if not valid_on:
            raise RuleFileError(f"clause 'on: {on}' names no action, 'start' or 'enter <phase>'"
                                + near(on, list(actions) + [f"enter {p}" for p in phases]), row[0].where)
        for c in row:
            if c.forbid is not None and on not in actions:
                raise RuleFileError("'forbid' clauses guard actions; this one is on an event", c.where)
        out[on] = list(row)
    return out
