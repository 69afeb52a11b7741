"""Writing and reading cards, by the notation the rules declare (deck.notation)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .ruleset import Ruleset

NOTATION_PARAMS = ("notation_ranks", "notation_ranks_alt", "notation_suits", "notation_suits_alt")


@dataclass(frozen=True)
class Notation:
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    lookup: dict[str, int]

    def name(self, card: int) -> str:
        n = len(self.ranks)
        return self.ranks[card % n] + self.suits[card // n]

    def parse(self, text: str) -> int | None:
        """The card a text names, or None; case and surrounding spaces do not matter."""
        return self.lookup.get(text.strip().upper())

    def suit_name(self, suit: int) -> str:
        return self.suits[suit]

    def rank_name(self, rank: int) -> str:
        return self.ranks[rank]

    def named(self, value: int, base_type: str) -> str | None:
        """A card, suit or rank value by its name (``base_type`` "card", "suit" or "rank"); None for
        any other type."""
        if base_type == "card":
            return self.name(value)
        if base_type == "suit":
            return self.suit_name(value)
        if base_type == "rank":
            return self.rank_name(value)
        return None


def notation(rs: Ruleset) -> Notation:
    """The ruleset's card notation (built once per ruleset)."""
    return rs.derived(_notation)


def _notation(rs: Ruleset) -> Notation:
    ranks = tuple(rs.param("notation_ranks"))
    suits = tuple(rs.param("notation_suits"))
    rank_alts = [ranks, tuple(rs.param("notation_ranks_alt"))]
    suit_alts = [suits, tuple(rs.param("notation_suits_alt"))]
    lookup: dict[str, int] = {}
    n = len(ranks)
    for r_names in rank_alts:
        for s_names in suit_alts:
            for s, sn in enumerate(s_names):
                for r, rn in enumerate(r_names):
                    lookup[(rn + sn).upper()] = s * n + r
    return Notation(ranks, suits, lookup)
