"""Validating a game record against a ruleset: every action, every recorded result.

The record is replayed through the interpreter exactly as a game is played:
each action is checked with ``Game.check`` and applied with ``Game.apply``. The
first violation (or every one, with ``all_errors``) is reported with its deal,
action, seat, rule, reason, the rule's source lines, and its place in the file.
A wrong recorded result is charged to the rule whose logic last decided that
value, found by replaying the deal with clause tracing.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from .cards import Notation, notation
from .engine import Action, Game
from .errors import InputError, Location, OracleError
from .lang import types as T
from .places import in_game, place
from .record import decode_value, encode_action, is_chance, sheet_value
from .ruleset import Ruleset, load_library, load_ruleset
from .sources import cite_lines
from .transcript import RecordFile

RECORD_RULE = "record"
_MISS = object()  # rejections about the record itself, not about a rule of the game


@dataclass
class Violation:
    deal: int | None  # 1-based
    action: int | None  # 1-based, within the deal
    seat: int | None
    seat_name: str | None
    what: str  # the action or value, as text
    rule: str
    reason: str
    message: str
    sources: list[dict[str, Any]]
    location: Location

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "action": self.action,
                "seat": None if self.seat is None else self.seat + 1, "player": self.seat_name,
                "what": self.what, "rule": self.rule, "reason": self.reason, "message": self.message,
                "sources": self.sources, "file": self.location.file, "line": self.location.line,
                "column": self.location.column}

    def format(self) -> str:
        where = in_game(self.deal, self.action, self.seat, self.seat_name)
        head = f"{self.location}: " + where + (": " if where else "") + self.what
        srcs = cite_lines(self.sources)
        out = f"{head}\n    rule {self.rule} [{self.reason}]: {self.message}"
        if srcs:
            out += f"\n    sources: {srcs}"
        return out


@dataclass
class Verdict:
    file: str
    valid: bool
    ruleset: str | None = None
    deals: int = 0
    actions: int = 0
    violations: list[Violation] = field(default_factory=list)
    error: InputError | None = None  # the record could not be read or understood
    finished: bool = False

    @property
    def exit_code(self) -> int:
        return 2 if self.error is not None else (0 if self.valid else 1)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "valid": self.valid, "ruleset": self.ruleset, "deals": self.deals,
                               "actions": self.actions, "finished": self.finished,
                               "violations": [v.to_json() for v in self.violations]}
        if self.error is not None:
            loc = self.error.location
            out["error"] = {"message": self.error.message, "file": loc.file if loc else self.file,
                            "line": loc.line if loc else None, "column": loc.column if loc else None}
        return out


class _Stop(Exception):
    """Raised to end the replay at the first violation."""


class Replayer:
    """Replays one record; collects violations."""

    def __init__(self, rec: RecordFile, ruleset: str | None = None, all_errors: bool = False,
                 max_violations: int = 50, cache: dict[Any, Ruleset] | None = None) -> None:
        self.rec = rec
        self.data = rec.data
        self.all_errors = all_errors
        self.max_violations = max_violations
        self.violations: list[Violation] = []
        name = ruleset or self.data["ruleset"]
        overlays = list(self.data.get("overlays") or [])
        params = self.data.get("params") or None
        # Within one run of many files the rule files do not change: a ruleset is resolved once.
        key = (name, tuple(overlays), repr(sorted((params or {}).items())))
        hit = cache.get(key) if cache is not None else None
        self.rs: Ruleset = hit if hit is not None else load_ruleset(name, overlays, params)
        if cache is not None:
            cache[key] = self.rs
        self.nt: Notation = notation(self.rs)
        self.players: list[str] = list(self.data["players"])
        if len(self.players) != self.rs.players:
            raise InputError(f"ruleset {self.rs.name!r} seats {self.rs.players} players, but the record names "
                             f"{len(self.players)}", rec.locate("players"))
        self.game: Game | None = None
        self.actions = 0
        # Fast paths for the common, well-formed values; anything else takes the careful path
        # that produces a message with a position.
        lookup = self.nt.lookup
        names = {p: i for i, p in enumerate(self.players)}
        n = len(self.players)

        def card(v: Any) -> Any:
            return lookup.get(v.upper(), _MISS) if type(v) is str else _MISS

        def seat(v: Any) -> Any:
            if type(v) is int:
                return v if 0 <= v < n else _MISS
            return names.get(v, _MISS) if type(v) is str else _MISS

        def boolean(v: Any) -> Any:
            return v if type(v) is bool else _MISS

        def integer(v: Any) -> Any:
            return v if type(v) is int else _MISS

        def cards(v: Any) -> Any:
            if type(v) is str:
                v = v.split()
            if type(v) is not list:
                return _MISS
            out = [card(x) for x in v]
            return _MISS if _MISS in out else out

        def hands(v: Any) -> Any:
            if type(v) is not list:
                return _MISS
            out = [cards(x) for x in v]
            return _MISS if _MISS in out else out

        self._fast = {"card": card, "seat": seat, "bool": boolean, "int": integer, "list[card]": cards,
                      "list[list[card]]": hands}
        self._seat_fast = seat
        # Per action: how many keys a complete entry has, and a fast reader per field.
        self._plans = {
            name: (len(d.fields) + 2, [(f, self._fast[t]) for f, t in d.fields])
            for name, d in self.rs.actions.items() if all(t in self._fast for _, t in d.fields)
        }
        self.applied_by_deal: list[list[Action]] = []  # every deal's actions, to explain an outcome later
        self.tracer_hook: Any = None  # set by rule coverage

    # ------------------------------------------------------------------ reading values
    def seat(self, value: Any, *path: Any) -> int:
        n = len(self.players)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise InputError(f"{place(path)}: a seat is a player's name or a number, not {value!r}",
                             self.rec.locate(*path))
        if isinstance(value, int):
            if 0 <= value < n:
                return value
            raise InputError(f"{place(path)}: there is no seat number {value}: a record numbers its seats from 0 "
                             f"(0 to {n - 1} here), or names the players", self.rec.locate(*path))
        if value in self.players:
            return self.players.index(value)
        raise InputError(f"{place(path)}: unknown player {value!r}; the players are {', '.join(self.players)}",
                         self.rec.locate(*path))

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
            raise InputError(str(exc), self.rec.locate(*path)) from None

    def describe(self, action: Action) -> str:
        j = encode_action(self.rs, self.nt, action, self.players)  # seats by name, as people say them
        parts = [j.pop("action")]
        j.pop("seat")
        parts += [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in j.items()]
        return " ".join(str(p) for p in parts)

    # ------------------------------------------------------------------ violations
    def violate(self, deal: int | None, index: int | None, seat: int | None, what: str, rule: str, reason: str,
                message: str, where: tuple[Any, ...]) -> None:
        loc = self.rec.locate(*where)
        self.violations.append(Violation(
            deal, index, seat, self.players[seat] if seat is not None else None, what, rule, reason, message,
            self.rs.sources_of(rule), loc))
        if not self.all_errors or len(self.violations) >= self.max_violations:
            raise _Stop

    # ------------------------------------------------------------------ replay
    def start(self) -> Game:
        d = self.data
        if "start" in d:
            st = d["start"]
            dealer = self.seat(st["dealer"], "start", "dealer")
            game = Game(self.rs, dealer=dealer, seed=0, tracer=self.tracer_hook)
            for var, val in (st.get("state") or {}).items():
                decl = self.rs.vars.get(var)
                if decl is None or decl.lifetime != "game" or decl.scope != "seat" or decl.zone:
                    raise InputError(f"start, state: {var!r} is not a per-player game variable of ruleset "
                                     f"{self.rs.name!r}", self.rec.locate("start", "state", var))
                if not isinstance(val, list) or len(val) != len(self.players):
                    raise InputError(f"start, state, {var}: give one value per player", self.rec.locate("start",
                                                                                                     "state", var))
                game.v[var] = [self.value(x, decl.type, "start", "state", var, i) for i, x in enumerate(val)]
        else:
            game = Game(self.rs, dealer=self.seat(d["first_dealer"], "first_dealer"), seed=0, tracer=self.tracer_hook)
        self.game = game
        return game

    def run(self) -> None:
        game = self.start()
        deals = self.data["deals"]
        try:
            for di, deal in enumerate(deals):
                self.replay_deal(game, di, deal, last=di == len(deals) - 1)
            self.check_final()
        except _Stop:
            pass

    def replay_deal(self, game: Game, di: int, deal: dict[str, Any], last: bool) -> None:
        n = di + 1
        if game.over:
            self.violate(n, None, None, "another deal", RECORD_RULE, "game-over",
                         "the game was already won before this deal", ("deals", di))
            return
        if "dealer" in deal:
            want = self.seat(deal["dealer"], "deals", di, "dealer")
            if want != game.v["dealer"]:
                rule = self._decider(*self._deal_start(di - 1), "dealer", None, True) if di > 0 else RECORD_RULE
                self.violate(n, None, want, f"dealer {self.players[want]}", rule,
                             "wrong-dealer", f"{self.players[game.v['dealer']]} deals this deal, not "
                             f"{self.players[want]}", ("deals", di, "dealer"))
        sheet_before = len(game.sheet)
        applied: list[Action] = []
        used_chance: set[str] = set()
        if not isinstance(deal, dict) or not isinstance(deal.get("actions"), list):
            raise InputError(f"{place(('deals', di))}: a deal is a mapping with a list of 'actions'",
                             self.rec.locate("deals", di))
        chance_fields = {f for a in self.rs.actions.values() if is_chance(a) for f, _ in a.fields}
        for key in deal:
            if key not in ("dealer", "actions", "result") and key not in chance_fields:
                raise InputError(f"{place(('deals', di))}: unknown field {key!r}", self.rec.locate("deals", di, key))
        actions = deal["actions"]
        ai = 0
        looked: tuple[str, int] | None = None
        while True:
            # The cards dealt (and the shuffled pack, where the cut is modelled) stand at the deal level.
            # A chance action can only appear when the phase changes, so look only then.
            decl = None
            if looked != (game.v["phase"], len(used_chance)):
                looked = (game.v["phase"], len(used_chance))
                decl = game.chance_action()
            if decl is not None and decl.name not in used_chance:
                missing = [f for f, _ in decl.fields if f not in deal]
                if missing:
                    if ai == 0 and not actions and last:
                        return  # a record may stop before the next deal is dealt
                    raise InputError(f"{place(('deals', di))}: the deal needs {', '.join(missing)}",
                                     self.rec.locate("deals", di))
                payload = {f: self.value(deal[f], t, "deals", di, f) for f, t in decl.fields}
                action = Action(decl.name, game.actors(decl)[0], payload)
                used_chance.add(decl.name)
                if not self.apply(game, action, n, None, ("deals", di, decl.fields[0][0])):
                    return
                applied.append(action)
                continue
            if ai >= len(actions):
                break
            if len(game.sheet) > sheet_before:
                self.violate(n, ai + 1, None, "more actions", RECORD_RULE, "after-end-of-deal",
                             "the deal is over, but the record goes on", ("deals", di, "actions", ai))
                return
            action = self.read_action(actions[ai], di, ai)
            self.actions += 1
            if action is not None and self.apply(game, action, n, ai + 1,
                                                 ("deals", di, "actions", ai)):
                applied.append(action)
            ai += 1
        self.applied_by_deal.append(applied)
        finished = len(game.sheet) > sheet_before
        if not finished:
            if not last:
                self.violate(n, None, None, "end of the deal", RECORD_RULE, "deal-incomplete",
                             f"the deal stops in phase {game.phase!r} before it is scored",
                             ("deals", di))
            return
        if "result" in deal:
            self.check_result(game, di, deal["result"], game.sheet[sheet_before])

    def read_action(self, a: dict[str, Any], di: int, ai: int) -> Action | None:
        if type(a) is dict and type(a.get("action")) is str:
            plan = self._plans.get(a["action"])
            if plan is not None and len(a) == plan[0]:
                # The common case, decoded without detours: every field present and well formed.
                seat = self._seat_fast(a.get("seat"))
                if seat is not _MISS:
                    payload = {}
                    for f, fast in plan[1]:
                        got = fast(a[f]) if f in a else _MISS
                        if got is _MISS:
                            break
                        payload[f] = got
                    else:
                        return Action(a["action"], seat, payload)
        if not isinstance(a, dict) or "seat" not in a or not isinstance(a.get("action"), str):
            raise InputError(f"{place(('deals', di, 'actions', ai))}: an action is a mapping with 'seat' and 'action'",
                             self.rec.locate("deals", di, "actions", ai))
        kind = a["action"]
        decl = self.rs.actions.get(kind)
        if decl is None:
            self.violate(di + 1, ai + 1, None, kind, RECORD_RULE, "unknown-action",
                         f"ruleset {self.rs.name!r} has no action {kind!r}; it has "
                         + ", ".join(sorted(x for x, d in self.rs.actions.items() if not is_chance(d))),
                         ("deals", di, "actions", ai, "action"))
            return None
        seat = self.seat(a["seat"], "deals", di, "actions", ai, "seat")
        fields = dict(decl.fields)
        for k in a:
            if k not in ("seat", "action") and k not in fields:
                raise InputError(f"{place(('deals', di, 'actions', ai))}: action {kind!r} has no field {k!r}; "
                                 "its fields are " + (", ".join(fields) or "none"),
                                 self.rec.locate("deals", di, "actions", ai, k))
        payload: dict[str, Any] = {}
        for f, t in decl.fields:
            if f in a:
                payload[f] = self.value(a[f], t, "deals", di, "actions", ai, f)
            elif T.base(t) == "bool":
                payload[f] = False  # a flag left out is not raised
            elif T.nullable(t):
                payload[f] = None
            else:
                raise InputError(f"{place(('deals', di, 'actions', ai))}: action {kind!r} needs the field {f!r}",
                                 self.rec.locate("deals", di, "actions", ai))
        return Action(kind, seat, payload)

    def apply(self, game: Game, action: Action, deal: int, index: int | None, where: tuple[Any, ...]) -> bool:
        rej = game.try_apply(action, typed=True)
        if rej is not None:
            self.violate(deal, index, action.seat, self.describe(action), rej.rule_id, rej.reason, rej.message, where)
            return False
        return True

    # ------------------------------------------------------------------ results
    def check_result(self, game: Game, di: int, result: dict[str, Any], row: dict[str, Any]) -> None:
        for key, want_raw in result.items():
            if key in row and key != "marks" and want_raw == sheet_value(self.rs, self.nt, key, row[key],
                                                                         self.players):
                continue  # written exactly as the oracle would write it
            if key not in row:
                raise InputError(f"{place(('deals', di, 'result'))}: {key!r} is not on the score sheet of ruleset "
                                 f"{self.rs.name!r}; it has {', '.join(k for k in row if k != 'deal')}",
                                 self.rec.locate("deals", di, "result", key))
            got = row[key]
            if key == "marks":
                want = [[str(m[0]), self.seat(m[1], "deals", di, "result", key)] for m in want_raw]
                if sorted(want) != sorted(got):
                    self.violate(di + 1, None, None, f"marks {want_raw}", RECORD_RULE, "wrong-marks",
                                 f"the sheet's marks are {got}", ("deals", di, "result", key))
                continue
            decl = self.rs.vars.get(key)
            t = decl.type if decl is not None else "any"
            if decl is not None and decl.scope == "seat":
                if not isinstance(want_raw, list) or len(want_raw) != len(self.players):
                    raise InputError(f"{place(('deals', di, 'result', key))}: give one value per player",
                                     self.rec.locate("deals", di, "result", key))
                want = [self.value(x, t, "deals", di, "result", key, i) for i, x in enumerate(want_raw)]
                bad = [i for i in range(len(want)) if want[i] != got[i]]
            else:
                want = self.value(want_raw, t, "deals", di, "result", key) if decl is not None else want_raw
                bad = [] if want == got else [None]
            if not bad:
                continue
            seat = bad[0]
            rule = self._decider(*self._deal_start(di), key, seat)
            shown = want[seat] if seat is not None else want
            truth = got[seat] if seat is not None else got
            self.violate(di + 1, None, seat, f"{key} {shown}", rule, "wrong-result",
                         f"the recorded {key} is {shown}, but the rules give {truth}",
                         ("deals", di, "result", key, *([] if seat is None else [seat])))

    def _deal_start(self, di: int) -> tuple[bytes, list[Action]]:
        """The state at the start of deal ``di`` and that deal's actions, by replaying the record's
        actions from the start: only needed when something must be explained, so not kept for every deal."""
        # Rebuild the starting state as run() did, then apply the deals before di.
        fresh = Replayer(self.rec, self.rs.name if self.rs.name in load_library().presets else None)
        fresh.rs = self.rs
        game = fresh.start()
        for actions in self.applied_by_deal[:di]:
            for a in actions:
                game.apply(a)
        return pickle.dumps((game.st.v, len(game.sheet), game.st.marks)), self.applied_by_deal[di]

    def _replay_traced(self, snapshot: bytes, applied: list[Action],
                       after_sheet: bool = False) -> list[tuple[str, str, int | None]]:
        """Replay a deal with clause tracing: (rule, variable, seat) for every value a clause changed.

        Changes made after the deal's row was written on the sheet (the next deal being set
        up) are left out, unless ``after_sheet`` asks for them: they explain the next dealer,
        not this deal's results.
        """
        v, _, marks = pickle.loads(snapshot)
        g = Game(self.rs, dealer=v["dealer"], seed=0)
        g.st.v = v
        g.st.marks = marks
        writes: list[tuple[str, str, int | None]] = []
        rows = len(g.sheet)

        def tracer(clause: Any, before_bytes: bytes, after: dict[str, Any]) -> None:
            # A clause that began after the deal's row was written belongs to the next deal.
            if not after_sheet and started[0]:
                return
            before = pickle.loads(before_bytes)
            for name, old in before.items():
                new = after[name]
                if old == new:
                    continue
                if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
                    writes.extend((clause.rule_id, name, i) for i in range(len(old)) if old[i] != new[i])
                else:
                    writes.append((clause.rule_id, name, None))
            started[0] = len(g.sheet) > rows
        started = [False]
        g.tracer = tracer
        for a in applied:
            g.apply(a)
        return writes

    def _decider(self, snapshot: bytes, applied: list[Action], key: str, seat: int | None,
                 after_sheet: bool = False) -> str:
        writes = self._replay_traced(snapshot, applied, after_sheet)
        # A value can be "explained by" another (a total by the deal's points): follow that link first.
        decl = self.rs.vars.get(key)
        for name in ([decl.explained_by] if decl is not None and decl.explained_by else []) + [key]:
            found = [r for r, var, s in writes if var == name and (seat is None or s in (seat, None))]
            if found:
                return found[-1]
        return decl.rule_id if decl is not None else RECORD_RULE

    def check_final(self) -> None:
        game = self.game
        assert game is not None
        res = self.data.get("result")
        if not res:
            return
        if "finished" in res and bool(res["finished"]) != game.over:
            self.violate(None, None, None, f"finished {res['finished']}", RECORD_RULE, "wrong-result",
                         "the game is " + ("" if game.over else "not ") + "over", ("result", "finished"))
        if res.get("winner") is not None:
            w = self.seat(res["winner"], "result", "winner")
            if w != game.v["winner"]:
                truth = self.players[game.v["winner"]] if game.v["winner"] is not None else "nobody"
                self.violate(None, None, w, f"winner {self.players[w]}", RECORD_RULE, "wrong-winner",
                             f"the winner is {truth}", ("result", "winner"))
        if "score" in res and res["score"] != game.v.get("score"):
            self.violate(None, None, None, f"score {res['score']}", RECORD_RULE, "wrong-result",
                         f"the final scores are {game.v.get('score')}", ("result", "score"))


def validate_record(rec: RecordFile, ruleset: str | None = None, all_errors: bool = False,
                    tracer: Any = None, keep: dict[str, Any] | None = None,
                    cache: dict[Any, Ruleset] | None = None) -> Verdict:
    """Replay a record; the verdict lists violations, or the error that made it unreadable.

    ``keep``, if given, receives the replayed game (for the score sheet).
    """
    try:
        r = Replayer(rec, ruleset, all_errors, cache=cache)
        r.tracer_hook = tracer
        if keep is not None:
            keep["replayer"] = r
        r.run()
        if keep is not None:
            keep["game"] = r.game
    except InputError as exc:
        return Verdict(rec.path, False, ruleset or str(rec.data.get("ruleset")), error=exc)
    except OracleError as exc:
        loc = exc.location or rec.locate("ruleset")
        return Verdict(rec.path, False, ruleset or str(rec.data.get("ruleset")), error=InputError(exc.message, loc))
    game = r.game
    assert game is not None
    return Verdict(rec.path, not r.violations, r.rs.name, len(game.sheet), r.actions, r.violations,
                   finished=game.over)
