"""The score sheet as players keep it on paper: one row per deal, running totals, marks."""

from __future__ import annotations

from typing import Any

from .ruleset import Ruleset


def render(rs: Ruleset, players: list[str], sheet: list[dict[str, Any]], lang: str = "en") -> str:
    """A text table: deal, dealer, contract, then per player the deal's points, the total and marks."""
    width = max(14, *(len(p) + 2 for p in players))
    head = f"{'#':>3}  {'dealer':<10} {'contract':<16}" + "".join(f"{p:>{width}}" for p in players)
    lines = [head, "-" * len(head)]
    for row in sheet:
        dealer = players[row["dealer"]]
        decl = row.get("declarer")
        if decl is None:
            contract = ""
        else:
            contract = f"{players[decl]} {row.get('contract', '')}"
            if row.get("conceded"):
                contract += " " + rs.marks.get("rospis", {}).get("symbol", "R")
        cells = []
        for s in range(len(players)):
            marks = "".join(rs.marks.get(m, {}).get("symbol", m[:1]) for m, who in row.get("marks", []) if who == s
                            and m != "rospis")
            delta = row.get("delta", [0] * len(players))[s]
            total = row.get("score", [0] * len(players))[s]
            cells.append(f"{delta:+d} {total}{(' ' + marks) if marks else ''}")
        lines.append(f"{row['deal'] + 1:>3}  {dealer:<10} {contract:<16}" + "".join(f"{c:>{width}}" for c in cells))
    used = {m for row in sheet for m, _ in row.get("marks", [])}
    if used:
        legend = ", ".join(f"{rs.marks[m]['symbol']} {rs.marks[m][lang]}" for m in sorted(used) if m in rs.marks)
        lines.append("")
        lines.append(legend)
    return "\n".join(lines)
