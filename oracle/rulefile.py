"""Reading rule, overlay and preset files: safe YAML, JSON Schema, positions kept."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import Location, RuleFileError
from .limits import MAX_RULE_FILE_BYTES, decode_utf8, read_limited
from .schemacheck import Check, compile_check
from .yamlpos import RULE_LOADER, PosStr, load_yaml_text

if TYPE_CHECKING:  # jsonschema is imported when a check needs it: a warm start does not
    import jsonschema


@cache
def schema(name: str) -> dict[str, Any]:
    text = files("oracle").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    import jsonschema
    from referencing import Registry, Resource

    rule = schema("rule")
    registry = Registry().with_resource(rule["$id"], Resource.from_contents(rule))
    s = schema(name)
    cls = jsonschema.validators.validator_for(s)
    return cls(s, registry=registry)


@cache
def _quick(name: str) -> Check | None:
    # The rule schema's definitions are the other schemas' too (the preset's texts and sources).
    return compile_check(schema(name), {"rule.schema.json": schema("rule")})


def validate(data: Any, kind: str, display: str) -> None:
    """Check a loaded document against its JSON Schema; report the first error with its position."""
    if not isinstance(data, dict):
        raise RuleFileError(f"a {kind} file must be a mapping of fields, not {type(data).__name__}",
                            Location(display, 1, 1))
    quick = _quick(kind)
    if quick is not None and quick(data):
        return  # most files are right: jsonschema, which names what is wrong, is asked only of the others
    errors = sorted(_validator(kind).iter_errors(data),
                    key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path]))
    if not errors:
        return
    err = errors[0]
    path = list(err.absolute_path)
    loc = _locate(data, path) or Location(display, 1, 1)
    where = ".".join(str(p) for p in path) or "(top level)"
    raise RuleFileError(f"{where}: {_schema_message(err)}", loc)


def _schema_message(err: jsonschema.ValidationError) -> str:
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown field(s)")
    if err.validator == "oneOf":
        return "a clause needs either 'forbid' with 'reason', or 'do'"
    return err.message


def _locate(data: Any, path: list[Any]) -> Location | None:
    """The position of the deepest string at or under ``path``."""
    node = data
    best: Location | None = None
    for p in path:
        try:
            if isinstance(node, dict):
                for k in node:
                    if k == p and isinstance(k, PosStr):
                        best = k.location()
                node = node[p]
            else:
                node = node[p]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, PosStr):
            best = node.location()
    if best is None:
        best = _first_pos(node)
    return best


def _first_pos(node: Any) -> Location | None:
    if isinstance(node, PosStr):
        return node.location()
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(k, PosStr):
                return k.location()
            found = _first_pos(v)
            if found:
                return found
    if isinstance(node, list):
        for v in node:
            found = _first_pos(v)
            if found:
                return found
    return None


@dataclass
class RuleDoc:
    """One loaded rule or overlay file."""

    id: str
    path: str  # as shown to users, relative to the rules root
    data: dict[str, Any]
    origin: str = "spec"  # "spec", or the overlay that added or replaced it
    replaced_by: list[str] = field(default_factory=list)

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def location(self) -> Location:
        return Location(self.path, 1, 1)

    def id_location(self) -> Location:
        v = self.data.get("id")
        return v.location() if isinstance(v, PosStr) else self.location()


def read_doc(path: Path, display: str) -> bytes:
    """A rule file's bytes, with the size limit of rule files."""
    return read_limited(path, MAX_RULE_FILE_BYTES, display, RuleFileError, "rule files")


def parse_doc(raw: bytes, display: str, kind: str = "rule") -> RuleDoc:
    """A rule, overlay (``kind`` "rule") or preset file from its bytes, shown as ``display``."""
    data = load_yaml_text(decode_utf8(raw, display, RuleFileError), display, RULE_LOADER)
    validate(data, kind, display)
    return RuleDoc(str(data["id"]), display, data)


def load_doc(path: Path, display: str, kind: str = "rule") -> RuleDoc:
    return parse_doc(read_doc(path, display), display, kind)
