"""Scenario helpers for rule tests: deal chosen cards, act by card names, read rejections."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from oracle import Action, Game, IllegalAction, Rejection, load_ruleset
from oracle.cards import notation
from oracle.records import decode_value
from oracle.ruleset import Ruleset, rules_root


def sources_dir() -> Path | None:
    """The source texts, which live beside the repository (``../shared/sources/`` in CI; any ancestor
    folder's ``shared/sources`` here), or where $THOUSAND_SOURCES says; None when they are not found."""
    env = os.environ.get("THOUSAND_SOURCES")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for folder in rules_root().resolve().parents:
        candidate = folder / "shared" / "sources"
        if candidate.is_dir():
            return candidate
    return None


def ruleset(name: str = "classic", overlays: list[str] | None = None, **params: Any) -> Ruleset:
    return load_ruleset(name, overlays, params or None)


class Table:
    """A game set up from chosen hands, driven by card names.

    Cards not named are dealt in pack order to fill the hands and the talon, so a
    test names only the cards it is about.
    """

    def __init__(self, rs: Ruleset | None = None, hands: dict[int, str] | None = None, talon: str = "",
                 dealer: int = 0, scores: list[int] | None = None, state: dict[str, Any] | None = None,
                 **params: Any) -> None:
        self.rs = rs or ruleset(**params)
        self.nt = notation(self.rs)
        game = Game(self.rs, dealer=dealer, seed=0)
        # A position set up by hand is a what-if of the game's start: a new position, not the game changed.
        changes = dict(state or {}) | ({"score": list(scores)} if scores is not None else {})
        self.game = Game.at(game.snapshot().with_values(changes)) if changes else game
        self.deal(hands or {}, talon)

    # ---------------------------------------------------------------- dealing
    def cards(self, text: str) -> list[int]:
        out = []
        for word in text.split():
            c = self.nt.parse(word)
            assert c is not None, f"not a card: {word}"
            out.append(c)
        return out

    def deal(self, hands: dict[int, str], talon: str = "") -> None:
        g = self.game
        while g.phase == "cut":
            g.apply(g.sample())  # only in rulesets that model the cut; tests here use plain deals
        size = self.rs.param("hand_size")
        tsize = self.rs.param("talon_size")
        n = g.v["n_seats"]
        active = g.v["active"]
        chosen = {s: self.cards(h) for s, h in hands.items()}
        t_cards = self.cards(talon)
        used = set(t_cards) | {c for cs in chosen.values() for c in cs}
        spare = [c for c in sorted(g.v["stock"]) if c not in used]
        out = []
        for s in range(n):
            want = size if s in active else 0
            h = list(chosen.get(s, []))
            while len(h) < want:
                h.append(spare.pop(0))
            out.append(h)
        while len(t_cards) < tsize:
            t_cards.append(spare.pop(0))
        g.apply(Action("deal", g.v["dealer"], {"hands": out, "talon_cards": t_cards}))

    # ---------------------------------------------------------------- acting
    def action(self, seat: int, kind: str, **payload: Any) -> Action:
        decl = self.rs.actions[kind]
        fields = dict(decl.fields)
        if "marriage" in fields:
            payload.setdefault("marriage", False)
        internal = {f: decode_value(v, fields[f], self.nt, self.game.v["n_seats"], f) if f in fields else v
                    for f, v in payload.items()}
        return Action(kind, seat, internal)

    def act(self, seat: int, kind: str, **payload: Any) -> Table:
        self.game.apply(self.action(seat, kind, **payload))
        return self

    def rejects(self, seat: int, kind: str, **payload: Any) -> Rejection:
        rej = self.game.check(self.action(seat, kind, **payload))
        assert rej is not None, f"{kind} {payload} by seat {seat} was legal"
        try:
            self.game.apply(self.action(seat, kind, **payload))
        except IllegalAction as exc:
            assert exc.rejection == rej
        else:  # pragma: no cover
            raise AssertionError("check() and apply() disagree")
        return rej

    def play(self, *moves: str) -> Table:
        """Play cards in turn order: each move is 'KH' or 'KH!' (declaring a marriage)."""
        for m in moves:
            seat = self.game.v["turn"]
            self.act(seat, "play", card=m.rstrip("!"), marriage=m.endswith("!"))
        return self

    def legal(self, seat: int | None = None) -> list[str]:
        out = []
        for a in self.game.legal_actions(seat):
            parts = [str(a.seat), a.kind]
            for f, t in self.rs.actions[a.kind].fields:
                v = a.payload[f]
                if t == "card":
                    v = self.nt.name(v)
                parts.append(f"{f}={v}")
            out.append(" ".join(parts))
        return out

    def hand(self, seat: int) -> list[str]:
        return sorted(self.nt.name(c) for c in self.game.v["hand"][seat])

    def name(self, card: int) -> str:
        return self.nt.name(card)

    # ---------------------------------------------------------------- shortcuts
    def win_auction(self, seat: int, bid: int | None = None) -> Table:
        """Run the auction so that ``seat`` wins it (at ``bid``, or at the forced bid)."""
        g = self.game
        while g.phase == "bidding":
            t = g.v["turn"]
            if t == seat and bid is not None and g.v["bid"] < bid:
                self.act(t, "bid", value=bid)
            elif t == seat and g.v["bidder"] != seat:
                self.act(t, "bid", value=g.v["bid"] + self.rs.param("bid_step"))
            else:
                self.act(t, "pass")
        assert g.v["declarer"] == seat, f"seat {g.v['declarer']} won the auction"
        return self

    def to_play(self, seat: int, bid: int | None = None, give: tuple[str, str] | None = None,
                contract: int | None = None) -> Table:
        """Auction won by ``seat``, talon taken, two cards given, contract announced."""
        self.win_auction(seat, bid)
        self.act(seat, "take-talon")
        opponents = [s for s in self.game.v["active"] if s != seat]
        cards = list(give) if give else [self.name(c) for c in sorted(self.game.v["hand"][seat])[:2]]
        for to, card in zip(opponents, cards, strict=False):
            self.act(seat, "give", card=card, to=to)
        self.act(seat, "announce", value=contract or self.game.v["contract"])
        return self

    @property
    def v(self) -> dict[str, Any]:
        return self.game.v

    @property
    def last(self) -> dict[str, Any]:
        return self.game.sheet[-1]
