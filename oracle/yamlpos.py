"""Safe YAML loading that remembers where every string came from.

Rule logic lives in YAML strings. To report an error at the line and column of
the offending token *inside* an expression, each string scalar is returned as a
:class:`PosStr`, which knows the file position of any character offset in it.
Only PyYAML's safe constructors are used; tags are never honoured.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from .errors import Location, RuleFileError


class _Loader(yaml.SafeLoader):
    """Safe loading with YAML 1.2 booleans: only true/false, never on/off/yes/no."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


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
    def __init__(self, file: str, text: str) -> None:
        self.file = file
        self.lines = text.splitlines()
        self.safe = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.build(key_node)
                if key in out:
                    raise RuleFileError(
                        f"duplicate key {str(key)!r}",
                        Location(self.file, key_node.start_mark.line + 1, key_node.start_mark.column + 1),
                    )
                out[key] = self.build(value_node)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(n) for n in node.value]
        assert isinstance(node, yaml.ScalarNode)
        if node.tag == "tag:yaml.org,2002:str":
            return _make_str(node.value, node, self.file, self.lines)
        value = self.safe.construct_object(node)
        return value


def load_yaml_text(text: str, file: str) -> Any:
    """Parse YAML text safely, keeping positions of strings."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise RuleFileError(f"malformed YAML: {exc.problem or exc.context}", where) from None
    except yaml.YAMLError as exc:
        raise RuleFileError(f"malformed YAML: {exc}", Location(file)) from None
    if node is None:
        return None
    try:
        return _Constructor(file, text).build(node)
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        where = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise RuleFileError(f"malformed YAML: {exc.problem}", where) from None


def load_yaml_file(path: Path, display: str | None = None) -> Any:
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RuleFileError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(name)) from None
    except OSError as exc:
        raise RuleFileError(f"cannot read file: {exc.strerror}", Location(name)) from None
    return load_yaml_text(text, name)


def location_of(value: Any, fallback: Location) -> Location:
    if isinstance(value, PosStr):
        return value.location()
    return fallback
