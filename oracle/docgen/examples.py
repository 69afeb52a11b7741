"""Worked examples for rule pages, taken from the golden game records the test suite checks.

A golden invalid record carries the verdict it must get (``expect``: the deal, the
action, the rule and the reason). The rule pages show those records as examples of
what the rule forbids, so every example on the site is one a test has confirmed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path("tests") / "golden"  # under the checkout; absent from an installed package, then no examples
CONTEXT = 3  # actions shown before the rejected one, so the reader sees the situation


@dataclass
class Example:
    path: str  # relative to the checkout
    record: dict[str, Any]
    expect: dict[str, Any]

    @property
    def ruleset(self) -> str:
        return str(self.record.get("ruleset", ""))

    def deal(self) -> dict[str, Any] | None:
        n = self.expect.get("deal")
        deals = self.record.get("deals") or []
        return deals[n - 1] if isinstance(n, int) and 0 < n <= len(deals) else None

    def actions(self) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The actions leading up to the rejected one, and the rejected action (None for a wrong result)."""
        deal, n = self.deal(), self.expect.get("action")
        if deal is None or not isinstance(n, int):
            return [], None
        acts = deal.get("actions") or []
        if not 0 < n <= len(acts):
            return [], None
        return acts[max(0, n - 1 - CONTEXT):n - 1], acts[n - 1]


def load_examples(root: Path) -> dict[str, list[Example]]:
    """Golden invalid records by the rule they must be rejected under."""
    folder = root / GOLDEN_DIR
    found: dict[str, list[Example]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.rglob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # not a record; the golden tests report broken files, the docs need not
        expect = record.get("expect") if isinstance(record, dict) else None
        if isinstance(expect, dict) and expect.get("valid") is False and expect.get("rule"):
            found.setdefault(str(expect["rule"]), []).append(
                Example(path.relative_to(root).as_posix(), record, expect))
    return found


def action_text(action: dict[str, Any]) -> str:
    """An action as one line: the seat, the action, then its payload fields."""
    fields = " ".join(f"{k}={_value(v)}" for k, v in action.items() if k not in ("seat", "action"))
    return f"{action.get('seat')}: {action.get('action')}" + (f" {fields}" if fields else "")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + " ".join(_value(x) for x in v) + "]"
    return "none" if v is None else str(v)
