"""Describing and comparing rulesets: what `thousand explain` and `thousand diff` print.

Both read the same resolution the validator uses, so what they say is what is enforced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .dossier import How, Kind, missing, rows
from .plural import count
from .ruleset import SEATS_PARAM, Resolved, load_library, load_ruleset, resolve
from .sources import cite_lines

_WRITTEN_BY = "as written by "  # diff()'s data says so in English, whatever the language shown

# What explain, diff and rulesets print around the rule files' own words, in each language.
WORDS: dict[str, dict[str, str]] = {
    "extends": {"en": "extends: {chain}", "ru": "основан на: {chain}"},
    "follows": {"en": "follows: {sources}", "ru": "по источникам: {sources}"},
    "overlays": {"en": "overlays:", "ru": "дополнения:"},
    "overlays_none": {"en": "overlays: none", "ru": "дополнения: нет"},
    "replaces": {"en": " (replaces {rule})", "ru": " (заменяет {rule})"},
    "parameters": {"en": "parameters (* = not the default):", "ru": "параметры (* — не по умолчанию):"},
    "param_rule": {"en": "(rule {rule}; default {default})", "ru": "(правило {rule}; по умолчанию {default})"},
    "set_by": {"en": "  [set by {who}]", "ru": "  [задано в {who}]"},
    "vs": {"en": "{a} vs {b}", "ru": "{a} и {b}"},
    "same": {"en": "  no difference: the two rulesets enforce the same rules with the same values",
             "ru": "  разницы нет: оба набора применяют одни и те же правила с одними и теми же значениями"},
    "only_in": {"en": "  overlay only in {side}: {oid} — {title}",
                "ru": "  дополнение только в {side}: {oid} — {title}"},
    "rule_diff": {"en": "  rule {rule}: {a} {va}; {b} {vb}", "ru": "  правило {rule}: {a} — {va}; {b} — {vb}"},
    "present": {"en": "present", "ru": "есть"},
    "absent": {"en": "absent", "ru": "нет"},
    "written_by": {"en": "as written by {who}", "ru": "в редакции {who}"},
    "parameter": {"en": "parameter", "ru": "параметр"},
    "rule": {"en": "rule", "ru": "правило"},
    "ruleset": {"en": "ruleset", "ru": "набор"},
    "players": {"en": "players", "ru": "игроков"},
    "overlays_col": {"en": "overlays", "ru": "дополнений"},
    "changed_col": {"en": "changed parameters", "ru": "изменено параметров"},
    "title": {"en": "title", "ru": "название"},
    "dossier_head": {"en": "what the dossier of {name} must answer for ({n} points, {m} unanswered):",
                     "ru": "на что должно отвечать досье набора {name} ({n}, без ответа: {m}):"},
    "unanswered": {"en": "MISSING", "ru": "НЕТ ОТВЕТА"},
    "answered": {"en": "{how} ({where})", "ru": "{how} ({where})"},
    "how_sources": {"en": "source", "ru": "источник"},
    "how_decision": {"en": "our decision", "ru": "наше решение"},
    "how_overlay": {"en": "overlay", "ru": "дополнение"},
    "how_rule_file": {"en": "the rule file", "ru": "файл правила"},
    "problems": {"en": "problems:", "ru": "недочёты:"},
    "kind_rule": {"en": "rule", "ru": "правило"},
    "kind_parameter": {"en": "parameter", "ru": "параметр"},
    "kind_overlay": {"en": "overlay", "ru": "дополнение"},
}


def word(key: str, lang: str, **fmt: object) -> str:
    text = WORDS[key][lang]
    return text.format(**fmt) if fmt else text


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
        out.append(word("extends", lang, chain=" → ".join(chain)))
    srcs = doc.get("sources") or []
    if srcs:
        out.append(word("follows", lang, sources=cite_lines(srcs)))
    out.append("")
    out.append(word("overlays", lang) if res.overlays else word("overlays_none", lang))
    for oid in res.overlays:
        ov = lib.overlays[oid]
        target = word("replaces", lang, rule=ov.get("overrides")) if ov.get("overrides") else ""
        out.append(f"  {oid}{target}: {ov.get('title')[lang]}")
    out.append("")
    out.append(word("parameters", lang))
    for p in params_of(res):
        mark = "*" if p.value != p.default else " "
        who = word("set_by", lang, who=p.set_by) if p.set_by else ""
        out.append(f" {mark} {p.name} = {_show(p.value)}   "
                   + word("param_rule", lang, rule=p.rule, default=_show(p.default)) + who)
        meaning = (res.params[p.name].doc or {}).get(lang)
        if meaning:
            out.append(f"     {' '.join(str(meaning).split())}")
    return "\n".join(out)


_HOW = {How.SOURCES: "how_sources", How.DECISION: "how_decision", How.OVERLAY: "how_overlay",
        How.RULE_FILE: "how_rule_file"}
_KIND = {Kind.RULE: "kind_rule", Kind.PARAMETER: "kind_parameter", Kind.OVERLAY: "kind_overlay"}


def explain_dossier(name: str, lang: str = "en") -> str:
    """Every point the preset's dossier must answer for (oracle.dossier), and what answers it."""
    rs = load_ruleset(name)
    table = rows(rs)
    problems = missing(rs)
    out = [word("dossier_head", lang, name=name, n=len(table), m=sum(r.answer is None for r in table)), ""]
    for r in table:
        p, a = r.point, r.answer
        label = f"{p.key} ({p.rule})" if p.is_param else p.key
        if a is None:
            status = word("unanswered", lang)
        elif a.key is None:
            status = word(_HOW[a.how], lang)
        else:
            where = a.key if a.preset in (None, name) else f"{a.preset}: {a.key}"
            status = word("answered", lang, how=word(_HOW[a.how], lang), where=where)
        why = "; ".join(p.why)
        out.append(f"  {word(_KIND[p.kind], lang):12} {label:50} {status}" + (f"  [{why[:90]}]" if why else ""))
    if problems:
        out += ["", word("problems", lang)] + [f"  {m}" for m in problems]
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
            rules.append({"rule": rid, a: _WRITTEN_BY + da.origin, b: _WRITTEN_BY + db.origin})
    only_a = [o for o in ra.overlays if o not in rb.overlays]
    only_b = [o for o in rb.overlays if o not in ra.overlays]
    return {"a": a, "b": b, "overlays": {a: only_a, b: only_b}, "rules": rules, "parameters": params}


def format_diff(d: dict[str, Any], lang: str = "en") -> str:
    a, b = d["a"], d["b"]
    lib = load_library()
    out = [word("vs", lang, a=a, b=b)]
    if not (d["rules"] or d["parameters"] or d["overlays"][a] or d["overlays"][b]):
        out.append(word("same", lang))
        return "\n".join(out)
    for side in (a, b):
        for oid in d["overlays"][side]:
            title = lib.overlays[oid].get("title")[lang] if oid in lib.overlays else ""
            out.append(word("only_in", lang, side=side, oid=oid, title=title))
    for r in d["rules"]:
        out.append(word("rule_diff", lang, rule=r["rule"], a=a, va=_state(r[a], lang), b=b, vb=_state(r[b], lang)))
    if d["parameters"]:
        width = max(len(p["parameter"]) for p in [*d["parameters"], {"parameter": word("parameter", lang)}])
        out.append(f"  {word('parameter', lang):<{width}}  {a:>18}  {b:>18}  {word('rule', lang)}")
        for p in d["parameters"]:
            out.append(f"  {p['parameter']:<{width}}  {_show(p[a]):>18}  {_show(p[b]):>18}  {p['rule']}")
    return "\n".join(out)


def _state(value: str, lang: str) -> str:
    """A rule's presence as diff() records it ("present", "absent", "as written by X"), in ``lang``."""
    if value in ("present", "absent"):
        return word(value, lang)
    if value.startswith(_WRITTEN_BY):
        return word("written_by", lang, who=value[len(_WRITTEN_BY):])
    return value


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {x}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def list_rulesets(lang: str = "en") -> list[tuple[str, str, int, int, int]]:
    """Each named ruleset: name, title, players, overlays, parameters changed from their defaults."""
    lib = load_library()
    out = []
    for name in sorted(lib.presets):
        res = resolve(name)
        changed = sum(1 for n, d in res.params.items() if res.values[n] != d.default)
        out.append((name, str(lib.presets[name].get("title")[lang]), int(res.values[SEATS_PARAM]),
                    len(res.overlays), changed))
    return out


def format_rulesets(rows: list[tuple[str, str, int, int, int]], lang: str = "en") -> str:
    heads = [word("ruleset", lang), word("players", lang), word("overlays_col", lang), word("changed_col", lang)]
    width = max(len(heads[0]), *(len(r[0]) for r in rows))
    lines = [f"{heads[0]:<{width}}  {heads[1]}  {heads[2]}  {heads[3]}  {word('title', lang)}"]
    for name, title, players, overlays, changed in rows:
        lines.append(f"{name:<{width}}  {players:>{len(heads[1])}}  {overlays:>{len(heads[2])}}  "
                     f"{changed:>{len(heads[3])}}  {title}")
    lines.append("")
    lines.append(count(len(rows), "ruleset", lang))
    return "\n".join(lines)
