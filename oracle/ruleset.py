"""Resolving a ruleset: the core rules, overlays in order, then parameter values.

A preset (``variants/presets/*.yaml``) names overlays and parameter values; an
overlay (``variants/**.yaml``) sets parameters, replaces a named rule, or adds a
rule of its own. Names are checked: setting an unknown parameter or replacing an
unknown rule is an error, and two overlays that replace the same rule must say
which goes first. The result is compiled once per process and tree (see ``oracle.rulecache``
for what is cached, keyed by what, and when it is invalidated).
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from . import diskcache, rulecache
from .errors import Location, ParamError, RuleFileError, RulesetError
from .lang import types as T
from .lang.compiler import ENGINE_VARS, KEYWORDS, Define, Param, VarDecl
from .lang.program import ActionDecl, Clause, CompiledAction, CompiledProgram, Program, Trigger, compile_program
from .lang.stdlib import REGISTRY, DeckShape
from .limits import MAX_PARAM_INT
from .rulefile import RuleDoc, parse_doc, read_doc
from .sequence import Sequence
from .yamlpos import PosStr, plain

# The only names the interpreter itself reads from the parameters: the shape of
# the pack and the number of seats. Everything else is the rules' business.
DECK_PARAMS = ("ranks", "suits")
SEATS_PARAM = "players"


def rules_root() -> Path:
    """Where spec/ and variants/ are: $THOUSAND_RULES_ROOT, the installed package, or the checkout."""
    env = os.environ.get("THOUSAND_RULES_ROOT")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    packaged = here / "_rules"
    if (packaged / "spec").is_dir():
        return packaged
    return here.parent


# --------------------------------------------------------------------------- loading

@dataclass
class Library:
    """Every rule, overlay and preset file, loaded and schema-checked."""

    root: Path
    rules: dict[str, RuleDoc]
    overlays: dict[str, RuleDoc]
    presets: dict[str, RuleDoc]
    digest: str


_files = rulecache.rule_files


def _load_library(root: Path, digest: str) -> Library:
    """The library of the tree with this digest: from the disk cache when it holds it, else read."""
    kept = diskcache.load("library", digest)
    if isinstance(kept, dict):
        try:
            return Library(root, *({str(d["id"]): RuleDoc(str(d["id"]), path, d) for path, d in kept[part]}
                                   for part in ("rules", "overlays", "presets")), digest)
        except (KeyError, TypeError, ValueError):
            pass  # not what we wrote: read the files
    lib = _read_library(root, digest)
    diskcache.store("library", digest, {part: [[doc.path, doc.data] for doc in docs.values()]
                                        for part, docs in (("rules", lib.rules), ("overlays", lib.overlays),
                                                           ("presets", lib.presets))})
    return lib


def _load_doc(path: Path, display: str, kind: str = "rule") -> RuleDoc:
    # Shared by every library that holds this very file: a RuleDoc's data is never changed after
    # loading (resolve copies the docs it changes).
    raw = read_doc(path, display)
    return rulecache.loaded_file(display, kind, raw, lambda: parse_doc(raw, display, kind))


def _read_library(root: Path, digest: str) -> Library:
    rules: dict[str, RuleDoc] = {}
    overlays: dict[str, RuleDoc] = {}
    presets: dict[str, RuleDoc] = {}
    for path in _files(root / "spec"):
        doc = _load_doc(path, str(path.relative_to(root)))
        _no_overlay_fields(doc)
        if doc.id in rules:
            raise RuleFileError(f"rule id {doc.id!r} is already used by {rules[doc.id].path}", doc.id_location())
        rules[doc.id] = doc
    for path in _files(root / "variants"):
        display = str(path.relative_to(root))
        if path.parent.name == "presets":
            doc = _load_doc(path, display, "preset")
            if doc.id in presets:
                raise RuleFileError(f"preset {doc.id!r} is already defined in {presets[doc.id].path}",
                                    doc.id_location())
            presets[doc.id] = doc
        else:
            doc = _load_doc(path, display)
            if doc.id in overlays or doc.id in rules:
                other = overlays.get(doc.id) or rules[doc.id]
                raise RuleFileError(f"id {doc.id!r} is already used by {other.path}", doc.id_location())
            overlays[doc.id] = doc
    return Library(root, rules, overlays, presets, digest)


def _no_overlay_fields(doc: RuleDoc) -> None:
    for key in ("set", "overrides", "after", "conflicts", "requires", "change"):
        if key in doc.data:
            k = next(k for k in doc.data if k == key)
            loc = k.location() if isinstance(k, PosStr) else doc.location()
            raise RuleFileError(f"'{key}' belongs in an overlay under variants/, not in a core rule", loc)


def tree_digest(root: Path) -> str:
    """A hash of every rule file's name and content under ``root``, read once per process (see rulecache)."""
    return rulecache.tree(root.resolve()).digest


_ROOTS: dict[tuple[str | None, str | None], Path] = {}


def _root(root: Path | None) -> Path:
    """``root``, or the rules root, resolved; remembered, so a call costs no file-system access."""
    key = (str(root) if root is not None else None, os.environ.get("THOUSAND_RULES_ROOT"))
    hit = _ROOTS.get(key)
    if hit is None:
        hit = _ROOTS[key] = (root or rules_root()).resolve()
    return hit


def load_library(root: Path | None = None) -> Library:
    root = _root(root)
    if not (root / "spec").is_dir():
        raise RulesetError(f"no rule files at {root} (it has no spec/ folder); check THOUSAND_RULES_ROOT")
    return rulecache.library(root, _load_library)


# --------------------------------------------------------------------------- resolution

@dataclass
class ParamDecl:
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
class SheetLayout:
    """Which values of the rules are the score sheet's columns (stated once, in ``spec/scoring/sheet.yaml``).

    Readers of the sheet (the replay table, the records' final score, the site's worked game) take
    the names from here, so no module of the oracle knows what a game calls its totals.
    """

    total: str  # per seat: the running total, and the game's final score
    points: str  # per seat: what a deal writes down
    declarer: str  # the deal's declarer (a seat, or none)
    contract: str  # his contract
    conceded: str  # whether he conceded the deal
    conceded_mark: str  # the mark written beside the contract of a conceded deal


@dataclass
class Resolved:
    """A ruleset after overlays and parameters, before compilation."""

    name: str
    library: Library
    overlays: list[str]
    rules: dict[str, RuleDoc]
    params: dict[str, ParamDecl]
    values: dict[str, Any]
    set_by: dict[str, str]  # parameter -> who set its value (overlay, preset, or "override")
    sequence: Sequence = field(default_factory=Sequence)  # every trigger's clauses, in order
    changed_by: dict[str, list[str]] = field(default_factory=dict)  # rule -> overlays that change a part of it
    define_owner: dict[tuple[str, str], str] = field(default_factory=dict)  # (rule, definition) -> overlay
    set_at: dict[str, Location] = field(default_factory=dict)  # parameter -> where its value was set


def resolve(name: str = "classic", overlays: list[str] | None = None, params: dict[str, Any] | None = None,
            root: Path | None = None) -> Resolved:
    lib = load_library(root)
    if not name:
        raise RulesetError(f"a ruleset needs a name; known: {', '.join(sorted(lib.presets))}")
    chain: list[RuleDoc] = []
    seen: set[str] = set()
    preset_name = name
    named_at: Location | None = None  # where the preset being looked up is named: None for the caller's name
    while preset_name:
        if preset_name not in lib.presets:
            raise RulesetError(f"unknown ruleset {preset_name!r}; known: {', '.join(sorted(lib.presets))}",
                               named_at)
        if preset_name in seen:
            raise RulesetError(f"ruleset {preset_name!r} extends itself"
                               + (f" (through {' → '.join(d.id for d in chain)})" if len(chain) > 1 else ""),
                               named_at)
        seen.add(preset_name)
        doc = lib.presets[preset_name]
        chain.append(doc)
        extends = doc.get("extends")
        named_at = _loc(extends, doc)
        preset_name = str(extends or "")
    chain.reverse()
    # Each overlay with where it is named: in a preset's list, or by the caller (no place in a file).
    listed: list[tuple[str, Location | None]] = []
    for doc in chain:
        listed.extend((str(o), _loc(o, doc)) for o in doc.get("overlays", []))
    listed.extend((str(o), None) for o in overlays or [])
    overlay_ids = [oid for oid, _ in listed]

    rules = {rid: copy.copy(doc) for rid, doc in lib.rules.items()}
    for rid in rules:
        rules[rid].replaced_by = []
    seq = _core_sequence(rules)
    changed_by: dict[str, list[str]] = {}
    define_owner: dict[tuple[str, str], str] = {}
    applied: list[str] = []
    replaced: dict[str, str] = {}
    sets: list[tuple[str, dict[str, Any], Location]] = []
    for oid, named in listed:
        if oid not in lib.overlays:
            raise RulesetError(f"unknown overlay {oid!r}" + _near(oid, lib.overlays), named)
        if oid in applied:
            raise RulesetError(f"overlay {oid!r} is listed twice", named)
        ov = lib.overlays[oid]
        # The ruleset's list is at fault (an order, a pair) where it is written; else the overlay's own line.
        for need in ov.get("requires", []):
            if str(need) not in applied:
                raise RulesetError(f"overlay {oid!r} requires overlay {str(need)!r} earlier in the ruleset "
                                   f"(add it before {oid!r})", named or _loc(need, ov))
        for other in ov.get("conflicts", []):
            if str(other) in applied or str(other) in overlay_ids:
                raise RulesetError(f"overlays {oid!r} ({ov.path}) and {str(other)!r} are declared incompatible",
                                   named or _loc(other, ov))
        with _listed(named, oid):
            target = ov.get("overrides")
            if target is not None:
                target = str(target)
                if target not in rules:
                    raise RulesetError(f"overlay {oid!r} overrides rule {target!r}, which does not exist"
                                       + _near(target, rules), _loc(ov.data.get("overrides"), ov))
                if target in replaced:
                    first = replaced[target]
                    if first not in [str(a) for a in ov.get("after", [])]:
                        raise RulesetError(
                            f"overlays {first!r} and {oid!r} both override rule {target!r}; "
                            f"say which comes first with 'after: [{first}]' in {ov.path}",
                            _loc(ov.data["overrides"], ov))
                replaced[target] = oid
                base = rules[target]
                merged = dict(base.data)
                for key in ("logic", "define", "actions", "state", "phases"):
                    if key in ov.data:
                        merged[key] = ov.data[key]
                if "params" in ov.data:
                    merged["params"] = {**base.data.get("params", {}), **ov.data["params"]}
                new = RuleDoc(target, base.path, merged, origin=oid, replaced_by=[*base.replaced_by, oid])
                rules[target] = new
                if "logic" in ov.data:
                    _replace_rule_clauses(seq, target, _clauses_of(ov, target, target))
            elif any(k in ov.data for k in ("logic", "define", "actions", "state", "params", "phases", "change")):
                rules[oid] = RuleDoc(oid, ov.path, ov.data, origin=oid)
                for c, after, before in _clauses_of(ov, oid, oid):
                    seq.insert(c, after, before, c.where)
            for rid, change in (ov.get("change") or {}).items():
                _apply_change(seq, rules, oid, ov, str(rid), change, define_owner)
                changed_by.setdefault(str(rid), []).append(oid)
        if "set" in ov.data:
            sets.append((oid, ov.data["set"], ov.location()))
        for after in ov.get("after", []):
            if str(after) not in lib.overlays:
                raise RulesetError(f"overlay {oid!r} names {str(after)!r} in 'after', which is not an overlay",
                                   _loc(after, ov))
        applied.append(oid)
    for doc in chain:
        sets.append((f"preset {doc.id}", doc.get("set", {}), doc.location()))
    if params:
        sets.append(("override", params, Location("<command line>")))

    decls = _collect_params(rules)
    values = {n: d.default for n, d in decls.items()}
    set_by: dict[str, str] = {}
    set_at: dict[str, Location] = {}
    for who, mapping, loc in sets:
        for key, value in mapping.items():
            pname = str(key)
            if pname not in decls:
                where = key.location() if isinstance(key, PosStr) else loc
                raise ParamError(f"{who} sets unknown parameter {pname!r}" + _near(pname, decls), where, str(pname))
            values[pname] = _plain(value)
            set_by[pname] = who
            # A value refused later is reported where it is written: the value itself, or its key.
            set_at[pname] = _first_position(value) or (key.location() if isinstance(key, PosStr) else loc)
    return Resolved(name, lib, applied, rules, decls, values, set_by, seq, changed_by, define_owner, set_at)


# --------------------------------------------------------------------------- clauses and their order

def _clauses_of(doc: RuleDoc, rule_id: str, name_rule: str) -> list[tuple[Clause, str | None, str | None]]:
    """A rule file's clauses, each with its anchor (``after`` or ``before``) if it names one."""
    out: list[tuple[Clause, str | None, str | None]] = []
    seen: set[str] = set()
    for cl in doc.get("logic") or []:
        cid = cl["id"]
        where = _loc(cid, doc)
        if str(cid) in seen:
            raise RuleFileError(f"clause id {str(cid)!r} is used twice in {doc.id}", where)
        seen.add(str(cid))
        out.append((_clause(f"{name_rule}/{cid}", rule_id, cl, where),
                    str(cl["after"]) if "after" in cl else None, str(cl["before"]) if "before" in cl else None))
    return out


def _clause(ref: str, rule_id: str, cl: dict[str, Any], where: Location) -> Clause:
    message = cl.get("message")
    # Refusals are worded in English in verdicts; the site shows both languages from the file.
    text = str(message["en"]) if isinstance(message, dict) else str(message) if message is not None else None
    return Clause(ref, rule_id, str(cl["on"]), cl.get("forbid"), str(cl["reason"]) if "reason" in cl else None,
                  text, cl.get("do"), where)


def _core_sequence(rules: dict[str, RuleDoc]) -> Sequence:
    clauses: dict[str, Clause] = {}
    for rid, doc in rules.items():
        for c, after, before in _clauses_of(doc, rid, rid):
            if after is not None or before is not None:
                raise RuleFileError("a core clause takes its place from the sequence, not from 'after'/'before'",
                                    c.where)
            clauses[c.ref] = c
    holders = [doc for doc in rules.values() if "sequence" in doc.data]
    if len(holders) != 1:
        raise RulesetError("exactly one core rule must state the sequence of clauses; found "
                           + (", ".join(d.path for d in holders) or "none"), _second_holder(holders, "sequence"))
    holder = holders[0]
    order = {str(on): [(str(ref), _loc(ref, holder)) for ref in refs or []]
             for on, refs in holder.data["sequence"].items()}
    return Sequence.from_core(order, clauses, holder.location())


def _replace_rule_clauses(seq: Sequence, rule_id: str,
                          new: list[tuple[Clause, str | None, str | None]]) -> None:
    """A whole rule replaced: a new clause with an old clause's id takes its place; the rest are placed."""
    old = {c.ref: c for c in seq.clauses() if c.ref.startswith(rule_id + "/")}
    pending = []
    for c, after, before in new:
        if c.ref in old and old[c.ref].on == c.on and after is None and before is None:
            seq.replace(old.pop(c.ref), c)
        else:
            pending.append((c, after, before))
    for c in old.values():
        seq.drop(c)
    for c, after, before in pending:
        seq.insert(c, after, before, c.where)


def _apply_change(seq: Sequence, rules: dict[str, RuleDoc], oid: str, ov: RuleDoc, rid: str,
                  change: dict[str, Any], define_owner: dict[tuple[str, str], str]) -> None:
    """One overlay's change to one named part of a rule: a clause replaced or dropped, a definition replaced."""
    if rid not in rules:
        raise RulesetError(f"overlay {oid!r} changes rule {rid!r}, which does not exist" + _near(rid, rules),
                           _loc(next((k for k in ov.data["change"] if k == rid), rid), ov))
    for cid, fields in (change.get("replace") or {}).items():
        old = seq.find(f"{rid}/{cid}", _loc(cid, ov))
        merged = {"on": old.on, "forbid": old.forbid, "reason": old.reason, "message": old.message, "do": old.do}
        merged.update({str(k): v for k, v in fields.items()})
        if merged.get("forbid") is not None and merged.get("do") is not None:
            raise RuleFileError(f"clause {old.ref!r} would both forbid and do", _loc(cid, ov))
        seq.replace(old, _clause(old.ref, oid, {k: v for k, v in merged.items() if v is not None}, _loc(cid, ov)))
    for cid in change.get("drop") or []:
        seq.drop(seq.find(f"{rid}/{cid}", _loc(cid, ov)))
    if change.get("define"):
        base = rules[rid]
        defines = dict(base.data.get("define") or {})
        for dname, spec in change["define"].items():
            if dname not in defines:
                raise RulesetError(f"overlay {oid!r} replaces definition {str(dname)!r} of rule {rid!r}, which has "
                                   f"no such definition" + _near(str(dname), defines), _loc(dname, ov))
            defines[dname] = spec
            define_owner[(rid, str(dname))] = oid
        rules[rid] = RuleDoc(rid, base.path, {**base.data, "define": defines}, origin=base.origin,
                             replaced_by=base.replaced_by)


@contextmanager
def _listed(named: Location | None, oid: str) -> Iterator[None]:
    """An overlay that does not fit the others of its ruleset (a clause it anchors to, a rule it changes,
    is not there): the ruleset's list is at fault where it names the overlay, and the message keeps the
    overlay's own place."""
    try:
        yield
    except RulesetError as exc:
        if named is None or isinstance(exc, ParamError):
            raise
        raise RulesetError(f"overlay {oid!r} does not fit this ruleset: {exc.message}"
                           + (f" ({exc.location})" if exc.location is not None else ""), named) from None


def _loc(value: Any, doc: RuleDoc) -> Location:
    return value.location() if isinstance(value, PosStr) else doc.location()


# Where something the core rules must hold is missing from: their folder (no file holds it to point at).
_MISSING = Location("spec")


def _second_holder(holders: list[RuleDoc], key: str) -> Location:
    """Where a second rule states what only one may (its key), or the core folder when none does."""
    if len(holders) < 2:
        return _MISSING
    doc = holders[1]
    return _loc(next(k for k in doc.data if k == key), doc)


def _first_position(value: Any) -> Location | None:
    """Where a value read from a rule file is written: its own text, or the first text inside it."""
    if isinstance(value, PosStr):
        return value.location()
    for x in value.values() if isinstance(value, dict) else value if isinstance(value, list) else ():
        found = _first_position(x)
        if found is not None:
            return found
    return None


def _near(name: str, known: Any) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


_plain = plain  # the name the rest of this module (and tools/mutation.py) uses


def _collect_params(rules: dict[str, RuleDoc]) -> dict[str, ParamDecl]:
    decls: dict[str, ParamDecl] = {}
    for rid, doc in rules.items():
        for pname, spec in (doc.get("params") or {}).items():
            where = pname.location() if isinstance(pname, PosStr) else doc.location()
            if pname in decls and decls[pname].rule_id != rid:
                raise RuleFileError(f"parameter {str(pname)!r} is already declared by rule {decls[pname].rule_id}",
                                    where)
            if str(pname) in KEYWORDS or str(pname) in ENGINE_VARS or str(pname) in REGISTRY:
                raise RuleFileError(f"parameter name {str(pname)!r} is reserved", where)
            choices = tuple(str(c) for c in spec["choices"]) if "choices" in spec else None
            decls[str(pname)] = ParamDecl(str(pname), str(spec["type"]), _plain(spec["default"]), choices,
                                          spec.get("min"), spec.get("max"), rid,
                                          {k: str(v) for k, v in spec["doc"].items()}, where,
                                          str(spec["per"]) if "per" in spec else None, bool(spec.get("distinct")),
                                          spec.get("min_items"))
    return decls


# --------------------------------------------------------------------------- parameter values

def encode_param(decl: ParamDecl, value: Any, deck: DeckShape | None) -> Param:
    """Check a parameter value against its declared type and give its compiled form."""
    t = decl.type.replace(" ", "")

    def bad(msg: str) -> RulesetError:
        return RulesetError(f"parameter {decl.name!r} (rule {decl.rule_id}): {msg}", decl.where)

    def named(x: Any, kind: str) -> int:
        assert deck is not None
        names = deck.ranks if kind == "rank" else deck.suits
        if str(x) not in names:
            raise bad(f"{x!r} is not a {kind}; the {kind}s are {', '.join(names)}")
        return names.index(str(x))

    if t == "int":
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
    if t == "bool":
        if not isinstance(value, bool):
            raise bad(f"needs true or false, not {value!r}")
        return Param(decl.name, "bool", value, None, decl.rule_id)
    if t in ("str", "enum"):
        if not isinstance(value, str):
            raise bad(f"needs a string, not {value!r}")
        if decl.choices is not None and value not in decl.choices:
            raise bad(f"{value!r} is not one of {', '.join(decl.choices)}")
        return Param(decl.name, "str", value, decl.choices, decl.rule_id)
    if t in ("rank", "suit"):
        return Param(decl.name, t, named(value, t), None, decl.rule_id)
    if t.startswith("list[") and t.endswith("]"):
        inner = t[5:-1]
        if not isinstance(value, list):
            raise bad(f"needs a list, not {value!r}")
        _list_shape(decl, value, deck, bad)
        if inner in ("rank", "suit"):
            return Param(decl.name, t, tuple(named(x, inner) for x in value), None, decl.rule_id)
        if inner == "int" and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return Param(decl.name, t, tuple(value), None, decl.rule_id)
        if inner == "str" and all(isinstance(x, str) for x in value):
            return Param(decl.name, t, tuple(value), None, decl.rule_id)
        raise bad(f"needs a list of {inner}, not {value!r}")
    if t.startswith("map[") and t.endswith("]"):
        key, _, val = t[4:-1].partition(",")
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


# --------------------------------------------------------------------------- compiling

_D = TypeVar("_D")


@dataclass
class Ruleset:
    """A compiled ruleset: what the interpreter runs.

    ``program`` is what the rules declare (pack, parameters, state layout, actions, each
    trigger's clauses in order); ``compiled`` holds, for each action and each trigger, the
    compiled functions themselves.
    """

    name: str
    resolved: Resolved
    program: Program
    compiled: CompiledProgram
    key: str
    marks: dict[str, dict[str, str]]  # mark -> symbol, en, ru
    sheet: SheetLayout  # the score sheet's columns

    @property
    def deck(self) -> DeckShape:
        return self.program.deck

    @property
    def players(self) -> int:
        return int(self.program.params[SEATS_PARAM].value)

    @property
    def params(self) -> dict[str, Param]:
        return self.program.params

    @property
    def vars(self) -> dict[str, VarDecl]:
        return self.program.vars

    @property
    def phases(self) -> list[str]:
        return self.program.phases

    @property
    def actions(self) -> dict[str, ActionDecl]:
        return self.program.actions

    @property
    def action_rule(self) -> dict[str, str]:
        """Action -> the rule that declares it."""
        return {name: a.rule_id for name, a in self.program.actions.items()}

    @property
    def logic_rules(self) -> set[str]:
        return self.program.logic_rules

    def action(self, name: str) -> CompiledAction:
        return self.compiled.actions[name]

    def trigger(self, on: str) -> Trigger | None:
        return self.compiled.triggers.get(on)

    @property
    def guards(self) -> dict[str, list[Clause]]:
        """Each action's guard clauses, in the order they are asked."""
        return {name: [g.clause for g in a.guards] for name, a in self.compiled.actions.items()}

    @property
    def effects(self) -> dict[str, list[Clause]]:
        """Each trigger's effect clauses, in the order they run."""
        return {on: [e.clause for e in t.effects] for on, t in self.compiled.triggers.items()}

    @property
    def writes(self) -> dict[str, set[str]]:
        """Rule id -> the state variables its effects assign."""
        out: dict[str, set[str]] = {}
        for t in self.compiled.triggers.values():
            for e in t.effects:
                out.setdefault(e.rule_id, set()).update(e.writes)
        return out

    @cached_property
    def recorded(self) -> list[VarDecl]:
        return [d for d in self.vars.values() if d.record]

    @cached_property
    def layout(self) -> dict[str, tuple[tuple[str, bool, Any, bool], ...]]:
        """Lifetime -> the state variables that start afresh with it (zones are dealt, not reset), each as
        (name, one value per seat, initial value, whether that value is a list to copy); "*" holds them all."""
        entries = {d.name: (d.name, d.scope == "seat", d.init, isinstance(d.init, list)) for d in self.vars.values()}
        out: dict[str, tuple[tuple[str, bool, Any, bool], ...]] = {"*": tuple(entries.values())}
        for d in self.vars.values():
            if not d.zone:
                out[d.lifetime] = (*out.get(d.lifetime, ()), entries[d.name])
        return out

    @property
    def rules(self) -> dict[str, RuleDoc]:
        return self.resolved.rules

    def param(self, name: str) -> Any:
        return self.resolved.values[name]

    def derived(self, make: Callable[[Ruleset], _D]) -> _D:
        """``make(self)``, worked out once per ruleset: for values later stages build from a ruleset (the
        card notation, a record codec's readers), which a ruleset cannot import. Keyed by the function
        itself, so two stages cannot collide on a name; a ruleset never changes once compiled."""
        memo = self.__dict__.setdefault("_derived", {})
        try:
            return memo[make]  # type: ignore[no-any-return]
        except KeyError:
            value = memo[make] = make(self)
            return value

    def sources_of(self, rule_id: str) -> list[dict[str, Any]]:
        doc = self.rules.get(rule_id)
        if doc is None:
            return []
        return [{"seed": str(s["seed"]), "lines": list(s["lines"])} for s in doc.get("sources", [])]


def _var_init(decl_type: str, init: Any, deck: DeckShape) -> Any:
    base = T.base(T.normalize(decl_type))
    if init == "none" or init is None:
        # Rule files write "none", as the rule language does.
        return None
    if isinstance(init, str) and base in ("suit", "rank"):
        names = deck.suits if base == "suit" else deck.ranks
        return names.index(init)
    return init


def compile_resolved(res: Resolved) -> Ruleset:
    rules = res.rules
    for name in (*DECK_PARAMS, SEATS_PARAM):
        if name not in res.params:
            raise RulesetError(f"the rules must declare the parameter {name!r}", _MISSING)
    ranks, suits = res.values["ranks"], res.values["suits"]
    if not (isinstance(ranks, list) and isinstance(suits, list) and ranks and suits):
        bad = "ranks" if not (isinstance(ranks, list) and ranks) else "suits"
        raise RulesetError("parameters 'ranks' and 'suits' must be non-empty lists",
                           res.set_at.get(bad) or res.params[bad].where)
    deck = DeckShape(tuple(str(r) for r in ranks), tuple(str(s) for s in suits))
    params: dict[str, Param] = {}
    for n, d in res.params.items():
        try:
            params[n] = encode_param(d, res.values[n], deck)
        except RulesetError as exc:
            who = res.set_by.get(n)
            if who is None:
                raise
            raise ParamError(f"{who} sets {exc.message}", Location("<command line>") if who == "override"
                             else res.set_at.get(n), n) from None

    phases: list[str] = []
    phase_rule: dict[str, str] = {}
    vars_: dict[str, VarDecl] = {}
    defines: dict[str, Define] = {}
    actions: dict[str, ActionDecl] = {}
    for rid, doc in rules.items():
        for ph in doc.get("phases", []) or []:
            if str(ph) not in phases:
                phases.append(str(ph))
                phase_rule[str(ph)] = rid
        for vname, spec in (doc.get("state") or {}).items():
            where = vname.location() if isinstance(vname, PosStr) else doc.location()
            if str(vname) in vars_ or str(vname) in params or str(vname) in ENGINE_VARS or str(vname) in KEYWORDS:
                raise RuleFileError(f"state variable {str(vname)!r} clashes with another name", where)
            vtype = T.normalize(str(spec["type"]))
            if not T.valid(vtype):
                raise RuleFileError(f"unknown type {str(spec['type'])!r}", _loc(spec["type"], doc))
            zone = bool(spec.get("zone", False))
            if zone and T.normalize(vtype) != "list[card]":
                raise RuleFileError("a zone must have type cards", _loc(spec["type"], doc))
            vars_[str(vname)] = VarDecl(str(vname), vtype, str(spec.get("scope", "game")),
                                        str(spec.get("lifetime", "deal")),
                                        _var_init(vtype, _plain(spec.get("init")), deck),
                                        bool(spec.get("record", False)), zone, rid,
                                        str(spec["explained_by"]) if "explained_by" in spec else None,
                                        _plain(spec["samples"]) if "samples" in spec else None)
        for dname, spec in (doc.get("define") or {}).items():
            where = dname.location() if isinstance(dname, PosStr) else doc.location()
            if str(dname) in defines or str(dname) in REGISTRY:
                raise RuleFileError(f"definition {str(dname)!r} clashes with another function", where)
            args = [(str(a), T.normalize(str(t))) for a, t in (spec.get("args") or {}).items()]
            for a, t in args:
                if not T.valid(t):
                    raise RuleFileError(f"unknown type {t!r} for argument {a!r}", where)
            ret = T.normalize(str(spec["returns"]))
            if "expr" not in spec:
                raise RuleFileError(f"definition {str(dname)!r} needs an 'expr'", where)
            owner = res.define_owner.get((rid, str(dname)), rid)
            defines[str(dname)] = Define(str(dname), args, ret, spec["expr"], owner, False)
        for aname, spec in (doc.get("actions") or {}).items():
            where = aname.location() if isinstance(aname, PosStr) else doc.location()
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

    marks: dict[str, dict[str, str]] = {}
    for doc in rules.values():
        for mname, spec in (doc.get("marks") or {}).items():
            marks[str(mname)] = {k: str(v) for k, v in spec.items()}
    logic_rules = {rid for rid, doc in rules.items()
                   if doc.get("logic") or doc.get("define") or doc.get("actions") or doc.get("change")}
    logic_rules |= set(res.define_owner.values())
    logic_rules |= {c.rule_id for c in res.sequence.clauses()}
    for act in actions.values():
        if act.phase not in phases:
            holder = rules[act.rule_id]
            raise RuleFileError(f"action {act.name!r} names unknown phase {act.phase!r}" + _near(act.phase, phases),
                                _loc(holder.data.get("actions", {}).get(act.name, {}).get("phase"), holder))
    sequence: dict[str, list[Clause]] = {}
    for on, row in res.sequence.by_trigger.items():
        if not row:
            continue
        valid_on = on in actions or on == "start" or (on.startswith("enter ") and on[6:] in phases)
        if not valid_on:
            raise RuleFileError(f"clause 'on: {on}' names no action, 'start' or 'enter <phase>'"
                                + _near(on, list(actions) + [f"enter {p}" for p in phases]), row[0].where)
        for c in row:
            if c.forbid is not None and on not in actions:
                raise RuleFileError("'forbid' clauses guard actions; this one is on an event", c.where)
        sequence[on] = list(row)
    program = Program(deck, params, vars_, defines, phases, actions, sequence, set(marks), logic_rules, phase_rule)
    # Everything the program is made of: the rule files, the ruleset, its overlays, its parameter values.
    key = hashlib.sha256(repr((res.library.digest, res.name, res.overlays, sorted(res.values.items(),
                                                                                  key=str))).encode()).hexdigest()
    sheet = _sheet_layout(rules, vars_, marks)
    compiled = compile_program(program, f"<ruleset {res.name}>", key)
    return Ruleset(res.name, res, program, compiled, key, marks, sheet)


def _sheet_layout(rules: dict[str, RuleDoc], vars_: dict[str, VarDecl],
                  marks: dict[str, dict[str, str]]) -> SheetLayout:
    holders = [doc for doc in rules.values() if "sheet" in doc.data]
    if len(holders) != 1:
        raise RulesetError("exactly one core rule must state the score sheet's columns ('sheet'); found "
                           + (", ".join(d.path for d in holders) or "none"), _second_holder(holders, "sheet"))
    holder = holders[0]
    spec = {str(k): str(v) for k, v in holder.data["sheet"].items()}
    layout = SheetLayout(**spec)
    # (column, the scope it must have) — a per-player column is a per-seat variable.
    wanted = {"total": "seat", "points": "seat", "declarer": "game", "contract": "game", "conceded": "game"}
    for column, scope in wanted.items():
        name = spec[column]
        decl = vars_.get(name)
        if decl is None or decl.scope != scope:
            what = "per-player" if scope == "seat" else "game"
            raise RuleFileError(f"sheet.{column}: {name!r} is not a {what} state variable of this ruleset"
                                + _near(name, list(vars_)), _loc(holder.data["sheet"][column], holder))
    if layout.conceded_mark not in marks:
        raise RuleFileError(f"sheet.conceded_mark: no mark {layout.conceded_mark!r}" + _near(layout.conceded_mark,
                                                                                              list(marks)),
                            _loc(holder.data["sheet"]["conceded_mark"], holder))
    return layout


def load_ruleset(name: str = "classic", overlays: list[str] | None = None, params: dict[str, Any] | None = None,
                 root: Path | None = None) -> Ruleset:
    """Resolve and compile a named ruleset, once per process and rule tree (see ``oracle.rulecache``)."""
    where = _root(root)
    request = (name, tuple(overlays or ()), repr(sorted((params or {}).items())))
    return rulecache.ruleset(where, request, lambda: compile_resolved(resolve(name, overlays, params, where)))
