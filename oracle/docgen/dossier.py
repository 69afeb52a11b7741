"""A preset's dossier on its page: what its source says, what the preset does, and what it leaves out.

The dossier lives in the preset file (``dossier:``, ``silent:`` and ``not_modelled:``). The page
shows two tables: the preset's own choices (every parameter it sets and overlay it adds), then every
rule of the resolved ruleset that can change a verdict (``oracle.dossier``), inherited core rules
included, each with what answers for it: the source's lines, our decision, the overlay that replaces
or switches it off, or, not yet, nothing. Rules an overlay switches off entirely are listed after them.
"""

from __future__ import annotations

from typing import Any

from ..dossier import Answer, How, Kind, Row, by_overlay, cites_source, rows
from ..ruleset import load_ruleset
from .labels import value_label
from .md import code, heading, link, plain, prose, table
from .rules import SOURCES_PAGE, cite, meaning, tr
from .site import Preset, Site

# The dossier's own headings and column names. They are kept beside the only code that
# uses them, so that the section can be read (and translated) in one place.
_WORDS: dict[str, dict[str, str]] = {
    "title": {"en": "Source says → ruleset does", "ru": "Что говорит источник → что делает набор"},
    "intro": {
        "en": "Every parameter this ruleset sets and every overlay it adds, with the [source]({link}) lines it "
              "comes from. Where the source is silent or unclear the choice is ours, and the row says why.",
        "ru": "Каждый параметр, который задаёт этот набор, и каждое дополнение, которое он включает, — со "
              "строками [источника]({link}), откуда они взяты. Где источник молчит или неясен, выбор сделан "
              "нами, и в строке сказано почему.",
    },
    "source": {"en": "Source", "ru": "Источник"},
    "does": {"en": "Ruleset does", "ru": "Набор делает"},
    "why": {"en": "Note", "ru": "Примечание"},
    "ours": {"en": "our decision", "ru": "наше решение"},
    "read": {"en": "read from {lines}", "ru": "по {lines}"},
    "empty": {"en": "This ruleset sets no parameter and adds no overlay of its own.",
              "ru": "Этот набор не задаёт своих параметров и не включает своих дополнений."},
    "rules_title": {"en": "Every rule that can change a verdict", "ru": "Все правила, от которых зависит вердикт"},
    "rules_intro": {
        "en": "Each rule of this ruleset that can refuse a move or write a value on the score sheet, the core "
              "rules it inherits included, and what answers for it: the source's lines, our decision where the "
              "source is silent (with the lines behind the reading we kept), or the overlay that replaces it. "
              "{answered} of {total} points (rules and parameters) are answered.",
        "ru": "Каждое правило этого набора, которое может запретить ход или записать значение в запись счёта, "
              "включая унаследованные основные правила, и что за него отвечает: строки источника, наше решение "
              "там, где источник молчит (со строками, на которых держится сохранённое прочтение), или "
              "дополнение, которое его заменяет. Ответ есть на {answered} из {total} пунктов (правил и "
              "параметров).",
    },
    "rules_intro_classic": {
        "en": "Each rule of this ruleset that can refuse a move or write a value on the score sheet. This ruleset "
              "follows no single text: each rule answers with its own sources and decisions, on its page.",
        "ru": "Каждое правило этого набора, которое может запретить ход или записать значение в запись счёта. "
              "Этот набор не следует одному тексту: каждое правило отвечает своими источниками и решениями — "
              "на своей странице.",
    },
    "rule_col": {"en": "Rule", "ru": "Правило"},
    "unchecked": {"en": "not yet checked against the source", "ru": "ещё не сверено с источником"},
    "unchecked_engine": {"en": "not checked against the engine", "ru": "не сверено с движком"},
    "inherited": {"en": "from {preset}", "ru": "из {preset}"},
    "kept": {"en": "Kept from {lines}.", "ru": "Сохранено по {lines}."},
    "as_written": {"en": "as the rule states", "ru": "как в правиле"},
    "replaced": {"en": "replaced by {overlay}", "ru": "заменено дополнением {overlay}"},
    "switched_off": {"en": "switched off by {overlay}", "ru": "отключено дополнением {overlay}"},
    "set_by": {"en": "set by {overlay}", "ru": "задано дополнением {overlay}"},
    "rule_file": {"en": "the rule's own sources: {lines}", "ru": "собственные источники правила: {lines}"},
    "off_title": {"en": "Rules switched off here", "ru": "Правила, которые здесь не действуют"},
    "off_intro": {
        "en": "Rules of the game that an overlay of this ruleset switches off entirely:",
        "ru": "Правила игры, которые дополнение этого набора отключает целиком:",
    },
    "left_out": {"en": "What the source says and this ruleset leaves out",
                 "ru": "Что есть в источнике, но не вошло в набор"},
    "left_out_intro": {
        "en": "Rules of the main text of this ruleset's source that it does not play, and why.",
        "ru": "Правила из основного текста источника этого набора, которых в нём нет, и почему.",
    },
    "says": {"en": "The source says", "ru": "В источнике"},
    "reason": {"en": "Why it is left out", "ru": "Почему не вошло"},
}


def _w(key: str, lang: str, **fmt: object) -> str:
    text = _WORDS[key][lang]
    return text.format(**fmt) if fmt else text


def _source_cell(entry: dict[str, Any], lang: str) -> str:
    cited = cite(entry["sources"]) if entry.get("sources") else ""
    if entry.get("decision"):
        return f"*{_w('ours', lang)}*" + (f" ({_w('read', lang, lines=cited)})" if cited else "")
    return cited


def _note_cell(entry: dict[str, Any], lang: str) -> str:
    parts = [tr(entry[k], lang) for k in ("decision", "note") if entry.get(k)]
    return prose(" ".join(parts))


def dossier_section(site: Site, preset: Preset, lang: str) -> list[str]:
    """The dossier's Markdown: the preset's own choices, every verdict-changing rule, what it leaves out."""
    page, doc = preset.page, preset.doc
    dossier = {str(k): plain(v) for k, v in (doc.get("dossier") or {}).items()}
    out = [heading(2, _w("title", lang), "dossier"), ""]
    choices = []
    for oid in (str(o) for o in doc.get("overlays") or []):
        ov = site.rule(oid)
        does = f"[{tr(plain(ov.doc.get('title')), lang)}]({link(page, ov.page)})" if ov else code(oid)
        entry = _own_entry(dossier, oid)
        choices.append([_source_cell(entry, lang), does, _note_cell(entry, lang)])
    for name, value in (doc.get("set") or {}).items():
        does = _setting(site, preset, str(name), value, lang)
        entry = _own_entry(dossier, str(name))
        choices.append([_source_cell(entry, lang), does, _note_cell(entry, lang)])
    if choices:
        out += [_w("intro", lang, link=link(page, SOURCES_PAGE)), "",
                table([_w("source", lang), _w("does", lang), _w("why", lang)], choices), ""]
    else:
        out += [_w("empty", lang), ""]
    out += _rules_section(site, preset, lang)
    omissions = plain(doc.get("not_modelled") or [])
    if omissions:
        out += [heading(2, _w("left_out", lang), "not-modelled"), "", _w("left_out_intro", lang), "",
                table([_w("source", lang), _w("says", lang), _w("reason", lang)],
                      [[cite(o["sources"]), prose(tr(o["what"], lang)), prose(tr(o["why"], lang))]
                       for o in omissions]), ""]
    return out


def _own_entry(dossier: dict[str, Any], key: str) -> dict[str, Any]:
    """The entry of the preset's own dossier that answers for ``key``: its own, or one naming it in ``also``."""
    if key in dossier:
        return dict(dossier[key])
    return next((dict(e) for e in dossier.values() if key in e.get("also", [])), {})


def _rules_section(site: Site, preset: Preset, lang: str) -> list[str]:
    page, res = preset.page, preset.resolved
    rs = load_ruleset(preset.id, root=site.library.root)
    table_rows = rows(rs)
    through_rule_files = not preset.doc.get("sources") and not preset.doc.get("extends")
    own = {str(k) for k in preset.doc.get("set") or {}}
    shown = [r for r in table_rows if r.point.kind is not Kind.PARAMETER
             or (r.answer is not None and r.answer.how is not How.RULE_FILE and r.answer.key not in (None, r.point.rule)
                 and r.point.key not in own)]
    answered = sum(r.answer is not None for r in table_rows)
    intro = (_w("rules_intro_classic", lang) if through_rule_files
             else _w("rules_intro", lang, answered=answered, total=len(table_rows)))
    out = [heading(3, _w("rules_title", lang), "dossier-rules"), "", intro, ""]
    out += [table([_w("rule_col", lang), _w("source", lang), _w("does", lang), _w("why", lang)],
                  [_rule_row(site, preset, r, lang) for r in shown]), ""]
    points = {r.point.key for r in table_rows}
    switched = by_overlay(res)
    off = [rid for rid in res.rules if rid not in points and rid in switched]
    if off:
        out += [heading(3, _w("off_title", lang), "dossier-off"), "", _w("off_intro", lang), ""]
        for rid in off:
            entry = site.rule(rid)
            title = f"[{tr(plain(entry.doc.get('title')), lang)}]({link(page, entry.page)})" if entry else code(rid)
            by = _overlay_name(site, preset, switched[rid], lang)
            out.append(f"- {title}: {_w('switched_off', lang, overlay=by)}")
        out.append("")
    return out


def _setting(site: Site, preset: Preset, name: str, value: Any, lang: str) -> str:
    """A parameter and its value as a player says them («кто снимает колоду: игрок слева от сдающего»),
    the parameter linked to its rule's page; its name and raw value are for the block for rule authors."""
    decl = preset.resolved.params.get(name)
    if decl is None:
        return f"{code(name)}: {value_label(name, value, lang)}"
    entry = site.rule(decl.rule_id)
    what = meaning(decl.doc, lang)
    if entry is not None:
        what = f"[{what}]({link(preset.page, entry.page, 'parameters')})"
    return f"{what}: {value_label(name, value, lang)}"


def _values(preset: Preset, rule_id: str, lang: str, changed_only: bool = False) -> str:
    """The rule's parameters with this ruleset's values (only those off the default, if asked)."""
    res = preset.resolved
    parts = [f"{meaning(d.doc, lang)}: {value_label(n, res.values[n], lang)}"
             for n, d in res.params.items()
             if d.rule_id == rule_id and (not changed_only or plain(res.values[n]) != plain(d.default))]
    return "; ".join(parts)


def _overlay_name(site: Site, preset: Preset, oid: str, lang: str) -> str:
    """An overlay by its title, linked to its page."""
    ov = site.rule(oid)
    return f"[{tr(plain(ov.doc.get('title')), lang)}]({link(preset.page, ov.page)})" if ov else code(oid)


def _rule_row(site: Site, preset: Preset, row: Row, lang: str) -> list[str]:
    page, res = preset.page, preset.resolved
    p, a = row.point, row.answer
    entry = site.rule(p.rule)
    if p.kind is Kind.PARAMETER:
        decl = res.params[p.key]
        rule = (f"[{meaning(decl.doc, lang)}]({link(page, entry.page, 'parameters')})" if entry
                else meaning(decl.doc, lang))
        does = value_label(p.key, res.values[p.key], lang)
    else:
        rule = (f"[{tr(plain(entry.doc.get('title')), lang)}]({link(page, entry.page)})" if entry
                else _overlay_name(site, preset, p.key, lang))
        does = _values(preset, p.key, lang, changed_only=True) or _w("as_written", lang)
    if a is None:
        unchecked = "unchecked" if cites_source(res.library, preset.id) else "unchecked_engine"
        return [rule, f"*{_w(unchecked, lang)}*", does, ""]
    if a.how is How.OVERLAY:
        return [rule, "", _overlay_does(site, preset, p.key, a, lang), ""]
    if a.how is How.RULE_FILE:
        doc = res.rules.get(p.rule)
        lines = cite(plain(doc.get("sources"))) if doc is not None and doc.get("sources") else ""
        return [rule, _w("rule_file", lang, lines=lines) if lines else "", does, ""]
    source = _source_cell(a.entry, lang)
    if a.preset != preset.id:
        parent = next((q for q in site.presets if q.id == a.preset), None)
        name = f"[{tr(plain(parent.doc.get('title')), lang)}]({link(page, parent.page)})" if parent else code(a.preset)
        source += f" ({_w('inherited', lang, preset=name)})"
    note = _note_cell(a.entry, lang)
    if a.how is How.DECISION:
        kept = a.entry.get("kept") or plain(res.rules[p.rule].get("sources") if p.rule in res.rules else None)
        if kept:
            note = (note + " " if note else "") + _w("kept", lang, lines=cite(kept))
    return [rule, source, does, note]


def _overlay_does(site: Site, preset: Preset, key: str, a: Answer, lang: str) -> str:
    res = preset.resolved
    oid = str(a.key)
    name = _overlay_name(site, preset, oid, lang)
    if key in res.params:
        return _w("set_by", lang, overlay=name) + f": {value_label(key, res.values[key], lang)}"
    replaced = key in res.rules and res.rules[key].replaced_by
    lib_ov = res.library.overlays.get(oid)
    empty = lib_ov is not None and not (lib_ov.get("logic") or [])
    return _w("switched_off" if not replaced or empty else "replaced", lang, overlay=name)
