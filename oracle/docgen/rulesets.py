"""Pages about named rulesets: one per preset, the parameter matrix, and the decisions.

Values come from resolving each preset with the oracle's resolver, so a value an
overlay sets shows up here exactly as the interpreter will use it.
"""

from __future__ import annotations

from ..ruleset import Resolved
from .dossier import dossier_section
from .labels import label, value_label
from .md import code, heading, link, option_key, plain, prose, show, table
from .rules import (
    DECISIONS_PAGE,
    RULES_INDEX,
    SEARCH_BOOST_OTHER,
    SOURCES_PAGE,
    authors_block,
    decision_table,
    decision_title,
    search_boost,
    tr,
    value_cell,
)
from .site import Decision, Preset, Site

PRESETS_INDEX = "presets/index.md"
MATRIX_PAGE = "matrix.md"


def _footer(lang: str) -> list[str]:
    return [f"<small>{label('generated_note', lang, what=label('from_rule_files', lang))}</small>", ""]


def _core_count(res: Resolved) -> int:
    """Rules of the core game the ruleset plays as written (not replaced by one of its overlays)."""
    return sum(1 for doc in res.rules.values() if doc.origin == "spec")


def presets_index(site: Site, lang: str) -> str:
    page = PRESETS_INDEX
    out = [f"# {label('presets_title', lang)}", "", label("presets_intro", lang), ""]
    def rows(presets: list[Preset]) -> str:
        # The id is what `thousand play --ruleset` and a record's "ruleset" take.
        return table([label("title", lang), label("ruleset_option", lang), label("description", lang)],
                     [[f"[{tr(plain(p.doc.get('title')), lang)}]({link(page, p.page)})", code(p.id),
                       prose(tr(plain(p.doc.get("text")), lang))] for p in presets])

    games = [p for p in site.presets if not p.doc.get("engine")]
    programs = [p for p in site.presets if p.doc.get("engine")]
    out += [rows(games), ""]
    if programs:
        out += [heading(2, label("programs_title", lang), "programs"), "", label("programs_intro", lang), "",
                rows(programs), ""]
    out += [label("see_matrix", lang, matrix=link(page, MATRIX_PAGE), decisions=link(page, DECISIONS_PAGE)), ""]
    return "\n".join(out + _footer(lang))


def preset_page(site: Site, preset: Preset, lang: str) -> str:
    page, doc, res = preset.page, preset.doc, preset.resolved
    out = [*search_boost(SEARCH_BOOST_OTHER), f"# {tr(plain(doc.get('title')), lang)}", "",
           f"<small>{label('summary', lang, rules=len(res.rules), core=_core_count(res), params=len(res.params))}"
           "</small>", "", prose(tr(plain(doc.get("text")), lang)), ""]
    parent = doc.get("extends")
    if parent:
        out += [label("extends", lang, id=parent, link=link(page, f"presets/{parent}.md")), ""]

    out += dossier_section(site, preset, lang)
    out += [heading(2, label("overlays_used", lang), "overlays"), ""]
    if res.overlays:
        for oid in res.overlays:
            ov = site.rule(oid)
            title = tr(plain(ov.doc.get("title")), lang) if ov else oid
            out.append(f"1. [{title}]({link(page, ov.page)})" if ov else f"1. {code(oid)}")
        out.append("")
    else:
        out += [label("no_overlays", lang), ""]

    out += [heading(2, label("rules", lang), "rules"), ""]
    core = _core_count(res)
    extra = len(res.rules) - core
    out += [label("preset_rules" if extra else "preset_rules_core", lang, n=core, extra=extra,
                  link=link(page, RULES_INDEX)), ""]
    changed_rules = [(rid, doc) for rid, doc in res.rules.items() if doc.origin != "spec"]
    for rid, doc in changed_rules:
        entry = site.rule(rid)
        ov = site.rule(doc.origin)
        what = label("replaced_by" if rid in site.library.rules else "added_by", lang,
                     overlay=f"[{tr(plain(ov.doc.get('title')), lang)}]({link(page, ov.page)})" if ov
                     else code(doc.origin))
        if entry is not None and ov is not None and entry.page == ov.page:
            what = label("own_rule", lang)  # an overlay that is a rule of its own: one page, one name
        title = tr(plain(entry.doc.get("title")), lang) if entry else rid
        out.append(f"- [{title}]({link(page, entry.page)}): {what}" if entry else f"- {code(rid)}: {what}")
    if changed_rules:
        out.append("")

    out += [heading(2, label("preset_values", lang), "parameters"), ""]
    changed = [n for n in res.params if n in res.set_by]
    if changed:
        rows = []
        for n in changed:
            decl = res.params[n]
            owner = site.rule(decl.rule_id)
            what = decl.doc.get(lang) or decl.doc["en"]
            rule = (f"[{tr(plain(owner.doc.get('title')), lang)}]({link(page, owner.page, 'parameters')})" if owner
                    else code(decl.rule_id))
            rows.append([what, value_cell(n, res.values[n], decl.default, lang),
                         value_label(n, decl.default, lang), rule])
        out += [table([label("what_it_sets", lang), label("value", lang), label("default_col", lang),
                       label("rule", lang)], rows), ""]
    else:
        out += [label("preset_no_values", lang, link=link(page, MATRIX_PAGE)), ""]

    decisions = [d for d in site.decisions() if d.parameter in res.params]
    if decisions:
        out += [heading(2, label("preset_decisions", lang), "decisions"), ""]
        rows = []
        for d in decisions:
            v = res.values[d.parameter]
            is_default = option_key(v) == option_key(d.data["default"])
            words = value_label(d.parameter, v, lang)
            shown = words if is_default else f"**{words}**"
            rows.append([f"[{decision_title(d, lang)}]({link(page, DECISIONS_PAGE, d.anchor)})", shown])
        out += [table([label("topic", lang), label("value", lang)], rows), ""]

    out += [heading(2, label("play_it", lang), "play"), "", label("play_it_text", lang), "",
            f"```sh\nthousand play --ruleset {preset.id} --seed 7 --pretty --out game.json\n```", ""]
    out += _preset_authors(site, preset, lang)
    return "\n".join(out + _footer(lang))


def _preset_authors(site: Site, preset: Preset, lang: str) -> list[str]:
    res = preset.resolved
    lines = [label("preset_meta", lang, id=preset.id, path=preset.doc.path), ""]
    if res.overlays:
        lines += [label("overlays_ids", lang, ids=", ".join(code(o) for o in res.overlays)), ""]
    changed = [n for n in res.params if n in res.set_by]
    if changed:
        rows = [[code(n), code(show(res.values[n])), code(show(res.params[n].default)), code(res.params[n].rule_id),
                 res.set_by[n]] for n in changed]
        lines += [table([label("parameter", lang), label("value", lang), label("default_col", lang),
                         label("rule", lang), label("set_by", lang)], rows), ""]
    return authors_block(lines, lang)


def matrix_page(site: Site, lang: str) -> str:
    page = MATRIX_PAGE
    # The table grows a column per preset: give it the whole width of the page.
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "",
           f"# {label('matrix_title', lang)}", "", label("matrix_intro", lang), ""]
    headers = [label("parameter", lang), label("default_col", lang)]
    headers += [f"[{p.id}]({link(page, p.page)})" for p in site.presets]
    differing, same = [], []
    for r in (*site.rules, *site.overlays):
        for name, spec in r.params().items():
            default = spec["default"]
            head = [f"[{code(name)}]({link(page, r.page, 'parameters')})", value_label(name, default, lang)]
            values = [p.resolved.values[name] if name in p.resolved.params else None for p in site.presets]
            has = [name in p.resolved.params for p in site.presets]
            # Parameters no ruleset changes only need their default; the wide table is for the differences,
            # and in it a dot stands for the default so that the changes stand out.
            if all(h and plain(v) == plain(default) for v, h in zip(values, has, strict=True)):
                same.append(head)
            else:
                differing.append(head + [("·" if plain(v) == plain(default) else f"**{value_label(name, v, lang)}**")
                                         if h else "—"
                                         for v, h in zip(values, has, strict=True)])
    out += [heading(2, label("matrix_differ", lang), "differ"), ""]
    presets = ", ".join(f"[{p.id}]({link(page, p.page)})" for p in site.presets)
    if differing:
        # A class for the stylesheet: the wide table scrolls in its own box with a sticky header.
        out += ['<div class="thousand-matrix" markdown>', "", table(headers, differing), "", "</div>", ""]
    else:
        out += [label("matrix_no_diff", lang, presets=presets), ""]
    if same:
        out += [heading(2, label("matrix_same", lang), "same"), "", label("matrix_same_text", lang), "",
                table(headers[:2], same), ""]
    return "\n".join(out + _footer(lang))


def _overview(site: Site, decisions: list[Decision], page: str, lang: str) -> str:
    """One row per decision: the default and the rulesets that choose otherwise, the argument at a glance."""
    headers = ["#", label("topic", lang), label("parameter", lang), label("default_col", lang),
               label("other_choices", lang)]
    rows = []
    for d in decisions:
        topic = f"[{tr(plain(d.data['topic']), lang)}](#{d.anchor})"
        default = option_key(d.data["default"])
        by_value: dict[str, list[str]] = {}
        for p in site.presets:
            if d.parameter in p.resolved.values and option_key(p.resolved.values[d.parameter]) != default:
                by_value.setdefault(value_label(d.parameter, p.resolved.values[d.parameter], lang), []).append(
                    f"[{p.id}]({link(page, p.page)})")
        others = "; ".join(f"**{v}** {label('in_presets', lang, presets=', '.join(ps))}"
                           for v, ps in by_value.items())
        rows.append([str(d.number) if d.number is not None else "", topic, code(d.parameter),
                     value_label(d.parameter, d.data["default"], lang), others or label("all_default", lang)])
    return table(headers, rows)


def decisions_page(site: Site, lang: str) -> str:
    page = DECISIONS_PAGE
    # The overview grows a column per preset and links every decision: it replaces the side menus.
    out = ["---", "hide:", "  - navigation", "  - toc", "---", "",
           f"# {label('decisions_title', lang)}", "", label("decisions_intro", lang, link=link(page, SOURCES_PAGE)), ""]
    decisions = site.decisions()
    if not decisions:
        out += [label("none_yet", lang), ""]
    else:
        out += [heading(2, label("overview", lang), "overview"), "", _overview(site, decisions, page, lang), ""]
    for d in decisions:
        title = tr(plain(d.rule.doc.get("title")), lang)
        out += [heading(2, decision_title(d, lang), d.anchor), "",
                label("decision_rule", lang, title=title, link=link(page, d.rule.page, d.anchor), param=d.parameter),
                "", decision_table(site, d, page, lang), "",
                f"**{label('why', lang)}:** {prose(tr(plain(d.data['why']), lang))}", ""]
    return "\n".join(out + _footer(lang))
