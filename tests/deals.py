"""Fixed, fully played deals shared by the scoring tests: every card and every trick chosen."""

from __future__ import annotations

from dataclasses import dataclass

from support import Table


@dataclass(frozen=True)
class Deal:
    """Fixed hands for dealer 0 with seat 1 (the forced hundred) as declarer, and every trick in play order."""

    hands: dict[int, str]
    talon: str
    give: tuple[str, str]
    tricks: tuple[str, ...]


# Seat 1 leads every ace and ten and takes all 120 points; seats 0 and 2 take nothing.
SWEEP = Deal(
    hands={0: "KS QS JS KC QC JC 9D", 1: "AS 10S AC 10C AD 10D AH", 2: "KD QD JD KH QH JH 9H"},
    talon="10H 9S 9C",
    give=("9S", "9C"),
    tricks=("AS 9H 9S", "10S JH JS", "AC 9C JC", "10C QH QC", "AD JD 9D", "10D QD QS", "AH KH KS", "10H KD KC"),
)

# Seat 0 wins the first trick with AS (11 points) and nothing else; the declarer takes 109, seat 2 nothing.
SPLIT = Deal(
    hands={0: "10S JS QS KS AS JH QH", 1: "9S AC 10C AD 10D AH 10H", 2: "9D KC QC JC KD QD JD"},
    talon="KH 9C 9H",
    give=("9C", "9H"),
    tricks=("9S 9D AS", "JH AH 9H", "10H KC QH", "KH QC 9C", "AC JC 10S", "10C KD KS", "AD QD QS", "10D JD JS"),
)

# Needs first_lead="dealer": seat 0 leads 9S and wins a trick of three nines (one trick, no points), then loses
# everything; the declarer takes all 120 points, seat 2 neither a trick nor a point.
NINES = Deal(
    hands={0: "9S 10S JS QS KS AS JH", 1: "9C AC 10C AD 10D AH 10H", 2: "9D KC QC JC KD QD JD"},
    talon="KH QH 9H",
    give=("QH", "9H"),
    tricks=("9S 9C 9D", "JH AH 9H", "10H KC QH", "KH QC AS", "AC JC 10S", "10C KD KS", "AD QD QS", "10D JD JS"),
)

# The declarer holds only nines and jacks and takes no trick at all; seat 2 takes all 120, seat 0 nothing.
BARE = Deal(
    hands={0: "AD 10D KD AH 10H KH QH", 1: "9S JS 9C JC 9D JD 9H", 2: "AS 10S KS QS AC 10C KC"},
    talon="JH QD QC",
    give=("QD", "QC"),
    tricks=("9S AS QD", "10S KD JS", "KS 10D 9C", "QS AD JC", "AC QH 9D", "10C KH JD", "KC 10H 9H", "QC AH JH"),
)

# Seat 1 takes every trick and declares the hearts marriage: 120 card points + 100 = 220.
HEARTS = Deal(
    hands={0: "JH 9H KS QS JS KC QC", 1: "AH 10H KH QH AS 10S AC", 2: "JC AD 10D KD QD JD 9D"},
    talon="10C 9S 9C",
    give=("9S", "9C"),
    tricks=("AH 9D 9H", "KH! 9C JH", "QH JD 9S", "10H QD JS", "AS KD QS", "10S 10D KS", "AC JC QC", "10C AD KC"),
)


def play_deal(deal: Deal, contract: int | None = None, **kw) -> Table:
    """Seat 1 wins the auction (or gets the auto talon), passes the cards, announces and every trick is played."""
    t = Table(hands=deal.hands, talon=deal.talon, **kw)
    t.to_play(1, give=deal.give, contract=contract)
    for trick in deal.tricks:
        t.play(*trick.split())
    return t


def concede(t: Table | None = None, **kw) -> Table:
    """Seat 1 plays the forced hundred, takes the talon and concedes: -100 for him, +60 to each opponent."""
    if t is None:
        t = Table(**kw)
    else:
        t.deal({})
    t.win_auction(1)
    t.act(1, "take-talon").act(1, "concede")
    return t


def marks(t: Table, what: str) -> list[int]:
    return [s for w, s in t.last["marks"] if w == what]
