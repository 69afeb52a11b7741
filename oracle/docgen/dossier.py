"""A preset's dossier on its page: what its source says, what the preset does, and what it leaves out.

The dossier lives in the preset file (``dossier:`` and ``not_modelled:``); the resolver
never reads it. Every parameter the preset sets and every overlay it adds gets one row:
the source lines it comes from, or "our decision" with the reason.
"""

from __future__ import annotations

from typing import Any

from .md import code, heading, link, plain, prose, show, table
from .rules import SOURCES_PAGE, cite, tr
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
    """The dossier's Markdown: the table of choices, then what the preset leaves out."""
    page, doc, res = preset.page, preset.doc, preset.resolved
    dossier = {str(k): plain(v) for k, v in (doc.get("dossier") or {}).items()}
    out = [heading(2, _w("title", lang), "dossier"), ""]
    rows = []
    for oid in (str(o) for o in doc.get("overlays") or []):
        ov = site.rule(oid)
        does = (f"[{tr(plain(ov.doc.get('title')), lang)}]({link(page, ov.page)}) ({code(oid)})" if ov
                else code(oid))
        entry = dossier.get(oid, {})
        rows.append([_source_cell(entry, lang), does, _note_cell(entry, lang)])
    for name, value in (doc.get("set") or {}).items():
        decl = res.params.get(str(name))
        does = f"{code(name)} = {code(show(value))}" + (f": {decl.doc.get(lang) or decl.doc['en']}" if decl else "")
        entry = dossier.get(str(name), {})
        rows.append([_source_cell(entry, lang), does, _note_cell(entry, lang)])
    if rows:
        out += [_w("intro", lang, link=link(page, SOURCES_PAGE)), "",
                table([_w("source", lang), _w("does", lang), _w("why", lang)], rows), ""]
    else:
        out += [_w("empty", lang), ""]
    omissions = plain(doc.get("not_modelled") or [])
    if omissions:
        out += [heading(2, _w("left_out", lang), "not-modelled"), "", _w("left_out_intro", lang), "",
                table([_w("source", lang), _w("says", lang), _w("reason", lang)],
                      [[cite(o["sources"]), prose(tr(o["what"], lang)), prose(tr(o["why"], lang))]
                       for o in omissions]), ""]
    return out
