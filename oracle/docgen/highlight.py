"""Syntax colouring for rule-language code blocks on the site.

Pygments has no lexer for our language, and a near neighbour (Lua) would colour
some words wrongly. The lexer below is built from the compiler's keyword set and
the standard library's registry, so it colours exactly the names the language has.
It is wired into mkdocs through pymdownx.superfences as the ``rule`` fence.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from ..lang.compiler import ENGINE_VARS, KEYWORDS
from ..lang.stdlib import REGISTRY

_CONSTANTS = ("true", "false", "none")


@cache
def rule_lexer() -> RegexLexer:
    class RuleLexer(RegexLexer):
        name = "Thousand rule language"
        aliases = ["rule"]  # noqa: RUF012 - pygments reads these as class attributes
        tokens = {  # noqa: RUF012
            "root": [
                (r"\s+", Whitespace),
                (r"#[^\n]*", Comment.Single),
                (r'"[^"\n]*"', String.Double),
                (r"[0-9]+", Number.Integer),
                (words(_CONSTANTS, suffix=r"\b"), Keyword.Constant),
                (words(sorted(set(KEYWORDS) - set(_CONSTANTS)), suffix=r"\b"), Keyword),
                (words(sorted(REGISTRY), suffix=r"(?=\s*\()"), Name.Builtin),
                (words(sorted(ENGINE_VARS), suffix=r"\b"), Name.Builtin.Pseudo),
                (r"[A-Za-z_][A-Za-z0-9_]*", Name),
                (r"==|!=|<=|>=|\+=|-=|//|[-+*%<>=]", Operator),
                (r"[()\[\]{},.:]", Punctuation),
                (r".", Text),
            ]
        }
        flags = re.MULTILINE

    return RuleLexer()


def fence_format(src: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any) -> str:
    """pymdownx.superfences formatter: rule code as a highlighted block in Material's markup."""
    fmt = HtmlFormatter(cssclass=f"language-{language} highlight", wrapcode=True)
    return highlight(src, rule_lexer(), fmt)
