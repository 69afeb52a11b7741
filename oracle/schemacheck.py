"""A fast yes-or-no check of data against a JSON Schema, for the common case: valid data.

jsonschema explains what is wrong very well, but it takes about half a millisecond to say that a
record's header is right, more than the hand-written referee needs for the whole deal, and most of the
time of reading a rule tree goes to saying that each rule file is right. This module compiles the JSON
Schema keywords the record and rule-file schemas use into plain Python predicates that only say valid or
not; the readers ask jsonschema for the error only when the answer is no. A schema with any keyword
outside that set gets no predicate at all (:func:`compile_check` returns None), so a keyword added to a
schema later can never be skipped silently: it is simply checked by jsonschema alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say nothing about validity.
_ANNOTATIONS = {"$id", "$schema", "$defs", "$comment", "title", "description", "default", "examples"}
_SUPPORTED = _ANNOTATIONS | {"type", "const", "enum", "required", "properties", "additionalProperties", "items",
                             "minItems", "maxItems", "minLength", "minimum", "maximum", "exclusiveMinimum",
                             "minProperties", "propertyNames", "pattern", "uniqueItems", "oneOf", "anyOf", "$ref"}


class _Unsupported(Exception):
    pass


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: true and 1 differ, 1 and 1.0 do not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) and isinstance(b, str):  # a rule file's text is a str that knows its place
        return a == b
    return type(a) is type(b) and a == b


def _unique(v: Any) -> bool:
    if not isinstance(v, list):
        return True
    if all(isinstance(x, str) for x in v):  # names: a set says it at once
        return len(set(v)) == len(v)
    return all(not _equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))


def _one_of_values(values: list[Any]) -> Check:
    """Equal (as JSON compares) to one of ``values``; text alone is looked up in a set."""
    if values and all(type(c) is str for c in values):
        texts = frozenset(values)
        return lambda v: isinstance(v, str) and v in texts

    def equal_to_one(v: Any) -> bool:
        for c in values:
            if _equal(v, c):
                return True
        return False
    return equal_to_one


def _is_type(name: str) -> Check:
    if name == "object":
        return lambda v: isinstance(v, dict)
    if name == "array":
        return lambda v: isinstance(v, list)
    if name == "string":
        return lambda v: isinstance(v, str)
    if name == "boolean":
        return lambda v: isinstance(v, bool)
    if name == "null":
        return lambda v: v is None
    if name == "number":
        return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    if name == "integer":
        return lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    raise _Unsupported(name)


class _Compiler:
    """Compiles the schemas of one document (its root, for its ``#/$defs/...`` references); a reference to
    another document named in ``others`` (``rule.schema.json#/$defs/i18n``) is compiled by that document's
    own compiler, with which the compilers share ``others``."""

    def __init__(self, root: dict[str, Any], others: dict[str, dict[str, Any]],
                 compilers: dict[str, _Compiler] | None = None) -> None:
        self.root = root
        self.others = others
        self.compilers = compilers if compilers is not None else {}
        self.refs: dict[str, Check] = {}

    def ref(self, ref: str) -> Check:
        document, _, pointer = ref.partition("#")
        if document:
            if document not in self.others or not pointer:
                raise _Unsupported(ref)
            other = self.compilers.get(document)
            if other is None:
                other = self.compilers[document] = _Compiler(self.others[document], self.others, self.compilers)
            return other.ref("#" + pointer)
        if not pointer.startswith("/$defs/") or pointer.count("/") != 2:
            raise _Unsupported(ref)
        name = pointer.rsplit("/", 1)[1]
        if name not in self.refs:
            box: list[Check] = []
            self.refs[name] = lambda v: box[0](v)  # late bound: a definition may refer to itself
            box.append(self.schema(self.root["$defs"][name]))
        return self.refs[name]

    def schema(self, s: Any) -> Check:
        if s is True:
            return lambda v: True
        if s is False:
            return lambda v: False
        if not isinstance(s, dict) or set(s) - _SUPPORTED:
            raise _Unsupported(str(set(s) - _SUPPORTED) if isinstance(s, dict) else repr(s))
        checks: list[Check] = []
        if "$ref" in s:
            checks.append(self.ref(s["$ref"]))
        if "type" in s:
            kinds = [_is_type(t) for t in (s["type"] if isinstance(s["type"], list) else [s["type"]])]
            checks.append(kinds[0] if len(kinds) == 1 else _any_of(kinds))
        if "const" in s:
            checks.append(_one_of_values([s["const"]]))
        if "enum" in s:
            checks.append(_one_of_values(list(s["enum"])))
        if "required" in s:
            required = frozenset(s["required"])
            checks.append(lambda v: not isinstance(v, dict) or v.keys() >= required)
        props = {k: self.schema(x) for k, x in (s.get("properties") or {}).items()}
        if props:
            pairs = tuple(props.items())

            def properties(v: Any, pairs: tuple[tuple[str, Check], ...] = pairs) -> bool:
                if not isinstance(v, dict):
                    return True
                for k, c in pairs:
                    if k in v and not c(v[k]):
                        return False
                return True
            checks.append(properties)
        if "additionalProperties" in s:
            extra = self.schema(s["additionalProperties"])
            known = frozenset(props)

            def additional(v: Any, extra: Check = extra, known: frozenset[str] = known) -> bool:
                if not isinstance(v, dict):
                    return True
                for k, x in v.items():
                    if k not in known and not extra(x):
                        return False
                return True
            checks.append(additional)
        if "items" in s:
            if isinstance(s["items"], list):
                raise _Unsupported("items as a list")
            checks.append(_every(list, self.schema(s["items"])))
        if "minItems" in s:
            min_items = s["minItems"]
            checks.append(lambda v: not isinstance(v, list) or len(v) >= min_items)
        if "maxItems" in s:
            max_items = s["maxItems"]
            checks.append(lambda v: not isinstance(v, list) or len(v) <= max_items)
        if "minProperties" in s:
            min_properties = s["minProperties"]
            checks.append(lambda v: not isinstance(v, dict) or len(v) >= min_properties)
        if "propertyNames" in s:
            checks.append(_every(dict, self.schema(s["propertyNames"])))  # a mapping's keys
        if "minLength" in s:
            min_length = s["minLength"]
            checks.append(lambda v: not isinstance(v, str) or len(v) >= min_length)
        if "minimum" in s:
            number = _is_type("number")
            minimum = s["minimum"]
            checks.append(lambda v: not number(v) or v >= minimum)
        if "maximum" in s:
            number = _is_type("number")
            maximum = s["maximum"]
            checks.append(lambda v: not number(v) or v <= maximum)
        if "exclusiveMinimum" in s:
            number = _is_type("number")
            above = s["exclusiveMinimum"]
            checks.append(lambda v: not number(v) or v > above)
        if "pattern" in s:
            rx = re.compile(s["pattern"])
            checks.append(lambda v: not isinstance(v, str) or rx.search(v) is not None)
        if s.get("uniqueItems"):
            checks.append(_unique)
        if "oneOf" in s:
            subs = tuple(self.schema(x) for x in s["oneOf"])

            def one_of(v: Any, subs: tuple[Check, ...] = subs) -> bool:
                hits = 0
                for c in subs:
                    if c(v):
                        hits += 1
                return hits == 1
            checks.append(one_of)
        if "anyOf" in s:
            checks.append(_any_of([self.schema(x) for x in s["anyOf"]]))
        if len(checks) == 1:
            return checks[0]
        return _all_of(checks)


# Plain loops rather than all()/any() over generators: the header is checked once per record.
def _every(container: type[list[Any]] | type[dict[Any, Any]], check: Check) -> Check:
    """Every item of a list (every key of a mapping) passes ``check``; a value of another type passes."""
    def every(v: Any) -> bool:
        if not isinstance(v, container):
            return True
        for x in v:
            if not check(x):
                return False
        return True
    return every


def _any_of(checks: list[Check]) -> Check:
    cs = tuple(checks)

    def any_of(v: Any) -> bool:
        for c in cs:
            if c(v):
                return True
        return False
    return any_of


def _all_of(checks: list[Check]) -> Check:
    cs = tuple(checks)
    if len(cs) == 2:
        a, b = cs
        return lambda v: a(v) and b(v)

    def all_of(v: Any) -> bool:
        for c in cs:
            if not c(v):
                return False
        return True
    return all_of


def compile_check(schema: dict[str, Any], others: dict[str, dict[str, Any]] | None = None) -> Check | None:
    """A predicate that tells whether data is valid against ``schema``, or None if the schema uses a keyword
    this module does not know, or refers to a document other than itself and those in ``others`` (by the
    name its references give them, relative to the schema's own). Any failure inside the predicate counts
    as "not valid", so the caller then asks the full validator."""
    try:
        check = _Compiler(schema, others or {}).schema(schema)
    except (_Unsupported, re.error, KeyError, TypeError):
        return None

    def safe(v: Any) -> bool:
        try:
            return check(v)
        except Exception:  # odd data (keys that are not text, numbers that do not compare): ask jsonschema
            return False
    return safe
