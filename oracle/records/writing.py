"""Game records as JSON with one action per line: stable, and readable in a diff (counterexamples, golden games)."""

from __future__ import annotations

import json
from typing import Any


def dumps(record: dict[str, Any]) -> str:
    """JSON with one action per line: stable, and readable in a diff."""
    def one(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False)

    out = ["{"]
    keys = [k for k in record if k != "deals"] + (["deals"] if "deals" in record else [])
    for i, k in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if k != "deals":
            out.append(f"  {one(k)}: {one(record[k])}{comma}")
            continue
        out.append('  "deals": [')
        for di, deal in enumerate(record["deals"]):
            out.append("    {")
            dkeys = list(deal)
            for j, dk in enumerate(dkeys):
                dcomma = "," if j < len(dkeys) - 1 else ""
                if dk == "actions":
                    acts = deal["actions"]
                    if not acts:
                        out.append(f'      "actions": []{dcomma}')
                        continue
                    out.append('      "actions": [')
                    for ai, a in enumerate(acts):
                        out.append(f"        {one(a)}{',' if ai < len(acts) - 1 else ''}")
                    out.append(f"      ]{dcomma}")
                else:
                    out.append(f"      {one(dk)}: {one(deal[dk])}{dcomma}")
            out.append("    }" + ("," if di < len(record["deals"]) - 1 else ""))
        out.append("  ]" + comma)
    out.append("}")
    return "\n".join(out) + "\n"
