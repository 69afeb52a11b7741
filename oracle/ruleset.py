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
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from . import diskcache, rulecache
from .errors import Location, ParamError, RuleFileError, RulesetError
from .lang.compiler import Param, VarDecl
from .lang.declarations import (
    ParamDecl,
    Teams,
    declare,
    declare_params,
    encode_param,
    file_params,
    near,
    triggers,
    where_of,
)
from .lang.program import (
    ActionDecl,
    Analysis,
    Clause,
    CompiledAction,
    CompiledProgram,
    Program,
    Trigger,
    compile_analysis,
    compile_program,
)
from .lang.stdlib import DeckShape
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
    """Every rule, overlay and preset file, loaded and schema-checked.

    What every resolution of its rulesets would work out again from the same files is worked out once
    here: the core's sequence of clauses, and the parameters each file declares. A file's
    declarations are known by its data, which resolution shares with the library where an overlay
    leaves the file as it is; a file an overlay merges is new data, declared afresh each time (and
    not kept, so the library holds only what its own files declare)."""

    root: Path
    rules: dict[str, RuleDoc]
    overlays: dict[str, RuleDoc]
    presets: dict[str, RuleDoc]
    digest: str
    # (rule id, id of its file's data) -> what the file declares: the library's own files only.
    _declared: dict[tuple[str, int], list[ParamDecl]] = field(default_factory=dict, repr=False, compare=False)

    def core_sequence(self) -> Sequence:
        """The core rules' clauses in the order the core states, checked: a new copy, the caller's to change."""
        return self._core.copy()

    @cached_property
    def _core(self) -> Sequence:
        return _core_sequence(self.rules)

    @cached_property
    def own_data(self) -> set[int]:
        # The library's files outlive every key here, so an id names one file's data for as long as it is kept.
        return {id(d.data) for d in (*self.rules.values(), *self.overlays.values())}

    def declared_params(self, rules: dict[str, RuleDoc]) -> dict[str, ParamDecl]:
        """:func:`declare_params` of ``rules``, each file of this library among them declared once."""
        return declare_params(rules, self._file_params)

    def _file_params(self, rid: str, doc: RuleDoc) -> list[ParamDecl]:
        if id(doc.data) not in self.own_data:
            return file_params(rid, doc)  # merged by an overlay: new data, not kept
        key = (rid, id(doc.data))
        hit = self._declared.get(key)
        if hit is None:
            hit = self._declared[key] = file_params(rid, doc)
        return hit


_files = rulecache.rule_files


def _load_library(root: Path, digest: str) -> Library:
    """The library of the tree with this digest: from the disk cache when it holds it, else read."""
    kept = diskcache.load("library", digest)
    if isinstance(kept, list):
        try:
            parts: dict[str, dict[str, RuleDoc]] = {"rules": {}, "overlays": {}, "presets": {}}
            for part, path, d in kept:
                parts[part][str(d["id"])] = RuleDoc(str(d["id"]), path, d)
            return Library(root, parts["rules"], parts["overlays"], parts["presets"], digest)
        except (KeyError, TypeError, ValueError):
            pass  # not what we wrote: read the files
    lib, files = _read_library(root, digest)
    try:
        diskcache.store_list("library", digest, [f.kept for f in files])
    except (ValueError, TypeError, RecursionError):
        pass  # a value the cache cannot keep: the next start reads the files
    return lib


@dataclass(eq=False)
class _LoadedFile:
    """A rule file as loaded: its document, and the library part it belongs to (``rules``, ``overlays`` or
    ``presets``). One is shared by every library holding the same file (``rulecache.loaded_file``)."""

    part: str
    doc: RuleDoc

    @cached_property
    def kept(self) -> bytes:
        """The file as a library's disk-cache entry keeps it, worked out once: the entry of a tree that
        differs from one already kept by one file (a rule file being edited) encodes that file alone."""
        return diskcache.encoded([self.part, self.doc.path, self.doc.data]).encode()


def _load_doc(path: Path, display: str, part: str) -> _LoadedFile:
    # Shared by every library that holds this very file: a RuleDoc's data is never changed after
    # loading (resolve copies the docs it changes).
    raw = read_doc(path, display)
    kind = "preset" if part == "presets" else "rule"
    return rulecache.loaded_file(display, kind, raw, lambda: _LoadedFile(part, parse_doc(raw, display, kind)))


def _read_library(root: Path, digest: str) -> tuple[Library, list[_LoadedFile]]:
    rules: dict[str, RuleDoc] = {}
    overlays: dict[str, RuleDoc] = {}
    presets: dict[str, RuleDoc] = {}
    files: list[_LoadedFile] = []

    def load(path: Path, display: str, part: str) -> RuleDoc:
        files.append(_load_doc(path, display, part))
        return files[-1].doc

    for path in _files(root / "spec"):
        doc = load(path, str(path.relative_to(root)), "rules")
        _no_overlay_fields(doc)
        if doc.id in rules:
            raise RuleFileError(f"rule id {doc.id!r} is already used by {rules[doc.id].path}", doc.id_location())
        rules[doc.id] = doc
    for path in _files(root / "variants"):
        display = str(path.relative_to(root))
        if path.parent.name == "presets":
            doc = load(path, display, "presets")
            if doc.id in presets:
                raise RuleFileError(f"preset {doc.id!r} is already defined in {presets[doc.id].path}",
                                    doc.id_location())
            presets[doc.id] = doc
        else:
            doc = load(path, display, "overlays")
            if doc.id in overlays or doc.id in rules:
                other = overlays.get(doc.id) or rules[doc.id]
                raise RuleFileError(f"id {doc.id!r} is already used by {other.path}", doc.id_location())
            overlays[doc.id] = doc
    return Library(root, rules, overlays, presets, digest), files


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
    seq = lib.core_sequence()
    changed_by: dict[str, list[str]] = {}
    define_owner: dict[tuple[str, str], str] = {}
    # Which overlay last changed a clause (by ref) or a definition: a second overlay changing the same part
    # must say it comes after the first, or the result would hang silently on the order of the ruleset's list.
    part_owner: dict[str, str] = {}
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
                    _ordered(replaced[target], oid, ov, f"override rule {target!r}", _loc(ov.data["overrides"], ov))
                replaced[target] = oid
                base = rules[target]
                merged = dict(base.data)
                # What the overlay states of these replaces the rule's own; the rest of the rule stays.
                for key in ("logic", "define", "actions", "state", "phases", "marks"):
                    if key in ov.data:
                        merged[key] = ov.data[key]
                if "params" in ov.data:
                    merged["params"] = {**base.data.get("params", {}), **ov.data["params"]}
                new = RuleDoc(target, base.path, merged, origin=oid, replaced_by=[*base.replaced_by, oid])
                rules[target] = new
                if "logic" in ov.data:
                    _replace_rule_clauses(seq, target, _clauses_of(ov, target, target))
            elif any(k in ov.data for k in ("logic", "define", "actions", "state", "params", "phases", "change",
                                            "marks")):
                rules[oid] = RuleDoc(oid, ov.path, ov.data, origin=oid)
                for c, after, before in _clauses_of(ov, oid, oid):
                    seq.insert(c, after, before, c.where)
            for rid, change in (ov.get("change") or {}).items():
                _apply_change(seq, rules, oid, ov, str(rid), change, define_owner, part_owner)
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

    decls = lib.declared_params(rules)
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
    for doc in chain:
        _check_dossier_names(doc, set(rules) | set(applied) | set(decls))
    return Resolved(name, lib, applied, rules, decls, values, set_by, seq, changed_by, define_owner, set_at)


def _check_dossier_names(doc: RuleDoc, known: set[str]) -> None:
    """Every name a preset's dossier answers for is a rule, overlay or parameter of the ruleset (what it
    must answer for is worked out in ``oracle.dossier``; only the names are checked here)."""
    named: list[Any] = []
    for key, entry in (doc.get("dossier") or {}).items():
        named += [key, *entry.get("also", [])]
    for group in doc.get("silent") or []:
        named += list(group["for"])
    for name in named:
        if str(name) not in known:
            raise RuleFileError(f"preset {doc.id!r}: the dossier answers for {str(name)!r}, which is no rule, overlay "
                                f"or parameter of this ruleset" + _near(str(name), known), _loc(name, doc))


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
                  change: dict[str, Any], define_owner: dict[tuple[str, str], str],
                  part_owner: dict[str, str]) -> None:
    """One overlay's change to one named part of a rule: a clause replaced or dropped, a definition replaced."""
    if rid not in rules:
        raise RulesetError(f"overlay {oid!r} changes rule {rid!r}, which does not exist" + _near(rid, rules),
                           _loc(next((k for k in ov.data["change"] if k == rid), rid), ov))

    def claim(ref: str, what: str, where: Location) -> None:
        if ref in part_owner:
            _ordered(part_owner[ref], oid, ov, what, where)
        part_owner[ref] = oid

    for cid, fields in (change.get("replace") or {}).items():
        claim(f"{rid}/{cid}", f"change clause {rid}/{cid}", _loc(cid, ov))
        old = seq.find(f"{rid}/{cid}", _loc(cid, ov))
        merged = {"on": old.on, "forbid": old.forbid, "reason": old.reason, "message": old.message, "do": old.do}
        merged.update({str(k): v for k, v in fields.items()})
        if merged.get("forbid") is not None and merged.get("do") is not None:
            raise RuleFileError(f"clause {old.ref!r} would both forbid and do", _loc(cid, ov))
        seq.replace(old, _clause(old.ref, oid, {k: v for k, v in merged.items() if v is not None}, _loc(cid, ov)))
    for cid in change.get("drop") or []:
        claim(f"{rid}/{cid}", f"change clause {rid}/{cid}", _loc(cid, ov))
        seq.drop(seq.find(f"{rid}/{cid}", _loc(cid, ov)))
    if change.get("define"):
        base = rules[rid]
        defines = dict(base.data.get("define") or {})
        for dname, spec in change["define"].items():
            if dname not in defines:
                raise RulesetError(f"overlay {oid!r} replaces definition {str(dname)!r} of rule {rid!r}, which has "
                                   f"no such definition" + _near(str(dname), defines), _loc(dname, ov))
            claim(f"{rid}/define {dname}", f"replace definition {str(dname)!r} of rule {rid!r}", _loc(dname, ov))
            defines[dname] = spec
            define_owner[(rid, str(dname))] = oid
        rules[rid] = RuleDoc(rid, base.path, {**base.data, "define": defines}, origin=base.origin,
                             replaced_by=base.replaced_by)


def _ordered(first: str, oid: str, ov: RuleDoc, what: str, where: Location) -> None:
    """Two overlays touching one part of a rule: the later must name the earlier in its ``after`` list, so
    the outcome is stated in the files and does not hang silently on the order a ruleset lists them in."""
    if first != oid and first not in [str(a) for a in ov.get("after", [])]:
        raise RulesetError(f"overlays {first!r} and {oid!r} both {what}; say which comes first with "
                           f"'after: [{first}]' in {ov.path}", where)


# Short names for the two helpers resolution calls at every error it reports.
_loc = where_of
_near = near


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




_plain = plain  # the name the rest of this module (and tools/mutation.py) uses


# --------------------------------------------------------------------------- compiling

_D = TypeVar("_D")


@dataclass(frozen=True, eq=False)
class RulesetRequest:
    """What a ruleset is asked for by: a name, overlays in order, parameter values, and the rule tree
    (None: the installed one). Every cache of rulesets (this process's, a run's over many records) is keyed
    by the request itself: two requests are equal exactly when they ask for the same ruleset."""

    name: str = "classic"
    overlays: tuple[str, ...] = ()
    params: tuple[tuple[str, Any], ...] = ()  # (name, value), sorted by name
    root: Path | None = None

    @classmethod
    def of(cls, name: str = "classic", overlays: list[str] | tuple[str, ...] | None = None,
           params: dict[str, Any] | None = None, root: Path | None = None) -> RulesetRequest:
        if not overlays and not params and root is None and type(name) is str:
            # A ruleset asked for by its name alone, as most records ask: one request per name, whose key
            # and hash are worked out once, not per record.
            plain = _PLAIN_REQUESTS.get(name)
            if plain is None:
                plain = _PLAIN_REQUESTS[name] = cls(name)
            return plain
        return cls(str(name), tuple(str(o) for o in overlays or ()),
                   tuple(sorted((str(k), v) for k, v in (params or {}).items())), root)

    @cached_property
    def in_tree(self) -> tuple[str, tuple[str, ...], str]:
        """The request within one rule tree (the process's cache also keys by the tree's place and content)."""
        # Parameter values may be lists or mappings: their text stands for them.
        return (self.name, self.overlays, repr(self.params))

    @cached_property
    def key(self) -> tuple[str, tuple[str, ...], str, str]:
        return (*self.in_tree, str(self.root) if self.root is not None else "")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RulesetRequest) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def under(self, root: Path | None) -> RulesetRequest:
        """The same request of another rule tree."""
        return RulesetRequest(self.name, self.overlays, self.params, root)

    @property
    def param_values(self) -> dict[str, Any] | None:
        return dict(self.params) if self.params else None


_PLAIN_REQUESTS: dict[str, RulesetRequest] = {}


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
    teams: Teams | None = None  # the declared partnership (None: every seat plays for itself)

    @cached_property
    def analysis(self) -> Analysis:
        """The functions only rule coverage and the conformance harness use (what the effects changed, every
        guard that refuses, the outcomes of many payloads at once, decision keys), compiled the first time
        they are asked for: validating never needs them."""
        return compile_analysis(self.program, f"<ruleset {self.name}>", self.key)

    def team_of_seats(self, n_seats: int) -> list[int]:
        """Each seat's team: as declared, else every seat a team of its own."""
        return list(self.teams.of_seat) if self.teams is not None else list(range(n_seats))

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

    @cached_property
    def action_rule(self) -> Mapping[str, str]:
        """Action -> the rule that declares it (made once: the harness asks it at every step)."""
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


def compile_resolved(res: Resolved) -> Ruleset:
    """Compile a resolved ruleset: its declarations read and checked (``lang.declarations``), then its
    program type-checked and compiled (``lang.program``)."""
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
    decl = declare(rules, params, deck, res.define_owner)
    logic_rules = {rid for rid, doc in rules.items()
                   if doc.get("logic") or doc.get("define") or doc.get("actions") or doc.get("change")}
    logic_rules |= set(res.define_owner.values())
    logic_rules |= {c.rule_id for c in res.sequence.clauses()}
    sequence = triggers(res.sequence.by_trigger, decl)
    program = Program(deck, params, decl.vars, decl.defines, decl.phases, decl.actions, sequence, set(decl.marks),
                      logic_rules, decl.phase_rule)
    key = _program_key(res)
    sheet = _sheet_layout(rules, decl.vars, decl.marks)
    teams = decl.teams
    if teams is not None and len(teams.of_seat) != res.values[SEATS_PARAM]:
        who = res.set_by.get(teams.seats_param)
        raise ParamError(f"parameter {teams.seats_param!r} gives {len(teams.of_seat)} seat(s) a team, but the game has "
                         f"{res.values[SEATS_PARAM]} players" + (f" (set by {who})" if who else ""),
                         teams.where, teams.seats_param)
    compiled = compile_program(program, f"<ruleset {res.name}>", key)
    return Ruleset(res.name, res, program, compiled, key, decl.marks, sheet, teams)


def _program_key(res: Resolved) -> str:
    """Everything a resolved ruleset's program is made of, as the key of its compiled code (in the process
    and on disk): the rule files (the library's digest), the ruleset, its overlays and parameter values (two
    requests that resolve to the same values share the compiled code), and what a caller may have changed
    after resolving it, under the same name: every trigger's clauses in order, and the rule files it no
    longer shares with the library (merged by an overlay, or given a new definition)."""
    own = res.library.own_data
    clauses = [(on, [(c.ref, c.rule_id, c.forbid, c.reason, c.message, c.do) for c in row])
               for on, row in res.sequence.by_trigger.items()]
    changed = sorted((rid, repr(doc.data)) for rid, doc in res.rules.items() if id(doc.data) not in own)
    return hashlib.sha256(repr((res.library.digest, res.name, res.overlays, sorted(res.values.items(), key=str),
                                clauses, changed, sorted(res.define_owner.items()))).encode()).hexdigest()


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


def load_ruleset(name: str | RulesetRequest = "classic", overlays: list[str] | None = None,
                 params: dict[str, Any] | None = None, root: Path | None = None) -> Ruleset:
    """Resolve and compile a ruleset (by name, or as a request), once per process and rule tree (see
    ``oracle.rulecache``)."""
    request = name if isinstance(name, RulesetRequest) else RulesetRequest.of(name, overlays, params, root)
    where = _root(request.root)
    return rulecache.ruleset(where, request.in_tree, lambda: compile_resolved(
        resolve(request.name, list(request.overlays), request.param_values, where)))
