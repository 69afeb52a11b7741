"""Where a value of a record stands in its file, found only when an error needs it.

A record is read once into plain data. Most records are valid and never need a
position, so none is computed while reading. When an error must be reported, the
locator walks the text (JSON) or the node tree (YAML) along the path of keys and
indices to the value, skipping siblings without building them twice: the cost is
at most one pass over the part of the file before the value, never a second parse
of the whole file as YAML. Columns count characters, so tab-indented JSON is
located as exactly as space-indented JSON.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any, Protocol

import yaml

from ..errors import Location

_WS = re.compile(r"[ \t\n\r]*")
_SKIP = json.JSONDecoder()


def _past_space(text: str, i: int) -> int:
    """The first position at or after ``i`` that is not white space."""
    m = _WS.match(text, i)
    assert m is not None  # the pattern matches the empty string too
    return m.end()


# A value with nothing nested and nothing escaped (a number, a word, a plain string, an action entry, a list
# of cards), as one pattern: such a value is skipped in one match, nothing decoded. Anything else (a nested
# value, an escape) does not match, and is decoded to be skipped.
_STR = r'"[^"\\]*"'
_SCALAR = rf'(?:{_STR}|[-+.0-9A-Za-z]+)'
_PLAIN = (rf'(?:{_SCALAR}|\{{[ \t\n\r]*(?:{_STR}[ \t\n\r]*:[ \t\n\r]*{_SCALAR}[ \t\n\r]*'
          rf'(?:,[ \t\n\r]*{_STR}[ \t\n\r]*:[ \t\n\r]*{_SCALAR}[ \t\n\r]*)*)?\}}'
          rf'|\[[ \t\n\r]*(?:{_SCALAR}[ \t\n\r]*(?:,[ \t\n\r]*{_SCALAR}[ \t\n\r]*)*)?\])')
_PLAIN_NEXT = re.compile(rf'{_PLAIN}[ \t\n\r]*(?:,[ \t\n\r]*)?')  # a plain value, to its next sibling
_PLAIN_ITEMS = re.compile(rf'(?:{_PLAIN}[ \t\n\r]*,[ \t\n\r]*)')


@functools.lru_cache(maxsize=128)
def _plain_items(n: int) -> re.Pattern[str]:
    """Exactly ``n`` plain items of a list and their commas: a long list's first items skipped in one match."""
    return re.compile(rf'{_PLAIN_ITEMS.pattern}{{{n}}}+')


_KEY = re.compile(r'"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*')  # a key with nothing escaped, to its value


class Locator(Protocol):
    file: str

    def locate(self, *path: Any) -> Location:
        """The line and column of the value at ``path`` (keys and indices), as near as can be found."""
        ...


class NoLocator:
    """For a record given as data (a test, the conformance harness): positions are the file name only."""

    def __init__(self, file: str) -> None:
        self.file = file

    def locate(self, *path: Any) -> Location:
        return Location(self.file)


class JsonLocator:
    """Positions in JSON text, by walking the text along the path."""

    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.text = text

    def offset(self, *path: Any) -> int:
        text = self.text
        i = _past_space(text, 0)
        if text.startswith("\ufeff", i):
            i = _past_space(text, i + 1)
        try:
            for key in path:
                found = self._child(i, key)
                if found is None:
                    break
                i = found
        except (ValueError, IndexError):
            pass  # the text is not what the data says (it cannot be); keep the nearest position found
        return i

    def _child(self, i: int, key: Any) -> int | None:
        text = self.text
        opener = text[i]
        if opener == "{":
            i = _past_space(text, i + 1)
            while text[i] != "}":
                m = _KEY.match(text, i)
                if m is not None:
                    name, i = m.group(1), m.end()
                else:  # the key, a JSON string with an escape
                    name, i = _SKIP.raw_decode(text, i)
                    i = _past_space(text, i) + 1  # past ':'
                    i = _past_space(text, i)
                if name == str(key):
                    return i
                i = self._next(i)
            return None
        if opener == "[" and isinstance(key, int) and key >= 0:
            i = _past_space(text, i + 1)
            n = 0
            if key > 1:  # the items before it, when all are plain, in one match; else one by one
                m = _plain_items(min(key, 1024)).match(text, i)
                if m is not None:
                    i, n = m.end(), min(key, 1024)
            while text[i] != "]":
                if n == key:
                    return i
                i = self._next(i)
                n += 1
        return None

    def _next(self, i: int) -> int:
        """Past the value at ``i`` and its comma, at the next sibling or the closing bracket."""
        m = _PLAIN_NEXT.match(self.text, i)
        if m is not None:
            return m.end()
        _, i = _SKIP.raw_decode(self.text, i)
        i = _past_space(self.text, i)
        if self.text[i] == ",":
            i = _past_space(self.text, i + 1)
        return i

    def locate(self, *path: Any) -> Location:
        off = self.offset(*path)
        line = self.text.count("\n", 0, off) + 1
        return Location(self.file, line, off - (self.text.rfind("\n", 0, off) + 1) + 1)


class YamlLocator:
    """Positions in a YAML record, from the node tree it was built from."""

    def __init__(self, file: str, root: yaml.Node | None) -> None:
        self.file = file
        self.root = root

    def locate(self, *path: Any) -> Location:
        node = self.root
        if node is None:  # a document of comments only
            return Location(self.file, 1, 1)
        best = node.start_mark
        for key in path:
            nxt = None
            if isinstance(node, yaml.MappingNode):
                nxt = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                nxt = node.value[key]
            if nxt is None:
                break
            node = nxt
            best = node.start_mark
        return Location(self.file, best.line + 1, best.column + 1)
