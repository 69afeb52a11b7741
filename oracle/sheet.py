"""The score sheet as players keep it on paper: one row per deal, running totals, marks."""

from __future__ import annotations

from typing import Any

from .ruleset import Ruleset


def render(rs: Ruleset, players: list[str], sheet: list[dict[str, Any]], lang: str = "en") -> str:
    """A text table: deal, dealer, contract, then per player the deal's points, the total and marks."""
    rows = []
    for row in sheet:
        decl = row.get("declarer")
        contract = ""
        if decl is not None:
            contract = f"{players[decl]} {row.get('contract', '')}"
            if row.get("conceded"):
                contract += " " + rs.marks.get("rospis", {}).get("symbol", "R")
        cells = []
        for s in range(len(players)):
            marks = "".join(rs.marks.get(m, {}).get("symbol", m[:1]) for m, who in row.get("marks", [])
                            if who == s and m != "rospis")
            delta = row.get("delta", [0] * len(players))[s]
            total = row.get("score", [0] * len(players))[s]
            cells.append(f"{delta:+d} {total}" + (f" {marks}" if marks else ""))
        rows.append((str(row["deal"] + 1), players[row["dealer"]], contract, cells))
    # Columns as wide as their widest entry, so marks never run into the next player.
    w_contract = max([len("contract"), *(len(r[2]) for r in rows)])
    w_dealer = max([len("dealer"), *(len(p) for p in players)])
    w_cell = max([*(len(p) for p in players), *(len(c) for r in rows for c in r[3])]) + 3
    head = f"{'#':>3}  {'dealer':<{w_dealer}}  {'contract':<{w_contract}}" + "".join(f"{p:>{w_cell}}" for p in players)
    lines = [head, "-" * len(head)]
    for num, dealer, contract, cells in rows:
        lines.append(f"{num:>3}  {dealer:<{w_dealer}}  {contract:<{w_contract}}" + "".join(f"{c:>{w_cell}}"
                                                                                        for c in cells))
    used = {m for row in sheet for m, _ in row.get("marks", [])}
    if used:
        legend = ", ".join(f"{rs.marks[m]['symbol']} {rs.marks[m][lang]}" for m in sorted(used) if m in rs.marks)
        lines.append("")
        lines.append(legend)
    return "\n".join(lines)
