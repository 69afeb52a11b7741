"""Reading game records from JSON or YAML, with limits and positions.

JSON is read with the standard library for speed; line and column numbers are
recovered only when an error has to be reported, by composing the same text with
the position-keeping YAML reader (JSON is YAML). YAML records keep positions as
they are read. Files are never written to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import InputError, Location, RuleFileError
from .places import place
from .yamlpos import _Loader, load_yaml_text, plain

MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 32


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    return json.loads(files("oracle").joinpath("schemas", "record.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    s = record_schema()
    return jsonschema.validators.validator_for(s)(s)


@dataclass
class RecordFile:
    """A record as read: the data, and a way back to positions in the text."""

    path: str
    data: dict[str, Any]
    text: str
    is_json: bool
    _nodes: Any = field(default=None, repr=False)

    def locate(self, *path: Any) -> Location:
        """The line and column of the value at ``path`` (keys and indices), as near as can be found."""
        if self._nodes is None:
            try:
                self._nodes = yaml.compose(self.text, Loader=_Loader)
            except (yaml.YAMLError, RecursionError):
                self._nodes = False
        node = self._nodes
        if not node:
            return Location(self.path)
        best = node.start_mark
        for key in path:
            if isinstance(node, yaml.MappingNode):
                nxt = next((v for k, v in node.value if k.value == str(key)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
                nxt = node.value[key]
            else:
                nxt = None
            if nxt is None:
                break
            node = nxt
            best = node.start_mark
        return Location(self.path, best.line + 1, best.column + 1)


def _depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return False
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return True


def read_record(path: str | Path, max_bytes: int = MAX_BYTES) -> RecordFile:
    """Read and schema-check one record; raise InputError with a position on any problem."""
    p = Path(path)
    name = str(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", Location(name)) from None
    if size > max_bytes:
        raise InputError(f"the file is {size / 1e6:.1f} MB; records over {max_bytes / 1e6:.0f} MB are refused "
                         "(split the games into separate files)", Location(name))
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", Location(name)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", Location(name)) from None
    return parse_record(text, name)


def full_schema_errors(data: Any) -> list[str]:
    """Every schema error of a whole record, deals included (for tests and `--strict-schema`)."""
    return [f"{place(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(data)]


def parse_record(text: str, name: str) -> RecordFile:
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        raise InputError("the file is empty", Location(name, 1, 1))
    is_json = name.endswith(".json") or (not name.endswith((".yaml", ".yml")) and stripped[0] in "{[")
    try:
        if is_json:
            data = json.loads(text)
        else:
            data = plain(load_yaml_text(text, name))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", Location(name, exc.lineno, exc.colno)) from None
    except RuleFileError as exc:
        raise InputError(exc.message.replace("malformed YAML", "not valid YAML"), exc.location) from None
    except RecursionError:
        raise InputError(f"the document is nested too deeply (more than {MAX_DEPTH} levels)", Location(name)) from None
    rec = RecordFile(name, data, text, is_json)
    if not isinstance(data, dict):
        raise InputError(f"a record must be a mapping with a header and deals, not {type(data).__name__}",
                         Location(name, 1, 1))
    if not _depth_ok(data):
        raise InputError(f"the document is nested too deeply (more than {MAX_DEPTH} levels)", Location(name))
    # The header is checked against the schema here; deals are checked value by value
    # as they are replayed, which reports the same problems at a fraction of the cost.
    header = {k: v for k, v in data.items() if k != "deals"}
    header["deals"] = [] if isinstance(data.get("deals"), list) else data.get("deals")
    errors = sorted(_validator().iter_errors(header), key=lambda e: [str(x) for x in e.absolute_path])
    if errors:
        err = min(errors, key=lambda e: len(e.absolute_path))
        where = place(err.absolute_path)
        msg = err.message
        if err.validator == "additionalProperties":
            msg = msg.replace("Additional properties are not allowed", "unknown field(s)")
        if err.validator == "oneOf" and not err.absolute_path:
            msg = "the header needs either first_dealer or start (but not both)"
        raise InputError(f"{where}: {msg}", rec.locate(*err.absolute_path))
    return rec
