"""The one cache of rule trees and compiled rulesets in a process.

What is cached, keyed by what, invalidated when:

- **The rule tree of a root** (the folder holding ``spec/`` and ``variants/``): the list of its
  rule files with their stat signatures (size, modification time) and a SHA-256 of their names
  and content. It is read the first time a root is used in a process, and then trusted: asking
  for a ruleset costs no file-system access at all. :func:`refresh` re-reads the signatures (and
  re-hashes the tree if any file was added, removed or changed); a tool that edits rule files
  while it runs calls it (the tests' ``rules_tree.edit`` does). A new process always starts fresh.
- **The loaded library** (every rule file parsed and schema-checked), keyed by root and digest.
- **Each loaded rule file**, keyed by the name it is shown by, its kind and a hash of its content:
  a tree with one file edited builds its library reading that one file again, not all of them.
  Entries of files no tree holds any more are dropped by :func:`refresh`.
- **Compiled rulesets**, keyed by root, tree digest, ruleset name, overlays and parameters as the
  caller gave them. A changed tree has a new digest, so an entry of the old tree is never returned
  after :func:`refresh`; entries of old digests are dropped then.

What the cache holds lives as long as the process: each time a ruleset is added, every object alive
is moved out of the cyclic collector's way (:func:`gc.freeze`), so that a full collection, which a
long game's records set off every few hundred deals, no longer walks the tens of thousands of
objects a compiled ruleset is made of (a quarter of the time of validating whole games). Frozen
objects are still freed when nothing refers to them; only cycles among them wait, until
:func:`refresh` or :func:`clear` drops entries and gives everything back to the collector
(:func:`gc.unfreeze`).

While a library is read or a ruleset compiled (here, and in ``lang.program``'s compile, which every
compile goes through), the cyclic collector is paused (:func:`building`): a build makes tens of thousands of
objects (parsed YAML, syntax trees) that are all alive until it ends, so every collection the allocations
set off walks them in vain. Where the process holds many objects the freezing above has not moved aside (a
caller of ``compile_resolved`` keeping resolved rulesets), that was up to a third of a compile's time. A
build's size is bounded (``oracle.limits``), so the pause is too; cycles it leaves are collected after.

Nothing else in the oracle keeps rulesets across calls (``oracle.batch`` and the records code ask
:func:`oracle.ruleset.load_ruleset`, which asks here).
"""

from __future__ import annotations

import gc
import hashlib
import os
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .errors import RuleFileError
from .limits import MAX_RULE_FILE_BYTES, read_limited

T = TypeVar("T")
FOLDERS = ("spec", "variants")


@dataclass(frozen=True)
class Tree:
    """A rule tree as read once: its files, their signatures, and the digest of their content."""

    root: Path
    files: tuple[Path, ...]
    stamp: tuple[tuple[str, int, int], ...]
    digest: str
    hashes: dict[Path, str]  # each file's own content hash: loaded files no tree holds are dropped


def rule_files(base: Path) -> list[Path]:
    """The rule files under ``base``, sorted (``.yaml`` and ``.yml``)."""
    out: list[Path] = []
    stack = [base]
    seen: set[tuple[int, int]] = set()  # folders walked, by device and inode: a link loop is walked once
    while stack:
        d = stack.pop()
        try:
            st = os.stat(d)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            entries = list(os.scandir(d))
        except OSError:  # gone, not a folder, or a link that leads round in a loop
            continue
        for e in entries:
            # A link among the files that leads nowhere, or round in a loop, is not a rule file.
            try:
                if e.is_dir():
                    stack.append(Path(e.path))
                elif e.name.endswith((".yaml", ".yml")) and e.is_file():
                    out.append(Path(e.path))
            except OSError:
                continue
    return sorted(out)


def _stamp(root: Path) -> tuple[tuple[Path, ...], tuple[tuple[str, int, int], ...]]:
    files = tuple(p for folder in FOLDERS for p in rule_files(root / folder))
    return files, tuple((str(p), st.st_size, st.st_mtime_ns) for p in files for st in (p.stat(),))


def _read_tree(root: Path, old: Tree | None = None) -> Tree:
    files, stamp = _stamp(root)
    if old is not None and old.stamp == stamp:
        return old
    h = hashlib.sha256()
    hashes: dict[Path, str] = {}
    for p in files:
        rel = str(p.relative_to(root))
        content = read_limited(p, MAX_RULE_FILE_BYTES, rel, RuleFileError, "rule files")
        h.update(rel.encode())
        h.update(b"\0")
        h.update(content)
        hashes[p] = hashlib.sha256(content).hexdigest()
    return Tree(root, files, stamp, h.hexdigest(), hashes)


_TREES: dict[str, Tree] = {}
_LIBRARIES: dict[tuple[str, str], Any] = {}
_RULESETS: dict[tuple[Any, ...], Any] = {}
_FILES: dict[tuple[str, str, str], Any] = {}


@contextmanager
def building() -> Iterator[None]:
    """The cyclic collector paused for one build (a library read, a ruleset compiled), as it was after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def tree(root: Path) -> Tree:
    """The rule tree at ``root`` (resolved), as read the first time this process asked."""
    key = str(root)
    t = _TREES.get(key)
    if t is None:
        t = _TREES[key] = _read_tree(root)
    return t


def library(root: Path, build: Callable[[Path, str], T]) -> T:
    """The library of ``root``'s current tree, built by ``build(root, digest)`` once per digest."""
    digest = tree(root).digest
    key = (str(root), digest)
    hit = _LIBRARIES.get(key)
    if hit is None:
        with building():
            hit = _LIBRARIES[key] = build(root, digest)
    return hit


def loaded_file(display: str, kind: str, content: bytes, load: Callable[[], T]) -> T:
    """``load()``, the file shown as ``display`` read from ``content``: once per name, kind and content.

    Keyed by the bytes actually read, so a file edited after its tree was read is never filed under
    its old content. A failure is raised each time, never kept.
    """
    key = (display, kind, hashlib.sha256(content).hexdigest())
    hit = _FILES.get(key)
    if hit is None:
        hit = _FILES[key] = load()
    return hit


def ruleset(root: Path, request: Hashable, build: Callable[[], T]) -> T:
    """The compiled ruleset for ``request`` (``RulesetRequest.in_tree``: name, overlays, parameters) under
    ``root``'s current tree."""
    key = (str(root), tree(root).digest, request)
    hit = _RULESETS.get(key)
    if hit is None:
        hit = _RULESETS[key] = build()  # its library read and its compile pause the collector themselves
        gc.freeze()
    return hit


def refresh(root: Path | None = None) -> None:
    """Notice rule files changed since they were read: under one root, or under every root read so far
    (which costs a look at every file of every tree this process has read: name the root when you can)."""
    roots = [str(root.resolve())] if root is not None else list(_TREES)
    for key in roots:
        old = _TREES.get(key)
        if old is not None:
            _TREES[key] = _read_tree(Path(key), old)
    live = {(k, t.digest) for k, t in _TREES.items()}
    for k in [k for k in _LIBRARIES if k not in live]:
        del _LIBRARIES[k]
    dropped = [k for k in _RULESETS if (k[0], k[1]) not in live]
    for k in dropped:
        del _RULESETS[k]
    if dropped:
        gc.unfreeze()
    held = {h for t in _TREES.values() for h in t.hashes.values()}
    for fk in [fk for fk in _FILES if fk[2] not in held]:
        del _FILES[fk]


def clear() -> None:
    """Forget every tree, library and ruleset read in this process."""
    _TREES.clear()
    _LIBRARIES.clear()
    _RULESETS.clear()
    _FILES.clear()
    gc.unfreeze()
