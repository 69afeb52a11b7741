"""The page of each rule (and overlay), and the index of rules.

A rule page puts the statute and the code side by side: the text in the reader's
language, the parameters with their value in every preset, the contested points,
the rule-language source exactly as the rule file holds it, and the source lines.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..sheet import mark_symbol
from ..sources import cite_lines, load_sources, merge_ranges, short_name
from .examples import choose, guard_reasons, rule_example, word
from .labels import label, value_label
from .md import code, fence, heading, link, option_key, plain, prose, show, table
from .site import Decision, RuleEntry, Site

RULE_FENCE = "rule"  # highlighted by oracle.docgen.highlight through pymdownx.superfences
DECISIONS_PAGE = "decisions.md"
LANGUAGE_PAGE = "reference/language.md"
SOURCES_PAGE = "reference/sources.md"
RULES_INDEX = "rules/index.md"
# Search weights (Material's front matter `search.boost`): the core rules and the how-to-play page
# first, the overlays and rulesets that mention the same words after them.
SEARCH_BOOST_RULE = 4
SEARCH_BOOST_HOWTO = 3
SEARCH_BOOST_OTHER = 0.5


def search_boost(boost: float) -> list[str]:
    """The page's front matter that weighs it in the site's search."""
    return ["---", "search:", f"  boost: {boost:g}", "---", ""]
OVERLAYS_INDEX = "overlays/index.md"


def tr(value: Any, lang: str) -> str:
    """A text field in ``lang``: an {en, ru} mapping, or a plain string shown as written."""
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


def source_label(seed: str) -> str:
    """The short name the rulebook uses for a source file (F0 … F3)."""
    return short_name(seed)


def cite(sources: list[dict[str, Any]]) -> str:
    """Citations in one line, grouped by file, lines merged: ``F0 10, 176–178; F3 34``."""
    return cite_lines(sources, dash="–")


def quote_title(title: str) -> str:
    """A title in Russian quotes; quotes inside it become the inner kind („…“)."""
    return "«" + title.replace("«", "„").replace("»", "“") + "»"


_SHORT = re.compile(r"\bF\d+\b")


def source_abbreviations(page: str, lang: str) -> str:
    """Abbreviation definitions (Markdown ``abbr``) for the source short names a page uses.

    Every F0 … F3 on the page then shows, on hover, which text it is, so a page that cites
    a source explains the short name itself.
    """
    used = set(_SHORT.findall(page))
    defs = [f"*[{s.short}]: {label('source_abbr', lang, short=s.short, title=quote_title(s.title), seed=s.seed)}"
            for s in load_sources().values() if s.short in used]
    return "\n".join(defs)


def param_type(spec: dict[str, Any]) -> str:
    t = code(str(spec["type"]))
    if spec.get("choices"):
        t += ": " + ", ".join(code(c) for c in spec["choices"])
    bounds = [f"≥ {spec['min']}" if spec.get("min") is not None else "",
              f"≤ {spec['max']}" if spec.get("max") is not None else ""]
    bounds = [b for b in bounds if b]
    return t + (f" ({', '.join(bounds)})" if bounds else "")


def value_cell(param: str, value: Any, default: Any, lang: str) -> str:
    """A parameter's value in the player's words, in bold where it is not the default."""
    text = value_label(param, value, lang)
    return f"**{text}**" if plain(value) != plain(default) else text


def meaning(doc: Any, lang: str) -> str:
    """A parameter's one-line meaning, without its full stop, to be followed by a value."""
    return tr(plain(doc), lang).strip().rstrip(".")


def _params_section(site: Site, rule: RuleEntry, lang: str) -> list[str]:
    out = [heading(2, label("parameters", lang), "parameters"), ""]
    params = rule.params()
    if not params:
        # An overlay that only sets other rules' parameters says so in its summary already.
        return [] if rule.kind == "overlay" else [*out, label("no_params", lang), ""]
    # One column for all rulesets, listing only those that differ: the table stays readable however many
    # presets there are. Every value is also on the matrix page. The parameters' names and types are
    # for rule authors, in the block at the end of the page.
    headers = [label("what_it_sets", lang), label("default_col", lang), label("in_rulesets", lang)]
    rows = []
    for name, spec in params.items():
        by_value: dict[str, list[str]] = {}
        keeps: list[str] = []
        for p in site.presets:
            if name not in p.resolved.params:
                continue
            v = p.resolved.values[name]
            if plain(v) == plain(spec["default"]):
                keeps.append(p.id)
            else:
                by_value.setdefault(value_label(name, v, lang), []).append(f"[{p.id}]({link(rule.page, p.page)})")
        others = "; ".join(f"**{v}** {label('in_presets', lang, presets=', '.join(ps))}"
                           for v, ps in by_value.items())
        if not by_value:
            others = label("all_default", lang) if keeps else "—"
        elif keeps:
            others += "; " + label("others_default", lang)
        rows.append([tr(plain(spec["doc"]), lang), value_label(name, spec["default"], lang), others])
    return [*out, table(headers, rows), ""]


def preset_choice(site: Site, d: Decision, option: str) -> list[str]:
    """The presets whose value of the decision's parameter is this option."""
    return [p.id for p in site.presets
            if d.parameter in p.resolved.values and option_key(p.resolved.values[d.parameter]) == option]


def option_value(d: Decision, option: str) -> Any:
    """A decision's option as the value it stands for (option keys are strings in YAML)."""
    if option_key(d.data["default"]) == option:
        return d.data["default"]
    return yaml.safe_load(option)


def decision_table(site: Site, d: Decision, page: str, lang: str) -> str:
    default = option_key(d.data["default"])
    rows = []
    # The rulesets that keep the default are "all the others" once the ones that differ are named.
    others = any(preset_choice(site, d, str(o)) for o in plain(d.data["options"]) if str(o) != default)
    for opt, sources in plain(d.data["options"]).items():
        name = value_label(d.parameter, option_value(d, str(opt)), lang) + (
            f" ({label('default', lang)})" if str(opt) == default else "")
        chosen = ", ".join(f"[{pid}]({link(page, f'presets/{pid}.md')})"
                           for pid in preset_choice(site, d, str(opt)))
        if str(opt) == default and others and chosen:
            chosen = label("all_others", lang)
        rows.append([name, cite(sources or []), chosen])
    # A preset may set a value no option names (a house value); show it rather than hide it.
    known = {str(o) for o in d.data["options"]}
    for p in site.presets:
        v = p.resolved.values.get(d.parameter)
        if d.parameter in p.resolved.values and option_key(v) not in known:
            rows.append([value_label(d.parameter, v, lang) + " " + label("other_value", lang), "",
                         f"[{p.id}]({link(page, p.page)})"])
    return table([label("option", lang), label("sources", lang), label("chosen_by", lang)], rows)


def decision_title(d: Decision, lang: str) -> str:
    topic = tr(plain(d.data["topic"]), lang)
    return f"{label('contradiction', lang, n=d.number)}. {topic}" if d.number is not None else topic


def _decisions_section(site: Site, rule: RuleEntry, lang: str) -> list[str]:
    decs = [d for d in site.decisions() if d.rule is rule]
    if not decs:
        return []
    out = [heading(2, label("decisions", lang), "decisions"), ""]
    for d in decs:
        out += [heading(3, decision_title(d, lang), d.anchor), "",
                label("decision_intro", lang, link=link(rule.page, DECISIONS_PAGE, d.anchor)),
                "", decision_table(site, d, rule.page, lang), "",
                f"**{label('why', lang)}:** {prose(tr(plain(d.data['why']), lang))}", ""]
    return out


def _overlays_section(site: Site, rule: RuleEntry, lang: str) -> list[str]:
    if rule.kind == "overlay":
        return []
    out = [heading(2, label("changed_by", lang), "overlays"), ""]
    effects = site.overlay_effects(rule)
    if not effects:
        return [*out, label("changed_none", lang), ""]
    for ov, replaces, sets in effects:
        what = []
        if replaces:
            what.append(label("replaces", lang))
        if sets:
            params = rule.params()
            what.append(label("sets", lang, what="; ".join(
                f"{meaning(params[k]['doc'], lang).lower()}: {value_label(k, v, lang)}" for k, v in sets.items())))
        users = site.presets_using(ov.id)
        used = (label("used_in", lang, presets=", ".join(f"[{p.id}]({link(rule.page, p.page)})" for p in users))
                if users else label("used_nowhere", lang))
        title = tr(plain(ov.doc.get("title")), lang)
        out.append(f"- [{title}]({link(rule.page, ov.page)}): {'; '.join(what)}; {used}.")
    return [*out, ""]


def _clause_head(cl: dict[str, Any], lang: str) -> str:
    parts = [code(cl["id"]), f"**{label('on', lang)} {code(cl['on'])}**"]
    for anchor in ("after", "before"):
        if anchor in cl:
            parts.append(f"{label(anchor, lang)} {code(cl[anchor])}")
    parts.append(label("forbids", lang, reason=cl["reason"]) if "forbid" in cl else label("effect", lang))
    return " · ".join(parts)


def _code_section(rule: RuleEntry, lang: str) -> list[str]:
    data = plain(rule.doc.data)
    out = [heading(2, label("code", lang), "code"), "",
           label("code_intro", lang, link=link(rule.page, LANGUAGE_PAGE)), ""]
    has_code = False
    if data.get("phases"):
        has_code = True
        out += [heading(3, label("phases", lang), "phases"), "", ", ".join(code(p) for p in data["phases"]), ""]
    if data.get("state"):
        has_code = True
        rows = []
        for name, spec in data["state"].items():
            t = code(spec["type"]) + (f" ({label('zone', lang)})" if spec.get("zone") else "")
            rows.append([code(name), t, label(f"scope_{spec.get('scope', 'game')}", lang),
                         label(f"lifetime_{spec.get('lifetime', 'deal')}", lang),
                         code(show(spec.get("init"))) if "init" in spec else "",
                         label("yes", lang) if spec.get("record") else "", tr(spec.get("doc"), lang)])
        out += [heading(3, label("state", lang), "state"), "",
                table(["", label("type", lang), label("scope", lang), label("lifetime", lang), label("initial", lang),
                       label("recorded", lang), label("meaning", lang)], rows), ""]
    if data.get("define"):
        has_code = True
        out += [heading(3, label("definitions", lang), "definitions"), ""]
        for name, spec in data["define"].items():
            args = ", ".join(f"{a}: {t}" for a, t in (spec.get("args") or {}).items())
            sig = code(f"{name}({args}) -> {spec['returns']}")
            out += [sig + (f" — {prose(tr(spec['doc'], lang))}" if spec.get("doc") else ""), "",
                    fence(spec.get("expr", ""), RULE_FENCE), ""]
    if data.get("actions"):
        has_code = True
        out += [heading(3, label("actions", lang), "actions"), ""]
        for name, spec in data["actions"].items():
            payload = ", ".join(f"{f}: {t}" for f, t in (spec.get("payload") or {}).items())
            head = [f"**{code(name)}**", f"{label('phase', lang)} {code(spec['phase'])}",
                    f"{label('actor', lang)} {code(spec.get('actor', 'turn'))}"]
            if payload:
                head.append(f"{label('payload', lang)} {code('{' + payload + '}')}")
            out += [" · ".join(head) + (f" — {prose(tr(spec['doc'], lang))}" if spec.get("doc") else ""), ""]
            for f, expr in (spec.get("choices") or {}).items():
                out += [label("choices_of", lang, field=f) + ":", "", fence(expr, RULE_FENCE), ""]
            for key, lab in (("when", "when"), ("sample", "sample")):
                if spec.get(key):
                    out += [label(lab, lang) + ":", "", fence(spec[key], RULE_FENCE), ""]
            hint = (spec.get("random") or {}).get("hint")
            if hint:
                out += [label("hint", lang) + ":", "", fence(hint, RULE_FENCE), ""]
    if data.get("logic"):
        has_code = True
        out += [heading(3, label("logic", lang), "logic"), ""]
        for cl in data["logic"]:
            out += [_clause_head(cl, lang), "", fence(cl.get("forbid") or cl.get("do") or "", RULE_FENCE), ""]
            if cl.get("message"):
                out += [f"{label('message', lang)}: *{prose(tr(cl['message'], lang))}*", ""]
    if not has_code:
        if rule.kind == "overlay":
            return []
        out += [label("no_code", lang), ""]
    return out


def _examples_section(site: Site, rule: RuleEntry, lang: str) -> list[str]:
    own = plain(rule.doc.get("examples") or [])
    golden = site.examples.get(rule.id, [])
    if not (own or golden):
        return []
    out = [heading(2, word("heading", lang) if golden else label("examples", lang), "examples"), ""]
    out += rule_example(rule.doc, golden, rule.page, lang)
    for ex in own:
        out += [fence(yaml.safe_dump(ex, allow_unicode=True, sort_keys=False), "yaml"), ""]
    return out


def _marks_section(rule: RuleEntry, lang: str) -> list[str]:
    marks = plain(rule.doc.get("marks") or {})
    if not marks:
        return []
    rows = [[f"**{mark_symbol(m, name, lang)}**", tr(m, lang)] for name, m in marks.items()]
    return [heading(2, label("marks", lang), "marks"), "",
            table([label("symbol", lang), label("meaning", lang)], rows), ""]


def _sources_section(rule: RuleEntry, lang: str) -> list[str]:
    out = [heading(2, label("sources", lang), "sources"), ""]
    sources = plain(rule.doc.get("sources") or [])
    if not sources:
        out += [label("no_sources" if rule.kind == "rule" else "no_sources_overlay", lang), ""]
    else:
        by_file: dict[str, list[tuple[int, int]]] = {}
        notes: dict[str, list[str]] = {}
        for s in sources:
            by_file.setdefault(s["seed"], []).append((int(s["lines"][0]), int(s["lines"][-1])))
            if s.get("note"):
                notes.setdefault(s["seed"], []).append(tr(s["note"], lang))
        known = load_sources()
        rows = []
        for f, ranges in by_file.items():
            lines = ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in merge_ranges(ranges))
            if notes.get(f):
                lines += f" ({'; '.join(notes[f])})"
            title = quote_title(known[f].title) if f in known else ""
            rows.append([f"[{source_label(f)}]({link(rule.page, SOURCES_PAGE, source_label(f).lower())})", title,
                         lines])
        out += [label("sources_intro", lang, link=link(rule.page, SOURCES_PAGE)), "",
                table(["", label("title", lang), label("lines", lang)], rows), ""]
    return out


def authors_block(lines: list[str], lang: str) -> list[str]:
    """What only a rule author needs (ids, file names, parameter names), folded at the end of a page."""
    body = "\n".join(f"    {line}" if line else "" for text in lines for line in text.split("\n"))
    return [f'??? info "{label("for_authors", lang)}"', "", body, ""]


_CODE_CITATION = re.compile(r"[\w/.-]+\.(?:lua|js|ts|py|go|rs|c|cpp|java|kt)(?::\d+)?\b")


def cites_code(text: str) -> bool:
    """Whether a note cites a program's source (mekedron/thousand core/talon.lua:707): a note for rule authors."""
    return bool(_CODE_CITATION.search(text))


def _authors_section(site: Site, rule: RuleEntry, lang: str) -> list[str]:
    doc = rule.doc
    lines = [label("rule_meta" if rule.kind == "rule" else "overlay_meta", lang, id=rule.id, path=doc.path), ""]
    notes = tr(plain(doc.get("notes")), lang)
    if notes and cites_code(notes):
        lines += [f"**{label('notes', lang)}.** {prose(notes)}", ""]
    params = rule.params()
    if params:
        rows = [[code(name), param_type(spec), code(show(spec["default"])), tr(plain(spec["doc"]), lang)]
                for name, spec in params.items()]
        lines += [table([label("parameter", lang), label("type", lang), label("default_col", lang),
                         label("meaning", lang)], rows), ""]
    decs = [d for d in site.decisions() if d.rule is rule]
    for d in decs:
        lines += [label("decision_param", lang, topic=decision_title(d, lang), param=code(d.parameter)), ""]
    changers = [ov.id for ov, _, _ in site.overlay_effects(rule)] if rule.kind == "rule" else []
    if changers:
        lines += [label("overlays_ids", lang, ids=", ".join(code(o) for o in changers)), ""]
    sets = plain(doc.get("set") or {})
    if sets:
        lines += [label("sets", lang, what=", ".join(f"{code(k)} = {code(show(v))}" for k, v in sets.items()))
                  .capitalize() + ".", ""]
    files = sorted({str(s["seed"]) for s in plain(doc.get("sources") or [])})
    if files:
        lines += [label("source_files", lang, files=", ".join(
            f"{source_label(f)} {code(f)}" for f in files)), ""]
    covers = plain(doc.get("covers") or [])
    if covers:
        lines += [label("covers", lang, items=", ".join(code(c) for c in covers)), ""]
    golden = site.examples.get(rule.id, [])
    ex = choose(golden, guard_reasons(doc)) if golden else None
    if ex is not None:
        lines += [label("example_record", lang, path=code(ex.path), ruleset=code(ex.ruleset)), ""]
    return authors_block(lines, lang)


def rule_page(site: Site, rule: RuleEntry, lang: str) -> str:
    doc = rule.doc
    # Search: a core rule comes before the variants and rulesets that mention its term.
    boost = SEARCH_BOOST_RULE if rule.kind == "rule" and rule.normative else SEARCH_BOOST_OTHER
    out = [*search_boost(boost), f"# {tr(plain(doc.get('title')), lang)}", "",
           prose(tr(plain(doc.get("text")), lang)), ""]
    if not rule.normative:
        out += ["!!! info \"\"", "    " + label("not_normative", lang), ""]
    if rule.kind == "overlay":
        out += _overlay_summary(site, rule, lang)
    notes = plain(doc.get("notes"))
    if notes and not cites_code(tr(notes, lang)):
        body = prose(tr(notes, lang)).replace("\n", "\n    ")
        out += [f"!!! note \"{label('notes', lang)}\"", "", f"    {body}", ""]
    out += _params_section(site, rule, lang)
    out += _decisions_section(site, rule, lang)
    out += _overlays_section(site, rule, lang)
    out += _marks_section(rule, lang)
    out += _code_section(rule, lang)
    out += _examples_section(site, rule, lang)
    out += _sources_section(rule, lang)
    out += _authors_section(site, rule, lang)
    out += ["---", "", f"<small>{label('generated_note', lang, what=label('from_rule_files', lang))}</small>", ""]
    return "\n".join(out)


def _overlay_summary(site: Site, ov: RuleEntry, lang: str) -> list[str]:
    out = []
    target = ov.doc.get("overrides")
    if target is not None:
        r = site.rule(str(target))
        name = f"[{tr(plain(r.doc.get('title')), lang)}]({link(ov.page, r.page)})" if r else code(target)
        out.append(f"- {label('replaces', lang).capitalize()}: {name}")
    sets = plain(ov.doc.get("set") or {})
    if sets:
        items = []
        for k, v in sets.items():
            owner = site.owner_of(k)
            what = meaning(owner.params()[k]["doc"], lang) if owner else k
            name = f"[{what}]({link(ov.page, owner.page, 'parameters')})" if owner else code(k)
            items.append(f"{name}: {value_label(k, v, lang)}")
        out.append(f"- {label('sets_these', lang)}: " + "; ".join(items))
    users = site.presets_using(ov.id)
    out.append("- " + (label("used_in", lang, presets=", ".join(f"[{p.id}]({link(ov.page, p.page)})" for p in users))
                       if users else label("used_nowhere", lang)).capitalize())
    return [*out, ""]


def rules_index(site: Site, lang: str) -> str:
    page = RULES_INDEX
    out = [f"# {label('rules_title', lang)}", "", label("rules_intro", lang), ""]
    by_area: dict[str, list[RuleEntry]] = {}
    for r in site.rules:
        if r.normative:
            by_area.setdefault(r.area, []).append(r)
    groups = [(site.areas[a].title[lang], f"area-{a or 'other'}", by_area[a])
              for a in sorted(by_area, key=lambda a: site.areas[a].order)]
    # Files that are not rules of the game (play hints) are listed apart, after the game itself.
    apart = [r for r in site.rules if not r.normative]
    if apart:
        groups.append((label("not_normative_area", lang), "not-rules", apart))
    for title, anchor, entries in groups:
        out += [heading(2, title, anchor), ""]
        rows = [[f"[{tr(plain(r.doc.get('title')), lang)}]({link(page, r.page)})",
                 "; ".join(m if i == 0 else m[:1].lower() + m[1:]
                           for i, m in enumerate(meaning(spec["doc"], lang) for spec in r.params().values()))]
                for r in entries]
        out += [table([label("rule", lang), label("what_it_sets", lang)], rows), ""]
    out += [f"<small>{label('generated_note', lang, what=label('from_rule_files', lang))}</small>", ""]
    return "\n".join(out)


def overlays_index(site: Site, lang: str) -> str:
    page = OVERLAYS_INDEX
    out = [f"# {label('overlays_title', lang)}", "", label("overlays_intro", lang), ""]
    if not site.overlays:
        out += [label("none_yet", lang), ""]
    else:
        rows = [[f"[{tr(plain(o.doc.get('title')), lang)}]({link(page, o.page)})",
                 ", ".join(f"[{p.id}]({link(page, p.page)})" for p in site.presets_using(o.id))]
                for o in site.overlays]
        out += [table([label("title", lang), label("chosen_by", lang)], rows), ""]
    out += [f"<small>{label('generated_note', lang, what=label('from_rule_files', lang))}</small>", ""]
    return "\n".join(out)
