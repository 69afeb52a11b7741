"""Writing a record while a game is played: the game's actions and score sheet, as a person reads them.

Chance actions (the shuffle, the deal) are written at the level of the deal under their
payload field names, so a hand-written record reads ``hands:`` and ``talon_cards:``.
"""

from __future__ import annotations

from typing import Any

from ..cards import notation
from ..engine import Action, Game
from .codec import FORMAT, VERSION, encode_action, encode_value, is_chance, sheet_value


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
                                 "score": list(v[self.rs.sheet.total])}
        return self.record


