"""Where a value of a record stands in its file, found only when an error needs it.

A record is read once into plain data. Most records are valid and never need a
position, so none is computed while reading. When an error must be reported, the
locator walks the text (JSON) or the node tree (YAML) along the path of keys and
indices to the value, skipping siblings without building them twice: the cost is
at most one pass over the part of the file before the value, never a second parse
of the whole file as YAML. In JSON text with no backslash (so every quote opens or
closes a string), a key is found by searching the text for it, and the action
entries before one by their closing braces, each checked before it is trusted; a
plain sibling is skipped in one match. Where no string holds a bracket either (every
bracket is the text's structure) and the data read from the text is at hand, the
deals before one are found by their first key and the brackets' balance, counted at
C speed, not decoded: a wrong result in a game's fortieth deal is located in about a
tenth of the time decoding the deals before it took. Columns count characters, so
tab-indented JSON is located as exactly as space-indented JSON.
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
_KEY = re.compile(r'"([^"\\]*)"[ \t\n\r]*:[ \t\n\r]*')  # a key with nothing escaped, to its value
_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*")
_COMMA = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")


_NOT_BRACKETS = re.compile(r"[^{}\[\]]+")
_OBJECT = re.compile(r"\{[^{}]*\}")
_ALL_BUT_BRACKETS = bytes(c for c in range(256) if c not in b'[]{}"\\')


def bracket_skeleton(raw: bytes) -> bytes | None:
    """The brackets of JSON text (as bytes), in order, when every bracket of it is structure: no string
    holds a bracket, and there is no backslash (so no quote is escaped); None otherwise. Bytes translate
    at memory speed: what is left of a string with neither is its two quotes, and ``""`` is deleted."""
    left = raw.translate(None, _ALL_BUT_BRACKETS).replace(b'""', b"")
    return None if b'"' in left or b"\\" in left else left


def _nested_whole(seg: str) -> bool:
    """Whether a stretch of JSON text with no backslash closes every bracket it opens and no other, strings
    aside: what comes right after it is at the depth its start was. Everything is asked of the text at
    C speed (string methods), with nothing decoded; at most one pass a level of nesting."""
    if seg.count('"') % 2:
        return False
    brackets = _NOT_BRACKETS.sub("", "".join(seg.split('"')[::2]))  # with no escape, quotes pair up
    while brackets:
        shorter = brackets.replace("{}", "").replace("[]", "")
        if shorter == brackets:
            return False
        brackets = shorter
    return True


def _after_flat_objects(text: str, i: int, n: int) -> int:
    """Where item ``n`` of a list starts, when the ``n`` items from ``i`` are objects holding no other value
    of brackets (action entries) and the text has no backslash; -1 when that is not surely so. Each item's
    end is one search for its closing brace; the stretch is then checked whole."""
    j = i
    for _ in range(n):
        j = text.find("}", j) + 1
        if j == 0:
            return -1
    m = _COMMA.match(text, j)
    if m is None:
        return -1
    seg = text[i:m.end()]
    if seg.count('"') % 2:
        return -1
    outside = "".join(seg.split('"')[::2])
    if "[" in outside or "]" in outside:
        return -1
    between = _OBJECT.sub("", outside)  # what separates the objects: commas and white space only, no brace
    if between.count(",") != n or between.strip(" \t\n\r,"):
        return -1
    return m.end()


@functools.lru_cache(maxsize=128)
def _flat_objects(n: int) -> re.Pattern[str]:
    """``n`` objects holding no bracket, each followed by its comma (a list's first ``n`` action entries)."""
    return re.compile(r"(?:\{[^{}\[\]]*\}[ \t\n\r]*,[ \t\n\r]*)" + f"{{{n}}}")


def _after_flat_objects_structural(text: str, i: int, n: int) -> int:
    """:func:`_after_flat_objects` where every bracket of the text is structure (see :func:`bracket_skeleton`):
    no string holds one, so an object with no bracket between its braces holds no other value of brackets,
    and one match of the ``n`` objects and their commas says it all (half the time of the searches and
    checks, which cannot assume it)."""
    m = _flat_objects(n).match(text, i)
    return -1 if m is None else m.end()


def _after_keyed_objects(text: str, i: int, n: int, items: list[Any]) -> int:
    """Where item ``n`` of a list starts, its items from ``i`` being the objects ``items`` (as read from the
    text), each written with the same first key, and every bracket of the text being structure (see
    :func:`bracket_skeleton`); -1 when that is not so.

    Each object whose first key is that one is found by a search for it; the braces opened and closed
    between two of them are counted (``str.count``). Inside an item (an object) more braces have been
    opened than closed since the list began, and between two items as many: an object found where they
    are even is one of the list's items, not one nested in an item. As every item up to ``n`` is such an
    object, the ``n``-th of those is item ``n``, reached before the list ends. Nothing is decoded.

    When every item is such an object and the text from ``i`` on holds no other object of that first key,
    the ``n``-th found is item ``n`` with no brace counted: the usual record, whose deals each begin with
    their dealer, and which holds a dealer nowhere else."""
    if len(items) <= n or type(items[0]) is not dict or not items[0]:
        return -1
    key = next(iter(items[0]))
    if type(key) is not str or '"' in key:
        return -1
    alike = True  # every item, not only those up to n, begins with the key
    for k, item in enumerate(items[1:], 1):
        if type(item) is not dict or not item or next(iter(item)) != key:
            if k <= n:
                return -1
            alike = False
            break
    first = re.compile(r"\{[ \t\n\r]*" + re.escape(f'"{key}"') + r"[ \t\n\r]*:")  # an object, by its first key
    starts: list[int] | None = None
    if alike:
        # Each item is one of the objects found (the text is the data's, and every bracket of it is structure,
        # so an item written with that first key is found where it begins): as many found as there are
        # items, and there is no other.
        starts = [m.start() for m in first.finditer(text, i)]
        if len(starts) == len(items):
            return starts[n]
    count = text.count
    depth, prev, seen = 0, i, 0
    # The objects already found are counted through, not searched for again.
    for at in starts if starts is not None else (m.start() for m in first.finditer(text, i)):
        depth += count("{", prev, at) - count("}", prev, at)
        prev = at
        if depth == 0:
            if seen == n:
                return at
            seen += 1
    return -1


_NO_DATA: Any = object()  # the locator was not given the data read from the text


def _item(node: Any, key: Any) -> Any:
    """The value at ``key`` in data read from the text, or _NO_DATA."""
    if type(node) is dict:
        return node.get(key, _NO_DATA) if type(key) is str else _NO_DATA
    if type(node) is list and type(key) is int and 0 <= key < len(node):
        return node[key]
    return _NO_DATA


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
    """Positions in JSON text, by walking the text along the path (and the data read from it, when given:
    it tells what the items of a list before the wanted one are, so they can be skipped undecoded)."""

    def __init__(self, file: str, text: str, data: Any = _NO_DATA, structural: bool | None = None,
                 containers: int | None = None) -> None:
        self.file = file
        self.text = text
        self.data = data
        if structural is not None:  # the reader found it out already (see bracket_skeleton)
            self._structural = structural
        # The reader's count of the objects and lists, when every ``{`` and ``[`` of the text is known to open
        # one: then it is for the closing brackets alone to say whether a string holds a bracket.
        self._containers = containers

    @functools.cached_property
    def _plain(self) -> bool:
        """No backslash in the text: every quote opens or closes a string (asked only once an error is located)."""
        return "\\" not in self.text

    @functools.cached_property
    def _structural(self) -> bool:
        """Every bracket of the text is structure (see :func:`bracket_skeleton`)."""
        if not self._plain:
            return False
        if self._containers is not None:
            return self.text.count("}") + self.text.count("]") == self._containers
        return bracket_skeleton(self.text.encode("utf-8", "surrogatepass")) is not None

    # What earlier calls found, kept for the next (with --all-errors a deal's wrong values are located one
    # after another, each in the same deal): each path walked, and the offset and line of the last located.
    _walked: dict[tuple[Any, ...], tuple[int, Any]] | None = None
    _last_line: tuple[int, int, int] = (0, 1, 0)  # offset, its line, where that line starts

    def offset(self, *path: Any) -> int:
        walked = self._walked
        if walked is None:
            walked = self._walked = {}
        try:  # the longest beginning of the path walked before
            start = next((n for n in range(len(path), 0, -1) if path[:n] in walked), 0)
            keep = True
        except TypeError:  # a key that is not hashable: walked from the top, not kept
            start, keep = 0, False
        if start:
            i, node = walked[path[:start]]
        else:
            text = self.text
            i = _past_space(text, 0)
            if text.startswith("\ufeff", i):
                i = _past_space(text, i + 1)
            node = self.data
        try:
            for n in range(start, len(path)):
                key = path[n]
                found = self._child(i, key, node)
                if found is None:
                    break
                i = found
                node = _item(node, key)
                if keep:
                    walked[path[:n + 1]] = (i, node)
        except (ValueError, IndexError):
            pass  # the text is not what the data says (it cannot be); keep the nearest position found
        return i

    def _child(self, i: int, key: Any, node: Any = _NO_DATA) -> int | None:
        text = self.text
        opener = text[i]
        if opener == "{":
            i = _past_space(text, i + 1)
            if self._plain and isinstance(key, str) and '"' not in key:
                found = (self._key_counted(i, key) if type(node) is dict and key in node and self._structural
                         else self._key_searched(i, key))
                if found is not None:
                    return found
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
            if key > 0 and text[i] == "{" and self._plain:  # a list of action entries, at once
                found = (_after_flat_objects_structural(text, i, key) if self._structural
                         else _after_flat_objects(text, i, key))
                if found >= 0:
                    return found
                if type(node) is list and self._structural:  # a list of deals, each found by its first key
                    found = _after_keyed_objects(text, i, key, node)
                    if found >= 0:
                        return found
            while text[i] != "]":
                if n == key:
                    return i
                i = self._next(i)
                n += 1
        return None

    def _key_counted(self, i: int, key: str) -> int | None:
        """The value of ``key``, which the object whose first key is at ``i`` has (the data says so), every
        bracket of the text being structure. A string followed by a colon is a key; the first such ``key``
        with an even number of quotes before it (so its first quote opens a string, not closes the one before:
        ``":"`` is also the end of a key, its colon and the start of a value) and as many brackets closed as
        opened between ``i`` and it is this object's: one in the value of an earlier key has that value's
        opening bracket still open. Counted (``str.count``), nothing decoded."""
        text = self.text
        written = f'"{key}"'
        count = text.count
        quotes = depth = 0  # since i, counted a stretch at a time: one pass over the text however many are tried
        prev = i
        at = text.find(written, i)
        while at >= 0:
            quotes += count('"', prev, at)
            depth += count("{", prev, at) + count("[", prev, at) - count("}", prev, at) - count("]", prev, at)
            prev = at
            # Its first quote opening a string, the string is the key; the brackets balanced, it is this object's.
            if not quotes % 2 and depth == 0:
                m = _COLON.match(text, at + len(written))
                if m is not None:
                    return m.end()
            at = text.find(written, at + 1)
        return None

    def _key_searched(self, i: int, key: str) -> int | None:
        """The value of ``key`` in the object whose first key is at ``i``, found by searching the text for the
        key written as JSON and checking that the stretch before it is whole (so the key is this object's, not
        a string's nor a nested value's); None when the first such place is not surely it."""
        text = self.text
        at = text.find(f'"{key}"', i)
        if at < 0 or not _nested_whole(text[i:at]):
            return None
        m = _COLON.match(text, at + len(key) + 2)
        return m.end() if m is not None else None

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
        text = self.text
        last, line, begins = self._last_line
        if off < last:  # before the last one located: counted from the top
            last, line, begins = 0, 1, 0
        nl = text.rfind("\n", last, off)
        if nl >= 0:
            line += text.count("\n", last, off)
            begins = nl + 1
        self._last_line = (off, line, begins)
        return Location(self.file, line, off - begins + 1)


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
