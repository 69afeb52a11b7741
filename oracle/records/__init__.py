"""Game records, one way through: bytes → data + locator → codec → actions → game → verdict.

- ``reading``: a file's bytes, within the limits, into plain data and a :class:`Locator`;
- ``locator``: a value's line and column, found only when an error needs it;
- ``codec``: record values ↔ rule values (cards, seats, suits), fast path included;
- ``recorder``: a game being played, written as a record;
- ``replay``: a record replayed through the interpreter, violations collected;
- ``blame``: which rule decided a value, or refused an action;
- ``verdict`` and ``validate``: the outcome a user reads.
"""

from __future__ import annotations

from .blame import RECORD_RULE, DealStart, Write, changed_cells, decided_by, refused_by, traced_writes
from .codec import FORMAT, VERSION, Codec, decode_value, encode_action, encode_value, is_chance, sheet_value
from .locator import JsonLocator, Locator, NoLocator, YamlLocator
from .note import conformance_note
from .reading import (
                      RECORD_SUFFIXES,
                      RecordFile,
                      full_schema_errors,
                      load_record,
                      parse_record,
                      read_record,
                      record_files,
                      record_from_bytes,
                      record_schema,
)
from .recorder import Recorder
from .replay import Replayer, record_request, record_ruleset
from .validate import Judgement, judge, validate_record
from .verdict import Verdict, Violation
from .writing import dumps

__all__ = [
    "FORMAT", "RECORD_RULE", "RECORD_SUFFIXES", "VERSION", "Codec", "DealStart", "JsonLocator", "Judgement", "Locator",
    "NoLocator", "RecordFile", "Recorder", "Replayer", "Verdict", "Violation", "Write", "YamlLocator",
    "changed_cells", "conformance_note", "decided_by", "decode_value", "dumps", "encode_action", "encode_value",
    "full_schema_errors", "is_chance", "judge",
    "load_record", "parse_record", "read_record", "record_files", "record_from_bytes", "record_request",
    "record_ruleset", "record_schema", "refused_by", "sheet_value", "traced_writes", "validate_record",
]
