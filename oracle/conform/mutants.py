"""Deliberately broken engines: the oracle with one classic rule wrong.

They prove the harness catches real bugs: each must be found, with a shrunk
counterexample, in the default number of examples (tests/test_conformance.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

import yaml

from ..rulefile import RuleDoc
from ..ruleset import Ruleset, compile_resolved, resolve
from .engines import OracleEngine


@dataclass(frozen=True)
class Mutant:
    name: str
    bug: str
    params: dict[str, Any] = field(default_factory=dict)
    drop: tuple[str, ...] = ()  # clauses removed, by name (rule/clause)
    define: tuple[tuple[str, str, str], ...] = ()  # (rule id, definition, new expression)


def _load() -> list[Mutant]:
    # The broken rules are data, like every rule: oracle/conform/mutants.yaml.
    data = yaml.safe_load(files("oracle.conform").joinpath("mutants.yaml").read_text(encoding="utf-8"))
    return [Mutant(str(m["name"]), str(m["bug"]), dict(m.get("params") or {}),
                   tuple(str(ref) for ref in m.get("drop") or []),
                   tuple((str(r), str(n), str(e)) for r, n, e in m.get("define") or []))
            for m in data]


MUTANTS = _load()


def mutant_ruleset(m: Mutant, base: str = "classic", overlays: list[str] | None = None,
                   params: dict[str, Any] | None = None) -> Ruleset:
    """The ``base`` ruleset (with ``overlays`` and ``params``) with the mutant's one rule broken."""
    res = resolve(base, overlays, {**(params or {}), **m.params} or None)
    res.name = f"{base}~{m.name}"
    for ref in m.drop:
        res.sequence.drop(res.sequence.find(ref, None))
    for rid, name, expr in m.define:
        doc = res.rules[rid]
        data = copy.copy(doc.data)
        defines = dict(data["define"])
        defines[name] = {**defines[name], "expr": expr}
        data["define"] = defines
        res.rules[rid] = RuleDoc(rid, doc.path, data, origin=f"mutant {m.name}")
    return compile_resolved(res)


class MutantEngine(OracleEngine):
    def __init__(self, m: Mutant, base: str = "classic") -> None:
        super().__init__(mutant_ruleset(m, base), name=f"mutant:{m.name}")
        self.base = base
        self.mutant = m

    def ruleset_with(self, overlays: list[str], params: dict[str, Any]) -> Ruleset:
        return mutant_ruleset(self.mutant, self.base, overlays, params)


def by_name(name: str) -> Mutant:
    for m in MUTANTS:
        if m.name == name:
            return m
    raise KeyError(name)
