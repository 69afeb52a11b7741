"""Places in a game record, said the way people count: "deal 1, action 7, seat 2 (Anna)".

A record's data counts from 0 (``deals[0].actions[6]``), people count from 1. Every message that
names a deal, an action, a seat or an entry of a list goes through here, so the command line, the
validator's verdicts and the schema errors use one numbering. The line and column of the place
come with the message separately (see ``errors.Location``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_WORDS: dict[str, dict[str, str]] = {
    "deal": {"en": "deal", "ru": "партия"},
    "action": {"en": "action", "ru": "ход"},
    "seat": {"en": "seat", "ru": "игрок"},
    "card": {"en": "card", "ru": "карта"},
    "hand": {"en": "hand", "ru": "рука"},
    "item": {"en": "item", "ru": "элемент"},
    "player": {"en": "player", "ru": "игрок"},
    "overlay": {"en": "overlay", "ru": "дополнение"},
    "header": {"en": "the header", "ru": "заголовок"},
}

# What one entry of a list is called, by the key that holds the list.
_ENTRY: dict[str, str] = {
    "deals": "deal", "actions": "action", "players": "player", "overlays": "overlay", "hands": "hand",
    "score": "seat", "state": "seat", "talon_cards": "card", "pack": "card", "cards": "card",
}
# Lists whose entry's name says which list it is ("deal 1", not "deals, deal 1").
_SAID_BY_ENTRY = frozenset({"deals", "actions", "players", "overlays", "hands"})


def word(key: str, lang: str = "en") -> str:
    return _WORDS[key][lang]


def place(path: Sequence[Any], lang: str = "en") -> str:
    """A path into a record (keys and 0-based indices) as people say it.

    ``("deals", 0, "actions", 6, "card")`` → ``"deal 1, action 7, card"``;
    ``("deals", 2, "result", "score", 1)`` → ``"deal 3, result, score, seat 2"``.
    """
    parts: list[str] = []
    holder: str | None = None  # the key of the list an index points into
    for key in path:
        if isinstance(key, int) and not isinstance(key, bool):
            kind = _ENTRY.get(holder or "", "item")
            if holder in _SAID_BY_ENTRY and parts and parts[-1] == holder:
                parts.pop()  # "deals, deal 1" would say the same thing twice
            parts.append(f"{word(kind, lang)} {key + 1}")
            holder = "cards" if kind == "hand" else None  # a hand is a list of cards
            continue
        # A value under a deal's result or the start state is one per player when it is a list.
        holder = "score" if parts and parts[-1] in ("result", "state") else str(key)
        parts.append(str(key))
    return ", ".join(parts) if parts else word("header", lang)


def entry(where: str, element_type: str, index: int, lang: str = "en") -> str:
    """One more step into a list value being read: ``entry("deal 1, talon_cards", "card", 2)`` →
    ``"deal 1, talon_cards, card 3"``."""
    kind = "card" if element_type == "card" else "hand" if element_type == "list[card]" else "item"
    return f"{where}, {word(kind, lang)} {index + 1}"


def seat(index: int, name: str | None = None, lang: str = "en") -> str:
    """A seat as people say it: ``seat(1, "Anna")`` → ``"seat 2 (Anna)"``."""
    return f"{word('seat', lang)} {index + 1}" + (f" ({name})" if name else "")


def in_game(deal: int | None, action: int | None, seat_index: int | None, seat_name: str | None,
            lang: str = "en") -> str:
    """Where a verdict points, from 1-based deal and action numbers and a 0-based seat index."""
    where = []
    if deal is not None:
        where.append(f"{word('deal', lang)} {deal}")
    if action is not None:
        where.append(f"{word('action', lang)} {action}")
    if seat_index is not None:
        where.append(seat(seat_index, seat_name, lang))
    return ", ".join(where)
