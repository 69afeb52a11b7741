"""A disk cache of loaded rule files, so that a new process starts at once.

Reading the rule tree (169 YAML files, each checked against its JSON Schema) and compiling a
ruleset from it are most of what a new process spends before it can validate a record. Both results
are kept in the user's cache directory (``$XDG_CACHE_HOME/thousand-oracle``, else
``~/.cache/thousand-oracle``): the ``library`` entry of a rule tree (every file's data with the line
and column of every string) and the ``program`` entry of a ruleset (its compiled rule module and what
the compiler learnt about each function: which rules it depends on, which variables it writes).

- **Keyed by** the content of the rule files (the tree digest), the oracle's version, and a hash
  of the oracle's own files that decide what a loaded file or a compiled ruleset is: every module of
  the stages up to the rulesets' (``oracle.stages.SHAPING``: the YAML reader, the rule language, the
  resolver, this module) and the schemas. A changed rule file or a changed oracle is a different
  entry, never a stale one.
- **Stored as JSON and marshal, never pickle**: unpickling runs whatever code the file names. The
  library is JSON, decoded by us into plain values and positioned strings, so a bad entry can at
  worst hold wrong data. A compiled ruleset is the ``marshal`` form of the code object our compiler
  built from checked rule trees (plus JSON metadata), which saves the Lark parse, the type check
  and Python's compile; marshal builds code, so it is read only under the ownership checks below
  and with the content hash, and it is keyed by the Python version (marshal is not portable).
  A SHA-256 of the payload is stored with each entry; an entry that does not match it, that does
  not decode, or that has another key is ignored and rebuilt.
- **Trusted only when it is the user's own**: the directory is created with mode 0700; an entry is
  read only if the directory and the file belong to the user, are not writable by group or others,
  and are not symbolic links. Anything else is neither read nor written.
- **A cold start is silent**: when there is no entry, or it cannot be used, the files are read as
  usual and an entry is written (atomically: a temporary file, then a rename) if the directory is
  usable; any failure to write is ignored.
- **Bounded**: the 128 most recently used compiled rulesets (``THOUSAND_CACHE_KEEP`` sets another number)
  and the 16 most recently used entries of each other kind are kept, older ones deleted when one is written. An
  entry read is marked used (its modification time), so the rulesets a user keeps asking for outlast a
  run of one-off ones.
- ``THOUSAND_CACHE=0`` turns the cache off; ``THOUSAND_CACHE_DIR`` names another directory (tests
  use a temporary one, and keep every entry of a run: it compiles hundreds of rulesets).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Any

from .stages import SHAPING, SHAPING_DATA
from .yamlpos import PosStr

FORMAT = 1
_CODE: list[str] = []


def enabled() -> bool:
    return os.environ.get("THOUSAND_CACHE", "1").strip().lower() not in ("0", "no", "off", "false")


def directory() -> Path:
    env = os.environ.get("THOUSAND_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "thousand-oracle"


def _code_digest() -> str:
    if not _CODE:
        from . import __version__

        # Compiled code is kept as marshal data, which only the same Python reads.
        h = hashlib.sha256(f"{FORMAT}\0{__version__}\0{sys.version}".encode() + importlib.util.MAGIC_NUMBER)
        for name, content in shaping_files(Path(str(files("oracle")))):
            h.update(name.encode() + b"\0" + hashlib.sha256(content).digest())
        _CODE.append(h.hexdigest())
    return _CODE[0]


def shaping_files(package: Path) -> list[tuple[str, bytes]]:
    """The files of the package whose change changes what a loaded rule file or a compiled ruleset is, with
    their content, in a fixed order: every file of the units up to the rulesets' stage (found from the
    stages, not listed, so a new module of those stages is covered at once) and the data they read."""
    out: list[tuple[str, bytes]] = []
    for unit in sorted(SHAPING):
        single = package / f"{unit}.py"
        paths = [single] if single.is_file() else sorted(p for p in (package / unit).rglob("*") if _code_or_data(p))
        out += [(p.relative_to(package).as_posix(), p.read_bytes()) for p in paths]
    for folder in SHAPING_DATA:
        out += [(p.relative_to(package).as_posix(), p.read_bytes())
                for p in sorted((package / folder).rglob("*")) if _code_or_data(p)]
    return out


def _code_or_data(p: Path) -> bool:
    return p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")


def entry_key(kind: str, digest: str) -> str:
    return hashlib.sha256(f"{kind}\0{digest}\0{_code_digest()}".encode()).hexdigest()


def _own(st: os.stat_result) -> bool:
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _usable_dir(create: bool) -> Path | None:
    d = directory()
    try:
        if create and not os.path.lexists(d):
            os.makedirs(d, mode=0o700, exist_ok=True)
        st = os.lstat(d)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or not _own(st):
        return None
    return d


def load(kind: str, digest: str) -> Any | None:
    """The value stored for (kind, digest) with :func:`store`, or None when there is none to trust."""
    raw = load_bytes(kind, digest)
    if raw is None:
        return None
    try:
        return decode(json.loads(raw))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
        return None


def store(kind: str, digest: str, value: Any) -> None:
    """Keep ``value`` (plain data and positioned strings) for (kind, digest); failures are ignored."""
    try:
        body = encoded(value).encode()
    except (ValueError, TypeError, RecursionError):
        return
    store_bytes(kind, digest, body)


def encoded(value: Any) -> str:
    """``value`` (plain data and positioned strings) as an entry keeps it: JSON text. Raises TypeError for
    a value it cannot keep (and ValueError or RecursionError as :func:`json.dumps` does)."""
    return json.dumps(encode(value), ensure_ascii=False, separators=(",", ":"))


def store_list(kind: str, digest: str, items: list[bytes]) -> None:
    """Keep, for (kind, digest), the list whose items are ``items``, each the :func:`encoded` text of a
    value in UTF-8: :func:`load` gives the list of values back. The items are joined, not encoded again, so a
    caller whose lists share most of their items (the files of two rule trees that differ in one) encodes
    each item once and keeps it. Failures to write are ignored."""
    store_bytes(kind, digest, b",".join([b'["l"', *items]) + b"]")


def load_bytes(kind: str, digest: str) -> bytes | None:
    """The bytes stored for (kind, digest), if the entry is the user's own and matches its hash."""
    if not enabled():
        return None
    d = _usable_dir(create=False)
    if d is None:
        return None
    key = entry_key(kind, digest)
    try:
        fd = os.open(d / f"{kind}-{key}", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _own(st):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read()
        with contextlib.suppress(OSError):  # marked used, for the pruning (a read-only cache still reads)
            os.utime(fd if os.utime in os.supports_fd else d / f"{kind}-{key}")
    except OSError:
        return None
    finally:
        os.close(fd)
    head, _, body = raw.partition(b"\n")
    try:
        meta = json.loads(head)
    except ValueError:
        return None
    if not isinstance(meta, dict) or meta.get("key") != key or meta.get("sha256") != hashlib.sha256(body).hexdigest():
        return None
    return body


def store_bytes(kind: str, digest: str, body: bytes) -> None:
    """Keep ``body`` for (kind, digest), atomically; failures are ignored (the next start reads the files)."""
    if not enabled():
        return
    d = _usable_dir(create=True)
    if d is None:
        return
    key = entry_key(kind, digest)
    head = json.dumps({"key": key, "sha256": hashlib.sha256(body).hexdigest()}).encode()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", dir=d)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(head + b"\n" + body)
            os.replace(tmp, d / f"{kind}-{key}")
        except BaseException:
            os.unlink(tmp)
            raise
        _prune(d, kind, d / f"{kind}-{key}")
    except OSError:
        pass


KEEP = 16  # entries kept per kind: every change of the rule files or of the oracle makes new ones
# Compiled rulesets kept: a club's records name many (the golden games alone, 47 of presets, overlays and
# parameters), and a corpus of more rulesets than are kept compiles all of them again at every run. An
# entry is about 0.2 MB.
KEEP_COMPILED = 128


COMPILED = ("program", "analysis")  # the kinds of entry that are compiled rulesets (a library is ten times larger)


def keep(kind: str) -> int:
    """How many entries of ``kind`` are kept: for compiled rulesets, ``THOUSAND_CACHE_KEEP`` if it is a whole
    number from 1, else KEEP_COMPILED; KEEP of the others."""
    if kind not in COMPILED:
        return KEEP
    raw = os.environ.get("THOUSAND_CACHE_KEEP", "").strip()
    return int(raw) if raw.isdigit() and int(raw) >= 1 else KEEP_COMPILED


def _prune(d: Path, kind: str, new: Path) -> None:
    """Drop all but the most recently used entries of ``kind`` (``new``, just written, stays)."""
    found = []
    for e in os.scandir(d):
        if e.name.startswith(f"{kind}-") and e.is_file(follow_symlinks=False) and e.path != str(new):
            found.append((e.stat(follow_symlinks=False).st_mtime_ns, e.path))
    for _, path in sorted(found, reverse=True)[keep(kind) - 1:]:
        os.unlink(path)


# --------------------------------------------------------------------------- values with positions
# Every container is a list whose first item says what it is, so nothing else is ambiguous:
# ["d", k1, v1, ...] a mapping, ["l", ...] a list, ["p", text, file, line, column, indent] a
# positioned string, ["s", text] a plain string; numbers, booleans and null stand for themselves.

def encode(v: Any) -> Any:
    if isinstance(v, PosStr):
        return ["p", str(v), v.file, v.line, v.column, v.block_indent]
    if isinstance(v, str):
        return ["s", v]
    if isinstance(v, dict):
        out: list[Any] = ["d"]
        for k, x in v.items():
            out.append(encode(k))
            out.append(encode(x))
        return out
    if isinstance(v, list):
        return ["l", *(encode(x) for x in v)]
    if v is None or isinstance(v, (bool, int, float)):
        return v
    raise TypeError(f"cannot keep a {type(v).__name__} in the cache")


def decode(v: Any) -> Any:
    if type(v) is not list:
        if v is None or isinstance(v, (bool, int, float)):
            return v
        raise ValueError("not a cache value")
    return _decode(v)


def _decode(v: list[Any]) -> Any:
    # The hot loop of a warm start: one call per container, scalars and strings decoded inline.
    tag = v[0]
    if tag == "p":
        s = PosStr(v[1])
        s.file, s.line, s.column, s.block_indent = v[2], v[3], v[4], v[5]
        return s
    if tag == "s":
        return str(v[1])
    if tag == "d":
        out: dict[Any, Any] = {}
        it = iter(v)
        next(it)
        for k, x in zip(it, it, strict=True):
            out[_decode(k) if type(k) is list else _scalar(k)] = _decode(x) if type(x) is list else _scalar(x)
        return out
    if tag == "l":
        return [_decode(x) if type(x) is list else _scalar(x) for x in v[1:]]
    raise ValueError(f"unknown cache tag {tag!r}")


def _scalar(x: Any) -> Any:
    if x is None or type(x) in (bool, int, float):
        return x
    raise ValueError("not a cache value")

