"""The codec between record values and rule values, in both directions, in one place.

Payload values are written by their declared type: cards in the rules' notation
(``10H``, ``QS``), seats as player names or numbers, suits and ranks by their letters.
Reading has a fast path for the common, well-formed values (a dictionary look-up per
card) and a careful path that explains what is wrong, at the value's position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..cards import Notation, notation
from ..engine import Action
from ..errors import InputError, Location
from ..lang import types as T
from ..lang.program import ActionDecl
from ..places import entry as list_entry
from ..places import place
from ..ruleset import Ruleset
from ..runs import EntryShape, FieldType

FORMAT = "thousand-record"
VERSION = 1
_MISS = object()  # a fast reader's "not the common case": take the careful path
WRITTEN_AS_IS = frozenset({"int", "int?", "bool", "bool?", "str", "str?"})  # types a record writes unchanged


def encode_value(value: Any, t: str, nt: Notation, players: list[str] | None = None) -> Any:
    b = T.base(T.normalize(t))
    if value is None:
        return None
    if b == "seat" and players is not None:
        return players[value]
    if b in ("card", "suit", "rank"):
        return nt.named(value, b)
    item = T.list_elem(b)
    if item is not None:
        return [encode_value(x, item, nt, players) for x in value]
    return value


def encode_action(rs: Ruleset, nt: Notation, action: Action, players: list[str] | None = None) -> dict[str, Any]:
    decl = rs.actions[action.kind]
    out: dict[str, Any] = {"seat": players[action.seat] if players else action.seat, "action": action.kind}
    for f, t in decl.fields:
        out[f] = encode_value(action.payload[f], t, nt, players)
    return out


def is_chance(decl: ActionDecl) -> bool:
    return decl.chance


def sheet_value(rs: Ruleset, nt: Notation, key: str, value: Any, players: list[str] | None) -> Any:
    """A score-sheet value as written in a record: cards, suits and seats by name (by number without players)."""
    if key == "marks":
        return [[what, players[seat] if players is not None else seat] for what, seat in value]
    decl = rs.vars.get(key)
    if decl is None:
        return value
    if decl.type in WRITTEN_AS_IS:  # numbers and flags: most of a score sheet
        return list(value) if decl.scope == "seat" else value
    if decl.scope == "seat":
        return [encode_value(x, decl.type, nt, players) for x in value]
    return encode_value(value, decl.type, nt, players)


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
    item = T.list_elem(b)
    if item is not None:
        if isinstance(value, str) and item == "card":
            value = value.split()
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list, not {value!r}")
        return [decode_value(x, item, nt, n_seats, list_entry(where, item, i)) for i, x in enumerate(value)]
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


class _Readers:
    """The fast readers of one ruleset's values (every type but seats, which depend on the players)."""

    def __init__(self, rs: Ruleset) -> None:
        lookup = notation(rs).lookup
        exact = lookup.get

        def card(v: Any) -> Any:
            return lookup.get(v.upper(), _MISS) if type(v) is str else _MISS

        def boolean(v: Any) -> Any:
            return v if type(v) is bool else _MISS

        def integer(v: Any) -> Any:
            return v if type(v) is int else _MISS

        def cards(v: Any) -> Any:
            if type(v) is str:
                v = v.split()
            if type(v) is not list:
                return _MISS
            try:  # cards written as the notation writes them, looked up in one pass
                out = list(map(exact, v))
            except TypeError:  # an item that cannot be a key (a list, a mapping): not a card
                return _MISS
            if None in out:  # lower case, or not a card
                out = [card(x) for x in v]
            return _MISS if _MISS in out else out

        def hands(v: Any) -> Any:
            if type(v) is not list:
                return _MISS
            out = [cards(x) for x in v]
            return _MISS if _MISS in out else out

        self.by_type: dict[str, Callable[[Any], Any]] = {"card": card, "bool": boolean, "int": integer,
                                                         "list[card]": cards, "list[list[card]]": hands}
        self.lookup = lookup
        # Per action: how many keys a complete entry has, and each field with the code of its type.
        self.plans: dict[str, tuple[int, tuple[tuple[str, int], ...]]] = {
            name: (len(d.fields) + 2, tuple((f, _CODES[t]) for f, t in d.fields))
            for name, d in rs.actions.items() if all(t in _CODES for _, t in d.fields)
        }
        # The same, for the runs the interpreter reads in line (oracle.runs): the actions of such types alone.
        self.shape = EntryShape("action", "seat", tuple(
            (name, tuple((f, _RUN_TYPES[t]) for f, t in d.fields))
            for name, d in rs.actions.items() if all(t in _RUN_TYPES for _, t in d.fields)))


# The payload types an action entry's fast path reads in line (anything else takes the careful path).
_CARD, _BOOL, _INT, _SEAT, _CARDS = range(5)
_CODES = {"card": _CARD, "bool": _BOOL, "int": _INT, "seat": _SEAT, "list[card]": _CARDS}
_RUN_TYPES = {"card": FieldType.CARD, "bool": FieldType.BOOL, "int": FieldType.INT, "seat": FieldType.SEAT}


# An action as the reader decodes it and the replay keeps it: (kind, seat, payload).
Parts = tuple[str, int, Mapping[str, Any]]


class Codec:
    """Reads one record's values for one ruleset and its players; errors are located by ``locate``."""

    def __init__(self, rs: Ruleset, nt: Notation, players: list[str], locate: Callable[..., Location]) -> None:
        self.rs = rs
        self.nt = nt
        self.players = players
        self.locate = locate
        names = {p: i for i, p in enumerate(players)}
        n = len(players)

        def seat(v: Any) -> Any:
            if type(v) is int:
                return v if 0 <= v < n else _MISS
            return names.get(v, _MISS) if type(v) is str else _MISS

        readers = rs.derived(_Readers)
        self._fast = {**readers.by_type, "seat": seat}
        self._seat_fast = seat
        self._names = names
        self._n = n
        self._plans = readers.plans
        self.card_of: dict[str, int] = readers.lookup  # a card by its spelling (upper case), for runs too
        self._cards = readers.by_type["list[card]"]
        self.shape = readers.shape
        # Seats as a run reads them in line (oracle.runs): by name or by number, in one lookup.
        self.seat_of: dict[Any, int] = {**{i: i for i in range(n)}, **names}

    def fast_parts(self, a: Any) -> Parts | None:
        """The action of a complete, well-formed entry as its parts (kind, seat, payload), ready for
        ``Game.try_apply_typed``, or None for the careful path.

        Every action of a record passes here, so the readers are written in line, by type code, and
        no :class:`Action` is made: most entries are applied in one step and only kept as these parts.
        """
        if type(a) is not dict:
            return None
        kind = a.get("action")
        if type(kind) is not str:
            return None
        plan = self._plans.get(kind)
        if plan is None or len(a) != plan[0]:
            return None
        seat = a.get("seat")  # the seat reader, in line: a player's name, or a number in range
        if type(seat) is str:
            seat = self._names.get(seat)
            if seat is None:
                return None
        elif type(seat) is not int or not 0 <= seat < self._n:
            return None
        lookup = self.card_of
        payload = {}
        for f, code in plan[1]:
            x = a.get(f, _MISS)
            if code == _CARD:
                if type(x) is not str:
                    return None
                got = lookup.get(x)
                if got is None:
                    got = lookup.get(x.upper())
                    if got is None:
                        return None
            elif code == _BOOL or code == _INT:
                if type(x) is not (bool if code == _BOOL else int):
                    return None
                got = x
            elif code == _SEAT:
                got = self._seat_fast(x)
                if got is _MISS:
                    return None
            else:
                got = self._cards(x)
                if got is _MISS:
                    return None
            payload[f] = got
        return kind, seat, payload

    def seat(self, value: Any, *path: Any) -> int:
        n = len(self.players)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise InputError(f"{place(path)}: a seat is a player's name or a number, not {value!r}",
                             self.locate(*path))
        if isinstance(value, int):
            if 0 <= value < n:
                return value
            raise InputError(f"{place(path)}: there is no seat number {value}: a record numbers its seats from 0 "
                             f"(0 to {n - 1} here), or names the players", self.locate(*path))
        if value in self.players:
            return self.players.index(value)
        raise InputError(f"{place(path)}: unknown player {value!r}; the players are {', '.join(self.players)}",
                         self.locate(*path))

    def value(self, v: Any, t: str, *path: Any) -> Any:
        fast = self._fast.get(t)
        if fast is not None:
            got = fast(v)
            if got is not _MISS:
                return got
        b = T.base(T.normalize(t))
        if b == "seat" and v is not None:
            return self.seat(v, *path)
        if b == "list[list[card]]" and isinstance(v, dict):
            # Hands may be written per player name: {Anna: [...], Boris: [...]}.
            out: list[Any] = [[] for _ in self.players]
            for who, cards in v.items():
                out[self.seat(who, *path, who)] = self.value(cards, "cards", *path, who)
            return out
        try:
            return decode_value(v, t, self.nt, len(self.players), place(path))
        except ValueError as exc:
            raise InputError(str(exc), self.locate(*path)) from None
