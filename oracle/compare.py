"""Describing and comparing rulesets: what `thousand explain` and `thousand diff` print.

Both read the same resolution the validator uses, so what they say is what is enforced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .ruleset import Resolved, load_library, resolve
from .sources import cite_lines


@dataclass
class ParamLine:
    name: str
    rule: str
    value: Any
    default: Any
    set_by: str | None


def params_of(res: Resolved) -> list[ParamLine]:
    return [ParamLine(n, d.rule_id, res.values[n], d.default, res.set_by.get(n)) for n, d in sorted(res.params.items())]


def explain(name: str, lang: str = "en") -> str:
    res = resolve(name)
    lib = res.library
    doc = lib.presets[name]
    out = [f"{name}: {doc.get('title')[lang]}", "", str(doc.get("text")[lang]).strip(), ""]
    chain = []
    d = doc
    while d.get("extends"):
        chain.append(str(d.get("extends")))
        d = lib.presets[str(d.get("extends"))]
    if chain:
        out.append("extends: " + " → ".join(chain))
    srcs = doc.get("sources") or []
    if srcs:
        out.append("follows: " + cite_lines(srcs))
    out.append("")
    out.append("overlays:" if res.overlays else "overlays: none")
    for oid in res.overlays:
        ov = lib.overlays[oid]
        target = f" (replaces {ov.get('overrides')})" if ov.get("overrides") else ""
        out.append(f"  {oid}{target}: {ov.get('title')[lang]}")
    out.append("")
    out.append("parameters (* = not the default):")
    for p in params_of(res):
        mark = "*" if p.value != p.default else " "
        who = f"  [set by {p.set_by}]" if p.set_by else ""
        out.append(f" {mark} {p.name} = {_show(p.value)}   (rule {p.rule}; default {_show(p.default)}){who}")
    return "\n".join(out)


def diff(a: str, b: str) -> dict[str, Any]:
    ra, rb = resolve(a), resolve(b)
    params = []
    for name in sorted(set(ra.params) | set(rb.params)):
        va = ra.values.get(name, "—")
        vb = rb.values.get(name, "—")
        if va != vb:
            decl = ra.params.get(name) or rb.params[name]
            params.append({"parameter": name, "rule": decl.rule_id, a: va, b: vb})
    rules = []
    for rid in sorted(set(ra.rules) | set(rb.rules)):
        da, db = ra.rules.get(rid), rb.rules.get(rid)
        if da is None or db is None:
            rules.append({"rule": rid, a: "present" if da else "absent", b: "present" if db else "absent",
                          "from": (da or db).origin})  # type: ignore[union-attr]
        elif da.origin != db.origin:
            rules.append({"rule": rid, a: f"as written by {da.origin}", b: f"as written by {db.origin}"})
    only_a = [o for o in ra.overlays if o not in rb.overlays]
    only_b = [o for o in rb.overlays if o not in ra.overlays]
    return {"a": a, "b": b, "overlays": {a: only_a, b: only_b}, "rules": rules, "parameters": params}


def format_diff(d: dict[str, Any], lang: str = "en") -> str:
    a, b = d["a"], d["b"]
    lib = load_library()
    out = [f"{a} vs {b}"]
    if not (d["rules"] or d["parameters"] or d["overlays"][a] or d["overlays"][b]):
        out.append("  no difference: the two rulesets enforce the same rules with the same values")
        return "\n".join(out)
    for side in (a, b):
        for oid in d["overlays"][side]:
            title = lib.overlays[oid].get("title")[lang] if oid in lib.overlays else ""
            out.append(f"  overlay only in {side}: {oid} — {title}")
    for r in d["rules"]:
        out.append(f"  rule {r['rule']}: {a} {r[a]}; {b} {r[b]}")
    if d["parameters"]:
        width = max(len(p["parameter"]) for p in d["parameters"])
        out.append(f"  {'parameter':<{width}}  {a:>18}  {b:>18}  rule")
        for p in d["parameters"]:
            out.append(f"  {p['parameter']:<{width}}  {_show(p[a]):>18}  {_show(p[b]):>18}  {p['rule']}")
    return "\n".join(out)


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {x}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def list_rulesets(lang: str = "en") -> list[tuple[str, str, int, int]]:
    lib = load_library()
    out = []
    for name in sorted(lib.presets):
        res = resolve(name)
        changed = sum(1 for n, d in res.params.items() if res.values[n] != d.default)
        out.append((name, str(lib.presets[name].get("title")[lang]), len(res.overlays), changed))
    return out
