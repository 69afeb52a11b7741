"""The disagreement a counterexample record carries (its ``conformance`` field), as validate and replay show it.

A counterexample can be a valid game: "the engine does not allow X" ends just before X,
which the rules allow. The note says what the record is evidence of.
"""

from __future__ import annotations

import json
from typing import Any


def conformance_note(record: dict[str, Any]) -> str | None:
    """Lines describing the record's ``conformance`` field, or None when it has none."""
    c = record.get("conformance")
    if not isinstance(c, dict):
        return None
    where = ""
    if isinstance(c.get("deal"), int):
        where = f" at deal {c['deal']}" + (f", after action {c['action']}" if isinstance(c.get("action"), int) else "")
    lines = [f"conformance counterexample{where}: engine {c.get('engine')} — {c.get('kind')} [{c.get('rule')}]",
             f"    {c.get('detail')}"]
    for label, key in (("the engine allows", "engine_allows"), ("the engine lacks", "engine_lacks")):
        acts = c.get(key)
        if isinstance(acts, list) and acts:
            shown = ", ".join(_action(a) for a in acts[:8]) + (f", … ({len(acts)} in all)" if len(acts) > 8 else "")
            lines.append(f"    {label}: {shown}")
    res = c.get("results")
    if isinstance(res, dict):
        for k, v in res.items():
            if isinstance(v, dict):
                lines.append(f"    {k}: engine {json.dumps(v.get('engine'), ensure_ascii=False)}, rules "
                             f"{json.dumps(v.get('rules'), ensure_ascii=False)}")
    return "\n".join(lines)


def _action(a: Any) -> str:
    if not isinstance(a, dict):
        return str(a)
    rest = " ".join(f"{k}={v}" for k, v in a.items() if k not in ("seat", "action"))
    return f"{a.get('seat')} {a.get('action')}" + (f" {rest}" if rest else "")
