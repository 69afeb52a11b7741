"""A scratch copy of the rules tree, for tests that break rule files on purpose."""

from __future__ import annotations

import shutil
from pathlib import Path

from oracle import rulecache

ROOT = Path(__file__).resolve().parent.parent


def copy_rules(tmp: Path) -> Path:
    for folder in ("spec", "variants"):
        shutil.copytree(ROOT / folder, tmp / folder)
    return tmp


def edit(root: Path, rel: str, old: str, new: str) -> None:
    p = root / rel
    text = p.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    rulecache.refresh(root)  # rule files are read once per process: this one was changed on purpose


def write(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    rulecache.refresh(root)
