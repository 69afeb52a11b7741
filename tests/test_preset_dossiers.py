"""Every preset's dossier: each parameter it sets and each overlay it adds is cited or marked as our decision.

The cited lines are checked against the source texts themselves, which live beside the
repository (``../shared/sources/`` in CI; any ancestor folder's ``shared/sources`` here, or
$THOUSAND_SOURCES). Without them the line checks are skipped, with a message.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from oracle.ruleset import load_library, resolve, rules_root
from oracle.yamlpos import plain

LIB = load_library()
PRESETS = sorted(LIB.presets)


def _sources_dir() -> Path | None:
    env = os.environ.get("THOUSAND_SOURCES")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for folder in rules_root().resolve().parents:
        candidate = folder / "shared" / "sources"
        if candidate.is_dir():
            return candidate
    return None


SOURCES = _sources_dir()


def _lines(seed: str) -> list[str]:
    assert SOURCES is not None
    return (SOURCES / seed).read_text(encoding="utf-8").splitlines()


def _citations(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every citation in a preset file, each with where it is (for the failure message)."""
    out = [("sources", s) for s in doc.get("sources") or []]
    for key, entry in (doc.get("dossier") or {}).items():
        out += [(f"dossier.{key}", s) for s in entry.get("sources") or []]
    for i, entry in enumerate(doc.get("not_modelled") or []):
        out += [(f"not_modelled[{i}]", s) for s in entry["sources"]]
    return out


def uncited(doc: dict[str, Any]) -> list[str]:
    """What is wrong with a preset's dossier: choices without an entry, entries naming no choice."""
    dossier = doc.get("dossier") or {}
    choices = [*doc.get("set", {}), *doc.get("overlays", [])]
    errors = [f"no dossier entry for {c!r}" for c in choices if c not in dossier]
    errors += [f"dossier entry {k!r} names no parameter the preset sets nor overlay it adds"
               for k in dossier if k not in choices]
    errors += [f"dossier entry {k!r} neither cites nor decides" for k, e in dossier.items()
               if not (e.get("sources") or e.get("decision"))]
    return errors


def bad_lines(doc: dict[str, Any]) -> list[str]:
    """Citations that point at no file, past the end of a file, or at empty lines only."""
    errors = []
    for where, s in _citations(doc):
        seed, (a, b) = s["seed"], s["lines"]
        if not (SOURCES / seed).is_file():
            errors.append(f"{where}: no source file {seed}")
            continue
        text = _lines(seed)
        if not 1 <= a <= b <= len(text):
            errors.append(f"{where}: {seed} has {len(text)} lines, not {a}-{b}")
        elif not any(line.strip() for line in text[a - 1:b]):
            errors.append(f"{where}: {seed} lines {a}-{b} are empty")
    return errors


def _doc(name: str) -> dict[str, Any]:
    return plain(LIB.presets[name].data)


@pytest.mark.parametrize("name", PRESETS)
def test_every_choice_of_the_preset_is_cited_or_a_decision(name):
    assert uncited(_doc(name)) == []


@pytest.mark.parametrize("name", PRESETS)
def test_the_preset_sets_real_parameters_and_adds_real_overlays(name):
    doc, res = _doc(name), resolve(name)
    assert [k for k in doc.get("set", {}) if k not in res.params] == []
    assert [o for o in doc.get("overlays", []) if o not in LIB.overlays] == []


@pytest.mark.parametrize("name", PRESETS)
def test_cited_lines_exist_in_the_sources(name):
    if SOURCES is None:
        pytest.skip("the source texts (shared/sources beside the repository) are not here; set THOUSAND_SOURCES")
    assert bad_lines(_doc(name)) == []


def test_an_uncited_value_and_a_stray_entry_are_caught():
    doc = _doc("declarer-leads")
    first = next(iter(doc["set"]))
    dossier = {k: v for k, v in doc["dossier"].items() if k != first}
    dossier["no_such_parameter"] = {"decision": {"en": "x", "ru": "x"}}
    errors = uncited({**doc, "dossier": dossier})
    assert errors == [f"no dossier entry for {first!r}",
                      "dossier entry 'no_such_parameter' names no parameter the preset sets nor overlay it adds"]


def test_a_line_past_the_end_of_a_source_and_an_unknown_file_are_caught():
    if SOURCES is None:
        pytest.skip("the source texts (shared/sources beside the repository) are not here; set THOUSAND_SOURCES")
    n = len(_lines("002_54c07b41b96fc5f3.txt"))
    doc = {"sources": [{"seed": "002_54c07b41b96fc5f3.txt", "lines": [n, n + 1]},
                       {"seed": "009_0000000000000000.txt", "lines": [1, 1]},
                       {"seed": "002_54c07b41b96fc5f3.txt", "lines": [2, 2]}]}
    assert bad_lines(doc) == [f"sources: 002_54c07b41b96fc5f3.txt has {n} lines, not {n}-{n + 1}",
                              "sources: no source file 009_0000000000000000.txt",
                              "sources: 002_54c07b41b96fc5f3.txt lines 2-2 are empty"]
