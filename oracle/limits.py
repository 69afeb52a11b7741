"""The limits every reader enforces, and the one way files are read under them.

Input comes from strangers (records from a platform, rule files from a pull request, a
command line typed in a hurry). Each limit below keeps one kind of input from costing
unbounded memory or time; the numbers are far above anything a real game or rule file
needs, and are stated for users in ``docs/reference/limits.md``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import Location, OracleError

MAX_RECORD_BYTES = 16 * 1024 * 1024  # a JSON record (a whole game of 400 deals is under 1 MB)
MAX_YAML_RECORD_BYTES = 2 * 1024 * 1024  # YAML records are written by hand; the YAML reader costs more per byte
MAX_RULE_FILE_BYTES = 1024 * 1024  # the largest rule file today is under 10 kB
MAX_DEPTH = 32  # nesting of mappings and lists in a record
MAX_RULE_DEPTH = 64  # nesting of mappings and lists in a rule file
MAX_YAML_NODES = 200_000  # values built from one rule file, aliases expanded (an alias bomb stops here)
MAX_YAML_RECORD_VALUES = 200_000  # values written in a YAML record (a game of 400 deals has about 130,000)
MAX_INT_DIGITS = 30  # digits of an integer written in a record or a rule file
MAX_PARAM_INT = 10_000  # an integer parameter without a declared maximum stays within ±this
MAX_FILES = 100_000  # record files one command line may name (folders and patterns expanded)
MAX_EXPR_DEPTH = 100  # nesting of a rule-language expression or block
MAX_EXPR_TERMS = 500  # operands of one chain of `and`, `or`, `+`, comparisons…
MAX_LOGIC_CHARS = 20_000  # characters of one rule-language text
# Nodes of compiled logic, every definition written out at each of its calls: one text (a clause, a guard,
# a definition's body where it is called), and a whole ruleset. Today's largest are about 300 and 2,500.
MAX_TEXT_NODES = 20_000
MAX_RULESET_NODES = 200_000


def read_limited(path: Path, limit: int, display: str, error: type[OracleError], what: str = "files",
                 hint: str = "") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else raises ``error``.

    Special files (FIFOs, devices, directories) are refused before they are opened, so
    ``/dev/zero`` is never read and a FIFO never blocks; the read itself stops one byte past
    the limit, so a file that grows while it is read cannot exhaust memory.
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", Location(display)) from None
    except ValueError as exc:  # a NUL byte in the name
        raise error(f"cannot read: {exc}", Location(display)) from None
    if stat.S_ISDIR(st.st_mode):
        raise error("is a folder, not a file", Location(display))
    if not stat.S_ISREG(st.st_mode):
        raise error("is not a regular file (a device, FIFO or socket); refused without reading it",
                    Location(display))
    if st.st_size > limit:
        raise error(too_big(st.st_size, limit, what) + hint, Location(display))
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", Location(display)) from None
    if len(raw) > limit:
        raise error(too_big(len(raw), limit, what) + hint, Location(display))
    return raw


def too_big(size: int, limit: int, what: str = "files") -> str:
    return f"the file is {size / 1e6:.1f} MB; {what} over {limit / 1e6:.0f} MB are refused"


def decode_utf8(raw: bytes, display: str, error: type[OracleError]) -> str:
    """Text from UTF-8 bytes; a bad byte is reported at its line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        start = raw.rfind(b"\n", 0, exc.start) + 1
        column = len(raw[start:exc.start].decode("utf-8", errors="replace")) + 1
        raise error(f"not UTF-8 text (byte {exc.start}: {exc.reason})", Location(display, line, column)) from None
