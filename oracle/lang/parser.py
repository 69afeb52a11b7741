"""Parsing rule-language text with Lark (LALR), with errors a rule author can act on."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import Location, RuleFileError
from ..limits import MAX_EXPR_DEPTH, MAX_INT_DIGITS
from ..yamlpos import PosStr

# Terminal names Lark invents for literals, shown to authors as the text they match.
_FRIENDLY = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a "string"',
    "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*', '//' or '%'",
    "AUGOP": "'+=' or '-='",
    "$END": "the end of the text",
}


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", start=["block", "expr"], propagate_positions=True,
                maybe_placeholders=True)


def _describe(term: str, parser: Lark) -> str:
    if term in _FRIENDLY:
        return _FRIENDLY[term]
    for t in parser.terminals:
        if t.name == term:
            pattern = t.pattern.value
            if t.pattern.type == "str":
                return f"'{pattern}'"
    return term.lower()


def _where(text: str, line: int, column: int) -> Location:
    if isinstance(text, PosStr):
        return text.location_at(line, column)
    return Location("<text>", line, column)


def parse(text: str, start: str = "expr") -> Tree:
    """Parse ``text`` as an expression or a block; raise RuleFileError on failure.

    The tree of a text is kept (its positions are relative to the text, so the same words in another
    place share it): each variant of a ruleset compiles the same rule texts again, and parsing was
    most of a compile. Trees are only read after this. Failures are not kept; each is raised at its
    own text's place.
    """
    return _parsed(str(text), start, text)


class _TooBig(Exception):
    def __init__(self, message: str, line: int, column: int) -> None:
        self.message, self.line, self.column = message, line, column


@lru_cache(maxsize=8192)
def _parse_plain(text: str, start: str) -> Tree:
    tree = _parser().parse(text, start=start)
    _check_size(tree)
    return tree


def _parsed(plain: str, start: str, text: str) -> Tree:
    try:
        return _parse_plain(plain, start)
    except UnexpectedInput as exc:
        raise _friendly(exc, text, _parser()) from None
    except _TooBig as exc:
        raise RuleFileError(exc.message, _where(text, exc.line, exc.column)) from None


def _check_size(tree: Tree) -> None:
    """Refuse what the later stages (type checker, compiler, Python's own compiler) would recurse on
    too deeply, or a number too long to read, at the place it starts."""
    stack: list[tuple[Tree | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Token):
            if node.type == "INT" and len(node) > MAX_INT_DIGITS:
                raise _TooBig(f"the number has more than {MAX_INT_DIGITS} digits", node.line or 1, node.column or 1)
            continue
        if depth > MAX_EXPR_DEPTH:
            meta = node.meta
            line, column = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise _TooBig(f"the logic is nested more than {MAX_EXPR_DEPTH} levels deep (each term of a chain "
                          "of 'and', 'or', '+' and each 'not', bracket, 'if' or 'for' inside another "
                          "is a level); split it with 'let' or a 'define'", line, column)
        stack.extend((child, depth + 1) for child in node.children if child is not None)


def _friendly(exc: UnexpectedInput, text: str, parser: Lark) -> RuleFileError:
    line, column = getattr(exc, "line", 1), getattr(exc, "column", 1)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = str(text).rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        expected = sorted({_describe(t, parser) for t in exc.expected})
        return RuleFileError(f"the logic ends too early; expected {_join(expected)}", _where(text, line, column))
    if isinstance(exc, UnexpectedToken):
        token: Token = exc.token
        expected = sorted({_describe(t, parser) for t in exc.accepts or exc.expected})
        return RuleFileError(f"unexpected {token.value!r}; expected {_join(expected)}", _where(text, line, column))
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        ch = str(text)[pos] if pos is not None and pos < len(str(text)) else "?"
        hint = " (names are lower case, strings use double quotes)" if ch.isupper() or ch == "'" else ""
        return RuleFileError(f"unexpected character {ch!r}{hint}", _where(text, line, column))
    return RuleFileError(str(exc), _where(text, line, column))


def _join(items: list[str]) -> str:
    if len(items) > 8:
        items = [*items[:8], "…"]
    return ", ".join(items) if items else "something else"
