"""Safe YAML loading that remembers where every string came from.

Rule logic lives in YAML strings. To report an error at the line and column of
the offending token *inside* an expression, each string scalar is returned as a
:class:`PosStr`, which knows the file position of any character offset in it.
Only the scalars JSON knows are built (strings, numbers, booleans, null); other tags are
refused, and nesting, alias expansion and integer sizes are bounded (see `limits.py`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .errors import Location, RuleFileError
from .limits import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_RULE_DEPTH,
    MAX_YAML_NODES,
    MAX_YAML_RECORD_VALUES,
)


class _Limit(yaml.composer.ComposerError):
    """A limit of the reader (nesting, values, aliases), not a fault of YAML's syntax."""


class _Bounded:
    """Composing with bounded nesting and a bounded number of values, and aliases refused where the
    reader says so.

    A mixin put before a composer and a parser (see _Loader, _CLoader): the methods it calls on ``self``
    and ``super()`` are theirs, which mypy cannot see from here, hence the ``type: ignore`` comments."""

    max_depth = MAX_RULE_DEPTH
    max_nodes = MAX_YAML_NODES  # values written in the text (an alias is not counted: see _Constructor)
    aliases = True

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        # The composer recurses once per level: refuse deep documents long before Python's stack ends.
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]
            if not self.aliases:
                raise _Limit(None, None, "aliases (*name) are not allowed here",
                                                  self.peek_event().start_mark)  # type: ignore[attr-defined]
        else:
            # Every value costs time and memory before anything can look at it: a flow list of a
            # million numbers stops here, early, not once it is all built.
            self._nodes = getattr(self, "_nodes", 0) + 1
            if self._nodes > self.max_nodes:
                raise _Limit(
                    None, None, f"the document holds more than {self.max_nodes:,} values; refused",
                    self.peek_event().start_mark)  # type: ignore[attr-defined]
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > self.max_depth:
                raise _Limit(
                    None, None, f"the document is nested more than {self.max_depth} levels deep",
                    self.peek_event().start_mark)  # type: ignore[attr-defined]
            return super().compose_node(parent, index)  # type: ignore[misc, no-any-return]
        finally:
            self._depth -= 1


class _Loader(_Bounded, yaml.SafeLoader):
    """Safe loading with YAML 1.2 booleans (only true/false, never on/off/yes/no), bounded nesting,
    and aliases refused where the reader says so."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml: the pure-Python reader does the same, slower
    _CParser = None  # type: ignore[assignment, misc]  # the one way to say "absent" of an imported class

if _CParser is not None:
    class _CLoader(_Bounded, yaml.composer.Composer, _CParser, yaml.resolver.Resolver):
        """The same reader on libyaml's scanner and parser (several times faster); the composer is
        still ours, so nesting and aliases are bounded and every node keeps its line and column."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    RULE_LOADER: type = _CLoader
else:
    RULE_LOADER = _Loader


class _RecordLoader(_Loader):
    """Records: no aliases at all (a record never needs one, and an alias bomb needs them)."""

    max_depth = MAX_DEPTH
    max_nodes = MAX_YAML_RECORD_VALUES
    aliases = False


if _CParser is not None:
    class _CRecordLoader(_CLoader):
        """Records on libyaml's scanner and parser: several times faster on a large record."""

        max_depth = MAX_DEPTH
        max_nodes = MAX_YAML_RECORD_VALUES
        aliases = False

    RECORD_LOADER: type = _CRecordLoader
else:
    RECORD_LOADER = _RecordLoader

# A record this small that libyaml refuses is read again by the pure-Python reader, whose messages
# are the same as the rule files'; a larger one keeps libyaml's (located all the same).
_REWORD_BELOW = 256 * 1024


_SCALAR_TAGS = {"tag:yaml.org,2002:" + t for t in ("int", "float", "bool", "null")}
_STR_TAGS = {"tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp"}  # a date is kept as the text written
_KNOWN_TAGS = _SCALAR_TAGS | _STR_TAGS | {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


class PosStr(str):
    """A string that maps offsets inside it back to the YAML file."""

    file: str
    line: int  # 1-based line of the first character of the value
    column: int  # 1-based column of the first character of the value
    block_indent: int | None  # for block scalars: the column where content starts

    def location(self, offset: int = 0) -> Location:
        return self.location_at(*_line_col_of(self, offset))

    def location_at(self, line_in_value: int, col_in_value: int) -> Location:
        """Map a 1-based (line, column) inside the value to the file."""
        if self.block_indent is not None:
            return Location(self.file, self.line + line_in_value - 1, self.block_indent + col_in_value - 1)
        if line_in_value == 1:
            return Location(self.file, self.line, self.column + col_in_value - 1)
        return Location(self.file, self.line + line_in_value - 1, col_in_value)


def plain(v: Any) -> Any:
    """Values read with positions (PosStr) as plain Python values: str keys and strings."""
    if isinstance(v, str):
        return str(v)
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    return v


def _line_col_of(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    line = before.count("\n") + 1
    col = offset - (before.rfind("\n") + 1) + 1
    return line, col


def _make_str(value: str, node: yaml.ScalarNode, file: str, lines: list[str]) -> PosStr:
    s = PosStr(value)
    s.file = file
    mark = node.start_mark
    s.block_indent = None
    if node.style in ("|", ">"):
        # Content starts on the line after the indicator; find its indentation.
        first = mark.line + 1
        while first < len(lines) and not lines[first].strip():
            first += 1
        indent = len(lines[first]) - len(lines[first].lstrip()) if first < len(lines) else 0
        s.line = first + 1
        s.column = indent + 1
        s.block_indent = indent + 1
    else:
        s.line = mark.line + 1
        s.column = mark.column + 1 + (1 if node.style in ("'", '"') else 0)
    return s


class _Constructor:
    """Builds plain values from composed nodes: mappings, lists, and JSON's scalars only.

    Every node built counts against a budget, so an alias expanded again and again (the
    "billion laughs") stops with an error instead of filling memory. Keys must be scalars.
    """

    def __init__(self, file: str, text: str, positions: bool = True, budget: int = MAX_YAML_NODES) -> None:
        self.file = file
        self.text = text
        self.lines: list[str] | None = None
        self.positions = positions
        self.budget = budget
        self.safe = yaml.constructor.SafeConstructor()
        self.open: set[int] = set()  # the collections being built: an alias to one of them is a cycle

    def _where(self, node: yaml.Node) -> Location:
        return Location(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def build(self, node: yaml.Node) -> Any:
        self.budget -= 1
        if self.budget < 0:  # the composer bounds the values written: only aliases can build this many
            raise RuleFileError(f"the document expands to more than {MAX_YAML_NODES:,} values (aliases "
                                "expanded); refused", self._where(node))
        if isinstance(node, yaml.CollectionNode):
            if id(node) in self.open:
                raise RuleFileError("an alias refers to the list or mapping that contains it", self._where(node))
            self.open.add(id(node))
            try:
                return self._build(node)
            finally:
                self.open.discard(id(node))
        return self._build(node)

    def _build(self, node: yaml.Node) -> Any:
        if node.tag not in _KNOWN_TAGS:
            raise RuleFileError(f"the tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed; "
                                "write plain text, numbers, true/false or null", self._where(node))
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    kind = "list" if isinstance(key_node, yaml.SequenceNode) else "mapping"
                    raise RuleFileError(f"a key must be a name or a number, not a {kind}", self._where(key_node))
                key = self.build(key_node)
                if key in out:
                    raise RuleFileError(f"duplicate key {str(key)!r}", self._where(key_node))
                out[key] = self.build(value_node)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(n) for n in node.value]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag in _STR_TAGS:
            if not self.positions:
                return node.value
            if self.lines is None:
                self.lines = self.text.splitlines()
            return _make_str(node.value, node, self.file, self.lines)
        if node.tag.endswith(":int") and sum(ch.isdigit() for ch in node.value) > MAX_INT_DIGITS:
            raise RuleFileError(f"the number has more than {MAX_INT_DIGITS} digits", self._where(node))
        try:
            return self.safe.construct_object(node)
        except (ValueError, TypeError, KeyError, ArithmeticError, yaml.YAMLError):
            kind = node.tag.rsplit(":", 1)[-1]
            raise RuleFileError(f"{node.value!r} cannot be read as {kind}", self._where(node)) from None


def compose(text: str, file: str, loader: type = _Loader) -> yaml.Node | None:
    """The YAML node tree of ``text``, nesting and aliases checked; RuleFileError on malformed YAML."""
    try:
        return yaml.compose(text, Loader=loader)
    except _Limit as exc:
        mark = exc.problem_mark
        raise RuleFileError(str(exc.problem), Location(file, mark.line + 1, mark.column + 1) if mark
                            else Location(file)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise RuleFileError(f"malformed YAML: {exc.problem or exc.context}", where) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow; it has an offset, not a mark
        line, col = _line_col_of(text, exc.position)
        ch = exc.character
        shown = f"U+{ch:04X}" if isinstance(ch, int) else repr(ch)
        raise RuleFileError(f"malformed YAML: the character {shown} is not allowed in YAML text",
                            Location(file, line, col)) from None
    except yaml.YAMLError as exc:
        raise RuleFileError(f"malformed YAML: {exc}", Location(file)) from None


def construct(node: yaml.Node | None, text: str, file: str, positions: bool = True) -> Any:
    """Plain values from a composed tree (strings as PosStr when ``positions``)."""
    if node is None:
        return None
    return _Constructor(file, text, positions).build(node)


def load_yaml_text(text: str, file: str, loader: type = _Loader) -> Any:
    """Parse YAML text safely, keeping positions of strings."""
    try:
        node = compose(text, file, loader)
    except RuleFileError:
        if loader is _Loader:
            raise
        # libyaml words its errors its own way: the pure-Python reader says the same as everywhere else.
        node = compose(text, file, _Loader)
    return construct(node, text, file)


def compose_record(text: str, file: str) -> yaml.Node | None:
    """A record's node tree: no aliases, at most MAX_DEPTH levels and MAX_YAML_RECORD_VALUES values."""
    try:
        return compose(text, file, RECORD_LOADER)
    except RuleFileError:
        if RECORD_LOADER is _RecordLoader or len(text) > _REWORD_BELOW:
            raise
        return compose(text, file, _RecordLoader)


def location_of(value: Any, fallback: Location) -> Location:
    if isinstance(value, PosStr):
        return value.location()
    return fallback
