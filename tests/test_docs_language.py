"""The Russian site is in Russian: no English prose on any Russian page, and rule files carry both languages.

A Russian page may show code, identifiers (rule ids, parameter names, preset ids), file
names, URLs and the English words of the glossary's "English" column; what it may not show
is an English sentence. "Prose" here is four or more English words in a row outside those (an
English title or test name quoted in «» is a name, kept as written).
The pages read are the committed ones: tests/test_docs.py checks that they are fresh.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from oracle.ruleset import load_library
from oracle.yamlpos import plain

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RUN = 4  # consecutive English words that make prose

_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,}).*?^\1\2[ \t]*$", re.S | re.M)
_CODE = re.compile(r"(`+).+?(?<!`)\1(?!`)", re.S)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_TAG = re.compile(r"<[^>]+>")
_ATTRS = re.compile(r"\{[#.][^}]*\}")
_FRONT = re.compile(r"\A---\n.*?\n---\n", re.S)
_QUOTED_LATIN = re.compile(r"«[^«»А-Яа-яЁё]*»")  # a quoted English name or test title, kept as written
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
_STRIP = "\"'«»„“()[]*_.,;:!?…—–-/"


def english_runs(markdown: str, run: int = RUN) -> list[str]:
    """Runs of ``run`` or more English words outside code, link targets, URLs and HTML."""
    text = _FRONT.sub("", markdown)
    text = _FENCE.sub("\n", text)
    text = _CODE.sub(" ⟨code⟩ ", text)
    text = _LINK_TARGET.sub("]", text)
    text = _URL.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = _ATTRS.sub(" ", text)
    text = _QUOTED_LATIN.sub(" ⟨quote⟩ ", text)
    found = []
    for line in text.splitlines():
        words: list[str] = []
        for token in line.replace("|", " | ").split():
            bare = token.strip(_STRIP)
            # A table cell border, a Russian word, a number or an identifier (a.b, a_b, a-b) ends a run.
            if bare and _WORD.fullmatch(bare) and not re.search(r"[._-]", token.strip(_STRIP + "-")):
                words.append(bare)
                continue
            if len(words) >= run:
                found.append(" ".join(words))
            words = []
        if len(words) >= run:
            found.append(" ".join(words))
    return found


def russian_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.ru.md") if "_data" not in p.parts)


def test_the_detector_finds_english_prose_and_ignores_code() -> None:
    assert english_runs("Противоречие 15. The barrel threshold is here") == ["The barrel threshold is here"]
    assert english_runs("Ставка `must raise the highest bid` и [ссылка](../a/b.md)") == []
    assert english_runs("```text\nusage: thousand play the whole game\n```\nПо-русски.") == []
    assert english_runs("Дополнение variant.dark.left-of-dealer-only и parameter forced_bidder") == []
    assert english_runs("| `x` | The highest bid so far. |") == ["The highest bid so far"]
    # Three words are a name or a term, not a sentence.
    assert english_runs("Сайт на Material for MkDocs.") == []
    assert english_runs("тест «is not forced to throw trump suit»") == []


@pytest.mark.parametrize("page", russian_pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_russian_page_has_no_english_prose(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    if page.name == "glossary.ru.md":
        # The glossary's middle column is the English term itself.
        text = "\n".join(re.sub(r"^(\|[^|]*\|)[^|]*\|", r"\1 |", line) for line in text.splitlines())
    runs = english_runs(text)
    assert not runs, f"{page.relative_to(ROOT)}: English prose on a Russian page: {runs[:5]}"


def test_no_page_carries_the_english_only_banner() -> None:
    banner = "только по-английски"
    assert not [p for p in russian_pages() if banner in p.read_text(encoding="utf-8")]


def _text_fields(doc: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every field of a rule file that reaches a page, with where it is."""
    out: list[tuple[str, Any]] = [(k, doc[k]) for k in ("title", "text", "notes") if k in doc]
    for i, d in enumerate(doc.get("decisions") or []):
        out += [(f"decisions[{i}].topic", d.get("topic")), (f"decisions[{i}].why", d.get("why"))]
    for i, cl in enumerate(doc.get("logic") or []):
        if "message" in cl:
            out.append((f"logic[{i}].message", cl["message"]))
    for section in ("params", "state", "define", "actions"):
        for name, spec in (doc.get(section) or {}).items():
            if "doc" in spec:
                out.append((f"{section}.{name}.doc", spec["doc"]))
    for name, mark in (doc.get("marks") or {}).items():
        out.append((f"marks.{name}", {"en": mark.get("en"), "ru": mark.get("ru")}))
    for i, s in enumerate(doc.get("sources") or []):
        if "note" in s:
            out.append((f"sources[{i}].note", s["note"]))
    return out


def test_every_text_field_of_every_rule_file_has_both_languages() -> None:
    lib = load_library()
    docs = [*lib.rules.values(), *lib.overlays.values(), *lib.presets.values()]
    missing = []
    for doc in docs:
        for where, value in _text_fields(plain(doc.data)):
            both = isinstance(value, dict) and all(str(value.get(k) or "").strip() for k in ("en", "ru"))
            if not both:
                missing.append(f"{doc.path}: {where}")
            elif english_runs(str(value["ru"])):
                missing.append(f"{doc.path}: {where} (ru is English: {english_runs(str(value['ru']))[0]!r})")
    assert len(docs) > 100
    assert not missing, "\n".join(missing[:20])


_AUTHORS = '??? info "Для авторов правил"'
_CODE_HEAD = "## Код на языке правил"
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def _players_part(text: str) -> str:
    """What a player reads of a rule or preset page: up to the rule's code or the block for rule authors."""
    text = _FENCE.sub("\n", _FRONT.sub("", text))
    ends = [i for i in (text.find(_CODE_HEAD), text.find(_AUTHORS)) if i >= 0]
    return text[:min(ends)] if ends else text


def test_player_pages_keep_ids_and_raw_values_for_rule_authors() -> None:
    lib = load_library()
    params = {str(p) for d in (*lib.rules.values(), *lib.overlays.values()) for p in (d.get("params") or {})}
    ids = {d.id for d in (*lib.rules.values(), *lib.overlays.values())}
    choices = {str(c) for d in (*lib.rules.values(), *lib.overlays.values())
               for spec in (d.get("params") or {}).values() for c in (spec.get("choices") or [])}
    pages = [p for p in russian_pages() if p.parent.name != "reference"
             and any(part in p.parts for part in ("rules", "overlays", "presets")) and p.name != "index.ru.md"]
    assert len(pages) > 150
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert _AUTHORS in text, f"{page.relative_to(DOCS)} has no block for rule authors"
        for span in _SPAN.findall(_players_part(text)):
            words = {w.strip("{}[],:=") for w in span.split()}
            if words & (params | ids | choices) or re.search(r"\.ya?ml\b|\.json\b", span):
                found.append(f"{page.relative_to(DOCS)}: `{span}`")
    assert not found, "identifiers shown to players (move them to the block for rule authors):\n" + \
        "\n".join(found[:20])
