"""What was allowed where a record broke a rule: the legal actions at that point, or the value the rules give.

The legal actions are grouped compactly: per player and action, the field that varies most is
listed (cards in the order the rules give them, numbers as ranges with their step), and the
other fields are shown once per group (``play 9H, 10H, KH``; ``bid 120-300 (step 10)``;
``play KH marriage=yes``). A flag that is not raised is left out, as a record may leave it out, unless
the refused action raised it (``play AH, 9C marriage=no``). Every group names its player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Notation
from ..engine import Action, Game
from ..ruleset import Ruleset
from .codec import encode_value, is_chance

MAX_GROUPS_SHOWN = 10  # in text; the JSON lists every group

WORDS: dict[str, dict[str, str]] = {
    "step": {"en": "step", "ru": "шаг"},
    "none": {"en": "nothing", "ru": "ничего"},
    "drawn": {"en": "as the rules draw it", "ru": "как его дают правила"},
    "more": {"en": "more", "ru": "ещё"},
}


@dataclass(frozen=True)
class Allowed:
    """The alternatives at a violation: groups of legal actions, or the one right value of a result."""

    groups: tuple[dict[str, Any], ...]
    # Flags the refused action raised: shown even where they are not raised (marriage=no), since there
    # leaving them out would read as allowing what was refused.
    spelled: frozenset[str] = frozenset()

    def to_json(self) -> list[dict[str, Any]]:
        return [dict(g) for g in self.groups]

    def text(self, seat_name: str | None = None, lang: str = "en") -> str:
        """Compact text, each group with its player's name (``seat_name`` is kept for older callers)."""
        if not self.groups:
            return WORDS["none"][lang]
        parts = [_group_text(g, self.spelled, lang) for g in self.groups[:MAX_GROUPS_SHOWN]]
        if len(self.groups) > MAX_GROUPS_SHOWN:
            parts.append(f"… ({len(self.groups) - MAX_GROUPS_SHOWN} {WORDS['more'][lang]})")
        return "; ".join(parts)


NOTHING = Allowed(())


def result_value(key: str, value: Any, player: str | None = None) -> Allowed:
    """A recorded result: the value the rules give."""
    group: dict[str, Any] = {"result": key, "value": value}
    if player is not None:
        group["player"] = player
    return Allowed((group,))


def allowed_actions(game: Game, rs: Ruleset, nt: Notation, players: list[str],
                    refused: Action | None = None) -> Allowed:
    """The legal actions now, grouped; for a refused chance action (the deal), the one the rules draw.
    A flag the refused action raised is spelled out where it is not raised."""
    if refused is not None and is_chance(rs.actions[refused.kind]) and not game.over:
        decl = game.chance_action()
        if decl is not None:
            return Allowed(({"player": players[game.actors(decl)[0]], "action": decl.name, "drawn": True},))
    # Grouped as the rules give them (cards and seats as numbers), then written as the record writes them:
    # the notation and the players' names are one to one, so the groups are the same either way, and each
    # value is written once, not once per legal action.
    groups: list[dict[str, Any]] = []
    by: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for kind, seat, payload in game.legal_parts():
        by.setdefault((seat, kind), []).append(payload)
    for (seat, kind), payloads in by.items():
        groups.extend(_grouped(players[seat], kind, payloads, rs.actions[kind].fields, nt, players))
    raised = frozenset(k for k, v in refused.payload.items() if v is True) if refused is not None else frozenset()
    return Allowed(tuple(groups), raised)


def _grouped(player: str, kind: str, payloads: list[dict[str, Any]], fields: list[tuple[str, str]],
             nt: Notation, players: list[str]) -> list[dict[str, Any]]:
    """One kind's legal payloads of one player in groups: one field listed (the one that gives the fewest
    groups, the first of those), the others fixed in each group."""
    if not fields:
        return [{"player": player, "action": kind}]
    names = [f for f, _ in fields]
    best: list[tuple[str, list[str], dict[str, Any], list[Any]]] | None = None
    for spread in names:
        others = [f for f in names if f != spread]
        found: dict[Any, tuple[str, list[str], dict[str, Any], list[Any]]] = {}
        for p in payloads:
            key: Any = tuple([p[f] for f in others])  # the other fields' values, in the fields' order
            try:
                g = found.get(key)
            except TypeError:  # a list among them: by its text
                key = repr(key)
                g = found.get(key)
            if g is None:
                g = found[key] = (spread, others, p, [])
            g[3].append(p[spread])
        if best is None or len(found) < len(best):
            best = list(found.values())
    assert best is not None
    types = dict(fields)
    out: list[dict[str, Any]] = []
    for spread, others, first, values in best:
        t = types[spread]
        out.append({"player": player, "action": kind, "field": spread,
                    "values": _ranges([encode_value(v, t, nt, players) for v in values]),
                    "with": {f: encode_value(first[f], types[f], nt, players) for f in others}})
    return out


def _ranges(values: list[Any]) -> list[Any]:
    """Whole numbers in runs of three or more with one step become {"from", "to", "step"}."""
    if len(values) < 3 or not all(type(v) is int for v in values):
        return values
    xs = sorted(set(values))
    out: list[Any] = []
    i = 0
    while i < len(xs):
        j = i + 1
        if j < len(xs):
            step = xs[j] - xs[i]
            while j + 1 < len(xs) and xs[j + 1] - xs[j] == step:
                j += 1
            if j - i >= 2:
                out.append({"from": xs[i], "to": xs[j], "step": step})
                i = j + 1
                continue
        out.append(xs[i])
        i += 1
    return out


def _show(v: Any) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return str(v)


def _value_text(v: Any, lang: str) -> str:
    if isinstance(v, dict) and "from" in v:
        return f"{v['from']}-{v['to']}" + (f" ({WORDS['step'][lang]} {v['step']})" if v["step"] != 1 else "")
    return _show(v)


def _group_text(g: dict[str, Any], spelled: frozenset[str], lang: str) -> str:
    # Every group names its player, as the record does: one way for every seat, the violator's included.
    who = f"{g['player']} " if g.get("player") else ""
    if "result" in g:
        return f"{who}{g['result']} {_show(g['value'])}"
    if g.get("drawn"):
        return f"{who}{g['action']} ({WORDS['drawn'][lang]})"
    out = f"{who}{g['action']}"
    if "field" in g:
        out += " " + ", ".join(_value_text(v, lang) for v in g["values"])
        # A flag not raised is left out, as in a record (unless the refused action raised it); other fixed
        # fields are shown.
        extra = [f"{k}={_show(v)}" for k, v in g["with"].items() if v is not False or k in spelled]
        if extra:
            out += " " + " ".join(extra)
    return out
