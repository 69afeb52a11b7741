"""Replaying a record through the interpreter, exactly as a game is played.

Each action is decoded by the :class:`~.codec.Codec`, checked with ``Game.check`` and
applied. The first violation (or every one, with ``all_errors``) is kept with its deal,
action, seat, rule, reason, the rule's source lines, and its place in the file. A wrong
recorded result is charged to the rule whose logic last decided that value (see ``blame``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Notation, notation
from ..engine import Action, EffectCounter, Game, IllegalAction, PositionError, Rejection, Tracer
from ..errors import InputError, OracleError, ParamError
from ..lang import types as T
from ..places import place
from ..ruleset import Ruleset, RulesetRequest, load_ruleset
from ..state import Position
from .allowed import NOTHING, Allowed, allowed_actions, result_value
from .blame import RECORD_RULE, DealStart, decided_by, decided_by_each
from .codec import WRITTEN_AS_IS, Codec, Parts, encode_action, is_chance, sheet_value
from .reading import RecordFile
from .verdict import Violation


class _Stop(Exception):
    """Raised to end the replay at the first violation."""


def record_request(rec: RecordFile, ruleset: str | None = None) -> RulesetRequest:
    """What a record asks to be judged by: ``ruleset`` or its own, with its overlays and parameters."""
    data = rec.data
    return RulesetRequest.of(ruleset or data["ruleset"], list(data.get("overlays") or []), data.get("params") or None)


def record_ruleset(rec: RecordFile, ruleset: str | None = None,
                   cache: dict[RulesetRequest, Ruleset] | None = None) -> Ruleset:
    """The ruleset a record is judged by: ``ruleset`` or its own, with its overlays and parameters.

    A parameter the ruleset refuses is the record's fault, and is reported at the record's line.
    """
    request = record_request(rec, ruleset)
    # Within one run of many files the rule files do not change: a ruleset is resolved once.
    hit = cache.get(request) if cache is not None else None
    if hit is not None:
        return hit
    name, overlays, params = request.name, list(request.overlays), request.param_values
    try:
        rs = load_ruleset(request)
    except OracleError as exc:
        if isinstance(exc, ParamError) and params and exc.param in params:
            raise InputError(f"params/{exc.param}: {exc.message.removeprefix('override sets ')}",
                             rec.locate("params", exc.param)) from None
        if not params and not overlays:
            raise
        try:
            load_ruleset(name)
        except OracleError:
            raise exc from None
        # The named ruleset loads: the record's own overlays or parameters make it fail.
        field = "params"
        if overlays:
            try:
                load_ruleset(name, overlays)
            except OracleError:
                field = "overlays"
        raise InputError(f"{field}: {exc}", rec.locate(field)) from None
    if cache is not None:
        cache[request] = rs
    return rs


def _record_shape(rs: Ruleset) -> tuple[frozenset[str], frozenset[str]]:
    """What a record of this ruleset holds beside its actions: the deal-level fields (those of the
    chance actions: the cards dealt, the shuffled pack), and the sheet's values a record writes as
    they are (numbers and flags, compared without encoding)."""
    return (frozenset(f for a in rs.actions.values() if is_chance(a) for f, _ in a.fields),
            frozenset(d.name for d in rs.vars.values() if d.type in WRITTEN_AS_IS))


@dataclass(frozen=True)
class _WrongValue:
    """A value of a deal's row the record gets wrong, to be told as a violation; ``rule`` is None until blame
    names the rule that decided it."""

    key: str
    seat: int | None
    what: str
    reason: str
    message: str
    where: tuple[Any, ...]
    allowed: Allowed
    rule: str | None = None


class Replayer:
    """Replays one record; collects violations."""

    def __init__(self, rec: RecordFile, ruleset: str | None = None, all_errors: bool = False,
                 max_violations: int = 50, cache: dict[RulesetRequest, Ruleset] | None = None, *,
                 rules: Ruleset | None = None) -> None:
        self.rec = rec
        self.data = rec.data
        self.all_errors = all_errors
        self.max_violations = max_violations
        self.violations: list[Violation] = []
        # ``rules``: a ruleset already resolved (from another rule tree, say) to judge the record by.
        self.rs: Ruleset = rules if rules is not None else record_ruleset(rec, ruleset, cache)
        self.nt: Notation = notation(self.rs)
        self.players: list[str] = list(self.data["players"])
        if len(self.players) != self.rs.players:
            raise InputError(f"ruleset {self.rs.name!r} seats {self.rs.players} players, but the record names "
                             f"{len(self.players)}", rec.locate("players"))
        self.codec = Codec(self.rs, self.nt, self.players, rec.locate)
        self.chance_fields, self.as_is = self.rs.derived(_record_shape)
        self.game: Game | None = None
        self.actions = 0
        # Every deal's actions, to explain an outcome later: kept as their parts (kind, seat, payload),
        # as most are applied without an Action being made (see applied_by_deal); and the position at
        # each deal's start, so that any point of the game is one deal's replay away (see game_at).
        self._applied: list[list[Parts]] = []
        self._starts: list[Position] = []
        # The position the game started from, when it is known without a snapshot (the rules' own start).
        self._fresh: Position | None = None
        # --all-errors: the deals scored in the games before the last one (see resume).
        self._scored_before = 0
        self.to_the_end = False  # the replay went through every deal of the record
        self.tracer_hook: Tracer | EffectCounter | None = None  # set by rule coverage
        # Rule coverage: called with the game and each action's parts (kind, seat, payload) before the action
        # is checked, and then with what its check found (the refusal, or None: it was applied).
        self.decision_hook: Callable[[Game, str, int, Mapping[str, Any]], None] | None = None
        self.checked_hook: Callable[[Rejection | None], None] | None = None

    @property
    def applied_by_deal(self) -> list[list[Action]]:
        """Every deal's applied actions, in order (deal i's are item i), even those of a deal cut short."""
        return [self.applied_in(di) for di in range(len(self._applied))]

    def applied_in(self, di: int) -> list[Action]:
        """The actions applied in deal ``di`` (counted from 0), in order; none for a deal not reached."""
        return [Action(*parts) for parts in self._applied[di]] if 0 <= di < len(self._applied) else []

    # ------------------------------------------------------------------ reading values
    def seat(self, value: Any, *path: Any) -> int:
        return self.codec.seat(value, *path)

    def value(self, v: Any, t: str, *path: Any) -> Any:
        return self.codec.value(v, t, *path)

    def describe(self, action: Action) -> str:
        j = encode_action(self.rs, self.nt, action, self.players)  # seats by name, as people say them
        parts = [j.pop("action")]
        j.pop("seat")
        parts += [f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in j.items()]
        return " ".join(str(p) for p in parts)

    # ------------------------------------------------------------------ violations
    def violate(self, deal: int | None, index: int | None, seat: int | None, what: str, rule: str, reason: str,
                message: str, where: tuple[Any, ...], allowed: Allowed = NOTHING) -> None:
        loc = self.rec.locate(*where)
        doc = self.rs.rules.get(rule)
        self.violations.append(Violation(
            deal, index, seat, self.players[seat] if seat is not None else None, what, rule, reason, message,
            self.rs.sources_of(rule), loc, allowed,
            titles={str(k): str(t) for k, t in (doc.get("title") or {}).items()} if doc is not None else {}))
        if not self.all_errors or len(self.violations) >= self.max_violations:
            raise _Stop

    def allowed_now(self, game: Game, refused: Action | None = None) -> Allowed:
        return allowed_actions(game, self.rs, self.nt, self.players, refused)

    def right(self, key: str, value: Any, seat: int | None = None) -> Allowed:
        """The value of a result the rules give (of one seat's entry, for a per-seat value), as a record writes it."""
        shown = sheet_value(self.rs, self.nt, key, value, self.players)
        if seat is None:
            return result_value(key, shown)
        return result_value(key, shown[seat], self.players[seat])

    # ------------------------------------------------------------------ replay
    def start(self, tracer: Any = None) -> Game:
        """The game at the record's start (its first dealer, or its `start` state); kept as ``self.game``."""
        self.game = self.new_game(self.tracer_hook if tracer is None else tracer)
        return self.game

    def new_game(self, tracer: Any = None) -> Game:
        """The game at the record's start: its first dealer, or the position its `start` states."""
        d = self.data
        if "start" not in d:
            dealer = self.seat(d["first_dealer"], "first_dealer")
            if tracer is not None:  # the start rules run traced, to be counted
                return Game(self.rs, dealer=dealer, seed=0, tracer=tracer)
            game, self._fresh = Game.started(self.rs, dealer)
            return game
        st = d["start"]
        dealer = self.seat(st["dealer"], "start", "dealer")
        values: dict[str, list[Any]] = {}
        for var, val in (st.get("state") or {}).items():
            decl = self.rs.vars.get(var)
            # Read by the record's notation first (a card, a seat by name); the game checks the rest.
            if decl is not None and isinstance(val, list):
                val = [self.value(x, decl.type, "start", "state", var, i) for i, x in enumerate(val)]
            values[var] = val
        try:
            return Game(self.rs, dealer=dealer, seed=0, values=values, tracer=tracer)
        except PositionError as exc:
            where = ("start", "state", exc.var, *(() if exc.index is None else (exc.index,)))
            raise InputError(f"{place(where)}: {exc.message}", self.rec.locate(*where)) from None

    def run(self) -> None:
        game = self.start()
        deals = self.data["deals"]
        try:
            cut = False
            for di, deal in enumerate(deals):
                cut = self.replay_deal(game, di, deal, last=di == len(deals) - 1)
                if cut and di + 1 < len(deals):
                    game = self.resume(game, di + 1)
            if not cut:  # a game whose last deal was cut short has no end to judge
                self.check_final()
            self.to_the_end = True
        except _Stop:
            pass

    @property
    def scored(self) -> int:
        """The deals scored on the way (with --all-errors, in every game the replay went on in)."""
        return self._scored_before + (len(self.game.sheet) if self.game is not None else 0)

    # ------------------------------------------------------------------ --all-errors: independent errors
    def resume(self, game: Game, di: int) -> Game:
        """Go on at deal ``di`` from the position the record states, after an illegal action cut the deal
        before it short: its dealer as deal ``di`` names him, and each player's values that last a game
        (the scores, the barrel, the bolts) as the previous deal's result writes them, or as they stood.
        The next deal's errors are then its own, not the echo of the one before."""
        deal = self.data["deals"][di]
        prev = self.data["deals"][di - 1]
        dealer = (self.seat(deal["dealer"], "deals", di, "dealer") if isinstance(deal, dict) and "dealer" in deal
                  else game.v["dealer"])
        stated = prev.get("result") if isinstance(prev, dict) else None
        values: dict[str, list[Any]] = {}
        for name, decl in self.rs.vars.items():
            if decl.lifetime != "game" or decl.scope != "seat" or decl.zone:
                continue
            raw = stated.get(name) if isinstance(stated, dict) else None
            if isinstance(raw, list) and len(raw) == len(self.players):
                values[name] = [self.value(x, decl.type, "deals", di - 1, "result", name, i)
                                for i, x in enumerate(raw)]
            else:
                values[name] = list(game.v[name])
        self._scored_before += len(game.sheet)
        try:
            self.game = Game(self.rs, dealer=dealer, seed=0, values=values, tracer=self.tracer_hook)
        except PositionError as exc:
            where = ("deals", di - 1, "result", exc.var, *(() if exc.index is None else (exc.index,)))
            raise InputError(f"{place(where)}: {exc.message}", self.rec.locate(*where)) from None
        return self.game

    def _cut(self, deal: Any, ai: int) -> None:
        """With --all-errors, the deal stops at its first illegal action: the last violation says how many of
        its actions were left unjudged (the rest of the deal would only echo it)."""
        left = len(deal["actions"]) - ai
        last = self.violations[-1]
        last.skipped = left

    def replay_deal(self, game: Game, di: int, deal: Any, last: bool) -> bool:
        """Replay one deal; True when an illegal action cut it short (with all_errors the replay goes on)."""
        # Every deal's actions are kept, even those of a deal cut short by a violation (with
        # all_errors the replay goes on), so deal i's actions are always applied_by_deal[i].
        del self._applied[di:]
        self._applied.extend([] for _ in range(di + 1 - len(self._applied)))
        del self._starts[di:]
        fresh, self._fresh = self._fresh, None
        self._starts.append(fresh if di == 0 and fresh is not None else game.snapshot())
        return self._replay_deal(game, di, deal, last, self._applied[di])

    def _replay_deal(self, game: Game, di: int, deal: Any, last: bool, applied: list[Parts]) -> bool:
        """Replay one deal into ``game``; True when an illegal action cut it short."""
        n = di + 1
        if not isinstance(deal, dict) or not isinstance(deal.get("actions"), list):
            raise InputError(f"{place(('deals', di))}: "
                             f"a deal is a mapping with a list of 'actions'", self.rec.locate("deals", di))
        if game.over:
            self.violate(n, None, None, "another deal", RECORD_RULE, "game-over",
                         "the game was already won before this deal", ("deals", di), NOTHING)
            return False
        self.check_dealer(game, di, deal)
        sheet_before = len(game.sheet)
        used_chance: set[str] = set()
        chance_fields = self.chance_fields
        for key in deal:
            if key not in ("dealer", "actions", "result") and key not in chance_fields:
                raise InputError(f"{place(('deals', di))}: unknown field {key!r}", self.rec.locate("deals", di, key))
        actions = deal["actions"]
        ai = 0
        v = game.v
        sheet = game.sheet
        looked_phase, looked_used = None, -1
        try_apply = game.stepper()
        hook = self.decision_hook
        checked = self.checked_hook
        # Plain runs of entries in one generated loop; none when a hook must see each action.
        run = (game.runner(self.codec.shape, self.codec.seat_of, self.codec.card_of)
               if hook is None and checked is None else None)
        while True:
            # The cards dealt (and the shuffled pack, where the cut is modelled) stand at the deal level.
            # A chance action can only appear when the phase changes, so look only then.
            decl = None
            if v["phase"] != looked_phase or len(used_chance) != looked_used:
                looked_phase, looked_used = v["phase"], len(used_chance)
                decl = game.chance_action()
            if decl is not None and decl.name not in used_chance:
                missing = [f for f, _ in decl.fields if f not in deal]
                if missing:
                    if ai == 0 and not actions and last:
                        return False  # a record may stop before the next deal is dealt
                    raise InputError(f"{place(('deals', di))}: the deal needs {', '.join(missing)}",
                                     self.rec.locate("deals", di))
                payload = {f: self.value(deal[f], t, "deals", di, f) for f, t in decl.fields}
                action = Action(decl.name, game.actors(decl)[0], payload)
                used_chance.add(decl.name)
                if not self.apply(game, action, n, None, ("deals", di, decl.fields[0][0])):
                    self._cut(deal, ai)
                    return True
                applied.append((action.kind, action.seat, action.payload))
                continue
            if ai >= len(actions):
                break
            if len(sheet) > sheet_before:
                self.violate(n, ai + 1, None, "more actions", RECORD_RULE, "after-end-of-deal",
                             "the deal is over, but the record goes on", ("deals", di, "actions", ai))
                return False
            # A run of ordinary actions in one phase, the bulk of a record, at the least cost per action.
            start = ai
            while ai < len(actions) and v["phase"] == looked_phase:
                if run is not None:
                    went = run(actions, ai, applied)
                    if went != ai:
                        ai = went
                        if len(sheet) > sheet_before:
                            break
                        continue
                parts = self.read_parts(actions[ai], di, ai)  # the fast reader first, then the careful one
                ai += 1
                if parts is None:  # an action the ruleset does not have, noted
                    self.actions += ai - start
                    self._cut(deal, ai)
                    return True
                if hook is not None:
                    hook(game, *parts)
                rej = try_apply(*parts)
                if checked is not None:
                    checked(rej)
                if rej is None:
                    applied.append(parts)
                    if len(sheet) > sheet_before:
                        break
                else:
                    self.refused(game, Action(*parts), rej, n, ai, ("deals", di, "actions", ai - 1))
                    self.actions += ai - start
                    self._cut(deal, ai)
                    return True
            self.actions += ai - start
        finished = len(game.sheet) > sheet_before
        if not finished:
            if not last:
                self.violate(n, None, None, "end of the deal", RECORD_RULE, "deal-incomplete",
                             f"the deal stops in phase {game.phase!r} before it is scored",
                             ("deals", di), self.allowed_now(game))
            return False
        if "result" in deal:
            self.check_result(game, di, deal["result"], game.sheet[sheet_before])
        return False

    def check_dealer(self, game: Game, di: int, deal: dict[str, Any]) -> bool:
        """Whether the deal names the dealer the rules give (or none); a violation noted otherwise."""
        if "dealer" not in deal:
            return True
        want = self.seat(deal["dealer"], "deals", di, "dealer")
        if want == game.v["dealer"]:
            return True
        rule = decided_by(self.rs, self.deal_start(di - 1), "dealer", None, True) if di > 0 else RECORD_RULE
        self.violate(di + 1, None, want, f"dealer {self.players[want]}", rule,
                     "wrong-dealer", f"{self.players[game.v['dealer']]} deals this deal, not "
                     f"{self.players[want]}", ("deals", di, "dealer"),
                     result_value("dealer", self.players[game.v["dealer"]]))
        return False

    def read_action(self, a: Any, di: int, ai: int) -> Action | None:
        """Action entry ``ai`` of deal ``di``, as :meth:`read_parts` reads it."""
        parts = self.read_parts(a, di, ai)
        return None if parts is None else Action(*parts)

    def read_parts(self, a: Any, di: int, ai: int) -> Parts | None:
        """Action entry ``ai`` of deal ``di`` as its parts (kind, seat, payload); None, with the violation
        noted, for an action the ruleset does not have; an InputError for an entry that is malformed."""
        fast = self.codec.fast_parts(a)
        if fast is not None:
            return fast  # the common case, decoded without detours: every field present and well formed
        if not isinstance(a, dict) or "seat" not in a or not isinstance(a.get("action"), str):
            raise InputError(f"{place(('deals', di, 'actions', ai))}: an action is a mapping with 'seat' and 'action'",
                             self.rec.locate("deals", di, "actions", ai))
        kind = a["action"]
        decl = self.rs.actions.get(kind)
        if decl is None:
            self.violate(di + 1, ai + 1, None, kind, RECORD_RULE, "unknown-action",
                         f"ruleset {self.rs.name!r} has no action {kind!r}; it has "
                         + ", ".join(sorted(x for x, d in self.rs.actions.items() if not is_chance(d))),
                         ("deals", di, "actions", ai, "action"),
                         self.allowed_now(self.game) if self.game is not None else NOTHING)
            return None
        seat = self.seat(a["seat"], "deals", di, "actions", ai, "seat")
        fields = dict(decl.fields)
        for k in a:
            if k not in ("seat", "action") and k not in fields:
                raise InputError(f"{place(('deals', di, 'actions', ai))}: action {kind!r} has no field {k!r}; "
                                 "its fields are "
                                 + (", ".join(fields) or "none"), self.rec.locate("deals", di, "actions", ai, k))
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
        return kind, seat, payload

    def apply(self, game: Game, action: Action, deal: int, index: int | None, where: tuple[Any, ...]) -> bool:
        """Check and apply one action; False, with the violation noted, if the rules refuse it."""
        if self.decision_hook is not None:
            self.decision_hook(game, action.kind, action.seat, action.payload)
        rej = game.try_apply(action, typed=True)
        if self.checked_hook is not None:
            self.checked_hook(rej)
        if rej is not None:
            self.refused(game, action, rej, deal, index, where)
            return False
        return True

    def refused(self, game: Game, action: Action, rej: Rejection, deal: int, index: int | None,
                where: tuple[Any, ...]) -> None:
        message = rej.message
        if rej.reason == "not-your-turn":
            # Seats by the names the record gives them, as everywhere else in a verdict.
            who = game.actors(self.rs.actions[action.kind])
            message = (f"{self.players[action.seat]} cannot {action.kind} now"
                       + (f"; {self.players[who[0]]} is to act" if len(who) == 1 else ""))
        self.violate(deal, index, action.seat, self.describe(action), rej.rule_id, rej.reason, message, where,
                     self.allowed_now(game, action))

    # ------------------------------------------------------------------ results
    def check_result(self, game: Game, di: int, result: Any, row: dict[str, Any]) -> None:
        if not isinstance(result, dict):
            raise InputError(f"{place(('deals', di, 'result'))}: "
                             f"the result is a mapping of score-sheet values, not {result!r}",
                             self.rec.locate("deals", di, "result"))
        # The row's wrong values, in the result's order, told once every value is read: those a rule decided
        # are blamed together, by one traced replay of the deal (with all_errors there may be several; without
        # it the first is told, and the replay stops there).
        wrong: list[_WrongValue] = []
        try:
            self._wrong_values(di, result, row, wrong)
        except InputError:
            self._tell_wrong(di, wrong)  # the values before the faulty one are told, as they are read first
            raise
        self._tell_wrong(di, wrong)

    def _wrong_values(self, di: int, result: dict[str, Any], row: dict[str, Any], wrong: list[_WrongValue]) -> None:
        as_is = self.as_is
        for key, want_raw in result.items():
            if key in row and (want_raw == row[key] if key in as_is else
                               want_raw == sheet_value(self.rs, self.nt, key, row[key], self.players)):
                continue  # written exactly as the oracle would write it (marks too: in the sheet's order)
            if key not in row:
                raise InputError(f"{place(('deals', di, 'result'))}: {key!r} is not on the score sheet of ruleset "
                                 f"{self.rs.name!r}; it has {', '.join(k for k in row if k != 'deal')}",
                                 self.rec.locate("deals", di, "result", key))
            got = row[key]
            if key == "marks":
                want = self._marks(want_raw, di)
                if sorted(want) != sorted(got):
                    wrong.append(_WrongValue(key, None, f"marks {want_raw}", "wrong-marks",
                                             f"the sheet's marks are {got}", ("deals", di, "result", key),
                                             self.right(key, got), RECORD_RULE))
                    if not self.all_errors:
                        return
                continue
            decl = self.rs.vars.get(key)
            t = decl.type if decl is not None else "any"
            if decl is not None and decl.scope == "seat":
                if not isinstance(want_raw, list) or len(want_raw) != len(self.players):
                    raise InputError(f"{place(('deals', di, 'result', key))}: give one value per player",
                                     self.rec.locate("deals", di, "result", key))
                want = [self.value(x, t, "deals", di, "result", key, i) for i, x in enumerate(want_raw)]
                bad: list[int | None] = [i for i in range(len(want)) if want[i] != got[i]]
            else:
                want = self.value(want_raw, t, "deals", di, "result", key) if decl is not None else want_raw
                bad = [] if want == got else [None]
            if not bad:
                continue
            seat = bad[0]
            shown = want[seat] if seat is not None else want
            truth = got[seat] if seat is not None else got
            wrong.append(_WrongValue(key, seat, f"{key} {shown}", "wrong-result",
                                     f"the recorded {key} is {shown}, but the rules give {truth}",
                                     ("deals", di, "result", key, *([] if seat is None else [seat])),
                                     self.right(key, got, seat)))
            if not self.all_errors:
                return

    def _tell_wrong(self, di: int, wrong: list[_WrongValue]) -> None:
        if not wrong:
            return  # the common case: nothing to blame, so no deal start to gather
        asked = [(w.key, w.seat) for w in wrong if w.rule is None]
        decided = iter(decided_by_each(self.rs, self.deal_start(di), asked))
        for w in wrong:
            self.violate(di + 1, None, w.seat, w.what, w.rule if w.rule is not None else next(decided), w.reason,
                         w.message, w.where, w.allowed)

    def _marks(self, raw: Any, di: int) -> list[list[Any]]:
        """Recorded marks: a list of [mark, player] pairs."""
        if not isinstance(raw, list):
            raise InputError(f"{place(('deals', di, 'result', 'marks'))}: "
                             f"marks are a list of [mark, player] pairs, not {raw!r}",
                             self.rec.locate("deals", di, "result", "marks"))
        out = []
        for i, m in enumerate(raw):
            if not isinstance(m, list) or len(m) != 2 or not isinstance(m[0], str):
                raise InputError(f"{place(('deals', di, 'result', 'marks', i))}: "
                                 f"a mark is a pair [mark, player], not {m!r}",
                                 self.rec.locate("deals", di, "result", "marks", i))
            out.append([m[0], self.seat(m[1], "deals", di, "result", "marks", i, 1)])
        return out

    def deal_start(self, di: int) -> DealStart:
        """The position at the start of deal ``di`` (counted from 0) and that deal's actions."""
        return DealStart(self._starts[di], tuple(self._applied[di]) if 0 <= di < len(self._applied) else ())

    def game_at(self, di: int, applied: int | None = None, tracer: Tracer | EffectCounter | None = None) -> Game:
        """A new game at the start of deal ``di`` (counted from 0) with the first ``applied`` of that deal's
        applied actions done (all of them when None): any point of the replay, at the cost of one deal."""
        game = Game.at(self._starts[di], tracer)
        for parts in self._applied[di][:applied]:  # applied once already: their payloads are of the right types
            rej = game.try_apply_typed(*parts)
            if rej is not None:
                raise IllegalAction(rej)
        return game

    @property
    def deals_reached(self) -> int:
        """How many deals the replay started (the deal it stopped in included)."""
        return len(self._starts)

    def check_final(self) -> None:
        game = self.game
        assert game is not None
        res = self.data.get("result")
        if not res:
            return
        if "finished" in res and bool(res["finished"]) != game.over:
            self.violate(None, None, None, f"finished {res['finished']}", RECORD_RULE, "wrong-result",
                         "the game is " + ("" if game.over else "not ") + "over", ("result", "finished"),
                         result_value("finished", game.over))
        if res.get("winner") is not None:
            w = self.seat(res["winner"], "result", "winner")
            if w != game.v["winner"]:
                truth = self.players[game.v["winner"]] if game.v["winner"] is not None else "nobody"
                self.violate(None, None, w, f"winner {self.players[w]}", RECORD_RULE, "wrong-winner",
                             f"the winner is {truth}", ("result", "winner"), result_value("winner", truth))
        # The record format's "score" is the sheet's total column, whatever the rules call it.
        total = game.v[self.rs.sheet.total]
        if "score" in res and res["score"] != total:
            self.violate(None, None, None, f"score {res['score']}", RECORD_RULE, "wrong-result",
                         f"the final scores are {total}", ("result", "score"), result_value("score", total))
