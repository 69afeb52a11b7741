"""What the rulebook site is about: the rules, overlays and presets, and how they relate.

Everything is read through the oracle's own loader and resolver, so the site shows
exactly what the interpreter runs: a preset's parameter values are the resolved
ones, and an overlay's effect on a rule is the resolver's, not a re-reading of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..rulefile import RuleDoc
from ..ruleset import Library, Resolved, load_library, resolve
from .examples import Example, load_examples
from .md import plain


@dataclass
class Area:
    """A folder of spec/: a part of the game, with a title and a place in the reading order."""

    id: str
    title: dict[str, str]
    order: int


@dataclass
class RuleEntry:
    """A rule or an overlay, and the page it gets."""

    doc: RuleDoc
    kind: str  # "rule" | "overlay"
    area: str
    page: str

    @property
    def id(self) -> str:
        return self.doc.id

    @property
    def normative(self) -> bool:
        """False for files that support the software rather than state a rule (the schema's ``normative``)."""
        return self.doc.get("normative") is not False

    def params(self) -> dict[str, dict[str, Any]]:
        return {str(k): v for k, v in (self.doc.get("params") or {}).items()}


@dataclass
class Preset:
    doc: RuleDoc
    resolved: Resolved
    page: str

    @property
    def id(self) -> str:
        return self.doc.id


@dataclass
class Decision:
    """One contested point, as a rule file records it."""

    rule: RuleEntry
    data: dict[str, Any]

    @property
    def number(self) -> int | None:
        n = self.data.get("contradiction")
        return int(n) if n is not None else None

    @property
    def parameter(self) -> str:
        return str(self.data["parameter"])

    @property
    def anchor(self) -> str:
        return f"contradiction-{self.number}" if self.number is not None else f"decision-{self.parameter}"


@dataclass
class Site:
    library: Library
    areas: dict[str, Area]
    rules: list[RuleEntry]
    overlays: list[RuleEntry]
    presets: list[Preset]
    glossary: list[dict[str, Any]] = field(default_factory=list)
    nav_skeleton: list[Any] = field(default_factory=list)
    examples: dict[str, list[Example]] = field(default_factory=dict)

    def rule(self, rule_id: str) -> RuleEntry | None:
        return next((r for r in (*self.rules, *self.overlays) if r.id == rule_id), None)

    def owner_of(self, param: str) -> RuleEntry | None:
        """The rule or overlay that declares a parameter."""
        return next((r for r in (*self.rules, *self.overlays) if param in r.params()), None)

    def decisions(self) -> list[Decision]:
        found = [Decision(r, d) for r in (*self.rules, *self.overlays) for d in (r.doc.get("decisions") or [])]
        # Numbered contradictions first, in the catalogue's order; unnumbered ones after, by parameter.
        return sorted(found, key=lambda d: (d.number is None, d.number or 0, d.parameter))

    def param_names(self) -> list[str]:
        """Every parameter any rule or overlay declares, in reading order of their rules."""
        return [p for r in (*self.rules, *self.overlays) for p in r.params()]

    def overlay_effects(self, rule: RuleEntry) -> list[tuple[RuleEntry, bool, dict[str, Any]]]:
        """The overlays that change a rule: (overlay, replaces it, parameters of the rule it sets)."""
        mine = set(rule.params())
        out = []
        for ov in self.overlays:
            replaces = str(ov.doc.get("overrides") or "") == rule.id
            sets = {str(k): plain(v) for k, v in (ov.doc.get("set") or {}).items() if str(k) in mine}
            if replaces or sets:
                out.append((ov, replaces, sets))
        return out

    def presets_using(self, overlay_id: str) -> list[Preset]:
        return [p for p in self.presets if overlay_id in p.resolved.overlays]


def _area_of(doc: RuleDoc) -> str:
    parts = Path(doc.path).parts
    return parts[1] if len(parts) > 2 else ""


def _page_for(prefix: str, ident: str) -> str:
    # Dots in ids become folders: a dotted file name could be mistaken for a
    # language suffix (x.ru.md) by the i18n plugin.
    return f"{prefix}/{ident.replace('.', '/')}.md"


def _read_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def load_site(data_dir: Path, root: Path | None = None) -> Site:
    """Load the rule library, resolve every preset, and read the site's own data files."""
    lib = load_library(root)
    area_data = _read_yaml(data_dir / "areas.yaml") if (data_dir / "areas.yaml").is_file() else []
    areas = {str(a["id"]): Area(str(a["id"]), {k: str(a[k]) for k in ("en", "ru")}, i)
             for i, a in enumerate(area_data or [])}
    for doc in lib.rules.values():
        a = _area_of(doc)
        if a not in areas:
            # A folder the data file does not know yet still gets a section, named as the folder.
            areas[a] = Area(a, {"en": a or "other", "ru": a or "other"}, len(areas))
    rules = [RuleEntry(doc, "rule", _area_of(doc), _page_for("rules", doc.id)) for doc in lib.rules.values()]
    rules.sort(key=lambda r: (not r.normative, areas[r.area].order, r.doc.path, r.id))
    overlays = [RuleEntry(doc, "overlay", "", _page_for("overlays", doc.id)) for doc in lib.overlays.values()]
    overlays.sort(key=lambda r: r.id)
    presets = [Preset(doc, resolve(pid, root=lib.root), f"presets/{pid}.md")
               for pid, doc in sorted(lib.presets.items())]
    glossary = _read_yaml(data_dir / "glossary.yaml") if (data_dir / "glossary.yaml").is_file() else []
    nav = _read_yaml(data_dir / "nav.yaml") if (data_dir / "nav.yaml").is_file() else []
    return Site(lib, areas, rules, overlays, presets, list(glossary or []), list(nav or []),
                load_examples(lib.root))
