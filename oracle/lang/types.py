"""Static types of the rule language.

Types are small strings so they read well in error messages and in the docs:
``int bool str card seat suit rank phase any none record``, ``list[T]`` and the
nullable form ``T?``. ``cards`` is shorthand for ``list[card]``. Seats, cards,
suits and ranks are integers at run time; the checker keeps them apart so that
comparing a suit with a rank is caught when the rule file is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SCALARS = {"int", "bool", "str", "card", "seat", "suit", "rank", "phase", "any", "none", "record"}
# Types that are small integers at run time and accept a name in a string literal.
NAMED = {"suit", "rank", "card"}


@dataclass(frozen=True)
class Type:
    """A type written as text, taken apart once: the one reader of type strings. ``name`` is a scalar's
    name, ``list`` or ``map``; ``elem`` a list's items or a map's values, ``key`` a map's keys."""

    text: str  # as normalised, e.g. "list[card]", "seat?"
    name: str
    nullable: bool = False
    elem: Type | None = None
    key: Type | None = None


@lru_cache(maxsize=4096)
def parse(t: str) -> Type:
    """``t`` taken apart (``cards`` is ``list[card]``; ``map[K,V]`` is a parameter's mapping type). A text
    that is no type at all parses to a scalar of that name, which :func:`valid` refuses."""
    text = normalize(t)
    core = text[:-1] if text.endswith("?") else text
    nullable = core != text
    if core.startswith("list[") and core.endswith("]"):
        return Type(text, "list", nullable, parse(core[5:-1]))
    if core.startswith("map[") and core.endswith("]") and "," in core:
        key, _, val = core[4:-1].partition(",")
        return Type(text, "map", nullable, parse(val), parse(key))
    return Type(text, core, nullable)


def list_elem(t: str) -> str | None:
    """The item type of a list type (not ``any``), or None for any other type."""
    parsed = parse(t)
    return parsed.elem.text if parsed.name == "list" and parsed.elem is not None else None


@lru_cache(maxsize=4096)
def normalize(t: str) -> str:
    t = t.replace(" ", "")
    if t == "cards":
        return "list[card]"
    if t.endswith("?"):
        return normalize(t[:-1]) + "?"
    if t.startswith("list[") and t.endswith("]"):
        return f"list[{normalize(t[5:-1])}]"
    return t


def valid(t: str) -> bool:
    t = normalize(t)
    if t.endswith("?"):
        return valid(t[:-1])
    if t.startswith("list[") and t.endswith("]"):
        return valid(t[5:-1])
    return t in SCALARS


@lru_cache(maxsize=4096)
def base(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


@lru_cache(maxsize=4096)
def nullable(t: str) -> bool:
    return t.endswith("?") or t in ("any", "none")


@lru_cache(maxsize=4096)
def is_list(t: str) -> bool:
    return base(t).startswith("list[") or base(t) == "any"


@lru_cache(maxsize=4096)
def elem(t: str) -> str:
    b = base(t)
    return b[5:-1] if b.startswith("list[") else "any"


def list_of(t: str) -> str:
    return f"list[{t}]"


@lru_cache(maxsize=4096)
def is_int_like(t: str) -> bool:
    return base(t) in ("int", "seat", "any")


@lru_cache(maxsize=4096)
def compatible(expected: str, got: str) -> bool:
    """Can a value of type ``got`` stand where ``expected`` is required?"""
    expected, got = normalize(expected), normalize(got)
    if "any" in (expected, got):
        return True
    if got == "none":
        return nullable(expected)
    if got.endswith("?") and not expected.endswith("?"):
        # Reading a nullable var where a value is needed is allowed: the rule
        # author guards it; a None at run time is reported with the rule's id.
        got = got[:-1]
    e, g = base(expected), base(got)
    if e == g:
        return True
    if {e, g} <= {"int", "seat"}:
        return True
    if e.startswith("list[") and g.startswith("list["):
        return compatible(e[5:-1], g[5:-1])
    return False


def unify(a: str, b: str) -> str:
    """The type of a value that may be ``a`` or ``b`` (branches, list items)."""
    a, b = normalize(a), normalize(b)
    if a == b:
        return a
    if a == "none":
        return b if b.endswith("?") or b == "any" else b + "?"
    if b == "none":
        return unify(b, a)
    if base(a) == base(b):
        return base(a) + "?"
    if {base(a), base(b)} <= {"int", "seat"}:
        return "int"
    if base(a).startswith("list[") and base(b).startswith("list["):
        return list_of(unify(elem(a), elem(b)))
    return "any"


def comparable(a: str, b: str) -> bool:
    """May ``a == b`` be asked? Unrelated types (a suit and a rank) may not."""
    return compatible(a, b) or compatible(b, a)
