"""The score sheet as players keep it on paper: one row per deal, running totals, marks.

Which values are its columns is stated in the rules (``spec/scoring/sheet.yaml``, ``Ruleset.sheet``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import UsageError
from .plural import count
from .ruleset import Ruleset

# The sheet's own words; the marks and their legend come from the rule files.
WORDS: dict[str, dict[str, str]] = {
    "number": {"en": "#", "ru": "№"},
    "dealer": {"en": "dealer", "ru": "сдаёт"},
    "contract": {"en": "contract", "ru": "заказ"},
    "winner": {"en": "winner: {who}", "ru": "победитель: {who}"},
    "shown": {"en": "deals {first}–{last} of {total}", "ru": "партии {first}–{last} из {total}"},
    "shown_scored": {"en": "deals {first}–{last} shown", "ru": "показаны партии {first}–{last}"},
    "stopped": {"en": "the sheet stops before deal {deal}, where the record breaks a rule: {scored} of its {total} "
                      "scored",
                "ru": "запись счёта обрывается перед партией {deal}, где запись нарушает правило: подсчитано "
                      "{scored} из {total}"},
    "none": {"en": "no deal was scored", "ru": "ни одна партия не доиграна"},
}


def word(key: str, lang: str, **fmt: object) -> str:
    text = WORDS[key][lang]
    return text.format(**fmt) if fmt else text


def parse_range(text: str) -> tuple[int, int | None]:
    """``--deals`` as people write it, counting from 1: ``3-7``, ``5`` (one deal), ``10-`` (to the end)."""
    first, sep, last = text.partition("-")
    if not (first.strip() or last.strip()):
        raise UsageError(f"--deals {text}: write a deal number or a range such as 3-7 (deals count from 1)")
    try:
        a = int(first) if first.strip() else 1
        b = (int(last) if last.strip() else None) if sep else a
    except ValueError:
        raise UsageError(f"--deals {text}: write a deal number or a range such as 3-7 (deals count from 1)") from None
    if a < 1 or (b is not None and b < a):
        raise UsageError(f"--deals {text}: write a deal number or a range such as 3-7 (deals count from 1)")
    return a, b


def symbol(rs: Ruleset, mark: str, lang: str) -> str:
    """The mark's symbol as written in ``lang``: in English its Latin one where Russian players draw a letter."""
    return mark_symbol(rs.marks.get(mark, {}), mark, lang)


def mark_symbol(spec: Mapping[str, Any], mark: str, lang: str) -> str:
    """:func:`symbol` of a mark as its rule file declares it (``spec``: its entry under ``marks:``)."""
    return str(spec.get("symbol_en" if lang == "en" else "symbol") or spec.get("symbol") or mark[:1])


def team_columns(rs: Ruleset, n_players: int) -> list[list[int]]:
    """The teams the sheet gives a column of their own: those of two or more seats, where the rules make the
    sheet's total one score for the team."""
    teams = rs.teams
    if teams is None or rs.sheet.total not in teams.sharing or len(teams.of_seat) != n_players:
        return []
    return [group for group in teams.groups() if len(group) > 1]


def render(rs: Ruleset, players: list[str], sheet: list[dict[str, Any]], lang: str = "en",
           deals: tuple[int, int | None] | None = None, stopped: tuple[int, int] | None = None) -> str:
    """A text table: deal, dealer, contract, then per player the deal's points, the total and marks.

    ``deals`` keeps only the rows from the first to the last deal number given (1-based, inclusive);
    totals stay the running totals of the whole game. ``stopped`` (the deal where the record breaks a
    rule, and the deals it holds) says the sheet ends there, not with the game.
    """
    shown = sheet
    if deals is not None:
        first, last = deals
        shown = [row for row in sheet if first <= row["deal"] + 1 and (last is None or row["deal"] + 1 <= last)]
        if sheet and not shown:
            raise UsageError(f"--deals {first}-{'' if last is None else last}: the record scores "
                             f"{count(len(sheet), 'deal')}")
    cols = rs.sheet
    conceded = cols.conceded_mark
    teams = team_columns(rs, len(players))
    rows = []
    for row in shown:
        decl = row.get(cols.declarer)
        contract = ""
        if decl is not None:
            contract = f"{players[decl]} {row.get(cols.contract, '')}"
            if row.get(cols.conceded):
                contract += " " + symbol(rs, conceded, lang)
        cells = []
        for s in range(len(players)):
            marks = "".join(symbol(rs, m, lang) for m, who in row.get("marks", []) if who == s and m != conceded)
            delta = row.get(cols.points, [0] * len(players))[s]
            total = row.get(cols.total, [0] * len(players))[s]
            cells.append(f"{delta:+d} {total}" + (f" {marks}" if marks else ""))
        for group in teams:
            # A team's one score: every partner's total is the team's (the rules promise it, State checks it).
            first = group[0]
            cells.append(f"{row.get(cols.points, [0] * len(players))[first]:+d} "
                         f"{row.get(cols.total, [0] * len(players))[first]}")
        rows.append((str(row["deal"] + 1), players[row["dealer"]], contract, cells))
    # Columns as wide as their widest entry, so marks never run into the next player.
    h_num, h_dealer, h_contract = word("number", lang), word("dealer", lang), word("contract", lang)
    w_num = max([3, *(len(r[0]) for r in rows)])
    w_contract = max([len(h_contract), *(len(r[2]) for r in rows)])
    w_dealer = max([len(h_dealer), *(len(p) for p in players)])
    heads = [*players, *("+".join(players[s] for s in group) for group in teams)]
    w_cell = max([*(len(p) for p in heads), *(len(c) for r in rows for c in r[3])]) + 3
    head = (f"{h_num:>{w_num}}  {h_dealer:<{w_dealer}}  {h_contract:<{w_contract}}"
            + "".join(f"{p:>{w_cell}}" for p in heads))
    lines = [head, "-" * len(head)]
    for num, dealer, contract, cells in rows:
        lines.append(f"{num:>{w_num}}  {dealer:<{w_dealer}}  {contract:<{w_contract}}"
                     + "".join(f"{c:>{w_cell}}" for c in cells))
    if not sheet:
        lines.append(word("none", lang))
    elif deals is not None:
        lines.append("")
        lines.append(word("shown", lang, first=rows[0][0], last=rows[-1][0], total=len(sheet)) if stopped is None
                     else word("shown_scored", lang, first=rows[0][0], last=rows[-1][0]))
    if stopped is not None:
        lines.append(word("stopped", lang, deal=stopped[0], scored=count(len(sheet), "deal", lang),
                          total=stopped[1]))
    used = {m for row in shown for m, _ in row.get("marks", [])}
    if used:
        legend = ", ".join(f"{symbol(rs, m, lang)} {rs.marks[m][lang]}" for m in sorted(used) if m in rs.marks)
        lines.append("")
        lines.append(legend)
    return "\n".join(lines)
