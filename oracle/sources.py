"""The source texts the rule files cite, and how a list of citations is written.

What each text is lives in ``sources.yaml`` beside ``spec/`` (data, like the rules);
this module only reads it and formats citations the same way for the command line
and the rulebook: ``F0 10, 62, 201-204; F3 34``, one entry per file, lines merged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .ruleset import rules_root

SOURCES_FILE = "sources.yaml"


@dataclass(frozen=True)
class Source:
    seed: str  # the file name the rule files cite
    short: str  # F0, F1, …
    title: str  # the text's own first line, as it stands
    about: Mapping[str, str]  # what the text is, by language
    lines: int


@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Source]:
    p = Path(path)
    if not p.is_file():
        return {}
    with p.open(encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    return {str(s["seed"]): Source(str(s["seed"]), str(s["short"]), str(s["title"]),
                                   {str(k): str(v) for k, v in s["about"].items()}, int(s["lines"]))
            for s in data.get("sources") or []}


def load_sources(root: Path | None = None) -> dict[str, Source]:
    """The known source texts by file name (empty if the data file is missing)."""
    return _load(str((root or rules_root()) / SOURCES_FILE))


def short_name(seed: str, root: Path | None = None) -> str:
    """F0 … F3 for a known file; otherwise F and the number the file name starts with, or the name itself."""
    known = load_sources(root).get(seed)
    if known:
        return known.short
    head = seed.split("_", 1)[0]
    return f"F{int(head)}" if head.isdigit() else seed


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted ranges with overlapping and touching ones joined: (10,10), (11,12), (20,20) → (10,12), (20,20)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted((min(a, b), max(a, b)) for a, b in ranges):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def cite_lines(sources: Iterable[Mapping[str, Any]], dash: str = "-", root: Path | None = None) -> str:
    """Citations (``{seed, lines: [a, b]}``) as one line, one entry per file in order of first mention."""
    by_file: dict[str, list[tuple[int, int]]] = {}
    for s in sources:
        lines = s["lines"]
        by_file.setdefault(str(s["seed"]), []).append((int(lines[0]), int(lines[-1])))
    parts = []
    for seed, ranges in by_file.items():
        text = ", ".join(str(a) if a == b else f"{a}{dash}{b}" for a, b in merge_ranges(ranges))
        parts.append(f"{short_name(seed, root)} {text}")
    return "; ".join(parts)
