"""The state of a game: every variable the rules declare, plus the engine's own.

The interpreter knows seats, zones (lists of cards), phases and turns in general
terms; which variables exist, and what they mean, comes from the rule files.
"""

from __future__ import annotations

import copy
import marshal
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import RuleRuntimeError
from .lang.compiler import ENGINE_VARS

if TYPE_CHECKING:
    from .lang.declarations import Teams
    from .ruleset import Ruleset


@dataclass(frozen=True, slots=True, eq=False)
class Position:
    """A game's whole position, frozen: every variable, the score sheet, the marks of the deal, the rule
    that last set each blamed variable, and the random generator's state.

    Made by :meth:`State.snapshot` and turned back into a live state by :meth:`State.at`, as often as
    wanted: a replay keeps one at each deal's start, and a what-if tries something on a copy. The
    variables are kept as bytes (marshalled, see :func:`_frozen`; in memory only, never read from outside),
    which is both the cheapest faithful copy of nested lists and what makes the value immutable. The sheet's
    rows are shared, not copied: a row is never changed once written (:meth:`State.end_deal` writes a new
    one each deal).
    """

    rules: Ruleset
    state: bytes
    sheet: tuple[dict[str, Any], ...]

    @property
    def values(self) -> dict[str, Any]:
        """A fresh copy of the position's variables, to read (changing it changes nothing)."""
        return _thawed(self.state)[0]  # type: ignore[no-any-return]

    def with_values(self, changes: Mapping[str, Any]) -> Position:
        """The same position with some variables set otherwise (a what-if); unknown names are refused."""
        v, *rest = _thawed(self.state)
        unknown = sorted(set(changes) - set(v))
        if unknown:
            raise KeyError(f"no state variable {', '.join(map(repr, unknown))}")
        v.update(copy.deepcopy(dict(changes)))
        return Position(self.rules, _frozen((v, *rest)), self.sheet)


def _frozen(value: Any) -> bytes:
    """A state's values as bytes: by marshal, which writes and reads the plain values a state holds (numbers,
    text, lists, dicts, tuples) in two thirds of pickle's time and keeps a list shared between two variables
    shared; by pickle for anything else. The first byte says which."""
    try:
        return b"m" + marshal.dumps(value, 4)
    except ValueError:  # a value of a kind marshal does not write
        return b"p" + pickle.dumps(value, 5)


def _thawed(data: bytes) -> Any:
    body = memoryview(data)[1:]
    return marshal.loads(body) if data[:1] == b"m" else pickle.loads(body)


class State:
    __slots__ = ("_rng", "_seed", "marks", "rs", "set_by", "sheet", "v")

    def __init__(self, rs: Ruleset, n_seats: int, dealer: int, seed: int | None) -> None:
        self.rs = rs
        # Seeded on first use: a replayed record takes its cards from the record and never draws.
        self._rng: random.Random | None = None
        self._seed = seed
        self.sheet: list[dict[str, Any]] = []
        self.marks: list[tuple[str, int]] = []
        # The rule that last assigned each of the engine's blamed variables (turn, phase, dealer, game_over).
        self.set_by: dict[str, str] = {}
        v: dict[str, Any] = {
            "seats": list(range(n_seats)),
            "n_seats": n_seats,
            "phase": "",  # the rules' start logic names the first phase
            "turn": None,
            "dealer": dealer,
            "deal_no": 0,
            "game_over": False,
            "winner": None,
            "teams": rs.team_of_seats(n_seats),
        }
        self.v = v
        self._fill("*")

    @property
    def rng(self) -> random.Random:
        """The game's seeded generator, for the rules' chance logic (shuffling, drawing)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    def _fill(self, lifetime: str) -> None:
        """Start afresh every variable of ``lifetime`` ("*": all of them)."""
        plan = self.rs.derived(_fill_plans).get(lifetime)
        if plan is None:
            return
        plain, seat_values, lists, seat_lists = plan
        v = self.v
        n = v["n_seats"]
        v.update(plain)
        for name, init in seat_values:
            v[name] = [init] * n
        for name, init in lists:
            v[name] = list(init)
        for name, init in seat_lists:
            v[name] = [list(init) for _ in range(n)]

    # Called from rule logic through the standard library.
    def reset(self, lifetime: str) -> None:
        self._fill(lifetime)

    def mark(self, what: str, seat: int) -> None:
        self.marks.append((what, seat))

    def end_deal(self) -> None:
        row: dict[str, Any] = {"deal": self.v["deal_no"], "dealer": self.v["dealer"]}
        v = self.v
        teams = self.rs.teams
        if teams is not None and teams.sharing:
            self._check_shared(teams)
        for d in self.rs.recorded:
            x = v[d.name]
            # Recorded values are numbers, flags or flat lists of them: a shallow copy suffices.
            row[d.name] = list(x) if type(x) is list else x
        row["marks"] = [[w, s] for w, s in self.marks]
        self.sheet.append(row)
        self.marks = []
        self.v["deal_no"] += 1

    def _check_shared(self, teams: Teams) -> None:
        # What a team holds as one is the rules' promise (teams.shared): a deal that ends with partners
        # apart is a fault of the rules, named here rather than shown as two scores of one team.
        for name in teams.sharing:
            values = self.v[name]
            for group in teams.groups():
                if any(values[s] != values[group[0]] for s in group):
                    raise RuleRuntimeError(
                        f"rule {teams.rule_id}: the team of seats {', '.join(str(s) for s in group)} shares "
                        f"{name!r}, but the deal ends with {[values[s] for s in group]}", teams.where)

    # ------------------------------------------------------------------ positions
    def snapshot(self) -> Position:
        """This state as a frozen :class:`Position`."""
        rng = self._rng.getstate() if self._rng is not None else None
        return Position(self.rs, _frozen((self.v, self.marks, self.set_by, rng, self._seed)), tuple(self.sheet))

    @classmethod
    def at(cls, pos: Position) -> State:
        """A live state in position ``pos`` (no rule runs)."""
        st = cls.__new__(cls)
        st.rs = pos.rules
        st.v, st.marks, st.set_by, rng, st._seed = _thawed(pos.state)
        st._rng = None
        if rng is not None:
            st._rng = random.Random()
            st._rng.setstate(rng)
        st.sheet = list(pos.sheet)
        return st

    # ------------------------------------------------------------------ serialisation
    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.rs.name,
            "vars": copy.deepcopy(self.v),
            "sheet": copy.deepcopy(self.sheet),
            "marks": [[w, s] for w, s in self.marks],
            "rng": _rng_to_json(self.rng),
            "set_by": dict(self.set_by),
        }

    @classmethod
    def from_json(cls, rs: Ruleset, data: dict[str, Any]) -> State:
        v = data["vars"]
        st = cls(rs, int(v["n_seats"]), int(v["dealer"]), None)
        expected = set(ENGINE_VARS) | set(rs.vars)
        if set(v) != expected:
            missing, extra = expected - set(v), set(v) - expected
            raise ValueError("state does not match the ruleset: "
                             + (f"missing {sorted(missing)} " if missing else "")
                             + (f"unknown {sorted(extra)}" if extra else ""))
        st.v = copy.deepcopy(v)
        st.sheet = copy.deepcopy(data.get("sheet", []))
        st.marks = [(str(w), int(s)) for w, s in data.get("marks", [])]
        st.set_by = {str(k): str(r) for k, r in (data.get("set_by") or {}).items()}
        if "rng" in data:
            st.rng.setstate(_rng_from_json(data["rng"]))
        return st

    def cards_everywhere(self) -> list[int]:
        """Every card in every zone, for the conservation check."""
        out: list[int] = []
        for d in self.rs.vars.values():
            if d.zone:
                val = self.v[d.name]
                if d.scope == "seat":
                    for z in val:
                        out.extend(z)
                else:
                    out.extend(val)
        return out


def _rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_json(data: list[Any]) -> tuple[Any, ...]:
    version, internal, gauss = data
    return (version, tuple(internal), gauss)


_FillPlan = tuple[dict[str, Any], list[tuple[str, Any]], list[tuple[str, Any]], list[tuple[str, Any]]]


def _fill_plans(rs: Ruleset) -> dict[str, _FillPlan]:
    """Each lifetime's variables sorted once by how they start: plain values (set in one update),
    one value per seat, a fresh list, a fresh list per seat. A deal resets some thirty of them."""
    plans: dict[str, _FillPlan] = {}
    for lifetime, entries in rs.layout.items():
        plain = {name: init for name, per_seat, init, copied in entries if not per_seat and not copied}
        plans[lifetime] = (plain,
                          [(name, init) for name, per_seat, init, copied in entries if per_seat and not copied],
                          [(name, init) for name, per_seat, init, copied in entries if not per_seat and copied],
                          [(name, init) for name, per_seat, init, copied in entries if per_seat and copied])
    return plans
