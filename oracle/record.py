"""Game records: turning a played game into a record a person can read, and back.

Payload values are written by their declared type: cards in the rules' notation
(``10H``, ``QS``), seats as numbers, suits and ranks by their letters. Chance
actions (the shuffle, the deal) are written at the level of the deal under their
payload field names, so a hand-written record reads ``hands:`` and ``talon_cards:``.
"""

from __future__ import annotations

from typing import Any

from .cards import Notation, notation
from .engine import Action, Game
from .lang import types as T
from .places import entry as list_entry
from .ruleset import ActionDecl, Ruleset

FORMAT = "thousand-record"
VERSION = 1


def encode_value(value: Any, t: str, nt: Notation, players: list[str] | None = None) -> Any:
    b = T.base(T.normalize(t))
    if value is None:
        return None
    if b == "seat" and players is not None:
        return players[value]
    if b == "card":
        return nt.name(value)
    if b == "suit":
        return nt.suit_name(value)
    if b == "rank":
        return nt.rank_name(value)
    if b.startswith("list["):
        return [encode_value(x, T.elem(b), nt, players) for x in value]
    return value


def encode_action(rs: Ruleset, nt: Notation, action: Action, players: list[str] | None = None) -> dict[str, Any]:
    decl = rs.actions[action.kind]
    out: dict[str, Any] = {"seat": players[action.seat] if players else action.seat, "action": action.kind}
    for f, t in decl.fields:
        out[f] = encode_value(action.payload[f], t, nt, players)
    return out


def is_chance(decl: ActionDecl) -> bool:
    return decl.sample is not None and not decl.choices


def sheet_value(rs: Ruleset, nt: Notation, key: str, value: Any, players: list[str]) -> Any:
    """A score-sheet value as written in a record: cards, suits and seats by name."""
    if key == "marks":
        return [[what, players[seat]] for what, seat in value]
    decl = rs.vars.get(key)
    if decl is None:
        return value
    if decl.scope == "seat":
        return [encode_value(x, decl.type, nt, players) for x in value]
    return encode_value(value, decl.type, nt, players)


class Recorder:
    """Collects a game's actions into a record while it is played."""

    def __init__(self, game: Game, players: list[str] | None = None, seed: int | None = None,
                 overlays: list[str] | None = None, params: dict[str, Any] | None = None) -> None:
        self.game = game
        self.rs = game.rs
        self.nt = notation(game.rs)
        n = game.v["n_seats"]
        self.record: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": game.rs.name,
            "overlays": list(overlays or []),
            "params": dict(params or {}),
            "players": list(players or [f"P{i + 1}" for i in range(n)]),
            "first_dealer": (list(players) if players else [f"P{i + 1}" for i in range(n)])[game.v["dealer"]],
        }
        if seed is not None:
            self.record["seed"] = seed
        self.record["deals"] = []
        self._deal_no = -1

    def __call__(self, game: Game, action: Action) -> None:
        deals = self.record["deals"]
        if game.v["deal_no"] != self._deal_no:
            self._deal_no = game.v["deal_no"]
            deals.append({"dealer": self.record["players"][game.v["dealer"]], "actions": []})
        entry = deals[-1]
        decl = self.rs.actions[action.kind]
        players = self.record["players"]
        if is_chance(decl):
            actions = entry.pop("actions")
            for f, t in decl.fields:
                entry[f] = encode_value(action.payload[f], t, self.nt, players)
            entry["actions"] = actions
        else:
            entry["actions"].append(encode_action(self.rs, self.nt, action, players))

    def _sheet_value(self, key: str, value: Any, players: list[str]) -> Any:
        return sheet_value(self.rs, self.nt, key, value, players)

    def finish(self) -> dict[str, Any]:
        """Attach the score sheet to the deals and the game's result to the record."""
        players = self.record["players"]
        for entry, row in zip(self.record["deals"], self.game.sheet, strict=False):
            entry["result"] = {k: self._sheet_value(k, val, players) for k, val in row.items()
                               if k not in ("deal", "dealer")}
        v = self.game.v
        self.record["result"] = {"finished": bool(v["game_over"]),
                                 "winner": players[v["winner"]] if v["winner"] is not None else None,
                                 "score": list(v.get("score", []))}
        return self.record


def decode_value(value: Any, t: str, nt: Notation, n_seats: int, where: str) -> Any:
    """Read one payload value of declared type ``t``; raise ValueError naming ``where``."""
    b = T.base(T.normalize(t))
    if value is None:
        if T.nullable(t):
            return None
        raise ValueError(f"{where}: a value is required")
    if b == "card":
        card = nt.parse(value) if isinstance(value, str) else None
        if card is None:
            raise ValueError(f"{where}: {value!r} is not a card (write rank then suit, e.g. 10H or QS)")
        return card
    if b == "suit":
        if isinstance(value, str) and value.upper() in [s.upper() for s in nt.suits]:
            return [s.upper() for s in nt.suits].index(value.upper())
        raise ValueError(f"{where}: {value!r} is not a suit ({', '.join(nt.suits)})")
    if b == "rank":
        if isinstance(value, str) and value.upper() in [r.upper() for r in nt.ranks]:
            return [r.upper() for r in nt.ranks].index(value.upper())
        raise ValueError(f"{where}: {value!r} is not a rank ({', '.join(nt.ranks)})")
    if b.startswith("list["):
        if isinstance(value, str) and T.elem(b) == "card":
            value = value.split()
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list, not {value!r}")
        return [decode_value(x, T.elem(b), nt, n_seats, list_entry(where, T.elem(b), i)) for i, x in enumerate(value)]
    if b == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true or false, not {value!r}")
        return value
    if b in ("int", "seat"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{where}: expected a whole number, not {value!r}")
        if b == "seat" and not 0 <= value < n_seats:
            raise ValueError(f"{where}: there is no seat number {value}: a record numbers its seats from 0 "
                             f"(0 to {n_seats - 1} here), or names the players")
        return value
    return value
