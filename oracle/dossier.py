"""What a preset's dossier must answer for, and which entry answers each point.

A named ruleset claims to be its source. Every rule of the *resolved* ruleset that can change a
verdict — one that can refuse an action (a live ``forbid`` clause), one whose effects write the
game's state, and the rules whose definitions those run — and every parameter is a point the
preset's dossier must answer for:

- with the preset's own source lines (an entry with ``sources``);
- with our decision, "the source is silent (or unclear); kept from classic because …", citing both
  sides: the preset's lines that are silent or near (``sources``) and the lines behind the kept
  reading (``kept``, or else the rule file's own ``sources`` and ``decisions``);
- or by an overlay of the ruleset that replaces the rule, takes every clause of it away, or sets the
  parameter: the overlay's own entry answers then, nothing more is needed.

An entry is keyed by a rule id (answering for the rule and all its parameters), a parameter name,
or an overlay id; ``also:`` lists more rule ids or parameters the same entry answers for. A
``silent:`` group answers for a list of them (``for:``) with one shared decision. A preset that
``extends`` another and keeps its source (cites no other text) inherits its parent's answers.
``classic`` cites no source of its own: each rule file's ``sources`` and ``decisions`` are its
dossier. Only names are checked when a ruleset is resolved (``oracle.ruleset``); this module
says what is missing, for the dossier test, ``thousand explain R --dossier`` and the site.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .rulefile import RuleDoc
from .ruleset import Library, Resolved, Ruleset
from .yamlpos import plain


class How(Enum):
    """How a point of the dossier is answered."""

    SOURCES = "sources"  # the preset's own source lines say it
    DECISION = "decision"  # the source is silent or unclear: our reading, both sides cited
    OVERLAY = "overlay"  # an overlay of the ruleset replaces the rule, switches it off or sets the value
    RULE_FILE = "rule file"  # classic: the rule file's own sources and decisions


class Kind(Enum):
    RULE = "rule"
    PARAMETER = "parameter"
    OVERLAY = "overlay"  # one that replaces a core rule or only sets values: no rule id of its own


@dataclass(frozen=True)
class Point:
    """One thing a dossier must answer for: a rule that can change a verdict, a parameter, or an overlay."""

    key: str  # the rule id, the parameter's name, or the overlay's id
    kind: Kind
    rule: str  # the rule itself, the rule that declares the parameter, or the overlay
    why: tuple[str, ...]  # what makes a rule count: "refuses: <reason>", "writes: <vars>", "used by: <rules>"

    @property
    def is_param(self) -> bool:
        return self.kind is Kind.PARAMETER

    def describe(self) -> str:
        return f"parameter {self.key!r} (rule {self.rule})" if self.is_param else f"{self.kind.value} {self.key!r}"


@dataclass(frozen=True)
class Answer:
    """What answers one point: an entry of a preset's dossier (its own or a parent's), or an overlay."""

    how: How
    preset: str | None  # the preset whose dossier holds the entry (None for an overlay or a rule file)
    key: str | None  # the entry's key in that dossier, or the overlay's id
    entry: dict[str, Any]  # the entry itself, plain (empty for an overlay or a rule file)


@dataclass(frozen=True)
class Row:
    point: Point
    answer: Answer | None  # None: the dossier does not answer for it


def points(rs: Ruleset) -> list[Point]:
    """Every rule of the resolved ruleset that can change a verdict, then every parameter; rules of the game
    only (a rule file with ``normative: false``, such as the play hints, never changes a verdict)."""
    rules = rs.rules
    normative = {rid for rid, doc in rules.items() if doc.get("normative", True) is not False}
    why: dict[str, list[str]] = {}
    users: dict[str, set[str]] = {}
    for action in rs.compiled.actions.values():
        for g in action.guards:
            if g.dead:
                continue  # folded to false by this ruleset's parameters: the parameter is the point
            why.setdefault(g.clause.rule_id, []).append(f"refuses: {g.clause.reason or g.clause.id}")
            for dep in g.deps - {g.clause.rule_id}:
                users.setdefault(dep, set()).add(g.clause.rule_id)
    for trigger in rs.compiled.triggers.values():
        for e in trigger.effects:
            if not e.writes:
                continue
            why.setdefault(e.rule_id, []).append("writes: " + ", ".join(sorted(e.writes)))
            for dep in e.deps - {e.rule_id}:
                users.setdefault(dep, set()).add(e.rule_id)
    for dep, by in users.items():
        why.setdefault(dep, []).append("used by: " + ", ".join(sorted(by)))
    out = [Point(rid, Kind.RULE, rid, tuple(dict.fromkeys(why[rid]))) for rid in sorted(why) if rid in normative]
    lib = rs.resolved.library
    out += [Point(oid, Kind.OVERLAY, oid, ()) for oid in rs.resolved.overlays
            if oid not in rules and lib.overlays[oid].get("normative", True) is not False]
    out += [Point(name, Kind.PARAMETER, decl.rule_id, ())
            for name, decl in sorted(rs.resolved.params.items()) if decl.rule_id in normative]
    return out


def cites_source(lib: Library, name: str) -> bool:
    """Whether the preset follows a text of its own (classic and the engines' presets do not)."""
    return bool(lib.presets[name].get("sources"))


def _seeds(doc: RuleDoc) -> set[str]:
    return {str(s["seed"]) for s in doc.get("sources") or []}


def dossier_chain(lib: Library, name: str) -> list[RuleDoc]:
    """The presets whose dossiers answer for ``name``: itself, then each parent it keeps the source of.

    A child keeps its parent's source when it cites no text the parent does not (and cites at least
    one): a ruleset built on another text answers for itself."""
    doc = lib.presets[name]
    chain = [doc]
    while doc.get("extends"):
        parent = lib.presets[str(doc.get("extends"))]
        if not _seeds(doc) or not _seeds(doc) <= _seeds(parent):
            break
        chain.append(parent)
        doc = parent
    return chain


def _entries(doc: RuleDoc) -> dict[str, tuple[str, dict[str, Any]]]:
    """Point key -> (the entry's key, the entry) for one preset file's dossier and silent groups."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for key, entry in plain(doc.get("dossier") or {}).items():
        for k in [key, *entry.get("also", [])]:
            out.setdefault(k, (key, entry))
    for i, group in enumerate(plain(doc.get("silent") or [])):
        for k in group["for"]:
            out.setdefault(k, (f"silent[{i}]", group))
    return out


def by_overlay(res: Resolved) -> dict[str, str]:
    """Rule or parameter -> the overlay of the ruleset that answers for it: a rule replaced whole or with
    every clause of its own taken away, a parameter set by an overlay (or declared by a replaced rule)."""
    out: dict[str, str] = {}
    own_clauses = {c.rule_id for c in res.sequence.clauses()}
    for rid, doc in res.rules.items():
        if doc.replaced_by:
            out[rid] = doc.replaced_by[-1]
        elif rid in res.changed_by and doc.origin == "spec" and rid not in own_clauses and doc.get("logic"):
            out[rid] = res.changed_by[rid][-1]
    for name, decl in res.params.items():
        who = res.set_by.get(name)
        if who in res.overlays:
            out[name] = who
        elif decl.rule_id in out:
            out[name] = out[decl.rule_id]
    return out


def _in_rule_file(res: Resolved, point: Point) -> bool:
    doc = res.rules.get(point.rule) or res.library.overlays[point.rule]
    if point.is_param:
        return bool(doc.get("sources")) or any(str(d.get("parameter")) == point.key for d in doc.get("decisions") or [])
    return bool(doc.get("sources") or doc.get("decisions"))


def rows(rs: Ruleset, chain: list[RuleDoc] | None = None) -> list[Row]:
    """Each point of the ruleset with what answers it: the dossiers of ``chain`` (by default the ruleset's
    own preset and the parents whose source it keeps, see ``dossier_chain``)."""
    res = rs.resolved
    chain = chain if chain is not None else dossier_chain(res.library, res.name)
    entries = [(doc.id, _entries(doc)) for doc in chain]
    overlay = by_overlay(res)
    through_rule_files = not chain[0].get("sources") and not chain[0].get("extends")
    def entry_for(key: str) -> Answer | None:
        return next((_answer(preset, *found[key]) for preset, found in entries if key in found), None)

    out = []
    for p in points(rs):
        answer = entry_for(p.key) or (entry_for(p.rule) if p.is_param else None)
        oid = overlay.get(p.key) or overlay.get(p.rule)
        # The overlay answers only where the dossier answers for the overlay itself.
        if answer is None and oid is not None and entry_for(oid) is not None:
            answer = Answer(How.OVERLAY, None, oid, {})
        if answer is None and through_rule_files and _in_rule_file(res, p):
            answer = Answer(How.RULE_FILE, None, None, {})
        out.append(Row(p, answer))
    return out


def _answer(preset: str, entry_key: str, entry: dict[str, Any]) -> Answer:
    return Answer(How.DECISION if entry.get("decision") else How.SOURCES, preset, entry_key, entry)


def missing(rs: Ruleset, chain: list[RuleDoc] | None = None) -> list[str]:
    """What the dossier leaves unanswered, or answers with a decision citing one side only."""
    out = []
    res = rs.resolved
    for row in rows(rs, chain):
        p, a = row.point, row.answer
        what = p.describe()
        if a is None:
            out.append(f"no dossier entry for {what}")
        elif a.how is How.DECISION:
            if not a.entry.get("sources"):
                out.append(f"{what}: the decision ({a.preset}: {a.key}) cites none of the preset's own lines")
            if not a.entry.get("kept") and not _in_rule_file(res, p):
                out.append(f"{what}: the decision ({a.preset}: {a.key}) cites no lines behind the kept reading "
                           f"(add 'kept:', the rule file cites none)")
    return out
