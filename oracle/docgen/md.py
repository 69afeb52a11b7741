"""Small, safe builders for the Markdown the generator writes.

Rule files hold free text and code; these helpers make sure such text cannot
break a table, close a code span early or turn into HTML by accident.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..yamlpos import plain

__all__ = ["plain"]

LANG_SUFFIX = {"en": "", "ru": ".ru"}


def page_file(key: str, lang: str) -> str:
    """The file a page is written to: mkdocs-static-i18n's suffix layout (``x.md``, ``x.ru.md``)."""
    stem = key[:-3] if key.endswith(".md") else key
    return f"{stem}{LANG_SUFFIX[lang]}.md"


def link(src: str, dst: str, anchor: str = "") -> str:
    """A relative link between two pages, both given by their key (their path under the docs folder).

    Links always point at the unsuffixed file: the i18n plugin resolves them to the
    page in the reader's language, so one link works in every language.
    """
    rel = posixpath.relpath(dst, posixpath.dirname(src) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def code(text: Any) -> str:
    """An inline code span that survives any backticks inside."""
    s = str(text).replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{ticks}{pad}{s}{pad}{ticks}"


def fence(text: str, lang: str = "") -> str:
    """A fenced code block; the fence is longer than any backtick run in the text."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


_CODE_SPAN = re.compile(r"(`+).*?(?<!`)\1(?!`)")


def cell(text: Any) -> str:
    """Text fit for one table cell: no newlines, no bare pipes.

    Python-Markdown's tables already ignore pipes inside code spans, and a backslash
    there would show, so only the pipes outside code are escaped.
    """
    s = re.sub(r"\s*\n\s*", " ", str(text)).strip()
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(s):
        out += [s[pos:m.start()].replace("|", "\\|"), m.group(0)]
        pos = m.end()
    out.append(s[pos:].replace("|", "\\|"))
    return "".join(out)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = ["| " + " | ".join(cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    out.extend("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)
    return "\n".join(out)


def heading(level: int, text: str, anchor: str) -> str:
    """A heading with a fixed id, so anchors are the same in every language."""
    return f"{'#' * level} {text} {{#{anchor}}}"


def prose(text: Any) -> str:
    """Free text from a rule file, kept as Markdown but never as raw HTML."""
    return str(text).strip().replace("<", "&lt;")


def show(v: Any) -> str:
    """A value as the rule files spell it: true/false, lists and maps without Python's punctuation."""
    v = plain(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if v == "":
        return '""'

    if isinstance(v, list):
        return "[" + ", ".join(show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {show(x)}" for k, x in v.items()) + "}"
    return str(v)


def option_key(v: Any) -> str:
    """How a value is written as a key of a decision's ``options`` (YAML keys are strings)."""
    return show(v)
