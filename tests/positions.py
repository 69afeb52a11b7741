"""Positions and helpers that several rule tests share: hands, talons, plays, and the tables they make."""

from __future__ import annotations

import random

from support import Table, ruleset

from oracle import Action, Game, load_ruleset, play_random
from oracle.cards import notation

TALON = "9D JC JD"

GIVE = ("JC", "JD")

NT = notation(ruleset())

PLAY_99 = ["AS", "AD", "10C", "10S", "10D", "KC", "KS", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
           "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]

OPENING = ("AS", "9S", "10S")  # trick 1: seat 1 wins, 21 card points

TALON_D = "9D JC 9H"

GIVE_D = ("JC", "9H")

# The talon tests' deal: seat 1 at the hundred, with all the spades.
C_HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}

C_TALON = "9D JC JD"

PLAY_113 = ["AS", "AD", "AC", "10S", "10D", "10C", "KS", "KD", "KC", "QS", "QD", "QC", "JS", "KH", "AH",
            "9S", "JD", "10H", "9C", "9H", "JC", "QH", "9D", "JH"]

# Seat 1 (dealer 0, so seat 1 holds the forced 100) plays with all the spades; see tests/spec/test_talon.py.
HANDS = {0: "AC 10C KC QC QH AH 10H", 1: "AS 10S KS QS JS 9S 9C", 2: "QD KH AD 10D KD JH 9H"}

# As PLAY_99, but the second trick declares the spades marriage (40): the declarer has 99 + 40 = 139.
PLAY_139 = ["AS", "AD", "10C", "KS!", "10D", "KC", "10S", "KD", "QC", "QS", "JD", "JC", "JS", "JH", "AH",
            "9S", "9H", "10H", "9C", "QD", "AC", "QH", "9D", "KH"]

BLIND120 = "variant.dark.dealer-blind-120"

BLIND = "variant.dark.blind-bidding"

GOLDEN = "variant.golden-round"

# Dealer 0, so seat 1 holds the compulsory hundred and seat 2 speaks first. Seat 1 holds the spades
# marriage and, with the talon, three aces (AS AC AH).
R_HANDS = {0: "10C KC QC QH 10H 9H JH", 1: "AS 10S KS QS JS 9S AC", 2: "QD KH AD 10D KD 9C 9D"}

R_TALON = "AH JC JD"

PACK = list(range(24))

TRADING = "variant.trading-three"


def played(moves=PLAY_99, contract=None, scores=None, hands=HANDS, talon=TALON, give=GIVE, **params):
    """Seat 1 wins the hundred, takes the talon, gives two cards, announces, and the deal is played out."""
    t = Table(hands=hands, talon=talon, dealer=0, scores=scores, **params)
    t.to_play(1, give=give, contract=contract)
    t.play(*moves)
    assert t.game.phase == "dealing", "the deal should be over"
    return t


def c(name: str) -> int:
    card = NT.parse(name)
    assert card is not None, name
    return card


def deal_action(g: Game, payload: dict) -> Action:
    return Action("deal", g.v["dealer"], payload)


def rejection(t, seat, card, marriage=False):
    rej = t.rejects(seat, "play", card=card, marriage=marriage)
    return rej.rule_id, rej.reason


def rs(*overlays, **params):
    return ruleset("classic", overlays=list(overlays), **params)


def rules(*overlays, **params):
    return ruleset("classic", list(overlays), **params)


def played_c(rs, moves, contract=100):
    t = Table(rs, hands=C_HANDS, talon=C_TALON, dealer=0)
    t.to_play(1, give=("JC", "JD"), contract=contract)
    t.play(*moves)
    assert t.game.phase == "dealing"
    return t


def auction_passes(t: Table) -> Table:
    """Everybody passes, so the forced hundred (seat 1 with dealer 0) wins."""
    while t.game.phase == "bidding":
        t.act(t.v["turn"], "pass")
    return t


def give_and_announce(t: Table, seat: int = 1, give=GIVE, contract=None) -> Table:
    """After take-talon: one card to each opponent, then the contract."""
    for to, card in zip([s for s in t.v["active"] if s != seat], give, strict=True):
        t.act(seat, "give", card=card, to=to)
    t.act(seat, "announce", value=contract or t.v["contract"])
    return t


def suit(t: Table, name: str) -> int:
    return t.rs.deck.suits.index(name)


def random_games(name: str, seeds=range(3), **params) -> list[Game]:
    rs = load_ruleset(name, params=params or None)
    games = []
    for s in seeds:
        g = Game(rs, seed=s)
        play_random(g, random.Random(s), hinted=True, max_deals=15)
        assert sorted(g.st.cards_everywhere()) == list(range(24))
        games.append(g)
    return games


def reason(t, seat, kind, **payload):
    rej = t.rejects(seat, kind, **payload)
    return rej.rule_id, rej.reason


def allowed(t, seat, kind, **payload):
    return t.game.check(t.action(seat, kind, **payload)) is None


def conceding(rs, scores=None, state=None, contract=None, concede=True):
    """Seat 1 wins the auction (at the hundred, or at ``contract`` after seat 2 opens), takes the talon, concedes."""
    t = Table(rs, hands=R_HANDS, talon=R_TALON, dealer=0, scores=scores, state=state)
    if contract is None:
        t.win_auction(1)
    else:
        t.act(2, "bid", value=105).act(0, "pass").act(1, "bid", value=contract).act(2, "pass")
    t.act(1, "take-talon")
    if concede:
        t.act(1, "concede")
    return t


def played_through(moves=PLAY_99, scores=None, **params) -> Table:
    """The whole deal of HANDS and TALON played with ``moves``, whatever follows it (the game may end)."""
    t = Table(hands=HANDS, talon=TALON, dealer=0, scores=scores, **params)
    t.to_play(1, give=("JC", "JD"))
    t.play(*moves)
    return t


def legal_cards(t: Table, seat: int, marriage: bool) -> set[str]:
    """The cards ``seat`` may legally play now, declaring a marriage with them or not."""
    prefix = f"{seat} play card="
    flag = f"={marriage}"
    return {a[len(prefix):].split()[0] for a in t.legal(seat) if a.startswith(prefix) and a.endswith(flag)}


def cut_three_nines(start: dict | None = None, **params) -> Game:
    """A modelled cut in which every cutter shows a nine at the bottom, so the third nine costs the penalty;
    ``start`` sets state variables first."""
    rs = ruleset(cut_modelled=True, **params)
    nt = notation(rs)
    g = Game(rs, dealer=0, seed=0)
    if start:
        g = Game.at(g.snapshot().with_values(start))
    g.apply(Action("shuffle", 0, {"order": sorted(g.v["stock"])}))
    for i in range(3):
        stock = g.v["stock"]
        at = next(k + 1 for k, c in enumerate(stock) if nt.name(c).startswith("9") and k + 1 < len(stock))
        g.apply(Action("cut", g.v["turn"], {"at": at}))
        if i < 2:
            g.apply(Action("recut", 0, {}))
    return g
