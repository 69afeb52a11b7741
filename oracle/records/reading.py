"""Reading game records: bytes → plain data + a locator, with every limit enforced.

JSON is read with the standard library for speed, YAML with the position-keeping
reader (no aliases). Both give the same plain data (dicts, lists, str, int, float,
bool, None); a :class:`~.locator.Locator` finds a value's line and column only when
an error needs it. The header is checked against ``oracle/schemas/record.schema.json``;
deals are checked value by value as they are replayed. Files are never written to.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError, Location, RuleFileError
from ..limits import (
    MAX_DEPTH,
    MAX_FILES,
    MAX_INT_DIGITS,
    MAX_RECORD_BYTES,
    MAX_YAML_RECORD_BYTES,
    decode_utf8,
    read_limited,
    too_big,
)
from ..places import place
from ..schemacheck import compile_check
from ..yamlpos import compose_record, construct
from .locator import JsonLocator, Locator, NoLocator, YamlLocator, bracket_skeleton

if TYPE_CHECKING:  # jsonschema is imported when a check needs it: a warm start does not
    import jsonschema

MAX_BYTES = MAX_RECORD_BYTES
RECORD_SUFFIXES = (".json", ".yaml", ".yml")


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    text = files("oracle").joinpath("schemas", "record.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema

    s = record_schema()
    return jsonschema.validators.validator_for(s)(_inlined(s))


def _inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with each reference to one of its own definitions replaced by the definition: the same
    judgement and the same errors, but jsonschema no longer resolves a reference for every action of a
    record (a whole game is checked in three fifths of the time). A definition that refers to itself,
    however far down, keeps its reference (the definitions stay in the schema for it)."""
    defs = schema.get("$defs") or {}

    def inline(x: Any, within: frozenset[str]) -> Any:
        if isinstance(x, dict):
            ref = x.get("$ref")
            if len(x) == 1 and isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/"):]
                if name in defs and name not in within:
                    return inline(defs[name], within | {name})
                return x
            return {k: inline(v, within) for k, v in x.items()}
        if isinstance(x, list):
            return [inline(v, within) for v in x]
        return x

    return {k: (v if k == "$defs" else inline(v, frozenset())) for k, v in schema.items()}


def _header_ok(header: dict[str, Any]) -> bool:
    if not _FAST:
        _FAST.append(compile_check(record_schema()))
    check = _FAST[0]
    return check is not None and check(header)


_FAST: list[Any] = []


@dataclass
class RecordFile:
    """A record as read: its plain data, and the way back to positions in its file."""

    path: str
    data: dict[str, Any]
    locator: Locator = field(repr=False)

    def locate(self, *path: Any) -> Location:
        """The line and column of the value at ``path`` (keys and indices), as near as can be found."""
        try:
            return self.locator.locate(*path)
        except Exception:
            return Location(self.path)


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> list[Any] | None:
    """The path to a value nested more than ``limit`` levels deep, or None."""
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        v, path = stack.pop()
        if len(path) >= limit:
            return path
        if isinstance(v, dict):
            stack.extend((x, [*path, k]) for k, x in v.items() if isinstance(x, (dict, list)) or len(path) + 1 >= limit)
        elif isinstance(v, list):
            stack.extend((x, [*path, i]) for i, x in enumerate(v)
                         if isinstance(x, (dict, list)) or len(path) + 1 >= limit)
    return None


_BIG = 10 ** MAX_INT_DIGITS  # the first number with more digits than a record may write


def _oversized(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """"deep" if any value sits ``limit`` or more levels down, "digits" for a number with more than
    MAX_INT_DIGITS digits, else None: one pass, level by level, no paths built.

    A record is mostly flat action entries, so this is one loop over its values with a type test
    each (plain loops: a generator per container cost three times as much).
    """
    level = [value] if isinstance(value, (dict, list)) else []
    big = False
    for _ in range(limit - 1):
        nxt: list[Any] = []
        add = nxt.append
        for x in level:
            for y in (x.values() if isinstance(x, dict) else x):
                t = type(y)
                if t is int:
                    if y >= _BIG or y <= -_BIG:
                        big = True
                elif t is dict or t is list:
                    add(y)
                elif t is not str and y is not None and isinstance(y, (dict, list)):
                    add(y)  # a subclass, from a caller's own data
        if not nxt:
            return "digits" if big else None
        level = nxt
    return "deep" if any(len(x) for x in level) else "digits" if big else None


def _deeper_than(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether a value the readers built (plain dicts and lists) has anything ``limit`` or more levels
    down: level by level, in one comprehension each, no paths built."""
    level = [value] if type(value) is dict or type(value) is list else []
    for _ in range(limit - 1):
        level = [y for x in level for y in (x.values() if type(x) is dict else x)
                 if type(y) is dict or type(y) is list]
        if not level:
            return False
    return any(len(x) for x in level)


def _long_digit_run(raw: bytes) -> bool:
    """Whether JSON text (as bytes) has more than MAX_INT_DIGITS ASCII digits in a row (JSON numbers
    are ASCII): the only way a JSON number can be too long. Bytes translate at memory speed; a
    regular expression took ten times as long."""
    return _DIGIT_RUN in raw.translate(_DIGITS_ONLY)


_DIGITS_ONLY = bytes(0x39 if 0x30 <= c <= 0x39 else 0x20 for c in range(256))  # a digit → 9, the rest → space
_DIGIT_RUN = b"9" * (MAX_INT_DIGITS + 1)


def _surely_shallow(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text (as bytes, already parsed) surely nests fewer than ``limit`` brackets, from its
    brackets alone: False means "not sure", and the parsed value is walked (:func:`_deeper_than`).

    Only brackets and quotes are kept; a string holds none of them if it leaves ``""``, and with no
    backslash in the text no quote is escaped. What is left is the brackets, which a pass that
    deletes every empty pair, ``[]`` then ``{}``, lowers by one or two levels. A tenth of walking the
    value, on a record that is mostly flat action entries.
    """
    left = bracket_skeleton(raw)
    if left is None:
        return False
    for _ in range((limit - 1) // 2):  # empty after k passes: at most 2k levels
        if not left:
            return True
        left = left.replace(b"[]", b"").replace(b"{}", b"")
    return not left


def _place(name: str, text: str, off: int) -> Location:
    """Where offset ``off`` of ``text`` is: its line and column (both from 1)."""
    return Location(name, text.count("\n", 0, off) + 1, off - (text.rfind("\n", 0, off) + 1) + 1)


# A list of this many objects or more, the first of them flat, is counted whole (its objects' keys by their
# lengths, their values unseen); any other is walked object by object. Action entries are such lists.
_COUNTED_WHOLE = 5


def _accounted_for(value: Any, raw: bytes) -> int | None:
    """Whether a walk of the value JSON text parsed to accounts for every ``{``, ``[`` and ``:`` of the text
    (``raw``, its bytes): then no object in it has a key written twice, and nothing nests deeper than the
    walk went. None when it does not; else how many objects and lists the text has, when no string the walk
    read holds a bracket (every ``{`` and ``[`` of the text is then one of them), or 0.

    Outside its strings, JSON text has one ``{`` per object, one ``[`` per list and one ``:`` per key
    written. The walk counts objects, lists and the keys they kept (a key written twice is kept once),
    plus those characters in the strings it read; it never counts a thing twice nor a thing that is not
    there. So the text's counts are at least the walk's, and equal only if every object and list was
    reached and every key written was kept.

    The walk opens a list only when its first item is a list or an object. A long list of objects whose
    first is flat (action entries) is counted whole: the objects by number, the keys by their lengths;
    were anything inside them a list or an object, the walk would have missed it and the counts would
    differ. A string's characters stand for the text's only when the text has no backslash (``\\u003a``
    is a colon once read). None means "not sure": the reader parses again, keys checked one by one.
    """
    if type(value) is not dict:
        return None
    objects, keys, lists = 1, len(value), 0
    inside = brackets = 0  # the three characters seen in the strings read; the brackets among them
    todo: list[tuple[Any, int]] = [(value, 1)]  # objects and lists of containers, to open; their depth
    pop, push = todo.pop, todo.append
    while todo:
        x, depth = pop()
        if depth >= MAX_DEPTH - 3:
            return None  # near the limit: the careful check of depth says where
        for y in (x.values() if type(x) is dict else x):
            t = type(y)
            if t is list:
                lists += 1
                if not y:
                    continue
                t = type(y[0])
                if t is dict:
                    # Counted whole when the first object holds no list or object (action entries, not deals)
                    if len(y) >= _COUNTED_WHOLE and not any(type(z) is dict or type(z) is list
                                                            for z in y[0].values()):
                        try:  # dict's own length refuses anything but an object: a type test and a count in one
                            keys += sum(map(dict.__len__, y))
                            objects += len(y)
                            continue
                        except TypeError:
                            pass
                    push((y, depth + 1))
                elif t is list:
                    push((y, depth + 1))
            elif t is dict:
                objects += 1
                keys += len(y)
                push((y, depth + 1))
            elif t is str and (":" in y or "{" in y or "[" in y):
                opened = y.count("{") + y.count("[")
                inside += y.count(":") + opened
                brackets += opened
    if inside and b"\\" in raw:
        return None
    # Each of the walk's counts is at most the text's, so one sum equal is each equal.
    if len(raw.translate(None, _ALL_BUT_OPENINGS)) != keys + objects + lists + inside:
        return None
    return 0 if brackets else objects + lists


_ALL_BUT_OPENINGS = bytes(c for c in range(256) if c not in b":{[")  # deleted: what is left is counted


def _big_number(value: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The path to the first number with too many digits (only looked for once one is known to be there)."""
    if type(value) is int:
        return path if value >= _BIG or value <= -_BIG else None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, x in items:
        found = _big_number(x, (*path, k))
        if found is not None:
            return found
    return None


def read_record(path: str | Path, max_bytes: int = MAX_BYTES) -> RecordFile:
    """Read and schema-check one record; raise InputError with a position on any problem."""
    name = str(path)
    raw = read_limited(Path(path), max_bytes, name, InputError, "records",
                       " (split the games into separate files)")
    return record_from_bytes(raw, name, max_bytes)


def record_from_bytes(raw: bytes, name: str, max_bytes: int = MAX_BYTES) -> RecordFile:
    """A record from its bytes, with the same limits and messages as :func:`read_record` (for batch systems)."""
    if len(raw) > max_bytes:
        raise InputError(too_big(len(raw), max_bytes, "records") + " (split the games into separate files)",
                         Location(name))
    if len(raw) > MAX_YAML_RECORD_BYTES and not _is_json(raw.decode("utf-8", "replace")[:64], name):
        raise InputError(too_big(len(raw), MAX_YAML_RECORD_BYTES, "YAML records") + " (write large records as JSON)",
                         Location(name))
    return parse_record(decode_utf8(raw, name, InputError), name)


def full_schema_errors(data: Any) -> list[str]:
    """Every schema error of a whole record, deals included (for tests and `--strict-schema`)."""
    return [f"{place(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(data)]


class _BadNumber(Exception):
    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason


def _json_int(s: str) -> int:
    if len(s) > MAX_INT_DIGITS + 1 and len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(s, f"the number has more than {MAX_INT_DIGITS} digits")
    return int(s)


def _json_constant(s: str) -> Any:
    raise _BadNumber(s, f"{s} is not a JSON number")


def _is_json(text: str, name: str) -> bool:
    stripped = text.lstrip("\ufeff \t\r\n")
    return name.endswith(".json") or (not name.endswith((".yaml", ".yml")) and stripped[:1] in ("{", "["))


def parse_record(text: str, name: str) -> RecordFile:
    """A record from its text (JSON or YAML, by the file's suffix or its first character)."""
    if not text.lstrip("\ufeff \t\r\n"):
        raise InputError("the file is empty", Location(name, 1, 1))
    is_json = _is_json(text, name)
    locator: Locator
    shallow = False
    try:
        if is_json:
            body = text.lstrip("\ufeff")
            raw = body.encode("utf-8", "surrogatepass")
            # Numbers go through the length check (which gives the place) only when one can be too long.
            parse_int = _json_int if _long_digit_run(raw) else None
            data = json.loads(body, parse_int=parse_int, parse_constant=_json_constant)
            containers = _accounted_for(data, raw)
            if containers is not None:  # no key twice, and shallow: an ordinary record
                shallow = True
                locator = JsonLocator(name, text, data, containers=containers or None)
            else:  # read again, each object's keys checked as it is read
                data = None  # let go of the first reading first: two of a large record at once is twice its memory
                twice: list[bool] = []  # the decoder tells of a key written twice; the text, later, where

                def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
                    out = dict(pairs)
                    if len(out) != len(pairs):
                        twice.append(True)
                    return out

                data = json.loads(body, parse_int=parse_int, parse_constant=_json_constant,
                                  object_pairs_hook=unique_keys)
                if twice:
                    dup = _duplicate_key(body)
                    if dup is not None:
                        key, off = dup
                        off += len(text) - len(body)
                        raise InputError(f"duplicate key {key!r}", _place(name, text, off))
                shallow = _surely_shallow(raw)
                # Shallow, every bracket of the text is structure: the locator, should it be asked, need
                # not find that out again.
                locator = JsonLocator(name, text, data, structural=True if shallow else None)
        else:
            if len(text) > MAX_YAML_RECORD_BYTES:
                raise InputError(too_big(len(text.encode("utf-8")), MAX_YAML_RECORD_BYTES, "YAML records")
                                 + " (write large records as JSON)", Location(name))
            root = compose_record(text, name)
            data = construct(root, text, name, positions=False)
            locator = YamlLocator(name, root)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", Location(name, exc.lineno, exc.colno)) from None
    except _BadNumber as exc:
        loc = JsonLocator(name, text)
        off = text.find(exc.text)
        where = loc.locate() if off < 0 else _place(name, text, off)
        raise InputError(exc.reason, where) from None
    except RuleFileError as exc:
        raise InputError(exc.message.replace("malformed YAML", "not valid YAML"), exc.location) from None
    except RecursionError:
        raise InputError(f"the document is nested too deeply (more than {MAX_DEPTH} levels)",
                         _deep_place(text, name)) from None
    # Both readers checked the numbers' digits (YAML's while building values); the depth is left.
    deep = isinstance(data, dict) and not (is_json and shallow) and _deeper_than(data)
    return _loaded(data, name, locator, deep=deep)


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:]')


def _duplicate_key(text: str) -> tuple[str, int] | None:
    """The first key written twice in one object of (valid) JSON text, with its offset; None if there is
    none. Only asked once the counts of keys disagree: one pass over the text's strings and brackets."""
    keys: list[set[str] | None] = []  # per open bracket: the keys of an object so far; None for a list
    last: re.Match[str] | None = None
    for m in _JSON_TOKEN.finditer(text):
        c = text[m.start()]
        if c == '"':
            last = m
            continue
        if c == ":" and last is not None and keys and keys[-1] is not None:
            key = json.loads(last.group())
            if key in keys[-1]:
                return key, last.start()
            keys[-1].add(key)
        elif c == "{":
            keys.append(set())
        elif c == "[":
            keys.append(None)
        elif c in "]}" and keys:
            keys.pop()
        last = None
    return None


def _deep_place(text: str, name: str) -> Location:
    """Where JSON text first opens more than MAX_DEPTH brackets (only called once parsing failed)."""
    depth, in_str, escaped = 0, False, False
    for off, ch in enumerate(text):
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return _place(name, text, off)
        elif ch in "]}":
            depth -= 1
    return Location(name)


def load_record(data: Any, name: str = "<record>", locator: Locator | None = None) -> RecordFile:
    """A record from data already in hand (no text): its header checked, positions from ``locator``."""
    odd = _oversized(data)  # a caller's own data: any mapping or sequence types, any numbers
    if odd == "digits" and isinstance(data, dict):
        where = (locator if locator is not None else NoLocator(name)).locate(*(_big_number(data) or ()))
        raise InputError(f"the number has more than {MAX_INT_DIGITS} digits", where)
    return _loaded(data, name, locator, deep=odd == "deep")


def _loaded(data: Any, name: str, locator: Locator | None, deep: bool) -> RecordFile:
    locator = locator if locator is not None else NoLocator(name)
    if not isinstance(data, dict):
        raise InputError(f"a record must be a mapping with a header and deals, not {type(data).__name__}",
                         locator.locate())
    rec = RecordFile(name, data, locator)
    if deep:  # the path is worked out only now
        raise InputError(f"the document is nested too deeply (more than {MAX_DEPTH} levels)",
                         rec.locate(*(_too_deep(data) or [])))
    bad_key = next((k for k in data if not isinstance(k, str)), None)
    if bad_key is not None:
        raise InputError(f"(top level): the field name {bad_key!r} is not text", rec.locate(bad_key))
    # The header is checked against the schema here; deals are checked value by value
    # as they are replayed, which reports the same problems at a fraction of the cost.
    header = {k: v for k, v in data.items() if k != "deals"}
    header["deals"] = [] if isinstance(data.get("deals"), list) else data.get("deals")
    if _header_ok(header):  # the quick yes; jsonschema says what is wrong otherwise
        return rec
    try:
        errors = sorted(_validator().iter_errors(header), key=lambda e: [str(x) for x in e.absolute_path])
    except (TypeError, ValueError) as exc:  # a key that is not text, deep inside the header
        raise InputError(f"the header cannot be checked: {exc}", rec.locate()) from None
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


def record_files(paths: list[str], limit: int = MAX_FILES) -> list[Path]:
    """Expand files, folders (recursively) and glob patterns into record files.

    Folders and ``**`` are walked without following symbolic links to folders, so a link
    loop cannot make the walk endless; at most ``limit`` files are accepted.
    """
    out: list[Path] = []

    def add(p: Path) -> None:
        out.append(p)
        if len(out) > limit:
            raise InputError(f"more than {limit:,} record files; validate them in smaller batches")

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            for q in sorted(_walk(p)):
                if q.suffix in RECORD_SUFFIXES:
                    add(q)
        elif p.exists() or p.is_symlink():
            add(p)
        elif any(ch in raw for ch in "*?["):
            hits = _glob(raw, limit)
            if not hits:
                raise InputError(f"no file matches {raw!r}")
            for q in hits:
                add(q)
        else:
            raise InputError(f"{raw}: no such file or folder")
    if not out:
        raise InputError("no record files found in " + ", ".join(paths))
    return out


def _walk(root: Path, depth: int | None = None) -> list[Path]:
    """Every regular file under ``root`` (at most ``depth`` levels down); links to folders are not followed."""
    found: list[Path] = []
    top = len(root.parts)
    for folder, dirs, names in os.walk(root, followlinks=False):
        if depth is not None and len(Path(folder).parts) - top >= depth - 1:
            dirs.clear()
        dirs.sort()
        for n in names:
            q = Path(folder) / n
            if q.is_file():
                found.append(q)
                if len(found) > MAX_FILES:
                    raise InputError(f"{root}: more than {MAX_FILES:,} files; validate them in smaller batches")
    return found


def _glob(pattern: str, limit: int) -> list[Path]:
    """Files matching a glob pattern (``*``, ``?``, ``[…]``, ``**`` for any folders), links not followed."""
    parts = Path(pattern).parts
    fixed = next((i for i, part in enumerate(parts) if any(ch in part for ch in "*?[")), len(parts))
    base = Path(*parts[:fixed]) if fixed else Path(".")
    rest = parts[fixed:]
    hits: list[Path] = []
    if not base.is_dir():
        return hits
    for q in _walk(base, None if "**" in rest else len(rest)):
        rel = q.relative_to(base).parts
        if _match(rel, rest):
            hits.append(Path(*parts[:fixed], *rel) if fixed else Path(*rel))
    return sorted(hits)


def _match(names: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    """Match path parts against pattern parts; ``**`` stands for any number of folders."""
    if not pattern:
        return not names
    head, tail = pattern[0], pattern[1:]
    if head == "**":  # any number of folders, none of them hidden (as the shell's globstar)
        visible = next((i for i, n in enumerate(names) if n.startswith(".")), len(names))
        return any(_match(names[i:], tail) for i in range(visible + 1))
    if not names or (names[0].startswith(".") and not head.startswith(".")):
        return False
    return fnmatchcase(names[0], head) and _match(names[1:], tail)
